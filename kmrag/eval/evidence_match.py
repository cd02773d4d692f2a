"""Does a retrieved unit hold a gold evidence sentence that the data set wrote in its own words?

GraphRAG-Bench's evidence is a paraphrase ("Bones contain lime.") of a passage of the novel, never a
quote, so equality or containment of the text (:func:`kmrag.eval.metrics.quote_matches`) finds nothing.
Here the evidence is reduced to its **content words** (lower-cased, accents folded, stop words dropped,
a light suffix stemmer: "contains" = "contain", "Carlo's" = "carlo"), and a text holds it when some
**window** of the text, as many content words long as ``WINDOW_FACTOR`` times the evidence's (at least
``MIN_WINDOW``), holds at least ``THRESHOLD`` of them. The window keeps a long unit from matching by
holding the words far apart; the share tolerates the paraphrase's own words ("maintained" for "had").

The threshold was chosen before any strategy was run, on questions 200-399 of each type, outside the first-100
sample (see ``scripts/novel_evidence_threshold.py`` and the README): the score of each evidence against the best 1,200-character chunk of its novel (where
it lies) against the score against a random chunk of the same novel (where it does not).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

THRESHOLD = 0.6
WINDOW_FACTOR = 3
MIN_WINDOW = 12

_WORD = re.compile(r"[a-z0-9]+")
STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here
hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off
on once only or other our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up upon very was we were what when
where which while who whom why will with would you your yours yourself yourselves s t d ll m o re ve y one also
shall may might must mr mrs miss
""".split())


def _stem(word: str) -> str:
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""), ("ly", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + keep
            break
    return word[:-1] if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls" else word


def content_words(text: str) -> list[str]:
    """The text's content words in order: accents folded, lower-cased, stop words and the possessive
    "'s" dropped, each stemmed (``_stem``)."""
    folded = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode("ascii").lower()
    folded = re.sub(r"['’]s\b", "", folded)
    return [_stem(w) for w in _WORD.findall(folded) if w not in STOP_WORDS]


def coverage(evidence: str, text: str) -> float:
    """The largest share of the evidence's distinct content words that one window of ``text`` holds
    (0.0 when the evidence has no content word)."""
    return window_share(set(content_words(evidence)), content_words(text))


def window_share(wanted: set[str], words: Sequence[str]) -> float:
    """The largest share of ``wanted`` that one window of ``words`` holds (0.0 when nothing is wanted)."""
    if not wanted:
        return 0.0
    width = max(MIN_WINDOW, WINDOW_FACTOR * len(wanted))
    inside: Counter[str] = Counter()
    best = 0
    for i, w in enumerate(words):
        if w in wanted:
            inside[w] += 1
        if i >= width:
            old = words[i - width]
            if old in wanted:
                inside[old] -= 1
                if not inside[old]:
                    del inside[old]
        best = max(best, len(inside))
    return best / len(wanted)


def holds(text: str, evidence: str, threshold: float = THRESHOLD) -> bool:
    """Whether ``text`` holds the paraphrased ``evidence``: :func:`coverage` at least ``threshold``."""
    return coverage(evidence, text) >= threshold


def evidence_recall(texts: Sequence[str], evidence: Sequence[str], threshold: float = THRESHOLD) -> float | None:
    """Share of the evidence sentences that some of ``texts`` holds (None when there is no evidence)."""
    if not evidence:
        return None
    return sum(1 for e in evidence if any(holds(t, e, threshold) for t in texts)) / len(evidence)
