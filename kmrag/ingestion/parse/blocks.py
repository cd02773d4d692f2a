"""The structural blocks every parser emits, before they become typed units."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

BlockKind = Literal["heading", "paragraph", "list_item", "table", "definition", "code"]


class Block(BaseModel):
    kind: BlockKind
    text: str
    level: int = 0  # heading level (1 = top); list nesting depth
    ordered: bool = False  # list item of a numbered list
    term: str | None = None  # the defined term of a definition block
    start: int = 0  # char span in the source's text
    end: int = 0
    page: int | None = None
    meta: dict[str, object] | None = None  # a heading's section metadata (a Markdown `<!-- YAML -->` block)


def table_cell(text: str) -> str:
    """A table cell's text on one line, its bars made slashes (a bar would cut the cell in two)."""
    return " ".join(text.split()).replace("|", "/")


def pipe_table(rows: list[list[str]]) -> str:
    """Rows as the pipe table every parser gives its tables: the first row the header, short rows padded."""
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * width]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows[1:]])
