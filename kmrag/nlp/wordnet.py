"""Synonyms from Princeton WordNet 3.0, read from its dictionary files when they are installed (Debian's
``wordnet-base`` puts them in /usr/share/wordnet; ``KMRAG_WORDNET_DIR`` points elsewhere). Optional: without
the files :func:`same_sense` is always False and the support check keeps its own word lists.

Two words say the same thing when the most frequent sense of one is among the most frequent senses of the
other ("hire" and "engage", "buy" and "purchase"): the index files list each lemma's synsets most frequent
first, so only the offsets are read, never the glosses. ``KMRAG_WORDNET_DIR=off`` turns it off."""

from __future__ import annotations

import functools
import os
from pathlib import Path

SENSES = 3  # how many of a word's most frequent senses count
POS = frozenset({"verb", "noun", "adj", "adv"})
_PLACES = (Path("/usr/share/wordnet"), Path("/usr/share/wordnet/dict"), Path("/usr/local/share/wordnet"))


@functools.lru_cache(maxsize=1)
def directory() -> Path | None:
    """The WordNet dictionary directory (the one holding index.verb), or None when none is installed or
    ``KMRAG_WORDNET_DIR`` is "off" (cached: call ``directory.cache_clear()`` after changing it)."""
    env = os.environ.get("KMRAG_WORDNET_DIR")
    if env and env.strip().lower() in {"off", "none", "0"}:
        return None
    for place in ([Path(env)] if env else []) + list(_PLACES):
        if (place / "index.verb").is_file() and (place / "index.noun").is_file():
            return place
    return None


def available() -> bool:
    return directory() is not None


@functools.lru_cache(maxsize=8)
def _index(pos: str) -> dict[str, tuple[int, ...]]:
    """lemma -> its synset offsets, most frequent sense first (index.<pos>: "lemma pos synset_cnt p_cnt
    [ptr...] sense_cnt tagsense_cnt offset...")."""
    where = directory()
    if where is None or pos not in POS:
        return {}
    out: dict[str, tuple[int, ...]] = {}
    with open(where / f"index.{pos}", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(" "):  # the licence at the top
                continue
            parts = line.split()
            if len(parts) < 6:
                continue
            synsets, pointers = int(parts[2]), int(parts[3])
            offsets = parts[4 + pointers + 2:]
            out[parts[0]] = tuple(int(o) for o in offsets[:synsets])
    return out


def senses(lemma: str, pos: str, top: int = SENSES) -> tuple[int, ...]:
    """The synset offsets of a lemma's ``top`` most frequent senses as ``pos`` (words joined by "_")."""
    return _index(pos).get(lemma.lower().replace(" ", "_"), ())[:top]


def same_sense(a: str, b: str, pos: str, top: int = SENSES) -> bool:
    """Do ``a`` and ``b`` share a synset among the ``top`` most frequent senses of each?"""
    if not a or not b or a.lower() == b.lower():
        return bool(a) and a.lower() == b.lower()
    return bool(set(senses(a, pos, top)) & set(senses(b, pos, top)))


def first_sense_shared(a: str, b: str, pos: str, top: int = SENSES) -> bool:
    """Is the most frequent sense of one word among the ``top`` most frequent of the other's ("hire"'s first is
    "engage"'s third)? Stricter than :func:`same_sense`: "defeat" and "kill" share only lesser senses."""
    sa, sb = senses(a, pos, top), senses(b, pos, top)
    return bool(sa and sb) and (sa[0] in sb or sb[0] in sa)



_ENDINGS = ("ies", "es", "s", "ied", "ed", "d", "ing", "er", "est", "ly")


def listed(word: str) -> bool | None:
    """Is ``word`` a lemma or an irregular form WordNet lists in any part of speech, or is its stem without a common
    ending ("films", "directed")? None when WordNet is not installed. (Function words are not listed: WordNet has
    only nouns, verbs, adjectives and adverbs.)"""
    if directory() is None:
        return None
    low = word.lower()
    stems_of = {low} | {low[:-len(e)] + r for e in _ENDINGS if low.endswith(e) and len(low) > len(e) + 2
                        for r in ("", "e", "y")}
    return any(s in _index(pos) or s in _exceptions(pos) for pos in POS for s in stems_of)


@functools.lru_cache(maxsize=8)
def _exceptions(pos: str) -> frozenset[str]:
    """The irregular forms WordNet lists for ``pos`` ("genera" of "genus", "went" of "go"): <pos>.exc."""
    where = directory()
    path = where / f"{pos}.exc" if where is not None else None
    if path is None or not path.is_file():
        return frozenset()
    with open(path, encoding="utf-8", errors="replace") as f:
        return frozenset(line.split()[0] for line in f if line.strip())


def irregular(word: str) -> bool | None:
    """Is ``word`` an irregular form WordNet lists ("genera" of "genus", "went" of "go")? None when WordNet is not
    installed."""
    if directory() is None:
        return None
    return any(word.lower() in _exceptions(pos) for pos in POS)

