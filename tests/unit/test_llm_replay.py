"""The split LLM run (scripts/eval_local_llm.py --replay, scripts/gen_transformers.py): the model on another
machine must be sent exactly the turns a served model is sent, or its replies answer other prompts."""
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from kmrag.answer.context import Context
from kmrag.answer.llm import SYSTEM, LLMClient, LLMGenerator
from kmrag.config import load_settings
from kmrag.schema import KnowledgeUnit, UnitType

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


def _gen_module():
    spec = importlib.util.spec_from_file_location("gen_transformers", ROOT / "scripts" / "gen_transformers.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Capture:
    """An openai-shaped client that keeps what it is sent and replies with a fixed draft."""

    def __init__(self):
        self.sent = []
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))

    def create(self, **kw):
        self.sent.append(kw)
        msg = SimpleNamespace(content="Answer: Paris\nBecause: Lyon is in France [u_0000000000000001].")
        return SimpleNamespace(choices=[SimpleNamespace(message=msg)], usage=None)


def test_the_generator_sends_what_the_replayed_request_renders():
    gen = _gen_module()
    cap = Capture()
    client = LLMClient(load_settings(llm_model="m", llm_base_url="http://127.0.0.1:1/v1"), client=cap)
    unit = KnowledgeUnit(id="u_0000000000000001", tenant="t", source_id="s", source_version="v",
                         type=UnitType.PARAGRAPH, ordinal=0, content="Lyon is in France.")
    context = Context.of("t", [unit])
    llm = LLMGenerator(client)
    llm.generate("Where is Lyon?", None, context)
    llm.generate("Where is Lyon?", None, context, feedback="it cited no unit", previous="Answer: x")
    assert len(cap.sent) == 2
    for sent in cap.sent:
        system, *turns, last = sent["messages"]
        request = {"system": system["content"], "user": last["content"],
                   "examples": [(turns[i]["content"], turns[i + 1]["content"]) for i in range(0, len(turns), 2)]}
        assert system["content"] == SYSTEM
        assert gen.messages(request) == sent["messages"]
    # the regeneration carries the first draft as the model's own turn, so its key differs from the draft's
    assert len(cap.sent[1]["messages"]) == len(cap.sent[0]["messages"]) + 2
