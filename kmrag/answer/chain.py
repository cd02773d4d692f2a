"""Reading a compositional question hop by hop: "Where did the director of film X die?" is read as
"Who is the director of film X?" → (the answer, from the span about X that answers it best) → "Where did
<that person> die?" → the final answer, from the span about that person that answers it best. Each hop's
span is cited, so the answer rests on both units, and the hops are shown in the answer's basis.

The sub-question comes from the question's analysis (kmrag.retrieval.analysis: general English patterns of
relational phrases); which span answers a hop is decided by meaning (the cross-encoder) among the spans
that name the hop's anchor, and the value read is the one of the expected type nearest the hop's relational
words. Nothing here knows a dataset.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from kmrag.answer.kinds import name_part
from kmrag.answer.spans import Span
from kmrag.answer.support import terms
from kmrag.retrieval.analysis import BIRTH, DEATH, QuestionAnalysis, SubQuestion
from kmrag.retrieval.multihop import VALUE_OF

MAX_HOPS = 3
MISLABELLED = frozenset({"ORG", "WORK", "PLACE"})  # kinds of name a hop also reads as any name
# reads the answer of one question from spans in order: (answer, span, how) or None
Read = Callable[[str, str, Sequence[str], Sequence[Span]], "tuple[str, Span, dict[str, Any]] | None"]
# orders spans by how well they answer a question, best first, with each one's score
Rank = Callable[[str, Sequence[Span]], "list[tuple[Span, float]]"]
Analyse = Callable[[str], QuestionAnalysis]


def about(name: str, spans: Sequence[Span]) -> list[Span]:
    """The spans that name ``name`` (every word of it) in their text or their unit's title."""
    words = terms(name).words
    return [s for s in spans if words and words <= terms(f"{s.title} {s.display}").words and not _only_sequel(name, s)]


def _only_sequel(name: str, span: Span) -> bool:
    """Does the span name ``name`` only as part of a sequel's title ("Tomb Raider III" for "Tomb Raider")?"""
    named = [(pattern, text, m) for pattern, text in ((_SEQUEL, span.title), (_SEQUEL_IN_TEXT, span.display))
             for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I)]
    return bool(named) and all(re.match(pattern, text[m.end():], re.I) for pattern, text, m in named)


def owns(name: str, span: Span) -> bool:
    """Is the span about ``name`` itself: its unit titled by it, or the span opening with it, or with another name
    of the same thing and "or" it ("Julia (104 – after 39 BC) or Julia Antonia ... was a daughter of ...")?"""
    if titled_by(name, span):
        return True
    return bool(name) and re.match(rf"\W*(?:the\s+)?(?:[^,;()]{{1,40}}?(?:\s*\([^()]*\))?\s+or\s+)?{re.escape(name)}(?!\w)"
                                   rf"(?!{_SEQUEL})", span.display, re.I) is not None


def titled_by(name: str, span: Span) -> bool:
    """Is the span's unit titled by ``name`` (every word of it)?"""
    words = terms(name).words
    return bool(words) and words <= terms(span.title).words and not re.search(
        rf"(?<!\w){re.escape(name)}{_SEQUEL}", span.title, re.I)  # "Tomb Raider III" is another game than "Tomb Raider"


# a number after a title names another work of its series ("Tomb Raider III", "Rocky 2"; a subtitle after a colon may
# be the same work: "Borat: Cultural Learnings ...")
_SEQUEL = r"(?:[ \t]+(?-i:[IVX]{1,4})\b|[ \t]+\d{1,2}\b(?![.,]\d|\s+(?-i:[A-Z][a-z]+\s+\d)))"
# in running text a number after a name is mostly a count or a date ("Plague occurred in Venice 22 times"): there a
# roman numeral alone marks a sequel
_SEQUEL_IN_TEXT = r"[ \t]+(?-i:[IVX]{1,4})\b"


