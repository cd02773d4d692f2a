"""The embedded default: no server URLs, kmrag starts its own PostgreSQL and uses the local graph."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kmrag.config import load_settings
from kmrag.schema import KnowledgeUnit, Source, unit_id
from kmrag.stores import open_stores

pytestmark = pytest.mark.integration


def test_embedded_stores_work_end_to_end(tmp_path: Path, tenant: str) -> None:
    from kmrag.units.embedded_pg import stop_embedded

    settings = load_settings(config_file=tmp_path / "none.toml", environ={}, data_dir=str(tmp_path / "data"),
                             tenant=tenant)
    try:
        with open_stores(settings) as stores:
            assert stores.graph.backend == "embedded"
            assert "host=" in stores.database_url  # a local socket, not TCP
            stores.init_schema()
            u = KnowledgeUnit(id=unit_id(tenant, "s", "hello world"), tenant=tenant, source_id="s",
                              source_version="v", type="paragraph", ordinal=0, content="hello world")
            stores.units.write_source(Source(id="s", tenant=tenant, uri="s", version="v", content_hash="h"))
            stores.units.write_units([u], [np.ones(384, dtype=np.float32)])
            stores.graph.write_units([u])
            assert stores.units.fulltext_search(tenant, "hello", 3)[0].id == u.id
        with open_stores(settings) as again:  # persisted and reused
            assert again.graph.unit_ids(tenant) == {u.id}
            assert again.units.unit_ids(tenant) == {u.id}
    finally:
        stop_embedded(settings.data_dir)
