"""The ingestion job: sources -> structural parse -> units + links -> extraction -> resolution ->
embedding -> load into the graph store and the unit store -> entity consolidation -> agreement.

Correct by construction, and proven by tests/integration/test_ingestion_seams.py:
- one writer per tenant at a time (a PostgreSQL advisory lock), so jobs never interleave writes;
- batches are cut by units, not documents: a huge document is many batches, each committed as it
  goes, and a resumed job keeps what an earlier one finished inside a document;
- per batch the graph is written first and the PostgreSQL unit rows last; a source's PostgreSQL row
  (its version) is written after all of its units, so an interrupted source is redone next time;
- a source is skipped only when PostgreSQL has its version AND the graph agrees with PostgreSQL about
  it; a source on which the stores disagree is rebuilt (``--force`` rebuilds any source);
- every entity a batch refers to is (re)written with that batch, so retiring units in one batch can
  never leave a later batch's mentions and relations pointing at nothing;
- a failure inside one document (parsing, NLP) is that document's error, never the job's; so is a
  store refusing one document's rows (the batch is written again source by source, and what was
  written of the refused source is removed: tests/integration/test_ingestion_bad_writes.py).
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from kmrag.errors import ConfigError, SchemaError, ServiceUnavailable
from kmrag.ingestion.compute import BatchOutput, BatchWork, ComputeEngine, LocalEngine, Parsed
from kmrag.ingestion.consistency import Agreement, compare_stores, touched
from kmrag.ingestion.embed_worker import embedding_text
from kmrag.ingestion.entity_names import sync_entity_names
from kmrag.ingestion.progress import Progress, progress_mode
from kmrag.ingestion.relations import GraphRows, graph_rows
from kmrag.ingestion.resolve import EntityResolver
from kmrag.ingestion.sources import SourceDocument, SourceOptions, SourceProblem, SourceSkip, read_sources
from kmrag.ingestion.units import ParsedUnits
from kmrag.nlp.embed import Embedder
from kmrag.nlp.extract import Extraction, Extractor
from kmrag.schema import Entity, EntityMerge, KnowledgeUnit, Source, UnitLink, UnitType
from kmrag.stores import Stores
from kmrag.units.jobs import JobError, JobRecord, JobStore
from kmrag.units.lock import HeldLock, tenant_lock
from kmrag.units.retry import RetryingUnits, pg_retry

BATCH_UNITS = 256
STAGES = ("read", "parse", "nlp", "embed", "resolve", "write_graph", "write_pg")

__all__ = ["BATCH_UNITS", "IngestResult", "IngestionJob", "PlannedSource", "embedding_text", "get_extractor", "ingest"]


@dataclass
class PlannedSource:
    """One source on its way into the stores."""

    source: Source
    parsed: ParsedUnits
    extract: set[str]  # units whose entities and relations are (re)extracted and written to the graph
    embed: set[str]  # units whose embeddings are computed
    retire: list[str]  # units of the source that are no longer in it
    clear_links: bool  # its reading-order links are rewritten
    rebuild: bool  # remove the source from the graph first (forced, or the stores disagreed on it)
    mark_complete: bool = True  # write its PostgreSQL row (its version) after its last unit
    kind: str = "new"  # new | updated | rebuilt
    failed: bool = False
    ordinals: dict[str, int] = field(default_factory=dict)
    links_at: dict[int, list[UnitLink]] = field(default_factory=dict)  # by the position of a link's later end

    def __post_init__(self) -> None:
        self.ordinals = o = {u.id: i for i, u in enumerate(self.parsed.units)}
        for lk in self.parsed.links:
            if lk.src in o and lk.dst in o:
                self.links_at.setdefault(max(o[lk.src], o[lk.dst]), []).append(lk)


@dataclass
class _Slice:
    plan: PlannedSource
    units: list[KnowledgeUnit]
    first: bool
    last: bool


@dataclass
class IngestResult:
    job: JobRecord
    agreement: dict[str, Any] = field(default_factory=dict)


class IngestionJob:
    def __init__(self, stores: Stores, embedder: Embedder, extractor: Extractor, tenant: str,
                 options: SourceOptions | None = None, progress: bool | None = None,
                 batch_units: int = BATCH_UNITS, force: bool = False, lock_wait_s: float = 3600.0,
                 job_id: str | None = None, engine: ComputeEngine | None = None) -> None:
        # every unit-store call of the job is retried while PostgreSQL is briefly away (a restart)
        settings = stores.settings
        self.stores = replace(stores, units=cast(Any, RetryingUnits(stores.units, settings.pg_retries,
                                                                    settings.pg_retry_backoff_s, self._pg_retried,
                                                                    self._pg_recovered)))
        self._lock: HeldLock | None = None
        self.embedder = embedder
        self.extractor = extractor
        self.tenant = tenant
        self.options = options or SourceOptions()
        self.progress = Progress(progress_mode(progress))
        self.batch_units = max(1, batch_units)
        self.force = force
        self.lock_wait_s = lock_wait_s
        self.job_id = job_id  # the job's id, chosen by the caller (the HTTP API answers with it before the job runs)
        self.jobs = JobStore(stores.pool)
        self.retries: dict[str, int] = defaultdict(int)
        self.timings: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self.errors: list[JobError] = []
        self.skipped: list[JobError] = []
        # where parsing, extraction and embedding run (this process by default; Ray actors with
        # kmrag.ingestion.ray_engine); an engine handed in belongs to the caller, who closes it
        self.engine: ComputeEngine = engine or LocalEngine(embedder, extractor)
        self._own_engine = engine is None
        self._touched: list[str] = []
        self._failed: set[str] = set()
        self._regraph: set[str] = set()  # stored sources a store refused an update of, whose graph lost units
        self._vanished: list[str] = []
        self._entities_before: set[str] = set()
        self.after_batch: Any = None  # test hook: called with the batch number after a batch is written
        self.between_writes: Any = None  # test hook: called with the batch number between the two stores' writes
        self.after_walk: Any = None  # test hook: called with the number of files found, before the first is read

    # -- the job ------------------------------------------------------------------------------

    def run(self, paths: Sequence[str | Path]) -> IngestResult:
        """Ingest files and folders."""
        return self._run([str(p) for p in paths], lambda: self._plan_files(paths))

    def run_planned(self, inputs: list[str], plans: Any, lock_held: bool = False) -> IngestResult:
        """Run a job over sources planned elsewhere (kmrag repair rebuilds the graph from PostgreSQL);
        ``lock_held``: the caller already holds the tenant's writer lock."""
        return self._run(inputs, plans, lock_held)

    def _run(self, inputs: list[str], planner: Any, lock_held: bool = False) -> IngestResult:
        try:
            if lock_held:
                return self._locked(inputs, planner)
            with tenant_lock(self.stores.pool, self.tenant, self.lock_wait_s, on_wait=self.progress.note) as lock:
                self._lock = lock
                return self._locked(inputs, planner)
        finally:
            if self._own_engine:
                self.engine.close()
            self.progress.close()

    def _locked(self, inputs: list[str], planner: Any) -> IngestResult:
        t_start = time.perf_counter()
        job = self._pg(lambda: self.jobs.create(self.tenant, inputs, job_id=self.job_id))
        self.job = job
        graph = self.stores.graph
        try:
            self.stores.units.claim_embedder(self.tenant, self.embedder)  # one embedder's vectors per tenant
            self.resolver = EntityResolver(self.tenant, graph.all_entities(self.tenant),
                                           self.stores.units.undone_merges(self.tenant))
            self._entities_before = set(self.resolver.stored)
            self.before = compare_stores(self.stores, self.tenant)
            self._batches(planner(), job)
            graph.flush()
            self._regraph_refused()
            self._remove_vanished()
            unchanged = self._consolidate()
            graph.flush()
            t_names = time.perf_counter()
            names_embedder = self.engine.names_embedder() or self.embedder  # Ray: spread over the workers
            for key, n in sync_entity_names(self.stores, names_embedder, self.tenant, entities=unchanged).items():
                self.counts[key] += n
            self.timings["entity_names"] += time.perf_counter() - t_names
            if self.counts.get("units_written") or self.counts.get("units_retired"):
                t = time.perf_counter()
                self.stores.units.analyze()
                self.timings["analyze"] += time.perf_counter() - t
            agreement = self._verify()
            job.status = "completed_with_errors" if self.errors else "completed"
            if self.counts.get("documents_failed") and not any(
                    self.counts.get(f"documents_{k}") for k in ("new", "updated", "resumed", "rebuilt", "unchanged")):
                job.status = "failed"  # nothing of what was asked for could be ingested
            mine = touched(agreement, self._checked())
            if mine:
                job.status = "failed"
                self.errors.append(JobError(path="(stores)", reason="the graph and PostgreSQL disagree on sources of "
                                            "this job: " + "; ".join(f"{s.source_id}: {', '.join(s.reasons)}"
                                                                     for s in mine[:20]) + " — run `kmrag repair`"))
            self.timings["total"] = time.perf_counter() - t_start
            self._save(job, finished=True)
            return IngestResult(job=job, agreement=self._agreement_dict(agreement))
        except BaseException as e:
            try:
                graph.flush()
            except Exception:  # noqa: BLE001 - keep the original error
                pass
            job.status = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
            self.errors.append(JobError(path="(job)", reason=f"{type(e).__name__}: {e}"))
            self.timings["total"] = time.perf_counter() - t_start
            try:
                self._save(job, finished=True)
            except Exception:  # noqa: BLE001 - keep the original error
                pass
            raise

    def _checked(self) -> list[str]:
        """The sources this job wrote to the end (a document that failed midway has its own error)."""
        return [sid for sid in self._touched if sid not in self._failed]

    def _agreement_dict(self, a: Agreement) -> dict[str, Any]:
        mine = touched(a, self._checked())
        others = [s for s in a.sources if s.source_id not in set(self._checked())]
        out = a.summary()
        out.update(sources_checked=len(self._checked()), agree=not mine,
                   disagreeing_sources=[f"{s.source_id}: {'; '.join(s.reasons)}" for s in mine[:20]],
                   tenant_agrees=a.agree)
        if others:
            out["other_sources_disagree"] = [f"{s.source_id}: {'; '.join(s.reasons)}" for s in others[:20]]
            out["hint"] = "run `kmrag repair` to rebuild them from PostgreSQL"
        return out

    def _verify(self) -> Agreement:
        t = time.perf_counter()
        a = compare_stores(self.stores, self.tenant)
        self.timings["verify"] += time.perf_counter() - t
        return a

    def _batches(self, plans: Iterable[PlannedSource | SourceProblem], job: JobRecord) -> None:
        """Cut the plans into batches; each batch's compute is handed to the engine, and the batches are
        resolved and written strictly in the order they were cut (the engine may run several ahead)."""
        batch: list[_Slice] = []
        size = 0
        batch_no = 0
        pending: deque[tuple[list[_Slice], int, Any]] = deque()

        def cut(b: list[_Slice], no: int) -> None:
            handed = self._submit(b)
            if handed is not None:
                pending.append((handed[0], no, handed[1]))
            while len(pending) > self.engine.ahead:
                self._finish(*pending.popleft())
                self._save(job)

        for plan in plans:
            if isinstance(plan, SourceProblem):
                self._fail(plan.path, plan.reason)
                continue
            self._touched.append(plan.source.id)
            units = plan.parsed.units
            step = self.batch_units
            for start in range(0, len(units), step):
                part = units[start:start + step]
                batch.append(_Slice(plan, part, first=start == 0, last=start + step >= len(units)))
                work = sum(1 for u in part if u.id in plan.extract)
                size += max(1, work + (len(part) - work) // 8)  # kept units cost a write, not NLP
                if size >= self.batch_units:
                    batch_no += 1
                    cut(batch, batch_no)
                    batch, size = [], 0
        if batch:
            cut(batch, batch_no + 1)
        while pending:
            self._finish(*pending.popleft())

    def _pg_retried(self, attempt: int, e: BaseException) -> None:
        self.retries["postgres"] += 1
        self.progress.note(f"PostgreSQL is unreachable ({type(e).__name__}); retry {attempt} of "
                           f"{self.stores.settings.pg_retries}")

    def _pg_recovered(self) -> None:
        """PostgreSQL answers again after an outage: a restart ended the session that held the writer lock."""
        if self._lock is not None:
            self._lock.ensure()
            self.retries["writer_lock_retaken"] = self._lock.retaken

    def _pg(self, fn: Any) -> Any:
        s = self.stores.settings
        return pg_retry(fn, s.pg_retries, s.pg_retry_backoff_s, self._pg_retried, pool=self.stores.pool,
                        on_recovered=self._pg_recovered)

    def _save(self, job: JobRecord, finished: bool = False) -> None:
        for k, v in getattr(self.extractor, "usage", {}).items():  # LLM extractor: tokens, retries
            self.counts[f"llm_{k}"] = int(v)
        job.counts = dict(self.counts)
        job.errors = list(self.errors)
        job.skipped = list(self.skipped)
        job.timings = {k: round(v, 3) for k, v in self.timings.items()}
        if self.retries:
            job.counts.update({f"retries_{k}": n for k, n in self.retries.items()})
        self._pg(lambda: self.jobs.save(job, finished=finished))

    def _fail(self, path: str, reason: str) -> None:
        self.counts["documents_failed"] += 1
        self.errors.append(JobError(path=path, reason=reason))
        self.progress.add("documents", 1)

    # -- planning -----------------------------------------------------------------------------

    def _plan_files(self, paths: Sequence[str | Path]) -> Iterator[PlannedSource | SourceProblem]:
        versions = self.before.versions
        diverged = self.before.ids()
        seen: set[str] = set()
        kept: set[str] = set()  # ids of files with a problem: what is stored of them stays
        record_files: set[str] = set()
        # documents to parse are handed to the engine as they are read, and planned in reading order
        pending: deque[tuple[SourceDocument | SourceProblem, Any, bool, bool]] = deque()
        t = time.perf_counter()
        for item in read_sources(paths, self.options, on_found=self._found):
            self.timings["read"] += time.perf_counter() - t
            if isinstance(item, SourceSkip):
                self.counts["paths_skipped"] += 1
                self.skipped.append(JobError(path=item.path, reason=item.reason))
                t = time.perf_counter()
                continue
            self.counts["documents_seen"] += 1
            if isinstance(item, SourceDocument) and item.file_source_id:
                self.progress.record(item.file_source_id)  # a record file's records: more documents than files
            if isinstance(item, SourceProblem):
                if item.source_id:
                    kept.add(item.source_id)
                pending.append((item, None, False, False))
                yield from self._planned(pending)
                t = time.perf_counter()
                continue
            seen.add(item.source_id)
            if item.file_source_id:
                record_files.add(item.file_source_id)
            if versions.get(item.source_id) == item.version and not self.force and item.source_id not in diverged:
                self.counts["documents_unchanged"] += 1
                self.progress.add("documents", 1)
            else:
                pending.append((item, self.engine.parse(item, self.tenant), self.force or item.source_id in diverged,
                                versions.get(item.source_id) is not None))
                yield from self._planned(pending)
            t = time.perf_counter()
        yield from self._planned(pending, drain=True)
        folders = [Path(p).resolve().as_uri() + "/" for p in paths if Path(p).is_dir()] if self.options.prune else []
        self._vanished = vanished(self.before.known, seen, kept, record_files - kept, folders,
                                  self.stores.units.source_uris(self.tenant) if folders else {})

    def _found(self, n: int) -> None:
        self.progress.found(n)
        if self.after_walk:
            self.after_walk(n)

    def _planned(self, pending: deque[tuple[SourceDocument | SourceProblem, Any, bool, bool]],
                 drain: bool = False) -> Iterator[PlannedSource | SourceProblem]:
        """Plan the documents handed over, oldest first, while more than the engine's look-ahead wait."""
        while pending and (drain or len(pending) > self.engine.parse_ahead):
            item, handle, rebuild, completed = pending.popleft()
            if isinstance(item, SourceProblem):
                yield item
                continue
            t = time.perf_counter()
            parsed = self.engine.parsed(handle)
            self.timings["parse"] += parsed.seconds
            self.timings["parse_wait"] += time.perf_counter() - t
            p = self._plan_document(item, parsed, rebuild, completed)
            if isinstance(p, PlannedSource):  # the units each stage will see, as they become known
                self.progress.expect("nlp", sum(1 for u in p.parsed.units
                                                if u.id in p.extract and u.type is not UnitType.CODE))
                self.progress.expect("embed", len(p.embed))
                self.progress.expect("write", len(p.parsed.units))
            yield p

    def _plan_document(self, doc: SourceDocument, result: Parsed, rebuild: bool,
                       completed: bool) -> PlannedSource | SourceProblem:
        parsed = result.units
        if parsed is None:
            return SourceProblem(path=doc.source_id, reason=result.error)
        if not parsed.units:
            return SourceProblem(path=doc.source_id, reason="no text units found in the document")
        self.counts["units_parsed"] += len(parsed.units)
        sid = doc.source_id
        known_before = sid in self.before.known
        present = self.stores.units.unit_ids(self.tenant, sid) if known_before else set()
        in_graph = self.stores.graph.unit_ids(self.tenant, sid) if known_before else set()
        wanted = {u.id for u in parsed.units}
        complete = present & in_graph
        source = Source(id=sid, tenant=self.tenant, uri=doc.uri, version=doc.version, content_hash=doc.version,
                        metadata={"kind": doc.kind, "title": doc.title, **doc.metadata})
        known = bool(present or in_graph)
        if rebuild:
            return PlannedSource(source=source, parsed=parsed, extract=wanted,
                                 embed=wanted if self.force else wanted - present,
                                 retire=sorted((present | in_graph) - wanted), clear_links=True, rebuild=True,
                                 kind="rebuilt" if known else "new")
        return PlannedSource(source=source, parsed=parsed, extract=wanted - complete, embed=wanted - complete,
                             retire=sorted((present | in_graph) - wanted), clear_links=known, rebuild=False,
                             kind="updated" if completed else "resumed" if known else "new")

    # -- per batch ----------------------------------------------------------------------------

    def _submit(self, batch: list[_Slice]) -> tuple[list[_Slice], Any] | None:
        """Hand a batch's compute to the engine: the units to extract (code is never run through NER or
        triple extraction), grouped by source, and the texts to embed."""
        batch = [s for s in batch if not s.plan.failed]
        if not batch:
            return None
        groups: dict[str, list[KnowledgeUnit]] = {}
        for s in batch:
            mine = [u for u in s.units if u.id in s.plan.extract and u.type is not UnitType.CODE]
            if mine:
                groups.setdefault(s.plan.source.id, []).extend(mine)
        to_embed = [embedding_text(u) for s in batch for u in s.units if u.id in s.plan.embed]
        return batch, self.engine.submit(BatchWork(extract=list(groups.items()), embed_texts=to_embed))

    def _finish(self, batch: list[_Slice], batch_no: int, handle: Any) -> None:
        """A batch's compute is done: record the documents the extractor failed on, resolve the entities
        (in batch order: the resolver's state is the single-process path's), write."""
        t = time.perf_counter()
        out = self.engine.result(handle)
        waited = time.perf_counter() - t
        self.timings["nlp"] += out.nlp_s
        self.timings["embed"] += out.embed_s
        self.timings["embed_wait" if self.engine.name == "local" else "compute_wait"] += max(
            0.0, waited - (out.nlp_s if self.engine.name == "local" else 0.0))
        self.progress.add("nlp", sum(len(us) for us in _groups_of(batch)))
        extractions = self._extractions(batch, out)
        # slices of a source that failed (here, or in an earlier batch after this one was handed over) are dropped
        to_embed = [u for s in batch for u in s.units if u.id in s.plan.embed]
        vectors: dict[str, Any] = {}
        if out.vectors is not None:
            vectors = {u.id: v for u, v in zip(to_embed, out.vectors, strict=True)}
        batch = [s for s in batch if not s.plan.failed]
        if not batch:
            return

        t = time.perf_counter()
        to_extract = [u for s in batch for u in s.units if u.id in s.plan.extract]
        defined = {uid: term for s in batch for uid, term in s.plan.parsed.defined_terms.items()}
        rows = graph_rows(self.tenant, self.resolver, to_extract, [extractions[u.id] for u in to_extract], defined)
        for k, v in rows.skipped.items():
            self.counts[k] += v
        self.timings["resolve"] += time.perf_counter() - t
        self.progress.add("embed", len(to_embed))
        self._write(batch, batch_no, rows, vectors)
        if self.after_batch:
            self.after_batch(batch_no)

    def _extractions(self, batch: list[_Slice], out: BatchOutput) -> dict[str, Extraction]:
        """Every unit to extract has its extraction (empty for code); a document whose text broke the
        extractor becomes that document's error, and the rest of the batch goes on."""
        for s in batch:
            sid = s.plan.source.id
            if sid in out.failed and not s.plan.failed:
                s.plan.failed = True
                self._failed.add(sid)
                self._fail(sid, out.failed[sid])
        code = {u.id: Extraction() for s in batch for u in s.units if u.id in s.plan.extract and u.type is UnitType.CODE}
        return {**code, **out.extractions}

    def _links(self, s: _Slice) -> list[UnitLink]:
        """Links whose later end is in this slice (both ends are then written)."""
        lo, hi = s.plan.ordinals[s.units[0].id], s.plan.ordinals[s.units[-1].id]
        return [lk for i in range(lo, hi + 1) for lk in s.plan.links_at.get(i, [])]

    def _write(self, batch: list[_Slice], batch_no: int, rows: GraphRows, vectors: dict[str, Any]) -> None:
        """Write a batch; when a store rejects it (a value PostgreSQL or Neo4j refuses), write it again
        source by source: the source that is refused becomes that source's error, its partial rows are
        removed so the stores agree, and the rest of the batch is stored. An unreachable store, a missing
        schema or an interrupt is the job's failure."""
        try:
            self._write_batch(batch, batch_no, rows, vectors)
            return
        except (ServiceUnavailable, SchemaError):
            raise
        except Exception as e:  # noqa: BLE001 - isolate the source a store refuses
            if len({s.plan.source.id for s in batch}) == 1:
                self._write_failed(batch[0].plan, e)
                return
        plans = {id(s.plan): s.plan for s in batch}  # in order, each source once
        for plan in plans.values():
            mine = [s for s in batch if s.plan is plan]
            try:
                self._write_batch(mine, batch_no, _rows_of(rows, {u.id for s in mine for u in s.units}), vectors)
            except (ServiceUnavailable, SchemaError):
                raise
            except Exception as e:  # noqa: BLE001 - that source's error, not the job's
                self._write_failed(plan, e)

    def _regraph_refused(self) -> None:
        """The graph of each stored source whose update a store refused, rebuilt from PostgreSQL (which kept
        the stored version) as `kmrag repair` does, under this job's lock: nothing already stored is lost."""
        if not self._regraph:
            return
        from kmrag.ingestion.repair import plans_from_postgres

        sids = sorted(self._regraph)
        self._regraph.clear()
        try:
            IngestionJob(self.stores, self.embedder, self.extractor, self.tenant, progress=False).run_planned(
                ["(restore refused updates)"], lambda: plans_from_postgres(self.stores, self.tenant, sids),
                lock_held=True)
        except (ServiceUnavailable, SchemaError):
            raise
        except Exception as e:  # noqa: BLE001 - the agreement check names the sources then
            for sid in sids:
                self.errors.append(JobError(path=sid, reason=f"its graph lost units PostgreSQL still holds and could "
                                                             f"not be rebuilt ({type(e).__name__}: {e}): run `kmrag repair`"))

    def _write_failed(self, plan: PlannedSource, error: Exception) -> None:
        """A source a store refused: its error names it; what this job wrote of it is removed (a new source
        leaves nothing behind; a stored one keeps its PostgreSQL rows, and the graph drops the units PostgreSQL
        does not hold and gets its completed version back), so the stores agree and the next run tries it again."""
        sid = plan.source.id
        plan.failed = True
        self._failed.add(sid)
        self._fail(sid, f"cannot store it: {type(error).__name__}: {error}"[:800]
                   + " — the rest of the job goes on; fix the document (or report the message) and ingest it again")
        graph, units = self.stores.graph, self.stores.units
        try:
            if plan.kind == "new":
                graph.delete_source(self.tenant, sid)
                units.delete_source(self.tenant, sid)
            else:
                extra = sorted(graph.unit_ids(self.tenant, sid) - units.unit_ids(self.tenant, sid))
                if extra:
                    graph.retire_units(self.tenant, extra)
                stored = units.get_source(self.tenant, sid)
                if stored is not None:  # the graph's Source node back at the version PostgreSQL completed
                    graph.write_sources([stored])
            graph.flush()
            if plan.kind != "new" and units.unit_ids(self.tenant, sid) - graph.unit_ids(self.tenant, sid):
                self._regraph.add(sid)  # the graph retired units PostgreSQL kept: rebuilt from it at the job's end
        except Exception as e:  # noqa: BLE001 - the agreement check names the source then
            self.errors.append(JobError(path=sid, reason=f"could not remove its partial rows: {type(e).__name__}: "
                                                         f"{e} — run `kmrag repair`"))

    def _write_batch(self, batch: list[_Slice], batch_no: int, rows: GraphRows, vectors: dict[str, Any]) -> None:
        graph, units = self.stores.graph, self.stores.units
        t = time.perf_counter()
        firsts = [s for s in batch if s.first]
        for s in firsts:
            if s.plan.rebuild:
                graph.delete_source(self.tenant, s.plan.source.id)
        # units hang off their Source node, so a source new to the graph gets it now; a changed source
        # keeps its old version there until its last unit is written (an interrupted update then
        # still agrees with PostgreSQL, and the next run resumes it)
        graph.write_sources([s.plan.source for s in firsts if s.plan.kind != "updated" or s.last])
        for s in batch:
            if s.last and s.plan.kind == "updated" and not s.first:
                graph.write_sources([s.plan.source])
        for s in firsts:
            if s.plan.clear_links and not s.plan.rebuild:
                graph.clear_unit_links(self.tenant, s.plan.source.id)
        graph.write_units([u for s in batch for u in s.units])
        graph.write_unit_links([lk for s in batch for lk in self._links(s)])
        graph.write_entities([self.resolver.entity(e) for e in rows.entity_ids])
        graph.write_mentions(rows.mentions)
        graph.write_relations(rows.relations)
        graph.flush()
        self.timings["write_graph"] += time.perf_counter() - t
        if self.between_writes:
            self.between_writes(batch_no)

        t = time.perf_counter()
        lasts = [s for s in batch if s.last]
        retire = [uid for s in lasts for uid in s.plan.retire]
        if retire:
            graph.retire_units(self.tenant, retire)
            graph.flush()
        self.timings["write_retire"] += time.perf_counter() - t

        t = time.perf_counter()
        fresh = [u for s in batch for u in s.units if u.id in s.plan.embed]
        kept = [u for s in batch for u in s.units if u.id not in s.plan.embed]
        # one PostgreSQL transaction per batch: a source whose last units are in it switches version (new
        # units in, old ones retired, its row's version last) at one instant for readers, never half
        # (retried whole while PostgreSQL is away: a lost connection rolls the transaction back)
        raw = getattr(units, "_inner", units)  # inside one transaction the calls are not retried one by one

        def pg_batch() -> None:
            with raw.transaction():
                raw.write_units(fresh, [vectors[u.id] for u in fresh], rows.mentions_per_unit)
                if kept:  # text, positions, version and mention counts; the stored embeddings are kept
                    raw.write_units(kept, None, rows.mentions_per_unit)
                raw.write_merges(self.resolver.merges, self.job.id)
                if retire:
                    raw.retire(self.tenant, retire)
                raw.write_sources([s.plan.source for s in lasts if s.plan.mark_complete])  # last: marks them complete

        self._pg(pg_batch)
        self.resolver.merges.clear()
        self.timings["write_pg"] += time.perf_counter() - t

        self.counts["units_written"] += len(fresh)
        self.counts["units_kept"] += len(kept)
        self.counts["units_extracted"] += sum(1 for s in batch for u in s.units if u.id in s.plan.extract)
        self.counts["units_retired"] += len(retire)
        self.counts["entities_written"] += len(rows.entity_ids)
        self.counts["mentions_written"] += len(rows.mentions)
        self.counts["relations_written"] += len(rows.relations)
        for s in lasts:
            self.counts[f"documents_{s.plan.kind}"] += 1
        self.progress.add("write", sum(len(s.units) for s in batch))
        self.progress.add("documents", len(lasts))

    def _remove_vanished(self) -> None:
        """Records gone from a record file that was read whole, and (with --prune) files gone from the
        folders given: retired in PostgreSQL (kept for audit), removed from the graph — as `kmrag delete`."""
        for sid in self._vanished:
            n = self.stores.units.retire_source(self.tenant, sid)
            self.stores.graph.delete_source(self.tenant, sid)
            self.counts["documents_removed"] += 1
            self.counts["units_retired"] += n
        if self._vanished:
            self.stores.graph.flush()

    # -- entities -----------------------------------------------------------------------------

    def _consolidate(self) -> list[Entity] | None:
        """Merge the entities that name one thing, over the tenant's whole entity set (order-free). Returns
        that set when nothing had to change (so it need not be read again), else None."""
        t = time.perf_counter()
        graph = self.stores.graph
        current = graph.all_entities(self.tenant)
        new = {e.id for e in current} - self._entities_before
        plan = self.resolver.plan(current, new)
        by_id = {e.id: e for e in current}
        add = {rid: aliases for rid, aliases in plan.new_aliases.items() if rid in by_id}
        records = [EntityMerge(tenant=self.tenant, entity_id=s.root.id, alias=s.member.name, method=s.method,
                               score=s.score) for s in plan.steps]
        records += [EntityMerge(tenant=self.tenant, entity_id=rid, alias=a, method="alias")
                    for rid, aliases in sorted(add.items()) for a in aliases]
        self.stores.units.write_merges(records, self.job.id)  # the audit record first, then the merge
        if plan.steps:
            graph.merge_entities(self.tenant, [(s.member.id, s.root.id) for s in plan.steps])
        if add:
            graph.write_entities([by_id[rid].model_copy(update={"aliases": [*by_id[rid].aliases, *a]})
                                  for rid, a in sorted(add.items())])
        self.counts["entities_merged"] += len(plan.steps)
        self.timings["consolidate"] += time.perf_counter() - t
        return None if plan.steps or add else current


def _groups_of(batch: list[_Slice]) -> list[list[KnowledgeUnit]]:
    return [[u for u in s.units if u.id in s.plan.extract and u.type is not UnitType.CODE] for s in batch]


def _rows_of(rows: GraphRows, unit_ids: set[str]) -> GraphRows:
    """The graph rows of some units of a batch: their mentions, the relations they give (with only
    their provenance) and the entities those refer to."""
    mentions = [m for m in rows.mentions if m.unit_id in unit_ids]
    relations = [r.model_copy(update={"unit_ids": [u for u in r.unit_ids if u in unit_ids]})
                 for r in rows.relations if any(u in unit_ids for u in r.unit_ids)]
    refs = {m.entity_id for m in mentions} | {x for r in relations for x in (r.subject_id, r.object_id)}
    return GraphRows(mentions=mentions, relations=relations, entity_ids=sorted(refs),
                     mentions_per_unit={k: v for k, v in rows.mentions_per_unit.items() if k in unit_ids})


def vanished(stored: set[str], seen: set[str], kept: set[str], record_files: set[str],
             folders: Sequence[str], uris: dict[str, str]) -> list[str]:
    """Stored sources that are no longer there: records of the record files read whole (``file#key``),
    and sources read from under the folders given (by the URI they were read from, whatever their id);
    never those of files that could not be read."""
    out = []
    for sid in sorted(stored - seen - kept):
        cuts = [i for i, c in enumerate(sid) if c == "#"]
        if any(sid[:i] in record_files for i in cuts):
            out.append(sid)
        elif any(uris.get(sid, "").startswith(f) for f in folders) and not any(sid[:i] in kept for i in cuts):
            out.append(sid)
    return out


def ingest(stores: Stores, paths: Sequence[str | Path], tenant: str, options: SourceOptions | None = None,
           progress: bool | None = None, embedder: Embedder | None = None,
           extractor: Extractor | None = None, force: bool = False, lock_wait_s: float = 3600.0,
           engine: ComputeEngine | None = None) -> IngestResult:
    """Run one ingestion job with the default offline embedder and extractor; ``engine``: where the
    compute runs (default: this process; a :class:`kmrag.ingestion.ray_engine.RayEngine`, owned by the caller)."""
    from kmrag.nlp.embed import get_embedder

    job = IngestionJob(stores, embedder or get_embedder(stores.settings), extractor or get_extractor(stores.settings),
                       tenant, options, progress, force=force, lock_wait_s=lock_wait_s, engine=engine)
    return job.run(paths)


def get_extractor(settings: Any) -> Extractor:
    """spaCy (offline default) or the OpenAI-compatible LLM extractor (KMRAG_EXTRACTOR=llm)."""
    if settings.extractor == "llm":
        from kmrag.ingestion.llm_extract import LLMExtractor

        return LLMExtractor(settings)
    if settings.extractor != "spacy":
        raise ConfigError(f"unknown extractor {settings.extractor!r}: use 'spacy' or 'llm'")
    from kmrag.nlp.extract import SpacyExtractor

    return SpacyExtractor()
