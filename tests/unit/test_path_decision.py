"""Where the relation path and the text's reading differ: a table's cell read by the question's own row and
column stands against a path ("What are the visiting hours on Ward 7?" was answered with the hospital a hop
"home to" a ward named)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.answer.context import Context
from kmrag.answer.grade import AnswerGrade
from kmrag.answer.paths import PathAnswer
from kmrag.answer.validate import Validated
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser
from kmrag.schema import Statement
from tests.unit.test_answer_validation import T

pytestmark = pytest.mark.unit


def _text(kind: str) -> tuple[tuple[int, int, int], Validated, Context, AnswerGrade]:
    v = Validated(statements=[Statement(text="Ward: Ward 7; Visiting hours: 2pm to 4pm.", unit_ids=["u_w"])],
                  direct="2pm to 4pm", basis={"kind": kind})
    return (1, 1, 1), v, Context.of(T, []), AnswerGrade(grounded=True, addresses=True, why="")


@pytest.mark.parametrize("kind", ["cell", "band"])
def test_a_cell_read_by_the_question_s_row_and_column_stands_against_a_path(x: SpacyExtractor, kind: str) -> None:
    q = "What are the visiting hours on Ward 7?"
    hop: Any = SimpleNamespace(subject_name="Harrowgate General Hospital", predicate="home to", object_name="Ward",
                               unit_ids=["u_h"])
    top = PathAnswer(answer="Harrowgate General Hospital", end_id="e", hops=[hop], said=[("visit",)], fit=1.0)
    me: Any = SimpleNamespace(paths=SimpleNamespace(nlp=x.nlp))
    trace: list[dict[str, Any]] = []
    text = _text(kind)
    got = Answerer._decide(me, q, QuestionAnalyser(x).analyse(q), (top, Context.of(T, [])), text, trace)
    assert got is text and "stands" in trace[-1]["decision"]
