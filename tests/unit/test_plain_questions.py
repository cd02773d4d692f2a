"""Plain questions people ask of their own documents (the twenty-ninth round): a polite request for a noun phrase,
a comparative the parser tells by its form, a closing time asked without "what time", a place named with its kind
noun, a rate or a participle after the noun asked, a sum read whole with its currency, a postcode kept in an
address, and two rows of a table compared by the value the comparative asks for."""

from __future__ import annotations

import pytest

from kmrag.answer.extractive import STREET_ADDRESS
from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.rephrase import rephrase
from kmrag.retrieval.analysis import QuestionAnalyser
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    return SpacyExtractor()


@pytest.mark.parametrize("asked, read", [
    ("Could you tell me the price per person for a brewery tour?", "What is the price per person for a brewery tour?"),
    ("Could you tell me the amount agreed for the book fund for 2024/25?",
     "What is the amount agreed for the book fund for 2024/25?"),
    ("Tell me the opening hours of Ashcombe Road library.", "What are the opening hours of Ashcombe Road library?"),
    ("Tell me the manager at Fenwick Green.", "Who is the manager at Fenwick Green?"),
    ("Please give me the head brewer's phone number.", "What is the head brewer's phone number?"),
    # a clause is no noun phrase: its own verb says what is asked
    ("Could you tell me the film I saw yesterday?", "Could you tell me the film I saw yesterday?"),
    ("Tell me the man arrested the thief.", "Tell me the man arrested the thief."),
])
def test_a_request_for_a_noun_phrase_is_asked_as_what_it_is(asked: str, read: str) -> None:
    assert rephrase(asked) == read
    assert rephrase(read) == read


@pytest.mark.parametrize("question, compared", [
    ("Which is stronger, Sallow Lane Stout or Copperkettle Red?", ["Sallow Lane Stout", "Copperkettle Red"]),
    ("Which is cheaper, the Vale Week or the Vale Day?", ["the Vale Week", "the Vale Day"]),
])
def test_a_comparative_told_by_its_form_compares_the_options(x: SpacyExtractor, question: str,
                                                             compared: list[str]) -> None:
    got = QuestionAnalyser(x).analyse(question)
    assert got.kind == "comparison" and got.compared == compared


def test_a_name_s_word_is_no_comparative(x: SpacyExtractor) -> None:
    got = QuestionAnalyser(x).analyse("Which club is in Leeds, Greater Manchester or York?")
    assert got.kind != "comparison"


@pytest.mark.parametrize("question, answer_type", [
    ("fenwick green closing time thursday", "TIME"),
    ("What are the opening times of the museum?", "TIME"),
    ("What is the price per person for a brewery tour?", "MONEY"),
    ("What is the amount agreed for the book fund for 2024/25?", "NUMBER"),
])
def test_what_a_plain_question_asks_for(x: SpacyExtractor, question: str, answer_type: str) -> None:
    assert QuestionAnalyser(x).analyse(question).answer_type == answer_type


def test_a_place_named_with_its_kind_noun_is_no_hop(x: SpacyExtractor) -> None:
    analyser = QuestionAnalyser(x)
    for question in ("What is the address of the Fenwick Green library?", "Who manages the Fenwick Green library?"):
        assert analyser.analyse(question).sub_question is None, question
    # a role after a name still is one ("the Sea of Flags performer"), and a clause after a kind noun
    assert analyser.analyse("When was the Sea of Flags performer born?").sub_question is not None
    assert analyser.analyse("Who is the mayor of the city where Lufthansa is based?").sub_question is not None


@pytest.mark.parametrize("text, address", [
    ("3 Tollard Lane, Fenwick Green KB3 9LD · Tel: 01632 480 355", "3 Tollard Lane, Fenwick Green KB3 9LD"),
    ("14 High Street, Kestlebury KB1 2AA", "14 High Street, Kestlebury KB1 2AA"),
    ("12 Market Square, Kestlebury", "12 Market Square, Kestlebury"),
])
def test_an_address_keeps_its_postcode_after_a_town_of_two_words(text: str, address: str) -> None:
    found = STREET_ADDRESS.search(text)
    assert found is not None and found.group(0) == address


TOUR = ("Brewery Tours run on Saturdays at 13:00 and 15:00. Each tour lasts about 75 minutes, is led by one of the "
        "brewing team and costs £14 per person, including a tasting flight at the end.")
BEERS = ("| Beer | Style | ABV | IBU | Availability |\n|---|---|---|---|---|\n"
         "| Marrowick Mild | Dark Mild | 3.6% | 18 | Core |\n"
         "| Sallow Lane Stout | Oatmeal Stout | 5.2% | 30 | Core |\n"
         "| Copperkettle Red | Irish Red Ale | 5.0% | 26 | Seasonal, Oct–Dec |\n"
         "| Nightjar | Imperial Stout | 10.4% | 55 | Annual release |")


def test_a_sum_is_read_whole_with_its_currency(x: SpacyExtractor) -> None:
    assert answer(x, "What is the price per person for a brewery tour?", [(TOUR, "paragraph", "Visit us", "")])[0] \
        == "£14"


@pytest.mark.parametrize("question, winner", [
    ("Which is stronger, Sallow Lane Stout or Copperkettle Red?", "Sallow Lane Stout"),
    ("Which is weaker, Nightjar or Sallow Lane Stout?", "Sallow Lane Stout"),
    ("Which is stronger, Marrowick Mild or Nightjar?", "Nightjar"),
])
def test_two_rows_compared_by_the_percentage_strength_asks_for(x: SpacyExtractor, question: str, winner: str) -> None:
    got = basis(x, question, [(BEERS, "table", "Our beers", "")])
    assert got.get("kind") == "comparison" and got.get("winner") == winner
    values = {e["name"]: e["value"] for e in got["entities"]}  # type: ignore[union-attr]
    assert set(values.values()) <= {3.6, 5.2, 5.0, 10.4}  # the ABV cells, never the IBU's


PRICES = ("| Item | Price |\n|---|---|\n| Gift voucher (25 uses) | £40.00 |\n| Tasting flight (4 x 1/3 pint) | £9.50 |")


def test_two_rows_compared_by_price_read_their_sums(x: SpacyExtractor) -> None:
    """Without the price rule the first number of each row decides: 25 uses against 4 thirds of a pint."""
    got = basis(x, "Which is cheaper, Gift voucher (25 uses) or Tasting flight (4 x 1/3 pint)?",
                [(PRICES, "table", "Prices", "")])
    assert got.get("kind") == "comparison" and got.get("winner") == "Tasting flight (4 x 1/3 pint)"
    assert {e["value"] for e in got["entities"]} == {40.0, 9.5}  # type: ignore[union-attr]
