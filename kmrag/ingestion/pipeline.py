"""The ingestion job: sources -> structural parse -> units + links -> extraction -> resolution ->
embedding -> load into the graph store and the unit store.

Idempotent and resumable by construction:
- a source whose stored version equals its content hash is skipped (nothing is rewritten);
- per batch the graph is written first and the PostgreSQL unit rows last, so a unit row in
  PostgreSQL means the unit is complete in both stores; the source row (its version) is written
  after all of its units, so an interrupted source is simply redone on the next run, and
  MERGE/upsert writes make redoing it free of duplicates;
- units that disappeared from a changed source are retired from both stores with their triples.
Embedding runs in a worker thread while spaCy parses the same batch (onnxruntime releases the GIL).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kmrag.errors import ConfigError, InvalidIdentifier, KmragError
from kmrag.ingestion.embed import Embedder
from kmrag.ingestion.extract import ExtractedEntity, Extraction, Extractor
from kmrag.ingestion.jobs import JobError, JobRecord, JobStore
from kmrag.ingestion.parse import parse_document
from kmrag.ingestion.resolve import EntityResolver
from kmrag.ingestion.sources import SourceDocument, SourceOptions, SourceProblem, read_sources
from kmrag.ingestion.units import ParsedUnits, build_units
from kmrag.schema import (
    KnowledgeUnit,
    Mention,
    MentionKind,
    Relation,
    Source,
    relation_id,
    relationship_type,
)
from kmrag.stores import Stores

BATCH_UNITS = 256
STAGES = ("read", "parse", "nlp", "embed", "resolve", "write_graph", "write_pg")


def embedding_text(u: KnowledgeUnit) -> str:
    """What the embedder sees: the unit's title (section / passage title) and its content."""
    if u.title and u.title != u.content and not u.content.startswith(u.title):
        return f"{u.title}\n{u.content}"
    return u.content


_WORKER_EMBEDDER: Embedder | None = None


def _init_worker(embedder: Embedder | None) -> None:
    global _WORKER_EMBEDDER
    if embedder is None:  # a worker process: load the local model there, once
        from kmrag.ingestion.embed import OnnxMiniLMEmbedder

        embedder = OnnxMiniLMEmbedder(threads=1)  # one core for the model, the other for spaCy
    _WORKER_EMBEDDER = embedder


def _timed_embed(texts: list[str]) -> tuple[np.ndarray, float]:
    assert _WORKER_EMBEDDER is not None
    t = time.perf_counter()
    vecs = _WORKER_EMBEDDER.embed(texts)
    return vecs, time.perf_counter() - t


def embedding_executor(embedder: Embedder) -> Executor:
    """Embedding overlaps NLP. The local model runs in its own process (spaCy holds the GIL much of
    the time, and the two would otherwise queue for it); other embedders run in a thread."""
    from kmrag.ingestion.embed import OnnxMiniLMEmbedder

    if isinstance(embedder, OnnxMiniLMEmbedder):
        import multiprocessing as mp

        return ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"), initializer=_init_worker,
                                   initargs=(None,))
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="kmrag-embed", initializer=_init_worker,
                              initargs=(embedder,))


@dataclass
class _Pending:
    doc: SourceDocument
    parsed: ParsedUnits
    new: list[KnowledgeUnit]
    kept: list[KnowledgeUnit]
    retire: list[str]
    changed: bool


@dataclass
class IngestResult:
    job: JobRecord
    agreement: dict[str, Any] = field(default_factory=dict)


