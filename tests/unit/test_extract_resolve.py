import pytest

from kmrag.ingestion.resolve import EntityResolver
from kmrag.nlp.extract import ExtractedEntity, SpacyExtractor, clean_name
from kmrag.nlp.names import resolution_key, without_honorific
from kmrag.retrieval.multihop import _title_forms
from kmrag.schema import Entity
from tests.fixtures.extraction import triples

pytestmark = pytest.mark.unit


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


def _consolidated(mentions: list[tuple[str, str]], aliases: list[tuple[str, str]] = (),
                 blocked: list[tuple[str, str]] = (), stored: list[Entity] = (),
                 source: str | None = "s1") -> dict[str, str]:
    """Resolve the mentions (all in one source) in the given order, consolidate, and map each mention to
    its final entity name."""
    r = EntityResolver("t", list(stored), blocked=list(blocked))
    ids = [r.resolve(ExtractedEntity(name=n, label=lab), source) for n, lab in mentions]
    for a, f in aliases:
        r.add_alias(a, f)
    current = {e.id: e for e in stored}
    current.update({eid: r.entity(eid) for eid in dict.fromkeys(ids)})
    plan = r.plan(list(current.values()), new_ids=set(ids) - {e.id for e in stored})
    root = {s.member.id: s.root.id for s in plan.steps}
    return {n: current[root.get(i, i)].name for (n, _), i in zip(mentions, ids, strict=True)}


def test_identity_is_the_key_and_coarse_type():
    r = EntityResolver("t")
    eu = r.resolve(ExtractedEntity(name="European Union", label="ORG"))
    assert r.resolve(ExtractedEntity(name="the European Union", label="ORG")) == eu
    assert r.entity(eu).name == "European Union"
    assert [(m.alias, m.method) for m in r.merges] == [("the European Union", "normalised")]


def test_consolidation_acronym_alias_fuzzy():
    got = _consolidated([("European Union", "ORG"), ("EU", "ORG"), ("European Unoin", "ORG"),
                         ("Jonathan Smith", "PERSON"), ("Jonathon Smith", "PERSON")])
    assert got["EU"] == got["European Unoin"] == "European Union"
    assert got["Jonathon Smith"] == "Jonathan Smith"


def test_resolution_does_not_depend_on_order():
    mentions = [("IBM", "ORG"), ("International Business Machines", "ORG"), ("Jordan", "THING"),
                ("Jordan", "PERSON"), ("Warsaw", "THING"), ("Warsaw", "GPE")]
    forward = _consolidated(mentions)
    backward = _consolidated(list(reversed(mentions)))
    assert forward == backward
    assert forward["IBM"] == "International Business Machines" and forward["Warsaw"] == "Warsaw"
    # across jobs too: IBM stored first, the full name arriving in a later job
    r = EntityResolver("t")
    ibm = r.entity(r.resolve(ExtractedEntity(name="IBM", label="ORG")))
    later = _consolidated([("International Business Machines", "ORG")], stored=[ibm])
    assert later == {"International Business Machines": "International Business Machines"}
    r2 = EntityResolver("t", [ibm])
    full = r2.entity(r2.resolve(ExtractedEntity(name="International Business Machines", label="ORG"), "s2"))
    assert r2.plan([ibm, full], {full.id}).steps == []  # no evidence: IBM is not mentioned in s2
    r2.resolve(ExtractedEntity(name="IBM", label="ORG"), "s2")
    steps = r2.plan([ibm, full], {full.id}).steps
    assert [(s.member.name, s.root.name, s.method) for s in steps] == [("IBM", "International Business Machines",
                                                                        "acronym")]


def test_exact_names_of_different_types_stay_apart():
    r = EntityResolver("t")
    person = r.resolve(ExtractedEntity(name="Jordan", label="PERSON"))
    country = r.resolve(ExtractedEntity(name="Jordan", label="GPE"))
    assert person != country
    got = _consolidated([("Jordan", "PERSON"), ("Jordan", "GPE"), ("Jordan", "THING")])
    assert got["Jordan"] == "Jordan"  # the untyped mention is ambiguous: it stays its own entity
    r2 = EntityResolver("t")
    ids = [r2.resolve(ExtractedEntity(name="Jordan", label=lab)) for lab in ("PERSON", "GPE", "THING")]
    plan = r2.plan([r2.entity(i) for i in ids], set(ids))
    assert plan.steps == []


