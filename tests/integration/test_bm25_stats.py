"""BM25 statistics kept at write time: equal to a fresh count after any sequence of writes, and the
bounded search ranks as BM25 computed from the whole tenant does."""

from __future__ import annotations

import pytest

from kmrag.errors import StoreError
from kmrag.schema import KnowledgeUnit, Source, unit_id
from kmrag.units import search
from kmrag.units.store import PgUnitStore

pytestmark = pytest.mark.integration


def make(tenant: str, texts: list[str], sid: str = "a.md", title: str = "Title") -> list[KnowledgeUnit]:
    return [KnowledgeUnit(id=unit_id(tenant, sid, t), tenant=tenant, source_id=sid, source_version="v1",
                          type="paragraph", title=title, section_path=[], ordinal=i, content=t)
            for i, t in enumerate(texts)]


def assert_kept(store: PgUnitStore, tenant: str) -> dict:
    kept = store.bm25_stats(tenant)
    assert kept == store.bm25_stats(tenant, recount=True)
    return kept


def test_stats_equal_a_fresh_count_after_every_kind_of_write(unit_store: PgUnitStore, tenant: str) -> None:
    a = make(tenant, ["Marie Curie was born in Warsaw.", "Warsaw is the capital of Poland.",
                      "Warsaw, Warsaw and Warsaw again: the all-star city."])
    b = make(tenant, ["The Eiffel Tower stands in Paris.", "Paris is the capital of France."], sid="b.md")
    for sid in ("a.md", "b.md"):
        unit_store.write_source(Source(id=sid, tenant=tenant, uri=f"file:///{sid}", version="v1", content_hash="h"))
    unit_store.write_units(a + b)
    kept = assert_kept(unit_store, tenant)
    assert kept["n"] == 5 and kept["df"]["warsaw"] == 3 and kept["df"]["capit"] == 2
    assert len(kept["postings"]) == sum(kept["df"].values())

    unit_store.write_units(a)  # the same units again: nothing moves
    assert assert_kept(unit_store, tenant) == kept
    retitled = [u.model_copy(update={"title": "Polish cities"}) for u in a[:1]]
    unit_store.write_units(retitled)  # same id, new title: the unit's old terms leave, the new ones enter
    assert assert_kept(unit_store, tenant)["df"]["polish"] == 1

    unit_store.retire(tenant, [a[0].id, a[0].id, "u_unknown"])
    assert assert_kept(unit_store, tenant)["n"] == 4
    unit_store.retire(tenant, [a[0].id])  # retiring again changes nothing
    assert assert_kept(unit_store, tenant)["n"] == 4
    unit_store.write_units(a[:1])  # back to life
    assert assert_kept(unit_store, tenant)["n"] == 5

    unit_store.retire_source(tenant, "b.md")
    kept = assert_kept(unit_store, tenant)
    assert kept["n"] == 3 and "pari" not in kept["df"]  # a lexeme no unit holds is forgotten
    unit_store.write_units(b)
    unit_store.delete_source(tenant, "a.md")
    kept = assert_kept(unit_store, tenant)
    assert kept["n"] == 2 and "warsaw" not in kept["df"] and kept["df"]["pari"] == 2
    assert unit_store.fulltext_search(tenant, "Warsaw", k=5) == []

    unit_store.clear_tenant(tenant)
    assert unit_store.bm25_stats(tenant) == {"n": 0, "total_len": 0, "df": {}, "postings": []}


def test_a_failed_write_leaves_the_stats_as_they_were(unit_store: PgUnitStore, tenant: str) -> None:
    good = make(tenant, ["Warsaw is the capital of Poland."])
    unit_store.write_units(good)
    before = assert_kept(unit_store, tenant)
    retitled = good[0].model_copy(update={"title": "Polish cities"})  # its old terms leave first...
    bad = make(tenant, ["Kraków was the capital\x00 before Warsaw."])[0]  # ...then PostgreSQL refuses a NUL
    with pytest.raises(StoreError):
        unit_store.write_units([retitled, bad])
    assert assert_kept(unit_store, tenant) == before


def test_init_counts_tenants_written_before_stats_were_kept(unit_store: PgUnitStore, tenant: str) -> None:
    unit_store.write_units(make(tenant, ["Warsaw is the capital of Poland.", "Paris is the capital of France."]))
    kept = unit_store.bm25_stats(tenant)
    with unit_store._conn() as conn:  # as a database from before: units, no statistics
        from kmrag.units import bm25

        bm25.clear(conn, tenant)
    assert unit_store.bm25_stats(tenant)["n"] == 0
    unit_store.init_schema()
    assert assert_kept(unit_store, tenant) == kept


def test_bounded_search_ranks_as_the_whole_tenant_does(unit_store: PgUnitStore, tenant: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # one common term in every unit, rarer terms in some; shorter units and repeated terms weigh more
    texts = [f"river {'delta ' * (i % 3)}{'harbour' if i % 4 == 0 else 'valley'} number{i} "
             + "filler words " * (i % 5) for i in range(60)]
    unit_store.write_units(make(tenant, texts))
    unit_store.retire(tenant, [unit_id(tenant, "a.md", texts[0])])
    for q in ("river delta harbour", "river", "valley number7", "delta"):
        for k in (1, 5, 10):
            want = unit_store.fulltext_search_exhaustive(tenant, q, k)
            got = unit_store.fulltext_search(tenant, q, k)
            assert [h.id for h in got] == [h.id for h in want], (q, k)
            assert [h.score for h in got] == [h.score for h in want]
    # read only the top 2 postings per term and rescore 4: still the exact scores of what it returns, and
    # the units where a term weighs most are found
    monkeypatch.setattr(search, "BM25_DEPTH", 2)
    monkeypatch.setattr(search, "BM25_RESCORE", 4)
    got = unit_store.fulltext_search(tenant, "river delta harbour", 1)
    want = unit_store.fulltext_search_exhaustive(tenant, "river delta harbour", 1)
    assert [h.id for h in got] == [h.id for h in want]
    exact = {h.id: h.score for h in unit_store.fulltext_search_exhaustive(tenant, "river delta harbour", 60)}
    assert all(exact[h.id] == h.score for h in
               unit_store.fulltext_search(tenant, "river delta harbour", 3))
    assert unit_id(tenant, "a.md", texts[0]) not in exact


def test_replicated_tenant_has_its_own_stats(unit_store: PgUnitStore, tenant: str) -> None:
    unit_store.write_units(make(tenant, ["Warsaw is the capital of Poland.", "Paris is the capital of France."]))
    copy = tenant + "-x"
    try:
        assert unit_store.replicate_units([tenant], copy, 5) == 5
        kept = assert_kept(unit_store, copy)
        assert kept["n"] == 5 and kept["df"]["capit"] == 5
        assert len(unit_store.unit_ids(copy)) == 5 and len(unit_store.source_ids_with_units(copy)) == 3
        assert assert_kept(unit_store, tenant)["n"] == 2  # the source tenant is untouched
    finally:
        unit_store.clear_tenant(copy)
