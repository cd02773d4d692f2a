"""`kmrag eval calibrate`: fit the answer confidence (kmrag.answer.confidence) on one half of the dev sets'
questions and report it on the other half.

Each question is answered with the threshold off (every answer kept), its features read from the answer's
trace, and it is marked right when its direct answer (else its text) matches a gold answer (EM, or token F1
>= 0.5); a question with no gold answer (the demo set's out-of-corpus questions) is right only when nothing
is found. The half a question falls in is decided by a hash of its id, never by how it scores. The fit is a
logistic regression; the figures reported are those of the held-out half: expected calibration error,
wrong answers at confidence >= 0.9, coverage and accuracy at the threshold.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from kmrag.answer import confidence as C
from kmrag.errors import BadInput
from kmrag.eval import metrics as M
from kmrag.stores import Stores

DEMO_QUESTIONS = Path(__file__).resolve().parents[2] / "tests" / "data" / "demo" / "questions.jsonl"
# organisations' own documents with questions people asked of them, one folder each
ORGS = Path(__file__).resolve().parents[2] / "tests" / "data" / "orgs"


class CalibrationRow(BaseModel):
    dataset: str
    qid: str
    question: str
    answers: list[str]
    prediction: str = ""
    found: bool = False
    correct: bool = False
    features: dict[str, float] = Field(default_factory=dict)
    split: str = "tune"


def split_of(dataset: str, qid: str) -> str:
    """tune or test, from a hash of the question's id (stable, blind to the answer)."""
    return "tune" if hashlib.sha256(f"{dataset}:{qid}".encode()).digest()[0] % 2 == 0 else "test"


def is_correct(prediction: str, answers: Sequence[str], found: bool) -> bool:
    if not answers:
        return not found
    return found and M.is_correct(M.exact_match(prediction, answers), M.token_f1(prediction, answers), prediction,
                                  answers)


def _row(dataset: str, qid: str, question: str, answers: list[str], ans: Any) -> CalibrationRow:
    from kmrag.answer.validate import split_statements

    step = next((s for s in ans.trace if s.get("step") == "confidence"), None)
    found = ans.found
    prediction = ans.direct or (" ".join(s for s, _ in split_statements(ans.text)) if found else "")
    return CalibrationRow(dataset=dataset, qid=qid, question=question, answers=answers, prediction=prediction,
                          found=found, correct=is_correct(prediction, answers, found),
                          features=step["features"] if step else {}, split=split_of(dataset, qid))


def collect(stores: Stores, dataset: str, limit: int | None = None, data_root: str | None = None,
            progress: bool = False, tenant: str | None = None) -> list[CalibrationRow]:
    """Answer a dev set's questions (or the demo set's, ``dataset="demo"``) with the threshold off, in
    ``tenant`` (default: the tenant ``kmrag eval`` uses for the set, so one ingest serves both)."""
    from kmrag.answer.answerer import Answerer
    from kmrag.ingestion.pipeline import ingest
    from kmrag.nlp.embed import get_embedder

    settings = stores.settings.model_copy(update={"min_confidence": 0.0})
    from kmrag.eval.runner import tenant_for

    if dataset == "demo":
        from kmrag.demo import corpus_path

        tenant = tenant or tenant_for("calibrate-demo", get_embedder(settings).name)
        ingest(stores, [corpus_path()], tenant, progress=progress)
        items = [(tenant, f"demo-{i}", q["question"], q["answers"]) for i, q in enumerate(demo_questions())]
    elif dataset == "orgs":
        items = []
        for name, docs, questions in org_sets():  # each organisation's documents in a tenant of their own
            org_tenant = tenant_for(f"calibrate-orgs-{name}", get_embedder(settings).name)
            ingest(stores, [docs], org_tenant, progress=progress)
            items += [(org_tenant, f"{name}-{i}", q, answers) for i, (q, answers) in enumerate(questions)]
    else:
        from kmrag.eval.runner import load_set

        path, _fmt, loaded, _problems, _passages = load_set(dataset, data_root)
        tenant = tenant or tenant_for(dataset if not Path(dataset).exists() else path.stem, get_embedder(settings).name)
        ingest(stores, [path], tenant, progress=progress)
        items = [(tenant, q.id, q.question, q.answers) for q in loaded]
    items = items[:limit] if limit else items
    answerer = Answerer(stores.units, stores.graph, get_embedder(settings), settings, generator="extractive",
                        save=False)
    rows = []
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(items), desc=f"calibrate {dataset}", unit="q", leave=False)
    for asked_in, qid, question, answers in items:
        try:
            ans = answerer.answer(asked_in, question)
        except BadInput:
            continue
        if not any(s.get("step") == "parts" for s in ans.trace):  # a question of parts has no features of its
            rows.append(_row(dataset, qid, question, answers, ans))  # own: its confidence is its parts' product
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    return rows


