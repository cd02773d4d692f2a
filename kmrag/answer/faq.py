"""A yes/no question a page of frequently asked questions asks itself: "do i need my own kayak to join the
paddling section" is answered by the FAQ's "**Do I need my own kayak to join the paddling section?**" and the
"No." that opens the answer after it.

The FAQ's question must say every word of the question (two at least) and its numbers, and the question three in
four of the FAQ's, with the same negation ("Can I join without a kayak?" is not "Do I need a kayak?", "Do coaches
need to book?" not "Do members need to book?"); the answer is the span right after it in the same unit, opening with
"Yes" or "No"."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kmrag.answer.spans import Span
from kmrag.answer.support import STOP, terms

SHARE = 0.75  # the share of the FAQ's words the question must say
_NEGATION = re.compile(r"\b(?:not|no|never|without|cannot)\b|n't\b", re.I)
_OPENS = re.compile(r"^\W*(yes|no)\b(?!\s+(?:one|longer|more|less)\b)", re.I)


def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in terms(text).words if w not in STOP)


def faq_answer(question: str, spans: Sequence[Span]) -> tuple[list[Span], str, dict[str, Any]] | None:
    """(the FAQ's question and its answer, "yes" or "no", the basis), or None when no FAQ asks the question."""
    asked = _words(question)
    if len(asked) < 2:
        return None
    negated = bool(_NEGATION.search(question))
    for s in spans:
        text = s.display.strip(" *_#-•")
        if not text.endswith("?") or bool(_NEGATION.search(text)) != negated:
            continue
        own = _words(text)
        if not asked <= own or len(asked) < SHARE * len(own) or terms(question).numbers != terms(text).numbers:
            continue  # "Do coaches need to book boats?" is not "Do members ...", "founded in 1925" not "in 1921"
        after = [x for x in spans if x.unit_id == s.unit_id and x.start >= s.end]
        nxt = min(after, key=lambda x: x.start, default=None)
        if nxt is None or not (m := _OPENS.match(nxt.display)):
            continue
        said = m.group(1).lower()
        return [s, nxt], said, {"kind": "yes_no", "rule": "the answer a list of questions gives to this question",
                                "entities": [{"name": text, "unit_id": nxt.unit_id, "quote": nxt.quote,
                                              "value": said}]}
    return None
