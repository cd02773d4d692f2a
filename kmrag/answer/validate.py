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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kmrag.answer.asked import described_answer
from kmrag.answer.context import Context
from kmrag.answer.joins import clock_holds
from kmrag.answer.judge import Verdict, judge
from kmrag.answer.spans import TITLE_QUALIFIER, Span, line_of
from kmrag.answer.support import YES_NO_WORDS, number_key, support, terms
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
    scores: list[float] = field(default_factory=list)  # the support score of each kept statement
    basis: dict[str, Any] | None = None  # how the direct answer was read or computed from the cited spans

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
        sentence = re.sub(r"\s+([.,;:!?])(?=\s|$)", r"\1", sentence)  # not ".NET"
        out.append((sentence, list(dict.fromkeys(ids))))
    return out, []


def _evidence(span: Span) -> str:
    return span.display if span.kind == "row" else span.quote


def judged(statement: str, spans: Sequence[Span]) -> tuple[Verdict, list[Span]]:
    """The per-statement verdict on ``spans`` (the spans of the cited units) and the spans it rests on."""
    v = judge(statement, [_evidence(s) for s in spans], [s.title for s in spans])
    return v, [line_of(spans[i], statement) for i in v.used] if v.supported else []


def recite(statement: str, context: Context, limit: int = 4,
           second_opinion: Callable[[str, list[str]], bool | None] | None = None) -> tuple[Verdict | None, list[Span]]:
    """The context unit whose spans support ``statement``, among the ``limit`` units sharing most words."""
    ranked: dict[str, float] = {}
    for s in context.all_spans():
        sc = support(statement, [_evidence(s)], [s.title]).score
        ranked[s.unit_id] = max(ranked.get(s.unit_id, -9.0), sc)
    for uid in sorted(ranked, key=lambda u: -ranked[u])[:limit]:
        if ranked[uid] <= 0:
            break
        v, used = judged(statement, context.spans[uid])
        if v.supported and (second_opinion is None or second_opinion(statement, [_evidence(u) for u in used]) is not False):
            return v, used
    return None, []


def _citation(span: Span) -> Citation:
    return Citation(unit_id=span.unit_id, source_id=span.source_id, quote=span.quote, start=span.start,
                    end=span.end, kind=span.kind)


def validate(text: str, context: Context, known: Callable[[list[str]], set[str]] | None = None,
             direct: str | None = None, basis: dict[str, Any] | None = None,
             second_opinion: Callable[[str, list[str]], bool | None] | None = None) -> Validated:
    """``known(ids)`` answers which IDs exist for the tenant (to tell invented from out-of-context IDs)."""
    out = Validated()
    pairs = [(s, ids) for s, ids in split_statements(text or "") if terms(s).words or terms(s).numbers]
    out.raw_sentences = len(pairs)
    foreign = sorted({x for _, ids in pairs for x in ids if x not in context.spans})
    exists = known([x for x in foreign if _VALID_ID.match(x)]) if known and foreign else set()
    cited: dict[tuple[str, int], Citation] = {}
    used: list[Span] = []
    for n, (sentence, ids) in enumerate(pairs):
        for x in ids:
            if x not in context.spans:
                out.issues.append({"sentence": n, "issue": "out_of_context_id" if x in exists else "invented_id",
                                   "id": x})
        valid = [x for x in ids if x in context.spans]
        chosen: list[Span] = []
        verdict: Verdict | None = None
        if valid:
            verdict, chosen = judged(sentence, [sp for x in valid for sp in context.spans[x]])
            if chosen and second_opinion is not None and second_opinion(sentence, [_evidence(c) for c in chosen]) is False:
                out.issues.append({"sentence": n, "issue": "llm_unsupported", "why": "the LLM judge found the cited "
                                   "spans do not support it (the offline check did)"})
                verdict, chosen = Verdict(False, 0.0, "the LLM judge found it unsupported"), []
            for x in valid:
                if chosen and x not in {c.unit_id for c in chosen}:
                    out.issues.append({"sentence": n, "issue": "citation_removed", "id": x,
                                       "why": "the statement does not rest on this unit"})
        if not chosen:
            why = verdict.failed if verdict is not None else None
            verdict, chosen = recite(sentence, context, second_opinion=second_opinion)
            if chosen:
                out.issues.append({"sentence": n, "issue": "recited", "id": chosen[0].unit_id, "text": sentence[:200],
                                   "cited": valid, "why": "uncited" if not ids else f"not supported by the cited units: {why}"})
            else:
                out.issues.append({"sentence": n, "issue": "dropped", "text": sentence[:200],
                                   "why": why or "no unit in the context supports it"})
                continue
        if verdict is not None:
            out.scores.append(verdict.score)
        if not ids:
            out.issues.append({"sentence": n, "issue": "uncited"})
        unit_ids = list(dict.fromkeys(s.unit_id for s in chosen))
        out.statements.append(Statement(text=sentence, unit_ids=unit_ids))
        for s in chosen:
            cited.setdefault((s.unit_id, s.start), _citation(s))
            used.append(s)
    out.citations = list(cited.values())
    _direct(out, " ".join(_MARKER.sub(" ", direct or "").split()), used, basis)
    return out


