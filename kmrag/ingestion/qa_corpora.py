"""The multi-hop QA formats in ../shared/data: MuSiQue, HotpotQA, 2WikiMultiHopQA, passage lists
and the GraphRAG-Bench corpora. Parsing only; used by ingestion (passages) and eval (questions).

A malformed record is reported with its index and reason (BadInput), never a bare stack trace.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from kmrag.errors import BadInput

QAFormat = Literal["musique", "hotpotqa", "2wiki", "graphrag-bench", "passages"]
GRAPHRAG_FIELDS = ("id", "source", "question", "answer", "question_type", "evidence")


class Passage(BaseModel):
    title: str
    text: str

    @property
    def key(self) -> str:
        """De-duplication key of the field: title + text."""
        return hashlib.sha256(f"{self.title}\x1f{self.text}".encode()).hexdigest()[:12]


class QAItem(BaseModel):
    id: str
    question: str
    answers: list[str] = Field(description="gold answer first, then aliases")
    passages: list[Passage]
    gold_keys: list[str] = Field(description="Passage.key of the gold supporting passages")
    gold_sentences: list[str] = Field(default_factory=list, description=(
        "HotpotQA / 2Wiki: the text of each supporting fact ([title, sentence index] -> that sentence of the "
        "titled context paragraph), in the file's order, stripped and de-duplicated; empty for MuSiQue, whose "
        "gold evidence is the supporting paragraphs (gold_keys)"))
    missing_gold_sentences: int = Field(default=0, description=(
        "supporting facts that name no context sentence (an unknown title or an index past the paragraph's "
        "end): evidence no answer can cite, counted so a citation recall can keep it in its denominator"))
    type: str | None = None
    bridges: list[str] = Field(default_factory=list, description=(
        "the answers of the question's inner hops, where the set gives them: MuSiQue's question_decomposition but "
        "its last step, 2WikiMultiHopQA's evidence objects that another evidence triple starts from; empty else"))
    corpus_record: str | None = Field(default=None, description=(
        "GraphRAG-Bench: the title of the corpus record (a novel) the question is about, its `source`; the "
        "corpus is a separate file, and gold_keys are filled once it is read"))


def detect_format(data: Any) -> QAFormat | None:
    """Which QA format a parsed JSON document is, or None."""
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        return None
    first = data[0]
    if set(first) >= set(GRAPHRAG_FIELDS):
        return "graphrag-bench"
    if "paragraphs" in first and "question" in first:
        return "musique"
    if "context" in first and "question" in first and "supporting_facts" in first:
        return "2wiki" if ("evidences" in first or first.get("type") in {"compositional", "comparison",
                                                                          "inference", "bridge_comparison"}
                           and "level" not in first) else "hotpotqa"
    if set(first) >= {"title", "text"} and "question" not in first:
        return "passages"
    return None


def _need(rec: Any, index: int, *fields: str) -> None:
    if not isinstance(rec, dict):
        raise BadInput(f"record {index}: expected an object, got {type(rec).__name__}")
    missing = [f for f in fields if f not in rec]
    if missing:
        raise BadInput(f"record {index}: missing field(s) {missing}")


def _musique(rec: Any, i: int) -> QAItem:
    _need(rec, i, "id", "question", "answer", "paragraphs")
    passages, gold = [], []
    for j, p in enumerate(rec["paragraphs"]):
        if not isinstance(p, dict) or not isinstance(p.get("paragraph_text"), str):
            raise BadInput(f"record {i}: paragraph {j} has no paragraph_text")
        psg = Passage(title=str(p.get("title", "")), text=p["paragraph_text"])
        passages.append(psg)
        if p.get("is_supporting"):
            gold.append(psg.key)
    answers = [str(rec["answer"]), *[str(a) for a in rec.get("answer_aliases") or []]]
    steps = rec.get("question_decomposition") or []
    bridges = [str(h["answer"]) for h in steps[:-1] if isinstance(h, dict) and str(h.get("answer") or "").strip()]
    return QAItem(id=str(rec["id"]), question=str(rec["question"]), answers=answers, passages=passages,
                  gold_keys=list(dict.fromkeys(gold)), bridges=bridges)


def join_sentences(sentences: list[Any]) -> str:
    """A paragraph from its sentences: HotpotQA's carry their leading space, 2Wiki's do not ("Moraes.Words"
    would be one sentence, and "Party.Ji" one word), so a space goes between two that would touch."""
    out = ""
    for s in (str(x) for x in sentences):
        if out and s and not out[-1].isspace() and not s[0].isspace():
            out += " "
        out += s
    return out.strip()


def _context(rec: Any, i: int, id_field: str) -> QAItem:
    _need(rec, i, id_field, "question", "answer", "context", "supporting_facts")
    passages = []
    for j, c in enumerate(rec["context"]):
        if not (isinstance(c, list) and len(c) == 2 and isinstance(c[1], list)):
            raise BadInput(f"record {i}: context {j} is not [title, [sentences]]")
        passages.append(Passage(title=str(c[0]), text=join_sentences(c[1])))
    facts = [f for f in rec["supporting_facts"] if isinstance(f, list) and f]
    gold_titles = {str(f[0]) for f in facts}
    gold = [p.key for p in passages if p.title in gold_titles]
    sentences, missing = _supporting_sentences(rec["context"], facts)
    return QAItem(id=str(rec[id_field]), question=str(rec["question"]), answers=[str(rec["answer"])],
                  passages=passages, gold_keys=list(dict.fromkeys(gold)), gold_sentences=sentences,
                  missing_gold_sentences=missing, type=rec.get("type"), bridges=_bridges(rec.get("evidences")))


def _bridges(evidences: Any) -> list[str]:
    """The objects of (subject, relation, object) evidence triples that another triple starts from: "Louis XIV of
    France" in [Marie Thérèse of France, father, Louis XIV of France], [Louis XIV, place of death, Versailles]."""
    triples = [t for t in evidences or [] if isinstance(t, list) and len(t) == 3 and all(isinstance(x, str) for x in t)]

    def key(x: str) -> str:
        return " ".join(re.findall(r"\w+", x.lower()))

    out = []
    for i, (_, _, obj) in enumerate(triples):
        o = key(obj)
        if o and any(j != i and (s := key(t[0])) and (s in o or o in s) for j, t in enumerate(triples)):
            out.append(obj)
    return list(dict.fromkeys(out))


