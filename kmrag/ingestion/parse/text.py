"""Plain text to blocks: blank-line paragraphs, headings by shape (numbered, chapter, short title
lines), list items; text without any line structure is left to sentence packing downstream.

A numbered line that reads as a title ("7. Answer Synthesis Function", "2.1 Iterative retrieval": on a
line of its own, short, capitalised, no final period, followed by a paragraph, not next to another
numbered item) is a section heading, not a step; a list of numbered items stays steps. Program text
pasted without fences is a `code` block (kmrag.ingestion.parse.code_lines). A paragraph of two or more lines
that all split on tabs into the same number (two or more) of cells is a table, written as a pipe table with
its first line as the header (the way spreadsheets and many articles paste one)."""

from __future__ import annotations

import re

from kmrag.ingestion.parse.blocks import Block, pipe_table, table_cell
from kmrag.ingestion.parse.code_lines import code_regions
from kmrag.ingestion.parse.markdown import parse_markdown

_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+[A-Z\u4e00-\u9fff][^.!?。！？]{0,80}$")
# Chinese ordinal headings: "一、单跳检索的局限性" (level 1), "（一）迭代检索" (level 2)
_CJK_ORDINAL = re.compile(r"^(?:([一二三四五六七八九十百]+)、|[（(]([一二三四五六七八九十百]+)[）)])\s*\S[^。！？]{0,40}$")
_END_PUNCT = ".!?:;,\"'。！？：；，、"
_CHAPTER = re.compile(r"^(chapter|part|book|section|appendix)\s+([0-9IVXLC]+|[A-Z][a-z]+)\b.{0,80}$", re.I)


