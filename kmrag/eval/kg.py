"""`kmrag eval kg`: how much of a QA set's gold evidence the tenant's graph holds.

For each distinct gold triple (subject, relation, object) of a 2WikiMultihopQA-format file (its
``evidences``), against the entities (names and aliases) and relations of the tenant that ingested it:
the subject found as an entity, the object found, both, the two related by an extracted edge (either
direction), and that edge's predicate one the gold relation means (``data/2wiki_relations.json``).

Two ways to find a name, side by side:
- exact: an entity whose name or an alias equals it, case-folded;
- clever: the same after folding accents and punctuation and dropping a trailing disambiguation
  ("Kaadhal (1952 film)" -> "kaadhal"), a date in any of its written forms ("4 May 1920" = "May 4, 1920"),
  or one name's words a run of the other's, the shorter of two words or more ("Louis XIV" in
  "Louis XIV of France").

Reported for all the set's questions, the first half (what the extraction rules were tuned on) and the
second half (held out), each over its own distinct triples.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kmrag.errors import BadInput
from kmrag.schema import Entity, Relation

RELATIONS_FILE = Path(__file__).parent / "data" / "2wiki_relations.json"
MEASURES = ("subject", "object", "both", "related", "predicate")
_MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}
_MON = r"([A-Za-z]{3,9})\.?"
_DATE_FORMS = (  # (pattern, group of day, month, year)
    (re.compile(rf"^(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON},?\s+(\d{{3,4}})$"), (1, 2, 3)),
    (re.compile(rf"^{_MON}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{3,4}})$"), (2, 1, 3)),
    (re.compile(rf"^{_MON},?\s+(\d{{3,4}})$"), (0, 1, 2)),
)
_ISO = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")
_YEAR = re.compile(r"^(?:in\s+)?(\d{3,4})$")
_DISAMBIGUATION = re.compile(r"\s*\([^)]*\)\s*$")
_NON_WORD = re.compile(r"[^\w]+")

Triple = tuple[str, str, str]


@dataclass
class GoldSet:
    path: str
    questions: int
    triples: list[tuple[int, Triple]]  # (question index, triple), in file order

    def distinct(self, lo: int = 0, hi: int | None = None) -> list[Triple]:
        hi = self.questions if hi is None else hi
        return list(dict.fromkeys(t for i, t in self.triples if lo <= i < hi))


def load_gold(path: Path) -> GoldSet:
    """The evidence triples of a 2Wiki-format file; a clear error naming the file and the question."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadInput(f"{path}: cannot read as JSON: {e}") from e
    if not isinstance(data, list) or not data:
        raise BadInput(f"{path}: expected a JSON list of 2Wiki questions")
    out: list[tuple[int, Triple]] = []
    for i, q in enumerate(data):
        ev = q.get("evidences") if isinstance(q, dict) else None
        if not isinstance(ev, list):
            raise BadInput(f"{path}: question {i} has no 'evidences' list (2WikiMultihopQA format wanted)")
        for j, t in enumerate(ev):
            if not (isinstance(t, list) and len(t) == 3 and all(isinstance(x, str) and x.strip() for x in t)):
                raise BadInput(f"{path}: question {i} evidence {j} is not [subject, relation, object]: {t!r}")
            out.append((i, (t[0].strip(), t[1].strip(), t[2].strip())))
    return GoldSet(path=str(path), questions=len(data), triples=out)


def load_relation_map(path: Path = RELATIONS_FILE) -> dict[str, set[str]]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadInput(f"{path}: cannot read the relation map: {e}") from e
    out: dict[str, set[str]] = {}
    for rel, forms in raw.items():
        if rel.startswith("_"):
            continue
        if not isinstance(forms, list) or not all(isinstance(f, str) for f in forms):
            raise BadInput(f"{path}: {rel!r} must map to a list of predicate strings")
        out[rel] = {predicate_key(f) for f in forms}
    return out


def predicate_key(text: str) -> str:
    return " ".join(text.replace("_", " ").casefold().split())


# -- finding names -------------------------------------------------------------------------------


def exact_key(name: str) -> str:
    return " ".join(name.casefold().split())


