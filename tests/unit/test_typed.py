"""How people type a question: shorthand, fillers, confirming tails and several short messages, written out
(kmrag.nlp.typed), and what the rephraser then reads. Invented names throughout."""

from __future__ import annotations

import pytest

from kmrag.nlp.typed import spelled_out

pytestmark = pytest.mark.unit

SPELLED = [
    ("Harbour Lights (Film) director dob", "Harbour Lights (Film) director date of birth"),
    ("pob of whoever sang Blue Kestrel?", "place of birth of whoever sang Blue Kestrel?"),
    ("what yr was Ada Brennan born", "what year was Ada Brennan born?"),
    ("which was founded b4 the other, Orwell College or Vane College",
     "which was founded before the other, Orwell College or Vane College?"),
    ("the sketch show w/ Tom Vale that Brass Lantern produced", "the sketch show with Tom Vale that Brass Lantern produced"),
    ("who directed the first ep of Night Harbour season 2", "who directed the first episode of Night Harbour season 2?"),
    ("Glass Hours n Iron Bells r they from same country?", "Glass Hours and Iron Bells are they from same country?"),
    ("r Glass Hours and Iron Bells both in the same country", "are Glass Hours and Iron Bells both in the same country?"),
    ("whats the default timeout in the retry example", "what is the default timeout in the retry example?"),
    ("um what job are Ada Brennan and Tom Vale both known for", "what job are Ada Brennan and Tom Vale both known for?"),
    ("okay so where was Tom Vale born", "Where was Tom Vale born?"),
    ("reading abt Ada Brennan rn. when did her father die", "reading about Ada Brennan. when did her father die?"),
    ("are Ada Brennan n Tom Vale from the same country or nah", "are Ada Brennan and Tom Vale from the same country, yes or no?"),
    ("Glass Hours, Iron Bells — same country y/n", "Glass Hours, Iron Bells — same country, yes or no?"),
    ("Glass Hours and Iron Bells are in the same country — true or false?",
     "Glass Hours and Iron Bells are in the same country, yes or no?"),
    ("Ada Brennan and Tom Vale, they're both Welsh, yes?", "Ada Brennan and Tom Vale, they're both Welsh, yes or no?"),
    ("i'm guessing Glass Hours and Iron Bells are in the same country? just double checking",
     "i'm guessing Glass Hours and Iron Bells are in the same country?"),
    ("Glass Hours and Iron Bells are they from the same country bc i think not",
     "Glass Hours and Iron Bells are they from the same country"),
    ("Whose director was born later, Glass Hours or Iron Bells? I need the film.",
     "Whose director was born later, Glass Hours or Iron Bells?"),
    ("Tom Vale drummed for a band — when was it formed? year pls", "Tom Vale drummed for a band — when was it formed? (year please)"),
    ("quick q\nGlass Hours and Iron Bells\nwhich one's director was born first",
     "Glass Hours and Iron Bells. which one's director was born first?"),
    ("two films Glass Hours and Iron Bells which one had the director that was born first",
     "two films Glass Hours and Iron Bells. which one had the director that was born first?"),
    ("email address for the cinema programmer please", "email address for the cinema programmer"),  # no stop
    ("Who directed Jaws? Thank you!", "Who directed Jaws?"),
]

KEPT = [
    "Who directed the EP Rainfall by N-Dubz?",  # a record, no show: "EP" kept
    "Which label released Blue's first ep in 2001?",  # lower-case "ep" with no show about: a record
    "Who wrote Rock N Roll Train?",  # capitals in a name are the name
    "Where is R. Kelly from?",
    "Which band is AC/DC's first album by?",
    "What does the song Umm Kulthum Nights refer to?",  # a filler's letters inside a name
    "Is Tom Vale's film older than Iron Bells, or not?",
    "Who won the election in 1990, Ada Brennan or Tom Vale?",
]


@pytest.mark.parametrize("typed, spelled", SPELLED)
def test_shorthand_fillers_tails_and_messages_are_written_out(typed: str, spelled: str) -> None:
    assert spelled_out(typed) == spelled


@pytest.mark.parametrize("typed", KEPT)
def test_names_and_plain_questions_are_kept_as_typed(typed: str) -> None:
    assert spelled_out(typed) == typed


def test_a_single_line_question_is_not_split_into_messages() -> None:
    assert spelled_out("Ada Brennan and Tom Vale: which one was born first?") == \
        "Ada Brennan and Tom Vale: which one was born first?"


def test_an_opening_message_alone_is_kept() -> None:
    assert spelled_out("hey\nquick q") == "quick q"  # nothing asked: the last line kept


def test_lines_are_sentences_only_where_a_message_ends() -> None:
    from kmrag.nlp.typed import as_sentences
    from kmrag.retrieval.strategies import check_question

    assert as_sentences("quick q\nGlass Hours and Iron Bells\nwhich one is older") == \
        "quick q. Glass Hours and Iron Bells. which one is older"
    assert check_question("Who is\nTom Vale?") == "Who is Tom Vale?"  # a wrapped line, joined
    assert check_question("Which film is older,\nGlass Hours or Iron Bells?") == \
        "Which film is older, Glass Hours or Iron Bells?"
    assert check_question("  Where was Tom Vale born?  ") == "Where was Tom Vale born?"
