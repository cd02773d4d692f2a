"""The llm generator with a real instruct model (Qwen2.5-Coder Instruct on llama.cpp, ChatML), on the demo corpus
in the real stores: what the base model of the other LLM tests cannot show. Its drafts carry [u_…] citations
of its own; a draft whose statement fails the support check is regenerated once, the model told which statement
failed and why, and nothing shown fails the check."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import openai
import pytest

from kmrag.answer.answerer import Answerer
from kmrag.answer.context import Context
from kmrag.answer.llm import SYSTEM
from kmrag.answer.validate import judged
from kmrag.config import Settings
from kmrag.nlp.embed import get_embedder
from kmrag.schema import Answer
from kmrag.stores import Stores
from tests.integration.test_llm_answers import assert_valid, llm_answerer, stores  # noqa: F401 - a fixture

pytestmark = pytest.mark.integration


class FirstDraftIs:
    """The real server, except that the generator's first draft is ``reply``; records the generator's prompts."""

    def __init__(self, real: openai.OpenAI, reply: str) -> None:
        self.real, self.reply, self.prompts = real, reply, []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))
        self.completions = real.completions

    def _create(self, **kw: Any) -> Any:
        messages = kw["messages"]
        if messages[0]["content"] == SYSTEM:
            self.prompts.append(messages[-1]["content"])
            if len(self.prompts) == 1:
                return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=self.reply))],
                                       usage=None)
        return self.real.chat.completions.create(**kw)


def assert_all_supported(st: Stores, tenant: str, ans: Answer) -> None:
    """Every statement shown passes the support check against the spans of the units it cites."""
    units = st.units.get_units(tenant, sorted({u for s in ans.statements for u in s.unit_ids}))
    ctx = Context.of(tenant, units)
    for s in ans.statements:
        verdict, _ = judged(s.text, [sp for u in s.unit_ids for sp in ctx.spans[u]])
        assert verdict.supported, (s.text, verdict.failed)


def generations(ans: Answer) -> list[dict[str, Any]]:
    return [s for s in ans.trace if s["step"] == "generate"]


def test_the_instruct_model_answers_with_its_own_citations(stores: Stores, tenant: str,  # noqa: F811
                                                          instruct_llm: tuple[str, str]) -> None:
    base_url, model = instruct_llm
    answerer = llm_answerer(stores, llm_base_url=base_url, llm_model=model, llm_api="chat", llm_timeout=300)
    answerer.max_attempts = 1
    ans = answerer.answer(tenant, "Who is the chief executive of Lufthansa?")
    assert_valid(stores, tenant, ans)
    assert_all_supported(stores, tenant, ans)
    first = generations(ans)[0]
    raw = next(n["raw"] for n in first["notes"] if "raw" in n)
    assert "[u_" in raw  # the model cited units itself, in the asked form
    assert ans.found and "Carsten Spohr" in ans.text
    assert all(s.unit_ids for s in ans.statements)


def test_a_statement_that_fails_support_ends_in_one_regeneration_told_what_failed(
        stores: Stores, tenant: str, instruct_llm: tuple[str, str]) -> None:  # noqa: F811
    base_url, model = instruct_llm
    units = stores.units.get_units(tenant, sorted(stores.units.unit_ids(tenant)))
    airline = next(u for u in units if "flag carrier of Germany" in u.content)
    # the case: a true statement cited to a unit that does not say it ("600 EUR [airline unit]")
    bad = ("Answer: 600 EUR\nBecause: Passengers on flights of more than 3500 km receive 600 EUR "
           f"[{airline.id}].")
    client = FirstDraftIs(openai.OpenAI(base_url=base_url, api_key="unused", timeout=300, max_retries=0), bad)
    cfg = Settings(**{**stores.settings.model_dump(), "min_confidence": 0.0, "llm_base_url": base_url,
                      "llm_model": model, "llm_api": "chat", "llm_timeout": 300})
    answerer = Answerer(stores.units, stores.graph, get_embedder(cfg), cfg, generator="llm", max_attempts=1,
                        llm_client=client)
    ans = answerer.answer(tenant, "What compensation applies to flights of more than 3500 km?")
    gens = generations(ans)
    assert [g["regenerated"] for g in gens] == [False, True]  # exactly one regeneration
    failed = [i for i in gens[0]["issues"] if i["issue"] in {"recited", "dropped"}]
    assert [i["sentence"] for i in failed] == [0]  # the one statement of the draft failed the check
    assert len(client.prompts) == 2
    feedback = client.prompts[1]
    assert 'the statement "Passengers on flights of more than 3500 km receive 600 EUR' in feedback
    assert "is not supported by" in feedback  # what failed, and why
    assert any("raw" in n for n in gens[1]["notes"])  # the regenerated draft is the real model's
    assert_valid(stores, tenant, ans)
    assert_all_supported(stores, tenant, ans)  # nothing shown fails the support check
    assert airline.id not in {u for s in ans.statements for u in s.unit_ids}