def read_chain(question: str, analysis: QuestionAnalysis, spans: Sequence[Span], read: Read, rank: Rank,
               analyse: Analyse | None) -> tuple[list[Span], str, dict[str, Any]] | None:
    """(the spans cited, hop by hop; the final answer; the basis with every hop) or None when a hop cannot
    be read from the spans."""
    sub: SubQuestion | None = analysis.sub_question
    current = question
    hops: list[dict[str, Any]] = []
    cited: list[Span] = []
    mentions = list(analysis.mentions)
    while sub is not None and len(hops) < MAX_HOPS:
        on = about(sub.anchor, spans)
        got = _hop(sub.question, sub.resolves_to, [sub.anchor], on, read, rank)
        if got is None and sub.resolves_to in MISLABELLED:  # the small recogniser calls a band a place, a film a person
            got = _titled(_hop(sub.question, "ENTITY", [sub.anchor], on, read, rank), spans)
        if got is None:
            return None
        answer, span, how = got
        typed = how.pop("others", [])[: how.pop("typed_others", 0)]  # others of the kind asked: not "Mark Day" for a place
        titles = [t for t in _titles_in(span, spans) if t.lower() not in sub.phrase.lower()]  # not the hop's anchor
        answer = described(sub, answer, [*typed, *titles], spans)
        hops.append({"question": sub.question, "answer": answer, "unit_id": span.unit_id, "quote": span.quote,
                     "meaning": how.get("meaning")})
        cited.append(span)
        current = sub.outer(current, answer)
        mentions = [answer, *(m for m in mentions if m.lower() not in sub.phrase.lower())]
        sub = analyse(current).sub_question if analyse is not None else None
        if sub is not None and sub.anchor.lower() != answer.lower() and answer.lower() not in sub.phrase.lower():
            sub = None  # the next hop must start from this hop's answer
    if not hops:
        return None
    last = str(hops[-1]["answer"])
    if re.search(rf"\bname\s+of\s+{re.escape(last)}|{re.escape(last)}'s\s+\w+\s+name\b", current, re.I) \
            and (part := name_part(current, last)):  # "the first name of <answer>"
        return cited, part, {"kind": "chain", "relation_stated": True, "hops": hops,
                             "candidates": 1, "distance": None, "quote": cited[-1].quote, "unit_id": cited[-1].unit_id}
    on = about(last, spans)
    own = [s for s in on if owns(last, s)]  # what the bridge's own spans say of it first ("Julia Antonia was a
    # daughter of Lucius Julius Caesar"), not a span naming it among others ("the son of ... and Julia Antonia")
    got = (_hop(current, analysis.answer_type, mentions, own, read, rank) if own and len(own) < len(on) else None) \
        or _hop(current, analysis.answer_type, mentions, on, read, rank)
    if got is None:
        return None
    if not got[2].get("relation_stated"):  # a span that states the relation asked about comes first
        ranked = rank(current, on)
        stated, top_empty = _stating(current, analysis.answer_type, mentions, ranked, read)
        if stated is None and top_empty and ranked[0][0] is not got[1]:
            return None  # the span best read as answering it gives no value, and one that does not say the relation
            # is no answer in its place ("the second tier of Kestrian football" for a club's nickname)
        got = stated or got
    answer, span, how = got
    if (analysis.answer_type in VALUE_OF or BIRTH.search(current) or DEATH.search(current)) and \
            not how.get("relation_stated"):
        return None  # a date or number, or a place of birth or death, read from a span that does not state the
    # relation asked about ("In the age of absolutism in Europe, Louis XIV's France ..." holds no place of death)
    hops.append({"question": current, "answer": answer, "unit_id": span.unit_id, "quote": span.quote,
                 "meaning": how.get("meaning")})
    for key in ("others", "typed_others"):  # the reader's alternatives: no part of the basis
        how.pop(key, None)
    cited = list(dict.fromkeys([*cited, span]))
    basis = {**how, "kind": "chain", "hops": hops, "owned": span in own}
    return cited, answer, basis


STATING_FROM = 5


def _stating(question: str, answer_type: str, mentions: Sequence[str], ranked: Sequence[tuple[Span, float]],
             read: Read) -> tuple[tuple[str, Span, dict[str, Any]] | None, bool]:
    """(the answer of the best ranked span, of the first STATING_FROM, read on its own, that states the question's
    relation, or None: "is nicknamed 'the Miller'" before "the second tier of Kestrian football" for the nickname
    of a club, however the cross-encoder ranks them; whether the span ranked first, read on its own, gives no
    value)."""
    top_empty = False
    for i, (span, score) in enumerate(ranked[:STATING_FROM]):
        got = read(question, answer_type, mentions, [span])
        top_empty = top_empty or (i == 0 and got is None)
        if got is not None and got[2].get("relation_stated"):
            return (got[0], got[1], {**got[2], "meaning": round(score, 4)}), top_empty
    return None, top_empty


_RELATIVISER = re.compile(r"\s(?:(?:in|on|at|for|with|by|from|to)\s+)?(?:that|which|who|whom|whose|where)\s", re.I)


def _titled(got: tuple[str, Span, dict[str, Any]] | None, spans: Sequence[Span]) -> tuple[str, Span, dict[str, Any]] | None:
    """A hop read as any name, kept only as the name of a unit of the context the span names: what the recogniser
    gave the wrong kind, or missed, is still known as a unit's title."""
    if got is None:
        return None
    titles = _titles_in(got[1], spans)
    named = [n for n in [got[0], *got[2].get("others", [])] if n in titles] or titles
    return (named[0], got[1], {**got[2], "others": named[1:]}) if named else None


