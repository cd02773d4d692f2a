"""The multihop strategy follows a bridge entity from the first round's units to the unit about it,
on both graph backends, with every controller step in the trace."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.ingestion.pipeline import IngestionJob
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.rerank import DEPTH, MAX_QUERIES
from kmrag.retrieval.strategies import build_strategy
from kmrag.stores import Stores
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

PASSAGES = [
    ("The Silent Harbour", "The Silent Harbour is a 1961 drama film directed by Edmund Varga. It was shot in Gdansk."),
    ("Edmund Varga", "Edmund Varga was a Hungarian film director. He was born in Szeged and died in Vienna in 1990."),
    ("Szeged", "Szeged is the third largest city of Hungary, on the river Tisza."),
    ("Night Train to Lisbon", "Night Train to Lisbon is a 2013 film directed by Bille August."),
    ("Bille August", "Bille August is a Danish director. He was born in Brede."),
    ("Gdansk", "Gdansk is a port city on the Baltic coast of Poland."),
    ("Vienna", "Vienna is the capital of Austria, on the river Danube."),
    ("Harbour cinema", "Harbour films were a genre of silent drama popular in port towns."),
    ("Mercury (planet)", "Mercury is the smallest planet of the Solar System."),
    ("Mercury_100% (band)", "A band whose name has the characters LIKE treats as wildcards."),
    # a two-hop question whose second unit shares no word with the question
    ("Quiet Meridian", "Quiet Meridian is a 1974 novel written by Ilse Marwood."),
    ("Ilse Marwood", "Marwood spent her childhood in Tallinn, beside the harbour of Kalamaja."),
    ("The Copper Gate", "The Copper Gate is a 1958 novel written by Oskar Lindqvist."),
    ("Raised by wolves", "Children raised by wolves appear in many writers' stories from every era."),
    ("Amber Coast", "Amber Coast is a 1966 drama film directed by Tomas Reiner."),
    ("Tomas Reiner", "Tomas Reiner was a Czech film director, born in Brno in 1921."),
]


def passage_stores(backend: str, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path,
                   passages: list[tuple[str, str]]) -> Iterator[Stores]:
    """Stores on ``backend`` holding ``passages`` (title, text) as one JSONL file, cleared afterwards."""
    s = make_stores(backend, neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    f = tmp_path / "passages.jsonl"
    f.write_text("".join(json.dumps({"title": t, "text": x}) + "\n" for t, x in passages))
    job = IngestionJob(s, get_embedder(s.settings), SpacyExtractor(), tenant, progress=False).run([f])
    assert job.job.status == "completed"
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


@pytest.fixture(params=["neo4j", "embedded"])
def stores(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    yield from passage_stores(request.param, neo4j_driver, pg_pool, tenant, tmp_path, PASSAGES)


def titles(stores: Stores, tenant: str, ids: list[str]) -> list[str]:
    return [u.title for u in stores.units.get_units(tenant, ids)]


def test_multihop_follows_the_bridge_entity(stores: Stores, tenant: str) -> None:
    question = "Where was the director of The Silent Harbour born?"
    emb = get_embedder(stores.settings)
    mh = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph)
    got = mh.retrieve(tenant, question, k=3)
    assert titles(stores, tenant, got.unit_ids[:2]) == ["The Silent Harbour", "Edmund Varga"]
    assert got.rounds >= 2
    steps = [(s["step"], s.get("decision", "")) for s in got.trace]
    assert steps[0][0] == "analyse" and steps[-1][0] == "done"
    judged = [s for s in got.trace if s["step"] == "judge"]
    assert judged[0]["decision"].startswith("refine")
    refined = next(s for s in got.trace if s["step"] == "retrieve" and s["round"] == 2)
    followed = [a.get("resolved") for a in refined["actions"]] + [b for a in refined["actions"] for b in a.get("bridges", [])]
    assert "Edmund Varga" in followed
    assert judged[-1]["decision"].startswith(("sufficient", "stop"))
    again = mh.retrieve(tenant, question, k=3)
    assert again.unit_ids == got.unit_ids and again.scores == got.scores  # reproducible


def test_multihop_keeps_the_first_round_and_caps_rounds(stores: Stores, tenant: str) -> None:
    from kmrag.retrieval.multihop import MultiHopRetriever

    emb = get_embedder(stores.settings)
    one = MultiHopRetriever(stores.units, emb, stores.graph, exact=True, max_rounds=1)
    got = one.retrieve(tenant, "Which city lies on the river Tisza?", k=3)
    assert got.rounds == 1 and titles(stores, tenant, got.unit_ids[:1]) == ["Szeged"]
    assert [s["decision"] for s in got.trace if s["step"] == "judge"][-1] == "stop: round cap reached"
    dense = build_strategy("dense", stores.units, emb, exact=True, graph=stores.graph)
    first = dense.retrieve(tenant, "Which city lies on the river Tisza?", k=3)
    assert first.unit_ids[0] == got.unit_ids[0]


def test_units_about_a_name_include_titles_with_a_qualifier(stores: Stores, tenant: str) -> None:
    got = stores.units.titled(tenant, ["Mercury", "Edmund Varga", "Mercury_100%", "Merc%"])
    assert [titles(stores, tenant, [u for u, _ in got[k]]) for k in ("mercury", "edmund varga", "mercury_100%")] == \
        [["Mercury (planet)"], ["Edmund Varga"], ["Mercury_100% (band)"]]
    assert "merc%" not in got  # LIKE wildcards in a name are literal characters


def test_a_lower_case_title_is_found_as_the_tenant_writes_it(stores: Stores, tenant: str) -> None:
    got = stores.units.title_forms(tenant, ["mercury (planet)", "EDMUND VARGA", "mercury", "merc%", ""])
    assert got == {"mercury (planet)": "Mercury (planet)", "edmund varga": "Edmund Varga"}
    assert stores.units.title_forms("another-tenant", ["edmund varga"]) == {}


def test_two_hops_to_a_unit_sharing_no_word_with_the_question(stores: Stores, tenant: str) -> None:
    question = "Where was the writer of Quiet Meridian raised?"
    emb = get_embedder(stores.settings)
    answer = next(u for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))
                  if u.title == "Ilse Marwood")
    words = {w.strip(".,?").lower() for w in question.split()}
    assert not words & {w.strip(".,").lower() for w in answer.content.split()} - {"the", "of", "in", "was"}
    bm25 = build_strategy("bm25", stores.units, emb, exact=True, graph=stores.graph).retrieve(tenant, question, 10)
    assert answer.id not in bm25.unit_ids  # no lexical route to it
    got = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph).retrieve(tenant, question, 3)
    assert titles(stores, tenant, got.unit_ids[:2]) == ["Quiet Meridian", "Ilse Marwood"]
    analyse = got.trace[0]
    assert analyse["kind"] == "bridge" and analyse["answer_type"] == "PLACE"


def test_comparison_retrieves_each_compared_entity_unit(stores: Stores, tenant: str) -> None:
    emb = get_embedder(stores.settings)
    mh = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph)
    got = mh.retrieve(tenant, "Which novel was published first, Quiet Meridian or The Copper Gate?", k=3)
    assert set(titles(stores, tenant, got.unit_ids[:2])) == {"Quiet Meridian", "The Copper Gate"}
    assert got.trace[0]["kind"] == "comparison"
    assert got.trace[0]["compared"] == ["Quiet Meridian", "The Copper Gate"]


def test_each_side_of_a_comparison_keeps_its_bridge_in_the_top_k(stores: Stores, tenant: str) -> None:
    # the directors' units are what "born first" is read from: both are among the four units, beside the films
    emb = get_embedder(stores.settings)
    mh = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph)
    got = mh.retrieve(tenant, "Which film has the director who was born first, The Silent Harbour or Amber Coast?", k=4)
    assert set(titles(stores, tenant, got.unit_ids)) == {"The Silent Harbour", "Amber Coast", "Edmund Varga",
                                                         "Tomas Reiner"}


def test_the_loop_stops_at_its_cap_and_never_repeats_a_query(stores: Stores, tenant: str) -> None:
    from kmrag.retrieval.multihop import MultiHopRetriever

    emb = get_embedder(stores.settings)
    question = "Where was the director of The Silent Harbour born?"
    two = MultiHopRetriever(stores.units, emb, stores.graph, exact=True, max_rounds=2)
    got = two.retrieve(tenant, question, k=3)
    assert got.rounds == 2
    judged = [s["decision"] for s in got.trace if s["step"] == "judge"]
    assert judged[-1] == "stop: round cap reached"
    queries = [s["query"] for s in got.trace if s.get("query")]
    queries += [a["query"] for s in got.trace for a in s.get("actions", []) if a.get("query")]
    assert len(queries) == len(set(queries))


def test_nothing_found(stores: Stores, tenant: str) -> None:
    emb = get_embedder(stores.settings)
    mh = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph)
    got = mh.retrieve(tenant, "What is the boiling point of liquid nitrogen in kelvin?", k=5)
    assert got.unit_ids == [] and got.scores == []
    decisions = [s.get("decision", "") for s in got.trace if s["step"] == "judge"]
    assert decisions[0].startswith("widen") and decisions[-1].startswith("nothing found")
    widened = [s for s in got.trace if s["step"] == "retrieve"]
    assert widened[-1]["query"] != widened[0]["query"]  # the broader query is a different one


def test_entity_names_are_embedded_and_follow_the_graph(stores: Stores, tenant: str) -> None:
    from kmrag.ingestion.entity_names import sync_entity_names
    from kmrag.nlp.names import resolution_key
    from kmrag.retrieval.graph_retriever import EntityLinker

    emb = get_embedder(stores.settings)
    keys = stores.units.entity_name_keys(tenant)
    live = {resolution_key(f) for e in stores.graph.all_entities(tenant) for f in (e.name, *e.aliases)}
    assert keys == live and "edmund varga" in keys
    linker = EntityLinker(stores.graph, SpacyExtractor(), names=stores.units, embedder=emb)
    ids, trace = linker.link(tenant, "Where did Edmund Vargha die?")  # misspelt: no exact name
    vargas = stores.graph.find_entities(tenant, ["Edmund Varga"])
    assert sorted(ids) == sorted(e.id for e in vargas)  # the name, under each type it was seen with
    assert {x["method"] for x in trace if x.get("id")} <= {"fuzzy", "embedding"}
    # the source goes: its names go with it
    units = stores.graph.entity_units(tenant, [vargas[0].id])[vargas[0].id]
    sid = stores.units.get_units(tenant, [u for u in units if u])[0].source_id
    stores.units.retire_source(tenant, sid)
    stores.graph.delete_source(tenant, sid)
    stores.graph.flush()
    assert sync_entity_names(stores, None, tenant)["entity_names_removed"] > 0
    left = {resolution_key(f) for e in stores.graph.all_entities(tenant) for f in (e.name, *e.aliases)}
    assert stores.units.entity_name_keys(tenant) == left


def test_reranking_reads_the_candidates_again_with_every_question_asked(stores: Stores, tenant: str) -> None:
    """``multihop-rerank``: the same candidates, reordered by the cross-encoder against every question
    retrieval asked; the trace says so; the bridge unit stays in the top 5."""
    question = "Where was the director of The Silent Harbour born?"
    emb = get_embedder(stores.settings)
    plain = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph).retrieve(tenant, question, 30)
    rr = build_strategy("multihop-rerank", stores.units, emb, exact=True, graph=stores.graph)
    assert rr.name == "multihop-rerank"
    got = rr.retrieve(tenant, question, 5)
    assert got.queries[0] == question
    step = [s for s in got.trace if s["step"] == "rerank"][0]
    # the question and the next questions retrieval asked (a resolved or bridged one), at most MAX_QUERIES
    assert step["candidates"] == min(len(plain.unit_ids), DEPTH) and step["queries"] == min(len(got.queries), MAX_QUERIES)
    assert set(got.unit_ids) <= set(plain.unit_ids)
    assert "Edmund Varga" in titles(stores, tenant, got.unit_ids[:5])
    assert titles(stores, tenant, [step["best"][0]["unit_id"]]) in (["Edmund Varga"], ["The Silent Harbour"])


class _AgainstTheSides:
    """A reader that scores the compared films' units lowest of all (as one question about two things can read)."""

    name = "against-the-sides"

    def score_pairs(self, pairs: list[tuple[str, str]]) -> Any:
        import numpy as np

        return np.array([-10.0 if p.startswith(("The Silent Harbour", "Amber Coast")) else float(len(p) % 7)
                         for _, p in pairs])


