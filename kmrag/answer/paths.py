"""Answers read off relation paths in the graph: "What is the capital of the state where Munich Airport is
located?" is (Munich Airport) -[located in]-> (Bavaria) <-[capital of]- (Munich), and the answer is the
path's end, each hop a statement citing the unit its edge was extracted from.

How a path is chosen (general English, nothing about a dataset):

- **Stages.** A question with a dependent sub-question (kmrag.retrieval.analysis: "the state where X is
  located") is two stages: the sub-question's relational words, then the outer question's ("the capital of
  ..."); any other question is one stage of all its relational words, read in one hop or in two hops that
  each say a different one of them. Relational words are the question's content words outside its entity
  mentions, as lemmas.
- **Hops.** Bounded reads through the graph store (both backends, kmrag.graph.paths): the first hop from
  the entities retrieval linked to the question, the second from the best first hops' ends. A hop counts
  when its predicate says a word of its stage: the same lemma, the same word inflected or derived
  ("directed" ~ "director"), words of one relation group (kmrag.answer.lexicon: "serve" ~ "operate"), or the
  converse family relation ("father" ~ "daughter of"), or is close to it in meaning (the embedder's vectors of
  the word and the predicate: "nationality" ~ "citizen of"; not for a noun of a kind of thing, "airport", which
  only a predicate naming it says). Co-mention hops never count: they say no relation.
- **End.** Not an entity the question names; of the kind asked for: a date or a number must be one, a name
  of the asked kind fits best (the small entity recogniser mislabels names, so another name fits less).
- **Choice.** The most question words said, then the best type fit, then the fewest hops. Two different
  answers tied at the top is no answer (the trace shows both).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kmrag.answer.asked import asking_verb_lemma
from kmrag.answer.extractive import LABELS, VAGUE_NOUNS, akin, headed_by
from kmrag.answer.kinds import asks_kind
from kmrag.answer.lexicon import members, same
from kmrag.answer.spans import Span
from kmrag.answer.support import STOP, stem, terms
from kmrag.errors import InvalidIdentifier
from kmrag.graph.base import GraphStore, Hop
from kmrag.graph.paths import CO_MENTION
from kmrag.nlp.chinese import HAN
from kmrag.nlp.predicates import canonical
from kmrag.retrieval.analysis import (
    CLAUSE_ASKED,
    DATE_NOUNS,
    MEASURE_NOUNS,
    NUMBER_NOUNS,
    ORG_NOUNS,
    PERSON_NOUNS,
    PLACE_NOUNS,
    WORK_NOUNS,
    QuestionAnalysis,
    noun_class,
)
from kmrag.retrieval.analysis_zh import QUESTION_WORD, relational_words, tokens
from kmrag.retrieval.multihop import MONTHS, VALUE_OF
from kmrag.schema.sanitize import relationship_type

# a relation and its converse among family words: "X is the daughter of Y" says who X's father or mother is
CONVERSE = [({"father", "mother", "parent"}, {"son", "daughter", "child", "children"}),
            ({"husband", "wife", "spouse"}, {"husband", "wife", "spouse", "marry", "married"})]
# nouns naming the kind of a thing ("the city", "which film", "the date"), not a relation it has; a relational noun
# of a question ("father", "director", "birth") is one some hop must say
KIND_NOUNS = DATE_NOUNS | PLACE_NOUNS | ORG_NOUNS | WORK_NOUNS | NUMBER_NOUNS | {"person", "people", "man", "woman", "thing"}
QUESTION_WORDS = {"who", "whom", "whose", "what", "which", "when", "where", "why", "how", "name"}
VALUE_TYPES = {"DATE", "NUMBER", "QUANTITY", "MONEY", "TIME"}
NAME_LABELS = LABELS["ENTITY"]
FIRST_HOPS = 500   # first hops read from the question's entities
BEAM = 8           # first-hop ends the second hop leaves from
FANOUT = 100       # hops read per entity
# a question word and a predicate closer in meaning than this (cosine of the embedder's vectors) say the same
# relation: "spouse" ~ "married to" 0.82, "nationality" ~ "citizen of" 0.51, "father" ~ "child of" 0.54; apart:
# "birth" ~ "died in" 0.34, "director" ~ "located in" 0.32 (all-MiniLM-L6-v2; chosen on 25 pairs of our own)
MEANING = 0.45


@dataclass(frozen=True)
class Stage:
    """What one part of the question asks: its relational lemmas and the kind of entity it ends at."""

    words: tuple[str, ...]
    expects: str
    needed: tuple[str, ...] = ()  # the words some hop must say: relational nouns ("father", "birth")
    framed: tuple[str, ...] = ()  # nouns of a kind a name frames ("what Fayette County airport"): a relation asked

    def beyond_kind(self, said: Sequence[str]) -> bool:
        """A path says more than the kind of the answer when the question does: "In what countries did X have
        stores?" is not read by a hop "country of origin", which says "country" and nothing of "stores"; a kind
        a name frames ("airport" of "what Fayette County airport") is a relation said."""
        kinds = KIND_NOUNS - set(self.framed)
        return all(w in kinds for w in self.words) or any(w not in kinds for w in said)


@dataclass
class PathAnswer:
    answer: str
    end_id: str
    hops: list[Hop]
    said: list[tuple[str, ...]]  # the question words each hop's predicate says
    fit: float                   # how well the end is the kind asked for (0..1)
    expects: str = "ENTITY"
    spans: list[Span] = field(default_factory=list)  # one cited sentence per hop, once read

    @property
    def rank_key(self) -> tuple[float, float, int]:
        return (-len(self.words), -self.fit, len(self.hops))

    @property
    def words(self) -> set[str]:
        return {w for ws in self.said for w in ws}

    def describe(self) -> dict[str, Any]:
        return {"answer": self.answer, "said": [list(w) for w in self.said], "fit": self.fit,
                "hops": [{"subject": h.subject_name, "predicate": h.predicate, "object": h.object_name,
                          "unit_ids": h.unit_ids} for h in self.hops]}


class PathReader:
    def __init__(self, graph: GraphStore, nlp: Any, embedder: Any = None, beam: int = BEAM, fanout: int = FANOUT,
                 first_hops: int = FIRST_HOPS, meaning: float = MEANING) -> None:
        self.graph, self.nlp, self.embedder = graph, nlp, embedder
        self.beam, self.fanout, self.first_hops, self.meaning = beam, fanout, first_hops, meaning
        self._vectors: dict[str, Any] = {}

    # -- what the question asks ---------------------------------------------------------------------

    def plans(self, question: str, analysis: QuestionAnalysis) -> list[list[Stage]]:
        """The ways the question may be read as hops, tried in order: the sub-question then the outer question
        (when the analysis found a sub-question), then all the relational words in one stage."""
        out: list[list[Stage]] = []
        sub = analysis.sub_question
        if sub is not None and sub.phrase in question:
            inner = self._stage(sub.phrase, sub.resolves_to)
            outer = self._stage(question.replace(sub.phrase, " ", 1), analysis.answer_type)
            if inner.words and outer.words:
                out.append([inner, outer])
        whole = self._stage(question, analysis.answer_type)
        if whole.words:
            out.append([whole])
        return out

    def _stage(self, text: str, expects: str) -> Stage:
        if HAN.search(text):  # Chinese: its relational words from LAC (kmrag.retrieval.analysis_zh)
            return Stage(tuple(relational_words(text)), expects, _owned_chinese(text))
        doc = self.nlp(text)  # one parse for the relational words and the framed kinds
        lemmas = self._lemmas(doc)
        # the relational nouns, and for a date or a number the verb the question word hangs on (values are
        # everywhere): "When did the founder of X die?" is not answered by a hop "X founded in 1923"
        verb = asking_verb_lemma(self.nlp, text) if expects in VALUE_OF else None
        needed = [w for w, relational in lemmas if (relational and w not in KIND_NOUNS) or w == verb]
        return Stage(tuple(w for w, _ in lemmas), expects, tuple(needed), _framed(doc))

    def _lemmas(self, doc: Any) -> list[tuple[str, bool]]:
        """The relational words of a question as (lemma, whether it is a relational noun): no names (proper
        nouns, capitalised words after the first), numbers, stop words, question words, prepositions or
        auxiliaries. A relational noun has an owner ("X's father", "the director of X") or is what an "of"
        names ("the date of birth")."""
        out: dict[str, bool] = {}
        for tok in doc:
            low = tok.lower_
            if (tok.is_punct or tok.is_space or tok.like_num or any(c.isdigit() for c in low) or low in STOP
                    or low in QUESTION_WORDS or tok.pos_ in {"PROPN", "ADP", "DET", "AUX", "PART", "PRON"}
                    or (tok.i > 0 and tok.text[:1].isupper()) or _before_name(tok)):
                continue
            owned = any(c.dep_ == "poss" or (c.dep_ == "prep" and c.lower_ == "of") for c in tok.children)
            of_what = tok.dep_ == "pobj" and tok.head.lower_ == "of" and tok.head.head.pos_ == "NOUN"
            out[tok.lemma_.lower()] = out.get(tok.lemma_.lower(), False) or (tok.pos_ == "NOUN" and (owned or of_what))
        return list(out.items())

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - a reader lives as long as its answerer
    def predicate_words(self, predicate: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.lemma_.lower() for t in self.nlp(predicate)
                                   if not t.is_punct and t.lower_ not in STOP and t.pos_ not in {"ADP", "DET"}))

    def says(self, hop: Hop, words: Sequence[str], taken: Sequence[str] = ()) -> tuple[str, ...]:
        """The question words (of ``words``, not already ``taken``) that the hop's predicate says."""
        if hop.type == CO_MENTION:
            return ()
        if HAN.search(hop.predicate) or any(HAN.search(w) for w in words):
            return tuple(w for w in words if w not in taken and _says_chinese(w, hop))
        pred = self.predicate_words(hop.predicate)
        return tuple(w for w in words if w not in taken and (any(_same_word(w, p) for p in pred)
                                                             or w not in KIND_NOUNS and self._close(w, hop.predicate)))

    def _close(self, word: str, predicate: str) -> bool:
        """Whether the word and the predicate are close in meaning (the embedder's vectors; False without one)."""
        if self.embedder is None:
            return False
        self._embed([word, predicate])
        return float(self._vectors[word] @ self._vectors[predicate]) >= self.meaning

    def _embed(self, texts: Sequence[str]) -> None:
        """The vectors of the texts not seen yet, in one call (kept for the reader's life, up to a bound)."""
        missing = list(dict.fromkeys(t for t in texts if t not in self._vectors))
        if missing and self.embedder is not None:
            if len(self._vectors) > 50_000:
                self._vectors.clear()
            self._vectors.update(zip(missing, self.embedder.embed(missing), strict=True))

    # -- reading the graph --------------------------------------------------------------------------

    def read(self, tenant: str, question: str, analysis: QuestionAnalysis,
             seeds: Sequence[str]) -> tuple[list[PathAnswer], dict[str, Any]]:
        """The candidate answers, best first, and the trace of how they were found."""
        plans = self.plans(question, analysis)
        trace: dict[str, Any] = {"step": "paths", "entities": len(seeds)}
        if not plans or not seeds or analysis.answer_type in {"YES_NO", *CLAUSE_ASKED} or analysis.kind == "comparison" or \
                asks_kind(question, analysis.mentions):  # "What profession do A and B share?": a description
            trace["decision"] = "not a question a relation path answers" if plans and seeds else \
                "no relational words or no linked entity"
            return [], trace
        first = [p.hops[0] for p in self.graph.relation_paths(tenant, list(seeds), max_hops=1,
                                                               limit=self.first_hops, fanout=self.fanout)]
        self._embed([w for stages in plans for st in stages for w in st.words] + [h.predicate for h in first])
        found: list[PathAnswer] = []
        for stages in plans:
            found = self._search(tenant, stages, first, set(seeds))
            trace["stages"] = [{"words": list(s.words), "needed": list(s.needed), "expects": s.expects} for s in stages]
            if found:
                break
        trace["candidates"] = [f.describe() for f in found[:5]]
        return found, trace

    def _search(self, tenant: str, stages: list[Stage], first: list[Hop], seeds: set[str]) -> list[PathAnswer]:
        """Paths of one hop per stage (one stage: one hop, or two hops saying different words of it)."""
        found: list[PathAnswer] = []
        two_stage = len(stages) == 2
        head, last = stages[0], stages[-1]
        starts: dict[str, tuple[Hop, tuple[str, ...]]] = {}
        for hop in first:
            end = hop.object_id if hop.subject_id in seeds else hop.subject_id
            said = () if end in seeds else self.says(hop, head.words)
            if not said:
                continue
            if not two_stage or set(head.needed) <= set(said):
                starts.setdefault(end, (hop, said))
            if not two_stage and set(head.needed) <= set(said) and head.beyond_kind(said):
                found.append(self._answer([hop], [said], end, head.expects))
        ends = sorted(starts, key=lambda e: -len(starts[e][1]))[: self.beam]  # the ends of the hops saying most
        second = self.graph.relation_paths(tenant, ends, max_hops=1, limit=self.first_hops, fanout=self.fanout) \
            if ends else []
        self._embed([p.hops[0].predicate for p in second])
        for p in second:
            hop, mid = p.hops[0], p.start_id
            end = hop.object_id if hop.subject_id == mid else hop.subject_id
            first_hop, said1 = starts[mid]
            if end in seeds or end in (first_hop.subject_id, first_hop.object_id):
                continue
            said2 = self.says(hop, last.words, () if two_stage else said1)
            needed = set(last.needed) if two_stage else set(last.needed) - set(said1)
            if said2 and needed <= set(said2) and (head.beyond_kind(said1) and last.beyond_kind(said2) if two_stage
                                                   else last.beyond_kind(said1 + said2)):
                found.append(self._answer([first_hop, hop], [said1, said2], end, last.expects))
        labels = {e.id: e.type for e in self.graph.get_entities(tenant, sorted({f.end_id for f in found}))}
        for f in found:
            f.fit = type_fit(f.answer, labels.get(f.end_id, "THING"), f.expects)
        found = [f for f in found if f.fit > 0]
        found.sort(key=lambda f: (f.rank_key, f.answer.lower()))
        return found

    def aliases(self, tenant: str, candidate: PathAnswer) -> dict[str, list[str]]:
        """The other names of the entities along the path, by ID (what a cited sentence may call them)."""
        ids = sorted({x for h in candidate.hops for x in (h.subject_id, h.object_id)})
        return {e.id: [e.name, *e.aliases] for e in self.graph.get_entities(tenant, ids)}

    def _answer(self, hops: list[Hop], said: list[tuple[str, ...]], end: str, expects: str) -> PathAnswer:
        last = hops[-1]
        name = last.object_name if last.object_id == end else last.subject_name
        return PathAnswer(answer=name, end_id=end, hops=hops, said=said, fit=0.0, expects=expects)