class Progress:
    """One tqdm bar per stage on a terminal; silent otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.bars: dict[str, Any] = {}
        if enabled:
            from tqdm import tqdm

            for i, (name, unit) in enumerate([("documents", "doc"), ("nlp", "unit"), ("embed", "unit"),
                                              ("write", "unit")]):
                self.bars[name] = tqdm(desc=f"{name:>9}", unit=unit, position=i, leave=True,
                                       ncols=min(120, shutil.get_terminal_size((100, 20)).columns or 100))

    def add(self, name: str, n: int) -> None:
        if name in self.bars and n:
            self.bars[name].update(n)

    def close(self) -> None:
        for b in self.bars.values():
            b.close()


class IngestionJob:
    def __init__(self, stores: Stores, embedder: Embedder, extractor: Extractor, tenant: str,
                 options: SourceOptions | None = None, progress: bool | None = None,
                 batch_units: int = BATCH_UNITS) -> None:
        self.stores = stores
        self.embedder = embedder
        self.extractor = extractor
        self.tenant = tenant
        self.options = options or SourceOptions()
        self.progress = Progress(sys.stderr.isatty() if progress is None else progress)
        self.batch_units = batch_units
        self.jobs = JobStore(stores.pool)
        self.timings: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self.errors: list[JobError] = []
        self._pool = embedding_executor(embedder)
        self.after_batch: Callable[[int], None] | None = None  # test hook: called with the batch number

    # -- the job ------------------------------------------------------------------------------

    def run(self, paths: Sequence[str | Path]) -> IngestResult:
        t_start = time.perf_counter()
        job = self.jobs.create(self.tenant, [str(p) for p in paths])
        self.job = job
        graph, units = self.stores.graph, self.stores.units
        try:
            self.resolver = EntityResolver(self.tenant, graph.all_entities(self.tenant),
                                           units.undone_merges(self.tenant))
            versions = units.source_versions(self.tenant)
            # sources either store has seen (an interrupted run leaves the graph's Source node first)
            self._known = set(versions) | graph.source_ids(self.tenant)
            pending: list[_Pending] = []
            size = 0
            batch_no = 0
            touched: list[str] = []
            t = time.perf_counter()
            for item in read_sources(paths, self.options):
                self.timings["read"] += time.perf_counter() - t
                self.counts["documents_seen"] += 1
                if isinstance(item, SourceProblem):
                    self._fail(item.path, item.reason)
                elif versions.get(item.source_id) == item.version:
                    self.counts["documents_unchanged"] += 1
                    self.progress.add("documents", 1)
                else:
                    p = self._prepare(item)
                    if p is not None:
                        pending.append(p)
                        touched.append(item.source_id)
                        size += len(p.new)
                        if size >= self.batch_units:
                            self._process(pending)
                            batch_no += 1
                            if self.after_batch:
                                self.after_batch(batch_no)
                            pending, size = [], 0
                            self._save(job)
                t = time.perf_counter()
            if pending:
                self._process(pending)
            graph.flush()
            if self.counts.get("units_written") or self.counts.get("units_retired"):
                t = time.perf_counter()
                units.analyze()
                self.timings["analyze"] += time.perf_counter() - t
            agreement = self.check_agreement(touched)
            job.status = "completed_with_errors" if self.errors else "completed"
            if not agreement["agree"]:
                job.status = "failed"
                self.errors.append(JobError(path="(stores)", reason=f"graph and unit store disagree: {agreement}"))
            self.timings["total"] = time.perf_counter() - t_start
            self._save(job, finished=True)
            return IngestResult(job=job, agreement=agreement)
        except BaseException as e:
            graph.flush()
            job.status = "interrupted" if isinstance(e, KeyboardInterrupt) else "failed"
            self.errors.append(JobError(path="(job)", reason=f"{type(e).__name__}: {e}"))
            self.timings["total"] = time.perf_counter() - t_start
            try:
                self._save(job, finished=True)
            except Exception:  # noqa: BLE001 - keep the original error
                pass
            raise
        finally:
            self._pool.shutdown(wait=True)
            self.progress.close()

    def _save(self, job: JobRecord, finished: bool = False) -> None:
        for k, v in getattr(self.extractor, "usage", {}).items():  # LLM extractor: tokens, retries
            self.counts[f"llm_{k}"] = int(v)
        job.counts = dict(self.counts)
        job.errors = list(self.errors)
        job.timings = {k: round(v, 3) for k, v in self.timings.items()}
        self.jobs.save(job, finished=finished)

    def _fail(self, path: str, reason: str) -> None:
        self.counts["documents_failed"] += 1
        self.errors.append(JobError(path=path, reason=reason))
        self.progress.add("documents", 1)

    # -- per document -------------------------------------------------------------------------

    def _prepare(self, doc: SourceDocument) -> _Pending | None:
        t = time.perf_counter()
        try:
            blocks, text = parse_document(doc)
            parsed = build_units(doc, blocks, text, self.tenant)
        except (KmragError, ValueError) as e:
            self._fail(doc.source_id, f"cannot parse: {e}")
            return None
        finally:
            self.timings["parse"] += time.perf_counter() - t
        if not parsed.units:
            self._fail(doc.source_id, "no text units found in the document")
            return None
        self.counts["units_parsed"] += len(parsed.units)
        # an interrupted earlier run may have left units of a source never recorded as complete
        present: set[str] = set()
        in_graph: set[str] = set()
        if doc.source_id in self._known:
            present = self.stores.units.unit_ids(self.tenant, doc.source_id)
            in_graph = self.stores.graph.unit_ids(self.tenant, doc.source_id)
        complete = present & in_graph
        wanted = {u.id for u in parsed.units}
        new = [u for u in parsed.units if u.id not in complete]
        kept = [u for u in parsed.units if u.id in complete]
        retire = sorted((present | in_graph) - wanted)
        return _Pending(doc=doc, parsed=parsed, new=new, kept=kept, retire=retire,
                        changed=bool(present or in_graph))

    # -- per batch ----------------------------------------------------------------------------

    def _process(self, batch: list[_Pending]) -> None:
        new_units = [u for p in batch for u in p.new]
        fut: Future[tuple[np.ndarray, float]] = self._pool.submit(_timed_embed, [embedding_text(u) for u in new_units])
        t = time.perf_counter()
        extractions = self.extractor.extract(new_units) if new_units else []
        self.timings["nlp"] += time.perf_counter() - t
        self.progress.add("nlp", len(new_units))

        t = time.perf_counter()
        mentions, relations = self._resolve(new_units, extractions, batch)
        self.timings["resolve"] += time.perf_counter() - t

        t = time.perf_counter()
        vecs, embed_s = fut.result()
        self.timings["embed"] += embed_s
        self.timings["embed_wait"] += time.perf_counter() - t
        self.progress.add("embed", len(new_units))
        self._write(batch, new_units, vecs, mentions, relations)

    def _resolve(self, new_units: list[KnowledgeUnit], extractions: list[Extraction],
                 batch: list[_Pending]) -> tuple[list[Mention], list[Relation]]:
        r = self.resolver
        mentions: dict[tuple[str, str, MentionKind], Mention] = {}
        relations: dict[str, Relation] = {}
        defined = {uid: term for p in batch for uid, term in p.parsed.defined_terms.items()}
        for u, ex in zip(new_units, extractions, strict=True):
            for alias, full in ex.aliases:
                r.add_alias(alias, full)
            if u.id in defined:
                eid = r.resolve(ExtractedEntity(name=defined[u.id], label="CONCEPT"))
                mentions[(u.id, eid, MentionKind.DEFINES)] = Mention(tenant=self.tenant, unit_id=u.id, entity_id=eid,
                                                                     kind=MentionKind.DEFINES)
            for ent in ex.entities:
                eid = r.resolve(ent)
                mentions.setdefault((u.id, eid, MentionKind.MENTIONS),
                                    Mention(tenant=self.tenant, unit_id=u.id, entity_id=eid))
            for tr in ex.triples:
                try:
                    rtype = relationship_type(tr.predicate)
                except InvalidIdentifier:
                    continue
                s, o = r.resolve(tr.subject), r.resolve(tr.object)
                if s == o:
                    continue
                for eid in (s, o):
                    mentions.setdefault((u.id, eid, MentionKind.MENTIONS),
                                        Mention(tenant=self.tenant, unit_id=u.id, entity_id=eid))
                rid = relation_id(self.tenant, s, rtype, o)
                if rid in relations:
                    rel = relations[rid]
                    if u.id not in rel.unit_ids:
                        rel.unit_ids.append(u.id)
                    if tr.sentence not in rel.sentences and len(rel.sentences) < 5:
                        rel.sentences.append(tr.sentence)
                    rel.confidence = max(rel.confidence, tr.confidence)
                else:
                    relations[rid] = Relation(id=rid, tenant=self.tenant, subject_id=s, object_id=o,
                                              predicate=tr.predicate, type=rtype, confidence=tr.confidence,
                                              unit_ids=[u.id], sentences=[tr.sentence])
        return list(mentions.values()), list(relations.values())

    def _write(self, batch: list[_Pending], new_units: list[KnowledgeUnit], vecs: np.ndarray,
               mentions: list[Mention], relations: list[Relation]) -> None:
        graph, units = self.stores.graph, self.stores.units
        t = time.perf_counter()
        sources = [self._source(p.doc) for p in batch]
        graph.write_sources(sources)
        for p in batch:
            if p.changed:
                graph.clear_unit_links(self.tenant, p.doc.source_id)
        graph.write_units([u for p in batch for u in (p.new + p.kept)])
        graph.write_unit_links([lk for p in batch for lk in p.parsed.links])
        changed = [self.resolver.entities[e] for e in sorted(self.resolver.changed)]
        graph.write_entities(changed)
        self.resolver.changed.clear()
        graph.write_mentions(mentions)
        graph.write_relations(relations)
        self.timings["write_graph"] += time.perf_counter() - t

        t = time.perf_counter()
        units.write_units(new_units, list(vecs))
        kept = [u for p in batch for u in p.kept]
        if kept:
            units.write_units(kept, None)  # positions and version only; embeddings are kept
        units.write_merges(self.resolver.merges, self.job.id)
        self.resolver.merges.clear()
        self.timings["write_pg"] += time.perf_counter() - t

        t = time.perf_counter()
        retire = [uid for p in batch for uid in p.retire]
        if retire:
            graph.retire_units(self.tenant, retire)
            units.retire(self.tenant, retire)
        graph.flush()
        units.write_sources(sources)  # last: marks these sources complete
        self.timings["write_retire"] += time.perf_counter() - t

        self.counts["units_written"] += len(new_units)
        self.counts["units_kept"] += len(kept)
        self.counts["units_retired"] += sum(len(p.retire) for p in batch)
        self.counts["entities_written"] += len(changed)
        self.counts["mentions_written"] += len(mentions)
        self.counts["relations_written"] += len(relations)
        for p in batch:
            self.counts["documents_updated" if p.changed else "documents_new"] += 1
        self.progress.add("write", len(new_units))
        self.progress.add("documents", len(batch))

    def _source(self, doc: SourceDocument) -> Source:
        return Source(id=doc.source_id, tenant=self.tenant, uri=doc.uri, version=doc.version,
                      content_hash=doc.version, metadata={"kind": doc.kind, "title": doc.title, **doc.metadata})

    # -- checks -------------------------------------------------------------------------------

    def check_agreement(self, source_ids: Sequence[str]) -> dict[str, Any]:
        """Every active unit of the tenant is in both stores, and nothing else is (two queries; the
        per-source detail is only worked out when they differ)."""
        t = time.perf_counter()
        pg = self.stores.units.unit_ids(self.tenant)
        gr = self.stores.graph.unit_ids(self.tenant)
        bad: list[str] = []
        if pg != gr:
            for sid in source_ids:
                if self.stores.units.unit_ids(self.tenant, sid) != self.stores.graph.unit_ids(self.tenant, sid):
                    bad.append(sid)
        self.timings["verify"] += time.perf_counter() - t
        return {"sources_checked": len(source_ids), "units": len(pg), "agree": pg == gr,
                "only_in_postgres": len(pg - gr), "only_in_graph": len(gr - pg), "disagreeing_sources": bad[:20]}


def ingest(stores: Stores, paths: Sequence[str | Path], tenant: str, options: SourceOptions | None = None,
           progress: bool | None = None, embedder: Embedder | None = None,
           extractor: Extractor | None = None) -> IngestResult:
    """Run one ingestion job with the default offline embedder and extractor."""
    from kmrag.ingestion.embed import get_embedder

    job = IngestionJob(stores, embedder or get_embedder(stores.settings), extractor or get_extractor(stores.settings),
                       tenant, options, progress)
    return job.run(paths)


def get_extractor(settings: Any) -> Extractor:
    """spaCy (offline default) or the OpenAI-compatible LLM extractor (KMRAG_EXTRACTOR=llm)."""
    if settings.extractor == "llm":
        from kmrag.ingestion.llm_extract import LLMExtractor

        return LLMExtractor(settings)
    if settings.extractor != "spacy":
        raise ConfigError(f"unknown extractor {settings.extractor!r}: use 'spacy' or 'llm'")
    from kmrag.ingestion.extract import SpacyExtractor

    return SpacyExtractor()
