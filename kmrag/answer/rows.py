"""A table row named by what its cells say, not by its key: "what port does Gatehouse listen on for HTTP writes?"
is the Port of the row whose Component is Gatehouse and whose Protocol is HTTP writes; "when was the first public
release?" the Date of the row whose Highlights say "First public release"; "how long is raw data kept by default
before it is deleted?" the Default of the row described "How long raw data is kept before it is deleted".

The column is the one the question names (all of its header's words), or, for a date asked, the one headed by a
date noun; its value must be of the kind asked. A cell (or a part of one, between semicolons and commas) names the
row when the question says every one of its words; the row read is the one whose cells say the most of the
question's words, and it must say strictly more than any other row of its table, or nothing is read."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from kmrag.answer.spans import Span, row_cells
from kmrag.answer.support import negated, terms

NAMED = frozenset({"PERSON", "ORG", "PLACE", "WORK", "NATIONALITY"})
MIN_NAMED = 2  # question words a row's naming cells must say between them
MAX_UNSAID = 1  # words of the question neither the row, its headers nor its table's headings say ("listen")
ASKING = terms("what which when where who whom how long much many time date year default value setting").words
DATE_HEADS = frozenset({"date", "year", "released", "published", "opened", "when"})
_PARTS = re.compile(r";\s+|,\s+|\s+\(|\)")
_MARKS = "`*_"  # a cell's markup: "`30d`" is 30d


def header_cells(display: str) -> list[tuple[str, str]]:
    """The row's (header, value) pairs, a value without its markup ("`30d`" is 30d)."""
    return [(h.strip(), v.strip(_MARKS + " ")) for h, v in (p for p in row_cells(display) if len(p) == 2)]


def _asked_column(header: str, row: list[tuple[str, str]], qwords: frozenset[str], answer_type: str,
                  noun: str | None, same: Callable[[str, frozenset[str]], bool]) -> bool:
    """The column asked: the one the question's asked noun heads ("what port": Port), else one all of whose words
    the question says ("by default": Default) or, for a date asked, a date's; a noun asked that no header says
    must be said by another cell of the row ("the default size of a ledger segment": the Default of the option
    described "Size at which a Ledger segment is closed", not the Opened year of "the opening hours of X")."""
    hw = terms(header).words
    if noun is not None and any(same(w, frozenset({noun})) for w in hw):
        return True
    named = bool(hw) and hw <= qwords or answer_type == "DATE" and bool(hw & DATE_HEADS)
    return named and (noun is None or any(same(noun, terms(v).words) for h, v in row if h != header))


def _fits(value: str, answer_type: str, pattern: re.Pattern[str] | None) -> bool:
    if answer_type in {"DATE", "NUMBER", "QUANTITY", "MONEY"} and not re.search(r"\d", value):
        return False
    if answer_type in NAMED and not re.search(r"[A-Z][a-z]", value):
        return False  # "Who was chief executive when X opened?": not the Opened cell's 2016
    if answer_type in {"DATE", "MONEY"} and pattern is not None:
        return bool(pattern.search(value))
    return bool(value) and len(value) <= 80


def _said_by(row: list[tuple[str, str]], asked: str, qwords: frozenset[str], same: Callable[[str, frozenset[str]], bool],
             ) -> frozenset[str]:
    """The question's words said by the cells (or cell parts) of ``row`` other than the asked column that the
    question says whole."""
    said: set[str] = set()
    for header, value in row:
        if header == asked:
            continue
        for part in [value, *_PARTS.split(value)]:
            pw = terms(part).words
            if pw and all(same(w, qwords) for w in pw):
                said |= {q for q in qwords if any(same(q, frozenset({w})) for w in pw)}
    return frozenset(said)


