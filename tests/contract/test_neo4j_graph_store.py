import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.graph.local_store import LocalGraphStore
from kmrag.graph.neo4j_store import Neo4jGraphStore, connect
from tests.contract.graph_store_contract import GraphStoreContract, build_path_graph

pytestmark = pytest.mark.contract


class TestNeo4jGraphStore(GraphStoreContract):
    @pytest.fixture
    def store(self, neo4j_driver: Any, tenant: str) -> Iterator[Neo4jGraphStore]:
        s = Neo4jGraphStore(neo4j_driver)
        yield s
        s.clear_tenant(tenant)

    @pytest.fixture
    def reopen(self, neo4j_driver: Any) -> Iterator[Callable[[], Neo4jGraphStore]]:
        """A store over a new driver of its own, as another process would have; closed afterwards."""
        drivers: list[Any] = []

        def make() -> Neo4jGraphStore:
            driver = connect(os.environ["KMRAG_NEO4J_URI"], os.environ.get("KMRAG_NEO4J_USER", "neo4j"),
                             os.environ.get("KMRAG_NEO4J_PASSWORD"))
            drivers.append(driver)
            return Neo4jGraphStore(driver)

        yield make
        for driver in drivers:
            driver.close()

    def test_reopen_has_its_own_driver(self, store: Neo4jGraphStore, reopen: Any) -> None:
        again = reopen()
        assert again._driver is not store._driver

    def test_relation_paths_match_the_embedded_store(self, store: Neo4jGraphStore, tenant: str,
                                                     tmp_path: Path) -> None:
        local = LocalGraphStore(tmp_path / "graph")
        nodes = build_path_graph(store, tenant)
        assert build_path_graph(local, tenant) == nodes
        starts = [nodes[4].id, nodes[1].id]
        for hops, limit in [(1, 3), (2, 9), (3, 17), (4, 1000)]:
            got = store.relation_paths(tenant, starts, max_hops=hops, limit=limit)
            assert got == local.relation_paths(tenant, starts, max_hops=hops, limit=limit)
            assert got == store.relation_paths(tenant, starts, max_hops=hops, limit=limit)
            ends = [nodes[0].id, nodes[5].id]
            between = store.connecting_paths(tenant, starts, ends, max_hops=hops, limit=limit, fanout=2)
            assert between == local.connecting_paths(tenant, starts, ends, max_hops=hops, limit=limit, fanout=2)
