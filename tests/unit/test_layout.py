"""The import arrows of DESIGN.md (Layout), checked on the source: data flows one way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

PKG = Path(__file__).resolve().parents[2] / "kmrag"

# package -> the kmrag packages/modules it may import (besides itself); TYPE_CHECKING-only imports are free
ALLOWED = {
    "schema": {"errors"},
    "nlp": {"schema", "errors"},
    "units": {"schema", "errors"},
    "graph": {"schema", "errors"},
    "retrieval": {"schema", "errors", "nlp", "units", "graph", "stores", "config"},
    "ingestion": {"schema", "errors", "nlp", "units", "graph", "stores", "config"},
}


def kmrag_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only |= {id(n) for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else []
        out |= {n.split(".")[1] for n in names if n.startswith("kmrag.")}
    return out


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_follow_the_design(package: str) -> None:
    bad = {}
    for f in sorted((PKG / package).rglob("*.py")):
        extra = kmrag_imports(f) - ALLOWED[package] - {package}
        if extra:
            bad[str(f.relative_to(PKG))] = sorted(extra)
    assert bad == {}


def test_only_the_faces_and_eval_import_ingestion() -> None:
    users = {str(f.relative_to(PKG)) for f in PKG.rglob("*.py")
             if "ingestion" in kmrag_imports(f) and "ingestion" not in f.relative_to(PKG).parts}
    # server/: the HTTP face (DESIGN.md names it api/)
    assert all(u.startswith(("cli.py", "eval/", "api/", "server/", "demo/")) for u in users), users