def _contradicted(question: str, row: Span, asked: str, others: Sequence[Span], qwords: frozenset[str],
                  same: Callable[[str, frozenset[str]], bool]) -> bool:
    """Does the question say what the row does not: another row's cell in a column where this row has another
    ("What port does Switchyard listen on for HTTP writes?" of the Gatehouse row), a name neither the row nor its
    table's headings say ("Tollbooth"), or more than MAX_UNSAID words none of them says ("in the cold archive
    tier")?"""
    mine = dict(header_cells(row.display))
    for other in others:
        for header, value in header_cells(other.display):
            if header == asked or mine.get(header, "") == value:
                continue
            ow = terms(value).words - terms(mine.get(header, "")).words
            if ow and all(same(w, qwords) for w in terms(value).words):
                return True  # the question names the other row's cell, not this row's
    said = terms(f"{row.display} {row.title} {row.section}").words
    names = {w.lower() for w in re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][\w'’-]+", question.strip())}
    if any(not same(n, said) for n in terms(" ".join(names)).words):
        return True
    return len([w for w in qwords - ASKING if not same(w, said)]) > MAX_UNSAID


def row_named_by_cells(question: str, answer_type: str, rows: Sequence[Span], same: Callable[[str, frozenset[str]], bool],
                       pattern: re.Pattern[str] | None = None, noun: str | None = None,
                       person_header: Callable[[str], bool] | None = None) -> tuple[Span, str, str] | None:
    """(the row, the asked column's header, its value) of the one row the question names by its cells, or None.
    ``noun``: the noun the question word asks ("port" of "what port"); ``person_header``: whether a header is one a
    person's name stands under (a "who" question's column)."""
    qwords = terms(question).words
    best: dict[tuple[str, str], list[tuple[int, Span, str]]] = {}  # (unit, column) -> [(words said, row, value)]
    for span in rows:
        if span.kind != "row":
            continue
        cells = header_cells(span.display)
        for header, value in cells:
            if not _asked_column(header, cells, qwords, answer_type, noun, same) or not _fits(value, answer_type, pattern) \
                    or answer_type == "PERSON" and person_header is not None and not person_header(header):
                continue
            said = _said_by(cells, header, qwords - terms(header).words, same)
            best.setdefault((span.unit_id, header), []).append((len(said), span, value))
    found: list[tuple[int, Span, str, str]] = []
    for (_, header), got in best.items():
        got.sort(key=lambda g: -g[0])
        if got[0][0] >= MIN_NAMED and (len(got) == 1 or got[1][0] < got[0][0]) and \
                not _contradicted(question, got[0][1], header, [g[1] for g in got[1:]], qwords, same):
            found.append((got[0][0], got[0][1], header, got[0][2]))
    found.sort(key=lambda f: -f[0])
    if not found or len(found) > 1 and found[1][0] == found[0][0] and found[1][3] != found[0][3]:
        return None  # two tables' rows named as well, with different values: no answer
    return found[0][1], found[0][2], found[0][3]


# a question asking which day or month ("Which day of the week is the gallery closed?"), and a header naming days or
# months ("Monday", "Tuesday–Saturday", "March")
_DAY_OR_MONTH_ASKED = re.compile(r"\b(?:which|what)\s+(?:days?|months?)\b|\bon\s+(?:which|what)\s+days?\b|"
                                 r"^\s*when\s+(?:is|are|does|do)\b", re.I)  # "when is the gallery closed": each week
_CALENDAR_HEAD = re.compile(r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\b|\b(?:January|February|March|April|May|"
                            r"June|July|August|September|October|November|December)\b", re.I)
_BRACKET = re.compile(r"\s*\([^()]*\)")
_ASKING_DAY = terms("which what when day days week weekly month months year usually normally each every").words


def header_of_said_cell(question: str, rows: Sequence[Span]) -> tuple[Span, str, str] | None:
    """(the row, its cell, the cell's header) when the question asks which day or month, names a row by a word of its
    key, and says the one cell of that row under a day's or a month's header ("Which day of the week is the gallery
    closed?": the Weir Gallery row's "Closed", under Monday); None when two rows are named as well or the row has no
    such cell, or two."""
    if not _DAY_OR_MONTH_ASKED.search(question) or negated(question):
        return None  # ("which day is the gallery not closed")
    qwords = terms(question).words
    found: list[tuple[int, Span, str, str]] = []
    for span in rows:
        if span.kind != "row" or len(cells := header_cells(span.display)) < 3:
            continue
        key = terms(cells[0][1]).words
        named = len(terms(_BRACKET.sub("", cells[0][1])).words & qwords)
        said = [(h, v) for h, v in cells[1:] if _CALENDAR_HEAD.search(h) and not re.search(r"\d", v)
                and terms(v).words and terms(v).words <= qwords]
        # every other word of the question is the row's key's or asks ("the Riverside Gallery", "the gallery shop"
        # name another row)
        if named and len(said) == 1 and qwords - key - terms(said[0][1]).words <= _ASKING_DAY:
            found.append((named, span, said[0][1], said[0][0]))
    found.sort(key=lambda f: -f[0])
    if not found or len(found) > 1 and found[1][0] == found[0][0]:
        return None
    return found[0][1], found[0][2], found[0][3]
