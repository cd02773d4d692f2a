"""From extractions to graph rows: mentions (MENTIONS / DEFINES) and relations with their units."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from kmrag.errors import InvalidIdentifier
from kmrag.ingestion.resolve import EntityResolver
from kmrag.nlp.extract import ExtractedEntity, Extraction
from kmrag.nlp.names import looks_like_code
from kmrag.nlp.predicates import canonical
from kmrag.schema import KnowledgeUnit, Mention, MentionKind, Relation, relation_id, relationship_type


@dataclass
class GraphRows:
    mentions: list[Mention] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    entity_ids: list[str] = field(default_factory=list)  # every entity the rows refer to
    mentions_per_unit: dict[str, int] = field(default_factory=dict)
    skipped: Counter[str] = field(default_factory=Counter)  # triples left out, by reason


def _defines(term: str, content: str) -> bool:
    """Whether a definition unit's term is an entity: not when the term is code (a defined API name stays
    the unit's term) nor when its body is only code names (an API index entry, "label: CHECK_STOPPED")."""
    if looks_like_code(term):
        return False
    body = content.split(":", 1)[1] if ":" in content else content
    words = [w.strip(".,;()") for w in body.split()]
    return not words or not all(w and looks_like_code(w) for w in words)


def surname_aliases(units: Sequence[KnowledgeUnit], extractions: Sequence[Extraction]) -> list[tuple[str, str]]:
    """(surname, full name) where a document calls a person by the last word of one full name it gives
    ("Jessica Mauboy ... Mauboy performed"): the short mention is an alias of that person. Not when the
    document names two people ending in that word (two Smiths): then the surname says neither."""
    people: dict[str, set[str]] = {}
    short: dict[str, set[str]] = {}  # one-word names of any label: the merge refuses a kind that differs
    for u, ex in zip(units, extractions, strict=True):
        mentioned = ex.entities + [x for t in ex.triples for x in (t.subject, t.object)]
        people.setdefault(u.source_id, set()).update(e.name for e in mentioned if e.label == "PERSON")
        short.setdefault(u.source_id, set()).update(e.name for e in mentioned if len(e.name.split()) == 1)
    out: list[tuple[str, str]] = []
    for source, names in people.items():
        full: dict[str, set[str]] = {}
        for n in names:
            words = n.split()
            if len(words) >= 2 and words[-1][:1].isupper():
                full.setdefault(words[-1], set()).add(n)
        out += [(n, next(iter(full[n]))) for n in sorted(short[source]) if len(full.get(n, ())) == 1]
    return out


def graph_rows(tenant: str, resolver: EntityResolver, units: Sequence[KnowledgeUnit],
               extractions: Sequence[Extraction], defined: dict[str, str]) -> GraphRows:
    out = GraphRows()
    mentions: dict[tuple[str, str, MentionKind], Mention] = {}
    relations: dict[str, Relation] = {}

    def mention(uid: str, eid: str, kind: MentionKind = MentionKind.MENTIONS) -> None:
        mentions.setdefault((uid, eid, kind), Mention(tenant=tenant, unit_id=uid, entity_id=eid, kind=kind))

    for alias, full in surname_aliases(units, extractions):
        resolver.add_alias(alias, full)
    for u, ex in zip(units, extractions, strict=True):
        for alias, full in ex.aliases:
            resolver.add_alias(alias, full)
        if u.id in defined and _defines(defined[u.id], u.content):
            mention(u.id, resolver.resolve(ExtractedEntity(name=defined[u.id], label="CONCEPT"), u.source_id),
                    MentionKind.DEFINES)
        for ent in ex.entities:
            mention(u.id, resolver.resolve(ent, u.source_id))
        for tr in ex.triples:
            canon = canonical(tr.predicate, tr.object.label)
            try:
                rtype = relationship_type(canon.predicate if canon else tr.predicate)
            except InvalidIdentifier:
                out.skipped["triples_unusable_predicate"] += 1
                continue
            s, o = resolver.resolve(tr.subject, u.source_id), resolver.resolve(tr.object, u.source_id)
            predicate = tr.predicate
            if canon is not None and canon.inverse:  # "directed by": stored the canonical way round
                s, o, predicate = o, s, canon.predicate
            if s == o:
                out.skipped["triples_self_loop"] += 1
                continue
            mention(u.id, s)
            mention(u.id, o)
            rid = relation_id(tenant, s, rtype, o)
            rel = relations.get(rid)
            if rel is None:
                relations[rid] = Relation(id=rid, tenant=tenant, subject_id=s, object_id=o, predicate=predicate,
                                          type=rtype, confidence=tr.confidence, unit_ids=[u.id],
                                          sentences=[tr.sentence])
                continue
            if u.id not in rel.unit_ids:
                rel.unit_ids.append(u.id)
            if tr.sentence not in rel.sentences and len(rel.sentences) < 5:
                rel.sentences.append(tr.sentence)
            rel.confidence = max(rel.confidence, tr.confidence)
    out.mentions = list(mentions.values())
    out.relations = list(relations.values())
    per_unit: Counter[str] = Counter(m.unit_id for m in out.mentions)
    out.mentions_per_unit = {u.id: per_unit.get(u.id, 0) for u in units}
    refs = {m.entity_id for m in out.mentions} | {x for r in out.relations for x in (r.subject_id, r.object_id)}
    out.entity_ids = sorted(refs)
    return out
