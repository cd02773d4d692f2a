"""The embedded graph store: a networkx MultiDiGraph per tenant, persisted as JSON files.

It passes the same GraphStore contract suite as Neo4j. Writes are buffered in memory and made
durable by ``flush()`` (atomic replace of the tenant's file); ``close()`` flushes.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from kmrag.errors import StoreError
from kmrag.graph.base import GraphCounts, Hop, Neighbour, RelationPath, check_hops
from kmrag.schema import Answer, Entity, KnowledgeUnit, Mention, Relation, Source, UnitLink
from kmrag.schema.ids import canonical_entity_name
from kmrag.schema.sanitize import check_identifier

FORMAT_VERSION = 1


def _src_key(source_id: str) -> str:
    return "s:" + source_id


class LocalGraphStore:
    backend = "embedded"

    def __init__(self, directory: Path) -> None:
        self._dir = Path(directory)
        self._dir.mkdir(parents=True, exist_ok=True)
        self._graphs: dict[str, nx.MultiDiGraph] = {}
        self._dirty: set[str] = set()
        self._lock = threading.RLock()

    # -- persistence --------------------------------------------------------------------------

    def _path(self, tenant: str) -> Path:
        digest = hashlib.sha256(tenant.encode("utf-8")).hexdigest()[:16]
        return self._dir / f"graph-{digest}.json"

    def _g(self, tenant: str) -> nx.MultiDiGraph:
        with self._lock:
            g = self._graphs.get(tenant)
            if g is None:
                g = self._load(tenant)
                self._graphs[tenant] = g
            return g

    def _load(self, tenant: str) -> nx.MultiDiGraph:
        path = self._path(tenant)
        if not path.exists():
            return nx.MultiDiGraph(tenant=tenant)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise StoreError(f"embedded graph file {path} is unreadable: {e}; restore it or delete it and re-ingest") from e
        if data.get("tenant") != tenant or data.get("format") != FORMAT_VERSION:
            raise StoreError(f"embedded graph file {path} does not belong to tenant {tenant!r} or has an old format")
        g = nx.MultiDiGraph(tenant=tenant)
        for node_id, attrs in data["nodes"]:
            g.add_node(node_id, **attrs)
        for u, v, key, attrs in data["edges"]:
            g.add_edge(u, v, key=key, **attrs)
        return g

    def flush(self) -> None:
        with self._lock:
            for tenant in sorted(self._dirty):
                g = self._graphs[tenant]
                data = {
                    "format": FORMAT_VERSION,
                    "tenant": tenant,
                    "nodes": [[n, a] for n, a in g.nodes(data=True)],
                    "edges": [[u, v, k, a] for u, v, k, a in g.edges(keys=True, data=True)],
                }
                path = self._path(tenant)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
                os.replace(tmp, path)
            self._dirty.clear()

    def _touch(self, tenant: str) -> nx.MultiDiGraph:
        self._dirty.add(tenant)
        return self._g(tenant)

    # -- schema -------------------------------------------------------------------------------

    def init_schema(self) -> None:
        """Nothing to create: the graph files are made on first flush."""

    # -- writes -------------------------------------------------------------------------------

    def write_sources(self, sources: Sequence[Source]) -> None:
        with self._lock:
            for source in sources:
                self._write_source(source)

    def _write_source(self, source: Source) -> None:
        g = self._touch(source.tenant)
        g.add_node(
            _src_key(source.id),
            label="Source",
            id=source.id,
            uri=source.uri,
            version=source.version,
            content_hash=source.content_hash,
            ingested_at=source.ingested_at.isoformat(),
        )

    def write_units(self, units: Sequence[KnowledgeUnit]) -> None:
        with self._lock:
            for u in units:
                g = self._touch(u.tenant)
                g.add_node(
                    u.id,
                    label="Unit",
                    id=u.id,
                    source_id=u.source_id,
                    source_version=u.source_version,
                    type=u.type.value,
                    title=u.title,
                    section_path=list(u.section_path),
                    ordinal=u.ordinal,
                    content=u.content,
                )
                if g.has_node(_src_key(u.source_id)):
                    g.add_edge(u.id, _src_key(u.source_id), key="PART_OF")

    def _is(self, g: nx.MultiDiGraph, node: str, label: str) -> bool:
        return g.has_node(node) and g.nodes[node].get("label") == label

    def write_unit_links(self, links: Sequence[UnitLink]) -> None:
        with self._lock:
            for link in links:
                g = self._touch(link.tenant)
                if self._is(g, link.src, "Unit") and self._is(g, link.dst, "Unit"):
                    g.add_edge(link.src, link.dst, key=link.kind.value)

    def clear_unit_links(self, tenant: str, source_id: str) -> int:
        with self._lock:
            g = self._touch(tenant)
            doomed = [(u, v, k) for u, v, k in g.edges(keys=True)
                      if k in ("NEXT", "PARENT_SECTION", "REFERENCES") and g.nodes[u].get("source_id") == source_id]
            g.remove_edges_from(doomed)
            return len(doomed)

    def write_entities(self, entities: Sequence[Entity]) -> None:
        with self._lock:
            for e in entities:
                g = self._touch(e.tenant)
                old = g.nodes[e.id].get("aliases", []) if g.has_node(e.id) else []
                aliases = list(old) + [a for a in e.aliases if a not in old]
                g.add_node(
                    e.id, label="Entity", id=e.id, name=e.name, type=e.type,
                    key=canonical_entity_name(e.name), aliases=aliases,
                )

    def remove_entity_alias(self, tenant: str, entity_id: str, alias: str) -> bool:
        with self._lock:
            g = self._g(tenant)
            if not self._is(g, entity_id, "Entity") or alias not in g.nodes[entity_id].get("aliases", []):
                return False
            self._touch(tenant)
            g.nodes[entity_id]["aliases"] = [a for a in g.nodes[entity_id]["aliases"] if a != alias]
            return True

    def write_mentions(self, mentions: Sequence[Mention]) -> None:
        with self._lock:
            for m in mentions:
                g = self._touch(m.tenant)
                if self._is(g, m.unit_id, "Unit") and self._is(g, m.entity_id, "Entity"):
                    g.add_edge(m.unit_id, m.entity_id, key=m.kind.value)

    def write_relations(self, relations: Sequence[Relation]) -> None:
        with self._lock:
            for r in relations:
                check_identifier(r.type, "relationship type")
                g = self._touch(r.tenant)
                if not (self._is(g, r.subject_id, "Entity") and self._is(g, r.object_id, "Entity")):
                    continue
                if g.has_edge(r.subject_id, r.object_id, key=r.id):
                    a = g.edges[r.subject_id, r.object_id, r.id]
                    a["unit_ids"] = a["unit_ids"] + [x for x in r.unit_ids if x not in a["unit_ids"]]
                    a["sentences"] = a["sentences"] + [x for x in r.sentences if x not in a["sentences"]]
                    a["confidence"] = max(a["confidence"], r.confidence)
                else:
                    g.add_edge(
                        r.subject_id, r.object_id, key=r.id, kind="relation", type=r.type,
                        predicate=r.predicate, confidence=r.confidence,
                        unit_ids=list(r.unit_ids), sentences=list(r.sentences),
                    )

    def write_answer(self, answer: Answer) -> None:
        with self._lock:
            g = self._touch(answer.tenant)
            g.add_node(answer.id, label="Answer", id=answer.id, question=answer.question, text=answer.text,
                       created_at=answer.created_at.isoformat())
            for c in answer.citations:
                if self._is(g, c.unit_id, "Unit"):
                    g.add_edge(answer.id, c.unit_id, key="CITES")

    # -- lifecycle of units -------------------------------------------------------------------

    def _nodes(self, tenant: str, label: str) -> list[tuple[str, dict[str, Any]]]:
        return [(n, a) for n, a in self._g(tenant).nodes(data=True) if a.get("label") == label]

    def unit_ids(self, tenant: str, source_id: str | None = None) -> set[str]:
        with self._lock:
            return {n for n, a in self._nodes(tenant, "Unit") if source_id is None or a["source_id"] == source_id}

    def source_ids(self, tenant: str) -> set[str]:
        with self._lock:
            return {a["id"] for _, a in self._nodes(tenant, "Source")}

    def _relation_edges(self, g: nx.MultiDiGraph) -> list[tuple[str, str, str, dict[str, Any]]]:
        return [(u, v, k, a) for u, v, k, a in g.edges(keys=True, data=True) if a.get("kind") == "relation"]

    def retire_units(self, tenant: str, unit_ids: Sequence[str]) -> int:
        with self._lock:
            g = self._touch(tenant)
            ids = {u for u in unit_ids if self._is(g, u, "Unit")}
            if not ids:
                return 0
            for u, v, k, a in self._relation_edges(g):
                if any(x in ids for x in a["unit_ids"]):
                    a["unit_ids"] = [x for x in a["unit_ids"] if x not in ids]
                    if not a["unit_ids"]:
                        g.remove_edge(u, v, key=k)
            g.remove_nodes_from(ids)
            orphans = [n for n, _ in self._nodes(tenant, "Entity") if g.degree(n) == 0]
            g.remove_nodes_from(orphans)
            return len(ids)

    def delete_source(self, tenant: str, source_id: str) -> int:
        with self._lock:
            n = self.retire_units(tenant, sorted(self.unit_ids(tenant, source_id)))
            g = self._touch(tenant)
            if g.has_node(_src_key(source_id)):
                g.remove_node(_src_key(source_id))
            return n

    # -- reads --------------------------------------------------------------------------------

    @staticmethod
    def _entity(tenant: str, a: dict[str, Any]) -> Entity:
        return Entity(id=a["id"], tenant=tenant, name=a["name"], type=a.get("type") or "THING",
                      aliases=list(a.get("aliases", [])))

    def get_entities(self, tenant: str, entity_ids: Sequence[str]) -> list[Entity]:
        with self._lock:
            g = self._g(tenant)
            return [self._entity(tenant, g.nodes[i]) for i in dict.fromkeys(entity_ids) if self._is(g, i, "Entity")]

    def find_entities(self, tenant: str, names: Sequence[str]) -> list[Entity]:
        keys = {canonical_entity_name(n) for n in names if n.strip()}
        if not keys:
            return []
        with self._lock:
            return [
                self._entity(tenant, a)
                for _, a in self._nodes(tenant, "Entity")
                if a["key"] in keys or any(x.lower() in keys for x in a.get("aliases", []))
            ]

    def all_entities(self, tenant: str) -> list[Entity]:
        with self._lock:
            return sorted((self._entity(tenant, a) for _, a in self._nodes(tenant, "Entity")), key=lambda e: e.id)

    def relations(self, tenant: str, entity_id: str | None = None) -> list[Relation]:
        with self._lock:
            out = [
                Relation(id=k, tenant=tenant, subject_id=u, object_id=v, type=a["type"], predicate=a["predicate"],
                         confidence=a["confidence"], unit_ids=list(a["unit_ids"]), sentences=list(a["sentences"]))
                for u, v, k, a in self._relation_edges(self._g(tenant))
                if entity_id is None or entity_id in (u, v)
            ]
            return sorted(out, key=lambda r: r.id)

    def _mention_map(self, tenant: str, ids: Sequence[str], from_unit: bool) -> dict[str, list[str]]:
        g = self._g(tenant)
        out: dict[str, list[str]] = {}
        for i in dict.fromkeys(ids):
            if not g.has_node(i):
                continue
            edges = g.out_edges(i, keys=True) if from_unit else g.in_edges(i, keys=True)
            found = sorted({(v if from_unit else u) for u, v, k in edges if k in ("MENTIONS", "DEFINES")})
            if found:
                out[i] = found
        return out

    def entity_units(self, tenant: str, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        with self._lock:
            return self._mention_map(tenant, entity_ids, from_unit=False)

    def unit_entities(self, tenant: str, unit_ids: Sequence[str]) -> dict[str, list[str]]:
        with self._lock:
            return self._mention_map(tenant, unit_ids, from_unit=True)

    def relation_paths(
        self, tenant: str, entity_ids: Sequence[str], max_hops: int = 2, limit: int = 200
    ) -> list[RelationPath]:
        """Breadth-first simple paths over relation edges in either direction, like `-[*1..k]-`."""
        check_hops(max_hops)
        with self._lock:
            g = self._g(tenant)
            out: list[RelationPath] = []
            for start in dict.fromkeys(entity_ids):
                if not self._is(g, start, "Entity"):
                    continue
                queue: deque[tuple[str, list[Hop], frozenset[str]]] = deque([(start, [], frozenset([start]))])
                while queue and len(out) < limit:
                    node, hops, seen = queue.popleft()
                    for hop, nxt in self._hops_from(g, node):
                        if nxt in seen:
                            continue
                        path = [*hops, hop]
                        out.append(RelationPath(start_id=start, end_id=nxt, hops=path))
                        if len(out) >= limit:
                            break
                        if len(path) < max_hops:
                            queue.append((nxt, path, seen | {nxt}))
            return out

    def _hops_from(self, g: nx.MultiDiGraph, node: str) -> list[tuple[Hop, str]]:
        out: list[tuple[Hop, str]] = []
        edges = [(u, v, k, a, v) for u, v, k, a in g.out_edges(node, keys=True, data=True)]
        edges += [(u, v, k, a, u) for u, v, k, a in g.in_edges(node, keys=True, data=True)]
        for u, v, _k, a, other in sorted(edges, key=lambda e: e[2]):
            if a.get("kind") != "relation":
                continue
            hop = Hop(subject_id=u, subject_name=g.nodes[u]["name"], type=a["type"], predicate=a["predicate"],
                      object_id=v, object_name=g.nodes[v]["name"], unit_ids=list(a["unit_ids"]))
            out.append((hop, other))
        return out

    def neighbours(self, tenant: str, unit_ids: Sequence[str], kinds: Sequence[str] | None = None) -> list[Neighbour]:
        with self._lock:
            g = self._g(tenant)
            found: set[tuple[str, str, str]] = set()
            for uid in dict.fromkeys(unit_ids):
                if not self._is(g, uid, "Unit"):
                    continue
                for _, v, k in g.out_edges(uid, keys=True):
                    if k in ("NEXT", "PARENT_SECTION", "REFERENCES"):
                        found.add((uid, v, k))
                for u, _, k in g.in_edges(uid, keys=True):
                    reverse = {"NEXT": "PREV", "PARENT_SECTION": "CHILD", "REFERENCES": "REFERENCES"}.get(k)
                    if reverse:
                        found.add((uid, u, reverse))
            return [
                Neighbour(unit_id=a, neighbour_id=b, kind=k)
                for a, b, k in sorted(found)
                if kinds is None or k in kinds
            ]

    def answer_citations(self, tenant: str, answer_id: str) -> list[str]:
        with self._lock:
            g = self._g(tenant)
            if not self._is(g, answer_id, "Answer"):
                return []
            return sorted(v for _, v, k in g.out_edges(answer_id, keys=True) if k == "CITES")

    def counts(self, tenant: str) -> GraphCounts:
        with self._lock:
            g = self._g(tenant)
            by_type: dict[str, int] = {}
            for _, a in self._nodes(tenant, "Unit"):
                by_type[a["type"]] = by_type.get(a["type"], 0) + 1
            keys = [k for _, _, k in g.edges(keys=True)]
            return GraphCounts(
                sources=len(self._nodes(tenant, "Source")),
                units=sum(by_type.values()),
                units_by_type=by_type,
                entities=len(self._nodes(tenant, "Entity")),
                relations=len(self._relation_edges(g)),
                unit_links=sum(k in ("NEXT", "PARENT_SECTION", "REFERENCES") for k in keys),
                mentions=sum(k in ("MENTIONS", "DEFINES") for k in keys),
            )

    def clear_tenant(self, tenant: str) -> None:
        with self._lock:
            self._graphs.pop(tenant, None)
            self._dirty.discard(tenant)
            self._path(tenant).unlink(missing_ok=True)

    def server_info(self) -> dict[str, str]:
        return {"backend": "embedded", "name": "networkx", "version": nx.__version__, "path": str(self._dir)}

    def close(self) -> None:
        self.flush()
