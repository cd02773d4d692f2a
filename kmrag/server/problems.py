"""Errors as RFC 9457 problem details (``application/problem+json``): type, title, status, detail,
instance, for every error the API answers, validation included. Known secrets never reach a detail."""

from __future__ import annotations

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


class Problem(Exception):
    """An HTTP error with its problem type: raise it from a route."""

    def __init__(self, status: int, detail: str, kind: str | None = None, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers, self.extra = status, detail, headers, extra
        self.kind = kind or _slug(HTTPStatus(status).phrase)


def _slug(text: str) -> str:
    return "-".join(text.lower().replace("'", "").split())


def problem_body(status: int, detail: str, instance: str, kind: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"type": TYPE_BASE + (kind or _slug(HTTPStatus(status).phrase)),
                            "title": HTTPStatus(status).phrase, "status": status, "detail": redact(detail),
                            "instance": instance}
    body.update(redact_data(extra, patterns=True))
    return body


def problem_response(status: int, detail: str, instance: str, kind: str | None = None,
                     headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    return JSONResponse(problem_body(status, detail, instance, kind, **extra), status_code=status,
                        media_type=MEDIA_TYPE, headers=headers)


def status_of(e: KmragError) -> tuple[int, str]:
    """The HTTP status of a kmrag error and its problem type."""
    from kmrag.errors import EmbedderMismatch
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
    if isinstance(e, ConfigError):
        return 400, "bad-request"
    return 500, "kmrag-error"


def install(app: FastAPI) -> None:
    """Every error the app answers, as problem details."""

    @app.exception_handler(Problem)
    async def _problem(request: Request, e: Problem) -> JSONResponse:
        return problem_response(e.status, e.detail, request.url.path, e.kind, e.headers, **e.extra)

    @app.exception_handler(KmragError)
    async def _kmrag(request: Request, e: KmragError) -> JSONResponse:
        status, kind = status_of(e)
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
        return problem_response(e.status_code, detail, request.url.path, headers=getattr(e, "headers", None))

    @app.exception_handler(Exception)
    async def _internal(request: Request, e: Exception) -> JSONResponse:
        return problem_response(500, f"internal error {type(e).__name__}: {e}", request.url.path, "internal-error")
