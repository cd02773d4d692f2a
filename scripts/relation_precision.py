#!/usr/bin/env python
"""Relation precision per predicate family, on a labelled sample (no database needed).

Runs the spaCy triple extractor over a fixed, seeded sample of a QA corpus's passages, tags each
triple with the rule family that produced it, samples triples stratified by family with a fixed
seed, and scores a sample once its ``label`` column is filled in (correct / partly / wrong).

    # 1. all triples of the passages (whichever kmrag is on PYTHONPATH: run with an old checkout
    #    for the "before" figures)
    python scripts/relation_precision.py extract --out /tmp/rows_before.jsonl
    # 2. a stratified sample to label; labels already given to the same triple in an earlier
    #    sample are carried over (--labels-from), so only new triples need reading
    python scripts/relation_precision.py sample --rows /tmp/rows_before.jsonl --out sample.jsonl
    # 3. precision per family (and relation counts per family of the rows files)
    python scripts/relation_precision.py score --sample sample.jsonl --rows /tmp/rows_before.jsonl
    # 4. recall sanity: 'correct' triples of the before sample the new rows no longer have
    python scripts/relation_precision.py lost --sample before.jsonl --rows /tmp/rows_after.jsonl

Everything is deterministic: the passage sample, the extraction and the triple sample depend only
on the data file, the seeds and the code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kmrag.ingestion import qa_corpora
from kmrag.nlp.extract import SpacyExtractor
from kmrag.schema import relationship_type

FAMILIES = ("copula-is", "copula-of", "apposition-is", "apposition-of", "apposition-place", "born-died", "passive",
            "active", "other")
_BORN_DIED = re.compile(r"^(?:not )?(?:born|died|die|bear)\b")
DEFAULT_DATA = "/work/shared/data/hotpotqa/hotpotqa_dev_200.json"
LABELS = ("correct", "partly", "wrong")


def family_of(method: str, pred: str, verb: Any = None) -> str:
    """The rule family of a triple: which rule produced it, refined by its predicate."""
    if _BORN_DIED.match(pred):
        return "born-died"
    if method == "appos":
        return "apposition-is" if pred == "is" else "apposition-place" if pred == "located in" else "apposition-of"
    if method == "verb":
        if pred == "is":
            return "copula-is"
        if verb is not None and verb.lemma_ == "be":
            return "other" if pred.startswith(("be ", "not be ")) else "copula-of"
        if verb is not None and any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children):
            return "passive"
        return "active"
    return "other"


class TaggingExtractor(SpacyExtractor):
    """The extractor, recording which rule method emitted each (subject token, predicate, object token)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[int, int, str, str]] = []  # (subject char, object char, predicate, family)

    def _tag(self, method: str, verb: Any, add: Callable[..., Any]) -> Callable[..., Any]:
        def tagged(s: Any, pred: str, o: Any, conf: float, sent: Any) -> Any:
            p = " ".join(pred.lower().split())
            self.calls.append((s.idx, o.idx, p, family_of(method, p, verb)))
            return add(s, pred, o, conf, sent)
        return tagged

    def _verb_triples(self, v: Any, sent: Any, add: Any, spans: dict[int, Any]) -> None:
        super()._verb_triples(v, sent, self._tag("verb", v, add), spans)

    def _appos_triples(self, ap: Any, sent: Any, add: Any) -> None:
        super()._appos_triples(ap, sent, self._tag("appos", None, add))


def load_passages(path: str, n: int, seed: int) -> list[tuple[int, qa_corpora.Passage]]:
    data = json.loads(Path(path).read_text())
    fmt = qa_corpora.detect_format(data)
    if fmt is None:
        raise SystemExit(f"{path}: not a known QA format")
    passages, _ = qa_corpora.corpus_passages(data, fmt)
    idx = sorted(random.Random(seed).sample(range(len(passages)), n)) if 0 < n < len(passages) else \
        list(range(len(passages)))
    return [(i, passages[i]) for i in idx]


