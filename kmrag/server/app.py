"""The ASGI app: /v1 routes, problem details for every error, a request size limit, OpenAPI at /docs.
One set of stores per process, opened at start-up and closed at shutdown."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

import kmrag
from kmrag.config import Settings
from kmrag.errors import ConfigError, KmragError
from kmrag.retrieval.strategies import MAX_QUESTION_CHARS
from kmrag.server import problems
from kmrag.server.config import ServerSettings
from kmrag.server.limits import BodyLimit
from kmrag.server.state import ServerState

DESCRIPTION = """Knowledge-graph RAG over HTTP: ingest documents, ask questions answered with citations of
knowledge units, audit answers, browse units and entities, remove sources.

Every route but `/v1/health` needs a tenant's API key (`kmrag keys create --tenant T`), sent as
`Authorization: Bearer <key>` or `X-API-Key: <key>`; the key decides the tenant. Errors are RFC 9457
problem details (`application/problem+json`), each route listing the statuses it can answer.

With `--insecure-local` (no keys), only requests naming the loopback host and, when they carry an Origin,
coming from the server's own page are served: anything else is a 403."""


def create_app(settings: Settings, server: ServerSettings | None = None) -> FastAPI:
    server = server or ServerSettings()
    if server.insecure_local and server.cors_origins:
        raise ConfigError("KMRAG_SERVER_CORS_ORIGINS is for servers with API keys: --insecure-local answers only "
                          "its own page")
    state = ServerState(settings, server)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from fastapi.concurrency import run_in_threadpool

        try:
            await run_in_threadpool(state.stores)  # opened once; if the databases are down, /v1/health says 503
        except KmragError:
            pass
        await run_in_threadpool(state.sweep_uploads)  # upload folders past KMRAG_SERVER_UPLOAD_RETENTION_DAYS
        try:
            yield
        finally:
            await run_in_threadpool(state.close)

    app = FastAPI(title="kmrag", version=kmrag.__version__, description=DESCRIPTION, lifespan=lifespan,
                  docs_url="/docs", openapi_url="/openapi.json", redoc_url=None)
    app.state.kmrag = state
    _truthful_openapi(app, settings, server)
    problems.install(app)
    from kmrag.server.api_v1 import router

    app.include_router(router)

    from kmrag.server import web

    web.install(app, settings, server)

    app.add_middleware(BodyLimit, max_bytes=server.max_body_bytes)
    if server.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=server.cors_origins, allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Authorization", "X-API-Key", "Content-Type"], max_age=600)
    if server.insecure_local:
        from kmrag.server.guard import LocalOnly

        app.add_middleware(LocalOnly, port=server.port)  # outermost: before anything reads the request
    return app


def _truthful_openapi(app: FastAPI, settings: Settings, server: ServerSettings) -> None:
    """The spec as this server is configured: no ``llm`` generator without an LLM, the question's length limit,
    and with ``--insecure-local`` no keys (no security schemes, no 401)."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = made()
            if not settings.llm_model:
                _drop_enum_value(schema, "llm")
            limit = min(settings.max_question_chars, MAX_QUESTION_CHARS)
            ask = schema["components"]["schemas"]["AskRequest"]["properties"]["question"]
            ask["maxLength"] = limit
            for p in schema["paths"]["/v1/ask/stream"]["get"]["parameters"]:
                if p["name"] == "question":
                    p["schema"]["maxLength"] = limit
            if server.insecure_local:
                _keyless(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _drop_enum_value(node: Any, value: str) -> None:
    """Remove ``value`` from the generator enums (["auto", "extractive", "llm"]) anywhere in the schema."""
    if isinstance(node, dict):
        enum = node.get("enum")
        if isinstance(enum, list) and value in enum and "extractive" in enum:
            node["enum"] = [v for v in enum if v != value]
        for v in node.values():
            _drop_enum_value(v, value)
    elif isinstance(node, list):
        for v in node:
            _drop_enum_value(v, value)


def _keyless(schema: dict[str, Any]) -> None:
    schema.get("components", {}).pop("securitySchemes", None)
    for ops in schema["paths"].values():
        for op in ops.values():
            op.pop("security", None)
            op.get("responses", {}).pop("401", None)
