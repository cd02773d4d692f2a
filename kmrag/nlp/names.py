"""Entity names: the normal form two mentions of one entity share, and the coarse types that
separate things of different kinds (a person from a place called the same). Shared by ingestion
(resolution) and the query side (linking a question's entities)."""

from __future__ import annotations

import re

from kmrag.schema.ids import canonical_entity_name

_ARTICLE = re.compile(r"^(the|a|an)\s+")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
_PUNCT = re.compile(r"[^\w\s&\-+#]")

COARSE: dict[str, str] = {
    "PERSON": "PERSON", "ORG": "ORG", "GPE": "PLACE", "LOC": "PLACE", "FAC": "PLACE",
    "DATE": "DATE", "TIME": "DATE", "CONCEPT": "CONCEPT", "THING": "THING",
}
# which fine label an entity shows when several were seen (all within one coarse type)
LABEL_PRIORITY = ("PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "PRODUCT", "WORK_OF_ART", "LAW",
                  "LANGUAGE", "DATE", "TIME", "CONCEPT", "THING")
WEAK = {"THING": 0, "CONCEPT": 1}  # everything else is typed (2)


def resolution_key(name: str) -> str:
    """Deterministic normal form: case-folded, articles/possessives/punctuation dropped, spaces collapsed."""
    k = canonical_entity_name(name)
    k = _POSSESSIVE.sub("", k)
    k = _ARTICLE.sub("", k)
    k = _PUNCT.sub(" ", k)
    return " ".join(k.split()) or canonical_entity_name(name)


def coarse_type(label: str) -> str:
    return COARSE.get(label, "OTHER")


def strength(coarse: str) -> int:
    return WEAK.get(coarse, 2)


def has_leading_article(name: str) -> bool:
    return bool(_ARTICLE.match(name.lower()))
