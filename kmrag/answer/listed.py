"""Answers that are lists: a question asking for a stated number of things ("What are the three failure modes
that … address?", "What two dialects does … include?", "Name the four …") is answered by the list a span gives of
that many things, introduced by the same number and noun ("… address three failure modes: A (x), B (y), and C
(z).", "… comprises the two dialects of Northwestern Catalan and Valencian; …").

Both the number and the noun must be stated by the span, and the list must hold exactly that many items: a span
that names one of the things, or lists another number of them, offers no list answer (the reader's other rules
read it). The answer is the list as the span writes it, so it is a span of the cited text.
"""

from __future__ import annotations

import re

from kmrag.answer.judge import NUMBER_WORDS
from kmrag.answer.support import stem

_NUMBER = r"(?:\d{1,2}|" + "|".join(w for w in NUMBER_WORDS if w not in {"zero", "one", "hundred"}) + r")"
# the thing asked, right after the wh-word or the request: "what are the three X", "in what 2 X", "which two X",
# "name the four X"; its noun is the first plural word within four words of the number
_ASKED = re.compile(
    r"^\s*(?:(?:in|on|at|from|of|to|by|for|with)\s+)?(?:(?:what|which)\s+(?:(?:are|were)\s+)?|"
    r"(?:(?:please\s+)?(?:name|list|give|identify|state)|tell\s+me)\s+)(?:the\s+|its\s+|their\s+)?"
    rf"({_NUMBER})\s+((?:[\w-]+\s+){{0,3}}?[a-z][\w-]*s)\b", re.I)
MAX_ITEM_WORDS = 12  # an item longer than this is a clause, not a thing listed
_INTRO = r"\s*(?:\([^()]{0,80}\)\s*)?(?::\s*|\s+of\s+(?:the\s+)?|\s+(?:are|were|include|including|namely|being)\s*:?\s*|,\s*namely\s+)"


def _count(word: str) -> int | None:
    low = word.lower()
    if low.isdigit():
        return int(low)
    value = NUMBER_WORDS.get(low)
    return int(value) if value is not None else None


def asked_count(question: str) -> tuple[int, str] | None:
    """(how many things, the noun they are) when the question asks for a stated number (≥ 2) of things."""
    m = _ASKED.match(question)
    if not m or (n := _count(m.group(1))) is None or n < 2:
        return None
    return n, m.group(2).split()[-1].lower()


def _top_level_end(text: str) -> int:
    """Where the list starting ``text`` ends: the first ';' or full stop outside brackets, else the end."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (ch == ";" or (ch == "." and (i + 1 == len(text) or text[i + 1].isspace()))):
            return i
    return len(text)


def _items(text: str) -> list[str]:
    """The items of a written list: split at commas outside brackets, then at its last 'and' / 'or'."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    items = [re.sub(r"^\s*(?:and|or)\s+", "", p).strip() for p in parts]
    last = re.split(r"\s+(?:and|or|&)\s+(?![^()]*\))", items[-1])
    if len(last) == 2 and (len(items) == 1 or not parts[-1].lstrip().startswith(("and ", "or "))):
        items = [*items[:-1], *(x.strip() for x in last)]
    return items


def stated_list(text: str, count: int, noun: str) -> tuple[str, int] | None:
    """(the list, its offset in ``text``) when ``text`` states ``count`` things that are ``noun`` and lists exactly
    that many: "three failure modes: A, B, and C"."""
    head = stem(noun)
    for m in re.finditer(rf"\b({_NUMBER})\s+((?:[\w-]+\s+){{0,3}}?)([\w-]+)(?={_INTRO})", text, re.I):
        if _count(m.group(1)) != count or stem(m.group(3)) != head:
            continue
        intro = re.match(_INTRO, text[m.end():], re.I)
        assert intro is not None
        start = m.end() + intro.end()
        body = text[start:start + _top_level_end(text[start:])].rstrip(" ,")
        items = _items(body)
        if len(items) == count and all(0 < len(x.split()) <= MAX_ITEM_WORDS for x in items):
            return body, start
    return None
