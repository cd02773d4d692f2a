"""The field's measures, pinned by unit tests so none can change silently.

- SQuAD answer normalisation, exact match and token F1 (max over the gold answer and aliases);
- passage recall@k = |top-k ∩ gold| / |gold| (HippoRAG protocol), all-recall@k, answer-in-context;
  a gold passage that cannot be retrieved (empty text, not in the corpus, not stored) stays in |gold|
  as a miss, never silently leaves the denominator;
- citation validity (cited IDs that exist and were in the context) and unit precision (cited units
  that are gold passages); latency percentiles;
- answers against the gold **evidence**: citation precision / recall (a cited quote matching a gold
  supporting sentence, HotpotQA / 2Wiki; a cited unit from a gold supporting paragraph, MuSiQue), the
  supported share of an answer's statements (the support checker, ``kmrag.answer.support.judge``);
- **calibration** of the answers' confidence: correctness (:func:`is_correct`), expected calibration
  error over equal-width bins, a reliability table, confident wrong answers, coverage / accuracy at
  confidence thresholds. A question not answered ("not found") has confidence None: it counts against
  coverage, never against accuracy or calibration.
"""

from __future__ import annotations

import math
import re
import string
import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)
UNREACHABLE_PREFIX = "unreachable:"


_CJK = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af])")
# the punctuation of Chinese and Japanese text (ideographic and full-width forms): "，" "。" "（" "％"
_WIDE = re.compile(r"[\uff01-\uff5e]")
_CJK_PUNCT = re.compile(r"[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65、“”‘’…—·]")


def normalize_answer(s: str) -> str:
    """SQuAD: lower-case, remove punctuation, remove articles (a, an, the), collapse whitespace. Text in a
    script written without spaces (Chinese, Japanese, Korean) is one token per character, as MLQA and
    CMRC score it, with its own punctuation removed too; English is unchanged."""
    if _WIDE.search(s):  # full-width forms ("42.3％", "ＡＩ") are their ASCII selves
        s = unicodedata.normalize("NFKC", s)
    s = s.lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
    if _CJK.search(s):
        s = _CJK.sub(r" \1 ", _CJK_PUNCT.sub(" ", s))
    return " ".join(s.split())


def exact_match(prediction: str, answers: Sequence[str]) -> float:
    p = normalize_answer(prediction)
    return float(any(p == normalize_answer(a) for a in answers)) if answers else 0.0


def _f1(prediction: str, answer: str) -> float:
    p, g = normalize_answer(prediction).split(), normalize_answer(answer).split()
    if not p or not g:
        return float(p == g)
    common = Counter(p) & Counter(g)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction: str, answers: Sequence[str]) -> float:
    return max((_f1(prediction, a) for a in answers), default=0.0)


def dedupe(ranked: Iterable[str]) -> list[str]:
    """Keep each ID at its best (first) rank."""
    return list(dict.fromkeys(ranked))


def resolve_gold(gold_keys: Iterable[str], key_to_id: Mapping[str, str],
                 retrievable: Container[str] | None = None) -> tuple[list[str], list[str]]:
    """Gold passage keys -> the IDs rankings are scored against: ``(gold, unreachable)``.

    A gold passage missing from ``key_to_id`` (the corpus leaves out empty passages) gets the
    placeholder ``unreachable:<key>``, which no ranking contains; one whose ID is not in
    ``retrievable`` (when given: the sources actually stored) keeps its ID. Either way it stays in
    ``gold``, so recall counts it as a miss, and is listed in ``unreachable`` too.
    """
    gold: list[str] = []
    unreachable: list[str] = []
    for key in gold_keys:
        gid = key_to_id.get(key, UNREACHABLE_PREFIX + key)
        if gid in gold:
            continue
        gold.append(gid)
        if key not in key_to_id or (retrievable is not None and gid not in retrievable):
            unreachable.append(gid)
    return gold, unreachable


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    gold_set = set(gold)
    if not gold_set:
        return 0.0
    top = set(dedupe(ranked)[:k])
    return len(top & gold_set) / len(gold_set)


def all_recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    gold_set = set(gold)
    return float(bool(gold_set) and gold_set <= set(dedupe(ranked)[:k]))


def answer_in_context(contexts: Sequence[str], answers: Sequence[str]) -> float:
    """1 when a normalised gold answer (or alias) occurs, on token boundaries, in a normalised context."""
    norm_ctx = [" " + normalize_answer(c) + " " for c in contexts]
    for a in answers:
        na = normalize_answer(a)
        if na and any(f" {na} " in c for c in norm_ctx):
            return 1.0
    return 0.0


