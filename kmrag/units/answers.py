"""Stored answers: what was asked, what was answered, and the units cited, for the audit.

Answers are events: written once, never updated. The cited units are read back with their retirement
state (retired units stay readable by ID), so an audit shows whether the evidence still stands.
"""

from __future__ import annotations

import json
from typing import Any

from kmrag.schema import Answer
from kmrag.units.base import PgBase

_COLUMNS = "id, question, text, direct, statements, citations, confidence, generator, strategy, trace, created_at"


class AnswerRecords(PgBase):
    def save_answer(self, answer: Answer) -> None:
        with self._conn() as conn:
            conn.execute(
                "INSERT INTO kmrag_answers (tenant, id, question, text, direct, statements, citations, confidence, "
                "generator, strategy, trace, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (tenant, id) DO NOTHING",
                (answer.tenant, answer.id, answer.question, answer.text, answer.direct,
                 json.dumps([s.model_dump() for s in answer.statements]),
                 json.dumps([c.model_dump() for c in answer.citations]), answer.confidence, answer.generator,
                 answer.strategy, json.dumps(answer.trace, default=str), answer.created_at),
            )

    def get_answer(self, tenant: str, answer_id: str) -> Answer | None:
        if "\x00" in answer_id:
            return None  # PostgreSQL text holds no NUL: no such answer
        with self._conn() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM kmrag_answers WHERE tenant = %s AND id = %s",  # noqa: S608
                               (tenant, answer_id)).fetchone()
        return self._answer(tenant, row) if row else None

    def list_answers(self, tenant: str, limit: int = 20, offset: int = 0) -> list[Answer]:
        with self._conn() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM kmrag_answers WHERE tenant = %s "  # noqa: S608
                                "ORDER BY created_at DESC, id LIMIT %s OFFSET %s", (tenant, limit, offset)).fetchall()
        return [self._answer(tenant, r) for r in rows]

    def unit_history(self, tenant: str, unit_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Per unit: when it was retired (None while current) and the version its source is at now."""
        if not unit_ids:
            return {}
        with self._conn() as conn:
            rows = conn.execute(
                "SELECT u.id, u.retired_at, u.created_at, s.version, s.uri FROM kmrag_units u "
                "LEFT JOIN kmrag_sources s ON s.tenant = u.tenant AND s.id = u.source_id "
                "WHERE u.tenant = %s AND u.id = ANY(%s)", (tenant, unit_ids)).fetchall()
        return {r[0]: {"retired_at": r[1], "created_at": r[2], "source_version_now": r[3], "source_uri": r[4]}
                for r in rows}

    @staticmethod
    def _answer(tenant: str, r: Any) -> Answer:
        # the answer's own "done" is its last (a question of several parts holds each part's before it)
        done = next((s for s in reversed(r[9] or []) if isinstance(s, dict) and s.get("step") == "done"), {})
        return Answer(id=r[0], tenant=tenant, question=r[1], text=r[2], direct=r[3], statements=r[4] or [],
                      citations=r[5] or [], confidence=float(r[6] or 0), generator=r[7] or "", strategy=r[8] or "",
                      trace=r[9] or [], created_at=r[10], confidence_why=done.get("confidence_why", ""),
                      evidence=done.get("evidence", []), basis=done.get("basis"))
