"""The seams where ingestion used to lose or churn data (issue 7), each on both graph backends
(Neo4j and the embedded store) against a real PostgreSQL: across batches, between the two stores'
writes, with colliding names and record ids, with bad documents, and after the graph lost data."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.config import load_settings
from kmrag.graph.local_store import LocalGraphStore
from kmrag.graph.neo4j_store import Neo4jGraphStore
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.repair import repair
from kmrag.ingestion.sources import SourceOptions
from kmrag.ingestion.units import UNIT_MAX_CHARS
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import Extraction, SpacyExtractor
from kmrag.schema import KnowledgeUnit
from kmrag.stores import Stores
from kmrag.units.store import PgUnitStore
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.integration


@pytest.fixture(params=["neo4j", "embedded"])
def backend(request: Any) -> str:
    return str(request.param)


def make_stores(backend: str, neo4j_driver: Any, pg_pool: Any, tenant: str, graph_dir: Path) -> Stores:
    settings = load_settings(config_file=graph_dir / "none.toml", environ={}, tenant=tenant)
    graph: Any = Neo4jGraphStore(neo4j_driver) if backend == "neo4j" else LocalGraphStore(graph_dir)
    return Stores(settings=settings, graph=graph, units=PgUnitStore(pg_pool, 384), pool=pg_pool, database_url="")


@pytest.fixture
def stores(backend: str, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores(backend, neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    cleanup = [tenant, tenant + "_fresh"]
    yield s
    for t in cleanup:
        s.graph.clear_tenant(t)
        s.units.clear_tenant(t)


def run(stores: Stores, tenant: str, extractor: Any, *paths: Path, batch_units: int = 256,
        options: SourceOptions | None = None, force: bool = False, **hooks: Any) -> Any:
    job = IngestionJob(stores, get_embedder(stores.settings), extractor, tenant, options, progress=False,
                       batch_units=batch_units, force=force)
    for name, fn in hooks.items():
        setattr(job, name, fn)
    return job.run(list(paths))


def state(stores: Stores, tenant: str) -> dict[str, Any]:
    """What a tenant holds, as comparable values (graph counts, entity ids, relations, active units)."""
    entities = stores.graph.all_entities(tenant)
    names = {e.id: e.name for e in entities}
    return {
        "graph": stores.graph.counts(tenant).model_dump(),
        "entities": sorted((e.name, e.type, tuple(sorted(e.aliases))) for e in entities),
        "relations": sorted((str(names.get(r.subject_id)), r.type, str(names.get(r.object_id)), len(r.unit_ids))
                            for r in stores.graph.relations(tenant)),
        "units": sorted(stores.units.unit_ids(tenant)),
    }


def fresh_state(stores: Stores, tenant: str, extractor: Any, *paths: Path, **kw: Any) -> dict[str, Any]:
    """The same inputs ingested once into a new tenant."""
    fresh = tenant + "_fresh"
    run(stores, fresh, extractor, *paths, **kw)
    st = state(stores, fresh)
    st["units"] = len(st["units"])
    return st


def comparable(st: dict[str, Any]) -> dict[str, Any]:
    return {**st, "units": len(st["units"])}


# -- 1. entities vanish across batches -----------------------------------------------------------

def test_entity_retired_in_one_batch_and_mentioned_in_the_next_survives(stores: Stores, tenant: str,
                                                                        extractor: Any, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nWarsaw is the capital of Poland.\n\nKrakow is a city in Poland.\n")
    (docs / "b.md").write_text("# B\n\nChopin wrote many nocturnes.\n")
    run(stores, tenant, extractor, docs)
    assert stores.graph.find_entities(tenant, ["Warsaw"])
    # a.md loses its only Warsaw sentence while b.md gains one; they fall in different batches
    (docs / "a.md").write_text("# A\n\nKrakow is a city in Poland.\n")
    (docs / "b.md").write_text("# B\n\nChopin wrote many nocturnes.\n\nChopin was born in Warsaw.\n")
    res = run(stores, tenant, extractor, docs, batch_units=2)
    assert res.job.status == "completed" and res.agreement["agree"]
    warsaw = stores.graph.find_entities(tenant, ["Warsaw"])
    assert len(warsaw) == 1
    b_units = stores.units.unit_ids(tenant, (docs / "b.md").resolve().as_posix())
    assert set(stores.graph.entity_units(tenant, [warsaw[0].id])[warsaw[0].id]) <= b_units
    names = {e.id: e.name for e in stores.graph.all_entities(tenant)}
    # "born in" a place has the canonical type PLACE_OF_BIRTH (kmrag/nlp/predicates.py), its text stays "born in"
    assert ("Chopin", "PLACE_OF_BIRTH", "born in", "Warsaw") in {
        (names[r.subject_id], r.type, r.predicate, names[r.object_id]) for r in stores.graph.relations(tenant)}
    assert comparable(state(stores, tenant)) == fresh_state(stores, tenant, extractor, docs)


# -- 2. files with the same name -----------------------------------------------------------------

def test_files_and_folders_with_the_same_name_are_different_sources(stores: Stores, tenant: str,
                                                                     extractor: Any, tmp_path: Path) -> None:
    for d, city in (("a", "Paris"), ("b", "Rome")):
        (tmp_path / d / "docs").mkdir(parents=True)
        (tmp_path / d / "README.md").write_text(f"# Readme\n\n{city} is a city in Europe.\n")
        (tmp_path / d / "docs" / "guide.md").write_text(f"# Guide\n\n{city} has a river.\n")
    for d in ("a", "b"):
        assert run(stores, tenant, extractor, tmp_path / d / "README.md").job.status == "completed"
    for d in ("a", "b"):
        assert run(stores, tenant, extractor, tmp_path / d / "docs").job.status == "completed"
    assert len(stores.units.source_ids(tenant)) == 4
    assert stores.units.counts(tenant)["retired_units"] == 0
    texts = {u.content for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))}
    assert {"Paris is a city in Europe.", "Rome is a city in Europe.", "Paris has a river.",
            "Rome has a river."} <= texts


def test_a_moved_corpus_keeps_its_ids_with_a_source_base(stores: Stores, tenant: str, extractor: Any,
                                                         tmp_path: Path) -> None:
    old = write_corpus(tmp_path / "old" / "corpus")
    first = run(stores, tenant, extractor, old, options=SourceOptions(source_base=str(tmp_path / "old")))
    assert (tmp_path / "old" / "corpus" / "guide.md").exists()
    assert "corpus/guide.md" in stores.units.source_ids(tenant)
    new = tmp_path / "new"
    shutil.copytree(tmp_path / "old", new)
    shutil.rmtree(tmp_path / "old")
    again = run(stores, tenant, extractor, new / "corpus", options=SourceOptions(source_base=str(new)))
    assert again.job.counts["documents_unchanged"] == first.job.counts["documents_new"] == 3
    prefixed = run(stores, tenant + "_fresh", extractor, new / "corpus", options=SourceOptions(source_prefix="kb"))
    assert prefixed.job.status == "completed"
    assert "kb/guide.md" in stores.units.source_ids(tenant + "_fresh")


# -- 3. records that share an id -----------------------------------------------------------------

def test_duplicate_record_ids_are_reported_and_never_churn(stores: Stores, tenant: str, extractor: Any,
                                                           tmp_path: Path) -> None:
    f = tmp_path / "recs.jsonl"
    f.write_text('{"id": 1, "title": "Oslo", "text": "Oslo is the capital of Norway."}\n'
                 '{"id": 2, "title": "Bern", "text": "Bern is the capital of Switzerland."}\n'
                 '{"id": 1, "title": "Lima", "text": "Lima is the capital of Peru."}\n')
    res = run(stores, tenant, extractor, f)
    assert res.job.status == "completed_with_errors"
    (err,) = res.job.errors
    assert err.path == f"{f}:line 3" and "duplicate record id 1" in err.reason and "line 1" in err.reason
    before = state(stores, tenant)
    again = run(stores, tenant, extractor, f)
    assert again.job.counts["documents_unchanged"] == 2 and again.job.counts.get("units_retired", 0) == 0
    assert again.job.counts.get("units_written", 0) == 0 and state(stores, tenant) == before
    contents = {u.content for u in stores.units.get_units(tenant, before["units"])}
    assert "Oslo is the capital of Norway." in contents and "Lima is the capital of Peru." not in contents


# -- 4 and 8. store divergence, repair, failed-job leftovers ---------------------------------------

def wipe_graph(stores: Stores, tenant: str, graph_dir: Path) -> None:
    """What users do to a graph: delete the embedded file, or wipe the tenant with Cypher."""
    if isinstance(stores.graph, LocalGraphStore):
        stores.graph.close()
        for f in graph_dir.glob("graph-*"):
            f.unlink()
        stores.graph = LocalGraphStore(graph_dir)
    else:
        with stores.graph._driver.session() as s:  # noqa: SLF001 - the test plays a user with Cypher
            s.run("MATCH (n {tenant: $t}) DETACH DELETE n", t=tenant).consume()


def test_repair_brings_back_a_lost_graph_with_fresh_counts(stores: Stores, tenant: str, extractor: Any,
                                                           tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    run(stores, tenant, extractor, corpus)
    ingested = state(stores, tenant)
    assert ingested["graph"]["relations"] > 0 and ingested["graph"]["mentions"] > 0
    wipe_graph(stores, tenant, tmp_path / "graph")
    assert stores.graph.counts(tenant).units == 0
    dry = repair(stores, tenant, get_embedder(stores.settings), extractor, dry_run=True, progress=False)
    assert len(dry.rebuilt) == 3 and stores.graph.counts(tenant).units == 0
    rep = repair(stores, tenant, get_embedder(stores.settings), extractor, progress=False)
    assert rep.after is not None and rep.after["agree"] and len(rep.rebuilt) == 3
    assert state(stores, tenant) == ingested  # the same counts, entities, relations as the ingest
    again = repair(stores, tenant, get_embedder(stores.settings), extractor, progress=False)
    assert again.before["agree"] and again.rebuilt == [] and again.job is None


def test_reingest_rebuilds_a_source_the_graph_lost(stores: Stores, tenant: str, extractor: Any,
                                                  tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    run(stores, tenant, extractor, corpus)
    ingested = state(stores, tenant)
    wipe_graph(stores, tenant, tmp_path / "graph")
    res = run(stores, tenant, extractor, corpus)
    assert res.job.status == "completed" and res.agreement["agree"] and res.job.counts["documents_rebuilt"] == 3
    assert res.job.counts.get("units_written", 0) == 0  # PostgreSQL's rows and embeddings were kept
    assert state(stores, tenant) == ingested


def test_force_rebuilds_a_source_in_both_stores(stores: Stores, tenant: str, extractor: Any,
                                               tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    run(stores, tenant, extractor, corpus)
    ingested = state(stores, tenant)
    with stores.pool.connection() as conn:
        before = dict(conn.execute("SELECT id, xmin::text FROM kmrag_units WHERE tenant = %s", (tenant,)).fetchall())
    res = run(stores, tenant, extractor, corpus / "guide.md", force=True)
    assert res.job.counts["documents_rebuilt"] == 1 and res.job.counts["units_written"] > 0
    with stores.pool.connection() as conn:
        after = dict(conn.execute("SELECT id, xmin::text FROM kmrag_units WHERE tenant = %s", (tenant,)).fetchall())
    guide = stores.units.unit_ids(tenant, (corpus / "guide.md").resolve().as_posix())
    assert all(after[u] != before[u] for u in guide) and all(after[u] == before[u] for u in set(before) - guide)
    assert state(stores, tenant) == ingested and res.agreement["agree"]


def test_a_job_killed_between_the_two_stores_is_named_and_repaired(stores: Stores, tenant: str, extractor: Any,
                                                                   tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")

    def kill(batch_no: int) -> None:
        raise KeyboardInterrupt  # the process dies after the graph write, before PostgreSQL's

    with pytest.raises(KeyboardInterrupt):
        run(stores, tenant, extractor, corpus / "guide.md", batch_units=4, between_writes=kill)
    guide = (corpus / "guide.md").resolve().as_posix()
    assert stores.graph.unit_ids(tenant) and not stores.units.unit_ids(tenant)
    # an unrelated job in the same tenant completes, and names the source left behind
    other = run(stores, tenant, extractor, corpus / "notes.txt")
    assert other.job.status == "completed" and other.agreement["agree"]
    assert not other.agreement["tenant_agrees"]
    assert [s.split(":")[0] for s in other.agreement["other_sources_disagree"]] == [guide]
    rep = repair(stores, tenant, get_embedder(stores.settings), extractor, progress=False)
    assert rep.removed_from_graph == [guide] and rep.after is not None and rep.after["agree"]
    done = run(stores, tenant, extractor, corpus / "guide.md", corpus / "notes.txt")
    assert done.job.status == "completed" and done.agreement["tenant_agrees"]
    assert comparable(state(stores, tenant)) == (
        fresh_state(stores, tenant, extractor, corpus / "guide.md", corpus / "notes.txt"))


def test_resume_after_a_kill_between_the_two_stores(stores: Stores, tenant: str, extractor: Any,
                                                   tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")

    def kill(batch_no: int) -> None:
        if batch_no == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(stores, tenant, extractor, corpus, batch_units=4, between_writes=kill)
    assert stores.graph.counts(tenant).units > stores.units.counts(tenant)["units"] > 0
    res = run(stores, tenant, extractor, corpus, batch_units=4)
    assert res.job.status == "completed" and res.agreement["tenant_agrees"]
    assert comparable(state(stores, tenant)) == fresh_state(stores, tenant, extractor, corpus)


# -- 5. one bad document -------------------------------------------------------------------------

class BreaksOn:
    """The real extractor, except that it raises on one document's text (a stand-in for any bug)."""

    name = "spacy-breaks"

    def __init__(self, inner: SpacyExtractor, marker: str) -> None:
        self.inner, self.marker = inner, marker

    def extract(self, units: list[KnowledgeUnit]) -> list[Extraction]:
        if any(self.marker in u.content for u in units):
            raise RuntimeError("extractor bug")
        return self.inner.extract(units)


