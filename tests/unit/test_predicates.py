"""Predicate normalisation (kmrag/nlp/predicates.py) and its use when relations are written."""

import json
from pathlib import Path

import pytest

from kmrag.errors import ConfigError
from kmrag.ingestion.relations import graph_rows
from kmrag.ingestion.resolve import EntityResolver
from kmrag.nlp.extract import ExtractedEntity, ExtractedTriple, Extraction
from kmrag.nlp.predicates import Canonical, canonical, load_table
from kmrag.schema import KnowledgeUnit

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("surface", "label", "want"), [
    ("direct", "WORK_OF_ART", Canonical("directed", False)),
    ("director of", "WORK_OF_ART", Canonical("directed", False)),
    ("directed by", "PERSON", Canonical("directed", True)),
    ("Directed  BY", "PERSON", Canonical("directed", True)),
    ("born in", "DATE", Canonical("date of birth", False)),
    ("born on", "DATE", Canonical("date of birth", False)),
    ("born in", "GPE", Canonical("place of birth", False)),
    ("die in", "GPE", Canonical("place of death", False)),
    ("son of", "PERSON", Canonical("child of", False)),
    ("father of", "PERSON", Canonical("child of", True)),
    ("marry", "PERSON", Canonical("spouse of", False)),
    ("be in", "GPE", Canonical("located in", False)),
])
def test_surface_forms_land_on_one_canonical_predicate(surface: str, label: str, want: Canonical) -> None:
    assert canonical(surface, label) == want


def test_unknown_and_label_bound_forms_stay_as_they_are() -> None:
    assert canonical("capital city of", "GPE") is None
    assert canonical("be in", "DATE") is None  # "X was in 1950" is no location


def test_a_malformed_table_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text(json.dumps({"canonical": [{"predicate": "x", "forms": "not a list"}]}))
    with pytest.raises(ConfigError, match=r"p.json: canonical entry 0 \('x'\): 'forms'"):
        load_table(bad)
    bad.write_text("{")
    with pytest.raises(ConfigError, match="cannot read the predicate table"):
        load_table(bad)


def _rows(*triples: tuple[str, str, str, str, str]) -> list:
    unit = KnowledgeUnit(id="u_" + "0" * 16, tenant="t1", source_id="s", source_version="v", content="c", type="paragraph",
                         ordinal=0)
    ts = [ExtractedTriple(subject=ExtractedEntity(name=s, label=sl), predicate=p,
                          object=ExtractedEntity(name=o, label=ol), sentence="c", confidence=0.9)
          for s, sl, p, o, ol in triples]
    res = EntityResolver("t1")
    rows = graph_rows("t1", res, [unit], [Extraction(triples=ts)], {})
    names = {eid: res.entity(eid).name for eid in rows.entity_ids}
    return sorted((names[r.subject_id], r.type, r.predicate, names[r.object_id]) for r in rows.relations)


def test_three_wordings_are_one_edge_with_the_surface_kept() -> None:
    got = _rows(("Lars Borg", "PERSON", "direct", "Quiet Harvest", "WORK_OF_ART"),
                ("Quiet Harvest", "WORK_OF_ART", "directed by", "Lars Borg", "PERSON"),
                ("Lars Borg", "PERSON", "director of", "Quiet Harvest", "WORK_OF_ART"))
    assert got == [("Lars Borg", "DIRECTED", "direct", "Quiet Harvest")]


def test_date_and_place_of_birth_are_told_apart() -> None:
    got = _rows(("Ada Brook", "PERSON", "born in", "1950", "DATE"), ("Ada Brook", "PERSON", "born in", "Leeds", "GPE"),
                ("Ada Brook", "PERSON", "capital city of", "Leeds", "GPE"))
    assert got == [("Ada Brook", "CAPITAL_CITY_OF", "capital city of", "Leeds"),
                   ("Ada Brook", "DATE_OF_BIRTH", "born in", "1950"),
                   ("Ada Brook", "PLACE_OF_BIRTH", "born in", "Leeds")]
