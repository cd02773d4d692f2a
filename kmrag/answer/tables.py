"""Answers computed from a table's cells: which row holds the most or least of a column ("哪座城市的面积最小",
"which model has the lowest latency"), which of two named rows holds more ("海宁和德清相比，哪个面积更大"), and
whether a row's cell passes a number or another row's cell ("海宁的人口是否超过了100万", "is Beta's accuracy higher
than Alpha's"). Every value compared is a cell of a cited row; nothing is read from a template.

A row span reads "Header: cell; Header: cell" (kmrag.answer.spans), its first cell the row's key. The column is
the header all of whose words the question says (its parenthesis aside); the rows compared are those of one
table (one unit) with a number in that column, all in one unit of measure. What the reader cannot be sure of is
no answer: a negated or quantified comparison ("不超过", "both", "twice"), a threshold in another unit or a year,
a subject that is no row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from kmrag.answer.spans import Span
from kmrag.answer.support import split_compounds, terms
from kmrag.nlp.chinese import HAN, tokens

# the direction a word asks for: True the larger value, False the smaller
_MORE = "高|多(?!少)|大|长|远|重|贵|晚|强"
_LESS = "低|少|小|短|近|轻|便宜|早|弱"
_FAST = "快"
_SLOW = "慢"
SUPERLATIVE = re.compile(rf"最({_MORE}|{_LESS}|{_FAST}|{_SLOW})|(?<!at )\b(highest|most|largest|biggest|longest|farthest|furthest|"
                         r"heaviest|latest|greatest|lowest|(?<!at )least|fewest|smallest|shortest|nearest|closest|earliest|"
                         r"fastest|quickest|slowest|cheapest|dearest|priciest)\b", re.I)
COMPARATIVE = re.compile(rf"更({_MORE}|{_LESS}|{_FAST}|{_SLOW})|(?<![对相])比[^，。？?]{{1,24}}?({_MORE}|{_LESS}|{_FAST}|{_SLOW})"
                         r"(?=[？?，。！\s]|些|一些|得|了|吗|$)|"
                         rf"({_MORE}|{_LESS})于|超过|不到|不足|\b(higher|more|larger|bigger|longer|farther|heavier|later|"
                         r"greater|lower|less|fewer|smaller|shorter|nearer|closer|earlier|faster|quicker|slower|"
                         r"cheaper|dearer|pricier|exceeds?|exceeded|above|below|under|over)\b", re.I)
_UP = re.compile(rf"^({_MORE}|超过|highest|most|largest|biggest|longest|farthest|furthest|heaviest|latest|greatest|"
                 r"higher|more|larger|bigger|longer|farther|heavier|later|greater|exceeds?|exceeded|above|over|"
                 r"dearer|dearest|pricier|priciest)$", re.I)
_QUICK = re.compile(rf"^({_FAST}|fastest|quickest|faster|quicker)$", re.I)
_SLOWLY = re.compile(rf"^({_SLOW}|slowest|slower)$", re.I)
NEGATED = re.compile(r"不(?!到|足)|没|未|并非|\b(?:not|never|no)\b|n't\b", re.I)
QUANTIFIED = re.compile(r"\b(?:both|all|each|every|times|twice|combined|total|sum)\b", re.I)
QUANTIFIERS_ZH = {"都", "均", "全都", "皆", "倍", "以上", "以下", "之和", "总和", "合计", "一共"}  # words, not characters: 平均
_AGAINST = re.compile(r"(?:比|与|和|跟|同|较|compared (?:with|to)|than|versus|vs\.?)\s*$", re.I)
_UNIT = re.compile(r"^\s*([%‰]|[A-Za-z]+|[^\W\d_]{1,2})")
_YEAR_ZH = re.compile(r"^\d+\s*年")
_YEAR_EN = re.compile(r"\b(?:in|year|since|of|the)\s+$", re.I)  # "in 2020", "the 2020 level": a year
DURATIONS = {"ms", "s", "sec", "secs", "min", "mins", "h", "hr", "hrs", "秒", "毫秒", "分钟", "小时", "天", "days", "day"}
DATE_HEAD = re.compile(r"年份|年$|日期|时间|\b(?:year|date)\b", re.I)
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


def measure(cell: str, default_unit: str = "") -> tuple[float, str] | None:
    """The cell's number and its unit ("120ms" -> (120, "ms"); "1.2亿元" -> (1.2, "亿元")); a bare number takes
    the column's unit ("Latency (ms)")."""
    m = _NUMBER.search(cell)
    if m is None:
        return None
    u = _UNIT.match(cell[m.end():])
    return float(m.group(0).replace(",", "")), (u.group(1).lower() if u else default_unit)