def test_one_bad_document_is_that_documents_error(stores: Stores, tenant: str, extractor: Any,
                                                  tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    (corpus / "nul.txt").write_bytes(b"Fine text. " * 1000 + b"\x00 then a NUL after 8 KB.")
    (corpus / "oneline.txt").write_text("x" * 1_100_000)  # past spaCy's max_length, no sentence end, no spaces
    (corpus / "breaks.md").write_text("# Broken\n\nThis text BREAKS the extractor.\n")
    res = run(stores, tenant, BreaksOn(extractor, "BREAKS"), corpus)
    assert res.job.status == "completed_with_errors" and res.agreement["agree"]
    reasons = {Path(e.path.split(":")[0]).name: e.reason for e in res.job.errors}
    assert set(reasons) == {"nul.txt", "breaks.md"}
    assert "NUL byte at offset 11000" in reasons["nul.txt"] and "extractor bug" in reasons["breaks.md"]
    assert res.job.counts["documents_new"] == 4  # the three good ones and the long line
    one = stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant, (corpus / "oneline.txt").resolve()
                                                                      .as_posix())))
    assert len(one) >= 1_100_000 // UNIT_MAX_CHARS and max(len(u.content) for u in one) <= UNIT_MAX_CHARS
    assert sum(len(u.content) for u in one) == 1_100_000


