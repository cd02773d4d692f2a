"""The web page at ``/``: one server-rendered HTML page and a little vanilla JavaScript (``static/``), no
build step. The page talks to the /v1 API with fetch; the server only fills in what the page cannot ask
for: the tenant mode (keys or not) and where Neo4j Browser is (none on the embedded graph store)."""

from __future__ import annotations

import json
import string
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

import kmrag
from kmrag.config import Settings
from kmrag.server.config import ServerSettings

BROWSER_PORT = 7474


def neo4j_browser(settings: Settings, server: ServerSettings) -> dict[str, str] | None:
    """Neo4j Browser's address and the bolt URL it should connect to; None on the embedded graph store.
    ``KMRAG_NEO4J_BROWSER_URL`` wins; otherwise the bolt host's port 7474."""
    if not settings.neo4j_uri:
        return None
    parts = urlsplit(settings.neo4j_uri)
    host = parts.hostname or "127.0.0.1"
    shown_host = f"[{host}]" if ":" in host else host
    bolt = f"{parts.scheme}://{shown_host}" + (f":{parts.port}" if parts.port else "")  # no user or password
    url = server.neo4j_browser_url or f"http://{shown_host}:{BROWSER_PORT}/browser/"
    return {"url": url, "bolt": bolt}


def page_config(settings: Settings, server: ServerSettings) -> dict[str, Any]:
    return {"version": kmrag.__version__, "tenant_mode": "insecure-local" if server.insecure_local else "api-keys",
            "tenant": settings.tenant if server.insecure_local else None,
            "neo4j_browser": neo4j_browser(settings, server), "min_confidence": settings.min_confidence}


def _json_in_html(data: Any) -> str:
    """JSON safe inside a <script type="application/json"> element (no closing tag, no markup)."""
    return json.dumps(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def install(app: FastAPI, settings: Settings, server: ServerSettings) -> None:
    static = resources.files("kmrag.server") / "static"
    template = string.Template((static / "index.html").read_text(encoding="utf-8"))
    html = template.substitute(config=_json_in_html(page_config(settings, server)), version=kmrag.__version__)

    @app.get("/", include_in_schema=False, response_class=HTMLResponse)
    def index() -> HTMLResponse:
        return HTMLResponse(html, headers={"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                                           "Referrer-Policy": "no-referrer"})

    app.mount("/static", StaticFiles(directory=str(static)), name="static")


# scripts and styles from this server only; no inline script runs (the config is a JSON data element), so
# text that slipped into the page as markup still could not execute
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
