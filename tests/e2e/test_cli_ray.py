"""`kmrag ingest --engine ray` and `kmrag digest` as a user runs them (issue 13): the same corpus ingested
with and without Ray into two tenants gives the same digest; the options are checked."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, kmrag, server_env

pytestmark = pytest.mark.e2e

TRIAL = Path(__file__).resolve().parents[1] / "data" / "trial"


def test_ingest_on_ray_gives_the_digest_of_one_process(tmp_path: Path) -> None:
    corpus = tmp_path / "trial"
    shutil.copytree(TRIAL, corpus)
    one, ray = server_env(), server_env()
    try:
        a = kmrag("ingest", str(corpus), "--json", env=one)
        b = kmrag("ingest", str(corpus), "--engine", "ray", "--workers", "1", "--json", env=ray)
        assert data_of(a)["job"]["status"] == data_of(b)["job"]["status"] == "completed", b.stderr[-2000:]
        assert data_of(b)["engine"] == {"engine": "ray", "workers": 1, "address": "local",
                                        "startup_s": data_of(b)["engine"]["startup_s"]}
        da = data_of(kmrag("digest", "--json", env=one))
        db = data_of(kmrag("digest", "--json", env=ray))
        assert da["tenant"] != db["tenant"] and da["counts"]["units"] > 20
        assert da["sha256"] == db["sha256"], (da["parts"], db["parts"])
    finally:
        clear_tenant(one)
        clear_tenant(ray)


def test_ray_options_need_the_ray_engine(tmp_path: Path) -> None:
    env = server_env()
    for extra in (["--workers", "2"], ["--ray-address", "127.0.0.1:1"]):
        res = kmrag("ingest", str(TRIAL), *extra, "--json", env=env)
        assert res.returncode == 2 and "--engine ray" in json.loads(res.stdout)["error"]["message"]
    res = kmrag("ingest", str(TRIAL), "--engine", "ray", "--workers", "0", "--json", env=env)
    assert res.returncode == 2 and "at least 1" in json.loads(res.stdout)["error"]["message"]
