"""How answers and audits read on a terminal (the CLI's faces; `--json` gives the models instead)."""

from __future__ import annotations

import textwrap
from typing import Any

from kmrag.answer.audit import AnswerAudit, browser_query
from kmrag.schema import Answer

WIDTH = 100


def _wrap(text: str, indent: str) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), WIDTH, initial_indent=indent, subsequent_indent=indent) or [indent]


def _where(source_id: str, section_path: list[str] | None = None) -> str:
    return " › ".join([source_id.rsplit("/", 1)[-1], *(section_path or [])])


def answer_text(answer: Answer, ms: float | None = None, browser: bool = False,
                units: dict[str, Any] | None = None, saved: bool = True) -> str:
    """The answer for a person to read; ``saved``: whether it was stored (only a stored answer can be audited)."""
    lines = [f"Q: {answer.question}"]
    if not answer.found:
        lines.append(answer.text)
        if answer.evidence:
            lines.append("Best evidence found (not an answer):")
            for s in answer.evidence:
                lines += _wrap(f"{s.text} " + " ".join(f"[{u}]" for u in s.unit_ids), "  ")
    else:
        if answer.direct:
            lines.append(f"Answer: {answer.direct}")
            computed = basis_text(answer.basis)
            if computed:
                lines += _wrap(computed, "  ")
        for s in answer.statements:
            lines += _wrap(f"{s.text} " + " ".join(f"[{u}]" for u in s.unit_ids), "  ")
        lines.append("Citations:")
        for c in answer.citations:
            u = (units or {}).get(c.unit_id)
            where = _where(c.source_id, u.section_path if u is not None else None)
            kind = " (table row)" if c.kind == "row" else ""
            lines.append(f"  [{c.unit_id}] {where}{kind}")
            lines += _wrap(f"“{c.quote}”", "      ")
    sure = round(answer.confidence, 2)  # one number for both lines ("0.03" beside "2%" read as two)
    meta = (f"answer {answer.id if saved else '(not stored)'}  ({answer.generator}, {answer.strategy}, "
            f"confidence {sure:.2f}")
    lines.append(meta + (f", {ms:.0f} ms)" if ms is not None else ")"))
    if answer.confidence_why:
        lines.append(f"how sure: {round(sure * 100)}% that it is right: {answer.confidence_why}")
    if not saved:
        lines.append("not stored (--no-save): this answer cannot be audited")
    elif answer.found:
        lines.append(f"audit it: kmrag audit {answer.id}" + (f" --tenant {answer.tenant}" if answer.tenant else ""))
        if browser:
            b = browser_query(answer.tenant, answer.id)
            lines += ["its evidence in Neo4j Browser (set the parameters, then run the query):",
                      f"  {b['params']}", f"  {b['query']}"]
    return "\n".join(lines)


COMPUTED = {"band", "comparison", "yes_no"}
QUOTE_CHARS = 80


def _value(v: Any) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def basis_text(basis: dict[str, Any] | None) -> str | None:
    """"computed: RULE; NAME: VALUE [u_…]; …" for a direct answer computed from cited values (a band lookup, a
    comparison, a yes / no over the compared entities); "along the graph: A -[p]-> B [u_…]; …" for one read off
    a relation path; None for one read from a span, or none."""
    if basis and basis.get("kind") == "path":
        return "along the graph: " + "; ".join(f"({h['subject']}) -[{h['predicate']}]-> ({h['object']}) [{h['unit_id']}]"
                                               for h in basis.get("hops") or [])
    if not basis or not (basis.get("kind") in COMPUTED or (basis.get("kind") == "cell" and basis.get("entities"))):
        return None  # (a cell of the row a column's most or least picks shows the column's values)
    parts = []
    for e in basis.get("entities") or []:
        cite = f"[{e['unit_id']}]" if e.get("unit_id") else ""
        if e.get("name"):
            said = e["name"] + (f": {_value(e['value'])}" if e.get("value") not in (None, "") else "")
        else:  # a band's span: what it says
            quote = " ".join(str(e.get("quote") or "").split())
            said = f"“{quote if len(quote) <= QUOTE_CHARS else quote[:QUOTE_CHARS - 1] + '…'}”"
        parts.append(f"{said} {cite}".strip())
    rule = basis.get("rule") or basis["kind"]
    return "computed: " + "; ".join([rule, *parts])


