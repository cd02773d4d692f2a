"""Full text over code: an identifier the question names (``top_k``) finds the units that set it, whichever way
they write it (``top_k``, ``topK``), though PostgreSQL's parser splits ``top_k`` into the common "top" and "k";
the stored text stays as written and the BM25 statistics stay equal to a fresh count."""

from __future__ import annotations

import pytest

from kmrag.schema import Source
from kmrag.units.store import PgUnitStore
from tests.integration.test_bm25_stats import assert_kept, make

pytestmark = pytest.mark.integration

TEXTS = [
    'if (!args.ContainsName("top_k")) args["top_k"] = 4;',
    "var topK = TryGetInt(args, 4);",
    "The top story of the week: k-pop tops the charts, the top k entries win.",  # "top" and "k", no identifier
    "Take the top 5 results; k is the number kept.",
    "def retrieve(query, index, limit: int = 5): ...",
]


def test_an_identifier_finds_the_code_that_names_it(unit_store: PgUnitStore, tenant: str) -> None:
    unit_store.write_source(Source(id="code.md", tenant=tenant, uri="file:///code.md", version="v1", content_hash="h"))
    units = make(tenant, TEXTS, sid="code.md", title="Retry example")
    unit_store.write_units(units)
    assert_kept(unit_store, tenant)
    stored = {u.id: u.content for u in unit_store.get_units(tenant, [u.id for u in units])}
    assert stored == {u.id: u.content for u in units}
    found = [h.id for h in unit_store.fulltext_search(tenant, "what top_k does the retry example start with", 10)]
    assert found[0] == units[0].id and units[1].id in found  # both spellings ("topK" shares no other word)
    camel = [h.id for h in unit_store.fulltext_search(tenant, "the default topK", 10)]
    assert set(camel[:2]) == {units[0].id, units[1].id}  # asked the other way, the same two
    unit_store.write_units(units)  # written again: the statistics do not move
    assert_kept(unit_store, tenant)