_A_DATE = re.compile(rf"\b{MONTHS}\b")


def _before_name(tok: Any) -> bool:
    """A noun of a kind of thing right before a name describes it, it asks no relation: "king" of "the English
    king Harold Godwinson", "film" of "the film Titanic" (but "king" of "the king of Wessex" is one, and so is a
    noun of no kind a relative clause describes: "the nickname Babe Ruth was given", "the role Tom Hanks played")."""
    nxt = tok.nbor() if tok.i + 1 < len(tok.doc) else None
    return tok.pos_ == "NOUN" and nxt is not None and nxt.pos_ == "PROPN" and nxt.text[:1].isupper() and \
        noun_class(tok.lemma_.lower()) is not None


def type_fit(name: str, label: str, expects: str) -> float:
    """1: the end is the kind asked for; 0.5: a name where a name of another kind is asked (the recogniser
    mislabels places and organisations), or a name of unknown kind; 0: a value where a name is asked, not a
    value where one is, a person where something else is asked or something else where a person is."""
    if expects in VALUE_TYPES:
        if expects != "DATE" and (label == "DATE" or _A_DATE.search(name)):
            return 0.0  # "September 21, 1961" holds numbers and is no distance
        pattern = VALUE_OF.get(expects)
        is_value = label in LABELS.get(expects, set()) or bool(pattern is not None and pattern.search(name))
        return 1.0 if is_value else 0.0
    if label in {"DATE", "CARDINAL", "QUANTITY", "MONEY", "PERCENT", "TIME", "ORDINAL"} or re.fullmatch(r"[\d\s,.]+", name):
        return 0.0
    words = name.split()
    if len(words) == 1 and (noun_class(name.lower()) or noun_class(name.lower().rstrip("s"))):
        return 0.0  # "Year" (of "Player of the Year"), "Palace": a kind of thing, not a name
    if expects == "PERSON" and label != "PERSON" and len(words) == 1:
        return 0.0  # "Music" (of "The Music of Jerry Goldsmith") for "who": a person the recogniser missed has two names
    if expects in LABELS and label in LABELS[expects]:
        return 1.0
    if len(words) > 1 and noun_class(words[-1].lower()) == expects:
        return 1.0  # the name says its kind: "Indira Gandhi International Airport" is a place, whatever its label
    if (expects == "PERSON") != (label == "PERSON") and expects in LABELS and label in NAME_LABELS:
        return 0.0  # a person where a place, a work or an organisation is asked, or the other way round
    return 0.5 if label in NAME_LABELS or label in {"THING", "CONCEPT", "NORP"} else 0.0


