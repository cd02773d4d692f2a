"""The embedded vocabulary of entity names follows the graph: a key keeps a spelling some entity still
carries, so a misspelt mention links to the entity that remains (no stale spelling left behind)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kmrag.graph.local_store import LocalGraphStore
from kmrag.ingestion.entity_names import sync_entity_names
from kmrag.nlp.embed import OnnxMiniLMEmbedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.graph_retriever import EntityLinker
from kmrag.schema import Entity, entity_id

pytestmark = pytest.mark.integration


def test_a_key_keeps_a_live_spelling(unit_store: Any, tenant: str, tmp_path: Path) -> None:
    graph = LocalGraphStore(tmp_path / "graph")
    stores = SimpleNamespace(graph=graph, units=unit_store)
    emb = OnnxMiniLMEmbedder()
    band = Entity(id=entity_id(tenant, "The Beatles", "ORG"), tenant=tenant, name="The Beatles", type="ORG")
    thing = Entity(id=entity_id(tenant, "Beatles", "THING"), tenant=tenant, name="Beatles", type="THING")
    graph.write_entities([band, thing])
    assert sync_entity_names(stores, emb, tenant)["entity_names_added"] == 1
    assert unit_store.entity_names(tenant) == {"beatles": "Beatles"}  # one spelling per key
    graph.clear_tenant(tenant)
    graph.write_entities([band])  # the entity whose spelling was stored is gone; the other stays
    assert sync_entity_names(stores, emb, tenant) == {"entity_names_added": 1, "entity_names_removed": 0}
    assert unit_store.entity_names(tenant) == {"beatles": "The Beatles"}
    linker = EntityLinker(graph, SpacyExtractor(), names=unit_store, embedder=emb)
    ids, trace = linker.link(tenant, "When did Beatlees break up?", mentions=["Beatlees"])
    assert ids == [band.id]
    graph.clear_tenant(tenant)
    assert sync_entity_names(stores, None, tenant)["entity_names_removed"] == 1
    assert unit_store.entity_names(tenant) == {}


def test_repair_recounts_drifted_bm25_statistics_and_fills_the_name_vocabulary(
        neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> None:
    from kmrag.ingestion.pipeline import IngestionJob
    from kmrag.ingestion.repair import repair
    from kmrag.nlp.embed import get_embedder
    from tests.fixtures.docs import write_corpus
    from tests.integration.test_ingestion_seams import make_stores

    stores = make_stores("embedded", neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    emb = get_embedder(stores.settings)
    try:
        IngestionJob(stores, emb, SpacyExtractor(), tenant, progress=False).run([write_corpus(tmp_path / "c")])
        names = stores.units.entity_names(tenant)
        assert names and repair(stores, tenant, emb, SpacyExtractor(), dry_run=True).bm25_rebuilt is False
        with pg_pool.connection() as conn:  # drift from outside kmrag, and a vocabulary lost
            conn.execute("UPDATE kmrag_bm25_totals SET n = n + 5 WHERE tenant = %s", (tenant,))
            conn.execute("DELETE FROM kmrag_entity_names WHERE tenant = %s", (tenant,))
        assert repair(stores, tenant, emb, SpacyExtractor(), dry_run=True).bm25_rebuilt is True
        report = repair(stores, tenant, emb, SpacyExtractor())
        assert report.bm25_rebuilt and report.rebuilt == [] and report.entity_names["entity_names_added"] == len(names)
        assert stores.units.bm25_stats(tenant) == stores.units.bm25_stats(tenant, recount=True)
        assert stores.units.entity_names(tenant) == names
        assert repair(stores, tenant, emb, SpacyExtractor(), dry_run=True).bm25_rebuilt is False
    finally:
        stores.graph.clear_tenant(tenant)
        stores.units.clear_tenant(tenant)
