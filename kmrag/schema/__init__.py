"""The data model and database schemas: one source of truth, importing nothing else of kmrag
but the exception root."""

from kmrag.schema.ids import answer_id, entity_id, normalise_content, relation_id, unit_id
from kmrag.schema.models import (
    Answer,
    Citation,
    Entity,
    EntityMerge,
    KnowledgeUnit,
    Mention,
    MentionKind,
    Relation,
    Source,
    Statement,
    UnitLink,
    UnitLinkKind,
    UnitType,
)
from kmrag.schema.sanitize import relationship_type

__all__ = [
    "Answer",
    "Citation",
    "Statement",
    "Entity",
    "EntityMerge",
    "KnowledgeUnit",
    "Mention",
    "MentionKind",
    "Relation",
    "Source",
    "UnitLink",
    "UnitLinkKind",
    "UnitType",
    "answer_id",
    "entity_id",
    "normalise_content",
    "relation_id",
    "relationship_type",
    "unit_id",
]