def org_sets(root: Path = ORGS) -> list[tuple[str, Path, list[tuple[str, list[str]]]]]:
    """The organisations' own documents and the questions people asked of them (tests/data/orgs/<name>/docs and
    questions.tsv: question, gold, kind, where): (name, docs folder, [(question, answers)]). A gold of
    ``NOT_IN_DOCS`` has no answer (right when not found); a gold's bracketed note ("Ashcombe Road (09:00 vs
    10:00)") is an alias without it."""
    out = []
    for folder in sorted(p for p in root.iterdir() if (p / "questions.tsv").is_file()):
        questions = []
        for n, line in enumerate((folder / "questions.tsv").read_text(encoding="utf-8").splitlines()[1:], start=2):
            cells = line.split("\t")
            if len(cells) < 2 or not cells[0].strip():
                raise BadInput(f"{folder / 'questions.tsv'}:{n}: expected question<TAB>gold<TAB>kind<TAB>where")
            gold = cells[1].strip()
            bare = re.sub(r"\s*\([^()]*\)\s*$", "", gold).strip()
            questions.append((cells[0].strip(), [] if gold == "NOT_IN_DOCS" else list(dict.fromkeys([gold, bare]))))
        out.append((folder.name, folder / "docs", questions))
    return out


def demo_questions(path: Path = DEMO_QUESTIONS) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise BadInput(f"{path}:{n}: not JSON: {e}") from e
    return out


def _scale(computed: dict[str, Any] | None) -> tuple[float, float] | None:
    return (float(computed["platt"][0]), float(computed["platt"][1])) if computed else None


def report(rows: Sequence[CalibrationRow], weights: dict[str, float], threshold: float,
           computed: tuple[float, float] | None = None) -> dict[str, Any]:
    """The measures of ``rows`` under ``weights`` (``computed``: the scale of computed answers): per set and in
    all."""
    out: dict[str, Any] = {}
    for name in sorted({r.dataset for r in rows}) + ["all"]:
        sel = [r for r in rows if name in {"all", r.dataset}]
        conf = [C.probability(r.features, weights, computed) if r.found else 0.0 for r in sel]
        out[name] = summary(conf, [r.correct for r in sel], [r.found for r in sel], threshold)
    return out


def calibrate(rows: Sequence[CalibrationRow], threshold: float, out: Path | None = None) -> dict[str, Any]:
    """Fit on the tune half (the answered questions), report both halves under the fit and under the prior."""
    tune = [r for r in rows if r.split == "tune" and r.found]
    if len({r.correct for r in tune}) < 2:
        raise BadInput(f"cannot fit the confidence: the tune half has {len(tune)} answered question(s), and a fit needs "
                       "right and wrong answers among them")
    per_set = Counter(r.dataset for r in tune)  # each set weighs the same, however many questions it has
    weights, how = cross_fitted(tune, [1.0 / per_set[r.dataset] for r in tune])
    computed = fit_computed(tune, weights)
    test = [r for r in rows if r.split == "test"]
    result = {
        "weights": weights,
        "fitted_on": {"questions": len(tune), "sets": dict(sorted(per_set.items())), "split": "tune",
                      "weighting": "each set the same", **how,
                      "generator": "extractive", "strategy": "multihop",
                      "at": datetime.now(UTC).isoformat(timespec="seconds")},
        **({"computed": computed} if computed else {}),
        "threshold": threshold,
        "test": report(test, weights, threshold, _scale(computed)),
        "tune": report([r for r in rows if r.split == "tune"], weights, threshold, _scale(computed)),
        "test_before": report(test, C.PRIOR, threshold),
    }
    if out is not None:
        out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


