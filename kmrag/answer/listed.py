"""Answers that are lists: a question asking for a stated number of things ("What are the three failure modes
that … address?", "What two dialects does … include?", "Name the four …") is answered by the list a span gives of
that many things, introduced by the same number and noun ("… address three failure modes: A (x), B (y), and C
(z).", "… comprises the two dialects of Northwestern Catalan and Valencian; …").

Both the number and the noun must be stated by the span, and the list must hold exactly that many items: a span
that names one of the things, or lists another number of them, offers no list answer (the reader's other rules
read it). After a colon the items may be any short phrases; after "are", "include", "of" … they must be names
("The two teams were founded in 1990 and 1991" lists nothing), and "of" never introduces people ("the two sons of
Henry and Anne" are not Henry and Anne). The answer is the list as the span writes it, so it is a span of the
cited text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kmrag.answer.judge import NUMBER_WORDS
from kmrag.answer.support import stem
from kmrag.nlp.asked_nouns import PERSON_NOUNS

_NUMBER = r"(?:\d{1,2}|" + "|".join(w for w in NUMBER_WORDS if w not in {"zero", "one", "hundred"}) + r")"
# the thing asked, right after the wh-word or the request: "what are the three X", "in what 2 X", "which two X",
# "who are the two X", "name the four X"
_ASKED = re.compile(
    r"^\s*(?:(?:in|on|at|from|of|to|by|for|with)\s+)?(?:(?:what|which)\s+(?:(?:are|were)\s+)?|who\s+(?:are|were)\s+|"
    r"(?:(?:please\s+)?(?:name|list|give|identify|state)|tell\s+me)\s+)(?:the\s+|its\s+|their\s+)?"
    rf"({_NUMBER})\s+([\w'-]+(?:\s+[\w'-]+){{0,3}})", re.I)
# words that end the noun phrase of the thing asked ("which two of his sons": none asked, "two films did he make")
_PHRASE_END = frozenset("""of in on at for by with from that which who whom whose did does do is are was were has
have had will would can could to and or than as""".split())
IRREGULAR_PLURALS = frozenset("people men women children criteria data feet teeth mice geese phenomena".split())
MAX_ITEM_WORDS = 12  # an item longer than this is a clause, not a thing listed
_COLON = r"\s*(?:\([^()]{0,80}\)\s*)?:\s*"
_WORDED = r"\s*(?:\([^()]{0,80}\)\s*)?(?:\s+of\s+(?:the\s+)?|\s+(?:are|were|include|including|namely|being)\s*:?\s*|,\s*namely\s+)"
# a full stop that ends no list: after an abbreviation or an initial ("St. Paul", "Washington, D.C. and …")
_ABBREVIATION = re.compile(r"(?:\b(?:St|Mt|Ft|Jr|Sr|Dr|Mr|Mrs|Ms|Prof|Gen|Col|Capt|Lt|Rev|Co|Inc|Ltd|Bros|No|vs)|"
                           r"\b[A-Z]|\b(?:[A-Z]\.)+[A-Z])$")
# the lower-case words a name may hold ("Gulf of Mexico", "Leonardo da Vinci")
_NAME_LINKS = frozenset("of the de da di del della du la le van von der den and y al el bin ibn".split())


def _count(word: str) -> int | None:
    low = word.lower()
    if low.isdigit():
        return int(low)
    value = NUMBER_WORDS.get(low)
    return int(value) if value is not None else None


def _plural(word: str) -> bool:
    low = word.lower()
    return low in IRREGULAR_PLURALS or (len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")))


def _people(noun: str) -> bool:
    low = noun.lower()
    return low in {"people", "men", "women", "children"} or low[:-1] in PERSON_NOUNS or \
        (low.endswith("ies") and low[:-3] + "y" in PERSON_NOUNS) or (low.endswith("es") and low[:-2] in PERSON_NOUNS)


def asked_count(question: str) -> tuple[int, str] | None:
    """(how many things, the noun they are) when the question asks for a stated number (≥ 2) of things."""
    m = _ASKED.match(question)
    if not m or (n := _count(m.group(1))) is None or n < 2:
        return None
    for word in m.group(2).split():  # the first plural common noun before a verb or preposition: its head
        if word.lower() in _PHRASE_END:
            break
        if word[0].islower() and _plural(word.strip("'")):
            return n, word.strip("'").lower()
    return None


def _end(text: str) -> int:
    """Where the list starting ``text`` ends: a line break, or a ';' or full stop outside brackets (not one closing an
    abbreviation), else the end."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "\n":
            return i
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and (ch == ";" or (ch == "." and (i + 1 == len(text) or (
                text[i + 1].isspace() and not _ABBREVIATION.search(text[:i]))))):
            return i
    return len(text)


