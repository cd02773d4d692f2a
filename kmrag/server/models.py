"""Request and response bodies of the HTTP API (pydantic at the boundary)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from kmrag.answer.support_check import SupportItem
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


MAX_SUPPORT_ITEMS = 100  # statements per POST /v1/support

# any JSON value is taken as an item, so a bad one gets its own error in the results (the body is not refused)
_AnyItem = Annotated[Any, WithJsonSchema(SupportItem.model_json_schema(mode="validation"))]


class SupportRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[_AnyItem] = Field(min_length=1, max_length=MAX_SUPPORT_ITEMS, description=(
        f"1 to {MAX_SUPPORT_ITEMS} statements, each with the spans it cites (and optionally their units' titles) "
        "or the ids of the tenant's units it cites"))


class SupportVerdictOut(BaseModel):
    index: int = Field(description="the item's 0-based position in `items`")
    supported: bool
    score: float = Field(ge=0, le=1)
    failed: str | None = Field(description="the part of the statement that did not hold; null when supported")


class SupportErrorOut(BaseModel):
    index: int = Field(description="the item's 0-based position in `items`")
    error: str = Field(description="why the item could not be checked, naming it (`items[2]: ...`)")


class SupportResponse(BaseModel):
    results: list[SupportVerdictOut | SupportErrorOut] = Field(
        description="one per item, in the order of `items`: a verdict, or an error for an item that could not be "
                    "checked (the others are checked all the same)")


class Health(BaseModel):
    ok: bool
    kmrag: str
    tenant_mode: str
    graph: dict[str, Any] = Field(default_factory=dict)
    postgres: dict[str, Any] = Field(default_factory=dict)
    pool: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
