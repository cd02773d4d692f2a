"""Writers of one tenant as users run them: two ingests at once, a writer that waits, `kill -9`
of an ingest, and `kmrag repair` after the graph lost its data — on both graph backends."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.fixtures.cli import (
    clear_tenant,
    data_of,
    embedded_graph_env,
    error_of,
    kmrag,
    kmrag_popen,
    server_env,
)
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.e2e


@pytest.fixture(params=["neo4j", "embedded"])
def env(request: pytest.FixtureRequest, tmp_path: Path):
    e = server_env() if request.param == "neo4j" else embedded_graph_env(tmp_path / "data")
    yield e
    clear_tenant(e)


def two_folders(root: Path) -> tuple[Path, Path]:
    a, b = root / "team-a", root / "team-b"
    write_corpus(a)
    b.mkdir()
    (b / "cities.md").write_text("# Cities\n\nOslo is the capital of Norway.\n\nBergen is a city in Norway.\n"
                                 "\nLisbon is the capital of Portugal.\n")
    (b / "people.txt").write_text("Edvard Munch was born in Norway. He painted The Scream.\n")
    return a, b


def test_two_ingests_into_one_tenant_at_once_lose_nothing(env: dict[str, str], tmp_path: Path) -> None:
    a, b = two_folders(tmp_path)
    procs = [kmrag_popen("ingest", str(d), "--json", env=env) for d in (a, b)]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert data_of(out)["job"]["status"] == "completed"
    again = data_of(kmrag("ingest", str(a), str(b), "--json", env=env))
    assert again["job"]["counts"]["documents_unchanged"] == 5 and again["agreement"]["tenant_agrees"]
    fresh = {**env, "KMRAG_TENANT": env["KMRAG_TENANT"] + "_seq"}
    try:
        one = data_of(kmrag("ingest", str(a), str(b), "--json", env=fresh))
        assert again["graph"] == one["graph"] and again["units"] == one["units"]
    finally:
        clear_tenant(fresh)


def test_a_second_writer_waits_or_says_who_is_writing(tmp_path: Path) -> None:
    from kmrag.config import load_settings
    from kmrag.stores import open_stores
    from kmrag.units.lock import tenant_lock

    env = server_env()
    corpus = write_corpus(tmp_path / "corpus")
    try:
        with open_stores(load_settings(tenant=env["KMRAG_TENANT"], environ=env)) as s:
            s.init_schema()
            with tenant_lock(s.pool, env["KMRAG_TENANT"]):
                busy = kmrag("ingest", str(corpus), "--lock-wait", "1", "--json", env=env)
                assert busy.returncode == 2
                err = error_of(busy)
                assert err["type"] == "TenantBusy" and "--lock-wait" in err["message"]
                waiting = kmrag_popen("ingest", str(corpus), "--lock-wait", "120", "--json", env=env)
                time.sleep(15)  # the second writer loads its models, then waits for the lock
                assert waiting.poll() is None
            out, err_text = waiting.communicate(timeout=600)
        assert waiting.returncode == 0 and "waiting for it to finish" in err_text
        assert data_of(out)["job"]["counts"]["documents_new"] == 3
    finally:
        clear_tenant(env)


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_kill_9_of_an_ingest_leaves_no_embedding_worker(tmp_path: Path) -> None:
    env = server_env()
    big = tmp_path / "big"
    big.mkdir()
    for i in range(40):
        (big / f"doc{i}.md").write_text("# Doc\n\n" + "\n\n".join(f"Town {i}-{j} lies on river {j} in region {i}."
                                                                   for j in range(40)))
    proc = kmrag_popen("ingest", str(big), "--json", env=env)
    try:
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while time.monotonic() < deadline and not workers:  # the spawned embedding worker, not other helpers
            workers = [c for c in _children(proc.pid) if b"spawn_main" in _cmdline(c)]
            time.sleep(0.5)
        assert workers, "the ingest never started its embedding worker"
        time.sleep(3)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.5)
        assert not any(_alive(w) for w in workers), "the embedding worker outlived its parent"
    finally:
        if proc.poll() is None:
            proc.kill()
        clear_tenant(env)


def test_repair_after_the_graph_lost_its_data(env: dict[str, str], tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    first = data_of(kmrag("ingest", str(corpus), "--json", env=env))
    if "KMRAG_NEO4J_URI" in env:  # a Neo4j tenant wiped with Cypher
        from kmrag.graph.neo4j_store import connect

        driver = connect(env["KMRAG_NEO4J_URI"], env.get("KMRAG_NEO4J_USER", "neo4j"), env.get("KMRAG_NEO4J_PASSWORD"))
        with driver.session() as s:
            s.run("MATCH (n {tenant: $t}) DETACH DELETE n", t=env["KMRAG_TENANT"]).consume()
        driver.close()
    else:  # the embedded graph's files deleted
        files = list((tmp_path / "data" / "graph").glob("graph-*"))
        assert files
        for f in files:
            f.unlink()
    everyone = data_of(kmrag("repair", "--all-tenants", "--dry-run", "--json", env=env))
    mine = [r for r in everyone if r["tenant"] == env["KMRAG_TENANT"]]
    assert len(mine) == 1 and len(mine[0]["rebuilt"]) == 3
    dry = kmrag("repair", "--dry-run", env=env)
    assert dry.returncode == 1 and "3 sources disagreed" in dry.stdout and "would rebuild 3 sources" in dry.stdout
    fixed = kmrag("repair", "--json", env=env)
    assert fixed.returncode == 0, fixed.stderr
    report = data_of(fixed)
    assert report["after"]["agree"] and len(report["rebuilt"]) == 3
    after = data_of(kmrag("ingest", str(corpus), "--json", env=env))
    assert after["job"]["counts"]["documents_unchanged"] == 3
    assert after["graph"] == first["graph"] and after["units"] == first["units"]
    assert "nothing to repair" in kmrag("repair", env=env).stdout
