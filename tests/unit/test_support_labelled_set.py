"""The shape of tests/data/support/labelled.jsonl, the hand-labelled "does the cited evidence support
this statement?" set: fields and types, ids, kinds, labels, splits, and every cited span copied
verbatim from the document its line names (a QA record of ../shared/data, or a file of the demo
corpus). Nothing here runs or asserts anything about a checker."""

from __future__ import annotations

import collections
import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
SET = REPO / "tests" / "data" / "support" / "labelled.jsonl"
CORPUS = REPO / "kmrag" / "demo" / "corpus"
POSITIVE = {"verbatim", "paraphrase", "multi_span"}
NEGATIVE = {"stitch", "wrong_row", "wrong_number", "wrong_verb", "role_swap", "negation", "invented_clause",
            "invented_name"}
FIELDS = {"id": str, "statement": str, "spans": list, "titles": list, "supported": bool, "kind": str,
          "source": str, "split": str, "note": str}
DATASETS = {"hotpotqa": "hotpotqa/hotpotqa_dev_200.json", "2wiki": "2wiki/2wiki_100.json",
            "musique": "musique/musique_dev_100.json"}


def _lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]


def _norm(text: str) -> str:
    return " ".join(text.split())


def _shared_data() -> Path:
    """../shared/data as the README names it (KMRAG_SHARED_DATA, else next to the checkout or, for a
    worktree under wt/, next to its parent)."""
    for cand in [os.environ.get("KMRAG_SHARED_DATA"), REPO.parent / "shared" / "data",
                 REPO.parents[1] / "shared" / "data"]:
        if cand and (Path(cand) / DATASETS["hotpotqa"]).is_file():
            return Path(cand)
    pytest.fail("the QA sets are not found: set KMRAG_SHARED_DATA to the shared/data folder", pytrace=False)


@cache
def _records(dataset: str) -> dict[str, list[tuple[str, str]]]:
    """record id -> [(paragraph title, paragraph text)]; HotpotQA/2Wiki sentences joined as given."""
    rows = json.loads((_shared_data() / DATASETS[dataset]).read_text(encoding="utf-8"))
    out: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        if dataset == "musique":
            out[r["id"]] = [(p["title"], p["paragraph_text"]) for p in r["paragraphs"]]
        else:
            out[r["_id"]] = [(t, "".join(ss)) for t, ss in r["context"]]
    return out


def test_the_set_has_enough_well_formed_lines() -> None:
    lines = _lines()
    assert len(lines) >= 300
    for o in lines:
        assert set(o) == set(FIELDS), o.get("id")
        for field, typ in FIELDS.items():
            assert isinstance(o[field], typ), (o["id"], field)
        assert re.fullmatch(r"s\d{4}", o["id"]), o["id"]
        assert o["statement"].strip(), o["id"]
        assert o["spans"] and len(o["spans"]) == len(o["titles"]), o["id"]
        assert all(isinstance(s, str) and s.strip() for s in o["spans"]), o["id"]
        assert all(isinstance(t, str) and t.strip() for t in o["titles"]), o["id"]
        assert o["kind"] in POSITIVE | NEGATIVE, o["id"]
        assert o["supported"] is (o["kind"] in POSITIVE), o["id"]
        assert o["split"] in {"tune", "test"}, o["id"]


def test_ids_statements_kinds_and_labels() -> None:
    lines = _lines()
    ids = [o["id"] for o in lines]
    assert len(set(ids)) == len(ids)
    statements = [o["statement"] for o in lines]
    assert len(set(statements)) == len(statements)
    assert {o["kind"] for o in lines} == POSITIVE | NEGATIVE
    labels = collections.Counter(o["supported"] for o in lines)
    assert labels[True] >= 120 and labels[False] >= 120
    assert {o["split"] for o in lines} == {"tune", "test"}
    assert len({s for o in lines for s in o["spans"]}) >= 120


def test_a_source_document_is_on_one_side_of_the_split_only() -> None:
    sides = collections.defaultdict(set)
    for o in _lines():
        sides[o["source"]].add(o["split"])
    assert not [s for s, v in sides.items() if len(v) > 1]


def test_every_span_is_copied_verbatim_from_its_source() -> None:
    bad = []
    for o in _lines():
        source = o["source"]
        if source.startswith("kmrag/demo/corpus/"):
            path = REPO / source
            assert path.parent == CORPUS and path.is_file(), (o["id"], source)
            text = _norm(path.read_text(encoding="utf-8"))
            for span in o["spans"]:
                # a sentence as written, or a table row rendered "Header: cell; Header: cell"
                cells = [c.partition(": ") for c in span.split("; ")]
                if _norm(span) not in text and not all(
                        sep and _norm(h) in text and _norm(v) in text for h, sep, v in cells):
                    bad.append((o["id"], span))
            continue
        dataset, _, rec_id = source.partition(":")
        assert dataset in DATASETS, (o["id"], source)
        paragraphs = _records(dataset).get(rec_id)
        assert paragraphs is not None, (o["id"], source)
        for span, title in zip(o["spans"], o["titles"], strict=True):
            if not any(t == title and span in p for t, p in paragraphs):
                bad.append((o["id"], span))
    assert not bad
