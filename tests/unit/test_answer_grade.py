"""The offline grader's check that the evidence is about the question's entities."""

from __future__ import annotations

from typing import Any

import pytest

from kmrag.answer.context import Context
from kmrag.answer.grade import OfflineGrader
from kmrag.answer.validate import validate
from kmrag.retrieval.analysis import QuestionAnalysis
from tests.unit.test_answer_validation import T, unit

pytestmark = pytest.mark.unit

QUESTION = "In what year was the Portland, Maine folk band that Tom Arkell played drums for formed?"
ANALYSIS = QuestionAnalysis(question=QUESTION, kind="bridge", answer_type="DATE",
                            mentions=["Portland", "Maine", "Tom Arkell", "Maine folk band"])
ARKELL = unit("u_" + "1" * 16, "Tom Arkell was an American drummer. He played drums for the Marsh Kings.", title="Tom Arkell")


def grade(band: str) -> bool:
    ctx = Context.of(T, [ARKELL, unit("u_" + "2" * 16, band, title="The Marsh Kings")])
    text = (f"He played drums for the Marsh Kings. [{ARKELL.id}]\n"
            f"Formed in 1979, they toured widely. [u_{'2' * 16}]")
    v = validate(text, ctx, lambda ids: set(), direct="1979", basis={"kind": "chain"})
    return OfflineGrader().grade_answer(QUESTION, ANALYSIS, v, ctx).on_topic


def test_a_cited_unit_names_the_question_s_entities_where_its_cited_sentence_does_not() -> None:
    # the sentence cited holds the year; the band's own unit, cited, says it is the Portland, Maine folk band
    assert grade("The Marsh Kings are an American folk band from Portland, Maine. Formed in 1979, they toured widely.")


def test_evidence_about_other_things_is_off_topic() -> None:
    assert not grade("The Marsh Kings are a punk band from Ohio. Formed in 1979, they toured widely.")


AIR_INDIA = unit("u_" + "3" * 16, "Air India is headquartered in New Delhi.", title="AIRLINES")
LUFTHANSA = unit("u_" + "4" * 16, "Lufthansa was founded in 1953 and is based in Cologne.", title="AIRLINES")
FOUNDED = "When was Air India founded?"
ONE_HOP = QuestionAnalysis(question=FOUNDED, kind="factoid", answer_type="DATE", mentions=["Air India"])


def _stitched(meaning: float | None, analysis: QuestionAnalysis = ONE_HOP, about: str = LUFTHANSA.content) -> Any:
    read = unit(LUFTHANSA.id, about, title="AIRLINES")
    ctx = Context.of(T, [AIR_INDIA, read])
    text = f"{AIR_INDIA.content} [{AIR_INDIA.id}]\n{about} [{read.id}]"
    v = validate(text, ctx, lambda ids: set(), direct="1953",
                 basis={"kind": "span", "unit_id": read.id, "quote": about, "meaning": meaning})
    return OfflineGrader().grade_answer(FOUNDED, analysis, v, ctx)


def test_a_one_hop_answer_read_off_another_entity_s_unit_is_not_on_topic() -> None:
    """The other cited unit names Air India; the year was read from Lufthansa's, which the cross-encoder does not
    read as an answer: stitched, so not on topic (the answer becomes "not found", the spans its evidence)."""
    got = _stitched(0.07)
    assert not got.on_topic and not got.addresses and "names none of 'Air India'" in got.why
    assert _stitched(0.95).on_topic  # read as an answer to it: the span may say it in other words
    assert _stitched(None).on_topic  # read without the cross-encoder: not judged
    assert _stitched(0.07, about="It was founded in 1953 as Air India's rival, Tata Airlines.").on_topic
    bridge = QuestionAnalysis(question=FOUNDED, kind="bridge", answer_type="DATE", mentions=["Air India"])
    assert _stitched(0.07, bridge).on_topic  # a bridge's answer is in another entity's unit


