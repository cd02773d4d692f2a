"""Request and response bodies of the HTTP API (pydantic at the boundary)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kmrag.retrieval.strategies import MAX_QUESTION_CHARS

Strategy = Literal["multihop", "hybrid", "dense", "bm25", "graph"]


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS)
    generator: Literal["auto", "extractive", "llm"] | None = Field(
        default=None, description="default: KMRAG_GENERATOR, else llm when one is configured")
    strategy: Strategy = "multihop"
    k: int = Field(default=8, ge=1, le=50, description="units to answer from")
    trace: bool = Field(default=False, description="include every step of both controllers")


class IngestPaths(BaseModel):
    model_config = ConfigDict(extra="forbid")

    paths: list[str] = Field(min_length=1, max_length=1000,
                             description="files or folders under KMRAG_SERVER_INGEST_ROOT (absolute, or relative "
                                         "to it); source ids are their paths relative to the root")
    force: bool = False
    prune: bool = False


class JobAccepted(BaseModel):
    id: str
    status: str
    href: str


class CitationOut(BaseModel):
    unit_id: str
    source_id: str
    quote: str
    start: int | None = None
    end: int | None = None
    kind: str = "sentence"


class StatementOut(BaseModel):
    text: str
    unit_ids: list[str]


class RankedUnitOut(BaseModel):
    rank: int
    id: str
    type: str
    source_id: str
    title: str
    snippet: str
    cited: bool


class PathHopOut(BaseModel):
    subject: str
    predicate: str
    object: str
    unit_ids: list[str] = Field(default_factory=list)


class RelationPathOut(BaseModel):
    hops: list[PathHopOut]


class AskResponse(BaseModel):
    id: str
    question: str
    found: bool
    text: str
    direct: str | None = None
    statements: list[StatementOut]
    citations: list[CitationOut]
    confidence: float
    generator: str
    strategy: str
    units: list[RankedUnitOut] = Field(description="the units retrieval ranked first, best first")
    paths: list[RelationPathOut] = Field(default_factory=list, description="the relation paths retrieval followed "
                                         "(entity names, relation types, the units each hop came from)")
    created_at: Any = None
    ms: float
    trace: list[dict[str, Any]] | None = Field(default=None, description="only when asked for (trace: true)")


class Health(BaseModel):
    ok: bool
    kmrag: str
    tenant_mode: str
    graph: dict[str, Any] = Field(default_factory=dict)
    postgres: dict[str, Any] = Field(default_factory=dict)
    pool: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