def sub_questions(trace: Sequence[dict[str, Any]], bridges: Sequence[str]) -> tuple[int, int, int] | None:
    """(asked, resolved, right) of the sub-questions a multihop retrieval resolved on the way (its trace's
    ``sub_question`` actions), against the gold answers of the question's inner hops; None when the set gives no
    such answers. A resolved name is right when it and a gold answer contain one another after normalisation
    ("Louis XIV" for "Louis XIV of France")."""
    gold = [g for g in (normalize_answer(b) for b in bridges) if g]
    if not gold:
        return None
    names = [normalize_answer(a.get("resolved") or "") for s in trace if s.get("step") == "retrieve"
             for a in s.get("actions") or [] if isinstance(a, dict) and "sub_question" in a]
    resolved = [n for n in names if n]
    right = sum(any(len(min(n, g, key=len)) >= 3 and (n in g or g in n) for g in gold) for n in resolved)
    return len(names), len(resolved), right


def citation_validity(cited: Sequence[str], context_ids: Iterable[str], existing_ids: Iterable[str]) -> float | None:
    """Share of cited IDs that exist and were in the context given to the generator (None: no citations)."""
    if not cited:
        return None
    ctx, exist = set(context_ids), set(existing_ids)
    return sum(1 for c in cited if c in ctx and c in exist) / len(cited)


# measured on the answer as shown, apart from the validator: any ID-like text however written, and the
# well-formed markers "[u_…]" that close a statement
_SHOWN_ID = re.compile(r"(?i)(?<![\w-])u_[0-9a-z]+")
_MARKER_RUN = re.compile(r"(?:\s*\[u_[0-9a-f]{16}\])+")


def shown_citations(text: str) -> tuple[list[str], bool]:
    """(every ID-like string in the shown text, in order; whether some sentence is shown without a marker).
    A statement is text followed by one or more ``[u_…]`` markers; text after the last marker, or a chunk
    between markers holding more than one sentence, is uncited. Independent of the validator's parser."""
    from kmrag.nlp.sentences import sentence_spans

    ids = _SHOWN_ID.findall(text or "")
    chunks = _MARKER_RUN.split(text or "")
    uncited = bool(chunks[-1].strip()) or any(len(sentence_spans(c)) != 1 for c in chunks[:-1])
    return ids, uncited


def citation_unit_precision(cited: Sequence[str], gold_ids: Iterable[str]) -> float | None:
    """Share of cited units whose passage is gold (None: no citations). Coarse: a unit of a gold passage
    counts whatever span of it is quoted; :func:`evidence_precision_recall` looks at the quotes."""
    if not cited:
        return None
    gold = set(gold_ids)
    return sum(1 for c in cited if c in gold) / len(cited)


# -- citations against the gold evidence ---------------------------------------------------------------


def quote_matches(quote: str, sentence: str) -> bool:
    """A cited quote matches a gold supporting sentence when, SQuAD-normalised (:func:`normalize_answer`),
    the two are equal or one contains the other (the corpus's sentence boundaries need not be the data
    set's). Text that normalises to nothing matches nothing."""
    q, g = normalize_answer(quote), normalize_answer(sentence)
    return bool(q and g) and (q == g or q in g or g in q)


def sentence_evidence(quotes: Sequence[str], gold_sentences: Sequence[str],
                      match: Callable[[str, str], bool] | None = None) -> list[set[int]]:
    """For each cited quote, the indices of the gold sentences it matches (HotpotQA, 2Wiki: by
    :func:`quote_matches`; ``match(quote, sentence)`` for another notion, such as paraphrased evidence)."""
    match = match or quote_matches
    return [{i for i, g in enumerate(gold_sentences) if match(q, g)} for q in quotes]


def passage_evidence(cited_passages: Sequence[str], gold_passages: Sequence[str]) -> list[set[int]]:
    """For each citation, given as the passage (source) ID of its unit, the indices of the gold passages it
    lies in (MuSiQue: a quote lies in a gold paragraph when its unit comes from one)."""
    return [{i for i, g in enumerate(gold_passages) if g == p} for p in cited_passages]


def evidence_precision_recall(matches: Sequence[Collection[int]], n_gold: int) -> tuple[float | None, float | None]:
    """``(precision, recall)`` of an answer's citations against the gold evidence, from the gold items each
    citation matches (:func:`sentence_evidence`, :func:`passage_evidence`).

    precision = citations matching a gold item / citations, None when nothing is cited (a not-found answer:
    left out of the mean); recall = gold items matched by some citation / ``n_gold`` (0 when nothing is
    cited), None when the question has no gold evidence. ``n_gold`` may exceed the items that can be matched
    (gold evidence missing from the data stays in the denominator)."""
    precision = sum(1 for m in matches if m) / len(matches) if matches else None
    if n_gold <= 0:
        return precision, None
    hit = set().union(*matches) if matches else set()
    return precision, min(1.0, len(hit) / n_gold)


