"""One exception root for kmrag; narrow subclasses say what went wrong and where."""

from __future__ import annotations


class KmragError(Exception):
    """Root of every error kmrag raises on purpose."""


class ConfigError(KmragError):
    """A setting is missing or malformed."""


class ServiceUnavailable(KmragError):
    """A backing service (Neo4j, PostgreSQL, an LLM endpoint) cannot be reached."""


class Neo4jUnavailable(ServiceUnavailable):
    """Neo4j cannot be reached (refused, timed out, or went away mid-transaction)."""


class PostgresUnavailable(ServiceUnavailable):
    """PostgreSQL cannot be reached (refused, timed out, restarted under a connection)."""


class SchemaError(KmragError):
    """The database schema is missing or does not match what kmrag expects."""


class InvalidIdentifier(KmragError):
    """A value that would become a query identifier failed the sanitiser."""


class StoreError(KmragError):
    """A graph or unit store operation failed."""


class BadInput(KmragError):
    """A document, record or question cannot be used; the message names it and why."""


class NotFound(BadInput):
    """What was asked for (a unit, entity, answer, job, source, path) does not exist; exit status 1."""


class ModelNotInstalled(KmragError):
    """An NLP or embedding model package is not installed."""


class OptionalDependencyMissing(KmragError):
    """An optional provider was configured but its package is not installed."""


class EmbedderMismatch(KmragError):
    """A tenant's vectors were made with another embedder than the one configured: searching or writing it
    with this one would compare vectors of two different spaces. The message names both and the fix."""


class DeadlinePassed(KmragError):
    """The time given to answer ran out: the controllers stopped at a step boundary (the HTTP API answers 504)."""

    def __init__(self, message: str, reached: str) -> None:
        super().__init__(message)
        self.reached = reached
