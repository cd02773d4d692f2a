"""Where an ingestion job's compute runs: parsing a document into units, entity extraction and
embedding of a batch. The functions here are the compute itself, with no store and no job state, so
the same code runs in the job's own process (:class:`LocalEngine`, the default) and inside Ray actors
(:mod:`kmrag.ingestion.ray_engine`); the engine only changes *where* it runs.

An engine is used by the job as a queue: ``parse``/``submit`` hand work over and return a handle,
``parsed``/``result`` wait for that handle. The job hands over up to ``ahead`` items before it waits
for the oldest one, and it always consumes the results in the order it handed the work over, so
entity resolution and the writes (which stay in the job's process: one writer) see exactly the
sequence of the single-process path, whatever order the workers finish in.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from kmrag.ingestion.embed_worker import embedding_executor, timed_embed
from kmrag.ingestion.parse import parse_document
from kmrag.ingestion.sources import SourceDocument
from kmrag.ingestion.units import ParsedUnits, build_units
from kmrag.nlp.embed import Embedder
from kmrag.nlp.extract import Extraction, Extractor
from kmrag.schema import KnowledgeUnit


@dataclass
class Parsed:
    """A document parsed into units, or why it could not be."""

    units: ParsedUnits | None
    error: str = ""
    seconds: float = 0.0


@dataclass
class BatchWork:
    """What one batch needs computed: the units to extract, grouped by source (so a document that
    breaks the extractor is found and fails alone), and the texts to embed."""

    extract: list[tuple[str, list[KnowledgeUnit]]]
    embed_texts: list[str]


@dataclass
class BatchOutput:
    extractions: dict[str, Extraction] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # source id -> why its extraction failed
    vectors: np.ndarray | None = None
    nlp_s: float = 0.0
    embed_s: float = 0.0


def parse_source(doc: SourceDocument, tenant: str) -> Parsed:
    """Structural parse and units of one document; a failure is that document's error."""
    t = time.perf_counter()
    try:
        blocks, text = parse_document(doc)
        return Parsed(build_units(doc, blocks, text, tenant), seconds=time.perf_counter() - t)
    except Exception as e:  # noqa: BLE001 - one document's failure is that document's error
        return Parsed(None, f"cannot parse: {type(e).__name__}: {e}", time.perf_counter() - t)


def extract_batch(extractor: Extractor, groups: Sequence[tuple[str, list[KnowledgeUnit]]]
                  ) -> tuple[dict[str, Extraction], dict[str, str], float]:
    """Entities and triples of a batch's units, in one extractor call; when that call fails, source by
    source: the source whose text breaks the extractor fails, the others are kept.
    Returns (extractions by unit id, failed sources with the reason, seconds)."""
    t = time.perf_counter()
    units = [u for _, us in groups for u in us]
    out: dict[str, Extraction] = {}
    failed: dict[str, str] = {}
    try:
        out = dict(zip((u.id for u in units), extractor.extract(units), strict=True)) if units else {}
    except Exception:  # noqa: BLE001 - isolate the document that breaks the extractor
        for sid, mine in groups:
            if sid in failed:
                continue
            try:
                out.update(zip((u.id for u in mine), extractor.extract(mine), strict=True))
            except Exception as e:  # noqa: BLE001 - that document's error, not the job's
                failed[sid] = f"entity extraction failed: {type(e).__name__}: {e}"
    return out, failed, time.perf_counter() - t


def compute_batch(extractor: Extractor, embedder: Embedder, work: BatchWork) -> BatchOutput:
    """A batch's whole compute in one place (a Ray actor runs this): extraction, then embedding."""
    out, failed, nlp_s = extract_batch(extractor, work.extract)
    vectors, embed_s = None, 0.0
    if work.embed_texts:
        t = time.perf_counter()
        vectors = embedder.embed(work.embed_texts)
        embed_s = time.perf_counter() - t
    return BatchOutput(out, failed, vectors, nlp_s, embed_s)


class ComputeEngine(Protocol):
    name: str
    ahead: int  # how many batches the job hands over before it waits for the oldest
    parse_ahead: int  # how many documents

    def names_embedder(self) -> Embedder | None: ...  # for the job's end (entity names): None = the job's own

    def parse(self, doc: SourceDocument, tenant: str) -> Any: ...
    def parsed(self, handle: Any) -> Parsed: ...
    def submit(self, work: BatchWork) -> Any: ...
    def result(self, handle: Any) -> BatchOutput: ...
    def close(self) -> None: ...
    def describe(self) -> dict[str, Any]: ...


class LocalEngine:
    """The job's own process: parsing and extraction in it, the local embedding model in its own worker
    process beside (see :mod:`kmrag.ingestion.embed_worker`), one batch at a time."""

    name = "local"
    ahead = 0
    parse_ahead = 0

    def __init__(self, embedder: Embedder, extractor: Extractor) -> None:
        self.embedder = embedder
        self.extractor = extractor
        self._pool: Executor | None = None

    def names_embedder(self) -> Embedder | None:
        return None

    def parse(self, doc: SourceDocument, tenant: str) -> Any:
        return (doc, tenant)  # parsed when asked for: nothing runs ahead here

    def parsed(self, handle: Any) -> Parsed:
        return parse_source(*handle)

    def submit(self, work: BatchWork) -> Any:
        fut: Future[tuple[np.ndarray, float]] | None = None
        if work.embed_texts:  # the embedding starts now and runs while this process extracts
            if self._pool is None:
                self._pool = embedding_executor(self.embedder)
            fut = self._pool.submit(timed_embed, work.embed_texts)
        return work, fut

    def result(self, handle: Any) -> BatchOutput:
        work, fut = handle
        out, failed, nlp_s = extract_batch(self.extractor, work.extract)
        vectors, embed_s = None, 0.0
        if fut is not None:
            vectors, embed_s = fut.result()
        return BatchOutput(out, failed, vectors, nlp_s, embed_s)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def describe(self) -> dict[str, Any]:
        return {"engine": "local"}
