import pytest

from kmrag.ingestion.extract import ExtractedEntity, SpacyExtractor, clean_name
from kmrag.ingestion.resolve import EntityResolver, resolution_key

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    return SpacyExtractor()


def triples(x: SpacyExtractor, text: str) -> set[tuple[str, str, str]]:
    return {(t.subject.name, t.predicate, t.object.name) for t in x.extract_text(text).triples}


def test_copula_with_prepositional_object(x):
    assert ("Paris", "capital of", "France") in triples(x, "Paris is the capital of France.")


def test_active_and_passive_voice(x):
    assert ("Gustave Eiffel", "design", "Eiffel Tower") in triples(x, "The Eiffel Tower was designed by Gustave Eiffel.")
    assert ("Apple", "acquire", "Beats") in triples(x, "Apple acquired Beats in 2014.")


def test_prepositional_objects_and_conjunctions(x):
    got = triples(x, "Marie Curie was born in Warsaw and moved to Paris.")
    assert ("Marie Curie", "born in", "Warsaw") in got and ("Marie Curie", "move to", "Paris") in got


def test_apposition(x):
    assert ("Berlin", "capital of", "Germany") in triples(x, "Berlin, the capital of Germany, is large.")


def test_triples_keep_their_sentence(x):
    ex = x.extract_text("Rome is in Italy. Oslo is the capital of Norway.")
    t = next(t for t in ex.triples if t.subject.name == "Oslo")
    assert t.sentence == "Oslo is the capital of Norway." and 0 < t.confidence <= 1


def test_acronym_alias_from_text(x):
    assert ("EU", "European Union") in x.extract_text("The European Union (EU) is a union of states.").aliases


def test_clean_name():
    assert clean_name("the United Nations's") == "United Nations"
    assert resolution_key("The  Beatles’s") == "beatles"


def test_resolution_deterministic_then_fuzzy_and_recorded():
    r = EntityResolver("t")
    eu = r.resolve(ExtractedEntity(name="European Union", label="ORG"))
    assert r.resolve(ExtractedEntity(name="the European Union", label="ORG")) == eu
    assert r.resolve(ExtractedEntity(name="EU", label="ORG")) == eu  # acronym
    assert r.resolve(ExtractedEntity(name="European Unoin", label="ORG")) == eu  # fuzzy
    methods = {m.alias: m.method for m in r.merges}
    assert methods == {"the European Union": "normalised", "EU": "acronym", "European Unoin": "fuzzy"}
    assert set(r.entities[eu].aliases) == {"EU", "European Unoin"}


def test_fuzzy_is_guarded_by_type_and_numbers():
    r = EntityResolver("t")
    a = r.resolve(ExtractedEntity(name="World War I", label="EVENT"))
    assert r.resolve(ExtractedEntity(name="World War II", label="EVENT")) != a
    p = r.resolve(ExtractedEntity(name="Jonathan Smith", label="PERSON"))
    assert r.resolve(ExtractedEntity(name="Jonathon Smith", label="ORG")) != p  # different type: no fuzzy merge
    r2 = EntityResolver("t")
    p2 = r2.resolve(ExtractedEntity(name="Jonathan Smith", label="PERSON"))
    assert r2.resolve(ExtractedEntity(name="Jonathon Smith", label="PERSON")) == p2  # same type: merged


def test_dates_do_not_merge_with_names():
    r = EntityResolver("t")
    assert r.resolve(ExtractedEntity(name="May", label="DATE")) != r.resolve(ExtractedEntity(name="May", label="PERSON"))


def test_resolver_seeded_with_stored_entities():
    r1 = EntityResolver("t")
    eid = r1.resolve(ExtractedEntity(name="Warsaw", label="GPE"))
    r2 = EntityResolver("t", list(r1.entities.values()))
    assert r2.resolve(ExtractedEntity(name="warsaw", label="GPE")) == eid
    assert not r2.changed


def test_undone_merge_is_not_redone():
    r = EntityResolver("t")
    eu = r.resolve(ExtractedEntity(name="European Union", label="ORG"))
    assert r.resolve(ExtractedEntity(name="EU", label="ORG")) == eu
    blocked = EntityResolver("t", [r.entities[eu].model_copy(update={"aliases": []})], blocked=[(eu, "EU")])
    split = blocked.resolve(ExtractedEntity(name="EU", label="ORG"))
    assert split != eu and blocked.resolve(ExtractedEntity(name="EU", label="ORG")) == split
    assert blocked.resolve(ExtractedEntity(name="European Union", label="ORG")) == eu
    blocked.add_alias("EU", "European Union")  # the text says "European Union (EU)" again
    assert "EU" not in blocked.entities[eu].aliases
    assert blocked.resolve(ExtractedEntity(name="EU", label="ORG")) == split
