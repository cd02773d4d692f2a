"""How sure an answer is: a probability that it is right, from what can be read off the answer itself.

The features are facts about the answer, none about a dataset: whether a direct answer was read from a
cited span (or computed from them), how well the statements are supported, how much of the question the
cited spans hold, whether the question's entities are named there, whether the value is of the kind the
question asks for. A logistic model maps them to a probability; its weights are fitted by
``kmrag eval calibrate`` on one half of the dev sets' questions and checked on the other half (the fit, its
data and its figures are in ``calibration.json`` beside this file).

Below ``Settings.min_confidence`` the answer is "Information not found in knowledge map", with the best
evidence found shown as evidence, never as an answer.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kmrag.answer.support import YES_NO_WORDS, terms
from kmrag.retrieval.analysis import QuestionAnalysis
from kmrag.retrieval.multihop import VALUE_OF

CALIBRATION = Path(__file__).with_name("calibration.json")
FEATURES = ("direct", "computed", "support_min", "grounded_share", "question_coverage", "entities_named",
            "typed", "answer_span_coverage", "multi_hop", "question_length", "answer_in_top_unit", "unambiguous",
            "near_question_words", "nested", "yes_no", "comparison", "meaning", "relation_stated", "chain",
            "path_stated", "hops_owned")
# before any fit: a cautious prior (an answer without a direct value is unlikely to be right)
PRIOR = {"bias": -2.0, "direct": 1.5, "computed": 0.0, "support_min": 1.0, "grounded_share": 0.5,
         "question_coverage": 1.0, "entities_named": 0.5, "typed": 0.5, "answer_span_coverage": 1.0,
         "multi_hop": -1.0, "question_length": -1.0, "answer_in_top_unit": 0.5,
         "unambiguous": 1.0, "near_question_words": 0.5, "nested": -0.5, "yes_no": 0.0, "comparison": 0.0}
# the spaCy labels of each expected answer type (a value of the wrong kind is unlikely to be the answer)
LABELS = {"PERSON": {"PERSON"}, "PLACE": {"GPE", "LOC", "FAC"}, "ORG": {"ORG"}, "DATE": {"DATE"},
          "MONEY": {"MONEY"}, "QUANTITY": {"QUANTITY"}, "NUMBER": {"CARDINAL", "QUANTITY", "MONEY", "PERCENT"},
          "WORK": {"WORK_OF_ART", "PRODUCT", "EVENT", "ORG"}, "NATIONALITY": {"NORP", "GPE"}, "TIME": {"TIME"}}


def features(question: str, analysis: QuestionAnalysis, validated: Any, titles: Mapping[str, str],
             nlp: Any = None) -> dict[str, float]:
    """The answer's features; ``titles``: the cited units' titles by ID; ``nlp``: spaCy, to tell the kind of
    value the direct answer is."""
    quotes = " ".join(c.quote for c in validated.citations)
    cited = terms(quotes + " " + " ".join(titles.get(c.unit_id, "") for c in validated.citations))
    q = terms(question)
    qwords = q.words | q.numbers
    have = cited.words | cited.numbers
    named = [m for m in analysis.mentions if len(m) > 2 and terms(m).words]
    present = [m for m in named if terms(m).words <= cited.words]
    basis = (validated.basis or {}).get("kind")
    pattern = VALUE_OF.get(analysis.answer_type)
    direct = validated.direct or ""
    return {
        "direct": float(bool(direct)),
        "computed": float(basis in {"comparison", "yes_no", "band", "cell"}),
        "support_min": min(validated.scores) if validated.scores else 0.0,
        "grounded_share": float(validated.grounded_share),
        "question_coverage": len(qwords & have) / max(1, len(qwords)),
        "entities_named": len(present) / len(named) if named else 1.0,
        "typed": _typed(direct, analysis.answer_type, (validated.basis or {}).get("quote", ""), pattern, nlp),
        "answer_span_coverage": _span_coverage(question, analysis, validated),
        "multi_hop": float(analysis.kind in {"bridge", "inference"} or analysis.sub_question is not None),
        "question_length": min(1.0, len(q.words) / 15),
        "answer_in_top_unit": float(bool(direct) and bool(titles) and
                                    (validated.basis or {}).get("unit_id") == next(iter(titles), None)),
        "unambiguous": _unambiguous(validated.basis or {}, bool(direct)),
        "near_question_words": _near_words(validated.basis or {}, bool(direct)),
        "nested": min(3, len(NESTING.findall(" ".join(question.split()[2:])))) / 3,
        "yes_no": float(direct.lower() in YES_NO_WORDS),
        "comparison": float(analysis.kind == "comparison"),
        "meaning": _meaning(validated.basis or {}, bool(direct)),
        "relation_stated": _relation_stated(validated.basis or {}, bool(direct)),
        "chain": float(basis in {"chain", "path"}),
        "path_stated": _path_stated(validated.basis or {}),
        "hops_owned": _hops_owned(validated.basis or {}),
    }


def _relation_stated(basis: Mapping[str, Any], direct: bool) -> float:
    """1 when the answer's span states the question's relation: one of its relational words, and for a value the
    verb the question asks by ("how much does it cost to park": a sum the span gives as a tram line's cost is no
    parking charge)."""
    return float(direct and bool(basis.get("relation_stated", True)) and bool(basis.get("verb_said", True)))


def _hops_owned(basis: Mapping[str, Any]) -> float:
    """For an answer read hop by hop: the last hop read from the bridge's own unit (titled by it, or opening with
    it), weighed by the cross-encoder's weakest reading of a hop; 0 for any other answer."""
    hops = basis.get("hops") or []
    if basis.get("kind") != "chain" or not basis.get("owned") or not hops:
        return 0.0
    meanings = [h.get("meaning") for h in hops]
    return min(float(m) if isinstance(m, int | float) else 0.5 for m in meanings)


