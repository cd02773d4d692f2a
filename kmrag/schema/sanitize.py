"""The one sanitiser for identifiers that cannot be query parameters.

Neo4j relationship types and labels cannot be passed as parameters, so every such identifier
built from text passes through here: it must end up matching ``^[A-Z][A-Z0-9_]*$``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from kmrag.errors import InvalidIdentifier

IDENTIFIER_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")
MAX_LEN = 64
_NON_WORD = re.compile(r"[^A-Z0-9]+")


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