def _header_unit(header: str) -> str:
    m = re.search(r"[（(]\s*([^）)]{1,4})\s*[)）]", header)
    return m.group(1).lower() if m else ""


_ACRONYM_AFTER = re.compile(r"\s+[A-Z][A-Za-z]{0,4}[A-Z]\s*$")  # "Carrow WTW", "Fenby WwTW": a kind, abbreviated


def key_words(key: str) -> frozenset[str]:
    """The words a question must say to name a row's key: all of them, but for an abbreviation after a name
    ("Carrow WTW" is named by "Carrow Water Treatment Works" and by "the Carrow works"; "NHS Trust" is not
    named by "trust") and for where it is after a comma ("Central Library, Market Square")."""
    name = key.split(", ")[0]  # "Central Library, Market Square": the name, then where it is
    bare = terms(_ACRONYM_AFTER.sub(" ", name)).words
    return bare or terms(name).words or terms(key).words


def _named(key: str, question: str) -> int:
    """Where the question names the row's key (-1: it does not); a Chinese key as written, else all its words."""
    if HAN.search(key):
        return question.find(key)
    kw = key_words(key)
    if not kw or not split_compounds(kw) <= split_compounds(terms(question).words):  # "Over-55s": over 55s
        return -1
    m = re.search(re.escape(key.split()[0]), question, re.I)
    return m.start() if m else 0


# what a comparing word measures, and the header words of a column holding it ("which film runs longer": the
# running_time_mins column; "which is cheaper": a price's)
_DIMENSIONS = (
    (re.compile(r"\b(?:longer|longest|shorter|shortest)\b", re.I),
     frozenset("duration length runtime running minutes hours".split())),  # not start_time, not "Min age"
    (re.compile(r"\b(?:cheaper|cheapest|dearer|dearest|pricier|priciest|(?:more|less|most|least)\s+expensive|"
                r"costs?\s+(?:less|more|the\s+(?:least|most)))\b", re.I),
     frozenset("price prices cost costs fee fees fare fares charge charges".split())),
    (re.compile(r"\b(?:bigger|biggest|larger|largest|smaller|smallest)\b", re.I),
     frozenset("size capacity area seats".split())),
    (re.compile(r"\b(?:taller|tallest)\b", re.I), frozenset({"height"})),
    (re.compile(r"\b(?:heavier|heaviest|lighter|lightest)\b", re.I), frozenset({"weight"})),
)


_COUNTED = r"\b(?:[2-9]|\d{2,3}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"  # more than one of


def _row_named(row: Row, question: str) -> int:
    """Where the question names the row: by its key, else by a name of two words or more in another of its cells (a
    spreadsheet keyed by date names its shows by their titles: "The Salt Road", not "2025-02-12"); -1: it does not."""
    return _name_of(row, question)[0]


def _name_of(row: Row, question: str) -> tuple[int, Row]:
    """(where the question names the row, the row keyed by the name it is named by)."""
    at = _named(row.key, question)
    if at >= 0:
        return at, row
    for _, value in row.cells:
        if value[:1].isupper() and len(key_words(value)) >= 2 and (at := _named(value, question)) >= 0:
            return at, replace(row, key=value)
    return -1, row


def header_words(header: str) -> frozenset[str]:
    """A header's words as written, lower case, split at underscores too ("running_time_mins": running, time, mins)."""
    return frozenset(w for w in re.split(r"[\W_]+", header.lower()) if w)


_RANKS = frozenset("band bands code codes level levels grade grades tier tiers rank class zone zones".split())


