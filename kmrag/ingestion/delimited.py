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
from kmrag.ingestion.parse.blocks import pipe_table, table_cell

_SNIFFED = ",;\t|"


@dataclass
class DelimitedTable:
    text: str  # the pipe table
    rows: int  # data rows read
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line number, why it was left out)


def _delimiter(text: str, tab: bool) -> str:
    if tab:
        return "\t"
    sample = text[:8192]
    try:
        return csv.Sniffer().sniff(sample, delimiters=_SNIFFED).delimiter
    except csv.Error:
        return ","


MULTILINE_CELL = 3  # a record running over more lines than this is reported: a quote may be missing


def _records(text: str, where: str, delimiter: str) -> list[tuple[int, int, list[str]]]:
    """(first line, last line, cells) of each record; BadInput naming the line a broken quote opens on."""
    reader = csv.reader(text.splitlines(keepends=True), delimiter=delimiter, strict=True)
    out: list[tuple[int, int, list[str]]] = []
    first = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return out
        except csv.Error as e:  # a quote never closed, text after a closing quote, a NUL byte
            raise BadInput(f"{where}: not a readable delimited file at line {first}: {e}") from e
        out.append((first, reader.line_num, row))
        first = reader.line_num + 1


def read_delimited(text: str, where: str, tab: bool = False) -> DelimitedTable:
    """The table of a delimited file's ``text``; ``where`` names the file in errors. BadInput when it holds no
    table: no header of two columns or more, or no data row."""
    records = [(a, b, [table_cell(c) for c in row]) for a, b, row in _records(text, where, _delimiter(text, tab))
               if any(c.strip() for c in row)]
    if not records:
        raise BadInput(f"{where}: no rows")
    header = records[0][2]
    named = len(header) - next((i for i, h in enumerate(reversed(header)) if h), len(header))
    used = max([named, *(len(r) - next((i for i, c in enumerate(reversed(r)) if c), len(r)) for _, _, r in records[1:])])
    if named < 2:
        raise BadInput(f"{where}: line {records[0][0]}: the header has {named} column; a table needs two or more "
                       "(is the delimiter a comma, a semicolon or a tab?)")
    width = max(named, min(used, len(header)))  # a last column the header leaves unnamed still holds values
    header = [h or f"column {i}" for i, h in enumerate((header + [""] * width)[:width], start=1)]
    problems: list[tuple[int, str]] = []
    body = []
    for first, last, row in records[1:]:
        if [c for c in row[width:] if c]:
            problems.append((first, f"{len(row)} cells, more than the header's {width}; left out (quote cells that "
                                    "hold the delimiter)"))
            continue
        if last - first > MULTILINE_CELL:
            problems.append((first, f"one record runs from line {first} to line {last}; kept as one row (a quote may "
                                    "be missing)"))
        body.append((row + [""] * width)[:width])
    if not body:
        said = "; ".join(f"line {n}: {why}" for n, why in problems)
        raise BadInput(f"{where}: a header and no row to read" + (f" ({said})" if said else ""))
    return DelimitedTable(text=pipe_table([header, *body]), rows=len(body), problems=problems)
