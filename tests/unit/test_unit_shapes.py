"""Issue 10 part 1: the shape of units on technical docs (code, comments, front matter, numbered
headings in plain text, tiny fragments)."""

from types import SimpleNamespace

import pytest

from kmrag.answer.spans import unit_spans
from kmrag.ingestion.parse import parse_document
from kmrag.ingestion.sources import SourceDocument
from kmrag.ingestion.units import CODE_MAX_CHARS, TABLE_MAX_CHARS, ParsedUnits, build_units
from kmrag.schema import UnitType
from kmrag.schema.ddl import postgres_statements

pytestmark = pytest.mark.unit


def parsed(text: str, kind: str = "markdown") -> tuple[SourceDocument, ParsedUnits]:
    doc = SourceDocument(source_id="d", uri="x", kind=kind, title="Doc", text=text, version="v")  # type: ignore[arg-type]
    blocks, vis = parse_document(doc)
    return doc, build_units(doc, blocks, vis, "t")


def typed(text: str, kind: str = "markdown") -> list[tuple[UnitType, str]]:
    return [(u.type, u.content) for u in parsed(text, kind)[1].units]


def test_fenced_and_indented_code_and_pre_are_code_units_with_their_indentation():
    md = ("# Use\n\nCall the function as shown below in the example.\n\n```python\ndef f(x):\n    return x\n```\n\n"
          "Or with tildes:\n\n~~~\nls -l\n~~~\n\nIndented:\n\n    for i in range(3):\n        print(i)\n")
    units = typed(md)
    code = [c for t, c in units if t is UnitType.CODE]
    assert code == ["```python\ndef f(x):\n    return x\n```", "~~~\nls -l\n~~~", "for i in range(3):\n    print(i)"]
    html = "<h1>Install</h1><p>Run it.</p><pre><code>pip install kmrag\n  kmrag init\n</code></pre>"
    assert (UnitType.CODE, "pip install kmrag\n  kmrag init") in typed(html, "html")


def test_plain_text_indentation_is_not_code():
    units = typed("Title Of The Text\n\n    An indented paragraph of an old book, as many are typeset.\n", "text")
    assert all(t is not UnitType.CODE for t, _ in units)


def test_an_indented_list_continuation_is_not_code():
    units = typed("# Steps\n\n- first item of the list\n\n    more about the first item\n")
    assert all(t is not UnitType.CODE for t, _ in units)


def test_code_is_kept_whole_to_the_bound_and_split_between_lines_beyond_it():
    body = "\n".join(f"x{i} = compute({i})  # step {i} of the long script" for i in range(120))
    units = [(t, c) for t, c in typed(f"# Big\n\n```\n{body}\n```\n") if t is UnitType.CODE]
    assert len(units) > 1 and all(len(c) <= CODE_MAX_CHARS for _, c in units)
    lines = [ln for _, c in units for ln in c.split("\n") if ln not in ("```",)]
    assert lines == body.split("\n")  # every line whole, in order, none lost or cut
    small = "\n".join(f"y{i} = value({i})" for i in range(100))
    assert len(small) > 1200 and [c for t, c in typed(f"```\n{small}\n```") if t is UnitType.CODE] == [
        f"```\n{small}\n```"]


def test_a_long_table_is_split_by_rows_into_parts_of_about_equal_size_each_with_its_header():
    """A spreadsheet of 60 rows in one unit was found by neither its words nor its vector for a question naming one
    row; each part now repeats the header, and no row is lost, cut or moved."""
    header = "| date | title | venue | price_band |\n|---|---|---|---|"
    rows = [f"| 2025-03-{i % 28 + 1:02d} | Show number {i} of the spring season | Main House | {'ABCD'[i % 4]} |"
            for i in range(60)]
    parts = [c for t, c in typed("# Programme\n\n" + "\n".join([header, *rows]) + "\n") if t is UnitType.TABLE]
    assert len("\n".join([header, *rows])) > 2 * TABLE_MAX_CHARS and TABLE_MAX_CHARS <= 2000
    assert len(parts) == 3 and all(p.startswith(header + "\n") and len(p) <= TABLE_MAX_CHARS for p in parts)
    sizes = [len(p) for p in parts]
    assert max(sizes) - min(sizes) < 2 * len(rows[0])  # about equal: no small last part
    assert [r for p in parts for r in p.split("\n")[2:]] == rows
    small = "\n".join([header, *rows[:20]])
    assert [c for t, c in typed(f"# Programme\n\n{small}\n") if t is UnitType.TABLE] == [small]


