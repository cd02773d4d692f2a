"""Citation validation, for every generator: the only way a draft becomes an answer.

For each sentence of a draft:
1. its ``[u_…]`` markers are read; an ID that is not in the context is removed, and reported as
   **invented** (no such unit for this tenant) or **out of context** (a real unit that was not given);
2. the sentence must be supported by the spans of the units it still cites (kmrag.answer.support);
   a cited unit that contributes nothing is dropped from the sentence;
3. an uncited or unsupported sentence is **re-cited** to the context span that supports it best, when one
   does; otherwise it is **dropped**. A sentence is never shown without a citation.

When no sentence survives, the answer is exactly "Information not found in knowledge map". Every repair
is reported, so a generator can regenerate once and the trace shows what happened.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kmrag.answer.context import Context
from kmrag.answer.spans import Span
from kmrag.answer.support import Support, support, terms
from kmrag.nlp.sentences import sentence_spans
from kmrag.schema import Citation, Statement

NOT_FOUND = "Information not found in knowledge map"

# a bracket group that is meant as a citation: IDs (well-formed or not) or numbers, separated by , ; or space,
# maybe after a label ("[source: u_…]"); in other brackets ("(u_…)", "【u_…】") only unit IDs; and a bare unit ID
# anywhere. All are lifted out of the sentence, so no ID-like text is ever shown that was not checked.
_LABEL = r"(?:(?:sources?|units?|ids?|refs?|references?|citations?|see|cf\.?)\s*[:#]?\s*)?"
_ANY_ID = r"(?:[A-Za-z]{1,3}[_-][\w-]*|\d{1,3})"
_UNIT_ID = r"u_[0-9a-f]{6,}\w*"
_MARKER = re.compile(
    rf"\[\s*{_LABEL}({_ANY_ID}(?:\s*[,;]?\s*{_ANY_ID})*)\s*\]"
    rf"|[(（【〔［{{〈《]\s*{_LABEL}({_UNIT_ID}(?:\s*[,;/]?\s*(?:and\s+)?{_UNIT_ID})*)\s*[)）】〕］}}〉》]"
    rf"|(?<![\w-])({_UNIT_ID})", re.I)
_ID = re.compile(rf"{_UNIT_ID}|[A-Za-z]{{1,3}}[_-][\w-]*|\d{{1,3}}", re.I)
# where an answer written as a list or in lines breaks: a blank line, a new list item, a line that ends a sentence
_BLOCK = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[-*•+]|\d{1,3}[.)])\s)|(?<=[.!?…\]】)）])[ \t]*\n")
_BULLET = re.compile(r"^\s*(?:[-*•+]|\d{1,3}[.)])\s+")
_VALID_ID = re.compile(r"^u_[0-9a-f]{16}$")


@dataclass
class Validated:
    statements: list[Statement] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    direct: str | None = None
    issues: list[dict[str, Any]] = field(default_factory=list)
    raw_sentences: int = 0

    @property
    def found(self) -> bool:
        return bool(self.statements)

    @property
    def text(self) -> str:
        if not self.statements:
            return NOT_FOUND
        return " ".join(f"{s.text} " + " ".join(f"[{u}]" for u in s.unit_ids) for s in self.statements)

    def count(self, kind: str) -> int:
        return sum(1 for i in self.issues if i["issue"] == kind)

    @property
    def grounded_share(self) -> float:
        """Share of the draft's sentences that stood as written (cited and supported)."""
        if not self.raw_sentences:
            return 0.0
        repaired = {i["sentence"] for i in self.issues if i["issue"] in {"recited", "dropped"}}
        return round(1 - len(repaired) / self.raw_sentences, 4)


def split_statements(text: str) -> list[tuple[str, list[str]]]:
    """(sentence, cited IDs as written) pairs: markers are lifted out of the text and given to the sentence
    they close (a marker between two sentences belongs to the one before). A list item or a line that ends a
    sentence is a statement of its own; a marker alone on a line belongs to the statement before it."""
    out: list[tuple[str, list[str]]] = []
    for block in _BLOCK.split(text):
        pairs, orphans = _split_block(_BULLET.sub("", block, count=1))
        if orphans and out:
            out[-1] = (out[-1][0], list(dict.fromkeys(out[-1][1] + orphans)))
        out += pairs
    return out


def _unit_id(x: str) -> str:
    return x.lower() if _VALID_ID.match(x.lower()) else x  # "[U_0123…]" is the unit u_0123…