def _said(question: str, rows: Sequence[Row]) -> dict[str, float]:
    """The headers all of whose words (their parenthesis aside) the question says, each with its word count; when
    none is, the one header of what the question's comparing word measures (half a word)."""
    qwords = terms(question).words
    scores: dict[str, float] = {}
    for r in rows:
        for h, _ in r.cells:
            hw = terms(_PAREN.sub("", h)).words or terms(h).words
            bare = _PAREN.sub("", h).strip()
            if hw and hw <= qwords and (not HAN.search(h) or _says_header(question, bare)):
                scores[h] = float(len(hw))
    if scores or not rows:
        return scores
    measured = [heads for word, heads in _DIMENSIONS if word.search(question)]
    fitting = {h for r in rows for h, v in r.cells if measure(v, _header_unit(h)) is not None  # not price_band's "B"
               and any(header_words(h) & heads for heads in measured) and not header_words(h) & _RANKS}  # a band's number ranks, it measures nothing
    return {fitting.pop(): 0.5} if len(fitting) == 1 else {}


def _column(scores: dict[str, float]) -> tuple[str, float] | None:
    """Of the headers said (:func:`_said`), the longest; a tie is none."""
    if not scores:
        return None
    best = sorted(scores.items(), key=lambda x: -x[1])
    return best[0] if len(best) == 1 or best[1][1] < best[0][1] else None


_ASKING = {"是否", "是不是", "有没有", "能否", "超过", "达到", "不到", "不足", "高于", "低于", "多于", "少于", "大于",
           "小于", "排名", "排在", "相比", "比较"}


def _says_header(question: str, bare: str) -> bool:
    """A Chinese header is said as written (and is not the start of a longer attribute: 人口占比 is not 人口), or
    its words (prepositions aside) are words of the question (内存占用: 占用的内存; 距市中心: 离市中心)."""
    if bare in question:
        return not _longer_noun(question, bare)
    words = [t.word for t in tokens(bare) if t.word.strip() and t.tag not in {"p", "u", "w", "c"}]
    asked = {t.word for t in tokens(question)}
    return len(words) >= 1 and all(w in asked for w in words)  # 距市中心: 离市中心 says 市中心


def _longer_noun(question: str, bare: str) -> bool:
    """The question names a longer attribute than the header: 人口占比 is not the column 人口 (the word after the
    header is a noun)."""
    end, pos = question.find(bare) + len(bare), 0
    for t in tokens(question):
        if pos == end:
            return t.tag in {"n", "nz", "vn"} or (t.tag == "v" and len(t.word) >= 2 and t.word not in _ASKING)
        pos += len(t.word)
    return False


def _where(head: str, question: str) -> int:
    bare = _PAREN.sub("", head).strip()
    at = question.find(bare) if HAN.search(bare) else -1
    if at < 0:
        m = re.search(re.escape(bare.split()[0]), question, re.I) if bare.split() else None
        at = m.start() if m else 0
    return at


def _nearest(pattern: re.Pattern[str], question: str, at: int, end: int) -> re.Match[str] | None:
    """The direction word nearest the column's mention ("according to the latest benchmark, which has the lowest
    latency": lowest)."""
    found = list(pattern.finditer(question))
    after = bool(HAN.search(question))  # 人口最多: the word follows the noun in Chinese, precedes it in English

    def gap(m: re.Match[str]) -> tuple[int, bool]:
        return (max(0, at - m.end(), m.start() - end), (m.start() < at) if after else (m.start() >= at))
    return min(found, key=gap) if found else None


# the order of dates a word asks for ("opened first", "the most recent"): later ones are the larger years
DATE_ORDER = re.compile(r"\b(first|earliest|earlier|oldest|older|sooner|last|latest|later|newest|newer|"
                        r"most recent(?:ly)?|more recent(?:ly)?)\b", re.I)
_LATER = re.compile(r"^(last|latest|later|newest|newer|most recent(?:ly)?|more recent(?:ly)?)$", re.I)
_YEAR = re.compile(r"\s*(?:1\d{3}|20\d{2})\s*")


