"""Does a quoted span support a statement? A lexical check one can defend and audit:

- every **number** in the statement must occur in the cited spans (5,900 = 5900);
- every **name** (a capitalised word not at the start of the statement) must occur in them or in the
  cited units' titles (a passage about "Lufthansa" supports "It was founded in 1953" about Lufthansa);
- and at least ``MIN_COVERAGE`` of the statement's **content words** (stemmed, stop words dropped)
  must occur in them.

- and the statement must not negate what the spans affirm, or affirm what they negate ("not", "never",
  "no longer" on one side only).

A verbatim sentence has coverage 1.0; a paraphrase keeps most content words; an invented claim misses a
number, a name or most words. This is not entailment (a wrong verb, an appended clause or a swapped
row value slip through: tests/unit/test_answer_adversarial.py lists them), so the quotes are always
shown for a person to check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MIN_COVERAGE = 0.6

STOP = frozenset("""
a an the and or but if then so of to in on at by for with from as into onto over under about after before
between through during without within than that this these those there here it its it's they them their he
him his she her we us our you your i me my is are was were be been being am do does did done has have had
having can could will would shall should may might must not no nor also very just only which who whom whose
what when where why how all any both each few more most other some such own same too s t what's
""".split())

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


