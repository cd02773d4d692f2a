"""Predicate normalisation: the many ways of saying one relation land on one canonical predicate.

The extractors write surface predicates ("directed by", "direct", "director of"; "born in" a year or a
place). When relations are written (:func:`kmrag.ingestion.relations.graph_rows`, for every tenant and every
extractor), each surface form found in the table (``data/predicates.json``) gives its relation the canonical
predicate's type (DIRECTED, DATE_OF_BIRTH, PLACE_OF_BIRTH, ...), so one fact said three ways is one edge and a
question's relation can be looked up by one name. The relation keeps the surface form as its predicate text
(the schema has one text field), except when the surface form says it the other way round ("directed by":
(film)->(person)); then subject and object are swapped and the text is the canonical predicate's, so the edge
still reads right. Some forms depend on the object: "born in" 1950 is a date of birth, "born in" Paris a place
of birth (``objects``: the object labels an entry needs). A predicate not in the table keeps its own type.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from kmrag.errors import ConfigError

TABLE = Path(__file__).parent / "data" / "predicates.json"


@dataclass(frozen=True)
class Canonical:
    predicate: str  # the canonical predicate (its relationship type names the relation)
    inverse: bool  # the surface form says it with subject and object swapped


@dataclass(frozen=True)
class _Entry:
    predicate: str
    forms: frozenset[str]
    inverse: frozenset[str]
    objects: frozenset[str] | None


def surface_key(predicate: str) -> str:
    return " ".join(predicate.casefold().replace("_", " ").split())


@functools.lru_cache(maxsize=4)
def load_table(path: Path = TABLE) -> tuple[_Entry, ...]:
    """The canonical table; a clear error naming the file and the entry when it is malformed."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ConfigError(f"{path}: cannot read the predicate table: {e}") from e
    entries = raw.get("canonical") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: expected {{\"canonical\": [...]}}")
    return tuple(_entry(e, path, i) for i, e in enumerate(entries))


def _entry(e: object, path: Path, i: int) -> _Entry:
    if not isinstance(e, dict) or not isinstance(e.get("predicate"), str) or not e["predicate"].strip():
        raise ConfigError(f"{path}: canonical entry {i} needs a 'predicate' string")
    lists = {}
    for key in ("forms", "inverse", "objects"):
        v = e.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
            raise ConfigError(f"{path}: canonical entry {i} ({e['predicate']!r}): {key!r} must be a list of strings")
        lists[key] = frozenset(surface_key(x) if key != "objects" else x for x in v)
    canonical = surface_key(e["predicate"])
    return _Entry(predicate=canonical, forms=lists["forms"] | {canonical}, inverse=lists["inverse"],
                  objects=lists["objects"] or None)


def canonical(predicate: str, object_label: str | None = None, table: tuple[_Entry, ...] | None = None
              ) -> Canonical | None:
    """The canonical predicate a surface predicate means (None when the table has none for it)."""
    key = surface_key(predicate)
    for e in load_table() if table is None else table:
        if e.objects is not None and object_label not in e.objects:
            continue
        if key in e.forms:
            return Canonical(e.predicate, inverse=False)
        if key in e.inverse:
            return Canonical(e.predicate, inverse=True)
    return None
