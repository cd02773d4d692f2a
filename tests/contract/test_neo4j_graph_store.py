from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kmrag.graph.neo4j_store import Neo4jGraphStore
from tests.contract.graph_store_contract import GraphStoreContract

pytestmark = pytest.mark.contract


class TestNeo4jGraphStore(GraphStoreContract):
    @pytest.fixture
    def store(self, neo4j_driver: Any, tenant: str) -> Iterator[Neo4jGraphStore]:
        s = Neo4jGraphStore(neo4j_driver)
        yield s
        s.clear_tenant(tenant)

    @pytest.fixture
    def reopen(self, neo4j_driver: Any) -> Callable[[], Neo4jGraphStore]:
        return lambda: Neo4jGraphStore(neo4j_driver)
