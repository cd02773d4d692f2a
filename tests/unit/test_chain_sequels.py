"""A sequel's title is another work: a hop about "Tomb Raider" is not read from "Tomb Raider III" (kmrag.answer.chain)."""

from __future__ import annotations

import pytest

from kmrag.answer.chain import about, owns, titled_by
from kmrag.answer.spans import Span

pytestmark = pytest.mark.unit


def _span(text: str, title: str) -> Span:
    return Span(unit_id="u_1", source_id="s", start=0, end=len(text), quote=text, kind="sentence", display=text,
                rank=0, title=title)


def test_a_sequel_is_not_the_work_it_continues() -> None:
    iii = _span("Tomb Raider III: Adventures of Lara Croft is an action-adventure video game developed by Core Design.",
                "Tomb Raider III")
    assert not titled_by("Tomb Raider", iii) and not owns("Tomb Raider", iii) and not about("Tomb Raider", [iii])
    rocky = _span("Rocky 2 is a 1979 film.", "Rocky II")
    assert not owns("Rocky", rocky)


def test_the_work_itself_and_a_span_naming_both_stay() -> None:
    game = _span("Tomb Raider is a 2013 action-adventure game developed by Crystal Dynamics.", "Tomb Raider (2013 video game)")
    assert titled_by("Tomb Raider", game) and owns("Tomb Raider", game) and about("Tomb Raider", [game])
    both = _span("Tomb Raider III followed Tomb Raider and Tomb Raider II.", "Lara Croft")
    assert about("Tomb Raider", [both])


def test_a_number_opening_the_text_or_a_subtitle_is_no_sequel() -> None:
    apollo = _span("17 April 1970 was the day the crew returned.", "Apollo 13")
    assert about("Apollo 13", [apollo]) and titled_by("Apollo 13", apollo)
    borat = _span("Borat: Cultural Learnings of America is a 2006 film.", "Borat")
    assert about("Borat", [borat]) and owns("Borat", borat)


def test_a_count_after_a_name_in_the_text_is_no_sequel() -> None:
    venice = _span("Plague occurred in Venice 22 times between 1361 and 1528.", "Venice")
    assert about("Venice", [venice]) and owns("Venice", venice)
    assert about("Venice", [_span("Plague occurred in Venice 22 times between 1361 and 1528.", "Black Death")])