def test_acronyms_do_not_merge_across_types():
    r = EntityResolver("t")
    ids = [r.resolve(ExtractedEntity(name=n, label=lab)) for n, lab in (("US", "GPE"), ("Universal Studios", "ORG"))]
    assert r.plan([r.entity(i) for i in ids], set(ids)).steps == []


def test_fuzzy_is_guarded_by_type_numbers_and_words():
    r = EntityResolver("t")
    pairs = [("World War I", "EVENT"), ("World War II", "EVENT"), ("Jonathan Smith", "PERSON"),
             ("Jonathon Smith", "ORG"), ("BrotliCompress", "ORG"), ("BrotliDecompress", "ORG")]
    ids = [r.resolve(ExtractedEntity(name=n, label=lab)) for n, lab in pairs]
    assert r.plan([r.entity(i) for i in ids], set(ids)).steps == []


def test_dates_do_not_merge_with_names():
    r = EntityResolver("t")
    assert r.resolve(ExtractedEntity(name="May", label="DATE")) != r.resolve(ExtractedEntity(name="May", label="PERSON"))


def test_resolver_seeded_with_stored_entities_keeps_their_aliases():
    r1 = EntityResolver("t")
    eid = r1.resolve(ExtractedEntity(name="Warsaw", label="GPE"))
    stored = r1.entity(eid).model_copy(update={"aliases": ["Warszawa"]})
    r2 = EntityResolver("t", [stored])
    assert r2.resolve(ExtractedEntity(name="warsaw", label="GPE")) == eid
    assert r2.entity(eid).name == "Warsaw" and r2.entity(eid).aliases == ["Warszawa"]
    # a later "Warszawa" mention joins through the stored alias
    assert _consolidated([("Warszawa", "GPE")], stored=[stored]) == {"Warszawa": "Warsaw"}


def test_undone_merge_is_not_redone():
    got = _consolidated([("European Union", "ORG"), ("EU", "ORG")], aliases=[("EU", "European Union")])
    assert got["EU"] == "European Union"
    r = EntityResolver("t")
    eu = r.resolve(ExtractedEntity(name="European Union", label="ORG"))
    blocked = [(eu, "EU")]
    again = _consolidated([("European Union", "ORG"), ("EU", "ORG")], aliases=[("EU", "European Union")],
                          blocked=blocked)
    assert again == {"European Union": "European Union", "EU": "EU"}
    r2 = EntityResolver("t", blocked=blocked)
    ids = [r2.resolve(ExtractedEntity(name=n, label="ORG")) for n in ("European Union", "EU")]
    r2.add_alias("EU", "European Union")
    plan = r2.plan([r2.entity(i) for i in ids], set(ids))
    assert plan.steps == [] and plan.new_aliases == {}


def _ents(*pairs: tuple[str, str]) -> list[Entity]:
    from kmrag.nlp.names import coarse_type, resolution_key
    from kmrag.schema import entity_id

    return [Entity(id=entity_id("t", resolution_key(n), coarse_type(lab)), tenant="t", name=n, type=lab)
            for n, lab in pairs]


def test_an_untyped_mention_never_bridges_two_kinds_of_thing():
    from kmrag.ingestion.resolve import plan_merges

    ents = _ents(("US", "GPE"), ("US", "THING"), ("Universal Studios", "ORG"))
    steps = plan_merges("t", ents, [], set(), {e.id for e in ents}).steps
    assert [(s.member.name, s.member.type, s.root.name, s.root.type) for s in steps] == [("US", "THING", "US", "GPE")]


