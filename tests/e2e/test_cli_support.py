"""`kmrag support check` as a user runs it on a real tenant: statements citing the tenant's units by id (read
from PostgreSQL) or giving their spans; a malformed line is reported by its number while the lines after it
are checked; exit 0 when every line was checked, 2 when one could not be; nothing is stored."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, kmrag, server_env

pytestmark = pytest.mark.e2e

NOTES = """Marie Curie was born in Warsaw in 1867 and studied physics in Paris.

The Eiffel Tower in Paris was designed by the engineer Gustave Eiffel.
"""
UNKNOWN = "u_" + "0" * 16


def _jsonl(path: Path, *rows: object) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_support_check_on_a_real_tenant(tmp_path: Path) -> None:
    env = server_env("e2e_support_")
    (tmp_path / "notes.txt").write_text(NOTES, encoding="utf-8")
    try:
        assert kmrag("ingest", str(tmp_path / "notes.txt"), env=env).returncode == 0
        found = data_of(kmrag("ask", "Marie Curie Eiffel Tower", "--units-only", "--json", env=env))
        ids = {("curie" if "Marie Curie" in u["snippet"] else "eiffel"): u["id"] for u in found["units"]}
        assert set(ids) == {"curie", "eiffel"}, found["units"]
        digest = data_of(kmrag("digest", "--json", env=env))

        checks = _jsonl(
            tmp_path / "checks.jsonl",
            {"statement": "Marie Curie was born in Warsaw in 1867.", "unit_ids": [ids["curie"]]},
            {"statement": "Gustave Eiffel designed the tower.", "unit_ids": [ids["eiffel"], UNKNOWN]},
            '{"statement": "a line cut short", "unit_ids": [',
            {"statement": "The Eiffel Tower was designed by Marie Curie.", "unit_ids": [ids["eiffel"]]},
            {"statement": "Marie Curie studied physics in Paris.", "spans": ["She studied physics in Paris."],
             "titles": ["Marie Curie"]},
        )
        res = kmrag("support", "check", str(checks), "--json", env=env)
        assert res.returncode == 2, res.stdout + res.stderr
        data = data_of(res)
        assert [r["line"] for r in data] == [1, 2, 3, 4, 5]
        assert data[0] == {"line": 1, "supported": True, "score": 1.0, "failed": None}
        assert data[1] == {"line": 2, "error": f"line 2: unknown unit id in tenant {env['KMRAG_TENANT']!r}: {UNKNOWN}"}
        assert set(data[2]) == {"line", "error"} and data[2]["error"].startswith("line 3: not JSON")
        assert set(data[3]) == {"line", "supported", "score", "failed"} and data[3]["supported"] is False
        assert "is not in the cited spans" in data[3]["failed"] and 0 <= data[3]["score"] < 1
        assert data[4]["supported"] is True  # the lines after the bad ones are checked
        out = json.loads(res.stdout)
        assert out["command"] == "support check" and out["error"]["type"] == "BadInput"
        assert "2 of 5 line(s) could not be checked (line(s) 2, 3)" in out["error"]["message"]

        human = kmrag("support", "check", str(checks), env=env)
        assert human.returncode == 2 and human.stderr == "", human.stderr
        text = human.stdout.splitlines()
        assert text[0].startswith("line 1  ✓ 1.00  Marie Curie was born in Warsaw in 1867.")
        assert text[1].startswith("line 2  error: unknown unit id") and UNKNOWN in text[1]
        assert text[2].startswith("line 3  error: not JSON")
        assert text[3].startswith("line 4  ✗ ") and "is not in the cited spans" in text[3]
        assert text[5] == "5 statement(s): 2 supported, 1 not supported, 2 could not be checked"

        # every line checked (whatever the verdicts): 0, also from stdin
        good = _jsonl(tmp_path / "good.jsonl", {"statement": "Gustave Eiffel designed the Eiffel Tower.",
                                                 "unit_ids": [ids["eiffel"]]},
                      {"statement": "Marie Curie was born in Berlin.", "unit_ids": [ids["curie"]]})
        res = kmrag("support", "check", str(good), "--json", env=env)
        assert res.returncode == 0, res.stdout + res.stderr
        assert [r["supported"] for r in data_of(res)] == [True, False]
        piped = subprocess.run([sys.executable, "-m", "kmrag.cli", "support", "check", "-", "--json"],
                               input=good.read_bytes(), capture_output=True, env=env, timeout=300)
        assert piped.returncode == 0 and json.loads(piped.stdout)["data"] == data_of(res)

        # the units are the tenant's: another tenant does not know them
        other = {**env, "KMRAG_TENANT": env["KMRAG_TENANT"] + "_other"}
        res = kmrag("support", "check", str(good), "--json", env=other)
        assert res.returncode == 2 and all("unknown unit id" in r["error"] for r in data_of(res))

        assert data_of(kmrag("digest", "--json", env=env)) == digest  # nothing was stored
        assert data_of(kmrag("answers", "--json", env=env)) == []
    finally:
        clear_tenant(env)
