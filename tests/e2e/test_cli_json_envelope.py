"""Every command's --json output is one envelope: {"ok", "command", "data"} on success and
{"ok": false, "command", "error": {"type", "message", "exit_code"}} when it fails; a request for
something that is not there exits 1 (nothing found), as the README says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, kmrag, server_env

pytestmark = pytest.mark.e2e


def _envelope(*args: str, env: dict[str, str]) -> tuple[int, dict]:
    res = kmrag(*args, "--json", env=env)
    out = json.loads(res.stdout)  # the whole of stdout is one JSON document
    data_of(res)  # ok exactly when the exit status is 0; error.exit_code the exit status
    return res.returncode, out


def test_every_command_answers_in_one_envelope(tmp_path: Path) -> None:
    env = server_env()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "curie.md").write_text("# Marie Curie\n\nMarie Curie was born in Warsaw.\n", encoding="utf-8")
    try:
        rc, out = _envelope("ingest", str(corpus), env=env)
        assert rc == 0 and out["ok"] is True and out["command"] == "ingest" and set(out) == {"ok", "command", "data"}
        assert out["data"]["job"]["counts"]["documents_new"] == 1
        rc, out = _envelope("jobs", env=env)
        assert rc == 0 and out["command"] == "jobs list" and len(out["data"]) == 1

        failures = {
            ("ingest", str(tmp_path / "missing")): ("ingest", "NotFound", "no such file or folder"),
            ("units", "show", "u_unknown"): ("units show", "NotFound", "no unit 'u_unknown'"),
            ("entities", "show", "Nope"): ("entities show", "NotFound", "no entity 'Nope'"),
            ("entities", "search", "zzzz"): ("entities search", "NotFound", "no entity name contains 'zzzz'"),
            ("sources", "NOPREFIX"): ("sources", "NotFound", "contains 'NOPREFIX'"),
            ("delete", "nope"): ("delete", "NotFound", "no such source: nope"),
            ("jobs", "show", "j_nope"): ("jobs show", "JobNotFound", "no job 'j_nope'"),
        }
        for argv, (command, kind, says) in failures.items():
            rc, out = _envelope(*argv, env=env)
            assert rc == 1, (argv, out)  # nothing found
            assert out["ok"] is False and out["command"] == command, (argv, out)
            assert out["error"]["type"] == kind and says in out["error"]["message"], (argv, out)
            assert out["error"]["exit_code"] == 1
        rc, out = _envelope("ask", "?!", env=env)  # bad input: 2, no data
        assert rc == 2 and out["error"]["type"] == "BadInput" and "data" not in out
        rc, out = _envelope("jobs", "frobnicate", env=env)  # a usage error, from argparse
        assert rc == 2 and out["command"] == "jobs" and out["error"]["type"] == "UsageError"
        rc, out = _envelope("units", "frobnicate", env=env)  # no unit id: bad input, before any store
        assert rc == 2 and out["command"] == "units show" and out["error"]["type"] == "BadInput"
        # without --json: text for people, the error on stderr
        human = kmrag("units", "show", "u_unknown", env=env)
        assert human.returncode == 1 and human.stdout == "" and human.stderr.startswith("kmrag: error: no unit")
    finally:
        clear_tenant(env)
