#!/usr/bin/env python
"""Entity, merge and relation precision on technical documents (issue 10), on a labelled sample.

Runs the spaCy extractor and the entity resolver over the texts of tests/data/technical/ (each
paragraph one unit, each file one source), then scores what they produce against the hand labels in
tests/data/technical/labels.json:

- entities: each distinct entity name is labelled ``name`` or ``code`` (code, a path, a number, a
  version, hex): the figure is how many of the produced entities are code;
- merges: every merge the resolver records (surface forms folded by the key, and the consolidation's
  steps), labelled ``correct`` or ``wrong``;
- relations: every triple, labelled ``correct``, ``partly`` or ``wrong`` (as in tests/data/relations/).

    PYTHONPATH=. python scripts/technical_precision.py            # figures, and anything unlabelled
    PYTHONPATH=<old checkout> python scripts/technical_precision.py --data tests/data/technical   # before

Works with the resolver before and after acronym merges needed a source (``resolve(mention, source)``).
Deterministic: the output depends only on the texts and the code.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "technical"


def units_of(path: Path) -> list[str]:
    """The paragraphs of a file (front matter and heading underlines dropped)."""
    text = path.read_text(encoding="utf-8")
    if text.startswith("---\n"):
        text = text.split("\n---\n", 1)[1]
    paras = [" ".join(p.split()) for p in text.split("\n\n")]
    return [p for p in paras if p and not set(p) <= set("=- ")]


def run(data: Path = DATA) -> dict[str, Any]:
    """What extraction and resolution produce on the sample: entities, merges, triples."""
    from kmrag.ingestion.resolve import EntityResolver
    from kmrag.nlp.extract import SpacyExtractor

    x = SpacyExtractor()
    r = EntityResolver("technical")
    with_source = "source" in inspect.signature(r.resolve).parameters
    entities: set[str] = set()
    triples: set[tuple[str, str, str]] = set()
    ids: list[str] = []

    def resolve(ent: Any, source: str) -> str:
        return r.resolve(ent, source) if with_source else r.resolve(ent)

    for path in sorted(p for p in data.glob("*.md") if p.name != "README.md"):
        for para in units_of(path):
            ex = x.extract_text(para)
            for alias, full in ex.aliases:
                r.add_alias(alias, full)
            for e in ex.entities:
                entities.add(e.name)
                ids.append(resolve(e, path.name))
            for t in ex.triples:
                entities.update((t.subject.name, t.object.name))
                ids += [resolve(t.subject, path.name), resolve(t.object, path.name)]
                triples.add((t.subject.name, t.predicate, t.object.name))
    current = {i: r.entity(i) for i in dict.fromkeys(ids)}
    merges = {(m.alias, current[m.entity_id].name, m.method) for m in r.merges}
    plan = r.plan(list(current.values()), set(current))
    merges |= {(s.member.name, s.root.name, s.method) for s in plan.steps}
    return {"entities": sorted(entities), "merges": sorted(merges), "triples": sorted(triples)}


def score(out: dict[str, Any], labels: dict[str, Any]) -> dict[str, Any]:
    """Counts per label, and whatever the labels do not cover yet."""
    ent = Counter(labels["entities"].get(n, "unlabelled") for n in out["entities"])
    mer = Counter(labels["merges"].get(f"{root} <- {a}", "unlabelled") for a, root, _ in out["merges"])
    rel = Counter(labels["relations"].get(" | ".join(t), "unlabelled") for t in out["triples"])
    unlabelled = {
        "entities": [n for n in out["entities"] if n not in labels["entities"]],
        "merges": [f"{root} <- {a}" for a, root, _ in out["merges"] if f"{root} <- {a}" not in labels["merges"]],
        "relations": [" | ".join(t) for t in out["triples"] if " | ".join(t) not in labels["relations"]],
    }
    return {"entities": dict(sorted(ent.items())), "merges": dict(sorted(mer.items())),
            "relations": dict(sorted(rel.items())), "unlabelled": unlabelled}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--dump", action="store_true", help="print everything produced, not only the figures")
    a = ap.parse_args()
    out = run(a.data)
    labels = json.loads((a.data / "labels.json").read_text()) if (a.data / "labels.json").exists() else {
        "entities": {}, "merges": {}, "relations": {}}
    res = score(out, labels)
    if a.dump:
        res["produced"] = out
    json.dump(res, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
