"""Embedding beside NLP: the local model runs in its own process (spaCy holds the GIL much of the
time, and the two would otherwise queue for it); other embedders run in a thread.

The worker process watches its parent and exits when the parent is gone, so `kill -9` of an
ingest never leaves a ~400 MB model process behind.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np

from kmrag.nlp.embed import Embedder
from kmrag.schema import KnowledgeUnit

_WORKER_EMBEDDER: Embedder | None = None


def embedding_text(u: KnowledgeUnit) -> str:
    """What the embedder sees: the unit's title (section / passage title) and its content."""
    return titled_text(u.title, u.content)


def titled_text(title: str, content: str) -> str:
    if title and title != content and not content.startswith(title):
        return f"{title}\n{content}"
    return content


def _die_with_parent(parent_pid: int, every_s: float = 1.0) -> None:
    """In the worker: exit as soon as the parent process is gone (re-parented to init or a reaper)."""
    try:  # Linux: the kernel sends SIGKILL when the parent dies
        import ctypes
        import signal

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(0)
            time.sleep(every_s)

    if os.getppid() != parent_pid:  # the parent died before we got here
        os._exit(0)
    threading.Thread(target=watch, name="kmrag-parent-watch", daemon=True).start()


def _init_worker(embedder: Embedder | None, parent_pid: int | None = None, onnx_class: type | None = None) -> None:
    global _WORKER_EMBEDDER
    if parent_pid is not None:
        _die_with_parent(parent_pid)
    if embedder is None:  # a worker process: load the local model there, once
        assert onnx_class is not None
        embedder = onnx_class(threads=1)  # one core for the model, the other for spaCy
    _WORKER_EMBEDDER = embedder


def timed_embed(texts: list[str]) -> tuple[np.ndarray, float]:
    assert _WORKER_EMBEDDER is not None
    t = time.perf_counter()
    vecs = _WORKER_EMBEDDER.embed(texts)
    return vecs, time.perf_counter() - t


def embedding_executor(embedder: Embedder) -> Executor:
    from kmrag.nlp.embed import OnnxEmbedder

    if isinstance(embedder, OnnxEmbedder):  # the same model class, loaded again in the worker process
        import multiprocessing as mp

        return ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"), initializer=_init_worker,
                                   initargs=(None, os.getpid(), type(embedder)))
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="kmrag-embed", initializer=_init_worker,
                              initargs=(embedder,))
