"""The ``multihop`` strategy: an explicit, capped loop over the graph.

    analyse -> retrieve -> judge -> (refine -> retrieve)* -> done

- **analyse**: the question's entity mentions, linked to graph entities (exact / alias / fuzzy).
- **retrieve** (round 1): hybrid retrieval on the question, plus the units about each question entity
  (the units titled by its name: for a passage corpus, the entity's own passage) — a comparison
  question needs each compared entity's unit, not a hop between them.
- **judge**: the round is sufficient when the best units mention no entity we have not followed yet
  that has units of its own (no bridge left), or when the round cap is reached.
- **refine**: follow the bridge entities found in the best units so far to the units about them
  (iterative retrieval), and run a dense query on "question + bridge names"; an identical query is
  never run twice.
- **done**: every round's ranking is fused (weighted RRF); the first round's is always kept, so the
  original question is never lost and useful units accumulate across rounds.

Every step is recorded in the trace. General rules only: no dataset-specific branch.
"""

from __future__ import annotations

import time
from typing import Any

from kmrag.graph.base import GraphStore
from kmrag.nlp.embed import Embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.names import coarse_type, resolution_key
from kmrag.retrieval.graph_retriever import EntityLinker
from kmrag.retrieval.strategies import DenseRetriever, HybridRetriever, Retrieved, check_question, rrf
from kmrag.units.store import PgUnitStore

SKIP_BRIDGE_TYPES = {"DATE"}  # coarse types never followed as bridges


class MultiHopRetriever:
    name = "multihop"

    def __init__(self, units: PgUnitStore, embedder: Embedder, graph: GraphStore,
                 extractor: SpacyExtractor | None = None, exact: bool = False, max_rounds: int = 3,
                 depth: int = 50, bridge_from: int = 3, max_bridges: int = 6,
                 weights: tuple[float, float, float, float] = (1.0, 1.0, 0.9, 0.5), decay: float = 0.6) -> None:
        self.units = units
        self.graph = graph
        self.hybrid = HybridRetriever(units, embedder, depth=depth, exact=exact)
        self.dense = DenseRetriever(units, embedder, exact=exact)
        self.linker = EntityLinker(graph, extractor or SpacyExtractor())
        self.max_rounds = max(1, max_rounds)
        self.depth = depth
        self.bridge_from = bridge_from
        self.max_bridges = max_bridges
        # weights of: first-round hybrid, question-entity units, bridge units, refined dense query
        self.w_first, self.w_about, self.w_bridge, self.w_refined = weights
        self.decay = decay

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        q = check_question(question)
        t0 = time.perf_counter()
        trace: list[dict[str, Any]] = []

        # analyse
        seeds, link_trace = self.linker.link(tenant, q)
        mentions = [x["mention"] for x in link_trace if "mention" in x]
        names = [e.name for e in self.graph.get_entities(tenant, seeds)] + mentions
        trace.append({"step": "analyse", "mentions": mentions, "linked": [x for x in link_trace if "id" in x]})

        # retrieve: round 1
        depth = max(self.depth, k)
        first = self.hybrid.retrieve(tenant, q, depth)
        about = self._about(tenant, names)
        rankings, weights = [first.unit_ids, about], [self.w_first, self.w_about]
        trace.append({"step": "retrieve", "round": 1, "query": q, "hybrid": len(first.unit_ids),
                      "question_entity_units": len(about)})
        followed = set(seeds) | {resolution_key(n) for n in names}
        queries = {q}
        rounds = 1
        while True:
            fused = [u for u, _ in rrf(rankings, weights=weights)]
            if rounds >= self.max_rounds:
                trace.append({"step": "judge", "round": rounds, "decision": "stop: round cap reached"})
                break
            bridges = self._bridges(tenant, fused[: self.bridge_from], followed)
            if not bridges:
                trace.append({"step": "judge", "round": rounds, "decision": "sufficient: no bridge entity left"})
                break
            trace.append({"step": "judge", "round": rounds, "decision": "refine: follow bridge entities",
                          "bridges": [name for _, name, _ in bridges]})
            # refine and retrieve
            rounds += 1
            bridge_units = [u for _, _, uids in bridges for u in uids]
            decay = self.decay ** (rounds - 2)  # a later hop is further from the question
            rankings.append(bridge_units)
            weights.append(self.w_bridge * decay)
            followed |= {eid for eid, _, _ in bridges} | {resolution_key(n) for _, n, _ in bridges}
            refined = f"{q} {' '.join(name for _, name, _ in bridges[:3])}"
            if refined not in queries:
                queries.add(refined)
                second = self.dense.retrieve(tenant, refined, depth)
                rankings.append(second.unit_ids)
                weights.append(self.w_refined * decay)
            trace.append({"step": "retrieve", "round": rounds, "query": refined, "bridge_units": len(bridge_units)})
        top = rrf(rankings, weights=weights)[:k]
        trace.append({"step": "done", "rounds": rounds, "ms": round((time.perf_counter() - t0) * 1000, 2)})
        return Retrieved(unit_ids=[u for u, _ in top], scores=[s for _, s in top], rounds=rounds, trace=trace)

    def _about(self, tenant: str, names: list[str]) -> list[str]:
        """Units titled by the question's entities, in the order the entities were named."""
        if not names:
            return []
        titled = self.units.titled(tenant, [v for n in names for v in _title_forms(n)])
        out: list[str] = []
        for n in names:
            for v in _title_forms(n):
                out += [u for u, _ in titled.get(v, []) if u not in out]
        return out

    def _bridges(self, tenant: str, top: list[str], followed: set[str]) -> list[tuple[str, str, list[str]]]:
        """(entity id, name, units about it) for entities the best units mention that were not followed
        yet and have units of their own in another source (a bridge leaves the document it was found
        in), in the order of the units that mention them."""
        by_unit = self.graph.unit_entities(tenant, top)
        source_of = {u.id: u.source_id for u in self.units.get_units(tenant, top)}
        order: list[str] = []
        found_in: dict[str, set[str]] = {}
        for uid in top:
            for eid in by_unit.get(uid, []):
                if eid in followed:
                    continue
                if eid not in found_in:
                    order.append(eid)
                found_in.setdefault(eid, set()).add(source_of.get(uid, ""))
        if not order:
            return []
        entities = {e.id: e for e in self.graph.get_entities(tenant, order)}
        cands = [entities[e] for e in order if e in entities
                 and coarse_type(entities[e].type) not in SKIP_BRIDGE_TYPES
                 and resolution_key(entities[e].name) not in followed]
        titled = self.units.titled(tenant, [v for e in cands for v in _title_forms(e.name)])
        out = []
        seen_units = set(top)
        for e in cands:
            uids = [u for v in _title_forms(e.name) for u, sid in titled.get(v, [])
                    if u not in seen_units and sid not in found_in[e.id]]
            uids = list(dict.fromkeys(uids))
            if uids:
                out.append((e.id, e.name, uids))
                seen_units |= set(uids)
            if len(out) >= self.max_bridges:
                break
        return out


def _title_forms(name: str) -> list[str]:
    """The titles a unit about ``name`` may carry: the name, and the name with a leading article
    (mentions are cleaned of theirs: "Silent Harbour" is the passage "The Silent Harbour")."""
    n = " ".join(name.split()).lower()
    if not n:
        return []
    return [n] + [f"{a} {n}" for a in ("the", "a", "an") if not n.startswith(f"{a} ")]
