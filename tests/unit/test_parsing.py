from pathlib import Path

import pytest

from kmrag.ingestion.parse import parse_document, parse_html, parse_markdown, parse_text
from kmrag.ingestion.sources import SourceDocument, SourceProblem, SourceSkip, read_sources
from kmrag.ingestion.units import MAX_UNIT_CHARS, build_units
from kmrag.nlp.sentences import pack_sentences, split_sentences
from kmrag.schema import UnitType
from kmrag.schema.ids import unit_id
from tests.fixtures.docs import ATLAS_HTML, GUIDE_MD, minimal_pdf

pytestmark = pytest.mark.unit


def units_of(text: str, kind: str = "markdown", sid: str = "d.md", tenant: str = "t"):
    doc = SourceDocument(source_id=sid, uri="x", kind=kind, title="Doc", text=text, version="v")  # type: ignore[arg-type]
    blocks, vis = parse_document(doc)
    return build_units(doc, blocks, vis, tenant)


def test_markdown_units_are_typed_and_linked():
    r = units_of(GUIDE_MD)
    types = [u.type for u in r.units]
    assert types.count(UnitType.SECTION) == 3
    assert UnitType.TABLE in types and UnitType.DEFINITION in types and UnitType.RULE in types
    assert types.count(UnitType.STEP) == 2
    table = next(u for u in r.units if u.type is UnitType.TABLE)
    assert table.content.startswith("| Distance | Compensation |") and "600 EUR" in table.content
    rule = next(u for u in r.units if u.type is UnitType.RULE)
    assert rule.section_path == ["Travel Guide", "2. Compensation"]
    kinds = {(lk.kind.value) for lk in r.links}
    assert kinds == {"NEXT", "PARENT_SECTION", "REFERENCES"}
    ref = next(lk for lk in r.links if lk.kind.value == "REFERENCES")
    target = next(u for u in r.units if u.id == ref.dst)
    assert target.content == "1. Overview" and ref.src == rule.id
    assert r.defined_terms[next(u.id for u in r.units if u.type is UnitType.DEFINITION)] == "Boarding pass"
    assert all(GUIDE_MD[u.metadata["char_span"][0]:u.metadata["char_span"][1]].strip()
               for u in r.units)


def test_ids_stable_across_runs_and_order_independent_of_other_sources():
    a = [u.id for u in units_of(GUIDE_MD).units]
    b = [u.id for u in units_of(GUIDE_MD).units]
    assert a == b
    changed = GUIDE_MD.replace("250 EUR", "260 EUR")
    c = [u.id for u in units_of(changed).units]
    assert len(set(a) ^ set(c)) == 2  # only the table changed


def test_duplicate_paragraphs_get_distinct_ids():
    r = units_of("The same text is written here, twice over.\n\nThe same text is written here, twice over.\n")
    assert len({u.id for u in r.units}) == 2


def test_long_paragraphs_split_on_sentences_never_mid_sentence():
    sentence = "The committee reviewed the annual budget in great detail. "
    text = sentence * 60
    r = units_of(text, kind="text")
    assert len(r.units) > 1
    for u in r.units:
        assert len(u.content) <= MAX_UNIT_CHARS
        assert u.content.endswith("detail.")


def test_html_blocks_skip_scripts_and_keep_structure():
    blocks, visible = parse_html(ATLAS_HTML)
    kinds = [b.kind for b in blocks]
    assert "alert" not in visible
    assert kinds == ["heading", "paragraph", "definition", "list_item", "list_item"]
    assert blocks[2].term == "Schengen Area" and blocks[3].ordered
    r = units_of(ATLAS_HTML, kind="html", sid="a.html")
    assert [u.type.value for u in r.units] == ["section", "paragraph", "definition", "step", "step"]


def test_html_table_kept_whole_with_header():
    blocks, _ = parse_html("<table><tr><th>City</th><th>Country</th></tr><tr><td>Paris</td><td>France</td></tr></table>")
    assert blocks[0].kind == "table" and blocks[0].text.splitlines()[0] == "| City | Country |"


def test_plain_text_headings_by_shape():
    blocks = parse_text("CHAPTER I\n\nIt was a dark night.\n\n2.1 Results\n\nThe results were good.\n")
    assert [(b.kind, b.level) for b in blocks] == [("heading", 1), ("paragraph", 0), ("heading", 2), ("paragraph", 0)]


