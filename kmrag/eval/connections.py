"""How many connections a process holds to its services, counted three ways so a leak shows: the
psycopg pool's own statistics, PostgreSQL's count of kmrag's backends (pg_stat_activity, by
application_name, and those whose client port is one of this process's sockets), and this process's
open TCP sockets to the PostgreSQL and Bolt ports (from /proc; absent where there is no /proc)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kmrag.errors import ServiceUnavailable
from kmrag.units.pool import APPLICATION_NAME

POOL_STATS = ("pool_min", "pool_max", "pool_size", "pool_available", "requests_waiting")
PROBE_NAME = "kmrag-probe"  # the counting connection itself, never counted


def _port(url: str | None, default: int) -> int | None:
    if not url:
        return None
    try:
        return urlsplit(url).port or default
    except ValueError:
        return None


def own_sockets() -> list[tuple[int, int]] | None:
    """(local port, remote port) of this process's established TCP connections; None without /proc."""
    fd_dir, inodes = Path("/proc/self/fd"), set()
    try:
        for fd in os.listdir(fd_dir):
            try:
                link = os.readlink(fd_dir / fd)
            except OSError:
                continue
            if link.startswith("socket:["):
                inodes.add(link[8:-1])
    except OSError:
        return None
    out = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if len(f) > 9 and f[3] == "01" and f[9] in inodes:  # 01: ESTABLISHED
                out.append((int(f[1].rsplit(":", 1)[1], 16), int(f[2].rsplit(":", 1)[1], 16)))
    return out


def pool_stats(pool: Any) -> dict[str, int]:
    stats = pool.get_stats()
    return {k: int(stats.get(k, 0)) for k in POOL_STATS}


def pg_backends(database_url: str, local_ports: set[int] | None) -> dict[str, int | None]:
    """kmrag's backends on the server (any process), and this process's (by client port)."""
    import psycopg

    try:
        with psycopg.connect(database_url, application_name=PROBE_NAME, connect_timeout=10) as probe:
            rows = probe.execute("SELECT client_port FROM pg_stat_activity WHERE application_name = %s",
                                 (APPLICATION_NAME,)).fetchall()
    except psycopg.Error as e:
        raise ServiceUnavailable(f"cannot count PostgreSQL connections: {e}") from e
    mine = None if local_ports is None else sum(1 for (p,) in rows if p in local_ports)
    return {"pg_backends_kmrag": len(rows), "pg_backends_this_process": mine}


def bolt_pool(driver: Any) -> dict[str, int | None]:
    """The Neo4j driver's own view: connections its pool holds, and those lent out now (from the driver's
    internals, so None where a driver version lays them out differently)."""
    try:
        conns = [c for cs in driver._pool.connections.values() for c in cs]  # noqa: SLF001 - no public API
        return {"bolt_pool_open": len(conns), "bolt_in_use": sum(1 for c in conns if c.in_use)}
    except (AttributeError, TypeError):
        return {"bolt_pool_open": None, "bolt_in_use": None}


def connection_counts(pool: Any, database_url: str, neo4j_uri: str | None, driver: Any = None) -> dict[str, Any]:
    socks = own_sockets()
    pg_port, bolt_port = _port(database_url, 5432), _port(neo4j_uri, 7687)
    out: dict[str, Any] = {**pool_stats(pool),
                           **pg_backends(database_url, None if socks is None else {lp for lp, _ in socks})}
    out["pg_sockets"] = None if socks is None or pg_port is None else sum(1 for _, rp in socks if rp == pg_port)
    out["bolt_sockets"] = None if socks is None or bolt_port is None else sum(1 for _, rp in socks if rp == bolt_port)
    out.update(bolt_pool(driver) if driver is not None else {"bolt_pool_open": None, "bolt_in_use": None})
    return out


# equal before and after a run, or a connection was opened and not given back
LEAK_KEYS = ("pool_size", "requests_waiting", "pg_backends_this_process", "pg_sockets")


def leaks(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Connections opened and not given back: PostgreSQL counts that differ between the two snapshots, pooled
    connections still lent out at the end, and Bolt sockets outside the driver's pool or still in use. (The
    driver's pool may grow to the number of threads that used it at once and keeps those connections idle:
    growth alone is not a leak, and is reported beside.)"""
    out = [f"{k}: {before.get(k)} -> {after.get(k)}" for k in LEAK_KEYS if before.get(k) != after.get(k)]
    if after.get("pool_available") != after.get("pool_size"):
        out.append(f"{after.get('pool_size', 0) - after.get('pool_available', 0)} pooled connection(s) still "
                   "checked out")
    if after.get("bolt_in_use"):
        out.append(f"{after['bolt_in_use']} Bolt connection(s) still in use")
    if None not in (after.get("bolt_sockets"), after.get("bolt_pool_open")) and \
            after["bolt_sockets"] != after["bolt_pool_open"]:
        out.append(f"{after['bolt_sockets']} Bolt sockets open, {after['bolt_pool_open']} in the driver's pool")
    return out
