"""reStructuredText to blocks with docutils: section titles (levels as docutils resolves them from
the underline/overline styles), paragraphs, lists (enumerated items become steps), tables (simple,
grid, list and CSV tables, kept whole with their header row), definition/field/option lists as
definitions, literal blocks (``::``, ``code-block``, ``code``, doctests) as `code` blocks.

Directives are never units themselves: admonitions (``note``, ``warning``...) and containers keep
their body; Sphinx and other directives docutils does not know (``tab``, ``versionadded``...) keep
their body when it reads as prose, code-like ones (``code-tab``, ``testcode``...) become code,
``toctree``/``include``/``image``/``raw``/``auto*`` and the like give nothing. Comments, targets and
substitution definitions give nothing; Sphinx roles (``:ref:`text <target>```, ``:class:`~a.B```)
read as their text. A field list at the top of the document (``:orphan:``, ``:author:``) is the
source's metadata. docutils is configured never to read another file, a config file or the network,
never to write to stderr and never to stop on an error; when it fails anyway the caller falls back
to the plain-text parser."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from kmrag.ingestion.parse.blocks import Block, BlockKind, pipe_table

SETTINGS: dict[str, Any] = {
    "_disable_config": True,  # no docutils.conf from the working folder or the home folder
    "file_insertion_enabled": False,  # include, csv-table :file:/:url:, raw :file:
    "raw_enabled": False,
    "report_level": 5,  # nothing is reported ...
    "halt_level": 5,  # ... and nothing stops the parse
    "warning_stream": False,
    "traceback": True,  # an internal failure raises (to the caller's fallback), never sys.exit
    "doctitle_xform": False,  # the title stays a level-1 section (its heading is a unit, as in Markdown)
    "docinfo_xform": False,  # the top field list is read here
    "sectsubtitle_xform": False,
    "syntax_highlight": "none",  # no Pygments: code is kept as written
    "input_encoding": "unicode",
    "smart_quotes": False,
    "pep_references": False,
    "rfc_references": False,
}

# directives docutils does not know whose body is not text to keep
_DROP_DIRECTIVES = {
    "toctree", "include", "literalinclude", "image", "figure", "raw", "highlight", "currentmodule", "module",
    "index", "sectionauthor", "moduleauthor", "codeauthor", "graphviz", "graph", "digraph", "inheritance-diagram",
    "mermaid", "plot", "autosummary", "program", "default-role", "default-domain", "tabularcolumns", "meta",
    "only-html", "youtube", "video", "raw-html", "cssclass", "rst-class", "contents", "sectnum", "footer",
    "header", "role", "title", "automodule", "autoclass", "autofunction", "automethod", "autoattribute",
}
# directives docutils does not know whose body is code
_CODE_DIRECTIVES = {
    "code-block", "sourcecode", "code-tab", "doctest", "testcode", "testoutput", "testsetup", "testcleanup",
    "ipython", "jupyter-execute", "prompt", "console", "highlight-code", "literal",
}
_ROLE = re.compile(r"^:(?P<name>[\w:+.-]+):`(?P<body>.*)`$|^`(?P<body2>.*)`:(?P<name2>[\w:+.-]+):$", re.S)
_LABELLED = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
_PUNCT_LINE = re.compile(r"^\s*([=\-~`:'\"^_*+#<>.])\1+\s*$")
_WORD = re.compile(r"\w+")
_MAX_DEPTH = 20  # nested directive bodies parsed again, at most this deep
_SPAN_WINDOW = 4000  # a block's first words are looked for this far past the one before
_NEXT_WORD_WINDOW = 400  # its next words this far past the last one found (markup, table padding)


def role_text(raw: str) -> str:
    """The text an interpreted-text role shows: ``:ref:`the guide <guide>``` -> "the guide",
    ``:class:`~a.b.X``` -> "X", ``:doc:`install``` -> "install"."""
    m = _ROLE.match(raw.strip())
    if not m:
        return raw
    body = (m.group("body") if m.group("body") is not None else m.group("body2")) or ""
    lab = _LABELLED.match(body)
    if lab and lab.group("text"):
        return lab.group("text")
    body = lab.group("target") if lab else body
    body = body.lstrip("!")
    if body.startswith("~"):
        body = body[1:].rsplit(".", 1)[-1]
    return body


def _inline(node: Any) -> str:
    """The visible text of inline markup: roles as their text, footnote references, images,
    targets and system messages dropped."""
    from docutils import nodes

    if isinstance(node, nodes.Text):
        return node.astext()  # not str(node): docutils keeps a backslash escape as a NUL character
    if isinstance(node, nodes.problematic):
        return role_text(node.astext())
    if isinstance(node, nodes.line_block):
        return " ".join(_inline(c) for c in node.children)
    if isinstance(node, nodes.option_group):
        return ", ".join(" ".join(_inline(c) for c in opt.children) for opt in node.children)
    if isinstance(node, (nodes.footnote_reference, nodes.citation_reference, nodes.image, nodes.target,
                         nodes.system_message, nodes.substitution_definition, nodes.comment, nodes.raw)):
        return ""
    return "".join(_inline(c) for c in node.children)


def _clean(text: str) -> str:
    """A paragraph's text on one line; lines of underline punctuation (a malformed title) dropped."""
    lines = [ln for ln in text.split("\n") if not _PUNCT_LINE.match(ln)]
    return " ".join(" ".join(lines).split())


