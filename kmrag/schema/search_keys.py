"""Search keys for text without spaces between words (Chinese, Japanese kana, Korean): the runs of such
characters are segmented into words with jieba (its bundled dictionary, offline), so PostgreSQL's full
text indexes words rather than whole sentences. Only the search keys change; stored text stays as written.
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


def search_key(text: str) -> str | None:
    """The text full text should index instead of ``text``, or None when it has nothing to segment."""
    return segment(text) if has_cjk(text) else None