def trace_text(trace: list[dict[str, Any]]) -> str:
    lines = ["trace:"]
    for s in trace:
        rest = ", ".join(f"{k}={v}" for k, v in s.items() if k not in {"step", "controller", "notes", "unit_ids", "context", "paths"})
        if s.get("paths"):
            rest += f", relation paths={len(s['paths'])}"
        lines.append(f"  - {s.get('step')}: {rest}")
        for c in s.get("controller", []):
            lines.append(f"      {c.get('step')}: {c.get('decision', '')}")
    return "\n".join(lines)


def audit_text(a: AnswerAudit, browser: bool = False) -> str:
    ans = a.answer
    lines = [f"answer {ans.id}  (tenant {ans.tenant!r}, {ans.created_at:%Y-%m-%d %H:%M:%S %Z}, {ans.generator}, "
             f"{ans.strategy}, confidence {ans.confidence:.2f})", f"Q: {ans.question}"]
    if ans.direct:
        lines.append(f"Answer: {ans.direct}")
        computed = basis_text(ans.basis)
        if computed:
            lines += _wrap(computed, "  ")
    lines += _wrap(ans.text, "  ")
    if not a.citations:
        lines.append("no citations: the answer was 'Information not found in knowledge map'")
    for i, c in enumerate(a.citations, start=1):
        state = {"current": "CURRENT", "retired": f"RETIRED {c.retired_at or ''}".strip(),
                 "missing": "MISSING (purged)"}[c.status]
        lines.append(f"[{i}] {c.unit_id}  {state}  cited by statement(s) {', '.join(str(s + 1) for s in c.statements)}")
        if c.status == "missing":
            lines.append(f"    the unit is no longer stored; the answer quoted: “{c.quote}”")
            continue
        lines.append(f"    source:  {c.source_uri or c.source_id}")
        version = c.source_version[:12]
        now = c.source_version_now
        lines.append(f"    version: {version}" + ("" if now is None or now == c.source_version
                                                   else f" (the source is now at {now[:12]})"))
        lines.append(f"    section: {' › '.join(c.section_path) or '(top)'}   type: {c.type}   title: {c.title}")
        span = f"{c.start}-{c.end}" if c.start is not None else "?"
        lines.append(f"    supporting {'row' if c.kind == 'row' else 'span'} [{span}]"
                     + ("" if c.quote_in_unit else " (NOT found in the unit as stored)") + ":")
        lines += _wrap(f"“{c.quote}”", "      ")
        lines.append("    unit text:")
        lines += [f"      {line}" for line in c.content.splitlines()]
        if c.status == "retired":
            if c.replaced_by:
                lines.append("    replaced by (current units of the same source, best match first):")
                for r in c.replaced_by:
                    lines.append(f"      {r['unit_id']}  {r['coverage']:.0%} of the quote"
                                 + ("  (holds it verbatim)" if r["holds_quote"] else ""))
                    lines += _wrap(r["snippet"], "        ")
            else:
                lines.append("    replaced by: nothing in the current version of the source says it")
    current = sorted({c.unit_id for c in a.citations if c.status == "current"})
    if current and sorted(a.graph_cites) != current:
        lines.append(f"graph view: the (:Answer) node CITES {len(a.graph_cites)} of the {len(current)} current units "
                     "(its write to the graph failed or the graph was rebuilt; PostgreSQL holds the record above)")
    if browser:
        lines += ["evidence in Neo4j Browser (retired units have left the graph):",
                  f"  {a.browser['params']}", f"  {a.browser['query']}"]
    return "\n".join(lines)


def answers_text(answers: list[Answer]) -> str:
    if not answers:
        return "no answers yet: kmrag ask \"…\""
    return "\n".join(f"{a.id}  {a.created_at:%Y-%m-%d %H:%M}  {len(a.citations)} citation(s)  "
                     f"{(a.direct or ('-' if a.found else 'not found'))[:30]:<30}  {a.question[:70]}" for a in answers)
