"""The local LLM server the tests run against answers the OpenAI API the way kmrag's client calls it."""

from __future__ import annotations

import openai
import pytest

pytestmark = pytest.mark.integration

FEW_SHOT = ("Q: What is the capital of France?\nA: Paris\n"
            "Q: What is the capital of Italy?\nA:")


@pytest.fixture(scope="module")
def client(local_llm: tuple[str, str]) -> openai.OpenAI:
    base_url, _ = local_llm
    return openai.OpenAI(base_url=base_url, api_key="unused", timeout=60)


def test_lists_the_model(client: openai.OpenAI, local_llm: tuple[str, str]) -> None:
    assert local_llm[1] in [m.id for m in client.models.list().data]


def test_plain_completion_answers(client: openai.OpenAI, local_llm: tuple[str, str]) -> None:
    out = client.completions.create(model=local_llm[1], prompt=FEW_SHOT, max_tokens=8, temperature=0,
                                    stop=["\n"])
    assert out.choices[0].text.strip()


def test_chat_completion_returns_a_response(client: openai.OpenAI, local_llm: tuple[str, str]) -> None:
    # a base model: the reply may be empty, the call must still succeed
    out = client.chat.completions.create(model=local_llm[1], max_tokens=16, temperature=0,
                                         messages=[{"role": "user", "content": "What is the capital of France?"}])
    assert out.choices and out.choices[0].message.role == "assistant"
