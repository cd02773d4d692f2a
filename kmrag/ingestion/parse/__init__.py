"""Structural parsing: a source's text to blocks (headings, paragraphs, lists, tables, definitions)."""

from __future__ import annotations

from kmrag.ingestion.parse.blocks import Block
from kmrag.ingestion.parse.html import parse_html
from kmrag.ingestion.parse.markdown import parse_markdown, strip_markup
from kmrag.ingestion.parse.rst import parse_rst
from kmrag.ingestion.parse.text import parse_text, tsv_table
from kmrag.ingestion.sources import SourceDocument, clean_title


def parse_document(doc: SourceDocument) -> tuple[list[Block], str]:
    """Blocks of a document and the text their char spans index into."""
    if doc.kind == "markdown":
        # comments and front matter blanked (same offsets); front matter is the source's metadata,
        # a `<!-- YAML -->` block the metadata of the section it sits in
        text, front, yaml_blocks = strip_markup(doc.text)
        if front:
            doc.metadata["front_matter"] = front
        md_blocks = parse_markdown(text, indented_code=True)
        for at, fields in yaml_blocks:
            heading = next((b for b in reversed(md_blocks) if b.kind == "heading" and b.start <= at), None)
            if heading is not None:
                heading.meta = {**(heading.meta or {}), **fields}
            else:
                doc.metadata.setdefault("yaml", {}).update(fields)
        return md_blocks, text
    if doc.kind == "rst":
        try:
            rst_blocks, fields, title = parse_rst(doc.text)
        except Exception:  # noqa: BLE001 - docutils failing on malformed rst: the text is still read as text
            doc.metadata["rst_fallback"] = True
            return parse_text(doc.text), doc.text
        if fields:
            doc.metadata["front_matter"] = fields
        if title:
            doc.metadata.setdefault("file_title", doc.title)
            doc.title = clean_title(title)
        return rst_blocks, doc.text
    if doc.kind == "html":
        return parse_html(doc.text)
    if doc.kind == "pdf" and doc.pages is not None:
        blocks: list[Block] = []
        base = 0
        for n, page in enumerate(doc.pages, start=1):
            blocks.extend(parse_text(page, page=n, base=base))
            base += len(page) + 2
        return blocks, "\n\n".join(doc.pages)
    if doc.kind == "csv":  # read into one pipe table already (kmrag.ingestion.delimited)
        return [Block(kind="table", text=doc.text, start=0, end=len(doc.text))], doc.text
    if doc.kind == "record":  # one paragraph, or a table when its lines are tab-separated cells
        table = tsv_table(doc.text) if "\t" in doc.text else None
        if table is not None:
            return [Block(kind="table", text=table, start=0, end=len(doc.text))], doc.text
        return [Block(kind="paragraph", text=" ".join(doc.text.split()), start=0, end=len(doc.text))], doc.text
    return parse_text(doc.text), doc.text


__all__ = ["Block", "parse_document", "parse_html", "parse_markdown", "parse_rst", "parse_text"]