class _Fixed:
    """A strategy that answers one retrieval already made (its pinned units cleared or kept)."""

    name = "fixed"

    def __init__(self, got: Any) -> None:
        self.got = got

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Any:
        return self.got


def test_reranking_keeps_a_comparisons_sides_at_the_head(stores: Stores, tenant: str) -> None:
    """Each compared entity's unit is pinned by multihop and stays first, in multihop's order, whatever the
    cross-encoder reads; unpinned, the same reader would push them down."""
    from kmrag.retrieval.rerank import RerankedRetriever

    question = "Which film came out first, The Silent Harbour or Amber Coast?"
    emb = get_embedder(stores.settings)
    plain = build_strategy("multihop", stores.units, emb, exact=True, graph=stores.graph).retrieve(tenant, question, 10)
    n = len(plain.pinned)
    films = [u for u in plain.unit_ids if titles(stores, tenant, [u])[0] in ("The Silent Harbour", "Amber Coast")]
    assert len(films) == 2 and set(films) <= set(plain.pinned)  # and the units of the bridges followed from them
    assert plain.unit_ids[:n] == plain.pinned and n < len(plain.unit_ids)
    got = RerankedRetriever(_Fixed(plain), stores.units, reranker=_AgainstTheSides()).retrieve(tenant, question, 10)
    assert got.unit_ids[:n] == plain.pinned and got.pinned == plain.pinned
    assert sorted(got.unit_ids) == sorted(plain.unit_ids)
    step = next(s for s in got.trace if s["step"] == "rerank")
    assert step["held"] == n and step["candidates"] == min(len(plain.unit_ids), DEPTH) - n
    loose = RerankedRetriever(_Fixed(plain.model_copy(update={"pinned": []})), stores.units,
                              reranker=_AgainstTheSides()).retrieve(tenant, question, 10)
    assert not set(films) <= set(loose.unit_ids[:n])
    real = build_strategy("multihop-rerank", stores.units, emb, exact=True, graph=stores.graph).retrieve(tenant, question, 5)
    assert real.unit_ids[:3] == plain.pinned[:3] and real.pinned == plain.pinned[:3]  # two of k left to the others