def _framed(doc: Any) -> tuple[str, ...]:
    """The kind nouns a name frames: "Kentucky airport" (a proper noun compound to it), "Fayette County,
    Kentucky airport" (in apposition to one)."""
    out = []
    for tok in doc:
        lemma = tok.lemma_.lower()
        if lemma in KIND_NOUNS and tok.pos_ == "NOUN" and (
                any(c.pos_ == "PROPN" and c.dep_ in {"compound", "nmod", "amod", "poss"} for c in tok.children)
                or (tok.dep_ == "appos" and tok.head.pos_ == "PROPN")):
            out.append(lemma)
    return tuple(dict.fromkeys(out))


def _owned_chinese(text: str) -> tuple[str, ...]:
    """The nouns some hop must say in a Chinese question: those of what 的 owns, up to the question word
    ("迭代检索的平均检索次数是多少" needs 次数, not only 平均), without the owner's own words. A verb in the
    owner after its subject makes 的 a relative clause ("张伟创立的公司"): nothing is needed."""
    toks = tokens(text)
    at = [i for i, t in enumerate(toks) if t.word == "的"]
    if not at:
        return ()
    owner, owned = toks[:at[-1]], toks[at[-1] + 1:]
    if _clause(owner):
        return ()
    ask = next((i for i, t in enumerate(owned) if QUESTION_WORD.fullmatch(t.word.strip())), len(owned))
    mine = set(relational_words("".join(t.word for t in owner)))
    nouns = {t.word.strip() for t in owned[:ask] if t.tag in {"n", "nz", "vn", "an"}}
    return tuple(w for w in relational_words("".join(t.word for t in owned[:ask])) if w in nouns and w not in mine)


