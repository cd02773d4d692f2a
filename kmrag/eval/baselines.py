"""Rankings that should score badly, run beside the strategies so a measure that cannot tell them apart
is caught: ``random`` (units drawn at random from the question's own corpus record, the same novel) and
``other-question`` (what ``dense`` finds for another question about the same record). Only for sets whose
questions name their record (GraphRAG-Bench)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from kmrag.errors import ConfigError
from kmrag.ingestion.qa_corpora import QAItem
from kmrag.retrieval.strategies import Retrieved

BASELINES = ("random", "other-question")


def _seed(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


class RandomUnits:
    """k units of the question's record, drawn with a seed from the question id (the same every run)."""

    name = "random"

    def __init__(self, units: Any, record_sources: Mapping[str, str]) -> None:
        self.units, self.record_sources = units, record_sources
        self._ids: dict[str, list[str]] = {}

    def retrieve_item(self, tenant: str, item: QAItem, k: int) -> Retrieved:
        sid = self.record_sources.get(item.corpus_record or "")
        if sid is None:
            return Retrieved(unit_ids=[], scores=[], rounds=0)
        if sid not in self._ids:
            self._ids[sid] = sorted(self.units.unit_ids(tenant, sid))
        pool = self._ids[sid]
        picked = random.Random(_seed(item.id)).sample(pool, min(k, len(pool)))
        return Retrieved(unit_ids=picked, scores=[0.0] * len(picked), rounds=0)


class OtherQuestion:
    """The ranking ``base`` gives the next question (in file order, wrapping) about the same record."""

    name = "other-question"

    def __init__(self, base: Any, questions: Sequence[QAItem]) -> None:
        self.base = base
        by_record: dict[str, list[QAItem]] = {}
        for q in questions:
            by_record.setdefault(q.corpus_record or "", []).append(q)
        self.other = {q.id: group[(i + 1) % len(group)] for group in by_record.values() for i, q in enumerate(group)}

    def retrieve_item(self, tenant: str, item: QAItem, k: int) -> Retrieved:
        other = self.other[item.id]
        if other.id == item.id:  # the record's only question: nothing else to borrow
            return Retrieved(unit_ids=[], scores=[], rounds=0)
        return self.base.retrieve(tenant, other.question, k)


def build_baseline(name: str, stores: Any, embedder: Any, questions: Sequence[QAItem],
                   record_sources: Mapping[str, str]) -> RandomUnits | OtherQuestion:
    from kmrag.retrieval.strategies import build_strategy

    if not record_sources:
        raise ConfigError(f"the {name!r} baseline needs a set whose questions name their corpus record "
                          "(GraphRAG-Bench: --dataset novel)")
    if name == "random":
        return RandomUnits(stores.units, record_sources)
    return OtherQuestion(build_strategy("dense", stores.units, embedder, exact=True), questions)