def _prose(blocks: list[tuple[str, str, dict[str, Any]]]) -> bool:
    """A directive body docutils does not know reads as prose: some paragraph or item is a few words
    of mostly letters (not a list of names like a toctree's)."""
    for kind, text, _ in blocks:
        if kind in ("paragraph", "list_item", "definition"):
            words = text.split()
            letters = sum(c.isalpha() for c in text)
            if (len(words) >= 4 and letters >= 0.6 * len(text.replace(" ", ""))
                    and any(c in text for c in ".!?:;,")) or len(words) >= 8:
                return True
    return False


class _Walker:
    def __init__(self, depth: int = 0) -> None:
        self.out: list[tuple[str, str, dict[str, Any]]] = []  # (kind, text, extra fields)
        self.depth = depth

    def emit(self, kind: BlockKind, text: str, **kw: Any) -> None:
        if kind == "code":
            if text.strip():
                self.out.append((kind, text.strip("\n"), kw))
            return
        text = _clean(text)
        if text:
            self.out.append((kind, text, kw))

    def body(self, node: Any, level: int) -> None:
        for child in node.children:
            self.node(child, level)

    def _paras(self, node: Any) -> str:
        """The text of a node's direct paragraphs (a list item, a definition), others walked after."""
        from docutils import nodes

        return " ".join(_inline(c) for c in node.children if isinstance(c, (nodes.paragraph, nodes.line_block)))

    def _rest(self, node: Any, level: int, list_depth: int = 0) -> None:
        from docutils import nodes

        for c in node.children:
            if isinstance(c, (nodes.paragraph, nodes.line_block)):
                continue
            if isinstance(c, (nodes.bullet_list, nodes.enumerated_list)):
                self.items(c, level, list_depth + 1)
            else:
                self.node(c, level)

    def items(self, node: Any, level: int, list_depth: int) -> None:
        from docutils import nodes

        ordered = isinstance(node, nodes.enumerated_list)
        for item in node.children:
            if not isinstance(item, nodes.list_item):
                continue
            self.emit("list_item", self._paras(item), ordered=ordered, level=list_depth)
            self._rest(item, level, list_depth)

    def table(self, node: Any) -> None:
        from docutils import nodes

        rows: list[list[str]] = []
        for row in node.findall(nodes.row):
            cells = [_clean(" ".join(_inline(p) for p in e.children if isinstance(p, nodes.paragraph))
                            or _inline(e)).replace("|", "/") for e in row.children if isinstance(e, nodes.entry)]
            if any(cells):
                rows.append(cells)
        if not rows:
            return
        self.out.append(("table", pipe_table(rows), {}))

    def definitions(self, node: Any, level: int) -> None:
        """definition, field and option lists: one definition block per entry."""
        from docutils import nodes

        for entry in node.children:
            if isinstance(entry, nodes.definition_list_item):
                terms = [c for c in entry.children if isinstance(c, nodes.term)]
                body = next((c for c in entry.children if isinstance(c, nodes.definition)), None)
            elif isinstance(entry, nodes.field):
                terms = [c for c in entry.children if isinstance(c, nodes.field_name)]
                body = next((c for c in entry.children if isinstance(c, nodes.field_body)), None)
            elif isinstance(entry, nodes.option_list_item):
                terms = [c for c in entry.children if isinstance(c, nodes.option_group)]
                body = next((c for c in entry.children if isinstance(c, nodes.description)), None)
            else:
                continue
            term = _clean(" ".join(_inline(t) for t in terms))
            text = _clean(self._paras(body)) if body is not None else ""
            if term and text:
                self.emit("definition", f"{term}: {text}", term=term)
            elif text:
                self.emit("paragraph", text)
            if body is not None:
                self._rest(body, level)

    def directive(self, raw: str, level: int) -> None:
        """A directive docutils does not know (Sphinx's tab, versionadded, code-tab...): its raw text."""
        lines = raw.split("\n")
        m = re.match(r"^\.\.\s+([\w:+.-]+)::\s*(.*)$", lines[0].strip())
        if not m:
            return
        name = m.group(1).lower()
        rest = lines[1:]
        while rest and re.match(r"^\s+:[\w -]+:", rest[0]):  # the directive's options
            rest = rest[1:]
        body = textwrap.dedent("\n".join(rest)).strip("\n")
        if name.startswith("auto") or name in _DROP_DIRECTIVES or not body.strip():
            return
        if name in _CODE_DIRECTIVES or name.endswith((":code-block", "-code")):
            self.emit("code", body)
            return
        if self.depth >= _MAX_DEPTH:
            return
        inner = _Walker(self.depth + 1)
        inner.body(_doctree(body), level)
        if _prose(inner.out) or any(k == "code" for k, _, _ in inner.out):
            self.out.extend(inner.out)

    def node(self, node: Any, level: int) -> None:
        from docutils import nodes

        if isinstance(node, nodes.section):
            title = next((c for c in node.children if isinstance(c, nodes.title)), None)
            if title is not None:
                self.emit("heading", _inline(title), level=level + 1)
            for c in node.children:
                if c is not title:
                    self.node(c, level + 1)
        elif isinstance(node, (nodes.paragraph, nodes.line_block)):
            self.emit("paragraph", _inline(node))
        elif isinstance(node, (nodes.literal_block, nodes.doctest_block, nodes.math_block)):
            self.emit("code", node.astext())
        elif isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            self.items(node, level, 0)
        elif isinstance(node, nodes.table):
            self.table(node)
        elif isinstance(node, (nodes.definition_list, nodes.field_list, nodes.option_list)):
            self.definitions(node, level)
        elif isinstance(node, nodes.system_message):
            if node.get("type") == "ERROR" and node.children and node.children[0].astext().startswith(
                    "Unknown directive type"):
                raw = next((c.astext() for c in node.children if isinstance(c, nodes.literal_block)), "")
                self.directive(raw, level)
        elif isinstance(node, (nodes.comment, nodes.target, nodes.substitution_definition, nodes.raw,
                               nodes.image, nodes.pending, nodes.transition, nodes.title, nodes.subtitle,
                               nodes.rubric, nodes.attribution, nodes.docinfo, nodes.meta, nodes.label,
                               nodes.problematic, nodes.field_name)):
            return  # not text (an admonition's or topic's title is not a unit either)
        elif isinstance(node, nodes.Element):
            self.body(node, level)  # admonitions, block quotes, containers, topics, figures, footnotes


