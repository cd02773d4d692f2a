from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kmrag.graph.local_store import LocalGraphStore
from tests.contract.graph_store_contract import GraphStoreContract

pytestmark = pytest.mark.contract


class TestLocalGraphStore(GraphStoreContract):
    @pytest.fixture
    def store(self, tmp_path: Path, tenant: str) -> Iterator[LocalGraphStore]:
        s = LocalGraphStore(tmp_path / "graph")
        yield s
        s.clear_tenant(tenant)

    @pytest.fixture
    def reopen(self, tmp_path: Path) -> Callable[[], LocalGraphStore]:
        return lambda: LocalGraphStore(tmp_path / "graph")
