"""The kinds of file the real-documents trial loaded (issue 10), ingested as users do, with what each
must become asserted: Markdown with HTML comments, front matter and `<!-- YAML -->` change metadata,
code-heavy Markdown, reStructuredText with directives, HTML declaring Latin-1, UTF-16 text with a BOM,
and a Chinese article with program text pasted into it. Real PostgreSQL, both graph backends."""

from __future__ import annotations

import re
import shutil
import statistics
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.config import load_settings
from kmrag.graph.local_store import LocalGraphStore
from kmrag.graph.neo4j_store import Neo4jGraphStore
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.sources import SourceOptions
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.names import looks_like_code
from kmrag.stores import Stores
from kmrag.units.store import PgUnitStore

pytestmark = pytest.mark.integration

TRIAL = Path(__file__).resolve().parents[1] / "data" / "trial"
CJK = re.compile(r"[\u3400-\u9fff]")


@pytest.fixture(params=["neo4j", "embedded"])
def ingested(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path,
             extractor: SpacyExtractor) -> Iterator[tuple[Stores, str, Path, Any]]:
    corpus = tmp_path / "trial"
    shutil.copytree(TRIAL, corpus)
    settings = load_settings(config_file=tmp_path / "none.toml", environ={}, tenant=tenant)
    graph: Any = Neo4jGraphStore(neo4j_driver) if request.param == "neo4j" else LocalGraphStore(tmp_path / "graph")
    s = Stores(settings=settings, graph=graph, units=PgUnitStore(pg_pool, 384), pool=pg_pool, database_url="")
    job = IngestionJob(s, get_embedder(settings), extractor, tenant, SourceOptions(), progress=False)
    result = job.run([corpus])
    yield s, tenant, corpus, result
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def _units(s: Stores, tenant: str) -> list[Any]:
    return s.units.get_units(tenant, sorted(s.units.unit_ids(tenant)), include_retired=False)


def _of(units: list[Any], corpus: Path, name: str) -> list[Any]:
    sid = (corpus / name).resolve().as_posix()
    return sorted((u for u in units if u.source_id == sid), key=lambda u: u.ordinal)


def test_every_kind_of_trial_file_ingests_into_sensible_units(ingested: tuple[Stores, str, Path, Any]) -> None:
    s, tenant, corpus, result = ingested
    files = sorted(p.name for p in corpus.iterdir())
    assert result.job.status == "completed", result.job.errors
    assert not result.job.errors
    assert s.units.source_ids(tenant) == {(corpus / f).resolve().as_posix() for f in files}
    units = _units(s, tenant)
    for u in units:  # none of the trial's junk
        assert "<!--" not in u.content and "-->" not in u.content, u.content
        assert not re.search(r"^\s*(added|changes|pr-url|version)\s*:", u.content, re.M) or u.type == "code", u.content
        assert not re.search(r"^\s*\.\. [\w:-]+::", u.content, re.M) or u.type == "code", u.content
        assert not re.search(r"^\s*([=\-~^*])\1{3,}\s*$", u.content, re.M), u.content
    prose = [len(u.content) for u in units if u.type in ("paragraph", "definition", "rule")]
    assert min(prose) >= 15 and statistics.median(prose) >= 50, sorted(prose)[:10]
    # code is kept whole as `code` units, in every format that has it
    code_by_file = {f: [u for u in _of(units, corpus, f) if u.type == "code"] for f in files}
    assert all(code_by_file[f] for f in files if f != "release-notes-utf16.txt"), {
        f: len(c) for f, c in code_by_file.items()}
    assert any("BrotliEncoderCompressStream" in u.content for u in code_by_file["zlib-api.md"])
    assert any(u.content.startswith("class IterativeRetriever:") for u in code_by_file["multihop-zh.txt"])
    # Markdown: front matter is the source's metadata, a YAML block its section's
    src = s.units.get_source(tenant, (corpus / "streams-guide.md").resolve().as_posix())
    assert src is not None and src.metadata["front_matter"]["owner"] == "docs-team"
    readable = [u for u in _of(units, corpus, "streams-guide.md") if u.type == "section" and u.content == "Readable streams"]
    assert readable and readable[0].metadata["yaml"]["added"] == "v0.9.4"
    # declared Latin-1 and UTF-16 with a BOM: read right
    assert any("François Bélanger founded" in u.content for u in _of(units, corpus, "cafe-latin1.html"))
    assert any("Zoë Müller has maintained" in u.content for u in _of(units, corpus, "release-notes-utf16.txt"))