# -- 7. a big document is many batches -----------------------------------------------------------

def test_a_big_document_is_committed_batch_by_batch_and_resumed_inside(stores: Stores, tenant: str,
                                                                        extractor: Any, tmp_path: Path) -> None:
    big = tmp_path / "big.md"
    big.write_text("# Big\n\n" + "\n\n".join(f"Paragraph {i} says that city {i} lies on river {i}."
                                              for i in range(300)) + "\n")

    def stop(batch_no: int) -> None:
        if batch_no == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(stores, tenant, extractor, big, batch_units=50, after_batch=stop)
    committed = stores.units.counts(tenant)["units"]
    assert committed == 150 and stores.units.source_ids(tenant) == set()  # not complete yet
    res = run(stores, tenant, extractor, big, batch_units=50)
    assert res.job.status == "completed" and res.job.counts["units_kept"] == 150
    assert res.job.counts["units_written"] == 301 - 150
    assert comparable(state(stores, tenant)) == (
        fresh_state(stores, tenant, extractor, big, batch_units=50))


# -- also: one text in both stores; resolution does not depend on order ---------------------------

def graph_content(stores: Stores, tenant: str, uid: str) -> str:
    if isinstance(stores.graph, LocalGraphStore):
        return str(stores.graph._g(tenant).nodes[uid]["content"])  # noqa: SLF001
    with stores.graph._driver.session() as s:  # noqa: SLF001
        return str(s.run("MATCH (u:Unit {tenant: $t, id: $id}) RETURN u.content AS c", t=tenant, id=uid).single()["c"])


