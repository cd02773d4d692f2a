import pytest

from kmrag.eval.report import diff_runs, render_diff, render_markdown
from kmrag.eval.runner import EvalRun, QuestionResult, StrategySummary, summarise
from kmrag.retrieval.strategies import check_question, rrf

pytestmark = pytest.mark.unit


def qr(strategy: str, qid: str, r5: float, latency: float = 10.0, error: str | None = None) -> QuestionResult:
    return QuestionResult(strategy=strategy, qid=qid, question=f"question {qid}?", answers=["a"], gold=["g"],
                          ranked_passages=[], unit_ids=[], recall={k: r5 for k in ("1", "2", "3", "5", "10")},
                          all_recall_5=float(r5 == 1.0), answer_in_context_5=0.0, latency_ms=latency, rounds=1,
                          error=error)


def run_of(rows: list[QuestionResult], rid: str) -> EvalRun:
    return EvalRun(run_id=rid, dataset="d", path="p", tenant="t", corpus_passages=3, questions=2,
                   summaries=[summarise("dense", rows)])


def test_summarise_means_and_percentiles():
    s = summarise("dense", [qr("dense", "1", 1.0, 10), qr("dense", "2", 0.5, 30, error="bad")])
    assert s.recall["5"] == 0.75 and s.all_recall_5 == 0.5 and s.errors == 1
    assert s.latency_p50_ms == 10 and s.latency_p95_ms == 30


def test_markdown_table_has_every_strategy_and_na_for_answers():
    run = EvalRun(run_id="r", dataset="musique", path="p", tenant="t", corpus_passages=10, questions=2,
                  summaries=[summarise("bm25", [qr("bm25", "1", 0.5)]), summarise("dense", [qr("dense", "1", 1.0)])])
    md = render_markdown([run])
    assert "| bm25 | 50.0 | 50.0 | 50.0 |" in md and "| dense | 100.0 |" in md and "n/a" in md


def test_diff_lists_regressions_question_by_question():
    a = [qr("dense", "1", 1.0), qr("dense", "2", 0.5)]
    b = [qr("dense", "1", 0.5), qr("dense", "2", 0.5)]
    d = diff_runs((run_of(a, "A"), a), (run_of(b, "B"), b))
    st = d["strategies"]["dense"]
    assert (st["better"], st["worse"], st["same"]) == (0, 1, 1)
    assert st["changes"] == [{"qid": "1", "question": "question 1?", "a": 1.0, "b": 0.5, "delta": -0.5}]
    assert "-0.50  1" in render_diff(d)


def test_rrf_is_reproducible_and_rewards_agreement():
    fused = rrf([["a", "b", "c"], ["b", "d"]])
    assert fused[0][0] == "b" and [u for u, _ in fused] == ["b", "a", "d", "c"]
    assert rrf([["x"], ["y"]]) == rrf([["y"], ["x"]])  # ties broken by id


@pytest.mark.parametrize("bad", ["", "   ", "?!", 42, "x" * 2001])
def test_malformed_questions_are_refused(bad):
    from kmrag.errors import BadInput

    with pytest.raises(BadInput):
        check_question(bad)


def test_summary_model_roundtrip():
    s = StrategySummary(strategy="x", questions=1, recall={"5": 0.1}, all_recall_5=0, answer_in_context_5=0,
                        latency_p50_ms=1, latency_p95_ms=1, rounds_mean=1, errors=0)
    assert StrategySummary.model_validate_json(s.model_dump_json()) == s
