"""Fixtures the integration tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.config import load_settings
from kmrag.graph.local_store import LocalGraphStore
from kmrag.graph.neo4j_store import Neo4jGraphStore
from kmrag.stores import Stores
from kmrag.units.store import PgUnitStore


@pytest.fixture(params=["neo4j", "embedded"])
def stores(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    settings = load_settings(config_file=tmp_path / "none.toml", environ={}, tenant=tenant)
    graph: Any = Neo4jGraphStore(neo4j_driver) if request.param == "neo4j" else LocalGraphStore(tmp_path / "graph")
    s = Stores(settings=settings, graph=graph, units=PgUnitStore(pg_pool, 384), pool=pg_pool, database_url="")
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)
