"""Which country a place name or a nationality names (kmrag.nlp.places, from the countryinfo package's data)."""

from __future__ import annotations

import pytest

from kmrag.answer.countries import country_in, country_named, place_runs
from kmrag.nlp.places import available, countries_of, country_of_run

pytestmark = pytest.mark.unit

US = frozenset({"United States"})


def test_the_country_data_is_installed() -> None:
    assert available()


@pytest.mark.parametrize("name", ["United States", "USA", "American", "Americans", "Massachusetts", "the United States",
                                  "New York"])
def test_names_of_the_united_states(name: str) -> None:
    assert countries_of(name) == US


@pytest.mark.parametrize(("name", "country"), [
    ("German", "Germany"), ("Swiss", "Switzerland"), ("Dutch", "Netherlands"), ("English", "United Kingdom"),
    ("Welsh", "United Kingdom"), ("Argentine", "Argentina"), ("Slovenian", "Slovenia"), ("Filipino", "Philippines"),
    ("Khuzestan Province", "Iran"), ("Tehran", "Iran"), ("Indian", "India"), ("Soviet", "Soviet Union"),
    ("Yugoslav", "Yugoslavia")])
def test_a_nationality_or_a_province_names_one_country(name: str, country: str) -> None:
    assert countries_of(name) == {country}


def test_an_ambiguous_name_names_each_country_it_may_be() -> None:
    assert countries_of("Georgia") == {"Georgia", "United States"}  # a country and a state
    assert countries_of("Punjab") == {"India", "Pakistan"}
    assert countries_of("Congolese") == {"Democratic Republic of the Congo", "Republic of the Congo"}
    assert countries_of("Russian and Ukrainian") == countries_of("Soviet and Ukrainian") - {"Soviet Union"} | {"Russia"}
    # a people's name before another's is an origin, the last the country: "Irish American", "French Canadian"
    assert countries_of("Irish American") == US and countries_of("French Canadian") == {"Canada"}
    assert countries_of("Latin American") == countries_of("Native American") == frozenset()  # no country said


@pytest.mark.parametrize(("name", "countries"), [
    ("San Diego", {"United States"}), ("Edinburgh", {"United Kingdom"}), ("Paris", {"France"}),  # not Paris, Texas
    ("Lancaster", {"United Kingdom", "United States"}), ("Of", set()),  # a town of Turkey, and a word
    ("Montreal", {"Canada"}), ("U.S.", {"United States"}),  # a city's plain spelling; dots
    ("Oxford", {"New Zealand", "United Kingdom", "United States"})])  # a province's name that cities have too
def test_a_city_names_the_countries_of_the_cities_so_called(name: str, countries: set[str]) -> None:
    assert countries_of(name) == countries


@pytest.mark.parametrize("name", ["Moultrie", "Christian", "Roman", "in", "CA", "Jewish", "Catholic", "Victorian"])
def test_words_that_are_no_country_name_none(name: str) -> None:
    assert countries_of(name, city=False) == frozenset()


def test_a_run_is_what_its_names_agree_on() -> None:
    assert country_of_run(["Moultrie", "Georgia", "United States"]) == US  # the state, not the country Georgia
    assert country_of_run(["Atlanta", "Georgia"]) == US  # the city of the United States decides
    assert country_of_run(["Georgia"]) == {"Georgia", "United States"}  # left open
    assert country_of_run(["Roman"], [False]) == frozenset()  # a people's name is no town's (Roman, Romania)
    assert country_of_run(["Lom", "Norway"]) == {"Norway"}
    assert country_of_run(["Moultrie"]) == frozenset()
    assert country_named("Lynn, Massachusetts") == US


def test_the_first_run_that_names_a_country_is_the_spans() -> None:
    text = "Will James (1892-1942) was a French Canadian artist and writer of the American West."
    ents = [("French Canadian", "NORP", text.index("French")), ("American West", "LOC", text.index("American"))]
    assert country_in(text, ents) == {"Canada"}
    text = "Il Sole (Italian: Il Sole) is a 1994 French film shot in Moultrie, Lyon."
    ents = [("Italian", "NORP", text.index("Italian")), ("French", "NORP", text.index("French")),
            ("Moultrie", "GPE", text.index("Moultrie")), ("Lyon", "GPE", text.index("Lyon"))]
    assert place_runs(text, ents) == [["French"], ["Moultrie", "Lyon"]]  # a language's gloss names no country
    assert country_in(text, ents) == {"France"}
    assert country_in("No places here.", []) == frozenset()
    # the birthplace in brackets is an aside: the nationality the sentence gives decides
    text = "Shirin Neshat (born 1957 in Tehran) is an American visual artist."
    ents = [("Tehran", "GPE", text.index("Tehran")), ("American", "NORP", text.index("American"))]
    assert country_in(text, ents) == {"United States"}


def test_asked_where_one_was_born_the_birthplace_decides() -> None:
    text = "Shirin Neshat (born 1957 in Qazvin, Iran) is an American visual artist."
    ents = [("Qazvin", "GPE", text.index("Qazvin")), ("Iran", "GPE", text.index("Iran")),
            ("American", "NORP", text.index("American"))]
    assert country_in(text, ents) == US and country_in(text, ents, born=True) == {"Iran"}
    # no birthplace said: nothing, not the nationality
    text = "Edmund Varga is an American painter."
    assert country_in(text, [("American", "NORP", text.index("American"))], born=True) == frozenset()
