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
# a predicate said of the group, not of each one: "in the same band", "partners", "married to each other"
_COLLECTIVE = re.compile(r"\b(?:same|different|together|each\s+other|one\s+another|partners?|related|relatives|"
                         r"rivals?|siblings|brothers|sisters|twins|friends|teammates|colleagues|similar|alike|equal|"
                         r"apart|married|neighbou?rs|each\s+other's|other's|between|compared)\b", re.I)


def claims(question: str, names: Sequence[str], mentions: Sequence[str] = ()) -> list[str] | None:
    """One declarative claim per name, or None (not an auxiliary-first question naming them in one
    coordination: "A and B", "A, B and C", "A or B"; or a predicate said of them as a group). ``mentions``:
    the question's mentions, to write a name the analysis clipped ("Bille") as the question does ("Bille
    August")."""
    q = question.strip().rstrip("?").strip()
    m = _AUX.match(q)
    if m is None or not names or _COLLECTIVE.search(q):
        return None
    aux, rest = m.group(1).lower(), m.group(2)
    names = [max((x for x in mentions if n in x and (at := _span_of(x, rest)) is not None
                  and not any(_overlaps(at, _span_of(o, rest)) for o in names if o != n)), key=len, default=n)
             for n in names]  # (not "Santos and Fabián Bielinsky", which runs into another name)
    where = _coordination(rest, names)
    if where is None:
        return None
    lo, hi, said = where
    out = []
    for name in said:
        if lo == 0 or re.fullmatch(r"(?:both|all|each|either)\s*", rest[:lo], re.I):  # the names are the subject
            tail = _QUANTIFIER.sub("", rest[hi:]).strip().lstrip(",;: ")
            if not tail or tail[:1].isupper():
                return None  # "Are Metropolis and Nosferatu American films?": the names may run on
            verb = _SINGULAR.get(aux, aux)
            out.append(f"{name} {verb} {tail}.")
        else:  # the names are an object: "did Parker Brothers publish both A and B"
            head = _QUANTIFIER.sub("", rest[:lo]).strip()
            subject, _, verb = head.rpartition(" ")  # "Parker Brothers publish": the verb is the last word
            if not subject or not verb.islower():
                return None
            out.append(f"{subject} {aux} {verb} {name}{rest[hi:]}.")
    return out


def _span_of(name: str, text: str) -> tuple[int, int] | None:
    m = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
    return (m.start(), m.end()) if m else None


def _overlaps(a: tuple[int, int], b: tuple[int, int] | None) -> bool:
    return b is not None and a[0] < b[1] and b[0] < a[1]


def _coordination(text: str, names: Sequence[str]) -> tuple[int, int, list[str]] | None:
    """Where in ``text`` the names stand together, joined by commas, "and" or "or" only, and each name as
    written there, in the order of ``names``."""
    spots = []
    for name in names:
        if (at := _span_of(name, text)) is None:
            return None
        spots.append(at)
    order = sorted(spots)
    for (_, a_end), (b_start, _) in zip(order, order[1:], strict=False):
        if not re.fullmatch(r"\s*(?:,\s*)?(?:and|or|as well as|,)\s*|\s*,\s*", text[a_end:b_start], re.I):
            return None
    return order[0][0], order[-1][1], [text[a:b] for a, b in spots]
