"""The copula and apposition rules of the spaCy extractor: what is (and is not) an IS relation.

The sentences are the issue's HotpotQA examples and their kind; the figures behind the rules are in
tests/data/relations/ (scripts/relation_precision.py)."""

import pytest

from kmrag.nlp.extract import SpacyExtractor, date_predicate
from tests.fixtures.extraction import triples

pytestmark = pytest.mark.unit


def is_triples(x: SpacyExtractor, text: str) -> set[tuple[str, str, str]]:
    return {t for t in triples(x, text) if t[1] == "is"}


def test_a_date_in_parentheses_after_a_place_is_nothing(x):
    got = triples(x, "Baku (July 29, 1938 – May 2, 2001) was an Azerbaijani singer.")
    assert not any(o in ("July 29, 1938", "May 2, 2001") for _, _, o in got)


def test_a_date_range_after_a_person_is_birth_and_death(x):
    got = triples(x, "Bob Foster (December 15, 1938 – November 21, 2015) was an American professional boxer.")
    assert ("Bob Foster", "born on", "December 15, 1938") in got
    assert ("Bob Foster", "died on", "November 21, 2015") in got
    assert not is_triples(x, "Bob Foster (December 15, 1938 – November 21, 2015) was an American boxer.")
    years = triples(x, "The Holy Sonnets are poems by the English poet John Donne (1572–1631).")
    assert {("John Donne", "born in", "1572"), ("John Donne", "died in", "1631")} <= years


def test_born_with_a_date_is_born_on_never_bear(x):
    got = triples(x, "Ruggero Deodato (born 7 May 1939) is an Italian film director.")
    assert ("Ruggero Deodato", "born on", "7 May 1939") in got
    got = triples(x, "Merry Alpern (born 1955 in New York City) is an American photographer.")
    assert {("Merry Alpern", "born in", "1955"), ("Merry Alpern", "born in", "New York City")} <= got
    assert not any(p.startswith("bear") for _, p, _ in got)


def test_a_foreign_language_name_is_an_alias_not_a_relation(x):
    text = "After the Truth (German: Nichts als die Wahrheit) is a 1999 German film directed by Roland Suso Richter."
    ex = x.extract_text(text)
    assert not [t for t in ex.triples if t.predicate == "is"]  # was (Truth) -[is]-> (German)
    assert ("Nichts als die Wahrheit", "After the Truth") in ex.aliases


def test_a_russian_gloss_and_lifespan(x):
    text = ("Alexander Borodin (Russian: Алекса́ндр Порфи́рьевич Бороди́н; 12 November 1833 – 27 February 1887) "
            "was a Russian composer.")
    ex = x.extract_text(text)
    got = {(t.subject.name, t.predicate, t.object.name) for t in ex.triples}
    assert not [t for t in got if t[1] == "is"]
    assert ("Alexander Borodin", "born on", "12 November 1833") in got
    assert ("Alexander Borodin", "died on", "27 February 1887") in got
    assert ("Алекса́ндр Порфи́рьевич Бороди́н", "Alexander Borodin") in ex.aliases


def test_a_nationality_is_not_an_is_object(x):
    text = ("Sergei Aleksandrovich Kornilenko (Belarusian: Сяргей Аляксандравіч Карніленка ; born 14 June 1983) "
            "is a Belarusian professional footballer.")
    assert not is_triples(x, text)


def test_a_key_value_parenthesis_is_nothing(x):
    text = "Ada Municipal Airport (IATA: ADT, ICAO: KADH) is a public airport in Pontotoc County, Oklahoma."
    assert not any("IATA" in (s, o) for s, _, o in triples(x, text))


def test_a_birth_name_is_an_alias_not_a_relation(x):
    ex = x.extract_text("Rita Wilson (born Margarita Ibrahimoff; October 26, 1956) is an American actress.")
    assert ("Margarita Ibrahimoff", "Rita Wilson") in ex.aliases
    assert not [t for t in ex.triples if t.object.name == "Margarita Ibrahimoff"]
    assert not [a for a, _ in x.extract_text("John Smith, born July 4, 1950, is a painter.").aliases
                if a.startswith("July")]


def test_a_subject_inside_a_parenthesis_is_not_the_clause_subject(x):
    text = ("Pattie Howard (born Francine Patience Howard, April 12, Cleveland, Ohio, United States) is an American "
            "Gospel and R&B Singer-Songwriter, Producer, Composer and Vocal Arranger.")
    assert not [t for t in triples(x, text) if t[0] == "Cleveland"]


def test_a_list_is_not_a_chain_of_appositions(x):
    got = triples(x, "Life Is Ruff is a 2005 film starring Kyle Massey, Mitchel Musso, and Kay Panabaker.")
    assert not [t for t in got if t[0] == "Kyle Massey" and t[2] == "Mitchel Musso"]
    assert not is_triples(x, "Lothaire Bluteau, Michael Eklund, Michael Adamthwaite, and Jacob Tierney also star in "
                             "the film.")


def test_city_region_apposition_is_located_in(x):
    got = triples(x, "Mercer University has its main campus in Macon, Georgia, United States.")
    assert ("Macon", "located in", "Georgia") in got and ("Georgia", "located in", "United States") in got
    assert not [t for t in got if t[1] == "is"]


def test_good_copulas_and_appositions_stay(x):
    assert ("Paris", "capital of", "France") in triples(x, "Paris is the capital of France.")
    assert ("Berlin", "capital of", "Germany") in triples(x, "Berlin, the capital of Germany, is large.")
    got = triples(x, "An imprint of Interscope, its parent company is Universal Music Group, a subsidiary of Vivendi S.A.")
    assert ("Universal Music Group", "subsidiary of", "Vivendi S.A.") in got
    got = triples(x, "Michael J. Lotz is President and Chief Operating Officer of Mesa Air Group.")
    assert ("Michael J. Lotz", "is", "Chief Operating Officer") in got


def test_date_predicate():
    assert date_predicate("born", "7 May 1939") == "born on"
    assert date_predicate("born", "July 29, 1938") == "born on"
    assert date_predicate("died", "1631") == "died in"
    assert date_predicate("born", "May 1939") == "born in"
