"""Seeing what is stored, as a user does: entities found by name and shown with their relations and units,
a unit shown whole, and sources removed by folder after a dry run that removes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.cli import clear_tenant, data_of, kmrag, server_env
from tests.fixtures.docs import write_corpus

pytestmark = pytest.mark.e2e


def test_entities_units_and_delete_by_folder(tmp_path: Path) -> None:
    env = server_env("e2e_browse_")
    corpus = write_corpus(tmp_path / "corpus")
    (corpus / "more").mkdir()
    (corpus / "more" / "rome.txt").write_text("Rome is the capital of Italy.\n", encoding="utf-8")
    try:
        assert kmrag("ingest", str(corpus), env=env).returncode == 0
        hits = data_of(kmrag("entities", "search", "curie", "--json", env=env))
        curie = next(h for h in hits if h["name"] == "Marie Curie")
        assert curie["units"] >= 1
        none = kmrag("entities", "search", "zzzz-nothing", env=env)
        assert none.returncode == 1 and "no entity name contains" in none.stdout

        shown = data_of(kmrag("entities", "show", "Marie Curie", "--json", env=env))
        assert shown["id"] == curie["id"] and any("Warsaw" in u["snippet"] for u in shown["units"])
        assert any(r["object"] == "Warsaw" for r in shown["relations"])
        human = kmrag("entities", "show", curie["id"], env=env).stdout
        assert "relations (" in human and "units mentioning it" in human
        missing = kmrag("entities", "show", "Nobody At All", env=env)
        assert missing.returncode == 1 and "kmrag entities search" in missing.stderr

        unit_id = shown["units"][0]["id"]
        unit = data_of(kmrag("units", "show", unit_id, "--json", env=env))
        assert "Marie Curie was born in Warsaw" in unit["content"] and not unit["retired"]
        assert any(e["name"] == "Marie Curie" for e in unit["entities"])
        assert "text:" in kmrag("units", "show", unit_id, env=env).stdout
        assert kmrag("units", "show", "u_0000000000000000", env=env).returncode == 1  # nothing found

        folder = str(corpus / "more")
        dry = data_of(kmrag("delete", folder, "--dry-run", "--json", env=env))
        assert [x["source"].endswith("rome.txt") for x in dry] == [True]
        sources = data_of(kmrag("sources", "--json", env=env))
        assert any(s["source"].endswith("rome.txt") for s in sources)  # a dry run removes nothing
        gone = kmrag("delete", folder + "/", "--json", env=env)
        assert gone.returncode == 0 and data_of(gone)[0]["found"]
        left = [s["source"] for s in data_of(kmrag("sources", "--json", env=env))]
        assert len(left) == 3 and not any(s.endswith("rome.txt") for s in left)
        assert kmrag("delete", str(tmp_path / "nowhere"), env=env).returncode == 1
    finally:
        clear_tenant(env)
