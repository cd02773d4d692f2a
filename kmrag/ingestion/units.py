"""Blocks to typed knowledge units with stable IDs, and the links between them.

Sections come from headings; paragraphs, tables (whole), definitions, steps (numbered items,
"Step N") and rules (normative must/shall sentences) from the blocks under them. Long text is
split on sentence boundaries, never mid-sentence. Links: NEXT in reading order, PARENT_SECTION to
the enclosing section, REFERENCES for explicit "see Section 3.2" cross-references.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from kmrag.ingestion.parse.blocks import Block
from kmrag.ingestion.sources import SourceDocument, clean_title
from kmrag.nlp.language import language_of
from kmrag.nlp.sentences import pack_sentences, split_bounded
from kmrag.schema import KnowledgeUnit, UnitLink, UnitLinkKind, UnitType, normalise_content, unit_id
from kmrag.schema.ids import unit_text

MAX_UNIT_CHARS = 1200  # longer text is packed into sentence groups of about this size
SENTENCE_MAX_CHARS = 2 * MAX_UNIT_CHARS  # a longer "sentence" (no terminator) is cut at whitespace
# bigger tables are split by rows into parts of about equal size, each repeating the header: a question names one
# row ("a ticket for An Evening with Corinne Blake"), and a spreadsheet of 40 rows in one unit is found by neither
# its words (diluted by the other rows) nor its vector (the embedder reads the first 256 word pieces)
TABLE_MAX_CHARS = 2000
UNIT_MAX_CHARS = 8000  # no unit of any kind is longer (bounded NLP time and memory)
CODE_MAX_CHARS = 2000  # a code block is kept whole up to this, longer ones are cut between lines
FRAGMENT_CHARS = 40  # a shorter plain paragraph ("Done.", "Example:") joins its neighbour paragraph

_RULE = re.compile(r"\b(must|shall|is required to|are required to|is prohibited|are prohibited|may not|"
                   r"is mandatory|are mandatory|is not permitted|are not permitted)\b", re.I)
_DEFINITION = re.compile(
    r"^(?P<term>[A-Z\"“'][^.:;]{0,60}?)\s+(?:is defined as|are defined as|means|refers to|is the term for|"
    r"denotes)\b", re.I)
_GLOSSARY = re.compile(r"^(?P<term>[A-Za-z][\w\-/() .'’]{0,50}?)\s*(?::|—| - )\s+(?P<def>\S.{8,})$", re.S)
_STEP = re.compile(r"^(?:step\s+\d+[.:)]?|\d+[.)])\s+", re.I)
_SECTION_NUM = re.compile(r"^(?:(?:section|chapter|part|appendix)\s+)?(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)[.)]?\s+\S",
                          re.I)
_XREF = re.compile(r"\b(?:see|cf\.?|refer to|described in|defined in|as in|per|under)\s+(?:also\s+)?"
                   r"(?:section|sec\.|§|chapter|clause|appendix)\s*(\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)", re.I)


@dataclass
class ParsedUnits:
    units: list[KnowledgeUnit]
    links: list[UnitLink]
    defined_terms: dict[str, str] = field(default_factory=dict)  # unit id -> term it defines


def classify(text: str, block: Block) -> tuple[UnitType, str | None]:
    """The unit type of a block's text, and the defined term for definitions."""
    if block.kind == "table":
        return UnitType.TABLE, None
    if block.kind == "code":
        return UnitType.CODE, None
    if block.kind == "definition":
        return UnitType.DEFINITION, block.term
    if block.kind == "list_item" and block.ordered:
        return UnitType.STEP, None
    if _STEP.match(text):
        return UnitType.STEP, None
    m = _DEFINITION.match(text)
    if m:
        return UnitType.DEFINITION, m.group("term").strip(" \"“”'")
    g = _GLOSSARY.match(text)
    if g and block.kind in ("paragraph", "list_item") and len(g.group("term").split()) <= 5 \
            and not g.group("term").strip().lower().startswith(("note", "warning", "example", "tip", "http")):
        return UnitType.DEFINITION, g.group("term").strip()
    if _RULE.search(text):
        return UnitType.RULE, None
    return UnitType.PARAGRAPH, None


