"""A CSV file ingested as users do, into real PostgreSQL and both graph backends: one table unit of its rows, a
row that does not fit reported by its line with the rest stored, a second run changing nothing, an edited row
replacing the table, and a question answered from a row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.sources import SourceOptions
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.stores import Stores

pytestmark = pytest.mark.integration

FLEET = """boat_name,type,builder,year_bought,named_after,status
Kestrel,1x,Filippi,2016,the river's kestrels,In service
Dorothy Lane,2x,Empacher,2009,"Dorothy Lane, first women's captain",In service
Ferry Lane,4+,Aylings,1993,the boathouse's street,Training,spare
Osprey,8+,Stampfli,2021,,Retired
"""


def _run(s: Stores, extractor: SpacyExtractor, tenant: str, folder: Path) -> Any:
    return IngestionJob(s, get_embedder(s.settings), extractor, tenant, SourceOptions(), progress=False).run([folder])


def _tables(s: Stores, tenant: str) -> list[Any]:
    units = s.units.get_units(tenant, sorted(s.units.unit_ids(tenant)), include_retired=False)
    return [u for u in units if u.type == "table"]


def test_a_csv_becomes_one_table_unit_its_bad_row_reported_and_a_rerun_changes_nothing(
        stores: Stores, tenant: str, tmp_path: Path, extractor: SpacyExtractor) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "fleet.csv").write_text(FLEET, encoding="utf-8")
    first = _run(stores, extractor, tenant, folder)
    assert [e.path.rsplit(":", 1)[-1] for e in first.job.errors] == ["line 4"], first.job.errors
    assert "more than the header's 6" in first.job.errors[0].reason
    tables = _tables(stores, tenant)
    assert len(tables) == 1 and tables[0].title == "fleet"
    assert "| Dorothy Lane | 2x | Empacher | 2009 | Dorothy Lane, first women's captain | In service |" in tables[0].content
    assert "Ferry Lane" not in tables[0].content and "| Osprey | 8+ | Stampfli | 2021 | | Retired |" in tables[0].content  # spaces as stored
    again = _run(stores, extractor, tenant, folder)
    assert again.job.counts.get("documents_unchanged") == 1 and [u.id for u in _tables(stores, tenant)] == [tables[0].id]
    (folder / "fleet.csv").write_text(FLEET.replace("Training,spare", "Training"), encoding="utf-8")  # fixed
    fixed = _run(stores, extractor, tenant, folder)
    assert not fixed.job.errors
    now = _tables(stores, tenant)
    assert len(now) == 1 and now[0].id != tables[0].id and "| Ferry Lane | 4+ | Aylings | 1993 |" in now[0].content


def test_a_question_is_answered_from_a_csv_row(stores: Stores, tenant: str, tmp_path: Path,
                                               extractor: SpacyExtractor) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "fleet.csv").write_text(FLEET.replace("Training,spare", "Training"), encoding="utf-8")
    assert not _run(stores, extractor, tenant, folder).job.errors
    answerer = Answerer(stores.units, stores.graph, get_embedder(stores.settings), stores.settings,
                        generator="extractive", save=False)
    got = answerer.answer(tenant, "Which builder made the Dorothy Lane?")
    assert got.found and got.direct == "Empacher", (got.direct, got.text)
    assert [c.unit_id for c in got.citations] == [_tables(stores, tenant)[0].id]
