"""Typed models at kmrag's boundaries (pydantic v2)."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from kmrag.schema.ids import UNIT_ID_RE
from kmrag.schema.sanitize import tenant_field


def utcnow() -> datetime:
    return datetime.now(UTC)


class UnitType(StrEnum):
    SECTION = "section"
    PARAGRAPH = "paragraph"
    TABLE = "table"
    DEFINITION = "definition"
    STEP = "step"
    RULE = "rule"
    CODE = "code"  # a code block (fenced, indented, <pre>): cited by its lines, never run through NER


class UnitLinkKind(StrEnum):
    NEXT = "NEXT"
    PARENT_SECTION = "PARENT_SECTION"
    REFERENCES = "REFERENCES"


class MentionKind(StrEnum):
    MENTIONS = "MENTIONS"
    DEFINES = "DEFINES"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid")

    @field_validator("tenant", check_fields=False)
    @classmethod
    def _tenant_ok(cls, v: str) -> str:
        return tenant_field(v)


class Source(_Model):
    id: str = Field(min_length=1, description="path or URI of the source within the tenant")
    tenant: str
    uri: str
    version: str = Field(description="content hash of the source as ingested")
    content_hash: str
    ingested_at: datetime = Field(default_factory=utcnow)
    metadata: dict[str, Any] = Field(default_factory=dict)


class KnowledgeUnit(_Model):
    id: str
    tenant: str
    source_id: str
    source_version: str
    type: UnitType
    title: str = ""
    section_path: list[str] = Field(default_factory=list)
    ordinal: int = Field(ge=0, description="reading order within the source")
    content: str = Field(min_length=1)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _id_ok(cls, v: str) -> str:
        if not UNIT_ID_RE.fullmatch(v):
            raise ValueError(f"unit id {v!r} must look like u_ + 16 hex")
        return v


class UnitLink(_Model):
    tenant: str
    src: str
    dst: str
    kind: UnitLinkKind


class Entity(_Model):
    id: str
    tenant: str
    name: str = Field(min_length=1)
    type: str = "THING"
    aliases: list[str] = Field(default_factory=list)


class Mention(_Model):
    """(:Unit)-[:MENTIONS|DEFINES]->(:Entity)."""

    tenant: str
    unit_id: str
    entity_id: str
    kind: MentionKind = MentionKind.MENTIONS


class Relation(_Model):
    """(subject Entity)-[TYPE {predicate, unit_ids}]->(object Entity), with provenance."""

    id: str
    tenant: str
    subject_id: str
    object_id: str
    predicate: str = Field(min_length=1, description="predicate text as extracted")
    type: str = Field(description="relationship type, from kmrag.schema.sanitize.relationship_type")
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    unit_ids: list[str] = Field(min_length=1, description="units the relation was extracted from")
    sentences: list[str] = Field(default_factory=list)


class EntityMerge(_Model):
    """An auditable record that ``alias`` was resolved into entity ``entity_id``."""

    tenant: str
    entity_id: str
    alias: str
    method: str  # exact | normalised | acronym | alias | fuzzy
    score: float = 1.0


class Citation(_Model):
    """One cited unit: the span of its content that supports a statement (a sentence or a table row)."""

    unit_id: str
    source_id: str
    quote: str = Field(description="exactly the unit's content[start:end]")
    start: int | None = None
    end: int | None = None
    kind: str = "sentence"  # sentence | row


class Statement(_Model):
    """A sentence of the answer and the units it rests on (never empty in a stored answer)."""

    text: str
    unit_ids: list[str] = Field(min_length=1)


class Answer(_Model):
    id: str
    tenant: str
    question: str
    text: str = Field(description="the answer as shown: each statement followed by its [u_…] citations")
    direct: str | None = Field(default=None, description="a short direct answer, when one was extracted")
    statements: list[Statement] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    confidence: float = Field(default=0.0, ge=0.0, le=1.0, description="the probability that the answer is right, "
                              "calibrated on held-out dev questions (kmrag.answer.confidence)")
    confidence_why: str = Field(default="", description="what raised or lowered the confidence, in words")
    evidence: list[Statement] = Field(default_factory=list, description="when not found or below the confidence "
                                      "threshold: the best evidence found, cited, shown as evidence, not as an answer")
    basis: dict[str, Any] | None = Field(default=None, description=(
        "how the direct answer was read or computed from the cited spans: {kind: span | band | comparison | "
        "yes_no, rule (what was computed), entities [{name, value, unit_id, quote}] (the values compared or "
        "looked up, each with its unit), unit_id and quote (the span holding the answer)}; null without a "
        "direct answer"))
    generator: str = ""
    strategy: str = ""
    trace: list[dict[str, Any]] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)

    @property
    def found(self) -> bool:
        return bool(self.statements)
