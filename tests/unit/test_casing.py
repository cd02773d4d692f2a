"""A question typed in lower case gets its names' capitals back from the tenant's entities (the embedded graph
store, the same protocol as Neo4j's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kmrag.answer.casing import restore_case
from kmrag.graph.local_store import LocalGraphStore
from kmrag.nlp.rephrase import rephrase
from kmrag.schema import Entity, entity_id

pytestmark = pytest.mark.unit


@pytest.fixture()
def store(tmp_path: Path) -> LocalGraphStore:
    s = LocalGraphStore(tmp_path / "graph")
    for name, kind, aliases in [("Foo Fighters", "ORG", []), ("Gold Harbour", "WORK", ["Gold Harbour (film)"]),
                                ("Band", "ORG", []), ("The Band", "ORG", []), ("Edmund Varga", "PERSON", [])]:
        s.write_entities([Entity(id=entity_id("t", name, kind), tenant="t", name=name, type=kind, aliases=aliases)])
    return s


def test_lower_case_names_take_the_tenants_casing_and_the_question_is_then_read_as_usual(store: LocalGraphStore) -> None:
    q = restore_case(store, "t", "foo fighters or gold harbour (film), which band came first")
    assert q == "Foo Fighters or Gold Harbour (film), which band came first"
    assert rephrase(q) == "Which band came first, Foo Fighters or Gold Harbour (film)?"
    assert restore_case(store, "t", "where was edmund varga born?") == "Where was Edmund Varga born?"


def test_a_question_with_capitals_another_tenant_or_no_known_name_is_left_as_typed(store: LocalGraphStore) -> None:
    assert restore_case(store, "t", "Where was edmund varga born?") == "Where was edmund varga born?"
    assert restore_case(store, "other", "where was edmund varga born?") == "where was edmund varga born?"
    assert restore_case(store, "t", "where is the harbour?") == "where is the harbour?"
    # "the band" is a word with its article, whatever a group is called
    assert restore_case(store, "t", "who founded the band that edmund varga led?") == \
        "Who founded the band that Edmund Varga led?"


def test_a_units_title_gives_its_casing_where_no_entity_is_so_named(store: LocalGraphStore) -> None:
    titles = {"passions (1994 film)": "Passions (1994 Film)", "fesha-e sofla": "Fesha-e Sofla"}
    asked: list[list[str]] = []

    def look_up(runs: list[str]) -> dict[str, str]:
        asked.append(runs)
        return {k: v for k, v in titles.items() if k in runs}

    q = restore_case(store, "t", "is fesha-e sofla older than passions (1994 film)", titles=look_up)
    assert q == "Is Fesha-e Sofla older than Passions (1994 Film)"
    assert asked and "passions (1994 film)" in asked[0]
    # an entity's name is the tenant's first word on it; a store that cannot be asked leaves the rest as typed
    assert restore_case(store, "t", "where was edmund varga born?", titles=lambda runs: 1 / 0) == \
        "Where was Edmund Varga born?"  # type: ignore[arg-type,return-value]


def test_a_run_of_two_known_names_is_split_for_a_terse_comparison(store: LocalGraphStore) -> None:
    from kmrag.answer.casing import split_pair

    titles = {"bille august": "Bille August"}

    def look_up(runs: list[str]) -> dict[str, str]:
        return {k: v for k, v in titles.items() if k in runs}

    q = split_pair(store, "t", "Search: Edmund Varga Bille August same nationality", titles=look_up)
    assert q == "Edmund Varga and Bille August: same nationality?"
    assert rephrase(q) == "Are Edmund Varga and Bille August from the same nationality?"
    # a name the tenant does not know, or one run that splits two ways, is left as typed
    assert split_pair(store, "t", "Edmund Varga Ana Lind same country", titles=look_up) == \
        "Edmund Varga Ana Lind same country"
    titles["edmund varga bille"] = "Edmund Varga Bille"
    titles["august"] = "August"
    assert split_pair(store, "t", "Edmund Varga Bille August same country", titles=look_up) == \
        "Edmund Varga Bille August same country"
