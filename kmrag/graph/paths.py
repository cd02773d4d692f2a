"""Bounded path finding over entity hops, shared by every graph backend.

A backend supplies one read, :data:`HopReader`: the hops of some entities (relations either direction,
and co-mention hops when asked), each entity's hops cut to its first ``fanout`` in step order, or all of
an entity's hops into a given set of entities. Everything else (simple paths, the fan-out cut, ordering,
limits, joining the two halves of a connecting path) happens here, so the backends agree by construction.

Step order at an entity (the "hop identifiers" paths are ordered by): relation hops first, by relation
id; then co-mention hops, by number of shared units (most first), then the other entity's id. A co-mention
hop joins two entities that some unit mentions (or defines) both, and that no relation joins (where a
relation does, the relation hop is that step). Self-loops are never hops.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kmrag.graph.base import Hop, RelationPath, check_hops

CO_MENTION = "CO_MENTION"
CO_MENTION_PREDICATE = "co_mention"
CO_MENTION_UNITS = 5  # a co-mention hop names at most this many shared units (the first by id)

StepKey = tuple[Any, ...]


@dataclass(frozen=True)
class Step:
    """One hop leaving ``source`` for ``other``: a relation (``relation_id``) or a co-mention (``shared`` units)."""

    source: str
    other: str
    hop: Hop
    relation_id: str | None = None
    shared: int = 0

    @property
    def key(self) -> StepKey:
        if self.relation_id is not None:
            return (0, self.relation_id)
        return (1, -self.shared, self.other)

    def reversed(self) -> Step:
        """The same hop taken from its other end (a co-mention hop's subject is the entity it leaves)."""
        hop = self.hop
        if self.relation_id is None:
            hop = co_mention_hop(self.other, self.hop.object_name, self.source, self.hop.subject_name,
                                 self.hop.unit_ids)
        return Step(self.other, self.source, hop, self.relation_id, self.shared)


def relation_step(source: str, relation_id: str, hop: Hop) -> Step:
    other = hop.object_id if hop.subject_id == source else hop.subject_id
    return Step(source, other, hop, relation_id=relation_id)


def co_mention_hop(a: str, a_name: str, b: str, b_name: str, unit_ids: Iterable[str]) -> Hop:
    return Hop(subject_id=a, subject_name=a_name, type=CO_MENTION, predicate=CO_MENTION_PREDICATE, object_id=b,
               object_name=b_name, unit_ids=sorted(unit_ids)[:CO_MENTION_UNITS])


def co_mention_step(source: str, source_name: str, other: str, other_name: str, shared: int,
                    unit_ids: Iterable[str]) -> Step:
    return Step(source, other, co_mention_hop(source, source_name, other, other_name, unit_ids), shared=shared)


# read(entity_ids, fanout, co_mention, into) -> {entity id: its steps}. With ``fanout`` (``into`` is None):
# at least the first ``fanout`` relation steps and the first ``fanout`` co-mention steps of each entity in
# step order (more is harmless: the cut happens here). With ``into`` (``fanout`` is None): every step of
# each entity that ends in ``into``. Co-mention steps only when ``co_mention``. Entities of other tenants,
# or none, have no steps.
HopReader = Callable[[list[str], int | None, bool, list[str] | None], dict[str, list[Step]]]


def check_fanout(fanout: int) -> int:
    if not isinstance(fanout, int) or isinstance(fanout, bool) or fanout < 1:
        raise ValueError(f"fanout must be an int >= 1, got {fanout!r}")
    return fanout


@dataclass(frozen=True)
class _Partial:
    start: str
    steps: tuple[Step, ...]
    nodes: tuple[str, ...]

    @property
    def end(self) -> str:
        return self.nodes[-1]

    @property
    def sort_key(self) -> tuple[Any, ...]:
        return (len(self.steps), self.start, tuple(s.key for s in self.steps), self.end)

    def path(self) -> RelationPath:
        return RelationPath(start_id=self.start, end_id=self.end, hops=[s.hop for s in self.steps])


class _Fanout:
    """Each entity's first ``fanout`` steps, read once per entity."""

    def __init__(self, read: HopReader, fanout: int, co_mention: bool) -> None:
        self.read, self.fanout, self.co_mention = read, fanout, co_mention
        self.known: dict[str, list[Step]] = {}

    def steps(self, nodes: Sequence[str]) -> dict[str, list[Step]]:
        missing = sorted(set(nodes) - self.known.keys())
        if missing:
            got = self.read(missing, self.fanout, self.co_mention, None)
            for n in missing:
                self.known[n] = sorted(got.get(n, []), key=lambda s: s.key)[: self.fanout]
        return self.known

    def extend(self, frontier: Sequence[_Partial], want: int | None = None) -> list[_Partial]:
        """The simple one-step extensions of a frontier given in path order, in path order: all of them, or
        at least the first ``want``. The extensions of a path all come before those of the paths after it,
        so the frontier is read in growing chunks (8, 16, 32, ... paths) until ``want`` are found."""
        longer: list[_Partial] = []
        done, chunk = 0, 8 if want is not None else len(frontier)
        while done < len(frontier) and (want is None or len(longer) < want):
            part = frontier[done : done + chunk]
            known = self.steps([p.end for p in part])
            longer += [_Partial(p.start, (*p.steps, s), (*p.nodes, s.other))
                       for p in part for s in known[p.end] if s.other not in p.nodes]
            done, chunk = done + len(part), chunk * 2
        longer.sort(key=lambda p: p.sort_key)
        return longer


def relation_paths(read: HopReader, entity_ids: Sequence[str], max_hops: int, limit: int, fanout: int,
                   co_mention: bool) -> list[RelationPath]:
    """Simple paths of 1..max_hops hops from ``entity_ids``, each step among the first ``fanout`` steps of the
    entity it leaves, ordered by (hops, start id, step keys, end id); the first ``limit``.

    Built one hop count at a time; a frontier is only extended while the paths so far are fewer than
    ``limit``, and only as far as the paths still wanted, so no more than ``limit`` entities are read per
    hop count and at most ``limit * fanout`` partial paths exist at once, whatever the degrees."""
    check_hops(max_hops)
    check_fanout(fanout)
    if limit <= 0 or not entity_ids:
        return []
    hops = _Fanout(read, fanout, co_mention)
    frontier = [_Partial(s, (), (s,)) for s in sorted(set(entity_ids))]
    out: list[_Partial] = []
    for _ in range(max_hops):
        if not frontier or len(out) >= limit:
            break
        frontier = hops.extend(frontier, want=limit - len(out))
        out += frontier[: limit - len(out)]
    return [p.path() for p in out]


def _side(k: int) -> int:
    """The most hops either half of a k-hop connecting path may have."""
    return k // 2


def connecting_paths(read: HopReader, source_ids: Sequence[str], target_ids: Sequence[str], max_hops: int,
                     limit: int, fanout: int, co_mention: bool) -> list[RelationPath]:
    """Simple paths of 1..max_hops hops from a source to a target (not the source), grown from both ends.

    A path of k hops is one middle hop joining a source-side half and a target-side half of at most
    ``k // 2`` hops each (for odd k the middle hop is the centre one; for even k either central hop may be
    it). Each hop of a half is among the first ``fanout`` steps of the entity it leaves going away from its
    own end (source, or target), as in :func:`relation_paths`; the middle hop is any hop between the two
    halves' ends, so a direct hop between a source and a target is found however many hops either has.
    Ordered like relation_paths (hops oriented from source to target); the first ``limit``.

    Work: each half reads at most ``ends * fanout ** (max_hops // 2)`` entities' first ``fanout`` steps, and
    one read finds the middle hops from the source side's ends into the target side's ends."""
    check_hops(max_hops)
    check_fanout(fanout)
    sources, targets = sorted(set(source_ids)), sorted(set(target_ids))
    if limit <= 0 or not sources or not targets:
        return []
    hops = _Fanout(read, fanout, co_mention)
    depth = _side(max_hops)
    halves: list[list[_Partial]] = []
    for ends in (sources, targets):
        level = [_Partial(s, (), (s,)) for s in ends]
        half = list(level)
        for _ in range(depth):
            level = hops.extend(level)
            half += level
        halves.append(half)
    near, far = halves
    by_end: dict[str, list[_Partial]] = {}
    for p in far:
        by_end.setdefault(p.end, []).append(p)
    middle = read(sorted({p.end for p in near}), None, co_mention, sorted(by_end))
    found: dict[tuple[Any, ...], _Partial] = {}
    for a in near:
        for m in middle.get(a.end, []):
            for b in by_end.get(m.other, []):
                k = len(a.steps) + 1 + len(b.steps)
                if k > max_hops or max(len(a.steps), len(b.steps)) > _side(k) or set(a.nodes) & set(b.nodes):
                    continue
                back = [s.reversed() for s in reversed(b.steps)]
                p = _Partial(a.start, (*a.steps, m, *back), (*a.nodes, *reversed(b.nodes)))
                found.setdefault(p.sort_key, p)
    return [found[key].path() for key in sorted(found)[:limit]]
