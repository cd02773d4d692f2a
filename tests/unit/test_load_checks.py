"""The checks a load run makes on what it saw: a result mixing two versions of a source, and
connection counts that moved (a leak). Fed synthetic results, so the detectors are shown to fire."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from kmrag.config import load_settings
from kmrag.errors import ConfigError
from kmrag.eval.connections import leaks
from kmrag.eval.load import mixed_versions, questions_from_files

pytestmark = pytest.mark.unit


def unit(source: str, version: str) -> SimpleNamespace:
    return SimpleNamespace(source_id=source, source_version=version)


def test_a_result_citing_one_source_at_two_versions_is_a_mix() -> None:
    mixed = [unit("a.md", "v1"), unit("b.md", "w1"), unit("a.md", "v2"), unit("a.md", "v1")]
    assert mixed_versions(mixed) == {"a.md": ["v1", "v2"]}


def test_sources_each_at_one_version_are_no_mix() -> None:
    assert mixed_versions([unit("a.md", "v2"), unit("b.md", "w1"), unit("a.md", "v2")]) == {}
    assert mixed_versions([]) == {}


COUNTS = {"pool_size": 4, "pool_available": 4, "requests_waiting": 0, "pg_backends_this_process": 5,
          "pg_sockets": 5, "bolt_sockets": 16, "bolt_pool_open": 16, "bolt_in_use": 0}


def test_equal_counts_are_no_leak() -> None:
    assert leaks(COUNTS, dict(COUNTS)) == []
    # the driver's pool grew to more threads at once, all its connections idle: not a leak
    assert leaks(COUNTS, {**COUNTS, "bolt_sockets": 18, "bolt_pool_open": 18}) == []


def test_a_connection_opened_and_kept_or_still_checked_out_is_a_leak() -> None:
    assert leaks(COUNTS, {**COUNTS, "bolt_sockets": 17}) == ["17 Bolt sockets open, 16 in the driver's pool"]
    assert leaks(COUNTS, {**COUNTS, "bolt_in_use": 2}) == ["2 Bolt connection(s) still in use"]
    assert leaks(COUNTS, {**COUNTS, "pg_backends_this_process": 6, "pg_sockets": 6}) == [
        "pg_backends_this_process: 5 -> 6", "pg_sockets: 5 -> 6"]
    assert leaks(COUNTS, {**COUNTS, "pool_available": 3}) == ["1 pooled connection(s) still checked out"]


def test_questions_hit_the_paragraphs_of_the_file_being_ingested(tmp_path: Path) -> None:
    f = tmp_path / "doc.md"
    f.write_text("# Title\n\nThe river Alder flows past Brem and feeds the lake.\n\nok\n")
    assert questions_from_files(f) == ["The river Alder flows past Brem and feeds the lake."]
    records = tmp_path / "qa.json"
    records.write_text('[{"question": "q", "paragraphs": []}]\n\n')
    assert questions_from_files(records) == []  # a record file's questions are the dataset's own


def test_pool_max_is_a_setting_with_bounds() -> None:
    assert load_settings(environ={"KMRAG_PG_POOL_MAX": "16"}, config_file=Path("/nonexistent")).pg_pool_max == 16
    assert load_settings(environ={}, config_file=Path("/nonexistent")).pg_pool_max == 8
    with pytest.raises(ConfigError):
        load_settings(environ={"KMRAG_PG_POOL_MAX": "0"}, config_file=Path("/nonexistent"))
