"""Tenants are isolated, on both graph backends: two tenants hold the same documents (same file contents,
same source ids, same entity names), and everything done on one of them (ingest, ask, answer, audit,
graph hops, neighbours, merges and their undo, repair, delete, job listing, clear) leaves the other's
digest (tests.fixtures.tenant_digest: its PostgreSQL rows, BM25 statistics and graph) exactly as it was.
Hostile text (Cypher/SQL fragments in documents, questions, entity names and extracted predicates) is
data: stored verbatim, answered as text, and no store is harmed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.answer.audit import audit
from kmrag.errors import BadInput, KmragError
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.repair import repair
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import ExtractedEntity, ExtractedTriple, Extraction, SpacyExtractor
from kmrag.retrieval.ask import ask
from kmrag.schema import KnowledgeUnit, Source
from kmrag.schema.ids import content_hash, unit_text
from kmrag.stores import Stores
from kmrag.units.jobs import JobNotFound, JobStore
from tests.fixtures.docs import NOTES_TXT, write_corpus
from tests.fixtures.tenant_digest import tenant_state
from tests.integration.test_ingestion_seams import graph_content, make_stores

pytestmark = pytest.mark.integration

EU_MD = "# EU\n\nThe European Union (EU) is a union of states. The EU has a parliament in Brussels.\n"


@pytest.fixture(params=["neo4j", "embedded"])
def stores(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores(request.param, neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    yield s
    for t in (tenant, tenant + "_b"):
        s.graph.clear_tenant(t)
        s.units.clear_tenant(t)


def ingest(stores: Stores, tenant: str, extractor: Any, *paths: Path) -> Any:
    job = IngestionJob(stores, get_embedder(stores.settings), extractor, tenant, progress=False).run(list(paths)).job
    assert job.status == "completed", job.errors
    return job


def answerer(stores: Stores) -> Answerer:
    # tenant isolation is tested here, not the confidence threshold: every answer is shown and written to the graph
    settings = stores.settings.model_copy(update={"min_confidence": 0.0})
    return Answerer(stores.units, stores.graph, get_embedder(settings), settings, generator="extractive")


def corpus(tmp_path: Path) -> Path:
    root = write_corpus(tmp_path / "corpus")
    (root / "eu.md").write_text(EU_MD, encoding="utf-8")
    return root


def contents(stores: Stores, tenant: str) -> list[tuple[str, str]]:
    ids = sorted(stores.units.unit_ids(tenant))
    return sorted((u.source_id, u.content) for u in stores.units.get_units(tenant, ids))


def assert_unchanged(before: dict[str, Any], after: dict[str, Any]) -> None:
    for part in ("postgres", "bm25", "graph"):
        if isinstance(before[part], dict):
            for key in before[part]:
                assert after[part][key] == before[part][key], f"{part}.{key} of the other tenant changed"
    assert after == before


def test_work_on_one_tenant_never_reads_or_changes_a_tenant_with_the_same_documents(
        stores: Stores, tenant: str, extractor: SpacyExtractor, tmp_path: Path) -> None:
    a, b = tenant, tenant + "_b"
    root = corpus(tmp_path)
    ingest(stores, a, extractor, root)
    b_job = ingest(stores, b, extractor, root)
    b_answer = answerer(stores).answer(b, "Where was Marie Curie born?")
    stores.graph.flush()

    # the same documents: the same source ids, texts and entity names, but ids of their own
    assert stores.units.source_ids(a) == stores.units.source_ids(b) and contents(stores, a) == contents(stores, b)
    a_units, b_units = stores.units.unit_ids(a), stores.units.unit_ids(b)
    assert a_units and not a_units & b_units  # unit ids hash the tenant in
    a_ents, b_ents = stores.graph.all_entities(a), stores.graph.all_entities(b)
    assert sorted(e.name for e in a_ents) == sorted(e.name for e in b_ents)
    assert not {e.id for e in a_ents} & {e.id for e in b_ents}
    assert not {r.id for r in stores.graph.relations(a)} & {r.id for r in stores.graph.relations(b)}
    b_eids = [e.id for e in b_ents]
    before = tenant_state(stores, b)
    assert before["postgres"]["kmrag_answers"] and before["postgres"]["kmrag_jobs"]
    assert before["postgres"]["kmrag_entity_merges"] and before["graph"]["relations"]

    # ingestion on A again: an updated file and a new one
    (root / "notes.txt").write_text(NOTES_TXT + "\nWarsaw lies on the Vistula river.\n", encoding="utf-8")
    (root / "extra.md").write_text("# Extra\n\nLyon is a city in France.\n", encoding="utf-8")
    ingest(stores, a, extractor, root)
    a_units = stores.units.unit_ids(a)

    # asking and answering on A: only A's units, never B's
    res = ask(stores.units, stores.graph, get_embedder(stores.settings), a, "Where was Marie Curie born?")
    assert res.units and {u.id for u in res.units} <= a_units
    ans = answerer(stores).answer(a, "Where was Marie Curie born?")
    cited = {c.unit_id for c in ans.citations}
    assert cited and cited <= a_units and not cited & b_units
    assert set(stores.graph.answer_citations(a, ans.id)) == cited
    report = audit(stores.units, stores.graph, a, ans.id)
    assert {c.unit_id for c in report.citations} == cited
    for t, other in ((b, ans.id), (a, b_answer.id)):  # an answer is found in its own tenant only
        with pytest.raises(BadInput):
            audit(stores.units, stores.graph, t, other)
        assert stores.units.get_answer(t, other) is None and stores.graph.answer_citations(t, other) == []

    # graph hops and neighbours on A stay in A; B's ids mean nothing in A
    a_ents = stores.graph.all_entities(a)
    a_eids = [e.id for e in a_ents]
    paths = stores.graph.relation_paths(a, a_eids, max_hops=2, co_mention=True)
    conn = stores.graph.connecting_paths(a, a_eids[: len(a_eids) // 2], a_eids[len(a_eids) // 2:], max_hops=3)
    assert paths
    for p in [*paths, *conn]:
        assert set(p.unit_ids) <= a_units and {h.subject_id for h in p.hops} <= set(a_eids)
    hood = stores.graph.neighbours(a, sorted(a_units))
    assert hood and {n.neighbour_id for n in hood} <= a_units
    assert stores.graph.relation_paths(a, b_eids, max_hops=2, co_mention=True) == []
    assert stores.graph.connecting_paths(a, b_eids, b_eids, max_hops=3) == []
    assert stores.graph.neighbours(a, sorted(b_units)) == [] and stores.graph.unit_entities(a, sorted(b_units)) == {}
    assert stores.graph.get_entities(a, b_eids) == [] and stores.graph.entity_units(a, b_eids) == {}
    assert stores.units.get_units(a, sorted(b_units)) == [] and stores.units.unit_history(a, sorted(b_units)) == {}

    # writes on A naming B's ids change nothing anywhere
    b_eu = next(m for m in stores.units.merges(b) if m["alias"] == "EU")
    assert stores.graph.remove_entity_alias(a, b_eu["entity_id"], "EU") is False
    assert stores.units.undo_merge(a, b_eu["entity_id"], "EU") is False
    assert stores.graph.merge_entities(a, [(b_eids[0], b_eids[1])]) == 0
    assert stores.graph.retire_units(a, sorted(b_units)) == 0 and stores.units.retire(a, sorted(b_units)) == 0

    # entity merges and their undo on A
    a_eu = next(m for m in stores.units.merges(a) if m["alias"] == "EU")
    assert stores.units.undo_merge(a, a_eu["entity_id"], "EU")
    assert stores.graph.remove_entity_alias(a, a_eu["entity_id"], "EU")
    assert stores.graph.merge_entities(a, [(a_eids[0], a_eids[1])]) == 1

    # repair: A's graph loses a source's units; repaired tenant by tenant, as `repair --all-tenants` does
    notes = (root / "notes.txt").resolve().as_posix()
    stores.graph.retire_units(a, sorted(stores.graph.unit_ids(a, notes)))
    stores.graph.flush()
    embedder = get_embedder(stores.settings)
    rep = repair(stores, a, embedder, extractor, progress=False)
    assert notes in rep.rebuilt and rep.after is not None and rep.after["agree"]
    rep_b = repair(stores, b, embedder, extractor, progress=False)
    assert rep_b.before["agree"] and not rep_b.rebuilt

    # jobs: each tenant lists its own, and cannot read the other's
    jobs = JobStore(stores.pool)
    a_jobs = {j.id for j in jobs.list(a)}
    assert a_jobs and not a_jobs & {j.id for j in jobs.list(b)}
    with pytest.raises(JobNotFound):
        jobs.get(a, b_job.id)

    # delete sources on A (retire, then purge), then clear A
    guide = (root / "guide.md").resolve().as_posix()
    assert stores.units.retire_source(a, notes) > 0 and stores.graph.delete_source(a, notes) > 0
    assert stores.units.delete_source(a, guide) > 0 and stores.graph.delete_source(a, guide) > 0
    stores.graph.flush()
    stores.graph.clear_tenant(a)
    stores.units.clear_tenant(a)
    assert stores.units.unit_ids(a, include_retired=True) == set() and stores.graph.counts(a).units == 0

    assert_unchanged(before, tenant_state(stores, b))


def write_one_unit(stores: Stores, tenant: str, uid: str, source_id: str, text: str) -> None:
    src = Source(id=source_id, tenant=tenant, uri=source_id, version=content_hash(text), content_hash=content_hash(text))
    unit = KnowledgeUnit(id=uid, tenant=tenant, source_id=source_id, source_version=src.version, type="paragraph",
                         title="T", ordinal=0, content=text)
    stores.units.write_sources([src])
    stores.units.write_units([unit], embeddings=[get_embedder(stores.settings).embed([text])[0]])
    stores.graph.write_sources([src])
    stores.graph.write_units([unit])
    stores.graph.flush()


def test_a_unit_id_held_by_two_tenants_is_looked_up_per_tenant(stores: Stores, tenant: str) -> None:
    """Unit ids hash the tenant in, so the same text never gives two tenants one id; should an id still be
    the same (written so on purpose here), every lookup by id is the tenant's own: B's write never changes
    A's unit, and once B deleted its copy, B finds nothing under that id while A keeps it."""
    a, b = tenant, tenant + "_b"
    uid = "u_00000000deadbeef"
    write_one_unit(stores, a, uid, "docs/same.md", "Tenant A wrote this about the Vistula.")
    a_before = tenant_state(stores, a)
    write_one_unit(stores, b, uid, "docs/same.md", "Tenant B wrote other words about the Oder.")
    assert [u.content for u in stores.units.get_units(b, [uid])] == ["Tenant B wrote other words about the Oder."]
    assert graph_content(stores, a, uid) == "Tenant A wrote this about the Vistula."  # B's write never lands on A's

    assert stores.units.delete_source(b, "docs/same.md") == 1
    stores.graph.delete_source(b, "docs/same.md")
    stores.graph.flush()
    assert stores.units.get_units(b, [uid]) == [] and stores.units.unit_history(b, [uid]) == {}
    assert uid not in stores.graph.unit_ids(b) and stores.graph.neighbours(b, [uid]) == []
    assert stores.graph.unit_entities(b, [uid]) == {}
    assert not [u for u in stores.units.fulltext_search(b, "Vistula", 10) if u.id == uid]
    assert [u.content for u in stores.units.get_units(a, [uid])] == ["Tenant A wrote this about the Vistula."]
    assert [u.id for u in stores.units.fulltext_search(a, "Vistula", 10)] == [uid]
    assert_unchanged(a_before, tenant_state(stores, a))


