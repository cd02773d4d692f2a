"""A contact asked through who deals with what the question says, over real stores: the page saying who deals
with capsizes is retrieved, the directory naming that role's number is looked up by the role when retrieval did
not bring it (kmrag.answer.answerer's contact hop), and both are cited."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.config import load_settings
from kmrag.graph.local_store import LocalGraphStore
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.sources import SourceOptions
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.stores import Stores
from kmrag.units.store import PgUnitStore

pytestmark = pytest.mark.integration

SAFETY = """# Water safety

Every capsize, collision, injury or near miss must be reported to the **Safety Adviser** within 24 hours, using
the incident form in the boathouse. Flags: green means all crews may boat; red means no boating.
"""
OFFICERS = """# Officers

- Rachel Adeyemi — Chair (chair@riverside.example, 07700 900112)
- Priya Nair — Secretary (secretary@riverside.example, 07700 900207)
- Colin Drury — Safety Adviser (safety@riverside.example, 07700 900418)
- Amir Khan — Junior Co-ordinator (juniors@riverside.example, 07700 900451)
"""


@pytest.fixture
def stores(pg_pool: Any, tenant: str, tmp_path: Path, extractor: SpacyExtractor) -> Iterator[Stores]:
    settings = load_settings(config_file=tmp_path / "none.toml", environ={}, tenant=tenant)
    s = Stores(settings=settings, graph=LocalGraphStore(tmp_path / "graph"), units=PgUnitStore(pg_pool, 384),
               pool=pg_pool, database_url="")
    docs = tmp_path / "club"
    docs.mkdir()
    (docs / "safety.md").write_text(SAFETY, encoding="utf-8")
    (docs / "officers.md").write_text(OFFICERS, encoding="utf-8")
    for i in range(16):  # pages enough that retrieval need not bring the directory for a question on capsizes
        (docs / f"news-{i}.md").write_text(f"# News {i}\n\nThe regatta raised £{100 + i} for the boat fund in week {i}. "
                                            f"Crews reported good water on the river this week.\n", encoding="utf-8")
    job = IngestionJob(s, get_embedder(settings), extractor, tenant, SourceOptions(), progress=False).run([docs])
    assert not job.job.errors
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def test_the_number_to_ring_is_the_role_s_whom_the_page_names(stores: Stores, tenant: str) -> None:
    answerer = Answerer(stores.units, stores.graph, get_embedder(stores.settings), stores.settings,
                        generator="extractive", save=False)
    got = answerer.answer(tenant, "What number do I ring to report a capsize?")
    from kmrag.answer.render import trace_text
    assert got.found and got.direct == "07700 900418", trace_text(got.trace)
    quotes = [c.quote for c in got.citations]
    assert any("Safety Adviser" in q and "capsize" in q for q in quotes)
    assert any(q.startswith("Colin Drury — Safety Adviser") for q in quotes), quotes
    assert got.basis and [h["answer"] for h in got.basis["hops"]] == ["Safety Adviser", "07700 900418"]
    hop = [s for s in got.trace if s["step"] == "contact_hop"]  # retrieval did not bring the directory: looked up
    assert hop and hop[0]["looked_up"][0] == "Safety Adviser", trace_text(got.trace)