def _paths(text: str) -> list[tuple[str, list[str]]]:
    doc = SourceDocument(source_id="a.txt", uri="a.txt", kind="text", title="a", text=text, version="v1")
    return [(u.content[:12], u.section_path) for u in build_units(doc, parse_text(text), text, "t").units]


def test_a_title_cased_heading_that_opens_a_document_heads_every_section_s_path():
    """"Multi-Hop RAG Retry Example" atop a text whose numbered headings the parser puts at the same level: it is
    the document's title, so a question naming it names every section; a sentence-cased or numbered first heading
    is a section like the others."""
    body = "\n\nSome words here.\n\n1. Setup\n\nInstall it first.\n\n2. Retry\n\nRetry the query.\n"
    titled = _paths("Multi-Hop RAG Retry Example" + body)
    assert titled[-1] == ("Retry the qu", ["Multi-Hop RAG Retry Example", "2. Retry"])
    assert titled[1] == ("Some words h", ["Multi-Hop RAG Retry Example"])
    assert _paths("Why this matters" + body)[-1][1] == ["2. Retry"]
    # a markdown document says its levels itself: sibling sections stay siblings
    md = "# Introduction To Widgets\n\nWords.\n\n# Installation Guide\n\nInstall it.\n"
    doc = SourceDocument(source_id="a.md", uri="a.md", kind="markdown", title="a", text=md, version="v1")
    assert build_units(doc, parse_markdown(md), md, "t").units[-1].section_path == ["Installation Guide"]
    assert _paths("1. Overview Of Things" + body)[-1][1] == ["2. Retry"]


def test_markdown_fenced_code_and_setext():
    blocks = parse_markdown("Title\n=====\n\n```\nx = 1\n\ny = 2\n```\n")
    assert [b.kind for b in blocks] == ["heading", "code"]
    assert "y = 2" in blocks[1].text


def test_sentences_respect_abbreviations_and_initials():
    s = split_sentences("Dr. Smith met J. R. R. Tolkien in the U.S. Army. They talked. Was it 5 p.m.? Yes!")
    assert s == ["Dr. Smith met J. R. R. Tolkien in the U.S. Army.", "They talked.", "Was it 5 p.m.?", "Yes!"]
    spans = pack_sentences("Ab ab. Bc bc. Cd cd.", 10)
    assert [(a, b) for a, b in spans] == [(0, 6), (7, 13), (14, 20)]


def test_pdf_text_layer_with_pages(tmp_path: Path):
    f = tmp_path / "report.pdf"
    f.write_bytes(minimal_pdf(["Oslo is the capital of Norway.", "Visitors must carry a passport."]))
    (doc,) = list(read_sources([f]))
    assert isinstance(doc, SourceDocument) and doc.kind == "pdf" and doc.pages and "Oslo" in doc.pages[0]
    r = build_units(doc, *parse_document(doc), "t")
    assert r.units and all(u.metadata["page"] == 1 for u in r.units)


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.md", b"", "empty file"),
        ("blank.txt", b"   \n\n  ", "only whitespace"),
        ("binary.txt", bytes(range(256)) * 4, "binary"),
        ("broken.pdf", b"%PDF-1.4\n garbage", "pdf"),
        ("fake.pdf", b"hello", "not a pdf"),
        ("bad.json", b'{"title": "x", "text": ', "invalid json at line 1"),
        ("image.png", b"\x89PNG....", "unsupported file type"),
    ],
)
def test_bad_files_are_reported_with_reason(tmp_path: Path, name: str, data: bytes, reason: str):
    f = tmp_path / name
    f.write_bytes(data)
    (p,) = list(read_sources([f]))
    assert isinstance(p, SourceProblem) and name in p.path
    assert reason in p.reason.lower()


def test_oversized_file_is_refused(tmp_path: Path):
    from kmrag.ingestion.sources import SourceOptions

    f = tmp_path / "big.txt"
    f.write_text("word " * 1000)
    (p,) = list(read_sources([f], SourceOptions(max_bytes=100)))
    assert isinstance(p, SourceProblem) and "over the limit" in p.reason


