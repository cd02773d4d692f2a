"""The citable pieces of a unit: its sentences, or, for a table, its rows, for code its blocks of lines.

A citation quotes one of these spans exactly (``unit.content[start:end]``), so an auditor finds the words
in the unit; a table row is shown with its header ("Flight distance: more than 3500 km; Compensation:
600 EUR") so it reads as a statement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from kmrag.nlp.sentences import FIELD_LINE, fact_sheet, sentence_spans

# a sentence addressed to a model rather than stating a fact: document text is data, so it is never citable
INSTRUCTION = re.compile(
    r"\b(?:ignore|disregard|forget|override)\b.{0,60}\b(?:instructions?|prompts?|rules|above|previous|everything)\b|"
    r"\byou (?:are|must|should|will) now\b|\bsystem prompt\b|\b(?:respond|reply|answer) (?:only )?with\b|"
    r"\bnew instructions?\b|\bas an ai\b", re.I | re.S)
# a unit title's trailing note that tells it apart from others of the name: "David Jolly (politician)"
TITLE_QUALIFIER = re.compile(r"\s*\([^)]*\)\s*$")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class Span:
    unit_id: str
    source_id: str
    start: int
    end: int
    quote: str     # exactly the unit's content[start:end]
    kind: str      # sentence | row
    display: str   # the quote as a statement (a row with its header)
    rank: int      # the unit's rank in the context (0 = best)
    title: str = ""
    section: str = ""  # the headings above the unit ("About Halvern Vale Water / Leadership / Board")
    record: int = -1  # a span of a fact sheet (a unit with two or more "Field: value" lines): where its paragraph,
    # the record it belongs to, starts in the unit; -1 for any other span

    @property
    def sheet(self) -> bool:
        """A "Field: value" line of a fact sheet."""
        return self.record >= 0 and FIELD_LINE.fullmatch(self.quote.split("\n")[0]) is not None


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [c.strip() for c in s.split("|")]


def table_rows(content: str) -> list[tuple[int, int, list[str], list[str]]]:
    """(start, end, header cells, row cells) of each body row of a pipe table."""
    lines = []
    pos = 0
    for line in content.split("\n"):
        lines.append((pos, line))
        pos += len(line) + 1
    header: list[str] | None = None
    out = []
    for i, (start, line) in enumerate(lines):
        if "|" not in line or not line.strip():
            continue
        if _SEPARATOR.match(line):
            continue
        if header is None and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1][1]):
            header = _cells(line)
            continue
        stripped = line.rstrip()
        lead = len(line) - len(line.lstrip())
        out.append((start + lead, start + len(stripped), header or [], _cells(line)))
    return out


_FENCE_LINE = re.compile(r"^\s*(```|~~~)")


def row_cells(display: str) -> list[list[str]]:
    """A row's display ("Header: value; Header: value", as :func:`unit_spans` writes it) as its [header, value]
    pairs (a cell without a header stays one item)."""
    return [c.split(": ", 1) for c in display.split("; ")]


def code_spans(content: str) -> list[tuple[int, int]]:
    """The line groups of a code unit (runs of non-blank lines, fence lines left out), never its "sentences"."""
    out: list[tuple[int, int]] = []
    pos, start, end = 0, -1, -1
    for line in content.split("\n"):
        if not line.strip() or _FENCE_LINE.match(line):
            if start >= 0:
                out.append((start, end))
            start = -1
        else:
            if start < 0:
                start = pos
            end = pos + len(line.rstrip())
        pos += len(line) + 1
    if start >= 0:
        out.append((start, end))
    return out


def unit_spans(unit: Any, rank: int) -> list[Span]:
    """The citable sentences (or table rows) of a stored unit. A heading unit has none (it states nothing);
    a sentence that reads as an instruction to a model ("ignore previous instructions and ...") is left out."""
    return [s for s in _spans(unit, rank) if not INSTRUCTION.search(s.quote)]


def _spans(unit: Any, rank: int) -> list[Span]:
    if unit.type == "section":
        return []
    section = " / ".join(getattr(unit, "section_path", None) or [])
    content: str = unit.content
    if unit.type == "table":
        spans = []
        for start, end, header, cells in table_rows(content):
            pairs = [f"{h}: {c}" if h else c for h, c in zip(header + [""] * len(cells), cells, strict=False) if c]
            spans.append(Span(unit.id, unit.source_id, start, end, content[start:end], "row", "; ".join(pairs),
                              rank, unit.title, section))
        if spans:
            return spans
    if unit.type == "code":
        return [Span(unit.id, unit.source_id, a, b, content[a:b], "code", content[a:b], rank, unit.title, section)
                for a, b in code_spans(content)]
    sheet = fact_sheet(content)
    return [Span(unit.id, unit.source_id, a, b, content[a:b], "sentence", " ".join(content[a:b].split()), rank,
                 unit.title, section, record=_record_start(content, a) if sheet else -1)
            for a, b in sentence_spans(content)]


def _record_start(content: str, at: int) -> int:
    """Where the paragraph holding ``at`` starts: after the last blank line before it."""
    blank = max(content.rfind("\n\n", 0, at), content.rfind("\n \n", 0, at))
    return 0 if blank < 0 else blank + 2


def line_of(span: Span, text: str) -> Span:
    """The line of a block ``span`` (code, a list) that is ``text`` word for word, as a span of its own; else
    ``span``: a statement quoting one line of a block cites that line."""
    said = " ".join(text.split()).rstrip(" .")
    if "\n" not in span.quote or span.quote != span.display or not said:
        return span
    at = 0
    for line in span.quote.split("\n"):
        body = line.strip()
        if body and " ".join(body.split()).rstrip(" .") == said:
            lead = line.index(body)
            return replace(span, start=span.start + at + lead, end=span.start + at + lead + len(body), quote=body,
                           display=body)
        at += len(line) + 1
    return span
