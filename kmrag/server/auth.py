"""Who is asking: the tenant of the request's API key (``Authorization: Bearer <key>`` or ``X-API-Key``),
checked on every request, so a revoked key stops working at once. The tenant always comes from the key,
never from the request. ``--insecure-local``: no keys, the one tenant of the settings. A key may have an
ingest root of its own (``kmrag keys create --ingest-root DIR``): kept in ``request.state.key_ingest_root``."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from kmrag.server.keys import KeyStore, parse_key
from kmrag.server.problems import Problem
from kmrag.server.ratelimit import RateLimiter

_bearer = HTTPBearer(auto_error=False, description="an API key from `kmrag keys create --tenant T`")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="the same key, in a header of its own")


def request_tenant(request: Request, bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
                   header: Annotated[str | None, Depends(_header)]) -> str:
    state = request.app.state.kmrag
    request.state.key_ingest_root = None
    if state.server.insecure_local:
        _limit(state.limiter, "local")
        return str(state.settings.tenant)
    key = (bearer.credentials if bearer is not None else None) or header
    if not key:
        raise Problem(401, "an API key is needed: send `Authorization: Bearer <key>` or `X-API-Key: <key>` "
                           "(`kmrag keys create --tenant T` makes one)", "missing-api-key",
                      headers={"WWW-Authenticate": "Bearer"})
    tenant, root = KeyStore(state.stores().pool).identify(key, state.key_touches)
    request.state.key_ingest_root = root
    _limit(state.limiter, parse_key(key)[0])
    return tenant


def _limit(limiter: RateLimiter | None, key_id: str) -> None:
    wait = limiter.take(key_id) if limiter is not None else None
    if wait is not None:
        raise Problem(429, f"this key made more than {limiter.capacity:g} requests in a minute "  # type: ignore[union-attr]
                           f"(KMRAG_SERVER_RATE_LIMIT_PER_MIN): try again in {RateLimiter.retry_after(wait)} s",
                      "rate-limited", headers={"Retry-After": RateLimiter.retry_after(wait)})
