"""Decoding files: byte-order marks, declared charsets, UTF-8, detection, --encoding; binary refused."""

import codecs
from pathlib import Path

import pytest

from kmrag.ingestion.encoding import declared_charset, decode_bytes
from kmrag.ingestion.parse import parse_document
from kmrag.ingestion.sources import SourceDocument, SourceOptions, SourceProblem, read_sources
from kmrag.schema.ids import content_hash

pytestmark = pytest.mark.unit

GERMAN = "Grüße aus München: der Bär läuft über die Brücke.\n"
FRENCH = "Le café est très chaud. L’élève a mangé une crêpe – « très bon » dit-il. Où est l’hôtel ?\n"


def read_one(path: Path, data: bytes, opts: SourceOptions | None = None) -> SourceDocument | SourceProblem:
    path.write_bytes(data)
    (got,) = list(read_sources([path], opts))
    return got


def test_utf16_le_bom_text_is_read(tmp_path: Path):
    doc = read_one(tmp_path / "u16.txt", codecs.BOM_UTF16_LE + GERMAN.encode("utf-16-le"))
    assert isinstance(doc, SourceDocument), doc
    assert doc.text == GERMAN and doc.metadata == {"encoding": "utf-16-le", "encoding_from": "bom"}
    assert doc.version == content_hash(GERMAN)  # the decoded text's hash, not the bytes'


@pytest.mark.parametrize(("bom", "codec", "name"), [
    (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "utf-32-be"),
])
def test_other_boms_are_honoured(tmp_path: Path, bom: bytes, codec: str, name: str):
    got = decode_bytes(bom + GERMAN.encode(codec), tmp_path / "f.txt", "text", "plain text")
    assert (got.text, got.encoding, got.how) == (GERMAN, name, "bom")


def test_broken_utf16_after_a_bom_names_the_file_offset(tmp_path: Path):
    p = read_one(tmp_path / "b.txt", codecs.BOM_UTF16_LE + "Köln".encode("utf-16-le") + b"\x00\xd8")
    assert isinstance(p, SourceProblem) and "not valid utf-16-le" in p.reason and "offset 10" in p.reason


def test_utf8_sig_markdown_loses_its_bom(tmp_path: Path):
    md = "# Café\n\nCrème brûlée is a dessert.\n"
    doc = read_one(tmp_path / "sig.md", codecs.BOM_UTF8 + md.encode())
    assert isinstance(doc, SourceDocument), doc
    assert doc.text == md and doc.metadata == {"encoding": "utf-8-sig", "encoding_from": "bom"}
    blocks, _ = parse_document(doc)
    assert blocks[0].text == "Café"


def test_html_declaring_iso_8859_1_is_read_with_it(tmp_path: Path):
    body = "<p>Das Café in Zürich ist über hundert Jahre alt.</p>"
    data = (b"<!DOCTYPE html><html><head><meta charset=ISO-8859-1><title>Z</title></head><body>"
            + body.encode("latin-1") + b"</body></html>")
    assert b"\xe9" in data and b"\xfc" in data
    doc = read_one(tmp_path / "z.html", data)
    assert isinstance(doc, SourceDocument), doc
    assert doc.metadata == {"encoding": "iso8859-1", "encoding_from": "declared"}
    _, text = parse_document(doc)
    assert "Das Café in Zürich ist über hundert Jahre alt." in text


@pytest.mark.parametrize(("head", "want"), [
    (b'<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">', "cp1252"),
    (b"<meta CHARSET='koi8-r'>", "koi8-r"),
    (b'<?xml version="1.0" encoding="ISO-8859-15"?>\n<html>', "iso8859-15"),
    (b"<html><p>charset=latin-1 is only text here</p>", None),
    (b'<meta charset="no-such-charset">', None),
])
def test_declared_charset(head: bytes, want: str | None):
    assert declared_charset(head) == want


def test_a_declaration_the_bytes_do_not_fit_is_ignored(tmp_path: Path):
    data = b'<html><head><meta charset="us-ascii"></head><body><p>' + "Café".encode() + b"</p></body></html>"
    got = decode_bytes(data, tmp_path / "a.html", "html", "HTML")
    assert got.how == "utf-8" and "Café" in got.text


def test_windows_1252_text_without_declaration_is_detected(tmp_path: Path):
    doc = read_one(tmp_path / "w.txt", FRENCH.encode("cp1252"))
    assert isinstance(doc, SourceDocument), doc
    assert doc.text == FRENCH and doc.metadata == {"encoding": "cp1252", "encoding_from": "detected"}


def test_utf8_is_chosen_before_detection_and_keeps_its_byte_hash(tmp_path: Path):
    data = FRENCH.encode()
    doc = read_one(tmp_path / "u.txt", data)
    assert isinstance(doc, SourceDocument) and doc.metadata["encoding_from"] == "utf-8"
    assert doc.version == content_hash(data)  # versions stored before decoded-text hashing stay the same


@pytest.mark.parametrize(("data", "reason"), [
    (bytes(range(256)) * 4, "binary content (nul bytes), not"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(1, 9)) * 100, "binary content (99% control bytes), not"),
    (b"Fine text. " * 1000 + b"\x00 then a NUL", "nul byte at offset 11000"),
    (bytes(range(128, 256)) * 8, "no text encoding fits it"),
])
def test_binary_files_are_still_refused_naming_the_file(tmp_path: Path, data: bytes, reason: str):
    p = read_one(tmp_path / "blob.txt", data)
    assert isinstance(p, SourceProblem) and p.path.endswith("blob.txt")
    assert reason in p.reason.lower()


def test_encoding_option_overrides_everything(tmp_path: Path):
    latin = FRENCH.encode("latin-1", errors="replace")
    doc = read_one(tmp_path / "l.txt", latin, SourceOptions(encoding="cp1251"))
    assert isinstance(doc, SourceDocument) and doc.metadata == {"encoding": "cp1251", "encoding_from": "option"}
    assert "caf\u0439" in doc.text  # mojibake, as asked: é read as cp1251 is й
    doc = read_one(tmp_path / "s.md", codecs.BOM_UTF8 + b"# Title\n", SourceOptions(encoding="utf-8"))
    assert isinstance(doc, SourceDocument) and doc.text == "# Title\n"
    doc = read_one(tmp_path / "w.txt", GERMAN.encode("utf-16-le"), SourceOptions(encoding="utf-16-le"))
    assert isinstance(doc, SourceDocument) and doc.text == GERMAN  # NUL bytes are fine in the wide encoding asked
    p = read_one(tmp_path / "bad.txt", "ü".encode("latin-1") * 3, SourceOptions(encoding="utf-8"))
    assert isinstance(p, SourceProblem) and "not valid utf-8" in p.reason and "--encoding" in p.reason


def test_records_say_how_their_file_was_decoded(tmp_path: Path):
    data = codecs.BOM_UTF16_LE + '{"id": 1, "title": "Zürich", "text": "Eine Stadt."}\n'.encode("utf-16-le")
    doc = read_one(tmp_path / "r.jsonl", data)
    assert isinstance(doc, SourceDocument) and doc.title == "Zürich"
    assert doc.metadata == {"record": 1, "encoding": "utf-16-le", "encoding_from": "bom"}