def test_an_undone_merge_is_not_redone_through_a_third_entity():
    from kmrag.ingestion.resolve import merge_key, plan_merges

    ents = _ents(("IBM", "ORG"), ("International Business Machines", "ORG"), ("Internationale Business Machines", "ORG"))
    full = ents[1].id
    steps = plan_merges("t", ents, [], {merge_key(full, "IBM")}, {e.id for e in ents}).steps
    groups = {s.member.name: s.root.name for s in steps}
    assert "IBM" not in groups and len(groups) == 1  # the typo and the name join; IBM stays apart


def test_the_plan_does_not_depend_on_the_order_of_the_entity_list():
    import random

    from kmrag.ingestion.resolve import plan_merges

    ents = _ents(("IBM", "ORG"), ("International Business Machines", "ORG"), ("Iron Bridge Marine", "ORG"),
                 ("EU", "ORG"), ("European Union", "ORG"), ("European Unoin", "ORG"), ("Jordan", "THING"),
                 ("Jordan", "PERSON"), ("Warsaw", "THING"), ("Warsaw", "GPE"), ("Warszawa", "GPE"))
    ents[-2] = ents[-2].model_copy(update={"aliases": ["Warszawa"]})
    ids = {e.id for e in ents}

    def plan(es: list[Entity]) -> list[tuple[str, str, str]]:
        return sorted((s.member.id, s.root.id, s.method)
                      for s in plan_merges("t", es, [("EU", "European Union")], set(), ids).steps)

    first = plan(ents)
    rng = random.Random(7)
    for _ in range(20):
        shuffled = ents[:]
        rng.shuffle(shuffled)
        assert plan(shuffled) == first
    names = {by: {e.id: e.name for e in ents}[by] for by, _, _ in first}
    assert "IBM" not in names.values()  # two full names share the initials: ambiguous, no merge


def test_spacy_batches_are_bounded_by_characters_and_results_unchanged(x):
    x2 = SpacyExtractor(batch_chars=40_000)
    assert x2._groups(["a" * 30_000, "b" * 20_000, "c" * 50_000, "d"]) == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert x2._groups(["a"] * 5) == [(0, 5)] and x2._groups([]) == []
    from kmrag.schema import KnowledgeUnit, unit_id

    texts = ["Warsaw is the capital of Poland.", "Marie Curie was born in Warsaw.", "Oslo is in Norway."]
    units = [KnowledgeUnit(id=unit_id("t", "s", t), tenant="t", source_id="s", source_version="v", type="paragraph",
                           ordinal=i, content=t) for i, t in enumerate(texts)]
    tiny = SpacyExtractor(batch_chars=10)  # one unit per spaCy batch
    assert [e.model_dump() for e in tiny.extract(units)] == [e.model_dump() for e in x.extract(units)]


def test_no_entity_from_text_the_english_model_cannot_read(x: SpacyExtractor) -> None:
    ex = x.extract_text("传统RAG是“一问一查一答”：单跳检索无法回答需要多步推理的问题。Marie Curie was born in Warsaw.")
    names = {e.name for e in ex.entities}
    assert "Warsaw" in names
    assert not any(any("\u4e00" <= c <= "\u9fff" for c in n) for n in names)


def test_a_table_gives_entities_from_its_header_and_key_column_only(x: SpacyExtractor) -> None:
    from kmrag.nlp.extract import table_key_text
    from kmrag.schema import KnowledgeUnit

    table = ("| Country | Capital | Currency |\n|---|---|---|\n| France | Paris | Euro |\n"
             "| Germany | Berlin | Euro |\n| Japan | Tokyo | Yen |")
    assert table_key_text(table) == "Country. Capital. Currency.\nFrance.\nGermany.\nJapan."
    unit = KnowledgeUnit(id="u_" + "1" * 16, tenant="t", source_id="s", source_version="v", type="table",
                         ordinal=0, content=table)
    (ex,) = x.extract([unit])
    names = {e.name for e in ex.entities}
    assert {"France", "Germany", "Japan"} <= names
    assert not names & {"Paris", "Berlin", "Tokyo", "Euro", "Yen"} and not ex.triples


