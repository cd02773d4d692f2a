"""The last hop of a chain: a span that states the relation asked about is read before one that does not, and
a value from a span that does not state it is no answer when the span best read as answering the question gives
none ("the second tier of Kestrian football" is no club's nickname)."""

from __future__ import annotations

from typing import Any

import pytest

from kmrag.answer.chain import read_chain
from kmrag.answer.spans import Span
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser

pytestmark = pytest.mark.unit

QUESTION = "What is the nickname of the football club based in Dunmore?"


def _span(i: int, text: str, title: str) -> Span:
    return Span(unit_id=f"u_{i:016x}", source_id="s", start=0, end=len(text), quote=text, kind="sentence",
                display=text, rank=i, title=title)


CLUB = _span(1, "Dunmore Rovers is a football club based in Dunmore.", "Dunmore Rovers")
NICKNAMED = _span(2, 'The team is nicknamed "the Millers".', "Dunmore Rovers")  # a value the reader cannot read
TIER = _span(3, "Dunmore Rovers play in the second tier of Kestrian football.", "Dunmore Rovers")
KNOWN = _span(4, "Dunmore Rovers are known by the nickname the Millers.", "Dunmore Rovers")


def _chain(x: SpacyExtractor, spans: list[Span], order: list[Span],
           reads: dict[int, tuple[str, bool]]) -> tuple[str, dict[str, Any]] | None:
    """read_chain with a reader that reads ``reads[span.rank]`` (answer, states the relation) and a ranker that
    ranks the last hop's spans in ``order``; the first hop reads the club from its span."""
    analyser = QuestionAnalyser(x)

    def read(question: str, answer_type: str, mentions: Any, pool: Any) -> tuple[str, Span, dict[str, Any]] | None:
        for s in pool:
            if "nickname" not in question and s is CLUB:
                return "Dunmore Rovers", s, {"relation_stated": True}
            if "nickname" in question and s.rank in reads:
                answer, stated = reads[s.rank]
                return answer, s, {"relation_stated": stated}
        return None

    def rank(question: str, pool: Any) -> list[tuple[Span, float]]:
        listed = [s for s in order if s in pool] + [s for s in pool if s not in order]
        return [(s, 1.0 - i / 10) for i, s in enumerate(listed)]

    got = read_chain(QUESTION, analyser.analyse(QUESTION), spans, read, rank, analyser.analyse)
    return None if got is None else (got[1], got[2])


def test_the_span_best_read_as_answering_gives_nothing_so_a_span_not_stating_the_relation_answers_nothing(
        x: SpacyExtractor) -> None:
    assert QuestionAnalyser(x).analyse(QUESTION).sub_question is not None
    reads = {3: ("Kestrian", False)}
    assert _chain(x, [CLUB, NICKNAMED, TIER], [NICKNAMED, TIER, CLUB], reads) is None
    # read first itself, it stands as before (the confidence says the relation is not stated)
    got = _chain(x, [CLUB, NICKNAMED, TIER], [TIER, NICKNAMED, CLUB], reads)
    assert got is not None and got[0] == "Kestrian" and got[1]["relation_stated"] is False


def test_a_span_stating_the_relation_is_read_before_a_better_ranked_one_that_does_not(x: SpacyExtractor) -> None:
    reads = {3: ("Kestrian", False), 4: ("the Millers", True)}
    got = _chain(x, [CLUB, TIER, KNOWN], [TIER, KNOWN, CLUB], reads)
    assert got is not None and got[0] == "the Millers"
    assert got[1]["hops"][-1]["quote"] == KNOWN.quote and got[1]["relation_stated"] is True


def test_a_value_from_the_span_ranked_first_keeps_the_answer_read_from_another(x: SpacyExtractor) -> None:
    # the span ranked first gives a value too: the bridge's own span's answer stands, as before
    other = _span(5, "Fans of Dunmore Rovers call them the Millers.", "Dunmore")
    reads = {3: ("Kestrian", False), 5: ("the Millers", False)}
    got = _chain(x, [CLUB, other, TIER], [other, TIER, CLUB], reads)
    assert got is not None and got[0] == "Kestrian"
