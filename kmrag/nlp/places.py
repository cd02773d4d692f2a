"""Which country a place name or a nationality names: "Massachusetts", "American" and "United States" all name
the United States. Read from the country data of the ``countryinfo`` package (MIT; JSON files read by path):
each country's name, other spellings, demonym, capital and provinces, with the United Kingdom's constituent
countries added (the package lists its counties only) and a few countries of the past ("Soviet").

A name that is a country, or a nationality, names that country alone. A province's name names every country
that has a province so called ("Punjab": India and Pakistan), and a country's name that is also another
country's province names both ("Georgia"), so a caller can see the name leaves the country open.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

PACKAGE = "countryinfo"
# the United Kingdom's constituent countries and their peoples, which the package does not list
_UK = ("England", "Scotland", "Wales", "Northern Ireland", "English", "Scottish", "Scots", "Welsh", "Northern Irish",
       "Britain")
# countries of the past people are still said to be of, which the package (today's countries) does not hold
_FORMER = {"Soviet Union": ("USSR", "Soviet", "Soviet Union"), "Yugoslavia": ("Yugoslav", "Yugoslavian"),
           "Czechoslovakia": ("Czechoslovak", "Czechoslovakian"), "East Germany": ("East German",),
           "West Germany": ("West German",), "Ottoman Empire": ("Ottoman",), "Prussia": ("Prussian",),
           "Austria-Hungary": ("Austro-Hungarian",)}
# short codes that are also words or parts of names ("IN", "CA", "DE") are no names here; these are
_CODES = frozenset({"UK", "US", "USA", "UAE", "USSR"})
# what a place's name is followed by in text without being part of what the data calls it
_KIND_WORD = re.compile(r"\s+(?:province|county|state|region|district|governorate|prefecture|oblast|krai|"
                        r"municipality|department|territory)$", re.I)
# how the name of a people ends after its country's stem ("Argentine", "Slovenian", "Bosnian")
_DEMONYM_ENDS = ("ian", "ean", "an", "ine", "ese", "ish", "i", "e")


def _data_dir() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) / "data" if locations else None


def _records() -> Iterable[dict[str, Any]]:
    folder = _data_dir()
    if folder is None or not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            out.append(data)
    return out


def _population(rec: dict[str, Any]) -> float:
    try:
        return float(rec.get("population") or 0)
    except (TypeError, ValueError):
        return 0.0


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, frozenset[str]]:
    own: dict[str, dict[str, float]] = {}  # a country's own names and its people's, with its population
    within: dict[str, set[str]] = {}  # a capital's or a province's name: every country it is in
    for rec in _records():
        country, people = str(rec["name"]), _population(rec)
        spellings = [s for s in rec.get("altSpellings") or [] if isinstance(s, str)]
        for name in (country, rec.get("nativeName"), rec.get("demonym"), *spellings):
            if isinstance(name, str) and name and (len(name) > 3 or name in _CODES or name == country):
                own.setdefault(name.lower(), {})[country] = people
        for name in (rec.get("capital"), *(rec.get("provinces") or [])):
            if isinstance(name, str) and name:
                within.setdefault(name.lower(), set()).add(country)
    if "united kingdom" in own:
        for name in _UK:
            own.setdefault(name.lower(), {})["United Kingdom"] = _population({"population": 1e9})
    for country, names in _FORMER.items():
        for name in (country, *names):
            own.setdefault(name.lower(), {})[country] = 1e9
    table = {k: frozenset(_main(v, k)) | frozenset(within.get(k, ())) for k, v in own.items()}
    for k, v in within.items():
        table.setdefault(k, frozenset(v))
    return table


def _main(countries: dict[str, float], key: str) -> set[str]:
    """A name several countries share ("American": the United States and the Northern Mariana Islands): the
    country it is the name of, else those of them within a thirtieth of the most populous ("Congolese": both
    Congos; "Indian": India, not the British Indian Ocean Territory)."""
    exact = {c for c in countries if c.lower() == key}
    if exact:
        return exact
    top = max(countries.values())
    return {c for c, n in countries.items() if n >= top / 30}


def available() -> bool:
    """Whether the country data is installed (without it every name is left open)."""
    return bool(_table())


def countries_of(name: str) -> frozenset[str]:
    """The countries ``name`` may name: one for a country or a nationality, several for a name that is ambiguous,
    none for a name the data does not hold ("Moultrie"). A name the data does not hold whole is read word by
    word only when each word is a country or a nationality ("French Canadian": France and Canada; "Russian-
    Ukrainian")."""
    key = re.sub(r"\s+", " ", name.strip().strip(".,;:()[]\"'")).lower()
    key = re.sub(r"^the\s+", "", key)
    table = _table()
    if key in table:
        return table[key]
    bare = _KIND_WORD.sub("", key)
    if bare != key and bare in table:
        return table[bare]
    if key.endswith("s") and key[:-1] in table:  # "Americans"
        return table[key[:-1]]
    for end in _DEMONYM_ENDS:  # "Argentine", "Slovenian": a people named after its country's stem
        stem = key[:-len(end)]
        if key.endswith(end) and len(stem) >= 4 and " " not in key:
            named = {c for k, cs in table.items() for c in cs
                     if k == c.lower() and k.startswith(stem) and len(k.split()[0]) - len(stem) <= 2}
            if len(named) == 1:
                return frozenset(named)
    words = [w for w in re.split(r"[\s-]+", key) if w not in {"and", "&"}]  # "Soviet and Ukrainian"
    if len(words) > 1 and all(w in table and len(table[w]) == 1 for w in words):
        return frozenset().union(*(table[w] for w in words))
    return frozenset()


def country_of_run(names: Iterable[str]) -> frozenset[str]:
    """The country of a run of place names written together, most specific first ("Moultrie, Georgia, United
    States"): what every name the data holds agrees on, else what the most general one names."""
    found = [c for c in (countries_of(n) for n in names) if c]
    if not found:
        return frozenset()
    agreed = frozenset.intersection(*found)
    return agreed or found[-1]
