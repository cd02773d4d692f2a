"""The routes of /v1. Every route but /v1/health needs an API key; the tenant comes from the key. Blocking
store calls run in worker threads (sync routes run in the threadpool; questions in the server's own pool,
under a time limit)."""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import ValidationError
from starlette.datastructures import UploadFile

import kmrag
from kmrag.errors import DeadlinePassed, KmragError, NotFound
from kmrag.ingestion.sources import SourceOptions
from kmrag.retrieval.observe import Deadline, under
from kmrag.retrieval.strategies import MAX_QUESTION_CHARS
from kmrag.schema import Answer
from kmrag.schema.redact import redact_data
from kmrag.server import uploads as up
from kmrag.server.auth import request_tenant
from kmrag.server.models import (
    MAX_SUPPORT_ITEMS,
    QUESTION_PATTERN,
    TEXT_PATTERN,
    AnswerAuditOut,
    AskRequest,
    AskResponse,
    Generator,
    IngestPaths,
    JobAccepted,
    StoredAnswerOut,
    Strategy,
    SupportRequest,
    SupportResponse,
)
from kmrag.server.paths import KEY_ROOT, SERVER_ROOT, OutsideRoot, resolve_under
from kmrag.server.problems import (
    MEDIA_TYPE,
    Problem,
    internal_error,
    problem_body,
    problem_response,
    problems_doc,
    status_of,
)
from kmrag.server.state import ServerState
from kmrag.units.jobs import new_job_id

router = APIRouter(prefix="/v1")
MAX_OFFSET = 1_000_000_000  # past answers to skip, at most (PostgreSQL's OFFSET is a bigint; far below it)
KEYED = (401, 403, 422, 429, 500, 503)  # what any route behind a key can answer
Tenant = Depends(request_tenant)
DELETE_LOCK_WAIT_S = 30.0


def _state(request: Request) -> ServerState:
    state: ServerState = request.app.state.kmrag
    return state


def _out(data: Any) -> Any:
    """JSON-ready data with every known password and key hidden (document text otherwise as written)."""
    return redact_data(json.loads(json.dumps(data, default=str)))


# -- health -------------------------------------------------------------------------------------------

