import json

import pytest

from kmrag.eval.report import diff_runs, recall_chart, render_diff, render_markdown
from kmrag.eval.runner import EvalRun, QuestionResult, load_run, save_run, summarise
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


def ans(qid: str, confidence: float, correct: bool, found: bool = True, validity: float | None = 1.0,
        precision: float | None = 1.0, recall: float | None = 0.5, supported: float | None = 1.0) -> QuestionResult:
    return qr("hybrid+first-sentence", qid, 1.0).model_copy(update={
        "generator": "first-sentence", "found": found, "confidence": confidence, "correct": correct,
        "em": float(correct), "f1": float(correct), "answer_in_answer": float(correct),
        "citation_validity": validity if found else None, "citation_precision": precision if found else None,
        "citation_recall": recall if found else 0.0, "citation_unit_precision": 1.0 if found else None,
        "supported_share": supported if found else None})


def test_summarise_answer_rows_scores_evidence_and_calibration():
    rows = [ans("1", 1.0, True), ans("2", 1.0, False, precision=0.0, recall=0.0, validity=0.5),
            ans("3", 0.6, True, supported=0.5), ans("4", 0.0, False, found=False)]
    s = summarise("hybrid+first-sentence", rows)
    assert (s.found, s.correct, s.em) == (0.75, 0.5, 0.5)
    assert s.citation_precision == pytest.approx(0.6667, abs=1e-4)  # the not-found answer is left out
    assert s.citation_recall == 0.25  # ... and counts 0 here
    assert s.supported_share == pytest.approx(0.8333, abs=1e-4)
    # answered 3: bin 9 holds two at 1.0, one right (|0.5 - 1.0| * 2/3), bin 6 one right at 0.6 (0.4 * 1/3)
    assert s.ece == pytest.approx(1 / 3 + 0.4 / 3, abs=1e-4)
    assert (s.wrong_at_0_9, s.wrong_at_0_9_share) == (1, pytest.approx(0.3333, abs=1e-4))
    assert s.coverage_at == {"0.5": 0.75, "0.7": 0.5, "0.9": 0.5}
    assert s.accuracy_at == {"0.5": pytest.approx(0.6667, abs=1e-4), "0.7": 0.5, "0.9": 0.5}
    assert [b.count for b in s.reliability] == [0, 0, 0, 0, 0, 0, 1, 0, 0, 2]
    assert s.invalid_citations == 1
    assert "citation_validity" not in s.model_dump()


def test_markdown_shows_evidence_calibration_and_reliability_but_no_validity_column():
    good = [ans("1", 1.0, True), ans("2", 0.95, True)]
    bad = [ans("1", 1.0, False, validity=0.0), ans("2", 1.0, False)]
    run = EvalRun(run_id="r", dataset="2wiki", path="p", tenant="t", corpus_passages=10, questions=2,
                  summaries=[summarise("hybrid", [qr("hybrid", "1", 1.0)]),
                             summarise("hybrid+extractive", good), summarise("hybrid+first-sentence", bad)])
    md = render_markdown([run])
    assert "cite valid" not in md
    assert "| hybrid+extractive | 100.0 | 100.0 | 50.0 | 100.0 | 100.0 | 0.025 | 0 (0.0) |" in md
    assert "| hybrid+first-sentence | 0.0 |" in md and "| 1.000 | 2 (100.0) |" in md
    assert md.count("| confidence | answers | mean confidence | accuracy |") == 2  # one per strategy+generator
    assert "| 0.9–1.0 | 2 | 0.975 | 100.0 |" in md and "| 0.0–0.1 | 0 | n/a | n/a |" in md
    assert "**invalid_citations: 1** in `hybrid+first-sentence`" in md
    assert md.count("invalid_citations") == 1  # the clean strategy+generator is not flagged


def test_a_saved_run_with_answer_rows_loads_and_diffs(tmp_path):
    rows = [ans("1", 1.0, True), ans("2", 0.5, False)]
    run = EvalRun(run_id="A", dataset="d", path="p", tenant="t", corpus_passages=3, questions=2,
                  summaries=[summarise("hybrid+first-sentence", rows)], questions_file="q.jsonl", reworded=2)
    save_run(run, rows, tmp_path)
    loaded, back = load_run(str(tmp_path))
    assert loaded == run and back == rows
    assert "2 questions worded as in q.jsonl" in (tmp_path / "report.md").read_text()
    d = diff_runs((loaded, back), (loaded, back))
    assert d["strategies"]["hybrid+first-sentence"]["same"] == 2