def _dated(head: str, valued: Sequence[Valued]) -> bool:
    """A column of dates: its header says so ("Year", "日期"), or each of its cells is a year ("Opened: 1964")."""
    return bool(DATE_HEAD.search(head)) or all(_YEAR.fullmatch(v) for _, v, *_ in valued)


def _larger(word: str, units: Sequence[str]) -> bool:
    """Whether the word asks for the larger number; "faster" of durations is the smaller."""
    if DATE_ORDER.fullmatch(word):
        return bool(_LATER.match(word))
    durations = any(u in DURATIONS for u in units)
    if _QUICK.match(word):
        return not durations
    if _SLOWLY.match(word):
        return durations
    return bool(_UP.match(word))


def _word(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g) if any(m.groups()) else m.group(0)


Valued = tuple[Row, str, float, str]  # the row, its cell, the cell's number and unit


def _table(question: str, spans: Sequence[Span]) -> tuple[str, list[Valued]] | None:
    """The column asked about and the rows of its table with a number in it, all in one unit (the table whose
    rows the question names most)."""
    by_unit: dict[tuple[str, ...], list[Row]] = {}  # the parts of one table split by rows read together
    for r in rows_of(spans):
        by_unit.setdefault((r.span.source_id, *(h for h, _ in r.cells)), []).append(r)
    best: tuple[tuple[int, float], str, list[Valued]] | None = None
    for rows in by_unit.values():
        said = _said(question, rows)
        if not said:
            continue
        # two columns said as fully: either may be the head here, compare reads both (kmrag.answer.tables._cell_of_best)
        head, fit = _column(said) or max(said.items(), key=lambda x: x[1])
        valued = [(r, v, m[0], m[1]) for r in rows for h, v in r.cells
                  if h == head and (m := measure(v, _header_unit(head))) is not None]
        if len({u for *_, u in valued}) > 1:  # 1.2 s and 900 ms, 1.2亿元 and 8500万元: not compared as numbers, but
            named = [x for x in valued if _row_named(x[0], question) >= 0]  # the rows named may be ("£70" and "£60",
            if len(named) < 2 or len({u for *_, u in named}) > 1:  # whatever "£9 per session" another row says)
                continue
            valued = named
        rank = (sum(_row_named(r, question) >= 0 for r, *_ in valued), fit)
        if len(valued) >= 2 and (best is None or rank > best[0]):
            best = (rank, head, valued)
    return (best[1], best[2]) if best else None


def compare(question: str, spans: Sequence[Span], yes_no: bool) -> tuple[list[Span], str, dict[str, Any]] | None:
    """(the rows compared, the answer, the basis) or None when the question is not such a comparison of a table,
    or one the reader cannot be sure of (negated, quantified)."""
    if NEGATED.search(question) or QUANTIFIED.search(question) or \
            (HAN.search(question) and any(t.word in QUANTIFIERS_ZH for t in tokens(question))):
        return None
    found = _table(question, spans)
    if found is None:
        return None
    head, valued = found
    at = _where(head, question)
    end = at + len(_PAREN.sub("", head).strip())
    named = sorted((x for x in ((*_name_of(r, question), v, n, u) for r, v, n, u in valued) if x[0] >= 0),
                   key=lambda x: x[0])
    if len({(x[1].key, x[3], x[4]) for x in named}) > len({x[1].key for x in named}):
        return None  # a thing named by two rows that disagree ("Hamlet" on two dates, at two prices)
    named = list({x[1].key: x for x in named}.values())  # a film shown on four dates, its running time once
    if any(re.search(rf"{_COUNTED}\s+(?:of\s+(?:the\s+)?)?{re.escape(x[1].key)}", question, re.I) for x in named):
        return None  # "one Vale Week or four Vale Day tickets": four of a row's price, not one (the reader's sums)
    if yes_no:
        return _yes_no(question, head, (at, end), named)
    sup, cmp = _nearest(SUPERLATIVE, question, at, end), _nearest(COMPARATIVE, question, at, end)
    if sup is None and cmp is None and _dated(head, valued):
        sup = _nearest(DATE_ORDER, question, at, end)  # "which opened first": the earliest year of the Opened column
    table = [r for r in rows_of(spans) if (r.span.source_id, *(h for h, _ in r.cells)) ==
             (valued[0][0].span.source_id, *(h for h, _ in valued[0][0].cells))]
    said = _deduped(_said(question, table))
    if len(said) > 1:  # "准确率最高的方案平均耗时是多少": the row is chosen by one column, another's cell is asked
        return _cell_of_best(question, table, said) if sup and not cmp and not named else None
    if len(named) == 2 and (cmp or sup):
        pool: list[Valued] = [(r, v, n, u) for _, r, v, n, u in named]
        word = _word(cmp or sup)  # type: ignore[arg-type]
    elif sup and not named and _next_to(question, head, sup) and not _CONDITION.search(question) and \
            (ROW_ASKED.search(question) or not VALUE_ASKED.search(question)):
        # "which model has the highest accuracy"; not "what is the latency of the most accurate model" (the word goes
        # with no column said), nor "what is the highest accuracy" (a value is asked, not a row)
        pool, word = valued, _word(sup)
    else:
        return None
    larger = _larger(word, [u for *_, u in pool])
    ranked = sorted(pool, key=lambda x: -x[2] if larger else x[2])
    if ranked[0][2] == ranked[1][2]:
        return None  # a tie decides nothing
    won = ranked[0][0]
    return [r.span for r, *_ in pool], won.key, _basis("comparison", f"{'largest' if larger else 'smallest'} "
                                                         f"{head}", pool, won.key)


