"""How `kmrag ask` reads on a terminal: how sure it is, a computed direct answer's basis, and a not-found
answer's best evidence (shown as evidence, never as an answer)."""

from __future__ import annotations

import pytest

from kmrag.answer.render import answer_text, basis_text
from kmrag.answer.validate import NOT_FOUND
from kmrag.schema import Answer, Citation, Statement

pytestmark = pytest.mark.unit

U1, U2 = "u_" + "1" * 16, "u_" + "2" * 16
ROW = "Distance: more than 3500 km; Compensation: 600 EUR"
ROUTE = "The flight from Delhi to Munich covers about 5,900 km."


def _answer(**kw: object) -> Answer:
    base: dict[str, object] = {"id": "a_0123456789abcdef", "tenant": "t1", "question": "q?", "generator": "extractive",
                               "strategy": "multihop"}
    return Answer(**(base | kw))  # type: ignore[arg-type]


def test_below_the_threshold_shows_not_found_then_the_evidence_with_its_citations() -> None:
    evidence = [Statement(text="Marie Curie moved to Paris in 1891.", unit_ids=[U1]),
                Statement(text="She studied at the Sorbonne.", unit_ids=[U1, U2])]
    a = _answer(question="Where did Marie Curie study chemistry?", text=NOT_FOUND, confidence=0.31,
                confidence_why="no direct answer in the cited spans; a single-hop question", evidence=evidence,
                citations=[Citation(unit_id=U1, source_id="notes.txt", quote="Marie Curie moved to Paris in 1891.",
                                    start=0, end=35)])
    lines = answer_text(a).splitlines()
    assert lines[:5] == [
        "Q: Where did Marie Curie study chemistry?",
        NOT_FOUND,
        "Best evidence found (not an answer):",
        f"  Marie Curie moved to Paris in 1891. [{U1}]",
        f"  She studied at the Sorbonne. [{U1}] [{U2}]",
    ]
    assert "how sure: 31% that it is right: no direct answer in the cited spans; a single-hop question" in lines
    assert not any(x.startswith(("Answer:", "Citations:", "audit it:", "computed:")) for x in lines), lines


def test_a_band_lookup_shows_its_rule_and_the_spans_it_read() -> None:
    basis = {"kind": "band", "rule": "the row whose range holds about 5,900 km (stated in the cited span)",
             "entities": [{"unit_id": U1, "quote": ROUTE}, {"unit_id": U2, "quote": ROW}],
             "unit_id": U2, "quote": ROW}
    a = _answer(question="How much for Delhi to Munich?", text=f"{ROUTE} [{U1}] {ROW} [{U2}]", direct="600 EUR",
                statements=[Statement(text=ROUTE, unit_ids=[U1]), Statement(text=ROW, unit_ids=[U2])],
                confidence=0.82, confidence_why="the answer computed from cited values", basis=basis)
    text = answer_text(a)
    lines = text.splitlines()
    i, j = lines.index("Answer: 600 EUR"), lines.index(f"  {ROUTE} [{U1}]")  # the direct answer, the statements
    computed = " ".join(x.strip() for x in lines[i + 1:j])  # between them, wrapped at 100 columns
    assert computed == (f"computed: the row whose range holds about 5,900 km (stated in the cited span); "
                        f"“{ROUTE}” [{U1}]; “{ROW}” [{U2}]")
    assert "how sure: 82% that it is right: the answer computed from cited values" in text


def test_a_comparison_shows_each_entitys_value_and_unit() -> None:
    basis = {"kind": "comparison", "rule": "smallest or earliest", "winner": "Kiss Me Kate",
             "entities": [{"name": "Kiss Me Kate", "value": 1953.0, "unit_id": U1, "quote": "…"},
                          {"name": "The Big Sleep", "value": 1946.5, "unit_id": U2, "quote": "…"}]}
    assert basis_text(basis) == (f"computed: smallest or earliest; Kiss Me Kate: 1953 [{U1}]; "
                                 f"The Big Sleep: 1946.5 [{U2}]")
    yes = {"kind": "yes_no", "rule": "the same nationality or place",
           "entities": [{"name": "A", "value": "american", "unit_id": U1, "quote": "…"},
                        {"name": "B", "unit_id": U2, "quote": "…"}]}
    assert basis_text(yes) == f"computed: the same nationality or place; A: american [{U1}]; B [{U2}]"


def test_an_answer_read_along_a_relation_path_shows_each_hop_and_its_unit() -> None:
    basis = {"kind": "path", "said": [["locate"], ["capital"]],
             "hops": [{"subject": "Munich Airport", "predicate": "located in", "type": "LOCATED_IN", "object": "Bavaria",
                       "unit_id": U1, "quote": "…"},
                      {"subject": "Munich", "predicate": "capital of", "type": "CAPITAL_OF", "object": "Bavaria",
                       "unit_id": U2, "quote": "…"}]}
    assert basis_text(basis) == (f"along the graph: (Munich Airport) -[located in]-> (Bavaria) [{U1}]; "
                                 f"(Munich) -[capital of]-> (Bavaria) [{U2}]")


def test_a_direct_answer_read_from_a_span_has_no_computed_line() -> None:
    assert basis_text(None) is None
    assert basis_text({"kind": "span", "unit_id": U1, "quote": "x"}) is None
    a = _answer(text=f"Paris is in France. [{U1}]", direct="Paris", confidence=0.9,
                statements=[Statement(text="Paris is in France.", unit_ids=[U1])],
                basis={"kind": "span", "unit_id": U1, "quote": "Paris is in France."})
    assert "computed:" not in answer_text(a)


def test_an_answer_not_stored_offers_no_audit() -> None:
    a = _answer(question="How much for Delhi to Munich?", text=f"{ROW} [{U2}]", direct="600 EUR",
                statements=[Statement(text=ROW, unit_ids=[U2])], confidence=0.82, confidence_why="a row")
    assert f"audit it: kmrag audit {a.id}" in answer_text(a, browser=True)
    unsaved = answer_text(a, browser=True, saved=False)
    assert "audit it:" not in unsaved and "Neo4j Browser" not in unsaved
    assert "not stored (--no-save): this answer cannot be audited" in unsaved
    assert a.id not in unsaved and "answer (not stored)" in unsaved  # no id of an answer that does not exist
    nothing = _answer(question="Who?", text="Information not found in knowledge map", confidence=0.0254,
                      confidence_why="weak")
    shown = answer_text(nothing, saved=False)
    assert "not stored (--no-save)" in shown  # a not-found answer is not stored either
    assert "confidence 0.03" in shown and "how sure: 3%" in shown  # one number, said twice
