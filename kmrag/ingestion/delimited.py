"""Comma- and tab-separated files (``.csv``, ``.tsv``) as one table each: the first line its header, every
other line a row, read with :mod:`csv` (quoted cells, commas and line breaks inside quotes).

A ``.csv`` file's delimiter is sniffed among comma, semicolon, tab and bar (a semicolon is common where the
decimal mark is a comma); a ``.tsv`` file's is the tab. The table is written as the pipe table every other
reader gives its tables (:func:`kmrag.ingestion.parse.html.parse_html`), so rows become units the same way.

A row with more non-empty cells than the header has is reported with its line number and left out; the
other rows are read (a short row is padded with empty cells, a row of empty cells is skipped). Broken quoting
(a quote never closed, text after a closing quote) refuses the file, naming the line: the rows after it cannot be
told apart."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

from kmrag.errors import BadInput

_SNIFFED = ",;\t|"


@dataclass
class DelimitedTable:
    text: str  # the pipe table
    rows: int  # data rows read
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line number, why it was left out)


def _cell(value: str) -> str:
    return " ".join(value.split()).replace("|", "/")


def _delimiter(text: str, tab: bool) -> str:
    if tab:
        return "\t"
    sample = text[:8192]
    try:
        return csv.Sniffer().sniff(sample, delimiters=_SNIFFED).delimiter
    except csv.Error:
        return ","


def read_delimited(text: str, where: str, tab: bool = False) -> DelimitedTable:
    """The table of a delimited file's ``text``; ``where`` names the file in errors. BadInput when it holds no
    table: no header of two columns or more, or no data row."""
    reader = csv.reader(text.splitlines(keepends=True), delimiter=_delimiter(text, tab), strict=True)
    try:
        lines = [(reader.line_num, row) for row in reader]
    except csv.Error as e:  # an unclosed quote at the end, a NUL byte
        raise BadInput(f"{where}: not a readable delimited file at line {reader.line_num}: {e}") from e
    lines = [(n, [_cell(c) for c in row]) for n, row in lines if any(c.strip() for c in row)]
    if not lines:
        raise BadInput(f"{where}: no rows")
    header = lines[0][1]
    while header and not header[-1]:
        header.pop()
    if len(header) < 2:
        raise BadInput(f"{where}: line {lines[0][0]}: the header has {len(header)} column; a table needs two "
                       "or more (is the delimiter a comma, a semicolon or a tab?)")
    header = [h or f"column {i}" for i, h in enumerate(header, start=1)]
    width, problems, body = len(header), [], []
    for n, row in lines[1:]:
        extra = [c for c in row[width:] if c]
        if extra:
            problems.append((n, f"{len(row)} cells, more than the header's {width}; left out (quote cells that "
                                "hold the delimiter)"))
            continue
        body.append((row + [""] * width)[:width])
    if not body:
        raise BadInput(f"{where}: a header and no row to read" + (f" ({len(problems)} left out)" if problems else ""))
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    out += ["| " + " | ".join(r) + " |" for r in body]
    return DelimitedTable(text="\n".join(out), rows=len(body), problems=problems)
