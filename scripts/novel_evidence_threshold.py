"""Choose the evidence matcher's threshold (kmrag/eval/evidence_match.py) on GraphRAG-Bench questions outside
the first-100 sample: the Fact Retrieval and Complex Reasoning questions from position SKIP of each type on. No retrieval, no stores: the novels' text only.

For each evidence sentence: the best coverage over the novel's 1,200-character chunks (the evidence lies
in one of them; a stand-in for a true match) and the coverage of one random chunk of the same novel (a
stand-in for a unit that does not hold it). Prints, per threshold, the share of each that would match.

    python scripts/novel_evidence_threshold.py [DATA_FOLDER] [--skip 200] [--take 200]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pyarrow.parquet as pq

from kmrag.eval.evidence_match import content_words, window_share
from kmrag.ingestion.qa_corpora import split_evidence

CHUNK = 1200
TYPES = ("Fact Retrieval", "Complex Reasoning")


def chunks(text: str, size: int = CHUNK) -> list[list[str]]:
    words, out, cur, n = text.split(), [], [], 0
    for w in words:
        cur.append(w)
        n += len(w) + 1
        if n >= size:
            out.append(content_words(" ".join(cur)))
            cur, n = [], 0
    if cur:
        out.append(content_words(" ".join(cur)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="?", default="/work/shared/data/graphrag-bench")
    ap.add_argument("--skip", type=int, default=200, help="leave out the first N of each type (the reported ones)")
    ap.add_argument("--take", type=int, default=200, help="then take this many of each type")
    args = ap.parse_args()
    folder = Path(args.data)
    novels = {r["corpus_name"]: r["context"] for r in pq.read_table(folder / "novel.parquet").to_pylist()}
    questions = json.loads((folder / "novel_questions.json").read_text(encoding="utf-8"))
    tune = [q for t in TYPES for q in [q for q in questions if q["question_type"] == t][args.skip:args.skip + args.take]]
    by_novel = {name: chunks(text) for name, text in novels.items() if any(q["source"] == name for q in tune)}
    rng = random.Random(0)
    best, rand = [], []
    for q in tune:
        parts = by_novel[q["source"]]
        for ev in split_evidence(q["evidence"]):
            wanted = set(content_words(ev))
            best.append(max(window_share(wanted, c) for c in parts))
            rand.append(window_share(wanted, rng.choice(parts)))
    print(f"{len(tune)} questions, {len(best)} evidence sentences")
    print("| threshold | best chunk of the novel matches | random chunk of the novel matches |")
    print("|---|---|---|")
    for t in (0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
        print(f"| {t:.1f} | {100 * sum(b >= t for b in best) / len(best):.1f}% "
              f"| {100 * sum(r >= t for r in rand) / len(rand):.1f}% |")


if __name__ == "__main__":
    main()
