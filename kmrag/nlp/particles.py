"""Names with a lower-case particle, read whole: "Jorge Brum do Canto", "Nelson Pereira dos Santos", "Ludwig van
Beethoven", "Jean de la Fontaine".

spaCy's English recogniser stops a person's name at the particle ("Jorge Brum do" and nothing more; "Nelson
Pereira" and "Santos" as two people), so the entity, the question's mention and the answer read from a span all
lost the rest of the name. This pipeline component, run after the recogniser, grows a person's name over a
particle (kmrag.nlp.kin.PARTICLES but "of" and "y", at most two in a row: "de la", "van der") and the capitalised
word after it, and drops a particle the recogniser left at its end with nothing after it."""

from __future__ import annotations

from typing import Any

from kmrag.nlp.kin import PARTICLES

COMPONENT = "kmrag_name_particles"
_JOINING = PARTICLES - {"of", "y"}
# "do" joins a name only where the recogniser took it into the name itself ("Jorge Brum do" + "Canto"): after a
# name it is far more often the verb ("Can Tom Cruise do Mission Impossible again?")
_NOT_FIRST = frozenset({"la", "le"})
_NOT_NAMES = frozenset({"DATE", "TIME", "CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"})


def _grown(doc: Any, start: int, end: int) -> int:
    """The end of the name that starts at ``start`` once its particles and the words after them are taken in."""
    asks_with_do = doc[0].lower_ in {"do", "does", "did"} or any(t.lower_ in {"did", "does"} for t in doc[:start])
    took_do = end - 1 > start and doc[end - 1].lower_ == "do"  # the recogniser's own "Jorge Brum do"
    while end - 1 > start and doc[end - 1].lower_ in _JOINING and doc[end - 1].text.islower():
        end -= 1  # "Jorge Brum do": the particle is read again below, with what follows it
    while True:
        at = end
        while at < len(doc) and at - end < 2 and doc[at].text.islower() and doc[at].lower_ in _JOINING \
                and (at > end or doc[at].lower_ not in _NOT_FIRST) and (doc[at].lower_ != "do" or took_do or
                                                                        _ends_name(doc, at + 1)) \
                and not (doc[at].lower_ == "do" and asks_with_do):
            at += 1  # ("Did Mary Jones do Yoga?"; "Kamala Harris la Vice President": "la" only after "de")
        if at == end or at >= len(doc) or not (doc[at].is_alpha and doc[at].text[:1].isupper()) \
                or doc[at].ent_type_ in _NOT_NAMES:  # "What did John Smith do Tuesday?"
            return end
        end = at + 1


def _ends_name(doc: Any, at: int) -> bool:
    """Is ``doc[at]`` one capitalised word the recogniser gives no other kind, the last of the name: followed by
    punctuation, the end, a verb or "and" ("Jorge Brum do Canto was ...", "... by Jorge Brum do Canto.")? Not "do
    Mission Impossible", "do Microsoft", "do Yoga every day"."""
    if at >= len(doc) or not (doc[at].is_alpha and doc[at].text[:1].isupper()) or doc[at].ent_type_ not in {"", "PERSON"}:
        return False
    nxt = doc[at + 1] if at + 1 < len(doc) else None
    return nxt is None or nxt.is_punct or nxt.pos_ in {"VERB", "AUX", "CCONJ"}


def name_particles(doc: Any) -> Any:
    from spacy.tokens import Span
    from spacy.util import filter_spans

    ents, changed = [], False
    for e in doc.ents:
        end = _grown(doc, e.start, e.end) if e.label_ == "PERSON" else e.end
        if end != e.end:
            e, changed = Span(doc, e.start, end, label=e.label_), True
        ents.append(e)
    if changed:
        doc.ents = filter_spans(ents)  # the longer name wins over the pieces it now holds ("Santos")
    return doc


def register() -> None:
    from spacy.language import Language

    if not Language.has_factory(COMPONENT):
        Language.component(COMPONENT, func=name_particles)
