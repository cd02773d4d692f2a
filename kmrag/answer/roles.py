"""Roles in brackets: "Present: Cllr Harriet Oyelaran (Chair), Cllr Neville Brasch (Vice-Chair), ...", "Odile
Framsby (Central Library Manager)" — minutes' attendance lists, a team page. "Who chairs the Library Committee?"
is the one name whose bracket says the role the question asks, no more ("Vice-Chair" says "vice", which the
question does not), in minutes of the committee the question names."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kmrag.answer.spans import Span
from kmrag.answer.support import STOP, terms
from kmrag.nlp.asked_nouns import ORG_NOUNS, PERSON_NOUNS

# a person's name (with an honorific), then a bracket of at most eight words: their role
HELD = re.compile(r"(?P<name>(?:(?:Cllr|Councillor|Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)\.?\s+)?(?-i:[A-Z])[\w'’.-]+"
                   r"(?:\s+(?-i:[A-Z])[\w'’-]+){1,3})\s*\((?P<role>[^()]{2,60})\)")
# a list item of a team page: a name, a dash, the role ("- **Ines Vardalou** — Head Brewer", "Dev Kallaway - Operations
# Director; looks after finance", "Ann Lee — Treasurer (ann@…)"): the role up to a full stop, a semicolon or a bracket
LISTED = re.compile(r"^\s*(?:(?:[-*•+]|\d{1,2}[.)])\s+)?\**(?P<name>(?:(?:Cllr|Councillor|Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)"
                     r"\.?\s+)?(?-i:[A-Z])[\w'’.-]+(?:\s+(?-i:[A-Z])[\w'’-]+){1,3})\**\s+[—–-]\s+(?P<role>[^;.()]{2,60}?)\s*"
                     r"(?:[;.(]|$)")
_HONORIFIC = re.compile(r"^(?:Cllr|Councillor|Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)\.?\s+")
# the words of a question that ask, not what is asked
_ASKING = frozenset({"who", "whom", "whose", "is", "are", "was", "were", "the", "of", "at", "in", "for", "current",
                     "currently", "now", "moment", "present", "today", "these", "days"})


def role_holder(question: str, mentions: Sequence[str], spans: Sequence[Span],
                akin: Callable[[str, frozenset[str]], bool], people: Callable[[str], set[str]]
                ) -> tuple[Span, str, str] | None:
    """(span, name, rule) of the person whose bracketed role and the question say the same words: each of the
    role's a word of the question, each of the question's own words (not its names, not stop words) a word of the
    role ("the vice-chair" is not "(Chair)", "the deputy manager" not "(Central Library Manager)"); the name one
    the parser reads as a person's ("Annual Accounts (Treasurer)" is an agenda item); the question's names said
    by the span, its unit's title or its section. None when none, or two people with different names, hold it.
    ``people``: the names of people the parser finds in a text."""
    qterms = terms(question)
    named = {w.lower() for m in mentions for w in terms(m).words | terms(m).names}
    asked = (qterms.words | {w.lower() for w in qterms.names}) - _ASKING
    asked |= {p for w in asked if "-" in w for p in w.split("-") if p}  # "vice-chair" says "Vice-Chair"
    # the question's words for the role; the kind of body it is held in is no part of it ("the club treasurer")
    own = frozenset(w for w in asked - named - ORG_NOUNS if "-" not in w)
    found: dict[str, tuple[Span, str, str]] = {}
    for s in spans:
        held = [*HELD.finditer(s.display), *LISTED.finditer(s.display)] if s.kind == "sentence" else []
        if not held:
            continue
        frame = f"{s.section} {s.title} {s.display}".lower()
        if any(m.lower() not in frame for m in mentions if not _held_inside(m, s.display)):
            continue
        persons: set[str] | None = None
        for m in held:
            parts = [p.strip() for p in re.split(r",|\s+and\s+", m.group("role"))]  # "Managing Director and co-founder"
            if m.re is HELD:
                parts = parts[:1]  # "(co-opted member, Friends of X)": the bracket's first part is the role
            roles = [frozenset(w.lower() for w in re.findall(r"[\w'’]+", p) if w.lower() not in STOP) for p in parts]
            held_role = next((i for i, role in enumerate(roles) if role and all(akin(w, asked) for w in role)
                              and all(akin(w, role) for w in own or asked)), None)
            if held_role is None:
                continue
            name = _HONORIFIC.sub("", m.group("name")).strip()
            if name.lower() in named or any(n in name.lower() for n in named if len(n) > 3):
                continue  # the question's own name is no answer
            persons = people(s.display) if persons is None else persons
            a_person = any(name in p or p in name for p in persons) or (m.re is LISTED and _a_person_s_role(
                parts[held_role]) and _a_rare_name(name))  # a team list's item: its role says a person holds it,
            # whatever the parser makes of a rare name ("Ines Vardalou" an organisation); "Annual Accounts —
            # Treasurer", "General Enquiries — Office Manager" are no names
            if not _HONORIFIC.match(m.group("name")) and not a_person:
                continue  # "Annual Accounts (Treasurer)": an agenda item, no person
            found.setdefault(name.lower(), (s, name, f"the {parts[held_role]} named in {s.title or 'the list'}"))
    return next(iter(found.values())) if len(found) == 1 else None


def _a_person_s_role(role: str) -> bool:
    """Does the role's last word name a person ("Head Brewer", "Taproom Manager", "Chair"), not a thing ("Trade
    Sales", "Annual Accounts")?"""
    last = (re.findall(r"[A-Za-z]+", role) or [""])[-1].lower()
    return last in PERSON_NOUNS or last in {"chair", "head", "lead"} or (
        len(last) > 4 and last.endswith(("er", "or", "ist", "ant", "ian")))


def _a_rare_name(name: str) -> bool:
    """Does the name hold a word no dictionary lists ("Vardalou"), as people's names do and "Annual Accounts",
    "Events Team" do not? False without WordNet (nothing then tells them apart)."""
    from kmrag.nlp.wordnet import listed

    return any(listed(w) is False for w in re.findall(r"[A-Za-z][a-z'’-]+", name))


def _held_inside(mention: str, text: str) -> bool:
    """Is the mention part of a role in a bracket ("Odile Framsby (Central Library Manager)" names Central
    Library)?"""
    return any(mention.lower() in m.group("role").lower() for m in HELD.finditer(text))
