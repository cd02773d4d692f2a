"""Assemble labelled.jsonl from statements.txt (the hand-written statements).

The statements, their kinds and the choice of spans are written by hand in statements.txt; this
script only copies each cited span verbatim out of its source (a QA record's paragraph, or a line
of the demo corpus), derives the label from the kind, numbers the lines and assigns the split.

statements.txt:
  == hp5            a record: hp<i> / w2<i> / mu<i> = index i in the HotpotQA / 2Wiki / MuSiQue dev file
  == demo:<file>    a file of kmrag/demo/corpus
  @name = Title#=literal text      an alias for a demo span (table rows rendered "Header: cell; ...")
  kind | Title#i + Title#i | statement [| note]
     Title#i: sentence i of the paragraph with that title (MuSiQue paragraphs are split into
     sentences by msplit below; where several paragraphs of a record share the title, the supporting
     one); Title#=text: a literal span, checked to be in a paragraph with that title.

Run: python tests/data/support/build_labelled.py  (from the repository root)
"""
from __future__ import annotations

import collections
import hashlib
import json
import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# ../shared/data (README: KMRAG_SHARED_DATA), next to the checkout or, for a worktree under wt/, next to its parent
DATA = next((Path(c) for c in [os.environ.get("KMRAG_SHARED_DATA"), ROOT.parent / "shared/data",
                               ROOT.parents[1] / "shared/data"] if c and Path(c, "hotpotqa").is_dir()),
            Path("shared/data"))
FILES = {"hp": ("hotpotqa", "hotpotqa/hotpotqa_dev_200.json"), "w2": ("2wiki", "2wiki/2wiki_100.json"),
         "mu": ("musique", "musique/musique_dev_100.json")}
POSITIVE = {"verbatim", "paraphrase", "multi_span"}
NEGATIVE = {"stitch", "wrong_row", "wrong_number", "wrong_verb", "role_swap", "negation",
            "invented_clause", "invented_name"}


def msplit(text: str) -> list[str]:
    return [s for s in re.split(r'(?<=[.!?])\s+(?=[A-Z"`(\'])', text) if s]


def norm(s: str) -> str:
    return " ".join(s.split())


def split_of(source: str) -> str:
    return "tune" if int(hashlib.sha256(source.encode()).hexdigest(), 16) % 2 == 0 else "test"


def paragraphs(prefix: str, rec: dict) -> list[tuple[str, list[str], bool]]:
    """(title, sentences, is_supporting) of each paragraph of a QA record."""
    if prefix == "mu":
        return [(p["title"], msplit(p["paragraph_text"]), p["is_supporting"]) for p in rec["paragraphs"]]
    gold = {t for t, _ in rec["supporting_facts"]}
    return [(t, [s.strip() for s in ss], t in gold) for t, ss in rec["context"]]


def main() -> None:
    data = {k: json.load(open(DATA / f)) for k, (_, f) in FILES.items()}
    lines = (HERE / "statements.txt").read_text(encoding="utf-8").splitlines()
    out, errors, aliases = [], [], {}
    src = rec = prefix = None
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("== "):
            key = line[3:].strip()
            if key.startswith("demo:"):
                prefix, rec = "demo", None
                path = ROOT / "kmrag/demo/corpus" / key[5:]
                demo_text = norm(path.read_text(encoding="utf-8"))
                src = "kmrag/demo/corpus/" + key[5:]
            else:
                prefix, i = key[:2], int(key[2:])
                rec = data[prefix][i]
                src = f"{FILES[prefix][0]}:{rec.get('_id') or rec.get('id')}"
            aliases = {}
            continue
        if line.startswith("@"):
            name, _, ref = line.partition("=")
            aliases[name.strip()] = ref.strip()
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) not in (3, 4):
            errors.append(f"{n}: bad line")
            continue
        kind, refs, statement = parts[:3]
        note = parts[3] if len(parts) == 4 else ""
        if kind not in POSITIVE | NEGATIVE:
            errors.append(f"{n}: kind {kind}")
            continue
        spans, titles = [], []
        for ref in refs.split(" + "):
            ref = aliases.get(ref.strip(), ref.strip())
            title, _, what = ref.rpartition("#")
            if prefix == "demo":
                assert what.startswith("="), (n, ref)
                text = what[1:]
                cells = [c.partition(": ") for c in text.split("; ")] if "; " in text or ": " in text else []
                if norm(text) not in demo_text and not all(
                        norm(h) in demo_text and norm(v) in demo_text for h, _, v in cells):
                    errors.append(f"{n}: demo span not in file: {text}")
                spans.append(text)
                titles.append(title)
                continue
            paras = [(ss, g) for t, ss, g in paragraphs(prefix, rec) if t == title]
            if not paras:
                errors.append(f"{n}: no paragraph {title!r} in {src}")
                continue
            if what.startswith("="):
                text = what[1:]
                if not any(text in " ".join(ss) for ss, _ in paras):
                    errors.append(f"{n}: literal not in {title!r}: {text}")
            else:
                if len(paras) > 1:  # a title held by several paragraphs: Title#i is the supporting one's
                    paras = [p for p in paras if p[1]]
                    if len(paras) != 1:
                        errors.append(f"{n}: ambiguous title {title!r}")
                        continue
                text = paras[0][0][int(what)]
            spans.append(text)
            titles.append(title)
        out.append({"statement": statement, "spans": spans, "titles": titles,
                    "supported": kind in POSITIVE, "kind": kind, "source": src,
                    "split": split_of(src), "note": note})
    seen = collections.Counter(o["statement"] for o in out)
    errors += [f"duplicate statement: {s}" for s, c in seen.items() if c > 1]
    # a paragraph (dataset, title) must not be cited on both sides of the split
    sides = collections.defaultdict(set)
    for o in out:
        ds = o["source"].split(":")[0]
        for t in o["titles"]:
            sides[(ds, t)].add(o["split"])
    errors += [f"title on both splits: {k}" for k, v in sides.items() if len(v) > 1]
    if errors:
        print("\n".join(errors))
        sys.exit(1)
    with open(HERE / "labelled.jsonl", "w", encoding="utf-8") as f:
        for i, o in enumerate(out, 1):
            f.write(json.dumps({"id": f"s{i:04d}", **o}, ensure_ascii=False) + "\n")
    table(out)


def table(out: list[dict]) -> None:
    kinds = sorted({o["kind"] for o in out}, key=lambda k: (k not in POSITIVE, k))
    c = collections.Counter((o["kind"], o["split"]) for o in out)
    print("| kind | label | tune | test | total |\n|---|---|---|---|---|")
    for k in kinds:
        print(f"| {k} | {'supported' if k in POSITIVE else 'unsupported'} | {c[k, 'tune']} | {c[k, 'test']} | "
              f"{c[k, 'tune'] + c[k, 'test']} |")
    for lab, name in ((True, "all supported"), (False, "all unsupported")):
        t = sum(1 for o in out if o["supported"] is lab and o["split"] == "tune")
        s = sum(1 for o in out if o["supported"] is lab and o["split"] == "test")
        print(f"| {name} | | {t} | {s} | {t + s} |")
    t = sum(1 for o in out if o["split"] == "tune")
    print(f"| total | | {t} | {len(out) - t} | {len(out)} |")
    spans = {s for o in out for s in o["spans"]}
    srcs = collections.Counter(o["source"].split(":")[0] for o in out)
    print(f"\n{len(spans)} distinct spans; {len({o['source'] for o in out})} source documents; lines per set: "
          + ", ".join(f"{k} {v}" for k, v in sorted(srcs.items())))


if __name__ == "__main__":
    main()
