"""Plain text to blocks: blank-line paragraphs, headings by shape (numbered, chapter, short title
lines), list items; text without any line structure is left to sentence packing downstream."""

from __future__ import annotations

import re

from kmrag.ingestion.parse.blocks import Block
from kmrag.ingestion.parse.markdown import parse_markdown

_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s+[A-Z][^.!?]{0,80}$")
_CHAPTER = re.compile(r"^(chapter|part|book|section|appendix)\s+([0-9IVXLC]+|[A-Z][a-z]+)\b.{0,80}$", re.I)


def _heading_level(text: str) -> int | None:
    t = text.strip()
    if "\n" in t or len(t) > 90 or not t:
        return None
    m = _NUMBERED.match(t)
    if m:
        return min(6, m.group(1).count(".") + 1)
    if _CHAPTER.match(t):
        return 1
    words = t.split()
    if t.isupper() and 1 <= len(words) <= 10 and any(c.isalpha() for c in t):
        return 1
    if (len(words) <= 8 and t[-1] not in ".!?:;,\"'" and t[0].isupper()
            and sum(w[0].isupper() for w in words if w[0].isalpha()) >= max(1, len(words) // 2)):
        return 2
    return None


def parse_text(text: str, page: int | None = None, base: int = 0) -> list[Block]:
    blocks = parse_markdown(text, page=page, base=base)
    out: list[Block] = []
    for i, b in enumerate(blocks):
        if b.kind == "paragraph":
            level = _heading_level(text[b.start - base : b.end - base])
            followed = i + 1 < len(blocks) and blocks[i + 1].kind != "heading"
            if level is not None and followed:
                out.append(b.model_copy(update={"kind": "heading", "level": level}))
                continue
        out.append(b)
    return out
