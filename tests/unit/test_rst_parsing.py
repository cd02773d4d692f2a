"""reStructuredText parsed with docutils: sections, directives, code, tables, lists, roles, metadata."""

from pathlib import Path

import pytest

from kmrag.ingestion.parse import parse_document
from kmrag.ingestion.parse.rst import parse_rst, role_text
from kmrag.ingestion.sources import SourceDocument, read_sources
from kmrag.ingestion.units import build_units
from kmrag.schema import UnitType

pytestmark = pytest.mark.unit

TRIAL = Path(__file__).resolve().parents[1] / "data" / "trial" / "installing.rst"

GUIDE = """\
:orphan:
:author: Jane Doe

=====
 pip
=====

The package installer for Python. See :ref:`the user guide <user-guide>` and :class:`~pip.req.InstallRequirement`.

Installing
==========

.. tab:: Windows

   Run the installer from a command prompt window to set up everything.

   .. code-block:: console

      C:> py -m pip install requests

.. note::

   Administrator rights are not needed for a user installation.

Upgrading
---------

Upgrade pip itself with the same interpreter::

   python -m pip install --upgrade pip

- first bullet point about pip
- second bullet point about pip

.. code:: python

   import pip

Options
~~~~~~~

=======  ========
Option   Meaning
=======  ========
-q       quiet
-v       verbose
=======  ========

+--------+---------+
| Name   | Value   |
+========+=========+
| index  | PyPI    |
+--------+---------+

.. toctree::
   :maxdepth: 2

   install
   usage

.. this is a comment that must not become a unit

.. |ver| replace:: 24.0

.. image:: logo.png

.. include:: other.rst

.. raw:: html

   <b>raw</b>
"""


def units_of(text: str, sid: str = "d.rst"):
    doc = SourceDocument(source_id=sid, uri="x", kind="rst", title="file-stem", text=text, version="v")
    blocks, vis = parse_document(doc)
    return doc, build_units(doc, blocks, vis, "t")


def test_headings_levels_and_paths_from_underlines():
    blocks, _, title = parse_rst(GUIDE)
    heads = [(b.text, b.level) for b in blocks if b.kind == "heading"]
    assert heads == [("pip", 1), ("Installing", 2), ("Upgrading", 3), ("Options", 4)]
    assert title == "pip"
    doc, r = units_of(GUIDE)
    assert doc.title == "pip"
    code = next(u for u in r.units if "--upgrade pip" in u.content)
    assert code.section_path == ["pip", "Installing", "Upgrading"]


def test_directives_keep_their_body_never_their_own_line():
    doc, r = units_of(GUIDE)
    text = "\n".join(u.content for u in r.units)
    assert "Run the installer from a command prompt window" in text  # the tab's body
    assert "Administrator rights are not needed" in text  # the note's body
    for junk in (".. ", "tab::", "Windows\n", "toctree", "maxdepth", "install usage", "comment", "logo.png",
                 "other.rst", "<b>", "raw", "24.0", "Unknown directive"):
        assert junk not in text, junk


def test_code_blocks_literal_blocks_and_code_directive_are_code_units():
    _, r = units_of(GUIDE)
    code = [u.content for u in r.units if u.type is UnitType.CODE]
    assert code == ["C:> py -m pip install requests", "python -m pip install --upgrade pip", "import pip"]


def test_simple_and_grid_tables():
    _, r = units_of(GUIDE)
    tables = [u.content for u in r.units if u.type is UnitType.TABLE]
    assert tables == ["| Option | Meaning |\n|---|---|\n| -q | quiet |\n| -v | verbose |",
                      "| Name | Value |\n|---|---|\n| index | PyPI |"]


def test_bullet_list_and_roles_render_as_text():
    blocks, _, _ = parse_rst(GUIDE)
    items = [b.text for b in blocks if b.kind == "list_item"]
    assert items == ["first bullet point about pip", "second bullet point about pip"]
    first = next(b.text for b in blocks if b.kind == "paragraph")
    assert first == "The package installer for Python. See the user guide and InstallRequirement."
    assert role_text(":ref:`foo`") == "foo"
    assert role_text(":class:`X`") == "X"
    assert role_text(":py:func:`~a.b.run`") == "run"
    assert role_text("`Text <https://x>`__") == "`Text <https://x>`__"  # not a role


def test_enumerated_list_is_steps_and_definition_lists_are_definitions():
    text = "Steps\n=====\n\n#. Download the file.\n#. Run the installer.\n\nwheel\n   A built package format.\n"
    blocks, _, _ = parse_rst(text)
    assert [(b.kind, b.ordered) for b in blocks if b.kind == "list_item"] == [("list_item", True)] * 2
    d = next(b for b in blocks if b.kind == "definition")
    assert (d.term, d.text) == ("wheel", "wheel: A built package format.")
    _, r = units_of(text)
    assert [u.type for u in r.units].count(UnitType.STEP) == 2


def test_top_field_list_is_source_metadata_not_units():
    doc, r = units_of(GUIDE)
    assert doc.metadata["front_matter"] == {"orphan": True, "author": "Jane Doe"}
    assert not any("Jane" in u.content or "orphan" in u.content for u in r.units)