def fold(name: str) -> str:
    """Accents, punctuation and case folded; words kept apart by single spaces."""
    s = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii") or name
    return " ".join(_NON_WORD.sub(" ", s.casefold().replace("'s ", " ")).split())


def date_key(text: str) -> str | None:
    """One key for every written form of a date: "4 May 1920", "May 4, 1920", "1920-05-04" -> date:1920-05-04;
    "May 1920" -> date:1920-05; "1920" -> date:1920. None when the text is no date."""
    t = " ".join(text.strip().split())
    if m := _YEAR.match(t):
        return f"date:{int(m.group(1)):04d}"
    if m := _ISO.match(t):
        return f"date:{m.group(1)}-{m.group(2)}" + (f"-{m.group(3)}" if m.group(3) else "")
    for rx, (d, mo, y) in _DATE_FORMS:
        if (m := rx.match(t)) and (month := _MONTHS.get(m.group(mo)[:3].lower())):
            day = f"-{int(m.group(d)):02d}" if d else ""
            return f"date:{int(m.group(y)):04d}-{month:02d}{day}"
    return None


def clever_keys(name: str) -> set[str]:
    keys = {fold(name), fold(_DISAMBIGUATION.sub("", name))}
    if dk := date_key(name):
        keys.add(dk)
    return {k for k in keys if k}


@dataclass
class EntityIndex:
    """The tenant's entities by exact key, by clever key, and by word (for containment)."""

    exact: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    clever: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    words: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # word -> clever keys

    @classmethod
    def build(cls, entities: Iterable[Entity]) -> EntityIndex:
        ix = cls()
        for e in entities:
            for n in (e.name, *e.aliases):
                ix.exact[exact_key(n)].add(e.id)
                for k in clever_keys(n):
                    ix.clever[k].add(e.id)
                    for w in k.split():
                        ix.words[w].add(k)
        return ix

    def find_exact(self, name: str) -> set[str]:
        return set(self.exact.get(exact_key(name), ()))

    def find_clever(self, name: str) -> set[str]:
        out: set[str] = set()
        keys = clever_keys(name)
        for k in keys:
            out |= self.clever.get(k, set())
        for k in keys:
            if k.startswith("date:"):
                continue
            words = k.split()
            candidates = set().union(*(self.words.get(w, set()) for w in words)) if words else set()
            out.update(i for c in candidates if contains(c, k) for i in self.clever[c])
        return out


def contains(a: str, b: str) -> bool:
    """Whether one of two folded names is in the other, the shorter of two words or more: a run of its words
    ("louis xiv" in "louis xiv of france"), or its words in order with the same first and last word ("otto
    preminger" in "otto ludwig preminger")."""
    wa, wb = a.split(), b.split()
    short, long_ = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    if len(short) < 2 or short == long_:
        return short == long_
    if any(long_[i:i + len(short)] == short for i in range(len(long_) - len(short) + 1)):
        return True
    return short[0] == long_[0] and short[-1] == long_[-1] and _in_order(short, long_)


def _in_order(short: list[str], long_: list[str]) -> bool:
    it = iter(long_)
    return all(w in it for w in short)


# -- scoring -------------------------------------------------------------------------------------


@dataclass
class Edges:
    """The tenant's relations keyed by their (unordered) pair of entity ids, with the predicate keys."""

    pairs: dict[frozenset[str], set[str]] = field(default_factory=lambda: defaultdict(set))
    by_entity: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    @classmethod
    def build(cls, relations: Iterable[Relation]) -> Edges:
        ed = cls()
        for r in relations:
            pair = frozenset((r.subject_id, r.object_id))
            ed.pairs[pair] |= {predicate_key(r.predicate), predicate_key(r.type)}
            ed.by_entity[r.subject_id].add(r.object_id)
            ed.by_entity[r.object_id].add(r.subject_id)
        return ed

    def between(self, subjects: set[str], objects: set[str]) -> set[str]:
        """The predicate keys (surface and type) of every edge between a subject and an object."""
        out: set[str] = set()
        for s in subjects:
            for o in self.by_entity.get(s, set()) & objects:
                out |= self.pairs[frozenset((s, o))]
        return out

    def related(self, subjects: set[str], objects: set[str]) -> bool:
        return any(self.by_entity.get(s, set()) & objects for s in subjects)


