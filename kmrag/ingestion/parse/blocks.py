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