# -- hostile text is data ---------------------------------------------------------------------------

HOSTILE = [
    "'; DROP TABLE kmrag_units; --",
    "MATCH (n) DETACH DELETE n",
    "} RETURN 1 //",
    "`]->() DETACH DELETE n //",
    "$tenant $params {tenant: 'other'}",
    "\" OR 1=1 --",
    "x'}) MATCH (m) SET m.tenant = 'stolen' //",
]
HOSTILE_DOC = "# Robert'); DROP TABLE kmrag_units; --\n\n" + "\n\n".join(
    f"Paris note {i}: the text {h} is kept as written." for i, h in enumerate(HOSTILE)) + "\n"
BAD_PREDICATE = "IS`]->() DETACH DELETE n //"
BAD_NAME = "Robert'); MATCH (n) DETACH DELETE n; --"


class HostileExtractor:
    """The real extractor, plus what a hostile (or broken) LLM extractor could return: entity names and a
    predicate made of Cypher fragments."""

    name = "spacy-hostile"

    def __init__(self, inner: SpacyExtractor) -> None:
        self.inner = inner

    def extract(self, units: Sequence[KnowledgeUnit]) -> list[Extraction]:
        out = self.inner.extract(units)
        for u, ex in zip(units, out, strict=True):
            if "Paris note 0" in u.content:
                s = ExtractedEntity(name=BAD_NAME, label="PERSON")
                o = ExtractedEntity(name="} RETURN 1 //", label="ORG")
                ex.entities += [s, o]
                ex.triples.append(ExtractedTriple(subject=s, predicate=BAD_PREDICATE, object=o,
                                                  sentence=u.content, confidence=0.9))
                ex.triples.append(ExtractedTriple(subject=s, predicate="`$x`", object=o, sentence=u.content,
                                                  confidence=0.9))
        return out


