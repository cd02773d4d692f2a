"""Entity resolution: type-aware, order-independent, auditable.

Two steps, so that the result never depends on the order documents or batches arrive in:

1. **Identity** (while a job streams): a mention's entity is a pure function of the mention:
   ``entity_id(tenant, resolution_key(name), coarse_type(label))``. The key drops case, leading
   articles, possessives and punctuation; the coarse type separates people, organisations,
   places, dates, defined concepts, other named things and untyped proper-noun phrases, so
   "Jordan" the person and "Jordan" the country stay apart.
2. **Consolidation** (at the end of every job, over the tenant's whole entity set): entities that
   name the same thing are merged by rules that look at the final set only, never at arrival order:
   - ``alias``: a form seen in the text as an alias ("European Union (EU)"), or stored as an alias
     of exactly one entity, joins that entity;
   - ``untyped``: an untyped phrase or a defined concept joins the one typed entity with the same key;
   - ``acronym``: an all-capitals name joins the one multi-word entity of the same coarse type whose
     initials it is ("IBM" -> "International Business Machines", but "US" the place never joins
     "Universal Studios" the organisation), and only when the two were mentioned in one source in this
     job (evidence in the same document: "JS" in one file never joins "Johannes Schindelin" of another);
     an untyped acronym never joins a person (initials in capitals are rarely how a text names one);
   - ``fuzzy``: multi-word names of the same coarse type and word count, differing by a typo
     (rapidfuzz ratio >= 92, same numbers), where one of them is new in this job.
   No rule joins two names that differ by a meaningful token or mark (``distinct_names``: Get/Set,
   Compress/Decompress, HTTP/HTTPS, C++/C, ...).
   Each group's surviving entity is chosen by a fixed ranking (type strength, words, length, key),
   so "IBM" then "International Business Machines" gives the same single entity as the reverse.
   Every merge is recorded as an EntityMerge (kmrag entities merges) and can be undone; an undone
   merge is never redone.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from kmrag.nlp.extract import ExtractedEntity
from kmrag.nlp.names import (
    LABEL_PRIORITY,
    coarse_type,
    distinct_names,
    has_leading_article,
    resolution_key,
    strength,
)
from kmrag.schema import Entity, EntityMerge, entity_id

FUZZY_MIN = 92.0
FUZZY_MIN_LEN = 8
ACRONYM_LEN = (2, 6)


def _initials(key: str) -> str:
    return "".join(w[0] for w in key.split() if w not in ("of", "and", "the", "for", "de"))


def _numbers(key: str) -> list[str]:
    """'World War I' vs 'World War II', 'Apollo 11' vs 'Apollo 12' must not merge."""
    return re.findall(r"\d+|\b[ivxlc]+\b", key)


def _is_acronym(name: str) -> bool:
    letters = name.replace(".", "")
    return letters.isupper() and letters.isalpha() and ACRONYM_LEN[0] <= len(letters) <= ACRONYM_LEN[1]


def _form_rank(form: str) -> tuple[int, int, int, str]:
    """Which surface form names an entity: no leading article, not all lower/upper case, then stable."""
    return (int(has_leading_article(form)), int(form.islower()), int(form.isupper() and len(form) > 6), form)


def merge_key(entity_id_: str, alias: str) -> tuple[str, str]:
    return entity_id_, resolution_key(alias)


@dataclass
class _Seen:
    coarse: str
    key: str
    forms: set[str] = field(default_factory=set)
    labels: set[str] = field(default_factory=set)
    sources: set[str] = field(default_factory=set)  # the sources that mention it in this job


class EntityResolver:
    """Maps mentions to entity IDs for one tenant and job, and plans the end-of-job consolidation."""

    def __init__(self, tenant: str, existing: Iterable[Entity] = (),
                 blocked: Iterable[tuple[str, str]] = ()) -> None:
        self.tenant = tenant
        pairs = list(blocked)
        self.blocked = {merge_key(eid, alias) for eid, alias in pairs}  # undone merges
        self._blocked_forms = set(pairs)  # exact forms split off their entity by a person
        self.stored: dict[str, Entity] = {e.id: e for e in existing}
        self.seen: dict[str, _Seen] = {}
        self.text_aliases: set[tuple[str, str]] = set()  # (alias, full name) seen in this job's text
        self.merges: list[EntityMerge] = []  # surface forms folded by the key ("the Beatles" -> Beatles)
        self._recorded: set[tuple[str, str]] = set()

    # -- identity -----------------------------------------------------------------------------

    def resolve(self, mention: ExtractedEntity, source: str | None = None) -> str:
        """The entity ID of a mention: a pure function of its key and coarse type. ``source``: the
        source the mention is in (acronym merges need both names in one source)."""
        coarse = coarse_type(mention.label)
        key = resolution_key(mention.name)
        eid = entity_id(self.tenant, key, coarse)
        if (eid, mention.name) in self._blocked_forms:
            eid = entity_id(self.tenant, key + " (split)", coarse)  # a person split this exact form off
        s = self.seen.get(eid)
        if s is None:
            s = self.seen[eid] = _Seen(coarse=coarse, key=key)
        s.forms.add(mention.name)
        s.labels.add(mention.label)
        if source is not None:
            s.sources.add(source)
        return eid

    def add_alias(self, alias: str, full_name: str) -> None:
        """An alias seen in the text ("European Union (EU)"): applied when the job consolidates."""
        self.text_aliases.add((alias, full_name))

    def entity(self, eid: str) -> Entity:
        """The entity to write for an ID seen in this job: canonical name, fine type, aliases."""
        s = self.seen[eid]
        old = self.stored.get(eid)
        forms = set(s.forms) | ({old.name} if old else set())
        labels = set(s.labels) | ({old.type} if old else set())
        name = min(forms, key=_form_rank)
        label = min(labels, key=lambda x: (LABEL_PRIORITY.index(x) if x in LABEL_PRIORITY else len(LABEL_PRIORITY), x))
        aliases = list(old.aliases) if old else []
        for f in sorted(forms):
            if f != name and (eid, f) not in self._recorded:
                self._recorded.add((eid, f))
                self.merges.append(EntityMerge(tenant=self.tenant, entity_id=eid, alias=f, method="normalised"))
        e = Entity(id=eid, tenant=self.tenant, name=name, type=label, aliases=aliases)
        self.stored[eid] = e
        return e

    # -- consolidation ------------------------------------------------------------------------

    def plan(self, current: Sequence[Entity], new_ids: Iterable[str] = ()) -> MergePlan:
        """The merges that make the tenant's entity set consolidated (see the module docstring)."""
        sources = {eid: s.sources for eid, s in self.seen.items() if s.sources}
        return plan_merges(self.tenant, current, sorted(self.text_aliases), self.blocked, set(new_ids), sources)


