"""A contact reached in two hops: "What number do I ring to report a capsize?" is answered by a page that says who
deals with capsizes ("Incidents, capsizes and near misses: Safety Adviser") and a directory line giving that role's
number ("Colin Drury — Safety Adviser (safety@…, 07700 900418)"); "the phone number of the coach who runs the
Saturday junior squad" by the timetable's row naming the coach and the coaches' table giving her number.

The directory is what the context's spans say: a team list's "Name — Role (… number)" line, a "Name (Role)" line,
or a table row, each holding one telephone number or e-mail address of the kind asked. The first hop is the span
that says most of the question's own words (its words but the contact's) and names exactly one directory entry,
by its name or its role as written. A question that names one entry itself is answered from its line ("the welfare
officer's email address")."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kmrag.answer.roles import HELD, LISTED
from kmrag.answer.spans import Span
from kmrag.answer.support import STOP, terms
from kmrag.nlp.asked_nouns import ORG_NOUNS

# a telephone number: digit groups opening with a trunk 0 or a +country code ("01632 960 700", "+44 20 7946 0958",
# "(020) 7946-0958"), nine digits or more
PHONE = re.compile(r"(?<![\w.,])(?:\+\d{1,3}[\s.-]?|\(0\d{1,5}\)\s?|0\d{1,5}[\s.-])(?:\d{2,5}[\s.-]?){1,3}\d{2,5}(?![\w,]|\.\d)")
EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_ASKS_PHONE = re.compile(r"\b(?:phone|telephone|mobile|contact)\s+(?:number|no\.?)\b|\bnumbers?\b(?!\s+of\b).{0,30}\b(?:"
                         r"ring|call|phone|text|dial)\b|\b(?:ring|call|phone|text|dial)\b.{0,30}\bnumbers?\b(?!\s+of\b)", re.I)
# an e-mail address asked: "email address", or "email" as the last thing asked ("the chair's email?", "email for X"),
# not "the email newsletter"
ASKS_EMAIL = re.compile(r"\be-?mail(?:\s+address(?:es)?)?(?=\s*(?:[?.!]|$|\s+(?:for|of|to)\b))|\be-?mail\s+address", re.I)
# a telephone extension asked ("which phone extension do I ring", "the extension of X"), and one given ("Extension:
# 290", "ext. 290")
_ASKS_EXTENSION = re.compile(r"\b(?:phone|telephone)\s+extension\b|\b(?:extension|ext\.?)\s+(?:number|no)\b|"
                             r"\b(?:what|which)(?:'s|’s|\s+is)?\s+(?:the\s+|my\s+|their\s+|his\s+|her\s+)?extension\b|"
                             r"\bextension\b.{0,40}\b(?:ring|call|dial|phone)\b|\b(?:ring|call|dial|phone)\b.{0,40}\bextension\b",
                             re.I)  # not "a deadline extension", "an extension on my coursework"
EXTENSION = re.compile(r"\bext(?:ension)?\.?(?:\s*(?:no\.?|number))?\s*[:.]?\s*(\d{2,5})\b", re.I)
_NEGATED = re.compile(r"\b(?:not|never|no longer)\b|n't\b", re.I)
_CONTACT_WORDS = frozenset("""phone telephone mobile contact number numbers no ring call text dial email e-mail mail
address what which who whom do does i we you can could should would my our me give tell please extension ext""".split())
MIN_DIGITS = 9


@dataclass(frozen=True)
class Entry:
    keys: tuple[str, ...]  # the names and roles the line or row gives, as written
    value: str
    span: Span


def contact_asked(question: str) -> str | None:
    """"phone", "extension" or "email" when the question asks for a telephone number, a telephone extension or an
    e-mail address, else None."""
    if ASKS_EMAIL.search(question):
        return "email"
    return "extension" if _ASKS_EXTENSION.search(question) else "phone" if _ASKS_PHONE.search(question) else None


def contact_values(kind: str, text: str) -> list[str]:
    """The contacts of ``kind`` ("phone", "extension", "email") ``text`` holds."""
    if kind == "email":
        return [m.group(0) for m in EMAIL.finditer(text)]
    if kind == "extension":
        return [m.group(1) for m in EXTENSION.finditer(text)]
    return [m.group(0).strip() for m in PHONE.finditer(text) if sum(c.isdigit() for c in m.group(0)) >= MIN_DIGITS]


def directory(kind: str, spans: Sequence[Span]) -> list[Entry]:
    """The entries of the spans holding exactly one contact of ``kind``: a table row's cells that read as names or
    roles, a team list's name and role."""
    out = _records(kind, spans)
    for s in spans:
        values = contact_values(kind, s.display)
        if len(set(values)) != 1 or s.sheet and s.record >= 0:
            continue
        if s.kind == "row":
            cells = [c.split(":", 1)[1].strip() for c in s.display.split("; ") if ":" in c]
            keys = tuple(c for c in cells if c and c != values[0] and re.search(r"[A-Z][a-z]", c) and len(c.split()) <= 6)
        else:
            held = [*LISTED.finditer(s.display), *HELD.finditer(s.display)]
            keys = tuple(k for m in held for k in (m.group("name").strip(), m.group("role").strip()) if k)
        if keys:
            out.append(Entry(keys, values[0], s))
    return out


