"""The dependency patterns of issue 21 (kmrag/nlp/patterns.py and the parenthesis rules of extract.py), each on
sentences written for the test, and the vague dates that are no entities."""

import pytest

from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.patterns import vague_date
from tests.fixtures.extraction import triples

pytestmark = pytest.mark.unit


def test_a_verb_on_a_describing_noun_is_said_of_the_subject(x: SpacyExtractor) -> None:
    got = triples(x, "Harbour Lights is a 1961 Danish drama film directed by Karl Steen.")
    assert ("Karl Steen", "direct", "Harbour Lights") in got
    got = triples(x, "Blue Meridian, a novel written by Ada Kolb, sold well.")
    assert ("Ada Kolb", "write", "Blue Meridian") in got


def test_a_role_noun_before_a_name(x: SpacyExtractor) -> None:
    got = triples(x, "Quiet Harvest is a 1974 Swedish comedy from director Lars Borg.")
    assert ("Quiet Harvest", "director", "Lars Borg") in got


def test_nationality_of_a_person_and_origin_of_a_work(x: SpacyExtractor) -> None:
    assert ("Maria Lindqvist", "nationality", "Swedish") in triples(x, "Maria Lindqvist is a Swedish painter.")
    got = triples(x, "Harbour Lights is a 1961 Danish drama film directed by Karl Steen.")
    assert ("Harbour Lights", "country of origin", "Danish") in got
    assert ("Harbour Lights", "year", "1961") in got


def test_family_relations(x: SpacyExtractor) -> None:
    got = triples(x, "Peter Vance is a British banker. His wife, Clara Holt, is a painter.")
    assert ("Peter Vance", "wife", "Clara Holt") in got
    got = triples(x, "Oskar Brandt is the son of Henrik Brandt.")
    assert ("Oskar Brandt", "son of", "Henrik Brandt") in got


def test_a_pronoun_stands_for_the_last_person_subject(x: SpacyExtractor) -> None:
    got = triples(x, "Walter Grimm was a German chemist. He married the singer Ilse Vogt in 1931.")
    assert ("Walter Grimm", "marry", "Ilse Vogt") in got


def test_birth_and_death_places_and_dates(x: SpacyExtractor) -> None:
    got = triples(x, "Elena Varga was born in Pécs, Hungary on 3 June 1921 and died in 1990 in Vienna.")
    assert {("Elena Varga", "born in", "Pécs"), ("Elena Varga", "born in", "Hungary"),
            ("Elena Varga", "born on", "3 June 1921")} <= got
    assert {("Elena Varga", "die in", "1990"), ("Elena Varga", "die in", "Vienna")} <= got


def test_a_parenthesis_with_dates_and_places(x: SpacyExtractor) -> None:
    got = triples(x, "Paul Renard (2 March 1911 in Nantes – 8 July 1980 in Lille) was a French painter.")
    assert {("Paul Renard", "born on", "2 March 1911"), ("Paul Renard", "born in", "Nantes"),
            ("Paul Renard", "died on", "8 July 1980"), ("Paul Renard", "died in", "Lille")} <= got
    got = triples(x, "Ada Brook (born 4 May 1950 in Leeds) is a singer.")
    assert {("Ada Brook", "born on", "4 May 1950"), ("Ada Brook", "born in", "Leeds")} <= got


def test_a_place_chain(x: SpacyExtractor) -> None:
    got = triples(x, "Kettlewick is a village in the district of Harrow Vale in Somerset, England.")
    assert {("Kettlewick", "located in", "Somerset"), ("Kettlewick", "located in", "England")} <= got


def test_founding_and_its_date(x: SpacyExtractor) -> None:
    got = triples(x, "Mark Rossi founded Vela Records in 1953.")
    assert {("Mark Rossi", "found", "Vela Records"), ("Mark Rossi", "found in", "1953")} <= got
    assert ("Vela Records", "founded in", "1962") in triples(x, "Vela Records was founded in 1962.")


def test_amounts_keep_their_unit_and_are_only_objects(x: SpacyExtractor) -> None:
    got = triples(x, "Acme Corp has 5,000 employees and earned $5 million in 2010.")
    assert {("Acme Corp", "have", "5,000 employees"), ("Acme Corp", "earn", "$5 million")} <= got
    assert ("Danube", "long", "about 2,850 km") in triples(x, "The Danube is about 2,850 km long.")
    ex = x.extract_text("Acme Corp has 5,000 employees.")
    assert not any(e.label in ("QUANTITY", "CARDINAL") for e in ex.entities)  # no free entity
    assert not any(t.subject.label in ("QUANTITY", "CARDINAL", "MONEY") for t in ex.triples)


def test_also_known_as_after_a_parenthesis(x: SpacyExtractor) -> None:
    ex = x.extract_text("Tomas Ruiz Ortega (born 1 May 1950), known professionally as Tomas Ortega, is an actor.")
    assert ("Tomas Ortega", "Tomas Ruiz Ortega") in ex.aliases


def test_no_entity_of_a_frequency(x: SpacyExtractor) -> None:
    names = {e.name for e in x.extract_text("The bulletin is published daily and the index weekly.").entities}
    assert not names & {"daily", "weekly"}
    assert "1 May 1950" in {e.name for e in x.extract_text("She arrived on 1 May 1950.").entities}


@pytest.mark.parametrize(("text", "vague"), [("daily", True), ("weekly", True), ("annually", True), ("today", True),
                                            ("1950", False), ("May", False), ("the 19th century", False),
                                            ("the Middle Ages", False), ("Monday", False), ("the 1990s", False),
                                            ("seven days", False)])
def test_vague_date(text: str, vague: bool) -> None:
    assert vague_date(text) is vague


def test_a_title_the_recogniser_missed_is_the_subject(x: SpacyExtractor) -> None:
    got = triples(x, "Under Grey Skies is a 1962 Dutch war film directed by Jan Smit.")
    assert ("Jan Smit", "direct", "Under Grey Skies") in got
    ex = x.extract_text("He is a 1960 film critic. It is a film directed by Tom Ray.")
    assert not any(e.name in ("He", "It") for e in ex.entities)


def test_a_titled_person_stays_a_person(x: SpacyExtractor) -> None:
    got = triples(x, "Sir Arthur Penrose (4 June 1901 – 2 May 1970) was an English engineer.")
    assert ("Arthur Penrose", "born on", "4 June 1901") in got
    ex = x.extract_text("Sir Arthur Penrose (4 June 1901 – 2 May 1970) was an English engineer.")
    assert ("Arthur Penrose", "PERSON") in {(e.name, e.label) for e in ex.entities}