def fit_computed(tune: Sequence[CalibrationRow], weights: Mapping[str, float]) -> dict[str, Any] | None:
    """The scale (a, b) of the log-odds ``weights`` give the answers computed from cited values (a comparison, a
    yes / no over every entity, a band, a cell), fitted (Platt) on those tune rows alone, each set weighing the
    same, to Platt's targets: n right answers speak of (n + 1) / (n + 2), m wrong ones of 1 / (m + 2), never of
    certainty. When they are all right (or all wrong) only the shift b is fitted (a = 1): the features still
    order them. None when there are none."""
    import numpy as np

    rows = [r for r in tune if r.features.get("computed", 0.0) > 0]
    if not rows:
        return None
    right, wrong, per_set, sw, y = _smoothed(rows)
    z = np.array([C.logit(r.features, weights) for r in rows])
    a, b = _platt(z, y, sw) if right and wrong else (1.0, _shift(z, y, sw))
    return {"platt": [round(a, 4), round(b, 4)],
            "fitted_on": {"questions": len(rows), "right": right, "targets": [round((right + 1) / (right + 2), 4),
                                                                               round(1 / (wrong + 2), 4)],
                          "sets": dict(sorted(per_set.items())), "split": "tune", "weighting": "each set the same",
                          "at": datetime.now(UTC).isoformat(timespec="seconds")}}


# the sets whose questions tests check by name: a weight fitted on them would pass those tests by construction
NOT_FITTED_ON = ("demo",)


