"""BM25 statistics kept at write time, so a lexical query's cost does not grow with the corpus.

Per tenant, over its active units only: how many there are and their summed length
(``kmrag_bm25_totals``), each lexeme's document frequency (``kmrag_bm25_terms``), and one posting per
(lexeme, unit) ordered by the unit's weight for that term at a reference length
(``kmrag_bm25_postings``). PgUnitStore calls ``add`` after units become active (insert, changed text,
un-retire) and ``remove`` before they stop being so (retire, delete, changed text), on the
connection of the write itself: the statistics commit or roll back with the units. Rows are locked
before they are counted out, and writers of one tenant take its writer lock (kmrag.units.lock), so two
writes never count the same unit twice.

Lengths and term frequencies are those the query scores with: ``length(tsv)`` (distinct lexemes) and
``cardinality(positions)``. A posting's impact depends on (tf, length) only, never on the tenant's
current average, so it can be recomputed to delete the posting by its key and the order of postings
never depends on the order units were written in.
"""

from __future__ import annotations

from typing import Any

K1 = 1.2
B = 0.75
REF_LEN = 50.0  # the length a posting's impact is computed at (a typical unit: 20-60 distinct lexemes)


def impact_sql(tf: str, dl: str) -> str:
    """The SQL expression of a posting's impact (tf, dl are column expressions of this module)."""
    return (f"({tf}::float8 * {K1 + 1} / ({tf}::float8 + {K1} * ({1 - B} + {B} * {dl}::float8 / {REF_LEN})))"
            "::real")


# the lexemes of the selected active units: unit, lexeme, tf, unit length
_SRC = ("SELECT u.id AS unit_id, e.lexeme, cardinality(e.positions) AS tf, length(u.tsv) AS dl "
        "FROM kmrag_units u CROSS JOIN LATERAL unnest(u.tsv) AS e "
        "WHERE u.tenant = %(t)s AND u.retired_at IS NULL AND {where}")
_TOTALS = ("SELECT count(*) AS n, coalesce(sum(length(u.tsv)), 0) AS len FROM kmrag_units u "
           "WHERE u.tenant = %(t)s AND u.retired_at IS NULL AND {where}")

SELECTORS = {"ids": "u.id = ANY(%(ids)s)", "source": "u.source_id = %(sid)s", "tenant": "true"}

_ADD = f"""
WITH src AS ({_SRC}),
up AS (
    INSERT INTO kmrag_bm25_terms AS s (tenant, lexeme, df)
    SELECT %(t)s, lexeme, count(*) FROM src GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (tenant, lexeme) DO UPDATE SET df = s.df + EXCLUDED.df
    RETURNING s.id, s.lexeme
), post AS (
    INSERT INTO kmrag_bm25_postings (term_id, impact, unit_id)
    SELECT up.id, {impact_sql("src.tf", "src.dl")}, src.unit_id FROM src JOIN up ON up.lexeme = src.lexeme
)
INSERT INTO kmrag_bm25_totals AS x (tenant, n, total_len)
SELECT %(t)s, tot.n, tot.len FROM ({_TOTALS}) AS tot WHERE tot.n > 0
ON CONFLICT (tenant) DO UPDATE SET n = x.n + EXCLUDED.n, total_len = x.total_len + EXCLUDED.total_len
"""  # noqa: S608 - only this module's constant fragments are formatted in; every value is a parameter

_REMOVE = f"""
WITH src AS ({_SRC}),
t AS (
    SELECT s.id AS term_id, src.unit_id, src.tf, src.dl FROM src
    JOIN kmrag_bm25_terms s ON s.tenant = %(t)s AND s.lexeme = src.lexeme
), del AS (
    DELETE FROM kmrag_bm25_postings p USING t
    WHERE p.term_id = t.term_id AND p.impact = {impact_sql("t.tf", "t.dl")} AND p.unit_id = t.unit_id
), dec AS (
    INSERT INTO kmrag_bm25_terms AS s (tenant, lexeme, df)
    SELECT %(t)s, lexeme, -count(*) FROM src GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (tenant, lexeme) DO UPDATE SET df = s.df + EXCLUDED.df
    RETURNING s.lexeme, s.df
), tot AS (
    UPDATE kmrag_bm25_totals x SET n = x.n - tot.n, total_len = x.total_len - tot.len
    FROM ({_TOTALS}) AS tot WHERE x.tenant = %(t)s AND tot.n > 0
)
SELECT lexeme FROM dec WHERE df <= 0
"""  # noqa: S608 - as _ADD