def _clause(owner: Sequence[Any]) -> bool:
    """A subject then its verb ("张伟创立", "北岭软件收购"): 的 after it opens a relative clause."""
    subject = False
    for t in owner:
        if t.tag in {"n", "nz", "PER", "ORG", "LOC", "nr", "ns", "nt"}:
            subject = True
        elif t.tag in {"v", "vn"} and subject:
            return True
    return False


def _says_chinese(word: str, hop: Hop) -> bool:
    """Does a hop's predicate say a Chinese question word: the word is in it ("首席" in 首席技术官), it (without
    a final 于 / 在 / 了) is in the word ("出生" of 出生于 in 出生), or both are forms of one canonical relation
    ("创办" and the edge type FOUNDED of 创立, kmrag/nlp/data/predicates.json)."""
    pred = hop.predicate.strip()
    stem = pred.rstrip("于在了")
    if word in pred or (len(stem) >= 2 and stem in word):
        return True
    canon = canonical(word) or canonical(word + "于")
    if canon is None:
        return False
    try:
        return relationship_type(canon.predicate) == hop.type
    except InvalidIdentifier:
        return False


def _same_word(question_word: str, predicate_word: str) -> bool:
    if question_word == predicate_word or akin(question_word, frozenset({predicate_word})):
        return True
    if same(question_word, predicate_word) or any(akin(predicate_word, frozenset({m})) for m in members(question_word)):
        return True  # one relation group, or a word made from one of its words ("country" ~ "nationality")
    return any((question_word in a and predicate_word in b) or (question_word in b and predicate_word in a)
               for a, b in CONVERSE)


