"""Slips in a question's own words are mended; names, quoted titles and real words are left as typed
(kmrag.answer.spelling)."""

from __future__ import annotations

import pytest

from kmrag.answer.spelling import mend, mend_slips
from kmrag.nlp.extract import SpacyExtractor

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def known() -> object:
    from kmrag.answer.spelling import english_words

    return english_words()


@pytest.mark.parametrize(("typed", "meant"), [
    ("are Jaca Cathedral and Temple Of Proserpina locatd in the same contry?",
     "are Jaca Cathedral and Temple Of Proserpina located in the same country?"),
    ("wich Canadian heavy metal band put out Safe as its second EP?",  # "which", a dropped letter, not "with"
     "which Canadian heavy metal band put out Safe as its second EP?"),
    ("whcih airport serves Delhi?", "which airport serves Delhi?"),  # two letters swapped
    ("What is the nationalty of the grandfater of Ana Lind?", "What is the nationality of the grandfather of Ana Lind?"),
])
def test_a_slip_in_a_question_word_is_mended(known: object, typed: str, meant: str) -> None:
    assert mend_slips(typed, known) == meant


@pytest.mark.parametrize("question", [
    "Who was in the cast of Lufthansa?",  # "cast" is a word, not a slip of "case"
    "Who wrote \"la fida ninfa\"?",  # quoted: a title as written
    "Where was Carsten Spohrr born?",  # a name
    "When was the director of Polish Wedding borm?",  # "born" or "form": which is not plain
    "Who is teh founder?",  # too short to tell
    "Wich film came out first?",  # capitalised: may be a name
    "why dont the founders of lufthansa and air india share a hub?",  # a contraction without its apostrophe
    "which country is wien in?",  # a four-letter word one letter off "when": not plainly a slip
    "who directed the film oder?",
])
def test_names_titles_real_words_and_unclear_slips_are_left(known: object, question: str) -> None:
    assert mend_slips(question, known) == question


def test_a_known_word_is_never_mended(known: object, x: SpacyExtractor) -> None:
    assert mend("cast", known) is None and mend("contry", known) == "country" and mend("contry", {"contry"}) is None
    x.nlp("The contry road.")  # the pipeline's string store now holds the slip; the vocabulary read stays fixed
    assert mend("contry") == "country"


@pytest.mark.parametrize(("typed", "meant"), [
    ("Which movie has the director who was born frist, Dark Harbour or Grey Orchard?",
     "Which movie has the director who was born first, Dark Harbour or Grey Orchard?"),
    ("which flim came out first?", "which film came out first?"),
    ("did the alter ego come first?", "did the alter ego come first?"),  # "alter" is "later" swapped, and a word
    ("are Lygodium and Maxillaria both genera of orchids?", "are Lygodium and Maxillaria both genera of orchids?"),
    ("what was the date of brith of Tom Vey?", "what was the date of birth of Tom Vey?"),  # a rare lemma, no form
])
def test_two_letters_swapped_in_a_question_word_the_model_has_read_are_mended(typed: str, meant: str) -> None:
    """"frist" and "flim" are in the spaCy model's vocabulary (typos it read); WordNet lists neither, and each is
    one swap from a word questions ask by. Words WordNet lists stay ("alter", one swap from "later"), and so do
    the irregular forms it lists ("genera" of "genus", which the model had not read, was once mended to "general");
    a rare lemma is still a slip ("brith" is "birth")."""
    from kmrag.nlp import wordnet

    if not wordnet.available():
        pytest.skip("WordNet's files are not installed (apt-get install wordnet-base)")
    assert mend_slips(typed) == meant


def test_without_wordnet_a_word_the_model_has_read_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without WordNet's files nothing tells "frist" (a typo the model read) from a word: it is left as typed."""
    from kmrag.nlp import wordnet

    monkeypatch.setenv("KMRAG_WORDNET_DIR", "off")
    wordnet.directory.cache_clear()
    try:
        assert mend_slips("which film came out frist?") == "which film came out frist?"
        assert mend_slips("are Jaca Cathedral and Temple Of Proserpina locatd in the same contry?") == \
            "are Jaca Cathedral and Temple Of Proserpina located in the same country?"
    finally:
        monkeypatch.delenv("KMRAG_WORDNET_DIR")
        wordnet.directory.cache_clear()

