import re

import pytest

from kmrag.schema import entity_id, normalise_content, relation_id, unit_id
from kmrag.schema.ids import UNIT_ID_RE, content_hash

pytestmark = pytest.mark.unit


def test_same_content_same_id_regardless_of_order_or_time():
    paras = ["Alpha is first.", "Beta comes second.", "Gamma is third."]
    forward = [unit_id("t1", "doc.md", p) for p in paras]
    backward = [unit_id("t1", "doc.md", p) for p in reversed(paras)]
    assert forward == list(reversed(backward))
    assert unit_id("t1", "doc.md", "Alpha is first.") == forward[0]  # again, later: same


def test_whitespace_and_unicode_form_do_not_change_the_id():
    assert unit_id("t", "s", "Caf\u00e9  au\n lait ") == unit_id("t", "s", "Cafe\u0301 au lait")
    assert normalise_content("  a \t b\n") == "a b"


def test_changed_content_gives_new_id():
    assert unit_id("t", "s", "The fee is 10 EUR.") != unit_id("t", "s", "The fee is 12 EUR.")


def test_identical_paragraphs_in_one_source_get_distinct_ids():
    a = unit_id("t", "s", "See above.", occurrence=0)
    b = unit_id("t", "s", "See above.", occurrence=1)
    assert a != b


def test_tenants_and_sources_never_share_ids():
    assert unit_id("t1", "s", "x") != unit_id("t2", "s", "x")
    assert unit_id("t", "s1", "x") != unit_id("t", "s2", "x")
    assert entity_id("t1", "Paris", "GPE") != entity_id("t2", "Paris", "GPE")


def test_ids_are_short_and_citeable():
    uid = unit_id("tenant", "source", "content")
    assert UNIT_ID_RE.match(uid)
    assert len(f"[{uid}]") == 20
    assert re.fullmatch(r"e_[0-9a-f]{16}", entity_id("t", "Paris", "GPE"))
    assert re.fullmatch(r"r_[0-9a-f]{16}", relation_id("t", "e_1", "CAPITAL_OF", "e_2"))


def test_entity_id_case_insensitive_name_but_type_sensitive():
    assert entity_id("t", "Paris", "gpe") == entity_id("t", " paris ", "GPE")
    assert entity_id("t", "Paris", "GPE") != entity_id("t", "Paris", "PERSON")


def test_negative_occurrence_rejected():
    with pytest.raises(ValueError):
        unit_id("t", "s", "x", occurrence=-1)


def test_content_hash_is_full_sha256():
    assert content_hash("abc") == content_hash(b"abc")
    assert len(content_hash("abc")) == 64