def _split_table(text: str) -> list[str]:
    if len(text) <= TABLE_MAX_CHARS:
        return [text]
    lines = text.split("\n")
    header, rows = lines[:2], lines[2:]
    room = TABLE_MAX_CHARS - sum(len(x) + 1 for x in header)
    if room < TABLE_MAX_CHARS // 4 or not rows:
        return [text]  # a header of most of the bound (a sheet of 80 columns): the table whole, bounded later
    n = -(-len(text) // room)  # the fewest parts that fit, about
    share = sum(len(r) + 1 for r in rows) / max(1, n)  # each part's share of the rows' characters
    parts: list[list[str]] = [[] for _ in range(n)]
    done = 0
    for r in rows:  # a row goes to the part its first character falls in
        parts[min(n - 1, int(done // share))].append(r)
        done += len(r) + 1
    return ["\n".join(header + p) for p in parts if p]


def _fragment(b: Block) -> bool:
    return b.kind == "paragraph" and len(b.text) < FRAGMENT_CHARS and classify(b.text, b)[0] is UnitType.PARAGRAPH


def _joinable(a: Block, b: Block) -> bool:
    return (a.kind == b.kind == "paragraph" and a.page == b.page
            and len(a.text) + len(b.text) + 1 <= MAX_UNIT_CHARS)


def _join(a: Block, b: Block) -> Block:
    gap = "\n\n" if "\n" in a.text or "\n" in b.text else " "  # fact sheets' records stay apart (FIELD_LINE)
    return a.model_copy(update={"text": f"{a.text}{gap}{b.text}", "end": b.end})


def merge_fragments(blocks: Sequence[Block]) -> list[Block]:
    """A tiny plain paragraph (under FRAGMENT_CHARS, not a rule, definition or step) joins the paragraph
    next to it in the same section, so that every unit is a citable thought: the one before it, or, for
    a lead-in ("For example:") or the first paragraph of a section, the one after it (when that one is
    not a definition or step, whose type reads from its start). Headings, lists, tables and code are
    never joined, and nothing joins across them."""
    out: list[Block] = []
    for b in blocks:
        prev = out[-1] if out else None
        if prev is not None and _joinable(prev, b):
            if _fragment(b) and not b.text.rstrip().endswith(":") and not _fragment(prev):
                out[-1] = _join(prev, b)
                continue
            if _fragment(prev) and classify(b.text, b)[0] in (UnitType.PARAGRAPH, UnitType.RULE):
                joined = _join(prev, b)
                if classify(joined.text, joined)[0] is classify(b.text, b)[0]:  # not "For example: ..." a definition
                    out[-1] = joined
                    continue
        if prev is not None and _fragment(prev) and len(out) >= 2 and _joinable(out[-2], prev):
            out[-2:] = [_join(out[-2], prev)]  # a fragment nothing follows: back to the one before
        out.append(b)
    if len(out) >= 2 and _fragment(out[-1]) and _joinable(out[-2], out[-1]):
        out[-2:] = [_join(out[-2], out[-1])]
    return out


def _code_parts(text: str, limit: int) -> list[tuple[int, int]]:
    """Spans of whole lines of at most ``limit`` chars (a longer line is cut at whitespace); a blank line
    is the preferred cut once a part is half full."""
    out: list[tuple[int, int]] = []
    start = pos = 0
    blank_cut = -1
    for line in text.splitlines(keepends=True):
        if pos > start and pos + len(line.rstrip("\n")) - start > limit:
            cut = blank_cut if blank_cut - start >= limit // 2 else pos
            out.append((start, cut))
            start = cut
            blank_cut = -1
        if not line.strip() and pos > start:
            blank_cut = pos
        pos += len(line)
    if pos > start:
        out.append((start, pos))
    parts: list[tuple[int, int]] = []
    for a, b in out:
        b = a + len(text[a:b].rstrip())
        if text[a:b].strip():
            parts.extend((a + x, a + y) for x, y in split_bounded(text[a:b], limit)) if b - a > limit \
                else parts.append((a, b))
    return parts


def _pieces(block: Block, source_text: str) -> list[tuple[str, int, int]]:
    """The block's text cut on sentence boundaries into unit-sized pieces, with char spans."""
    if block.kind == "table":
        return [(t, block.start, block.end) for t in _split_table(block.text)]
    if block.kind == "code":  # whole up to CODE_MAX_CHARS, else cut between lines
        if len(block.text) <= CODE_MAX_CHARS:
            return [(block.text, block.start, block.end)]
        return [(block.text[a:b], block.start + a, block.start + b)
                for a, b in _code_parts(block.text, CODE_MAX_CHARS)]
    if len(block.text) <= MAX_UNIT_CHARS:
        return [(block.text, block.start, block.end)]
    raw = source_text[block.start : block.end]
    if normalise_content(raw) != normalise_content(block.text):
        raw = block.text  # html: spans index the visible text
    out: list[tuple[str, int, int]] = []
    for a, b in pack_sentences(raw, MAX_UNIT_CHARS):
        cuts = [(a, b)] if b - a <= SENTENCE_MAX_CHARS else \
            [(a + x, a + y) for x, y in split_bounded(raw[a:b], MAX_UNIT_CHARS)]
        out.extend((_lines_kept(raw[x:y]), block.start + x, block.start + y) for x, y in cuts)
    return out


def _lines_kept(text: str) -> str:
    """A packed piece with its spaces collapsed but its line breaks kept: a fact sheet's "Field: value" lines stay
    lines, each read as a sentence of its own (the unit's id hashes the text with all whitespace collapsed)."""
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def _title_cased(text: str) -> bool:
    """A title written as one ("Multi-Hop RAG Retry Example"), not a sentence-cased heading ("Why this matters")."""
    words = re.findall(r"[^\W\d_][\w'-]*", text)
    return len(words) >= 2 and all(w[0].isupper() for w in words if len(w) > 3)


def build_units(doc: SourceDocument, blocks: Sequence[Block], source_text: str, tenant: str) -> ParsedUnits:
    units: list[KnowledgeUnit] = []
    parents: list[str | None] = []
    section_stack: list[tuple[int, str, str]] = []  # (level, unit id, title)
    numbers: dict[str, str] = {}  # section number -> unit id
    titles: dict[str, str] = {}
    seen: Counter[str] = Counter()
    defined: dict[str, str] = {}
    doc_title = doc.title.replace("\x00", "")
    # a NUL character is never text (PostgreSQL cannot store one): whatever a parser left, it goes
    blocks = merge_fragments([b.model_copy(update={"text": b.text.replace("\x00", ""),
                                                   "term": b.term.replace("\x00", "") if b.term else b.term})
                              if "\x00" in b.text or (b.term and "\x00" in b.term) else b for b in blocks])

    def add(text: str, utype: UnitType, title: str, block: Block, start: int, end: int,
            extra: dict[str, object] | None = None) -> str | None:
        if len(text) > UNIT_MAX_CHARS:  # whatever the parser made of it, no unit is unbounded
            first: str | None = None
            for a, b in split_bounded(text, UNIT_MAX_CHARS):
                uid = add(text[a:b], utype, title, block, start, end, extra)
                first = first or uid
            return first
        norm = normalise_content(text)
        if not norm or not unit_text(text, code=utype is UnitType.CODE):
            return None
        occ = seen[norm]
        seen[norm] += 1
        uid = unit_id(tenant, doc.source_id, text, occ)
        path = [clean_title(t) for _, _, t in section_stack]
        meta: dict[str, object] = {"char_span": [start, end], "heading_path": path, "language": language_of(text)}
        if block.page is not None:
            meta["page"] = block.page
        meta.update(extra or {})
        units.append(KnowledgeUnit(id=uid, tenant=tenant, source_id=doc.source_id, source_version=doc.version,
                                   type=utype, title=clean_title(title), section_path=path, ordinal=len(units),
                                   content=unit_text(text, code=utype is UnitType.CODE),
                                   metadata=meta))
        parents.append(section_stack[-1][1] if section_stack else None)
        return uid

    i = 0
    while i < len(blocks):
        b = blocks[i]
        if b.kind == "heading":
            m = _SECTION_NUM.match(b.text)
            # an unnumbered, title-cased first line of a plain text is its title ("Multi-Hop RAG Retry Example" atop
            # "1. Setup", "2. Retry"): it heads every section's path, whatever level the parser gave the others (a
            # markdown or HTML document says its levels itself)
            level = 0 if (not units and not m and doc.kind == "text" and not source_text[:b.start].strip()
                          and _title_cased(b.text)) else b.level
            while section_stack and section_stack[-1][0] >= level:
                section_stack.pop()
            uid = add(b.text, UnitType.SECTION, b.text, b, b.start, b.end,
                      {"level": b.level, **({"number": m.group(1)} if m else {}), **({"yaml": b.meta} if b.meta else {})})
            if uid:
                if m:
                    numbers.setdefault(m.group(1).lower(), uid)
                titles.setdefault(b.text.strip().lower(), uid)
                section_stack.append((level, uid, b.text))
            i += 1
            continue
        title = section_stack[-1][2] if section_stack else doc_title
        if b.kind == "list_item" and not b.ordered:
            # consecutive bullet items form one unit (split again if too long)
            group = [b]
            while i + 1 < len(blocks) and blocks[i + 1].kind == "list_item" and not blocks[i + 1].ordered:
                i += 1
                group.append(blocks[i])
            texts = [g.text for g in group]
            if all(classify(t, g)[0] is UnitType.DEFINITION for t, g in zip(texts, group, strict=True)):
                for g in group:  # a glossary: one definition unit per entry
                    utype, term = classify(g.text, g)
                    uid = add(g.text, utype, title, g, g.start, g.end)
                    if uid and term:
                        defined[uid] = term
                i += 1
                continue
            chunks: list[list[Block]] = [[]]
            for g in group:
                if chunks[-1] and sum(len(c.text) for c in chunks[-1]) + len(g.text) > MAX_UNIT_CHARS:
                    chunks.append([])
                chunks[-1].append(g)
            for chunk in chunks:
                joined = "\n".join("- " + c.text for c in chunk)
                utype, _ = classify(" ".join(c.text for c in chunk), chunk[0])
                add(joined, utype, title, chunk[0], chunk[0].start, chunk[-1].end)
            i += 1
            continue
        for text, start, end in _pieces(b, source_text):
            utype, term = classify(text, b)
            uid = add(text, utype, title, b, start, end)
            if uid and term:
                defined[uid] = term
        i += 1

    # the structure travels with each unit (parent section, references, defined term), and the links
    # are derived from it in one place, so the graph rebuilt from PostgreSQL (kmrag repair) is the
    # graph an ingest writes
    for u, parent in zip(units, parents, strict=True):
        if parent and parent != u.id:
            u.metadata["parent"] = parent
        refs: list[str] = []
        for m in _XREF.finditer(u.content):
            refs.append(numbers.get(m.group(1).lower().rstrip("."), ""))
        for ref in re.findall(r"\bsee\s+[\"“']([^\"”']{2,80})[\"”']", u.content, re.I):
            refs.append(titles.get(ref.strip().lower(), ""))
        refs = [t for t in dict.fromkeys(refs) if t and t != u.id]
        if refs:
            u.metadata["references"] = refs
        if u.id in defined:
            u.metadata["defines"] = defined[u.id]
    return structure_from_units(units)


def structure_from_units(units: list[KnowledgeUnit]) -> ParsedUnits:
    """Links and defined terms of stored units (in reading order), from the metadata build_units wrote."""
    links: list[UnitLink] = []
    ordered = sorted(units, key=lambda u: u.ordinal)
    for a, b in zip(ordered, ordered[1:], strict=False):
        links.append(UnitLink(tenant=a.tenant, src=a.id, dst=b.id, kind=UnitLinkKind.NEXT))
    defined: dict[str, str] = {}
    for u in ordered:
        if u.metadata.get("parent"):
            links.append(UnitLink(tenant=u.tenant, src=u.id, dst=u.metadata["parent"], kind=UnitLinkKind.PARENT_SECTION))
        for dst in u.metadata.get("references", []):
            links.append(UnitLink(tenant=u.tenant, src=u.id, dst=dst, kind=UnitLinkKind.REFERENCES))
        if u.metadata.get("defines"):
            defined[u.id] = str(u.metadata["defines"])
    return ParsedUnits(units=ordered, links=links, defined_terms=defined)