def add(conn: Any, tenant: str, selector: str, **params: Any) -> None:
    """Count the selected units, now active, into the tenant's statistics (after the write)."""
    where = SELECTORS[selector]
    conn.execute(_ADD.format(where=where), {"t": tenant, **params})


def remove(conn: Any, tenant: str, selector: str, **params: Any) -> None:
    """Take the selected active units out of the tenant's statistics (before they are retired, deleted or
    rewritten); lexemes no unit holds any more are forgotten."""
    where = SELECTORS[selector]
    # the rows are locked first: a concurrent upsert of one of them waits, then sees it retired or gone
    conn.execute(f"SELECT 1 FROM kmrag_units u WHERE u.tenant = %(t)s AND u.retired_at IS NULL AND {where} "  # noqa: S608
                 "FOR UPDATE", {"t": tenant, **params})
    gone = [r[0] for r in conn.execute(_REMOVE.format(where=where), {"t": tenant, **params}).fetchall()]
    if gone:
        conn.execute("DELETE FROM kmrag_bm25_terms WHERE tenant = %s AND lexeme = ANY(%s) AND df <= 0",
                     (tenant, gone))


def clear(conn: Any, tenant: str) -> None:
    conn.execute("DELETE FROM kmrag_bm25_postings WHERE term_id IN "
                 "(SELECT id FROM kmrag_bm25_terms WHERE tenant = %s)", (tenant,))
    conn.execute("DELETE FROM kmrag_bm25_terms WHERE tenant = %s", (tenant,))
    conn.execute("DELETE FROM kmrag_bm25_totals WHERE tenant = %s", (tenant,))


def rebuild(conn: Any, tenant: str) -> None:
    """Recount a tenant's statistics from its active units (an upgrade, or a repair)."""
    clear(conn, tenant)
    add(conn, tenant, "tenant")
    conn.execute("INSERT INTO kmrag_bm25_totals (tenant) VALUES (%s) ON CONFLICT (tenant) DO NOTHING", (tenant,))


def unkept_tenants(conn: Any) -> list[str]:
    """Tenants with unit rows but no statistics (written before they were kept). A tenant's first unit
    write creates its totals row, so this is every tenant to count; one index probe per tenant."""
    rows = conn.execute(
        "WITH RECURSIVE t AS (SELECT min(tenant) AS tenant FROM kmrag_units UNION ALL "
        "SELECT (SELECT min(u.tenant) FROM kmrag_units u WHERE u.tenant > t.tenant) FROM t WHERE t.tenant IS NOT NULL) "
        "SELECT tenant FROM t WHERE tenant IS NOT NULL AND NOT EXISTS "
        "(SELECT 1 FROM kmrag_bm25_totals x WHERE x.tenant = t.tenant)").fetchall()
    return [r[0] for r in rows]


def stored(conn: Any, tenant: str, postings: bool = True) -> dict[str, Any]:
    """The tenant's statistics as kept: totals, document frequencies, and (``postings``) postings."""
    tot = conn.execute("SELECT n, total_len FROM kmrag_bm25_totals WHERE tenant = %s", (tenant,)).fetchone()
    df = dict(conn.execute("SELECT lexeme, df FROM kmrag_bm25_terms WHERE tenant = %s", (tenant,)).fetchall())
    n, total = (int(tot[0]), int(tot[1])) if tot else (0, 0)
    out: dict[str, Any] = {"n": n, "total_len": total, "df": df}
    if postings:
        post = conn.execute(
            "SELECT s.lexeme, p.unit_id, p.impact FROM kmrag_bm25_postings p JOIN kmrag_bm25_terms s "
            "ON s.id = p.term_id WHERE s.tenant = %s", (tenant,)).fetchall()
        out["postings"] = sorted((r[0], r[1], float(r[2])) for r in post)
    return out


def recount(conn: Any, tenant: str, postings: bool = True) -> dict[str, Any]:
    """The same statistics computed afresh from the active units (what ``stored`` must equal)."""
    src = _SRC.format(where="true")
    tot = conn.execute(_TOTALS.format(where="true"), {"t": tenant}).fetchone()
    df = dict(conn.execute(f"SELECT lexeme, count(*) FROM ({src}) s GROUP BY lexeme",  # noqa: S608 - constants
                           {"t": tenant}).fetchall())
    out: dict[str, Any] = {"n": int(tot[0]), "total_len": int(tot[1]), "df": {k: int(v) for k, v in df.items()}}
    if postings:
        post = conn.execute(f"SELECT lexeme, unit_id, {impact_sql('tf', 'dl')} FROM ({src}) s",  # noqa: S608
                            {"t": tenant}).fetchall()
        out["postings"] = sorted((r[0], r[1], float(r[2])) for r in post)
    return out
