"""Decoding a text file's bytes: which encoding, and how it was chosen.

Precedence (the first that applies wins):

1. ``option`` — ``--encoding`` given on the command line (a byte-order mark in the text is dropped);
2. ``bom`` — a byte-order mark: UTF-8 (``utf-8-sig``), UTF-16 LE/BE, UTF-32 LE/BE;
3. ``declared`` — an HTML file's ``<meta charset=...>`` / ``<meta http-equiv="Content-Type"
   content="...; charset=...">`` or an ``<?xml ... encoding="..."?>`` declaration, found in the first
   ``DECLARED_SCAN_BYTES`` of the raw bytes (a declaration the bytes do not fit is ignored);
4. ``utf-8`` — the bytes are valid UTF-8;
5. ``detected`` — UTF-16 without a byte-order mark (a NUL as every other byte, decoding to clean text),
   else charset-normalizer's verdict (ties between equally good single-byte code pages go to
   windows-1252, the most common legacy one).

Binary data is refused before anything is guessed: NUL bytes without a byte-order mark (or a wide
``--encoding``), many control characters, or a detector that finds no text encoding at all.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from kmrag.errors import BadInput

How = Literal["option", "bom", "declared", "utf-8", "detected"]

# longest first: the UTF-32 LE mark starts with the UTF-16 LE one
BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
DECLARED_SCAN_BYTES = 4096
BINARY_SCAN = 8192
_XML_DECL = re.compile(rb"""^\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']\s*([A-Za-z0-9._:-]+)""", re.I)
_META_CHARSET = re.compile(rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.I)


class Decoded(BaseModel):
    text: str
    encoding: str  # Python's codec name (utf-8, utf-16-le, cp1252, ...)
    how: How

    def metadata(self) -> dict[str, str]:
        """What a source's metadata records of it."""
        return {"encoding": self.encoding, "encoding_from": self.how}


def bom_of(data: bytes) -> tuple[bytes, str] | None:
    return next(((bom, enc) for bom, enc in BOMS if data.startswith(bom)), None)


