"""Who is asking: the tenant of the request's API key (``Authorization: Bearer <key>`` or ``X-API-Key``),
checked on every request, so a revoked key stops working at once. The tenant always comes from the key,
never from the request. ``--insecure-local``: no keys, the one tenant of the settings. A key may have an
ingest root of its own (``kmrag keys create --ingest-root DIR``): kept in ``request.state.key_ingest_root``."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from kmrag.server.keys import KeyStore
from kmrag.server.problems import Problem

_bearer = HTTPBearer(auto_error=False, description="an API key from `kmrag keys create --tenant T`")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="the same key, in a header of its own")


def request_tenant(request: Request, bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
                   header: Annotated[str | None, Depends(_header)]) -> str:
    state = request.app.state.kmrag
    request.state.key_ingest_root = None
    if state.server.insecure_local:
        return str(state.settings.tenant)
    key = (bearer.credentials if bearer is not None else None) or header
    if not key:
        raise Problem(401, "an API key is needed: send `Authorization: Bearer <key>` or `X-API-Key: <key>` "
                           "(`kmrag keys create --tenant T` makes one)", "missing-api-key",
                      headers={"WWW-Authenticate": "Bearer"})
    tenant, root = KeyStore(state.stores().pool).identify(key)
    request.state.key_ingest_root = root
    return tenant
