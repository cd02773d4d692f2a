"""`kmrag repair`: make the graph agree with PostgreSQL again, source by source.

PostgreSQL is the authoritative copy: it holds every unit's text, type, position, structure (parent
section, references, defined term in its metadata), embedding, and how many entities it mentions.
The graph is derived from it. For every source on which the stores disagree (a deleted embedded
graph file, a Neo4j restored from an older backup or wiped with Cypher, a job killed between the
two stores' writes, a failed job's leftovers) repair

- removes from the graph what PostgreSQL does not hold (units, Source nodes);
- rebuilds the rest from PostgreSQL's units: Source node, units, links, then entities, mentions and
  relations by running the same extraction and resolution an ingest runs (no embedding, no files
  needed), followed by the tenant's entity consolidation;
- puts back undone entity merges that an interrupted `kmrag entities unmerge` left in the graph;
- writes again the (:Answer)-[:CITES]->(:Unit) view of stored answers whose current cited units the
  graph does not show (a rebuilt graph, a failed write after the answer was stored);

and then compares again. Re-running it when nothing disagrees does nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, Field

from kmrag.ingestion.consistency import compare_stores
from kmrag.ingestion.entity_names import sync_entity_names
from kmrag.ingestion.pipeline import IngestionJob, PlannedSource
from kmrag.ingestion.units import structure_from_units
from kmrag.nlp.embed import Embedder
from kmrag.nlp.extract import Extractor
from kmrag.schema import Answer, Source
from kmrag.stores import Stores
from kmrag.units.lock import tenant_lock


class RepairReport(BaseModel):
    tenant: str
    dry_run: bool
    before: dict[str, Any]
    rebuilt: list[str] = Field(default_factory=list)
    removed_from_graph: list[str] = Field(default_factory=list)
    aliases_removed: int = 0
    graph_units_removed: int = 0  # graph units of sources PostgreSQL holds, which it does not have
    job: dict[str, Any] | None = None
    entity_names: dict[str, int] = Field(default_factory=dict)  # vocabulary sync when no job ran
    bm25_rebuilt: bool = False  # the BM25 statistics disagreed with a fresh count of the active units
    answers_relinked: int = 0  # stored answers whose CITES edges to current units were missing from the graph
    after: dict[str, Any] | None = None


def repair(stores: Stores, tenant: str, embedder: Embedder, extractor: Extractor, dry_run: bool = False,
           progress: bool | None = None, lock_wait_s: float = 3600.0) -> RepairReport:
    """Compare and repair under the tenant's writer lock: an ingest running meanwhile is waited for,
    never mistaken for damage (while it runs, the graph is legitimately ahead of PostgreSQL)."""
    with tenant_lock(stores.pool, tenant, lock_wait_s):
        before = compare_stores(stores, tenant)
        report = RepairReport(tenant=tenant, dry_run=dry_run, before=before.summary(limit=1000))
        rebuild = [s.source_id for s in before.sources if s.in_postgres]
        remove = [s.source_id for s in before.sources if not s.in_postgres and s.source_id != "(unknown)"]
        undone = _stale_aliases(stores, tenant)
        graph_only = before.graph_only_units
        report.rebuilt, report.removed_from_graph, report.aliases_removed = rebuild, remove, len(undone)
        report.graph_units_removed = len(graph_only)
        report.bm25_rebuilt = not _bm25_agrees(stores, tenant)
        if dry_run:
            report.answers_relinked = len(_answers_to_relink(stores, tenant, graph_units=rebuild))
            return report
        if report.bm25_rebuilt:  # kept with every unit write; a drift from outside is counted afresh
            stores.units.rebuild_bm25_stats(tenant)
        # what PostgreSQL does not hold leaves the graph: units of sources it does hold, whole sources
        stores.graph.retire_units(tenant, sorted(graph_only))
        for sid in remove:
            stores.graph.delete_source(tenant, sid)
        for eid, alias in undone:
            stores.graph.remove_entity_alias(tenant, eid, alias)
        stores.graph.flush()
        if rebuild:
            job = IngestionJob(stores, embedder, extractor, tenant, progress=progress, lock_wait_s=lock_wait_s)
            result = job.run_planned(["(repair)"], lambda: plans_from_postgres(stores, tenant, rebuild),
                                     lock_held=True)
            report.job = result.job.model_dump(mode="json")
        else:  # a job does this at its end; without one, the name vocabulary still follows the graph
            report.entity_names = sync_entity_names(stores, embedder, tenant)
        relink = _answers_to_relink(stores, tenant)
        for answer in relink:
            stores.graph.write_answer(answer)
        report.answers_relinked = len(relink)
        report.after = compare_stores(stores, tenant).summary(limit=1000)
    return report


def _answers_to_relink(stores: Stores, tenant: str, graph_units: list[str] | None = None,
                       page: int = 500) -> list[Answer]:
    """Stored answers whose current cited units the graph's (:Answer) node does not all CITES. Before a
    rebuild (``graph_units``: the sources about to be rebuilt), answers citing those sources count too."""
    out: list[Answer] = []
    offset = 0
    while True:
        answers = stores.units.list_answers(tenant, limit=page, offset=offset)
        for a in answers:
            ids = sorted({c.unit_id for c in a.citations})
            if not ids:
                continue
            current = {u.id for u in stores.units.get_units(tenant, ids, include_retired=False)}
            rebuilt = graph_units is not None and any(c.source_id in graph_units for c in a.citations)
            if current and (rebuilt or set(stores.graph.answer_citations(tenant, a.id)) != current):
                out.append(a)
        if len(answers) < page:
            return out
        offset += page


def _bm25_agrees(stores: Stores, tenant: str) -> bool:
    """The kept BM25 totals and document frequencies equal a fresh count (postings follow the same writes)."""
    kept = stores.units.bm25_stats(tenant, postings=False)
    return kept == stores.units.bm25_stats(tenant, recount=True, postings=False)


def _stale_aliases(stores: Stores, tenant: str) -> list[tuple[str, str]]:
    """Undone merges whose alias is still on the entity in the graph."""
    undone = stores.units.undone_merges(tenant)
    if not undone:
        return []
    entities = {e.id: e for e in stores.graph.get_entities(tenant, sorted({eid for eid, _ in undone}))}
    return sorted((eid, a) for eid, a in undone if eid in entities and a in entities[eid].aliases)


def plans_from_postgres(stores: Stores, tenant: str, source_ids: list[str]) -> Iterator[PlannedSource]:
    for sid in source_ids:
        units = stores.units.source_units(tenant, sid)
        if not units:
            continue
        row = stores.units.get_source(tenant, sid)
        # a source PostgreSQL never marked complete (an interrupted job) stays incomplete: its next
        # ingest finishes it; the graph just mirrors what PostgreSQL holds meanwhile
        source = row or Source(id=sid, tenant=tenant, uri="", version=units[0].source_version,
                               content_hash=units[0].source_version)
        parsed = structure_from_units(units)
        ids = {u.id for u in units}
        yield PlannedSource(source=source, parsed=parsed, extract=ids, embed=set(), retire=[], clear_links=True,
                            rebuild=True, mark_complete=row is not None, kind="rebuilt")
