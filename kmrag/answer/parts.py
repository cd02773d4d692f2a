"""Questions of several parts, split into questions of one part each.

"When and where was Mozart born?", "What are the accuracy and the latency of single-hop retrieval?",
"Who founded Lufthansa and when was it founded?", "单跳检索的准确率和平均耗时是多少？" ask two things. Read
as one question, the reader answers one of them and the answer looks whole. Each part is answered on its own
(``Answerer``), and the question is answered only when every part is.

A later part may name an earlier part's answer or entity by a pronoun ("when was **it** founded?"):
- a personal pronoun after a "who" part, or "it" / "they" after a "what/which <noun>" part, is that part's
  answer ("Who directed Titanic and when was **he** born?"): the part is asked once the answer is known;
- otherwise it is the earlier part's first named entity ("Who founded Lufthansa and when was **it**
  founded?" asks "when was Lufthansa founded?").

What is not split: a second "and …" that is a relative clause or a verb of the same subject ("the man who
directed X and who starred in Y", "… was started as a group and was run by …"), names with "and" in them
("Trinidad and Tobago", "Kiss and Tell"), a pronoun with no referent. Splitting is for questions plainly of
two parts; anything else is read as one question, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kmrag.answer.validate import NOT_FOUND

WH = r"(?:what|when|where|who|whom|which|how|why)"
AUX = (r"(?:is|was|are|were|does|did|do|has|have|had|can|could|will|would|should|may|might|shall)")
PREP = r"(?:in|on|at|from|for|by|to|with|of|during|since|until)"
_FIRST = re.compile(rf"^\s*(?:{PREP}\s+)?{WH}\b", re.I)
# the second part: a question word and an auxiliary ("when was it founded"), "how many/much/long/old …", or
# "what/which" and up to three words before an auxiliary ("what year was it founded")
_SECOND = re.compile(rf"^(?:{PREP}\s+)?(?:{WH}\s+{AUX}\b|how\s+(?:many|much|long|old|far|big|tall)\b|"
                     rf"(?:what|which)(?:\s+[\w'-]+){{1,3}}\s+{AUX}\b)", re.I)
_JOIN = re.compile(r"\s*,?\s+and\s+(?=\S)|\?\s+(?:and\s+)?(?=\S)", re.I)
_RELATIVE = re.compile(r"\b(?:who|whom|whose|which|that)\b", re.I)
# "When and where was X born?"
_TWO_WH = re.compile(rf"^\s*({WH})\s*(?:,\s*|\s+and\s+|\s*&\s*|,\s*and\s+)({WH})\s+({AUX}\s+.+)$", re.I)
# "What are the accuracy and the latency of X?": two attributes of one thing, in lower case (names are not split)
_TWO_ATTR = re.compile(r"^((?i:what|which))\s+((?i:is|are|was|were))\s+the\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+and\s+"
                       r"(the\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+((?:of|for|in)\s+.+)$")
# "What is RAG?", "Who was Mozart?": a question about the thing it names, which "it" / "he" then stands for
_ABOUT = re.compile(r"^(?:what|who)\s+(?:is|was|are|were)\s+(.+?)\?$", re.I)
# "X的A和B（分别）是多少？" and "A和B的X分别是多少？"
_ZH_ASKED = r"(是|为|有|在)(多少|什么|几[^\s？?]*|哪[^\s？?]*|谁)[？?]?$"
_ZH_ATTRS = re.compile(r"^(.+?)的([^的和与及，,、\s]{1,8})(?:和|与|以及|及|、)([^的和与及，,、\s]{1,8}?)(?:分别)?"
                       + _ZH_ASKED)
_ZH_ENTS = re.compile(r"^([^的和与及，,、\s]{1,12})(?:和|与|以及|及|、)([^的和与及，,、\s]{1,12})的"
                      r"([^的，,、\s]{1,8}?)分别" + _ZH_ASKED)
DEMONSTRATIVE = {"this", "these", "that", "those"}
WH_TAGS = {"WP", "WDT", "WRB", "WP$"}
PERSONAL = {"he", "she", "him", "his", "her", "hers"}
THING = {"it", "its", "they", "them", "their"}
ARTICLES = {"a", "an", "the"}
NAME_JOINS = {"of", "the", "and", "de", "du", "la", "von", "van", "&"}  # "Bank of England"
_ABOUT_PARTS = re.compile(r"\b(?:and|or|of|between|difference|same)\b")  # no attribute of its own
NOT_REFERRED = {"DATE", "NUMBER", "QUANTITY", "MONEY", "PERCENT", "TIME"}  # "it" is not a year or an amount
NOT_IT = NOT_REFERRED | {"PERSON", "REASON", "MANNER"}  # answers no "it" can stand for
TIME_NOUNS = {"time", "year", "date", "day", "month", "century", "decade", "age", "period", "season", "hour"}
# a combined value of two attributes: "A和B之差" is one question
_ZH_COMBINED = re.compile(r"(之差|之比|之和|之积|差值|比值|差距|总和|合计|之间|相比|乘积)")


@dataclass(frozen=True)
class Part:
    """One part of a question. ``pronoun``: the words of the part standing for an earlier part's answer
    (``of_part``), to be replaced by it once it is known; ``possessive``: that pronoun is "its / his / her …"."""

    question: str
    of_part: int | None = None
    pronoun: str = ""
    possessive: bool = False

    def with_answer(self, answer: str) -> str:
        """The part with the earlier answer in the pronoun's place."""
        if not self.pronoun:
            return self.question
        name = f"{answer}'s" if self.possessive else answer
        return re.sub(rf"\b{re.escape(self.pronoun)}\b", lambda _: name, self.question, count=1)


