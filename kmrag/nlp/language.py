"""The language a piece of text is written in, by its script, without a model.

Units are tagged at ingestion (``metadata["language"]``, and ``language`` on the graph's Unit node) so that
each goes to the extractor that reads it: ``zh`` to the Chinese one (kmrag.nlp.chinese), ``en`` to spaCy's
English pipeline. The codes are ISO 639-1 where the script decides the language (``zh``, ``ja``, ``ko``);
text in Latin letters is ``en``, the only Latin-script language the pipeline has models for; anything else
(Cyrillic, Greek, Arabic...) or text without letters is ``und`` (undetermined).

Text is Chinese (Japanese, Korean) when it has at least two such characters and twice as many as Latin words:
"AI Agent开发实战：多跳检索" is Chinese; "Who wrote 红楼梦?", "Li Bai (李白)" and a code block with a few Chinese
comments are not.
"""

from __future__ import annotations

import re

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN = re.compile(f"[{HAN}]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_LATIN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")
HAN_PER_WORD = 2  # Chinese characters a Latin word weighs against


def language_of(text: str) -> str:
    """``zh``, ``ja``, ``ko``, ``en`` or ``und`` for ``text`` (see the module's docstring)."""
    han, kana, hangul = len(_HAN.findall(text)), len(_KANA.findall(text)), len(_HANGUL.findall(text))
    latin = len(_LATIN.findall(text))
    other = sum(1 for c in text if c.isalpha()) - han - kana - hangul - latin
    cjk = han + kana + hangul
    words = len(_LATIN_WORD.findall(text))
    if cjk >= 2 and cjk >= HAN_PER_WORD * words and 4 * cjk >= other:
        if kana and kana * 5 >= han:
            return "ja"
        if hangul > han:
            return "ko"
        return "zh" if han else "und"
    if latin and latin >= other:
        return "en"
    return "und"

