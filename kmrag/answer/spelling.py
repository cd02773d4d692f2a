"""Slips in the words a question is asked with: "wich Canadian band", "locatd in the same contry".

Only the words the question analysis reads are mended (wh-words, auxiliaries and the other stop words, the
nouns that say what is asked, the relation verbs of kmrag.answer.lexicon and their forms; a four-letter slip
only to a question word, by a dropped or swapped letter), and only a word in lower case that the English vocabulary the spaCy model ships does
not hold: names the tenant knows (recased before), capitalised words, words in quotes, contractions typed
without their apostrophe and any real word ("cast" is not "case") are left as typed. A slip is mended when exactly one such word is one
edit away, a dropped letter first ("contry" is "country"; "wich" is "which" rather than "with"), then two
letters swapped, one changed, one added. Nothing is mended when two words are as near. The model's vocabulary
holds typos it read ("frist", "flim"): such a word is mended only when WordNet is installed, lists no such word
(nor its stem), and two swapped letters make it one of the few words questions ask and compare by.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

from kmrag.answer.lexicon import GROUPS
from kmrag.answer.support import STOP
from kmrag.nlp.asked_nouns import ASKED_NOUNS
from kmrag.nlp.extract import SPACY_MODEL

MIN_LEN = 4  # "teh" and other three-letter slips are too near too many words
# a four-letter slip is mended only to a question word: "wich" is "which", "oder" is no slip of "older"
_SHORT_TARGETS = frozenset("""which what when where whose who whom were does have with from into""".split())
# contractions typed without their apostrophe are words, not slips ("arent" is no "parent")
_CONTRACTIONS = frozenset("""dont doesnt didnt isnt arent wasnt werent wont cant couldnt wouldnt shouldnt hasnt
havent hadnt hows whats whos wheres whens thats theres""".split())
_WORD = re.compile(r"(?<![\w'’-])[A-Za-z]+(?![\w'’-])")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_MORE = """born died wrote written made won led built began begun founded older oldest younger youngest earlier
earliest later latest first last same both nationality citizenship birth death located situated married
released published directed produced starred composed designed created formed located graduated studied
longer shorter taller larger bigger smaller which whose where when what who whom country""".split()


@functools.lru_cache(maxsize=1)
def _targets() -> frozenset[str]:
    words = set(STOP) | set(_MORE)
    words |= {n for n in ASKED_NOUNS if n.isalpha()} | {n + "s" for n in ASKED_NOUNS if n.isalpha()}
    for group in GROUPS:
        for w in group.split():
            if w.isalpha():
                words |= _forms(w)
    return frozenset(w for w in words if len(w) >= 2)


def _forms(verb: str) -> set[str]:
    out = {verb, verb + "s", verb + "ing"}
    if verb.endswith("e"):
        out |= {verb + "d", verb[:-1] + "ing"}
    elif verb.endswith("y"):
        out |= {verb[:-1] + "ied", verb[:-1] + "ies", verb + "ed"}
    else:
        out |= {verb + "ed", verb + "es"}
    return out


def _edit(typed: str, word: str) -> int | None:
    """How the slip was made, when ``typed`` is one edit from ``word``: 0 a letter dropped, 1 two swapped, 2 one
    changed, 3 one added; None when it is not one edit."""
    if len(word) == len(typed) + 1:
        return 0 if any(word[:i] + word[i + 1:] == typed for i in range(len(word))) else None
    if len(word) == len(typed):
        diff = [i for i in range(len(word)) if word[i] != typed[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1 and typed[diff[0]] == word[diff[1]] and typed[diff[1]] == word[diff[0]]:
            return 1
        return 2 if len(diff) == 1 else None
    if len(word) == len(typed) - 1:
        return 3 if any(typed[:i] + typed[i + 1:] == word for i in range(len(typed))) else None
    return None


@functools.lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """The English vocabulary the spaCy model ships (its ``vocab/strings.json``), read once: fixed, unlike the
    pipeline's string store, which grows with every text it reads (a corpus's own slip would become a word)."""
    spec = importlib.util.find_spec(SPACY_MODEL)
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in roots:
        for path in sorted(Path(root).glob("*/vocab/strings.json")) + sorted(Path(root).glob("vocab/strings.json")):
            words = json.loads(path.read_text(encoding="utf-8"))
            return frozenset(w for w in words if isinstance(w, str))
    return frozenset()


def mend(word: str, known: Any = None) -> str | None:
    """The word a slip ``word`` stands for, or None (a known word, or no single nearest one). ``known``: the
    words of the language (the spaCy model's English vocabulary when not given)."""
    known = english_words() if known is None else known
    low = word.lower()
    if len(low) < MIN_LEN or low in _targets() or low in _CONTRACTIONS or not known:
        return None
    if low in known:  # a word the model has read, typos among them ("frist", "flim"): mended only to the one
        return _swapped(low)  # question word two swapped letters make it, when WordNet lists no such word
    if _irregular(low):  # an irregular form the model had not read ("genera" is no slip of "general"; a rare
        return None  # lemma, "brith", may still be one of "birth")
    targets = _SHORT_TARGETS if len(low) == MIN_LEN else _targets()
    by: dict[int, set[str]] = {}
    for t in targets:
        if abs(len(t) - len(low)) <= 1 and (how := _edit(low, t)) is not None and (how <= 1 or len(low) > MIN_LEN):
            by.setdefault(how, set()).add(t)
    for how in sorted(by):
        if len(by[how]) == 1:
            return next(iter(by[how]))
        return None  # two words as near: which was meant is not plain
    return None


def _listed(low: str) -> bool | None:
    from kmrag.nlp.wordnet import listed

    return listed(low)


def _irregular(low: str) -> bool:
    from kmrag.nlp.wordnet import irregular

    return bool(irregular(low))


def _swapped(low: str) -> str | None:
    near = {t for t in _SWAP_TARGETS if len(t) == len(low) and _edit(low, t) == 1} if len(low) >= 4 else set()
    if len(near) != 1 or _listed(low) is not False:  # ("alter" is a word; without WordNet nothing is known of it;
        return None  # WordNet is read only for a word one swap from a target, not for every word of every question)
    return next(iter(near))


# the words a swap is mended to: what a question asks and compares by
_SWAP_TARGETS = frozenset("""first film films movie born died older younger earlier later director directors
birth death country married released which where when what whose""".split())


def mend_slips(question: str, known: Any = None) -> str:
    """``question`` with its slips mended (see the module); ``known`` holds the words of the language (the spaCy
    model's English vocabulary when not given). Only words in lower case: "Wien" may be a name."""
    quoted = [(m.start(), m.end()) for m in _QUOTED.finditer(question)]
    out, last = [], 0
    for m in _WORD.finditer(question):
        w = m.group(0)
        if not w.islower() or any(a <= m.start() < b for a, b in quoted):
            continue
        fixed = mend(w, known)
        if fixed is None:
            continue
        out.append(question[last:m.start()])
        out.append(fixed)
        last = m.end()
    return "".join(out) + question[last:] if out else question
