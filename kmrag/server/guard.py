"""Who may reach a keyless server: with ``--insecure-local`` there are no keys, so only this machine's own
pages may use it. A request must name a loopback host in its ``Host`` header (a page on another site whose
name was made to resolve to 127.0.0.1, "DNS rebinding", sends its own name) and, when it carries an
``Origin``, come from the server's own origin (a page on another site may POST a multipart upload without
a preflight). Anything else answers 403 before a route runs."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from kmrag.server.config import LOCAL_HOSTS
from kmrag.server.problems import send_problem

Scope = dict[str, Any]


def split_host(value: str) -> tuple[str, int | None]:
    """("127.0.0.1", 8000) of "127.0.0.1:8000"; IPv6 in brackets; (value, None) without a port."""
    try:
        parts = urlsplit("//" + value)
        return (parts.hostname or "").lower(), parts.port
    except ValueError:
        return "", None


def refusal(headers: dict[bytes, bytes], port: int) -> str | None:
    """Why a keyless server refuses a request with these headers, or None."""
    host_header = headers.get(b"host", b"").decode("latin-1")
    host, hport = split_host(host_header)
    if host not in LOCAL_HOSTS or (port and (hport or 80) != port):
        return (f"Host {host_header!r} is not this server's loopback name: with --insecure-local it answers only "
                f"requests to {LOCAL_HOSTS[0]}:{port} or localhost:{port}")
    origin = headers.get(b"origin")
    if origin is None:
        return None
    value = origin.decode("latin-1")
    parts = urlsplit(value) if value != "null" else None
    ok = parts is not None and parts.scheme == "http" and (parts.hostname or "").lower() in LOCAL_HOSTS \
        and (not port or (parts.port or 80) == port)
    return None if ok else (f"Origin {value!r} is not this server's own page: with --insecure-local a page of another "
                            "site may not use it")


class LocalOnly:
    """ASGI middleware of ``--insecure-local``: 403 for a foreign Host or Origin (see the module docstring)."""

    def __init__(self, app: Any, port: int) -> None:
        self.app, self.port = app, port

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        why = refusal(dict(scope.get("headers") or []), self.port)
        if why is None:
            await self.app(scope, receive, send)
            return
        await send_problem(send, 403, why, scope.get("path", ""), "foreign-origin")