def _supporting_sentences(context: list[Any], facts: list[list[Any]]) -> tuple[list[str], int]:
    """The sentence text of each supporting fact [title, index], and how many facts name no sentence. A title
    that occurs twice in the context is read from its first paragraph that has that sentence."""
    by_title: dict[str, list[list[Any]]] = {}
    for title, sents in context:
        by_title.setdefault(str(title), []).append(sents)
    found: list[str] = []
    missing = 0
    for f in facts:
        idx = f[1] if len(f) > 1 else None
        text = None
        if isinstance(idx, int) and not isinstance(idx, bool) and idx >= 0:
            text = next((str(s[idx]).strip() for s in by_title.get(str(f[0]), []) if idx < len(s)), None)
        if not text:
            missing += 1
        elif text not in found:
            found.append(text)
    return found, missing


_EVIDENCE_SPLIT = re.compile(r"(?<=[.!?\"'”’)])\s*;\s+")


def split_evidence(evidence: str) -> list[str]:
    """GraphRAG-Bench's evidence field: one sentence, or several joined by "; " after a sentence's end
    ("Ilia was from Troy.; Ilia was a descendant of Laomedon."). Stripped, empty ones dropped."""
    return [s.strip() for s in _EVIDENCE_SPLIT.split(evidence or "") if s.strip()]