def best(found: Sequence[PathAnswer]) -> tuple[PathAnswer | None, str]:
    """The answer of the best path, or None with why: two different answers tied at the top are no answer."""
    if not found:
        return None, "no path from the question's entities says its relations"
    top = found[0]
    rivals = sorted({f.answer for f in found if f.rank_key == top.rank_key and f.answer.lower() != top.answer.lower()})
    if rivals:
        return None, f"paths tie between {top.answer!r} and {', '.join(repr(r) for r in rivals[:3])}"
    return top, "the path says " + " then ".join(repr(", ".join(w)) for w in top.said)


def cite(candidate: PathAnswer, spans: Sequence[Span], names: Mapping[str, Sequence[str]] | None = None) -> bool:
    """Each hop's sentence: a span of one of the hop's units naming both its ends, the one sharing most words
    with its predicate. ``names``: every name of an entity by ID (its aliases: the unit may say "Sidney Lanfield"
    of the entity named "Sidney Landfield"). False (and nothing cited) when some hop has no such sentence."""
    names = names or {}
    by_unit: dict[str, list[Span]] = {}
    for s in spans:
        by_unit.setdefault(s.unit_id, []).append(s)
    out: list[Span] = []
    for hop in candidate.hops:
        pool = [s for u in hop.unit_ids for s in by_unit.get(u, [])]
        subject = [hop.subject_name, *names.get(hop.subject_id, ())]
        object_ = [hop.object_name, *names.get(hop.object_id, ())]
        both = [s for s in pool if any(_names(n, s) for n in subject) and any(_names(n, s) for n in object_)]
        if not both:
            return False
        pred = terms(hop.predicate).words
        out.append(max(both, key=lambda s: (len(pred & terms(s.display).words), -s.start)))
    candidate.spans = out
    return True


