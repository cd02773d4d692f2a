"""Full text over Chinese: the words of a text without spaces are found (jieba segments the search keys),
the stored text stays exactly as written, and the BM25 statistics stay equal to a fresh count."""

from __future__ import annotations

import pytest

from kmrag.schema import Source
from kmrag.units.store import PgUnitStore
from tests.integration.test_bm25_stats import assert_kept, make

pytestmark = pytest.mark.integration

TEXTS = [
    "传统RAG是“一问一查一答”：单跳检索无法回答需要多步推理的问题。",
    "多跳检索把复杂问题分解为子问题，每一步检索的结果决定下一步的查询。",
    "知识图谱增强的检索器沿着实体之间的关系进行迭代检索。",
    "Marie Curie was born in Warsaw.",
]


def test_chinese_words_are_found_and_the_text_is_stored_as_written(unit_store: PgUnitStore, tenant: str) -> None:
    unit_store.write_source(Source(id="zh.md", tenant=tenant, uri="file:///zh.md", version="v1", content_hash="h"))
    units = make(tenant, TEXTS, sid="zh.md", title="一、多跳检索")
    unit_store.write_units(units)
    assert_kept(unit_store, tenant)
    stored = {u.id: u.content for u in unit_store.get_units(tenant, [u.id for u in units])}
    assert stored == {u.id: u.content for u in units}  # ⟨“”：⟩ and all: as written
    for word in ["检索", "子问题", "知识图谱", "迭代"]:
        holding = {u.id for u in units if word in u.content}
        found = [h.id for h in unit_store.fulltext_search(tenant, word, 10)]
        assert holding <= set(found), word  # every unit holding the word is found
        assert found[0] in holding, word  # and one holding it ranks first
    found = {h.id for h in unit_store.fulltext_search(tenant, "Warsaw", 10)}
    assert found == {units[3].id}  # English as before
    unit_store.write_units(units)  # written again: the statistics do not move
    assert_kept(unit_store, tenant)
