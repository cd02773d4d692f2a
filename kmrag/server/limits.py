"""The request size limit (KMRAG_SERVER_MAX_BODY_BYTES): a larger declared Content-Length is refused before
it is read, and a body that grows past the limit as it streams is cut off; both answer 413."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from kmrag.server.problems import send_problem

Scope = dict[str, Any]


class _TooLarge(HTTPException):
    """Raised while the body is read, so a route reading it (FastAPI's body parsing included) answers 413."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"the request body is larger than {max_bytes} bytes (KMRAG_SERVER_MAX_BODY_BYTES)")


class BodyLimit:
    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, send)
            return
        seen = 0
        started = False

        async def counting_receive() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge(self.max_bytes)
            return message

        async def watching_send(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except _TooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Any) -> None:
        await send_problem(send, 413, f"the request body is larger than {self.max_bytes} bytes "
                                      "(KMRAG_SERVER_MAX_BODY_BYTES)", scope.get("path", ""), "request-too-large",
                           [(b"connection", b"close")])