def _names(name: str, span: Span) -> bool:
    t = terms(name)
    have = terms(f"{span.title} {span.display}")
    return bool(t.words | t.numbers) and t.words <= have.words and t.numbers <= have.numbers


def basis(candidate: PathAnswer, rivals: int = 1, meaning: float | None = None) -> dict[str, Any]:
    """How the answer was read: every hop with the sentence and unit it rests on; ``meaning``: how well the
    last hop's sentence answers the question, by the reader's cross-encoder."""
    return {"kind": "path", "said": [list(w) for w in candidate.said], "relation_stated": True, "candidates": rivals, "meaning": meaning,
            "hops": [{"subject": h.subject_name, "predicate": h.predicate, "type": h.type, "object": h.object_name,
                      "unit_id": s.unit_id, "quote": s.quote} for h, s in zip(candidate.hops, candidate.spans,
                                                                            strict=True)]}


def last_question(question: str, analysis: QuestionAnalysis, candidate: PathAnswer) -> str:
    """The question the last hop answers: for two hops and a sub-question, the outer question with the first
    hop's end filled in ("What is the capital of Bavaria?"); else the question."""
    sub = analysis.sub_question
    if len(candidate.hops) < 2 or sub is None or sub.phrase not in question:
        return question
    one, two = candidate.hops[0], candidate.hops[1]
    mid_id = next(iter({one.subject_id, one.object_id} & {two.subject_id, two.object_id}), one.object_id)
    mid = one.subject_name if one.subject_id == mid_id else one.object_name
    return sub.outer(question, mid)


def text(candidate: PathAnswer) -> str:
    """The statements: each hop's sentence with its unit's ID, in path order (a sentence saying two hops once)."""
    return " ".join(f"{s.display} [{s.unit_id}]" for s in dict.fromkeys(candidate.spans))


# the kinds a recogniser's label or a gazetteer tells (type_fit), not a name's description
_LABELLED_KINDS = PERSON_NOUNS | PLACE_NOUNS | DATE_NOUNS | NUMBER_NOUNS | MEASURE_NOUNS | VAGUE_NOUNS


def of_kind(answer: str, noun: str | None, spans: Sequence[Span]) -> bool:
    """An answer to "which magazine / railway / award" is a name said to be one: its last word is the noun
    ("East Lancashire Railway"), or a sentence puts the noun just before it ("the magazine India Today") or a few
    words after it in its clause ("India Today is an Indian weekly news magazine"), the name standing whole
    ("India" is not the start of "India Today"). Kinds a label tells (a person, a place, a date) and questions
    with no such noun pass."""
    if not noun or noun in _LABELLED_KINDS or not answer.strip():
        return True
    if headed_by(answer, noun):
        return True
    kind = stem(noun.lower())
    name = re.compile(rf"(?<![\w-]){re.escape(answer)}(?![\w-])(?-i:(?!\s+[A-Z0-9]))", re.I)
    for s in spans:
        for m in name.finditer(s.display):
            before = [stem(w.lower()) for w in re.findall(r"[\w'-]+", s.display[:m.start()])][-3:]
            clause = re.split(r"[,;:.()]|\s(?:and|but|while|whereas)\s", s.display[m.end():])[0]
            after = [stem(w.lower()) for w in re.findall(r"[\w'-]+", clause)][:12]
            if kind in before or kind in after:
                return True
    return False
