"""The llm generator and graders on the real stores: against a real local llama.cpp server (a tiny base
model: poor answers, malformed output), whatever it says ends in a valid answer or a clear error; against
the stub server, the cases a real model cannot be made to produce on demand (an invented ID, an uncited
sentence) are repaired by validation and one regeneration."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.answer.validate import NOT_FOUND
from kmrag.config import Settings
from kmrag.demo import corpus_path
from kmrag.errors import ServiceUnavailable
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.schema import Answer
from kmrag.stores import Stores
from tests.fixtures.openai_stub import openai_stub
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

SEED = "How much can I receive if I am denied boarding, for flights from Delhi to Munich?"


@pytest.fixture
def stores(neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores("neo4j", neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    root = tmp_path / "corpus"
    shutil.copytree(corpus_path(), root)
    job = IngestionJob(s, get_embedder(s.settings), SpacyExtractor(), tenant, progress=False).run([root])
    assert job.job.status == "completed"
    yield s
    s.graph.clear_tenant(tenant)
    s.units.clear_tenant(tenant)


def llm_answerer(stores: Stores, **settings: Any) -> Answerer:
    # the repairs and the plumbing are tested here, not the threshold: every answer shown, whatever its confidence
    cfg = Settings(**{**stores.settings.model_dump(), "min_confidence": 0.0, **settings})
    return Answerer(stores.units, stores.graph, get_embedder(cfg), cfg, generator="llm")


def assert_valid(stores: Stores, tenant: str, ans: Answer) -> None:
    """What validation guarantees, checked from the outside: a cited answer or exactly not-found."""
    if not ans.found:
        assert ans.text == NOT_FOUND and ans.direct is None
        # what was found is shown as evidence, never as the answer; only the evidence is cited
        assert {c.unit_id for c in ans.citations} <= {u for e in ans.evidence for u in e.unit_ids}
        return
    context = {u for s in ans.trace if s["step"] == "generate" for u in s["context"]}
    units = {u.id: u for u in stores.units.get_units(tenant, [c.unit_id for c in ans.citations])}
    for s in ans.statements:
        assert s.unit_ids and set(s.unit_ids) <= context and f"[{s.unit_ids[0]}]" in ans.text
    for c in ans.citations:
        assert units[c.unit_id].content[c.start:c.end] == c.quote


# one question per API: both APIs and both kinds of question (two hops, one) are tried, each once (the chat
# path on Gemma 270M takes ~80 s a question on 2 cores)
@pytest.mark.parametrize(("api", "question"), [("completions", SEED), ("chat", "Who is the chief executive of Lufthansa?")],
                         ids=["completions", "chat"])
def test_the_llm_path_against_a_real_local_server(stores: Stores, tenant: str, local_llm: tuple[str, str],
                                                  api: str, question: str) -> None:
    base_url, model = local_llm
    answerer = llm_answerer(stores, llm_base_url=base_url, llm_model=model, llm_api=api, llm_timeout=120)
    ans = answerer.answer(tenant, question)
    assert ans.generator == "llm"
    assert_valid(stores, tenant, ans)
    gens = [s for s in ans.trace if s["step"] == "generate"]
    assert gens and all("raw" in n or "said" in n for g in gens for n in g["notes"])  # the model answered
    graded = [s for s in ans.trace if s["step"] == "grade_units"]
    assert graded and graded[0]["by"] in (["llm"], ["offline"])  # an unreadable LLM grade falls back
    assert stores.units.get_answer(tenant, ans.id) is not None
    assert answerer.client is not None and answerer.client.usage["calls"] >= 2  # the grade and the draft at least


def test_a_timeout_is_a_clear_error(stores: Stores, tenant: str, local_llm: tuple[str, str]) -> None:
    base_url, model = local_llm
    answerer = llm_answerer(stores, llm_base_url=base_url, llm_model=model, llm_api="completions", llm_timeout=0.001)
    with pytest.raises(ServiceUnavailable, match=r"did not answer within 0.001 s \(KMRAG_LLM_TIMEOUT\)"):
        answerer.answer(tenant, SEED)
    assert stores.units.list_answers(tenant) == []  # nothing half-made is stored


def test_an_unreachable_llm_is_a_clear_error(stores: Stores, tenant: str) -> None:
    answerer = llm_answerer(stores, llm_base_url="http://127.0.0.1:9/v1", llm_model="m", llm_timeout=5)
    with pytest.raises(ServiceUnavailable, match=r"the LLM at http://127.0.0.1:9/v1 \(model m\) failed"):
        answerer.answer(tenant, SEED)


def test_invented_ids_and_uncited_sentences_are_repaired_by_one_regeneration(stores: Stores, tenant: str) -> None:
    distance = next(u for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))
                    if "5,900 km" in u.content)
    with openai_stub() as stub:
        stub.chat_replies = [
            "I grade them all as useful.",  # unit grade: unreadable -> the offline grade
            "Answer: 600 EUR\nBecause: The flight is 5,900 km long [u_0123456789abcdef]. Passengers get free "
            "champagne on long flights.",  # an invented ID and an unsupported uncited sentence
            f"Answer: 600 EUR\nBecause: The great-circle distance between Delhi and Munich is about 5,900 km "
            f"[{distance.id}].",
            '{"grounded": true, "addresses": true}',
        ] + ['{"grounded": true, "addresses": true}'] * 6
        answerer = llm_answerer(stores, llm_base_url=stub.url, llm_model="stub", llm_api="chat")
        ans = answerer.answer(tenant, SEED)
        prompts = [b["messages"][-1]["content"] for p, b in stub.requests if p.endswith("/chat/completions")]
    gen = [s for s in ans.trace if s["step"] == "generate"]
    assert [g["regenerated"] for g in gen[:2]] == [False, True]
    first = {i["issue"] for i in gen[0]["issues"]}
    assert {"invented_id", "dropped"} <= first
    assert "it cited IDs that do not exist" in prompts[2]  # the regeneration names the problems
    assert f"<<<UNIT {distance.id}" in prompts[1]  # units are fenced data under their IDs
    assert "champagne" not in ans.text and "u_0123456789abcdef" not in ans.text
    assert [s.unit_ids for s in ans.statements] == [[distance.id]]
    assert_valid(stores, tenant, ans)


def test_with_llm_roles_draft_the_llm_only_drafts(stores: Stores, tenant: str) -> None:
    """``llm_roles="draft"`` (a small local model on a CPU): units are graded, statements judged and the answer
    graded offline; the one LLM call is the draft, and the answer is validated as ever."""
    distance = next(u for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))
                    if "5,900 km" in u.content)
    with openai_stub() as stub:
        stub.chat_replies = [f"Answer: 600 EUR\nBecause: The great-circle distance between Delhi and Munich is about "
                             f"5,900 km [{distance.id}]."] * 4
        answerer = llm_answerer(stores, llm_base_url=stub.url, llm_model="stub", llm_api="chat", llm_roles="draft")
        assert answerer.second_opinion is None and answerer.grader.name == "offline"
        ans = answerer.answer(tenant, SEED)
        prompts = [b["messages"][-1]["content"] for p, b in stub.requests if p.endswith("/chat/completions")]
    assert prompts and all("<<<UNIT" in p for p in prompts)  # drafts only: no grading or judging prompt
    assert len(prompts) == len([s for s in ans.trace if s["step"] == "generate"])
    assert [s.unit_ids for s in ans.statements] == [[distance.id]]
    assert_valid(stores, tenant, ans)


def test_an_uncited_sentence_recited_to_the_unit_that_says_it_asks_for_no_regeneration(stores: Stores,
                                                                                       tenant: str) -> None:
    """A draft whose only fault is a verbatim sentence without its ID is mended by re-citing it: a second call
    would gain nothing (small models answer it "not found"). A wrong citation still asks for one."""
    distance = next(u for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))
                    if "5,900 km" in u.content)
    airline = next(u for u in stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))
                   if "Lufthansa was founded" in u.content)
    for cite, regenerated in (("", False), (f" [{airline.id}]", True)):
        with openai_stub() as stub:
            stub.chat_replies = [f"Answer: 600 EUR\nBecause: The great-circle distance between Delhi and Munich is "
                                 f"about 5,900 km.{cite}"] * 4
            answerer = llm_answerer(stores, llm_base_url=stub.url, llm_model="stub", llm_api="chat", llm_roles="draft")
            ans = answerer.answer(tenant, SEED)
        gen = [s for s in ans.trace if s["step"] == "generate"]
        assert any(g["regenerated"] for g in gen) is regenerated, [g["issues"] for g in gen]
        assert {i["issue"] for i in gen[0]["issues"]} >= {"recited"}
        assert distance.id in {u for s in ans.statements for u in s.unit_ids}
        assert_valid(stores, tenant, ans)
