"""Figures of what a corpus became: units by type and length, junk units, entities that look like code,
relations and merges -- the before/after figures of the real-documents issue.

Two steps, so that an older checkout of kmrag can be measured by the same judge:

    # 1. dump a tenant's units, entities, relations and merges (runs with any kmrag version's code)
    PYTHONPATH=<checkout> python scripts/trial_figures.py dump --tenant T --out before.json
    # 2. report one or more dumps side by side (runs with this checkout's code: its looks_like_code judges)
    python scripts/trial_figures.py report before.json after.json [--markdown]

The dump uses only store methods that exist since the ingestion-jobs work (units.unit_ids/get_units,
graph.all_entities/relations, merges.merges), so a pre-issue-10 checkout can write it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def dump(tenant: str, out: Path) -> None:
    from kmrag.config import load_settings
    from kmrag.stores import open_stores

    with open_stores(load_settings(tenant=tenant)) as s:
        ids = sorted(s.units.unit_ids(tenant))
        units = []
        for i in range(0, len(ids), 1000):
            for u in s.units.get_units(tenant, ids[i:i + 1000], include_retired=False):
                units.append({"id": u.id, "type": u.type, "source": u.source_id, "content": u.content})
        entities = [{"id": e.id, "name": e.name, "type": e.type, "aliases": e.aliases}
                    for e in s.graph.all_entities(tenant)]
        names = {e["id"]: e["name"] for e in entities}
        relations = [{"s": names.get(r.subject_id, r.subject_id), "p": r.predicate, "o": names.get(r.object_id, r.object_id),
                      "units": r.unit_ids} for r in s.graph.relations(tenant)]
        merges = s.units.merges(tenant) if hasattr(s.units, "merges") else []
    out.write_text(json.dumps({"tenant": tenant, "units": units, "entities": entities, "relations": relations,
                               "merges": merges}, default=str, ensure_ascii=False))
    print(f"{out}: {len(units)} units, {len(entities)} entities, {len(relations)} relations, {len(merges)} merges")


# kinds of junk unit the trial found (each a regex over the unit's whole content)
JUNK = {
    "HTML comment pieces": re.compile(r"<!--|-->"),
    "YAML change metadata": re.compile(r"^\s*(?:added|version|changes|deprecated|removed|pr-url|napiVersion|"
                                       r"description|type)\s*:\s", re.M),
    "rst directive lines": re.compile(r"^\s*\.\. [\w:-]+::", re.M),
    "rst heading markup": re.compile(r"^\s*([=\-~^*#\"'`])\1{3,}\s*$", re.M),
}
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def figures(d: dict[str, Any]) -> dict[str, Any]:
    from kmrag.nlp.names import looks_like_code

    units = d["units"]
    lengths = [len(u["content"]) for u in units]
    by_type = Counter(u["type"] for u in units)
    prose = [u for u in units if u["type"] != "code"]
    code_in_prose = sum(1 for u in prose if "```" in u["content"] or u["content"].count("\n    ") >= 3
                        or re.search(r"[;{}]\s*$", u["content"], re.M) and u["content"].count("\n") >= 3)
    ents = d["entities"]
    code_like = [e["name"] for e in ents if looks_like_code(e["name"])]
    numbers = [e["name"] for e in ents if re.fullmatch(r"[\d.,:/ -]+", e["name"])]
    cjk = [e["name"] for e in ents if CJK.search(e["name"])]
    rel_code = [r for r in d["relations"] if looks_like_code(r["s"]) or looks_like_code(r["o"])]
    return {
        "units": len(units),
        "units by type": dict(sorted(by_type.items())),
        "median length": statistics.median(lengths) if lengths else 0,
        "p10 length": sorted(lengths)[len(lengths) // 10] if lengths else 0,
        "under 20 chars": sum(1 for n in lengths if n < 20),
        "non-heading median length": statistics.median(body) if (body := [len(u["content"]) for u in units
                                                                           if u["type"] != "section"]) else 0,
        "non-heading under 20 chars": sum(1 for n in body if n < 20),
        "longest": max(lengths, default=0),
        "longest non-code": max((len(u["content"]) for u in prose), default=0),
        **{k: sum(1 for u in units if rx.search(u["content"])) for k, rx in JUNK.items()},
        "code in non-code units": code_in_prose,
        "entities": len(ents),
        "code-like entities": len(code_like),
        "code-like share": round(len(code_like) / len(ents), 3) if ents else 0.0,
        "bare-number entities": len(numbers),
        "entities with CJK names": len(cjk),
        "relations": len(d["relations"]),
        "relations touching code-like names": len(rel_code),
        "merges": len(d["merges"]),
    }


def report(paths: list[Path], markdown: bool) -> None:
    dumps = [json.loads(p.read_text()) for p in paths]
    figs = [figures(d) for d in dumps]
    keys = list(figs[0])
    if markdown:
        print("| figure | " + " | ".join(p.stem for p in paths) + " |")
        print("|---|" + "---|" * len(paths))
        for k in keys:
            print(f"| {k} | " + " | ".join(str(f.get(k, "")) for f in figs) + " |")
    else:
        w = max(len(k) for k in keys)
        print(" " * w + "  " + "  ".join(f"{p.stem:>24}" for p in paths))
        for k in keys:
            print(f"{k:<{w}}  " + "  ".join(f"{str(f.get(k, '')):>24}" for f in figs))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    dp = sub.add_parser("dump")
    dp.add_argument("--tenant", required=True)
    dp.add_argument("--out", type=Path, required=True)
    rp = sub.add_parser("report")
    rp.add_argument("dumps", type=Path, nargs="+")
    rp.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    if a.cmd == "dump":
        dump(a.tenant, a.out)
    else:
        report(a.dumps, a.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