def _graphrag(rec: Any, i: int) -> QAItem:
    """A GraphRAG-Bench question: its paraphrased evidence sentences are the gold sentences; its passage is
    the corpus record named by ``source`` (gold_keys stay empty until the corpus is read)."""
    _need(rec, i, *GRAPHRAG_FIELDS)
    for f in ("source", "question", "answer", "question_type", "evidence"):
        if not isinstance(rec[f], str) or not rec[f].strip():
            raise BadInput(f"record {i}: field {f!r} must be a non-empty string")
    return QAItem(id=str(rec["id"]), question=rec["question"], answers=[rec["answer"]], passages=[], gold_keys=[],
                  gold_sentences=split_evidence(rec["evidence"]), type=rec["question_type"],
                  corpus_record=rec["source"])


def load_questions(data: Any, fmt: QAFormat) -> tuple[list[QAItem], list[str]]:
    """Parse questions; returns (items, problems) where each problem names the record and why."""
    if not isinstance(data, list):
        raise BadInput(f"a {fmt} file must hold a JSON array")
    items: list[QAItem] = []
    problems: list[str] = []
    for i, rec in enumerate(data):
        try:
            if fmt == "musique":
                items.append(_musique(rec, i))
            elif fmt == "graphrag-bench":
                items.append(_graphrag(rec, i))
            elif fmt in ("hotpotqa", "2wiki"):
                items.append(_context(rec, i, "_id" if isinstance(rec, dict) and "_id" in rec else "id"))
            else:
                raise BadInput(f"{fmt} files hold no questions")
        except BadInput as e:
            problems.append(str(e))
        except (TypeError, ValueError) as e:
            problems.append(f"record {i}: {e}")
    return items, problems


def corpus_passages(data: Any, fmt: QAFormat) -> tuple[list[Passage], list[str]]:
    """The corpus of a set as the field builds it: the union of all passages, de-duplicated on title + text."""
    problems: list[str] = []
    found: Iterable[Passage]
    if fmt == "passages":
        found = []
        for i, rec in enumerate(data):
            if isinstance(rec, dict) and isinstance(rec.get("text"), str):
                found.append(Passage(title=str(rec.get("title", "")), text=rec["text"]))
            else:
                problems.append(f"record {i}: needs a string 'text'")
    elif fmt == "graphrag-bench":
        found, problems = [], ["a GraphRAG-Bench question file holds no passages: its corpus is the file beside it "
                               "(novel.parquet for novel_questions.json)"]
    else:
        items, problems = load_questions(data, fmt)
        found = [p for it in items for p in it.passages]
    unique: dict[str, Passage] = {}
    for p in found:
        if p.text.strip():
            unique.setdefault(p.key, p)
    return list(unique.values()), problems


def graphrag_corpus_path(questions: Path) -> Path:
    """The corpus of a GraphRAG-Bench question file, beside it: ``novel_questions.json`` -> ``novel.parquet``
    (or ``novel.json``)."""
    stem = questions.stem.removesuffix("_questions")
    for ext in (".parquet", ".json"):
        cand = questions.with_name(stem + ext)
        if cand.exists():
            return cand
    raise BadInput(f"{questions}: no corpus beside it (looked for {stem}.parquet and {stem}.json)")


def graphrag_corpus(path: Path) -> list[Passage]:
    """The corpus records of GraphRAG-Bench (``corpus_name`` and ``context``), from parquet or JSON (one
    object or an array). A record without both as non-empty strings is BadInput naming its index."""
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            rows: Any = pq.read_table(path).to_pylist()
        else:
            rows = json.loads(path.read_text(encoding="utf-8"))
    except Exception as e:  # noqa: BLE001 - pyarrow, OS, decoding and JSON errors alike
        raise BadInput(f"{path}: cannot read the corpus: {e}") from e
    rows = [rows] if isinstance(rows, dict) else rows
    if not isinstance(rows, list):
        raise BadInput(f"{path}: expected corpus records (objects with corpus_name and context)")
    out = []
    for i, rec in enumerate(rows):
        if not (isinstance(rec, dict) and all(isinstance(rec.get(f), str) and rec[f].strip()
                                              for f in ("corpus_name", "context"))):
            raise BadInput(f"{path}: record {i}: needs non-empty strings corpus_name and context")
        out.append(Passage(title=rec["corpus_name"], text=rec["context"]))
    return out
