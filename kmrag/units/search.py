"""Searching active units: dense (pgvector cosine, HNSW or exact) and lexical (Okapi BM25 over the
tsvectors). Every query is scoped by tenant; retired units never come back.

BM25's statistics (units, total length, each lexeme's document frequency) and its postings are kept
at write time by PgUnitStore (kmrag.units.bm25), so a lexical query reads a bounded amount: one
indexed lookup per query term for its IDF, the ``depth`` postings where each term weighs most, and the
exact BM25 score of the best ``rescore`` candidates from their tsvectors."""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import BaseModel

from kmrag.schema.search_keys import search_key
from kmrag.units import bm25
from kmrag.units.base import PgBase

BM25_DEPTH = 200  # postings read per query term
BM25_RESCORE = 200  # candidates scored exactly


class ScoredUnit(BaseModel):
    id: str
    score: float


class UnitSearch(PgBase):
    def dense_search(self, tenant: str, vector: Any, k: int = 10, exact: bool = False) -> list[ScoredUnit]:
        """Top-k active units by cosine similarity (HNSW with iterative scan under the tenant filter;
        ``exact`` scans every row instead, for reproducible evaluation)."""
        vec = np.asarray(vector, dtype=np.float32)
        if vec.shape != (self.dim,):
            raise ValueError(f"query embedding has shape {vec.shape}, expected ({self.dim},)")
        with self._conn() as conn:
            conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                         "set_config('hnsw.ef_search', %s, true), set_config('enable_indexscan', %s, true)",
                         (str(max(40, 2 * int(k))), "off" if exact else "on"))
            rows = conn.execute(
                "SELECT id, 1 - (embedding <=> %s) AS score FROM kmrag_units "
                "WHERE tenant = %s AND retired_at IS NULL AND embedding IS NOT NULL "
                "ORDER BY embedding <=> %s LIMIT %s",
                (vec, tenant, vec, int(k)),
            ).fetchall()
        rows.sort(key=lambda r: (-r[1], r[0]))
        return [ScoredUnit(id=r[0], score=float(r[1])) for r in rows]

    def fulltext_search(self, tenant: str, query: str, k: int = 10) -> list[ScoredUnit]:
        """Top-k active units by Okapi BM25 (k1 = 1.2, b = 0.75) over the English tsvectors.

        Query terms are the stemmed lexemes of the question (stop words dropped); any term may
        match. Document frequencies and the average length (in distinct lexemes) are the tenant's
        active units', kept at write time, so scores are per tenant. The candidates are, per query
        term, the ``BM25_DEPTH`` units where it weighs most (every unit holding a rarer term); the best
        ``max(BM25_RESCORE, 4k)`` of them by those weights are scored exactly from their tsvectors.
        What a query reads is bounded by the number of its terms, not by the size of the tenant.
        """
        depth = max(BM25_DEPTH, 4 * int(k))
        with self._conn() as conn:
            rows = conn.execute(
                f"""
                WITH q AS (
                    SELECT DISTINCT lex FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS lex
                ), tot AS (
                    SELECT n::float8 AS n, greatest(total_len::float8 / greatest(n, 1), 1) AS avgdl
                    FROM kmrag_bm25_totals WHERE tenant = %(t)s AND n > 0
                ), terms AS (
                    SELECT s.id, s.lexeme, ln(1 + (tot.n - s.df + 0.5) / (s.df + 0.5)) AS w
                    FROM q JOIN kmrag_bm25_terms s ON s.tenant = %(t)s AND s.lexeme = q.lex
                    CROSS JOIN tot WHERE s.df > 0
                ), hits AS (
                    SELECT p.unit_id, sum(terms.w * p.impact) AS approx
                    FROM terms CROSS JOIN LATERAL (
                        SELECT unit_id, impact FROM kmrag_bm25_postings
                        WHERE term_id = terms.id ORDER BY impact DESC, unit_id LIMIT %(depth)s) AS p
                    GROUP BY p.unit_id ORDER BY approx DESC, p.unit_id LIMIT %(rescore)s
                ), qa AS (
                    SELECT array_agg(lexeme ORDER BY lexeme) AS lex, array_agg(w ORDER BY lexeme) AS w FROM terms
                )
                SELECT u.id,
                       round(sum(qa.w[array_position(qa.lex, e.lexeme)] * (cardinality(e.positions) * {bm25.K1 + 1})
                           / (cardinality(e.positions) + {bm25.K1} * ({1 - bm25.B} + {bm25.B} * length(u.tsv) / tot.avgdl))
                           )::numeric, 9)::float8 AS score
                FROM hits JOIN kmrag_units u ON u.tenant = %(t)s AND u.id = hits.unit_id AND u.retired_at IS NULL
                CROSS JOIN tot CROSS JOIN qa CROSS JOIN LATERAL unnest(u.tsv) AS e
                WHERE e.lexeme = ANY(qa.lex)
                GROUP BY u.id
                ORDER BY score DESC, u.id
                LIMIT %(k)s
                """,  # noqa: S608 - only this module's numeric constants are formatted in
                {"q": search_key(query) or query, "t": tenant, "k": int(k), "depth": depth, "rescore": max(BM25_RESCORE, 4 * int(k))},
            ).fetchall()
        return [ScoredUnit(id=r[0], score=float(r[1])) for r in rows]

    def fulltext_search_exhaustive(self, tenant: str, query: str, k: int = 10) -> list[ScoredUnit]:
        """The same BM25 computed the slow way, for reference: document frequencies counted and every
        matching unit scored per query (the cost grows with the tenant). Benchmarks and tests compare
        ``fulltext_search`` with it. (Scores of both are rounded to 9 decimals, so ties are broken by id
        whatever order the terms were summed in.)"""
        with self._conn() as conn:
            rows = conn.execute(
                f"""
                WITH terms AS (
                    SELECT DISTINCT lex FROM unnest(tsvector_to_array(to_tsvector('english', %(q)s))) AS lex
                ), stats AS (
                    SELECT count(*)::float8 AS n, coalesce(avg(length(tsv)), 1)::float8 AS avgdl
                    FROM kmrag_units WHERE tenant = %(t)s AND retired_at IS NULL
                ), idf AS (
                    SELECT terms.lex, ln(1 + (stats.n - df.c + 0.5) / (df.c + 0.5)) AS w
                    FROM terms, stats, LATERAL (
                        SELECT count(*)::float8 AS c FROM kmrag_units u
                        WHERE u.tenant = %(t)s AND u.retired_at IS NULL
                          AND u.tsv @@ quote_literal(terms.lex)::tsquery) AS df
                ), cand AS (
                    SELECT u.id, u.tsv FROM kmrag_units u
                    WHERE u.tenant = %(t)s AND u.retired_at IS NULL
                      AND u.tsv @@ (SELECT string_agg(quote_literal(lex), ' | ')::tsquery FROM terms)
                )
                SELECT cand.id,
                       round(sum(idf.w * (cardinality(e.positions) * {bm25.K1 + 1})
                           / (cardinality(e.positions) + {bm25.K1} * ({1 - bm25.B} + {bm25.B} * length(cand.tsv) / stats.avgdl))
                           )::numeric, 9)::float8 AS score
                FROM cand CROSS JOIN stats, LATERAL unnest(cand.tsv) AS e
                JOIN idf ON idf.lex = e.lexeme
                GROUP BY cand.id
                ORDER BY score DESC, cand.id
                LIMIT %(k)s
                """,  # noqa: S608 - only bm25's numeric constants are formatted in
                {"q": search_key(query) or query, "t": tenant, "k": int(k)},
            ).fetchall()
        return [ScoredUnit(id=r[0], score=float(r[1])) for r in rows]

    def title_forms(self, tenant: str, names: list[str]) -> dict[str, str]:
        """The titles of active units that are one of ``names`` (case-insensitive), as the tenant writes them,
        by their lower-case form: a lower-case question's "passions (1994 film)" is the tenant's "Passions (1994
        Film)". Where units write one title two ways, the way most of them do. Section headings ("Early life")
        are no names."""
        wanted = sorted({n.strip().lower() for n in names if n.strip()})
        if not wanted:
            return {}
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT title, count(*) FROM kmrag_units WHERE tenant = %s AND lower(title) = ANY(%s) "
                "AND retired_at IS NULL AND type <> 'section' GROUP BY title ORDER BY count(*) DESC, title",
                (tenant, wanted),
            ).fetchall()
        out: dict[str, str] = {}
        for title, _ in rows:
            out.setdefault(title.lower(), title)
        return out

    def titled(self, tenant: str, titles: list[str], per_title: int = 3) -> dict[str, list[tuple[str, str]]]:
        """Active units whose title is one of ``titles`` (case-insensitive), as (unit id, source id) in
        reading order: for a passage corpus, the passage about an entity; for documents, the first units
        under the section headed by it (the heading unit itself carries no facts and is left out)."""
        wanted = sorted({t.strip().lower() for t in titles if t.strip()})
        if not wanted:
            return {}
        # "Green (album)", "Mercury (planet)": a title with a parenthetical qualifier is about the name too
        patterns = [t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " (%" for t in wanted]
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT lower(title), id, source_id FROM kmrag_units WHERE tenant = %s "
                "AND (lower(title) = ANY(%s) OR lower(title) LIKE ANY(%s)) "
                "AND retired_at IS NULL AND type <> 'section' ORDER BY lower(title), source_id, ordinal, id",
                (tenant, wanted, patterns),
            ).fetchall()
        out: dict[str, list[tuple[str, str]]] = {}
        for title, uid, sid in rows:
            key = title if title in wanted else title.split(" (", 1)[0]
            if len(out.setdefault(key, [])) < per_title:
                out[key].append((uid, sid))
        return out