_KEY_LABEL = re.compile(r"^\W*(?:full\s+)?(?:name|role|position|post|job(?:\s+title)?|title)\W*$", re.I)


def _records(kind: str, spans: Sequence[Span]) -> list[Entry]:
    """The entries of a directory written as records of "Field: value" lines ("Name: Felix Wendt", "Role: Cinema
    Programmer", "Extension: 240"): a record holding one contact of ``kind``, keyed by its lines' names and roles."""
    records: dict[tuple[str, int], list[Span]] = {}
    for s in spans:
        if s.sheet and s.record >= 0:
            records.setdefault((s.unit_id, s.record), []).append(s)
    out = []
    for lines in records.values():
        held = [(s, v) for s in lines for v in contact_values(kind, s.display)]
        if len({v for _, v in held}) != 1:
            continue
        fields = [s.display.split(":", 1) for s in lines if ":" in s.display and s is not held[0][0]]
        keys = tuple(v.strip() for h, v in fields if _KEY_LABEL.search(h) and re.search(r"[A-Z][a-z]", v)
                     and "@" not in v and len(v.split()) <= 6)  # its own name and role, not "Cover: Felix Wendt"
        if keys:
            out.append(Entry(keys, held[0][1], held[0][0]))
    return out


def _named(key: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text) is not None


def _asked_for(key: str, question: str) -> bool:
    """Does the question name ``key``, as written or in lower case, with no word of its own before it that makes it
    another role ("the vice captain" is not "Captain", "the assistant coach" not "Coach")?"""
    for m in re.finditer(rf"(?<![\w-]){re.escape(key)}(?![\w-])", question, re.I):
        before = re.findall(r"[\w'’-]+", question[:m.start()])
        if m.group(0) == key or not before or before[-1].lower() in STOP or before[-1].lower() in ORG_NOUNS \
                or before[-1].lower().endswith(("'s", "’s")):
            return True
    return False


def _topic(question: str) -> tuple[frozenset[str], int]:
    """The question's own words (not the contact's, not stop words) and how many of them a span must say."""
    topic = frozenset(w for w in terms(question).words if w not in _CONTACT_WORDS and w not in STOP)
    return topic, max(1, math.ceil(len(topic) / 2))


