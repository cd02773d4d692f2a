"""The GraphStore protocol: what ingestion writes and retrieval reads, on every graph backend.

Every method takes the tenant explicitly (or reads it from the models it writes); no call can
see or change another tenant's nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, Field

from kmrag.schema import Answer, Entity, KnowledgeUnit, Mention, Relation, Source, UnitLink

MAX_HOPS = 4
T = TypeVar("T")


class Hop(BaseModel):
    subject_id: str
    subject_name: str
    type: str
    predicate: str
    object_id: str
    object_name: str
    unit_ids: list[str]


class RelationPath(BaseModel):
    """A chain of relations from a start entity; each hop names the units it was extracted from."""

    start_id: str
    end_id: str
    hops: list[Hop]

    @property
    def unit_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for h in self.hops:
            for u in h.unit_ids:
                seen.setdefault(u, None)
        return list(seen)


class Neighbour(BaseModel):
    unit_id: str
    neighbour_id: str
    kind: str  # NEXT | PREV | PARENT_SECTION | CHILD | REFERENCES | CO_MENTION


class GraphCounts(BaseModel):
    sources: int = 0
    units: int = 0
    entities: int = 0
    relations: int = 0
    unit_links: int = 0
    mentions: int = 0
    units_by_type: dict[str, int] = Field(default_factory=dict)


class SourceStats(BaseModel):
    """One source as the graph knows it: its Source node's version (None when there is only units)."""

    version: str | None = None
    units: int = 0
    mentioned_units: int = 0  # units with at least one MENTIONS or DEFINES edge


@runtime_checkable
class GraphStore(Protocol):
    backend: str

    def init_schema(self) -> None: ...
    def write_sources(self, sources: Sequence[Source]) -> None: ...
    def write_units(self, units: Sequence[KnowledgeUnit]) -> None: ...
    def write_unit_links(self, links: Sequence[UnitLink]) -> None: ...
    def clear_unit_links(self, tenant: str, source_id: str) -> int: ...
    def write_entities(self, entities: Sequence[Entity]) -> None: ...
    def remove_entity_alias(self, tenant: str, entity_id: str, alias: str) -> bool: ...
    def merge_entities(self, tenant: str, merges: Sequence[tuple[str, str]]) -> int:
        """Apply (absorbed_id, target_id) pairs in order: the absorbed entity's mentions and relations move
        to the target (relations get the target's relation id and union with an existing one; self-loops are
        dropped), its name and aliases become the target's aliases, and it is deleted. Pairs naming a missing
        entity, or one entity twice, are skipped. Returns how many entities were absorbed."""
        ...
    def write_mentions(self, mentions: Sequence[Mention]) -> None: ...
    def write_relations(self, relations: Sequence[Relation]) -> None: ...
    def write_answer(self, answer: Answer) -> None: ...
    def flush(self) -> None: ...

    def unit_ids(self, tenant: str, source_id: str | None = None) -> set[str]: ...
    def source_ids(self, tenant: str) -> set[str]: ...
    def source_stats(self, tenant: str) -> dict[str, SourceStats]:
        """Per source id with a Source node or any unit, sorted by id."""
        ...
    def retire_units(self, tenant: str, unit_ids: Sequence[str]) -> int: ...
    def delete_source(self, tenant: str, source_id: str) -> int: ...

    # Reads return a deterministic order: lists sorted by id (relations by id; paths by hops, start id,
    # hop keys, end id; neighbours by (unit, neighbour, kind)); dicts keyed in sorted order.
    def get_entities(self, tenant: str, entity_ids: Sequence[str]) -> list[Entity]: ...
    def find_entities(self, tenant: str, names: Sequence[str]) -> list[Entity]: ...
    def all_entities(self, tenant: str) -> list[Entity]: ...
    def relations(self, tenant: str, entity_id: str | None = None) -> list[Relation]: ...
    def entity_units(
        self, tenant: str, entity_ids: Sequence[str], limit_per_entity: int | None = None
    ) -> dict[str, list[str]]:
        """The units mentioning or defining each entity, sorted by id. With ``limit_per_entity``, the first
        that many in the order (units defining it first, then unit id), still returned sorted by id."""
        ...
    def unit_entities(self, tenant: str, unit_ids: Sequence[str]) -> dict[str, list[str]]: ...
    def relation_paths(
        self, tenant: str, entity_ids: Sequence[str], max_hops: int = 2, limit: int = 200, fanout: int = 50,
        co_mention: bool = False,
    ) -> list[RelationPath]:
        """Simple paths of 1..max_hops hops from ``entity_ids``: relations, either direction, and with
        ``co_mention`` co-mention hops (type CO_MENTION, predicate co_mention, subject the entity left, unit_ids
        the first shared units by id) between entities some unit mentions or defines both and no relation
        joins. From each entity only its first ``fanout`` hops are followed (relations by id, then
        co-mentions by shared units, most first, then entity id); ordered by (hops, start id, those hop
        keys, end id); the first ``limit``. Semantics and bounds: :mod:`kmrag.graph.paths`."""
        ...
    def connecting_paths(
        self, tenant: str, source_ids: Sequence[str], target_ids: Sequence[str], max_hops: int = 3,
        limit: int = 50, fanout: int = 50, co_mention: bool = True,
    ) -> list[RelationPath]:
        """Simple paths of 1..max_hops hops from a source to a target other than itself, hops as in
        relation_paths, grown from both ends (a direct hop between a source and a target is always found);
        ordered like relation_paths; the first ``limit``. Semantics and bounds: :mod:`kmrag.graph.paths`."""
        ...
    def neighbours(self, tenant: str, unit_ids: Sequence[str], kinds: Sequence[str] | None = None) -> list[Neighbour]: ...
    def answer_citations(self, tenant: str, answer_id: str) -> list[str]: ...

    def counts(self, tenant: str) -> GraphCounts: ...
    def clear_tenant(self, tenant: str) -> None: ...
    def server_info(self) -> dict[str, str]: ...
    def close(self) -> None: ...


def check_hops(max_hops: int) -> int:
    if not isinstance(max_hops, int) or isinstance(max_hops, bool) or not 1 <= max_hops <= MAX_HOPS:
        raise ValueError(f"max_hops must be an int in 1..{MAX_HOPS}, got {max_hops!r}")
    return max_hops


def chunks(rows: Sequence[T], size: int = 1000) -> list[Sequence[T]]:
    return [rows[i : i + size] for i in range(0, len(rows), size)]