def extend(rows: Sequence[CalibrationRow], feature: str, threshold: float,
           base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The default calibration (``base``) with one feature added since its fit: that feature's weight fitted on
    the tune half's answers having it (the dev sets', not the demo set's, whose questions the tests check), every
    other weight held, each set weighing the same, to Platt's targets as for computed answers: n right answers
    speak of (n + 1) / (n + 2), m wrong ones of 1 / (m + 2), so a handful all right never speaks of certainty.
    The test half is reported with and without it. (A refit of every weight on a new reader's rows has scored
    worse on the HotpotQA and MuSiQue test halves than the weights it would replace, so a new feature joins
    them this way.) Computed answers keep their own scale and are not fitted on."""
    import numpy as np

    check_feature(feature)
    base = dict(base or C._calibration(str(C.CALIBRATION)) or {"weights": dict(C.PRIOR), "fitted_on": {
        "questions": 0, "note": "no calibration file: the prior"}})
    held = {k: v for k, v in base["weights"].items() if k != feature}
    scale = _scale(base.get("computed"))
    has = [r for r in rows if r.split == "tune" and r.found and r.dataset not in NOT_FITTED_ON
           and r.features.get(feature, 0.0) and not r.features.get("computed", 0.0)]
    if not has:
        raise BadInput(f"--extend {feature}: no answered tune row of the dev sets has the feature; nothing to fit "
                       "it on")
    right, wrong, per_set, sw, y = _smoothed(has)
    z = np.array([C.logit(r.features, held) for r in has])
    x = np.array([r.features[feature] for r in has])
    w = 0.0
    for _ in range(100):  # Newton's method on the one weight (a small ridge keeps the step defined)
        p = 1.0 / (1.0 + np.exp(-np.clip(z + w * x, -30, 30)))
        w -= float((sw * (p - y) * x).sum() + 1e-3 * w) / float((sw * p * (1 - p) * x * x).sum() + 1e-3)
    weights = {**held, feature: round(w, 4)}
    test = [r for r in rows if r.split == "test"]
    return {**base, "weights": weights, "threshold": threshold, "test": report(test, weights, threshold, scale),
            "tune": report([r for r in rows if r.split == "tune"], weights, threshold, scale),
            "test_without": report(test, held, threshold, scale), "test_before": report(test, C.PRIOR, threshold),
            "extended": {**base.get("extended", {}), feature: {
                "weight": round(w, 4), "rows": len(has), "right": right,
                "targets": [round((right + 1) / (right + 2), 4), round(1 / (wrong + 2), 4)],
                "sets": dict(sorted(per_set.items())), "split": "tune", "not_fitted_on": list(NOT_FITTED_ON),
                "weighting": "each set the same", "held": "every other weight and the computed scale",
                "at": datetime.now(UTC).isoformat(timespec="seconds")}}}


def check_feature(feature: str) -> str:
    if feature not in C.FEATURES:
        raise BadInput(f"--extend {feature}: not a confidence feature (one of: {', '.join(C.FEATURES)})")
    return feature


def _smoothed(rows: Sequence[CalibrationRow]) -> tuple[int, int, Counter[str], Any, Any]:
    """(right, wrong, rows per set, sample weights with each set weighing the same, Platt's targets: a right
    answer (right + 1) / (right + 2), a wrong one 1 / (wrong + 2))."""
    import numpy as np

    right = sum(r.correct for r in rows)
    wrong = len(rows) - right
    per_set = Counter(r.dataset for r in rows)
    sw = np.array([1.0 / per_set[r.dataset] for r in rows])
    y = np.array([(right + 1) / (right + 2) if r.correct else 1 / (wrong + 2) for r in rows])
    return right, wrong, per_set, sw / sw.mean(), y


def _shift(z: Any, y: Any, sw: Any) -> float:
    """b of p = sigmoid(z + b) whose weighted mean p is the weighted mean target (the log-loss's optimum in b), by
    bisection: the mean is monotone in b, so no step can run away whatever the logits."""
    import numpy as np

    want = float((sw * y).sum() / sw.sum())
    lo, hi = -60.0, 60.0
    for _ in range(100):
        mid = (lo + hi) / 2
        got = float((sw / (1.0 + np.exp(-np.clip(z + mid, -60, 60)))).sum() / sw.sum())
        lo, hi = (mid, hi) if got < want else (lo, mid)
    return (lo + hi) / 2


FOLDS = 5
L2_GRID = (0.3, 1.0, 3.0, 10.0)


def fold_of(row: CalibrationRow) -> int:
    """The cross-validation fold of a tune row, from a hash of its id (stable, blind to the answer)."""
    return hashlib.sha256(f"fold:{row.dataset}:{row.qid}".encode()).digest()[0] % FOLDS


def cross_fitted(tune: Sequence[CalibrationRow], sample_weights: Sequence[float]) -> tuple[dict[str, float],
                                                                                           dict[str, Any]]:
    """The logistic fit, its L2 strength and its scale chosen on the tune half alone, by 5-fold cross-validation:
    each row's logit from a fit on the other folds; the L2 of the best held-out log-loss; then a logistic
    (Platt) map of those held-out logits to the outcome, folded into the weights, so that a model fitted on
    few questions does not speak with more certainty than held-out questions bear out."""
    import numpy as np

    data: list[tuple[Mapping[str, float], bool]] = [(r.features, r.correct) for r in tune]
    sw = np.asarray(sample_weights, dtype=float)
    y = np.asarray([1.0 if ok else 0.0 for _, ok in data])
    folds = [fold_of(r) for r in tune]
    best: tuple[float, float, Any] | None = None
    for l2 in L2_GRID:
        z = np.zeros(len(data))
        for k in range(FOLDS):
            train = [i for i, f in enumerate(folds) if f != k]
            held = [i for i, f in enumerate(folds) if f == k]
            if not held or len({y[i] for i in train}) < 2:
                continue
            w = C.fit([data[i] for i in train], l2=l2, sample_weights=[float(sw[i]) for i in train])
            z[held] = [C.logit(data[i][0], w) for i in held]
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        loss = float(-(sw * (y * np.log(p + 1e-9) + (1 - y) * np.log(1 - p + 1e-9))).sum() / sw.sum())
        if best is None or loss < best[0]:
            best = (loss, l2, z)
    assert best is not None
    loss, l2, z = best
    a, b = _platt(z, y, sw)
    full = C.fit(data, l2=l2, sample_weights=list(sw))
    scaled = {k: round(a * v + (b if k == "bias" else 0.0), 4) for k, v in full.items()}
    return scaled, {"l2": l2, "held_out_log_loss": round(loss, 4), "platt": [round(a, 4), round(b, 4)],
                    "folds": FOLDS}


def _platt(z: Any, y: Any, sw: Any, steps: int = 50) -> tuple[float, float]:
    """(a, b) of p = sigmoid(a z + b), by Newton's method on the weighted log-loss (a small ridge keeps it
    finite when the held-out logits separate the outcomes)."""
    import numpy as np

    x = np.stack([z, np.ones_like(z)], axis=1)
    w = np.array([1.0, 0.0])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        grad = x.T @ (sw * (p - y)) + 1e-3 * w
        hess = (x * (sw * p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(2)
        w = w - np.linalg.solve(hess, grad)
    return float(w[0]), float(w[1])


def summary(conf: Sequence[float], correct: Sequence[bool], found: Sequence[bool], threshold: float) -> dict[str, Any]:
    """The calibration measures of kmrag.eval.metrics on these questions: ECE over the answered ones, wrong
    answers at >= 0.9 (share of the answered), coverage and accuracy of what is shown at ``threshold``."""
    points: list[M.Judged] = [(c if f else None, ok) for c, ok, f in zip(conf, correct, found, strict=True)]
    wrong, share = M.wrong_at(points, 0.9)
    coverage, accuracy = M.coverage_accuracy(points, threshold)
    answered = [ok for c, ok in points if c is not None]
    ece = M.expected_calibration_error(points)
    return {"questions": len(points), "answered": len(answered), "ece": round(ece or 0.0, 4),
            "wrong_at_0_9": wrong, "wrong_at_0_9_share": round(share or 0.0, 4),
            "coverage": round(coverage or 0.0, 4), "accuracy_shown": None if accuracy is None else round(accuracy, 4),
            "accuracy_answered": round(sum(answered) / len(answered), 4) if answered else None,
            "reliability": [dataclasses.asdict(b) for b in M.reliability(points)]}


def load_rows(path: Path) -> list[CalibrationRow]:
    """The rows of an earlier run (its rows.jsonl), to fit again without answering again."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e}") from e
    out = []
    for n, line in enumerate(lines, start=1):
        if line.strip():
            try:
                out.append(CalibrationRow.model_validate_json(line))
            except ValueError as e:
                raise BadInput(f"{path}:{n}: not a calibration row: {e}") from e
    return out


