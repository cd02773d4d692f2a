"""Values set in code (kmrag.answer.code_values): a question naming an identifier is answered with the literal
the cited code gives it, in any of the usual forms, and only a literal."""

from __future__ import annotations

import pytest

from kmrag.answer.code_values import assignments, read_assigned
from kmrag.answer.spans import Span
from kmrag.schema.search_keys import identifier_key, identifiers, search_key

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "values"), [
    ('if (!args.ContainsName("top_k")) args["top_k"] = 4;', ["4"]),
    ("def retrieve(query: str, index, top_k: int = 5) -> list:", ["5"]),
    ("results = index.query(embedding, top_k=8)", ["8"]),
    ('var topK = TryGetInt(args, "top_k", 4);', ["4"]),  # a getter's fallback
    ('config = {"top_k": 7, "mode": "fast"}', ["7"]),
    ("top_k: 3", ["3"]),  # YAML
    ('args["top_k"] = newTopK;', []),  # no literal: nothing one can read
    ("if top_k == 3: return", []),  # a comparison sets nothing
    ("stop_kind = 2", []),  # another identifier that contains it
])
def test_the_literal_an_identifier_is_set_to(text: str, values: list[str]) -> None:
    assert [v for v, _, _ in assignments("top_k", text)] == values


def test_every_spelling_of_an_identifier_is_one() -> None:
    assert identifier_key("top_k") == identifier_key("topK") == identifier_key("TOP_K") == "topk"
    assert identifiers("what top_k and maxAttempts does it use?") == ["top_k", "maxAttempts"]
    assert identifiers("What is the top story?") == []
    assert search_key("args['top_k'] = 4") == "args['top_k'] = 4 topk"  # indexed joined too
    assert search_key("Marie Curie was born in Warsaw.") is None  # nothing to join: as before


def _span(uid: str, source: str, text: str) -> Span:
    return Span(uid, source, 0, len(text), text, "code", text, 0, "")


def test_the_value_comes_from_the_code_that_names_what_the_question_names() -> None:
    spans = [_span("u_a", "a.cs", 'args["top_k"] = 4;\nargs["min_score"] = 0.45;'),
             _span("u_b", "b.py", "def self_rag(query, index, max_iterations: int = 2, top_k: int = 5):")]
    chain, value, basis = read_assigned("What top_k does self_rag use?", spans, [2.0, 1.0])
    assert (value, chain[0].unit_id, basis["candidates"]) == ("5", "u_b", 2)  # the function named, of two values
    chain, value, basis = read_assigned("What is the min_score?", spans, [2.0, 1.0])
    assert (value, chain[0].quote, basis["kind"]) == ("0.45", 'args["min_score"] = 0.45;', "assigned")  # its line
    assert chain[0].start == spans[0].quote.index('args["min_score"]')  # the line's own offsets in the unit
    assert read_assigned("What is the max_attempts?", spans, [2.0, 1.0]) is None  # not set here: no answer
    assert read_assigned("Who founded Lufthansa?", spans, [2.0, 1.0]) is None  # names no identifier


def test_a_default_is_taken_before_a_value_set_when_the_question_asks_one() -> None:
    spans = [_span("u_a", "a.cs", 'var args = new KernelArguments { ["max_attempts"] = 4 };'),
             _span("u_b", "a.cs", 'var maxAttempts = TryGetInt(args, "max_attempts", 3);')]
    assert read_assigned("What is the default max_attempts?", spans, [2.0, 1.0])[1] == "3"
    assert read_assigned("What max_attempts does the run use?", spans, [2.0, 1.0])[1] == "4"


def test_an_identifier_named_in_words_is_read_like_one_named_in_code() -> None:
    """"the default quality threshold" is ``quality_threshold``; "the minimum score" ``min_score`` or ``minScore``
    (code's short forms); a name of one word, or words far apart, name nothing."""
    spans = [_span("u_a", "a.py", "def corrective_rag(query, index, quality_threshold: float = 0.4, top_k: int = 5):"),
             _span("u_b", "b.cs", 'var minScore = TryGetDouble(args, "min_score", 0.45);\nscore = 3')]
    assert read_assigned("What quality threshold does corrective RAG use by default?", spans, [1.0, 1.0])[1] == "0.4"
    assert read_assigned("What is the default minimum score?", spans, [1.0, 1.0])[1] == "0.45"
    assert read_assigned("What is the top k?", spans, [1.0, 1.0])[1] == "5"
    assert read_assigned("What is the score?", spans, [1.0, 1.0]) is None  # one word names too much
    assert read_assigned("Which quality do the best young players need to pass the threshold?", spans,
                         [1.0, 1.0]) is None  # words far apart


def test_the_keys_of_an_identifier_named_in_words() -> None:
    from kmrag.schema.search_keys import described_keys

    keys = described_keys("the maximum number of attempts", {"the", "of"})
    assert {"maxattempts", "maximumattempts", "maxnumberattempts"} <= set(keys)
    assert "theattempts" not in keys and described_keys("the", {"the"}) == []
    assert "minrequiredchunks" in described_keys("minimum required chunks")
    assert "ab" not in described_keys("a x y z b")  # farther apart than the window


def test_the_document_the_question_names_by_its_title_goes_before_another_s_code() -> None:
    """"the retry example" is the document titled "Multi-Hop RAG Retry Example": its value, not that of a document
    scored higher under "Working example"; with no headings given, the better-scored document's."""
    spans = [_span("u_b", "b.py", "def corrective_rag(query, index, top_k: int = 5):"),
             _span("u_a", "a.cs", 'args["top_k"] = 4;')]
    headings = {"u_a": "6. Query Refinement Function Multi-Hop RAG Retry Example", "u_b": "Working example"}
    assert read_assigned("What top_k does the retry example use?", spans, [2.0, 1.0], headings)[1] == "4"
    assert read_assigned("What top_k does the retry example use?", spans, [2.0, 1.0])[1] == "5"
    # words that ask for a value say no document: "default", "value", "used"
    assert read_assigned("What is the default top_k value used in the corrective example?", spans, [1.0, 2.0],
                         {"u_b": "Corrective RAG Example", "u_a": "Default Values Used Example"})[1] == "5"
    headings["u_b"] = "Corrective RAG Example"
    assert read_assigned("What top_k does the corrective RAG example use?", spans, [1.0, 2.0], headings)[1] == "5"
