"""Encodings at the re-ingest seam (issue 10): the version is the decoded text's hash, so a file read
with the wrong --encoding is re-ingested once it is read right, and reading the same text again
(whatever its bytes' encoding) is a no-op. Real PostgreSQL, both graph backends."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import pytest

from kmrag.ingestion.pipeline import IngestionJob
from kmrag.ingestion.sources import SourceOptions
from kmrag.nlp.embed import get_embedder
from kmrag.stores import Stores

pytestmark = pytest.mark.integration

TEXT = ("Das Café Müller in Zürich wurde 1907 gegründet.\n\n"
        "Élodie Dupré übernahm das Café im Jahr 1952 und führte es über dreißig Jahre.\n")


def run(stores: Stores, tenant: str, extractor: Any, path: Path, encoding: str | None = None) -> Any:
    job = IngestionJob(stores, get_embedder(stores.settings), extractor, tenant, SourceOptions(encoding=encoding),
                       progress=False)
    return job.run([path])


def stored_text(stores: Stores, tenant: str) -> str:
    return "\n".join(u.content for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant))))


def test_a_wrong_encoding_is_corrected_by_a_rerun(stores: Stores, tenant: str, extractor: Any,
                                                  tmp_path: Path) -> None:
    f = tmp_path / "cafe.txt"
    f.write_bytes(TEXT.encode("latin-1"))
    sid = f.resolve().as_posix()
    res = run(stores, tenant, extractor, f, encoding="cp1251")  # decodes, but to mojibake
    assert res.job.counts["documents_new"] == 1
    assert "Caf\u0439 M\u044cller" in stored_text(stores, tenant)
    src = stores.units.get_source(tenant, sid)
    assert src is not None and src.metadata["encoding"] == "cp1251" and src.metadata["encoding_from"] == "option"

    res = run(stores, tenant, extractor, f, encoding="latin-1")  # the right one: a new version, re-ingested
    assert res.job.counts["documents_updated"] == 1 and not res.job.counts.get("documents_unchanged")
    text = stored_text(stores, tenant)
    assert "Das Café Müller in Zürich" in text and "Élodie Dupré" in text and "\u0439" not in text
    names = {e.name for e in stores.graph.all_entities(tenant)}
    assert not any("\u0439" in n or "\u044c" in n for n in names)
    src = stores.units.get_source(tenant, sid)
    assert src is not None and src.metadata["encoding"] == "iso8859-1"

    res = run(stores, tenant, extractor, f)  # detected (windows-1252 reads these bytes alike): the same text
    assert res.job.counts["documents_unchanged"] == 1 and not res.job.counts.get("documents_updated")

    f.write_bytes(codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"))  # other bytes, the same text: still a no-op
    res = run(stores, tenant, extractor, f)
    assert res.job.counts["documents_unchanged"] == 1 and stored_text(stores, tenant) == text
