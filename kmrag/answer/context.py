"""The context an answer may rest on: the retrieved units of one tenant, in rank order, with their spans.

Only units in the context can be cited. For an LLM the context is rendered as fenced data, each unit
under its ID; the text inside is never instructions (see kmrag.answer.llm).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kmrag.answer.spans import Span, unit_spans

MAX_UNIT_CHARS = 2000  # of one unit shown to an LLM


@dataclass
class Context:
    tenant: str
    units: list[Any] = field(default_factory=list)  # StoredUnit, best first
    spans: dict[str, list[Span]] = field(default_factory=dict)

    @classmethod
    def of(cls, tenant: str, units: Sequence[Any]) -> Context:
        ctx = cls(tenant=tenant)
        for u in units:
            if u.tenant != tenant or getattr(u, "retired", False) or u.id in ctx.spans:
                continue
            ctx.units.append(u)
            ctx.spans[u.id] = unit_spans(u, len(ctx.units) - 1)
        return ctx

    @property
    def ids(self) -> list[str]:
        return [u.id for u in self.units]

    def unit(self, unit_id: str) -> Any:
        return next(u for u in self.units if u.id == unit_id)

    def all_spans(self) -> list[Span]:
        return [s for u in self.units for s in self.spans[u.id]]

    def __bool__(self) -> bool:
        return bool(self.units)

    def within(self, budget: int, max_chars: int = MAX_UNIT_CHARS) -> Context:
        """The best units whose shown text fits ``budget`` characters in all (the first always, cut to
        ``max_chars``), for a model with a bounded context window; a span past the cut is not citable,
        since the model never saw it."""
        out = Context(tenant=self.tenant)
        used = 0
        for u in self.units:
            shown = min(len(u.content), max_chars)
            if out.units and used + shown > budget:
                break
            used += shown
            out.units.append(u)
            out.spans[u.id] = [s for s in self.spans[u.id] if s.end <= shown]
        return out

    def render(self, max_chars: int = MAX_UNIT_CHARS) -> str:
        """Each unit as a fenced block under its ID (fence characters inside a unit are neutralised)."""
        blocks = []
        for u in self.units:
            text = u.content if len(u.content) <= max_chars else u.content[:max_chars] + " …"
            title = fence_safe(" ".join(u.title.split()))  # one line: a title cannot open or close a block
            head = f"{u.id} ({title})" if title else u.id
            blocks.append(f"<<<UNIT {head}\n{fence_safe(text)}\n>>>")
        return "\n".join(blocks)


def fence_safe(text: str) -> str:
    """Unit text as fenced data: the fence characters inside it are neutralised."""
    return text.replace("<<<", "‹‹‹").replace(">>>", "›››")