def supported_share(statements: Sequence[tuple[str, Sequence[str]]], citations: Sequence[tuple[str, str]],
                    titles: Mapping[str, str] | None = None,
                    judge: Callable[[str, Sequence[str], Sequence[str]], Any] | None = None) -> float | None:
    """Share of an answer's statements ``(text, unit_ids)`` that the support checker finds supported by the
    quotes of the citations ``(unit_id, quote)`` of the statement's units (the units' ``titles`` go with
    them). None when there is no statement (a not-found answer). ``judge`` defaults to
    ``kmrag.answer.support.judge``; it returns something with a boolean ``supported``."""
    if not statements:
        return None
    if judge is None:
        from kmrag.answer.judge import judge as support_judge

        judge = support_judge
    titles = titles or {}
    ok = 0
    for text, unit_ids in statements:
        ids = set(unit_ids)
        mine = [(u, q) for u, q in citations if u in ids]
        verdict = judge(text, [q for _, q in mine], [titles.get(u, "") for u, _ in mine])
        ok += bool(verdict.supported)
    return ok / len(statements)


# -- calibration ---------------------------------------------------------------------------------------------

CORRECT_F1 = 0.5
THRESHOLDS = (0.5, 0.7, 0.9)
OVERCONFIDENT = 0.9


def is_correct(em: float | None, f1: float | None, prediction: str = "", answers: Sequence[str] = ()) -> bool:
    """The one definition of a correct answer the calibration measures use: exact match, or token F1 of
    at least ``CORRECT_F1`` (0.5) against the gold answer or an alias, where (when the prediction and answers
    are given) the numbers agree and one holds the other's words: "600 EUR" is not a right answer to "400 EUR",
    nor "Tufts University" to "Duke University", at F1 0.5; "69.7 million" is one to "69.7 million litres"."""
    if (em or 0.0) >= 1.0:
        return True
    if (f1 or 0.0) < CORRECT_F1:
        return False
    if not answers:
        return True
    said = set(re.findall(r"\d+", normalize_answer(prediction).replace(",", "")))
    return any(_f1(prediction, a) >= CORRECT_F1 and _nested(prediction, a)
               and said == set(re.findall(r"\d+", normalize_answer(a).replace(",", ""))) for a in answers)


def _nested(prediction: str, answer: str) -> bool:
    """Does one of the two hold every word of the other (a possessive "s" aside: "Martin O'Malley's")? A
    word swapped for another is a different answer, however many words the two share."""
    p, g = normalize_answer(prediction).split(), normalize_answer(answer).split()

    def within(a: list[str], b: list[str]) -> bool:
        return all(w in b or w.removesuffix("s") in b for w in a)

    return within(p, g) or within(g, p)


# (confidence, correct); confidence None = not answered
Judged = tuple[float | None, bool]


def _answered(points: Iterable[Judged]) -> list[tuple[float, bool]]:
    return [(float(c), bool(ok)) for c, ok in points if c is not None]


def _bin(confidence: float, bins: int) -> int:
    """Equal-width bins on [0, 1]: bin i holds [i/bins, (i+1)/bins), the last also 1.0 (exact at the edges)."""
    return sum(1 for i in range(1, bins) if confidence >= i / bins)


@dataclass(frozen=True)
class ReliabilityBin:
    lo: float
    hi: float
    count: int
    confidence: float | None  # mean confidence in the bin (None: empty)
    accuracy: float | None    # share correct in the bin (None: empty)


def reliability(points: Iterable[Judged], bins: int = 10) -> list[ReliabilityBin]:
    """Per equal-width confidence bin (deciles by default), over the answered questions: count, mean
    confidence, accuracy."""
    grouped: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    for c, ok in _answered(points):
        grouped[_bin(c, bins)].append((c, ok))
    return [ReliabilityBin(lo=round(i / bins, 6), hi=round((i + 1) / bins, 6), count=len(g),
                           confidence=sum(c for c, _ in g) / len(g) if g else None,
                           accuracy=sum(ok for _, ok in g) / len(g) if g else None)
            for i, g in enumerate(grouped)]


def expected_calibration_error(points: Iterable[Judged], bins: int = 10) -> float | None:
    """ECE = sum over bins of |bin| / n * |accuracy(bin) - mean confidence(bin)|, n the answered questions
    (None when none was answered)."""
    table = reliability(points, bins)
    n = sum(b.count for b in table)
    if not n:
        return None
    return sum(b.count / n * abs((b.accuracy or 0.0) - (b.confidence or 0.0)) for b in table if b.count)


def wrong_at(points: Iterable[Judged], threshold: float = OVERCONFIDENT) -> tuple[int, float | None]:
    """Confident wrong answers: (how many answered questions are wrong at confidence >= ``threshold``, their
    share of the answered questions; None when none was answered)."""
    answered = _answered(points)
    wrong = sum(1 for c, ok in answered if c >= threshold and not ok)
    return wrong, (wrong / len(answered) if answered else None)


def coverage_accuracy(points: Sequence[Judged], threshold: float) -> tuple[float | None, float | None]:
    """(coverage, accuracy) at ``threshold``: the share of all questions answered with confidence >=
    ``threshold``, and the share correct among those (None when none; coverage None when no question)."""
    kept = [ok for c, ok in _answered(points) if c >= threshold]
    coverage = len(kept) / len(points) if points else None
    return coverage, (sum(kept) / len(kept) if kept else None)


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty sequence; NaN when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None
