"""Errors as RFC 9457 problem details (``application/problem+json``): type, title, status, detail,
instance, for every error the API answers, validation included. Known secrets never reach a detail."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from kmrag.errors import BadInput, ConfigError, InvalidIdentifier, KmragError, NotFound, ServiceUnavailable
from kmrag.schema.redact import redact, redact_data

MEDIA_TYPE = "application/problem+json"
TYPE_BASE = "https://kmrag.dev/problems/"  # a stable name per kind of problem; it need not resolve
log = logging.getLogger("kmrag.server")


PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["type", "title", "status", "detail", "instance"],
    "properties": {"type": {"type": "string", "description": "a stable name of the kind of problem"},
                   "title": {"type": "string"}, "status": {"type": "integer"},
                   "detail": {"type": "string", "description": "what went wrong and what to do"},
                   "instance": {"type": "string", "description": "the request's path"}},
    "additionalProperties": True}
WHEN = {400: "the body cannot be parsed, or a setting the request needs is missing or malformed", 401: "no API key, or an unknown or revoked one",
        403: "not allowed: a path outside the ingest root, or (--insecure-local) a foreign Host or Origin",
        404: "no such thing in the key's tenant", 409: "the tenant is busy with another job, or its stored vectors "
        "were made by another embedder", 413: "the body is over KMRAG_SERVER_MAX_BODY_BYTES or the upload quota",
        415: "neither multipart/form-data nor JSON", 422: "the request does not fit the schema",
        429: "over the key's KMRAG_SERVER_RATE_LIMIT_PER_MIN (Retry-After says when to try again)",
        500: "an unexpected error: the detail gives an error id to find in the server's log",
        503: "a store (Neo4j, PostgreSQL) cannot be reached", 504: "no answer within KMRAG_SERVER_ASK_TIMEOUT_S"}


def problems_doc(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's problems: each status it can answer, as application/problem+json."""
    return {status: {"description": f"{HTTPStatus(status).phrase}: {WHEN[status]}",
                     "content": {MEDIA_TYPE: {"schema": PROBLEM_SCHEMA}}} for status in sorted(set(statuses))}


class Problem(Exception):
    """An HTTP error with its problem type: raise it from a route."""

    def __init__(self, status: int, detail: str, kind: str | None = None, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers, self.extra = status, detail, headers, extra
        self.kind = kind or _slug(HTTPStatus(status).phrase)

    def body(self, instance: str) -> dict[str, Any]:
        return problem_body(self.status, self.detail, instance, self.kind, **self.extra)


def _slug(text: str) -> str:
    return "-".join(text.lower().replace("'", "").split())


def problem_body(status: int, detail: str, instance: str, kind: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": TYPE_BASE + (kind or _slug(HTTPStatus(status).phrase)),
                            "title": HTTPStatus(status).phrase, "status": status, "detail": redact(detail),
                            "instance": instance}
    body.update(redact_data(extra, patterns=True))
    return body


async def send_problem(send: Any, status: int, detail: str, instance: str, kind: str,
                       headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """A problem answered straight from ASGI middleware (before any route or exception handler runs)."""
    import json

    body = json.dumps(problem_body(status, detail, instance, kind)).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", MEDIA_TYPE.encode()), (b"content-length", str(len(body)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": body})


def problem_response(status: int, detail: str, instance: str, kind: str | None = None,
                     headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse(problem_body(status, detail, instance, kind, **extra), status_code=status,
                        media_type=MEDIA_TYPE, headers=headers)


def status_of(e: KmragError) -> tuple[int, str]:
    """The HTTP status of a kmrag error and its problem type."""
    from kmrag.errors import DeadlinePassed, EmbedderMismatch
    from kmrag.server.keys import InvalidKey
    from kmrag.units.lock import TenantBusy

    if isinstance(e, NotFound):
        return 404, "not-found"
    if isinstance(e, InvalidKey):
        return 401, "invalid-api-key"
    if isinstance(e, BadInput | InvalidIdentifier):
        return 422, "bad-input"
    if isinstance(e, ServiceUnavailable):
        return 503, "service-unavailable"
    if isinstance(e, TenantBusy):
        return 409, "tenant-busy"
    if isinstance(e, EmbedderMismatch):
        return 409, "embedder-mismatch"
    if isinstance(e, DeadlinePassed):
        return 504, "ask-timeout"
    if isinstance(e, ConfigError):
        return 400, "bad-request"
    return 500, "internal-error"


def internal_error(e: BaseException, instance: str) -> dict[str, Any]:
    """The problem document of an unexpected error: an error id and nothing of the error itself; the details,
    traceback included, go to the server's log under that id."""
    error_id = "err_" + secrets.token_hex(8)
    log.error("internal error %s on %s: %s: %s", error_id, instance, type(e).__name__, redact(str(e)),
              exc_info=(type(e), e, e.__traceback__))
    return problem_body(500, f"internal error {error_id}: the server's log has the details under this id",
                        instance, "internal-error", error_id=error_id)


def allowed_methods(app: FastAPI, scope: Any) -> list[str]:
    """The methods some route of the app answers at the request's path (for a 405's ``Allow``)."""
    from starlette.routing import Match

    def routes(rs: Any) -> Any:
        for r in rs:
            sub = getattr(r, "original_router", None)  # an included router (kept whole by FastAPI >= 0.16x)
            yield from routes(sub.routes) if sub is not None else (r,)

    methods: set[str] = set()
    for route in routes(app.router.routes):
        if getattr(route, "methods", None) and route.matches(scope)[0] is not Match.NONE:
            methods |= set(route.methods)
    return sorted(methods)


def install(app: FastAPI) -> None:
    """Every error the app answers, as problem details."""

    @app.exception_handler(Problem)
    async def _problem(request: Request, e: Problem) -> JSONResponse:
        return problem_response(e.status, e.detail, request.url.path, e.kind, e.headers, **e.extra)

    @app.exception_handler(KmragError)
    async def _kmrag(request: Request, e: KmragError) -> JSONResponse:
        status, kind = status_of(e)
        if status == 500:
            return JSONResponse(internal_error(e, request.url.path), status_code=500, media_type=MEDIA_TYPE)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        return problem_response(status, str(e), request.url.path, kind, headers, error=type(e).__name__)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        errors = [{"loc": [str(p) for p in err.get("loc", ())], "msg": str(err.get("msg", "")),
                   "type": str(err.get("type", ""))} for err in e.errors()]
        detail = "; ".join(f"{'.'.join(x['loc'])}: {x['msg']}" for x in errors) or "invalid request"
        return problem_response(422, detail, request.url.path, "validation-error", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, e: StarletteHTTPException) -> JSONResponse:
        detail = e.detail if isinstance(e.detail, str) else str(e.detail)
        headers = dict(getattr(e, "headers", None) or {})
        if e.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(app, request.scope))
        return problem_response(e.status_code, detail, request.url.path, headers=headers or None)

    @app.exception_handler(Exception)
    async def _internal(request: Request, e: Exception) -> JSONResponse:
        return JSONResponse(internal_error(e, request.url.path), status_code=500, media_type=MEDIA_TYPE)