def run_calibration(stores: Stores | None, datasets: Sequence[str], out_root: Path, limit: int | None = None,
                    data_root: str | None = None, progress: bool = False, write: bool = False,
                    rows_from: Path | None = None, threshold: float = 0.5,
                    extend_with: str | None = None, tenant: str | None = None) -> dict[str, Any]:
    """Collect every set's rows (saved under ``out_root``; or read them from ``rows_from``), fit, report;
    ``write``: make the fit the default; ``extend_with``: a feature whose weight alone is fitted, the default
    calibration's others held (:func:`extend`)."""
    if rows_from is not None:
        rows = load_rows(rows_from)
    else:
        assert stores is not None
        if tenant is not None and len(datasets) != 1:
            raise BadInput("calibrate: --tenant names the tenant of one set; give one --dataset with it")
        rows = [r for ds in datasets for r in collect(stores, ds, limit, data_root, progress, tenant)]
        threshold = stores.settings.min_confidence
    out = out_root / f"calibrate-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"
    out.mkdir(parents=True, exist_ok=True)
    with (out / "rows.jsonl").open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(r.model_dump_json() + "\n")
    if extend_with is not None:
        result = extend(rows, extend_with, threshold=threshold)
        (out / "calibration.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    else:
        result = calibrate(rows, threshold, out / "calibration.json")
    if write:
        C.CALIBRATION.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        C._calibration.cache_clear()
    result["out_dir"] = str(out)
    return result


def render(result: dict[str, Any]) -> str:
    lines = [f"fitted on {result['fitted_on']['questions']} answered tune questions; figures on the test half "
             f"(threshold {result['threshold']}):", "",
             "| set | weights | answered | ECE | wrong at >= 0.9 | coverage | accuracy shown |", "|---|---|---|---|---|---|---|"]
    added = ", ".join(f"{k} (weight {v['weight']}, on {v['rows']} tune rows)" for k, v in result.get("extended", {}).items())
    if added:
        lines[:1] = [lines[0], f"features added since, their weights fitted with the others held: {added}"]
    pairs = (("without the added", "test_without"), ("fitted", "test")) if "test_without" in result else \
        (("prior", "test_before"), ("fitted", "test"))
    for label, key in pairs:
        for name, m in result[key].items():
            acc = "n/a" if m["accuracy_shown"] is None else f"{m['accuracy_shown']:.1%}"
            lines.append(f"| {name} | {label} | {m['answered']} | {m['ece']:.3f} | {m['wrong_at_0_9']} "
                         f"({m['wrong_at_0_9_share']:.1%}) | {m['coverage']:.1%} | {acc} |")
    lines += ["", "weights: " + ", ".join(f"{k} {v:+.2f}" for k, v in result["weights"].items())]
    if result.get("out_dir"):
        lines.append(f"saved: {result['out_dir']}/ (rows.jsonl, calibration.json)")
    return "\n".join(lines)