def split_parts(question: str, nlp: Any, analyse: Any) -> list[Part]:
    """The parts of a question of two or three parts, or [] for a question of one. ``nlp``: spaCy;
    ``analyse``: the question analyser (its mentions and answer type tell what a pronoun stands for)."""
    q = " ".join(question.split())
    if not q:
        return []
    zh = _zh_parts(q)
    if zh:
        return zh
    m = _TWO_WH.match(q)
    if m:
        rest = m.group(3).rstrip()
        if any(_asks(rest[j.end():], nlp) for j in _JOIN.finditer(rest)):
            return []  # "When and where was X founded, and who runs it?": not read apart
        return [Part(_ask(f"{m.group(1)} {rest}")), Part(_ask(f"{m.group(2)} {rest}"))]
    return _two_attributes(q, nlp) or _two_questions(q, nlp, analyse)


def _two_attributes(q: str, nlp: Any) -> list[Part]:
    """"What are the accuracy and the latency of X?" → the accuracy of X, the latency of X. Only two nouns
    (or "the" before the second): "the common genetic and biomarker features of X" is one thing."""
    m = _TWO_ATTR.match(q)
    if not m or any(_ABOUT_PARTS.search(p) for p in (m.group(3), m.group(5))):
        return []
    if not m.group(4):
        for attr in (m.group(3), m.group(5)):
            tags = [t.tag_ for t in nlp(f"the {attr} of it")][1:-2]
            if not tags or not all(t.startswith("NN") for t in tags):
                return []
    wh, verb = m.group(1), "is" if m.group(2).lower() in {"is", "are"} else "was"
    tail = m.group(6).rstrip()
    return [Part(_ask(f"{wh} {verb} the {m.group(3)} {tail}")), Part(_ask(f"{wh} {verb} the {m.group(5)} {tail}"))]


def _two_questions(q: str, nlp: Any, analyse: Any, depth: int = 0) -> list[Part]:
    """"Who founded Lufthansa and when was it founded?": two questions joined by "and" (or two sentences), the
    second perhaps of two again. Each part must name what it asks about, itself or through a pronoun with one
    clear referent."""
    lead = _FIRST.match(q)
    if not lead:
        return []
    for join in _JOIN.finditer(q):
        first, rest = _ask(q[: join.start()]), q[join.end():]
        second = _ask(rest)
        if not _asks(second, nlp) or len(first.split()) < 3:
            continue
        if _RELATIVE.search(q[lead.end(): join.start()]):  # "the man who directed X and who …": one question
            return []
        more = next((j for j in _JOIN.finditer(rest) if _asks(_ask(rest[j.end():]), nlp)), None)
        if more is not None:  # a third part: "… and when was it founded and where is it based?"
            if depth:
                return []
            head = _resolved(first, _ask(rest[: more.start()]), nlp, analyse)
            tail = _resolved(first, _ask(rest[more.end():]), nlp, analyse)
            if len(head) != 2 or len(tail) != 2:
                return []
            return [head[0], head[1], tail[1]]
        return _resolved(first, second, nlp, analyse)
    return []


