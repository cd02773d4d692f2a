"""Entity resolution: deterministic first (case, whitespace, possessives, leading articles,
acronyms, aliases seen in the text), fuzzy second (rapidfuzz, guarded by type). Every merge of a
surface form into an entity is recorded as an EntityMerge so it can be audited and undone.

Identity: an entity's ID hashes its canonical name and a coarse bucket (NAME for named things,
DATE for dates, CONCEPT for defined terms). The small spaCy model often confuses PERSON/ORG/GPE,
so the fine label is an attribute (the most frequent one seen), not part of the identity.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from rapidfuzz import fuzz

from kmrag.ingestion.extract import ExtractedEntity
from kmrag.schema import Entity, EntityMerge, entity_id
from kmrag.schema.ids import canonical_entity_name

FUZZY_MIN = 92.0
FUZZY_MIN_LEN = 6

_ARTICLE = re.compile(r"^(the|a|an)\s+")
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
_PUNCT = re.compile(r"[^\w\s&\-]")


def resolution_key(name: str) -> str:
    """Deterministic normal form: case-folded, articles/possessives/punctuation dropped, spaces collapsed."""
    k = canonical_entity_name(name)
    k = _POSSESSIVE.sub("", k)
    k = _ARTICLE.sub("", k)
    k = _PUNCT.sub(" ", k)
    return " ".join(k.split())


def bucket(label: str) -> str:
    if label in ("DATE", "TIME"):
        return "DATE"
    if label == "CONCEPT":
        return "CONCEPT"
    return "NAME"


def _initials(key: str) -> str:
    return "".join(w[0] for w in key.split() if w not in ("of", "and", "the", "for", "de"))


class EntityResolver:
    """Resolves surface forms to entities of one tenant; seeded with the entities already stored."""

    def __init__(self, tenant: str, existing: Iterable[Entity] = (),
                 blocked: Iterable[tuple[str, str]] = ()) -> None:
        self.tenant = tenant
        self.blocked = {(eid, resolution_key(alias)) for eid, alias in blocked}  # undone merges
        self.entities: dict[str, Entity] = {}
        self._by_key: dict[tuple[str, str], str] = {}  # (bucket, key) -> entity id
        self._block: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)  # fuzzy candidates
        self._by_initials: dict[str, set[str]] = defaultdict(set)
        self._labels: dict[str, Counter[str]] = defaultdict(Counter)
        self.merges: list[EntityMerge] = []
        self._merged: set[tuple[str, str]] = set()
        self.changed: set[str] = set()
        for e in existing:
            self.entities[e.id] = e
            self._labels[e.id][e.type] += 1
            b = bucket(e.type)
            for form in [e.name, *e.aliases]:
                self._index(b, resolution_key(form), e.id)

    def _index(self, b: str, key: str, eid: str) -> None:
        if not key:
            return
        if (b, key) not in self._by_key:
            self._by_key[(b, key)] = eid
            self._block[(b, key[:2])].append((key, eid))
            if b == "NAME" and len(key.split()) >= 2:
                self._by_initials[_initials(key)].add(eid)

    def _record(self, eid: str, alias: str, method: str, score: float = 1.0) -> None:
        e = self.entities[eid]
        if alias != e.name and (eid, alias) not in self._merged:
            self._merged.add((eid, alias))
            self.merges.append(EntityMerge(tenant=self.tenant, entity_id=eid, alias=alias, method=method, score=score))
            if method != "normalised" and alias not in e.aliases:
                e.aliases.append(alias)
                self.changed.add(eid)

    def add_alias(self, alias: str, full_name: str, label: str = "ORG") -> None:
        """An alias seen in the text ("European Union (EU)"): both forms name one entity."""
        target = self.resolve(ExtractedEntity(name=full_name, label=label))
        b = bucket(self.entities[target].type)
        key = resolution_key(alias)
        if (target, key) in self.blocked:
            return  # a person undid exactly this merge
        existing = self._by_key.get((b, key))
        if existing is None:
            self._index(b, key, target)
            self._record(target, alias, "alias")

    def resolve(self, mention: ExtractedEntity) -> str:
        """The entity ID for a mention, creating the entity if it is new."""
        b = bucket(mention.label)
        key = resolution_key(mention.name)
        if not key:
            key = canonical_entity_name(mention.name)
        eid = self._by_key.get((b, key))
        method = "exact" if eid and self.entities[eid].name == mention.name else "normalised"
        if eid is not None and (eid, key) in self.blocked:
            eid = None  # a person undid this merge: keep the form as its own entity
        if eid is None and b == "NAME" and mention.name.isupper() and 2 <= len(mention.name) <= 6:
            eid = self._acronym(key)
            method = "acronym"
            if eid is not None and (eid, key) in self.blocked:
                eid = None
        if eid is None and b == "NAME" and len(key) >= FUZZY_MIN_LEN:
            eid, score = self._fuzzy(b, key, mention.label)
            if eid:
                self._index(b, key, eid)
                self._labels[eid][mention.label] += 1
                self._record(eid, mention.name, "fuzzy", score)
                return eid
        if eid is None:
            eid = entity_id(self.tenant, key, b)
            if (eid, key) in self.blocked:  # the undone form was this entity's own name key
                eid = entity_id(self.tenant, key + " (split)", b)
            if eid not in self.entities:
                self.entities[eid] = Entity(id=eid, tenant=self.tenant, name=mention.name, type=mention.label)
                self.changed.add(eid)
            self._index(b, key, eid)
        else:
            self._record(eid, mention.name, method)
        self._labels[eid][mention.label] += 1
        self._relabel(eid)
        return eid

    def _relabel(self, eid: str) -> None:
        labels = self._labels[eid]
        best = max(labels.items(), key=lambda kv: (kv[1], kv[0] != "THING", kv[0]))[0]
        e = self.entities[eid]
        if best != e.type and bucket(best) == bucket(e.type):
            e.type = best
            self.changed.add(eid)

    def _acronym(self, key: str) -> str | None:
        hits = self._by_initials.get(key, set())
        return next(iter(hits)) if len(hits) == 1 else None

    def _fuzzy(self, b: str, key: str, label: str) -> tuple[str | None, float]:
        best: tuple[str | None, float] = (None, 0.0)
        for cand, eid in self._block.get((b, key[:2]), []):
            if abs(len(cand) - len(key)) > max(3, len(key) // 5):
                continue
            etype = self.entities[eid].type
            if label != "THING" and etype != "THING" and etype != label:
                continue  # guarded by type
            score = fuzz.ratio(key, cand)
            if score >= FUZZY_MIN and score > best[1] and _numbers(key) == _numbers(cand) \
                    and (eid, key) not in self.blocked:
                best = (eid, score)
        return best


def _numbers(key: str) -> list[str]:
    """'World War I' vs 'World War II', 'Apollo 11' vs 'Apollo 12' must not merge."""
    return re.findall(r"\d+|\b[ivxlc]+\b", key)
