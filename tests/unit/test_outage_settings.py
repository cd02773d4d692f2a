"""Timeouts and retries for outages (issue 11): settings from the environment, and the bounded
PostgreSQL retry with backoff (without a server: the callables raise as psycopg does)."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from kmrag.config import load_settings
from kmrag.errors import ConfigError, PostgresUnavailable
from kmrag.units.pool import connect_timeout, unreachable
from kmrag.units.retry import RetryingUnits, pg_retry

pytestmark = pytest.mark.unit


def test_outage_settings_come_from_the_environment(tmp_path: Path) -> None:
    s = load_settings(config_file=tmp_path / "none.toml", environ={
        "KMRAG_PG_CONNECT_TIMEOUT_S": "2", "KMRAG_PG_STATEMENT_TIMEOUT_MS": "1500", "KMRAG_PG_RETRIES": "1",
        "KMRAG_PG_RETRY_BACKOFF_S": "0.1", "KMRAG_NEO4J_CONNECTION_TIMEOUT_S": "3", "KMRAG_NEO4J_TX_TIMEOUT_S": "9",
        "KMRAG_NEO4J_WRITE_RETRY_S": "7", "KMRAG_NEO4J_READ_RETRY_S": "0.5"})
    assert (s.pg_connect_timeout_s, s.pg_statement_timeout_ms, s.pg_retries, s.pg_retry_backoff_s) == (2, 1500, 1, 0.1)
    assert (s.neo4j_connection_timeout_s, s.neo4j_tx_timeout_s, s.neo4j_write_retry_s, s.neo4j_read_retry_s) == (
        3, 9, 7, 0.5)
    d = load_settings(config_file=tmp_path / "none.toml", environ={})
    assert d.pg_statement_timeout_ms == 60000 and d.neo4j_read_retry_s < d.neo4j_write_retry_s


def test_negative_timeouts_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="KMRAG_PG_RETRIES"):
        load_settings(config_file=tmp_path / "none.toml", environ={"KMRAG_PG_RETRIES": "-1"})


def test_libpq_connect_timeout_is_whole_seconds_of_at_least_two() -> None:
    assert [connect_timeout(x) for x in (0.5, 2.4, 7.6)] == [2, 2, 8]


class Flaky:
    def __init__(self, failures: int, error: Exception) -> None:
        self.failures, self.error, self.calls = failures, error, 0

    def write(self, value: int) -> int:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return value


def test_a_lost_connection_is_retried_with_backoff_then_succeeds() -> None:
    flaky = Flaky(2, psycopg.OperationalError("server closed the connection unexpectedly"))
    seen: list[int] = []
    units = RetryingUnits(flaky, retries=3, backoff_s=0.01, on_retry=lambda n, e: seen.append(n))
    assert units.write(7) == 7 and flaky.calls == 3 and seen == [1, 2]


def test_retries_are_bounded_and_the_error_names_the_server_and_what_to_do() -> None:
    class Pool:
        conninfo = "postgresql://kmrag:secret@db.example:5432/kmrag"

    flaky = Flaky(10, psycopg.OperationalError("connection refused"))
    with pytest.raises(PostgresUnavailable) as err:
        pg_retry(lambda: flaky.write(1), retries=2, backoff_s=0.01, pool=Pool())
    msg = str(err.value)
    assert flaky.calls == 3 and "gave up after 2 retries" in msg
    assert "postgresql://kmrag:***@db.example:5432/kmrag" in msg and "secret" not in msg
    assert "services/postgres.sh start" in msg and "run the command again" in msg
    assert "connection refused" in str(unreachable(Pool(), psycopg.OperationalError("connection refused")))


def test_a_statement_timeout_is_not_retried() -> None:
    flaky = Flaky(10, psycopg.errors.QueryCanceled("canceling statement due to statement timeout"))
    with pytest.raises(psycopg.errors.QueryCanceled):
        pg_retry(lambda: flaky.write(1), retries=3, backoff_s=0.01)
    assert flaky.calls == 1
