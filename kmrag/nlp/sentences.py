"""Sentence boundaries without a model: fast enough for multi-megabyte novels, careful about
abbreviations and initials so a split never falls mid-sentence; a sentence may start with a capital of
any script (Latin, Cyrillic, Greek...), and Chinese or Japanese text splits on its own terminators
(。！？；), which need no space after them."""

from __future__ import annotations

import re

_ABBREV = {
    "mr", "mrs", "ms", "dr", "prof", "st", "sr", "jr", "vs", "etc", "e.g", "i.e", "fig", "no", "vol", "ch",
    "sec", "art", "p", "pp", "ed", "eds", "inc", "ltd", "co", "corp", "gen", "col", "capt", "lt", "sgt", "rev",
    "hon", "gov", "sen", "rep", "mt", "ft", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
    "oct", "nov", "dec", "u.s", "u.k", "approx", "dept", "est", "al", "cf", "viz", "esq", "messrs", "mme", "mlle",
}
# a terminator, optional closing quotes/brackets and a Markdown emphasis closing ("?**"), whitespace, then something that can start a sentence
# (checked in code: an upper-case letter of any script, a digit, an underscore, after an optional opening
# quote or bracket); or a CJK terminator (。！？；), which needs no space after it
_BOUNDARY = re.compile(r"""([.!?…]+)(["'”’)\]]*(?:\*\*|__|\*|_)?)(\s+)(?=\S)|([。！？；]+)([”’」』）】〉》"')\]]*)(\s*)(?=\S)""")
_OPENERS = "\"'“‘([「『（【"
# a list item at the start of a line ("- **Ledger** — Appends ...", "2. Restart it"): after a sentence's end and a
# line break it opens a sentence whatever letter follows the marker
_ITEM = re.compile(r"(?:[-*•+]|\d{1,2}[.)])\s")


def _starts_sentence(text: str, at: int, gap: str = "") -> bool:
    if "\n" in gap and _ITEM.match(text, at):
        return True
    if (m := _EMPHASIS.match(text, at)) and m.end() < len(text):
        at = m.end()  # "**Do I need ...?**": the words in bold open it
    c = text[at + 1] if text[at] in _OPENERS and at + 1 < len(text) else text[at]
    return c.isupper() or c.isdigit() or c == "_"


_EMPHASIS = re.compile(r"\*\*|__|\*(?=\S)")


# a line that introduces a list ("use structural parsers:\n1. **Parse**: ...") ends where the list's first item opens
_INTRO = re.compile(r":[ \t]*\n\s*(?=(?:[-*•+]|\d{1,2}[.)])\s)")


# a "Field: value" line ("Mixed case (24 x 440ml core cans): £78.00", "- Yeast: house strain QM-1"): a label that
# opens with a capital or a digit, then a colon and its value on the same line
FIELD_LINE = re.compile(r"^[ \t]*(?:[-*•+][ \t]+)?(?:\*\*)?[A-Z0-9][^\n:]{0,60}?:(?:\*\*)?[ \t]+\S[^\n]*$", re.M)


def fact_sheet(text: str) -> bool:
    """Does ``text`` hold two or more "Field: value" lines (a fact sheet, a price list)?"""
    return len(FIELD_LINE.findall(text)) >= 2


def _field_cuts(text: str, a: int, b: int) -> list[int]:
    """Where sentences start inside [a, b) of a paragraph with two or more "Field: value" lines (a fact sheet, a
    price list): at each field line, and at the first line after one that does not go on with its value."""
    cuts: list[int] = []
    for para in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", text[a:b]):
        lines = [(a + para.start() + m.start(), m.group(0)) for m in re.finditer(r"[^\n]+", para.group(0))]
        fields = [FIELD_LINE.fullmatch(line) is not None for _, line in lines]
        if sum(fields) < 2:
            continue
        cuts.append(lines[0][0] + len(lines[0][1]) - len(lines[0][1].lstrip()))  # a heading above it stands alone
        after = re.compile(r"\s*(?=\S)").match(text, a + para.end(), b)
        if after and after.end() < b:
            cuts.append(after.end())  # and what follows it, after a blank line
        value = False  # inside a field's value (its line, or lines that go on with it)
        prev = ""
        for (at, line), field in zip(lines, fields, strict=True):
            lead = at + len(line) - len(line.lstrip())
            if field:
                cuts.append(lead)
                value = True
            elif value and not _goes_on(prev, line.lstrip()[:1]):
                cuts.append(lead)
                value = False
            prev = line
    return sorted({c for c in cuts if a < c < b})


