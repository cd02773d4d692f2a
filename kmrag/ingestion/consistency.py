"""Do the two stores agree? Per source: PostgreSQL (authoritative: unit text, embeddings, which
sources are complete, how many entities each unit mentions) against the graph (Source node and
version, Unit nodes, units with MENTIONS/DEFINES edges). A handful of grouped queries per tenant."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from kmrag.stores import Stores


class SourceDivergence(BaseModel):
    source_id: str
    reasons: list[str]
    in_postgres: bool  # the source has active units (or a completed row) in PostgreSQL


class Agreement(BaseModel):
    agree: bool
    units: int = 0
    only_in_postgres: int = 0
    only_in_graph: int = 0
    sources: list[SourceDivergence] = Field(default_factory=list)
    known: set[str] = Field(default_factory=set, exclude=True)  # every source id either store has
    versions: dict[str, str | None] = Field(default_factory=dict, exclude=True)  # PostgreSQL's, None: incomplete
    graph_only_units: set[str] = Field(default_factory=set, exclude=True)

    def ids(self) -> set[str]:
        return {s.source_id for s in self.sources}

    def summary(self, limit: int = 20) -> dict[str, Any]:
        return {"agree": self.agree, "units": self.units, "only_in_postgres": self.only_in_postgres,
                "only_in_graph": self.only_in_graph, "disagreeing_sources": len(self.sources),
                "sources": [f"{s.source_id}: {'; '.join(s.reasons)}" for s in self.sources[:limit]]}


def compare_stores(stores: Stores, tenant: str) -> Agreement:
    pg = stores.units.source_stats(tenant)
    gr = {sid: st.model_dump() for sid, st in stores.graph.source_stats(tenant).items()}
    pg_units = stores.units.unit_sources(tenant)
    gr_units = stores.graph.unit_ids(tenant)
    only_pg = set(pg_units) - gr_units
    only_gr = gr_units - set(pg_units)
    reasons: dict[str, list[str]] = {}

    def add(sid: str, why: str) -> None:
        reasons.setdefault(sid, []).append(why)

    for sid in sorted(set(pg) | set(gr)):
        p = pg.get(sid, {"version": None, "units": 0, "mentioned_units": 0})
        g = gr.get(sid, {"version": None, "units": 0, "mentioned_units": 0})
        if p["units"] and g["version"] is None:
            add(sid, "no Source node in the graph")
        if p["version"] is not None and g["version"] is not None and p["version"] != g["version"]:
            add(sid, "the graph holds another version")
        if p["units"] != g["units"]:
            add(sid, f"{p['units']} units in PostgreSQL, {g['units']} in the graph")
        elif p["mentioned_units"] > g["mentioned_units"]:
            add(sid, f"the graph lost the entity mentions of {p['mentioned_units'] - g['mentioned_units']} units")
        if not p["units"] and p["version"] is None and g["version"] is not None and not g["units"]:
            add(sid, "a Source node without anything in PostgreSQL")
    for uid in only_pg:
        sid = pg_units[uid]
        if sid not in reasons:
            add(sid, "units differ between the stores")
    if only_gr and not reasons:  # same counts, other ids: name the sources by their PostgreSQL side
        add("(unknown)", f"{len(only_gr)} graph units are not in PostgreSQL")
    sources = [SourceDivergence(source_id=sid, reasons=why, in_postgres=bool(pg.get(sid, {}).get("units")
                                                                              or pg.get(sid, {}).get("version")))
               for sid, why in sorted(reasons.items())]
    return Agreement(agree=not sources and not only_pg and not only_gr, units=len(pg_units),
                     only_in_postgres=len(only_pg), only_in_graph=len(only_gr), sources=sources,
                     known=set(pg) | set(gr), versions={sid: p["version"] for sid, p in pg.items()},
                     graph_only_units=only_gr)


def touched(agreement: Agreement, source_ids: Iterable[str]) -> list[SourceDivergence]:
    ids = set(source_ids)
    return [s for s in agreement.sources if s.source_id in ids]
