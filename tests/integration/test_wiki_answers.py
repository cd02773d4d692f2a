"""A software wiki's questions end to end on the real stores (tests/data/wiki): what a component does, read from
the list item glossing it though the component is named in a dozen other units; a table's row named by its cells
("How long is raw data kept by default before it is deleted?": the Default of the option so described), though
dense search finds no table; and a component the wiki does not describe is not found."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.stores import Stores
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

WIKI = Path(__file__).resolve().parents[1] / "data" / "wiki"


@pytest.fixture(scope="module")
def wiki(neo4j_driver: Any, pg_pool: Any, tmp_path_factory: pytest.TempPathFactory,
         extractor: SpacyExtractor) -> Iterator[tuple[Answerer, str]]:
    tenant = "t_wiki_" + uuid.uuid4().hex[:8]
    stores: Stores = make_stores("neo4j", neo4j_driver, pg_pool, tenant, tmp_path_factory.mktemp("graph"))
    stores.graph.clear_tenant(tenant)
    stores.units.clear_tenant(tenant)
    job = IngestionJob(stores, get_embedder(stores.settings), extractor, tenant, progress=False).run(
        sorted(p for p in WIKI.iterdir() if p.suffix in {".md", ".txt"} and p.name != "README.md"))
    assert job.job.status == "completed", job.job.errors
    yield Answerer(stores.units, stores.graph, get_embedder(stores.settings), stores.settings,
                   generator="extractive", save=False), tenant
    stores.graph.clear_tenant(tenant)
    stores.units.clear_tenant(tenant)


def test_what_a_component_does_is_read_from_the_item_glossing_it(wiki: tuple[Answerer, str]) -> None:
    answerer, tenant = wiki
    ans = answerer.answer(tenant, "What does Millstone actually do?")
    assert ans.found and ans.direct is not None and ans.direct.startswith("Merges small segment files")
    assert ans.basis is not None and ans.basis["kind"] == "described" and ans.basis["how"] == "glossed"
    assert [c.quote for c in ans.citations][0].startswith("- **Millstone** (compactor)")
    assert answerer.answer(tenant, "What is the Ledger used for?").direct == \
        "Appends every accepted batch to local disk before the write is acknowledged, so a crash never loses " \
        "acknowledged data"


def test_a_row_named_by_its_cells_is_read_from_a_table_dense_search_misses(wiki: tuple[Answerer, str]) -> None:
    answerer, tenant = wiki
    ans = answerer.answer(tenant, "How long does Tallyhouse keep raw data by default before it gets deleted?")
    assert ans.found and ans.direct == "30d", (ans.direct, ans.confidence_why)
    assert ans.citations[0].kind == "row" and "scythe.retention" in ans.citations[0].quote
    assert answerer.answer(tenant, "When was the very first public release of Tallyhouse?").direct == "2021-06-08"


def test_a_component_the_wiki_does_not_describe_is_not_found(wiki: tuple[Answerer, str]) -> None:
    answerer, tenant = wiki
    ans = answerer.answer(tenant, "What does the Gravel component do?")
    assert not ans.found and ans.direct is None
