"""Markdown (and plain text with Markdown-ish structure) to blocks, line by line."""

from __future__ import annotations

import re

from kmrag.ingestion.parse.blocks import Block

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^(=+|-+)\s*$")
_LIST = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _offsets(text: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        out.append((pos, line.rstrip("\r\n")))
        pos += len(line)
    return out


def parse_markdown(text: str, page: int | None = None, base: int = 0) -> list[Block]:
    lines = _offsets(text)
    blocks: list[Block] = []
    para: list[tuple[int, str]] = []

    def flush_para() -> None:
        if para:
            start = para[0][0]
            end = para[-1][0] + len(para[-1][1])
            body = " ".join(s.strip() for _, s in para).strip()
            if body:
                blocks.append(Block(kind="paragraph", text=body, start=base + start, end=base + end, page=page))
            para.clear()

    i = 0
    while i < len(lines):
        pos, line = lines[i]
        if not line.strip():
            flush_para()
            i += 1
            continue
        if _FENCE.match(line):
            flush_para()
            j = i + 1
            while j < len(lines) and not _FENCE.match(lines[j][1]):
                j += 1
            body = "\n".join(s for _, s in lines[i : min(j + 1, len(lines))])
            end = lines[min(j, len(lines) - 1)][0] + len(lines[min(j, len(lines) - 1)][1])
            blocks.append(Block(kind="code", text=body, start=base + pos, end=base + end, page=page))
            i = j + 1
            continue
        m = _ATX.match(line)
        if m:
            flush_para()
            blocks.append(Block(kind="heading", text=m.group(2).strip(), level=len(m.group(1)), start=base + pos,
                                end=base + pos + len(line), page=page))
            i += 1
            continue
        if (i + 1 < len(lines) and _SETEXT.match(lines[i + 1][1]) and not para and line.strip()
                and not _LIST.match(line) and "|" not in line):
            level = 1 if lines[i + 1][1].strip().startswith("=") else 2
            blocks.append(Block(kind="heading", text=line.strip(), level=level, start=base + pos,
                                end=base + pos + len(line), page=page))
            i += 2
            continue
        if "|" in line and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1][1]):
            flush_para()
            j = i + 2
            while j < len(lines) and "|" in lines[j][1] and lines[j][1].strip():
                j += 1
            body = "\n".join(s.strip() for _, s in lines[i:j])
            end = lines[j - 1][0] + len(lines[j - 1][1])
            blocks.append(Block(kind="table", text=body, start=base + pos, end=base + end, page=page))
            i = j
            continue
        m = _LIST.match(line)
        if m:
            flush_para()
            depth = len(m.group(1).expandtabs(4)) // 2
            item = [m.group(3).strip()]
            end = pos + len(line)
            j = i + 1
            while j < len(lines) and lines[j][1].strip() and not _LIST.match(lines[j][1]) \
                    and (lines[j][1].startswith((" ", "\t"))):
                item.append(lines[j][1].strip())
                end = lines[j][0] + len(lines[j][1])
                j += 1
            blocks.append(Block(kind="list_item", text=" ".join(item), level=depth,
                                ordered=m.group(2)[0].isdigit(), start=base + pos, end=base + end, page=page))
            i = j
            continue
        para.append((pos, line))
        i += 1
    flush_para()
    return blocks
