"""A source's new version replaces the old one at one instant for readers (issue 11, load): while a
changed source is re-ingested batch by batch, every read of current units sees its old version whole,
never units of both versions; after its last batch, the new version whole. On the real PostgreSQL
and Neo4j."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.config import load_settings
from kmrag.errors import StoreError
from kmrag.eval.load import mixed_versions
from kmrag.graph.neo4j_store import Neo4jGraphStore
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.schema import KnowledgeUnit, Source
from kmrag.schema.ids import unit_id
from kmrag.stores import Stores
from kmrag.units.store import PgUnitStore

pytestmark = pytest.mark.integration


@pytest.fixture
def stores(neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    settings = load_settings(config_file=tmp_path / "none.toml", environ={}, tenant=tenant)
    s = Stores(settings=settings, graph=Neo4jGraphStore(neo4j_driver), units=PgUnitStore(pg_pool, 384),
               pool=pg_pool, database_url="")
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def doc(path: Path, verb: str) -> None:
    path.write_text("# Rivers\n\n" + "\n\n".join(f"Paragraph {i}: the river Alder{i} {verb} the town of Brem{i}."
                                                 for i in range(12)) + "\n")


def run(stores: Stores, tenant: str, path: Path, **hooks: Any) -> Any:
    job = IngestionJob(stores, get_embedder(stores.settings), SpacyExtractor(), tenant, progress=False,
                       batch_units=4)
    for name, fn in hooks.items():
        setattr(job, name, fn)
    return job.run([path])


def test_a_source_changed_over_several_batches_is_read_at_one_version(stores: Stores, tenant: str,
                                                                        tmp_path: Path) -> None:
    path = tmp_path / "rivers.md"
    doc(path, "flows past")
    run(stores, tenant, path)
    (sid, old), = stores.units.source_versions(tenant).items()
    doc(path, "runs beside")
    seen: list[set[str]] = []

    def read(batch_no: int) -> None:  # between batches: units of both versions are in the table
        every = sorted(stores.units.unit_ids(tenant, include_retired=True))
        current = stores.units.get_units(tenant, every, include_retired=False)
        assert mixed_versions(current) == {}
        seen.append({u.source_version for u in current})
        if batch_no == 1:  # the check is not vacuous: new-version units are stored already
            stored = stores.units.get_units(tenant, every, include_retired=True)
            assert {u.source_version for u in stored if not u.retired} == {old, stores_new_version(path)}

    res = run(stores, tenant, path, after_batch=read)
    new = stores.units.source_versions(tenant)[sid]
    assert res.job.status == "completed" and new != old and len(seen) >= 3
    assert seen[:-1] == [{old}] * (len(seen) - 1) and seen[-1] == {new}  # old whole, then new whole
    final = stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)), include_retired=False)
    assert {u.source_version for u in final} == {new} and len(final) == 13


def stores_new_version(path: Path) -> str:
    from kmrag.schema.ids import content_hash

    return content_hash(path.read_text())


def units_of(tenant: str, version: str, texts: list[str]) -> list[KnowledgeUnit]:
    return [KnowledgeUnit(id=unit_id(tenant, "s.md", t), tenant=tenant, source_id="s.md", source_version=version,
                          type="paragraph", ordinal=i, content=t) for i, t in enumerate(texts)]


def test_a_transaction_is_seen_whole_or_not_at_all(stores: Stores, tenant: str) -> None:
    units = stores.units
    v1, v2 = units_of(tenant, "v1", ["one", "two"]), units_of(tenant, "v2", ["one!", "two!"])
    units.write_units(v1)
    units.write_sources([Source(id="s.md", tenant=tenant, uri="file:///s.md", version="v1", content_hash="v1")])
    ids = [u.id for u in v1 + v2]

    def other_reader() -> set[str]:  # another thread: another pooled connection
        box: list[set[str]] = []
        t = threading.Thread(target=lambda: box.append(
            {u.source_version for u in units.get_units(tenant, ids, include_retired=False)}))
        t.start()
        t.join()
        return box[0]

    with units.transaction():
        units.write_units(v2)
        units.retire(tenant, [u.id for u in v1])
        assert other_reader() == {"v1"}  # nothing of it shows before it commits
        units.write_sources([Source(id="s.md", tenant=tenant, uri="file:///s.md", version="v2",
                                    content_hash="v2")])
        assert {u.source_version for u in units.get_units(tenant, ids, include_retired=False)} == {"v2"}
        assert other_reader() == {"v1"}
    assert other_reader() == {"v2"}

    with pytest.raises(StoreError), units.transaction():  # a failed statement rolls all of it back
        units.retire(tenant, [u.id for u in v2])
        units.write_sources([Source(id="s.md", tenant=tenant, uri="file:///s.md", version="v3",
                                    content_hash="v3")])
        units.write_units(units_of(tenant, "v3", ["a NUL \x00 byte"]))  # text PostgreSQL cannot store
    assert other_reader() == {"v2"} and units.source_versions(tenant) == {"s.md": "v2"}