def _split_block(text: str) -> tuple[list[tuple[str, list[str]]], list[str]]:
    plain: list[str] = []
    markers: list[tuple[int, list[str]]] = []
    pos = 0
    length = 0
    for m in _MARKER.finditer(text):
        chunk = text[pos:m.start()]
        plain.append(chunk)
        length += len(chunk)
        group = next(g for g in m.groups() if g is not None)
        markers.append((length, [_unit_id(x) for x in _ID.findall(group)]))
        pos = m.end()
    plain.append(text[pos:])
    flat = "".join(plain)
    spans = sentence_spans(flat)
    if not spans:
        return [], [x for _, got in markers for x in got]
    owned: dict[int, list[str]] = {}
    for at, got in markers:  # the last sentence that starts before the marker
        owner = max((i for i, (a, _) in enumerate(spans) if a < at), default=0)
        owned.setdefault(owner, []).extend(got)
    out: list[tuple[str, list[str]]] = []
    for i, (a, b) in enumerate(spans):
        ids = owned.get(i, [])
        sentence = " ".join(flat[a:b].split())
        sentence = re.sub(r"\s+([.,;:!?])", r"\1", sentence)
        out.append((sentence, list(dict.fromkeys(ids))))
    return out, []


def _evidence(span: Span) -> str:
    return span.display if span.kind == "row" else span.quote


def best_span(statement: str, spans: Iterable[Span]) -> tuple[Span | None, Support | None]:
    best: tuple[Span | None, Support | None] = (None, None)
    for s in spans:
        sup = support(statement, [_evidence(s)], [s.title])
        if best[1] is None or (sup.score, -s.rank) > (best[1].score, -best[0].rank):  # type: ignore[union-attr]
            best = (s, sup)
    return best


def _citation(span: Span) -> Citation:
    return Citation(unit_id=span.unit_id, source_id=span.source_id, quote=span.quote, start=span.start,
                    end=span.end, kind=span.kind)


def validate(text: str, context: Context, known: Callable[[list[str]], set[str]] | None = None,
             direct: str | None = None) -> Validated:
    """``known(ids)`` answers which IDs exist for the tenant (to tell invented from out-of-context IDs)."""
    out = Validated()
    pairs = [(s, ids) for s, ids in split_statements(text or "") if terms(s).words or terms(s).numbers]
    out.raw_sentences = len(pairs)
    foreign = sorted({x for _, ids in pairs for x in ids if x not in context.spans})
    exists = known([x for x in foreign if _VALID_ID.match(x)]) if known and foreign else set()
    cited: dict[tuple[str, int], Citation] = {}
    for n, (sentence, ids) in enumerate(pairs):
        for x in ids:
            if x not in context.spans:
                out.issues.append({"sentence": n, "issue": "out_of_context_id" if x in exists else "invented_id",
                                   "id": x})
        valid = [x for x in ids if x in context.spans]
        chosen: list[Span] = []
        if valid:
            for x in valid:
                span, sup = best_span(sentence, context.spans[x])
                if span is not None and sup is not None and sup.coverage > 0:
                    chosen.append(span)
                else:
                    out.issues.append({"sentence": n, "issue": "citation_removed", "id": x,
                                       "why": "the unit shares nothing with the sentence"})
            sup = support(sentence, [_evidence(s) for s in chosen], [s.title for s in chosen]) if chosen else None
            if sup is None or not sup.ok:
                chosen = []
            elif len(chosen) > 1:  # a co-cited unit whose quote adds nothing is not shown as support
                for s in sorted(chosen, key=lambda s: support(sentence, [_evidence(s)], [s.title]).coverage):
                    rest = [x for x in chosen if x is not s]
                    left = support(sentence, [_evidence(x) for x in rest], [x.title for x in rest])
                    if left.ok and left.coverage >= sup.coverage:
                        chosen = rest
                        out.issues.append({"sentence": n, "issue": "citation_removed", "id": s.unit_id,
                                           "why": "its quote adds nothing the other cited units do not say"})
        if not chosen:
            span, sup = best_span(sentence, context.all_spans())
            if span is not None and sup is not None and sup.ok:
                chosen = [span]
                out.issues.append({"sentence": n, "issue": "recited", "id": span.unit_id,
                                   "why": "uncited" if not ids else "not supported by the cited units"})
            else:
                out.issues.append({"sentence": n, "issue": "dropped", "text": sentence[:200],
                                   "why": "no unit in the context supports it"})
                continue
        if not ids:
            out.issues.append({"sentence": n, "issue": "uncited"})
        unit_ids = list(dict.fromkeys(s.unit_id for s in chosen))
        out.statements.append(Statement(text=sentence, unit_ids=unit_ids))
        for s in chosen:
            cited.setdefault((s.unit_id, s.start), _citation(s))
    out.citations = list(cited.values())
    direct = " ".join(_MARKER.sub(" ", direct or "").split())  # "600 EUR (u_…)": the ID is no part of the answer
    if direct and out.statements:
        quotes = [c.quote for c in out.citations] + [_evidence(s) for u in {c.unit_id for c in out.citations}
                                                     for s in context.spans[u]]
        low = direct.lower().strip()
        whole = re.compile(rf"(?<!\w){re.escape(low)}(?!\w)")  # "50" is not in "250 EUR"
        if low in {"yes", "no"} or any(whole.search(q.lower()) for q in quotes) or support(direct, quotes).ok:
            out.direct = direct.strip()
        else:
            out.issues.append({"issue": "direct_dropped", "text": direct[:200], "why": "not in the cited units"})
    return out
