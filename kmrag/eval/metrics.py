"""The field's measures, pinned by unit tests so none can change silently.

- SQuAD answer normalisation, exact match and token F1 (max over the gold answer and aliases);
- passage recall@k = |top-k ∩ gold| / |gold| (HippoRAG protocol), all-recall@k, answer-in-context;
  a gold passage that cannot be retrieved (empty text, not in the corpus, not stored) stays in |gold|
  as a miss, never silently leaves the denominator;
- citation validity (cited IDs that exist and were in the context) and precision (cited units that
  are gold); latency percentiles.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = set(string.punctuation)
UNREACHABLE_PREFIX = "unreachable:"


def normalize_answer(s: str) -> str:
    """SQuAD: lower-case, remove punctuation, remove articles (a, an, the), collapse whitespace."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in _PUNCT)
    s = _ARTICLES.sub(" ", s)
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


def citation_precision(cited: Sequence[str], gold_ids: Iterable[str]) -> float | None:
    """Share of cited units that are gold (None: no citations)."""
    if not cited:
        return None
    gold = set(gold_ids)
    return sum(1 for c in cited if c in gold) / len(cited)


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