def _doctree(text: str) -> Any:
    from docutils.core import publish_doctree

    return publish_doctree(text, settings_overrides=dict(SETTINGS))


def _top_fields(tree: Any) -> dict[str, object]:
    """The field list at the top of the document (before any text, after comments and targets), as
    metadata; removed from the tree. A field without a value (``:orphan:``) is True."""
    from docutils import nodes

    for child in list(tree.children):
        if isinstance(child, (nodes.comment, nodes.target, nodes.substitution_definition, nodes.system_message)):
            continue
        if isinstance(child, nodes.field_list):
            fields: dict[str, object] = {}
            for f in child.children:
                name = _clean(_inline(f.children[0])) if f.children else ""
                value = _clean(" ".join(_inline(c) for c in f.children[1:])) if len(f.children) > 1 else ""
                if name:
                    fields[name] = value or True
            child.parent.remove(child)
            return fields
        break
    return {}


def _find(source: str, words: list[str], pos: int, window: int = _SPAN_WINDOW) -> tuple[int, int] | None:
    """The span of the words (whole words, in order, only punctuation and spaces between them) at or
    after pos, within a window."""
    pattern = r"\W+".join(re.escape(w) for w in words)
    m = re.compile(rf"(?<!\w){pattern}(?!\w)").search(source, pos, pos + window)
    return (m.start(), m.end()) if m else None


