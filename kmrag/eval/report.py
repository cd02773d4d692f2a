"""Eval reports: a Markdown table of every strategy side by side, a recall@k chart, run diffs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kmrag.eval.runner import EvalRun, QuestionResult, StrategySummary


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}"


def _num(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.3f}"


def _answer_table(summaries: Sequence[StrategySummary]) -> list[str]:
    out = ["\nAnswers against the gold evidence, and calibration:\n",
           "| strategy+generator | correct | cite prec | cite rec | cite unit prec | supported | ECE "
           "| wrong @≥0.9 | cov / acc @≥0.5 | cov / acc @≥0.7 | cov / acc @≥0.9 |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for s in summaries:
        wrong = "n/a" if s.wrong_at_0_9 is None else f"{s.wrong_at_0_9} ({_pct(s.wrong_at_0_9_share)})"
        at = " | ".join(f"{_pct(s.coverage_at.get(str(t)))} / {_pct(s.accuracy_at.get(str(t)))}"
                        for t in (0.5, 0.7, 0.9))
        out.append(f"| {s.strategy} | {_pct(s.correct)} | {_pct(s.citation_precision)} | {_pct(s.citation_recall)} "
                   f"| {_pct(s.citation_unit_precision)} | {_pct(s.supported_share)} | {_num(s.ece)} | {wrong} "
                   f"| {at} |")
    broken = [s for s in summaries if s.invalid_citations]
    for s in broken:
        out.append(f"\n**invalid_citations: {s.invalid_citations}** in `{s.strategy}`: answers citing an ID that was "
                   "not in the context or does not exist, a sentence shown uncited, or a quote that is not its unit's "
                   "text (a defect of the run, not a score: see citation_validity in questions.jsonl)")
    return out


def _reliability_tables(summaries: Sequence[StrategySummary]) -> list[str]:
    out = ["\nReliability (answered questions per confidence decile; the last holds 1.0):"]
    for s in summaries:
        out += [f"\n`{s.strategy}`\n", "| confidence | answers | mean confidence | accuracy |", "|---|---|---|---|"]
        out += [f"| {b.lo:.1f}–{b.hi:.1f} | {b.count} | {_num(b.confidence)} | {_pct(b.accuracy)} |"
                for b in s.reliability]
    return out


def _evidence_table(summaries: Sequence[StrategySummary]) -> list[str]:
    """Per question type (GraphRAG-Bench): evidence recall@5 and, for answer rows, EM / F1."""
    typed = [s for s in summaries if s.question_type is not None]
    if not typed:
        return []
    out = ["\nPer question type: evidence R@5 = paraphrased evidence sentences held by a top-5 unit of the "
           "question's record (kmrag.eval.evidence_match); record R@5 = a unit of that record in the top 5.\n",
           "| strategy | question type | questions | evidence R@5 | record R@5 | EM | F1 |", "|---|---|---|---|---|---|---|"]
    out += [f"| {s.strategy} | {s.question_type} | {s.questions} | {_pct(s.evidence_recall_5)} | {_pct(s.recall['5'])} "
            f"| {_pct(s.em)} | {_pct(s.f1)} |" for s in typed]
    return out


def _sub_question_lines(summaries: Sequence[StrategySummary]) -> list[str]:
    """Per strategy that resolved sub-questions on the way: how many, and how many to the gold inner answer."""
    out = []
    for s in summaries:
        if s.sub_questions and s.sub_questions[0]:
            asked, resolved, right = s.sub_questions
            out.append(f"\nsub-questions in `{s.strategy}`: {asked} asked, {resolved} resolved, {right} to the gold "
                       f"answer of the inner hop ({_pct(right / asked)} of asked, "
                       f"{_pct(right / resolved) if resolved else 'n/a'} of resolved)")
    return out


def render_markdown(runs: Sequence[EvalRun]) -> str:
    out = []
    answers = False
    for run in runs:
        out.append(f"### {run.dataset}: {run.questions} questions, corpus {run.corpus_passages} passages "
                   f"(tenant `{run.tenant}`, run `{run.run_id}`)\n")
        out.append("| strategy | R@2 | R@5 | R@10 | all-R@5 | ans-in-ctx@5 | EM | F1 | ans-in-ans | found "
                   "| p50 ms | p95 ms | rounds | errors |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        overall = [s for s in run.summaries if s.question_type is None]
        for s in overall:
            out.append(f"| {s.strategy} | {_pct(s.recall['2'])} | {_pct(s.recall['5'])} | {_pct(s.recall['10'])} "
                       f"| {_pct(s.all_recall_5)} | {_pct(s.answer_in_context_5)} | {_pct(s.em)} | {_pct(s.f1)} "
                       f"| {_pct(s.answer_in_answer)} | {_pct(s.found)} | {s.latency_p50_ms:.1f} "
                       f"| {s.latency_p95_ms:.1f} | {s.rounds_mean:.1f} | {s.errors} |")
        out += _evidence_table(run.summaries)
        out += _sub_question_lines(overall)
        answered = [s for s in overall if s.em is not None]
        if answered:
            answers = True
            out += _answer_table(answered)
            out += _reliability_tables(answered)
        out.append(f"\nunreachable gold passages: {run.unreachable_gold} (empty text, not in the corpus or not "
                   "stored; each counts as a miss in recall)")
        if run.questions_file:
            out.append(f"\n{run.reworded} questions worded as in {run.questions_file}")
        if run.loader_problems:
            out.append(f"\n{len(run.loader_problems)} malformed records skipped, e.g. {run.loader_problems[0]}")
        out.append("")
    out.append("Recall = passage recall@k against the gold supporting passages (HippoRAG protocol). Rows "
               "`strategy+generator` answer the questions (`--answer`): EM/F1 (SQuAD normalisation, max over "
               "aliases) of the direct answer, ans-in-ans = a gold answer contained in the answer, found = share "
               "not 'Information not found'; latency is per answer.")
    if answers:
        out.append("\nCorrect = EM or token F1 ≥ 0.5. Cite prec = cited quotes that are gold evidence (equal to, "
                   "inside or containing a gold supporting sentence after normalisation; MuSiQue: from a gold "
                   "supporting paragraph), cite rec = gold evidence items cited, cite unit prec = cited units from "
                   "gold passages, supported = statements the support checker finds supported by their quotes. "
                   "Calibration is over the answered questions (a not-found answer counts against coverage only): "
                   "ECE over 10 equal-width confidence bins, wrong @≥0.9 = wrong answers at confidence ≥ 0.9 "
                   "(share of answered), cov / acc @≥t = share of all questions answered at confidence ≥ t / share "
                   "correct among them. The first-sentence baseline answers at confidence 1.0.")
    return "\n".join(out)


def recall_chart(run: EvalRun, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=110)
    for s in run.summaries:
        ks = sorted(int(k) for k in s.recall)
        ax.plot(ks, [100 * s.recall[str(k)] for k in ks], marker="o", label=s.strategy)
    ax.set_xlabel("k (passages)")
    ax.set_ylabel("passage recall@k (%)")
    ax.set_title(f"{run.dataset}: {run.questions} questions, {run.corpus_passages} passages")
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def diff_runs(a: tuple[EvalRun, list[QuestionResult]], b: tuple[EvalRun, list[QuestionResult]],
              metric_k: str = "5", top: int = 10) -> dict[str, Any]:
    """Per strategy: questions whose recall@k went up or down from run A to run B."""
    (ra, qa), (rb, qb) = a, b
    by_a = {(r.strategy, r.qid): r for r in qa}
    out: dict[str, Any] = {"a": ra.run_id, "b": rb.run_id, "metric": f"recall@{metric_k}", "strategies": {}}
    for r in qb:
        old = by_a.get((r.strategy, r.qid))
        if old is None:
            continue
        st = out["strategies"].setdefault(r.strategy, {"better": 0, "worse": 0, "same": 0, "changes": []})
        delta = r.recall[metric_k] - old.recall[metric_k]
        st["better" if delta > 0 else "worse" if delta < 0 else "same"] += 1
        if delta:
            st["changes"].append({"qid": r.qid, "question": r.question, "a": old.recall[metric_k],
                                  "b": r.recall[metric_k], "delta": round(delta, 4)})
    for st in out["strategies"].values():
        st["changes"].sort(key=lambda c: (c["delta"], c["qid"]))
        st["changes"] = st["changes"][:top] + [c for c in st["changes"][top:] if c["delta"] > 0][-top:]
    return out


def render_diff(d: dict[str, Any]) -> str:
    lines = [f"{d['metric']}: {d['a']} -> {d['b']}"]
    for name, st in d["strategies"].items():
        lines.append(f"{name}: better {st['better']}, worse {st['worse']}, same {st['same']}")
        for c in st["changes"]:
            lines.append(f"   {c['delta']:+.2f}  {c['qid']}  {c['question'][:90]}")
    return "\n".join(lines)