# a question asking for a row ("which model", "哪个方案"), not a value of one
ROW_ASKED = re.compile(r"\b(?:which|who)\b|哪", re.I)
# a cell that says nothing ("n/a", "—"): no answer
_EMPTY_CELL = re.compile(r"^\s*(?:n/?a|none|null|unknown|tbd|\?+|[-–—]+)?\s*$", re.I)
# a value asked ("多少", "what is the latency of ..."), not which row
VALUE_ASKED = re.compile(r"多少|几|\bhow (?:much|many|long|fast|far|big|large|high|low)\b|^\s*what (?:is|was|are|were)\b", re.I)
# what makes one column a condition on another rather than the pick ("with latency at most 50 ms", "500ms以内"), or
# a rank other than the first ("the second highest")
_CONDITION = re.compile(r"\b(?:at (?:least|most)|within|no (?:more|less)|not (?:more|less)|per|relative|for (?:its|their)|"
                        r"among|second|third|fourth|2nd|3rd|4th|next|except|without|excluding|other than)\b|"
                        r"以内|以上|以下|至少|至多|不超过|不低于|之内|其中|第[二三四五]|次于|除了", re.I)


def _next_to(question: str, head: str, sup: re.Match[str]) -> bool:
    """The superlative word goes with the column: right after the header in Chinese ("准确率最高"), right before it in
    English, a word ("by", "in") at most between ("the highest accuracy", "the fastest by latency")."""
    bare = _PAREN.sub("", head).strip()
    if HAN.search(question):
        at = question.rfind(bare, 0, sup.start() + 1)
        return at >= 0 and len(question[at + len(bare): sup.start()].strip(" 的")) == 0
    want = terms(bare).words
    after = [w for w in re.findall(r"[\w%-]+", question[sup.end():])]
    while after and after[0].lower() in {"by", "in", "of", "the"}:
        after = after[1:]
    return bool(want) and want <= terms(" ".join(after[: len(bare.split()) + 1])).words


def _deduped(said: dict[str, float]) -> list[str]:
    """The headers said, but for one whose words are all in a longer one said ("Latency" of "Latency p99")."""
    words = {h: terms(_PAREN.sub("", h)).words or terms(h).words for h in said}
    return [h for h in said if not any(o != h and words[h] < words[o] for o in said)]


