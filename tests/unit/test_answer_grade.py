"""The offline grader's check that the evidence is about the question's entities."""

from __future__ import annotations

import pytest

from kmrag.answer.context import Context
from kmrag.answer.grade import OfflineGrader
from kmrag.answer.validate import validate
from kmrag.retrieval.analysis import QuestionAnalysis
from tests.unit.test_answer_validation import T, unit

pytestmark = pytest.mark.unit

QUESTION = "In what year was the Portland, Maine folk band that Tom Arkell played drums for formed?"
ANALYSIS = QuestionAnalysis(question=QUESTION, kind="bridge", answer_type="DATE",
                            mentions=["Portland", "Maine", "Tom Arkell", "Maine folk band"])
ARKELL = unit("u_" + "1" * 16, "Tom Arkell was an American drummer. He played drums for the Marsh Kings.", title="Tom Arkell")


def grade(band: str) -> bool:
    ctx = Context.of(T, [ARKELL, unit("u_" + "2" * 16, band, title="The Marsh Kings")])
    text = (f"He played drums for the Marsh Kings. [{ARKELL.id}]\n"
            f"Formed in 1979, they toured widely. [u_{'2' * 16}]")
    v = validate(text, ctx, lambda ids: set(), direct="1979", basis={"kind": "chain"})
    return OfflineGrader().grade_answer(QUESTION, ANALYSIS, v, ctx).on_topic


def test_a_cited_unit_names_the_question_s_entities_where_its_cited_sentence_does_not() -> None:
    # the sentence cited holds the year; the band's own unit, cited, says it is the Portland, Maine folk band
    assert grade("The Marsh Kings are an American folk band from Portland, Maine. Formed in 1979, they toured widely.")


def test_evidence_about_other_things_is_off_topic() -> None:
    assert not grade("The Marsh Kings are a punk band from Ohio. Formed in 1979, they toured widely.")