def _plain(text: str) -> str:
    """Lower case, thousands separators and punctuation out, spaces collapsed: "5,900 km." is "5900 km"."""
    text = re.sub(r"(?<=\d),(?=\d{3})", "", text.lower())
    return " ".join(re.sub(r"[^\w\s%€$£.-]|(?<!\d)\.|\.(?!\d)", " ", text).split())


_WORD_CHAR = r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]"


_OPTIONS = re.compile(r"\bor\b", re.I)


def named_by(value: str, question: str) -> bool:
    """Does the question itself say ``value``: its every word and number, in a question that offers no options
    ("..., A or B?" names its answer)? "5 seasons" is not said by "How many seasons ...?"."""
    v, q = terms(value), terms(question)
    return bool(v.words or v.numbers) and v.words <= q.words and v.numbers <= q.numbers \
        and not _OPTIONS.search(question)


def drop_given(out: Validated, question: str) -> Validated:
    """A direct answer read from a span whose every word the question itself says is no answer ("Which
    magazine ranked X among 35 Game Changers?" -> "Game Changers"; "the place of death of Marie Thérèse of
    France's father" -> "France"): it is dropped, the statements stay. Computed answers name what they compare
    and stand; so does a relation path's end, an entity of the graph other than those the question names
    ("Munich", the capital of the state where Munich Airport is), an answer the asked phrase describes ("Hawaii
    County" for "in what Hawaii county"), and a table's cell under the header the question names, in the row it
    names ("Town: Harrowgate" for "In which town is Harrowgate General Hospital?")."""
    kind = (out.basis or {}).get("kind")
    if out.direct and kind not in {"yes_no", "comparison", "path", "cell"} and \
            named_by(out.direct, question) and not described_answer(out.direct, question):
        out.issues.append({"issue": "direct_dropped", "text": out.direct[:200],
                           "why": "the question itself names it: it cannot be what the question asks"})
        out.direct, out.basis = None, None
    return out


def drop_described(out: Validated, question: str, sub: Any, asked: Sequence[str]) -> Validated:
    """A direct answer that is the thing the question describes, of which it asks something, is no answer: "What
    is the nickname of the football club based in Calder Mills?" is not "Calder Mills Athletic" when retrieval
    asked "What is the nickname of Calder Mills Athletic?" (``sub``: the question's sub-question, whose phrase
    retrieval replaced by its answer; ``asked``: the questions retrieval asked). The statements stay. Computed
    answers stand."""
    basis = out.basis or {}
    if not out.direct or sub is None or not sub.phrase or sub.phrase not in question or \
            basis.get("kind") in {"yes_no", "comparison", "path", "cell"}:
        return out
    if sub.outer(question, out.direct) in asked or (basis.get("kind") == "span" and
                                                    _called_by(out.direct, sub, str(basis.get("quote") or ""))):
        out.issues.append({"issue": "direct_dropped", "text": out.direct[:200],
                           "why": f"it is what the question's {sub.phrase!r} names, not what is asked of it"})
        out.direct, out.basis = None, None
    return out


def _called_by(direct: str, sub: Any, quote: str) -> bool:
    """Does the answer's span call the answer by the sub-question's noun and name the sub-question's anchor, as the
    question's phrase describes it ("the football club Calder Mills Athletic" for "the football club based in
    Calder Mills")? A span that calls it so without the anchor describes something else ("the daughter of director
    Francis Ford Coppola" for the father of the director of another film)."""
    noun, anchor = sub.relation, sub.anchor
    return bool(noun and anchor) and anchor.lower() in quote.lower() and \
        re.search(rf"\b{re.escape(noun)}s?,?\s+{re.escape(direct)}(?!\w)", quote, re.I) is not None


def _total_holds(direct: str, total: dict[str, Any], used: list[Span]) -> bool:
    """A band's total ("£20.72" for 14 m³ at "£1.48" per cubic metre) stands when its rate is a whole phrase of a
    cited span and the total is the rate times the quantity, recomputed here."""
    rate, shown = str(total.get("rate", "")), direct.strip()
    whole = re.compile(rf"(?<!{_WORD_CHAR}|-){re.escape(_plain(rate))}(?!{_WORD_CHAR}|-)")
    if not rate or shown[:1] != rate.strip()[:1] or not any(whole.search(_plain(_evidence(s))) for s in used):
        return False
    amount, got = number_key(rate.strip()[1:].strip()), number_key(shown[1:].replace(",", ""))
    try:
        return amount is not None and got is not None and \
            abs(float(amount) * float(total.get("quantity", 0)) - float(got)) < 0.006
    except ValueError:
        return False


# the two ends of a range joined by a hyphen: clock times ("09:30-11:30") or numbers with no leading zero ("1,500-2,000",
# "10-5"), not the parts of a telephone number, an ISBN or an ISO date ("07700-900418", "978-3-16", "2024-05-12")
_RANGE_END = re.compile(r"\d{1,2}[:.]\d{2}|[1-9][\d,]*(?:\.\d+)?|0(?:\.\d+)?")


