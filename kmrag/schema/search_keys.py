"""Search keys: the text PostgreSQL's full text indexes instead of a unit's own, where that reads it badly.

- Text without spaces between words (Chinese, Japanese kana, Korean): the runs of such characters are
  segmented into words with jieba (its bundled dictionary, offline), so full text indexes words rather than
  whole sentences.
- Identifiers of code (``top_k``, ``max_attempts``): PostgreSQL's parser splits them at the underscore into
  common words ("top", "k"); the key adds each one joined ("topk"), which is also how it reads ``topK``, so a
  question naming ``top_k`` finds the code that sets it, whichever way it is written; and a question that
  names it in words ("the quality threshold", "the minimum score") can look for the words joined
  (:func:`described_keys`).

Only the search keys change; stored text stays as written.
"""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def has_cjk(text: str) -> bool:
    return bool(CJK.search(text or ""))


@functools.lru_cache(maxsize=1)
def _jieba() -> Any:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return jieba


def segment(text: str) -> str:
    """``text`` with each CJK run replaced by its words (fine-grained and compound: jieba's search mode),
    separated by spaces; the rest unchanged."""
    jieba = _jieba()
    return CJK.sub(lambda m: " " + " ".join(w for w in jieba.cut_for_search(m.group(0)) if w.strip()) + " ", text)


IDENTIFIER = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?![\w-])")


CAMEL = re.compile(r"(?<![\w-])[a-z]+(?:[A-Z][a-z0-9]*)+(?![\w-])")  # "topK", "maxAttempts"


def identifier_key(identifier: str) -> str:
    """One spelling of an identifier for every style: "top_k", "topK" and "TOP_K" are "topk"."""
    return identifier.replace("_", "").lower()


def identifiers(text: str) -> list[str]:
    """The identifiers of code ``text`` names (snake_case or camelCase), in order."""
    found = [(m.start(), m.group(0)) for pattern in (IDENTIFIER, CAMEL) for m in pattern.finditer(text or "")]
    return [name for _, name in sorted(found)]


def joined_identifiers(text: str) -> list[str]:
    """Each snake_case identifier of ``text`` written as one word, lower case ("top_k" -> "topk")."""
    return sorted({m.group(0).replace("_", "").lower() for m in IDENTIFIER.finditer(text or "")})


def search_key(text: str) -> str | None:
    """The text full text should index instead of ``text``, or None when it has nothing to segment or join."""
    key = segment(text) if has_cjk(text) else None
    joined = joined_identifiers(text)
    if joined:
        key = f"{key if key is not None else text} {' '.join(joined)}"
    return key


# how code shortens the words people write out ("minimum score" is ``min_score``)
CODE_SHORT = {"minimum": "min", "maximum": "max", "number": "num", "configuration": "config", "parameter": "param",
              "parameters": "params", "temperature": "temp", "directory": "dir", "maximal": "max", "minimal": "min"}


def described_keys(text: str, stop: frozenset[str] | set[str] = frozenset(), window: int = 4) -> list[str]:
    """The keys an identifier named in words would have: two or three of ``text``'s words other than ``stop``
    words, in order, within ``window`` such words ("the maximum number of attempts": "maximumattempts",
    "maxattempts", "maxnumberattempts", ...), each also as code shortens it ("minimum": "min")."""
    import itertools

    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text or "")]
    words = [w for w in words if w not in stop]
    out: dict[str, None] = {}
    for i in range(len(words)):
        near = words[i + 1:i + window]
        for n in (1, 2):
            for rest in itertools.combinations(near, n):
                for forms in itertools.product(*({w, CODE_SHORT.get(w, w)} for w in (words[i], *rest))):
                    out["".join(forms)] = None
    return list(out)
