"""Dependency patterns the SpacyExtractor adds to its verb, copula and apposition rules.

- What a common noun describes: "X is a film directed by Y" / "X, a film directed by Y": the noun "film" is no
  entity, the copula's subject (or the apposition's head) X is, so a verb attached to the noun ("directed by
  Y", "starring Z") is said of X (:func:`described`).
- What a description's modifiers say: "X is an American actor" -> (X)-[nationality]->(American), of a thing
  not a person "country of origin"; "X is a 1950 novel" -> (X)-[year]->(1950); "Y is X's son" ->
  (X)-[son]->(Y); "X's wife, Y" / "his wife, Y" -> (X)-[wife]->(Y) (:func:`noun_triples`).
- Places: "X is a village in A, B" and "born in A, B": each place of the chain (appositions and conjuncts of the
  object) is where X is ("located in", not for persons) or was born (:func:`place_chain`).
- Pronouns: "he", "she", "his", "her" stand for the last person that was a subject in the text before them (the
  first person named when none was) (:func:`antecedents`).
- A noun with a name in apposition stands for the name: "married the actress Jane Smith" (:func:`appos_name`).
- Literals: amounts, quantities, percentages and counted nouns ("about 5,900 km", "$5 million", "5,000
  employees") are relation objects only, never subjects nor free entities (:func:`literal_spans`); "X is 5,900
  km long" -> (X)-[long]->(5,900 km) (:func:`measure_triples`).
- No vague date: a DATE without a digit and without a month, weekday or era word ("daily", "weekly", "annual",
  "today") is no entity (:func:`vague_date`).

The canonical predicate each surface predicate lands on is :mod:`kmrag.nlp.predicates`'s business.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

SUBJ = {"nsubj", "nsubjpass"}
PLACES = {"GPE", "LOC"}
LITERAL = {"QUANTITY", "MONEY", "PERCENT", "CARDINAL"}
PRONOUNS = {"he", "she", "him", "his", "her"}
_DATE_WORDS = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
    r"september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|century|"
    r"centuries|millennium|decade|era|age|ages|bc|bce|ad|ce|dynasty|reign|period|spring|summer|autumn|winter|"
    r"fall|christmas|easter|"  # a duration in words is an amount ("within seven days"), not a frequency
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|"
    r"hundred|thousand|million|dozen|half)\b", re.I)
_YEAR = re.compile(r"^\d{3,4}$")
# nouns for a person (an occupation, a title, a relative): "X is an American actor" says X's nationality, "X is
# an American film" its country of origin
PERSON_NOUNS = frozenset("""actor actress director writer singer songwriter politician player footballer author poet
painter composer musician journalist producer screenwriter artist businessman businesswoman engineer scientist lawyer
diplomat soldier officer general king queen prince princess bishop priest teacher professor philosopher historian
architect novelist playwright comedian dancer model athlete cyclist swimmer boxer wrestler coach manager entrepreneur
physician doctor nurse economist mathematician physicist chemist biologist photographer sculptor designer editor
broadcaster presenter cinematographer rapper guitarist drummer pianist violinist conductor statesman nobleman
noblewoman aristocrat monarch emperor empress duke duchess count countess lord lady saint cardinal pope man woman
person member activist inventor explorer translator critic illustrator animator cartoonist filmmaker judge senator
minister mayor governor president ambassador sportsman sportswoman runner skater skier cricketer golfer jockey
racer driver pilot astronaut lyricist vocalist bassist saxophonist trumpeter organist tenor soprano baritone
mezzo-soprano performer entertainer personality host anchor correspondent columnist commentator blogger
youtuber theologian scholar academic researcher linguist psychologist sociologist anthropologist archaeologist
geologist astronomer botanist zoologist surgeon dentist pharmacist veterinarian farmer merchant banker
industrialist investor executive politician monk nun rabbi imam missionary preacher courtier consort regent
chancellor emir sultan khan shah pharaoh tsar czar baron baroness marquess earl viscount knight squire
""".split())
# nouns for a made or a natural thing: its subject is no person even when the entity recogniser says so
THING_NOUNS = frozenset("""film movie documentary series show programme program episode novel book poem play opera
song album single record track musical painting sculpture magazine newspaper journal game video band group company
firm label studio village town city river lake mountain island airport station school university college church
building bridge road street district county province region municipality park museum team club
""".split())
Add = Callable[[Any, str, Any, float, Any], bool]


def vague_date(name: str) -> bool:
    """A DATE that names no date: no digit, no month, weekday, era or number word ("daily", "annually", "today";
    "seven days" stays)."""
    return not any(c.isdigit() for c in name) and not _DATE_WORDS.search(name)


def literal_spans(doc: Any) -> list[tuple[Any, str]]:
    """Amounts stated in the text, with their unit: QUANTITY / MONEY / PERCENT entities with a digit, and a
    CARDINAL with a digit counting a noun ("5,000 employees", the noun included) or measuring one ("a population
    of 5,000": the unit is the noun of the predicate)."""
    out: list[tuple[Any, str]] = []
    for ent in doc.ents:
        if ent.label_ not in LITERAL or not any(c.isdigit() for c in ent.text):
            continue
        if ent.label_ != "CARDINAL":
            out.append((ent, ent.label_))
            continue
        head = ent.root.head
        if ent.root.dep_ == "nummod" and head.pos_ == "NOUN" and head.i == ent.end:
            out.append((doc[ent.start:head.i + 1], "QUANTITY"))
        elif ent.root.dep_ == "pobj" and head.text.lower() == "of" and head.head.pos_ == "NOUN":
            out.append((ent, "QUANTITY"))
    return out


def antecedents(doc: Any, spans: dict[int, Any]) -> dict[int, int]:
    """Pronoun token index -> the token of the person it stands for: the last person entity that was a
    subject before it, or the first person named when none was yet."""
    out: dict[int, int] = {}
    last: int | None = None
    first: int | None = None
    for t in doc:
        hit = spans.get(t.i)
        if hit is not None and hit[1] == "PERSON":
            first = t.i if first is None else first
            if t.dep_ in SUBJ:
                last = t.i
        elif t.lower_ in PRONOUNS and t.pos_ == "PRON" and (last if last is not None else first) is not None:
            out[t.i] = last if last is not None else first  # type: ignore[assignment]
    return out


def appos_name(tok: Any, spans: dict[int, Any]) -> Any | None:
    """The name in apposition to a common noun ("the actress Jane Smith", "his wife, Mary Jones")."""
    if tok.pos_ != "NOUN":
        return None
    return next((c for c in tok.children if c.dep_ == "appos" and c.i in spans), None)


def described(noun: Any, spans: dict[int, Any]) -> list[Any]:
    """The tokens a common noun is said of: the copula's subjects when it is a copula's attribute ("X is a
    film"), the head when it is an apposition ("X, a film"), through conjuncts ("X is a writer and director")."""
    if noun.i in spans:
        return [noun]
    if noun.dep_ in ("conj", "nmod"):  # "a writer and director", "a Romanian writer and film director"
        return described(noun.head, spans)
    if noun.dep_ == "attr" and noun.head.lemma_ in ("be", "become", "remain"):
        cop = noun.head
        # a title parsed as a clause or a phrase ("What Every Girl Should Know is", "Among Vultures is") is the
        # subject when the extractor made it an entity
        subs = [c for c in cop.children if c.dep_ in SUBJ] or [
            c for c in cop.children if c.dep_ in ("csubj", "prep") and c.i < cop.i and c.i in spans]
        return [t for s in subs for t in (s, *s.conjuncts)]
    if noun.dep_ == "appos" and noun.head.i in spans:
        return [noun.head]
    return []


def person_described(sent: Any) -> bool:
    """Whether a sentence's copula says its subject is a person ("X (1900 – 1980) was a German film director"):
    the entity recogniser often calls such a name an organisation."""
    root = sent.root
    if root.lemma_ not in ("be", "become", "remain"):
        return False
    nouns = [t for a in root.children if a.dep_ == "attr" for t in (a, *a.conjuncts, *a.children)]
    return any(t.lemma_.lower() in PERSON_NOUNS for t in nouns)


def place_chain(tok: Any, spans: dict[int, Any]) -> list[Any]:
    """The places a place is given within: "Szeged, Hungary", "X County, Y Province, Iran" (appositions and
    conjuncts of the object, and the objects of their "of"), each once, the first excluded."""
    out: list[Any] = []
    todo = [tok]
    while todo:
        t = todo.pop()
        for c in t.children:
            nxt = [c] if c.dep_ in ("appos", "conj") else [
                x for x in c.children if x.dep_ == "pobj"] if c.dep_ == "prep" and c.lower_ in ("of", "in") else []
            for n in nxt:
                if n.i != tok.i and all(n.i != x.i for x in out):
                    todo.append(n)
                    if n.ent_type_ in PLACES and n.i in spans:
                        out.append(n)
    return sorted(out, key=lambda t: t.i)


def noun_triples(noun: Any, sent: Any, add: Add, spans: dict[int, Any]) -> None:
    """What a describing noun's modifiers say of what it describes (see the module docstring)."""
    if noun.pos_ != "NOUN":
        return
    for s in described(noun, spans):
        lemma = noun.lemma_.lower()
        person = lemma in PERSON_NOUNS or (spans.get(s.i, (None, ""))[1] == "PERSON" and lemma not in THING_NOUNS)
        for m in noun.children:
            # "an English actor" (the recogniser calls "English" a language); "a Tamil film" is its language
            if m.dep_ in ("amod", "compound", "nmod") and m.i in spans and (
                    m.ent_type_ == "NORP" or (m.ent_type_ == "LANGUAGE" and person)):
                add(s, "nationality" if person else "country of origin", m, 0.8, sent)
            elif m.dep_ in ("nummod", "compound", "amod") and not person and _YEAR.match(m.text) \
                    and m.ent_type_ == "DATE":
                add(s, "year", m, 0.75, sent)
            elif m.dep_ == "poss":
                add(m, noun.lemma_, s, 0.75, sent)  # "Y is X's son": (X)-[son]->(Y)
        for o in (x for p in noun.children if p.dep_ == "prep" for x in p.children if x.dep_ == "pobj"):
            for role in (c for c in o.children if c.dep_ == "compound" and c.lemma_.lower() in PERSON_NOUNS):
                add(s, role.lemma_, o, 0.75, sent)  # "a comedy from director X": (S)-[director]->(X)
        if not person:
            for p in (c for c in noun.children if c.dep_ == "prep" and c.lower_ == "in"):
                for o in (x for x in p.children if x.dep_ == "pobj"):
                    # "a mountain in the municipality of A in B, C": A, B and C
                    for place in ([o] if o.ent_type_ in PLACES else []) + place_chain(o, spans):
                        add(s, "located in", place, 0.75, sent)
    owner = next((c for c in noun.children if c.dep_ == "poss"), None)
    name = appos_name(noun, spans)
    if owner is not None and name is not None:
        add(owner, noun.lemma_, name, 0.75, sent)  # "X's wife, Y" / "his wife, Y"


def measure_triples(verb: Any, subjects: list[Any], sent: Any, add: Add, spans: dict[int, Any]) -> None:
    """"X is 5,900 km long" / "X is 30 years old": (X)-[long]->(5,900 km)."""
    for a in (c for c in verb.children if c.dep_ == "acomp"):
        for m in (c for c in a.children if c.dep_ in ("npadvmod", "nummod", "quantmod") and c.i in spans
                  and spans[c.i][1] in LITERAL | {"DATE"}):
            for s in subjects:
                add(s, a.lemma_, m, 0.8, sent)
