"""Word meanings are read with MiniLM's vectors whatever embeds the tenant's units: the thresholds that read
those cosines were set on MiniLM, and e5's cosines of any two words lie between 0.83 and 0.93 (a path whose
predicate is "executor for" answered "What are the three steps of naive RAG?" on an e5 tenant)."""

from __future__ import annotations

import numpy as np
import pytest

from kmrag.nlp.embed import _local_embedder, word_vectors

pytestmark = pytest.mark.unit


class _Flat:
    """An embedder whose vectors all lie close together, as e5's do for single words."""

    name = "flat-test-embedder"
    dim = 4

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.2, 0.1, 0.05 * (len(t) % 3)] for t in texts]) / 1.03


def test_another_embedder_reads_word_meanings_with_minilm() -> None:
    local = _local_embedder()
    assert word_vectors(_Flat()) is local
    assert word_vectors(local) is local
    assert word_vectors(None) is None


def test_unrelated_words_are_far_apart_in_the_vectors_used() -> None:
    v = word_vectors(_Flat()).embed(["step", "executor for", "director", "directed by"])
    assert float(v[0] @ v[1]) < 0.45 <= float(v[2] @ v[3])  # paths.MEANING reads these cosines
