"""Yes/no questions that order two things, asked as the choice between them (kmrag.answer.ordered)."""

from __future__ import annotations

import pytest

from kmrag.answer.extractive import _death_year
from kmrag.answer.ordered import as_choice

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("question, mentions, asked, first", [
    ("Was Li Yining born before Ryan Stevenson?", ["Li Yining", "Ryan Stevenson"],
     "Which was born first, Li Yining or Ryan Stevenson?", "Li Yining"),
    ("Is Lufthansa older than Air India?", ["Lufthansa", "Air India"], "Which is older, Lufthansa or Air India?",
     "Lufthansa"),
    ("Did Marie Curie die after Albert Einstein?", ["Marie Curie", "Albert Einstein"],
     "Which died later, Marie Curie or Albert Einstein?", "Marie Curie"),
    ("Did The Lost Patrol come out earlier than Heat Wave?", ["The Lost Patrol", "Heat Wave"],
     "Which came out first, The Lost Patrol or Heat Wave?", "The Lost Patrol"),
])
def test_an_ordering_is_the_choice_between_the_two(question: str, mentions: list[str], asked: str, first: str) -> None:
    got = as_choice(question, mentions)
    assert got is not None and got.question == asked and got.first == first


@pytest.mark.parametrize("question, mentions", [
    ("Was Marie Curie born in Warsaw before 1900?", ["Marie Curie", "Warsaw"]),  # a name and a year: no two things
    ("Who was born before Albert Einstein?", ["Albert Einstein"]),                 # no yes/no
    ("Was Marie Curie born before Albert Einstein won the Nobel Prize?", ["Marie Curie", "Albert Einstein"]),
    ("Is Lufthansa based in Cologne?", ["Lufthansa", "Cologne"]),                 # orders nothing
])
def test_no_choice_where_two_things_are_not_ordered(question: str, mentions: list[str]) -> None:
    assert as_choice(question, mentions) is None


def test_the_year_of_a_death_is_not_the_first_year_said() -> None:
    assert _death_year("Charles Reisner (March 14, 1887 – September 24, 1962) was an American director.") == 1962
    assert _death_year("He was born in 1920 and died in Paris in 1987.") == 1987
    assert _death_year("Ryan Stevenson (born 2 April 1992) is an English cricketer.") is None


@pytest.mark.parametrize("question, mentions", [
    ("Did Mozart die before Beethoven was born?", ["Mozart", "Beethoven"]),        # two relations, not one
    ("Was Einstein older than Newton's father?", ["Einstein", "Newton"]),          # another person's
    ("Was Einstein not born before Newton?", ["Einstein", "Newton"]),              # negated
])
def test_an_ordering_of_two_different_relations_is_no_choice(question: str, mentions: list[str]) -> None:
    assert as_choice(question, mentions) is None


def test_a_death_year_is_the_subjects_not_a_relatives() -> None:
    assert _death_year("Ryan Stevenson (born 1992) is the son of John Stevenson (1950–2010).") is None
    assert _death_year("After his father's death in 1780, Mozart moved to Vienna.") is None
