"""The question entity linker: exact names and aliases from the graph, each link scored; nothing
cached in the process, so entities written after the linker was built are linked at once."""

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
    linker = EntityLinker(store, SpacyExtractor())

    def add(name: str, aliases: list[str] | None = None) -> str:
        eid = entity_id("t", name, "PERSON")
        store.write_entities([Entity(id=eid, tenant="t", name=name, type="PERSON", aliases=aliases or [])])
        return eid

    marie = add("Marie Sklodowska")
    ids, trace = linker.link("t", "Where was Marie Sklodowska born?")
    assert ids == [marie] and {"id": marie, "entity": "Marie Sklodowska", "method": "exact", "score": 1.0} in trace
    pierre = add("Pierre Curie", aliases=["P. Curie"])
    assert linker.link("t", "Where was Pierre Curie born?")[0] == [pierre]
    # without the embedded vocabulary (kmrag.units.entity_names) a misspelling links to nothing
    assert linker.link("t", "Where was Pierre Curei born?")[0] == []