def pool_stats(stores: Any) -> dict[str, Any]:
    stats = dict(stores.pool.get_stats()) if hasattr(stores.pool, "get_stats") else {}
    out = {k: stats.get(k) for k in ("pool_min", "pool_max", "pool_size", "pool_available", "requests_waiting")}
    with stores.pool.connection() as conn:
        out["server_connections"] = int(conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()").fetchone()[0])
    return out


@router.get("/health", tags=["health"], responses=problems_doc(403, 500, 503),
            summary="whether the server can answer: 200 {status: ok}, or 503 (no key needed, no details)")
def health(request: Request) -> JSONResponse:
    try:
        stores = _state(request).stores()
        stores.units.server_info()  # a read each store must answer
        stores.graph.server_info()
    except Exception:  # noqa: BLE001 - whatever fails, the stores are not usable: 503 (details: /v1/status)
        return problem_response(503, "the stores are not reachable: GET /v1/status (with a key) says why",
                                request.url.path, "service-unavailable")
    return JSONResponse({"status": "ok"})


@router.get("/status", tags=["health"], responses=problems_doc(*KEYED),
            summary="versions, the stores, the pool and the database's connections, threads and questions running")
def status(request: Request, tenant: str = Tenant) -> JSONResponse:
    state = _state(request)
    body: dict[str, Any] = {"ok": False, "kmrag": kmrag.__version__,
                            "tenant_mode": "insecure-local" if state.server.insecure_local else "api-keys",
                            "threads": threading.active_count(), "asks_running": state.asks_running}
    try:
        stores = state.stores()
        body["graph"] = stores.graph.server_info()
        body["postgres"] = stores.units.server_info()
        body["pool"] = pool_stats(stores)
    except Exception as e:  # noqa: BLE001 - whatever fails, the stores are not usable: 503
        body = problem_body(503, f"the stores are not reachable: {e}", request.url.path, "service-unavailable",
                            **body)
        return JSONResponse(_out(body), status_code=503, media_type=MEDIA_TYPE)
    body["ok"] = True
    return JSONResponse(_out(body))


# -- ingestion ------------------------------------------------------------------------------------------

_INGEST_BODY = {"requestBody": {"required": True, "content": {
    "multipart/form-data": {"schema": {"type": "object", "properties": {
        "files": {"type": "array", "minItems": 1, "items": {"type": "string", "format": "binary"}}},
        "required": ["files"]}},
    "application/json": {"schema": IngestPaths.model_json_schema()}}}}


@router.post("/ingest", status_code=202, response_model=JobAccepted, tags=["ingestion"], openapi_extra=_INGEST_BODY,
             responses=problems_doc(*KEYED, 400, 404, 409, 413, 415),
             summary="upload files (multipart, field `files`) or name paths under KMRAG_SERVER_INGEST_ROOT (JSON)")
async def ingest(request: Request, tenant: str = Tenant) -> JobAccepted:
    state = _state(request)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    job_id = new_job_id()
    force = False
    if ctype == "multipart/form-data":
        form = await request.form(max_files=1000)
        try:
            uploads = [v for _, v in form.multi_items() if isinstance(v, UploadFile)]
            if not uploads:
                raise RequestValidationError([{"loc": ("body", "files"), "msg": "no file uploaded",
                                               "type": "missing"}])
            tenant_folder = up.tenant_dir(state.settings.data_dir, tenant)
            folder = tenant_folder / job_id
            try:
                await run_in_threadpool(up.save_uploads, folder, uploads, tenant_folder, state.server.upload_quota_bytes)
            except up.OverQuota as e:
                raise Problem(413, str(e), "upload-quota") from None
        finally:
            await form.close()
        paths = [str(folder)]
        opts = SourceOptions(source_base=str(folder), max_bytes=state.server.max_body_bytes)
    elif ctype == "application/json":
        try:
            body = IngestPaths.model_validate_json(await request.body())
        except ValidationError as e:
            raise RequestValidationError(e.errors(include_url=False)) from None
        root = ingest_root(request)
        paths = _paths_under(root, body.paths, KEY_ROOT if getattr(request.state, "key_ingest_root", None) else SERVER_ROOT)
        opts = SourceOptions(source_base=str(root), prune=body.prune, confine_to=root)
        force = body.force
    else:
        raise Problem(415, "send the files as multipart/form-data (field `files`) or JSON {\"paths\": [...]}")
    live = state.jobs.submit(tenant, paths, opts, job_id=job_id, force=force)
    return JobAccepted(id=live.id, status=live.status, href=f"/v1/jobs/{live.id}")


def ingest_root(request: Request) -> Path | None:
    """The folder this request may ingest paths from: its key's own root, else the server's (None: none)."""
    key_root = getattr(request.state, "key_ingest_root", None)
    return Path(key_root) if key_root else _state(request).server.ingest_root


def _paths_under(root: Path | None, paths: list[str], what: str) -> list[str]:
    """The paths named, resolved under ``root`` (``what``: which root): 403 for one outside it, 404 for one
    not there."""
    try:
        resolved = [resolve_under(root, p, what) for p in paths]
    except OutsideRoot as e:
        raise Problem(403, str(e), "outside-ingest-root") from None
    missing = [p for p, r in zip(paths, resolved, strict=True) if not r.exists()]
    if missing:
        raise Problem(404, f"no such file or folder under the ingest root: {', '.join(missing[:10])}", "not-found")
    return [str(r) for r in resolved]


def _shown_job(state: ServerState, tenant: str, job: dict[str, Any], root: Path | None) -> dict[str, Any]:
    """A job with the server's own folders left out of its paths: an upload's files by their names, paths
    under the ingest root (``root``) relative to it (as their source ids)."""
    bases = [(str(up.tenant_dir(state.settings.data_dir, tenant) / job["id"]), "(upload)"),
             (str(state.settings.data_dir.expanduser() / "uploads" / tenant / job["id"]), "(upload)")]
    if root is not None:
        bases.append((str(root), "."))

    def shown(path: str) -> str:
        for base, whole in bases:
            if path == base:
                return whole
            if path.startswith(base + "/"):
                return path[len(base) + 1:]
        return path

    job["inputs"] = [shown(p) for p in job.get("inputs", [])]
    for key in ("errors", "skipped"):
        job[key] = [{**e, "path": shown(e["path"])} for e in job.get(key, [])]
    return job


@router.get("/jobs", tags=["ingestion"], responses=problems_doc(*KEYED), summary="recent ingestion jobs, newest first")
def list_jobs(request: Request, limit: int = Query(20, ge=1, le=500), tenant: str = Tenant) -> Any:
    from kmrag.units.jobs import JobStore

    state = _state(request)
    jobs = [j.model_dump(mode="json") for j in JobStore(state.stores().pool).list(tenant, limit=limit)]
    known = {j["id"] for j in jobs}
    queued = [state.jobs.view(tenant, j.id) for j in state.jobs.waiting(tenant) if j.id not in known]
    for j in jobs:
        live = state.jobs.live(tenant, j["id"])
        j["progress"] = live.progress() if live else None
    return _out([_shown_job(state, tenant, j, ingest_root(request)) for j in queued + jobs])


@router.get("/jobs/{job_id}", tags=["ingestion"], responses=problems_doc(*KEYED, 404),
            summary="one job: status, progress per stage (documents, nlp, embed, write), counts, errors, skips")
def get_job(job_id: str, request: Request, tenant: str = Tenant) -> Any:
    state = _state(request)
    return _out(_shown_job(state, tenant, state.jobs.view(tenant, job_id), ingest_root(request)))


# -- asking -----------------------------------------------------------------------------------------------

def trace_paths(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The relation paths of an answer's retrieve steps, each once."""
    seen: set[str] = set()
    out: list[dict[str, Any]] = []
    for step in trace:
        if step.get("step") != "retrieve":
            continue
        for p in step.get("paths") or []:
            key = json.dumps(p, sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(p)
    return out


def _answer(state: ServerState, tenant: str, body: AskRequest, limit: Deadline) -> dict[str, Any]:
    from kmrag.answer.answerer import Answerer

    limit.check()  # a question that waited for a thread past its time is not started
    state.running(+1)
    try:
        stores = state.stores()
        t = time.perf_counter()
        answerer = Answerer(stores.units, stores.graph, state.embedder(), state.settings, generator=body.generator,
                            strategy=body.strategy, k=body.k)
        with under(limit):
            answer = answerer.answer(tenant, body.question)
        return _answer_data(stores, tenant, body, answer, round((time.perf_counter() - t) * 1000, 1))
    finally:
        state.running(-1)


def _answer_data(stores: Any, tenant: str, body: AskRequest, answer: Answer, ms: float) -> dict[str, Any]:
    from kmrag.answer.parts import retrieved

    ranked = retrieved(answer.trace)[0]  # each part's first retrieval for a question of parts
    stored = {u.id: u for u in stores.units.get_units(tenant, ranked, include_retired=False)}
    cited = {c.unit_id for c in answer.citations}
    units: list[dict[str, Any]] = []
    for uid in ranked:
        u = stored.get(uid)
        if u is not None:
            text = " ".join(u.content.split())
            units.append({"rank": len(units) + 1, "id": u.id, "type": u.type, "source_id": u.source_id,
                          "title": u.title, "snippet": text if len(text) <= 240 else text[:239] + "…",
                          "cited": u.id in cited})
    data = answer.model_dump(mode="json", exclude={"tenant", "trace"})
    data.update(found=answer.found, units=units, ms=ms, trace=answer.trace if body.trace else None,
                paths=trace_paths(answer.trace))
    # what was given, as declared (a basis has only the keys that apply to its kind, as when stored)
    return _out(AskResponse.model_validate(data).model_dump(mode="json", exclude_unset=True))


@router.post("/ask", response_model=AskResponse, response_model_exclude_unset=True, tags=["asking"],
             responses=problems_doc(*KEYED, 400, 409, 413, 504),
             summary="a grounded answer with its citations and the ranked units (trace on request)")
async def ask(body: AskRequest, request: Request, tenant: str = Tenant) -> Any:
    state = _state(request)
    limit = _deadline(state)
    fut = asyncio.get_running_loop().run_in_executor(state.ask_pool, _answer, state, tenant, body, limit)
    try:
        return await asyncio.wait_for(fut, timeout=limit.seconds)
    except (TimeoutError, DeadlinePassed):
        limit.cancelled = True  # the question stops at its next step
        raise _timed_out(limit) from None


def _deadline(state: ServerState) -> Deadline:
    """The ask's time: KMRAG_SERVER_ASK_TIMEOUT_S from now."""
    return Deadline.after(state.server.ask_timeout_s)


def _timed_out(limit: Deadline) -> Problem:
    return Problem(504, f"no answer within {limit.seconds:g} s (KMRAG_SERVER_ASK_TIMEOUT_S): "
                        f"stopped after the step {limit.reached!r}", "ask-timeout", reached=limit.reached)


def _sse(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(_out(data), ensure_ascii=False)}\n\n".encode()


async def _stream(state: ServerState, tenant: str, body: AskRequest, path: str) -> AsyncIterator[bytes]:
    from kmrag.retrieval.observe import observing

    events: queue.Queue[tuple[str, Any]] = queue.Queue()
    limit = _deadline(state)

    def work() -> None:
        try:
            with observing(lambda step: events.put(("step", step))):
                events.put(("answer", _answer(state, tenant, body, limit)))
        except DeadlinePassed:
            events.put(("error", _timed_out(limit).body(path)))
        except KmragError as e:
            status, kind = status_of(e)
            events.put(("error", problem_body(status, str(e), path, kind, error=type(e).__name__)))
        except Exception as e:  # noqa: BLE001 - reported to the client as the stream's last event
            events.put(("error", internal_error(e, path)))

    loop = asyncio.get_running_loop()
    loop.run_in_executor(state.ask_pool, work)
    yield b": kmrag answer stream\n\n"
    try:
        while True:
            try:
                kind, data = events.get_nowait()
            except queue.Empty:
                if time.monotonic() > limit.at:
                    yield _sse("error", _timed_out(limit).body(path))
                    return
                await asyncio.sleep(0.02)
                continue
            yield _sse(kind, data)
            if kind in ("answer", "error"):
                return
    finally:
        limit.cancelled = True  # timed out or the client went away: the question stops at its next step


_SSE_DOC = {"responses": {"200": {"content": {"text/event-stream": {}}, "description":
            "server-sent events: `step` per controller step as it happens ({phase: retrieval|answer, step, …}), "
            "then one `answer` (as POST /v1/ask) or one `error` (a problem)"}}}


@router.post("/ask/stream", tags=["asking"], openapi_extra=_SSE_DOC, response_class=StreamingResponse,
             responses=problems_doc(*KEYED, 400, 409, 413),
             summary="the controllers' steps as server-sent events, then the answer")
async def ask_stream(body: AskRequest, request: Request, tenant: str = Tenant) -> StreamingResponse:
    return StreamingResponse(_stream(_state(request), tenant, body, request.url.path), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/ask/stream", tags=["asking"], openapi_extra=_SSE_DOC, response_class=StreamingResponse,
            responses=problems_doc(*KEYED, 400, 409),
            summary="as POST /v1/ask/stream, the question in the query")
async def ask_stream_get(request: Request, question: str = Query(min_length=1, max_length=MAX_QUESTION_CHARS,
                                                                 json_schema_extra={"pattern": QUESTION_PATTERN}),
                         generator: Generator | None = None, strategy: Strategy = "multihop",
                         k: int = Query(8, ge=1, le=50),
                         tenant: str = Tenant) -> StreamingResponse:
    try:
        body = AskRequest(question=question, generator=generator, strategy=strategy, k=k)
    except ValidationError as e:
        raise RequestValidationError(e.errors(include_url=False)) from None
    return await ask_stream(body, request, tenant)


# -- checking statements ------------------------------------------------------------------------------------

@router.post("/support", response_model=SupportResponse, tags=["support"], responses=problems_doc(*KEYED, 400, 413),
             summary="check statements against the spans or units they cite: a verdict or an error per item",
             description="Each item is `{statement, spans, titles?}` or `{statement, unit_ids}` (units of the key's "
                         "tenant: their texts and titles). `results` has one entry per item, in order, with its "
                         "0-based `index`: `{index, supported, score, failed}`, or `{index, error}` for an item "
                         "that could not be checked (not an object, empty statement, no or both kinds of evidence, "
                         "over a limit, unknown unit ids); the other items are checked all the same. A body that "
                         f"is not `{{\"items\": [...]}}` with 1 to {MAX_SUPPORT_ITEMS} items is a 422 problem. "
                         "Nothing is stored.")
def support_check(body: SupportRequest, request: Request, tenant: str = Tenant) -> Any:
    from kmrag.answer.support_check import SupportLimits, check_items

    state = _state(request)
    checked = check_items(body.items, SupportLimits.from_settings(state.settings),
                          lambda ids: state.stores().units.get_units(tenant, ids), tenant)
    return _out({"results": [c.as_dict("index") for c in checked]})


# -- answers, units, entities -----------------------------------------------------------------------------

@router.get("/answers", tags=["answers"], responses=problems_doc(*KEYED), response_model=list[StoredAnswerOut], response_model_exclude_unset=True,
            summary="past answers, newest first")
def list_answers(request: Request, limit: int = Query(20, ge=1, le=500), offset: int = Query(0, ge=0, le=MAX_OFFSET),
                 tenant: str = Tenant) -> Any:
    got = _state(request).stores().units.list_answers(tenant, limit=limit, offset=offset)
    return _out([a.model_dump(mode="json", exclude={"trace", "tenant"}) | {"found": a.found} for a in got])


@router.get("/answers/{answer_id}", tags=["answers"], responses=problems_doc(*KEYED, 404), response_model=AnswerAuditOut, response_model_exclude_unset=True,
            summary="the audit of an answer: each cited unit, its source and version, the span, retired or not")
def get_answer(answer_id: str, request: Request, trace: bool = False, tenant: str = Tenant) -> Any:
    from kmrag.answer.audit import audit

    state = _state(request)
    stores = state.stores()
    report = audit(stores.units, stores.graph, tenant, answer_id)
    data = report.model_dump(mode="json") | {"all_current": report.all_current}
    if state.settings.uses_embedded_graph:
        data["browser"] = None  # no Neo4j, no Browser to show the evidence in
    data["answer"].pop("tenant", None)
    data["answer"]["found"] = report.answer.found
    data["paths"] = trace_paths(data["answer"].get("trace") or [])
    if not trace:
        data["answer"].pop("trace", None)
    return _out(data)


@router.get("/units/{unit_id}", tags=["browse"], responses=problems_doc(*KEYED, 404), summary="one unit: text, source, version, entities, neighbours")
def get_unit(unit_id: str, request: Request, tenant: str = Tenant) -> Any:
    from kmrag.browse import show_unit

    return _out(show_unit(_state(request).stores(), tenant, unit_id))


@router.get("/entities", tags=["browse"], responses=problems_doc(*KEYED), summary="entities whose name or an alias contains q")
def search(request: Request, q: str = Query(min_length=1, max_length=200, pattern=TEXT_PATTERN), limit: int = Query(50, ge=1, le=500),
           tenant: str = Tenant) -> Any:
    from kmrag.browse import search_entities

    return _out(search_entities(_state(request).stores(), tenant, q, limit=limit))


@router.get("/entities/{ref}", tags=["browse"], responses=problems_doc(*KEYED, 404), summary="one entity by id (e_…) or exact name")
def get_entity(ref: str, request: Request, tenant: str = Tenant) -> Any:
    from kmrag.browse import show_entity

    return _out(show_entity(_state(request).stores(), tenant, ref))


# -- sources ------------------------------------------------------------------------------------------------

@router.get("/sources", tags=["sources"], responses=problems_doc(*KEYED), summary="the tenant's sources (ids for DELETE), units, complete or not")
def list_sources(request: Request, match: str | None = None, tenant: str = Tenant) -> Any:
    units = _state(request).stores().units
    stats, uris = units.source_stats(tenant), units.source_uris(tenant)
    return _out([{"source": sid, "units": st["units"], "complete": st["version"] is not None, "uri": uris.get(sid, "")}
                 for sid, st in sorted(stats.items()) if not match or match in sid])


def _delete(state: ServerState, tenant: str, source_id: str, purge: bool) -> dict[str, Any]:
    from kmrag.ingestion.entity_names import sync_entity_names
    from kmrag.units.lock import tenant_lock

    stores = state.stores()
    with tenant_lock(stores.pool, tenant, DELETE_LOCK_WAIT_S):
        known = (stores.units.source_ids(tenant) | stores.graph.source_ids(tenant)
                 | stores.units.source_ids_with_units(tenant))
        if source_id not in known:
            raise NotFound(f"no source {source_id!r}: GET /v1/sources lists them")
        uri = stores.units.source_uris(tenant).get(source_id)
        rows = stores.units.delete_source(tenant, source_id) if purge else stores.units.retire_source(tenant, source_id)
        files = _purge_upload(state, tenant, source_id, uri) if purge else []
        try:
            g = stores.graph.delete_source(tenant, source_id)
            stores.graph.flush()
        except KmragError as e:
            raise KmragError(f"{source_id}: removed from PostgreSQL, but the graph write failed ({e}); "
                             "run `kmrag repair` to remove it from the graph") from e
        sync_entity_names(stores, None, tenant)
    return {"source": source_id, "found": True, "graph_units_removed": g, "unit_rows": rows, "purged": purge,
            "files_removed": files}


def _purge_upload(state: ServerState, tenant: str, source_id: str, uri: str | None) -> list[str]:
    """Remove the uploaded files of a purged source that no other source was read from; their names."""
    folder = up.tenant_dir(state.settings.data_dir, tenant)
    files = up.source_files(folder, source_id, uri, busy=state.jobs.busy())
    if not files:
        return []
    still = set(state.stores().units.source_uris(tenant).values())
    return [f"{f.parent.name}/{f.name}" for f in up.remove_files(files, still)]


@router.delete("/sources", tags=["sources"], responses=problems_doc(*KEYED, 404, 409), summary="remove a source, its id in the query: ?id=…")
def delete_source_q(request: Request, id: str = Query(min_length=1), purge: bool = False,  # noqa: A002
                    tenant: str = Tenant) -> Any:
    return _out(_delete(_state(request), tenant, id, purge))


@router.delete("/sources/{source_id:path}", tags=["sources"], responses=problems_doc(*KEYED, 404, 409),
               summary="remove a source: its id as the rest of the path, slashes included (percent-encode # and ?)")
def delete_source(source_id: str, request: Request, purge: bool = False, tenant: str = Tenant) -> Any:
    return _out(_delete(_state(request), tenant, source_id, purge))
