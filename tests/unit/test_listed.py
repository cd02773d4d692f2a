"""List answers: a question asking for a stated number of things is answered by the list a span gives of exactly
that many, after the same number and noun (kmrag.answer.listed), and by nothing else."""

from __future__ import annotations

import pytest

from kmrag.answer.listed import asked_count, stated_list
from kmrag.nlp.extract import SpacyExtractor
from tests.unit.test_extractive_answers import answer

pytestmark = pytest.mark.unit

MODES = ("Advanced RAG patterns address three failure modes: insufficient reasoning depth (multi-hop RAG), "
         "overconfident generation on weak retrieval (self-RAG), and silent retrieval failure (corrective RAG).")
DIALECTS = ("Western Catalan comprises the two dialects of Northwestern Catalan and Valencian; the Eastern block "
            "comprises four dialects: Central Catalan, Balearic, Rossellonese, and Alguerese.")


@pytest.mark.parametrize(("question", "asked"), [
    ("What are the three failure modes that advanced RAG patterns address?", (3, "modes")),
    ("What two dialects does Western Catalan include?", (2, "dialects")),
    ("In what 2 countries did the brand open stores?", (2, "countries")),
    ("Which four dialects make up the Eastern block?", (4, "dialects")),
    ("Name the four dialects of the Eastern block.", (4, "dialects")),
    ("Tell me the two founders of the company.", (2, "founders")),
    ("How many dialects does Western Catalan have?", None),             # a count is asked, not the things
    ("What offence were Khalid Latif and 5 other cricketers suspended for?", None),  # the number is not asked
    ("What is the one thing it needs?", None),
    ("Who wrote the two novels?", None),                                  # one person asked, not two things
    ("Which 2 of these is older?", None),                                 # one of two asked
    ("What 3 of his films won awards?", None),
    ("What two Swiss cities host it?", (2, "cities")),                    # "Swiss" is no plural
    ("What two Texas cities host it?", (2, "cities")),                    # nor is a name
    ("Which two men founded it?", (2, "men")),
    ("Who are the two founders?", (2, "founders")),
])
def test_a_stated_number_of_things_asked(question: str, asked: tuple[int, str] | None) -> None:
    assert asked_count(question) == asked


def test_the_list_of_exactly_that_many_after_the_same_number_and_noun() -> None:
    assert stated_list(MODES, 3, "modes") == (
        "insufficient reasoning depth (multi-hop RAG), overconfident generation on weak retrieval (self-RAG), and "
        "silent retrieval failure (corrective RAG)", 51)
    assert stated_list(DIALECTS, 2, "dialects") == ("Northwestern Catalan and Valencian", 46)
    assert stated_list(DIALECTS, 4, "dialects") == ("Central Catalan, Balearic, Rossellonese, and Alguerese", 125)
    assert stated_list("The two founders were Ann Lee and Bob Ray.", 2, "founders") == ("Ann Lee and Bob Ray", 22)
    assert stated_list("It has two campuses, namely Leeds and York.", 2, "campuses") == ("Leeds and York", 28)
    assert stated_list("two novels: A and B, both set in Paris.", 2, "novels") == ("A and B", 12)  # ends at "and B"
    assert stated_list("Three states, namely Ohio, Texas and Utah, voted no", 3, "states") == ("Ohio, Texas and Utah", 21)
    assert stated_list("the two cities of Minneapolis and St. Paul", 2, "cities") == ("Minneapolis and St. Paul", 18)
    assert stated_list("the two countries of the U.S. and Canada.", 2, "countries") == ("U.S. and Canada", 25)
    assert stated_list("Two dialects: A and B\nThe third: C", 2, "dialects") == ("A and B", 14)  # a line ends it
    both = "Western Catalan comprises two dialects: A and B; Eastern Catalan comprises two dialects: C and D."
    assert stated_list(both, 2, "dialects") == ("A and B", 40)
    assert stated_list(both, 2, "dialects", about=["Eastern Catalan"])[0] == "C and D"  # the one about the name asked


@pytest.mark.parametrize(("text", "count", "noun"), [
    (DIALECTS, 3, "dialects"),                                   # no list of three
    (DIALECTS, 2, "regions"),                                     # the noun is not the one asked
    ("He directed two films, Alpha and Beta, in 1990.", 2, "films"),  # an aside, not an introduced list
    ("He directed two films in 1990 and 1991.", 2, "films"),        # no list follows the noun
    ("The three founders: Ann Lee and Bob Ray.", 3, "founders"),  # two items listed for three
    ("Two dialects: " + ", ".join(["a very long item that goes on and on and on and on and on and on"] * 2) + ".",
     2, "dialects"),                                             # items that are clauses
    ("The two teams were founded in 1990 and 1991.", 2, "teams"),   # after "were": a verb phrase, no names
    ("The two sisters were born in Paris and raised in London.", 2, "sisters"),
    ("The two sons of Henry VIII and Anne Boleyn died young.", 2, "sons"),  # "of" after people: their parents
    ("He has two books of poetry and prose.", 2, "books"),          # "of" before no names
    ("two books: A and B, and C", 2, "books"),                      # the list goes on past two
    ("Python 3 features: f-strings, async, and type hints.", 3, "features"),  # a version, not a count
])
def test_no_list_when_number_noun_or_items_do_not_hold(text: str, count: int, noun: str) -> None:
    assert stated_list(text, count, noun) is None


def test_the_direct_answer_is_the_list_as_written(x: SpacyExtractor) -> None:
    direct, quotes, _ = answer(x, "What are the three failure modes that advanced RAG patterns address?", [
        ("Corrective RAG scores retrieval quality and falls back when it is low.", "paragraph", "Corrective RAG", ""),
        (MODES, "paragraph", "Why this matters", ""),
    ])
    assert direct == ("insufficient reasoning depth (multi-hop RAG), overconfident generation on weak retrieval "
                      "(self-RAG), and silent retrieval failure (corrective RAG)")
    assert MODES in quotes


def test_a_span_listing_another_number_gives_no_list(x: SpacyExtractor) -> None:
    direct, _, _ = answer(x, "What are the three dialects of the Eastern block?", [(DIALECTS, "paragraph", "Catalan", "")])
    assert direct is None or "," not in direct  # no list of four offered as three
