"""Labelled fields: "Leakage: 61.3 megalitres per day", "**Completed:** 1961" — a fact box, a key-figures list, a
spec sheet. The question names the label ("What was average leakage in 2023-24?") and the thing the fields are of
(the unit's title, "KEY FIGURES 2023-24"); the value after the label is the answer.

A plain-text list of fields is often joined into one paragraph when it is loaded ("Revenue: £318.4 million
Capital investment: £142 million ..."), so a label is found where it ends, at its colon, reading back over the
words the question says."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kmrag.answer.spans import Span
from kmrag.answer.support import terms
from kmrag.retrieval.multihop import VALUE_OF

# a label's colon, with its markup: "Leakage:", "**Completed:**", "__Dam__:"
_COLON = re.compile(r"(?:\*\*|__)?:(?:\*\*|__)?\s+")
_WORD = re.compile(r"[\w'’&/-]+")
# where a name or a place read as a field's value ends: "Carrow Water Treatment Works, via a 14 km aqueduct"
_VALUE_END = re.compile(r"\s+\(|,\s|;\s|\s+[–—-]\s|\s+-\s+\*\*|\n|(?<=[a-z0-9])\.\s|$")
# what a value of each kind may be, read from the value's start (a name's capital, a value's figure)
NAMED = frozenset({"PERSON", "ORG"})
MAX_LABEL_WORDS = 6
MAX_DATE_AT = 24  # a date value opens its field ("Completed: 1961", "Set up: on 1 April 1974")
# the question's words neither the label, the value nor what the fields are of says: none ("What standing charge do
# business customers pay?" is not the household's; "Who did the Director of Operations replace?" not its holder)
MAX_UNSAID = 0
# a field states who or what holds it now: not the one before, after or beside ("Who was the previous Chair?",
# "Who will succeed the Chief Executive?", "Who is the deputy Chair?")
HELD_BY = frozenset({"PERSON", "ORG", "ENTITY"})  # the kinds of value a post is held by
OTHER_HOLDER = re.compile(r"\b(?:before|after|previous(?:ly)?|former(?:ly)?|next|deputy|acting|vice|predecessor|"
                          r"successor|replace[ds]?|succeed(?:s|ed)?|until|first|last|original(?:ly)?|used to)\b", re.I)
MAX_LONE_LABEL_WORDS = 4  # a span with one colon is a field when it starts with a label of so many words
# a question after the one who held a post before another: "Who was the site manager before Orla Kestwick?" (not
# "Just Before I Go", a title), "Who did X replace as Chair?" (not "Who won the election to replace X?", whose verb is
# "won"), "X's predecessor"; or, to read a field, "the previous Chair"; a label of that holder: "Previous site
# manager:", "Former Chair:"
ASKS_PREDECESSOR = re.compile(r"(?-i:\bbefore)\s+(?:(?-i:[A-Z])|the\s+(?:current|present|new)\b)|"
                              r"\b(?:who|whom)\s+(?:did|does|do|had|has)\s+(?:(?!replace|succeed|precede|take|follow)"
                              r"[\w'’.-]+\s+){1,6}(?:replace|succeed|precede|take\s+over\s+from|follow)\b|"
                              r"\bpredecessor\b", re.I)
ASKS_PREVIOUS = re.compile(rf"{ASKS_PREDECESSOR.pattern}|\b(?:previous(?:ly)?|former(?:ly)?)\b", re.I)
PREVIOUS_LABEL = re.compile(r"^(?:\*\*|__)?(?:previous|former|preceding|past)\s", re.I)
PREVIOUS_WORDS = terms("previous former preceding past").words
ASKING_PREVIOUS = terms("before replace replaced replaces succeed succeeds succeeded precede preceded predecessor "
                        "previous previously former formerly take takes took taken").words  # said by a "Previous ..." label


# the verbs of holding a post ("who ran / led / headed X?"): a field's holder is the one asked, whatever the label
RUNNING = terms("run runs ran running lead leads led leading head heads headed heading manage manages managed "
                "managing oversee oversees oversaw").words


def _names_of(text: str, skip_first: bool = False) -> set[str]:
    """The capitalised words of ``text`` (a name's), but for its first when ``skip_first`` (a question's opening)."""
    words = re.findall(r"[A-Za-z][\w'’-]+", text)
    return {w for w in words[1 if skip_first else 0:] if w[:1].isupper() and len(w) > 2}


# the noun a contact label stands for ("the email address of X" asks its "Email:", "the phone number" its "Phone:")
_LABEL_SAYS = {"email": ("address",), "e-mail": ("address",), "web": ("address",), "website": ("address",),
               "extension": ("number", "phone"), "ext": ("number", "phone")}  # (a telephone number is the contact
# reader's: this reader's value ends at a space)


def _said(word: str, qwords: frozenset[str]) -> bool:
    """A label's word the question says, in any form its stem may miss ("Supplies" for "supply": suppl / supp)."""
    return word in qwords or any(len(w) >= 4 and len(word) >= 4 and (w.startswith(word) or word.startswith(w))
                                 for w in qwords)