def test_a_code_unit_is_cited_by_its_line_groups_not_sentences():
    content = "```js\nconst a = 1; const b = 2.\nlog(a);\n\nrun(b);\n```"
    unit = SimpleNamespace(id="u", source_id="s", type="code", content=content, title="T")
    spans = unit_spans(unit, 0)
    assert [s.quote for s in spans] == ["const a = 1; const b = 2.\nlog(a);", "run(b);"]
    assert all(content[s.start:s.end] == s.quote and s.kind == "code" for s in spans)


def test_code_units_are_not_sent_to_the_extractor():
    from kmrag.ingestion.pipeline import IngestionJob

    class Recorder:
        name = "rec"
        seen: list[str] = []

        def extract(self, units):  # type: ignore[no-untyped-def]
            from kmrag.nlp.extract import Extraction
            self.seen.extend(u.type.value for u in units)
            return [Extraction() for _ in units]

    _, p = parsed("# A\n\nSome prose about the tool and what it does.\n\n```\nrm -rf build\n```\n")
    from kmrag.ingestion.compute import LocalEngine

    job = IngestionJob.__new__(IngestionJob)
    rec = Recorder()
    job.engine = LocalEngine(None, rec)  # type: ignore[arg-type]
    plan = SimpleNamespace(extract={u.id for u in p.units}, embed=set(), failed=False,
                           source=SimpleNamespace(id="s"))
    batch = [SimpleNamespace(units=p.units, plan=plan)]
    handed = job._submit(batch)  # type: ignore[arg-type]
    assert handed is not None
    out = job._extractions(handed[0], job.engine.result(handed[1]))
    assert set(out) == {u.id for u in p.units}  # every unit has its (empty, for code) extraction
    assert "code" not in rec.seen and "paragraph" in rec.seen


def test_postgres_schema_admits_code_and_migrates_the_old_check():
    stmts = postgres_statements(8)
    assert any("DROP CONSTRAINT IF EXISTS kmrag_units_type_check" in s for s in stmts)
    assert any("ADD CONSTRAINT kmrag_units_type_check" in s and "'code'" in s for s in stmts)


def test_html_comments_are_dropped_from_markdown():
    md = ("# Guide\n\n<!--introduced_in=v0.10.0-->\n\nThe guide explains <!-- inline --> the tool in detail here.\n\n"
          "<!-- a comment\nover lines\n-->\n\nThe end of the guide is reached at this point.\n\n```html\n<!-- kept -->\n```\n")
    units = typed(md)
    text = "\n".join(c for _, c in units)
    assert "-->" not in text.replace("<!-- kept -->", "") and "introduced_in" not in text and "over lines" not in text
    assert (UnitType.PARAGRAPH, "The guide explains the tool in detail here.") in units
    assert (UnitType.CODE, "```html\n<!-- kept -->\n```") in units