def test_unit_text_is_the_same_in_both_stores_after_an_update(stores: Stores, tenant: str, extractor: Any,
                                                              tmp_path: Path) -> None:
    f = tmp_path / "t.md"
    f.write_text("# T\n\nItem \u2460 costs 5\u00a0EUR.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    run(stores, tenant, extractor, f)
    f.write_text("# T\n\nItem 1 costs 5 EUR.\n\n| a  |  b |\n|---|---|\n| 1 | 2 |\n")  # same ids, other text
    res = run(stores, tenant, extractor, f)
    assert res.job.counts["units_written"] == 0
    for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant))):
        assert graph_content(stores, tenant, u.id) == u.content
    contents = {u.content for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))}
    assert "Item 1 costs 5 EUR." in contents


def test_entities_do_not_depend_on_ingestion_order(stores: Stores, tenant: str, extractor: Any,
                                                   tmp_path: Path) -> None:
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text("# A\n\nIBM opened an office in Warsaw.\n")
    # the acronym merge needs both names in one source (b); a's "IBM" then joins through the alias
    b.write_text("# B\n\nInternational Business Machines was founded in New York. IBM sells computers.\n")
    run(stores, tenant, extractor, a)
    run(stores, tenant, extractor, b)
    forward = state(stores, tenant)
    rev = tenant + "_fresh"
    run(stores, rev, extractor, b)
    run(stores, rev, extractor, a)
    backward = state(stores, rev)
    assert forward["entities"] == backward["entities"] and forward["relations"] == backward["relations"]
    assert forward["graph"] == backward["graph"]
    names = [n for n, _, _ in forward["entities"]]
    assert "International Business Machines" in names and "IBM" not in names


