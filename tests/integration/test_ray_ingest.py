"""Ingestion on Ray workers (issue 13) stores what the single-process path stores: the same corpus
ingested into two tenants, once in this process and once with a local Ray runtime of 2 workers,
gives equal tenant digests (kmrag.ingestion.digest: units, entities, relations, mentions, links, up
to the tenant's name), on Neo4j and on the embedded graph store, against the real PostgreSQL. A
worker killed mid-job is restarted and its batch run again; a job whose driver dies is resumed by
running it again; re-runs change nothing; an update and a pruned file end the same on both paths.

Ray starts once for the module (its start and the actors' model loads take seconds)."""

from __future__ import annotations

import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.ingestion.digest import tenant_digest
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.sources import SourceOptions
from kmrag.nlp.embed import get_embedder
from kmrag.stores import Stores
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

TRIAL = Path(__file__).resolve().parents[1] / "data" / "trial"
BATCH = 8  # units: many batches from the small corpus, so several are in flight on the workers at once


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kmrag.config import load_settings
    from kmrag.ingestion.ray_engine import RayEngine

    settings = load_settings(config_file=tmp_path_factory.mktemp("cfg") / "none.toml", environ={}, tenant="x")
    eng = RayEngine(settings, workers=2)
    yield eng
    eng.close()


@pytest.fixture(params=["neo4j", "embedded"])
def backend(request: Any) -> str:
    return str(request.param)


@pytest.fixture
def stores(backend: str, neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores(backend, neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    yield s
    for t in (tenant, tenant + "_ray"):
        s.graph.clear_tenant(t)
        s.units.clear_tenant(t)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "trial"
    shutil.copytree(TRIAL, root)
    return root


def run(stores: Stores, tenant: str, extractor: Any, path: Path, engine: Any = None, prune: bool = False,
        **hooks: Any) -> Any:
    job = IngestionJob(stores, get_embedder(stores.settings), extractor, tenant, SourceOptions(prune=prune),
                       progress=False, batch_units=BATCH, engine=engine)
    for name, fn in hooks.items():
        setattr(job, name, fn)
    return job.run([path])


WORK = ("units_written", "units_parsed", "entities_written", "mentions_written", "relations_written",
        "documents_new", "documents_failed")


def same(stores: Stores, a: str, b: str) -> None:
    da, db = tenant_digest(stores, a), tenant_digest(stores, b)
    assert da.counts["units"] > 20 and da.counts["entities"] > 5 and da.counts["mentions"] > 5, da.counts
    assert {k: v for k, v in db.parts.items() if da.parts[k] != v} == {}, (da.counts, db.counts)
    assert da.sha256 == db.sha256


def test_ray_workers_store_what_one_process_stores(stores: Stores, tenant: str, extractor: Any, engine: Any,
                                                   corpus: Path) -> None:
    one = run(stores, tenant, extractor, corpus)
    ray = run(stores, tenant + "_ray", extractor, corpus, engine)
    assert one.job.status == ray.job.status == "completed", (one.job.errors, ray.job.errors)
    assert ray.agreement["agree"] and ray.agreement["tenant_agrees"]
    assert {k: ray.job.counts.get(k) for k in WORK} == {k: one.job.counts.get(k) for k in WORK}
    assert ray.job.timings.get("compute_wait") is not None  # the batches did go through the workers
    same(stores, tenant, tenant + "_ray")
    # a digest sees a difference (it is not equal by construction)
    assert tenant_digest(stores, tenant).sha256 != tenant_digest(stores, "t_nothing_here").sha256

    again = run(stores, tenant + "_ray", extractor, corpus, engine)  # re-run: nothing to do
    assert again.job.status == "completed" and again.job.counts.get("units_written", 0) == 0
    assert again.job.counts["documents_unchanged"] == one.job.counts["documents_new"]

    # an edited document and a vanished one (--prune): both paths end the same
    (corpus / "zlib-api.md").write_text((corpus / "zlib-api.md").read_text() + "\n\nThe Deflate stream was "
                                        "designed by Phil Katz at PKWARE in Milwaukee.\n", encoding="utf-8")
    (corpus / "installing.rst").unlink()
    one2 = run(stores, tenant, extractor, corpus, prune=True)
    ray2 = run(stores, tenant + "_ray", extractor, corpus, engine, prune=True)
    assert one2.job.status == ray2.job.status == "completed"
    assert ray2.job.counts.get("documents_updated") == 1 and ray2.job.counts.get("documents_removed") == 1
    same(stores, tenant, tenant + "_ray")


def test_a_killed_worker_is_restarted_and_the_job_ends_the_same(stores: Stores, tenant: str, extractor: Any,
                                                                engine: Any, corpus: Path, backend: str) -> None:
    if backend == "embedded":
        pytest.skip("the worker side does not depend on the graph backend; Neo4j runs it")
    run(stores, tenant, extractor, corpus)
    killed: list[int] = []

    def kill_a_worker(batch_no: int) -> None:
        if batch_no == 2:  # later batches are in flight on the workers now
            pid = engine.pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    res = run(stores, tenant + "_ray", extractor, corpus, engine, after_batch=kill_a_worker)
    assert killed, "the corpus gave fewer than 2 batches"
    assert res.job.status == "completed", res.job.errors
    assert killed[0] not in engine.pids()  # Ray restarted the actor: a new process
    same(stores, tenant, tenant + "_ray")
    again = run(stores, tenant + "_ray", extractor, corpus, engine)
    assert again.job.status == "completed" and again.job.counts.get("units_written", 0) == 0
    same(stores, tenant, tenant + "_ray")


class DriverDied(Exception):
    pass


def test_a_job_whose_driver_died_resumes_on_the_next_run(stores: Stores, tenant: str, extractor: Any,
                                                         engine: Any, corpus: Path, backend: str) -> None:
    if backend == "embedded":
        pytest.skip("resume is the single-process code; Neo4j runs it")
    run(stores, tenant, extractor, corpus)

    def die(batch_no: int) -> None:
        if batch_no == 3:
            raise DriverDied("killed")

    with pytest.raises(DriverDied):
        run(stores, tenant + "_ray", extractor, corpus, engine, after_batch=die)
    res = run(stores, tenant + "_ray", extractor, corpus, engine)
    assert res.job.status == "completed", res.job.errors
    assert res.job.counts.get("documents_unchanged", 0) + res.job.counts.get("documents_resumed", 0) >= 1
    same(stores, tenant, tenant + "_ray")


def test_bad_documents_are_the_same_errors_on_the_workers(stores: Stores, tenant: str, extractor: Any,
                                                          engine: Any, tmp_path: Path, backend: str) -> None:
    """Files that cannot be parsed (a truncated PDF, an empty file, a broken record) fail on a worker as they
    fail in one process: the same per-file errors and skips, and the rest stored alike."""
    if backend == "embedded":
        pytest.skip("parse errors do not depend on the graph backend; Neo4j runs it")
    bad = tmp_path / "bad"
    shutil.copytree(TRIAL.parent / "bad" / "corpus", bad)
    one = run(stores, tenant, extractor, bad)
    ray = run(stores, tenant + "_ray", extractor, bad, engine)
    assert one.job.errors and ray.job.status == one.job.status
    assert [(e.path, e.reason) for e in ray.job.errors] == [(e.path, e.reason) for e in one.job.errors]
    assert [(e.path, e.reason) for e in ray.job.skipped] == [(e.path, e.reason) for e in one.job.skipped]
    da, db = tenant_digest(stores, tenant), tenant_digest(stores, tenant + "_ray")
    assert da.counts["units"] > 3 and da.sha256 == db.sha256
