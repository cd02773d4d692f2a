"""Shared fixtures. Server-backed tests use the real services named by KMRAG_NEO4J_URI and
KMRAG_DATABASE_URL (scripts/test.sh starts them with services/up.sh); each test gets its own
tenant and cleans it up."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# fixtures defined in tests/fixtures modules, available to every test
pytest_plugins = ["tests.fixtures.local_llm", "tests.fixtures.fault_services"]

# Answers are shown whatever their confidence in the tests of answering, retrieval and the faces: the calibrated
# confidence (kmrag/answer/calibration.json, fitted on the dev sets) is under-confident on the tiny corpora these
# tests build, and what the tests check there is the plumbing. The threshold itself is tested where a test sets
# KMRAG_MIN_CONFIDENCE (tests/e2e/test_api.py, tests/e2e/test_web.py, tests/integration/test_confidence_threshold.py).
os.environ.setdefault("KMRAG_MIN_CONFIDENCE", "0")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def _need(var: str) -> str:
    value = os.environ.get(var)
    if not value:
        pytest.fail(f"{var} is not set: start the real services with `eval \"$(services/up.sh)\"` "
                    "(scripts/test.sh does this)", pytrace=False)
    return value


@pytest.fixture
def tenant() -> str:
    return "t_" + uuid.uuid4().hex[:12]


@pytest.fixture(scope="session")
def neo4j_driver() -> Iterator[Any]:
    from kmrag.graph.neo4j_store import connect

    driver = connect(_need("KMRAG_NEO4J_URI"), os.environ.get("KMRAG_NEO4J_USER", "neo4j"),
                     os.environ.get("KMRAG_NEO4J_PASSWORD"))
    from kmrag.graph.neo4j_store import Neo4jGraphStore

    Neo4jGraphStore(driver).init_schema()
    yield driver
    driver.close()


@pytest.fixture(scope="session")
def pg_pool() -> Iterator[Any]:
    from kmrag.units.store import PgUnitStore, open_pool

    pool = open_pool(_need("KMRAG_DATABASE_URL"))
    PgUnitStore(pool, 384).init_schema()
    yield pool
    pool.close()


@pytest.fixture
def unit_store(pg_pool: Any, tenant: str) -> Iterator[Any]:
    from kmrag.units.store import PgUnitStore

    store = PgUnitStore(pg_pool, 384)
    yield store
    store.clear_tenant(tenant)


KINDS = ("unit", "contract", "integration", "e2e")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test carries one of the kinds the test command selects: an unmarked test would never run in CI."""
    unmarked = [i.nodeid for i in items if not any(i.get_closest_marker(k) for k in KINDS)]
    if unmarked:
        raise pytest.UsageError(f"tests without a unit/contract/integration/e2e marker (CI would skip them): "
                                f"{', '.join(unmarked[:5])}{' …' if len(unmarked) > 5 else ''}")


@pytest.fixture(scope="session")
def extractor() -> Any:
    """The spaCy extractor, loaded once for the session (it holds no per-test state)."""
    from kmrag.nlp.extract import SpacyExtractor

    return SpacyExtractor()