def read_contact(question: str, spans: Sequence[Span], akin: Callable[[str, frozenset[str]], bool],
                 meaning: Callable[[Span], float | None] = lambda s: None
                 ) -> tuple[list[Span], str, dict[str, object]] | None:
    """(the two spans, the contact, the basis) of a contact asked through who deals with what the question says;
    None when the question asks no contact, names an entry itself, or no span names exactly one entry."""
    kind = contact_asked(question)
    if kind is None:
        return None
    entries = directory(kind, spans)
    named = {e.value: (e, k) for e in entries for k in e.keys if _asked_for(k, question)}
    if len(named) == 1 and len({k for _, k in named.values()}) == 1:  # "the welfare officer's email": one line's
        entry, key = next(iter(named.values()))
        return [entry.span], entry.value, {"kind": "cell", "rule": f"the {kind} given with {key}"}
    if not entries or named:
        return None  # no directory, or one the question names twice over: the readers of one span answer it
    shared = {w for w in re.findall(r"(?<!^)\b[A-Z][a-z]+", question)
              if len({e.value for e in entries if any(_named(w, k) for k in e.keys)}) > 1}
    if shared:
        return None  # "the number for Hargreaves": two entries of that name, whichever a span names
    topic, need = _topic(question)
    if not topic:
        return None
    ranked = []
    for order, s in enumerate(spans):
        said = terms(f"{s.title} {s.section} {s.display}").words
        covered = sum(akin(w, said) for w in topic)
        if covered < need:
            continue
        if contact_values(kind, s.display) and not any(e.span == s for e in entries):
            return None  # a span on what is asked gives a number itself ("to report a capsize ring 01632 960700")
        if contact_values(kind, s.display) or _NEGATED.search(s.display):
            continue  # a line of the directory, or "capsizes are not handled by the Treasurer", is no first hop
        hits = {e.value: (e, k) for e in entries for k in e.keys if _named(k, s.display)}
        if len(hits) == 1:
            ranked.append((-covered, order, s, next(iter(hits.values()))))
    if not ranked:
        return None
    _, _, first, (entry, key) = min(ranked, key=lambda r: (r[0], r[1]))
    hops = [{"question": question, "answer": key, "unit_id": first.unit_id, "quote": first.quote,
             "meaning": meaning(first)},
            {"question": f"the {kind} of {key}", "answer": entry.value, "unit_id": entry.span.unit_id,
             "quote": entry.span.quote, "meaning": 1.0}]
    basis: dict[str, object] = {"kind": "chain", "hops": hops, "owned": True, "relation_stated": True,
                                "candidates": 1, "quote": entry.span.quote, "unit_id": entry.span.unit_id,
                                "rule": f"the {kind} of {key}, whom the span on what is asked names"}
    return [first, entry.span], entry.value, basis


# a name or a role as a page writes it: two capitalised words or more ("Safety Adviser", "Fiona Marsh", "Head of
# Finance")
_NAME = re.compile(r"(?<![\w-])(?!(?:The|A|An|This|That|These|Those|Our|Your|Every|Each|Any|All|Please|Ring|Call|"
                   r"Contact|Email|Phone)\b)[A-Z][a-z][\w'’-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][a-z][\w'’-]*)+")


def holder_keys(question: str, spans: Sequence[Span], akin: Callable[[str, frozenset[str]], bool],
                limit: int = 3) -> list[str]:
    """The names and roles the spans saying most of a contact question's own words give, best first: whom to look
    up in a directory the context does not hold ("... must be reported to the **Safety Adviser**")."""
    kind = contact_asked(question)
    topic, need = _topic(question)
    if kind is None or not topic:
        return []
    said = [(-sum(akin(w, terms(f"{s.title} {s.section} {s.display}").words) for w in topic), i, s)
            for i, s in enumerate(spans) if not contact_values(kind, s.display) and not _NEGATED.search(s.display)]
    keys: list[str] = []
    for covered, _, s in sorted(said, key=lambda x: (x[0], x[1])):
        if -covered < need:
            break
        for m in _NAME.finditer(s.display):
            if m.start() > 0 and not _named(m.group(0), question) and m.group(0) not in keys:
                keys.append(m.group(0))  # not a sentence's first words ("Contact Details are ...")
    return keys[:limit]
