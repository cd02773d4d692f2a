"""Values a table gives only through two of its cells: a key one table's row gives and another table defines, and
the time a programme's row ends (its start and its running time).

"How much is a full-price ticket for An Evening with Corinne Blake?": the season programme's row for An Evening
with Corinne Blake gives its price_band, A; the ticket page's table keyed by Band gives row A's Full price,
£28.00. Neither row answers alone, and no span states the two together.

The first row is the one the question names by a cell (a name of two words or more, every one of them said by
the question); its key is a short code-like cell ("A", "B2", "CIN") whose header shares a word with the key
header of a row of another table ("price_band" and "Band"), that row keyed by the same code. The column read is
the one whose header's words the question all says ("Full price" of "full-price"), or the table's only column
holding a value of the kind asked. Several rows named for the same thing must lead to one value; two tables,
columns or values in doubt give no answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kmrag.answer.rows import header_cells
from kmrag.answer.spans import Span
from kmrag.answer.support import STOP, stem, terms
from kmrag.answer.tables import header_words

_CODE = re.compile(r"[A-Z0-9][A-Z0-9+-]{0,3}")  # a key: "A", "B2", "CIN", "Z3+"; not a word ("Sales")
_VALUE_KINDS = frozenset({"MONEY", "NUMBER", "QUANTITY", "DATE", "TIME", "PERCENT"})


def _words(text: str) -> frozenset[str]:
    """The stems of a header's or a question's words, split at hyphens and underscores too ("price_band": price,
    band; "full-price": full, price)."""
    return frozenset(stem(w) for w in re.split(r"[\W_]+", text.lower()) if w and w not in STOP)


def _fits(value: str, answer_type: str, pattern: re.Pattern[str] | None) -> bool:
    if answer_type in _VALUE_KINDS and not re.search(r"\d", value):
        return False
    return bool(pattern.search(value)) if pattern is not None else bool(value) and len(value) <= 60


def _named_by(cells: Sequence[tuple[str, str]], qwords: frozenset[str]) -> str | None:
    """The longest cell value naming the row that the question says whole (two words or more)."""
    bare = [re.sub(r"\s*\([^()]*\)", "", v).strip() for _, v in cells]  # "Feathers & Fury (Ransome Dance Company)"
    names = [v for v in bare if len(terms(v).words) >= 2 and terms(v).words <= qwords]
    return max(names, key=lambda v: len(terms(v).words), default=None)


def _column(cells: Sequence[tuple[str, str]], qwords: frozenset[str], answer_type: str,
            pattern: re.Pattern[str] | None, said_only: bool = False) -> tuple[str, str] | None:
    """(header, value) of the column asked in a defining row (its key cell first, left out); ``said_only``: only a
    column whose header the question says."""
    fitting = [(h, v) for h, v in cells[1:] if _fits(v, answer_type, pattern)]
    said = [(len(_words(h)), h, v) for h, v in fitting if _words(h) and _words(h) <= qwords]
    if said_only and not said:
        return None
    if said:
        said.sort(key=lambda s: -s[0])
        if len(said) > 1 and said[1][0] == said[0][0]:
            return None  # two columns named as fully
        return said[0][1], said[0][2]
    return fitting[0] if len(fitting) == 1 else None


def joined(question: str, answer_type: str, spans: Sequence[Span], pattern: re.Pattern[str] | None = None,
           ) -> tuple[list[Span], str, str] | None:
    """([the named row, the defining row], the value, how it was read), or None (see the module)."""
    if answer_type not in _VALUE_KINDS:
        return None
    qwords, qstems = terms(question).words, _words(question)
    rows = [s for s in spans if s.kind == "row"]
    found: dict[str, tuple[list[Span], str]] = {}
    for row in rows:
        cells = header_cells(row.display)
        name = _named_by(cells, qwords)
        if name is None or _column([("", ""), *cells], qstems, answer_type, pattern, said_only=True) is not None:
            continue  # the row names its own value of what is asked ("the fee for Life Drawing": its Fee, £120)
        for header, code in cells:
            if not _CODE.fullmatch(code) or not (hw := _words(header)) or code in name.split():
                continue
            for other in rows:
                keyed = header_cells(other.display)
                if other.unit_id == row.unit_id or not keyed or keyed[0][1] != code or not hw & _words(keyed[0][0]) \
                        or [h for h, _ in keyed] == [h for h, _ in cells]:
                    continue  # (a part of the same table split is no other table: "parent_code" of "code")
                got = _column(keyed, qstems, answer_type, pattern)
                if got is not None:
                    how = (f"the {got[0]} of the row whose {keyed[0][0]} is {code}, {code} being the {header} of the "
                           f"row for {name}")
                    found.setdefault(got[1], ([row, other], how))
    if len(found) != 1:
        return None  # nothing joined, or rows named for the thing that lead to different values
    value, (chain, how) = next(iter(found.items()))
    return chain, value, how


# "what time does the Corinne Blake show finish": its start (20:00) and running time (110 minutes) give 21:50
_ENDS_ASKED = re.compile(r"^\s*(?:what\s+time|when)\s+(?:does|do|will|is|did)\s+(?P<what>.+?)\s+(?:finish|end|be\s+over|"
                         r"come\s+out|let\s+out|get\s+out)(?:\s+(?:tonight|today|on\s+\w+))?\s*[?.!]*\s*$", re.I)
# what ends that is no show's running: a booking, an offer
_NOT_RUNNING = re.compile(r"\b(?:booking|bookings|discount|offer|sale|sales|registration|deadline|early[\s-]bird|tickets?|"
                          r"applications?|voting|consultation)\b", re.I)
_CLOCK = re.compile(r"([01]?\d|2[0-3])[:.]([0-5]\d)")
_DURATION_WORDS = frozenset({"running", "run", "runtime", "duration", "length"})
_MINUTE_WORDS = frozenset({"mins", "min", "minutes", "minute"})
_STARTS = frozenset({"start", "begin", "time"})


def _minutes(header: str, value: str) -> int | None:
    """The minutes a cell gives as a running time: a duration's header saying minutes ("running_time_mins",
    "Duration (minutes)"), or a duration's header and a value saying them ("Running time: 110 mins"); not "Min age",
    not "Length (weeks)"."""
    words, m = header_words(header), re.fullmatch(r"(\d{1,3})(\s*(?:mins?|minutes))?", value.strip())
    if m is None or not words & _DURATION_WORDS and words != {"mins"} and words != {"minutes"}:
        return None
    return int(m.group(1)) if words & _MINUTE_WORDS or m.group(2) else None


def _partly_named(cells: Sequence[tuple[str, str]], qwords: frozenset[str]) -> str | None:
    """A cell naming the row that the question says two words of, and more than half ("the Corinne Blake show" of
    "An Evening with Corinne Blake")."""
    for _, v in cells:
        words = terms(v).words
        if re.search(r"[A-Z][a-z]", v) and len(said := words & qwords) >= 2 and 2 * len(said) > len(words):
            return v
    return None


def end_time(question: str, spans: Sequence[Span]) -> tuple[list[Span], str, str, dict[str, object]] | None:
    """([the row], the time it ends, how, {"clock": start and minutes}) when the question asks when a thing finishes
    and one row it names gives a start time and a running time in minutes; rows of it that end at different times
    give none."""
    if (asked := _ENDS_ASKED.search(question)) is None or _NOT_RUNNING.search(asked.group("what")):
        return None
    qwords = terms(question).words
    found: dict[str, tuple[Span, str, int, str]] = {}
    for row in (s for s in spans if s.kind == "row"):
        cells = header_cells(row.display)
        if (name := _partly_named(cells, qwords)) is None:
            continue
        starts = [v for h, v in cells if _words(h) & _STARTS and not _words(h) & {"end", "finish", "door"}
                  and _CLOCK.fullmatch(v)]
        runs = [n for h, v in cells if (n := _minutes(h, v)) is not None]
        if len(starts) != 1 or len(runs) != 1:
            continue
        clock = _CLOCK.fullmatch(starts[0])
        assert clock is not None
        total = int(clock.group(1)) * 60 + int(clock.group(2)) + runs[0]
        found.setdefault(f"{total // 60 % 24:02d}:{total % 60:02d}", (row, starts[0], runs[0], name))
    if len(found) != 1:
        return None
    end, (row, start, minutes, name) = next(iter(found.items()))
    return [row], end, f"{start} + {minutes} minutes = {end} (the start and running time of {name})", \
        {"clock": {"start": start, "minutes": minutes}}


def clock_holds(direct: str, clock: dict[str, object], evidence: Sequence[str]) -> bool:
    """An end time stands when its start and its minutes are cells of a cited row and it is their sum, recomputed."""
    start, minutes = str(clock.get("start", "")), clock.get("minutes")
    m, got = _CLOCK.fullmatch(start), _CLOCK.fullmatch(direct.strip())
    cell = r"(?:^|\|\s*|:\s*)"  # a whole cell of a row ("| 110 |", "running_time_mins: 110;"), not part of a date
    if m is None or got is None or not isinstance(minutes, int) or not any(
            re.search(rf"{cell}{re.escape(start)}\s*(?:\||;|$)", e)
            and re.search(rf"{cell}{minutes}(?:\s*(?:mins?|minutes))?\s*(?:\||;|$)", e) for e in evidence):
        return False
    total = int(m.group(1)) * 60 + int(m.group(2)) + minutes
    return (total // 60 % 24, total % 60) == (int(got.group(1)), int(got.group(2)))