def extract_rows(passages: Iterable[tuple[int, qa_corpora.Passage]]) -> list[dict[str, Any]]:
    x = TaggingExtractor()
    rows: list[dict[str, Any]] = []
    for i, p in passages:
        x.calls = []
        ex = x.extract_text(p.text)
        for t in ex.triples:
            fam = next((f for si, oi, pr, f in x.calls if pr == t.predicate and t.subject.start <= si < t.subject.end
                        and t.object.start <= oi < t.object.end), None)
            if fam is None:  # a rule the tagger does not wrap
                fam = "born-died" if _BORN_DIED.match(t.predicate) else "other"
            try:
                rtype = relationship_type(t.predicate)
            except Exception:  # noqa: BLE001 - the graph skips it too
                rtype = ""
            rows.append({"passage": i, "title": p.title, "sentence": t.sentence, "subject": t.subject.name,
                         "subject_label": t.subject.label, "predicate": t.predicate, "type": rtype,
                         "object": t.object.name, "object_label": t.object.label, "family": fam,
                         "confidence": t.confidence})
        rows.extend({"passage": i, "title": p.title, "alias": a, "full": f} for a, f in ex.aliases)
    return rows


def key(r: dict[str, Any]) -> str:
    return f"{r['passage']}|{r['subject']}|{r['predicate']}|{r['object']}"


def read_jsonl(path: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def write_jsonl(path: str, rows: Iterable[dict[str, Any]]) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def triples_of(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if "predicate" in r]


def stratified(rows: list[dict[str, Any]], per_family: int, seed: int) -> list[dict[str, Any]]:
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in triples_of(rows):
        by[r["family"]].append(r)
    out: list[dict[str, Any]] = []
    for fam in FAMILIES:
        # each triple's rank is a hash of the seed and the triple itself, so a triple both runs produce
        # is picked by both: a family a change leaves alone gets the same sample before and after
        pool = sorted(by.get(fam, []), key=lambda r: hashlib.sha256(f"{seed}|{key(r)}".encode()).hexdigest())
        out.extend(pool[:per_family])
    return out


def cmd_extract(a: argparse.Namespace) -> None:
    passages = load_passages(a.data, a.passages, a.seed)
    rows = extract_rows(passages)
    import kmrag

    root = Path(kmrag.__file__).resolve().parent.parent
    commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "kmrag/nlp"], capture_output=True,
                           text=True).stdout.strip()
    meta = {"meta": True, "data": a.data, "passages": a.passages, "seed": a.seed, "code": str(root),
            "commit": commit + ("+dirty" if dirty else "")}
    write_jsonl(a.out, [meta, *rows])
    t = triples_of(rows)
    print(f"{len(t)} triples, {len(rows) - len(t)} aliases from {len(passages)} passages -> {a.out}", file=sys.stderr)


def cmd_sample(a: argparse.Namespace) -> None:
    rows = [r for r in read_jsonl(a.rows) if not r.get("meta")]
    known: dict[str, dict[str, Any]] = {}
    for path in a.labels_from or []:
        for r in read_jsonl(path):
            if r.get("label"):
                known.setdefault(key(r), r)
    out = []
    for r in stratified(rows, a.per_family, a.seed):
        old = known.get(key(r))
        out.append({**r, "label": old["label"] if old else "", "note": old.get("note", "") if old else ""})
    write_jsonl(a.out, out)
    print(f"{len(out)} sampled, {sum(1 for r in out if r['label'])} labels carried over -> {a.out}", file=sys.stderr)