def _resolved(first: str, second: str, nlp: Any, analyse: Any) -> list[Part]:
    """The two parts, the second's pronoun standing for the first's answer or for the one thing the first
    names; [] when a part would not say what it asks about or the pronoun could stand for two things."""
    analysis = analyse(first)
    doc = nlp(second)
    if any(t.lower_ in DEMONSTRATIVE and t.tag_ == "DT" for t in doc) or re.match(rf"(?i)which\s+{AUX}\b", second):
        return []  # "how does this affect …", "in this context", "which are unique to X?": they lean on the first
    pronouns = [t for t in doc if t.lower_ in PERSONAL | THING]
    if not pronouns:
        return [Part(first), Part(second)] if _named(analysis) and _named(analyse(second)) else []
    if len(pronouns) > 1:
        return []  # "where did he meet her?": which is which
    pronoun = pronouns[0]
    possessive = pronoun.tag_ == "PRP$" or pronoun.lower_ in {"its", "his", "their", "hers"}
    if analysis.answer_type not in NOT_REFERRED and _refers_to_answer(first, pronoun.text, nlp, analysis.answer_type):
        return [Part(first), Part(second, of_part=0, pronoun=pronoun.text, possessive=possessive)]
    person = pronoun.lower_ in PERSONAL
    about = _ABOUT.match(first)
    if about and _a_name(about.group(1)) and len(_named(analysis)) == 1 and (person == first.lower().startswith("who")) and \
            pronoun.lower_ not in {"they", "them", "their"} and _named(analyse(about.group(1) + "?")):
        # "What is RAG and how does it work?", "Who was Mozart and when did he die?": the thing asked about
        name = about.group(1)
        name = name[4:] if name.lower().startswith("the ") else name
        return [Part(first), Part(Part(second, pronoun=pronoun.text, possessive=possessive).with_answer(name))]
    if pronoun.lower_ not in {"it", "its"} and not person:
        return []  # "they" for a group: one question
    if not person and analysis.answer_type not in NOT_IT:
        return []  # "Where is X and what is the capital of it?": "it" may be the answer as well as X
    if len(_named(analysis)) != 1:
        return []  # "Who operates the Delhi to Munich flight and where is it based?": Delhi, Munich or the flight
    referent = _subject(first, nlp, possessive)
    if not referent or not any(m in referent for m in _named(analysis)):
        # "How many people work in the Port Ashwyn office and who leads it?": no "it" is the people counted
        referent = _holding(_named(analysis)[0], first, nlp) if _plural_subject(first, nlp) else None
    if not referent or person != any(e.label_ == "PERSON" and e.text == referent for e in nlp(referent).ents):
        return []  # a subject with no name, "it" for a person or "he" for a thing: one question
    return [Part(first), Part(Part(second, pronoun=pronoun.text, possessive=possessive).with_answer(referent))]


def _a_name(text: str) -> bool:
    """"RAG", "Mozart", "The Magic Flute": a name, not a description ("the capital of France")."""
    words = text.split()
    words = words[1:] if words and words[0].lower() in ARTICLES else words
    return bool(words) and all(w[:1].isupper() or w[:1].isdigit() or not w.isascii() or w.lower() in NAME_JOINS
                               for w in words) and words[0][:1].isupper()


def _named(analysis: Any) -> list[str]:
    """The named entities a part asks about (a name in capitals, or in a script without them); one inside
    another is one ("Lumbrook" of "Lumbrook office")."""
    named = [n for n in analysis.mentions if n[:1].isupper() or n[:1].isdigit() or not n.isascii()]
    return [n for n in named if not any(n != m and n in m for m in named)]


