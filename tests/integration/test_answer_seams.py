"""The audit of an answer whose units were purged (`kmrag delete --purge`): what was quoted stays readable
in the answer, the citation says the unit is gone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.audit import audit
from kmrag.answer.render import audit_text
from kmrag.stores import Stores
from tests.integration.test_answers import SEED, answerer, corpus, ingest
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration


@pytest.fixture(params=["neo4j", "embedded"])
def stores(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores(request.param, neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def test_the_audit_of_an_answer_whose_units_were_purged(stores: Stores, tenant: str, extractor: Any,
                                                        tmp_path: Path) -> None:
    ingest(stores, tenant, extractor, corpus(tmp_path))
    ans = answerer(stores).answer(tenant, SEED)
    table = ans.citations[1]
    stores.units.delete_source(tenant, table.source_id)  # `kmrag delete --purge`: PostgreSQL, then the graph
    stores.graph.delete_source(tenant, table.source_id)
    stores.graph.flush()
    report = audit(stores.units, stores.graph, tenant, ans.id)
    by_id = {c.unit_id: c for c in report.citations}
    gone = by_id[table.unit_id]
    assert gone.status == "missing" and not gone.found and gone.quote == table.quote  # what was quoted stays
    assert by_id[ans.citations[0].unit_id].status == "current" and not report.all_current
    assert report.graph_cites == [ans.citations[0].unit_id]
    text = audit_text(report)
    assert "MISSING (purged)" in text and table.quote in text


def test_a_long_lived_process_still_sees_other_writers_after_answering(neo4j_driver: Any, pg_pool: Any,
                                                                       tenant: str, extractor: Any,
                                                                       tmp_path: Path) -> None:
    """The embedded graph keeps a tenant's view while it holds unflushed changes: an answer's link must not
    freeze the view of a process that goes on answering (a server, a notebook)."""
    from kmrag.graph.local_store import LocalGraphStore
    from kmrag.schema import Source

    s = make_stores("embedded", neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    try:
        ingest(s, tenant, extractor, corpus(tmp_path))
        answerer(s).answer(tenant, SEED)
        other = LocalGraphStore(tmp_path / "graph")  # another process writing the same tenant
        other.write_sources([Source(id="later.md", tenant=tenant, uri="later.md", version="v", content_hash="h")])
        other.close()
        assert "later.md" in s.graph.source_ids(tenant)
    finally:
        s.graph.clear_tenant(tenant)
        s.units.clear_tenant(tenant)