def test_hostile_documents_names_predicates_and_questions_are_data(stores: Stores, tenant: str,
                                                                   extractor: SpacyExtractor, tmp_path: Path) -> None:
    a, b = tenant, tenant + "_b"
    ingest(stores, b, extractor, corpus(tmp_path))
    before = tenant_state(stores, b)
    doc = tmp_path / "hostile" / "evil.md"
    doc.parent.mkdir()
    doc.write_text(HOSTILE_DOC, encoding="utf-8")
    ingest(stores, a, HostileExtractor(extractor), doc)

    # the text is stored verbatim in both stores
    units = stores.units.get_units(a, sorted(stores.units.unit_ids(a)))
    for i, h in enumerate(HOSTILE):
        text = unit_text(f"Paris note {i}: the text {h} is kept as written.")
        got = [u for u in units if u.content == text]
        assert len(got) == 1, text
        assert graph_content(stores, a, got[0].id) == text
    assert any("DROP TABLE kmrag_units" in u.title for u in units)
    names = {e.name for e in stores.graph.all_entities(a)}
    assert BAD_NAME in names and "} RETURN 1 //" in names
    rels = {r.predicate: r.type for r in stores.graph.relations(a)}
    assert rels[BAD_PREDICATE] == "IS_DETACH_DELETE_N" and rels["`$x`"] == "X"

    # hostile questions are answered as text, in A only
    for q in [*HOSTILE, BAD_NAME, "What is kept about DROP TABLE kmrag_units?"]:
        res = ask(stores.units, stores.graph, get_embedder(stores.settings), a, q)
        assert {u.id for u in res.units} <= stores.units.unit_ids(a)
        ans = answerer(stores).answer(a, q)
        assert stores.units.get_answer(a, ans.id) is not None
        assert stores.units.get_answer(a, ans.id).question == q  # stored verbatim
    with pytest.raises(KmragError):
        stores.units.get_units("x'; DROP TABLE kmrag_units; --", ["u_0"])

    # the stores are intact: the tables, B, and A's own graph
    assert_unchanged(before, tenant_state(stores, b))
    assert stores.units.counts(a)["units"] == len(units) and stores.graph.counts(a).units == len(units)


