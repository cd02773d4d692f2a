"""Answers read off relation paths (kmrag.answer.paths) on the embedded graph store: which hops a question's
words choose, the end's kind, ties, and the sentence each hop cites. Sentences of our own wording."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kmrag.answer import paths
from kmrag.answer.paths import PathReader, type_fit
from kmrag.answer.spans import Span
from kmrag.graph.local_store import LocalGraphStore
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser
from kmrag.schema import Entity, Relation, entity_id, relation_id, relationship_type

pytestmark = pytest.mark.unit
T = "t"


@pytest.fixture(scope="module")
def nlp_parts() -> tuple[Any, QuestionAnalyser]:
    ex = SpacyExtractor()
    return ex.nlp, QuestionAnalyser(ex)


class World:
    def __init__(self, root: Path) -> None:
        self.store = LocalGraphStore(root)
        self.ids: dict[str, str] = {}

    def ent(self, name: str, label: str) -> str:
        eid = entity_id(T, name, label)
        self.store.write_entities([Entity(id=eid, tenant=T, name=name, type=label)])
        self.ids[name] = eid
        return eid

    def rel(self, s: str, predicate: str, o: str, unit: str) -> None:
        rtype = relationship_type(predicate)
        a, b = self.ids[s], self.ids[o]
        self.store.write_relations([Relation(id=relation_id(T, a, rtype, b), tenant=T, subject_id=a, object_id=b,
                                             predicate=predicate, type=rtype, confidence=0.9, unit_ids=[unit],
                                             sentences=[f"{s} {predicate} {o}."])])


@pytest.fixture
def world(tmp_path: Path) -> World:
    w = World(tmp_path / "graph")
    for name, label in [("Harbour Bridge Station", "FAC"), ("Lowland", "GPE"), ("Eastport", "GPE"),
                        ("Kestrel Air", "ORG"), ("Norhaven", "GPE"), ("Greta Vale", "PERSON"),
                        ("Oskar Vale", "PERSON"), ("Brightwater", "GPE"), ("1961", "DATE"), ("Republic", "GPE")]:
        w.ent(name, label)
    w.rel("Harbour Bridge Station", "located in", "Lowland", "u_a")
    w.rel("Eastport", "capital of", "Lowland", "u_a")
    w.rel("Lowland", "province of", "Republic", "u_b")
    w.rel("Kestrel Air", "founded in", "1961", "u_c")
    w.rel("Kestrel Air", "operate flight from", "Norhaven", "u_d")
    w.rel("Greta Vale", "daughter of", "Oskar Vale", "u_e")
    w.rel("Oskar Vale", "died in", "Brightwater", "u_f")
    w.store.flush()
    return w


def _read(world: World, parts: tuple[Any, QuestionAnalyser], question: str, *seeds: str) -> list[paths.PathAnswer]:
    nlp, analyser = parts
    found, _ = PathReader(world.store, nlp).read(T, question, analyser.analyse(question),
                                                 [world.ids[s] for s in seeds])
    return found


def test_two_hops_each_saying_a_word_of_the_question(world: World, nlp_parts: Any) -> None:
    found = _read(world, nlp_parts, "What is the capital of the province where Harbour Bridge Station is located?",
                  "Harbour Bridge Station")
    top, why = paths.best(found)
    assert top is not None and top.answer == "Eastport", why
    assert [h.predicate for h in top.hops] == ["located in", "capital of"] and top.said == [("locate",), ("capital",)]


def test_a_literal_end_for_when_and_the_kind_asked_for(world: World, nlp_parts: Any) -> None:
    top, _ = paths.best(_read(world, nlp_parts, "When was the airline that flies from Norhaven founded?", "Norhaven"))
    assert top is not None and top.answer == "1961" and len(top.hops) == 2
    # a date is not where something is: no path answers "where" with 1961
    assert all(f.answer != "1961" for f in _read(world, nlp_parts, "Where was Kestrel Air founded?", "Kestrel Air"))


def test_a_family_relation_read_through_its_converse(world: World, nlp_parts: Any) -> None:
    top, _ = paths.best(_read(world, nlp_parts, "Where did Greta Vale's father die?", "Greta Vale"))
    assert top is not None and top.answer == "Brightwater"
    assert [h.predicate for h in top.hops] == ["daughter of", "died in"]


def test_a_relational_noun_of_the_question_must_be_said_by_some_hop(world: World, nlp_parts: Any) -> None:
    world.ent("4 May 1990", "DATE")
    world.rel("Greta Vale", "born on", "4 May 1990", "u_h")
    world.store.flush()
    # her own birth date says "birth", not "father": no answer to her father's
    assert _read(world, nlp_parts, "What is the date of birth of Greta Vale's father?", "Greta Vale") == []
    top, _ = paths.best(_read(world, nlp_parts, "What is the date of birth of Greta Vale?", "Greta Vale"))
    assert top is not None and top.answer == "4 May 1990"


def test_a_date_s_hop_must_say_the_verb_the_question_asks_by(world: World, nlp_parts: Any) -> None:
    """"When did the founder of Kestrel Air die?" is not answered by "Kestrel Air founded in 1961": the hop says
    "founder", and nothing of a death."""
    assert _read(world, nlp_parts, "When did the founder of Kestrel Air die?", "Kestrel Air") == []
    world.ent("Ivo Marsh", "PERSON")
    world.ent("1988", "DATE")
    world.rel("Kestrel Air", "founded by", "Ivo Marsh", "u_m")
    world.rel("Ivo Marsh", "died in", "1988", "u_m")
    world.store.flush()
    top, _ = paths.best(_read(world, nlp_parts, "When did the founder of Kestrel Air die?", "Kestrel Air"))
    assert top is not None and top.answer == "1988" and [h.predicate for h in top.hops] == ["founded by", "died in"]


def test_a_word_made_from_a_word_of_the_same_relation_group(world: World, nlp_parts: Any) -> None:
    world.rel("Oskar Vale", "nationality", "Republic", "u_n")  # "nationality" is made from "nation" ~ "country"
    world.store.flush()
    top, _ = paths.best(_read(world, nlp_parts, "Which country is Oskar Vale from?", "Oskar Vale"))
    assert top is not None and top.answer == "Republic" and top.said == [("country",)]


def test_a_hop_saying_only_the_kind_asked_for_does_not_answer_a_question_asking_more(world: World,
                                                                                     nlp_parts: Any) -> None:
    world.ent("Japan", "GPE")
    world.rel("Kestrel Air", "country of origin", "Japan", "u_k")
    world.store.flush()
    # "country of origin" says "country" and nothing of the stores the question asks about
    assert _read(world, nlp_parts, "In what country does Kestrel Air have stores?", "Kestrel Air") == []
    top, _ = paths.best(_read(world, nlp_parts, "What country is Kestrel Air?", "Kestrel Air"))
    assert top is not None and top.answer == "Japan"
    # a kind a name frames is a relation asked: "what Norhaven airport" is the airport in Norhaven
    world.ent("Norhaven Field", "FAC")
    world.rel("Norhaven Field", "airport in", "Norhaven", "u_l")
    world.store.flush()
    top, _ = paths.best(_read(world, nlp_parts, "Oskar Vale was killed at what Norhaven airport?", "Norhaven"))
    assert top is not None and top.answer == "Norhaven Field"


def test_no_path_when_no_hop_says_the_question(world: World, nlp_parts: Any) -> None:
    assert _read(world, nlp_parts, "Who painted the ceiling of Harbour Bridge Station?", "Harbour Bridge Station") == []
    assert paths.best([]) == (None, "no path from the question's entities says its relations")


def test_different_answers_tied_at_the_top_are_no_answer(world: World, nlp_parts: Any) -> None:
    top, _ = paths.best(_read(world, nlp_parts, "Where did Oskar Vale die?", "Oskar Vale"))
    assert top is not None and top.answer == "Brightwater"
    world.rel("Oskar Vale", "died in", "Eastport", "u_g")  # the graph now says two places
    world.store.flush()
    top, why = paths.best(_read(world, nlp_parts, "Where did Oskar Vale die?", "Oskar Vale"))
    assert top is None and why == "paths tie between 'Brightwater' and 'Eastport'"


def test_each_hop_cites_a_sentence_naming_both_its_ends(world: World, nlp_parts: Any) -> None:
    found = _read(world, nlp_parts, "Where did Greta Vale's father die?", "Greta Vale")
    top = found[0]
    spans = [Span("u_e", "s", 0, 40, "Greta Vale is the daughter of Oskar Vale.", "sentence",
                  "Greta Vale is the daughter of Oskar Vale.", 0),
             Span("u_f", "s", 0, 30, "Oskar Vale died in Brightwater.", "sentence", "Oskar Vale died in Brightwater.", 1),
             Span("u_f", "s", 31, 60, "Brightwater is a port.", "sentence", "Brightwater is a port.", 1)]
    assert paths.cite(top, spans)
    assert [s.unit_id for s in top.spans] == ["u_e", "u_f"] and top.spans[1].quote == "Oskar Vale died in Brightwater."
    assert paths.text(top) == "Greta Vale is the daughter of Oskar Vale. [u_e] Oskar Vale died in Brightwater. [u_f]"
    # a hop whose unit has no sentence naming both ends cannot be cited: no path answer
    assert not paths.cite(top, spans[:1] + spans[2:])


def test_a_hop_sentence_may_name_an_end_by_its_alias(world: World, nlp_parts: Any) -> None:
    top = _read(world, nlp_parts, "Where did Greta Vale's father die?", "Greta Vale")[0]
    spans = [Span("u_e", "s", 0, 40, "Greta Vale is the daughter of O. Vale.", "sentence",
                  "Greta Vale is the daughter of O. Vale.", 0),
             Span("u_f", "s", 0, 30, "Oskar Vale died in Brightwater.", "sentence", "Oskar Vale died in Brightwater.", 1)]
    assert not paths.cite(top, spans)  # the first unit calls the father by another name
    assert paths.cite(top, spans, {world.ids["Oskar Vale"]: ["Oskar Vale", "O. Vale"]})
    assert top.spans[0].unit_id == "u_e"


def test_a_predicate_close_in_meaning_says_the_word(world: World, nlp_parts: Any) -> None:
    from kmrag.config import load_settings
    from kmrag.nlp.embed import get_embedder

    world.rel("Oskar Vale", "citizen of", "Republic", "u_m")  # no word, stem or lexicon group shared
    world.store.flush()
    nlp, analyser = nlp_parts
    q = "What was the nationality of Oskar Vale?"
    by_words = PathReader(world.store, nlp).read(T, q, analyser.analyse(q), [world.ids["Oskar Vale"]])[0]
    assert by_words == []
    reader = PathReader(world.store, nlp, get_embedder(load_settings(environ={})))
    top, _ = paths.best(reader.read(T, q, analyser.analyse(q), [world.ids["Oskar Vale"]])[0])
    assert top is not None and top.answer == "Republic" and top.said == [("nationality",)]
    # close in meaning is not any relation: "died in" is not a birth
    q = "Where was Oskar Vale born?"
    assert reader.read(T, q, analyser.analyse(q), [world.ids["Oskar Vale"]])[0] == []


def test_type_fit() -> None:
    assert type_fit("1961", "DATE", "DATE") == 1.0 and type_fit("Eastport", "GPE", "DATE") == 0.0
    assert type_fit("Eastport", "GPE", "PLACE") == 1.0 and type_fit("Eastport", "ORG", "PLACE") == 0.5
    assert type_fit("Oskar Vale", "PERSON", "PLACE") == 0.0 and type_fit("Eastport", "GPE", "PERSON") == 0.0
    # a kind of thing alone is no name ("Player of the Year" gives the graph an entity "Year"); a name ending in
    # its kind is one
    assert type_fit("Year", "THING", "PERSON") == 0.0 and type_fit("City", "GPE", "PLACE") == 0.0
    assert type_fit("Eastport City", "ORG", "PLACE") == 1.0
    # a date holds numbers and is no count or distance
    assert type_fit("September 21, 1961", "DATE", "QUANTITY") == 0.0 and type_fit("May 1961", "CARDINAL", "NUMBER") == 0.0
    assert type_fit("45 miles", "QUANTITY", "QUANTITY") == 1.0 and type_fit("1500", "CARDINAL", "NUMBER") == 1.0
    assert type_fit("Music", "THING", "PERSON") == 0.0 and type_fit("Madonna", "PERSON", "PERSON") == 1.0
    assert type_fit("Greta Vale", "THING", "PERSON") == 0.5  # a name the recogniser did not label
    # one word the recogniser did not call a person is no person's name ("Music" of "The Music of X")
    assert type_fit("Kestrel", "THING", "PERSON") == 0.0 and type_fit("Kestrel", "THING", "ORG") == 0.5
    # a name that says its kind fits it whatever the recogniser made of it
    assert type_fit("Indira Gandhi International Airport", "PERSON", "PLACE") == 1.0
    assert type_fit("1961", "DATE", "PERSON") == 0.0 and type_fit("about 40 km", "QUANTITY", "QUANTITY") == 1.0


def test_a_question_asking_a_description_is_not_read_off_a_path(world: World, nlp_parts: Any) -> None:
    # "profession" is no relation to hop: an edge whose predicate is near it in meaning names a thing, not a trade
    world.ent("Skyline Saga", "WORK_OF_ART")
    world.rel("Oskar Vale", "profession character", "Skyline Saga", "u_g")
    world.store.flush()
    assert _read(world, nlp_parts, "What profession does Oskar Vale have?", "Oskar Vale") == []
    assert _read(world, nlp_parts, "Where did Oskar Vale die?", "Oskar Vale")  # a relation still is


def test_a_path_answer_to_which_noun_must_be_said_to_be_one() -> None:
    def span(text: str) -> Span:
        return Span(unit_id="u_0000000000000001", source_id="s", start=0, end=len(text), quote=text, kind="sentence",
                    display=text, rank=0)
    pianist = [span("Ravi Menon is a classical pianist from India.")]
    magazine = [span("India Now is an Indian weekly news magazine."), *pianist]
    assert not paths.of_kind("India", "magazine", pianist)  # a country the path ends at is no magazine
    assert paths.of_kind("India Now", "magazine", magazine)  # said to be one within a few words
    assert not paths.of_kind("India", "magazine", magazine)  # "India" is only the start of that name
    assert not paths.of_kind("India", "magazine", [span("He was born in India and later edited a magazine.")])
    assert paths.of_kind("India Now", "magazine", [span("He writes for the magazine India Now.")])  # the noun before
    assert paths.of_kind("Old Wexshire Canal", "canal", [])  # a name that ends in the kind is one
    assert paths.of_kind("Munich", "city", []) and paths.of_kind("Greta Vale", "actor", [])  # labels tell these
    assert paths.of_kind("Sencer", None, [])  # nothing asked


def test_a_noun_describing_a_name_asks_no_relation(world: World, nlp_parts: Any) -> None:
    # "the station Harbour Bridge Station": "station" says what it is, not a relation a hop must say; so "province"
    # ... "located" still leads to Lowland, and a noun before a name never makes a hop's word by itself
    world.ent("Anna Lind", "PERSON")
    world.rel("Anna Lind", "queen of", "Lowland", "u_g")
    world.store.flush()
    assert _read(world, nlp_parts, "In which city is the Lowland queen Anna Lind buried?", "Anna Lind") == []
    found = _read(world, nlp_parts, "Which country was the queen of Lowland Anna Lind?", "Anna Lind")
    assert paths.best(found)[0] is not None and paths.best(found)[0].answer == "Lowland"  # "queen of" asks one


def test_a_noun_a_relative_clause_describes_is_still_asked(world: World, nlp_parts: Any) -> None:
    # "the nickname Oskar Vale was given": a nickname is no kind of thing, the clause after it says whose
    world.ent("Gold Medal", "WORK_OF_ART")
    world.ent("Kestrel Prize", "WORK_OF_ART")
    world.rel("Oskar Vale", "nickname", "Gold Medal", "u_h")
    world.rel("Oskar Vale", "won award", "Kestrel Prize", "u_i")
    world.store.flush()
    top, why = paths.best(_read(world, nlp_parts, "What was the nickname Oskar Vale was given?", "Oskar Vale"))
    assert top is None or top.answer == "Gold Medal", why
