"""The one sanitiser for identifiers that cannot be query parameters, and the one check of tenant names.

Neo4j relationship types and labels cannot be passed as parameters, so every such identifier
built from text passes through here: it must end up matching ``^[A-Z][A-Z0-9_]*$``.

Tenant names are always query parameters, but they also name files (the embedded graph store), lock
keys, reports and Neo4j Browser snippets, so they are held to :data:`TENANT_RE` wherever one enters:
settings (``KMRAG_TENANT``, ``--tenant``, kmrag.toml), the models every store writes, and every store
method that takes a tenant (:func:`tenant_checked`).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

from kmrag.errors import InvalidIdentifier

IDENTIFIER_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
MAX_LEN = 64
_NON_WORD = re.compile(r"[^A-Z0-9]+")
TENANT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
C = TypeVar("C", bound=type)


def relationship_type(predicate: str) -> str:
    """Turn predicate text ("is capital of") into a relationship type ("IS_CAPITAL_OF").

    Accents are folded, every run of other characters becomes one underscore, a leading digit
    gets an ``R_`` prefix. A predicate that is partly Latin keeps its folded Latin part
    ("born 出生于" -> "BORN").

    A predicate with letters or digits that do not fold to ASCII at all (Chinese "出生于",
    Russian "родился в", Arabic "وُلد في") gets a stable hashed type instead of being dropped:
    ``REL_`` + the first 10 upper-case hex digits of the SHA-256 of the predicate, NFKC-normalised,
    whitespace-collapsed and case-folded. The same predicate always gives the same type; callers
    keep the original predicate text as a property of the relation.

    Raises InvalidIdentifier when the predicate has no letter or digit at all (empty, whitespace
    or punctuation only).
    """
    folded = unicodedata.normalize("NFKD", predicate).encode("ascii", "ignore").decode("ascii")
    ident = _NON_WORD.sub("_", folded.upper()).strip("_")[:MAX_LEN].rstrip("_")
    if not ident:
        canonical = " ".join(unicodedata.normalize("NFKC", predicate).split()).casefold()
        if any(ch.isalnum() for ch in canonical):
            ident = "REL_" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:10].upper()
    if ident and ident[0].isdigit():
        ident = "R_" + ident
    return check_identifier(ident, what=f"relationship type from predicate {predicate!r}")


def check_identifier(ident: str, what: str = "identifier") -> str:
    """Return ``ident`` unchanged if it is safe to place in a query string, else raise."""
    if not isinstance(ident, str) or len(ident) > MAX_LEN or not IDENTIFIER_RE.fullmatch(ident):
        raise InvalidIdentifier(f"{what}: {ident!r} is not a safe identifier (must match {IDENTIFIER_RE.pattern})")
    return ident


def valid_tenant(tenant: object) -> bool:
    return isinstance(tenant, str) and bool(TENANT_RE.fullmatch(tenant)) and ".." not in tenant


def check_tenant(tenant: object) -> str:
    """Return ``tenant`` unchanged if it is a valid tenant name, else raise InvalidIdentifier naming it.

    Valid: 1-64 characters matching :data:`TENANT_RE` (letters, digits, ``_ . -``, starting with a
    letter or digit) and no ``..``. Quotes, slashes, backslashes, spaces, control characters and
    anything else are refused, never cleaned up: two different inputs never become one tenant."""
    if valid_tenant(tenant):
        return tenant  # type: ignore[return-value]
    raise InvalidIdentifier(f"tenant {tenant!r} is not a valid tenant name: it must match {TENANT_RE.pattern} "
                            "(1-64 letters, digits, '_', '.', '-', starting with a letter or digit, no '..')")


def tenant_field(tenant: str) -> str:
    """:func:`check_tenant` for a pydantic field validator (which reports a ValueError as the field's error)."""
    try:
        return check_tenant(tenant)
    except InvalidIdentifier as e:
        raise ValueError(str(e)) from None


def tenant_checked(cls: C) -> C:
    """Class decorator: every public method of ``cls`` (inherited ones included) with a ``tenant`` parameter
    checks it with :func:`check_tenant` before running, so no store call reads or writes under a name that
    settings would refuse. Methods taking models get the check from the models' own validation."""
    for name in dir(cls):
        if name.startswith("_"):
            continue
        fn = inspect.getattr_static(cls, name)
        if isinstance(fn, staticmethod | classmethod) or not inspect.isfunction(fn):
            continue
        params = list(inspect.signature(fn).parameters)
        if "tenant" in params:
            setattr(cls, name, _checking(fn, params.index("tenant")))
    return cls


def _checking(fn: Callable[..., Any], index: int) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        check_tenant(kwargs["tenant"] if "tenant" in kwargs else args[index] if index < len(args) else None)
        return fn(*args, **kwargs)

    wrapper.__tenant_checked__ = True  # type: ignore[attr-defined]
    return wrapper