def test_a_unit_of_code_setting_an_identifier_the_question_names_in_words_is_useful() -> None:
    """"the default minimum score": the unit setting min_score shares none of the question's words as written
    (it was graded 0% and left out of the context); it names what the question asks about."""
    code = unit("u_" + "5" * 16, 'var minScore = TryGetDouble(args, "min_score", 0.45);', title="Refine", type_="code")
    other = unit("u_" + "6" * 16, "var k = 4;", title="Refine", type_="code")
    q = "What is the default minimum score?"
    analysis = QuestionAnalysis(question=q, kind="factoid", answer_type="NUMBER", mentions=[])
    got = {g.unit_id: g for g in OfflineGrader().grade_units(q, analysis, [code, other])}
    assert got[code.id].useful and "minScore" in got[code.id].why and not got[other.id].useful


def test_a_hyphenated_word_of_the_question_meets_its_parts_in_a_unit() -> None:
    """"a full-price ticket" and a table's "Full price" column: the table was graded 0% and left out."""
    bands = unit("u_" + "9" * 16, "| Band | Full price | Concession |\n|---|---|---|\n| A | £28.00 | £25.00 |",
                 title="Live events", type_="table")
    q = "How much is a full-price ticket for An Evening with Corinne Blake?"
    analysis = QuestionAnalysis(question=q, kind="factoid", answer_type="MONEY", mentions=["Corinne Blake"])
    (got,) = OfflineGrader().grade_units(q, analysis, [bands])
    assert got.useful and got.why.startswith("29%")  # "full" and "price" of 7 words


def _read_off(question: str, quote: str, mentions: list[str], direct: str) -> Any:
    u = unit("u_" + "7" * 16, quote, title="AIRLINES")
    other = unit("u_" + "8" * 16, "Air India is headquartered in New Delhi.", title="AIRLINES")
    ctx = Context.of(T, [u, other])
    v = validate(f"{quote} [{u.id}]\n{other.content} [{other.id}]", ctx, lambda ids: set(), direct=direct,
                 basis={"kind": "span", "unit_id": u.id, "quote": quote, "meaning": 0.93})
    analysis = QuestionAnalysis(question=question, kind="factoid", answer_type="PERSON", mentions=mentions)
    return OfflineGrader().grade_answer(question, analysis, v, ctx)


def test_a_span_saying_the_question_s_relation_of_another_name_answers_another_question() -> None:
    """The cross-encoder reads "Carsten Spohr is the chief executive of Lufthansa" as an answer to "Who is the
    chief executive of Air India?" (0.93); the span says the relation of another name: not on topic."""
    got = _read_off("Who is the chief executive of Air India?", "Carsten Spohr is the chief executive of Lufthansa.",
                    ["Air India"], "Carsten Spohr")
    assert not got.on_topic and "'chief executive of Lufthansa', not 'chief executive of Air India'" in got.why
    same = _read_off("Who is the chief executive of Lufthansa?", "Carsten Spohr is the chief executive of Lufthansa.",
                     ["Lufthansa"], "Carsten Spohr")
    assert same.on_topic
    # the answer is the other name itself (the span is about it): not judged
    assert _read_off("Who runs the airline of Air India?", "It is the airline of Lufthansa.", ["Air India"],
                     "Lufthansa").on_topic


