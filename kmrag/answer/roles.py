"""Roles in brackets: "Present: Cllr Harriet Oyelaran (Chair), Cllr Neville Brasch (Vice-Chair), ...", "Odile
Framsby (Central Library Manager)" — minutes' attendance lists, a team page. "Who chairs the Library Committee?"
is the one name whose bracket says the role the question asks, no more ("Vice-Chair" says "vice", which the
question does not), in minutes of the committee the question names."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kmrag.answer.spans import Span
from kmrag.answer.support import STOP, terms

# a person's name (with an honorific), then a bracket of at most eight words: their role
_HELD = re.compile(r"(?P<name>(?:(?:Cllr|Councillor|Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)\.?\s+)?(?-i:[A-Z])[\w'’.-]+"
                   r"(?:\s+(?-i:[A-Z])[\w'’-]+){1,3})\s*\((?P<role>[^()]{2,60})\)")
_HONORIFIC = re.compile(r"^(?:Cllr|Councillor|Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)\.?\s+")
# a role's words that say nothing of what the role is (the minute-taker's initials, "minutes")
_ASIDE = re.compile(r"^(?-i:[A-Z]{2,4})$|^minutes$", re.I)


def role_holder(question: str, mentions: Sequence[str], spans: Sequence[Span],
                akin: Callable[[str, frozenset[str]], bool]) -> tuple[Span, str, str] | None:
    """(span, name, rule) of the person whose bracketed role every word of which the question says, one of them
    not a name of the question ("chairs" says "Chair"), the role saying more of them than any other's; the
    question's names said by the span, its unit's title or its section. None when none, or two people's roles
    say as much."""
    qterms = terms(question)
    asked = qterms.words | {w.lower() for w in qterms.names}
    asked |= {p for w in asked if "-" in w for p in w.split("-") if p}  # "vice-chair" says "Vice-Chair"
    named = {w.lower() for m in mentions for w in terms(m).words | terms(m).names}
    found: dict[str, tuple[int, Span, str, str]] = {}
    for s in spans:
        if s.kind != "sentence":
            continue
        frame = f"{s.section} {s.title} {s.display}".lower()
        if any(m.lower() not in frame for m in mentions if not _held_inside(m, s.display)):
            continue
        for m in _HELD.finditer(s.display):
            parts = [p.strip() for p in m.group("role").split(",")]
            words = [w for p in parts for w in re.findall(r"[\w'’]+", p) if not _ASIDE.match(w)]
            role = frozenset(w.lower() for w in words if w.lower() not in STOP)
            if not role or not all(akin(w, asked) for w in role) or not any(w not in named and akin(w, asked - named)
                                                                          for w in role):
                continue
            name = _HONORIFIC.sub("", m.group("name")).strip()
            if name.lower() in named or any(n in name.lower() for n in named if len(n) > 3):
                continue  # the question's own name is no answer
            if len(role) > found.get(name.lower(), (0,))[0]:
                found[name.lower()] = (len(role), s, name, f"the {parts[0]} named in {s.title or 'the list'}")
    best = sorted(found.values(), key=lambda f: -f[0])  # the role that says the most ("Vice-Chair", not "Chair")
    if not best or len(best) > 1 and best[1][0] == best[0][0]:
        return None
    return best[0][1], best[0][2], best[0][3]


def _held_inside(mention: str, text: str) -> bool:
    """Is the mention part of a role in a bracket ("Odile Framsby (Central Library Manager)" names Central
    Library)?"""
    return any(mention.lower() in m.group("role").lower() for m in _HELD.finditer(text))
