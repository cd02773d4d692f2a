"""Eval reports: a Markdown table of every strategy side by side, a recall@k chart, run diffs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kmrag.eval.runner import EvalRun, QuestionResult


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}"


def render_markdown(runs: Sequence[EvalRun]) -> str:
    out = []
    for run in runs:
        out.append(f"### {run.dataset}: {run.questions} questions, corpus {run.corpus_passages} passages "
                   f"(tenant `{run.tenant}`, run `{run.run_id}`)\n")
        out.append("| strategy | R@2 | R@5 | R@10 | all-R@5 | ans-in-ctx@5 | EM | F1 | ans-in-ans | found | cite valid "
                   "| cite prec | p50 ms | p95 ms | rounds | errors |")
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for s in run.summaries:
            out.append(f"| {s.strategy} | {_pct(s.recall['2'])} | {_pct(s.recall['5'])} | {_pct(s.recall['10'])} "
                       f"| {_pct(s.all_recall_5)} | {_pct(s.answer_in_context_5)} | {_pct(s.em)} | {_pct(s.f1)} "
                       f"| {_pct(s.answer_in_answer)} | {_pct(s.found)} | {_pct(s.citation_validity)} | {_pct(s.citation_precision)} | {s.latency_p50_ms:.1f} "
                       f"| {s.latency_p95_ms:.1f} | {s.rounds_mean:.1f} | {s.errors} |")
        out.append(f"\nunreachable gold passages: {run.unreachable_gold} (empty text, not in the corpus or not "
                   "stored; each counts as a miss in recall)")
        if run.loader_problems:
            out.append(f"\n{len(run.loader_problems)} malformed records skipped, e.g. {run.loader_problems[0]}")
        out.append("")
    out.append("Recall = passage recall@k against the gold supporting passages (HippoRAG protocol). Rows "
               "`strategy+generator` answer the questions (`--answer`): EM/F1 (SQuAD normalisation, max over "
               "aliases) of the direct answer, ans-in-ans = a gold answer contained in the answer, found = share "
               "not 'Information not found', cite valid = cited IDs that exist and were in the context with no "
               "uncited sentence, cite prec = cited units that are gold passages; latency is per answer.")
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