def _item_cuts(text: str, a: int, b: int) -> list[int]:
    """Where sentences start inside [a, b) of a paragraph with two or more list items ("- **Ines Vardalou** — Head
    Brewer"): at each item, which needs no full stop to end; a line without a marker goes on with the item above."""
    cuts: list[int] = []
    for para in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", text[a:b]):
        items = [a + para.start() + m.start(1) for m in re.finditer(r"^[ \t]*((?:[-*•+]|\d{1,2}[.)])[ \t]+\S)",
                                                                     para.group(0), re.M)]
        if len(items) >= 2:
            cuts += items
    return sorted({c for c in cuts if a < c < b})


def _goes_on(line: str, first: str) -> bool:
    """Does the line after a "Field: value" line go on with its value? It opens in lower case or a bracket, or
    the value ends on a comma, an open bracket or a joining word ("Present: A (Chair), B,\nC ...")."""
    return first.islower() or first in "()[]&" or bool(re.search(r"(?:[,;(&/–-]|\b(?:and|or|of|the))\s*$", line))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; the spans cover the text without gaps except whitespace."""
    out: list[tuple[int, int]] = []
    for a, b in _sentence_spans(text):
        cuts = sorted({m.start() + 1 for m in _INTRO.finditer(text, a, b)} | set(_field_cuts(text, a, b)) |
                      set(_item_cuts(text, a, b)))
        for start, end in zip([a, *cuts], [*cuts, b], strict=True):
            if text[start:end].strip():
                out.append(_trim(text, start, end))
    return out


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group(4) is not None:  # CJK: the terminator ends the sentence wherever it stands
            end, nxt = m.end(5), m.end(6)
        else:
            if not _starts_sentence(text, m.end(3), m.group(3)):
                continue
            end, nxt = m.end(2), m.end(3)
            word = re.search(r"([\w.]+)$", text[start:m.start(1)])
            token = word.group(1).lower() if word else ""
            if m.group(1) == "." and (token.rstrip(".") in _ABBREV or (len(token) == 1 and token.isalpha())):
                continue  # "Dr. Smith", "M. D.", "J. R. R. Tolkien"
            if m.group(1) == "." and re.fullmatch(r"\d{1,2}", token) and \
                    re.search(r"(?:^|\n)[ \t]*$", text[:m.start(1) - len(token)]):
                continue  # "1. Brew honestly": a list's number at the start of a line
        if text[start:end].strip():
            spans.append(_trim(text, start, end))
        start = nxt
    if text[start:].strip():
        spans.append(_trim(text, start, len(text)))
    return spans


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def pack_sentences(text: str, max_chars: int) -> list[tuple[int, int]]:
    """Group whole sentences into spans of at most ``max_chars`` (a single longer sentence stays whole)."""
    out: list[tuple[int, int]] = []
    cur: tuple[int, int] | None = None
    for a, b in sentence_spans(text):
        if cur is None:
            cur = (a, b)
        elif b - cur[0] <= max_chars:
            cur = (cur[0], b)
        else:
            out.append(cur)
            cur = (a, b)
    if cur is not None:
        out.append(cur)
    return out


def split_bounded(text: str, max_chars: int) -> list[tuple[int, int]]:
    """Spans of at most ``max_chars`` covering ``text``: cut at line breaks where possible, else at
    whitespace, else (a run with neither) hard. Bounds any unit or sentence, however it is written."""
    out: list[tuple[int, int]] = []
    start, n = 0, len(text)
    while start < n:
        while start < n and text[start].isspace():
            start += 1
        if start >= n:
            break
        end = min(n, start + max_chars)
        if end < n:
            cut = text.rfind("\n", start + 1, end + 1)
            if cut <= start:
                cut = max((text.rfind(c, start + 1, end + 1) for c in (" ", "\t")), default=-1)
            if cut > start:
                end = cut
        a, b = _trim(text, start, end)
        if b > a:
            out.append((a, b))
        start = end
    return out
