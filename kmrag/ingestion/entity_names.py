"""Keeping the embedded vocabulary of entity names (kmrag.units.entity_names) equal to the graph's
entity names and aliases: new forms are embedded and added, forms no entity carries any more are
removed. Run at the end of every job that changes entities (ingest, delete, unmerge, repair)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kmrag.nlp.embed import Embedder
from kmrag.nlp.names import resolution_key
from kmrag.schema import Entity

BATCH = 512


def sync_entity_names(stores: Any, embedder: Embedder | None, tenant: str,
                      entities: Sequence[Entity] | None = None) -> dict[str, int]:
    """Without an embedder, only removes the forms no entity carries any more (after a deletion).
    ``entities``: the tenant's entities when the caller has just read them (else they are read here)."""
    live: dict[str, set[str]] = {}
    for e in stores.graph.all_entities(tenant) if entities is None else entities:
        for form in (e.name, *e.aliases):
            key = resolution_key(form)
            if key:
                live.setdefault(key, set()).add(form)
    stored = stores.units.entity_names(tenant)
    # a key whose stored spelling no entity carries any more (its entity went, another one stays) is rewritten
    stale = {k for k, name in stored.items() if k in live and name not in live[k]}
    add = sorted((set(live) - set(stored)) | stale) if embedder is not None else []
    gone = sorted(set(stored) - set(live))
    if add:  # names embedded with another embedder than the tenant's would never be found
        stores.units.claim_embedder(tenant, embedder)
    for i in range(0, len(add), BATCH):
        assert embedder is not None
        keys = add[i : i + BATCH]
        names = [min(live[k]) for k in keys]  # one spelling per key, the same on every run
        stores.units.write_entity_names(tenant, list(zip(keys, names, strict=True)), embedder.embed(names))
    stores.units.delete_entity_names(tenant, gone)
    return {"entity_names_added": len(add), "entity_names_removed": len(gone)}
