"""Personalised PageRank over the candidates' entity-unit graph ranks the unit that shares entities
with the seeds above one reached by a single weak signal; hubs join nothing; the result is deterministic."""

from __future__ import annotations

import pytest

from kmrag.retrieval.ppr import MAX_ENTITY_UNITS, personalised_pagerank

pytestmark = pytest.mark.unit


def test_a_unit_linked_to_the_seed_entity_rises() -> None:
    mentions = {"u_film": ["e_film", "e_director"], "u_director": ["e_director", "e_city"],
                "u_noise": ["e_other"]}
    units = {"u_film": 1.0, "u_noise": 0.1, "u_director": 0.1}  # equal retrieval scores
    scores = personalised_pagerank(mentions, units, {"e_film": 1.0})
    assert scores["u_director"] > scores["u_noise"]
    assert scores == personalised_pagerank(mentions, units, {"e_film": 1.0})


def test_hub_entities_join_nothing_unless_seeded() -> None:
    hub_units = {f"u_{i:03d}": ["e_hub"] for i in range(MAX_ENTITY_UNITS + 1)}
    mentions = {**hub_units, "u_answer": ["e_hub"], "u_seed": ["e_seed", "e_hub"]}
    scores = personalised_pagerank(mentions, {"u_seed": 1.0}, {})
    assert scores["u_answer"] == 0.0  # the hub does not spread the seed's mass to every unit
    seeded = personalised_pagerank(mentions, {"u_seed": 1.0}, {"e_hub": 1.0})
    assert seeded["u_answer"] > 0.0


def test_no_edges_falls_back_to_the_retrieval_scores() -> None:
    assert personalised_pagerank({"u_a": [], "u_b": []}, {"u_a": 0.5}, {}) == {"u_a": 0.5, "u_b": 0.0}


def test_a_unit_naming_no_entity_is_ranked_by_what_it_was_seeded_with() -> None:
    """A table of fares names no entity. Left out of the graph it fell behind every unit of both fused rankings,
    however high it came in its own. Given with no entities, it holds its seed's share of the mass: above the
    weak units, below nothing it outscored."""
    mentions = {"u_table": [], "u_prose": ["e_city", "e_line"], "u_other": ["e_line"], "u_weak": ["e_misc"]}
    seeds = {"u_table": 1.0, "u_prose": 0.6, "u_other": 0.2, "u_weak": 0.1}
    scores = personalised_pagerank(mentions, seeds, {})
    assert set(scores) == set(mentions)
    assert scores["u_table"] > scores["u_other"] and scores["u_table"] > scores["u_weak"]
