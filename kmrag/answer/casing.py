"""A question typed all in lower case ("foo fighters or awolnation, which band got together first") gets its
names' capitals back from the tenant's own entities, so that the question analysis finds them as names.

Every run of one to eight words of the question is looked up as an entity name or alias (case-insensitive,
one query), and as a unit's title ("passions (1994 film)": the tenant's "Passions (1994 Film)"); the longest
runs found, not overlapping, take the casing of the entity's name or the title ("Foo Fighters"). A run needs
two words that are no stop words ("the band" is one), and a single word is taken only when its entity's name
has a capital past its first letter ("AWOLNATION", "YouTube"): "band" and "the band" stay words even where a
group is called "The Band". A question with any capital letter is left as typed: its writer chose its casing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kmrag.answer.support import STOP
from kmrag.schema.ids import canonical_entity_name

MAX_WORDS = 8
_WORD = re.compile(r"[^\s,;:?!]+")


def restore_case(graph: Any, tenant: str, question: str,
                 titles: Callable[[list[str]], dict[str, str]] | None = None) -> str:
    """``question`` with the names the tenant knows written as the tenant writes them (see the module);
    unchanged when it has a capital letter, names none, or the graph cannot be asked. ``titles`` looks runs up
    as the titles of the tenant's units too (lower-case form -> title as written)."""
    if not question.strip() or any(c.isupper() for c in question) or graph is None:
        return question
    words = [(m.start(), m.end()) for m in _WORD.finditer(question)]
    runs: dict[str, list[tuple[int, int]]] = {}
    for i in range(len(words)):
        for j in range(i, min(len(words), i + MAX_WORDS)):
            first, last = question[words[i][0]:words[i][1]], question[words[j][0]:words[j][1]].rstrip(".")
            if last.lower() in STOP or (first.lower() in STOP and first.lower() != "the"):
                continue
            content = [w for w in question[words[i][0]:words[j][1]].lower().split() if w not in STOP]
            if len(content) < 2 and i != j or i == j and (first.lower() == "the" or len(first) < 3):
                continue  # "the band" is a word with its article, not a name of two words
            text = question[words[i][0]:words[j][1]].rstrip(".")
            runs.setdefault(canonical_entity_name(text), []).append((words[i][0], words[i][0] + len(text)))
    if not runs:
        return question
    try:
        found = graph.find_entities(tenant, list(runs))
    except Exception:  # noqa: BLE001 - a graph that cannot be asked leaves the question as typed
        return question
    names: dict[str, str] = {}
    for e in found:
        for n in (e.name, *e.aliases):
            names.setdefault(canonical_entity_name(n), n)
    for n in _titles(titles, list(runs)):
        names.setdefault(canonical_entity_name(n), n)
    spans = sorted(((a, b, names[k]) for k, places in runs.items() if k in names for a, b in places
                    if " " in question[a:b].strip() or any(c.isupper() for c in names[k][1:])),
                   key=lambda x: (-(x[1] - x[0]), x[0]))
    taken: list[tuple[int, int, str]] = []
    for a, b, name in spans:
        if all(b <= x or a >= y for x, y, _ in taken) and name.lower() == question[a:b].lower():
            taken.append((a, b, name))
    out = question
    for a, b, name in sorted(taken, reverse=True):
        out = out[:a] + name + out[b:]
    return out[:1].upper() + out[1:] if taken else question


def _titles(titles: Callable[[list[str]], dict[str, str]] | None, runs: list[str]) -> list[str]:
    if titles is None:
        return []
    try:
        return list(titles(runs).values())
    except Exception:  # noqa: BLE001 - a store that cannot be asked leaves the names to the graph
        return []


# a search-box comparison with nothing between the two names: "Matías Molina Sunisa Lee same nationality"
_RUN_SAME = re.compile(r"^\s*(?:(?i:search|query|find|q)\s*:\s*)?(?P<run>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){1,9})\s+"
                       r"(?:the\s+)?same\s+(?P<what>[a-z]+(?:\s+of\s+[a-z]+)?)\s*\??\s*$")


def split_pair(graph: Any, tenant: str, question: str,
               titles: Callable[[list[str]], dict[str, str]] | None = None) -> str:
    """"Matías Molina Sunisa Lee same nationality" -> "Matías Molina and Sunisa Lee: same nationality?" when the
    run of names splits one way only into two names the tenant knows (entities, aliases or unit titles);
    otherwise the question as typed."""
    m = _RUN_SAME.match(question)
    if m is None or graph is None:
        return question
    words = m.group("run").split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    wanted = sorted({canonical_entity_name(p) for pair in splits for p in pair})
    try:
        known = {canonical_entity_name(n) for e in graph.find_entities(tenant, wanted) for n in (e.name, *e.aliases)}
    except Exception:  # noqa: BLE001 - a graph that cannot be asked leaves the question as typed
        return question
    known |= {canonical_entity_name(t) for t in _titles(titles, wanted)}
    both = [(a, b) for a, b in splits if canonical_entity_name(a) in known and canonical_entity_name(b) in known]
    if len(both) != 1:
        return question
    a, b = both[0]
    return f"{a} and {b}: same {m.group('what')}?"
