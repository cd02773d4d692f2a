"""kmrag command line: init | doctor | demo | ingest | jobs | delete | entities | ask | audit | answers | support |
eval | bench | serve | keys | services."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from kmrag.config import DEFAULT_MAX_BYTES, Settings, load_settings
from kmrag.errors import BadInput, ConfigError, KmragError, NotFound
from kmrag.schema.redact import redact, redact_data
from kmrag.schema.sanitize import TENANT_RE, valid_tenant

Failure = tuple[str, str]  # (type, message) for the --json envelope of a command that exits non-zero


def _emit(args: argparse.Namespace, data: Any, human: Callable[[Any], str], failure: Failure | None = None) -> None:
    """Hand the command's result to ``main``, which prints it once the exit status is known: with
    ``--json`` the envelope ``{"ok", "command", "data"[, "error"]}``, else ``human(data)``. ``failure``
    names what went wrong when the command then exits non-zero (a source not found, a job that failed)."""
    args._result = (data, human, failure)


def command_name(args: argparse.Namespace) -> str:
    """The command as a person types it: ``ingest``, ``entities search``, ``jobs show``, ``eval diff``."""
    cmd = str(getattr(args, "command", "") or "")
    action = {"jobs": "action", "entities": "action", "units": "action", "bench": "what", "services": "action",
              "keys": "action", "support": "action"}.get(cmd)
    if action and getattr(args, action, None):
        return f"{cmd} {getattr(args, action)}"
    if cmd == "eval" and getattr(args, "target", None) and args.target[0] in ("diff", "kg"):
        return f"eval {args.target[0]}"
    return cmd


def envelope(command: str, exit_code: int, data: Any = None, error: dict[str, Any] | None = None,
             has_data: bool = True) -> dict[str, Any]:
    """The one shape of every ``--json`` output: ``ok`` (exit status 0), ``command``, ``data`` (what the
    command found or did; absent when it raised before producing any) and, when not ok, ``error``
    (``type``, ``message``, ``exit_code`` and, for an internal error, ``at``)."""
    out: dict[str, Any] = {"ok": exit_code == 0 and error is None, "command": command}
    if has_data:
        out["data"] = data
    if error is not None or exit_code != 0:
        out["error"] = {"type": "Failed", "message": f"exit status {exit_code}", **(error or {}),
                        "exit_code": exit_code}
    return out


def _print_json(obj: Any) -> None:
    # known passwords and keys never reach the output (document text is shown as written otherwise)
    print(json.dumps(redact_data(json.loads(json.dumps(obj, default=str))), indent=2, ensure_ascii=False))


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(tenant=getattr(args, "tenant", None))


def cmd_init(args: argparse.Namespace) -> int:
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        data = {"graph": stores.graph.server_info(), "postgres": stores.units.server_info(),
                "schema": stores.units.schema_status()}
    _emit(args, data, lambda d: "schema ready\n" + f"  graph:    {d['graph']}\n  postgres: {d['postgres']}")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from kmrag.doctor import run_doctor

    report = run_doctor(_settings(args), verify=args.verify)

    def human(r: Any) -> str:
        lines = []
        for c in report.checks:
            if c.name == "local models":
                lines.append(f"[{'ok' if c.ok else 'FAIL'}] {c.name} (sha256 "
                             f"{'verified' if c.detail['verified'] else 'as last verified; --verify to hash'}):")
                lines += [_model_line(m) for m in c.detail["models"]]
                if c.fix:
                    lines.append(f"       fix: {c.fix}")
                continue
            lines.append(f"[{'ok' if c.ok else 'FAIL'}] {c.name}: " + ", ".join(f"{k}={v}" for k, v in c.detail.items()))
            if c.fix:
                lines.append(f"       fix: {c.fix}")
        lines.append("all good" if report.ok else "problems found")
        return "\n".join(lines)

    failed = [c.name for c in report.checks if not c.ok]
    _emit(args, report.model_dump(), human, ("ChecksFailed", "failed checks: " + ", ".join(failed)))
    return 0 if report.ok else 1


def _model_line(m: dict[str, Any]) -> str:
    """One model of `kmrag doctor`'s table: installed or not, its files, size, and the pins' verdict."""
    files = [f for f in m["files"] if f.get("installed", True)]
    pins = {str(f.get("pin", "")).split(";")[0].split(":")[0] for f in files}
    state = m["installed"] if m["installed"] != "yes" else f"{len(files)} file(s), {m['bytes'] / 1e6:,.1f} MB"
    line = f"       {m['model']}: {state}"
    if files:
        line += f"; pins: {', '.join(sorted(pins))}"
    if m.get("assembled") and any(str(f["file"]).startswith("assembled") for f in files):
        line += f"; assembled {m['assembled']['file']}"
    if files and len(files) == 1:
        line += f"; sha256 {files[0].get('sha256')}"
    if m.get("problems"):
        line += f"; PROBLEM: {m['problems'][0]}"
    return line


def cmd_services(args: argparse.Namespace) -> int:
    from kmrag.units.embedded_pg import stop_embedded

    settings = _settings(args)
    stopped = stop_embedded(settings.data_dir)
    _emit(args, {"stopped": stopped}, lambda d: "embedded PostgreSQL stopped" if stopped else "nothing was running")
    return 0


def _job_text(j: Any) -> str:
    """One job for a person: what it read, what it did per stage, how long, and each file that failed."""
    lines = [_job_line(j), f"inputs: {', '.join(j.inputs)}"]
    counts = {k: v for k, v in sorted(j.counts.items()) if v}
    lines.append("counts: " + (", ".join(f"{k}={v}" for k, v in counts.items()) or "none"))
    times = {k: v for k, v in j.timings.items() if isinstance(v, int | float) and v}
    if times:
        lines.append("seconds: " + ", ".join(f"{k}={v:.1f}" for k, v in times.items()))
    lines.append(f"errors ({len(j.errors)}):" if j.errors else "errors: none")
    lines += [f"  {e.path}: {e.reason}" for e in j.errors]
    if j.skipped:
        lines.append(f"skipped ({len(j.skipped)}): {_skip_summary(j.skipped)}")
        lines += [f"  {e.path}: {e.reason}" for e in j.skipped]
    return "\n".join(lines)


SKIP_KINDS = ("hidden", "unsupported type", "broken symlink", "symlink loop", "symlink to a folder already read",
              "cannot list the folder", "not a regular file", "cannot read")


def _skip_summary(skipped: Sequence[Any]) -> str:
    """``3 hidden, 2 unsupported type, 1 symlink loop``: the kinds of paths passed over, most first."""
    from collections import Counter

    kinds = Counter(next((k for k in SKIP_KINDS if e.reason.startswith(k)), "other") for e in skipped)
    return ", ".join(f"{n} {k}" for k, n in kinds.most_common())


def _job_line(j: Any) -> str:
    c = j.counts
    more = "".join(f" {k}={c[f'documents_{k}']}" for k in ("resumed", "rebuilt", "removed") if c.get(f"documents_{k}"))
    return (f"{j.id}  {j.status:<22} docs new={c.get('documents_new', 0)} updated={c.get('documents_updated', 0)} "
            f"unchanged={c.get('documents_unchanged', 0)} failed={c.get('documents_failed', 0)}{more}"
            f"{f' skipped={n}' if (n := c.get('paths_skipped')) else ''}  "
            f"units written={c.get('units_written', 0)} retired={c.get('units_retired', 0)}  "
            f"{j.timings.get('total', 0):.1f}s  {', '.join(j.inputs)[:60]}")


def cmd_ingest(args: argparse.Namespace) -> int:
    from kmrag.ingestion.pipeline import ingest
    from kmrag.ingestion.sources import SourceOptions, check_options
    from kmrag.stores import open_stores

    settings = _settings(args)
    if getattr(args, "source_base", None) and args.source_prefix:
        raise ConfigError("choose one of --source-base and --source-prefix: both name the sources")
    opts = SourceOptions(max_bytes=args.max_bytes, encoding=args.encoding, title_field=args.title_field,
                         text_field=args.text_field, source_prefix=args.source_prefix,
                         source_base=getattr(args, "source_base", None), prune=getattr(args, "prune", False))
    check_options(args.paths, opts)
    engine_name = getattr(args, "engine", "local")  # `kmrag demo` ingests with the defaults
    if engine_name != "ray" and (getattr(args, "ray_address", None) or getattr(args, "workers", None)):
        raise ConfigError("--ray-address and --workers go with --engine ray")
    engine: Any = None
    with open_stores(settings) as stores:
        stores.init_schema()
        try:
            if engine_name == "ray":
                from kmrag.ingestion.ray_engine import RayEngine

                engine = RayEngine(settings, _one_workers(args.workers), args.ray_address)
            result = ingest(stores, args.paths, settings.tenant, opts, progress=None if not args.json else False,
                            force=getattr(args, "force", False), lock_wait_s=args.lock_wait, engine=engine)
        finally:
            if engine is not None:
                engine.close()
        job = result.job
        summary: dict[str, Any] = {"job": job.model_dump(mode="json"), "agreement": result.agreement,
                   "graph": stores.graph.counts(settings.tenant).model_dump(),
                   "units": stores.units.counts(settings.tenant)}
        if engine is not None:
            summary["engine"] = engine.describe()
        note = _language_note(stores, settings.tenant, summary["units"].get("units_by_language", {}))
        if note:
            summary["note"] = note
        if getattr(args, "show_relations", 0):
            names = {e.id: e.name for e in stores.graph.all_entities(settings.tenant)}
            rels = sorted(stores.graph.relations(settings.tenant), key=lambda r: -r.confidence)
            summary["sample_relations"] = [
                f"({names.get(r.subject_id, r.subject_id)}) -[{r.type}]-> ({names.get(r.object_id, r.object_id)})  "
                f"from {', '.join(r.unit_ids)}" for r in rels[: args.show_relations]]
        if stores.graph.backend == "neo4j":
            summary["browse"] = (f"Neo4j Browser: :param {{tenant: {settings.tenant!r}}}\n  MATCH (s:Source {{tenant: $tenant}})"
                                 "<-[:PART_OF]-(u:Unit)-[:MENTIONS]->(e:Entity) RETURN s, u, e LIMIT 100")
        demo_question = getattr(args, "demo_question", None)
        if demo_question and job.status in ("completed", "completed_with_errors"):
            summary["demo"] = _demo_answer(stores, settings, demo_question)

    def human(d: Any) -> str:
        lines = [_job_line(job)]
        for e in job.errors[:50]:
            lines.append(f"  error: {e.path}: {e.reason}")
        if len(job.errors) > 50:
            lines.append(f"  ... {len(job.errors) - 50} more errors: kmrag jobs show {job.id}")
        if job.skipped:
            lines.append(f"  skipped {len(job.skipped)} paths: {_skip_summary(job.skipped)}")
        for e in job.skipped[:20]:
            lines.append(f"  skipped: {e.path}: {e.reason}")
        if len(job.skipped) > 20:
            lines.append(f"  ... {len(job.skipped) - 20} more skipped: kmrag jobs show {job.id}")
        g = d["graph"]
        lines.append(f"stored for tenant {settings.tenant!r}: {d['units']['units']} units "
                     f"{d['units']['units_by_type']}, {g['entities']} entities, {g['relations']} relations, "
                     f"{g['sources']} sources; stores agree: {d['agreement'].get('tenant_agrees')}"
                     + ("" if d["agreement"].get("tenant_agrees") else
                        f" (this job's sources: {d['agreement'].get('agree')})"))
        for s in d["agreement"].get("disagreeing_sources", []):
            lines.append(f"  disagree: {s}")
        if d["agreement"].get("other_sources_disagree"):
            lines.append(f"  other sources of the tenant disagree ({len(d['agreement']['other_sources_disagree'])}"
                         f"{'+' if len(d['agreement']['other_sources_disagree']) >= 20 else ''}): "
                         f"{d['agreement']['hint']}")
        if d.get("note"):
            lines.append("note: " + d["note"])
        for r in d.get("sample_relations", []):
            lines.append("  " + r)
        if "browse" in d:
            lines.append(d["browse"])
        if "demo" in d:
            lines += ["", "Now a question that needs two units (the route's distance and the compensation band "
                          "it falls in):", d["demo"]["text"], "", "The audit of that answer (`kmrag audit ID`):",
                      d["demo"]["audit_text"]]
        return "\n".join(lines)

    first = f"; first error: {job.errors[0].path}: {job.errors[0].reason}" if job.errors else ""
    if job.status == "completed_with_errors":  # the rest is stored, but an input failed: say so in the status
        _emit(args, summary, human, ("InputsFailed", f"job {job.id}: {len(job.errors)} input(s) failed{first}"))
    else:
        _emit(args, summary, human, ("JobFailed", f"job {job.id} {job.status}{first}"))
    return 0 if job.status == "completed" else 1


def cmd_digest(args: argparse.Namespace) -> int:
    from kmrag.ingestion.digest import tenant_digest
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        d = tenant_digest(stores, settings.tenant)

    def human(r: Any) -> str:
        return "\n".join([f"{r['sha256']}  tenant {r['tenant']!r} (tenant-free: compare it with another tenant's)",
                          *(f"  {k}: {r['counts'][k]} ({r['parts'][k][:16]})" for k in r["counts"])])

    _emit(args, d.model_dump(), human)
    return 0


def _demo_answer(stores: Any, settings: Settings, question: str) -> dict[str, Any]:
    """Ask the demo question on what was just ingested; the answer, its audit, as data and as text."""
    from kmrag.answer.answerer import Answerer
    from kmrag.answer.audit import audit
    from kmrag.answer.render import answer_text, audit_text
    from kmrag.nlp.embed import get_embedder

    answer = Answerer(stores.units, stores.graph, get_embedder(settings), settings).answer(settings.tenant, question)
    report = audit(stores.units, stores.graph, settings.tenant, answer.id)
    neo4j = stores.graph.backend == "neo4j"
    units = {c.unit_id: c for c in report.citations}
    return {"answer": answer.model_dump(mode="json", exclude={"trace"}),
            "audit": [c.model_dump(mode="json") for c in report.citations],
            "text": answer_text(answer, browser=neo4j, units=units), "audit_text": audit_text(report)}


def _note(message: str) -> None:
    print(redact(f"kmrag: {message}"), file=sys.stderr)


def cmd_repair(args: argparse.Namespace) -> int:
    """Compare the graph with PostgreSQL per source and rebuild what disagrees from PostgreSQL."""
    from kmrag.ingestion.pipeline import get_extractor
    from kmrag.ingestion.repair import repair
    from kmrag.nlp.embed import get_embedder
    from kmrag.stores import open_stores

    settings = _settings(args)
    reports = []
    with open_stores(settings) as stores:
        stores.init_schema()
        tenants = stores.units.tenants() if args.all_tenants else [settings.tenant]
        for tenant in tenants:
            if not valid_tenant(tenant):  # written before tenant names were checked
                _note(f"skipped tenant {tenant!r}: not a valid tenant name ({TENANT_RE.pattern})")
                continue
            reports.append(repair(stores, tenant, get_embedder(settings), get_extractor(settings),
                                  dry_run=args.dry_run, progress=None if not args.json else False,
                                  lock_wait_s=args.lock_wait))

    def human(r: Any) -> str:
        b = r["before"]
        bm25 = (("would recount" if r["dry_run"] else "recounted") + " the BM25 statistics, which disagreed with "
                "the units") if r.get("bm25_rebuilt") else ""
        if b["agree"] and not r["aliases_removed"] and not r.get("answers_relinked"):
            if bm25:
                return f"tenant {r['tenant']!r}: the graph and PostgreSQL agree ({b['units']} units); {bm25}"
            return f"tenant {r['tenant']!r}: the graph and PostgreSQL agree ({b['units']} units); nothing to repair"
        lines = [f"tenant {r['tenant']!r}: {b['disagreeing_sources']} sources disagreed"]
        lines += [f"  {s}" for s in b["sources"][:50]]
        verb = "would rebuild" if r["dry_run"] else "rebuilt"
        lines.append(f"{verb} {len(r['rebuilt'])} sources from PostgreSQL; "
                     f"{'would remove' if r['dry_run'] else 'removed'} {len(r['removed_from_graph'])} sources and "
                     f"{r['graph_units_removed']} units from the graph that PostgreSQL does not hold; "
                     f"{r['aliases_removed']} undone aliases")
        if bm25:
            lines.append(bm25)
        if r.get("answers_relinked"):
            lines.append(f"{'would write' if r['dry_run'] else 'wrote'} the graph view (:Answer)-[:CITES] of "
                         f"{r['answers_relinked']} stored answers again")
        if r.get("after"):
            lines.append(f"now: stores agree: {r['after']['agree']} ({r['after']['units']} units)")
        return "\n".join(lines)

    data = [r.model_dump(mode="json") for r in reports]
    _emit(args, data if args.all_tenants else data[0],
          lambda d: "\n".join(human(r) for r in (d if isinstance(d, list) else [d])) or "no tenants",
          ("RepairNeeded", "the stores disagree: `kmrag repair` rebuilds the graph from PostgreSQL") if args.dry_run
          else ("StoresDisagree", "the graph and PostgreSQL still disagree after the repair"))
    if args.dry_run:  # for scripts: 1 when there is something to repair
        return 1 if any(not r.before["agree"] or r.aliases_removed or r.bm25_rebuilt or r.answers_relinked
                         for r in reports) else 0
    return 0 if all(r.after is None or r.after["agree"] for r in reports) else 1


def _language_note(stores: Any, tenant: str, by_language: dict[str, int]) -> str | None:
    """A note when the tenant holds Chinese units but its vectors come from an English-only embedder."""
    from kmrag.nlp.embed import ENGLISH_ONLY

    chinese = by_language.get("zh", 0)
    record = stores.units.tenant_embedder(tenant) if chinese else None
    if record is None or record.embedder not in ENGLISH_ONLY:
        return None
    return (f"{chinese} units are Chinese, but the tenant's embedder ({record.embedder}) reads English only, so "
            f"dense search finds little of them: `kmrag reembed --tenant {tenant} --embedder e5-small` "
            "(multilingual-e5-small: Chinese and English)")


def cmd_reembed(args: argparse.Namespace) -> int:
    """Re-embed every unit and entity name of the tenant with the configured (or named) embedder, in place."""
    from kmrag.ingestion.reembed import reembed
    from kmrag.nlp.embed import get_embedder
    from kmrag.stores import open_stores

    settings = _settings(args)
    embedder = get_embedder(settings, args.embedder)
    with open_stores(settings) as stores:
        stores.init_schema()
        report = reembed(stores, settings.tenant, embedder, batch=args.batch,
                         progress=not args.json and sys.stderr.isatty(), lock_wait_s=args.lock_wait)

    def human(r: Any) -> str:
        if r["already"]:
            return f"tenant {r['tenant']!r} is embedded with {r['embedder_to']} already; nothing to do"
        counts = ", ".join(f"{r['total'][t]} {t} ({r['embedded'][t]} embedded now, {r['kept'][t]} kept from a "
                           "stopped run)" for t in r["total"])
        return (f"tenant {r['tenant']!r}: re-embedded with {r['embedder_to']} (was {r['embedder_from']}): {counts}; "
                f"switched in one transaction; {r['seconds']} s ({r['embed_s']} s embedding)")

    _emit(args, report.model_dump(mode="json"), human)
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    """Ask a question: a grounded answer whose every statement cites a unit (``--units-only``: the ranked
    units alone, as retrieval found them)."""
    if args.units_only:
        return _ask_units(args)
    import time

    from kmrag.answer.answerer import Answerer
    from kmrag.answer.render import answer_text, trace_text
    from kmrag.nlp.embed import get_embedder
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        answerer = Answerer(stores.units, stores.graph, get_embedder(settings), settings, generator=args.generator,
                            strategy=args.strategy, k=args.k or 8, save=not args.no_save)
        t = time.perf_counter()
        answer = answerer.answer(settings.tenant, args.question)
        ms = round((time.perf_counter() - t) * 1000, 1)
        for step in answer.trace:
            if step.get("warning"):
                _note(step["warning"])
        if not answer.found and not stores.units.counts(settings.tenant)["units"]:
            _note(_empty_tenant(settings.tenant, stores.units.tenants()))
        units = {u.id: u for u in stores.units.get_units(settings.tenant, [c.unit_id for c in answer.citations])}
    neo4j = not settings.uses_embedded_graph
    # "stored": whether `audit ID` can find it (an answer asked with --no-save has an id, but no record)
    data = answer.model_dump(mode="json") | {"found": answer.found, "ms": ms, "stored": not args.no_save}
    if answer.found and neo4j and not args.no_save:
        from kmrag.answer.audit import browser_query

        data["browser"] = browser_query(answer.tenant, answer.id)
    if args.json and not args.trace:
        data.pop("trace")
    _emit(args, data, lambda _: answer_text(answer, ms, browser=neo4j, units=units, saved=not args.no_save)
          + ("\n" + trace_text(answer.trace) if args.trace else ""))
    return 0


def _empty_tenant(tenant: str, tenants: Sequence[str]) -> str:
    """What to do when the tenant asked holds nothing: ingest, or the tenant meant (one spelt alike first)."""
    alike = [t for t in tenants if t.lower() == tenant.lower()]
    others = alike + [t for t in tenants if t not in alike]
    return (f"tenant {tenant!r} holds no units: ingest documents first (`kmrag ingest --tenant {tenant} PATH`)"
            + (f", or ask a tenant that holds some: {', '.join(others[:8])}" if others else ""))


def cmd_audit(args: argparse.Namespace) -> int:
    """Show each citation of a stored answer with its unit, source, version, span, and whether it still stands."""
    from kmrag.answer.audit import audit
    from kmrag.answer.render import audit_text
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        report = audit(stores.units, stores.graph, settings.tenant, args.answer_id)
    _emit(args, report.model_dump(mode="json") | {"all_current": report.all_current},
          lambda _: audit_text(report, browser=not settings.uses_embedded_graph))
    return 0


def cmd_answers(args: argparse.Namespace) -> int:
    from kmrag.answer.render import answers_text
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        got = stores.units.list_answers(settings.tenant, limit=args.limit)
    _emit(args, [a.model_dump(mode="json", exclude={"trace"}) for a in got], lambda _: answers_text(got))
    return 0


def _ask_units(args: argparse.Namespace) -> int:
    from kmrag.answer.validate import NOT_FOUND
    from kmrag.nlp.embed import get_embedder
    from kmrag.retrieval.ask import ask
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        result = ask(stores.units, stores.graph, get_embedder(settings), settings.tenant, args.question,
                     strategy=args.strategy, k=args.k or 5, max_chars=settings.max_question_chars,
                     path_weight=settings.path_weight)

    def human(r: Any) -> str:
        lines = [f"{r['question']}  (tenant {r['tenant']!r}, {r['strategy']}, {r['rounds']} round(s), {r['ms']} ms)"]
        linked = next((s for s in r["trace"] if s.get("step") == "analyse"), None)
        if linked and linked.get("linked"):
            lines.append("linked entities: " + ", ".join(f"{x['entity']} ({x['method']})" for x in linked["linked"]))
        if linked and linked.get("kind"):
            lines.append(f"question: {linked['kind']}, expects {linked.get('answer_type', '?')}"
                         + (f"; first resolves: {linked['sub_question']}" if linked.get("sub_question") else ""))
        if not r["units"]:
            lines.append(NOT_FOUND)
        for u in r["units"]:
            lines.append(f"{u['rank']:>2}. [{u['id']}] {u['type']}  {u['title'][:60]}  score {u['score']:.4f}")
            lines.append(f"    {u['source_id']}")
            lines.append(f"    {u['snippet']}")
        if r.get("paths"):
            lines.append("relation paths used:")
            for p in r["paths"]:
                chain = " ".join(f"({h['subject']}) -[{h['predicate']}]-> ({h['object']})" for h in p["hops"])
                units = sorted({u for h in p["hops"] for u in h["unit_ids"]})
                lines.append(f"  {chain}  from {', '.join(units[:3])}{' …' if len(units) > 3 else ''}")
        if args.trace:
            lines.append("trace:")
            for s in r["trace"]:
                rest = ", ".join(f"{k}={v}" for k, v in s.items() if k != "step")
                lines.append(f"  - {s.get('step')}: {rest}")
        return "\n".join(lines)

    data = result.model_dump()
    if not args.trace and args.json:
        data.pop("trace")
    _emit(args, data, human)
    return 0




def cmd_support(args: argparse.Namespace) -> int:
    """Check statements against the spans or units they cite (JSON lines, one statement each): a verdict per
    line, in order; a bad line is reported by its number and the others are still checked (exit status 2)."""
    import contextlib

    from kmrag.answer.support_check import Checked, SupportLimits, check_lines

    settings = _settings(args)
    with contextlib.ExitStack() as stack:
        opened: list[Any] = []

        def fetch(ids: Sequence[str]) -> Any:  # the stores are opened only when a line names unit ids
            if not opened:
                from kmrag.stores import open_stores

                opened.append(stack.enter_context(open_stores(settings)))
                opened[0].init_schema()
            return opened[0].units.get_units(settings.tenant, ids)

        stream = sys.stdin.buffer if args.file == "-" else stack.enter_context(_open_input(args.file))
        checked = list(check_lines(stream, SupportLimits.from_settings(settings), fetch, settings.tenant))
    if not checked:
        raise BadInput(f"{'stdin' if args.file == '-' else args.file}: no statements (one JSON object per line: "
                       '{"statement": ..., "spans": [...]} or {"statement": ..., "unit_ids": [...]})')
    bad = [c for c in checked if c.error]
    held = sum(1 for c in checked if c.verdict and c.verdict.supported)

    def line(c: Checked) -> str:
        if c.verdict is None:
            return f"line {c.position}  error: {str(c.error).removeprefix(f'line {c.position}: ')}"
        v = c.verdict
        said = " ".join(str(c.statement).split())
        said = said if len(said) <= 70 else said[:69] + "…"
        return f"line {c.position}  {'✓' if v.supported else '✗'} {v.score:.2f}  {said}" + (
            f"  failed: {v.failed}" if v.failed else "")

    summary = (f"{len(checked)} statement(s): {held} supported, {len(checked) - held - len(bad)} not supported"
               + (f", {len(bad)} could not be checked" if bad else ""))
    lines = ", ".join(str(c.position) for c in bad[:20]) + (", …" if len(bad) > 20 else "")
    failure = ("BadInput", f"{len(bad)} of {len(checked)} line(s) could not be checked (line(s) {lines}); the "
                           f"first: {bad[0].error}") if bad else None
    _emit(args, [c.as_dict("line") for c in checked], lambda _: "\n".join([*map(line, checked), summary]), failure)
    return 2 if bad else 0


def _open_input(path: str) -> Any:
    try:
        return open(path, "rb")  # closed by the caller's ExitStack
    except FileNotFoundError:
        raise NotFound(f"{path}: no such file") from None
    except OSError as e:
        raise BadInput(f"{path}: cannot be read ({e.strerror or e})") from None


DEMO_QUESTION = "How much can I receive if I am denied boarding, for flights from Delhi to Munich?"


def cmd_demo(args: argparse.Namespace) -> int:
    """The main job: ingest the bundled corpus and show what was stored."""
    from kmrag.demo import corpus_path

    args.paths = [str(corpus_path())]
    args.max_bytes, args.encoding = DEFAULT_MAX_BYTES, None
    args.title_field = args.text_field = None
    args.source_prefix = "demo"
    args.source_base = None
    args.force = False
    args.prune = False
    args.lock_wait = 3600.0
    args.show_relations = 12
    args.demo_question = DEMO_QUESTION
    if not args.tenant:
        args.tenant = "demo"
    return cmd_ingest(args)


def cmd_jobs(args: argparse.Namespace) -> int:
    from kmrag.stores import open_stores
    from kmrag.units.jobs import JobStore

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        js = JobStore(stores.pool)
        if args.action == "show":
            if not args.job_id:
                raise ConfigError("kmrag jobs show needs a job id: kmrag jobs show j_…")
            job = js.get(settings.tenant, args.job_id)
            _emit(args, job.model_dump(mode="json"), lambda _: _job_text(job))
            return 0
        jobs = js.list(settings.tenant, limit=args.limit)
        _emit(args, [j.model_dump(mode="json") for j in jobs],
              lambda d: "\n".join(_job_line(j) for j in jobs) or "no jobs yet")
    return 0


def _resolve_source_args(args_sources: Sequence[str], known: set[str]) -> list[tuple[str, list[str]]]:
    """Each argument -> the stored source ids it names: the id as given, the path it names (resolved,
    whether or not the file is still there), every record of a record file (``<file id>#...``), or every
    source under a folder or id prefix (``docs/`` or ``/data/docs``)."""
    from pathlib import Path

    out = []
    for arg in args_sources:
        cands = list(dict.fromkeys([arg, Path(arg).expanduser().resolve().as_posix()]))
        exact = [c for c in cands if c in known]
        if exact:
            out.append((arg, exact[:1]))
            continue
        under = sorted({k for k in known for c in cands
                        if k.startswith(c + "#") or (c.rstrip("/") and k.startswith(c.rstrip("/") + "/"))})
        out.append((arg, under))
    return out


def cmd_delete(args: argparse.Namespace) -> int:
    from kmrag.stores import open_stores
    from kmrag.units.lock import tenant_lock

    if args.all == bool(args.sources):
        raise BadInput("name the sources to delete, or give --all (the whole tenant), not both"
                       if args.all else "name the sources to delete (`kmrag sources` lists them), or give --all")
    if args.all and args.purge:
        raise BadInput("--all deletes everything the tenant holds, unit rows included: --purge adds nothing to it")
    if args.yes and not args.all:
        raise BadInput("--yes confirms --all (the whole tenant); deleting named sources needs no --yes")
    if args.all:
        return _delete_tenant(args)
    settings = _settings(args)
    out = []
    with open_stores(settings) as stores, tenant_lock(stores.pool, settings.tenant, args.lock_wait, on_wait=_note):
        stores.init_schema()
        known = (stores.units.source_ids(settings.tenant) | stores.graph.source_ids(settings.tenant)
                 | stores.units.source_ids_with_units(settings.tenant))
        for arg, sids in _resolve_source_args(args.sources, known):
            if not sids:
                out.append({"source": arg, "found": False, "graph_units_removed": 0, "unit_rows": 0,
                            "purged": bool(args.purge)})
            if args.dry_run:
                out += [{"source": sid, "found": True, "would_remove": True, "purged": bool(args.purge)}
                        for sid in sids]
                continue
            for sid in sids:
                # PostgreSQL first: it is the authoritative store, and the graph can be rebuilt from it
                p = stores.units.delete_source(settings.tenant, sid) if args.purge else \
                    stores.units.retire_source(settings.tenant, sid)
                try:
                    g = stores.graph.delete_source(settings.tenant, sid)
                    stores.graph.flush()
                except KmragError as e:
                    raise KmragError(f"{sid}: removed from PostgreSQL, but the graph write failed ({e}); "
                                     "run `kmrag repair` to remove it from the graph") from e
                out.append({"source": sid, "found": True, "graph_units_removed": g, "unit_rows": p,
                            "purged": bool(args.purge)})
        if any(x["found"] for x in out) and not args.dry_run:
            from kmrag.ingestion.entity_names import sync_entity_names

            sync_entity_names(stores, None, settings.tenant)  # names of entities that went with the sources
    missing = ("NotFound", "no such source: " + ", ".join(str(x["source"]) for x in out if not x["found"])
               + " (`kmrag sources` lists them)")
    if args.dry_run:
        _emit(args, out, lambda d: "\n".join(
            f"{x['source']}: " + (("would be purged" if x["purged"] else "would be retired") if x["found"]
                                  else "no such source (`kmrag sources` lists them)") for x in d), missing)
        return 0 if all(x["found"] for x in out) else 1
    _emit(args, out, lambda d: "\n".join(
        f"{x['source']}: " + (f"removed {x['graph_units_removed']} units from the graph, "
                              f"{'deleted' if x['purged'] else 'retired'} {x['unit_rows']} unit rows"
                              if x["found"] else "no such source (`kmrag sources` lists them)") for x in d), missing)
    return 0 if all(x["found"] for x in out) else 1


def _delete_tenant(args: argparse.Namespace) -> int:
    """``delete --all``: everything the tenant holds, in both stores (PostgreSQL first: the graph can be
    rebuilt from it, never the other way). --dry-run lists it; without --yes nothing is deleted."""
    from kmrag.stores import open_stores
    from kmrag.units.lock import tenant_lock

    settings = _settings(args)
    with open_stores(settings) as stores, tenant_lock(stores.pool, settings.tenant, args.lock_wait, on_wait=_note):
        stores.init_schema()
        rows = stores.units.tenant_rows(settings.tenant)
        graph = stores.graph.counts(settings.tenant).model_dump(exclude={"units_by_type"})
        empty = not any(rows.values()) and not any(graph.values())
        if not (args.dry_run or args.yes or empty):
            raise BadInput(f"tenant {settings.tenant!r} holds {_tenant_holds(rows, graph)}; nothing deleted: add "
                           "--yes to delete all of it (it cannot be undone), or --dry-run to only list it")
        if args.yes and not args.dry_run:  # even when it looks empty: a graph left half-deleted holds answers
            stores.units.clear_tenant(settings.tenant)
            try:
                stores.graph.clear_tenant(settings.tenant)
                stores.graph.flush()
            except KmragError as e:
                raise KmragError(f"tenant {settings.tenant!r}: removed from PostgreSQL, but the graph delete "
                                 f"failed ({e}); run `kmrag delete --all --yes` again") from e
            if any(stores.units.tenant_rows(settings.tenant).values()):  # an `ask` or a server wrote meanwhile
                _note(f"tenant {settings.tenant!r} was written while it was deleted (an answer or a job); stop "
                      "its servers and run `kmrag delete --all --yes` again")
    data = {"tenant": settings.tenant, "rows": rows, "graph": graph, "empty": empty,
            "deleted": bool(args.yes and not args.dry_run and not empty)}
    _emit(args, data, lambda d: f"tenant {d['tenant']!r} holds nothing" if d["empty"] else
          f"tenant {d['tenant']!r} {'deleted' if d['deleted'] else 'would lose'}: {_tenant_holds(rows, graph)}")
    return 0


def _tenant_holds(rows: dict[str, int], graph: dict[str, int]) -> str:
    return (f"{rows['kmrag_sources']} sources, {rows['kmrag_units']} unit rows, {rows['kmrag_answers']} answers, "
            f"{rows['kmrag_jobs']} jobs, {rows['kmrag_entity_merges']} entity merges, {rows['kmrag_api_keys']} API "
            f"keys; graph: {graph['units']} units, {graph['entities']} entities, {graph['relations']} relations")


def cmd_sources(args: argparse.Namespace) -> int:
    """The tenant's sources: id, units, where it was read from (the ids `kmrag delete` takes)."""
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        stats = stores.units.source_stats(settings.tenant)
        uris = stores.units.source_uris(settings.tenant)
    rows = [{"source": sid, "units": st["units"], "complete": st["version"] is not None, "uri": uris.get(sid, "")}
            for sid, st in sorted(stats.items())
            if not args.match or args.match in sid]
    _emit(args, rows, lambda rs: "\n".join(
        f"{r['source']}  {r['units']} units{'' if r['complete'] else '  (incomplete: re-run its ingest)'}"
        for r in rs) or (f"no source id contains {args.match!r}" if args.match else "no sources"),
        ("NotFound", f"no source id of tenant {settings.tenant!r} contains {args.match!r}"))
    return 1 if args.match and not rows else 0  # nothing found, as `entities search`


def _ints(text: str | None, what: str) -> list[int]:
    try:
        return [int(x) for x in (text or "").replace("_", "").split(",") if x.strip()]
    except ValueError:
        raise ConfigError(f"{what} takes comma-separated whole numbers, got {text!r}") from None


def cmd_bench(args: argparse.Namespace) -> int:
    from kmrag.eval.bench import bench_ingest, render_ingest
    from kmrag.stores import open_stores

    if args.what == "query":
        return _bench_query(args)
    if args.what == "api":
        return _bench_api(args)
    if args.what == "writes":
        return _bench_writes(args)
    if args.engine == "ray":
        return _bench_scale(args)
    if not args.dataset:
        raise ConfigError("kmrag bench ingest needs --dataset (musique, hotpotqa, 2wiki, novel, medical or a file)")
    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        results = [bench_ingest(stores, ds, args.data_root, keep=args.keep) for ds in args.dataset]
    _emit(args, results, lambda rs: "\n\n".join(render_ingest(r) for r in rs))
    return 0


def _bench_scale(args: argparse.Namespace) -> int:
    import os

    from kmrag.eval.bench import dataset_path
    from kmrag.eval.bench_scale import bench_ingest_scale, render_scale
    from kmrag.stores import open_stores

    if not args.dataset:
        raise ConfigError("kmrag bench ingest --engine ray needs --dataset (a dataset name or a file)")
    workers = _ints(args.workers, "--workers") or sorted({1, 2, os.cpu_count() or 1})
    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        results = [bench_ingest_scale(stores, str(dataset_path(ds, args.data_root)), workers, args.ray_address,
                                      keep=args.keep) for ds in args.dataset]
    _emit(args, results, lambda rs: "\n\n".join(render_scale(r) for r in rs))
    return 0


def _bench_writes(args: argparse.Namespace) -> int:
    from kmrag.eval.bench_scale import bench_writes, render_writes
    from kmrag.stores import open_stores

    sizes = _ints(args.sizes, "--sizes") or [100, 500, 1000, 5000]
    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        result = bench_writes(stores, sizes, rounds=args.rounds)
    _emit(args, result, render_writes)
    return 0


def _bench_api(args: argparse.Namespace) -> int:
    import os

    from kmrag.eval.bench_api import bench_api, render_api

    settings = _settings(args)
    result = bench_api(settings.tenant, _ints(args.concurrency, "--concurrency") or [1, 8, 16],
                       args.seconds if args.seconds is not None else 60.0, args.question or [], url=args.url,
                       key=args.key or os.environ.get("KMRAG_API_KEY"), generator=args.generator or "extractive",
                       strategy=args.strategy or "multihop", note=_note if not args.json else None,
                       ask_timeout_s=args.ask_timeout)
    _emit(args, result, render_api, ("RequestsFailed", "some requests failed: "
                                     + "; ".join(e for lv in result["levels"] for e in lv["error_samples"])[:500]))
    return 1 if any(lv["errors"] for lv in result["levels"]) else 0


def _bench_query(args: argparse.Namespace) -> int:
    from kmrag.eval.bench_query import DEFAULT_STRATEGIES, bench_query, render_query
    from kmrag.stores import open_stores

    datasets = [d for ds in (args.dataset or []) for d in ds.split(",") if d.strip()]
    if len(datasets) > 1:
        raise ConfigError("kmrag bench query takes one --dataset (its questions, and its corpus unless --tenant)")
    strategies = [s for st in (args.strategy or ",".join(DEFAULT_STRATEGIES)).split(",") if (s := st.strip())]
    concurrency = _ints(args.concurrency, "--concurrency") or [1, 8]
    units = _ints(args.units, "--units")
    if args.queries is not None and args.queries < 1:
        raise ConfigError("--queries must be at least 1")
    progress = not args.json and sys.stderr.isatty()
    with open_stores(_settings(args)) as stores:
        stores.init_schema()
        result = bench_query(stores, datasets[0] if datasets else None, args.tenant, strategies, args.queries,
                             concurrency, units, exact=args.exact, data_root=args.data_root,
                             note=_note if progress else None, seconds=args.seconds,
                             pool_max=_ints(args.pool_max, "--pool-max"), with_ingest=args.with_ingest)
    _emit(args, result, render_query)
    return 0


def cmd_units(args: argparse.Namespace) -> int:
    from kmrag.browse import show_unit, unit_text
    from kmrag.stores import open_stores

    words = args.unit_id[1:] if args.unit_id[0] == "show" else args.unit_id
    if len(words) != 1:
        raise BadInput(f"kmrag units takes one unit id (u_…), got {len(words)}: {' '.join(words) or 'none'}")
    if not words[0].startswith("u_"):
        raise BadInput(f"not a unit id: {words[0]!r} (unit ids start with u_, as `kmrag ask` and `kmrag audit` print them)")
    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        data = show_unit(stores, settings.tenant, words[0])
    _emit(args, data, unit_text)
    return 0


def cmd_entities(args: argparse.Namespace) -> int:
    """Search entity names, show one entity; audit entity resolution: list merges; undo one (the alias
    becomes its own entity from then on)."""
    from kmrag.browse import entity_text, search_entities, show_entity
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        if args.action in ("search", "show"):
            if not args.text:
                raise ConfigError(f"kmrag entities {args.action} needs "
                                  + ("the text to look for" if args.action == "search" else "an entity id or name"))
            if args.action == "show":
                shown = show_entity(stores, settings.tenant, args.text)
                _emit(args, shown, entity_text)
                return 0
            hits = search_entities(stores, settings.tenant, args.text, limit=args.limit)
            _emit(args, hits, lambda hs: "\n".join(
                f"{h['id']}  {h['name']!r:<40} {h['type']:<10} {h['units']} unit(s)"
                + (f"  aliases: {', '.join(h['aliases'][:5])}" if h["aliases"] else "") for h in hs)
                or f"no entity name contains {args.text!r}", ("NotFound", f"no entity name contains {args.text!r}"))
            return 0 if hits else 1
        if args.action == "unmerge":
            if not (args.entity and args.alias):
                raise ConfigError("kmrag entities unmerge needs --entity e_… and --alias TEXT")
            from kmrag.units.lock import tenant_lock

            with tenant_lock(stores.pool, settings.tenant, args.lock_wait, on_wait=_note):
                # PostgreSQL first: if the graph write fails, `kmrag repair` removes the alias there
                undone = stores.units.undo_merge(settings.tenant, args.entity, args.alias)
                try:
                    removed = stores.graph.remove_entity_alias(settings.tenant, args.entity, args.alias)
                    stores.graph.flush()
                except KmragError as e:
                    raise KmragError(f"the merge is undone in PostgreSQL, but the graph write failed ({e}); "
                                     "run `kmrag repair` to finish it") from e
                from kmrag.ingestion.entity_names import sync_entity_names

                sync_entity_names(stores, None, settings.tenant)
            if not undone:
                rec = [m for m in stores.units.merges(settings.tenant, args.entity) if m["alias"] == args.alias]
                why = "it was already undone" if rec and rec[0]["undone_at"] else \
                    "no such merge (`kmrag entities merges` lists them)"
                raise ConfigError(f"cannot undo the merge of {args.alias!r} into {args.entity}: {why}")
            data = {"entity": args.entity, "alias": args.alias, "undone": undone, "alias_removed": removed,
                    "note": "re-ingest the sources that mention the alias with --force to move their mentions"}
            _emit(args, data, lambda d: f"merge of {d['alias']!r} into {d['entity']} "
                                        f"{'undone' if d['undone'] else 'not found'}; {d['note']}")
            return 0 if undone else 1
        merges = stores.units.merges(settings.tenant, args.entity)
        names = {e.id: e.name for e in stores.graph.get_entities(settings.tenant, sorted({m['entity_id'] for m in merges}))}
        for m in merges:
            m["entity_name"] = names.get(m["entity_id"])
        _emit(args, merges, lambda ms: "\n".join(
            f"{m['entity_id']} {m['entity_name']!r:<30} <- {m['alias']!r:<30} {m['method']:<10} {m['score']:.1f}"
            f"{'  (undone)' if m['undone_at'] else ''}" for m in ms) or "no merges recorded")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from pathlib import Path

    from kmrag.eval.report import diff_runs, render_diff, render_markdown
    from kmrag.eval.runner import load_run, run_eval
    from kmrag.stores import open_stores

    out_root = Path(args.out)
    if args.target and args.target[0] == "diff":
        if len(args.target) != 3:
            raise ConfigError("usage: kmrag eval diff RUN_A RUN_B (run folders or run ids)")
        d = diff_runs(load_run(args.target[1], out_root), load_run(args.target[2], out_root))
        _emit(args, d, render_diff)
        return 0
    if args.target and args.target[0] == "calibrate":
        return _eval_calibrate(args, out_root)
    if args.target and args.target[0] == "kg":
        return _eval_kg(args)
    if args.target:
        raise ConfigError(f"unknown eval action {args.target[0]!r}: use `kmrag eval --dataset ...`, "
                          "`kmrag eval calibrate`, `kmrag eval kg` or `kmrag eval diff A B`")
    datasets = [args.file] if args.file else [d for ds in (args.dataset or ["musique"]) for d in ds.split(",")]
    strategies = [s for st in args.strategy.split(",") if (s := st.strip())]
    if args.questions_file and len(datasets) != 1:
        raise ConfigError("--questions-file rewords the questions of one set: name one --dataset or --file")
    settings = _settings(args)
    runs = []
    with open_stores(settings) as stores:
        stores.init_schema()
        for ds in datasets:
            runs.append(run_eval(stores, ds, strategies, limit=args.limit, tenant=args.tenant, out_root=out_root,
                                 data_root=args.data_root, progress=not args.json and sys.stderr.isatty(),
                                 answer=[g for a in (args.answer or []) for g in a.split(",") if g],
                                 questions_file=args.questions_file))
    text = render_markdown(runs)
    if len(runs) > 1:
        combined = out_root / f"combined-{runs[-1].run_id}.md"
        combined.write_text(text, encoding="utf-8")
    _emit(args, [r.model_dump() for r in runs],
          lambda _: text + "\n\n" + "\n".join(f"saved: {r.out_dir}/ (report.md, summary.json, questions.jsonl, "
                                                  "recall.png)" for r in runs))
    return 0


def _eval_calibrate(args: argparse.Namespace, out_root: Any) -> int:
    from pathlib import Path

    from kmrag.eval.calibrate import render, run_calibration
    from kmrag.stores import open_stores

    datasets = [d for ds in (args.dataset or ["2wiki,hotpotqa,musique,demo,orgs"]) for d in ds.split(",") if d]
    settings = _settings(args)
    if args.rows:
        result = run_calibration(None, datasets, out_root, write=args.write, rows_from=Path(args.rows),
                                 threshold=settings.min_confidence, extend_with=_extend_with(args))
        _emit(args, result, render)
        return 0
    with open_stores(settings) as stores:
        stores.init_schema()
        result = run_calibration(stores, datasets, out_root, limit=args.limit, data_root=args.data_root,
                                 progress=not args.json and sys.stderr.isatty(), write=args.write,
                                 extend_with=_extend_with(args), tenant=getattr(args, "tenant", None))
    _emit(args, result, render)
    return 0


def _extend_with(args: argparse.Namespace) -> str | None:
    from kmrag.eval.calibrate import check_feature

    return check_feature(args.extend) if args.extend else None  # before any question is answered


def _eval_kg(args: argparse.Namespace) -> int:
    from kmrag.eval.bench import dataset_path
    from kmrag.eval.kg import render, run_kg_eval
    from kmrag.eval.runner import tenant_for
    from kmrag.nlp.embed import get_embedder
    from kmrag.stores import open_stores

    names = [args.file] if args.file else [d for ds in (args.dataset or ["2wiki"]) for d in ds.split(",") if d]
    if len(names) != 1:
        raise ConfigError("usage: kmrag eval kg --dataset 2wiki | --file PATH (one 2Wiki-format set)")
    path = dataset_path(names[0], args.data_root)
    settings = _settings(args)
    tenant = args.tenant or tenant_for(path.stem, get_embedder(settings).name)
    with open_stores(settings) as stores:
        result = run_kg_eval(stores.graph, tenant, path)
    _emit(args, result, render)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, whose usage errors come as the --json envelope when --json was given."""

    json_wanted = False

    def error(self, message: str) -> NoReturn:
        if _Parser.json_wanted:
            command = self.prog.removeprefix("kmrag").strip()
            _print_json(envelope(command, 2, error={"type": "UsageError", "message": f"{message} "
                                                    f"(usage: {self.format_usage().strip().removeprefix('usage: ')})"},
                                 has_data=False))
            self.exit(2)
        super().error(message)


def _engine_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--engine", choices=["local", "ray"], default="local",
                    help="where parsing, NLP and embedding run: this process (default) or Ray workers "
                         "(pip install 'kmrag[ray]'); resolution and the writes stay in this process")
    sp.add_argument("--ray-address", help="--engine ray: join this Ray cluster (e.g. HEAD:6379 or auto) instead of "
                                          "starting a local runtime")
    sp.add_argument("--workers", help="--engine ray: Ray workers (default: this machine's cores, or the cluster's "
                                      "CPUs with --ray-address); bench ingest: comma-separated counts, e.g. 1,2,4")


def _support_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("action", choices=["check"])
    sp.add_argument("file", metavar="FILE.jsonl", help="one JSON object per line: {\"statement\": …, \"spans\": […] "
                    "(and \"titles\": […])} or {\"statement\": …, \"unit_ids\": [\"u_…\", …]}; - reads stdin")


def _one_workers(text: str | None) -> int | None:
    if not text:
        return None
    try:
        n = int(text)
    except ValueError:
        raise ConfigError(f"--workers takes a number, not {text!r}") from None
    if n < 1:
        raise ConfigError("--workers must be at least 1")
    return n


def whole(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi`` (the HTTP API's own bounds where it has the option),
    refused with the range rather than passed on to a store that fails on it ("-k 100000", "--limit -1")."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < lo or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{n} is outside {lo}..{hi}" if hi is not None else f"{n} is below {lo}")
        return n
    parse.__name__ = "whole number"
    return parse


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kmrag", description="Knowledge-graph-augmented RAG with cited knowledge units")
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, fn: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_)
        sp.add_argument("--json", action="store_true", help="machine-readable output")
        sp.add_argument("--tenant", help="tenant (default: KMRAG_TENANT or 'default')")
        sp.set_defaults(fn=fn)
        if name in ("ingest", "delete", "entities", "repair", "reembed"):
            sp.add_argument("--lock-wait", type=float, default=3600.0, metavar="SECONDS",
                            help="how long to wait for another writer of the tenant (default 3600)")
        return sp

    add("init", cmd_init, "create the database schemas (idempotent)")
    doc = add("doctor", cmd_doctor, "check backends, schema and models")
    doc.add_argument("--verify", action="store_true",
                     help="hash every local model file and check it against the pins (seconds per GB; remembered "
                          "by path, size and mtime)")
    ing = add("ingest", cmd_ingest, "ingest files and folders into the knowledge map")
    ing.add_argument("paths", nargs="+", help="files or folders (md, txt, html, pdf, json, jsonl, parquet)")
    ing.add_argument("--max-bytes", type=whole(1), default=DEFAULT_MAX_BYTES,
                     help=f"refuse larger files (default {DEFAULT_MAX_BYTES:,}; a file is read whole into memory)")
    ing.add_argument("--encoding", default=None,
                     help="text encoding of every file, overriding what is found (default, per file: a byte-order "
                          "mark, then an HTML file's declared charset (meta or <?xml encoding>), then UTF-8, then "
                          "detection)")
    ing.add_argument("--title-field", help="JSON/JSONL/parquet field holding a record's title")
    ing.add_argument("--text-field", help="JSON/JSONL/parquet field holding a record's text")
    ing.add_argument("--source-prefix", help="source ids are PREFIX/<path under the folder given> "
                                             "(default: the file's absolute path)")
    ing.add_argument("--source-base", help="source ids are paths relative to this folder (keeps ids when a corpus "
                                           "moves with it)")
    ing.add_argument("--force", action="store_true", help="rebuild the sources in both stores even if unchanged")
    ing.add_argument("--prune", action="store_true", help="remove the sources under the folders given that are no "
                                                          "longer there (records gone from a record file always are)")
    _engine_args(ing)
    rep = add("repair", cmd_repair, "compare the graph with PostgreSQL per source and rebuild what disagrees")
    rep.add_argument("--dry-run", action="store_true", help="only say what disagrees and what would be done")
    rep.add_argument("--all-tenants", action="store_true", help="every tenant of the database, one after another")
    rem = add("reembed", cmd_reembed, "re-embed every unit and entity name of the tenant with another embedder, "
                                      "in place (resumable; the tenant answers with its old vectors until the switch)")
    rem.add_argument("--embedder", default=None, help="the embedder to use: local (all-MiniLM-L6-v2), bge-small or "
                                                      "openai (default: KMRAG_EMBEDDER)")
    rem.add_argument("--batch", type=whole(1, 100_000), default=256, help="texts embedded and committed at a time (default 256)")
    add("digest", cmd_digest, "a sha256 of what the tenant holds (units, entities, relations, mentions, links), "
                              "independent of the tenant's name: equal for the same corpus ingested anywhere")
    add("demo", cmd_demo, "the main job: ingest the bundled demo corpus (tenant 'demo') and show what was stored")
    jobs = add("jobs", cmd_jobs, "list ingestion jobs, or show one")
    jobs.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    jobs.add_argument("job_id", nargs="?")
    jobs.add_argument("--limit", type=whole(1, 500), default=50)
    ask = add("ask", cmd_ask, "ask a question: an answer whose every statement cites the unit it rests on")
    ask.add_argument("question", help="the question, in quotes")
    ask.add_argument("--strategy", default="multihop", help="multihop (default), hybrid, dense, bm25, graph")
    ask.add_argument("--generator", choices=["auto", "extractive", "llm"], default=None,
                     help="extractive (offline) or llm (KMRAG_LLM_*); default KMRAG_GENERATOR, else auto: "
                          "llm when one is configured")
    ask.add_argument("-k", type=whole(1, 50), default=None, help="units to answer from (default 8; --units-only: 5)")
    ask.add_argument("--trace", action="store_true", help="show every step of the controllers")
    ask.add_argument("--units-only", action="store_true", help="only the ranked units retrieval found, no answer")
    ask.add_argument("--no-save", action="store_true", help="do not store the answer (it cannot be audited)")
    aud = add("audit", cmd_audit, "audit a stored answer: each cited unit, its source and version, the "
                                  "supporting span, and whether it was retired since")
    aud.add_argument("answer_id", help="a_… as `kmrag ask` or `kmrag answers` print it")
    ans = add("answers", cmd_answers, "list past answers, newest first")
    ans.add_argument("--limit", type=whole(1, 500), default=20)
    _support_args(add("support", cmd_support, "check statements against the spans or units they cite"))
    units_cmd = add("units", cmd_units, "show one stored unit: text, source and version, entities, neighbours")
    units_cmd.add_argument("unit_id", nargs="+", metavar="[show] UNIT_ID", help="u_… (\"show\" before it is optional)")
    units_cmd.set_defaults(action="show")
    src = add("sources", cmd_sources, "list the tenant's sources (their ids are what delete takes)")
    src.add_argument("match", nargs="?", help="only ids containing this text")
    dele = add("delete", cmd_delete, "remove sources from the knowledge map")
    dele.add_argument("sources", nargs="*", help="source ids as `kmrag sources` lists them, or a file's path "
                                                 "(even if the file is gone; a record file means all its records)")
    dele.add_argument("--all", action="store_true", help="the whole tenant: every source, unit, answer, job, "
                                                         "entity merge, API key and embedder record, in both "
                                                         "stores; needs --yes (--dry-run lists what it holds)")
    dele.add_argument("--yes", action="store_true", help="--all: really delete (it cannot be undone)")
    dele.add_argument("--purge", action="store_true", help="also delete unit rows (default: retire them, "
                                                           "so past answers stay auditable)")
    dele.add_argument("--dry-run", action="store_true", help="only list the sources that would be removed")
    ev = add("eval", cmd_eval, "evaluate retrieval strategies on multi-hop QA sets; `kmrag eval diff A B`")
    ev.add_argument("target", nargs="*", help="empty, or: diff RUN_A RUN_B, or: calibrate (fit the answer "
                                              "confidence on half the sets' questions, report the other half), "
                                              "or: kg (the tenant's graph against the set's gold evidence "
                                              "triples; --tenant, default the set's eval tenant)")
    ev.add_argument("--write", action="store_true", help="calibrate: make the fit the default "
                                                       "(kmrag/answer/calibration.json)")
    ev.add_argument("--rows", help="calibrate: fit again from the rows.jsonl of an earlier calibrate run")
    ev.add_argument("--extend", metavar="FEATURE", help="calibrate: fit only this feature's weight (one added since "
                                                        "the default fit) on the dev sets' tune half, every other "
                                                        "weight held")
    ev.add_argument("--dataset", action="append", help="musique, hotpotqa, 2wiki, novel (GraphRAG-Bench: its Fact "
                                                       "Retrieval and Complex Reasoning questions over novel.parquet; "
                                                       "comma-separated or repeated)")
    ev.add_argument("--file", help="evaluate any file in one of those formats (a GraphRAG-Bench question file reads "
                                   "its corpus beside it: X_questions.json -> X.parquet or X.json)")
    ev.add_argument("--strategy", default="bm25,dense,hybrid", help="comma-separated: bm25, dense, hybrid, graph, "
                                                                   "multihop (and -rerank forms); GraphRAG-Bench also "
                                                                   "the baselines random, other-question")
    ev.add_argument("--limit", type=whole(1), help="evaluate only the first N questions (GraphRAG-Bench: of each type; "
                                              "the corpus stays whole)")
    ev.add_argument("--answer", action="append", help="also answer with each strategy: extractive, llm, "
                                                      "first-sentence (the baseline); comma-separated or repeated")
    ev.add_argument("--questions-file", help="JSON lines {\"qid\": ..., \"question\": ...}: these wordings replace the "
                                         "set's questions of those qids (corpus, answers and gold stay the set's)")
    ev.add_argument("--out", default="reports/eval", help="where runs are saved")
    ev.add_argument("--data-root", help="the shared data folder (default ../shared/data)")
    ents = add("entities", cmd_entities, "entities: search names, show one with its relations and units; "
                                         "audit resolution (list merges, undo one)")
    ents.add_argument("action", nargs="?", choices=["search", "show", "merges", "unmerge"], default="merges")
    ents.add_argument("text", nargs="?", help="search: text in a name or alias; show: an entity id or exact name")
    ents.add_argument("--limit", type=whole(1, 500), default=50, help="search: at most this many entities")
    ents.add_argument("--entity", help="entity id (e_…)")
    ents.add_argument("--alias", help="the merged surface form to split off")
    bench = add("bench", cmd_bench, "benchmarks: `kmrag bench ingest --dataset musique`, "
                                    "`kmrag bench query --dataset hotpotqa`, `kmrag bench api --concurrency 1,8,16`")
    bench.add_argument("what", choices=["ingest", "query", "api", "writes"])
    _engine_args(bench)
    bench.add_argument("--sizes", help="writes: comma-separated batch sizes (default 100,500,1000,5000)")
    bench.add_argument("--rounds", type=whole(1), default=2, help="writes: batches per size (default 2)")
    bench.add_argument("--dataset", action="append", default=None,
                       help="musique | hotpotqa | 2wiki | novel | medical | a file path (ingest: repeatable; query: "
                            "one QA set, its questions and its eval tenant, default hotpotqa)")
    bench.add_argument("--strategy", help="query: comma-separated strategies (default bm25,dense,hybrid,graph,"
                                          "multihop; bm25-exhaustive is BM25 counted per query, for reference)")
    bench.add_argument("--queries", type=whole(1), help="query: only the first N questions")
    bench.add_argument("--concurrency", help="query: comma-separated thread counts (default 1,8); api: concurrent "
                                             "clients per level (default 1,8,16)")
    bench.add_argument("--units", help="query: comma-separated tenant sizes (e.g. 5000,20000,100000): the corpus "
                                       "(default: the three QA sets) replicated under distinct source ids into tenants "
                                       "bench-<corpus>-N, built or reused, latency per size")
    bench.add_argument("--exact", action="store_true", help="query: exact dense search (as `kmrag eval`) "
                                                            "instead of HNSW (as `kmrag ask`)")
    bench.add_argument("--seconds", type=float, help="query: a sustained load run of this many seconds: "
                                                      "--concurrency clients share one Stores; throughput, "
                                                      "p50/p95, errors, connection counts before and after; "
                                                      "api: seconds per concurrency level (default 60)")
    bench.add_argument("--pool-max", help="query --seconds: comma-separated PostgreSQL pool sizes to run at "
                                          "(default KMRAG_PG_POOL_MAX)")
    bench.add_argument("--with-ingest", metavar="PATH", help="query --seconds: ingest PATH (a changed version "
                                                             "of a source in the tenant) during the run and "
                                                             "check no result mixes two versions of a source")
    bench.add_argument("--data-root", help="the shared data folder (default ../shared/data)")
    bench.add_argument("--keep", action="store_true", help="keep the benchmark tenant afterwards")
    bench.add_argument("--url", help="api: the server to load (default: start `kmrag serve --insecure-local` for "
                                     "the tenant on a free port)")
    bench.add_argument("--key", help="api: the API key for --url (default KMRAG_API_KEY)")
    bench.add_argument("--question", action="append", help="api: a question to ask (repeatable; default: the demo's)")
    bench.add_argument("--generator", choices=["extractive", "llm"], help="api: the answer generator (default "
                                                                           "extractive)")
    bench.add_argument("--ask-timeout", type=float, help="api: KMRAG_SERVER_ASK_TIMEOUT_S of the server it starts "
                                                         "(asks past it count as 504s, not errors)")
    srv = add("serve", cmd_serve, "serve the HTTP API (OpenAPI at /docs)")
    srv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    srv.add_argument("--port", type=whole(0, 65535), default=8000, help="port (default 8000)")
    srv.add_argument("--insecure-local", action="store_true",
                     help="no API keys: one tenant (KMRAG_TENANT or --tenant), bound to 127.0.0.1/::1/localhost only")
    srv.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    keys = add("keys", cmd_keys, "API keys of the HTTP API: create (printed once), list, revoke")
    keys.add_argument("action", choices=["create", "list", "revoke"])
    keys.add_argument("key_id", nargs="?", help="revoke: the key's id, as `kmrag keys list` shows it")
    keys.add_argument("--name", help="create: a name to know the key by")
    keys.add_argument("--ingest-root", help="create: the folder this key may ingest paths from (POST /v1/ingest "
                                            "{\"paths\"}), instead of the server's KMRAG_SERVER_INGEST_ROOT")
    svc = add("services", cmd_services, "manage the embedded PostgreSQL")
    svc.add_argument("action", choices=["stop"])
    return p


def cmd_serve(args: argparse.Namespace) -> int:
    """The HTTP API (kmrag.server): uvicorn serving the ASGI app until interrupted."""
    from kmrag.server.config import check_bind, load_server_settings

    server = load_server_settings(host=args.host, port=args.port, insecure_local=args.insecure_local)
    check_bind(server.host, server.insecure_local)
    settings = _settings(args)
    import uvicorn

    from kmrag.server.app import create_app

    shown = f"[{server.host}]" if ":" in server.host else server.host
    _note(f"serving the HTTP API on http://{shown}:{server.port}/ (OpenAPI: /docs); "
          + (f"no API keys, tenant {settings.tenant!r} (--insecure-local)" if server.insecure_local
             else "API keys required (`kmrag keys create --tenant T`)"))
    uvicorn.run(create_app(settings, server), host=server.host, port=server.port, log_level=args.log_level,
                access_log=args.log_level == "debug")
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    """Tenant API keys of the HTTP API: create (the key is printed once), list, revoke."""
    from kmrag.server.keys import KeyStore
    from kmrag.stores import open_stores

    if not args.tenant:
        raise ConfigError(f"kmrag keys {args.action} needs --tenant T: a key belongs to one tenant")
    ingest_root = _key_ingest_root(args.ingest_root) if args.action == "create" else None
    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        keys = KeyStore(stores.pool)
        if args.action == "create":
            key, rec = keys.create(settings.tenant, args.name or "", ingest_root)
            _emit(args, rec.model_dump(mode="json") | {"revoked": False, "key": key},
                  lambda d: f"API key {d['id']} of tenant {d['tenant']!r}"
                            + (f", ingest root {d['ingest_root']}" if d["ingest_root"] else "")
                            + f" (shown once: keep it now):\n{key}")
            return 0
        if args.action == "revoke":
            if not args.key_id:
                raise ConfigError("kmrag keys revoke needs the key's id (`kmrag keys list --tenant T` shows them)")
            rec = keys.revoke(settings.tenant, args.key_id)
            _emit(args, rec.model_dump(mode="json") | {"revoked": True},
                  lambda d: f"API key {d['id']} of tenant {d['tenant']!r} revoked at {d['revoked_at']}")
            return 0
        got = keys.list(settings.tenant)
    _emit(args, [k.model_dump(mode="json") | {"revoked": k.revoked} for k in got], lambda ks: "\n".join(
        f"{k['id']}  {k['name'] or '-':<20} created {k['created_at']}  last used {k['last_used_at'] or 'never'}"
        + (f"  ingest root {k['ingest_root']}" if k["ingest_root"] else "")
        + (f"  REVOKED {k['revoked_at']}" if k["revoked"] else "") for k in ks) or "no API keys")
    return 0


def _key_ingest_root(raw: str | None) -> str | None:
    """``--ingest-root`` as stored: the folder's absolute path, its symlinks resolved; None when not given."""
    if raw is None:
        return None
    from pathlib import Path

    root = Path(raw).expanduser().resolve()
    if not root.is_dir():
        raise BadInput(f"--ingest-root {raw}: not a folder on this machine; give the folder the key may ingest from "
                       "(as the server sees it)")
    return root.as_posix()


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # SIGTERM ends a job like Ctrl-C: recorded as interrupted, resumable


def _error_exit(e: BaseException) -> int:
    return 1 if isinstance(e, NotFound) else 2


def main(argv: Sequence[str] | None = None) -> int:
    import signal

    argv = list(sys.argv[1:] if argv is None else argv)
    _Parser.json_wanted = "--json" in argv
    args = build_parser().parse_args(argv)
    as_json = bool(getattr(args, "json", False))
    command = command_name(args)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        rc = int(args.fn(args))
        result = getattr(args, "_result", None)
        if result is not None:
            data, human, failure = result
            if as_json:
                err = {"type": failure[0], "message": failure[1]} if failure and rc else None
                _print_json(envelope(command, rc, data, err))
            else:
                print(redact(human(data), patterns=False))
        elif as_json:
            _print_json(envelope(command, rc, has_data=False))
        return rc
    except KmragError as e:
        rc = _error_exit(e)
        if as_json:
            _print_json(envelope(command, rc, error={"type": type(e).__name__, "message": redact(str(e))}, has_data=False))
        else:
            print(redact(f"kmrag: error: {e}"), file=sys.stderr)
        return rc
    except KeyboardInterrupt:
        print("kmrag: interrupted", file=sys.stderr)
        if as_json:
            _print_json(envelope(command, 130, error={"type": "Interrupted", "message": "interrupted"},
                                 has_data=False))
        return 130
    except BrokenPipeError:  # `kmrag ... | head`: the reader left; say nothing more
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as e:  # a bug, not bad input: say what and where; the traceback on request
        import os
        import traceback

        if os.environ.get("KMRAG_DEBUG"):
            raise
        frame = traceback.extract_tb(e.__traceback__)[-1]
        where = f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"
        message = redact(f"internal error {type(e).__name__}: {e} (at {where}); run again with KMRAG_DEBUG=1 for "
                         "the traceback and report it")
        if as_json:
            _print_json(envelope(command, 3, error={"type": type(e).__name__, "message": message, "internal": True,
                                                    "at": where}, has_data=False))
        else:
            print(f"kmrag: {message}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
