"""The ``graph`` strategy: link the question's entities into the knowledge graph, follow relation
hops (1..k, in either direction) from them, collect the units behind every traversed relation, and
fuse that ranking with hybrid retrieval (weighted reciprocal-rank fusion).

Units reached by a path that joins two question entities, or by a short path, score higher.
Measured (kmrag eval, 2026-11-30): with graphs from the small spaCy model it helps on 2Wiki and
hurts on MuSiQue and HotpotQA, hence the low default weight; units that merely mention a linked
entity were tried as a third ranking and hurt everywhere.
"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from rapidfuzz import fuzz

from kmrag.graph.base import GraphStore
from kmrag.nlp.embed import Embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.names import resolution_key
from kmrag.retrieval.analysis import question_mentions
from kmrag.retrieval.analysis_zh import link_keys
from kmrag.retrieval.strategies import HybridRetriever, Retrieved, check_question, rrf
from kmrag.units.entity_names import EntityNames

FUZZY_LINK = 90  # rapidfuzz ratio of the name keys
EMBED_LINK = 0.9  # cosine of the name embeddings
NEAR_FLOOR = 0.0  # the nearest names are all checked for spelling; meaning needs EMBED_LINK
NEAREST = 5


class EntityLinker:
    """Question mentions -> graph entity IDs, each link scored: exact name or alias (1.0) first; then,
    for mentions left, the nearest names in the embedded vocabulary of entity names (pgvector), taken
    when the spelling is close (rapidfuzz ratio >= FUZZY_LINK: "fuzzy") or the meaning is
    (cosine >= EMBED_LINK: "embedding"). Every name found is looked up in the graph again, so links
    reflect the current graph; nothing is cached in the process."""

    def __init__(self, graph: GraphStore, extractor: SpacyExtractor, names: EntityNames | None = None,
                 embedder: Embedder | None = None) -> None:
        self.graph = graph
        self.extractor = extractor
        self.names = names
        self.embedder = embedder

    def mentions(self, question: str) -> list[str]:
        # one parse for entities and noun chunks; no triples needed
        return question_mentions(self.extractor, self.extractor.nlp(question), thorough=False)

    def link(self, tenant: str, question: str,
             mentions: list[str] | None = None) -> tuple[list[str], list[dict[str, Any]]]:
        """(linked entity ids, trace); ``mentions`` when the question was already analysed."""
        mentions = self.mentions(question) if mentions is None else mentions
        linked: dict[str, dict[str, Any]] = {}
        for e in self.graph.find_entities(tenant, link_keys(mentions)):  # a Chinese phrase: also its parts
            linked[e.id] = {"entity": e.name, "method": "exact", "score": 1.0}
        exact_keys = {resolution_key(v["entity"]) for v in linked.values()}
        for e in self.graph.get_entities(tenant, list(linked)):
            exact_keys |= {resolution_key(a) for a in e.aliases}
        rest = [m for m in mentions if len(resolution_key(m)) >= 4 and resolution_key(m) not in exact_keys]
        if rest and self.names is not None and self.embedder is not None:
            self.names.check_embedder(tenant, self.embedder)
            link_cosine = getattr(self.embedder, "link_cosine", EMBED_LINK)  # e5's cosines tell no names apart
            near = self.names.nearest_entity_names(tenant, self.embedder.embed(rest), k=NEAREST,
                                                   min_score=min(EMBED_LINK, NEAR_FLOOR))
            chosen: dict[str, tuple[str, float]] = {}  # by name key: the graph may spell it otherwise
            spelled: dict[str, str] = {}
            for m, cands in zip(rest, near, strict=True):
                key = resolution_key(m)
                for name, cos in cands:
                    ratio = fuzz.ratio(key, resolution_key(name))
                    if ratio >= FUZZY_LINK:
                        chosen.setdefault(resolution_key(name), ("fuzzy", round(ratio / 100, 3)))
                    elif link_cosine is not None and cos >= link_cosine:
                        chosen.setdefault(resolution_key(name), ("embedding", round(cos, 3)))
                    else:
                        continue
                    spelled.setdefault(resolution_key(name), name)
            if chosen:
                for e in self.graph.find_entities(tenant, sorted(spelled.values())):
                    for form in (e.name, *e.aliases):
                        if resolution_key(form) in chosen and e.id not in linked:
                            method, score = chosen[resolution_key(form)]
                            linked[e.id] = {"entity": e.name, "method": method, "score": score}
        return list(linked), [{"mention": m} for m in mentions] + [{"id": k, **v} for k, v in linked.items()]


class GraphRetriever:
    name = "graph"

    def __init__(self, hybrid: HybridRetriever, graph: GraphStore, extractor: SpacyExtractor | None = None,
                 max_hops: int = 2, path_limit: int = 300, weight: float = 0.25) -> None:
        self.hybrid = hybrid
        self.graph = graph
        dense = hybrid.dense
        self.linker = EntityLinker(graph, extractor or SpacyExtractor(), names=dense.units, embedder=dense.embedder)
        self.max_hops = max_hops
        self.path_limit = path_limit
        self.weight = weight

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        q = check_question(question, None)
        t = time.perf_counter()
        base = self.hybrid.retrieve(tenant, q, max(k, 50))
        seeds, link_trace = self.linker.link(tenant, q)
        trace: list[dict[str, Any]] = [*base.trace, {"step": "link", "linked": link_trace}]
        path_score: dict[str, float] = defaultdict(float)
        if seeds:
            seed_set = set(seeds)
            paths = self.graph.relation_paths(tenant, seeds, max_hops=self.max_hops, limit=self.path_limit)
            for p in paths:
                bonus = 2.0 if p.end_id in seed_set and p.end_id != p.start_id else 1.0
                for uid in p.unit_ids:
                    path_score[uid] += bonus / len(p.hops)
            trace.append({"step": "hops", "seeds": len(seeds), "paths": len(paths), "units": len(path_score)})
        graph_ranking = [u for u, _ in sorted(path_score.items(), key=lambda kv: (-kv[1], kv[0]))][:100]
        fused = rrf([base.unit_ids, graph_ranking], weights=[1.0, self.weight])[:k]
        trace.append({"step": "fuse", "graph_weight": self.weight, "ms": round((time.perf_counter() - t) * 1000, 2)})
        return Retrieved(unit_ids=[u for u, _ in fused], scores=[s for _, s in fused], trace=trace,
                         entities=list(seeds))