def precision_table(sample: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in sample:
        by[r["family"]][r["label"] or "unlabelled"] += 1
        by["ALL (sample)"][r["label"] or "unlabelled"] += 1
    out = {}
    for fam, c in by.items():
        n = sum(c[x] for x in LABELS)
        out[fam] = {"n": n, "correct": c["correct"], "partly": c["partly"], "wrong": c["wrong"],
                    "unlabelled": c["unlabelled"], "precision": round(c["correct"] / n, 3) if n else 0.0,
                    "precision_with_partly": round((c["correct"] + 0.5 * c["partly"]) / n, 3) if n else 0.0}
    return out


def counts_table(rows: list[dict[str, Any]]) -> dict[str, Any]:
    t = triples_of(rows)
    fam = Counter(r["family"] for r in t)
    types = Counter(r["type"] for r in t)
    return {"triples": len(t), "aliases": len(rows) - len(t), "per_family": dict(sorted(fam.items())),
            "IS": types["IS"], "IS_share": round(types["IS"] / len(t), 3) if t else 0.0,
            "top_types": types.most_common(10)}


def weighted(prec: dict[str, dict[str, float]], counts: dict[str, Any]) -> float:
    """Precision of all triples: each family's sample precision weighted by the family's share."""
    tot = sum(counts["per_family"].values())
    return round(sum(prec[f]["precision"] * n / tot for f, n in counts["per_family"].items() if f in prec), 3)


def cmd_score(a: argparse.Namespace) -> None:
    sample = read_jsonl(a.sample)
    prec = precision_table(sample)
    res: dict[str, Any] = {"precision": prec}
    if a.rows:
        counts = counts_table([r for r in read_jsonl(a.rows) if not r.get("meta")])
        res["counts"] = counts
        res["precision_weighted_by_family_share"] = weighted(prec, counts)
    print(json.dumps(res, indent=1, ensure_ascii=False))


def cmd_lost(a: argparse.Namespace) -> None:
    rows = triples_of([r for r in read_jsonl(a.rows) if not r.get("meta")])
    now = {key(r) for r in rows}
    pairs: dict[tuple[Any, str, str], str] = {}
    for r in rows:
        pairs.setdefault((r["passage"], r["subject"], r["object"]), r["predicate"])
    good = [r for r in read_jsonl(a.sample) if r.get("label") == "correct"]
    missing = [r for r in good if key(r) not in now]
    renamed = [r for r in missing if (r["passage"], r["subject"], r["object"]) in pairs]
    gone = [r for r in missing if r not in renamed]

    def show(r: dict[str, Any]) -> str:
        return f"{r['family']}: ({r['subject']}) -[{r['predicate']}]-> ({r['object']})"

    print(json.dumps({"correct_in_sample": len(good), "not_produced_as_is": len(missing),
                      "same_pair_other_predicate": len(renamed), "pair_gone": len(gone),
                      "renamed": [f"{show(r)} now -[{pairs[(r['passage'], r['subject'], r['object'])]}]->"
                                  for r in renamed],
                      "gone": [show(r) for r in gone]}, indent=1, ensure_ascii=False))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract", help="triples of a seeded passage sample, tagged by family")
    e.add_argument("--data", default=DEFAULT_DATA)
    e.add_argument("--passages", type=int, default=0, help="a seeded random sample of this many (0: all)")
    e.add_argument("--seed", type=int, default=20240601)
    e.add_argument("--out", required=True)
    s = sub.add_parser("sample", help="a stratified sample to label")
    s.add_argument("--rows", required=True)
    s.add_argument("--per-family", type=int, default=20)
    s.add_argument("--seed", type=int, default=7, help="ranks triples by sha256(seed|triple)")
    s.add_argument("--labels-from", action="append", help="labelled samples whose labels carry over")
    s.add_argument("--out", required=True)
    c = sub.add_parser("score", help="precision per family of a labelled sample")
    c.add_argument("--sample", required=True)
    c.add_argument("--rows", help="the rows file the sample came from, for counts per family")
    lo = sub.add_parser("lost", help="correct triples of a labelled sample missing from a rows file")
    lo.add_argument("--sample", required=True)
    lo.add_argument("--rows", required=True)
    a = ap.parse_args(argv)
    {"extract": cmd_extract, "sample": cmd_sample, "score": cmd_score, "lost": cmd_lost}[a.cmd](a)


if __name__ == "__main__":
    main()
