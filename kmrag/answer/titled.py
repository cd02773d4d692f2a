"""Names that hold "and", read whole from the titles of the units found: "Did the movies We Stick Together Through
Thick and Thin and Total Badass originate from the same country?" compares "We Stick Together Through Thick and
Thin" with "Total Badass", not "We Stick Together Through Thick" with "Thin".

The question's analysis splits a comparison at "and" before anything is retrieved; once units are found, a unit's
title written in the question that holds "and" (or "&") is one of the names compared, and the name joined to it by
"and" is the other."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kmrag.retrieval.analysis import QuestionAnalysis

_JOINED = re.compile(r"\s(?:and|&)\s", re.I)


def titled_compared(question: str, analysis: QuestionAnalysis, titles: Sequence[str]) -> QuestionAnalysis:
    """``analysis`` with its compared names read again from ``titles`` (the context units' titles), or as it was."""
    if analysis.kind != "comparison" or len(analysis.compared) < 2:
        return analysis
    low = question.lower()
    for title in sorted({t for t in titles if t and _JOINED.search(t)}, key=len, reverse=True):
        at = _word_at(low, title.lower())
        if at < 0:
            continue
        end = at + len(title)
        cut = [c for c in analysis.compared if at <= (p := low.find(c.lower())) and p + len(c) <= end]
        if not cut:
            continue  # the analysis did not split this title: nothing to mend
        name = question[at:end]
        others = [c for c in analysis.compared if c not in cut and not _inside(low, c, at, end)]
        if not others:
            others = [m for m in analysis.mentions if _joined_to(low, m, at, end)][:1]
        if others:
            return analysis.model_copy(update={"compared": [name, *others],
                                               "mentions": list(dict.fromkeys([name, *others, *analysis.mentions]))})
    return analysis


def _word_at(text: str, part: str) -> int:
    m = re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text)
    return m.start() if m else -1


def _inside(low: str, name: str, at: int, end: int) -> bool:
    p = low.find(name.lower())
    return p >= 0 and at <= p < end


def _joined_to(low: str, mention: str, at: int, end: int) -> bool:
    """Is ``mention`` the name "and" joins to the title at [at, end) ("T and M", "M and T")?"""
    p = _word_at(low, mention.lower())
    return p >= 0 and (re.fullmatch(r"\s+(?:and|&)\s+", low[end:p]) is not None
                       or re.fullmatch(r"\s+(?:and|&)\s+", low[p + len(mention):at]) is not None)
