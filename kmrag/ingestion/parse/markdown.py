"""Markdown (and plain text with Markdown-ish structure) to blocks, line by line.

HTML comments are blanked before parsing (kept as spaces, so char spans still index the source); a
`<!-- YAML ... -->` comment (Node.js docs' change history) and front matter at the top (`---` YAML
`---`) are metadata: front matter goes to the source, a YAML comment to the section it sits in.
Fenced code (``` and ~~~) and, in Markdown proper, indented code become `code` blocks."""

from __future__ import annotations

import re

from kmrag.ingestion.parse.blocks import Block
from kmrag.nlp.sentences import fact_sheet

_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^(=+|-+)\s*$")
_LIST = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_COMMENT = re.compile(r"<!--(.*?)-->", re.S)
_FRONT = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_KEY = re.compile(r"^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*?))?\s*$")
_INDENTED = re.compile(r"^(?: {4}|\t)")


def _plain(v: object) -> object:
    """A YAML value as JSON-storable data (dates and other scalars as strings)."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v if v is None or isinstance(v, (str, int, float, bool)) else str(v)


def yaml_fields(text: str) -> dict[str, object]:
    """The fields of a small YAML block: parsed with PyYAML when it is installed (safe_load, never
    arbitrary objects), else its top-level `key: value` lines; {} when it is not a mapping."""
    try:
        import yaml  # type: ignore[import-untyped, unused-ignore]

        data = _plain(yaml.safe_load(text))
        return data if isinstance(data, dict) else {}
    except Exception:  # noqa: BLE001 - not installed, or not valid YAML: the simple reading below
        pass
    out: dict[str, object] = {}
    for line in text.splitlines():
        if line[:1].isspace():
            continue
        m = _KEY.match(line)
        if m:
            out[m.group(1)] = (m.group(2) or "").strip().strip("\"'")
    return out


def _blank(text: str, a: int, b: int) -> str:
    """text[a:b] replaced by spaces, line breaks kept (offsets stay valid)."""
    return text[:a] + "".join(c if c in "\r\n" else " " for c in text[a:b]) + text[b:]


def strip_markup(text: str) -> tuple[str, dict[str, object], list[tuple[int, dict[str, object]]]]:
    """The text with front matter and HTML comments blanked (same length), the front matter's fields,
    and (offset, fields) of each `<!-- YAML ... -->` comment. Comments inside fenced code are code."""
    front: dict[str, object] = {}
    m = _FRONT.match(text)
    if m:
        front = yaml_fields(m.group(1))
        if front:  # else a thematic break, not front matter
            text = _blank(text, 0, m.end())
    fenced: list[tuple[int, int]] = []
    pos, opened = 0, -1
    for line in text.splitlines(keepends=True):
        if _FENCE.match(line):
            if opened < 0:
                opened = pos
            else:
                fenced.append((opened, pos + len(line)))
                opened = -1
        pos += len(line)
    if opened >= 0:
        fenced.append((opened, len(text)))
    yaml_blocks: list[tuple[int, dict[str, object]]] = []
    for c in list(_COMMENT.finditer(text)):
        if any(a <= c.start() < b for a, b in fenced):
            continue
        line_start = text.rfind("\n", 0, c.start()) + 1
        if text.count("`", line_start, c.start()) % 2:  # inside inline code: `<!-- -->` is text
            continue
        body = c.group(1)
        if body.lstrip().startswith("YAML") and body.lstrip()[4:5] in ("\n", "\r"):
            fields = yaml_fields(body.lstrip()[4:])
            if fields:
                yaml_blocks.append((c.start(), fields))
        text = _blank(text, c.start(), c.end())
    return text, front, yaml_blocks


def _offsets(text: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        out.append((pos, line.rstrip("\r\n")))
        pos += len(line)
    return out


def parse_markdown(text: str, page: int | None = None, base: int = 0, indented_code: bool = False) -> list[Block]:
    """Blocks of Markdown-ish text; ``indented_code`` (Markdown proper, not plain text): a run of lines
    indented four spaces after a blank line, outside a list, is a code block."""
    lines = _offsets(text)
    blocks: list[Block] = []
    para: list[tuple[int, str]] = []

    def flush_para() -> None:
        if para:
            start = para[0][0]
            end = para[-1][0] + len(para[-1][1])
            lines = [s.strip() for _, s in para]
            # a fact sheet's "Field: value" lines stay lines (each is read as a sentence); prose lines are joined
            body = ("\n" if fact_sheet("\n".join(lines)) else " ").join(lines).strip()
            if body:
                blocks.append(Block(kind="paragraph", text=body, start=base + start, end=base + end, page=page))
            para.clear()

    i = 0
    in_list = False  # since a list item, up to the next unindented line: indented text is the item's
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
        if not line[:1].isspace() and not _LIST.match(line):
            in_list = False
        if indented_code and not para and not in_list and _INDENTED.match(line):
            j, last = i, i
            while j < len(lines) and (_INDENTED.match(lines[j][1]) or not lines[j][1].strip()):
                if lines[j][1].strip():
                    last = j
                j += 1
            body = "\n".join(s[4:] if s.startswith("    ") else s[1:] if s.startswith("\t") else ""
                             for _, s in lines[i : last + 1])
            blocks.append(Block(kind="code", text=body, start=base + pos,
                                end=base + lines[last][0] + len(lines[last][1]), page=page))
            i = last + 1
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
            in_list = True
            blocks.append(Block(kind="list_item", text=" ".join(item), level=depth,
                                ordered=m.group(2)[0].isdigit(), start=base + pos, end=base + end, page=page))
            i = j
            continue
        para.append((pos, line))
        i += 1
    flush_para()
    return blocks
