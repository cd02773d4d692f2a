"""`kmrag ingest --engine ray`: parsing, entity extraction and embedding on Ray actors.

Each actor loads spaCy and the embedder once, then parses documents and computes batches
(:func:`kmrag.ingestion.compute.parse_source`, :func:`kmrag.ingestion.compute.compute_batch`: the
very functions the single-process path runs). Entity resolution and every write stay in the job's
process (one writer per tenant, the same store code and batching); the job consumes the actors'
results in the order it handed the work over, so the resolver sees the single-process sequence and
the stored result is the same (tests/integration/test_ray_ingest.py compares the tenant digests).

Without an address a local Ray runtime is started with ``workers`` CPUs (default: this machine's
cores); with one (``ray://…`` or ``HOST:6379``, or ``auto``), the job joins that cluster, where every
node has the same kmrag package installed. Ray runs offline here: no dashboard, no usage statistics,
no runtime environment shipped.

A worker that dies (killed, out of memory) is restarted by Ray and its task is run again
(``max_restarts``/``max_task_retries``); when it keeps dying the job fails as any job does, and
running it again resumes it.
"""

from __future__ import annotations

import os
import time
from typing import Any

from kmrag.config import Settings
from kmrag.errors import ConfigError, OptionalDependencyMissing
from kmrag.ingestion.compute import BatchOutput, BatchWork, Parsed, compute_batch, parse_source
from kmrag.ingestion.sources import SourceDocument

OBJECT_STORE_BYTES = 200 * 1024 * 1024  # batches are small; a local runtime needs no more
MAX_RESTARTS = 4
MAX_TASK_RETRIES = 4


def import_ray() -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never phones home
    try:
        import ray
    except ImportError as e:
        raise OptionalDependencyMissing("--engine ray needs Ray: pip install 'kmrag[ray]' (or pip install "
                                        "'ray>=2.40')") from e
    return ray


class IngestWorker:
    """One Ray actor: spaCy and the embedder, loaded once."""

    def __init__(self, settings: Settings) -> None:
        from kmrag.ingestion.pipeline import get_extractor
        from kmrag.nlp.embed import LOCAL_EMBEDDERS, get_embedder, onnx_class

        # a local model gets one thread: each actor has one CPU, and NLP runs before it in the actor
        self.embedder = onnx_class(settings.embedder)(threads=1) if settings.embedder in LOCAL_EMBEDDERS \
            else get_embedder(settings)
        self.extractor = get_extractor(settings)
        self.embedder.embed(["warm-up"])  # model load is not batch work

    def pid(self) -> int:
        return os.getpid()

    def parse(self, doc: SourceDocument, tenant: str) -> Parsed:
        return parse_source(doc, tenant)

    def compute(self, work: BatchWork) -> BatchOutput:
        return compute_batch(self.extractor, self.embedder, work)

    def embed(self, texts: list[str]) -> Any:
        return self.embedder.embed(texts)


class _SpreadEmbedder:
    """An embedder whose texts are embedded on the actors, in chunks, and put back in order."""

    def __init__(self, engine: RayEngine, name: str, dim: int) -> None:
        self.engine, self.name, self.dim = engine, name, dim

    def embed(self, texts: list[str]) -> Any:
        import numpy as np

        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        step = max(1, -(-len(texts) // (4 * self.engine.workers)))
        refs = [self.engine._actor().embed.remote(texts[i:i + step]) for i in range(0, len(texts), step)]
        return np.concatenate(self.engine.ray.get(refs))

    def embed_query(self, texts: list[str]) -> Any:  # ingestion embeds no questions
        return self.embed(texts)


class RayEngine:
    """The actors, and the queue the job hands work to (round robin, ``2 × workers`` ahead)."""

    name = "ray"

    def __init__(self, settings: Settings, workers: int | None = None, address: str | None = None) -> None:
        if workers is not None and workers < 1:
            raise ConfigError("--workers must be at least 1")
        self.ray = ray = import_ray()
        self.address = address
        self.started = False
        t = time.perf_counter()
        if not ray.is_initialized():
            common: dict[str, Any] = {"log_to_driver": False, "configure_logging": False,
                                      "include_dashboard": False}
            if address:
                ray.init(address=address, **common)
            else:
                ray.init(num_cpus=workers or os.cpu_count() or 1, object_store_memory=OBJECT_STORE_BYTES, **common)
            self.started = True
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        # parsing has its own thread in each actor, so the documents of the next batches are parsed while
        # the actor computes a batch (behind which they would otherwise queue)
        actor = ray.remote(num_cpus=1, max_restarts=MAX_RESTARTS, max_task_retries=MAX_TASK_RETRIES,
                           concurrency_groups={"parse": 1})(IngestWorker)
        self.actors = [actor.remote(settings) for _ in range(self.workers)]
        ray.get([a.pid.remote() for a in self.actors])  # every actor has loaded its models
        self.startup_s = time.perf_counter() - t
        self.ahead = 2 * self.workers
        self.parse_ahead = 64 * self.workers
        self.settings = settings
        self._next = 0

    def _actor(self) -> Any:
        a = self.actors[self._next % len(self.actors)]
        self._next += 1
        return a

    def parse(self, doc: SourceDocument, tenant: str) -> Any:
        return self._actor().parse.options(concurrency_group="parse").remote(doc, tenant)

    def parsed(self, handle: Any) -> Parsed:
        out: Parsed = self.ray.get(handle)
        return out

    def submit(self, work: BatchWork) -> Any:
        return self._actor().compute.remote(work)

    def result(self, handle: Any) -> BatchOutput:
        out: BatchOutput = self.ray.get(handle)
        return out

    def names_embedder(self) -> Any:
        """The actors' embedder, under the name of the model they run (a tenant records the model its vectors
        were made with, whichever engine made them)."""
        from kmrag.nlp.embed import LOCAL_EMBEDDERS, onnx_class

        kind = self.settings.embedder
        name = onnx_class(kind).name if kind in LOCAL_EMBEDDERS else self.settings.embedding_model
        return _SpreadEmbedder(self, name, self.settings.embedding_dim)

    def pids(self) -> list[int]:
        """The actors' process ids (a test kills one)."""
        return [int(p) for p in self.ray.get([a.pid.remote() for a in self.actors])]

    def describe(self) -> dict[str, Any]:
        return {"engine": "ray", "workers": self.workers, "address": self.address or "local",
                "startup_s": round(self.startup_s, 2)}

    def close(self) -> None:
        for a in self.actors:
            try:
                self.ray.kill(a)
            except Exception:  # noqa: BLE001 - an actor already gone
                pass
        self.actors = []
        if self.started:
            self.ray.shutdown()
            self.started = False

    def __enter__(self) -> RayEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
