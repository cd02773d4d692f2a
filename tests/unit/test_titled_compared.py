"""A compared name holding "and", read whole from the titles of the units found (kmrag.answer.titled)."""

from __future__ import annotations

import pytest

from kmrag.answer.titled import titled_compared
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def analyse():  # type: ignore[no-untyped-def]
    return QuestionAnalyser(SpacyExtractor()).analyse


def test_a_title_with_and_is_one_name_and_the_name_joined_to_it_the_other(analyse) -> None:  # type: ignore[no-untyped-def]
    q = "Did the movies We Stick Together Through Thick and Thin and Total Badass, originate from the same country?"
    a = analyse(q)
    assert "Total Badass" not in a.compared  # what the analysis alone reads (the reason for the mend)
    got = titled_compared(q, a, ["Stick Together", "We Stick Together Through Thick and Thin", "Total Badass"])
    assert got.compared == ["We Stick Together Through Thick and Thin", "Total Badass"]


def test_the_other_order_and_titles_not_in_the_question_change_nothing(analyse) -> None:  # type: ignore[no-untyped-def]
    q = "Are Total Badass and Pride and Prejudice from the same country?"
    got = titled_compared(q, analyse(q), ["Pride and Prejudice", "Total Badass"])
    assert sorted(got.compared) == ["Pride and Prejudice", "Total Badass"]
    q = "Are Munich and Augsburg in the same state?"
    a = analyse(q)
    assert titled_compared(q, a, ["Munich and Augsburg rail line", "Munich"]).compared == a.compared