def test_repair_finishes_a_delete_and_an_unmerge_the_graph_missed(stores: Stores, tenant: str, extractor: Any,
                                                                  tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    write_corpus(corpus)
    (corpus / "eu.md").write_text("# EU\n\nThe European Union (EU) is a union of states. The EU has a parliament.\n")
    run(stores, tenant, extractor, corpus)
    notes = (corpus / "notes.txt").resolve().as_posix()
    eu = next(m for m in stores.units.merges(tenant) if m["alias"] == "EU")
    # `kmrag delete` and `kmrag entities unmerge` write PostgreSQL first; the process dies before the graph
    stores.units.retire_source(tenant, notes)
    stores.units.undo_merge(tenant, eu["entity_id"], "EU")
    assert notes in stores.graph.source_ids(tenant)
    assert "EU" in stores.graph.get_entities(tenant, [eu["entity_id"]])[0].aliases
    rep = repair(stores, tenant, get_embedder(stores.settings), extractor, progress=False)
    assert rep.removed_from_graph == [notes] and rep.aliases_removed == 1 and rep.rebuilt == []
    assert rep.after is not None and rep.after["agree"]
    assert notes not in stores.graph.source_ids(tenant) and not stores.graph.unit_ids(tenant, notes)
    assert "EU" not in stores.graph.get_entities(tenant, [eu["entity_id"]])[0].aliases


def _big(path: Path, n: int, marker: str = "", extra: str = "") -> Path:
    path.write_text("# Big\n\n" + "\n\n".join(f"Paragraph {i} says that city {i} lies on river {i}.{extra}"
                                              + (f" {marker}" if i == n - 10 and marker else "")
                                              for i in range(n)) + "\n")
    return path


def test_an_update_interrupted_midway_is_resumed_not_rebuilt(stores: Stores, tenant: str, extractor: Any,
                                                             tmp_path: Path) -> None:
    from kmrag.ingestion.consistency import compare_stores

    big = _big(tmp_path / "big.md", 120)
    run(stores, tenant, extractor, big, batch_units=40)
    _big(big, 120, extra=" It floods in spring.")  # every paragraph changes

    def stop(batch_no: int) -> None:
        if batch_no == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run(stores, tenant, extractor, big, batch_units=40, after_batch=stop)
    assert compare_stores(stores, tenant).agree  # half an update: both stores hold the same half
    res = run(stores, tenant, extractor, big, batch_units=40)
    assert res.job.counts["documents_updated"] == 1 and "documents_rebuilt" not in res.job.counts
    assert res.job.counts["units_kept"] >= 79 and res.agreement["agree"]
    assert comparable(state(stores, tenant)) == fresh_state(stores, tenant, extractor, big, batch_units=40)


def test_a_document_failing_in_a_later_batch_fails_alone(stores: Stores, tenant: str, extractor: Any,
                                                         tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _big(docs / "big.md", 120, marker="BREAKS")
    write_corpus(docs)
    res = run(stores, tenant, BreaksOn(extractor, "BREAKS"), docs, batch_units=40)
    assert res.job.status == "completed_with_errors" and res.agreement["agree"]
    assert [Path(e.path).name for e in res.job.errors] == ["big.md"]
    assert res.job.counts["documents_new"] == 3 and res.job.counts["documents_failed"] == 1
    fixed = run(stores, tenant, extractor, docs, batch_units=40)
    assert fixed.job.status == "completed" and fixed.job.counts["documents_resumed"] == 1
    assert comparable(state(stores, tenant)) == fresh_state(stores, tenant, extractor, docs, batch_units=40)


# -- vanished records and files --------------------------------------------------------------------

def test_records_gone_from_a_record_file_are_retired(stores: Stores, tenant: str, extractor: Any,
                                                     tmp_path: Path) -> None:
    f = tmp_path / "recs.jsonl"
    f.write_text('{"title": "Oslo", "text": "Oslo is the capital of Norway."}\n'
                 '{"title": "Bern", "text": "Bern is the capital of Switzerland."}\n')
    run(stores, tenant, extractor, f)
    # an edited record without an id is another source: the old one must not stay active for ever
    f.write_text('{"title": "Oslo", "text": "Oslo is the capital and largest city of Norway."}\n'
                 '{"title": "Bern", "text": "Bern is the capital of Switzerland."}\n')
    res = run(stores, tenant, extractor, f)
    assert res.job.counts["documents_removed"] == 1 and res.job.counts["documents_new"] == 1
    assert len(stores.units.source_ids(tenant)) == 2 and res.agreement["tenant_agrees"]
    assert comparable(state(stores, tenant)) == fresh_state(stores, tenant, extractor, f)
    # a record file with a bad line keeps what is stored of it
    f.write_text('{"title": "Bern", "text": "Bern is the capital of Switzerland."}\n{broken\n')
    bad = run(stores, tenant, extractor, f)
    assert bad.job.counts.get("documents_removed", 0) == 0 and len(stores.units.source_ids(tenant)) == 2


def test_prune_removes_files_gone_from_a_folder_and_only_with_prune(stores: Stores, tenant: str, extractor: Any,
                                                                    tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    other = tmp_path / "other.md"
    other.write_text("# Other\n\nLima is the capital of Peru.\n")
    run(stores, tenant, extractor, corpus, other)
    (corpus / "notes.txt").unlink()
    (corpus / "atlas.html").write_bytes(b"\x00binary now")  # unreadable this time: kept as stored
    kept = run(stores, tenant, extractor, corpus)
    assert kept.job.counts.get("documents_removed", 0) == 0 and len(stores.units.source_ids(tenant)) == 4
    pruned = run(stores, tenant, extractor, corpus, options=SourceOptions(prune=True))
    assert pruned.job.counts["documents_removed"] == 1 and pruned.agreement["tenant_agrees"]
    left = stores.units.source_ids(tenant)
    assert (corpus / "notes.txt").resolve().as_posix() not in left
    assert {(corpus / "atlas.html").resolve().as_posix(), other.resolve().as_posix()} <= left  # not under it / unreadable
    assert not stores.graph.find_entities(tenant, ["Marie Curie"])


def test_prune_with_a_prefix_touches_only_the_folder_given(stores: Stores, tenant: str, extractor: Any,
                                                           tmp_path: Path) -> None:
    a = write_corpus(tmp_path / "a")
    b = tmp_path / "b"
    b.mkdir()
    (b / "other.md").write_text("# Other\n\nLima is the capital of Peru.\n")
    (b / "extra.md").write_text("# Extra\n\nQuito is the capital of Ecuador.\n")
    run(stores, tenant, extractor, a, options=SourceOptions(source_prefix="kb"))
    run(stores, tenant, extractor, b, options=SourceOptions(source_prefix="kb"))
    (b / "extra.md").unlink()
    res = run(stores, tenant, extractor, b, options=SourceOptions(source_prefix="kb", prune=True))
    assert res.job.counts["documents_removed"] == 1  # a's sources share the prefix, not the folder
    assert stores.units.source_ids(tenant) == {"kb/guide.md", "kb/atlas.html", "kb/notes.txt", "kb/other.md"}
