"""Answers computed from a table's cells: which row holds the most or least of a column ("哪一种在实测中准确率最
高", "which method has the lowest latency"), which of two named rows holds more ("迭代检索和分解检索比起来，哪个
平均耗时更短"), and whether a row's cell passes a number or another row's cell ("平均耗时是否超过了200ms", "分解检
索的准确率是否高于迭代检索"). Every value compared is a cell of a cited row; nothing is read from a template.

A row span reads "Header: cell; Header: cell" (kmrag.answer.spans), its first cell the row's key. The column is
the header most of whose words the question says; the rows compared are those of one table (one unit) with a
number in that column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kmrag.answer.spans import Span
from kmrag.answer.support import terms
from kmrag.nlp.chinese import HAN

# the direction a word asks for: True the larger value, False the smaller
_MORE = "高|多(?!少)|大|长|远|重|贵|晚|强"
_LESS = "低|少|小|短|近|轻|便宜|早|弱"
_FAST = "快"
_SLOW = "慢"
SUPERLATIVE = re.compile(rf"最({_MORE}|{_LESS}|{_FAST}|{_SLOW})|\b(highest|most|largest|biggest|longest|farthest|furthest|"
                         r"heaviest|latest|greatest|lowest|least|fewest|smallest|shortest|nearest|closest|earliest|"
                         r"fastest|quickest|slowest)\b", re.I)
COMPARATIVE = re.compile(rf"更({_MORE}|{_LESS}|{_FAST}|{_SLOW})|(?<![对相])比.{{1,24}}?({_MORE}|{_LESS}|{_FAST}|{_SLOW})|"
                         rf"({_MORE}|{_LESS})于|超过|不到|\b(higher|more|larger|bigger|longer|farther|heavier|later|"
                         r"greater|lower|less|fewer|smaller|shorter|nearer|closer|earlier|faster|quicker|slower|"
                         r"exceeds?|exceeded|above|below|under|over)\b", re.I)
_UP = re.compile(rf"^({_MORE}|超过|highest|most|largest|biggest|longest|farthest|furthest|heaviest|latest|greatest|"
                 r"higher|more|larger|bigger|longer|farther|heavier|later|greater|exceeds?|exceeded|above|over)$", re.I)
_QUICK = re.compile(rf"^({_FAST}|fastest|quickest|faster|quicker)$", re.I)
_SLOWLY = re.compile(rf"^({_SLOW}|slowest|slower)$", re.I)
_DURATION = re.compile(r"\d\s*(ms|s|秒|毫秒|分钟|小时|min|h)\b|\d\s*(秒|毫秒|分钟|小时)", re.I)
_NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?")
_PAREN = re.compile(r"[（(][^）)]*[)）]")


@dataclass(frozen=True)
class Row:
    span: Span
    key: str
    cells: tuple[tuple[str, str], ...]  # (header, cell) after the key


def rows_of(spans: Sequence[Span]) -> list[Row]:
    out = []
    for s in spans:
        if s.kind != "row":
            continue
        cells = [c.split(": ", 1) for c in s.display.split("; ")]
        if len(cells) < 2 or any(len(c) != 2 for c in cells):
            continue
        key = _PAREN.sub("", cells[0][1]).strip() or cells[0][1].strip()
        out.append(Row(s, key, tuple((h, v) for h, v in cells[1:])))
    return out


def number(cell: str) -> float | None:
    m = _NUMBER.search(cell)
    return float(m.group(0).replace(",", "")) if m else None


def _named(key: str, question: str) -> int:
    """Where the question names the row's key (-1: it does not); a Chinese key as written, else all its words."""
    if HAN.search(key):
        return question.find(key)
    kw = terms(key).words
    if not kw or not kw <= terms(question).words:
        return -1
    m = re.search(re.escape(key.split()[0]), question, re.I)
    return m.start() if m else 0


def _column(question: str, rows: Sequence[Row]) -> tuple[str, float] | None:
    """The header most of whose words the question says (half of them, two when it has two or more); a tie is none."""
    qwords = terms(question).words
    scores: dict[str, float] = {}
    for r in rows:
        for h, _ in r.cells:
            hw = terms(_PAREN.sub("", h)).words or terms(h).words
            hit = len(hw & qwords)
            if hw and hit >= min(2, len(hw)) and 2 * hit >= len(hw):
                scores[h] = max(scores.get(h, 0.0), hit / len(hw) + 0.01 * hit)
    if not scores:
        return None
    best = sorted(scores.items(), key=lambda x: -x[1])
    return best[0] if len(best) == 1 or best[1][1] < best[0][1] else None