def declared_charset(data: bytes) -> str | None:
    """The charset an HTML/XML head declares (its first DECLARED_SCAN_BYTES), as a codec name; None
    when there is none or Python does not know it."""
    head = data[:DECLARED_SCAN_BYTES]
    m = _XML_DECL.match(head) or _META_CHARSET.search(head)
    if m is None:
        return None
    try:
        return codecs.lookup(m.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None


def _wide(codec: str) -> bool:
    return codecs.lookup(codec).name.startswith(("utf-16", "utf-32"))


def _control_share(chars: str | bytes) -> float:
    """The share of control characters other than tab, newlines, form feed (binary data has many)."""
    if not chars:
        return 0.0
    codes = chars if isinstance(chars, bytes) else [ord(c) for c in chars]
    return sum(1 for b in codes if b < 9 or 13 < b < 32) / len(codes)


def _check_not_binary_bytes(data: bytes, path: Path, kind_name: str) -> None:
    head = data[:BINARY_SCAN]
    if b"\x00" in head:
        raise BadInput(f"{path}: binary content (NUL bytes), not {kind_name}")
    if (share := _control_share(head)) > 0.10:
        raise BadInput(f"{path}: binary content ({share:.0%} control bytes), not {kind_name}")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise BadInput(f"{path}: contains a NUL byte at offset {nul} (binary data, or UTF-16 without a byte-order "
                       "mark?); convert it to UTF-8 text or pass --encoding")


def _check_not_binary_text(text: str, path: Path, kind_name: str, encoding: str) -> None:
    if _control_share(text[:BINARY_SCAN]) > 0.10:
        raise BadInput(f"{path}: binary content ({_control_share(text[:BINARY_SCAN]):.0%} control "
                       f"characters when read as {encoding}), not {kind_name}")
    nul = text.find("\x00")
    if nul >= 0:
        raise BadInput(f"{path}: contains a NUL character at position {nul} (read as {encoding}); "
                       "binary data, or the wrong --encoding?")


def _strict(data: bytes, path: Path, encoding: str, why: str, skipped: int = 0) -> str:
    """``data`` decoded; ``skipped``: how many bytes of the file came before it (a byte-order mark)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        raise BadInput(f"{path}: not valid {encoding} (byte 0x{data[e.start]:02x} at offset {skipped + e.start})"
                       f"{why}") from e
    except LookupError as e:
        raise BadInput(f"unknown encoding {encoding!r}") from e


def _detect(data: bytes, path: Path, kind_name: str) -> Decoded:
    from charset_normalizer import from_bytes

    results = list(from_bytes(data))
    if not results:
        raise BadInput(f"{path}: not valid UTF-8 and no text encoding fits it (binary data, not {kind_name}?); "
                       "convert it to UTF-8 or pass --encoding with the file's encoding")
    best = results[0]
    tied = [r for r in results if (r.chaos, r.coherence) == (best.chaos, best.coherence)]
    encoding = best.encoding
    if any("cp1252" in r.could_be_from_charset for r in tied):
        encoding = "cp1252"
    try:
        text = data.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        encoding, text = best.encoding, str(best)
    return Decoded(text=text, encoding=codecs.lookup(encoding).name, how="detected")


def _utf16_without_bom(data: bytes) -> Decoded | None:
    """UTF-16 text saved without a byte-order mark (Windows tools do): mostly Latin text has a NUL as
    every other byte, at odd offsets (little-endian) or even ones (big-endian), and decodes to text with
    no NUL and few control characters. None for anything else (binary data stays refused)."""
    head = data[:BINARY_SCAN]
    if len(data) < 4 or len(data) % 2 or b"\x00" not in head:
        return None
    even, odd = head[0::2], head[1::2]
    for codec, zeros, other in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
        if zeros.count(0) >= 0.6 * len(zeros) and other.count(0) == 0:
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                return None
            if "\x00" in text or _control_share(text[:BINARY_SCAN]) > 0.02:
                return None
            return Decoded(text=text, encoding=codec, how="detected")
    return None


def decode_bytes(data: bytes, path: Path, kind: str, kind_name: str, override: str | None = None) -> Decoded:
    """A text file's bytes as text, with the encoding used and how it was chosen (see the module doc).

    ``kind`` is the file's format (``html`` looks for a declared charset); ``kind_name`` names it in
    messages. Raises BadInput naming the file for binary data and undecodable bytes."""
    if override:
        try:
            name = codecs.lookup(override).name
        except LookupError as e:
            raise BadInput(f"unknown encoding {override!r}") from e
        if not _wide(name):
            _check_not_binary_bytes(data, path, kind_name)
        text = _strict(data, path, name, "; is --encoding right for it?")
        text = text[1:] if text.startswith("\ufeff") else text
        _check_not_binary_text(text, path, kind_name, name)
        return Decoded(text=text, encoding=name, how="option")
    bom = bom_of(data)
    if bom is not None:
        mark, codec = bom
        text = _strict(data[len(mark):], path, codec, f" though it starts with a {codec.upper()} byte-order mark",
                       len(mark))
        _check_not_binary_text(text, path, kind_name, codec)
        return Decoded(text=text, encoding="utf-8-sig" if codec == "utf-8" else codec, how="bom")
    wide = _utf16_without_bom(data)
    if wide is not None:
        return wide
    _check_not_binary_bytes(data, path, kind_name)
    if kind == "html":
        declared = declared_charset(data)
        if declared is not None and not _wide(declared):  # a wide charset could not be declared in ASCII bytes
            try:
                return Decoded(text=data.decode(declared), encoding=declared, how="declared")
            except (UnicodeDecodeError, LookupError):  # LookupError: a codec that is not a text encoding
                pass  # the declaration is wrong: the bytes decide
    try:
        return Decoded(text=data.decode("utf-8"), encoding="utf-8", how="utf-8")
    except UnicodeDecodeError:
        pass
    got = _detect(data, path, kind_name)
    _check_not_binary_text(got.text, path, kind_name, got.encoding)
    return got
