"""The LLM's second opinion on support can only make the check stricter."""

from __future__ import annotations

import pytest

from kmrag.answer.context import Context
from kmrag.answer.llm_judge import LLMJudge
from kmrag.answer.validate import validate
from kmrag.errors import ServiceUnavailable
from tests.unit.test_answer_validation import A, T, known, unit

pytestmark = pytest.mark.unit

SAID = "Lufthansa operates a daily flight from Delhi to Munich"


class Replies:
    """An LLMClient's one method, answering from a script (the HTTP client itself is tested elsewhere)."""

    def __init__(self, reply: str | Exception) -> None:
        self.reply, self.prompts = reply, []

    def complete(self, system: str, user: str, few_shot: str = "", max_tokens: int = 200) -> str:
        self.prompts.append(user)
        if isinstance(self.reply, Exception):
            raise self.reply
        return self.reply


@pytest.fixture
def ctx() -> Context:
    return Context.of(T, [unit(A, f"{SAID}. The distance is about 5,900 km.", title="Delhi to Munich")])


@pytest.mark.parametrize("reply, kept", [
    ('{"supported": false}', False),
    ('{"supported": true}', True),
    ("I think so", True),            # unreadable: the offline verdict stands
    (ServiceUnavailable("the LLM at ... failed"), True),
])
def test_the_llm_can_drop_a_statement_but_never_pass_one(ctx: Context, reply: object, kept: bool) -> None:
    client = Replies(reply)  # type: ignore[arg-type]
    v = validate(f"{SAID} [{A}].", ctx, known, second_opinion=LLMJudge(client))  # type: ignore[arg-type]
    assert v.found is kept
    assert "<<<SPAN" in client.prompts[0] and SAID in client.prompts[0]
    if not kept:
        assert v.count("llm_unsupported") == 1


def test_an_unsupported_statement_is_never_shown_to_the_llm(ctx: Context) -> None:
    client = Replies('{"supported": true}')
    v = validate(f"Lufthansa was acquired by Boeing in 1999 [{A}].", ctx, known,
                 second_opinion=LLMJudge(client))  # type: ignore[arg-type]
    assert not v.found and client.prompts == []