def _holding(name: str, question: str, nlp: Any) -> str | None:
    """The noun phrase of the question holding ``name`` ("Port Ashwyn office" for "Port Ashwyn"), without its
    article."""
    for chunk in nlp(question).noun_chunks:
        if name in chunk.text and chunk.root.tag_ not in WH_TAGS:
            words = chunk.text.split()
            return " ".join(words[1:]) if words[0].lower() in ARTICLES and len(words) > 1 else chunk.text
    return None


def _plural_subject(question: str, nlp: Any) -> bool:
    return any(t.dep_ in {"nsubj", "nsubjpass"} and t.tag_ == "NNS" for t in nlp(question))


def _subject(question: str, nlp: Any, possessive: bool) -> str | None:
    """What "it" stands for: the first part's subject, or its object when the subject is the question word
    ("Who founded **Lufthansa**"). For "its", the owner in "the X of **Y**" ("the latency of **model A**")."""
    doc = nlp(question)
    subjects = [t for t in doc if t.dep_ in {"nsubj", "nsubjpass", "attr"} and t.tag_ not in WH_TAGS]
    objects = [t for t in doc if t.dep_ == "dobj" and t.tag_ not in WH_TAGS]
    named_objects = [t for t in doc if t.tag_ not in WH_TAGS and any(w.pos_ == "PROPN" for w in t.subtree) and (
        t.dep_ == "dobj" or (t.dep_ == "pobj" and t.head.head.pos_ in {"VERB", "AUX"}))]
    heads = subjects or objects
    if not heads or (subjects and named_objects):  # "what did X do with Y's jug, and what was its …": X's or Y's?
        return None
    head = heads[0]
    owner = [c for p in head.children if p.dep_ == "prep" and p.lower_ == "of" for c in p.children
             if c.dep_ == "pobj"]
    if possessive and owner:
        head = owner[0]
    kept = [t for t in head.subtree if not any(a.dep_ in {"prep", "relcl", "acl"} and a.head == head
                                                   for a in [t, *t.ancestors] if a != head and a.i in range(len(doc)))]
    kept = sorted(kept, key=lambda t: t.i)
    if not kept or any(t.tag_ in WH_TAGS for t in kept):
        return None
    if kept[0].lower_ in ARTICLES and len(kept) > 1:
        kept = kept[1:]
    return "".join(t.text_with_ws for t in kept).strip()


def _asks(part: str, nlp: Any) -> bool:
    """Whether the words after "and" are a question of their own: "when was …", "how many …", "what year
    did …", or "who / what" and a verb ("who founded it?")."""
    if _SECOND.match(part):
        return True
    tags = [t.tag_ for t in nlp(" ".join(part.split()[:2]))]
    return bool(re.match(r"(?i)(?:who|what)\s", part)) and len(tags) > 1 and tags[1] in {"VBD", "VBZ", "VBP"}


def _refers_to_answer(first: str, pronoun: str, nlp: Any, answer_type: str) -> bool:
    """Whether the pronoun stands for the first part's answer: "he / she" after "who <verb> …" (not "who is
    X", which asks about X) or "which composer …", "it" after "what / which <singular noun> …" (not "what
    time …")."""
    doc = [t for t in nlp(first) if t.dep_ != "prep" or t.i > 0]
    words = [t for t in doc if not (t.i == 0 and re.fullmatch(PREP, t.lower_, re.I))]
    if len(words) < 2:
        return False
    wh, after = words[0], words[1]
    low = pronoun.lower()
    noun = wh.head if wh.dep_ == "det" and wh.lower_ in {"what", "which"} else None  # "what company", not
    if low in PERSONAL:  # "what constitutes"
        described = after.lemma_ == "be" and len(words) > 2 and words[2].lower_ in ARTICLES  # "who is the CEO of X"
        return (wh.lower_ in {"who", "whom"} and (after.lemma_ != "be" or described)) or \
            (noun is not None and answer_type == "PERSON")
    if low not in {"it", "its"}:
        return False
    return noun is not None and noun.tag_ in {"NN", "NNP"} and noun.lemma_.lower() not in TIME_NOUNS


