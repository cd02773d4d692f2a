"""A tenant records the embedder of its vectors; another embedder is refused on query and on ingest, and
`kmrag reembed` switches the tenant in place: in batches, resumable, readable throughout, idempotent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.errors import EmbedderMismatch
from kmrag.ingestion.embed_worker import titled_text
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.reembed import reembed
from kmrag.nlp.embed import MINILM_NAME, get_embedder
from kmrag.retrieval.strategies import DenseRetriever
from kmrag.stores import Stores
from tests.fixtures.docs import write_corpus
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

BGE = "bge-small-en-v1.5-onnx-int8"


class Stop(Exception):
    pass


@pytest.fixture
def stores(neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores("embedded", neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def ingest(stores: Stores, tenant: str, embedder: Any, extractor: Any, root: Path) -> Any:
    return IngestionJob(stores, embedder, extractor, tenant, progress=False).run([write_corpus(root)])


def dense(stores: Stores, embedder: Any, tenant: str) -> list[str]:
    return DenseRetriever(stores.units, embedder, exact=True).retrieve(tenant, "Who designed the Eiffel Tower?",
                                                                       3).unit_ids


def units_state(stores: Stores, tenant: str) -> list[tuple[str, str, str, bool]]:
    with stores.pool.connection() as conn:
        return conn.execute("SELECT id, title, content, retired_at IS NULL FROM kmrag_units WHERE tenant = %s "
                            "ORDER BY id", (tenant,)).fetchall()


def cosines_to(stores: Stores, tenant: str, embedder: Any) -> list[float]:
    """Cosine of every stored unit vector with the embedder's vector of the unit's text now."""
    rows = units_state(stores, tenant)
    vecs = embedder.embed([titled_text(r[1], r[2]) for r in rows])
    with stores.pool.connection() as conn:
        return [float(conn.execute("SELECT 1 - (embedding <=> %s) FROM kmrag_units WHERE tenant = %s AND id = %s",
                                   (v, tenant, r[0])).fetchone()[0]) for r, v in zip(rows, vecs, strict=True)]


def test_another_embedder_is_refused_on_query_and_on_ingest(stores: Stores, tenant: str, extractor: Any,
                                                            tmp_path: Path) -> None:
    minilm, bge = get_embedder(stores.settings), get_embedder(stores.settings, "bge-small")
    ingest(stores, tenant, minilm, extractor, tmp_path / "c")
    rec = stores.units.tenant_embedder(tenant)
    assert rec is not None and rec.recorded and (rec.embedder, rec.dim) == (MINILM_NAME, 384)
    assert dense(stores, minilm, tenant)
    for attempt in (lambda: dense(stores, bge, tenant), lambda: ingest(stores, tenant, bge, extractor, tmp_path / "d")):
        with pytest.raises(EmbedderMismatch) as e:
            attempt()
        assert all(s in str(e.value) for s in (repr(tenant), MINILM_NAME, BGE, f"kmrag reembed --tenant {tenant}"))
    # a tenant made before records were kept is MiniLM's
    with stores.pool.connection() as conn:
        conn.execute("DELETE FROM kmrag_tenant_embedders WHERE tenant = %s", (tenant,))
    rec = stores.units.tenant_embedder(tenant)
    assert rec is not None and not rec.recorded and rec.embedder == MINILM_NAME
    assert dense(stores, minilm, tenant)
    with pytest.raises(EmbedderMismatch):
        dense(stores, bge, tenant)


def test_a_new_tenant_takes_the_embedder_of_its_first_ingest(stores: Stores, tenant: str, extractor: Any,
                                                             tmp_path: Path) -> None:
    minilm, bge = get_embedder(stores.settings), get_embedder(stores.settings, "bge-small")
    assert stores.units.tenant_embedder(tenant) is None
    assert dense(stores, bge, tenant) == []  # nothing stored: nothing to refuse
    ingest(stores, tenant, bge, extractor, tmp_path / "c")
    assert stores.units.tenant_embedder(tenant).embedder == BGE  # type: ignore[union-attr]
    assert dense(stores, bge, tenant)
    with pytest.raises(EmbedderMismatch):
        dense(stores, minilm, tenant)


def test_reembed_switches_in_place_resumably_and_stays_readable(stores: Stores, tenant: str, extractor: Any,
                                                                tmp_path: Path) -> None:
    minilm, bge = get_embedder(stores.settings), get_embedder(stores.settings, "bge-small")
    ingest(stores, tenant, minilm, extractor, tmp_path / "c")
    before, names = units_state(stores, tenant), stores.units.entity_names(tenant)
    answer = dense(stores, minilm, tenant)
    assert len(before) > 6 and names
    seen: list[list[str]] = []

    def read_then_stop(batch: int) -> None:  # between batches: the old vectors still answer, the new ones wait
        seen.append(dense(stores, minilm, tenant))
        with pytest.raises(EmbedderMismatch):
            dense(stores, bge, tenant)
        if batch == 2:
            raise Stop

    with pytest.raises(Stop):
        reembed(stores, tenant, bge, batch=3, after_batch=read_then_stop)
    assert seen == [answer, answer]
    assert stores.units.reembed_counts(tenant)["units"]["done"] == 6
    assert stores.units.tenant_embedder(tenant).reembed_to == BGE  # type: ignore[union-attr]
    assert min(cosines_to(stores, tenant, minilm)) > 0.999  # the live vectors are untouched

    report = reembed(stores, tenant, bge, batch=3, after_batch=lambda b: seen.append(dense(stores, minilm, tenant)))
    assert report.switched and report.embedder_from == MINILM_NAME and report.embedder_to == BGE
    assert report.kept["units"] == 6 and report.embedded["units"] == len(before) - 6  # resumed, not restarted
    assert report.total == {"units": len(before), "names": len(names)} and report.embedded["names"] == len(names)
    assert all(s == answer for s in seen)  # readable throughout, with the old vectors until the switch
    assert units_state(stores, tenant) == before and stores.units.entity_names(tenant) == names  # none lost or added
    # every unit now holds bge's vector of its text (int8 activations are quantised per batch: not bit-equal)
    assert min(cosines_to(stores, tenant, bge)) > 0.98 and max(cosines_to(stores, tenant, minilm)) < 0.5
    assert stores.units.reembed_counts(tenant)["units"]["done"] == 0  # the side vectors are gone
    rec = stores.units.tenant_embedder(tenant)
    assert rec is not None and rec.embedder == BGE and rec.reembed_to is None
    assert dense(stores, bge, tenant)
    with pytest.raises(EmbedderMismatch):
        dense(stores, minilm, tenant)
    name = next(iter(names.values()))  # entity names were re-embedded too: a name finds itself
    assert stores.units.nearest_entity_names(tenant, bge.embed([name]), k=1)[0][0][1] > 0.98

    again = reembed(stores, tenant, bge)
    assert again.already and not again.switched and units_state(stores, tenant) == before
    # and back: a stopped run to another embedder leaves nothing behind for a run to a third
    with pytest.raises(Stop):
        reembed(stores, tenant, minilm, batch=2, after_batch=lambda b: (_ for _ in ()).throw(Stop()))
    assert stores.units.reembed_counts(tenant)["units"]["done"] == 2
    assert reembed(stores, tenant, bge).already  # the run back to MiniLM is dropped, the tenant stays bge's
    assert stores.units.reembed_counts(tenant)["units"]["done"] == 0
    back = reembed(stores, tenant, minilm)
    assert back.switched and back.kept["units"] == 0 and min(cosines_to(stores, tenant, minilm)) > 0.98
