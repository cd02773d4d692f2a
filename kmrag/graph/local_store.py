"""The embedded graph store: a networkx MultiDiGraph per tenant, persisted as a snapshot plus an operation log.

It passes the same GraphStore contract suite as Neo4j. Every mutating call changes the in-memory graph and
is kept as one JSON operation (its arguments). ``flush()`` appends the operations to the tenant's log
(fsync'd), or, when the log would grow larger than the snapshot, writes a new snapshot instead
(compaction): a flush costs what changed, not the size of the corpus. Loading is the snapshot plus a
replay of the log through the same mutation code (``_op_*``); see :mod:`kmrag.graph.local_files`.

A tenant without unflushed changes is brought up to date whenever its files changed on disk, so a
long-lived process sees what another process flushed. A tenant with unflushed changes keeps its view
until ``flush()``, which then replays its operations on top of what is on disk before writing them.
``close()`` flushes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import networkx as nx

from kmrag.errors import StoreError
from kmrag.graph import paths
from kmrag.graph.base import GraphCounts, Hop, Neighbour, RelationPath, SourceStats
from kmrag.graph.local_files import Cursor, Stamp, TenantFiles
from kmrag.schema import Answer, Entity, KnowledgeUnit, Mention, Relation, Source, UnitLink
from kmrag.schema.ids import canonical_entity_name, relation_id
from kmrag.schema.sanitize import check_identifier, tenant_checked

LINK_KINDS = ("NEXT", "PARENT_SECTION", "REFERENCES")
MENTION_KINDS = ("MENTIONS", "DEFINES")
_LOG_IF_NONZERO = frozenset({"clear_links", "remove_alias", "retire", "merge"})  # others are always logged


def _src_key(source_id: str) -> str:
    return "s:" + source_id


def _set_aliases(attrs: dict[str, Any], aliases: list[str]) -> None:
    attrs["aliases"] = aliases
    attrs["alias_keys"] = [canonical_entity_name(a) for a in aliases]


@dataclass
class _Tenant:
    files: TenantFiles
    graph: nx.MultiDiGraph
    cursor: Cursor
    pending: list[str] = field(default_factory=list)  # operations (JSON lines) not yet in the log


@tenant_checked
class LocalGraphStore:
    backend = "embedded"

    def __init__(self, directory: Path) -> None:
        self._dir = Path(directory)
        self._dir.mkdir(parents=True, exist_ok=True)
        self._tenants: dict[str, _Tenant] = {}
        self._lock = threading.RLock()

    # -- persistence --------------------------------------------------------------------------

    def _build(self, files: TenantFiles) -> tuple[nx.MultiDiGraph, Cursor]:
        """Snapshot plus log replay; the caller holds the files' lock."""
        data, ops, cursor = files.read()
        g = nx.MultiDiGraph(tenant=files.tenant)
        if data:
            for node_id, attrs in data["nodes"]:
                g.add_node(node_id, **attrs)
            for u, v, key, attrs in data["edges"]:
                g.add_edge(u, v, key=key, **attrs)
            for _, a in g.nodes(data=True):
                if a.get("label") == "Entity" and "alias_keys" not in a:  # format 1
                    _set_aliases(a, list(a.get("aliases", [])))
        for op in ops:
            self._replay(g, op)
        return g, cursor

    def _load(self, files: TenantFiles) -> tuple[nx.MultiDiGraph, Cursor]:
        with files.locked(exclusive=False):
            return self._build(files)

    def _g(self, tenant: str) -> nx.MultiDiGraph:
        """The tenant's graph; unless it has unflushed changes, first brought up to date with its files."""
        t = self._tenants.get(tenant)
        if t is None:
            files = TenantFiles(self._dir, tenant)
            g, cursor = self._load(files)
            t = self._tenants[tenant] = _Tenant(files, g, cursor)
        elif not t.pending and t.files.stamp() != t.cursor.stamp:
            with t.files.locked(exclusive=False):
                new = t.files.read_new(t.cursor)
                if new is None:
                    t.graph, t.cursor = self._build(t.files)
                else:
                    for op in new[0]:
                        self._replay(t.graph, op)
                    t.cursor = new[1]
        return t.graph

    def _replay(self, g: nx.MultiDiGraph, op: Any) -> None:
        if not isinstance(op, dict) or "op" not in op or "args" not in op:
            raise StoreError(f"embedded graph log of tenant {g.graph['tenant']!r} holds a line that is not an operation")
        self._apply(g, op["op"], op["args"])

    def _apply(self, g: nx.MultiDiGraph, name: str, args: Any) -> int:
        fn = getattr(self, f"_op_{name}", None)
        if fn is None:
            raise StoreError(f"embedded graph log holds an unknown operation {name!r} (written by a newer kmrag?)")
        return int(fn(g, args))

    def _mutate(self, tenant: str, name: str, args: Any) -> int:
        """Apply one operation to the tenant's graph and keep it for the log."""
        with self._lock:
            n = self._apply(self._g(tenant), name, args)
            if n or name not in _LOG_IF_NONZERO:
                self._tenants[tenant].pending.append(json.dumps({"op": name, "args": args}, ensure_ascii=False))
            return n

    def flush(self) -> None:
        with self._lock:
            for tenant in sorted(self._tenants):
                t = self._tenants[tenant]
                if not t.pending:
                    continue
                with t.files.locked(exclusive=True):
                    if t.files.stamp() != t.cursor.stamp:  # another process wrote: ours go on top of theirs
                        t.graph, t.cursor = self._build(t.files)
                        for line in t.pending:
                            self._replay(t.graph, json.loads(line))
                    size = sum(len(line.encode("utf-8")) + 1 for line in t.pending)
                    if not t.cursor.log_ok or t.cursor.pos + size > t.cursor.snapshot_size:
                        t.cursor = t.files.compact(self._body(t.graph))
                    else:
                        t.cursor = t.files.append(t.cursor, t.pending)
                t.pending = []

    @staticmethod
    def _body(g: nx.MultiDiGraph) -> dict[str, Any]:
        return {
            "nodes": [[n, a] for n, a in g.nodes(data=True)],
            "edges": [[u, v, k, a] for u, v, k, a in g.edges(keys=True, data=True)],
        }

    # -- schema -------------------------------------------------------------------------------

    def init_schema(self) -> None:
        """Nothing to create: the graph files are made on first flush."""

    # -- writes: each public call becomes one operation per tenant ----------------------------

    @staticmethod
    def _by_tenant(items: Sequence[Any]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = {}
        for it in items:
            out.setdefault(it.tenant, []).append(it)
        return out

    def write_sources(self, sources: Sequence[Source]) -> None:
        for tenant, items in self._by_tenant(sources).items():
            self._mutate(tenant, "sources", [s.model_dump(mode="json", include={
                "id", "uri", "version", "content_hash", "ingested_at"}) for s in items])

    def write_units(self, units: Sequence[KnowledgeUnit]) -> None:
        for tenant, items in self._by_tenant(units).items():
            self._mutate(tenant, "units", [{**u.model_dump(mode="json", include={
                "id", "source_id", "source_version", "type", "title", "section_path", "ordinal", "content"}),
                "language": u.metadata.get("language")} for u in items])

    def write_unit_links(self, links: Sequence[UnitLink]) -> None:
        for tenant, items in self._by_tenant(links).items():
            self._mutate(tenant, "links", [[x.src, x.dst, x.kind.value] for x in items])

    def clear_unit_links(self, tenant: str, source_id: str) -> int:
        return self._mutate(tenant, "clear_links", source_id)

    def write_entities(self, entities: Sequence[Entity]) -> None:
        for tenant, items in self._by_tenant(entities).items():
            self._mutate(tenant, "entities", [e.model_dump(include={"id", "name", "type", "aliases"}) for e in items])

    def remove_entity_alias(self, tenant: str, entity_id: str, alias: str) -> bool:
        return bool(self._mutate(tenant, "remove_alias", [entity_id, alias]))

    def merge_entities(self, tenant: str, merges: Sequence[tuple[str, str]]) -> int:
        return self._mutate(tenant, "merge", [[a, b] for a, b in merges]) if merges else 0

    def write_mentions(self, mentions: Sequence[Mention]) -> None:
        for tenant, items in self._by_tenant(mentions).items():
            self._mutate(tenant, "mentions", [[m.unit_id, m.entity_id, m.kind.value] for m in items])

    def write_relations(self, relations: Sequence[Relation]) -> None:
        for r in relations:
            check_identifier(r.type, "relationship type")
        for tenant, items in self._by_tenant(relations).items():
            self._mutate(tenant, "relations", [r.model_dump(exclude={"tenant"}) for r in items])

    def write_answer(self, answer: Answer) -> None:
        self._mutate(answer.tenant, "answer", {
            "id": answer.id, "question": answer.question, "text": answer.text,
            "created_at": answer.created_at.isoformat(), "unit_ids": sorted({c.unit_id for c in answer.citations}),
        })

    def retire_units(self, tenant: str, unit_ids: Sequence[str]) -> int:
        return self._mutate(tenant, "retire", list(unit_ids))

    def delete_source(self, tenant: str, source_id: str) -> int:
        return self._mutate(tenant, "delete_source", source_id)

    # -- operations: the one mutation code, for calls and for log replay ----------------------

    def _op_sources(self, g: nx.MultiDiGraph, rows: list[dict[str, Any]]) -> int:
        for r in rows:
            g.add_node(_src_key(r["id"]), label="Source", **r)
        return len(rows)

    def _op_units(self, g: nx.MultiDiGraph, rows: list[dict[str, Any]]) -> int:
        for r in rows:
            g.add_node(r["id"], label="Unit", **{**r, "section_path": list(r["section_path"])})
            if g.has_node(_src_key(r["source_id"])):
                g.add_edge(r["id"], _src_key(r["source_id"]), key="PART_OF")
        return len(rows)

    def _op_links(self, g: nx.MultiDiGraph, rows: list[list[str]]) -> int:
        for src, dst, kind in rows:
            if self._is(g, src, "Unit") and self._is(g, dst, "Unit"):
                g.add_edge(src, dst, key=kind)
        return len(rows)

    def _op_clear_links(self, g: nx.MultiDiGraph, source_id: str) -> int:
        doomed = [(u, v, k) for u, v, k in g.edges(keys=True)
                  if k in LINK_KINDS and g.nodes[u].get("source_id") == source_id]
        g.remove_edges_from(doomed)
        return len(doomed)

    def _op_entities(self, g: nx.MultiDiGraph, rows: list[dict[str, Any]]) -> int:
        for e in rows:
            old = g.nodes[e["id"]].get("aliases", []) if g.has_node(e["id"]) else []
            g.add_node(e["id"], label="Entity", id=e["id"], name=e["name"], type=e["type"],
                       key=canonical_entity_name(e["name"]))
            _set_aliases(g.nodes[e["id"]], list(dict.fromkeys([*old, *e["aliases"]])))
        return len(rows)

    def _op_remove_alias(self, g: nx.MultiDiGraph, args: list[str]) -> int:
        entity_id, alias = args
        if not self._is(g, entity_id, "Entity") or alias not in g.nodes[entity_id].get("aliases", []):
            return 0
        a = g.nodes[entity_id]
        _set_aliases(a, [x for x in a["aliases"] if x != alias])
        return 1

    def _op_mentions(self, g: nx.MultiDiGraph, rows: list[list[str]]) -> int:
        for unit, entity, kind in rows:
            if self._is(g, unit, "Unit") and self._is(g, entity, "Entity"):
                g.add_edge(unit, entity, key=kind)
        return len(rows)

    def _op_relations(self, g: nx.MultiDiGraph, rows: list[dict[str, Any]]) -> int:
        for r in rows:
            self._put_relation(g, r)
        return len(rows)

    def _put_relation(self, g: nx.MultiDiGraph, r: dict[str, Any]) -> None:
        """Create, or union provenance into, relation r["id"] (write_relations' semantics)."""
        s, o = r["subject_id"], r["object_id"]
        if not (self._is(g, s, "Entity") and self._is(g, o, "Entity")):
            return
        if g.has_edge(s, o, key=r["id"]):
            a = g.edges[s, o, r["id"]]
            a["unit_ids"] = a["unit_ids"] + [x for x in r["unit_ids"] if x not in a["unit_ids"]]
            a["sentences"] = a["sentences"] + [x for x in r["sentences"] if x not in a["sentences"]]
            a["confidence"] = max(a["confidence"], r["confidence"])
        else:
            g.add_edge(s, o, key=r["id"], kind="relation", type=r["type"], predicate=r["predicate"],
                       confidence=r["confidence"], unit_ids=list(r["unit_ids"]), sentences=list(r["sentences"]))

    def _op_answer(self, g: nx.MultiDiGraph, a: dict[str, Any]) -> int:
        g.add_node(a["id"], label="Answer", id=a["id"], question=a["question"], text=a["text"],
                   created_at=a["created_at"])
        for uid in a["unit_ids"]:
            if self._is(g, uid, "Unit"):
                g.add_edge(a["id"], uid, key="CITES")
        return 1

    def _op_retire(self, g: nx.MultiDiGraph, unit_ids: list[str]) -> int:
        ids = {u for u in unit_ids if self._is(g, u, "Unit")}
        if not ids:
            return 0
        for u, v, k, a in self._relation_edges(g):
            if any(x in ids for x in a["unit_ids"]):
                a["unit_ids"] = [x for x in a["unit_ids"] if x not in ids]
                if not a["unit_ids"]:
                    g.remove_edge(u, v, key=k)
        g.remove_nodes_from(ids)
        g.remove_nodes_from([n for n, _ in self._nodes(g, "Entity") if g.degree(n) == 0])
        return len(ids)

    def _op_delete_source(self, g: nx.MultiDiGraph, source_id: str) -> int:
        n = self._op_retire(g, sorted(n for n, a in self._nodes(g, "Unit") if a["source_id"] == source_id))
        if g.has_node(_src_key(source_id)):
            g.remove_node(_src_key(source_id))
        return n

    def _op_merge(self, g: nx.MultiDiGraph, pairs: list[list[str]]) -> int:
        absorbed = 0
        for old, new in pairs:
            if old == new or not (self._is(g, old, "Entity") and self._is(g, new, "Entity")):
                continue
            for unit, _, kind in list(g.in_edges(old, keys=True)):
                if kind in MENTION_KINDS:
                    g.add_edge(unit, new, key=kind)
            edges = [*g.out_edges(old, keys=True, data=True), *g.in_edges(old, keys=True, data=True)]
            rels = {k: (u, v, a) for u, v, k, a in edges if a.get("kind") == "relation"}
            for _, (u, v, a) in sorted(rels.items()):
                s, o = (new if x == old else x for x in (u, v))
                if s != o:  # a relation between the two would become a self-loop
                    self._put_relation(g, {**a, "id": relation_id(g.graph["tenant"], s, a["type"], o),
                                           "subject_id": s, "object_id": o})
            target, gone = g.nodes[new], g.nodes[old]
            add = [x for x in [gone["name"], *gone.get("aliases", [])] if x != target["name"]]
            _set_aliases(target, list(dict.fromkeys([*target.get("aliases", []), *add])))
            g.remove_node(old)
            absorbed += 1
        return absorbed

    # -- reads --------------------------------------------------------------------------------

    @staticmethod
    def _is(g: nx.MultiDiGraph, node: str, label: str) -> bool:
        return bool(g.has_node(node) and g.nodes[node].get("label") == label)

    @staticmethod
    def _nodes(g: nx.MultiDiGraph, label: str) -> list[tuple[str, dict[str, Any]]]:
        return [(n, a) for n, a in g.nodes(data=True) if a.get("label") == label]

    @staticmethod
    def _relation_edges(g: nx.MultiDiGraph) -> list[tuple[str, str, str, dict[str, Any]]]:
        return [(u, v, k, a) for u, v, k, a in g.edges(keys=True, data=True) if a.get("kind") == "relation"]

    def unit_ids(self, tenant: str, source_id: str | None = None) -> set[str]:
        with self._lock:
            return {n for n, a in self._nodes(self._g(tenant), "Unit") if source_id is None or a["source_id"] == source_id}

    def source_ids(self, tenant: str) -> set[str]:
        with self._lock:
            return {a["id"] for _, a in self._nodes(self._g(tenant), "Source")}

    def source_stats(self, tenant: str) -> dict[str, SourceStats]:
        with self._lock:
            g = self._g(tenant)
            versions = {a["id"]: a["version"] for _, a in self._nodes(g, "Source")}
            units: dict[str, list[int]] = {}
            for n, a in self._nodes(g, "Unit"):
                c = units.setdefault(a["source_id"], [0, 0])
                c[0] += 1
                c[1] += any(k in MENTION_KINDS for _, _, k in g.out_edges(n, keys=True))
            return {
                sid: SourceStats(version=versions.get(sid), units=units.get(sid, [0, 0])[0],
                                 mentioned_units=units.get(sid, [0, 0])[1])
                for sid in sorted(versions.keys() | units.keys())
            }

    @staticmethod
    def _entity(tenant: str, a: dict[str, Any]) -> Entity:
        return Entity(id=a["id"], tenant=tenant, name=a["name"], type=a.get("type") or "THING",
                      aliases=list(a.get("aliases", [])))

    def get_entities(self, tenant: str, entity_ids: Sequence[str]) -> list[Entity]:
        with self._lock:
            g = self._g(tenant)
            return [self._entity(tenant, g.nodes[i]) for i in sorted(set(entity_ids)) if self._is(g, i, "Entity")]

    def find_entities(self, tenant: str, names: Sequence[str]) -> list[Entity]:
        keys = {canonical_entity_name(n) for n in names if n.strip()}
        if not keys:
            return []
        with self._lock:
            found = [
                self._entity(tenant, a)
                for _, a in self._nodes(self._g(tenant), "Entity")
                if a["key"] in keys or any(k in keys for k in a.get("alias_keys", []))
            ]
            return sorted(found, key=lambda e: e.id)

    def all_entities(self, tenant: str) -> list[Entity]:
        with self._lock:
            return sorted((self._entity(tenant, a) for _, a in self._nodes(self._g(tenant), "Entity")),
                          key=lambda e: e.id)

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
        for i in sorted(set(ids)):
            if not g.has_node(i):
                continue
            edges = g.out_edges(i, keys=True) if from_unit else g.in_edges(i, keys=True)
            found = sorted({(v if from_unit else u) for u, v, k in edges if k in MENTION_KINDS})
            if found:
                out[i] = found
        return out

    def entity_units(
        self, tenant: str, entity_ids: Sequence[str], limit_per_entity: int | None = None
    ) -> dict[str, list[str]]:
        with self._lock:
            if limit_per_entity is None:
                return self._mention_map(tenant, entity_ids, from_unit=False)
            g = self._g(tenant)
            out: dict[str, list[str]] = {}
            for e in sorted(set(entity_ids)):
                if limit_per_entity <= 0 or not self._is(g, e, "Entity"):
                    continue
                rank: dict[str, int] = {}
                for u, _, k in g.in_edges(e, keys=True):
                    if k in MENTION_KINDS:
                        rank[u] = min(rank.get(u, 1), 0 if k == "DEFINES" else 1)
                first = sorted(rank, key=lambda u: (rank[u], u))[:limit_per_entity]
                if first:
                    out[e] = sorted(first)
            return out

    def unit_entities(self, tenant: str, unit_ids: Sequence[str]) -> dict[str, list[str]]:
        with self._lock:
            return self._mention_map(tenant, unit_ids, from_unit=True)

    def relation_paths(
        self, tenant: str, entity_ids: Sequence[str], max_hops: int = 2, limit: int = 200, fanout: int = 50,
        co_mention: bool = False,
    ) -> list[RelationPath]:
        """See :mod:`kmrag.graph.paths`: the same path assembly as every backend, over this store's hops."""
        with self._lock:
            g = self._g(tenant)
            return paths.relation_paths(partial(self._hops, g), entity_ids, max_hops, limit, fanout, co_mention)

    def connecting_paths(
        self, tenant: str, source_ids: Sequence[str], target_ids: Sequence[str], max_hops: int = 3,
        limit: int = 50, fanout: int = 50, co_mention: bool = True,
    ) -> list[RelationPath]:
        with self._lock:
            g = self._g(tenant)
            return paths.connecting_paths(partial(self._hops, g), source_ids, target_ids, max_hops, limit, fanout,
                                          co_mention)

    def _hops(self, g: nx.MultiDiGraph, ids: list[str], fanout: int | None, co_mention: bool,
              into: list[str] | None) -> dict[str, list[paths.Step]]:
        """The :data:`kmrag.graph.paths.HopReader` of this store: what ``neo4j_queries.entity_hops`` reads."""
        wanted = None if into is None else set(into)
        out: dict[str, list[paths.Step]] = {}
        for node in ids:
            if not self._is(g, node, "Entity"):
                continue
            related: set[str] = set()
            rels: list[tuple[str, str, str, dict[str, Any]]] = []
            for u, v, k, a in [*g.out_edges(node, keys=True, data=True), *g.in_edges(node, keys=True, data=True)]:
                other = v if u == node else u
                if a.get("kind") != "relation" or other == node:
                    continue
                related.add(other)
                if wanted is None or other in wanted:
                    rels.append((k, u, v, a))
            rels.sort(key=lambda r: r[0])
            steps = [
                paths.relation_step(node, k, Hop(subject_id=u, subject_name=g.nodes[u]["name"], type=a["type"],
                                                 predicate=a["predicate"], object_id=v, object_name=g.nodes[v]["name"],
                                                 unit_ids=list(a["unit_ids"])))
                for k, u, v, a in rels[:fanout]
            ]
            if co_mention:
                shared: dict[str, set[str]] = {}
                for unit, _, k in g.in_edges(node, keys=True):
                    if k not in MENTION_KINDS:
                        continue
                    for _, other, k2 in g.out_edges(unit, keys=True):
                        if k2 in MENTION_KINDS and other != node and other not in related and (
                                wanted is None or other in wanted):
                            shared.setdefault(other, set()).add(unit)
                best = sorted(shared.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:fanout]
                steps += [paths.co_mention_step(node, g.nodes[node]["name"], other, g.nodes[other]["name"], len(units),
                                                units) for other, units in best]
            out[node] = steps
        return out

    def neighbours(self, tenant: str, unit_ids: Sequence[str], kinds: Sequence[str] | None = None) -> list[Neighbour]:
        with self._lock:
            g = self._g(tenant)
            found: set[tuple[str, str, str]] = set()
            for uid in set(unit_ids):
                if not self._is(g, uid, "Unit"):
                    continue
                for _, v, k in g.out_edges(uid, keys=True):
                    if k in LINK_KINDS:
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
            for _, a in self._nodes(g, "Unit"):
                by_type[a["type"]] = by_type.get(a["type"], 0) + 1
            keys = [k for _, _, k in g.edges(keys=True)]
            return GraphCounts(
                sources=len(self._nodes(g, "Source")),
                units=sum(by_type.values()),
                units_by_type=by_type,
                entities=len(self._nodes(g, "Entity")),
                relations=len(self._relation_edges(g)),
                unit_links=sum(k in LINK_KINDS for k in keys),
                mentions=sum(k in MENTION_KINDS for k in keys),
            )

    def clear_tenant(self, tenant: str) -> None:
        with self._lock:
            self._tenants.pop(tenant, None)
            files = TenantFiles(self._dir, tenant)
            if files.stamp() != Stamp(None, None):
                with files.locked(exclusive=True):
                    files.remove()

    def server_info(self) -> dict[str, str]:
        return {"backend": "embedded", "name": "networkx", "version": nx.__version__, "path": str(self._dir)}

    def close(self) -> None:
        self.flush()