def _path_stated(basis: Mapping[str, Any]) -> float:
    """For an answer read along relation edges: a path of two hops or more (every hop said by a word of the
    question, as :mod:`kmrag.answer.paths` keeps only such paths; checked here too), weighed by the
    cross-encoder's reading of its last sentence; 0 for any other answer."""
    said, hops = basis.get("said") or [], basis.get("hops") or []
    if basis.get("kind") != "path" or len(hops) < 2 or len(said) != len(hops) or not all(said):
        return 0.0
    return float(basis["meaning"]) if isinstance(basis.get("meaning"), int | float) else 0.5


def _meaning(basis: Mapping[str, Any], direct: bool) -> float:
    """The cross-encoder's probability that the span the answer was read from answers the question (0.5 when
    it was not read by one; computed answers rest on their computation)."""
    if not direct:
        return 0.0
    p = basis.get("meaning")
    return float(p) if isinstance(p, int | float) else 0.5


def _typed(direct: str, answer_type: str, quote: str, pattern: Any, nlp: Any) -> float:
    """1 when the direct answer is a value of the kind the question asks for, 0.5 when that cannot be told."""
    if not direct:
        return 0.0
    if direct.lower() in YES_NO_WORDS:
        return float(answer_type == "YES_NO")
    if pattern is not None:
        return float(bool(pattern.search(direct)))
    labels = LABELS.get(answer_type)
    if not labels or nlp is None:
        return 0.5
    ents = {e.text: e.label_ for e in nlp(quote or direct).ents}
    label = ents.get(direct) or next((lab for t, lab in ents.items() if direct in t or t in direct), None)
    return 0.5 if label is None else float(label in labels)


# a question that describes what it asks about through another thing ("the record company who released X",
# "a film directed by which director"): each clause is a hop the answer had to make
NESTING = re.compile(r"\b(?:who|which|that|whose|where|whom|when)\b|\b(?:of|by|in|from|for|with) "
                     r"(?:the|a|an|this|his|her|its|their)\b|\b\w+(?:ed|en) by\b", re.I)


def _unambiguous(basis: Mapping[str, Any], direct: bool) -> float:
    """1 when the span offered one value of the kind asked for, 1/n for n; computed answers count as one."""
    if not direct:
        return 0.0
    n = basis.get("candidates")
    return 1.0 / max(1, int(n)) if isinstance(n, int) else 1.0


def _near_words(basis: Mapping[str, Any], direct: bool) -> float:
    """1 when the answer stands right by the question's words in its span, falling to 0 at 150 characters."""
    d = basis.get("distance")
    if not direct:
        return 0.0
    return max(0.0, 1.0 - float(d) / 150) if isinstance(d, int | float) else 1.0


def _span_coverage(question: str, analysis: QuestionAnalysis, validated: Any) -> float:
    """The share of the question's words other than its entities' that the span holding the answer holds."""
    quote = (validated.basis or {}).get("quote") or (validated.citations[0].quote if validated.citations else "")
    asked = terms(question).words - terms(" ".join(analysis.mentions)).words
    if not asked:
        return 1.0
    return len(asked & terms(quote).words) / len(asked)


@functools.lru_cache(maxsize=4)
def _calibration(path: str) -> dict[str, Any] | None:
    p = Path(path)
    return json.loads(p.read_text(encoding="utf-8")) if p.exists() else None


def weights(path: Path | None = None) -> dict[str, float]:
    data = _calibration(str(path or CALIBRATION))
    return {k: float(v) for k, v in data["weights"].items()} if data else dict(PRIOR)


def computed_scale(path: Path | None = None) -> tuple[float, float] | None:
    """(a, b) mapping the model's log-odds z of an answer computed from cited values (a comparison, a yes / no
    over every entity, a band, a cell) to a * z + b, fitted on such answers alone: a computation resting on both
    sides' cited values is right more often than a value read from a span with the same features, and the one
    model spoke of it with too little certainty. The features still decide: an unsupported computation stays
    low. None when the calibration has no such part."""
    data = _calibration(str(path or CALIBRATION))
    got = (data or {}).get("computed", {}).get("platt")
    return (float(got[0]), float(got[1])) if got else None


