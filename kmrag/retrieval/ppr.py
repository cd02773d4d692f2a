"""Graph-aware ranking: personalised PageRank over the entity–unit graph of the candidates
(the idea of HippoRAG / HippoRAG 2, offline).

The subgraph is fetched with one bounded graph read (the entities each candidate unit mentions) and
ranked in-process with networkx + scipy. The walk restarts at the question's linked entities, the
bridge entities the controller resolved and the candidate units in proportion to their retrieval
score, so a unit that shares entities with many strong candidates and with the question's entities
rises, and a unit reached by a single weak signal sinks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

MAX_ENTITY_UNITS = 25  # an entity mentioned by more candidate units than this is a hub: it joins nothing


def personalised_pagerank(unit_entities: Mapping[str, Sequence[str]], unit_seed: Mapping[str, float],
                          entity_seed: Mapping[str, float], alpha: float = 0.5) -> dict[str, float]:
    """PageRank scores of the candidate units (only units are returned), restarting at the seeds.

    ``alpha`` is the probability of following an edge (1 - alpha restarts at a seed). Deterministic:
    nodes are added in sorted order and ties are left to the caller's (score, id) sort."""
    g = nx.Graph()
    units = sorted(unit_entities)
    g.add_nodes_from(("u", u) for u in units)
    by_entity: dict[str, list[str]] = {}
    for u in units:
        for e in unit_entities[u]:
            by_entity.setdefault(e, []).append(u)
    for e in sorted(by_entity):
        members = by_entity[e]
        if len(members) > MAX_ENTITY_UNITS and e not in entity_seed:
            continue
        for u in members:
            g.add_edge(("u", u), ("e", e))
    seeds: dict[tuple[str, str], float] = {}
    for u, w in unit_seed.items():
        if ("u", u) in g and w > 0:
            seeds[("u", u)] = seeds.get(("u", u), 0.0) + w
    for e, w in entity_seed.items():
        if ("e", e) in g and w > 0:
            seeds[("e", e)] = seeds.get(("e", e), 0.0) + w
    if not seeds or g.number_of_edges() == 0:
        return {u: float(unit_seed.get(u, 0.0)) for u in units}
    total = sum(seeds.values())
    personalization = {n: seeds.get(n, 0.0) / total for n in g.nodes}
    scores = nx.pagerank(g, alpha=alpha, personalization=personalization, max_iter=200, tol=1e-10)
    return {n[1]: float(s) for n, s in scores.items() if n[0] == "u"}
