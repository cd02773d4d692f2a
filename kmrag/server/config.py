"""Settings of the HTTP server: ``KMRAG_SERVER_*`` environment variables over defaults."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from kmrag.errors import ConfigError

LOCAL_HOSTS = ("127.0.0.1", "::1", "localhost")


class ServerSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    insecure_local: bool = False  # no keys: one tenant (KMRAG_TENANT), bound to the loopback only
    ingest_root: Path | None = None  # POST /v1/ingest {"paths"} may read under this folder only; None: off
    max_body_bytes: int = Field(default=64 * 1024 * 1024, ge=1)  # larger requests: 413
    ask_timeout_s: float = Field(default=120.0, gt=0)  # a slower /v1/ask: 504
    pool_size: int = Field(default=8, ge=2, le=200)  # PostgreSQL connections of the process (a fixed pool)
    ingest_workers: int = Field(default=2, ge=1, le=16)  # ingestion jobs run at once (one per tenant anyway)
    ask_workers: int = Field(default=16, ge=1, le=256)  # questions answered at once
    neo4j_browser_url: str | None = None  # the web page's "Open evidence in Neo4j Browser"; None: from the bolt host
    cors_origins: list[str] = Field(default_factory=list)  # key mode: web origins allowed to call the API; none
    rate_limit_per_min: int | None = Field(default=None, ge=1)  # requests a key may make per minute; None: no limit
    # uploads (<data_dir>/uploads/<tenant>/<job id>/): folders of finished jobs older than this are deleted at
    # start-up and after each ingestion job; None: kept until their sources are deleted with ?purge=true
    upload_retention_days: float | None = Field(default=None, gt=0)
    upload_quota_bytes: int | None = Field(default=None, ge=1)  # per tenant; an upload over it: 413


ENV = {"ingest_root": "KMRAG_SERVER_INGEST_ROOT", "max_body_bytes": "KMRAG_SERVER_MAX_BODY_BYTES",
       "ask_timeout_s": "KMRAG_SERVER_ASK_TIMEOUT_S", "pool_size": "KMRAG_SERVER_POOL_SIZE",
       "ingest_workers": "KMRAG_SERVER_INGEST_WORKERS", "ask_workers": "KMRAG_SERVER_ASK_WORKERS",
       "neo4j_browser_url": "KMRAG_NEO4J_BROWSER_URL", "cors_origins": "KMRAG_SERVER_CORS_ORIGINS",
       "rate_limit_per_min": "KMRAG_SERVER_RATE_LIMIT_PER_MIN", "upload_retention_days": "KMRAG_SERVER_UPLOAD_RETENTION_DAYS",
       "upload_quota_bytes": "KMRAG_SERVER_UPLOAD_QUOTA_BYTES"}
LISTS = {"cors_origins"}  # comma-separated in the environment


def load_server_settings(environ: dict[str, str] | None = None, **overrides: object) -> ServerSettings:
    env = dict(os.environ) if environ is None else environ
    values: dict[str, object] = {k: env[v] for k, v in ENV.items() if env.get(v)}
    for k in LISTS & set(values):
        values[k] = [x.strip() for x in str(values[k]).split(",") if x.strip()]
    values.update({k: v for k, v in overrides.items() if v is not None})
    try:
        s = ServerSettings(**values)  # type: ignore[arg-type]
    except ValidationError as e:
        raise ConfigError("invalid server settings: " + "; ".join(
            f"{ENV.get(str(err['loc'][0]), str(err['loc'][0]))}: {err['msg']}" for err in e.errors())) from e
    if s.ingest_root is not None:
        s.ingest_root = s.ingest_root.expanduser().resolve()
    return s


def check_bind(host: str, insecure_local: bool) -> None:
    """``--insecure-local`` serves without keys, so only this machine may reach it."""
    if insecure_local and host not in LOCAL_HOSTS:
        raise ConfigError(f"--insecure-local serves without API keys, so it binds only to {', '.join(LOCAL_HOSTS)}; "
                          f"not to {host!r} (create keys with `kmrag keys create --tenant T` and drop --insecure-local)")