def test_a_run_saved_before_these_measures_still_loads(tmp_path):
    old = {"run_id": "old", "dataset": "d", "path": "p", "tenant": "t", "corpus_passages": 3, "questions": 1,
           "summaries": [{"strategy": "hybrid+extractive", "questions": 1, "recall": {"5": 1.0},
                          "all_recall_5": 1.0, "answer_in_context_5": 1.0, "latency_p50_ms": 1.0,
                          "latency_p95_ms": 1.0, "rounds_mean": 1.0, "errors": 0, "em": 1.0,
                          "citation_validity": 1.0, "citation_precision": 0.5}]}
    (tmp_path / "summary.json").write_text(json.dumps(old), encoding="utf-8")
    row = qr("hybrid+extractive", "1", 1.0).model_dump() | {"citation_validity": 1.0, "generator": "extractive"}
    (tmp_path / "questions.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    run, rows = load_run(str(tmp_path))
    assert run.summaries[0].em == 1.0 and run.summaries[0].invalid_citations is None
    assert rows[0].citation_validity == 1.0 and rows[0].confidence is None


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


def test_diff_keeps_the_worst_and_best_changes_and_skips_unmatched_questions():
    a = [qr("dense", str(i), 0.5) for i in range(8)] + [qr("dense", "only-a", 1.0), qr("bm25", "0", 0.5)]
    deltas = [-0.5, -0.25, 0.0, 0.0, 0.25, 0.3, 0.4, 0.5]
    b = [qr("dense", str(i), 0.5 + d) for i, d in enumerate(deltas)] + [qr("dense", "only-b", 0.0)]
    d = diff_runs((run_of(a, "A"), a), (run_of(b, "B"), b), top=2)
    assert set(d["strategies"]) == {"dense"}  # bm25 is not in run B; only-a / only-b are in one run only
    st = d["strategies"]["dense"]
    assert (st["better"], st["worse"], st["same"]) == (4, 2, 2)
    # the two worst regressions, then the two biggest improvements
    assert [c["qid"] for c in st["changes"]] == ["0", "1", "6", "7"]
    assert [c["delta"] for c in st["changes"]] == [-0.5, -0.25, 0.4, 0.5]
    text = render_diff(d)
    assert text.splitlines()[:2] == ["recall@5: A -> B", "dense: better 4, worse 2, same 2"]
    assert "+0.50  7  question 7?" in text and "only-b" not in text


def test_diff_measures_the_asked_k():
    a = [qr("dense", "1", 0.5)]
    b = [qr("dense", "1", 0.5).model_copy(update={"recall": {"1": 0.0, "2": 0.5, "3": 0.5, "5": 0.5,
                                                               "10": 1.0}})]
    assert diff_runs((run_of(a, "A"), a), (run_of(b, "B"), b))["strategies"]["dense"]["same"] == 1
    d10 = diff_runs((run_of(a, "A"), a), (run_of(b, "B"), b), metric_k="10")
    assert d10["metric"] == "recall@10" and d10["strategies"]["dense"]["better"] == 1


def test_unreachable_gold_is_summed_and_reported():
    rows = [qr("dense", "1", 0.5).model_copy(update={"unreachable_gold": 1}),
            qr("dense", "2", 1.0).model_copy(update={"unreachable_gold": 2}), qr("dense", "3", 1.0)]
    s = summarise("dense", rows)
    assert s.unreachable_gold == 3
    run = EvalRun(run_id="r", dataset="musique", path="p", tenant="t", corpus_passages=10, questions=3,
                  unreachable_gold=3, summaries=[s], loader_problems=["record 2: missing field(s) ['id']"])
    md = render_markdown([run])
    assert "unreachable gold passages: 3" in md
    assert "1 malformed records skipped, e.g. record 2: missing field(s) ['id']" in md
    clean = EvalRun(run_id="r", dataset="musique", path="p", tenant="t", corpus_passages=10, questions=1,
                    summaries=[summarise("dense", [qr("dense", "1", 1.0)])])
    assert "unreachable gold passages: 0" in render_markdown([clean]) and "malformed" not in render_markdown([clean])


def test_recall_chart_is_a_png(tmp_path):
    run = run_of([qr("dense", "1", 0.5)], "A")
    recall_chart(run, tmp_path / "recall.png")
    assert (tmp_path / "recall.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