def _locate(source: str, texts: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """Char spans in the source of (kind, text) in reading order: from the block's first words (a code
    block: its first line as written) to its last word."""
    out: list[tuple[int, int]] = []
    cursor = 0
    for kind, text in texts:
        words = _WORD.findall(text)
        start = end = cursor
        first: tuple[int, int] | None = None
        matched = 0  # words the first match covers
        if kind == "code" and text.strip():
            line = text.strip().split("\n", 1)[0].strip()
            at = source.find(line, cursor, cursor + _SPAN_WINDOW)
            first, matched = ((at, at + len(line)), len(_WORD.findall(line))) if at >= 0 else (None, 0)
        if first is None and words:
            first, matched = _find(source, words[:3], cursor), min(3, len(words))
            if first is None:
                first, matched = _find(source, words[:1], cursor), 1
        if first is not None:
            start, end = first
            pos = end
            for w in words[matched:]:
                found = _find(source, [w], pos, _NEXT_WORD_WINDOW)
                if found is not None:
                    pos = end = found[1]
            cursor = max(cursor, start + 1)
        out.append((start, max(end, start)))
    return out


MAX_NESTING = 100  # deeper indentation is not handed to docutils (see nesting_depth)


class TooDeeplyNested(ValueError):
    """The text is indented more levels deep than docutils can parse in bounded memory."""


def nesting_depth(text: str) -> int:
    """How many levels of indentation the text nests (each deeper indent of a non-blank line opens one).
    docutils parses each nested block again from a copy of its lines: its memory grows with the square of
    the depth (3,000 levels of block quotes took 2.8 GB), so deeper text is read as plain text instead."""
    stack = [0]
    deepest = 1
    for line in text.splitlines():
        body = line.lstrip(" \t")
        if not body:
            continue
        width = len(line[: len(line) - len(body)].expandtabs(8))
        while len(stack) > 1 and stack[-1] > width:
            stack.pop()
        if width > stack[-1]:
            stack.append(width)
            deepest = max(deepest, len(stack))
    return deepest


def parse_rst(text: str, page: int | None = None) -> tuple[list[Block], dict[str, object], str]:
    """Blocks of reStructuredText, the fields of its top field list, and its title (the first
    section's, when the document starts with it; else ""). Raises whatever docutils raises, and
    TooDeeplyNested (before docutils sees it) for text nested more than MAX_NESTING levels."""
    if (depth := nesting_depth(text)) > MAX_NESTING:
        raise TooDeeplyNested(f"indentation nested {depth} levels deep (more than {MAX_NESTING})")
    tree = _doctree(text)
    fields = _top_fields(tree)
    w = _Walker()
    w.body(tree, 0)
    title = w.out[0][1] if w.out and w.out[0][0] == "heading" and w.out[0][2].get("level") == 1 else ""
    if not title and isinstance(fields.get("title"), str):
        title = str(fields["title"])
    # the top field list is still in the text: its words go first, so no block's span lands in it
    head = [("fields", " ".join(f"{k} {v}" for k, v in fields.items()))] if fields else []
    spans = _locate(text, head + [(k, t) for k, t, _ in w.out])[len(head):]
    blocks = [Block(kind=kind, text=t, start=a, end=b, page=page, **kw)  # type: ignore[arg-type]
              for (kind, t, kw), (a, b) in zip(w.out, spans, strict=True)]
    return blocks, fields, title
