"""GraphStore on Neo4j: managed transactions, UNWIND batches, Cypher from neo4j_queries only."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

from kmrag.errors import (
    ConfigError,
    Neo4jUnavailable,
    OptionalDependencyMissing,
    ServiceUnavailable,
    StoreError,
)
from kmrag.graph import neo4j_queries as q
from kmrag.graph import paths
from kmrag.graph.base import GraphCounts, Hop, Neighbour, RelationPath, SourceStats, check_hops, chunks
from kmrag.graph.paths import check_fanout
from kmrag.schema import Answer, Entity, KnowledgeUnit, Mention, Relation, Source, UnitLink
from kmrag.schema.ids import canonical_entity_name, relation_id
from kmrag.schema.redact import redact, url_secrets
from kmrag.schema.sanitize import check_identifier, tenant_checked

BATCH = 1000
R = TypeVar("R")
Run = Callable[..., list[dict[str, Any]]]  # run(query, **params) inside one transaction


WHAT_TO_DO = ("Start it (services/neo4j.sh start, or docker compose up neo4j) and run the command again; "
              "an interrupted ingest resumes where it stopped")


def connect(uri: str, user: str, password: str | None, connection_timeout_s: float = 5.0,
            write_retry_s: float = 30.0) -> Any:
    """Create the one driver a process uses and check that the server answers. Connecting and waiting
    for a pooled connection are bounded by ``connection_timeout_s``; managed write transactions are
    retried on transient errors for up to ``write_retry_s`` (reads choose their own, shorter, time)."""
    try:
        import neo4j
        from neo4j.exceptions import AuthError, Neo4jError
        from neo4j.exceptions import ServiceUnavailable as DriverUnavailable
    except ImportError as e:  # pragma: no cover - neo4j is a core dependency
        raise OptionalDependencyMissing("the neo4j driver is not installed: pip install neo4j") from e
    from neo4j.exceptions import ConfigurationError

    secrets = [password or "", *url_secrets(uri)]
    try:
        driver = neo4j.GraphDatabase.driver(uri, auth=(user, password or ""), connection_timeout=connection_timeout_s,
                                            connection_acquisition_timeout=2 * connection_timeout_s,
                                            max_transaction_retry_time=write_retry_s)
    except (ConfigurationError, ValueError) as e:
        raise ConfigError(redact(f"KMRAG_NEO4J_URI {uri!r} cannot be used: {e}. Give the user and password "
                                 "in KMRAG_NEO4J_USER / KMRAG_NEO4J_PASSWORD, not in the URI", extra=secrets)) from e
    try:
        driver.verify_connectivity()
    except AuthError as e:
        driver.close()
        raise ServiceUnavailable(redact(
            f"Neo4j at {uri} refused the credentials for user {user!r}: set KMRAG_NEO4J_USER / KMRAG_NEO4J_PASSWORD",
            extra=secrets)) from e
    except (DriverUnavailable, Neo4jError, OSError, ValueError) as e:
        driver.close()
        raise Neo4jUnavailable(redact(
            f"Neo4j is not reachable at {uri}: {e}. Start it (services/neo4j.sh start, or docker compose up neo4j) "
            "or unset KMRAG_NEO4J_URI to use the embedded graph store", extra=secrets)) from e
    return driver


@tenant_checked
class Neo4jGraphStore:
    backend = "neo4j"

    def __init__(self, driver: Any, database: str = "neo4j", owns_driver: bool = False,
                 tx_timeout_s: float = 60.0, read_retry_s: float = 3.0, write_retry_s: float = 30.0) -> None:
        """``driver`` is the process's one driver; the store closes it only if it owns it. Every transaction
        runs at most ``tx_timeout_s`` (0: the server's limit); managed transactions are retried on transient
        errors for ``read_retry_s`` / ``write_retry_s``."""
        self._driver = driver
        self._database = database
        self._owns_driver = owns_driver
        self._tx_timeout = tx_timeout_s or None
        self._retry = {False: read_retry_s, True: write_retry_s}

    # -- plumbing ---------------------------------------------------------------------------

    def _write(self, query: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(query, params, write=True)

    def _read(self, query: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(query, params, write=False)

    def _run(self, query: str, params: dict[str, Any], write: bool) -> list[dict[str, Any]]:
        return self._tx(lambda run: run(query, **params), write)

    def _tx(self, work: Callable[[Run], R], write: bool) -> R:
        """``work(run)`` in one managed transaction (retried whole on transient errors, so it only reads
        and writes through ``run``)."""
        from neo4j import unit_of_work
        from neo4j.exceptions import Neo4jError, SessionExpired
        from neo4j.exceptions import ServiceUnavailable as DriverUnavailable

        @unit_of_work(timeout=self._tx_timeout)
        def unit(tx: Any) -> R:
            def run(query: str, **params: Any) -> list[dict[str, Any]]:
                return [r.data() for r in tx.run(query, params)]

            return work(run)

        t0 = time.monotonic()
        try:
            with self._driver.session(database=self._database,
                                      max_transaction_retry_time=self._retry[write]) as session:
                fn: Callable[..., R] = session.execute_write if write else session.execute_read
                return fn(unit)
        except (DriverUnavailable, SessionExpired, OSError) as e:
            raise Neo4jUnavailable(redact(f"Neo4j is unreachable (gave up after {time.monotonic() - t0:.1f} s): {e}. "
                                          + WHAT_TO_DO)) from e
        except Neo4jError as e:
            hint = (" (the transaction ran past KMRAG_NEO4J_TX_TIMEOUT_S: raise it, 0: the server's limit)"
                    if "TimedOut" in str(e.code) or "Terminated" in str(e.code) else "")
            raise StoreError(redact(f"Neo4j query failed ({e.code}): {e.message}{hint}")) from e

    def _batched(self, query: str, tenant: str, rows: list[dict[str, Any]]) -> None:
        for part in chunks(rows, BATCH):
            self._write(query, tenant=tenant, rows=list(part))

    @staticmethod
    def _by_tenant(items: Sequence[Any]) -> dict[str, list[Any]]:
        out: dict[str, list[Any]] = defaultdict(list)
        for it in items:
            out[it.tenant].append(it)
        return out

    # -- schema -----------------------------------------------------------------------------

    def init_schema(self) -> None:
        from kmrag.schema.ddl import neo4j_statements

        for stmt in neo4j_statements():
            self._write(stmt)

    # -- writes -----------------------------------------------------------------------------

    def write_sources(self, sources: Sequence[Source]) -> None:
        for tenant, items in self._by_tenant(sources).items():
            rows = [s.model_dump(mode="json", include={"id", "uri", "version", "content_hash", "ingested_at"})
                    for s in items]
            self._batched(q.merge_sources(), tenant, rows)

    def write_units(self, units: Sequence[KnowledgeUnit]) -> None:
        for tenant, items in self._by_tenant(units).items():
            rows = [
                {
                    "id": u.id,
                    "source_id": u.source_id,
                    "source_version": u.source_version,
                    "type": u.type.value,
                    "title": u.title,
                    "section_path": u.section_path,
                    "ordinal": u.ordinal,
                    "content": u.content,
                    "language": u.metadata.get("language"),
                }
                for u in items
            ]
            self._batched(q.merge_units(), tenant, rows)

    def write_unit_links(self, links: Sequence[UnitLink]) -> None:
        for tenant, items in self._by_tenant(links).items():
            by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for link in items:
                by_kind[link.kind.value].append({"src": link.src, "dst": link.dst})
            for kind, rows in by_kind.items():
                self._batched(q.merge_unit_links(kind), tenant, rows)

    def clear_unit_links(self, tenant: str, source_id: str) -> int:
        return int(self._write(q.delete_unit_links(), tenant=tenant, source_id=source_id)[0]["deleted"])

    def write_entities(self, entities: Sequence[Entity]) -> None:
        for tenant, items in self._by_tenant(entities).items():
            rows: dict[str, dict[str, Any]] = {}  # one row per entity: q.merge_entities relies on it
            for e in items:
                aliases = list(dict.fromkeys([*(rows[e.id]["aliases"] if e.id in rows else []), *e.aliases]))
                rows[e.id] = {"id": e.id, "name": e.name, "type": e.type, "key": canonical_entity_name(e.name),
                              "aliases": aliases, "alias_keys": [canonical_entity_name(a) for a in aliases]}
            self._batched(q.merge_entities(), tenant, list(rows.values()))

    def remove_entity_alias(self, tenant: str, entity_id: str, alias: str) -> bool:
        rows = self._write(q.remove_entity_alias(), tenant=tenant, entity_id=entity_id, alias=alias)
        return bool(rows and rows[0]["changed"])

    def write_mentions(self, mentions: Sequence[Mention]) -> None:
        for tenant, items in self._by_tenant(mentions).items():
            by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
            for m in items:
                by_kind[m.kind.value].append({"unit_id": m.unit_id, "entity_id": m.entity_id})
            for kind, rows in by_kind.items():
                self._batched(q.merge_mentions(kind), tenant, rows)

    @staticmethod
    def _relation_row(r: Relation) -> dict[str, Any]:
        return {
            "id": r.id,
            "type": check_identifier(r.type, "relationship type"),
            "subject_id": r.subject_id,
            "object_id": r.object_id,
            "predicate": r.predicate,
            "confidence": r.confidence,
            "unit_ids": r.unit_ids,
            "sentences": r.sentences,
        }

    def write_relations(self, relations: Sequence[Relation]) -> None:
        for tenant, items in self._by_tenant(relations).items():
            self._batched(q.merge_relations(), tenant, [self._relation_row(r) for r in items])

    def merge_entities(self, tenant: str, merges: Sequence[tuple[str, str]]) -> int:
        """Each pair in its own transaction, in order (so chains a->b, b->c work)."""
        absorbed = 0
        for old, new in merges:
            if old != new:
                absorbed += self._tx(partial(self._absorb, tenant=tenant, absorbed=old, target=new), write=True)
        return absorbed

    def _absorb(self, run: Run, tenant: str, absorbed: str, target: str) -> int:
        found = {r["id"]: r for r in run(q.get_entities(), tenant=tenant, ids=[absorbed, target])}
        if absorbed not in found or target not in found:
            return 0
        moved = []
        for r in run(q.entity_relations(), tenant=tenant, entity_id=absorbed):
            r["subject_id"], r["object_id"] = (target if x == absorbed else x for x in (r["subject_id"], r["object_id"]))
            if r["subject_id"] != r["object_id"]:  # a relation between the two would become a self-loop
                r["id"] = relation_id(tenant, r["subject_id"], r["type"], r["object_id"])
                moved.append(self._relation_row(Relation(tenant=tenant, **{**r, "sentences": r["sentences"] or []})))
        if moved:
            run(q.merge_relations(), tenant=tenant, rows=moved)
        for kind in q.MENTION_TYPES:
            run(q.move_mentions(kind), tenant=tenant, absorbed=absorbed, target=target)
        add = list(dict.fromkeys([found[absorbed]["name"], *(found[absorbed]["aliases"] or [])]))
        run(q.absorb_entity(), tenant=tenant, absorbed=absorbed, target=target, add=add,
            add_keys=[canonical_entity_name(a) for a in add])
        return 1

    def write_answer(self, answer: Answer) -> None:
        row = {
            "id": answer.id,
            "question": answer.question,
            "text": answer.text,
            "created_at": answer.created_at.isoformat(),
            "unit_ids": sorted({c.unit_id for c in answer.citations}),
        }
        self._write(q.merge_answer(), tenant=answer.tenant, row=row)

    def flush(self) -> None:
        """Neo4j commits each managed transaction; nothing is buffered."""

    # -- lifecycle of units -------------------------------------------------------------------

    def unit_ids(self, tenant: str, source_id: str | None = None) -> set[str]:
        return {r["id"] for r in self._read(q.unit_ids(), tenant=tenant, source_id=source_id)}

    def source_ids(self, tenant: str) -> set[str]:
        return {r["id"] for r in self._read(q.source_ids(), tenant=tenant)}

    def source_stats(self, tenant: str) -> dict[str, SourceStats]:
        def work(run: Run) -> dict[str, SourceStats]:
            versions = {r["id"]: r["version"] for r in run(q.source_versions(), tenant=tenant)}
            units = {r["id"]: r for r in run(q.units_per_source(), tenant=tenant)}
            return {
                sid: SourceStats(version=versions.get(sid), units=units.get(sid, {}).get("units", 0),
                                 mentioned_units=units.get(sid, {}).get("mentioned_units", 0))
                for sid in sorted(versions.keys() | units.keys())
            }

        return self._tx(work, write=False)

    def retire_units(self, tenant: str, unit_ids: Sequence[str]) -> int:
        deleted = 0
        for part in chunks(list(unit_ids), BATCH):
            ids = list(part)
            self._write(q.strip_relation_provenance(), tenant=tenant, ids=ids)
            deleted += self._write(q.delete_units(), tenant=tenant, ids=ids)[0]["deleted"]
        self._write(q.delete_orphan_entities(), tenant=tenant)
        return deleted

    def delete_source(self, tenant: str, source_id: str) -> int:
        n = self.retire_units(tenant, sorted(self.unit_ids(tenant, source_id)))
        self._write(q.delete_source_node(), tenant=tenant, source_id=source_id)
        return n

    # -- reads --------------------------------------------------------------------------------

    @staticmethod
    def _entity(tenant: str, r: dict[str, Any]) -> Entity:
        return Entity(id=r["id"], tenant=tenant, name=r["name"], type=r["type"] or "THING", aliases=r["aliases"] or [])

    def get_entities(self, tenant: str, entity_ids: Sequence[str]) -> list[Entity]:
        return [self._entity(tenant, r) for r in self._read(q.get_entities(), tenant=tenant, ids=list(entity_ids))]

    def find_entities(self, tenant: str, names: Sequence[str]) -> list[Entity]:
        keys = sorted({canonical_entity_name(n) for n in names if n.strip()})
        if not keys:
            return []
        return [self._entity(tenant, r) for r in self._read(q.find_entities(), tenant=tenant, keys=keys)]

    def all_entities(self, tenant: str) -> list[Entity]:
        return [self._entity(tenant, r) for r in self._read(q.all_entities(), tenant=tenant)]

    def relations(self, tenant: str, entity_id: str | None = None) -> list[Relation]:
        return [
            Relation(tenant=tenant, **{**r, "sentences": r["sentences"] or []})
            for r in (self._read(q.relations(), tenant=tenant) if entity_id is None
                      else self._read(q.entity_relations(), tenant=tenant, entity_id=entity_id))
        ]

    def entity_units(
        self, tenant: str, entity_ids: Sequence[str], limit_per_entity: int | None = None
    ) -> dict[str, list[str]]:
        if limit_per_entity is None:
            rows = self._read(q.entity_units(), tenant=tenant, ids=list(entity_ids))
        elif limit_per_entity <= 0:
            return {}
        else:
            rows = self._read(q.entity_units_first(), tenant=tenant, ids=list(entity_ids), limit=int(limit_per_entity))
        return {r["entity_id"]: sorted(r["unit_ids"]) for r in rows}

    def unit_entities(self, tenant: str, unit_ids: Sequence[str]) -> dict[str, list[str]]:
        rows = self._read(q.unit_entities(), tenant=tenant, ids=list(unit_ids))
        return {r["unit_id"]: sorted(r["entity_ids"]) for r in rows}

    def relation_paths(
        self, tenant: str, entity_ids: Sequence[str], max_hops: int = 2, limit: int = 200, fanout: int = 50,
        co_mention: bool = False,
    ) -> list[RelationPath]:
        """One read transaction; one bounded query per hop count (see :mod:`kmrag.graph.paths`)."""
        check_hops(max_hops)
        check_fanout(fanout)
        return self._tx(lambda run: paths.relation_paths(
            partial(self._hops, run, tenant), entity_ids, max_hops, limit, fanout, co_mention), write=False)

    def connecting_paths(
        self, tenant: str, source_ids: Sequence[str], target_ids: Sequence[str], max_hops: int = 3,
        limit: int = 50, fanout: int = 50, co_mention: bool = True,
    ) -> list[RelationPath]:
        check_hops(max_hops)
        check_fanout(fanout)
        return self._tx(lambda run: paths.connecting_paths(
            partial(self._hops, run, tenant), source_ids, target_ids, max_hops, limit, fanout, co_mention),
            write=False)

    @staticmethod
    def _hops(run: Run, tenant: str, ids: list[str], fanout: int | None, co_mention: bool,
              into: list[str] | None) -> dict[str, list[paths.Step]]:
        """The :data:`kmrag.graph.paths.HopReader` of this store, inside a transaction."""
        if not ids or (fanout is None and not into):
            return {}
        rows = run(q.entity_hops(cut=fanout is not None, co_mention=co_mention), tenant=tenant, ids=ids,
                   fanout=fanout, into=into, co_units=paths.CO_MENTION_UNITS)
        out: dict[str, list[paths.Step]] = {}
        for r in rows:
            steps = [paths.relation_step(r["id"], h.pop("id"), Hop(**h)) for h in r["rels"]]
            steps += [paths.co_mention_step(r["id"], r["name"], c["id"], c["name"], c["shared"], c["unit_ids"])
                      for c in r["cos"]]
            out[r["id"]] = steps
        return out

    def neighbours(self, tenant: str, unit_ids: Sequence[str], kinds: Sequence[str] | None = None) -> list[Neighbour]:
        if not unit_ids:
            return []
        out = [Neighbour(**r) for r in self._read(q.neighbours(), tenant=tenant, ids=list(unit_ids))]
        return [n for n in out if kinds is None or n.kind in kinds]

    def answer_citations(self, tenant: str, answer_id: str) -> list[str]:
        return [r["id"] for r in self._read(q.answer_citations(), tenant=tenant, answer_id=answer_id)]

    def counts(self, tenant: str) -> GraphCounts:
        row = self._read(q.count_nodes(), tenant=tenant)[0]
        by_type = {r["type"]: r["n"] for r in self._read(q.units_by_type(), tenant=tenant)}
        return GraphCounts(units=sum(by_type.values()), units_by_type=by_type, **row)

    def clear_tenant(self, tenant: str) -> None:
        while self._write(q.delete_tenant_batch(), tenant=tenant, batch=10000)[0]["deleted"]:
            pass

    def server_info(self) -> dict[str, str]:
        rows = self._read(q.server_info())
        r = rows[0] if rows else {}
        return {"backend": "neo4j", "name": str(r.get("name")), "version": str(r.get("version")),
                "edition": str(r.get("edition"))}

    def close(self) -> None:
        if self._owns_driver:
            self._driver.close()
