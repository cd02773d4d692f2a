"""Questions answered by a description, not by a name: "what kind of magazine is X", "What is X?".

The answer is a noun phrase the cited sentence states of the thing asked about:

- "Woman's Era and Naj are what kind of magazines?": the phrase headed by the asked noun ("an Indian
  fortnightly women interest magazine" -> "Indian fortnightly women interest magazine"); the bare noun
  alone says nothing the question does not;
- "What is Opry Mills?": what the sentence says the thing is, the noun phrase after its "is" ("Opry Mills is
  a super-regional shopping mall ..." -> "super-regional shopping mall");
- "What profession does X have?": the nouns the sentence says the person is ("X is a British journalist and
  novelist" -> "journalist", "novelist").

Read from spaCy's parse of the span; no dataset's wording is assumed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

KIND_OF = re.compile(r"\b(?:what|which)\s+(?:kind|type|sort|form|category|class)s?\s+of\s+([a-z][\w-]*)", re.I)
# "What is Opry Mills in Nashville, Tennessee?": the whole question asks what a named thing is
DEFINE = re.compile(r"^\s*what\s+(?:is|was|are|were)\s+((?-i:[A-Z])[^?]*?)\s*\??\s*$", re.I)
# "What profession does X have?", "best known for what occupation?", "What other jobs did X have?"
PROFESSION = re.compile(r"\b(?:what|which)\s+(?:other\s+)?(?:professions?|occupations?|jobs?|careers?|vocations?)\b|"
                        r"\b(?:professions?|occupations?)\s+(?:of|did|does|do|is|was)\b", re.I)
# two people asked about together: a description said of both
SHARED = re.compile(r"\b(?:both|in\s+common|share[sd]?|same)\b", re.I)
_NAME_AFFIXES = frozenset("dr mr mrs ms sir dame lord lady jr sr ii iii iv prof".split())
NAME_PART = re.compile(r"\b(first|given|last|family)\s+name\b|\b(surname)\b", re.I)
_PRONOUNS = frozenset("it he she they this these its".split())
# kinds that no description is headed by: "what kind of place" is asked of a mall, a museum, a park
BROAD_KINDS = frozenset("place thing entity organisation organization institution establishment structure building "
                        "site facility venue business".split())
_DROP = frozenset({"det", "poss", "predet", "case"})


def asks_kind(question: str, mentions: Sequence[str]) -> bool:
    """Is ``question`` asking for a description (a kind of thing, what a named thing is, a person's
    profession)?"""
    if KIND_OF.search(question) or PROFESSION.search(question):
        return True
    m = DEFINE.match(question)
    return bool(m and any(m.group(1).startswith(x) and _PLACED.fullmatch(m.group(1)[len(x):]) for x in mentions if x))


# what may follow the name in "What is X?": where it is ("Opry Mills in Nashville, Tennessee"), not more of a
# question ("What was Connell's best known work also published as?")
_PLACED = re.compile(r"(?:\s*(?:,|\(|\bin\b|\bof\b|\bfrom\b|\bat\b|\bon\b)(?![^?]*\b\w+ed\b)[^?]*)?")


def name_part(question: str, name: str) -> str | None:
    """"What is the first name of X?" asks a word of a name: the first ("first", "given") or the last
    ("last", "family" name, "surname") word of ``name``; None when the question asks no part or the name has
    one word."""
    part = NAME_PART.search(question)
    words = [w for w in name.split() if w.strip(".,").lower() not in _NAME_AFFIXES]
    if part is None or len(words) < 2 or any(c.isdigit() for c in name):
        return None
    return (words[0] if (part.group(1) or "").lower() in {"first", "given"} else words[-1]).strip('",')


def kind_candidates(nlp: Any, question: str, mentions: Sequence[str], text: str,
                    title: str = "") -> list[tuple[str, int]]:
    """(phrase, offset) of the descriptions in ``text`` that answer ``question`` (see the module)."""
    doc = nlp(text)
    m = KIND_OF.search(question)
    broad = m is not None and _singular(m.group(1).lower()) in BROAD_KINDS and \
        re.match(r"\s+(?:is|was|are|were)\b", question[m.end():]) is not None  # "what kind of place is X"
    if m and not broad:
        head = _singular(m.group(1).lower())
        return [c for chunk in doc.noun_chunks if _singular(chunk.root.lemma_.lower()) == head
                and (c := _phrase(chunk)) and len(c[0].split()) > 1]
    d = DEFINE.match(question)
    if PROFESSION.search(question):
        return _professions(doc, mentions, title)
    if m:  # "What kind of place is Opry Mills?": a mall; what the thing is said to be, whatever its noun (not
        # "What kind of building did X design?": another question)
        about = [x for x in mentions if x and x in question[m.end():]]
    elif d:
        about = [x for x in mentions if x and d.group(1).startswith(x)]
    else:
        return []
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


def _professions(doc: Any, mentions: Sequence[str], title: str) -> list[tuple[str, int]]:
    """What a person asked about is said to be: the head nouns of "X is / was a British journalist and
    novelist" (each noun joined by "and"), without the describing words ("British")."""
    out = []
    for tok in doc:
        if tok.lemma_ != "be" or tok.dep_ not in {"ROOT", "relcl", "conj"}:
            continue
        subj = [c for c in tok.children if c.dep_ in {"nsubj", "nsubjpass"}]
        if not subj or not _names(subj[0], mentions, title):
            continue
        for attr in (c for c in tok.children if c.dep_ == "attr" and c.pos_ == "NOUN"):
            out += [(n.text, n.idx) for n in (attr, *attr.conjuncts) if n.pos_ == "NOUN"]
    return out


def _names(subj: Any, about: Sequence[str], title: str) -> bool:
    """The subject is the thing asked about: its name, or a pronoun standing for the unit's title."""
    words = " ".join(t.text for t in subj.subtree)
    if subj.lower_ in _PRONOUNS:
        return any(x.lower() in title.lower() or title.lower() in x.lower() for x in about if title)
    if any(x.lower() in words.lower() or words.lower() in x.lower() for x in about):
        return True
    # "Eric Clifford Ambler OBE" in the unit titled "Eric Ambler": every word of a name asked about
    said = set(words.lower().split())
    return any((name := set(x.lower().split())) and len(name) > 1 and name <= said for x in about)


def _phrase(chunk: Any) -> tuple[str, int] | None:
    toks = [t for t in chunk if t.dep_ not in _DROP and t.tag_ not in {"DT", "PRP$", "POS"}]
    if not toks:
        return None
    start, end = toks[0].idx, toks[-1].idx + len(toks[-1].text)
    return chunk.doc.text[start:end], start


def _singular(word: str) -> str:
    return re.sub(r"(?<=[^s])s$", "", word)