def test_code_gives_no_entities_and_no_entity_looks_like_code(ingested: tuple[Stores, str, Path, Any]) -> None:
    s, tenant, _, _ = ingested
    units = _units(s, tenant)
    code_ids = [u.id for u in units if u.type == "code"]
    assert code_ids
    assert not any(s.graph.unit_entities(tenant, code_ids).values())
    entities = s.graph.all_entities(tenant)
    names = {e.name for e in entities}
    assert entities and {"Ryan Dahl", "Mark Adler"} <= names, sorted(names)
    assert [n for n in names if looks_like_code(n)] == []
    cjk = {n for n in names if CJK.search(n)}  # Chinese names come from LAC (kmrag.nlp.chinese), never junk
    assert {"马斯克", "迭代检索"} <= cjk, sorted(cjk)  # the person and the glossed technique of the article
    assert not cjk & {"索比单", "RAG突破单"} and not [n for n in cjk if re.search(r"[A-Za-z]", n)], sorted(cjk)
    numbers = [n for n in names if re.fullmatch(r"[\d.,:/ -]+", n)]
    assert all(re.fullmatch(r"1\d{3}|20\d{2}", n) for n in numbers), numbers  # years only (not the table's 65536)
    for e in entities:  # opposites never merge
        group = {e.name, *e.aliases}
        assert not ({"BrotliCompress", "BrotliDecompress"} <= group), group


def test_chinese_is_stored_as_written_split_by_its_headings_and_found_by_its_words(
        ingested: tuple[Stores, str, Path, Any]) -> None:
    s, tenant, corpus, _ = ingested
    text = (corpus / "multihop-zh.txt").read_text(encoding="utf-8")
    units = _of(_units(s, tenant), corpus, "multihop-zh.txt")
    bare = "\n".join(ln.rstrip() for ln in text.splitlines())  # code keeps its lines, less trailing blanks
    for u in units:
        if u.type in ("section", "code"):
            assert u.content in bare, u.content  # exactly as written: ⑰, ｜, ：, full-width brackets
    assert "AI Agent开发实战⑰｜多跳检索与知识图谱：让RAG突破单跳限制" in [u.content for u in units]
    langs = {u.metadata.get("language") for u in units if u.type not in ("code", "section")}
    assert langs == {"zh"}, langs  # the language of each unit is stored, and counted
    assert s.units.counts(tenant)["units_by_language"]["zh"] >= len([u for u in units if u.type != "code"])
    sections = [u.content for u in units if u.type == "section"]
    assert {"一、单跳检索的局限性", "二、多跳检索的三种架构", "2.1 迭代检索（Iterative Retrieval）"} <= set(sections)
    assert "传统RAG是\"一问一查一答\"：" not in sections
    for word in ["多跳检索", "员工数", "迭代检索"]:
        holding = {u.id for u in units if word in u.content or word in u.title}
        found = {h.id for h in s.units.fulltext_search(tenant, word, 50)}
        assert holding and holding <= found, (word, len(holding), len(holding & found))


def test_a_second_run_of_the_same_corpus_changes_nothing(ingested: tuple[Stores, str, Path, Any],
                                                         extractor: SpacyExtractor) -> None:
    s, tenant, corpus, first = ingested
    before = {u.id for u in _units(s, tenant)}
    again = IngestionJob(s, get_embedder(s.settings), extractor, tenant, SourceOptions(), progress=False).run([corpus])
    assert again.job.status == "completed" and not again.job.errors
    assert again.job.counts.get("sources_unchanged") == first.job.counts.get("sources_new"), again.job.counts
    assert {u.id for u in _units(s, tenant)} == before
