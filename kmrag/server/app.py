"""The ASGI app: /v1 routes, problem details for every error, a request size limit, OpenAPI at /docs.
One set of stores per process, opened at start-up and closed at shutdown."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

import kmrag
from kmrag.config import Settings
from kmrag.errors import KmragError
from kmrag.server import problems
from kmrag.server.config import ServerSettings
from kmrag.server.limits import BodyLimit
from kmrag.server.state import ServerState

DESCRIPTION = """Knowledge-graph RAG over HTTP: ingest documents, ask questions answered with citations of
knowledge units, audit answers, browse units and entities, remove sources.

Every route but `/v1/health` needs a tenant's API key (`kmrag keys create --tenant T`), sent as
`Authorization: Bearer <key>` or `X-API-Key: <key>`; the key decides the tenant. Errors are RFC 9457
problem details (`application/problem+json`)."""


def create_app(settings: Settings, server: ServerSettings | None = None) -> FastAPI:
    server = server or ServerSettings()
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
    problems.install(app)
    from kmrag.server.api_v1 import router

    app.include_router(router)

    from kmrag.server import web

    web.install(app, settings, server)

    app.add_middleware(BodyLimit, max_bytes=server.max_body_bytes)
    return app