@dataclass
class MergeStep:
    member: Entity
    root: Entity
    method: str
    score: float = 1.0


@dataclass
class MergePlan:
    steps: list[MergeStep] = field(default_factory=list)
    new_aliases: dict[str, list[str]] = field(default_factory=dict)  # root id -> aliases from the text


def _rank(e: Entity) -> tuple[int, int, int, str, str, str, str]:
    key = resolution_key(e.name)
    return (-strength(coarse_type(e.type)), -len(key.split()), -len(key), key, e.name, e.type, e.id)


def _tenant_free(e: Entity) -> tuple[str, str, str]:
    """The order entities are considered in: by name and type, which do not depend on the tenant (an id
    hashes the tenant, so ordering by id gave two tenants holding the same corpus different plans where
    candidates tie); the id last, for names that differ only in case."""
    return (e.name, e.type, e.id)


def plan_merges(tenant: str, entities: Sequence[Entity], text_aliases: Sequence[tuple[str, str]],
                blocked: set[tuple[str, str]], new_ids: set[str],
                sources: dict[str, set[str]] | None = None) -> MergePlan:
    """A pure function of the entity set (plus this job's text aliases, the undone merges and, for
    acronyms, which sources mentioned each entity in this job)."""
    sources = sources or {}
    # the same set in any order, in any tenant, gives the same plan
    entities = sorted(entities, key=_tenant_free)
    order = {e.id: i for i, e in enumerate(entities)}
    by_id = {e.id: e for e in entities}
    keys = {e.id: resolution_key(e.name) for e in entities}
    coarse = {e.id: coarse_type(e.type) for e in entities}
    by_key: dict[str, list[str]] = defaultdict(list)
    for e in entities:
        by_key[keys[e.id]].append(e.id)

    parent: dict[str, str] = {}
    members: dict[str, list[str]] = {i: [i] for i in by_id}  # component root -> its members
    strong: dict[str, set[str]] = {i: ({coarse[i]} if strength(coarse[i]) == 2 else set()) for i in by_id}
    method: dict[tuple[str, str], tuple[str, float]] = {}
    pointed: set[str] = set()  # the weaker side of some link: never the name a group keeps if avoidable

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    def link(a: str, b: str, how: str, score: float = 1.0) -> None:
        """a names the same thing as b (a is the weaker side). Refused when a person undid a merge
        between the two groups, or when the group would hold two kinds of typed thing (a country and
        an organisation joined through an untyped "US")."""
        ra, rb = find(a), find(b)
        if ra == rb:
            return
        if len(strong[ra] | strong[rb]) > 1:
            return
        if distinct_names(by_id[a].name, by_id[b].name):
            return  # Get/Set, Compress/Decompress, HTTP/HTTPS, C++/C: never one thing
        if any(merge_key(x, by_id[y].name) in blocked or merge_key(y, by_id[x].name) in blocked
               for x in members[ra] for y in members[rb]):
            return
        method.setdefault((a, b), (how, score))
        pointed.add(a)
        parent[ra] = rb
        members[rb] += members.pop(ra)
        strong[rb] |= strong.pop(ra)

    def compatible(a: str, b: str) -> bool:
        return coarse[a] == coarse[b] or strength(coarse[a]) < 2 or strength(coarse[b]) < 2

    def best(ids: Iterable[str]) -> str | None:
        """The single strongest candidate, or None when the strongest tier is ambiguous."""
        cands = sorted(ids, key=lambda i: -strength(coarse[i]))
        if not cands:
            return None
        top = [i for i in cands if strength(coarse[i]) == strength(coarse[cands[0]])]
        return top[0] if len(top) == 1 else None

    # fuzzy first (typos of one name form one candidate below): multi-word names of one coarse type,
    # where one side is new in this job; the weaker side by rank points at the stronger one
    # blocked by coarse type, first letters, word count and the numbers in the name (names whose
    # numbers differ never merge), so a table of "Person 1" .. "Person 9999" is not a quadratic pass
    blocks: dict[tuple[str, str, int, tuple[str, ...]], list[str]] = defaultdict(list)
    for e in entities:
        k = keys[e.id]
        if len(k) >= FUZZY_MIN_LEN and len(k.split()) >= 2 and coarse[e.id] not in ("DATE", "THING", "CONCEPT"):
            blocks[(coarse[e.id], k[:2], len(k.split()), tuple(_numbers(k)))].append(e.id)
    for ids in blocks.values():
        for a in (i for i in ids if i in new_ids):
            for b in ids:
                if a == b or keys[a] == keys[b] or abs(len(keys[a]) - len(keys[b])) > 3:
                    continue
                score = fuzz.ratio(keys[a], keys[b])
                if score >= FUZZY_MIN:
                    lesser, greater = sorted((a, b), key=lambda i: _rank(by_id[i]), reverse=True)
                    link(lesser, greater, "fuzzy", round(score, 1))

    def one(cands: Iterable[str]) -> str | None:
        """The candidate when all candidates are one entity (or one group of typos)."""
        roots = {find(c): c for c in sorted(cands, key=order.__getitem__)}
        return next(iter(roots.values())) if len(roots) == 1 else None

    # untyped phrases and defined concepts join the one stronger entity with the same key
    for ids in by_key.values():
        for a in ids:
            stronger = [i for i in ids if strength(coarse[i]) > strength(coarse[a])]
            top = [i for i in stronger if strength(coarse[i]) == max((strength(coarse[j]) for j in stronger), default=0)]
            target = one(top)
            if target:
                link(a, target, "untyped")

    # stored aliases and aliases seen in the text
    alias_owner: dict[str, set[str]] = defaultdict(set)
    for e in entities:
        for al in e.aliases:
            ak = resolution_key(al)
            if ak != keys[e.id]:
                alias_owner[ak].add(e.id)
    new_aliases: dict[str, list[str]] = defaultdict(list)
    for alias, full in text_aliases:
        owner = best(by_key.get(resolution_key(full), []))
        ak = resolution_key(alias)
        if owner is None or ak == keys[owner] or merge_key(owner, alias) in blocked:
            continue
        alias_owner[ak].add(owner)
        if alias not in by_id[owner].aliases:
            new_aliases[owner].append(alias)
    for ak, owners in alias_owner.items():
        for a in by_key.get(ak, []):
            target = one(o for o in owners if o != a and compatible(a, o))
            if target:
                link(a, target, "alias")

    # acronyms: the one multi-word entity of the same coarse type whose initials they are
    by_initials: dict[tuple[str, str], list[str]] = defaultdict(list)
    for e in entities:
        k = keys[e.id]
        if len(k.split()) >= 2 and strength(coarse[e.id]) == 2:
            by_initials[(_initials(k), coarse[e.id])].append(e.id)
    for e in entities:
        if not _is_acronym(e.name):
            continue
        k = keys[e.id].replace(".", "")
        types = ([coarse[e.id]] if strength(coarse[e.id]) == 2
                 else sorted({c for (_, c) in by_initials if c != "PERSON"}))
        target = one(i for t in types for i in by_initials.get((k, t), []))
        if target and sources.get(e.id, set()) & sources.get(target, set()):
            link(e.id, target, "acronym")

    plan = MergePlan()
    links = sorted(method.items(), key=lambda kv: (order[kv[0][0]], order[kv[0][1]]))
    for group in members.values():
        if len(group) < 2:
            continue
        heads = [m for m in group if m not in pointed] or group
        root = min((by_id[m] for m in heads), key=_rank)
        for m in sorted(group, key=order.__getitem__):
            if m == root.id or merge_key(root.id, by_id[m].name) in blocked:
                continue
            how, score = next((v for (a, _), v in links if a == m),
                              next((v for (a, b), v in links if m in (a, b)), ("alias", 1.0)))
            plan.steps.append(MergeStep(member=by_id[m], root=root, method=how, score=score))
    plan.new_aliases = {k: sorted(set(v)) for k, v in new_aliases.items()}
    return plan