def test_an_unknown_strategy_or_reranker_is_refused_naming_the_choices(stores: Stores) -> None:
    from kmrag.errors import ConfigError

    emb = get_embedder(stores.settings)
    with pytest.raises(ConfigError, match="hybrid-rerank"):
        build_strategy("hybrid-rerankk", stores.units, emb, graph=stores.graph)
    with pytest.raises(ConfigError, match="cross-encoder"):
        build_strategy("hybrid", stores.units, emb, graph=stores.graph, rerank="colbert")


PLACES = [
    ("Oskar Lindqvist", "Oskar Lindqvist is a Canadian painter and writer from Kelby, Ontario."),
    ("Delta Harbour", "Delta Harbour is a 1990 album by a band from Paris."),
    ("Kelby, Ontario", "Kelby is a small town in Norfolk County in the south of the province."),
    ("Paris", "Paris is the capital and largest city of France."),
    ("Paris, Texas", "Paris is a city in the northeast of the state of Texas."),
    ("Delta, Ontario", "Delta is a village in Leeds and Grenville in the east of the province."),
    # units that say "county" more than the town's own: the first round does not find the town
    ("Grey County", "Grey County is a county of Ontario; the county seat is Owen Sound."),
    ("Bond County", "Bond County is a county in Illinois, and its county seat is Greenville."),
    ("County fair", "A county fair is a public show held every year in a county of Canada or the United States."),
]