def score_triple(t: Triple, find: Callable[[str], set[str]], edges: Edges,
                 relation_map: dict[str, set[str]]) -> dict[str, bool]:
    subj, rel, obj = t
    s, o = find(subj), find(obj)
    related = edges.related(s, o)
    wanted = relation_map.get(rel, {predicate_key(rel)})
    return {"subject": bool(s), "object": bool(o), "both": bool(s and o), "related": related,
            "predicate": related and bool(edges.between(s, o) & wanted)}


def score(triples: Sequence[Triple], find: Callable[[str], set[str]], edges: Edges,
          relation_map: dict[str, set[str]]) -> dict[str, Any]:
    hits = dict.fromkeys(MEASURES, 0)
    by_relation: dict[str, dict[str, int]] = {}
    for t in triples:
        r = score_triple(t, find, edges, relation_map)
        row = by_relation.setdefault(t[1], {"triples": 0, "related": 0, "predicate": 0})
        row["triples"] += 1
        row["related"] += r["related"]
        row["predicate"] += r["predicate"]
        for m in MEASURES:
            hits[m] += r[m]
    n = len(triples)
    return {"triples": n, "hits": hits, "pct": {m: round(100 * hits[m] / n, 1) if n else 0.0 for m in MEASURES},
            "by_relation": dict(sorted(by_relation.items(), key=lambda kv: -kv[1]["triples"]))}


def evaluate(entities: Sequence[Entity], relations: Sequence[Relation], gold: GoldSet,
             relation_map: dict[str, set[str]] | None = None) -> dict[str, Any]:
    """The measures for all the questions, the first half (tune) and the second (held out), exact and clever."""
    rmap = load_relation_map() if relation_map is None else relation_map
    ix, edges = EntityIndex.build(entities), Edges.build(relations)
    half = (gold.questions + 1) // 2
    splits = {"all": gold.distinct(), "tune": gold.distinct(0, half), "held_out": gold.distinct(half)}
    return {"file": gold.path, "questions": gold.questions, "tune_questions": f"1-{half}",
            "held_out_questions": f"{half + 1}-{gold.questions}",
            "splits": {name: {"exact": score(ts, ix.find_exact, edges, rmap),
                              "clever": score(ts, ix.find_clever, edges, rmap)} for name, ts in splits.items()}}


def run_kg_eval(graph: Any, tenant: str, path: Path) -> dict[str, Any]:
    """Read the tenant's entities and relations from a GraphStore and score the file's gold triples."""
    gold = load_gold(path)
    entities = graph.all_entities(tenant)
    if not entities:
        raise BadInput(f"tenant {tenant!r} has no entities: ingest {path} into it first "
                       f"(kmrag ingest {path} --tenant {tenant})")
    relations = graph.relations(tenant)
    out = evaluate(entities, relations, gold)
    counts = graph.counts(tenant)
    return {"tenant": tenant, "entities": counts.entities, "relations": counts.relations, **out}


def render(r: dict[str, Any]) -> str:
    head = (f"kg eval of tenant {r['tenant']} against {r['file']} ({r['entities']} entities, "
            f"{r['relations']} relations)\n")
    lines = ["| split | match | triples | subject | object | both | related | predicate |",
             "|---|---|---|---|---|---|---|---|"]
    labels = {"all": f"all ({r['questions']} q)", "tune": f"tune (q {r['tune_questions']})",
              "held_out": f"held-out (q {r['held_out_questions']})"}
    for name, sp in r["splits"].items():
        for kind in ("exact", "clever"):
            s = sp[kind]
            lines.append(f"| {labels[name]} | {kind} | {s['triples']} | "
                         + " | ".join(f"{s['pct'][m]}%" for m in MEASURES) + " |")
    rel = r["splits"]["all"]["clever"]["by_relation"]
    per = ", ".join(f"{k} {v['related']}/{v['predicate']}/{v['triples']}" for k, v in rel.items())
    return head + "\n".join(lines) + f"\n\nall, clever, per relation (related/predicate/triples): {per}"
