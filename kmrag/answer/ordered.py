"""Yes/no questions that order two things: "Was X born before Y?", "Is X older than Y?", "Did X die after Y?".

Each is the choice "Which was born first, X or Y?" asked the other way round: the answer is "yes" when the choice
falls on X, "no" when it falls on Y, and nothing when the comparison cannot be made (a value missing, a tie). The
choice is answered by the same comparison of cited values as any "which first" question, so the computation is
shown the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_AUX = re.compile(r"^\s*(was|were|is|are|did|does|do|has|have|had)\s+", re.I)
# the ordering words and the word of the choice each one becomes
_ORDER = {"before": "first", "earlier than": "first", "sooner than": "first", "prior to": "first",
          "after": "later", "later than": "later", "older than": "older", "younger than": "younger",
          "longer than": "longer", "shorter than": "shorter", "larger than": "larger", "bigger than": "bigger",
          "smaller than": "smaller", "taller than": "taller", "higher than": "higher"}
_ORDERING = re.compile(r"\b(" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in
                                        sorted(_ORDER, key=len, reverse=True)) + r")\b", re.I)
_PAST = {"come": "came", "go": "went", "begin": "began", "win": "won", "become": "became", "make": "made",
         "write": "wrote", "die": "died", "leave": "left", "take": "took", "get": "got", "run": "ran", "hold": "held",
         "build": "built", "found": "founded", "open": "opened", "start": "started", "release": "released",
         "marry": "married", "live": "lived", "form": "formed", "appear": "appeared", "end": "ended", "close": "closed"}


@dataclass(frozen=True)
class Choice:
    question: str   # "Which was born first, X or Y?"
    first: str      # X: "yes" when the choice falls on it
    second: str


def _past(verb_phrase: str) -> str:
    """"die" -> "died", "come out" -> "came out": the verb after "did" in the past."""
    words = verb_phrase.split()
    if not words:
        return verb_phrase
    w = words[0].lower()
    past = _PAST.get(w) or (w + "d" if w.endswith("e") else w[:-1] + "ied" if w.endswith("y") and len(w) > 2
                            and w[-2] not in "aeiou" else w + "ed")
    return " ".join([past, *words[1:]])


_SMALL = frozenset("to of the a an and in on at for de la le du von van".split())


def _title_from(name: str, text: str) -> bool:
    """Is ``text`` a title that starts with the question's ``name`` and goes on in title words only? The parser
    splits titles ("Night Train" of "Night Train to Lisbon"); "Albert Einstein won the prize" is no title."""
    m = re.match(rf"(?:the\s+)?{re.escape(name)}(?!\w)", text, re.I)
    if m is None:
        return False
    rest = text[m.end():].split()
    return all(w[:1].isupper() or w[:1].isdigit() or w.lower() in _SMALL for w in rest) and \
        (not rest or rest[-1][:1].isupper() or rest[-1][:1].isdigit())


def as_choice(question: str, mentions: Sequence[str]) -> Choice | None:
    """The yes/no question as the choice between its two things; None when it orders no two of its names."""
    aux = _AUX.match(question)
    order = _ORDERING.search(question)
    if aux is None or order is None or re.search(r"\bnot\b|n['’]t\b", question, re.I):
        return None  # "Was X not born before Y?": a negated ordering is not read
    left = question[aux.end():order.start()].strip()
    right = question[order.end():].strip().rstrip("?").strip()
    names = sorted({m.strip() for m in mentions if m.strip()}, key=len, reverse=True)
    first = next((n for n in names if re.match(rf"(?:the\s+)?{re.escape(n)}(?!\w)", left, re.I)), None)
    whole = re.sub(r"\s+(?:did|was|were|is|are|had|has|does|do)$", "", right).strip()
    second = next((whole for n in names if _title_from(n, whole)), None) or \
        next((n for n in names if re.match(rf"(?:the\s+)?{re.escape(n)}(?!\w)", right, re.I)), None)
    if not first or not second or first.lower() == second.lower():
        return None
    rest = re.sub(rf"^(?:the\s+)?{re.escape(second)}", "", right, flags=re.I).strip()
    if not re.fullmatch(r"(?:did|was|were|is|are|had|has|does|do)?", rest, re.I):
        return None  # "... before Y was born", "... than Y's father": another relation, not the same of both
    verb = re.sub(rf"^(?:the\s+)?{re.escape(first)}", "", left, flags=re.I).strip()
    verb = _past(verb) if aux.group(1).lower() in {"did", "does", "do"} else \
        " ".join(x for x in (aux.group(1).lower(), verb) if x)
    word = _ORDER[re.sub(r"\s+", " ", order.group(1).lower())]
    return Choice(f"Which {verb} {word}, {first} or {second}?".replace("  ", " "), first, second)
