"""Tenant API keys of the HTTP API, kept hashed in PostgreSQL (``kmrag_api_keys``).

A key reads ``kmrag_<key_id>_<secret>``: ``key_id`` is 12 hex digits (the row's primary key, so a key
is looked up by it), ``secret`` 32 random bytes in URL-safe base64. Only the SHA-256 of the secret is
stored, compared with :func:`hmac.compare_digest`. The key itself is shown once, when it is created.
Every request checks the row, so a revoked key stops working at once (no cache). The check only reads; a
key's last use is written at most once a minute (per process, and per database by the UPDATE's own guard).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import MutableMapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from kmrag.errors import KmragError, NotFound
from kmrag.schema.sanitize import tenant_checked

PREFIX = "kmrag_"
KEY_RE = re.compile(r"^kmrag_(?P<key_id>[0-9a-f]{12})_(?P<secret>[A-Za-z0-9_-]{43})$")
MAX_NAME = 200
TOUCH_EVERY_S = 60.0  # how often a key's last use is written at most


class InvalidKey(KmragError):
    """An API key that is missing, malformed, unknown or revoked (the HTTP API answers 401)."""


class ApiKey(BaseModel):
    """A key as listed: never the key or its hash."""

    id: str
    tenant: str
    name: str
    created_at: datetime | None = None
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None
    ingest_root: str | None = None  # the folder this key may ingest paths from; None: the server's root

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


def new_key() -> tuple[str, str, str]:
    """A fresh key: (key, key_id, sha256 of its secret)."""
    key_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)  # 32 random bytes, 43 characters
    return f"{PREFIX}{key_id}_{secret}", key_id, hash_secret(secret)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def parse_key(key: str) -> tuple[str, str]:
    """(key_id, secret) of a well-formed key, else InvalidKey."""
    m = KEY_RE.fullmatch(key.strip()) if isinstance(key, str) else None
    if m is None:
        raise InvalidKey("malformed API key: it reads kmrag_<key id>_<secret>, as `kmrag keys create` prints it")
    return m.group("key_id"), m.group("secret")


@tenant_checked
class KeyStore:
    def __init__(self, pool: Any) -> None:
        self._pool = pool

    def create(self, tenant: str, name: str = "", ingest_root: str | None = None) -> tuple[str, ApiKey]:
        """A new key of ``tenant``: (the key, shown once; its record). ``ingest_root``: the absolute folder
        the key may ingest paths from, instead of the server's KMRAG_SERVER_INGEST_ROOT."""
        key, key_id, digest = new_key()
        with self._pool.connection() as conn:
            row = conn.execute(
                "INSERT INTO kmrag_api_keys (key_id, tenant, name, secret_hash, ingest_root) "
                "VALUES (%s, %s, %s, %s, %s) RETURNING key_id, tenant, name, created_at, last_used_at, revoked_at, ingest_root",
                (key_id, tenant, (name or "")[:MAX_NAME], digest, ingest_root)).fetchone()
        return key, self._record(row)

    def list(self, tenant: str) -> list[ApiKey]:
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT key_id, tenant, name, created_at, last_used_at, revoked_at, ingest_root "
                                "FROM kmrag_api_keys WHERE tenant = %s ORDER BY created_at, key_id",
                                (tenant,)).fetchall()
        return [self._record(r) for r in rows]

    def revoke(self, tenant: str, key_id: str) -> ApiKey:
        """Revoke a key of ``tenant`` (another tenant's key is not found); revoking twice keeps the first time."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "UPDATE kmrag_api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE tenant = %s "
                "AND key_id = %s RETURNING key_id, tenant, name, created_at, last_used_at, revoked_at, ingest_root",
                (tenant, key_id)).fetchone()
        if row is None:
            raise NotFound(f"no API key {key_id!r} in tenant {tenant!r}: `kmrag keys list --tenant {tenant}` lists them")
        return self._record(row)

    def authenticate(self, key: str, touched: MutableMapping[str, float] | None = None) -> str:
        """The tenant of a valid, unrevoked key, else InvalidKey (see identify)."""
        return self.identify(key, touched)[0]

    def identify(self, key: str, touched: MutableMapping[str, float] | None = None) -> tuple[str, str | None]:
        """(tenant, ingest root or None) of a valid, unrevoked key, else InvalidKey. Its last use is written when
        ``touched`` (key id -> when this process last wrote it) says a minute has passed; the UPDATE itself skips a
        row written in the last minute by another process."""
        key_id, secret = parse_key(key)
        with self._pool.connection() as conn:
            row = conn.execute("SELECT tenant, secret_hash, revoked_at, ingest_root FROM kmrag_api_keys "
                               "WHERE key_id = %s", (key_id,)).fetchone()
            ok = row is not None and hmac.compare_digest(row[1], hash_secret(secret))
            if not ok:
                raise InvalidKey("unknown API key")
            if row[2] is not None:
                raise InvalidKey("this API key was revoked")
            now = time.monotonic()
            if touched is None or now - touched.get(key_id, float("-inf")) >= TOUCH_EVERY_S:
                conn.execute("UPDATE kmrag_api_keys SET last_used_at = now() WHERE key_id = %s AND (last_used_at IS "
                             "NULL OR last_used_at < now() - make_interval(secs => %s))", (key_id, TOUCH_EVERY_S))
                if touched is not None:
                    touched[key_id] = now
        return str(row[0]), row[3]

    @staticmethod
    def _record(r: Any) -> ApiKey:
        return ApiKey(id=r[0], tenant=r[1], name=r[2], created_at=r[3], last_used_at=r[4], revoked_at=r[5],
                      ingest_root=r[6])