def _heading_level(text: str) -> int | None:
    t = text.strip()
    if "\n" in t or len(t) > 90 or not t:
        return None
    m = _NUMBERED.match(t)
    if m and t[-1] not in _END_PUNCT:
        return min(6, m.group(1).count(".") + 1)
    c = _CJK_ORDINAL.match(t)
    if c:
        return 1 if c.group(1) else 2
    if _CHAPTER.match(t):
        return 1
    words = t.split()
    letters = [ch for ch in t if ch.isalpha()]
    cased = [ch for ch in letters if ch.isupper() or ch.islower()]  # Chinese letters have no case
    if (t.isupper() and 1 <= len(words) <= 10 and letters and len(cased) >= 0.8 * len(letters)
            and t[-1] not in _END_PUNCT):
        return 1
    if (len(words) <= 8 and t[-1] not in _END_PUNCT and t[0].isupper()
            and sum(w[0].isupper() for w in words if w[0].isalpha()) >= max(1, len(words) // 2)):
        return 2
    return None


def _numbered_title(line: str) -> int | None:
    """The heading level of a numbered title line ("7. Answer Synthesis", "2.1 Iterative retrieval")."""
    t = line.strip()
    m = _NUMBERED.match(t)
    if not m or len(t) > 90 or len(t.split()) > 12 or t[-1] in _END_PUNCT:
        return None
    return min(6, m.group(1).count(".") + 1)


def _split_numbered_titles(text: str, blocks: list[Block], base: int) -> list[Block]:
    """A paragraph whose first line is a multi-level numbered title ("2.1 Iterative retrieval") and whose
    other lines are its text: a heading and a paragraph."""
    out: list[Block] = []
    for b in blocks:
        raw = text[b.start - base : b.end - base]
        first, _, rest = raw.partition("\n")
        if (b.kind == "paragraph" and rest.strip() and re.match(r"^\s*\d+\.\d+", first)
                and _numbered_title(first) is not None):
            level = _numbered_title(first) or 1
            cut = b.start + len(first) + 1
            out.append(b.model_copy(update={"kind": "heading", "level": level, "text": first.strip(),
                                            "end": b.start + len(first.rstrip())}))
            lead = len(rest) - len(rest.lstrip())
            out.append(b.model_copy(update={"text": " ".join(ln.strip() for ln in rest.split("\n")).strip(),
                                            "start": cut + lead}))
            continue
        out.append(b)
    return out


def _blocks(text: str, page: int | None, base: int) -> list[Block]:
    """Markdown-ish blocks of the prose between the code regions; the regions as `code` blocks."""
    out: list[Block] = []
    at = 0
    for start, end in code_regions(text):
        out.extend(parse_markdown(text[at:start], page=page, base=base + at))
        out.append(Block(kind="code", text=text[start:end], start=base + start, end=base + end, page=page))
        at = end
    out.extend(parse_markdown(text[at:], page=page, base=base + at))
    return out


def tsv_table(raw: str) -> str | None:
    """A pipe table of tab-separated lines (the first the header), or None when ``raw`` is not one: fewer
    than two lines, or lines whose cell counts differ or are under two."""
    lines = [ln.strip(" \r") for ln in raw.strip("\n").split("\n")]
    if len(lines) < 2 or any("\t" not in ln for ln in lines):
        return None
    rows = [[table_cell(c) for c in re.split(r"\t+", ln.strip("\t"))] for ln in lines]
    width = len(rows[0])
    if width < 2 or any(len(r) != width or not any(r) for r in rows):
        return None
    return pipe_table(rows)


_GAP = re.compile(r"(?<=\S) {2,}(?=\S)")


def aligned_rows(raw: str) -> tuple[tuple[int, int] | None, list[tuple[int, int, str]]] | None:
    """A paragraph of rows in columns set by runs of spaces, as a notice board's timetable is typed ("09:30-11:30
    Masters (daytime) rowing      Coach: Richard Tate"), with an optional caption line above them ("WEDNESDAY"):
    (the caption's span, [(start, end, the row's cells joined by " · ")]), offsets into ``raw``; None when not
    such rows: under two, a row without a gap, a gap after a stop (prose spaced twice after its full stops), a cell
    after the first opening with a lower-case letter (justified prose), or rows whose second column does not start
    at one place."""
    lines, at = [], 0
    for ln in raw.split("\n"):
        if ln.strip():
            lead = len(ln) - len(ln.lstrip())
            lines.append((at + lead, at + len(ln.rstrip()), ln))
        at += len(ln) + 1
    caption = None
    if lines and not _GAP.search(lines[0][2].strip()) and len(lines[0][2].split()) <= 6:
        caption, lines = (lines[0][0], lines[0][1]), lines[1:]
    if len(lines) < 2 or any(len(ln) > 160 for _, _, ln in lines):
        return None
    seconds, rows = [], []
    for start, end, ln in lines:
        gaps = list(_GAP.finditer(ln))
        cells = [c.strip() for c in _GAP.split(ln.strip())]
        if not gaps or any(ln[:g.start()].rstrip("\"'”’)]*_").endswith(tuple(".!?;,")) for g in gaps) or \
                any(c[:1].islower() for c in cells[1:]):
            return None  # prose: a gap after a stop, or a "cell" going on with a lower-case word ("Members  of the")
        seconds.append(gaps[0].end())
        rows.append((start, end, " · ".join(cells)))
    if sum(abs(c - seconds[0]) <= 1 for c in seconds) < max(2, len(seconds) * 2 // 3):
        return None
    return caption, rows


def _aligned_blocks(b: Block, raw: str, base: int) -> list[Block] | None:
    """A paragraph of aligned rows (:func:`aligned_rows`) as its caption's heading and one list item per row."""
    got = aligned_rows(raw)
    if got is None:
        return None
    caption, rows = got
    out = [] if caption is None else [Block(kind="heading", level=3, text=raw[caption[0]:caption[1]], page=b.page,
                                            start=b.start + caption[0], end=b.start + caption[1])]
    return out + [Block(kind="list_item", text=t, start=b.start + s, end=b.start + e, page=b.page) for s, e, t in rows]


def parse_text(text: str, page: int | None = None, base: int = 0) -> list[Block]:
    blocks = _split_numbered_titles(text, _blocks(text, page, base), base)
    out: list[Block] = []
    for i, b in enumerate(blocks):
        if b.kind == "paragraph" and "\t" in text[b.start - base : b.end - base]:
            table = tsv_table(text[b.start - base : b.end - base])
            if table is not None:
                out.append(b.model_copy(update={"kind": "table", "text": table}))
                continue
        if b.kind == "paragraph" and "  " in text[b.start - base : b.end - base].strip() and \
                (aligned := _aligned_blocks(b, text[b.start - base : b.end - base], base)) is not None:
            out.extend(aligned)
            continue
        prev = blocks[i - 1] if i else None
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        if b.kind == "list_item" and b.ordered and b.level == 0:
            raw = text[b.start - base : b.end - base]
            level = None if "\n" in raw.strip() else _numbered_title(raw)
            if (level is not None and nxt is not None and nxt.kind == "paragraph"
                    and not (prev is not None and prev.kind == "list_item" and prev.ordered)):
                out.append(b.model_copy(update={"kind": "heading", "level": level, "text": raw.strip()}))
                continue
        if b.kind == "paragraph":
            level = _heading_level(text[b.start - base : b.end - base])
            followed = i + 1 < len(blocks) and blocks[i + 1].kind != "heading"
            if level is not None and followed:
                out.append(b.model_copy(update={"kind": "heading", "level": level}))
                continue
        out.append(b)
    return out