def _cell_of_best(question: str, rows: Sequence[Row], said: Sequence[str]
                  ) -> tuple[list[Span], str, dict[str, Any]] | None:
    """"What is the latency of the method with the highest accuracy?", "准确率最高的方案平均耗时是多少？": the row
    with the most (least) of the column the one superlative word goes with (:func:`_next_to`), and the cell of the
    one other column the question says. None when the question asks which row, states a condition or a rank other
    than the first (:data:`_CONDITION`), the word goes with no column or both, a row has no number in the column
    compared, or the first two tie."""
    sups = list(SUPERLATIVE.finditer(question))
    if len(said) != 2 or len(sups) != 1 or ROW_ASKED.search(question) or _CONDITION.search(question):
        return None
    by = [h for h in said if _next_to(question, h, sups[0])]
    if len(by) != 1:
        return None
    asked = next(h for h in said if h != by[0])
    pool = [(r, v, *m) for r in rows for h, v in r.cells if h == by[0] and (m := measure(v, _header_unit(h)))]
    if len(pool) != len(rows) or len(pool) < 2 or len({u for *_, u in pool}) > 1:
        return None  # a row without a number compared ("n/a") might be the one
    larger = _larger(_word(sups[0]), [u for *_, u in pool])
    ranked = sorted(pool, key=lambda x: -x[2] if larger else x[2])
    if ranked[0][2] == ranked[1][2]:
        return None
    won = ranked[0][0]
    value = next((v.strip() for h, v in won.cells if h == asked and not _EMPTY_CELL.match(v)), None)
    if value is None:
        return None
    rule = f"the {asked} of the row with the {'largest' if larger else 'smallest'} {by[0]} ({won.key})"
    # the winning row first: the answer's cell is read from it; every row compared is cited
    return [won.span, *(r.span for r, *_ in pool if r is not won)], value, _basis("cell", rule, pool, won.key)


def _yes_no(question: str, head: str, column: tuple[int, int],
            named: list[tuple[int, Row, str, float, str]]) -> tuple[list[Span], str, dict[str, Any]] | None:
    """Whether the subject row's cell is more or less than a number the question states after the comparison word,
    or than the other named row's cell (the one after 比 / 与 / than / compared with). The subject is named before
    the comparison word; a question whose subject is no row is no answer."""
    cmp = _nearest(COMPARATIVE, question, *column)
    if cmp is None or not named or len(named) > 2:
        return None
    zh = bool(HAN.search(question))
    against_rows = [x for x in named if _AGAINST.search(question[:x[0]]) or x[0] > cmp.start()]
    subjects = [x for x in named if x not in against_rows and x[0] < cmp.start()]
    if len(subjects) != 1:
        return None
    _, row, value, n, unit = subjects[0]
    larger = _larger(_word(cmp), [unit])
    pool: list[Valued] = [(row, value, n, unit)]
    if against_rows:
        if len(against_rows) != 1:
            return None
        _, orow, ovalue, against, _ = against_rows[0]
        said = f"{orow.key}'s {ovalue}"
        pool.append((orow, ovalue, against, unit))
    else:
        tail = question[cmp.end():]
        m = _NUMBER.search(tail)
        if m is None:
            return None
        year = _YEAR_ZH.match(tail[m.start():]) or (_YEAR_EN.search(tail[:m.start()])
                                                    and 1500 <= float(m.group(0).replace(",", "")) <= 2100)
        if year and not DATE_HEAD.search(head):
            return None  # "是否超过了2020年的水平": a year is no threshold of this column
        u = _UNIT.match(tail[m.end():])
        if u and u.group(1).lower() != unit and unit:
            return None  # "more than 1B" of a column in M, "below 0.05 s" of one in ms
        against, said = float(m.group(0).replace(",", "")), m.group(0) + (u.group(1) if u else "")
    if n == against:
        return None
    holds = n > against if larger else n < against
    answer = ("是" if holds else "否") if zh else ("yes" if holds else "no")
    rule = f"{row.key}: {head} {value} {'>' if larger else '<'} {said} {'holds' if holds else 'does not hold'}"
    return [r.span for r, *_ in pool], answer, _basis("yes_no", rule, pool, row.key)


def _basis(kind: str, rule: str, pool: Sequence[Valued], winner: str) -> dict[str, Any]:
    return {"kind": kind, "rule": rule, "winner": winner,
            "entities": [{"name": r.key, "value": v, "unit_id": r.span.unit_id, "quote": r.span.quote}
                         for r, v, *_ in pool]}