def test_the_digest_sees_every_kind_of_change(stores: Stores, tenant: str, extractor: SpacyExtractor,
                                              tmp_path: Path) -> None:
    """The isolation tests can fail: each kind of write to a tenant changes its digest."""
    b = tenant + "_b"
    ingest(stores, b, extractor, corpus(tmp_path))
    units = sorted(stores.units.unit_ids(b))

    def live_pair() -> tuple[str, str]:
        first, second = sorted(e.id for e in stores.graph.all_entities(b))[:2]
        return first, second

    eu = next(m for m in stores.units.merges(b) if m["alias"] == "EU")
    names = sorted(stores.units.entity_names(b))
    changes = {
        "answer": lambda: answerer(stores).answer(b, "Where was Marie Curie born?"),
        "job": lambda: JobStore(stores.pool).create(b, ["x"]),
        "unit retired in PostgreSQL": lambda: stores.units.retire(b, units[:1]),
        "unit retired in the graph": lambda: stores.graph.retire_units(b, units[1:2]),
        "merge undone": lambda: stores.units.undo_merge(b, eu["entity_id"], "EU"),
        "alias removed": lambda: stores.graph.remove_entity_alias(b, eu["entity_id"], "EU"),
        # two entities that still exist now (retiring units above may have removed orphaned ones; unit ids,
        # and so which units were retired, depend on the corpus path)
        "entities merged": lambda: stores.graph.merge_entities(b, [live_pair()]),
        "entity name dropped": lambda: stores.units.delete_entity_names(b, names[:1]),
        "unit links cleared": lambda: stores.graph.clear_unit_links(b, (tmp_path / "corpus" / "guide.md").resolve()
                                                                    .as_posix()),
    }
    state = tenant_state(stores, b)
    for what, change in changes.items():
        change()
        stores.graph.flush()
        now = tenant_state(stores, b)
        assert now != state, f"the digest missed: {what}"
        state = now
