"""Asking: a question in, the ranked units that answer it out, with how they were found.

One function the CLI (and later the HTTP API) calls; generated answers with citations slot into
AskResult when the answer side exists.
"""

from __future__ import annotations

import time
from typing import Any

from pydantic import BaseModel, Field

from kmrag.graph.base import GraphStore
from kmrag.nlp.embed import Embedder
from kmrag.retrieval.strategies import MAX_QUESTION_CHARS, build_strategy, check_question
from kmrag.units.store import PgUnitStore

SNIPPET_CHARS = 240


class RankedUnit(BaseModel):
    rank: int
    id: str
    type: str
    source_id: str
    source_version: str
    title: str
    score: float
    snippet: str


class AskResult(BaseModel):
    question: str
    tenant: str
    strategy: str
    units: list[RankedUnit] = Field(default_factory=list)
    rounds: int = 1
    paths: list[dict[str, Any]] = Field(default_factory=list)
    trace: list[dict[str, Any]] = Field(default_factory=list)
    ms: float = 0.0


def ask(units: PgUnitStore, graph: GraphStore, embedder: Embedder, tenant: str, question: str,
        strategy: str = "multihop", k: int = 5, max_chars: int = MAX_QUESTION_CHARS,
        path_weight: float = 0.0) -> AskResult:
    q = check_question(question, max_chars)
    t = time.perf_counter()
    got = build_strategy(strategy, units, embedder, graph=graph, path_weight=path_weight).retrieve(tenant, q, k)
    stored = {u.id: u for u in units.get_units(tenant, got.unit_ids, include_retired=False)}
    ranked = []
    for i, (uid, score) in enumerate(zip(got.unit_ids, got.scores, strict=True), start=1):
        u = stored.get(uid)
        if u is None:
            continue
        text = " ".join(u.content.split())
        ranked.append(RankedUnit(rank=i, id=uid, type=u.type, source_id=u.source_id,
                                 source_version=u.source_version, title=u.title,
                                 score=round(score, 6),
                                 snippet=text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"))
    return AskResult(question=q, tenant=tenant, strategy=strategy, units=ranked, rounds=got.rounds,
                     paths=got.paths, trace=got.trace, ms=round((time.perf_counter() - t) * 1000, 1))