def _larger(word: str, values: Sequence[str]) -> bool:
    """Whether the word asks for the larger number; "faster" of durations is the smaller."""
    durations = any(_DURATION.search(v) for v in values)
    if _QUICK.match(word):
        return not durations
    if _SLOWLY.match(word):
        return durations
    return bool(_UP.match(word))


def _word(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g) if any(m.groups()) else m.group(0)


def _table(question: str, spans: Sequence[Span]) -> tuple[str, list[tuple[Row, str, float]]] | None:
    """The column asked about and the rows of its table with a number in it (the table whose rows the question
    names most)."""
    by_unit: dict[str, list[Row]] = {}
    for r in rows_of(spans):
        by_unit.setdefault(r.span.unit_id, []).append(r)
    best: tuple[tuple[int, float], str, list[tuple[Row, str, float]]] | None = None
    for rows in by_unit.values():
        column = _column(question, rows)
        if column is None:
            continue
        head, fit = column
        valued = [(r, v, n) for r in rows for h, v in r.cells if h == head and (n := number(v)) is not None]
        rank = (sum(_named(r.key, question) >= 0 for r, _, _ in valued), fit)
        if len(valued) >= 2 and (best is None or rank > best[0]):
            best = (rank, head, valued)
    return (best[1], best[2]) if best else None


def compare(question: str, spans: Sequence[Span], yes_no: bool) -> tuple[list[Span], str, dict[str, Any]] | None:
    """(the rows compared, the answer, the basis) or None when the question is not such a comparison of a table."""
    found = _table(question, spans)
    if found is None:
        return None
    head, valued = found
    named = sorted(((_named(r.key, question), r, v, n) for r, v, n in valued if _named(r.key, question) >= 0),
                   key=lambda x: x[0])
    named = list({id(r): (at, r, v, n) for at, r, v, n in named}.values())
    if yes_no:
        return _yes_no(question, head, named)
    sup = SUPERLATIVE.search(question)
    cmp = COMPARATIVE.search(question)
    if len(named) >= 2 and (cmp or sup):
        pool = [(r, v, n) for _, r, v, n in named]
        word = _word(cmp or sup)  # type: ignore[arg-type]
    elif sup and not named:
        pool, word = valued, _word(sup)
    else:
        return None
    larger = _larger(word, [v for _, v, _ in pool])
    ranked = sorted(pool, key=lambda x: -x[2] if larger else x[2])
    if len(ranked) >= 2 and ranked[0][2] == ranked[1][2]:
        return None  # a tie decides nothing
    won = ranked[0][0]
    return [r.span for r, _, _ in pool], won.key, _basis("comparison", f"{'largest' if larger else 'smallest'} "
                                                          f"{head}", pool, won.key)


def _yes_no(question: str, head: str, named: list[tuple[int, Row, str, float]]) -> tuple[list[Span], str, dict[str, Any]] | None:
    """Whether the first named row's cell is more or less than a number the question states or than the second
    named row's cell."""
    cmp = COMPARATIVE.search(question)
    if cmp is None or not named:
        return None
    zh = bool(HAN.search(question))
    larger = _larger(_word(cmp), [v for _, _, v, _ in named])
    _, row, value, n = named[0]
    if len(named) >= 2:
        other = named[1]
        against, said = other[3], f"{other[1].key}'s {other[2]}"
        pool = [(row, value, n), (other[1], other[2], other[3])]
    else:
        tail = question[cmp.end():]
        m = _NUMBER.search(tail)
        if m is None:
            return None
        against, said = float(m.group(0).replace(",", "")), m.group(0)
        pool = [(row, value, n)]
    if n == against:
        return None
    holds = n > against if larger else n < against
    answer = ("是" if holds else "否") if zh else ("yes" if holds else "no")
    rule = f"{row.key}: {head} {value} {'>' if larger else '<'} {said} {'holds' if holds else 'does not hold'}"
    return [r.span for r, _, _ in pool], answer, _basis("yes_no", rule, pool, row.key)


def _basis(kind: str, rule: str, pool: Sequence[tuple[Row, str, float]], winner: str) -> dict[str, Any]:
    return {"kind": kind, "rule": rule, "winner": winner,
            "entities": [{"name": r.key, "value": v, "unit_id": r.span.unit_id, "quote": r.span.quote}
                         for r, v, _ in pool]}