def _zh_parts(q: str) -> list[Part]:
    """"X的A和B是多少？" (two attributes of one thing), "A和B的X分别是多少？" (one attribute of two things); not
    a value of both ("A和B之差是多少？")."""
    if _ZH_COMBINED.search(q):
        return []
    m = _ZH_ATTRS.match(q)
    if m:
        head, a, b, verb, what = m.groups()
        return [Part(f"{head}的{a}{verb}{what}？"), Part(f"{head}的{b}{verb}{what}？")]
    m = _ZH_ENTS.match(q)
    if m:
        x, y, attr, verb, what = m.groups()
        return [Part(f"{x}的{attr}{verb}{what}？"), Part(f"{y}的{attr}{verb}{what}？")]
    return []


def _ask(part: str) -> str:
    """A part as a question of its own: a capital first letter and a question mark."""
    part = part.strip().rstrip("?.,;").strip()
    return part[:1].upper() + part[1:] + "?"


def combine(question: str, parts: list[str], answers: list[Any], threshold: float) -> dict[str, Any]:
    """One answer from the answers of a question's parts (``Answer`` fields but id, tenant, generator,
    strategy). It is right only if every part is: its confidence is the product of the parts'; it is found
    only when every part is found and that product reaches ``threshold``. Otherwise it is not found, and
    what the parts found is shown as evidence."""
    product = 1.0
    for a in answers:
        product *= a.confidence
    confidence = round(product, 3)
    found = all(a.found for a in answers) and product >= threshold
    said = "; ".join(f"\"{p}\" " + (f"→ {a.direct or 'answered'} ({a.confidence:.0%})" if a.found else
                                    f"not found ({a.confidence:.0%})") for p, a in zip(parts, answers, strict=True))
    why = f"a question of {len(parts)} parts, each answered on its own, right only if every part is: {said}"
    citations, seen = [], set()
    for a in answers:
        for c in a.citations:
            if (c.unit_id, c.quote) not in seen:
                seen.add((c.unit_id, c.quote))
                citations.append(c)
    # how each part was read (null without a direct answer, as any basis)
    basis = {"kind": "parts", "parts": [{"question": p, "found": a.found, "direct": a.direct,
                                         "confidence": a.confidence, "basis": a.basis}
                                        for p, a in zip(parts, answers, strict=True)]}
    if found:
        statements = list({(s.text, tuple(s.unit_ids)): s for a in answers for s in a.statements}.values())
        directs = [a.direct for a in answers]
        text = " ".join(f"{s.text} " + " ".join(f"[{u}]" for u in s.unit_ids) for s in statements)
        direct = "; ".join(d for d in directs if d) if all(directs) else None
        return {"question": question, "text": text, "statements": statements, "citations": citations,
                "confidence": confidence, "confidence_why": why, "evidence": [],
                "basis": basis if direct else None, "direct": direct}
    if all(a.found for a in answers):
        why += f"; {confidence:.0%} is below the threshold {threshold:.0%}"
    evidence = list({(s.text, tuple(s.unit_ids)): s for a in answers for s in (a.statements or a.evidence)}.values())
    return {"question": question, "text": NOT_FOUND, "statements": [], "citations": citations,
            "confidence": confidence, "confidence_why": why, "evidence": evidence, "basis": None, "direct": None}


def retrieved(trace: list[dict[str, Any]]) -> tuple[list[str], int]:
    """The units an answer's retrieval ranked, and its rounds: its first retrieval's, or for a question of
    parts each part's first retrieval's, one after the other (a unit once)."""
    firsts: dict[Any, dict[str, Any]] = {}
    for step in trace:
        if step.get("step") == "retrieve":
            firsts.setdefault(step.get("part"), step)
    ids = list(dict.fromkeys(u for s in firsts.values() for u in s.get("unit_ids") or []))
    return ids, sum(int(s.get("rounds") or 0) for s in firsts.values())

