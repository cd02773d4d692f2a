"""The multihop strategy follows a bridge entity from the first round's units to the unit about it,
on both graph backends, with every controller step in the trace."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.ingestion.pipeline import IngestionJob
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.strategies import build_strategy
from kmrag.stores import Stores
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

PASSAGES = [
    ("The Silent Harbour", "The Silent Harbour is a 1961 drama film directed by Edmund Varga. It was shot in Gdansk."),
    ("Edmund Varga", "Edmund Varga was a Hungarian film director. He was born in Szeged and died in Vienna in 1990."),
    ("Szeged", "Szeged is the third largest city of Hungary, on the river Tisza."),
    ("Night Train to Lisbon", "Night Train to Lisbon is a 2013 film directed by Bille August."),
    ("Bille August", "Bille August is a Danish director. He was born in Brede."),
    ("Gdansk", "Gdansk is a port city on the Baltic coast of Poland."),
    ("Vienna", "Vienna is the capital of Austria, on the river Danube."),
    ("Harbour cinema", "Harbour films were a genre of silent drama popular in port towns."),
    ("Mercury (planet)", "Mercury is the smallest planet of the Solar System."),
    ("Mercury_100% (band)", "A band whose name has the characters LIKE treats as wildcards."),
]


@pytest.fixture(params=["neo4j", "embedded"])
def stores(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores(request.param, neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    f = tmp_path / "passages.jsonl"
    f.write_text("".join(json.dumps({"title": t, "text": x}) + "\n" for t, x in PASSAGES))
    job = IngestionJob(s, get_embedder(s.settings), SpacyExtractor(), tenant, progress=False).run([f])
    assert job.job.status == "completed"
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def titles(stores: Stores, tenant: str, ids: list[str]) -> list[str]:
    return [u.title for u in stores.units.get_units(tenant, ids)]


def test_multihop_follows_the_bridge_entity(stores: Stores, tenant: str) -> None:
    question = "Where was the director of The Silent Harbour born?"
    emb = get_embedder(stores.settings)
    mh = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph)
    got = mh.retrieve(tenant, question, k=3)
    assert titles(stores, tenant, got.unit_ids[:2]) == ["The Silent Harbour", "Edmund Varga"]
    assert got.rounds >= 2
    steps = [(s["step"], s.get("decision", "")) for s in got.trace]
    assert steps[0][0] == "analyse" and steps[-1][0] == "done"
    judged = [s for s in got.trace if s["step"] == "judge"]
    assert judged[0]["decision"].startswith("refine") and "Edmund Varga" in judged[0]["bridges"]
    assert judged[-1]["decision"].startswith(("sufficient", "stop"))
    again = mh.retrieve(tenant, question, k=3)
    assert again.unit_ids == got.unit_ids and again.scores == got.scores  # reproducible


def test_multihop_keeps_the_first_round_and_caps_rounds(stores: Stores, tenant: str) -> None:
    from kmrag.retrieval.multihop import MultiHopRetriever

    emb = get_embedder(stores.settings)
    one = MultiHopRetriever(stores.units, emb, stores.graph, exact=True, max_rounds=1)
    got = one.retrieve(tenant, "Which city lies on the river Tisza?", k=3)
    assert got.rounds == 1 and titles(stores, tenant, got.unit_ids[:1]) == ["Szeged"]
    assert got.trace[-2]["decision"] == "stop: round cap reached"
    dense = build_strategy("dense", stores.units, emb, exact=True, graph=stores.graph)
    first = dense.retrieve(tenant, "Which city lies on the river Tisza?", k=3)
    assert first.unit_ids[0] == got.unit_ids[0]


def test_units_about_a_name_include_titles_with_a_qualifier(stores: Stores, tenant: str) -> None:
    got = stores.units.titled(tenant, ["Mercury", "Edmund Varga", "Mercury_100%", "Merc%"])
    assert [titles(stores, tenant, [u for u, _ in got[k]]) for k in ("mercury", "edmund varga", "mercury_100%")] == \
        [["Mercury (planet)"], ["Edmund Varga"], ["Mercury_100% (band)"]]
    assert "merc%" not in got  # LIKE wildcards in a name are literal characters