def _no_piece_of_an_id(text: str, m: re.Match[str]) -> bool:
    """Is the match, when a hyphen joins it to a number, one end of a two-ended range of like values?"""
    a, b = m.start(), m.end()
    joined_before = a >= 2 and text[a - 1] == "-" and text[a - 2].isdigit()
    joined_after = b + 1 < len(text) and text[b] == "-" and text[b + 1].isdigit()
    if not (joined_before or joined_after):
        return True  # the value stands alone ("2021-06-08" whole, "a 12-week course")
    while a > 0 and (text[a - 1].isdigit() or text[a - 1] in "-:.,"):
        a -= 1
    while b < len(text) and (text[b].isdigit() or text[b] in "-:.,"):
        b += 1
    token = text[a:b].strip("-:.,")
    if "-" not in token:
        return True
    parts = token.split("-")
    return len(parts) == 2 and all(_RANGE_END.fullmatch(p) for p in parts) and \
        (":" in parts[0]) == (":" in parts[1])


def _direct(out: Validated, direct: str, used: list[Span], basis: dict[str, Any] | None) -> None:
    """The direct answer stands when it is words of a span a kept statement rests on, or a value computed
    from such spans with the computation shown (``basis``: a comparison, a yes / no over every compared
    entity, a band lookup). "600 EUR (u_…)": the ID is no part of the answer."""
    if not direct or not out.statements:
        return
    kept = {u for s in out.statements for u in s.unit_ids}
    low = direct.lower().strip()
    rests = [x.get("unit_id") for x in (basis or {}).get("entities", [])]
    if basis and basis.get("kind") in {"yes_no", "comparison"}:
        whole_check = all(u in kept for u in rests) and (low in YES_NO_WORDS) == (basis["kind"] == "yes_no")
        if basis["kind"] == "comparison":  # the answer is the winner, one of two or more compared entities
            names = [str(x.get("name", "")).lower() for x in basis.get("entities", [])]
            whole_check = whole_check and len(rests) >= 2 and low == str(basis.get("winner", "")).lower() and low in names
        if rests and whole_check:
            out.direct, out.basis = direct.strip(), basis
            return
        out.issues.append({"issue": "direct_dropped", "text": direct[:200],
                           "why": "its computation does not rest on the cited spans of every entity it compares"})
        return
    if basis and basis.get("kind") == "band" and not all(u in kept for u in rests):
        out.issues.append({"issue": "direct_dropped", "text": direct[:200],
                           "why": "the band lookup's quantity or row is not among the kept statements"})
        return
    if basis and basis.get("kind") == "band" and (clock := basis.get("clock")):
        if clock_holds(direct, clock, [_evidence(s) for s in used]):
            out.direct, out.basis = direct.strip(), basis
        else:
            out.issues.append({"issue": "direct_dropped", "text": direct[:200],
                               "why": "the end time is not the cited start plus the cited running time"})
        return
    if basis and basis.get("kind") == "band" and (total := basis.get("total")):
        if _total_holds(direct, total, used):
            out.direct, out.basis = direct.strip(), basis
        else:
            out.issues.append({"issue": "direct_dropped", "text": direct[:200],
                               "why": "the total is not the cited rate times the question's quantity"})
        return
    phrase = _plain(direct)
    # "50" is not in "250 EUR"; Chinese has no spaces between words, so its characters are no boundary
    # a number may end or start a range ("09:30" of "09:30-11:30"), never a word's hyphen ("X-50")
    before = rf"(?<!{_WORD_CHAR})(?:(?<=\d-)|(?<!-))" if phrase[:1].isdigit() else rf"(?<!{_WORD_CHAR}|-)"
    after = rf"(?!{_WORD_CHAR})(?:(?=-\d)|(?!-))" if phrase[-1:].isdigit() else rf"(?!{_WORD_CHAR}|-)"
    whole = re.compile(before + re.escape(phrase) + after)
    for s in used:
        ev = _evidence(s)
        # "He won the race ..." in the unit about David Jolly: the person is the unit's title
        titled = bool((basis or {}).get("subject_from_title")) and \
            _plain(TITLE_QUALIFIER.sub("", s.title)) == phrase
        raw = list(re.finditer(re.escape(direct.strip()), ev, re.I))  # as written, for its hyphens
        said = whole.search(_plain(ev)) and (not raw or any(_no_piece_of_an_id(ev, m) for m in raw))
        if low not in YES_NO_WORDS and phrase and (said or titled):
            out.direct = direct.strip()
            out.basis = {**(basis or {"kind": "span"}), "unit_id": s.unit_id, "quote": s.quote}
            return
    out.issues.append({"issue": "direct_dropped", "text": direct[:200],
                       "why": "yes / no without a check of every compared entity" if low in YES_NO_WORDS
                       else "not in the spans the answer cites"})
