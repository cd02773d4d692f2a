"""Questions answered by a description, not by a name: "what kind of magazine is X", "What is X?".

The answer is a noun phrase the cited sentence states of the thing asked about:

- "Woman's Era and Naj are what kind of magazines?": the phrase headed by the asked noun ("an Indian
  fortnightly women interest magazine" -> "Indian fortnightly women interest magazine"); the bare noun
  alone says nothing the question does not;
- "What is Opry Mills?": what the sentence says the thing is, the noun phrase after its "is" ("Opry Mills is
  a super-regional shopping mall ..." -> "super-regional shopping mall").

Read from spaCy's parse of the span; no dataset's wording is assumed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

KIND_OF = re.compile(r"\b(?:what|which)\s+(?:kind|type|sort|form|category|class)s?\s+of\s+([a-z][\w-]*)", re.I)
# "What is Opry Mills in Nashville, Tennessee?": the whole question asks what a named thing is
DEFINE = re.compile(r"^\s*what\s+(?:is|was|are|were)\s+((?-i:[A-Z])[^?]*?)\s*\??\s*$", re.I)
_PRONOUNS = frozenset("it he she they this these its".split())
_DROP = frozenset({"det", "poss", "predet", "case"})


def asks_kind(question: str, mentions: Sequence[str]) -> bool:
    """Is ``question`` asking for a description (a kind of thing, what a named thing is)?"""
    if KIND_OF.search(question):
        return True
    m = DEFINE.match(question)
    return bool(m and any(m.group(1).startswith(x) for x in mentions if x))


def kind_candidates(nlp: Any, question: str, mentions: Sequence[str], text: str,
                    title: str = "") -> list[tuple[str, int]]:
    """(phrase, offset) of the descriptions in ``text`` that answer ``question`` (see the module)."""
    doc = nlp(text)
    m = KIND_OF.search(question)
    if m:
        head = _singular(m.group(1).lower())
        return [c for chunk in doc.noun_chunks if _singular(chunk.root.lemma_.lower()) == head
                and (c := _phrase(chunk)) and len(c[0].split()) > 1]
    d = DEFINE.match(question)
    if not d:
        return []
    about = [x for x in mentions if x and d.group(1).startswith(x)]
    out = []
    for tok in doc:
        if tok.lemma_ != "be" or tok.dep_ not in {"ROOT", "relcl", "conj"}:
            continue
        subj = [c for c in tok.children if c.dep_ == "nsubj"]
        if not subj or not _names(subj[0], about, title):
            continue
        for attr in (c for c in tok.children if c.dep_ == "attr"):
            chunk = next((ch for ch in doc.noun_chunks if ch.root == attr), None)
            if chunk is not None and (c := _phrase(chunk)):
                out.append(c)
    return out


def _names(subj: Any, about: Sequence[str], title: str) -> bool:
    """The subject is the thing asked about: its name, or a pronoun standing for the unit's title."""
    words = " ".join(t.text for t in subj.subtree)
    if subj.lower_ in _PRONOUNS:
        return any(x.lower() in title.lower() or title.lower() in x.lower() for x in about if title)
    return any(x.lower() in words.lower() or words.lower() in x.lower() for x in about)


def _phrase(chunk: Any) -> tuple[str, int] | None:
    toks = [t for t in chunk if t.dep_ not in _DROP and t.tag_ not in {"DT", "PRP$", "POS"}]
    if not toks:
        return None
    start, end = toks[0].idx, toks[-1].idx + len(toks[-1].text)
    return chunk.doc.text[start:end], start


def _singular(word: str) -> str:
    return re.sub(r"(?<=[^s])s$", "", word)