def test_spans_index_the_source_text():
    _, r = units_of(GUIDE)
    for u in r.units:
        a, b = u.metadata["char_span"]
        raw = GUIDE[a:b]
        words = [w.strip(".:") for w in u.content.replace("|", " ").split() if w.strip(".:").isalpha()]
        assert words and words[0] in raw and words[-1] in raw, (u.content, raw)
        assert len(raw) < 3 * len(u.content) + 40, (u.content, raw)


MALFORMED = """\
Title
==

Bad underline above, and *unclosed emphasis and `unclosed literal.

.. frobnicate:: arg
   :option: 1

   This unknown directive has a body that reads as a real sentence of prose.

.. mystery::

   a b

.. code-block:: nosuchlanguage

   x = 1

:unknownrole:`some text` stays readable.

Section
-------
=====
"""


def test_malformed_rst_does_not_crash_or_leak_markup():
    doc, r = units_of(MALFORMED)
    text = "\n".join(u.content for u in r.units)
    assert "unclosed emphasis" in text
    assert "This unknown directive has a body that reads as a real sentence of prose." in text
    assert "frobnicate" not in text and ":option:" not in text
    assert "a b" not in text.split("\n")  # a body that is not prose is dropped
    assert "x = 1" in [u.content for u in r.units if u.type is UnitType.CODE]
    assert "some text stays readable." in text
    assert "==" not in text


@pytest.mark.parametrize("text", ["", "   \n", "====\n", ".. \n", "::\n", "+--+\n| x\n", "\t.. tab::\n" * 3,
                                  "a\n" + "   " * 400 + "b", "`" * 1000, "*" * 5000, ".. |x| image:: y\n|x|\n"])
def test_degenerate_inputs_never_raise(text: str, capsys: pytest.CaptureFixture[str]):
    doc = SourceDocument(source_id="d", uri="x", kind="rst", title="d", text=text, version="v")
    parse_document(doc)
    assert capsys.readouterr().err == ""  # docutils never writes warnings


def test_a_docutils_failure_falls_back_to_plain_text(monkeypatch: pytest.MonkeyPatch):
    import kmrag.ingestion.parse.rst as rst

    def boom(text: str) -> object:
        raise RuntimeError("docutils failed")

    monkeypatch.setattr(rst, "_doctree", boom)
    doc, r = units_of("Intro\n=====\n\nSome text that is still read.\n")
    assert doc.metadata.get("rst_fallback") is True
    assert any(u.content == "Some text that is still read." for u in r.units)


def test_no_file_is_read_for_include_or_csv_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "secret.txt").write_text("TOP SECRET CONTENT\n")
    (tmp_path / "data.csv").write_text("a,b\nSECRETCSV,2\n")
    monkeypatch.chdir(tmp_path)
    text = ".. include:: secret.txt\n\n.. csv-table:: T\n   :file: data.csv\n\n.. raw:: html\n   :file: secret.txt\n"
    _, r = units_of(text)
    assert not any("SECRET" in u.content for u in r.units)


def test_rst_files_are_read_as_rst_and_trial_page_units(tmp_path: Path):
    docs = [d for d in read_sources([TRIAL]) if isinstance(d, SourceDocument)]
    assert len(docs) == 1 and docs[0].kind == "rst"
    doc = docs[0]
    blocks, vis = parse_document(doc)
    r = build_units(doc, blocks, vis, "t")
    assert doc.title == "Installing"
    assert doc.metadata["front_matter"]["description"] == "How to install the package installer."
    types = [u.type for u in r.units]
    assert types.count(UnitType.SECTION) == 5 and types.count(UnitType.CODE) == 3
    assert types.count(UnitType.TABLE) == 1
    table = next(u for u in r.units if u.type is UnitType.TABLE)
    assert table.content.startswith("| Python | Supported by pip | End of life |") and "| 2.7 | No | 2020-01 |" in table.content
    text = "\n".join(u.content for u in r.units)
    for junk in ("tab::", "toctree", "upgrading", ":hidden:", "_installing", "https://www.python.org", ".. "):
        assert junk not in text, junk
    assert "virtual environment" in text and "does not access the internet" in text


def test_backslash_escapes_leave_no_nul_characters():
    # docutils keeps an escape as a NUL in its text nodes; PostgreSQL cannot store one (a trial job
    # failed on an awscli page's definition term)
    _, parsed = units_of("Title\n=====\n\nRun ``aws`` with back\\\\slash and \\*stars\\*.\n\n"
                         "    aws inspector2 list-members \\\n        --only-associated\n")
    units = parsed.units
    assert units and not any(_has_nul(u.model_dump()) for u in units)
    assert "back\\slash and *stars*" in " ".join(u.content for u in units)


def test_no_unit_holds_a_nul_whatever_a_parser_left():
    from kmrag.ingestion.parse import Block

    doc = SourceDocument(source_id="n.txt", uri="file:///n.txt", kind="text", title="T\x00", text="x", version="v")
    blocks = [Block(kind="definition", text="a\x00b: the term a\x00b is defined here at length.", term="a\x00b")]
    units = build_units(doc, blocks, "x", "t").units
    assert units and not any(_has_nul(u.model_dump()) for u in units)


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_has_nul(v) for v in value)
    return False