def test_a_defined_term_that_looks_like_code_is_not_an_entity() -> None:
    from kmrag.ingestion.relations import graph_rows
    from kmrag.nlp.extract import Extraction
    from kmrag.schema import KnowledgeUnit, MentionKind

    terms = {"u_" + "1" * 16: "CPACK_RESOURCE_FILE_LICENSE_NOPATH", "u_" + "2" * 16: "stripFiles",
             "u_" + "3" * 16: "Backpressure", "u_" + "4" * 16: "language"}
    bodies = {"language": "xsltNewLocale xsltTransformFunction"}  # an API index entry, not a definition
    units = [KnowledgeUnit(id=uid, tenant="t", source_id="s", source_version="v", type="definition", ordinal=i,
                           content=f"{term}: {bodies.get(term, 'what it means, at some length.')}")
             for i, (uid, term) in enumerate(terms.items())]
    rows = graph_rows("t", EntityResolver("t"), units, [Extraction() for _ in units], terms)
    defines = [m.unit_id for m in rows.mentions if m.kind is MentionKind.DEFINES]
    assert defines == ["u_" + "3" * 16]  # the API names stay the units' terms, not entities


def test_a_surname_alone_is_the_one_person_of_its_document_with_that_surname() -> None:
    from kmrag.ingestion.relations import graph_rows, surname_aliases
    from kmrag.nlp.extract import ExtractedEntity, Extraction
    from kmrag.schema import KnowledgeUnit

    def unit(i: int, source: str) -> KnowledgeUnit:
        return KnowledgeUnit(id=f"u_{i:016d}", tenant="t", source_id=source, source_version="v", type="paragraph",
                             ordinal=i, content="text")

    def ex(*names: tuple[str, str]) -> Extraction:
        return Extraction(entities=[ExtractedEntity(name=n, label=lab) for n, lab in names])

    units = [unit(1, "a"), unit(2, "a"), unit(3, "b"), unit(4, "c")]
    extractions = [ex(("Greta Marlowe", "PERSON")), ex(("Marlowe", "PERSON"), ("Oslo", "GPE")),
                   ex(("Ann Reed", "PERSON"), ("Tom Reed", "PERSON"), ("Reed", "PERSON")),  # two Reeds: neither
                   ex(("Reed", "PERSON"))]  # no full name in its own document
    assert surname_aliases(units, extractions) == [("Marlowe", "Greta Marlowe")]
    resolver = EntityResolver("t")
    rows = graph_rows("t", resolver, units, extractions, {})
    current = [resolver.entity(e) for e in rows.entity_ids]
    plan = resolver.plan(current, [e.id for e in current])
    merged = {(s.member.name, s.root.name) for s in plan.steps}
    assert merged == {("Marlowe", "Greta Marlowe")}


def test_a_rank_before_a_name_is_no_part_of_the_title_it_is_written_under():
    assert without_honorific("King George V") == "George V"
    assert without_honorific("Sir Alec Guinness") == "Alec Guinness"
    assert without_honorific("Dr. Martin Luther King") == "Martin Luther King"
    assert without_honorific("Pope Francis") is None  # "Francis" alone names too many things
    assert without_honorific("Prince") is None and without_honorific("George Harrison") is None
    assert _title_forms("King George V") == ["king george v", "the king george v", "a king george v",
                                             "an king george v", "george v"]


def test_a_list_bullet_is_no_part_of_a_name(x):
    # inline bullets ("• A • B") separate items: a name never carries one, nor runs across one
    text = ("• .NET 8.0 or later • Semantic Kernel Graph package installed • Kernel Memory configured for knowledge "
            "base operations • Basic understanding of Graph Concepts and RAG Patterns • Familiarity with Retrieval")
    names = [e.name for e in x.extract_text(text).entities]
    assert "Kernel Memory" in names and not any("•" in n for n in names), names
    assert clean_name("• Kernel Memory") == "Kernel Memory" and clean_name("RAG Patterns • Familiarity") == ""
    assert clean_name("卡尔·马克思") == "卡尔·马克思"  # the middle dot of a transliterated name stays
