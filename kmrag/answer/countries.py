"""The country a span gives an entity: "Samuel Hanson Stone (… near Richmond, Kentucky – …) was an American
politician" gives the United States; "Will James (…) was a French Canadian artist and writer of the American
West" gives Canada and France, not the United States of "the American West".

The first run of place names and nationalities that names a country decides (kmrag.nlp.places): a span opens
with what the entity is and where it is from, and what follows it is about something else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kmrag.nlp.places import country_of_run

PLACE_LABELS = frozenset({"GPE", "NORP"})
_JOINS = re.compile(r"[\s,\-–]*")  # "Lynn, Massachusetts, United States"; "French Canadian"
_GLOSS = re.compile(r"\s*:")  # "(German: Wir halten fest …)": the name of a language, not of a country


def place_names(ents: Sequence[tuple[str, str, int]]) -> set[str]:
    """The span's place names and nationalities as written, in lower case."""
    return {name.lower() for name, label, _ in ents if label in PLACE_LABELS}


def place_runs(text: str, ents: Sequence[tuple[str, str, int]]) -> list[list[str]]:
    """The span's place names and nationalities, grouped where they are written together, in order."""
    return [[name for name, _ in run] for _, run in _runs(text, ents)]


def _runs(text: str, ents: Sequence[tuple[str, str, int]]) -> list[tuple[int, list[tuple[str, str]]]]:
    runs: list[tuple[int, list[tuple[str, str]]]] = []
    end = -1
    for name, label, at in sorted(ents, key=lambda e: e[2]):
        if label not in PLACE_LABELS or _GLOSS.match(text, at + len(name)):
            continue
        if runs and end >= 0 and _JOINS.fullmatch(text[end:at]):
            runs[-1][1].append((name, label))
        else:
            runs.append((at, [(name, label)]))
        end = at + len(name)
    return runs


def country_in(text: str, ents: Sequence[tuple[str, str, int]], born: bool = False) -> frozenset[str]:
    """The countries of the span's first run of places that names one (empty when none does); a run outside
    brackets first: "X (born 1950 in Tehran) is an American actor" is American, the birthplace an aside. Asked
    where one was ``born``, the run after "born" ("born 1957 in Qazvin, Iran"), else nothing. A nationality is
    never read as a city's name."""
    runs = _runs(text, ents)
    if born:
        marks = [m.end() for m in _BORN.finditer(text)]
        runs = [r for r in runs if any(0 <= r[0] - m <= 60 and not re.search(r"[;)]", text[m:r[0]]) for m in marks)]
    for _at, run in sorted(runs, key=lambda r: not born and _in_brackets(text, r[0])):  # in order otherwise
        if found := country_of_run([n for n, _ in run], [label == "GPE" for _, label in run]):
            return found
    return frozenset()


_BORN = re.compile(r"\bborn\b|\bnative\s+of\b|\bb\.", re.I)


def _in_brackets(text: str, at: int) -> bool:
    before = text[:at]
    return before.count("(") > before.count(")")


def country_named(value: str) -> frozenset[str]:
    """The country of a value read as an answer ("American", "Lynn, Massachusetts", "San Diego")."""
    return country_of_run([p for p in re.split(r"\s*,\s*", value) if p])
