"""The reranker's order around a strategy's pinned units, with a stand-in strategy, unit reader and cross-encoder
(the ordering logic only; the integration test in tests/integration/test_multihop.py runs it on real stores)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from kmrag.retrieval.rerank import RerankedRetriever
from kmrag.retrieval.strategies import Retrieved

pytestmark = pytest.mark.unit


@dataclass
class _Unit:
    id: str
    title: str
    content: str


class _Units:
    def __init__(self, ids: list[str], retired: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self.units = {i: _Unit(i, i, f"text of {i}") for i in ids if i not in retired}

    def get_units(self, tenant: str, ids: list[str]) -> list[_Unit]:
        return [self.units[i] for i in ids if i in self.units]


class _Strategy:
    name = "fixed"

    def __init__(self, ids: list[str], pinned: list[str]) -> None:
        self.ids, self.pinned = ids, pinned
        self.asked_k: list[int] = []

    def retrieve(self, tenant: str, question: str, k: int = 10) -> Retrieved:
        self.asked_k.append(k)
        ids = self.ids[:k]
        return Retrieved(unit_ids=ids, scores=[1.0 / (i + 1) for i in range(len(ids))], pinned=self.pinned)


class _Backwards:
    """Scores the strategy's order backwards: its last candidate best."""

    name = "backwards"

    def score_pairs(self, pairs: list[tuple[str, str]]) -> Any:
        return np.array([float(p.split()[-1][1:]) for _, p in pairs])


IDS = [f"u{i}" for i in range(20)]


def rerank(ids: list[str], pinned: list[str], k: int, retired: set[str] = frozenset()) -> Retrieved:  # type: ignore[assignment]
    return RerankedRetriever(_Strategy(ids, pinned), _Units(ids, retired), reranker=_Backwards(), depth=12).retrieve(
        "t", "q", k)


def test_pinned_units_stay_first_in_the_strategys_order_and_the_rest_are_reranked() -> None:
    got = rerank(IDS, ["u0", "u1"], 10)
    assert got.unit_ids[:2] == ["u0", "u1"] and got.pinned == ["u0", "u1"]
    assert got.unit_ids[2] != "u2"  # the reader's order moved the others
    assert len(got.unit_ids) == 10 == len(set(got.unit_ids))
    assert all(a >= b for a, b in zip(got.scores, got.scores[1:], strict=False))
    unpinned = rerank(IDS, [], 10)
    assert unpinned.unit_ids[:2] != ["u0", "u1"]


def test_pinned_units_leave_two_of_k_to_the_others() -> None:
    got = rerank(IDS, IDS[:8], 5)
    assert got.unit_ids[:3] == ["u0", "u1", "u2"] and got.pinned == ["u0", "u1", "u2"]
    assert len(got.unit_ids) == 5 and set(got.unit_ids[3:]).isdisjoint(IDS[:3])


def test_too_few_to_rerank_returns_at_most_k_and_a_retired_pin_is_not_held() -> None:
    got = rerank(IDS, IDS[:11], 5)  # k - 2 held, so the other nine are reranked
    assert len(got.unit_ids) == 5
    few = rerank(IDS, ["u0", "u1"], 5, retired=set(IDS[3:]))  # one live candidate besides the pinned
    assert few.unit_ids == IDS[:5]  # nothing to rerank: the strategy's order, still k at most (not its 12)
    gone = rerank(IDS, ["u0", "u1"], 10, retired={"u0"})
    assert gone.pinned == ["u1"] and gone.unit_ids[0] == "u1"
