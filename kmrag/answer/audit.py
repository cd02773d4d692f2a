"""The audit of an answer: each citation with the unit's full text, its source and version, section path,
the supporting span, and whether the unit still stands or was retired by a later ingestion (and which
current units of the same source replaced it: those holding the quoted words, best match first).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from kmrag.answer.support import support
from kmrag.errors import NotFound
from kmrag.graph.base import GraphStore
from kmrag.schema import Answer
from kmrag.units.store import PgUnitStore

REPLACEMENTS = 3


class CitationAudit(BaseModel):
    unit_id: str
    statements: list[int] = Field(description="the answer's statements (0-based) that cite it")
    quote: str
    start: int | None = None
    end: int | None = None
    kind: str = "sentence"
    found: bool = True
    type: str = ""
    title: str = ""
    section_path: list[str] = Field(default_factory=list)
    source_id: str = ""
    source_uri: str | None = None
    source_version: str = ""
    source_version_now: str | None = None
    content: str = ""
    quote_in_unit: bool = False
    status: str = "current"  # current | retired | missing
    retired_at: str | None = None
    replaced_by: list[dict[str, Any]] = Field(default_factory=list)


class AnswerAudit(BaseModel):
    answer: Answer
    citations: list[CitationAudit]
    graph_cites: list[str] = Field(default_factory=list, description="units the (:Answer) node CITES now")
    browser: dict[str, Any] = Field(default_factory=dict)

    @property
    def all_current(self) -> bool:
        return all(c.status == "current" for c in self.citations)


EVIDENCE_QUERY = ("MATCH (a:Answer {tenant: $tenant, id: $answer_id})-[c:CITES]->(u:Unit) "
                  "OPTIONAL MATCH (u)-[p:PART_OF]->(s:Source) OPTIONAL MATCH (u)-[m:MENTIONS]->(e:Entity) "
                  "RETURN a, c, u, p, s, m, e")


def _cypher_string(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def browser_query(tenant: str, answer_id: str) -> dict[str, Any]:
    """The Neo4j Browser query that shows an answer's evidence subgraph; values go in as parameters.
    ``one_statement``: the same query with the two values bound by a leading WITH, for a link that opens
    Neo4j Browser with it in the editor (a link fills the editor once, and Browser shows a multi-statement
    run (``:param …; MATCH …``) as summaries only, not as the graph)."""
    bound = EVIDENCE_QUERY.replace("$tenant", "tenant").replace("$answer_id", "answer_id")
    return {
        "params": f":param {{tenant: {tenant!r}, answer_id: {answer_id!r}}}",
        "query": EVIDENCE_QUERY,
        "one_statement": f"WITH {_cypher_string(tenant)} AS tenant, {_cypher_string(answer_id)} AS answer_id {bound}",
    }


def audit(units: PgUnitStore, graph: GraphStore, tenant: str, answer_id: str) -> AnswerAudit:
    answer = units.get_answer(tenant, answer_id)
    if answer is None:
        raise NotFound(f"no answer {answer_id!r} in tenant {tenant!r}: `kmrag answers` lists the stored ones")
    ids = list(dict.fromkeys(c.unit_id for c in answer.citations))
    stored = {u.id: u for u in units.get_units(tenant, ids, include_retired=True)}
    history = units.unit_history(tenant, ids)
    by_statement: dict[str, list[int]] = {}
    for i, s in enumerate(answer.statements):
        for uid in s.unit_ids:
            by_statement.setdefault(uid, []).append(i)
    out = []
    for c in answer.citations:
        unit = stored.get(c.unit_id)
        if unit is None:
            out.append(CitationAudit(unit_id=c.unit_id, statements=by_statement.get(c.unit_id, []), quote=c.quote,
                                     start=c.start, end=c.end, kind=c.kind, found=False, status="missing",
                                     source_id=c.source_id))
            continue
        u = unit
        h = history.get(u.id, {})
        entry = CitationAudit(
            unit_id=u.id, statements=by_statement.get(u.id, []), quote=c.quote, start=c.start, end=c.end, kind=c.kind,
            type=u.type, title=u.title, section_path=u.section_path, source_id=u.source_id,
            source_uri=h.get("source_uri"), source_version=u.source_version, source_version_now=h.get("source_version_now"),
            content=u.content, quote_in_unit=c.start is not None and u.content[c.start:c.end] == c.quote,
            status="retired" if u.retired else "current",
            retired_at=h["retired_at"].isoformat() if h.get("retired_at") else None)
        if u.retired:
            entry.replaced_by = _replacements(units, tenant, u.source_id, c.quote)
        out.append(entry)
    try:
        cites = graph.answer_citations(tenant, answer_id)
    except Exception:  # noqa: BLE001 - the audit stands on PostgreSQL; the graph view is a convenience
        cites = []
    return AnswerAudit(answer=answer, citations=out, graph_cites=cites, browser=browser_query(tenant, answer_id))


def _replacements(units: PgUnitStore, tenant: str, source_id: str, quote: str) -> list[dict[str, Any]]:
    """The current units of the same source that say most of what the retired quote said."""
    cands = []
    for u in units.source_units(tenant, source_id):
        if getattr(u, "retired", False) or u.type == "section":
            continue
        sup = support(quote, [u.content])
        cands.append((sup.coverage, u))
    cands.sort(key=lambda x: (-x[0], x[1].ordinal))
    return [{"unit_id": u.id, "coverage": cov, "holds_quote": quote in u.content,
             "snippet": " ".join(u.content.split())[:240]} for cov, u in cands[:REPLACEMENTS] if cov > 0]