def test_the_headings_a_cited_unit_sits_under_name_the_question_s_entities_too() -> None:
    """"in the multi-hop RAG retry example": a line of code under "6. Query Refinement Function" of the document
    titled "Multi-Hop RAG Retry Example" is about it, though neither its words nor its title say so."""
    q = "What is the default min_score in the multi-hop RAG retry example?"
    analysis = QuestionAnalysis(question=q, kind="factoid", answer_type="NUMBER", mentions=["RAG retry example", "RAG"])
    code = unit("u_" + "7" * 16, 'var minScore = TryGetDouble(args, "min_score", 0.45);', title="6. Query Refinement",
                type_="code")

    def on_topic(path: list[str]) -> bool:
        ctx = Context.of(T, [code.model_copy(update={"section_path": path})])
        text = f'var minScore = TryGetDouble(args, "min_score", 0.45); [{code.id}]'
        v = validate(text, ctx, lambda ids: set(), direct="0.45", basis={"kind": "assigned"})
        return OfflineGrader().grade_answer(q, analysis, v, ctx).on_topic

    assert on_topic(["Multi-Hop RAG Retry Example", "6. Query Refinement"])
    assert not on_topic(["Corrective Loop Example", "6. Query Refinement"])


def test_the_headings_of_a_paragraph_say_nothing_of_what_it_is_about() -> None:
    """Only code is cited by its headings: a paragraph about PostgreSQL under "Neo4j Versus PostgreSQL" answers
    no question about Neo4j."""
    q = "How many nodes does Neo4j store per page?"
    analysis = QuestionAnalysis(question=q, kind="factoid", answer_type="NUMBER", mentions=["Neo4j"])
    para = unit("u_" + "8" * 16, "PostgreSQL stores 8 rows per page.", title="PostgreSQL Storage")
    ctx = Context.of(T, [para.model_copy(update={"section_path": ["Neo4j Versus PostgreSQL", "PostgreSQL Storage"]})])
    v = validate(f"PostgreSQL stores 8 rows per page. [{para.id}]", ctx, lambda ids: set(), direct="8",
                 basis={"kind": "span"})
    assert not OfflineGrader().grade_answer(q, analysis, v, ctx).on_topic


def test_a_hyphenated_name_is_named_by_its_words_apart() -> None:
    # "self rag" typed in a search box names the "self-RAG" the cited unit speaks of, and only its words do
    q = "How much extra latency does self RAG add?"
    analysis = QuestionAnalysis(question=q, kind="factoid", answer_type="NUMBER", mentions=["self RAG"])
    for content, on_topic in (("Using self-RAG for every query is costly: the extra LLM calls add 200-800ms.", True),
                              ("Using graph retrieval for every query is costly: the extra LLM calls add 200-800ms.", False)):
        u = unit("u_" + "5" * 16, content, title="Costs")
        ctx = Context.of(T, [u])
        v = validate(f"{content} [{u.id}]", ctx, lambda ids: set(), direct="200-800ms", basis={"kind": "span"})
        assert OfflineGrader().grade_answer(q, analysis, v, ctx).on_topic is on_topic, content


def test_hyphens_apart_a_name_is_named_whole() -> None:
    from kmrag.answer.grade import names
    from kmrag.answer.support import terms

    assert names("self RAG", terms("Using self-RAG for every query").words)
    assert names("self-RAG", terms("Using self RAG for every query").words)
    assert not names("corrective RAG", terms("Using self-RAG for every query").words)  # (a reviewer's probe)
    assert not names("Trail Blazers", terms("a cross-trail race").words)


def test_a_number_in_a_name_tells_it_from_its_kin() -> None:
    from kmrag.answer.grade import names
    from kmrag.answer.support import terms

    def said(text: str) -> tuple[frozenset[str], frozenset[str]]:
        t = terms(text)
        return frozenset(t.words), frozenset(t.numbers)

    assert not names("Canopy Three", *said("Product: Canopy Two; List price: 2,250"))
    assert names("Canopy Two", *said("Product: Canopy Two; List price: 2,250"))
    assert not names("Apollo 13", *said("Apollo 11 landed on the Moon in 1969."))
    assert names("Apollo 11", *said("Apollo 11 landed on the Moon in 1969."))
    assert not names("the Second Fleet", *said("the First Fleet sailed in 1787"))
    # without the text's numbers, as before: the words alone decide
    assert names("Apollo 13", terms("Apollo landed").words)
