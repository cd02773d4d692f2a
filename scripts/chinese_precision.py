#!/usr/bin/env python
"""Entities and relations of Chinese documents (issue 23), on a labelled sample.

Builds the units of the Chinese evaluation's documents (tests/data/chinese/docs/: seed 004 and three
written for the set) the way ingestion does (parse, units, the extractor that routes Chinese units to LAC),
then draws a fixed sample of 30 distinct entities and 30 distinct relations (random.Random(23) over the
sorted lists) and scores them against the hand labels in tests/data/chinese/labels.json:

- entities: ``name`` (a person, place, organisation, work or named technique a reader would accept as a
  node), or ``junk`` (a piece of a word, a generic noun, a mis-segmented span);
- relations: ``correct``, ``partly`` (the right pair with a vague or clipped predicate, or a right fact with a
  less specific end) or ``wrong``.

    PYTHONPATH=. python scripts/chinese_precision.py            # figures, and anything unlabelled
    PYTHONPATH=. python scripts/chinese_precision.py --dump     # also everything produced

A change that alters the sample shows its new items as unlabelled: label them (the test asserts none).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "chinese"
SAMPLE = 30


def run(data: Path = DATA) -> dict[str, Any]:
    from kmrag.ingestion.parse.text import parse_text
    from kmrag.ingestion.sources import SourceDocument
    from kmrag.ingestion.units import build_units
    from kmrag.nlp.extract import SpacyExtractor

    x = SpacyExtractor()
    entities: set[str] = set()
    triples: set[tuple[str, str, str]] = set()
    for path in sorted((data / "docs").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        doc = SourceDocument(source_id=path.name, uri=str(path), kind="text", title=path.stem, text=text,
                             version="v")
        units = [u for u in build_units(doc, parse_text(text), text, "zh-sample").units
                 if u.type != "code"]  # as ingestion: code is never read for entities
        for ex in x.extract(units):
            entities.update(e.name for e in ex.entities)
            triples.update((t.subject.name, t.predicate, t.object.name) for t in ex.triples)
    ents, rels = sorted(entities), sorted(triples)
    rng = random.Random(23)
    return {"entities": ents, "triples": rels,
            "entity_sample": sorted(rng.sample(ents, min(SAMPLE, len(ents)))),
            "relation_sample": sorted(rng.sample(rels, min(SAMPLE, len(rels))))}


def score(out: dict[str, Any], labels: dict[str, Any]) -> dict[str, Any]:
    ent = Counter(labels["entities"].get(n, "unlabelled") for n in out["entity_sample"])
    rel = Counter(labels["relations"].get(" | ".join(t), "unlabelled") for t in out["relation_sample"])
    return {"produced": {"entities": len(out["entities"]), "relations": len(out["triples"])},
            "entities": dict(sorted(ent.items())), "relations": dict(sorted(rel.items())),
            "unlabelled": {"entities": [n for n in out["entity_sample"] if n not in labels["entities"]],
                           "relations": [" | ".join(t) for t in out["relation_sample"]
                                         if " | ".join(t) not in labels["relations"]]}}


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--dump", action="store_true", help="print everything produced, not only the figures")
    a = ap.parse_args()
    out = run()
    path = DATA / "labels.json"
    labels = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"entities": {}, "relations": {}}
    res = score(out, labels)
    if a.dump:
        res["all"] = out
    json.dump(res, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