def _titles_in(span: Span, spans: Sequence[Span]) -> list[str]:
    """The titles of the context's units that ``span`` names (a name the recogniser missed is still a unit's)."""
    low = span.display.lower()
    out = []
    for title in dict.fromkeys(s.title for s in spans if s.title):
        name = _QUALIFIER.sub("", title)  # "Lantern Hill (band)": "Lantern Hill"
        if name and re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", low):
            out.append(name)
    return list(dict.fromkeys(out))


_QUALIFIER = re.compile(r"\s*\([^()]*\)$")


def described(sub: SubQuestion, answer: str, others: Sequence[str], spans: Sequence[Span]) -> str:
    """Of a hop's answer and the other values its span offers (``others``), the one whose own units (titled by
    it) say the most of the description the phrase gives before its clause: "Scandal" and "Bon Jovi" are both
    bands Frankie LaRocka played drums for; "the Sayreville, New Jersey rock band that ..." is the one whose unit
    says "an American rock band from Sayreville, New Jersey". The answer stays unless another says more."""
    head = _RELATIVISER.split(sub.phrase, maxsplit=1)[0]
    return best_described(terms(head).words - terms(f"{sub.relation} {sub.anchor}").words, answer, others, spans)


def best_described(words: frozenset[str] | set[str], answer: str, others: Sequence[str], spans: Sequence[Span],
                   kind: str | None = None) -> str:
    """Of ``answer`` and ``others``, the one whose own units (titled by it) say the most of ``words``; the answer
    stays unless another says more. ``kind``: the noun asked ("series" of "Which comedy series ..."), which
    another's own units must say it is to take the answer's place (a player's unit names a league; it is none)."""
    if not words or not others:
        return answer

    def says(name: str) -> int:
        own = [s for s in spans if titled_by(name, s)]
        text = " ".join(s.display for s in own)
        if kind and name != answer and not re.search(
                rf"\b(?:is|was|are|were)\s+(?:a|an|the)\s+(?:(?!(?:and|or|of)\b)[\w'-]+\s+){{0,6}}?{re.escape(kind)}s?"
                rf"(?![\w'’-]|\s+[a-z]*[A-Z])(?!\s+[a-z]+\s+(?:of|for)\b)", text):
            return -1  # another must be said to be one: "Check It Out! is an American sketch comedy television series"
        return len(words & terms(" ".join(s.title for s in own) + " " + text).words)

    best = max([answer, *others], key=says)  # the first of equals: the answer stays on a tie
    return best if says(best) > says(answer) else answer


def _hop(question: str, answer_type: str, mentions: Sequence[str], spans: Sequence[Span], read: Read,
         rank: Rank) -> tuple[str, Span, dict[str, Any]] | None:
    ranked = rank(question, spans)
    got = read(question, answer_type, mentions, [s for s, _ in ranked])
    if got is None:
        return None
    score = dict((id(s), p) for s, p in ranked).get(id(got[1]))
    return got[0], got[1], {**got[2], "meaning": None if score is None else round(score, 4)}  # "others" for the caller


def compare_related(question: str, compared: Sequence[str], relation: str, attribute: Callable[[str], str],
                    spans: Sequence[Span], read: Read, rank: Rank, value: Callable[[str], Any],
                    answer_type: str = "DATE", stated: bool = True) -> list[dict[str, Any]] | None:
    """"Which film has the director born first, X or Y?": for each compared entity, its ``relation`` read
    from the spans about it (hop 1), then the asked attribute of that person read from the spans about them
    (hop 2, ``attribute(person)`` is the question asked there). One dict per entity: name, the related
    entity, the value, and both hops' spans; None when any hop cannot be read."""
    if len({n.lower() for n in compared}) < len(compared):
        return None  # the question's entities were not told apart ("Film" and "Film")
    out = []
    for name in compared:
        hop1 = _hop(f"Who is the {relation} of {name}?", "PERSON", [name], about(name, spans), read, rank)
        if hop1 is None:
            return None
        person, span1, _ = hop1
        asked = attribute(person)
        # not from the entity's own span that named the person: "a 2013 American film directed by Bille August"
        # (its unit: the film's) says the film is American, not its director; a span of the person's own unit
        # stays ("Henry Cornelius (1913 – 1958) ... directed I Am a Camera")
        entitys = titled_by(name, span1) and not titled_by(person, span1)
        hop2 = _hop(asked, answer_type, [person], [s for s in about(person, spans) if not (entitys and s is span1)],
                    read, rank)
        if hop2 is None or stated and not hop2[2].get("relation_stated"):
            return None
        v = value(hop2[0])
        if v is None:
            return None
        out.append({"name": name, "via": person, "value": v, "read": hop2[0], "unit_id": hop2[1].unit_id,
                    "quote": hop2[1].quote, "hop_unit_id": span1.unit_id, "hop_quote": span1.quote,
                    "spans": [span1, hop2[1]], "question": asked})
    return out
