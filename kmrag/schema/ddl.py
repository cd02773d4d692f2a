"""Database schemas shipped as package data, rendered safely."""

from __future__ import annotations

from importlib import resources

SCHEMA_VERSION = "1"
# what full text indexes: the title (weight B) and content (weight A), or their search keys when set
TSV_EXPR = ("setweight(to_tsvector('english', coalesce(search_title, title, '')), 'B') || "
            "setweight(to_tsvector('english', coalesce(search_text, content)), 'A')")


def postgres_statements(dim: int) -> list[str]:
    if not isinstance(dim, int) or isinstance(dim, bool) or not 1 <= dim <= 16000:
        raise ValueError(f"embedding dimension must be an int in 1..16000, got {dim!r}")
    text = resources.files("kmrag.schema").joinpath("postgres.sql").read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("--"))
    return [s.strip() for s in body.format(dim=dim, tsv=TSV_EXPR).split(";") if s.strip()]


def neo4j_statements() -> list[str]:
    text = resources.files("kmrag.schema").joinpath("neo4j.cypher").read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]