def test_jsonl_bad_line_reported_others_kept(tmp_path: Path):
    f = tmp_path / "r.jsonl"
    f.write_text('{"title": "A", "text": "Alpha text."}\nnot json\n{"title": "B"}\n{"id": 7, "text": "Gamma."}\n')
    got = list(read_sources([f]))
    docs = [g for g in got if isinstance(g, SourceDocument)]
    probs = [g for g in got if isinstance(g, SourceProblem)]
    assert [d.title for d in docs] == ["A", ""] and docs[1].source_id == f"{f.resolve().as_posix()}#7"
    assert [p.path.rsplit(":", 1)[1] for p in probs] == ["line 2", "line 3"]


def test_qa_sets_become_deduplicated_passages(tmp_path: Path):
    import json

    rec = {"id": "q1", "question": "?", "answer": "a", "answer_aliases": [],
           "paragraphs": [{"idx": 0, "title": "T", "paragraph_text": "Text one.", "is_supporting": True},
                          {"idx": 1, "title": "T", "paragraph_text": "Text one.", "is_supporting": False},
                          {"idx": 2, "title": "U", "paragraph_text": "Text two.", "is_supporting": False}]}
    f = tmp_path / "m.json"
    f.write_text(json.dumps([rec, {**rec, "id": "q2"}]))
    docs = list(read_sources([f]))
    assert [d.title for d in docs] == ["T", "U"]  # type: ignore[union-attr]


def test_folder_walk_is_sorted_and_skips_hidden(tmp_path: Path):
    (tmp_path / "b.md").write_text("B text.")
    (tmp_path / "a.md").write_text("A text.")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "x.md").write_text("hidden")
    got = list(read_sources([tmp_path]))
    assert [d.source_id for d in got if isinstance(d, SourceDocument)] == [
        (tmp_path / "a.md").resolve().as_posix(), (tmp_path / "b.md").resolve().as_posix()]
    assert [(g.path, g.reason) for g in got if isinstance(g, SourceSkip)] == [(str(tmp_path / ".git"), "hidden folder")]


def test_a_file_that_breaks_its_reader_is_that_files_problem(tmp_path: Path):
    (tmp_path / "a_deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "b_good.txt").write_text("Oslo is the capital of Norway.")
    got = list(read_sources([tmp_path]))
    assert isinstance(got[0], SourceProblem) and got[0].path.endswith("a_deep.json")
    assert "nested too deeply" in got[0].reason
    assert isinstance(got[1], SourceDocument) and got[1].text.startswith("Oslo")


def test_json_records_with_ids_are_named_by_id_and_duplicates_reported(tmp_path: Path):
    import json

    f = tmp_path / "recs.json"
    f.write_text(json.dumps([{"id": "a", "title": "Li\u0000ma", "text": "Lima is in Peru."},
                             {"id": "b", "title": "Oslo", "text": "Oslo is in Norway."},
                             {"id": "c", "title": "Quito", "text": "Quito is in Ecuador."},
                             {"id": "b", "title": "Bern", "text": "Bern is in Switzerland."}]))
    got = list(read_sources([f]))
    docs = [g for g in got if isinstance(g, SourceDocument)]
    probs = [g for g in got if isinstance(g, SourceProblem)]
    assert [(d.source_id.rsplit("#", 1)[1], d.title) for d in docs] == [("b", "Oslo"), ("c", "Quito")]
    assert [p.path.rsplit(":", 1)[1] for p in probs] == ["record 0", "record 3"]
    assert "NUL" in probs[0].reason and "duplicate record id 'b'" in probs[1].reason and "record 1" in probs[1].reason


def test_titles_are_one_bounded_line(tmp_path: Path):
    from kmrag.ingestion.parse import parse_document
    from kmrag.ingestion.sources import TITLE_MAX_CHARS
    from kmrag.ingestion.units import UNIT_MAX_CHARS, build_units

    f = tmp_path / "h.md"
    f.write_text("# " + "word " * 20_000 + "\n\nBody text under a giant heading.\n")
    (doc,) = list(read_sources([f]))
    assert isinstance(doc, SourceDocument)
    blocks, text = parse_document(doc)
    parsed = build_units(doc, blocks, text, "t")
    assert all(len(u.title) <= TITLE_MAX_CHARS and all(len(p) <= TITLE_MAX_CHARS for p in u.section_path)
               for u in parsed.units)
    assert all(len(u.content) <= UNIT_MAX_CHARS for u in parsed.units)
    assert parsed.units[-1].content == "Body text under a giant heading."


def test_parquet_rows_that_share_an_id_are_reported_and_the_first_kept(tmp_path: Path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"id": [5, 6, 5], "title": ["Oslo", "Bern", "Lima"],
                             "text": ["Oslo is in Norway.", "Bern is in Switzerland.", "Lima is in Peru."]}), f)
    got = list(read_sources([f]))
    docs = [g for g in got if isinstance(g, SourceDocument)]
    probs = [g for g in got if isinstance(g, SourceProblem)]
    assert [d.title for d in docs] == ["Oslo", "Bern"]
    assert [(p.path.rsplit(":", 1)[1], "duplicate record id 5" in p.reason) for p in probs] == [("row 2", True)]


