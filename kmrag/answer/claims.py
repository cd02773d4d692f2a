"""A yes / no question read as the claim it asks about, once for each entity it names: "Are A and B both
published by Parker Brothers?" -> "A is published by Parker Brothers." and "B is published by Parker
Brothers."; "Did Parker Brothers publish both A and B?" -> "Parker Brothers did publish A." ... The support
check (kmrag.answer.judge) then decides whether each entity's span states its claim: "yes" needs every one.
General English word order, no dataset's wording; None when the question is not of that shape."""

from __future__ import annotations

import re
from collections.abc import Sequence

_AUX = re.compile(r"^(is|are|was|were|do|does|did|has|have|had|can|could|will|would)\s+(.*)$", re.I | re.S)
_SINGULAR = {"are": "is", "were": "was", "do": "does", "have": "has"}
_QUANTIFIER = re.compile(r"\b(?:both|all|each|either|also|too)\b\s*", re.I)


def claims(question: str, names: Sequence[str]) -> list[str] | None:
    """One declarative claim per name, or None (not an auxiliary-first question naming them in one
    coordination: "A and B", "A, B and C", "A or B")."""
    q = question.strip().rstrip("?").strip()
    m = _AUX.match(q)
    if m is None or not names:
        return None
    aux, rest = m.group(1).lower(), m.group(2)
    where = _coordination(rest, names)
    if where is None:
        return None
    lo, hi, said = where
    out = []
    for name in said:
        if lo == 0 or re.fullmatch(r"(?:both|all|each|either)\s*", rest[:lo], re.I):  # the names are the subject
            tail = _QUANTIFIER.sub("", rest[hi:]).strip().lstrip(",;: ")
            verb = _SINGULAR.get(aux, aux)
            out.append(f"{name} {verb} {tail}.")
        else:  # the names are an object: "did Parker Brothers publish both A and B"
            head = _QUANTIFIER.sub("", rest[:lo]).strip()
            subject_end = _subject_end(head)
            if subject_end is None:
                return None
            out.append(f"{head[:subject_end]} {aux} {head[subject_end:].strip()} {name}{rest[hi:]}.".replace("  ", " "))
    return out


def _coordination(text: str, names: Sequence[str]) -> tuple[int, int, list[str]] | None:
    """Where in ``text`` the names stand together, joined by commas, "and" or "or" only, and each name as the
    question writes it in full ("Bille" found as "Bille August"), in the order of ``names``."""
    spots = []
    for name in names:
        m = re.search(rf"(?<!\w){re.escape(name)}(?:\s+[A-Z0-9][\w.'&-]*)*(?!\w)", text)
        if m is None:
            return None
        spots.append((m.start(), m.end()))
    order = sorted(spots)
    for (_, a_end), (b_start, _) in zip(order, order[1:], strict=False):
        if not re.fullmatch(r"\s*(?:,\s*)?(?:and|or|as well as|,)\s*|\s*,\s*", text[a_end:b_start], re.I):
            return None
    return order[0][0], order[-1][1], [text[a:b] for a, b in spots]


def _subject_end(head: str) -> int | None:
    """Where the subject of "Parker Brothers publish" ends: before its first lower-case word (a verb)."""
    m = re.match(r"^((?:the\s+)?(?:[A-Z0-9][\w.'&-]*\s*)+)\s+[a-z]", head)
    return len(m.group(1)) if m else None
