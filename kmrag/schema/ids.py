"""Stable, short, citeable IDs.

An ID depends only on what it names (tenant, source, normalised content, occurrence), never on
ingestion order, time or randomness, so re-ingesting unchanged content yields the same IDs.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid

ID_HEX = 16  # 64 bits: collisions are negligible per tenant, and `[u_0123456789abcdef]` stays citeable

_WS = re.compile(r"\s+")
_SEP = "\x1f"  # unit separator: cannot appear in normalised text, so fields never run together


def normalise_content(text: str) -> str:
    """Unicode NFKC, whitespace runs collapsed to one space, trimmed. Case is kept: it is content."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip()


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"[^\S\n]+")


def unit_text(text: str, code: bool = False) -> str:
    """The one text a unit is stored with, in every store: the source's characters as written
    (no compatibility folding), control characters removed, runs of spaces collapsed, line breaks
    kept only where they carry structure (tables, lists, code), blank lines dropped, trimmed. Code
    keeps its lines as written (indentation and spacing are its syntax), only trailing space and
    the blank lines around it dropped."""
    text = _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    if code:
        return "\n".join(ln.rstrip() for ln in text.expandtabs(4).split("\n")).strip("\n")
    lines = [ln.strip() for ln in _SPACES.sub(" ", text).split("\n")]
    return "\n".join(ln for ln in lines if ln)


def _digest(*parts: str) -> str:
    h = hashlib.sha256(_SEP.join(parts).encode("utf-8"))
    return h.hexdigest()[:ID_HEX]


def unit_id(tenant: str, source_id: str, content: str, occurrence: int = 0) -> str:
    """`u_` + 16 hex of sha256(tenant, source_id, normalised content, occurrence index).

    ``occurrence`` is the index of this exact (normalised) content among identical units of the
    same source, so two identical paragraphs in one source get different IDs.
    """
    if occurrence < 0:
        raise ValueError("occurrence must be >= 0")
    return "u_" + _digest("unit", tenant, source_id, normalise_content(content), str(occurrence))


def canonical_entity_name(name: str) -> str:
    return normalise_content(name).casefold()


def entity_id(tenant: str, canonical_name: str, coarse_type: str) -> str:
    """`e_` + 16 hex of sha256(tenant, case-folded canonical name, coarse type)."""
    return "e_" + _digest("entity", tenant, canonical_entity_name(canonical_name), coarse_type.upper())


def relation_id(tenant: str, subject_id: str, rel_type: str, object_id: str) -> str:
    return "r_" + _digest("relation", tenant, subject_id, rel_type, object_id)


def content_hash(data: bytes | str) -> str:
    """Full sha256 of a source's bytes: its version."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def answer_id() -> str:
    """Answers are events, not content: a random ID is right for them."""
    return "a_" + uuid.uuid4().hex[:ID_HEX]


UNIT_ID_RE = re.compile(r"^u_[0-9a-f]{16}$")