@pytest.fixture(params=["neo4j", "embedded"])
def place_stores(request: Any, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    yield from passage_stores(request.param, neo4j_driver, pg_pool, tenant, tmp_path, PLACES)


def test_a_bridge_reaches_the_unit_of_a_town_titled_with_its_province(place_stores: Stores, tenant: str) -> None:
    emb = get_embedder(place_stores.settings)
    got = build_strategy("multihop", place_stores.units, emb, exact=True, graph=place_stores.graph).retrieve(
        tenant, "What county is Oskar Lindqvist from?", 5)
    assert titles(place_stores, tenant, got.unit_ids[:2]) == ["Oskar Lindqvist", "Kelby, Ontario"]
    assert [a["bridges"] for s in got.trace if s["step"] == "retrieve" for a in s.get("actions", [])
            if "bridges" in a] == [["Kelby"]]  # reached as a bridge, not by the question's words


def test_a_name_is_followed_to_a_qualified_title_only_as_the_text_writes_it(place_stores: Stores,
                                                                             tenant: str) -> None:
    from kmrag.retrieval.multihop import MultiHopRetriever
    mh = MultiHopRetriever(place_stores.units, get_embedder(place_stores.settings), place_stores.graph, exact=True)
    got = mh._titled_each(tenant, ["Kelby", "Delta", "Paris"], ["He lives in Kelby, Ontario.", "the Delta Harbour"])
    named = {k: titles(place_stores, tenant, [u for u, _ in v]) for k, v in got.items()}
    assert named == {"Kelby": ["Kelby, Ontario"], "Delta": [], "Paris": ["Paris"]}
    got = mh._titled_each(tenant, ["Paris"], ["a band from Paris, Texas, who"])
    assert titles(place_stores, tenant, [u for u, _ in got["Paris"]]) == ["Paris, Texas", "Paris"]