def _top_level(text: str, sep: re.Pattern[str]) -> list[tuple[int, int]]:
    """The (start, end) of each match of ``sep`` in ``text`` outside brackets and quotes."""
    out = []
    for m in sep.finditer(text):
        before = text[: m.start()]
        depth = before.count("(") + before.count("[") - before.count(")") - before.count("]")
        quoted = (before.count('"') + before.count("“") - before.count("”")) % 2 == 1
        if depth == 0 and not quoted:
            out.append((m.start(), m.end()))
    return out


_COMMA = re.compile(r",")
_AND = re.compile(r"\s+(?:and|or|&)\s+")


def _items(text: str) -> tuple[str, list[str]] | None:
    """(the list as written, its items): items parted by commas up to the one joined by the last 'and' / 'or';
    None when the list goes on after it (", and C") — it has more items than a reading of it would count."""
    start, parts = 0, []
    for at, end in [*_top_level(text, _COMMA), (len(text), len(text))]:
        part = text[start:at]
        parts.append(part)
        start = end
        if re.match(r"\s*(?:and|or)\s", part) or _top_level(part, _AND):
            rest = text[end:]
            if re.match(r"\s*(?:and|or|&)\s", rest):
                return None  # "A and B, and C": the list goes on
            break
    written = ",".join(parts).rstrip(" ,")
    items: list[str] = []
    for part in parts:
        part = re.sub(r"^\s*(?:and|or)\s+", "", part)
        cut, at = [], 0
        for s, e in _top_level(part, _AND):
            cut.append(part[at:s])
            at = e
        items += [x.strip() for x in [*cut, part[at:]]]
    return written, items


def _name_like(item: str) -> bool:
    """An item that is a name: capitalised or a number, its lower-case words only those names hold."""
    words = item.split()
    first = words[0].lstrip("\"“'(") if words else ""
    return bool(first) and (first[0].isupper() or first[0].isdigit()) and \
        all(w[0].isupper() or w[0].isdigit() or w.lower() in _NAME_LINKS or not w[0].isalpha() for w in words)


def stated_list(text: str, count: int, noun: str, about: Sequence[str] = ()) -> tuple[str, int] | None:
    """(the list, its offset in ``text``) when ``text`` states ``count`` things that are ``noun`` and lists exactly
    that many: "three failure modes: A, B, and C". Of several, the one whose clause names one of ``about`` (the
    question's names) first."""
    head = stem(noun)
    found: list[tuple[bool, str, int]] = []
    for m in re.finditer(rf"\b({_NUMBER})\s+((?:[\w-]+\s+){{0,3}}?)([\w-]+)(?={_COLON}|{_WORDED})", text, re.I):
        if _count(m.group(1)) != count or stem(m.group(3)) != head or \
                (m.group(1).isdigit() and re.search(r"(?:\b[A-Z][\w.+-]*|\bversion|\bv)\s*$", text[: m.start()])):
            continue  # "Python 3 features" states no three features
        colon = re.match(_COLON, text[m.end():])
        worded = None if colon else re.match(_WORDED, text[m.end():], re.I)
        intro = colon or worded
        if intro is None or (worded and re.search(r"\bof\b", worded.group(0), re.I) and _people(noun)):
            continue  # "the two sons of Henry and Anne" names their parents
        start = m.end() + intro.end()
        got = _items(text[start:start + _end(text[start:])])
        if got is None:
            continue
        written, items = got
        if len(items) != count or not all(0 < len(x.split()) <= MAX_ITEM_WORDS for x in items) or \
                (worded and not all(_name_like(x) for x in items)):
            continue
        clause = text[max(text.rfind(";", 0, m.start()), text.rfind(". ", 0, m.start())) + 1: m.start()].lower()
        found.append((any(a.lower() in clause for a in about), written, start))
    if not found:
        return None
    _, written, start = next((f for f in found if f[0]), found[0])
    return written, start
