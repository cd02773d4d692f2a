"""HTML to blocks with the standard library's parser: headings, paragraphs, lists (ordered items
become steps), tables kept whole with their header row, <dl> definitions, <pre> code with its lines. Scripts and styles are
dropped; text is data, never markup to execute.

A table is data when it has two or more columns and holds no headings, lists, code or other tables;
otherwise it is page layout (old documentation sites put whole pages in nested tables) and its cells
are read as the blocks they hold."""

from __future__ import annotations

import html as html_lib
from html.parser import HTMLParser

from kmrag.ingestion.parse.blocks import Block, pipe_table, table_cell

_SKIP = {"script", "style", "noscript", "template", "head", "svg", "iframe", "object"}
_BLOCKISH = {"p", "div", "section", "article", "main", "header", "footer", "blockquote", "figure", "figcaption",
             "aside", "nav", "form", "br", "hr", "body", "html"}


_LAYOUT = {"h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "dl", "table"}


class _Table:
    def __init__(self, blocks: int, pos: int) -> None:
        self.rows: list[list[str]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.blocks, self.pos = blocks, pos  # where its blocks start, if it turns out to be data
        self.layout = False


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self.buf: list[str] = []
        self.skip = 0
        self.lists: list[bool] = []  # stack: ordered?
        self.in_li = 0
        self.heading: int | None = None
        self.tables: list[_Table] = []  # the open tables, innermost last
        self.dt: str | None = None
        self.mode: str | None = None  # dt | dd
        self.pos = 0
        self.pre = 0  # inside <pre>: code, its lines and spacing kept

    def _emit(self, kind: str, text: str, **kw: object) -> None:
        text = " ".join(text.split())
        if not text:
            return
        start = self.pos
        self.pos += len(text) + 2
        self.blocks.append(Block(kind=kind, text=text, start=start, end=start + len(text), **kw))  # type: ignore[arg-type]

    def _flush(self) -> None:
        text = "".join(self.buf)
        self.buf = []
        if self.pre and self.heading is None and self.mode is None:
            code = "\n".join(ln.rstrip() for ln in text.expandtabs(4).split("\n")).strip("\n")
            if code.strip():
                start = self.pos
                self.pos += len(code) + 2
                self.blocks.append(Block(kind="code", text=code, start=start, end=start + len(code)))
            return
        if self.mode == "dt":
            self.dt = " ".join(text.split())
            return
        if self.mode == "dd":
            if not text.strip():
                return
            if self.dt:
                self._emit("definition", f"{self.dt}: {' '.join(text.split())}", term=self.dt)
            else:
                self._emit("paragraph", text)
            return
        if self.heading is not None:
            self._emit("heading", text, level=self.heading)
        elif self.in_li:
            self._emit("list_item", text, ordered=bool(self.lists and self.lists[-1]), level=len(self.lists) - 1)
        else:
            self._emit("paragraph", text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += 1
            return
        if self.skip:
            return
        if self.tables and tag in _LAYOUT:
            self.tables[-1].layout = True
        if tag in ("tr", "td", "th") and self.tables:
            self._flush()
            t = self.tables[-1]
            if tag == "tr":
                t.row = []
            else:
                t.cell = []
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._flush()
            self.heading = int(tag[1])
        elif tag in ("ul", "ol"):
            self._flush()
            self.lists.append(tag == "ol")
        elif tag == "li":
            self._flush()
            self.in_li += 1
        elif tag == "table":
            self._flush()
            self.tables.append(_Table(len(self.blocks), self.pos))
        elif tag in ("dt", "dd"):
            self._flush()
            self.mode = tag
        elif tag == "pre":
            self._flush()
            self.pre += 1
        elif tag == "br" and (self.mode == "dd" or self.in_li):
            self.buf.append(" ")  # a line break inside a definition or an item: still the same one
        elif tag in _BLOCKISH and not self.pre:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if self.skip:
            return
        if self.tables and tag in ("td", "th", "tr", "table"):
            self._flush()
            self._end_table_part(tag)
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self._flush()
            self.heading = None
        elif tag == "li":
            self._flush()
            self.in_li = max(0, self.in_li - 1)
        elif tag in ("ul", "ol"):
            self._flush()
            if self.lists:
                self.lists.pop()
        elif tag in ("dt", "dd"):
            self._flush()
            self.mode = None
        elif tag == "dl":
            self._flush()
            self.dt = None
        elif tag == "pre":
            self._flush()
            self.pre = max(0, self.pre - 1)
        elif tag in _BLOCKISH and tag != "br" and not self.pre:  # <br/> did its work as a start tag
            self._flush()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.tables and self.tables[-1].cell is not None:
            self.tables[-1].cell.append(data)
        self.buf.append(data)

    def _end_table_part(self, tag: str) -> None:
        t = self.tables[-1]
        if tag in ("td", "th") and t.cell is not None:
            if t.row is None:
                t.row = []
            t.row.append(table_cell("".join(t.cell)))
            t.cell = None
        elif tag == "tr" and t.row is not None:
            if any(t.row):
                t.rows.append(t.row)
            t.row = None
        elif tag == "table":
            self.tables.pop()
            if self.tables:
                self.tables[-1].layout = True
            rows = t.rows
            if t.layout or not rows or max(len(r) for r in rows) < 2:
                return  # layout: the blocks its cells held stay
            del self.blocks[t.blocks:]
            self.pos = t.pos
            body = pipe_table(rows)
            start = self.pos
            self.pos += len(body) + 2
            self.blocks.append(Block(kind="table", text=body, start=start, end=start + len(body)))


def parse_html(text: str) -> tuple[list[Block], str]:
    """Blocks and the visible text their char spans refer to."""
    p = _Parser()
    p.feed(text)
    p.close()
    p._flush()
    visible = "\n\n".join(b.text for b in p.blocks)
    return p.blocks, html_lib.unescape(visible)
