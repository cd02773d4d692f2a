"""No query text is built from values: every Cypher/SQL value travels as a parameter.

An AST scan of kmrag/**/*.py finds

- *sinks*: ``x.execute(q)``, ``x.executemany(q)``, ``x.run(q)`` (psycopg connections and cursors, Neo4j
  sessions and transactions) whose query argument is built at run time: an f-string with values, ``%``
  formatting, ``.format()``, ``+`` with a non-literal, ``str.join``, or a local name assigned any of these;
- *builders*: such a built string anywhere whose literal text holds a Cypher/SQL keyword (MATCH, MERGE,
  SELECT, INSERT, UPDATE, DELETE, ...), e.g. a query function returning an f-string; and ``.format()`` of a
  template that is no literal (read from a .sql/.cypher file) in a module that runs queries or reads such files.

Every place found must be in :data:`ALLOWED` (file::function -> why what is interpolated is no value:
module constants, identifiers that passed the sanitiser, closed sets of kinds, integers checked in
range). A new place fails the test until it is rewritten with parameters or allowed with a reason; an
allowed place that no longer builds query text fails it too, so the list stays true.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
SINKS = {"execute", "executemany", "run"}
KEYWORDS = re.compile(r"\b(MATCH|MERGE|SELECT|INSERT|UPDATE|DELETE|DETACH|CREATE|DROP|ALTER|UNWIND|RETURN|WHERE|"
                      r"CALL|FROM|SET|REMOVE|WITH|ORDER BY|LIMIT)\b")

CONSTANT_COLUMNS = "a column list that is a module constant"
ALLOWED: dict[str, str] = {
    "kmrag/units/answers.py::AnswerRecords.get_answer": CONSTANT_COLUMNS + " (_COLUMNS)",
    "kmrag/units/answers.py::AnswerRecords.list_answers": CONSTANT_COLUMNS + " (_COLUMNS)",
    "kmrag/units/jobs.py::JobStore.get": CONSTANT_COLUMNS + " (JOB_COLUMNS)",
    "kmrag/units/jobs.py::JobStore.list": CONSTANT_COLUMNS + " (JOB_COLUMNS)",
    "kmrag/units/store.py::PgUnitStore.source_units": CONSTANT_COLUMNS + " (UNIT_COLUMNS)",
    "kmrag/units/store.py::PgUnitStore.get_units": CONSTANT_COLUMNS + " (UNIT_COLUMNS)",
    "kmrag/units/store.py::PgUnitStore.clear_tenant": "table names from the module constant TENANT_TABLES",
    "kmrag/units/store.py::PgUnitStore.tenant_rows": "table names from the module constant TENANT_TABLES",
    "kmrag/units/store.py::PgUnitStore.init_schema": "the generated tsvector expression TSV_EXPR, a module constant",
    "kmrag/units/bm25.py::<module>": "the BM25 statements assembled from module constants (K1, B, REF_LEN, "
                                     "impact_sql of column names)",
    "kmrag/units/bm25.py::add": "a WHERE fragment chosen from the module's constant selectors (_WHERE)",
    "kmrag/units/bm25.py::remove": "a WHERE fragment chosen from the module's constant selectors (_WHERE)",
    "kmrag/units/bm25.py::recount": "module-constant statements and impact_sql of literal column names",
    "kmrag/units/search.py::UnitSearch.fulltext_search": "score expressions of module constants (impact_sql)",
    "kmrag/units/search.py::UnitSearch.fulltext_search_exhaustive": "score expressions of module constants",
    "kmrag/units/embedders.py::TenantEmbedders.begin_reembed": "table and key-column names from the module constant TARGETS, chosen by a closed set of kinds",
    "kmrag/units/embedders.py::TenantEmbedders.reembed_page": "table and key-column names from the module constant TARGETS, chosen by a closed set of kinds",
    "kmrag/units/embedders.py::TenantEmbedders.reembed_hashes": "table and key-column names from the module constant TARGETS, chosen by a closed set of kinds",
    "kmrag/units/embedders.py::TenantEmbedders.write_reembed": "table and key-column names from the module constant TARGETS, chosen by a closed set of kinds",
    "kmrag/units/embedders.py::TenantEmbedders.reembed_counts": "table and key-column names from the module constant TARGETS, chosen by a closed set of kinds",
    "kmrag/units/embedders.py::TenantEmbedders.switch_reembed": "table and key-column names from the module constant TARGETS, chosen by a closed set of kinds",
    "kmrag/schema/ddl.py::postgres_statements": "DDL with {dim}: an int checked in 1..16000, and TSV_EXPR",
    "kmrag/graph/neo4j_queries.py::merge_unit_links": "a relationship type from the closed UnitLinkKind set",
    "kmrag/graph/neo4j_queries.py::merge_mentions": "a relationship type from the closed MentionKind set",
    "kmrag/graph/neo4j_queries.py::move_mentions": "a relationship type from the closed MentionKind set",
    "kmrag/graph/neo4j_queries.py::entity_hops": "fragments chosen by two booleans, all module constants",
    "kmrag/graph/neo4j_queries.py::merge_entities": "_ALIASES_TEXT, a module-constant Cypher expression",
    "kmrag/graph/neo4j_queries.py::remove_entity_alias": "_ALIASES_TEXT, a module-constant Cypher expression",
    "kmrag/graph/neo4j_queries.py::absorb_entity": "_ALIASES_TEXT, a module-constant Cypher expression",
    "kmrag/cli.py::cmd_ingest": "a Neo4j Browser hint printed for a person, never run; the tenant passed "
                                "check_tenant and is given as a :param",
    "kmrag/answer/audit.py::browser_query": "text for Neo4j Browser's editor (a link a person opens), never run "
                                            "by kmrag; the tenant passed check_tenant, the answer id is a_<hex>, "
                                            "both quoted and escaped as Cypher string literals",
}


@dataclass(frozen=True)
class Finding:
    path: str
    function: str
    line: int
    kind: str  # sink | builder

    @property
    def key(self) -> str:
        return f"{self.path}::{self.function}"


def _literal_text(node: ast.AST) -> str:
    """The literal parts of a string expression (what the query would say around the values)."""
    parts = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            parts.append(sub.value)
    return " ".join(parts)


def _is_str_const(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _built(node: ast.AST) -> bool:
    """Is this expression a string assembled at run time from something other than literals?"""
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_str_const(node.left) or isinstance(node.left, ast.JoinedStr | ast.BinOp)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        strings = [n for n in (node.left, node.right) if _is_str_const(n) or isinstance(n, ast.JoinedStr | ast.BinOp)]
        return bool(strings) and not (_is_str_const(node.left) and _is_str_const(node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"):
        return True
    return False


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str, queries: bool = False) -> None:
        self.path = path
        self.queries = queries  # the module runs queries or reads query files: a template's .format is a builder
        self.scope: list[str] = []
        self.assigned: list[dict[str, list[ast.AST]]] = [{}]
        self.findings: list[Finding] = []

    def _name(self) -> str:
        return ".".join(self.scope) or "<module>"

    def _enter(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.scope.append(node.name)
        if not isinstance(node, ast.ClassDef):
            assigned: dict[str, list[ast.AST]] = {}
            for sub in ast.walk(node):
                targets = sub.targets if isinstance(sub, ast.Assign) else \
                    [sub.target] if isinstance(sub, ast.AnnAssign | ast.AugAssign) and sub.value is not None else []
                for t in targets:
                    if isinstance(t, ast.Name):
                        value = sub.value if not isinstance(sub, ast.AugAssign) else ast.BinOp(
                            left=ast.Constant(""), op=sub.op, right=sub.value)
                        assigned.setdefault(t.id, []).append(value)  # type: ignore[arg-type]
            self.assigned.append(assigned)
        self.generic_visit(node)
        if not isinstance(node, ast.ClassDef):
            self.assigned.pop()
        self.scope.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _enter  # noqa: N815

    def _dynamic(self, node: ast.AST, seen: frozenset[str] = frozenset()) -> bool:
        if _built(node):
            return True
        if isinstance(node, ast.IfExp):
            return self._dynamic(node.body, seen) or self._dynamic(node.orelse, seen)
        if isinstance(node, ast.Name) and node.id not in seen:
            return any(self._dynamic(v, seen | {node.id}) for v in self.assigned[-1].get(node.id, []))
        return False

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Attribute) and node.func.attr in SINKS:
            query = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "query"), None)
            if query is not None and self._dynamic(query):
                self.findings.append(Finding(self.path, self._name(), node.lineno, "sink"))
        self.generic_visit(node)

    def generic_visit(self, node: ast.AST) -> None:
        template = (self.queries and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "format" and not _is_str_const(node.func.value))
        if isinstance(node, ast.expr) and _built(node) and (template or KEYWORDS.search(_literal_text(node))):
            self.findings.append(Finding(self.path, self._name(), node.lineno, "builder"))
            return  # the whole built string is one finding
        super().generic_visit(node)


def _runs_queries(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SINKS:
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith((".sql", ".cypher")):
            return True
    return False


def scan_source(source: str, path: str) -> list[Finding]:
    tree = ast.parse(source)
    scanner = _Scanner(path, _runs_queries(tree))
    scanner.visit(tree)
    return scanner.findings


def scan_package() -> list[Finding]:
    out = []
    for file in sorted((ROOT / "kmrag").rglob("*.py")):
        out += scan_source(file.read_text(encoding="utf-8"), file.relative_to(ROOT).as_posix())
    return out


def test_no_query_is_built_from_values_outside_the_allowlist() -> None:
    findings = scan_package()
    new = sorted({f"{f.key} (line {f.line}, {f.kind})" for f in findings if f.key not in ALLOWED})
    assert not new, ("query text built at run time; pass values as parameters, or add file::function to ALLOWED "
                     "with the reason what is interpolated is no value:\n  " + "\n  ".join(new))
    stale = sorted(set(ALLOWED) - {f.key for f in findings})
    assert not stale, f"ALLOWED names places that build no query text any more: {stale}"


HOSTILE = {
    "f-string into session.run": 'def f(session, name):\n    session.run(f"MATCH (n {{name: \'{name}\'}}) RETURN n")\n',
    "f-string into tx.run, via a variable": (
        "def f(tx, name):\n    q = f\"MATCH (n) WHERE n.name = '{name}' RETURN n\"\n    tx.run(q)\n"),
    "% into cursor.execute": "def f(cur, a):\n    cur.execute(\"SELECT * FROM t WHERE a = '%s'\" % a)\n",
    "+ into conn.execute": "def f(conn, a):\n    conn.execute(\"DELETE FROM kmrag_units WHERE id = '\" + a + \"'\")\n",
    ".format into executemany": "def f(cur, t, rows):\n    cur.executemany('INSERT INTO {} VALUES (%s)'.format(t), rows)\n",
    "+= build-up": "def f(conn, a):\n    q = 'SELECT 1'\n    q += ' WHERE x = ' + a\n    conn.execute(q)\n",
    "query builder returning an f-string": "def q(label):\n    return f'MATCH (n:{label}) DETACH DELETE n'\n",
    "keyword argument": "def f(s, n):\n    s.run(query=f'MERGE (x {{id: {n}}})')\n",
    "a template file formatted": ("def f(name):\n    t = open('q.sql').read()\n"
                                  "    return t.format(name=name)\n"),
}
SAFE = {
    "parameters": "def f(session, name):\n    session.run('MATCH (n {name: $name}) RETURN n', name=name)\n",
    "psycopg placeholders": "def f(conn, a):\n    conn.execute('SELECT * FROM t WHERE a = %s', (a,))\n",
    "constant from a function": "def f(tx, q):\n    tx.run(q.merge_units(), rows=[])\n",
    "a message, not a query": "def f(name):\n    raise ValueError(f'no entity named {name!r}')\n",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_scanner_catches_queries_built_from_values(name: str) -> None:
    found = scan_source(HOSTILE[name], "kmrag/snippet.py")
    assert found and all(f.key not in ALLOWED for f in found), name


@pytest.mark.parametrize("name", sorted(SAFE))
def test_the_scanner_leaves_parameterised_queries_alone(name: str) -> None:
    assert scan_source(SAFE[name], "kmrag/snippet.py") == [], name
