"""Retrieval strategies as named, comparable pipelines: each turns a question into ranked unit IDs.

- ``bm25`` (alias ``fulltext``): PostgreSQL full text only, ranked by Okapi BM25 over the English
  tsvectors (stemmed lexemes, stop words dropped, any query term may match).
- ``dense``: the ingestion embedder on the question, cosine top-k in pgvector.
- ``hybrid``: reciprocal-rank fusion of the two.
- ``graph``: hybrid fused with knowledge-graph evidence (kmrag.retrieval.graph_retriever).
- ``multihop``: a capped analyse / retrieve / judge / refine loop that follows bridge entities
  (kmrag.retrieval.multihop).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from kmrag.errors import BadInput, ConfigError
from kmrag.nlp.embed import Embedder
from kmrag.nlp.typed import as_sentences
from kmrag.units.store import PgUnitStore, ScoredUnit

MAX_QUESTION_CHARS = 2000
RRF_K = 60


class Retrieved(BaseModel):
    unit_ids: list[str]
    scores: list[float]
    rounds: int = 1
    trace: list[dict[str, Any]] = Field(default_factory=list)
    paths: list[dict[str, Any]] = Field(default_factory=list)  # relation paths used: {"hops": [{subject, predicate, object, unit_ids}]}
    # the questions the units were found for: the question first, then the sub-questions it was split into
    # and the questions rewritten with a resolved sub-answer ("the mother of <the director found>"), and the
    # question with the bridge entities followed ("... <the director named in the film's unit>")
    queries: list[str] = Field(default_factory=list)
    # the graph entities the question was linked to (strategies that link; empty for the others)
    entities: list[str] = Field(default_factory=list)
    # units the strategy holds at the head of its order whatever a reranker reads (a comparison's evidence for
    # each side: one question about two things reads as more relevant to one side's units than to the other's)
    pinned: list[str] = Field(default_factory=list)


class Retriever(Protocol):
    name: str

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved: ...


def check_question(question: Any, max_chars: int | None = MAX_QUESTION_CHARS) -> str:
    """A question must be non-empty text of sensible length; the message says what is wrong.

    ``max_chars``: the limit (the ``max_question_chars`` setting, KMRAG_MAX_QUESTION_CHARS, at the entry
    points: ``ask`` and ``Answerer.answer``); None: no limit (a retriever behind an entry point that checked)."""
    if not isinstance(question, str):
        raise BadInput(f"the question must be text, got {type(question).__name__}")
    q = " ".join(as_sentences(question.replace("\x00", " ")).split())  # a NUL is no part of a question (nor
    # storable); lines sent one after another are sentences
    if not q:
        raise BadInput("the question is empty")
    if max_chars is not None and len(q) > max_chars:
        raise BadInput(f"the question is {len(q):,} characters long; the limit is {max_chars:,} characters "
                       "(setting max_question_chars, KMRAG_MAX_QUESTION_CHARS): shorten the question or raise it")
    if not any(c.isalnum() for c in q):
        raise BadInput("the question has no letters or digits")
    return q


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K,
        weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """(Weighted) reciprocal-rank fusion; ties broken by ID so the order is reproducible."""
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights or [1.0] * len(rankings), strict=True):
        for rank, uid in enumerate(ranking, start=1):
            scores[uid] = scores.get(uid, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def _result(hits: Sequence[ScoredUnit], step: str, started: float) -> Retrieved:
    return Retrieved(unit_ids=[h.id for h in hits], scores=[h.score for h in hits],
                     trace=[{"step": step, "hits": len(hits), "ms": round((time.perf_counter() - started) * 1000, 2)}])


class FullTextRetriever:
    name = "bm25"

    def __init__(self, units: PgUnitStore) -> None:
        self.units = units

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        t = time.perf_counter()
        return _result(self.units.fulltext_search(tenant, check_question(question, None), k), "fulltext", t)


class DenseRetriever:
    name = "dense"

    def __init__(self, units: PgUnitStore, embedder: Embedder, exact: bool = False) -> None:
        self.units, self.embedder, self.exact = units, embedder, exact

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        t = time.perf_counter()
        question = check_question(question, None)
        self.units.check_embedder(tenant, self.embedder)
        vec = self.embedder.embed_query([question])[0]
        return _result(self.units.dense_search(tenant, vec, k, exact=self.exact), "dense", t)


class HybridRetriever:
    name = "hybrid"

    def __init__(self, units: PgUnitStore, embedder: Embedder, depth: int = 50, exact: bool = False) -> None:
        self.lexical = FullTextRetriever(units)
        self.dense = DenseRetriever(units, embedder, exact=exact)
        self.depth = depth

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        t = time.perf_counter()
        depth = max(self.depth, k)
        lex = self.lexical.retrieve(tenant, question, depth)
        den = self.dense.retrieve(tenant, question, depth)
        fused = rrf([lex.unit_ids, den.unit_ids])[:k]
        return Retrieved(unit_ids=[u for u, _ in fused], scores=[s for _, s in fused],
                         trace=[*lex.trace, *den.trace,
                                {"step": "rrf", "k": RRF_K, "ms": round((time.perf_counter() - t) * 1000, 2)}])


STRATEGIES: dict[str, Callable[..., Retriever]] = {
    "bm25": lambda units, embedder, exact, graph: FullTextRetriever(units),
    "fulltext": lambda units, embedder, exact, graph: FullTextRetriever(units),
    "dense": lambda units, embedder, exact, graph: DenseRetriever(units, embedder, exact=exact),
    "hybrid": lambda units, embedder, exact, graph: HybridRetriever(units, embedder, exact=exact),
    "graph": lambda units, embedder, exact, graph: _graph(units, embedder, exact, graph),
    "multihop": lambda units, embedder, exact, graph: _multihop(units, embedder, exact, graph),
}


def _multihop(units: PgUnitStore, embedder: Embedder, exact: bool, graph: Any, path_weight: float = 0.0) -> Retriever:
    from kmrag.retrieval.multihop import MultiHopRetriever

    if graph is None:
        raise ConfigError("the multihop strategy needs a graph store")
    return MultiHopRetriever(units, embedder, graph, exact=exact, w_paths=path_weight)


def _graph(units: PgUnitStore, embedder: Embedder, exact: bool, graph: Any) -> Retriever:
    from kmrag.retrieval.graph_retriever import GraphRetriever

    if graph is None:
        raise ConfigError("the graph strategy needs a graph store")
    return GraphRetriever(HybridRetriever(units, embedder, exact=exact), graph)


RERANKED = "-rerank"  # a strategy's name with this suffix: its candidates reranked by the cross-encoder


def known_strategy(name: str) -> bool:
    return name in STRATEGIES or (name.endswith(RERANKED) and name[: -len(RERANKED)] in STRATEGIES)


def build_strategy(name: str, units: PgUnitStore, embedder: Embedder, exact: bool = False,
                   graph: Any = None, rerank: str = "none", path_weight: float = 0.0) -> Retriever:
    """The strategy ``name``; reranked by the cross-encoder when the name ends in ``-rerank`` or ``rerank``
    is "cross-encoder" (the ``rerank`` setting). ``path_weight``: multihop's weight of relation-path units (the
    ``path_weight`` setting)."""
    base = name[: -len(RERANKED)] if name.endswith(RERANKED) else name
    try:
        factory = STRATEGIES[base]
    except KeyError:
        choices = ", ".join([*STRATEGIES, *(f"{s}{RERANKED}" for s in STRATEGIES if s != "fulltext")])
        raise ConfigError(f"unknown strategy {name!r}: choose from {choices}") from None
    if rerank not in ("none", "cross-encoder"):
        raise ConfigError(f"unknown reranker {rerank!r}: use 'cross-encoder' or 'none' (setting rerank, KMRAG_RERANK)")
    r = _multihop(units, embedder, exact, graph, path_weight) if base == "multihop" else factory(units, embedder, exact, graph)
    r.name = base
    if name != base or rerank == "cross-encoder":
        from kmrag.retrieval.rerank import RerankedRetriever

        r = RerankedRetriever(r, units)
        r.name = f"{base}{RERANKED}"
    return r
