"""Settings: environment variables KMRAG_* over an optional kmrag.toml over defaults.

With neither ``KMRAG_NEO4J_URI`` nor ``KMRAG_DATABASE_URL`` set, kmrag runs on its embedded
defaults: a PostgreSQL+pgvector it starts itself under ``data_dir`` and the embedded graph store.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from kmrag.errors import ConfigError
from kmrag.schema.sanitize import tenant_field

ENV_PREFIX = "KMRAG_"


# the largest file ingest reads (--max-bytes): a file is read whole, and a 60 MB Markdown file of short
# paragraphs took 2.7 GB to parse, so this limit is what bounds an ingest's memory per file
DEFAULT_MAX_BYTES = 16 * 1024 * 1024


# settings that take one of a few words: the words
CHOICES = {"llm_roles": ("all", "draft"), "rerank": ("cross-encoder", "none"), "reader": ("cross-encoder", "words"),
           "paths": ("relations", "none")}


class Settings(BaseModel):
    data_dir: Path = Field(default_factory=lambda: Path.home() / ".kmrag")
    tenant: str = "default"
    # graph store: a Bolt URI selects Neo4j, otherwise the embedded graph store is used
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = None
    neo4j_database: str = "neo4j"
    # unit store: a PostgreSQL URL, otherwise the embedded PostgreSQL under data_dir
    database_url: str | None = None
    pg_pool_max: int = 8  # PostgreSQL connections one process may hold; more concurrent requests queue
    embedding_dim: int = 384
    embedder: str = "local"  # local | openai
    extractor: str = "spacy"  # spacy | llm
    embedding_model: str = "text-embedding-3-small"
    # OpenAI-compatible LLM, used when configured
    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    llm_api: str = "chat"  # chat | completions (a base model served without a chat template)
    llm_timeout: float = 60.0  # seconds per LLM call
    llm_context_chars: int = 6000  # unit text given to the LLM per answer (the best units that fit)
    # the LLM's part in answering: "all" (it grades units, drafts, judges statements, grades the answer) or
    # "draft" (it only drafts; grading and judging stay offline: about 3 LLM calls an answer instead of ~13,
    # for a small local model on a CPU)
    llm_roles: str = "all"
    generator: str = "auto"  # auto (llm when configured, else extractive) | extractive | llm
    # outages: fail fast on queries, retry writes of an ingestion job with backoff, then name the service
    pg_connect_timeout_s: float = 5.0  # connecting, and waiting for a pooled connection
    pg_statement_timeout_ms: int = 60000  # per SQL statement; 0: none
    pg_retries: int = 5  # retries of a job's PostgreSQL call after a lost connection (backoff doubles)
    pg_retry_backoff_s: float = 0.5  # first pause between those retries
    neo4j_connection_timeout_s: float = 5.0  # connecting, and waiting for a pooled connection
    neo4j_tx_timeout_s: float = 60.0  # per Neo4j transaction (server-side); 0: the server's default
    neo4j_write_retry_s: float = 30.0  # how long the driver retries a write transaction on transient errors
    neo4j_read_retry_s: float = 3.0  # the same for reads: queries fail fast while Neo4j is down
    max_question_chars: int = 2000  # longer questions are refused (after whitespace runs become one space)
    # below this probability of being right an answer is "not found", with the best evidence shown
    min_confidence: float = 0.5
    # the cross-encoder (kmrag.nlp.rerank): "cross-encoder" reranks retrieval's best candidates / reads the
    # spans by meaning; "none" leaves retrieval's order / reads spans by the question's words alone
    rerank: str = "none"
    reader: str = "cross-encoder"
    # answers read off relation paths in the graph (kmrag.answer.paths): "relations" tries them beside the text
    # reader (the support check decides when they disagree), "none" reads the text alone
    paths: str = "relations"
    # the weight of the units on relation paths from the question's entities among multihop's rankings (0: paths
    # are shown, not ranked); chosen on the dev sets' tune halves (README, "Answers along relations")
    path_weight: float = Field(default=0.0, ge=0.0, le=5.0)
    # `kmrag support check` / POST /v1/support: a statement, span or line over these is refused, named
    support_max_statement_chars: int = 5000
    support_max_span_chars: int = 20000  # per span given (units read by unit_ids are taken whole)
    support_max_spans: int = 50  # spans, titles or unit_ids per statement

    @field_validator("tenant")
    @classmethod
    def _tenant_ok(cls, v: str) -> str:
        return tenant_field(v)

    @field_validator("llm_api")
    @classmethod
    def _api_ok(cls, v: str) -> str:
        if v not in {"chat", "completions"}:
            raise ValueError("llm_api must be chat or completions")
        return v

    @field_validator("generator")
    @classmethod
    def _generator_ok(cls, v: str) -> str:
        if v not in {"auto", "extractive", "llm"}:
            raise ValueError("generator must be auto, extractive or llm")
        return v

    @field_validator("pg_pool_max")
    @classmethod
    def _pool_ok(cls, v: int) -> int:
        if not 1 <= v <= 1000:
            raise ValueError("pg_pool_max must be between 1 and 1000")
        return v

    @field_validator("pg_connect_timeout_s", "pg_retry_backoff_s", "neo4j_connection_timeout_s",
                     "neo4j_tx_timeout_s", "neo4j_write_retry_s", "neo4j_read_retry_s", "pg_statement_timeout_ms",
                     "pg_retries")
    @classmethod
    def _not_negative(cls, v: float) -> float:
        if v < 0:
            raise ValueError("must not be negative")
        return v

    @field_validator("max_question_chars")
    @classmethod
    def _question_limit_ok(cls, v: int) -> int:
        if not 1 <= v <= 100_000:
            raise ValueError("max_question_chars must be between 1 and 100000")
        return v

    @field_validator("llm_roles", "rerank", "reader", "paths")
    @classmethod
    def _choice_ok(cls, v: str, info: Any) -> str:
        choices = CHOICES[info.field_name]
        if v not in choices:
            raise ValueError(f"{info.field_name} must be " + " or ".join(repr(c) for c in choices))
        return v

    @field_validator("min_confidence")
    @classmethod
    def _confidence_ok(cls, v: float) -> float:
        if not 0.0 <= v <= 1.0:
            raise ValueError("min_confidence must be between 0 and 1")
        return v

    @field_validator("support_max_statement_chars", "support_max_span_chars", "support_max_spans")
    @classmethod
    def _support_limits_ok(cls, v: int) -> int:
        if not 1 <= v <= 1_000_000:
            raise ValueError("must be between 1 and 1000000")
        return v

    @field_validator("embedding_dim")
    @classmethod
    def _dim_ok(cls, v: int) -> int:
        if not 1 <= v <= 16000:
            raise ValueError("embedding_dim must be between 1 and 16000")
        return v

    @property
    def uses_embedded_graph(self) -> bool:
        return not self.neo4j_uri

    @property
    def uses_embedded_postgres(self) -> bool:
        return not self.database_url

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url or self.llm_api_key) and bool(self.llm_model)


def _from_env(environ: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in Settings.model_fields:
        key = ENV_PREFIX + name.upper()
        if key in environ and environ[key] != "":
            out[name] = environ[key]
    return out


def load_settings(
    config_file: Path | None = None, environ: dict[str, str] | None = None, **overrides: Any
) -> Settings:
    """Build settings from (lowest first) defaults, kmrag.toml, KMRAG_* env vars, explicit overrides."""
    environ = dict(os.environ) if environ is None else environ
    values: dict[str, Any] = {}
    path = config_file or (Path(environ["KMRAG_CONFIG"]) if environ.get("KMRAG_CONFIG") else Path("kmrag.toml"))
    if path.exists():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ConfigError(f"{path}: cannot read config file: {e}") from e
        section = data.get("kmrag", data)
        unknown = set(section) - set(Settings.model_fields)
        if unknown:
            raise ConfigError(f"{path}: unknown settings {sorted(unknown)}; known: {sorted(Settings.model_fields)}")
        values.update(section)
    values.update(_from_env(environ))
    values.update({k: v for k, v in overrides.items() if v is not None})
    try:
        settings = Settings(**values)
    except ValidationError as e:
        problems = "; ".join(
            f"{ENV_PREFIX}{'.'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in e.errors()
        )
        raise ConfigError(f"invalid settings: {problems}") from e
    from kmrag.schema.redact import register_settings

    register_settings(settings)  # every message and output of this process hides its passwords and keys
    return settings
