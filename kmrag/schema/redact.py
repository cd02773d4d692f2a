"""The one redaction of secrets in text kmrag shows or stores: messages, CLI output, job records.

Secrets are the Neo4j password, the PostgreSQL password (inside KMRAG_DATABASE_URL, URL or key=value
form), the LLM API key (KMRAG_LLM_API_KEY, OPENAI_API_KEY) and any password written into a URL's
userinfo or query. :func:`redact` hides both the known values (from the environment and from every
:class:`~kmrag.config.Settings` loaded in this process) and those patterns wherever they occur.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

MASK = "***"
SECRET_ENV = ("KMRAG_NEO4J_PASSWORD", "KMRAG_LLM_API_KEY", "OPENAI_API_KEY", "PGPASSWORD")
URL_ENV = ("KMRAG_DATABASE_URL", "KMRAG_NEO4J_URI", "KMRAG_LLM_BASE_URL")
MIN_SECRET = 4  # shorter values would mask ordinary text; such a secret is no secret anyway

_known: set[str] = set()
_URL_USERINFO = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@'\"]*:)(?P<pw>[^\s@'\"]*)(?P<at>@)")
_KV = re.compile(r"(?P<head>\b(?:password|passwd|pwd|api[_-]?key|apikey)\s*=\s*)(?P<q>['\"]?)(?P<pw>[^\s&'\"]+)",
                 re.IGNORECASE)
_BEARER = re.compile(r"(?P<head>\bBearer\s+)(?P<pw>[A-Za-z0-9._~+/=-]{8,})")


def url_secrets(url: str | None) -> list[str]:
    """The password of a URL's userinfo, and password-like query values, as written and unquoted."""
    if not url:
        return []
    out: list[str] = []
    try:
        parts = urlsplit(url)
        if parts.password:
            out += [parts.password, unquote(parts.password)]
        for k, v in parse_qsl(parts.query):
            if _KV.match(f"{k}=x") and v:
                out.append(v)
    except ValueError:
        pass
    out += [m.group("pw") for m in _KV.finditer(url)]  # key=value conninfo ("host=... password=...")
    return out


def register(*values: str | None) -> None:
    """Remember secret values (a loaded setting's password or key) so every later redact hides them."""
    for v in values:
        if v and len(v) >= MIN_SECRET:
            _known.add(v)


def register_settings(settings: Any) -> None:
    register(getattr(settings, "neo4j_password", None), getattr(settings, "llm_api_key", None),
             *url_secrets(getattr(settings, "database_url", None)), *url_secrets(getattr(settings, "neo4j_uri", None)),
             *url_secrets(getattr(settings, "llm_base_url", None)))


def known_secrets(environ: dict[str, str] | None = None) -> set[str]:
    env = os.environ if environ is None else environ
    found = {env[k] for k in SECRET_ENV if env.get(k)}
    for k in URL_ENV:
        found.update(url_secrets(env.get(k)))
    return {s for s in found | _known if len(s) >= MIN_SECRET}


def redact(text: str, extra: Iterable[str] = (), patterns: bool = True) -> str:
    """``text`` with every known secret value replaced by ``***``, and (``patterns``, for messages) every
    URL userinfo password, ``password=``/``api_key=`` value and bearer token too. Output that carries
    document text masks known values only, so a document's own "password=..." example reads as written."""
    if not text:
        return text
    if patterns:
        text = _URL_USERINFO.sub(lambda m: m.group("head") + MASK + m.group("at"), text)
        text = _KV.sub(lambda m: m.group("head") + m.group("q") + MASK, text)
        text = _BEARER.sub(lambda m: m.group("head") + MASK, text)
    for secret in sorted(known_secrets() | {s for s in extra if s and len(s) >= MIN_SECRET}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def redact_data(data: Any, patterns: bool = False) -> Any:
    """``data`` (JSON-like: dicts, lists, strings) with :func:`redact` applied to every string in it."""
    if isinstance(data, str):
        return redact(data, patterns=patterns)
    if isinstance(data, dict):
        return {redact_data(k, patterns): redact_data(v, patterns) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [redact_data(v, patterns) for v in data]
    return data