def logit(feats: Mapping[str, float], w: Mapping[str, float]) -> float:
    """The model's log-odds that the answer is right."""
    return w.get("bias", 0.0) + sum(w.get(k, 0.0) * feats.get(k, 0.0) for k in FEATURES)


def probability(feats: Mapping[str, float], w: Mapping[str, float] | None = None,
                computed: tuple[float, float] | None = None) -> float:
    """The probability the answer is right; ``computed``: the scale of computed answers (by default the
    calibration's, when ``w`` is not given)."""
    if w is None:
        w, computed = weights(), computed or computed_scale()
    z = logit(feats, w)
    if computed is not None and feats.get("computed", 0.0) > 0:
        z = computed[0] * z + computed[1]
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


# what only some answers are (computed, a comparison, a yes / no, read hop by hop or along a path): said when
# present, never given as a reason when absent
ONLY_SOME = frozenset({"computed", "comparison", "yes_no", "chain", "path_stated", "hops_owned"})


def explain(feats: Mapping[str, float], w: Mapping[str, float] | None = None) -> str:
    """Why this confidence, in words: the features that raised it and those that lowered it most."""
    w = w or weights()
    said = {
        "direct": ("a direct answer read from a cited span", "no direct answer in the cited spans"),
        "computed": ("the answer computed from cited values", "no computation"),
        "support_min": ("the statements well supported", "a statement only partly supported"),
        "grounded_share": ("the draft stood as written", "the draft needed repairs"),
        "question_coverage": ("the cited spans hold the question's words", "the cited spans hold few of the question's words"),
        "entities_named": ("the question's entities are named in the evidence", "some of the question's entities are not in the evidence"),
        "typed": ("the answer is the kind of value asked for", "the answer is not the kind of value asked for"),
        "answer_span_coverage": ("the answer's span holds what the question asks", "the answer's span holds little of what the question asks"),
        "multi_hop": ("a question of several hops", "a single-hop question"),
        "question_length": ("a long question", "a short question"),
        "answer_in_top_unit": ("the answer is in the best-ranked unit", "the answer is not in the best-ranked unit"),
        "nested": ("a question that goes through other things", "a direct question"),
        "unambiguous": ("the span offers one value of the kind asked for", "the span offers several values of the kind asked for"),
        "near_question_words": ("the answer stands by the question's words", "the answer stands far from the question's words"),
        "yes_no": ("a yes / no", "not a yes / no"),
        "comparison": ("a comparison", "not a comparison"),
        "meaning": ("the answer's span answers the question, read together with it",
                    "the answer's span does not read as an answer to the question"),
        "relation_stated": ("the answer's span states the relation asked about",
                            "the answer's span does not state the relation asked about"),
        "chain": ("read hop by hop, each hop cited", "not read hop by hop"),
        "path_stated": ("every hop of the relation path says a word of the question",
                        "not a relation path saying the question hop by hop"),
        "hops_owned": ("each hop read well, the last from the bridge's own unit",
                       "not read hop by hop from the bridge's own unit"),
    }
    parts = []
    for k in FEATURES:
        v = feats.get(k, 0.0)
        if k in ONLY_SOME and v < 0.5:
            continue  # "no computation" is no reason: most answers are read, not computed
        effect = w.get(k, 0.0) * (v - 0.5)
        if abs(effect) >= 0.15:  # worded by the value, weighed by how much it moved the confidence
            parts.append((effect, said[k][0] if v >= 0.5 else said[k][1]))
    parts.sort(key=lambda x: -abs(x[0]))
    up = [p for e, p in parts[:4] if e > 0]
    down = [p for e, p in parts[:4] if e < 0]
    out = (["raised by: " + ", ".join(up)] if up else []) + (["lowered by: " + ", ".join(down)] if down else [])
    return "; ".join(out) or "no strong signal either way"


def fit(rows: list[tuple[Mapping[str, float], bool]], l2: float = 1.0, steps: int = 3000,
        lr: float = 0.5, sample_weights: list[float] | None = None) -> dict[str, float]:
    """Logistic regression by gradient descent (L2 on the weights, not the bias): (features, correct) rows,
    each weighed by ``sample_weights`` (default 1)."""
    import numpy as np

    keys = ("bias", *FEATURES)
    if not rows:
        return dict.fromkeys(keys, 0.0)
    x = np.array([[1.0] + [float(f.get(k, 0.0)) for k in FEATURES] for f, _ in rows])
    y = np.array([1.0 if ok else 0.0 for _, ok in rows])
    sw = np.array(sample_weights if sample_weights is not None else [1.0] * len(rows), dtype=float)
    sw = sw / sw.mean()
    w = np.zeros(len(keys))
    reg = np.full(len(keys), l2)
    reg[0] = 0.0
    n = len(rows)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))
        w -= lr * ((x.T @ (sw * (p - y))) + reg * w) / n
    return {k: round(float(v), 4) for k, v in zip(keys, w, strict=True)}
