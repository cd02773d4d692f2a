"""The question entity linker sees entities ingested after it was created (no cache for life)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kmrag.graph.local_store import LocalGraphStore
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.graph_retriever import EntityLinker
from kmrag.schema import Entity, entity_id

pytestmark = pytest.mark.unit


def test_linker_sees_entities_added_after_it_was_built(tmp_path: Path) -> None:
    store = LocalGraphStore(tmp_path / "graph")
    now = [0.0]
    linker = EntityLinker(store, SpacyExtractor(), max_age_s=10.0, clock=lambda: now[0])

    def add(name: str) -> str:
        eid = entity_id("t", name, "PERSON")
        store.write_entities([Entity(id=eid, tenant="t", name=name, type="PERSON")])
        return eid

    marie = add("Marie Sklodowska")
    assert linker.link("t", "Where was Marie Sklodowska born?")[0] == [marie]
    pierre = add("Pierre Curie")
    # exact names always come from the graph itself
    assert linker.link("t", "Where was Pierre Curie born?")[0] == [pierre]
    # the fuzzy index catches up once it is older than max_age_s
    assert linker.link("t", "Where was Pierre Curei born?")[0] == []
    now[0] = 11.0
    assert linker.link("t", "Where was Pierre Curei born?")[0] == [pierre]
