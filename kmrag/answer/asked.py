"""The part of a question that asks, apart from the parts that only say which thing it is about.

"Corn Ranch is a spaceport where test flights are carried out by a company headquartered in what state?"
asks "headquartered in what state"; the rest leads to the company. "What is represented on the cover art of
the studio album that includes the song X?" asks "represented on the cover art of the studio album"; "that
includes the song X" only says which album. The answer is read where the asking part is stated: the
company's own sentence ("with its headquarters in Kent, Washington"), not the sentence that led to it.

From spaCy's parse: climb from the question word through its heads to the first verb, then take that verb's
words, leaving out the clauses that describe one of its words (relative and adverbial clauses, participle
modifiers, clausal complements). The words are stems, as ``kmrag.answer.support.terms`` makes them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from kmrag.answer.lexicon import LIGHT
from kmrag.answer.support import STOP, stem, terms
from kmrag.nlp.extract import MONTH_NAMES
from kmrag.nlp.names import UPPER

# "what Hawaii county", "which Fayette County, Kentucky airport": the capitalised words between the asking word and
# the noun asked for describe the answer; they name no thing the question asks about
ASKED_NAME = re.compile(rf"(?:(?<=\b[Ww]hat\s)|(?<=\b[Ww]hich\s))(?:[{UPPER}][\w'’.&-]*,?\s+)+(?=[a-z])")
_ASKED_NAME_NOUN = re.compile(ASKED_NAME.pattern + r"[a-z][\w-]*")


def described_answer(value: str, question: str) -> bool:
    """Is ``value`` a name of the noun a described asked phrase asks for ("Hawaii County" for "in what Hawaii
    county"): the question holds its words, yet does not name it? Not the noun alone nor the phrase ("Hawaii
    county"), not a name the question says elsewhere ("Lake County ... which Illinois county?"), nor a thing of
    another kind ("Lyric Street Records" is no "Lyric Street Records-affiliated band")."""
    m = _ASKED_NAME_NOUN.search(question)
    words = value.split()
    if m is None or len(words) < 2 or not words[-1][:1].isupper() or \
            words[-1].lower().rstrip("s") != m.group(0).split()[-1].lower().rstrip("s"):
        return False
    return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", _ASKED_NAME_NOUN.sub(" ", question), re.I) is None

# a question that asks for a day ("on what date", "the date of", "which day"): a month or a year alone is no answer
_DAY_ASKED = re.compile(r"\b(?:what|which)\s+(?:date|day)\b(?!\s+of\s+the\s+(?:week|month|year)\b)|"
                        r"\bdate\s+of\b|\bwhat\s+is\s+the\s+date\b", re.I)
_MONTH = MONTH_NAMES + r"\b\.?"
_A_DAY = re.compile(rf"\b(?:[12]?\d|3[01])(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|\b{_MONTH}\s+(?:[12]?\d|3[01])"
                    r"(?:st|nd|rd|th)?\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|"
                    r"\b(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?\b|\b(?:today|tomorrow|yesterday)\b", re.I)


def day_asked(question: str) -> bool:
    """Whether ``question`` asks for a day ("On what date is the workshop?", "the date of his death"), not a month
    or a year ("which day of the week" asks a weekday, which names a day too)."""
    return _DAY_ASKED.search(question) is not None


def names_a_day(value: str) -> bool:
    """Whether a date names a day: "17 May", "May 17th", "2025-05-17", "17/05/2025", "Saturday"; not "May",
    "spring 2025" or "1926"."""
    return _A_DAY.search(value) is not None


WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
WH_WORDS = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "how"})
# the clauses that describe a word rather than ask: "the album [that includes X]", "a company [headquartered
# in ...]" (when the asking part is elsewhere), "the vocalist [who collaborated with Y]"
DESCRIBING = frozenset({"relcl", "acl", "advcl"})


def asked_words(nlp: Any, question: str) -> frozenset[str]:
    """The stems of the words of ``question`` that ask (see the module); empty when it has no question word
    or no verb above it."""
    return asking(nlp, question)[0]


@functools.lru_cache(maxsize=1024)  # one parse per question: the reader, its hops and the path decision ask it again
def asking(nlp: Any, question: str) -> tuple[frozenset[str], str | None]:
    """(the asked words, as ``asked_words``; the noun the question word determines, lower-case lemma: "state"
    of "in what state", "capital" of "which State capital", None for "who", "when" ...)."""
    found = _wh_and_verb(_parse(nlp, question))
    if found is None:
        return frozenset(), None
    wh, verb, noun = found
    keep = [t for t in _asking(verb) if t.i != wh.i]
    return terms(" ".join(t.text for t in sorted(keep, key=lambda t: t.i))).words, noun


# verbs that say no relation of their own: "What is ...", "How many children did X have?", "How long does the
# office keep items?" (the light verbs of kmrag.answer.lexicon, and a few more)
LIGHT_VERBS = LIGHT | {"be", "come", "call", "know", "consider", "include", "use", "see", "start", "begin"}


def asking_verb(nlp: Any, question: str) -> str | None:
    """The stem of the verb the question word hangs on when it says a relation of its own ("die" of "When did the
    founder of X die?", "chair" of "Who chairs the board's audit committee?"); None for a copula or a light verb
    ("What is ...", "How many children did X have?") or no question word. A date or a number is answered by
    the sentence that says this verb: "X was founded in 1923 by Y" says when X was founded, not when Y died."""
    verb = _content_verb(nlp, question)
    words = terms(verb[0]).words if verb else frozenset()
    return next(iter(words)) if len(words) == 1 else None


def asking_verb_lemma(nlp: Any, question: str) -> str | None:
    """The lemma of :func:`asking_verb`'s verb ("die", "found", "locate")."""
    verb = _content_verb(nlp, question)
    return verb[1] if verb else None


@functools.lru_cache(maxsize=1024)
def _content_verb(nlp: Any, question: str) -> tuple[str, str] | None:
    """(text, lemma) of the verb the question word hangs on, when it is no copula or light verb."""
    found = _wh_and_verb(_parse(nlp, question))
    if found is None:
        return None
    verb = found[1]
    if any(c.dep_ == "nsubj" and c.lower_ == "it" for c in verb.children):  # "how much does it cost to park":
        done = next((c for c in verb.children if c.dep_ in {"xcomp", "advcl"}), None)  # the parking costs; "to
        if done is not None and not any(c.dep_ == "dobj" for c in done.children):  # build Line T1": the line
            verb = done
    # a verb the tagger took for a noun: one of "to do" ("how to build") or with its auxiliary ("who did X replace")
    misread = verb.pos_ == "NOUN" and (verb.dep_ in {"xcomp", "advcl"} or
                                       verb.dep_ == "ROOT" and any(c.dep_ == "aux" for c in verb.children))
    if verb.pos_ not in {"VERB", "NOUN"} or verb.pos_ == "NOUN" and not misread or \
            verb.lemma_.lower() in LIGHT_VERBS or verb.i == found[0].i:
        return None
    return verb.text, verb.lemma_.lower()


@functools.lru_cache(maxsize=1024)
def _parse(nlp: Any, question: str) -> Any:
    """One parse of a question for :func:`asking`, :func:`asking_verb` and :func:`copular_ask` (read, never changed)."""
    return nlp(question)


def _wh_and_verb(doc: Any) -> tuple[Any, Any, str | None] | None:
    """(the question word, the verb it hangs on, the noun it determines) of a parsed question, or None."""
    wh = next((t for t in doc if (t.tag_ in WH_TAGS or t.lower_ in WH_WORDS) and not _relative(t)), None)
    if wh is None:
        return None
    head = wh.head
    while head.dep_ == "compound" and head.head.i != head.i and head.head.i > head.i:  # "which rugby league team"
        head = head.head
    noun = head.lemma_.lower() if wh.dep_ == "det" and head.pos_ in {"NOUN", "PROPN"} else None
    j = wh.i + 1
    while j + 1 < len(doc) and (doc[j].dep_ == "compound" or (noun is None and wh.lower_ in {"which", "what"}
                                                              and doc[j].pos_ in {"NUM", "ADJ"})):
        j += 1  # "which State capital": the capital; "at which 2016 film festival" (misparsed): the festival
    if noun is None and j < len(doc) and doc[j].pos_ == "NOUN":  # "In which state ..." with "which" misparsed
        noun = doc[j].lemma_.lower()
    verb = wh
    while not _verb(verb) and verb.head.i != verb.i:  # up to the first verb, else the root
        verb = verb.head
    while verb.dep_ in {"aux", "auxpass"} and verb.head.i != verb.i:  # "When was X founded": the verb "was" helps
        verb = verb.head
    return wh, verb, noun


def _relative(tok: Any) -> bool:
    """A wh-word that opens a relative clause ("a spaceport where ...", "the airline that ..."), not the
    question's own."""
    return tok.i > 0 and tok.head.dep_ in DESCRIBING


def _verb(tok: Any) -> bool:
    """A verb, or a participle the tagger calls an adjective ("a company headquartered in ...")."""
    return tok.pos_ in {"VERB", "AUX"} or tok.tag_ in {"VBN", "VBD", "VBG", "VBZ", "VBP", "VB"}


def _asking(tok: Any, top: bool = True) -> list[Any]:
    """``tok`` and its words but its describing clauses; under a copula at the top an adverbial clause is the
    verb the parser split off ("In which state was X born?": "born" under "was")."""
    out = [tok]
    for child in tok.children:
        if child.dep_ not in DESCRIBING or (top and tok.pos_ == "AUX" and child.dep_ == "advcl"):
            out += _asking(child, top=False)
    return out


@functools.lru_cache(maxsize=1024)
def copular_ask(nlp: Any, question: str, who: bool = False) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """"What is the first step of X?" asks what is said to be "the first step": (the noun's lemma, the lemmas of
    its modifiers, the content words of what it is "of"), or None when the question is no "what / which is the
    N" question (``who``: nor "who is the N", "Who is the chief financial officer?")."""
    doc = _parse(nlp, question)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.lemma_ != "be":
        return None
    kids = [c for c in root.children if c.dep_ in {"nsubj", "attr"}]
    wh = [c for c in kids if c.lower_ in ({"what", "which", "who"} if who else {"what", "which"})]
    noun = [c for c in kids if c.pos_ == "NOUN" and any(d.lower_ == "the" for d in c.children)]
    if len(wh) != 1 or len(noun) != 1:
        return None
    mods = frozenset(c.lemma_.lower() for c in noun[0].children if c.dep_ in {"amod", "compound", "nummod"})
    return noun[0].lemma_.lower(), mods, frozenset(_of_words(noun[0]))


# "the network's founding chief executive", "a former chairman": a holder of the role before the one asked for
_PAST_MODIFIERS = ("founding", "former", "first", "previous", "past", "late", "original", "outgoing", "erstwhile",
                   "one-time", "onetime", "ex")
_NOW = re.compile(r"^\s*who\s+(?:is|are)\b|^\s*who's\b|\b(?:currently|now|today|at present)\b", re.I)


@functools.lru_cache(maxsize=1024)  # asked of every span a "who is the N" question reads
def _past_role(nlp: Any, question: str) -> re.Pattern[str] | None:
    """The pattern of the role "Who is the N?" asks for, held before ("founding chief executive"), or None."""
    asked = copular_ask(nlp, question, who=True) if _NOW.search(question) else None
    if asked is None:
        return None
    noun, mods, _of = asked
    pasts = [m for m in _PAST_MODIFIERS if m not in mods]
    return re.compile(rf"\b(?:{'|'.join(pasts)})[\s-]+(?:[\w-]+\s+){{0,2}}?{re.escape(noun)}s?\b", re.I)


def past_holders(nlp: Any, question: str, text: str) -> list[tuple[int, int]]:
    """The (start, end) of the clauses of ``text`` that name a past holder of the role "Who is the N?" asks for
    now ("The network's founding chief executive, in 1994, was Robert Haddon"): a modifier of time before the
    role's noun that the question does not give it ("Who was the first chief executive?" asks for that one)."""
    role = _past_role(nlp, question)
    if role is None:
        return []
    out = []
    for m in role.finditer(text):
        start = max(text.rfind(";", 0, m.start()), text.rfind(". ", 0, m.start())) + 1
        ends = [i for i in (text.find(";", m.end()), text.find(". ", m.end())) if i >= 0]
        out.append((start, min(ends) if ends else len(text)))
    return out


# "was once / formerly the first step": what it no longer is
_NO_LONGER = frozenset({"once", "formerly", "previously", "originally", "initially", "never", "no", "longer"})


def _of_words(noun: Any) -> set[str]:
    """The content words of what a noun is "of": "the first step [of the ingestion pipeline]"."""
    return {w.lemma_.lower() for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
            for w in c.subtree if w.pos_ in {"NOUN", "PROPN", "ADJ"}}


def said_to_be(nlp: Any, asked: tuple[str, frozenset[str], frozenset[str]], text: str) -> list[tuple[str, int]]:
    """See :func:`_said_to_be`; the reader asks it of a span twice (to rank the span, then for its candidates)."""
    return list(_said_to_be(nlp, asked, text))


@functools.lru_cache(maxsize=4096)  # one parse per span and question
def _said_to_be(nlp: Any, asked: tuple[str, frozenset[str], frozenset[str]], text: str) -> tuple[tuple[str, int], ...]:
    """(phrase, offset) of what ``text`` says the asked noun is: "Query decomposition is the first step" and
    "The first step is query decomposition" both say "query decomposition" is the first step. The noun must
    carry every modifier the question gives it; a pronoun says nothing; a negation or "was once" says what it
    is not; a noun "of" something must be of what the question's noun is of."""
    noun, mods, of = asked
    out = []
    doc = nlp(text)
    for t in doc:
        if t.lemma_ != "be" or any(c.dep_ == "neg" or c.lower_ in _NO_LONGER for c in t.children):
            continue
        subj = next((c for c in t.children if c.dep_ == "nsubj"), None)
        attr = next((c for c in t.children if c.dep_ == "attr"), None)
        if subj is None or attr is None:
            continue
        for said, other in ((attr, subj), (subj, attr)):
            have = {c.lemma_.lower() for c in said.children if c.dep_ in {"amod", "compound", "nummod"}}
            whose = _of_words(said)
            if said.lemma_.lower() == noun and mods <= have and other.pos_ in {"NOUN", "PROPN"} \
                    and not (whose and not of <= whose):
                left = [w for w in other.subtree if w.i <= other.i and w.dep_ not in {"det", "poss", "predet"}]
                if left and all(w.i == left[0].i + k for k, w in enumerate(left)):
                    out.append((doc[left[0].i: other.i + 1].text, doc[left[0].i].idx))
    return tuple(out)


# a question word inside the sentence, after a word and its preposition: "a video game developed by which
# company", "a finalist for what award", "scheduled for release in what month"
_PREPOSITIONS = ("by", "for", "from", "in", "of", "on", "at", "to", "with", "as", "into", "under", "until", "since",
                 "after", "before", "during", "about", "than", "between", "among", "near", "within")
_IN_SITU = re.compile(r"(?<![\w'-])([A-Za-z][\w'-]*)((?:\s+(?:" + "|".join(_PREPOSITIONS) + r"))+)\s+"
                      r"(?:which|what|whom)\b(?!\s+(?:the|a|an|his|her|its|their|this|that|these|those|he|she|it|"
                      r"they|we|i|you)\b)", re.I)  # not "spoken from which the settlement ... derives its name"
_LIFE = re.compile(r"born|died|dead|buried", re.I)
_FRAME_GAP = 24  # characters between a frame and the value it introduces: "finalist for [the 2011 ]Pulitzer Prize"


@functools.lru_cache(maxsize=1024)  # asked per span of a question: read once
def frame(question: str) -> tuple[str, tuple[str, ...]] | None:
    """(the word, its prepositions) a question word inside the question follows: "a video game developed by
    which company" -> ("developed", ("by",)); None for a question that opens with its question word or puts
    only function words before it ("In which state", "born in what year" has one: "born", ("in",))."""
    for m in _IN_SITU.finditer(question):
        word = m.group(1)
        if m.start() == 0 or word.lower() in STOP or word.lower() in _PREPOSITIONS or _LIFE.fullmatch(word):
            continue  # (a birth or a death is said by a lifespan too, of anyone: "born in" frames nothing)
        return word, tuple(m.group(2).lower().split())
    return None


def framed_at(question: str, text: str, mentions: Sequence[str] = ()) -> list[int]:
    """The offsets in ``text`` just after each place that says the question's frame (see :func:`frame`): the
    word (by its stem) then its prepositions, at most one word between ("scheduled for release in" says
    "release in"); a value starting within a few characters after one is what the question asks. A frame
    whose word is part of one of the question's ``mentions`` is none ("linked Edinburgh to what city")."""
    got = frame(question)
    if got is None or any(got[0].lower() in terms(m).words | {w.lower() for w in m.split()} for m in mentions):
        return []
    return [m.end() for m in _frame_pattern(*got).finditer(text)]


@functools.lru_cache(maxsize=1024)
def _frame_pattern(word: str, preps: tuple[str, ...]) -> re.Pattern[str]:
    root, joined = re.escape(stem(word.lower())), r"\s+".join(map(re.escape, preps))
    return re.compile(rf"(?<![\w-]){root}[\w'-]*\s+(?:[\w'-]+\s+)?{joined}\s+", re.I)


def after_frame(at: int, ends: list[int]) -> bool:
    """A value at ``at`` introduced by a frame ending at one of ``ends`` (see :func:`framed_at`)."""
    return any(0 <= at - e <= _FRAME_GAP for e in ends)


def undergoer(nlp: Any, question: str) -> tuple[str, frozenset[str], bool] | None:
    """(the verb's lemma, the words of its undergoer, whether that is a common noun) of a passive question:
    "When was the club founded?" → ("found", {"club"}, True); None for any other question."""
    found = _wh_and_verb(_parse(nlp, question))
    if found is None or found[1].pos_ != "VERB":
        return None
    passive = found[1].tag_ in {"VBN", "VBD"} and any(c.dep_ in {"aux", "auxpass"} and c.lemma_.lower() == "be"
                                                      for c in found[1].children)  # the parser's "nsubj" too
    subject = next((c for c in found[1].children if c.tag_ not in WH_TAGS and
                    (c.dep_ == "nsubjpass" or passive and c.dep_ == "nsubj")), None)
    if subject is None:
        return None
    words = terms(" ".join(t.text for t in subject.subtree)).words
    return (found[1].lemma_.lower(), words, subject.pos_ == "NOUN") if words else None


def done_to_another(nlp: Any, asked: tuple[str, frozenset[str], bool], text: str) -> bool:
    """Does ``text`` say the asked verb only of an undergoer of its own that is not the question's ("Margaret
    Hale founded the canoe and kayak section" for "When was the club founded?"), and nowhere of the question's
    ("The club was founded in 1921")? Only a common noun beside a common noun asked about, a name beside a name:
    "the airline was founded" may be Lufthansa's own sentence, "Riverside RC was founded" the club's."""
    verb, words, common = asked
    said = [t for t in _parse(nlp, text) if t.pos_ == "VERB" and t.lemma_.lower() == verb]
    if not said:
        return False
    for t in said:
        objects = [c for c in t.children if c.dep_ in {"dobj", "nsubjpass"} or
                   c.dep_ == "nsubj" and any(a.dep_ == "auxpass" for a in t.children)]
        if not objects or any(c.tag_ in {"PRP", "WDT", "WP"} or terms(" ".join(x.text for x in c.subtree)).words & words
                              or c.pos_ != ("NOUN" if common else "PROPN") for c in objects):
            return False  # said of the undergoer, of a pronoun, with no object, or maybe of it by another name
    return True
