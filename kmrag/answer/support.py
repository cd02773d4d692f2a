"""Word overlap between a statement and spans: the shared word lists (STOP), stemming and number keys, and a
lexical score used to *rank* spans (which span shares most with a statement, which unit to try first when
re-citing, how a grader scores a unit). It is not the verdict on support: that is kmrag.answer.judge, which
judges each statement against the spans it cites.

The score: every number of the statement found in the spans, every name (a capitalised word) in them or in
their units' titles, the share of content words (stemmed, stop words dropped) present, and the same
polarity ("not", "never", "no longer" on both sides or neither).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kmrag.nlp.stopwords import STOP

MIN_COVERAGE = 0.6
# the answers of a yes / no question: never a span of text, only computed from every compared entity's span
YES_NO_WORDS = frozenset({"yes", "no", "是", "否"})


# a word of any script (text the check cannot read would pass unchecked); a character of a script written
# without spaces (Chinese, Japanese, Korean) counts on its own, as in character-level QA scoring
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_WORD = re.compile(rf"[{_CJK}]|[^\W\d_{_CJK}](?:[^\W{_CJK}]|['-])*|\d[\d,.]*\d|\d")


def stem(word: str) -> str:
    w = word.lower().strip("'-")
    if w.endswith("'s"):
        w = w[:-2]
    for suffix in ("ations", "ation", "ings", "ing", "edly", "ies", "ied", "es", "ed", "ly", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            return w[: -len(suffix)]
    return w


def number_key(token: str) -> str | None:
    digits = token.replace(",", "")
    if not re.fullmatch(r"\d+(\.\d+)?", digits.rstrip(".")):
        return None
    return digits.rstrip(".").rstrip("0").rstrip(".") if "." in digits.rstrip(".") else digits.rstrip(".")


@dataclass(frozen=True)
class Terms:
    words: frozenset[str]
    numbers: frozenset[str]
    names: frozenset[str]


def terms(text: str) -> Terms:
    words, numbers, names = set(), set(), set()
    for i, m in enumerate(_WORD.finditer(text)):
        tok = m.group(0)
        n = number_key(tok)
        if n is not None:
            numbers.add(n)
            continue
        low = tok.lower()
        if low in STOP:
            continue
        words.add(stem(tok))
        if i > 0 and tok[0].isupper() and len(tok) > 1:
            names.add(stem(tok))
    return Terms(frozenset(words), frozenset(numbers), frozenset(names))


def split_compounds(words: frozenset[str]) -> frozenset[str]:
    """``words`` with each hyphenated word as its parts ("full-price": full, price), so that "a full-price ticket"
    meets a table's "Full price" column; parts that are stop words are left out."""
    if not any("-" in w for w in words):
        return words
    parts = {stem(p) for w in words if "-" in w for p in w.split("-") if p and p not in STOP and not p.isdigit()}
    return frozenset({w for w in words if "-" not in w} | parts)  # "over-55s": "over" a stop word, "55" a number


NEGATION = re.compile(r"\b(?:not|no|never|nor|none|neither|nobody|nothing|without|cannot)\b|n't\b|\bno longer\b",
                      re.I)


def negated(text: str) -> bool:
    return bool(NEGATION.search(text.replace("’", "'")))


@dataclass(frozen=True)
class Support:
    coverage: float
    missing_numbers: tuple[str, ...]
    missing_names: tuple[str, ...]
    polarity_differs: bool = False  # one side says "not" / "never" / "no longer", the other does not

    @property
    def ok(self) -> bool:
        return (self.coverage >= MIN_COVERAGE and not self.missing_numbers and not self.missing_names
                and not self.polarity_differs)

    @property
    def score(self) -> float:
        return (self.coverage - 0.5 * len(self.missing_numbers) - 0.25 * len(self.missing_names)
                - 0.5 * self.polarity_differs)


def support(statement: str, evidence: Iterable[str], titles: Iterable[str] = ()) -> Support:
    """How well ``evidence`` (the cited spans) supports ``statement``."""
    st = terms(statement)
    evidence = list(evidence)
    ev = terms(" ".join(evidence))
    tt = terms(" ".join(titles))
    have_words = ev.words | tt.words
    if not st.words and not st.numbers:
        return Support(0.0, (), ())
    covered = len(st.words & have_words) + len(st.numbers & ev.numbers)
    coverage = covered / (len(st.words) + len(st.numbers))
    return Support(round(coverage, 4), tuple(sorted(st.numbers - ev.numbers)),
                   tuple(sorted(st.names - have_words)), negated(statement) != any(negated(e) for e in evidence))


