"""Reranking: a strategy's best candidates read again, each together with the question, by the cross-encoder
(kmrag.nlp.rerank), and the two orders fused.

A multi-hop question's second-hop unit rarely answers the question as asked ("Who is the mother of the
director of X?" — the unit about the director's mother never names X), so each candidate is scored against
every question retrieval asked (``Retrieved.queries``: the question, its sub-questions, the question
rewritten with a resolved sub-answer) and keeps its best score. The cross-encoder's order is fused with the
strategy's (weighted reciprocal rank) rather than replacing it: the strategy's order carries what the
cross-encoder cannot see (titles followed, graph paths, the unit of each compared entity).
"""

from __future__ import annotations

import time
from typing import Any

from kmrag.retrieval.strategies import Retrieved, Retriever, rrf
from kmrag.units.store import PgUnitStore

# chosen on the tune halves of the three dev sets (multihop's top 40 and the cross-encoder's scores of its top 25
# against up to 4 questions cached, every setting replayed; recall@5 of the tune halves, then the cheaper): 12
# candidates, equal weight, up to 4 questions (2Wiki / HotpotQA / MuSiQue tune recall@5 98.8 / 90.5 / 67.6 against
# 98.8 / 89.5 / 67.6 with 2 questions and 97.6 / 88.9 / 65.6 not reranked); passages cut at 128 tokens lost
# HotpotQA recall (88.9), so the cross-encoder reads 256
DEPTH = 12  # candidates read again
MAX_QUERIES = 4  # the question, then the rewritten, sub- and bridged questions retrieval asked
WEIGHT = 1.0  # the cross-encoder's order against the strategy's (1.0)


def unit_text(title: str, content: str) -> str:
    """What the cross-encoder reads of a unit: its title (a passage about X speaks of X as "he"), then its text."""
    title = " ".join(title.split())
    return content if not title or content.startswith(title) else f"{title}. {content}"


class RerankedRetriever:
    """Any strategy, its top ``depth`` candidates reranked; the rest keep their order behind them. Units the
    strategy pinned (``Retrieved.pinned``: a comparison's evidence for each side) stay at the head, in its order."""

    def __init__(self, inner: Retriever, units: PgUnitStore, reranker: Any = None, depth: int = DEPTH,
                 weight: float = WEIGHT, max_queries: int = MAX_QUERIES) -> None:
        self.inner, self.units = inner, units
        self._reranker = reranker
        self.depth, self.weight, self.max_queries = depth, weight, max_queries
        self.name = f"{inner.name}-rerank"

    @property
    def reranker(self) -> Any:
        if self._reranker is None:
            from kmrag.nlp.rerank import get_cross_encoder

            self._reranker = get_cross_encoder()
        return self._reranker

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        got = self.inner.retrieve(tenant, question, max(k, self.depth))
        if len(got.unit_ids) < 2:
            return got
        t = time.perf_counter()
        window = list(dict.fromkeys(got.unit_ids[: self.depth]))
        units = {u.id: u for u in self.units.get_units(tenant, window)}
        # pinned units stay first, leaving two places of the caller's k to the others, as the strategy's own k would
        pinned = set(got.pinned)
        held = [u for u in window if u in pinned and u in units][: max(0, k - 2)]
        cands = [u for u in window if u not in held and u in units]
        if len(cands) < 2:
            return got.model_copy(update={"unit_ids": got.unit_ids[:k], "scores": got.scores[:k]})
        queries = list(dict.fromkeys([question, *got.queries]))[: self.max_queries]
        texts = [unit_text(units[c].title, units[c].content) for c in cands]
        scores = self.reranker.score_pairs([(q, x) for q in queries for x in texts]).reshape(len(queries), len(cands))
        best = scores.max(axis=0)
        by_ce = [c for _, c in sorted(zip(-best, cands, strict=True))]
        fused = rrf([cands, by_ce], weights=[1.0, self.weight])
        ce = dict(zip(cands, best.tolist(), strict=True))
        top = max([s for _, s in fused], default=0.0)
        head = [(u, top + (len(held) - i) / 1000) for i, u in enumerate(held)] + [(u, s) for u, s in fused]
        tail = [(u, s) for u, s in dict(zip(got.unit_ids, got.scores, strict=False)).items() if u not in ce and u not in held]
        out = (head + [(u, 0.0) for u, _ in tail])[:k]
        step = {"step": "rerank", "model": getattr(self.reranker, "name", "cross-encoder"), "candidates": len(cands),
                "queries": len(queries), "weight": self.weight, "held": len(held),
                "best": [{"unit_id": u, "score": round(ce[u], 3)} for u in by_ce[:3]],
                "ms": round((time.perf_counter() - t) * 1000, 2)}
        return got.model_copy(update={"unit_ids": [u for u, _ in out], "scores": [s for _, s in out],
                                      "pinned": held, "trace": [*got.trace, step]})
