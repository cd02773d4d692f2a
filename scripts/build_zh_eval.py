"""Build tests/data/chinese/zh_eval.json (MuSiQue format) from the Chinese documents and questions.json.

    python scripts/build_zh_eval.py

Each document in tests/data/chinese/docs/ is split into paragraphs on blank lines (a run of one or more
empty or whitespace-only lines), each stripped; its first line is its title and also its first paragraph.
Each question becomes one record that lists every paragraph of its own document, with is_supporting true
for the paragraphs that contain one of the question's gold strings, so the union of the records is the
whole corpus. Stdlib only.

Checks, each failing with exit status 1 and the question id:
- every gold string occurs verbatim in exactly one paragraph of the question's document;
- the answer (unless 是/否, or "" for an unanswerable question) is a substring of one of its gold strings;
- an unanswerable question has answer "" and no gold strings, every other one has an answer and gold;
- every document has at least one question (so the records hold the whole corpus).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "chinese"
DOCS = DATA / "docs"
QUESTIONS = DATA / "questions.json"
OUT = DATA / "zh_eval.json"

TYPES = {"single", "table", "two-hop", "yesno", "comparison", "unanswerable"}
KINDS = {"多少", "哪", "谁", "何时", "是否", "什么"}
YES_NO = {"是", "否"}
BLANK_LINES = re.compile(r"\n(?:[ \t]*\n)+")


class BuildError(Exception):
    pass


def split_document(text: str) -> tuple[str, list[str]]:
    """(title, paragraphs): the first line is the title and the first paragraph; the rest is split on
    blank lines."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    first, _, rest = text.partition("\n")
    title = first.strip()
    paragraphs = [title] + [p.strip() for p in BLANK_LINES.split(rest) if p.strip()]
    return title, paragraphs


def load_documents() -> dict[str, tuple[str, list[str]]]:
    docs = {p.name: split_document(p.read_text(encoding="utf-8")) for p in sorted(DOCS.glob("*.txt"))}
    if not docs:
        raise BuildError(f"no .txt documents in {DOCS}")
    return docs


def build_record(q: dict, docs: dict[str, tuple[str, list[str]]]) -> dict:
    qid = q.get("id", "?")
    for field in ("id", "doc", "question", "answer", "aliases", "type", "kind", "gold"):
        if field not in q:
            raise BuildError(f"{qid}: missing field {field!r}")
    if q["type"] not in TYPES:
        raise BuildError(f"{qid}: unknown type {q['type']!r}")
    if q["kind"] not in KINDS:
        raise BuildError(f"{qid}: unknown kind {q['kind']!r}")
    if q["doc"] not in docs:
        raise BuildError(f"{qid}: no document {q['doc']!r} in {DOCS}")
    title, paragraphs = docs[q["doc"]]
    answer, gold = q["answer"], q["gold"]

    if q["type"] == "unanswerable":
        if answer != "" or gold:
            raise BuildError(f"{qid}: an unanswerable question has answer \"\" and gold []")
    elif not answer or not gold:
        raise BuildError(f"{qid}: answer and gold must not be empty")

    supporting: set[int] = set()
    for g in gold:
        hits = [i for i, p in enumerate(paragraphs) if g in p]
        if len(hits) != 1:
            raise BuildError(f"{qid}: gold string {g!r} is in {len(hits)} paragraphs of {q['doc']}, "
                             "not exactly one")
        supporting.update(hits)

    if answer and answer not in YES_NO and not any(answer in g for g in gold):
        raise BuildError(f"{qid}: answer {answer!r} is in none of its gold strings")

    return {
        "id": q["id"],
        "question": q["question"],
        "answer": answer,
        "answer_aliases": list(q["aliases"]),
        "paragraphs": [{"title": title, "paragraph_text": p, "is_supporting": i in supporting}
                       for i, p in enumerate(paragraphs)],
    }


def main() -> int:
    try:
        docs = load_documents()
        questions = json.loads(QUESTIONS.read_text(encoding="utf-8"))
        ids = [q.get("id") for q in questions]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise BuildError(f"duplicate question ids: {dupes}")
        records = [build_record(q, docs) for q in questions]
        unused = sorted(set(docs) - {q["doc"] for q in questions})
        if unused:
            raise BuildError(f"documents with no question (they would be missing from the corpus): {unused}")
    except BuildError as e:
        print(f"build_zh_eval: {e}", file=sys.stderr)
        return 1
    # one record a line: readable diffs, without the size of an indented dump
    OUT.write_text("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n]\n",
                   encoding="utf-8")
    used = sorted({q["doc"] for q in questions})
    print(f"wrote {OUT.relative_to(ROOT)}: {len(records)} questions over {len(used)} documents "
          f"({', '.join(f'{d}: {len(docs[d][1])} paragraphs' for d in used)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