def _label_before(text: str, colon: int, qwords: frozenset[str]) -> str | None:
    """The label that ends at ``colon``: the longest run of words before it, starting with a capital, all of whose
    words the question says (stop words aside); None when the word before the colon is not one it says."""
    words = list(_WORD.finditer(text[:colon]))[-MAX_LABEL_WORDS:]
    best = None
    for i in range(len(words) - 1, -1, -1):
        gap = text[words[i].end():(words[i + 1].start() if i + 1 < len(words) else colon)]
        if i + 1 < len(words) and not re.fullmatch(r"\s+", gap) or re.search(r"[.;:)]", gap):
            break  # a label is one run of words: "(2022-23: 64.8) Mains ..." ends at the bracket
        label = text[words[i].start():colon].strip(" *_")
        lw = terms(label).words
        if not lw or not all(_said(w, qwords) for w in lw):
            break
        if words[i].group(0)[:1].isupper() and _starts_label(text, words, i):
            best = label
    return best


def _starts_label(text: str, words: Sequence[re.Match[str]], i: int) -> bool:
    """Does a label start at word ``i``? Not when a capitalised word stands just before it ("Customer Services
    Director:" has no label "Director"); markup, a bullet, a bracket or a value's lower-case word end what was
    before."""
    if i == 0:
        return True
    gap = text[words[i - 1].end():words[i].start()]
    before = words[i - 1].group(0)
    # a code or a double-barrelled name ends a value, never starts a label: "Site code: BCH-PCH Site manager:",
    # "Matron: Bernadette Fowey-Lund Opened: 1978"
    value_like = bool(re.search(r"\d", before) or before.isupper() and len(before) > 1 or
                      re.fullmatch(r"[A-Z][a-z]+-[A-Z][\w'’]+", before))
    return not (re.fullmatch(r"[ \t]+", gap) and before[:1].isupper() and not value_like)


def _value(text: str, start: int, answer_type: str) -> str | None:
    """The value after a label, of the kind asked: its first figure of that kind, or its words up to a comma, a
    bracket or a dash; a person or an organisation is a name (a capital first)."""
    rest = text[start:]
    if answer_type in {"NUMBER", "QUANTITY"}:  # a figure first: "61.3 megalitres per day", "87 km"
        rest = re.sub(r"^(?:about|around|roughly|approximately|nearly|almost|some|over|more than|c\.)\s+", "", rest,
                      flags=re.I)  # "Households served: about 388,000"
        m = re.match(r"[£$€]?\s?\d[\d,.]*", rest)
        return _whole_figure(rest, m) if m else None
    if (pattern := VALUE_OF.get(answer_type)) is not None:
        nxt = _COLON.search(rest)  # the value ends where the next field's label does
        head = rest[: nxt.start() if nxt else 120][:120]
        m = pattern.search(head)
        if m is None or m.start() > 0 and answer_type != "DATE" or m.start() > MAX_DATE_AT:
            return None  # "Leakage: 61.3 ..." is the figure after the label, not one further on
        return _whole_figure(rest, m) if answer_type != "DATE" else _date(head, m)
    end = _VALUE_END.search(rest)
    value = _before_next_label(rest[:end.start() if end else len(rest)]).strip(" *_")
    if not value or (answer_type in NAMED and not value[:1].isupper()) or len(value.split()) > 8:
        return None
    return value


def _before_next_label(value: str) -> str:
    """A value without the next field's label a joined list runs on into ("61.3 megalitres per day Capacity:"):
    up to the last capital after a lower-case word or a figure, when a colon follows."""
    nxt = _COLON.search(value)
    if nxt is None:
        return value
    head = value[: nxt.start()]
    starts = list(re.finditer(r"(?<=[a-z0-9)%²³.])\s+(?=(?:\*\*)?[A-Z])", head))
    return head[: starts[-1].start()] if starts else head


