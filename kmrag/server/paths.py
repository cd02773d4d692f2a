"""Where the server may read and write files: uploaded names made safe, and paths kept under the ingest root."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from kmrag.errors import KmragError

MAX_NAME = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


class OutsideRoot(KmragError):
    """A path the server was asked to read lies outside KMRAG_SERVER_INGEST_ROOT (the API answers 403)."""


def safe_filename(name: str | None, taken: Iterable[str] = ()) -> str:
    """An uploaded file's name reduced to its last part, in letters, digits and ``. _ -`` (spaces kept),
    without a leading dot, at most 120 characters with its extension kept, and distinct from ``taken``
    (``name-2.md``)."""
    base = re.split(r"[/\\]", name or "")[-1]
    base = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode("ascii")
    base = _UNSAFE.sub("_", base).strip(" .")
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    ext = ext[:16]
    stem = stem[: MAX_NAME - len(ext) - 1].strip(" .") or "upload"
    out = f"{stem}.{ext}" if ext else stem
    seen = set(taken)
    n = 1
    while out in seen:
        n += 1
        out = f"{stem}-{n}.{ext}" if ext else f"{stem}-{n}"
    return out


SERVER_ROOT = "the folder this server may read (KMRAG_SERVER_INGEST_ROOT)"
KEY_ROOT = "the folder this key may read (its ingest root, `kmrag keys create --ingest-root`)"


def resolve_under(root: Path | None, path: str, what: str = SERVER_ROOT) -> Path:
    """``path`` (absolute, or relative to ``root``), resolved with its symlinks, if it lies under ``root``
    (``what`` names it in the error); else OutsideRoot. No root: path ingestion is off."""
    if root is None:
        raise OutsideRoot("the server reads no paths: set KMRAG_SERVER_INGEST_ROOT to the folder it may ingest "
                          "from, or upload the files (multipart/form-data)")
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise OutsideRoot(f"not a path: {path!r}")
    root = root.expanduser().resolve()
    p = Path(path).expanduser()
    resolved = (p if p.is_absolute() else root / p).resolve()
    if resolved != root and not resolved.is_relative_to(root):
        raise OutsideRoot(f"{path}: outside {what}")
    return resolved
