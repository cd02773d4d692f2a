"""Roles in brackets (kmrag.answer.roles): "Cllr Harriet Oyelaran (Chair)" in a committee's minutes answers "Who
chairs the Library Committee?"; a role the question says only in part ("Vice-Chair" for "the chair"), a role the
minutes do not list, or minutes of another committee answer nothing."""

from __future__ import annotations

import pytest

from kmrag.nlp.extract import SpacyExtractor
from tests.unit.test_extractive_answers import answer

pytestmark = pytest.mark.unit

MINUTES = [("Present: Cllr Harriet Oyelaran (Chair), Cllr Neville Brasch (Vice-Chair),\nCllr Amaka Tideswell, Mr "
            "Clement Yarrow (co-opted member)\nIn attendance: Marguerite Dallow-Kent (Head of Library Service), Odile "
            "Framsby\n(Central Library Manager), Lorna Skeet (Committee Clerk, minutes)\nApologies: Cllr Davina Orchard",
            "paragraph", "LIBRARY COMMITTEE - MINUTES", "")]


@pytest.mark.parametrize(("question", "holder"), [
    ("Who chairs the Library Committee?", "Harriet Oyelaran"),
    ("Who is the chair of the Library Committee?", "Harriet Oyelaran"),
    ("Who is the vice-chair of the Library Committee?", "Neville Brasch"),
    ("Who manages Central Library?", "Odile Framsby"),
    ("Who is the committee clerk?", "Lorna Skeet"),
    ("Who is the treasurer of the Library Committee?", None),
    ("Who chairs the Planning Committee?", None),
])
def test_the_one_whose_bracket_says_the_role_asked_holds_it(x: SpacyExtractor, question: str, holder: str | None
                                                             ) -> None:
    assert answer(x, question, MINUTES)[0] == holder