def test_html_layout_tables_are_read_as_the_blocks_they_hold_and_data_tables_stay_tables() -> None:
    from kmrag.ingestion.parse.html import parse_html

    page = ("<table width='100%'><tr><td><h1>The XSLT C library</h1><h2>API index</h2></td></tr></table>"
            "<table><tr><td><table><tr><td><b>Main Menu</b></td></tr><tr><td><ul><li><a>Home</a></li>"
            "<li><a>Documentation</a></li></ul></td></tr></table></td>"
            "<td><p>libxslt is the XSLT C library developed for the GNOME project.</p>"
            "<table><tr><th>Function</th><th>Since</th></tr><tr><td>xsltApplyStylesheet</td><td>1.0</td></tr></table>"
            "<dl><dt>label</dt><dd><a>CHECK_STOPPED</a><br/><a>xsltNewLocale</a><br/></dd></dl>"
            "</td></tr></table>")
    blocks, _ = parse_html(page)
    kinds = [(b.kind, b.text) for b in blocks]
    assert ("heading", "The XSLT C library") in kinds and ("heading", "API index") in kinds
    assert ("list_item", "Home") in kinds and ("list_item", "Documentation") in kinds
    assert ("paragraph", "libxslt is the XSLT C library developed for the GNOME project.") in kinds
    tables = [b.text for b in blocks if b.kind == "table"]
    assert tables == ["| Function | Since |\n|---|---|\n| xsltApplyStylesheet | 1.0 |"]  # only the data table
    assert [b.text for b in blocks if b.kind == "definition"] == ["label: CHECK_STOPPED xsltNewLocale"]
    assert max(len(b.text) for b in blocks) < 80  # no page-long 'table' row


def test_a_fact_sheet_keeps_its_lines_and_its_ids_stay_as_they_were():
    """A paragraph of two or more "Field: value" lines keeps its line breaks (each line is then read as a sentence),
    short or packed into pieces; prose lines are joined as before; the unit's id, which hashes the text with its
    whitespace collapsed, is the one the joined text had."""
    sheet = "Name: Teodor Vance\nRole: Mobile Library Officer\nResponsible for: driving the Wayfarer\n"
    prose = "The Wayfarer visits villages\nand estates far from a branch.\n"
    [fields] = parse_text(sheet)
    [para] = parse_text(prose)
    assert fields.text == sheet.strip() and para.text == "The Wayfarer visits villages and estates far from a branch."
    doc = SourceDocument(source_id="s.txt", uri="s.txt", kind="text", title="s", text=sheet, version="v1")
    [unit] = build_units(doc, parse_text(sheet), sheet, "t").units
    assert unit.content == sheet.strip()
    assert unit.id == unit_id("t", "s.txt", " ".join(sheet.split()))
    long_sheet = "".join(f"Item {i}, large: £{i}.00\n" for i in range(120))
    doc = SourceDocument(source_id="p.txt", uri="p.txt", kind="text", title="p", text=long_sheet, version="v1")
    pieces = build_units(doc, parse_text(long_sheet), long_sheet, "t").units
    assert len(pieces) > 1 and all("\n" in u.content and len(u.content) <= MAX_UNIT_CHARS for u in pieces)
    assert "Item 7, large: £7.00" in split_sentences(pieces[0].content)
