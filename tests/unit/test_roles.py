"""Roles in brackets (kmrag.answer.roles): "Cllr Harriet Oyelaran (Chair)" in a committee's minutes answers "Who
chairs the Library Committee?"; a role the question says only in part ("Vice-Chair" for "the chair"), a role the
minutes do not list, or minutes of another committee answer nothing."""

from __future__ import annotations

import pytest

from kmrag.answer.extractive import akin
from kmrag.answer.roles import role_holder
from kmrag.answer.spans import unit_spans
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser
from tests.unit.test_answer_validation import unit
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


@pytest.mark.parametrize(("content", "title", "question", "holder"), [
    # the reviewer's probes: the role that says the question's own words, all of them
    ("Our team: Odile Framsby (Central Library Manager), Tomas Reed (Deputy Manager), Ana Ruiz (Children's "
     "Librarian).", "Central Library - Staff", "Who is the deputy manager of Central Library?", "Tomas Reed"),
    ("Present: Cllr Harriet Oyelaran (Chair), Cllr Amaka Tideswell, Cllr Davina Orchard", "Library Committee minutes",
     "Who is the vice-chair of the Library Committee?", None),
    ("Present: Cllr Harriet Oyelaran (Chair), Cllr Amaka Tideswell", "Library Committee minutes",
     "Who is the acting chair of the Library Committee?", None),
    ("Present: Cllr Harriet Oyelaran (Chair), Cllr Amaka Tideswell", "Library Committee minutes",
     "Who did the chair thank for the report?", None),
    ("Present: Cllr Harriet Oyelaran (Chair), Cllr Amaka Tideswell", "Library Committee minutes",
     "Who chairs the finance committee?", None),
    # an agenda item before a bracket is no person
    ("Agenda\n4. Annual Accounts (Treasurer)\n5. Any other business", "Agenda", "Who is the treasurer?", None),
])
def test_a_role_the_question_says_only_in_part_or_an_agenda_item_answers_nothing(
        x: SpacyExtractor, content: str, title: str, question: str, holder: str | None) -> None:
    """The role reader's own verdict (the span reader may still read a name near the question's words; what it
    reads is graded by confidence)."""
    spans = unit_spans(unit("u_0000000000000001", content, type_="paragraph", title=title), 0)
    got = role_holder(question, QuestionAnalyser(x).analyse(question).mentions, spans, akin,
                      lambda text: {e.text for e in x.nlp(text).ents if e.label_ == "PERSON"})
    assert (got[1] if got else None) == holder
