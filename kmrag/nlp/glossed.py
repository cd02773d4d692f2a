"""Glossed terms: a list item, a line or a definition that opens with a thing's name, an optional gloss in
brackets, then a dash or a colon ("- **Millstone** (compactor) — Merges small segment files ...", "Ledger: the
write-ahead log"). What follows describes the thing. Retrieval looks for such lines when a question asks what a
thing does; the reader reads the description from them."""

from __future__ import annotations

import re
from collections.abc import Sequence

# a name's last word that says only what kind of thing it is ("the Sieve component" is Sieve)
KIND_HEADS = frozenset("""component service module feature tool system process plugin library package app application
api endpoint daemon command function option setting programme program scheme step""".split())
MAX_DESCRIPTION = 300


def thing_names(thing: str) -> list[str]:
    """The names a thing goes by: as asked, and without a last word that only says its kind."""
    words = thing.split()
    return [thing, " ".join(words[:-1])] if len(words) > 1 and words[-1].lower() in KIND_HEADS else [thing]


def glossed(text: str, names: Sequence[str]) -> str | None:
    """The description after a glossed term at the start of ``text`` that is one of ``names``, or None."""
    for name in names:
        m = re.match(rf"\s*(?:[-*•+]\s+|\d{{1,2}}[.)]\s+)?(?:\*\*|__)?{re.escape(name)}(?:\*\*|__)?\s*"
                     rf"(?:\([^()]{{1,80}}\)\s*)?(?:\*\*|__)?\s*(?:[—–:]|--?)(?:\*\*|__)?\s+(?=\S)", text, re.I)
        if m is not None:
            desc = text[m.end():].strip().rstrip(".;:").strip()
            if 3 <= len(desc) <= MAX_DESCRIPTION and re.search(r"[a-z]{3}", desc):
                return desc
    return None


def glosses(content: str, names: Sequence[str]) -> bool:
    """A line of ``content`` glosses one of ``names``."""
    return any(glossed(line, names) is not None for line in content.splitlines())
