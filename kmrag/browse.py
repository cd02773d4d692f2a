"""What is stored, for a person to look at: entities found by name, one entity with its relations and units,
one unit with its text, entities, neighbours and relations. Read-only; every read is scoped by tenant."""

from __future__ import annotations

from typing import Any

from kmrag.errors import BadInput, NotFound
from kmrag.nlp.language import language_of
from kmrag.stores import Stores

SNIPPET = 160


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET else flat[: SNIPPET - 1] + "…"


def search_entities(stores: Stores, tenant: str, text: str, limit: int = 50) -> list[dict[str, Any]]:
    """Entities whose name or an alias contains ``text`` (case-insensitive), exact names first."""
    needle = text.casefold().strip()
    if not needle:
        raise BadInput("give some text to search entity names for")
    hits = []
    for e in stores.graph.all_entities(tenant):
        names = [e.name, *e.aliases]
        if any(needle in n.casefold() for n in names):
            exact = any(needle == n.casefold() for n in names)
            hits.append((not exact, len(e.name), e.id, e))
    hits.sort(key=lambda h: h[:3])
    chosen = [h[3] for h in hits[:limit]]
    units = stores.graph.entity_units(tenant, [e.id for e in chosen])
    return [{"id": e.id, "name": e.name, "type": e.type, "aliases": e.aliases, "units": len(units.get(e.id, []))}
            for e in chosen]


def show_entity(stores: Stores, tenant: str, ref: str, max_units: int = 20) -> dict[str, Any]:
    """One entity by ID or exact name (or alias): its relations both ways and the units that mention it."""
    found = stores.graph.get_entities(tenant, [ref]) if ref.startswith("e_") else stores.graph.find_entities(tenant, [ref])
    if not found:
        raise NotFound(f"no entity {ref!r} in tenant {tenant!r}: `kmrag entities search TEXT` finds names")
    e = found[0]
    rels = stores.graph.relations(tenant, e.id)
    others = {x.id: x.name for x in stores.graph.get_entities(
        tenant, sorted({r.subject_id for r in rels} | {r.object_id for r in rels}))}
    unit_ids = stores.graph.entity_units(tenant, [e.id]).get(e.id, [])
    units = stores.units.get_units(tenant, unit_ids[:max_units], include_retired=False)
    return {
        "id": e.id, "name": e.name, "type": e.type, "aliases": e.aliases,
        "relations": [{"subject": others.get(r.subject_id, r.subject_id), "predicate": r.predicate, "type": r.type,
                       "object": others.get(r.object_id, r.object_id), "units": r.unit_ids} for r in rels],
        "units": [{"id": u.id, "type": u.type, "source_id": u.source_id, "snippet": _snippet(u.content)} for u in units],
        "units_total": len(unit_ids),
        "merges": stores.units.merges(tenant, e.id),
    }


def show_unit(stores: Stores, tenant: str, unit_id: str) -> dict[str, Any]:
    """One unit: full text, type, source and version, section path, retirement, entities, neighbours, relations."""
    got = stores.units.get_units(tenant, [unit_id], include_retired=True)
    if not got:
        raise NotFound(f"no unit {unit_id!r} in tenant {tenant!r}: `kmrag ask --units-only` or "
                       "`kmrag entities show` list unit IDs")
    u = got[0]
    history = stores.units.unit_history(tenant, [u.id]).get(u.id, {})
    ents = stores.graph.get_entities(tenant, stores.graph.unit_entities(tenant, [u.id]).get(u.id, []))
    ids = {e.id for e in ents}
    rels = [r for eid in sorted(ids) for r in stores.graph.relations(tenant, eid)
            if u.id in r.unit_ids and r.subject_id == eid]
    names = {e.id: e.name for e in stores.graph.get_entities(
        tenant, sorted({r.object_id for r in rels} | {r.subject_id for r in rels}))}
    return {
        "id": u.id, "type": u.type, "title": u.title, "section_path": u.section_path, "source_id": u.source_id,
        "source_version": u.source_version, "source_version_now": history.get("source_version_now"),
        "retired": u.retired, "retired_at": history.get("retired_at"), "ordinal": u.ordinal, "metadata": u.metadata,
        "language": u.metadata.get("language") or language_of(u.content),
        "content": u.content,
        "entities": [{"id": e.id, "name": e.name, "type": e.type} for e in ents],
        "neighbours": [{"kind": n.kind, "id": n.neighbour_id} for n in stores.graph.neighbours(tenant, [u.id])],
        "relations": [{"subject": names.get(r.subject_id, r.subject_id), "predicate": r.predicate,
                       "object": names.get(r.object_id, r.object_id)} for r in rels],
    }


def entity_text(d: dict[str, Any]) -> str:
    lines = [f"{d['id']}  {d['name']!r}  {d['type']}" + (f"  aliases: {', '.join(d['aliases'])}" if d["aliases"] else "")]
    lines.append(f"relations ({len(d['relations'])}):")
    lines += [f"  ({r['subject']}) -[{r['type']}]-> ({r['object']})  from {', '.join(r['units'][:3])}"
              for r in d["relations"][:50]] or ["  none"]
    lines.append(f"units mentioning it ({d['units_total']}):")
    lines += [f"  [{u['id']}] {u['type']}  {u['source_id']}\n      {u['snippet']}" for u in d["units"]] or ["  none"]
    if d["merges"]:
        lines.append("names merged into it: " + ", ".join(f"{m['alias']!r} ({m['method']})" for m in d["merges"]))
    return "\n".join(lines)


def unit_text(d: dict[str, Any]) -> str:
    state = f"RETIRED {d['retired_at']}" if d["retired"] else "current"
    lines = [f"{d['id']}  {d['type']}  {state}",
             f"source:  {d['source_id']}  (version {d['source_version'][:12]}"
             + ("" if d["source_version_now"] in (None, d["source_version"]) else
                f"; the source is now at {str(d['source_version_now'])[:12]}") + ")",
             f"section: {' › '.join(d['section_path']) or '(top)'}   title: {d['title']}   position {d['ordinal']}"
             f"   language {d['language']}",
             "text:"]
    lines += [f"  {line}" for line in d["content"].splitlines()]
    lines.append("entities: " + (", ".join(f"{e['name']} ({e['type']}, {e['id']})" for e in d["entities"]) or "none"))
    lines.append("relations from it: " + ("; ".join(f"({r['subject']}) -[{r['predicate']}]-> ({r['object']})"
                                                  for r in d["relations"]) or "none"))
    lines.append("neighbours: " + (", ".join(f"{n['kind']} {n['id']}" for n in d["neighbours"]) or "none"))
    return "\n".join(lines)