def test_front_matter_and_yaml_comments_are_metadata_not_units():
    md = ("---\ntitle: File system\nlayout: api\n---\n\n# File system\n\n## fs.access(path)\n\n<!-- YAML\n"
          "added: v0.11.15\nchanges:\n  - version: v18.0.0\n    pr-url: https://github.com/nodejs/node/pull/41678\n"
          "    description: Passing an invalid callback now throws.\n-->\n\n"
          "Tests a user's permissions for the file or directory specified by path.\n")
    doc, p = parsed(md)
    assert doc.metadata["front_matter"] == {"title": "File system", "layout": "api"}
    assert [u.type for u in p.units] == [UnitType.SECTION, UnitType.SECTION, UnitType.PARAGRAPH]
    access = p.units[1]
    assert access.metadata["yaml"]["added"] == "v0.11.15"
    assert access.metadata["yaml"]["changes"][0]["version"] == "v18.0.0"
    assert not any("version:" in u.content or "---" in u.content for u in p.units)
    assert p.units[2].metadata["char_span"][0] == md.index("Tests a user")


def test_yaml_fields_without_pyyaml(monkeypatch: pytest.MonkeyPatch):
    import builtins

    from kmrag.ingestion.parse.markdown import yaml_fields
    real = builtins.__import__

    def no_yaml(name, *a, **k):  # type: ignore[no-untyped-def]
        if name == "yaml":
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_yaml)
    assert yaml_fields("title: 'A B'\nadded: v1\nchanges:\n  - version: v2\n") == {"title": "A B", "added": "v1",
                                                                                   "changes": ""}


def test_numbered_title_lines_in_plain_text_are_sections_and_step_lists_stay_steps():
    txt = ("7. Answer Synthesis Function\n\nThe function composes an answer with citations to the units.\n\n"
           "2.1 Iterative retrieval\nRetrieval runs in rounds until nothing new is found.\n\n"
           "Boarding\n\n1. Keep your boarding pass.\n2. Show your passport at the gate.\n\n"
           "1. Open the app\n2. Tap Settings\n3. Tap Save\n\nThe settings are saved at once when you tap.\n")
    units = typed(txt, "text")
    sections = [c for t, c in units if t is UnitType.SECTION]
    assert "7. Answer Synthesis Function" in sections and "2.1 Iterative retrieval" in sections
    steps = [c for t, c in units if t is UnitType.STEP]
    assert steps == ["Keep your boarding pass.", "Show your passport at the gate.", "Open the app", "Tap Settings",
                     "Tap Save"]


def test_tiny_fragments_join_their_neighbour_paragraph_in_the_section():
    md = ("# A\n\nDone.\n\nThe installer writes its configuration to the home directory.\n\n"
          "The tool reads the configuration when it starts.\n\nSee below.\n\n"
          "For example:\n\nThe tool is run from a terminal with its options.\n\n"
          "Usage:\n\n```\ntool --help\n```\n\n# B\n\nTiny one.\n\n- a list item that is not a paragraph\n\n"
          "You must pay.\n\nThe fee is paid at the desk of the airline.\n")
    units = typed(md)
    paras = [c for t, c in units if t is UnitType.PARAGRAPH]
    assert paras == [
        "Done. The installer writes its configuration to the home directory.",
        "The tool reads the configuration when it starts. See below. For example:",  # "For example: The tool ..."
        "The tool is run from a terminal with its options. Usage:",  # would read as a glossary definition
        "Tiny one.",  # alone: a list follows, a heading precedes
        "- a list item that is not a paragraph",
        "The fee is paid at the desk of the airline.",
    ]
    assert (UnitType.RULE, "You must pay.") in units  # a rule is never a fragment
    assert (UnitType.CODE, "```\ntool --help\n```") in units


def test_markup_look_alikes_are_kept():
    md = ("---\n# Title after a rule\n\nThe text of the document follows the title here.\n\n---\n\n"
          "Write `<!-- note -->` to leave a comment in the page source.\n\n"
          "An unclosed <!-- in prose is just text in this paragraph.\n\n"
          "- an item of a list\n\n    its second paragraph, indented\n\n    and its third one, indented too\n")
    doc, p = parsed(md)
    text = "\n".join(u.content for u in p.units)
    assert "front_matter" not in doc.metadata and "Title after a rule" in text
    assert "`<!-- note -->`" in text and "An unclosed <!-- in prose" in text
    assert all(u.type is not UnitType.CODE for u in p.units)
