"""A model's yes / no or comparison winner is shown only when the cited spans compute it (issue 19, item 3):
the offline reader compares the same units; the model's answer stands with the computation when they agree,
and is dropped, the trace saying what the spans compute, when they do not. Real stores, a scripted model."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kmrag.answer.answerer import Answerer
from kmrag.config import Settings
from kmrag.ingestion.pipeline import IngestionJob
from kmrag.nlp.embed import get_embedder
from kmrag.nlp.extract import SpacyExtractor
from kmrag.stores import Stores
from tests.integration.test_ingestion_seams import make_stores

pytestmark = pytest.mark.integration

PEOPLE = {"anna.txt": "Anna Berg (born 4 May 1920) was a Swedish painter. She lived in Uppsala.",
          "carl.txt": "Carl Holm (born 9 June 1931) was a Danish sculptor. He worked in Aarhus."}


class Says:
    """A chat model that answers ``direct`` and quotes, with its [u_…] ID, the first sentence of each unit."""

    def __init__(self, direct: str) -> None:
        self.direct = direct
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create))

    def _create(self, **kw: Any) -> Any:
        user = kw["messages"][-1]["content"]
        quotes = [f"{m.group(2).split('. ')[0].rstrip('.')}. [{m.group(1)}]"
                  for m in re.finditer(r"<<<UNIT (u_[0-9a-f]{16})[^\n]*\n([^\n]+)", user)]
        reply = f"Answer: {self.direct}\nBecause: " + " ".join(quotes)
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=reply))], usage=None)


@pytest.fixture
def stores(neo4j_driver: Any, pg_pool: Any, tenant: str, tmp_path: Path) -> Iterator[Stores]:
    s = make_stores("neo4j", neo4j_driver, pg_pool, tenant, tmp_path / "graph")
    root = tmp_path / "people"
    root.mkdir()
    for name, text in PEOPLE.items():
        (root / name).write_text(text + "\n")
    job = IngestionJob(s, get_embedder(s.settings), SpacyExtractor(), tenant, progress=False).run([root])
    assert job.job.status == "completed"
    yield s


def ask(stores: Stores, tenant: str, question: str, direct: str) -> Any:
    cfg = Settings(**{**stores.settings.model_dump(), "min_confidence": 0.0, "llm_model": "scripted",
                      "llm_roles": "draft"})
    answerer = Answerer(stores.units, stores.graph, get_embedder(cfg), cfg, generator="llm", llm_client=Says(direct),
                        save=False)
    return answerer.answer(tenant, question)


def computed(ans: Any) -> list[dict[str, Any]]:
    return [s for s in ans.trace if s["step"] == "compute"]


@pytest.mark.parametrize("question, right, wrong", [
    ("Who was born first, Anna Berg or Carl Holm?", "Anna Berg", "Carl Holm"),
    ("Who was born first, Anna Berg or Carl Holm?", "Anna Berg", "Both Anna Berg and Carl Holm"),  # no agreement
    ("Are Anna Berg and Carl Holm of the same nationality?", "No.", "yes"),  # "No." is "no"
])
def test_a_models_computed_answer_stands_only_when_the_spans_compute_it(stores: Stores, tenant: str, question: str,
                                                                        right: str, wrong: str) -> None:
    ans = ask(stores, tenant, question, right)
    assert ans.direct is not None and ans.direct.lower() == right.lower().rstrip(".")
    assert ans.basis and ans.basis["kind"] in {"comparison", "yes_no"}
    assert {u for e in ans.basis["entities"] for u in [e["unit_id"]]} <= {c.unit_id for c in ans.citations}
    assert {c.unit_id for c in ans.citations} == {u for s in ans.statements for u in s.unit_ids}
    assert "computation" in computed(ans)[-1]["decision"]

    ans = ask(stores, tenant, question, wrong)
    assert ans.direct is None or ans.direct.lower() != wrong.lower()
    step = computed(ans)[-1]
    assert "dropped" in step["decision"] and step["computed"].lower() == right.lower().rstrip(".")
