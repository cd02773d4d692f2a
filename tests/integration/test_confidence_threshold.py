"""The default threshold on the calibrated confidence, on the demo corpus: the demo question is answered;
a question the corpus cannot answer is not found, its best evidence shown as evidence; and whatever the
threshold, no answer the corpus does not hold is shown at confidence >= 0.9."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.answerer import NOT_FOUND, Answerer
from kmrag.config import Settings, load_settings
from kmrag.demo import corpus_path
from kmrag.graph.neo4j_store import Neo4jGraphStore
from kmrag.ingestion.pipeline import ingest
from kmrag.nlp.embed import get_embedder
from kmrag.stores import Stores
from kmrag.units.store import PgUnitStore

pytestmark = pytest.mark.integration

SEED = "How much can I receive if I am denied boarding, for flights from Delhi to Munich?"
NOT_HELD = ["What is the population of Cologne?", "How long is the Munich Airport runway?",
            "Who is the pilot of the Delhi to Munich flight?", "Who founded Air India?"]


@pytest.fixture
def stores(neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    settings = load_settings(config_file=tmp_path / "none.toml", environ={}, tenant=tenant)  # the defaults
    graph = Neo4jGraphStore(neo4j_driver)
    yield Stores(settings=settings, graph=graph, units=PgUnitStore(pg_pool, 384), pool=pg_pool, database_url="")
    graph.clear_tenant(tenant)
    PgUnitStore(pg_pool, 384).clear_tenant(tenant)


@pytest.fixture
def demo(stores: Stores, tenant: str, tmp_path: Path) -> Stores:
    root = tmp_path / "corpus"
    shutil.copytree(corpus_path(), root)
    ingest(stores, [root], tenant)
    return stores


def _answerer(stores: Stores, threshold: float) -> Answerer:
    settings = Settings(**{**stores.settings.model_dump(), "min_confidence": threshold})
    return Answerer(stores.units, stores.graph, get_embedder(settings), settings, generator="extractive", save=False)


def test_the_default_threshold_answers_the_demo_question_and_refuses_to_guess(demo: Stores, tenant: str) -> None:
    assert demo.settings.min_confidence == 0.5  # the default, not the suite's
    a = _answerer(demo, demo.settings.min_confidence)
    ans = a.answer(tenant, SEED)
    assert ans.direct == "600 EUR" and ans.confidence >= 0.5 and ans.confidence_why
    for q in NOT_HELD:
        ans = a.answer(tenant, q)
        assert ans.text == NOT_FOUND and ans.direct is None and ans.confidence < 0.5, (q, ans.direct, ans.confidence)


def test_no_answer_the_corpus_does_not_hold_is_shown_at_confidence_0_9(demo: Stores, tenant: str) -> None:
    a = _answerer(demo, 0.0)  # threshold off: every answer is shown, with its confidence
    for q in NOT_HELD:
        assert a.answer(tenant, q).confidence < 0.9, q


def test_a_value_read_off_another_entity_s_unit_is_not_found_whatever_the_threshold(demo: Stores,
                                                                                    tenant: str) -> None:
    """"When was Air India founded?": the corpus says where Air India is based and when Lufthansa was founded.
    The year read from Lufthansa's sentence was shown at 0.51 beside the Air India sentence; now it is not
    found even with the threshold off, the two sentences shown as evidence, and the reason says why."""
    ans = _answerer(demo, 0.0).answer(tenant, "When was Air India founded?")
    assert ans.text == NOT_FOUND and ans.direct is None, (ans.direct, ans.confidence)
    assert any("Lufthansa" in e.text for e in ans.evidence) and "not about what the question asks" in ans.confidence_why
    ans = _answerer(demo, 0.0).answer(tenant, "When was Lufthansa founded?")  # its own unit: answered
    assert ans.direct == "1953" and ans.confidence >= 0.5


def test_a_refused_answer_names_what_was_read(demo: Stores, tenant: str) -> None:
    """Under a threshold it does not reach, the answer is not found, and "how sure" says which answer was refused
    and at what probability (before, it said only why, leaving the reader to guess what "it" was)."""
    ans = _answerer(demo, 0.999).answer(tenant, "When was Lufthansa founded?")
    assert ans.text == NOT_FOUND and ans.direct is None and ans.evidence
    assert ans.confidence_why.startswith(f'the best answer read, "1953", is below the threshold ({ans.confidence:.2f} '
                                         "< 0.999)"), ans.confidence_why


def test_calibrate_answers_in_the_tenant_it_is_given(stores: Stores, tenant: str) -> None:
    from kmrag.eval.calibrate import collect

    rows = collect(stores, "demo", limit=1, tenant=tenant)  # not its own "eval-calibrate-demo" tenant
    assert len(rows) == 1 and rows[0].dataset == "demo"
    assert stores.units.counts(tenant)["units"] > 0
