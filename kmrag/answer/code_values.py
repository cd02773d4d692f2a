"""Values set in code: a question that names an identifier ("what top_k does the retry example start with?")
is answered with the literal the cited code gives it (``args["top_k"] = 4``, ``top_k: int = 5``,
``TryGetInt(args, "top_k", 4)``, ``"top_k": 4``), whichever way the code writes the name (``top_k``, ``topK``).

Only literals count (numbers, quoted strings, booleans, null): ``args["top_k"] = newTopK`` sets no value one
can read. When the spans set the identifier to different values, every value is counted, so the answer says
how many it chose among."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from kmrag.answer.spans import line_of
from kmrag.answer.support import STOP
from kmrag.schema.search_keys import described_keys
from kmrag.schema.search_keys import identifier_key as key
from kmrag.schema.search_keys import identifiers as asked_identifiers

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_LITERAL = r"-?\d[\d_]*(?:\.\d+)?|\"[^\"\n]{0,80}\"|'[^'\n]{0,80}'|true|false|True|False|None|null|nil"
# name [quote] [bracket] [: type] = literal   |   name [quote] : literal   |   "name", literal)  (a default)
_SET = re.compile(rf"(?P<name>{_NAME})[\"']?\]?\s*(?::\s*[A-Za-z_][\w\[\], .|]*?\s*)?(?:=(?!=)|:(?!:))\s*(?P<value>{_LITERAL})"
                  rf"(?![\w.])")
_IN_SIGNATURE = re.compile(r"\b(?:def|function|func|fn)\s+\w+\s*\([^)]*$")  # inside a definition's parameters
_DEFINED = re.compile(r"\b(?:def|function|func|fn|class|void|static)\s+(?:[\w<>\[\]]+\s+)?([A-Za-z_]\w*)\s*\(")
_DEFAULT = re.compile(rf"[\"'](?P<name>{_NAME})[\"']\s*,\s*(?P<value>{_LITERAL})\s*\)")


def assignments(identifier: str, text: str) -> list[tuple[str, int, bool]]:
    """(literal, offset, is a default) of each value ``text`` sets ``identifier`` to, quotes taken off strings.
    A default: a parameter's (``top_k: int = 5``, ``top_k=5`` in a signature) or a getter's fallback
    (``TryGetInt(args, "top_k", 4)``)."""
    want = key(identifier)
    out = []
    for pattern in (_SET, _DEFAULT):
        for m in pattern.finditer(text):
            if key(m.group("name")) == want:
                value = m.group("value")
                if value[:1] in {'"', "'"}:
                    value = value[1:-1]
                default = pattern is _DEFAULT or bool(_IN_SIGNATURE.search(text[:m.start()]))
                out.append((value, m.start("value"), default))
    return sorted(set(out), key=lambda x: x[1])


# words that ask for a value rather than say which document: "the default top_k value used in the X example"
_ASKING = frozenset("default defaults value values used uses using setting settings parameter parameters".split())


def _line_of(span: Any, name: str, value: str) -> Any:
    """The line of a code span that sets ``name`` to ``value`` (a statement is one line; the span is a block)."""
    for line in span.quote.split("\n"):
        if line.strip() and any(v == value for v, _, _ in assignments(name, line)):
            return line_of(span, line)
    return span


def read_assigned(question: str, spans: Sequence[Any], scores: Sequence[float] = (),
                  headings: Mapping[str, str] | None = None) -> tuple[list[Any], str, dict[str, Any]] | None:
    """(the span that sets it, its value, basis) for the first identifier the question names that one of the
    ``spans`` (best first; each with ``display`` and ``unit_id``) sets to a literal; None when none does. The
    span naming most of the question's other identifiers goes first ("what top_k does self_rag use": the
    ``def self_rag(..., top_k: int = 5)``), then the span under the headings that say most of the question's
    words (``headings``: unit id -> its title and section path; "the retry example" is the document "Multi-Hop
    RAG Retry Example"), then a default before a value set, when the question asks one, then the span of the
    document the question is most about: whose best span scores highest (``scores``, parallel to ``spans``). A word of the question that a span defines counts as an identifier it names ("the default
    top_k of retrieve": ``def retrieve(query, index, top_k: int = 5)``)."""
    about: dict[str, float] = {}
    for span, score in zip(spans, list(scores) or [0.0] * len(spans), strict=True):
        about[span.source_id] = max(about.get(span.source_id, score), score)
    names = _unique([*asked_identifiers(question), *described(question, spans)])
    wants_default = bool(re.search(r"\bdefaults?\b|\bby default\b", question, re.I))
    asked_words = {w.lower() for w in re.findall(r"[A-Za-z_]\w{3,}", question)}
    for name in names:
        others = {key(n) for n in names} - {key(name)}
        found = [(span, value, default) for span in spans for value, _, default in assignments(name, span.display)]
        if not found:
            continue
        named = {id(span): sum(1 for n in asked_identifiers(span.display) if key(n) in others) +
                 sum(1 for d in _DEFINED.findall(span.display) if d.lower() in asked_words - {name.lower()})
                 for span, _, _ in found}
        under = {id(span): len((asked_words - STOP - _ASKING) & {w.lower() for w in re.findall(r"[A-Za-z_]\w{3,}",
                                                                      (headings or {}).get(span.unit_id, ""))})
                 for span, _, _ in found}
        order = sorted(range(len(found)), key=lambda i: (-named[id(found[i][0])], -under[id(found[i][0])],
                                                         -(wants_default and found[i][2]),
                                                         -about.get(found[i][0].source_id, 0.0), i))
        span, value, _ = found[order[0]]
        values = sorted({v for _, v, _ in found})
        span = _line_of(span, name, value)
        return [span], value, {"kind": "assigned", "identifier": name, "candidates": len(values),
                               "values": values, "distance": 0, "relation_stated": True,
                               "unit_id": span.unit_id, "quote": span.display}
    return None


def described(question: str, spans: Sequence[Any]) -> list[str]:
    """The identifiers the spans set that the question names in words: "the default quality threshold" is
    ``quality_threshold``, "the minimum score" ``min_score``, "the maximum number of attempts" ``max_attempts``
    (:func:`kmrag.schema.search_keys.described_keys`: two or three words near each other, code's short forms).
    A name of one word ("score") names too much."""
    keys = set(described_keys(question, STOP))
    return [name for name in _unique([m.group("name") for span in spans for pattern in (_SET, _DEFAULT)
                                      for m in pattern.finditer(span.display)]) if key(name) in keys]


def _unique(names: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    return [n for n in names if not (key(n) in seen or seen.add(key(n)))]  # type: ignore[func-returns-value]

