"""Names with a lower-case particle read whole by the pipeline (kmrag.nlp.particles), and a people's adjective
told from a city's or a person's name (kmrag.nlp.places.people_of)."""

from __future__ import annotations

import pytest

from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.places import available, people_of

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return SpacyExtractor().nlp


@pytest.mark.parametrize(("text", "name"), [
    ("Jorge Brum do Canto( February 10, 1910 – February 7, 1994) was a Portuguese film director.", "Jorge Brum do Canto"),
    ("What is the nationality of Jorge Brum do Canto?", "Jorge Brum do Canto"),
    ("Nelson Pereira dos Santos was a Brazilian film director.", "Nelson Pereira dos Santos"),
    ("Were Nelson Pereira dos Santos and Fabián Bielinsky both directors?", "Nelson Pereira dos Santos"),
    ("Jean de la Fontaine wrote fables.", "Jean de la Fontaine"),
])
def test_a_person_s_name_runs_over_its_particle(nlp, text: str, name: str) -> None:  # type: ignore[no-untyped-def]
    people = [e.text for e in nlp(text).ents if e.label_ == "PERSON"]
    assert name in people
    assert not [p for p in people if p != name and (p in name)]  # not also "Santos" or "Jorge Brum"


@pytest.mark.parametrize(("text", "person"), [
    ("What did John Smith do Tuesday?", "John Smith"),  # a date after the verb "do"
    ("Did Mary Jones do Yoga in London?", "Mary Jones"),  # "do" of a question asked with "did"
    ("The Duke of York met John Smith of Leeds.", "John Smith"),  # "of" is no particle of a name
    # a reviewer's: the verb "do" after a name, "la" first
    ("Can Tom Cruise do Mission Impossible again?", "Tom Cruise"),
    ("Why would Bill Gates do Microsoft again?", "Bill Gates"),
    ("John Smith and Mary Jones do Yoga every day.", "Mary Jones"),
    ("Could Robert Downey Jr. do Iron Man again?", "Robert Downey Jr."),
    ("Kamala Harris la Vice President", "Kamala Harris"),
])
def test_a_verb_or_a_preposition_is_no_particle(nlp, text: str, person: str) -> None:  # type: ignore[no-untyped-def]
    assert person in [e.text for e in nlp(text).ents if e.label_ == "PERSON"]


@pytest.mark.skipif(not available(), reason="the country data is not installed")
def test_a_people_s_adjective_is_not_a_city_s_or_a_country_s_own_name() -> None:
    assert people_of("Armenian") == {"Armenia"} and "France" in people_of("French")
    assert not people_of("Island") and not people_of("Mann")  # another spelling of Iceland's name; a surname
    assert not people_of("Roman")  # a town in Romania
    assert not people_of("Jordan") and not people_of("Susan") and not people_of("Latin")