def _whole_figure(text: str, m: re.Match[str]) -> str:
    """A figure with its unit: "61.3 megalitres per day", not "61.3"."""
    # its unit in lower case or a short symbol ("Ml", "km²"), never the next label ("1,240 Customers served:")
    unit = re.match(r"[£$€]?\s?[\d,.]+\s*(?:(?:million|billion|thousand|m|bn)\b\s*)?"
                    r"(?:(?!per\b)(?:[a-z%³²/µ][a-zA-Z%³²/]*|[A-Z][a-z]?(?![A-Za-z]))(?:²|³)?(?:\s+per\s+[a-z]+)?)?", text[m.start():])
    got = unit.group(0).strip() if unit else m.group(0)
    return got if len(got) >= len(m.group(0)) else m.group(0)


def _date(head: str, m: re.Match[str]) -> str:
    """A date value: the whole "1 April 1974" around the year or month matched."""
    whole = re.search(rf"(?:\d{{1,2}}\s+)?{re.escape(m.group(0))}(?:\s+\d{{4}})?", head)
    return whole.group(0) if whole else m.group(0)


def flat(frame: str) -> str:
    """A field's frame as words: "Team: Keel" names "team keel"."""
    return " ".join(re.sub(r"[:*_]+", " ", frame).lower().split())


def field_value(question: str, answer_type: str, mentions: Sequence[str], spans: Sequence[Span],
                context: Sequence[Span] = ()) -> tuple[Span, str, str] | None:
    """(span, value, rule) of the one field the question names, in the best span that has it: its label's words
    are the question's, the question's names and figures are the span's title's or the span's before the label,
    and the value is of the kind asked. None when no span, or two spans with other values, have such a field.
    ``context``: all the spans read (a fact sheet line's record, the lines above it, is read from them)."""
    previous = bool(ASKS_PREVIOUS.search(question))
    qwords = terms(question).words | (PREVIOUS_WORDS if previous else frozenset())  # "before X" says "Previous"
    if answer_type in HELD_BY and qwords & RUNNING:
        qwords |= RUNNING  # "who ran Team Keel?" says the label "Lead"
    qnumbers = terms(question).numbers
    asking_words = terms(re.sub(r"\bhow\s+\w+", " ", question, flags=re.I)).words  # "how many": no word to say
    if previous:
        asking_words -= ASKING_PREVIOUS
    if answer_type in HELD_BY:
        asking_words -= RUNNING  # "who ran Team Keel before ...": a post's holder, whatever its label calls it
    found: list[tuple[Span, str, str]] = []
    lines = sorted({(s.unit_id, s.start): s for s in [*context, *spans] if s.record >= 0}.values(),
                   key=lambda s: (s.unit_id, s.start))  # a record's lines, its heading too ("TAKE-AWAY CANS")
    for s in spans:
        if s.kind != "sentence":
            continue
        # a fact sheet's line is read with the lines of its record above it: what its field belongs to
        above = [x for x in lines if x.unit_id == s.unit_id and x.record == s.record and x.start < s.start] \
            if s.sheet else []
        lines_before = " ".join(x.display for x in above)
        heading = " ".join(x.display for x in above if not x.sheet)  # "KEY FIGURES 2023-24": the record's figures
        colons = list(_COLON.finditer(s.display))
        for colon in colons:
            label = _label_before(s.display, colon.start(), qwords)
            # fields: a list of them, or one that is the whole span ("**Water standing charge:** £8.75 per quarter"),
            # not a sentence's colon ("Advanced RAG patterns address three failure modes: ...")
            if label is None or len(colons) < 2 and (len(label.split()) > MAX_LONE_LABEL_WORDS or
                                                      s.display.strip(" -*•_").find(label) != 0):
                continue
            frame = f"{s.section} {s.title} {lines_before} {s.display[:colon.start()]}"
            if not qnumbers <= terms(f"{s.title} {heading} {label}").numbers or \
                    any(m.lower() not in flat(frame) for m in mentions if m.lower() not in label.lower()):
                continue  # "leakage in 2020-21" is no field of KEY FIGURES 2023-24
            value = _value(s.display, colon.end(), answer_type)
            said = terms(f"{frame} {label} {value or ''}").words
            said |= frozenset(n for w in terms(label).words for n in _LABEL_SAYS.get(w, ()))  # "Email": its address
            unsaid = [w for w in asking_words if not _said(w, said)]
            # the question's own name is not its answer: "whom did Tom Fairley succeed as Director of Operations"
            before = PREVIOUS_LABEL.match(label) is not None  # "Previous site manager": the one before, asked or not
            if value and len(unsaid) <= MAX_UNSAID and not _names_of(value) & _names_of(question, skip_first=True) \
                    and not (answer_type in HELD_BY and OTHER_HOLDER.search(question) and not (before and previous)):
                found.append((s, value, f"the {label} of {s.title or 'the list'}"))
                break
    if not found or any(v.lower() != found[0][1].lower() for _, v, _ in found[1:]):
        return None
    return found[0]
