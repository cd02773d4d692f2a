"""The offline generator: the answer is made of the context's own sentences (or table rows), each cited.

1. **Score** every span: the question's content words it holds (the unit's title counts for half: a
   passage about X speaks of X as "he"), a value of the type the question expects (an amount, a date, a
   person...), and the unit's rank.
2. **Chain**: the best span first; then, from other units, the spans that cover question words not yet
   covered or that continue the chain (they name the title of a unit already used, or the title of their
   unit is named by a span already used: the bridge of a multi-hop question), up to ``max_statements``.
   A comparison takes the best span about each compared entity.
3. **Bands**: when a table's rows are ranges of a quantity ("more than 3500 km") and a span gives that
   quantity ("about 5,900 km"), the row whose range holds it is cited (a row, never the whole table), next
   to the span that gave the quantity.
4. **Direct answer**: a value of the expected type from the chain (not one the question names): the
   row's value for a band, the compared entity that wins a comparison, yes / no for a yes/no question,
   else the entity of the expected type nearest the question's words in the best span holding one.

Every statement is a verbatim span followed by its ``[u_…]``; the validator checks it like any other.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kmrag.answer import lexicon, tables
from kmrag.answer.asked import (
    ASKED_NAME,
    after_frame,
    asking,
    asking_verb,
    copular_ask,
    day_asked,
    described_answer,
    done_to_another,
    frame,
    framed_at,
    names_a_day,
    past_holders,
    said_to_be,
    undergoer,
)
from kmrag.answer.chain import about, best_described, compare_related, read_chain, titled_by
from kmrag.answer.claims import claims
from kmrag.answer.code_values import read_assigned
from kmrag.answer.contacts import ASKS_EMAIL, EMAIL, PHONE, read_contact
from kmrag.answer.context import Context
from kmrag.answer.countries import country_in, country_named, place_names
from kmrag.answer.describe import read_description
from kmrag.answer.faq import faq_answer
from kmrag.answer.fields import ASKS_PREDECESSOR, field_value, flat
from kmrag.answer.joins import end_time, joined
from kmrag.answer.judge import NUMBER_WORDS, judge
from kmrag.answer.judge_zh import CLAUSE, FUNCTION_CHARS, names_in
from kmrag.answer.kinds import SHARED, asks_kind, kind_candidates, name_part
from kmrag.answer.listed import asked_count, stated_list
from kmrag.answer.ordered import as_choice
from kmrag.answer.roles import role_holder
from kmrag.answer.rows import header_of_said_cell, row_named_by_cells
from kmrag.answer.spans import TITLE_QUALIFIER, Span, row_cells
from kmrag.answer.support import STOP, negated, number_key, stem, terms
from kmrag.answer.titled import titled_compared
from kmrag.answer.validate import named_by
from kmrag.nlp import kin, wordnet
from kmrag.nlp.asked_nouns import PERSON_NOUNS
from kmrag.nlp.chinese import HAN, named_spans
from kmrag.nlp.kin import PARTICLES
from kmrag.nlp.language import language_of
from kmrag.nlp.places import available as places_available
from kmrag.nlp.places import countries_of, country_only, people_of
from kmrag.nlp.rephrase import agent_of
from kmrag.nlp.sentences import FIELD_LINE
from kmrag.retrieval.analysis import BIRTH, CLAUSE_ASKED, DEATH, HOW_MANY_TIME, QuestionAnalysis, offered
from kmrag.retrieval.multihop import MONTHS, VALUE_OF

LABELS = {
    "PERSON": {"PERSON"}, "PLACE": {"GPE", "LOC", "FAC"}, "ORG": {"ORG"},
    "WORK": {"WORK_OF_ART", "PRODUCT", "EVENT"}, "DATE": {"DATE"}, "MONEY": {"MONEY"},
    "QUANTITY": {"QUANTITY"}, "NUMBER": {"CARDINAL", "QUANTITY", "MONEY", "PERCENT"},
    "NATIONALITY": {"NORP", "GPE"}, "TIME": set(),  # a clock time by its pattern, not "hourly", "every morning"
    "ENTITY": {"PERSON", "GPE", "LOC", "FAC", "ORG", "WORK_OF_ART", "PRODUCT", "EVENT", "LANGUAGE", "LAW"},
}
UNIT_WORDS = {"km": "km", "kilometres": "km", "kilometers": "km", "kilometre": "km", "kilometer": "km",
              "mi": "mi", "miles": "mi", "mile": "mi", "kg": "kg", "kilograms": "kg", "hours": "h", "hour": "h",
              "h": "h", "minutes": "min", "min": "min", "days": "d", "day": "d", "years": "y", "year": "y",
              "m": "m", "metres": "m", "meters": "m", "%": "%", "percent": "%", "per cent": "%",
              "m³": "m3", "m3": "m3", "cubic metres": "m3", "cubic meters": "m3", "cubic metre": "m3",
              "cubic meter": "m3", "m²": "m2", "m2": "m2", "square metres": "m2", "square meters": "m2",
              "square metre": "m2", "square meter": "m2", "litres": "l", "liters": "l", "litre": "l", "liter": "l"}
# a volume or an area before a length: "15 m³" is no "15 m"
_UNIT = (r"(km|kilomet(?:re|er)s?|miles?|mi|kg|kilograms|hours?|h|minutes?|min|days?|years?|"
         r"m³|m3|m²|m2|(?:cubic|square)\s+met(?:re|er)s?|lit(?:re|er)s?|metres|meters|m(?![²³])|%|per ?cent)")
_NUM = r"(\d[\d,]*(?:\.\d+)?)"
# a question asking a length ("how far", "how high", "how deep", "how tall"), a weight ("how heavy") or a time ("how
# long do you ..."): a measure of another kind in the span ("tread water for two minutes") answers it not
_DIMENSION_ASKED = re.compile(r"\bhow\s+(?:(far(?!\s+(?:ahead|in\s+advance|back|before|beforehand)\b)|high|deep|tall|wide)|"
                              r"(heavy)|long\s+(?:do|does|did|will|would|can|could|should|must|have|has)\b|far\s+(?:ahead|in\s+"
                              r"advance|back|before|beforehand)\b)\b", re.I)  # "how far ahead", "how long do you": a time
_MEASURE_WORD = re.compile(r"\b(?:km|kilomet(?:re|er)s?|miles?|mi|metres?|meters?|m|feet|foot|ft|yards?|yds?|inch(?:es)?|"
                           r"in|cm|mm|kg|kilograms?|g|grams?|tonnes?|tons?|lbs?|pounds?|stones?|seconds?|secs?|"
                           r"minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?)\b", re.I)
_LENGTHS = frozenset("km kilometre kilometer kilometres kilometers mile mi metre meter m feet foot ft yard yd inche inch in "
                     "cm mm".split())
_WEIGHTS = frozenset("kg kilogram g gram tonne ton lb pound stone".split())
_DURATIONS = frozenset("second sec minute min hour hr h day week month year".split())
HOW_MANY_UNIT = re.compile(r"\bhow\s+many\s+(\w+)", re.I)
QUANTITY = re.compile(rf"{_NUM}\s*-?\s*{_UNIT}\b", re.I)  # "5,900 km", "a 5-day trip"
RANGES = [  # the first that matches is the cell's range: "more than 15 m³ and up to 40 m³" is both its bounds
    (re.compile(rf"\b(?:more than|over|above|from|at least)\s+{_NUM}\s*{_UNIT}?,?\s+(?:and\s+)?(?:up to|to|under|"
                rf"less than|below|at most|not more than)\s+{_NUM}\s*{_UNIT}", re.I), "between"),
    (re.compile(rf"\bbetween\s+{_NUM}\s*{_UNIT}?\s+and\s+{_NUM}\s*{_UNIT}", re.I), "between"),
    (re.compile(rf"{_NUM}\s*{_UNIT}?\s*[-–]\s*{_NUM}\s*{_UNIT}", re.I), "between"),
    (re.compile(rf"\b{_NUM}\s*{_UNIT}?\s+to\s+{_NUM}\s*{_UNIT}", re.I), "between"),  # "1 to 3 hours"
    (re.compile(rf"{_NUM}\s*{_UNIT}\s+or\s+(?:less|fewer|under|below)", re.I), "upto"),
    (re.compile(rf"\b(?:up to|at most|no more than|not more than|as much as|as far as|less than|under|below|within)\s+"
                rf"{_NUM}\s*{_UNIT}", re.I), "upto"),
    (re.compile(rf"\b(?:more than|over|above|at least|exceeding|beyond)\s+{_NUM}\s*{_UNIT}", re.I), "from"),
    (re.compile(rf"{_NUM}\s*{_UNIT}\s+or\s+more", re.I), "from"),
]
# a place after a locative preposition ("born in Szeged"): the small NER model often mislabels such names
PLACE_AFTER = re.compile(rf"\b(?:in|at|near|from|(?<![Bb]orn\s)to)\s+(?!(?:{MONTHS}|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|"
                         r"Sunday)\b)((?:[A-Z][\w'-]+)(?:\s+(?:[A-Z][\w'-]+|of|de|del|am|upon))*)")  # not "in September"
NAME_AFTER_BY = re.compile(r"\bby\s+((?:[A-Z][\w.'-]+)(?:\s+(?:[A-Z][\w.'-]+|de|van|von|da|del|di|le|la))*\s+[A-Z][\w'-]+)")
EARLIER = re.compile(r"\b(first|earlier|earliest|older|oldest|elder|eldest|before|sooner|previously)\b", re.I)
LATER = re.compile(r"\b(later|latest|last|younger|youngest|after|newer|newest|more recent(?:ly)?|most recent(?:ly)?)\b", re.I)
MORE = re.compile(r"\b(more|most|larger|largest|bigger|biggest|longer|longest|higher|highest|taller|tallest|"
                  r"greater|greatest|further|farther|stronger|strongest|heavier|heaviest|wider|widest|deeper|deepest|"
                  r"dearer|dearest|pricier|priciest|costlier|costliest)\b", re.I)
LESS = re.compile(r"\b(less|least|fewer|fewest|smaller|smallest|shorter|shortest|lower|lowest|cheaper|cheapest|"
                  r"weaker|weakest|lighter|lightest|narrower|narrowest|shallower|shallowest)\b", re.I)
# ("faster", "slower": a speed, or a time taken, which runs the other way: no direction from the word alone)
# a comparison of prices ("which is cheaper", "which costs more"): each side's sum, not its first number
PRICED = re.compile(r"\b(?:cheap\w*|dear\w*|pric\w*|costl\w*|expensive|costs?|fees?|charges?)\b", re.I)
# a comparison of strength ("which beer is stronger"): a percentage (its alcohol by volume), not its first number
STRENGTH = re.compile(r"\b(?:strong|stronger|strongest|weak|weaker|weakest)\b", re.I)
YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")
LIFESPAN = re.compile(r"\b(lived (longer|shorter)|longer life|shorter life|died (younger|older)|"
                      r"at an? (younger|older) age)\b", re.I)
NAME_ASKED = re.compile(r"\b(mononym|nickname|pseudonym|alias|stage\s+name|pen\s+name|ring\s+name|moniker)\b", re.I)
NAMED = frozenset({"PERSON", "ORG", "WORK", "PLACE", "ENTITY"})  # answer types that are names
WHICH_THING = re.compile(r"^\s*(?:which|what)\s+(?!(?:is|was|are|were|did|does|do|has|had|have)\b)[a-z]", re.I)
# a date that says when only against another ("November of the same year", "the following season"): no answer
RELATIVE_DATE = re.compile(r"\b(?:same|following|previous|next|that|this|later|earlier|last|prior)\b", re.I)
MONTH_ASKED = re.compile(r"\b(?:what|which)\s+month\b", re.I)
# the kinds of place a name may end in ("Albany County", "Hudson River"): a name of one kind is not of another
PLACE_KIND = re.compile(r"(?i:county|state|province|region|country|city|town|village|river|lake|island|mountain|"
                        r"district|borough|parish|municipality)")
YEAR_ASKED = re.compile(r"\b(what|which|in what|in which) year\b|(?<!\bof the )\byear (of|was|did|when)\b", re.I)
QUALIFIER = re.compile(r"^(?:about|around|approximately|nearly|almost|over|more than|less than|under|some|roughly|"
                       r"at least|up to)\s+", re.I)
UNDERGOER_READ = 12  # spans parsed for whom a passive question's verb is done to (the best first)
_PAST_ASKED = re.compile(r"\b(?:did|was|were)\b", re.I)  # a question of an event past: a weekday alone dates nothing
_WEEKDAY_ONLY = re.compile(r"(?:on\s+)?(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?", re.I)
# when a thing starts or ends, said as a table's column says it ("start again": First lessons; "finish": Last ...)
_EDGE_ASKED = re.compile(r"\b(start|begin|commence|resume|finish|end)(?:s|ed|ing)?\b", re.I)
_EDGE_OF = {"start": frozenset({"first"}), "begin": frozenset({"first"}), "commence": frozenset({"first"}),
            "resume": frozenset({"first"}), "finish": frozenset({"last"}), "end": frozenset({"last"})}
# a column of what does not happen ("No lessons (half term)"): not named by a question that says no "no"
_NEGATING_HEAD = re.compile(r"\s*(?:no|not|without|excluding|except)\b(?!-)", re.I)  # ("Non-member price" is a kind)
_YEARS_SAID = re.compile(r"\b(?:1[6-9]|20)\d\d\b")  # the years a question says ("at the end of 2024")
_NUMBERED = re.compile(r"versions?|revisions?", re.I)


def _says_years(text: str, years: Sequence[str]) -> bool:
    return all(re.search(rf"\b{y}\b", text) for y in years)  # nouns a thing is told apart by a number of
_VERSION_OF = re.compile(r"\b(?:versions?|revisions?)\s+(?:of\s+(?:the\s+)?)?([^\s?,]+(?:\s+[A-Z][^\s?,]*)*)")
_VERSION_NUMBER = r"\s*(?:v(?:ersion)?\s*)?\d+(?:\.\d+)*(?:\s+or\s+(?:later|newer|higher|above|greater))?\b"


def _versions(question: str, mentions: Sequence[str], text: str) -> list[tuple[str, int]]:
    """"NAME 8.0 or later" where ``text`` gives a version number right after a name the question asks the version
    of ("which version of .NET ...": ".NET 8.0 or later")."""
    names = [m.group(1)] if (m := _VERSION_OF.search(question)) else []
    got = []
    for name in dict.fromkeys([*names, *mentions]):
        for v in re.finditer(re.escape(name) + _VERSION_NUMBER, text, re.I):
            got.append((v.group(0), v.start()))
    return got


_GLUED_DIGITS = re.compile(r"\b(?:1\d{3}|20\d{2})\d{1,2}\s+[A-Z][a-z]+")  # "17615 July": a year run into a day
_RECURRING = re.compile(r",?\s+(?:every|each)\s+\w+$", re.I)
_RANGE_SPLIT = re.compile(r"\s*(?:[-–—]|\bto\b|\buntil\b)\s*")
# "whose director", "the father of": the compared value belongs to another person than the entities named
RELATED_PERSON = re.compile(r"\b(?:director|father|mother|founder|composer|author|writer|producer|husband|wife|"
                            r"spouse|son|daughter|parent|child|creator|performer|singer|editor|owner)s?\b|"
                            r"\b(?:directed|written|composed|founded|produced|created|performed|edited|owned)\s+by\s+"
                            r"(?:the\s+|a\s+|an\s+)?(?:person|people|man|men|woman|women|one|someone|somebody|"
                            r"individual|filmmaker|filmmakers)\b",
                            re.I)  # "which one was directed by the person born more recently": the director (not
# "a film directed by P. S. Rao": a name says nothing of a related person's dates)


def related_person(m: re.Match[str]) -> str:
    """The relation a :data:`RELATED_PERSON` match names, as a noun: "directors" and "directed by": "director"."""
    word = m.group(0).split()[0].lower()
    return (agent_of(word) or word) if re.search(r"\sby\s", m.group(0)) else word.rstrip("s")

BORN_ASKED = re.compile(r"\b(?:born|birth|birthplace|native)\b", re.I)  # "born in the same country": the birthplace
COUNTRY_ASKED = re.compile(r"\b(?:nationality|country|citizenship|nation)\b", re.I)
SAME_PLACE = re.compile(r"\bsame[\s-]+(?:home\s+|native\s+)?(?:nationality|country|citizenship|place|birthplace|hometown|place\s+of\s+birth)\b|"
                        r"\bboth\s+from\s+the\s+same\b|"
                        r"\bfrom the same country\b|"
                        r"\b(?:nationality|country|citizenship|birthplace|hometown)\b[^?]{0,80}?\bthe\s+same\s+as\b",
                        re.I)  # "Is the country of origin of A the same as that of B?"
_OPENING_TITLE = re.compile(r"\s*[\"“]((?-i:[A-Z0-9])[^\"“”\n]{1,80}?)[,.]?[\"”]\s*(?:\([^()]{0,80}\)\s*)?"
                            r"(?:is|was|are|were)\b")
MEANING_WEIGHT = 0.5  # the cross-encoder's share of a span's relevance (the question's words: the rest)
MEANING_TOP = 10  # the spans the cross-encoder reads: the best by the question's words (the rest score 0 by meaning)
POOL_READ = 6  # when the statements chosen hold no value of the kind asked: the best spans read for one
FIELD_POOL = 6  # the best-scored spans read for a labelled field the question names ("Leakage: 61.3 ...")
MAX_READ_QUERIES = 2  # the question and the most resolved of retrieval's rewritten questions
# "Are A and B both American?", "Were A and B Canadian?": a nationality asked of each, last in the question
ASKED_NATIONALITY = re.compile(r"^(?:are|were|is|was)\b.*\b(?:and|&)\b.*?\s(?:both\s+)?(?-i:([A-Z][a-z]+(?:an|ian|ese|ish|ch|i|ic)))"
                               r"\s*(?:citizens|nationals)?\s*\??\s*$", re.I)
# groups spaCy tags NORP that are not a nationality: a "Jewish writer" may be American
SETTLEMENTS = frozenset({"city", "town", "village", "capital", "municipality", "hometown"})
_CAPITALISED = re.compile(r"(?<![\w-])[A-Z][a-z]{3,}(?![\w])")
NOT_NATIONALITY = frozenset("""jewish christian catholic muslim islamic protestant buddhist hindu sikh orthodox
anglican lutheran methodist baptist mormon black white hispanic latino latina asian arab republican republicans
democrat democrats democratic conservative liberal socialist communist labour tory""".split())
# the places a question may ask for that a text names after a smaller one ("in Kent, Washington, United States")
LARGER_PLACES = frozenset({"state", "county", "province", "region", "country", "nation"})
# places that lie within a country, whose answer is never a country's own name ("state" and "region" are left out:
# "a Baltic state", "the Balkan region" may be countries)
WITHIN_A_COUNTRY = SETTLEMENTS | {"county", "province", "district", "borough", "parish", "suburb", "neighbourhood",
                                  "neighborhood"}
SMALLER_PLACE = re.compile(r"\b(county|city|town|village|district|borough|parish|municipality)\b", re.I)


def _date_parts(text: str, at: int, question: str) -> list[tuple[str, int]]:
    """A date range from the NER ("February 2, 1910 - February 10, 2000") as its ends: the question about a
    death takes the last, any other the first; a single date stays whole."""
    if _GLUED_DIGITS.search(text):
        return []  # "22 November 17615 July 1816": two dates run together, no date of either
    text = _RECURRING.sub("", text)  # "May 22, 2017 every Monday": the date, not how often after it
    parts = [p for p in _RANGE_SPLIT.split(text) if YEAR.search(p)]
    if len(parts) < 2:
        return [(text.strip(" ()–—-"), at)]
    ordered = list(reversed(parts)) if DEATH.search(question) else parts
    return [(p.strip(" ()–—-"), at + text.find(p)) for p in ordered]


# "(2 February 1910 – 10 February 2000)", "(August 13, 1895, New York City – March 6, 1958, Santa Monica)"
LIFESPAN_SPAN = re.compile(r"\(\s*(?:born\s+)?[^()]*\b(?:1\d{3}|20\d{2})\b(?:,[^()\-–—]{1,40})?\s*[-–—]\s*[^()]*"
                           r"\b(?:1\d{3}|20\d{2})\b[^()]*\)")


# a name of two or more capitalised words ("Munich Airport", "University of Delhi", "Columbia Records")
_MULTIWORD_NAME = re.compile(r"\b[A-Z][\w'’.&-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z][\w'’.&-]*)+")


def _kind_of_name_masked(text: str, question: str) -> str:
    """``text`` without the kind word of a name made from a name the question asks about: "Munich Airport is
    located in Bavaria" says nothing of the main airport of Munich, "University of Delhi" nothing of Delhi's
    university; a name the question does not name keeps it ("located in Fairfax County" states a county), and so
    does one the question's asked phrase names ("in what Hawaii county": "Hawaii County" states it)."""
    asked = {w.lower() for w in re.findall(r"\b[A-Z][\w'’.&-]*", ASKED_NAME.sub(" ", question))}

    def mask(m: re.Match[str]) -> str:
        words = m.group(0).split()
        if not any(w.lower() in asked for w in words[1:] + words[:1] if w.lower() not in {"the", "of"}):
            return m.group(0)
        at = words.index("of") - 1 if "of" in words[1:] else len(words) - 1  # "University of Delhi": before "of"
        if words[at].lower() in PERSON_NOUNS:  # "Mayor of London" is the relation itself, an office held
            return m.group(0)
        words[at] = " " * len(words[at])
        return " ".join(words)
    return _MULTIWORD_NAME.sub(mask, text)


_COUNT_WORD = (r"(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
               r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
               r"hundred|[a-z]+-[a-z]+)")


def _counted_in(text: str, unit: str) -> bool:
    """Is ``text`` a count of ``unit`` ("seven days", "48 hours", "about 30 years"), not a date ("May 1953")?"""
    return re.fullmatch(rf"(?:(?:about|around|nearly|almost|over|under|up\s+to|within|some|the)\s+)?"
                        rf"{_COUNT_WORD}(?:\s+{_COUNT_WORD})*\s+{unit[:-1] if unit != 'centuries' else 'centur'}"
                        r"(?:s|ies|y)?", text.strip(), re.I) is not None


_PLACE_AFTER_YEAR = re.compile(r"\b(?:1\d{3}|20\d{2}),?\s+(?:in\s+)?([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)")


def _holds_a_name(candidate: str, mentions: Sequence[str]) -> bool:
    """Does ``candidate`` hold every word of one of the question's names of two words or more? "Pierre-François
    Wartel" holds "François Wartel": another form of the person asked about, no place or country of theirs."""
    words = set(re.findall(r"\w+", candidate.lower()))
    return any(len(w) > 1 and w <= words for m in mentions if (w := set(re.findall(r"\w+", m.lower()))))


def _other_half(text: str, question: str) -> tuple[int, int] | None:
    """In a lifespan "(born 6 October 1900, Bangalore, India – died 28 August 1975, Mzuzu, Malawi)", the half a
    question about the other end does not ask for: a death's place is not the birth's; None without a lifespan or
    when the question asks of neither birth nor death."""
    death, birth = DEATH.search(question) is not None, BIRTH.search(question) is not None
    life = LIFESPAN_SPAN.search(text)
    if life is None or death == birth:
        return None
    dash = re.search(r"\s[-–—]\s|[–—]", life.group(0))
    if dash is None:
        return None
    middle = life.start() + dash.start()
    return (middle, life.end()) if birth else (life.start(), middle)


# "(formerly known as K1)", "also called", "a.k.a.": what comes next is another name of what the span is about
# ("better known as" brings the name one goes by, often the answer: not here)
_OTHER_NAME_BEFORE = re.compile(r"(?i)(?:\b(?:also|formerly|originally|previously|once)\s+(?:known|called|named)\s+as|"
                                r"\b(?:also|formerly)\s+called|\ba\.?k\.?a\.?|\bn[ée]e)\s*[\"“'‘]?$")
# a question that asks a name (beside NAME_ASKED's nouns): "What was X formerly known as?", "X's surname at birth"
_ASKS_A_NAME = re.compile(r"(?i)\b(?:known|called|named|name|names|nickname[ds]|a\.?k\.?a|title|also|surname|maiden|"
                          r"formerly)\b")


def _other_name_of_asked(question: str, text: str, at: int, title: str = "") -> bool:
    """Is the value at ``at`` another name of a thing the question names or the span is about (its ``title``),
    given in the bracket after its name ("Masherbrum (Urdu: ...; formerly known as K1)")?"""
    if not _OTHER_NAME_BEFORE.search(text[max(0, at - 40):at]):
        return False
    opened = text.rfind("(", 0, at)
    if opened < 0 or text.find(")", opened, at) >= 0:
        return False
    named = re.search(r"((?:[A-Z][\w'’.-]*\s+){0,4}[A-Z][\w'’.-]*)\s*$", text[:opened])
    return named is not None and (named.group(1).lower() in question.lower() or
                                  named.group(1).lower() == re.sub(r"\s*\([^()]*\)$", "", title).strip().lower())


# "Which country ...?", "What is the country where ...?": a country is asked, not a place inside one
_ASKS_COUNTRY = re.compile(r"(?i)\s*(?:in\s+|from\s+)?(?:what|which)\s+(?:(?:is|was)\s+the\s+)?(?:country|nation)\b")
# "how many copies", "how many studio albums": the noun counted
_HOW_MANY_OF = re.compile(r"\bhow\s+many\s+(?:[a-z-]+\s+){0,2}?([a-z]+s)\b", re.I)
_NUMBER_WORD = re.compile(r"(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Eleven|Twelve|Hundred|Thousand)")
# words in -s after a counted noun that are no noun it modifies ("copies was", "albums as of")
_NOT_A_NOUN_AFTER = frozenset("is was has does its this thus as always perhaps nearly plus across less unless".split())


def _names_number(text: str, value: str, at: int) -> bool:
    """Is ``value`` at ``at`` a capitalised number word inside a name ("the One Ring", "Seven Samurai"), not at
    the sentence's start?"""
    return bool(_NUMBER_WORD.fullmatch(value.strip())) and at > 0 and \
        not re.search(r"(?:^|[.!?:;]\s*|[\"“(]\s*)$", text[:at]) and bool(re.match(r"\s+[A-Z]", text[at + len(value):]))


def _counts(text: str, value: str, at: int, noun: str) -> bool:
    """Does the number ``value`` count ``noun`` in ``text``: the noun (singular or plural) right after it, or
    two words on ("150 million copies", "three studio albums")?"""
    stem_ = noun[:-1].lower()
    after = text[at + len(value):at + len(value) + 40].lower()
    found = re.match(rf"\s+(?:[a-z-]+\s+){{0,2}}?{re.escape(stem_)}(?:s|es)?\b", after)
    # the noun itself, not a word of a compound before another ("14 Academy Award nominations" counts nominations)
    nxt = re.match(r"\s+([a-z]+)\b", after[found.end():]) if found else None
    return found is not None and not (nxt and nxt.group(1).endswith("s") and nxt.group(1) not in _NOT_A_NOUN_AFTER)


# a postal address: a house number, a street, then a town and a postcode (UK or US) if given
_STREET = (r"Road|Street|Lane|Row|Avenue|Way|Place|Square|Drive|Close|Court|Hill|Terrace|Crescent|Gardens|Walk|"
           r"Boulevard|Parade|Mews|Quay|Rd|St|Ave|Blvd")
STREET_ADDRESS = re.compile(rf"(?<![\w,])\d{{1,5}}[A-Za-z]?\s+(?:[A-Z][\w'’-]*\s+){{0,3}}(?:{_STREET})\b"
                            r"(?:,\s*[A-Z][\w'’-]*(?:\s+(?![A-Z]{1,2}\d)[A-Z][\w'’-]*){0,2}(?![\w'’-]))?"  # (a town's
                            # words, not the postcode's "KB3")
                            r"(?:,?\s*[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|,?\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?\b)?")
ASKS_ADDRESS = re.compile(r"(?<!e-mail )(?<!email )(?<!web )(?<!IP )\b(?:postal |street )?address\b", re.I)




def _whole_phone(text: str, value: str, at: int) -> tuple[str, int]:
    """A number the recogniser cut out of a telephone number ("960 700" of "01632 960 700") stands for the whole."""
    for m in PHONE.finditer(text):
        if m.start() <= at and at + len(value) <= m.end() and sum(c.isdigit() for c in m.group(0)) >= 9:
            return m.group(0).strip(), m.start()
    return value, at


def _with_next_word(text: str, value: str, at: int) -> str:
    """A value with the word after it: "48" of "48 hours ago" -> "48 hours"."""
    nxt = re.match(r"\s+([\w-]+)", text[at + len(value):])
    return f"{value} {nxt.group(1)}" if nxt else value


def relation_stated(question: str, relational: frozenset[str], text: str) -> bool:
    """Does ``text`` state the question's relation: one of its relational words (by stem), or, for a birth or
    a death, such a word or a lifespan ("(2 February 1910 – 10 February 2000)")?"""
    return stated_count(question, relational, text) > 0


def says_verb(question: str, verb: str, text: str) -> bool:
    """Does ``text`` say the question's verb (by stem, as :func:`stated_count`), in a word of its own, not in a
    name of two capitalised words or more: "Millbrook Park" says nothing of parking; "Parking at ..." and a header
    "Opened: 1923" do. A birth or a death is also said by a lifespan, whose months are capitalised."""
    if DEATH.search(question) or BIRTH.search(question):
        return stated_count(question, frozenset({verb}), text) > 0
    return stated_count(question, frozenset({verb}), _NAME_RUN.sub(" ", text)) > 0


_NAME_RUN = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*(?:\s+(?:of\s+|the\s+|de\s+)?[A-Z][\w'’-]*)+")


def stated_count(question: str, relational: frozenset[str], text: str) -> int:
    """How many of the question's relational words ``text`` states (by stem; a birth or a death also by a
    lifespan): the sentence that says most of what the question asks is the one to read the answer from."""
    words = terms(_kind_of_name_masked(text, question)).words
    said = {r for r in relational if any(akin(w, frozenset({r})) for w in words)}
    for pattern in (DEATH, BIRTH):
        if pattern.search(question):
            said = {r for r in said if not pattern.fullmatch(r)}  # "died" counts once, however it is said
            if pattern.search(text) or LIFESPAN_SPAN.search(text):
                said.add(pattern.pattern)
    return len(said)




def _hops_first(order: Sequence[Span], count: dict[tuple[str, int], tuple[int, int]],
                qwords: frozenset[str]) -> list[Span]:
    """``order`` with each span read after the span it leads to, when that one states as much of the question's
    relation (``count``: the words of the asking part, kmrag.answer.asked, then all the relational words, that
    a span states): "Otterington station ... on the East Coast Main Line" leads to the line's own sentence, "a 393 mi
    major railway link between London and Edinburgh", where "a railway that linked Edinburgh to what city" is
    answered. A span leads to another when it names that one's unit title (a thing the question does not
    name; a trailing "(Björk album)" that tells titles apart is no part of the name)."""
    out = list(order)
    titles = [terms(TITLE_QUALIFIER.sub("", b.title)).words for b in order]
    for a in order:
        named = terms(a.display).words
        for b, tw in zip(order, titles, strict=True):
            if b.unit_id == a.unit_id or not tw or not tw <= named or tw <= qwords:
                continue
            ka, kb = count[(a.unit_id, a.start)], count[(b.unit_id, b.start)]
            if kb[1] > 0 and kb >= ka and out.index(b) > out.index(a):
                out.remove(b)
                out.insert(out.index(a), b)
    return out


def _bases(word: str) -> set[str]:
    """A word without its inflection, each way it may have been made ("died": die, di; "located": locate;
    "starring", stemmed "starr": star)."""
    out = {word, *([lexicon.IRREGULAR[word]] if word in lexicon.IRREGULAR else [])}  # "kept": keep
    for suffix in ("ing", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            out.add(word[: -len(suffix)])
    out |= {b[:-1] for b in out if len(b) >= 4 and b[-1] == b[-2] and b[-1] not in "aeioulsz"}  # a doubled consonant
    out |= {b[:-1] for b in out if len(b) >= 4 and b[-1] == "e" and b[-2] not in "aeiou"}  # "take", stemmed "takes": tak
    return out


def akin(word: str, keys: frozenset[str]) -> bool:
    """``word`` is one of ``keys``, the same word inflected ("died" ~ "die"), or shares a long prefix with one
    ("directed" ~ "director", "founding" ~ "founder"): the relational words of a question and of the text it
    is answered from."""
    if word in keys or any(_bases(word) & _bases(k) for k in keys):
        return True
    if any(lexicon.groups(b) & lexicon.groups(c) for b in _bases(word) for k in keys for c in _bases(k)):
        return True  # "established" ~ "founded", "premiered" ~ "released": kmrag.answer.lexicon
    for k in keys:
        n = min(len(word), len(k))
        if n >= 5 and word[:5] == k[:5]:
            common = next((i for i in range(n) if word[i] != k[i]), n)
            if common >= max(5, int(0.6 * n)):
                return True
    return False


_DAY_BEFORE = re.compile(r"(?<![\d,.])\b[0-3]?\d\s+$")
_REGNAL = re.compile(r" (?:[IVX]{1,5})\b(?!['’\w])")
# "He won the race": a personal pronoun opening a clause, two words at most before the asked word
_PRONOUN_SUBJECT = re.compile(r"(?:^|[.;:]\s+|,\s+and\s+)(?:He|She)\s+(?!(?:[\w'-]+\s+)*(?:was|were|is|are|been|"
                              r"being|not|never|n't|no)\b)(?:[\w'-]+\s+){0,2}$")  # not "He was defeated by"
# "(1) who acquired X, (2) who founded it": the number of an item in a list is no value of the text
_ENUMERATOR = re.compile(r"(?:^|(?<=[\s:;,]))\((?:\d{1,2}|[a-z])\)(?=\s)|(?:^|(?<=\n))\s*\d{1,2}[.)](?=\s)")
# between two dates of a range; a lifespan may name the places ("28 January 1864, Halifax, England – 1927")
_BETWEEN_DATES = re.compile(r"\s*(?:[-–—]|\bto\b|\buntil\b)\s*$|,\s*[A-Z][^()\d–—-]{0,60}?\s[–—-]\s*$")


_PEER = re.compile(r"(?:^|\s)(?:Lord|Lady)\s+$")
_BETWEEN_BEFORE = re.compile(r"\b[Bb]etween\s+(?:((?:the\s+)?[\w,]+(?:\s+[\w,]+){0,3}?)\s+and\s+)?$")


def _range_end(cands: list[tuple[str, int]], text: str, question: str) -> list[tuple[str, int]]:
    """Two dates written as a range ("February 2, 1910 - February 10, 2000"): a question about a death keeps
    the last, any other the first."""
    out = list(cands)
    for (a, at), (b, bt) in zip(cands, cands[1:], strict=False):
        if at + len(a) <= bt and _BETWEEN_DATES.fullmatch(text[at + len(a): bt]):
            drop = (a, at) if DEATH.search(question) else (b, bt)
            if drop in out:
                out.remove(drop)
    return out


# a span that says one held a post before or after another: "He succeeds Hilary Brandt", "was Chair until 2003"
SUCCESSION = re.compile(r"\b(?:replac\w*|succe(?:ed|eds|eded|eding|ssor|ssion)|predecessor|t(?:ake|akes|ook|aken) "
                        r"over|preced\w*|previous(?:ly)?|former(?:ly)?|before|until|after|followed|stepped down|"
                        r"retir\w*|left|handed over|took office|appointed|elected)\b|[-–—]\s*(?:1\d|20)\d\d|\bto\s+"
                        r"(?:[A-Z][a-z]+\s+)?(?:1\d|20)\d\d", re.I)


_DAYS_AND_MONTHS = ("monday tuesday wednesday thursday friday saturday sunday january february march april may june july "
                    "august september october november december").split()
# a day's or a month's name with its short forms ("Sat", "Tues", "Thurs", "Sept"), as terms() gives them
SHORT_FORMS = {d: terms(f"{d[:3]} {d[:4]}").words | terms(d).words for d in _DAYS_AND_MONTHS}


def _abbreviated(words: frozenset[str]) -> frozenset[str]:
    """``words`` with the short forms of the days and months among them: a header "Sat" is named by "Saturday"."""
    return words.union(*(SHORT_FORMS[w] for w in words if w in SHORT_FORMS))


def _times_the_asked(question: str, span: Span) -> bool:
    """Does ``span`` say what a "what time" question times? "What time does the AGM start?" is not "Board meetings
    start at 6pm", nor "What time does the quiz start?" "Doors open at 7pm" under "Quiz night": the span says the
    question's words; its names, the span's title may."""
    said = terms(span.display).words
    words = terms(re.sub(r"\b[A-Z][\w'’-]*", " ", question)).words - {"time"}
    if (edge := _timed_edge(question, span.display)) is not None:
        words -= edge[2]  # "what time does the quiz kick off?": "Quiz Night – every Wednesday from 19:30"
    return all(akin(w, said) for w in words) and terms(question).names <= terms(f"{span.title} {span.display}").words


def _records_of(spans: Sequence[Span]) -> dict[tuple[str, int], tuple[str, str]]:
    """A fact sheet's records, by unit and record: (their lines in order, the lines of them that are no field —
    a heading, "KEY FIGURES 2023-24")."""
    records: dict[tuple[str, int], tuple[str, str]] = {}
    for s in sorted((s for s in spans if s.record >= 0), key=lambda s: (s.unit_id, s.start)):
        lines, heads = records.get((s.unit_id, s.record), ("", ""))
        records[(s.unit_id, s.record)] = (f"{lines} {s.display}", heads if s.sheet else f"{heads} {s.display}")
    return records


_PERIOD = re.compile(r"\b(?:19|20)\d\d\b")


def _another_record(question: str, mentions: Sequence[str], span: Span, record: tuple[str, str]) -> bool:
    """Is a fact sheet's line of a record the question does not name? Its names (not said by the line itself) must
    be said by the record's lines, the unit's title or its section; a year it asks, when the record's heading, the
    title or the section dates it, must be theirs ("in 2020-21" is not "KEY FIGURES 2023-24")."""
    said = flat(f"{span.section} {span.title} {record[0]}")
    if any(m.lower() not in said for m in mentions if m.lower() not in span.display.lower() and
           all(w[:1].isupper() or w[:1].isdigit() or w in PARTICLES for w in m.split())):  # (a name, not "X first")
        return True
    asked, dated = set(_PERIOD.findall(question)), set(_PERIOD.findall(f"{span.section} {span.title} {record[1]}"))
    return bool(asked and dated and not asked & dated)


def _another_field(question: str, text: str) -> bool:
    """Is ``text`` a "Field: value" line whose label says a word the question does not ("Mains replaced or relined:
    87 km" asked how many km of mains the company has; "Household waste collected" asked of food waste)? A word
    naming the kind of value ("Date", "Length", "Rate") needs no saying."""
    m = FIELD_LINE.fullmatch(text.strip())
    if m is None or ":" not in text:
        return False
    label = re.sub(r"\([^()]*\)", " ", text.split(":", 1)[0])  # ("Leakage (2023-24)": a qualifier)
    if len(label.split()) > 6 or _CLAUSE_WORDS & {w.lower().strip("-*•+") for w in label.split()}:
        return False  # a sentence's clause before a colon ("This requires three steps: ..."), no label
    asked = terms(question).words | {w.lower() for w in terms(question).names}
    return any(not akin(w, asked) for w in terms(label).words - _VALUE_KINDS)


_CLAUSE_WORDS = frozenset("this that these those it its we i you they he she is are was were be been has have had will "
                          "would can could should must do does did there here".split())
# the words of a field's label that name the kind of value it holds, not what it is of
_VALUE_KINDS = frozenset("date time year day venue place location address name price cost fee charge amount number "
                         "total rate value figure count length size area distance duration height weight capacity "
                         "population level percentage share rating score reading grade".split())


def _months_stated(text: str) -> set[tuple[str, str]]:
    """The (month, year) pairs a text states ("October 2024", "9 October 2024")."""
    return {(m.group(1).lower(), m.group(2)) for m in re.finditer(rf"\b({MONTHS})\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?"
                                                               r"(\d{4})\b", text)}


def _months_after(question: str) -> set[tuple[str, str]]:
    """The (month, year) pairs a question asks what came after ("the next meeting after the October 2024 one",
    "following the March 2023 closure"): a point of reference, not the answer ("closed in March 2023" narrows it)."""
    return {pair for m in re.finditer(rf"\b(?:after|following|since)\b[^?.]{{0,24}}?\b{MONTHS}\s+(?:\d{{1,2}}"
                                      r"(?:st|nd|rd|th)?,?\s+)?\d{4}", question) for pair in _months_stated(m.group(0))}


@functools.lru_cache(maxsize=4096)  # (asked of a span for its candidates and again for its reading)
def _timed_edge(question: str, text: str) -> tuple[int, int, frozenset[str]] | None:
    """Where the time a question asks the start or the end of stands in ``text`` (after "from" for a start, after
    "until" / "to" for an end), in the clause that says what the question times ("the drinks reception until
    19:00", not "talks from 09:30 until 17:00"), and the question's words that it says; None when the question asks
    neither, or no one clause says both the time and every word of what is timed."""
    lead, said = (r"from|starting\s+at|beginning\s+at", _STARTS) if _ASKS_OPEN.search(question) else \
        (r"until|till|to|closing\s+at|ending\s+at", _ENDS) if _ASKS_CLOSE.search(question) else (None, frozenset())
    if lead is None:
        return None
    timed = terms(question).words - {"time"} - _STARTS - _ENDS - _OPENS
    # a timetable's row "09:30-11:30 · Masters (daytime) rowing": its range's first time starts what the row names,
    # its last ends it; the names (the day) may be its heading's, "session" is what any row is
    in_row = terms(re.sub(r"\b[A-Z][\w'’-]*", " ", question)).words - {"time"} - _STARTS - _ENDS - _OPENS - _EVENT_KIND
    edge = 1 if lead.startswith("from") else 2
    edges = []
    for clause in re.finditer(r"(?:[^,;:]|(?<=\d):(?=\d))+?(?=\s+(?:and|with|while|but|then)\s+|[,;]|:(?!\d)|$)", text):
        words = terms(clause.group(0)).words
        m = re.search(rf"\b(?:{lead})\s+({CLOCK.pattern})", clause.group(0), re.I)
        if m and all(akin(w, words) for w in timed):
            edges.append((clause.start() + m.start(1), clause.start() + m.end(1), said))
        elif m is None and (r := _CLOCK_SPAN.search(clause.group(0))) and in_row and all(akin(w, words) for w in in_row):
            edges.append((clause.start() + r.start(edge), clause.start() + r.end(edge), said | _EVENT_KIND))
    return edges[0] if len(edges) == 1 else None


# a range of clock times ("09:30-11:30", "6pm to 8pm") and what a timetable's row is, which no row need say
_CLOCK_SPAN = re.compile(rf"({VALUE_OF['TIME'].pattern})\s*(?:[-–—]|\bto\b|\buntil\b|\btill\b)\s*({VALUE_OF['TIME'].pattern})", re.I)
_EVENT_KIND = frozenset("session sessions class classes lesson lessons slot slots event".split())


_OPENS = frozenset("open opens opening close closes closing shut shuts".split())
# the words of a question about when a thing starts or ends, said by a span's "from <time>" / "until <time>"
_STARTS = frozenset("start starts starting begin begins kick kicks off commence commences".split())
_ENDS = frozenset("end ends finish finishes finishing stop stops wrap wraps up".split())


def _a_bound(quantity: tuple[float, str, str], text: str) -> bool:
    """Is ``quantity`` a bound of a range ``text`` states ("stays of over 1 hour and up to 2 hours"), a band's
    edge rather than a measure of anything?"""
    bounds = row_range(text)
    return bounds is not None and bounds[2] == quantity[1] and quantity[0] in bounds[:2]


def _num(text: str) -> float | None:
    key = number_key(text)
    return float(key) if key is not None else None


def _unit(text: str | None) -> str:
    said = re.sub(r"\s+", " ", (text or "").lower().strip())
    return UNIT_WORDS.get(said, said)


def _unbracketed(text: str) -> str:
    """A cell or header without its parentheses ("List price (EUR)" → "List price ")."""
    return re.sub(r"[（(][^）)]*[)）]", "", text)


def _without_key(question: str, key: str, kw: frozenset[str], qwords: frozenset[str]) -> frozenset[str]:
    """The question's words but for those it says only in naming the row's key: "the swim price at Northgate Pool
    & Fitness" names no column "Main pool"; "the main pool at Northgate Pool & Fitness" does."""
    name = key.split(", ")[0].strip()
    if name and (at := question.lower().find(name.lower())) >= 0:  # and the words read into it ("how often": frequency)
        return terms(question[:at] + " " + question[at + len(name):]).words | (qwords - terms(question).words)
    return qwords - kw


_EXTREME_BAND = re.compile(r"\b(top|highest|upper|bottom|lowest|first|last)\s+(?:usage\s+|rate\s+|price\s+)?"
                           r"(band|tier|bracket)\b", re.I)


def _extreme_band(question: str, rows: Sequence[tuple[Any, tuple[float | None, float | None, str]]]
                  ) -> tuple[Any, str] | None:
    """The row of a table's highest range for "the top band" (its lowest for "the bottom band"), when the rows'
    ranges are of one unit and of one table; None when the question names no such band."""
    m = _EXTREME_BAND.search(question)
    if m is None or len({r[2] for _, r in rows}) != 1 or len({s.span.unit_id for s, _ in rows}) != 1 or len(rows) < 2:
        return None
    high = m.group(1).lower() in {"top", "highest", "upper", "last"}

    def level(band: tuple[float | None, float | None, str]) -> float:
        lo, hi, _ = band
        return (lo if lo is not None else -1e18) if high else (hi if hi is not None else 1e18)
    ranked = sorted(rows, key=lambda x: level(x[1]), reverse=high)
    if level(ranked[0][1]) == level(ranked[1][1]):
        return None
    return ranked[0][0], f"the row of the {'highest' if high else 'lowest'} range ({m.group(0)})"


def _the_row_named(question: str, row: Span, key: str, spans: Sequence[Span]) -> bool:
    """Of the rows of one table keyed as ``row`` is ("MSc Hydrogeology" for its Home and its International fees),
    is ``row`` the one the question names by a cell the others do not share ("Home")? True for a key no other row
    has."""
    def cells(s: Span) -> list[str]:
        return [c[1] for c in _cells(s.display)[1:] if len(c) == 2]
    same = [s for s in spans if s.kind == "row" and s.unit_id == row.unit_id and _cells(s.display)
            and len(first := _cells(s.display)[0]) == 2 and _unbracketed(first[1]).strip() == key]
    if len(same) < 2:
        return True
    qwords = terms(question).words
    shared = frozenset.intersection(*(frozenset(cells(s)) for s in same))
    named = [s for s in same if any((w := terms(c).words) and w <= qwords for c in cells(s) if c not in shared)]
    return named == [row]


def _one_of_kind(question: str, answer_type: str) -> re.Pattern[str] | None:
    """What a row's one value of the kind asked looks like, for the kind a row holds one of as a rule: a sum ("how
    much is council tax for band F": a number to the analysis, a sum all the same). Not a date: a row's one date
    ("Opened: 1978") answers no "when does it shut"."""
    if OTHER_SUMS.search(question):
        return None  # "the single person discount for Band B", "the deposit": another sum than the row's
    if answer_type == "MONEY" or (answer_type == "NUMBER" and re.search(r"\bhow much\b", question, re.I)):
        return VALUE_OF["MONEY"]
    return None


# sums of their own, which a row's one sum (its price, its charge) is not
OTHER_SUMS = re.compile(r"\b(?:discounts?|deposits?|penalt(?:y|ies)|fines?|refunds?|rebates?|premiums?|surcharges?|"
                        r"reductions?|grants?|bursar(?:y|ies)|scholarships?|stipends?|salar(?:y|ies)|wages?|interest|"
                        r"commissions?|lev(?:y|ies)|deductions?|subsid(?:y|ies)|allowances?|compensation|"
                        r"reimbursements?|concessions?)\b", re.I)


def _letters_named(key: str, question: str, head: str = "") -> bool:
    """Every single capital letter of a row's key is said in the question after the word it follows in the key, or
    after the key column's header ("Band A", "band B" for a key "B" under "Band"): "Band A" is no row of "the top
    band" (a bag of words drops the letter as the article "a"), nor "Band I" of "what would I pay"."""
    for m in re.finditer(r"\b[A-Z]\b", key):
        before = re.findall(r"[\w'-]+", key[: m.start()]) or re.findall(r"[\w'-]+", _unbracketed(head))
        lead = rf"(?i:{re.escape(before[-1])})\s+" if before else r"(?<!^)(?<![.?!]\s)"
        if not re.search(rf"{lead}{m.group(0)}\b(?![\w'’-])", question.strip()):
            return False
    return True


def _head_noun_named(header: str, qwords: frozenset[str]) -> bool:
    """An English header whose last word, its noun, the question says ("List price (EUR)" for "the price")."""
    words = _unbracketed(header).split()
    return bool(words) and header.isascii() and bool(terms(words[-1]).words & qwords)


def _same_word(a: str, b: str) -> bool:
    """One word, or one with an ending the other lacks ("West" and "Western", "Norway" and "Norwegian" not):
    "West Germanic" is the "Western Germanic" a question names, no rival of it."""
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 3 and long_.startswith(short) and long_[len(short):] in {"ern", "ian", "an", "ish", "s", "es", "n"})


def _spaced(text: str) -> str:
    """" word word " of ``text``, lowercase: a name found in it whole, whatever its punctuation."""
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


@functools.lru_cache(maxsize=512)
def people_in(nlp: Any, question: str) -> tuple[str, ...]:
    """The names the recogniser takes for people's in ``question`` (read once per question and hop)."""
    return tuple(e.text for e in nlp(question).ents if e.label_ == "PERSON")


def about_another(text: str, mentions: Sequence[str], people: Sequence[str] = ()) -> bool:
    """Does ``text`` name another thing of a kind a mention names, and none of the mentions: "Southwold Depot" and
    not "Northgate Depot", "Line 19" and not "Line 14", "Elsa Lanchester" and not "John Lanchester"? Such a span is
    about the other one. A mention ``people`` holds is a person's name, its last word no kind ("Timothy Hill" is
    no other hill than "Tim Hill")."""
    low = _spaced(text)
    whole = [m for m in mentions if m.strip() and not (len(m.split()) == 1 and any(  # "Line" of "Line 14"
        o != m and _spaced(m) in _spaced(o) and " and " not in o for o in mentions))]
    if any(_spaced(m) in low for m in whole):
        return False  # it names one of the question's things: "Dong'e County ... Liaocheng Prefecture"
    for m in mentions:
        words = re.findall(r"[\w'’-]+", TITLE_QUALIFIER.sub("", m))
        if len(words) < 2:
            continue
        head, first = re.escape(words[-1]), re.escape(words[0])
        own = {w.lower() for w in words}
        # a kind named by its last word, a common noun ("Northgate Depot", "Hawaii County"): not a surname
        # ("Elsa Lanchester" may be John Lanchester's mother, the very hop asked), nor a title's last word
        kind = words[-1][:1].isupper() and bool(wordnet.senses(words[-1], "noun")) and \
            words[-1].lower() not in PERSON_NOUNS
        rivals = [r.group(1) for r in re.finditer(rf"((?:[A-Z][\w'’-]*\s+){{1,3}}){head}\b", text)
                  if kind and not any(_same_word(w.lower(), o) for w in r.group(1).split() for o in own | STOP)
                  and not any(_spaced(p) in _spaced(m) for p in people)]
        # ("Aisha Naomi Tyler" is Aisha Tyler, "George V" King George V: a rival shares only the kind)
        if len(words) == 2 and re.fullmatch(r"[A-Z]?\d+\w*", words[1]):  # "Line 14": "Line 19", "Line N14"
            rivals += [r.group(0) for r in re.finditer(rf"\b{first}\s+[A-Z]?\d+\w*\b", text)]
        if any(_spaced(r) != _spaced(m) for r in rivals):
            return True
    return False


def _header_spans(display: str) -> list[tuple[int, int]]:
    """Where a row's column headers stand in its display ("Line: Line 14; Daytime frequency: every 20 minutes"):
    (start, end) of each "header" before its ": "."""
    out, at = [], 0
    for cell in display.split("; "):
        if ": " in cell:
            out.append((at, at + cell.index(": ")))
        at += len(cell) + 2
    return out


_ATTRIBUTE = re.compile(r"^\s*what\s+(?:is|are|was|were)\s+the\s+((?:[a-z]+\s+){0,3}?[a-z]+)\s+(?:of|for|at|on)\b", re.I)


# the sum a question asks by its name ("how much is the deposit for ...", "what is the late fee on ..."): a kind of
# payment, which a row of other sums does not give
_SUM_ASKED = re.compile(r"^(?:how\s+much|what)\s+(?:is|are|was|were|will\s+be|would\s+be)\s+(?:the|a|an|my|your|our)\s+"
                        r"(?:[\w-]+\s+){0,3}?([a-z]+?)s?\s+(?:for|of|on|per|to|in|at|if|when)\b", re.I)
_SUMS = frozenset({"deposit", "discount", "fine", "penalty", "tax", "levy", "surcharge", "premium", "grant", "bursary",
                   "stipend", "refund", "salary", "wage", "allowance", "rent", "toll", "reimbursement"})  # (not "price",
# "fee", "cost": a row of prices need not say the word)


# a difference asked ("how many more calls in Q3 than in Q2", "how many years after X did Y", "the difference
# between"), or a total of several things ("a course, a microchip and a vaccine altogether", "A and B combined")
_DIFFERENCE = re.compile(r"\bhow\s+(?:many|much)\s+(?:more|fewer|less|longer|shorter|cheaper|dearer|later|earlier|older|"
                         r"younger|bigger|smaller|higher|lower|greater)\b[^?]*\bthan\b|\bdifference\s+(?:between|in)\b|"
                         r"\bhow\s+(?:many\s+\w+|long)\s+(?:after|before)\b", re.I)
_TOTAL = re.compile(r"\b(?:altogether|all\s+together|in\s+total|combined|put\s+together|in\s+all|sum\s+of)\b", re.I)


_DURATION = re.compile(r"(?:(?:about|around|almost|nearly|over|some|more\s+than|less\s+than|another|the\s+last|the\s+next)\s+)?"
                       r"(?:\d[\d,.]*|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+ty(?:-[a-z]+)?"
                       r"|several|a\s+few|many)\s+(?:years?|months?|weeks?|days?|hours?|minutes?|decades?|centuries)"
                       r"(?:\s+(?:old|long|later|earlier))?", re.I)


# the comparatives a span states a difference with, and a question picks one thing by
_COMPARATIVES = r"more|fewer|less|longer|shorter|later|earlier|older|younger|higher|lower|bigger|smaller|cheaper|dearer"
# a span that states a difference or a total itself ("15 more seats than", "a combined capacity of 65", "four years
# after its founding", "45 staff in total")
_STATES_COMBINED = re.compile(rf"\b(?:{_COMPARATIVES}|greater)\s+(?:\w+\s+){{0,3}}?than\b|\b(?:combined|altogether|"
                              r"in\s+total|in\s+all|total|together|sum)\b|\b" + _DURATION.pattern +
                              r"\s+(?:after|before|later|earlier)\b", re.I)
# a question picking one thing by comparing its values with the others' ("which branch opens later", "who ran
# faster"), its comparative right after the thing asked and its verb; answered by a comparison, never by one span's name
_PICKS_BY_COMPARING = re.compile(r"^\s*(?:which|who|what)\b(?:\s+[\w'’-]+){0,3}?\s+(?:is|are|was|were|opens?|closes?|"
                                 r"starts?|ends?|finish(?:es)?|runs?|costs?|has|have|had|did|does|ran|came|comes)\s+"
                                 rf"({_COMPARATIVES}|sooner|larger|faster|slower)\b", re.I)


def asks_combined(question: str) -> bool:
    """Does the question ask a value computed from several (a difference, or a total of things it lists)?"""
    return bool(_DIFFERENCE.search(question)) or (bool(_TOTAL.search(question)) and bool(
        re.search(r"\s(?:and|plus)\s|,", question)))


def _sum_asked(question: str) -> str | None:
    """The name of the sum a question asks for ("deposit"), when it names one."""
    m = _SUM_ASKED.match(question.strip())
    return m.group(1).lower() if m and m.group(1).lower() in _SUMS else None


def _attribute_asked(question: str) -> str | None:
    """The noun "what are the N of X" asks for ("hours" of "What are the opening hours of St Aldric's Clinic?"): a
    cell answers it from a column that names it, not from "Opened"."""
    m = _ATTRIBUTE.match(question)
    return m.group(1).split()[-1].lower() if m else None


# "which has more beds", "fewer employees": the things counted (a plural noun, not "more famous")
COUNTED_MORE = re.compile(r"\b(?:more|fewer|less|most|fewest)\s+([a-z]+s)\b(?<!ous)(?<!ss)", re.I)


def _counts_of(noun: str, text: str) -> list[float]:
    """The numbers ``text`` gives of ``noun`` ("240 beds", "room for 120 inpatient beds"): a number at most two
    words before the noun (its plural or singular)."""
    base = re.escape(noun[:-1])
    return [v for m in re.finditer(rf"(\d[\d,]*)\s+(?:[\w-]+\s+){{0,2}}?{base}s?\b", text, re.I)
            if (v := _num(m.group(1))) is not None]


HOW_OFTEN = re.compile(r"\bhow\s+(?:often|frequently)\b", re.I)


def _names_a_person(header: str) -> bool:
    """A header a "who" question's answer stands under ("Manager", "Chair of the board"): not "Depot" of "Who
    manages the depot that Line 14 is worked from?", a place the question passes through."""
    return any(w.lower().rstrip("s") in PERSON_NOUNS or w.lower() in PERSON_NOUNS
               for w in re.findall(r"[A-Za-z]+", _unbracketed(header)))


def _sum_in(header: str, value: str, answer_type: str) -> bool:
    """A sum asked, and a cell that is a bare number under a header naming its currency ("List price (EUR):
    2,250")."""
    return answer_type == "MONEY" and bool(re.fullmatch(r"\d[\d,.]*", value.strip())) and \
        bool(re.search(r"\b(?:EUR|USD|GBP|CHF|JPY|CNY|RMB|euros?|dollars?|pounds?)\b|[€$£¥元]", header, re.I))


def _a_band_row(span: Span | None) -> bool:
    """A table row that is one band of a quantity ("Trip length: 3 days or less; Allowance: 40 EUR")."""
    return span is not None and span.kind == "row" and any(row_range(c[-1]) for c in _cells(span.display))


_cells = row_cells  # a table row shown as "Header: value; Header: value" as [header, value] pairs


# a quantity in a unit per unit, as written: "140 g/km", "5 mg/l" (matched to a header's "(g/km)" as it is written)
PER_QUANTITY = re.compile(rf"{_NUM}\s*([A-Za-zµ]{{1,4}}/[A-Za-z]{{1,4}})(?![\w/])")


def quantities(text: str) -> list[tuple[float, str, str]]:
    """(value, normalised unit, matched text) of the measured quantities in ``text``."""
    out = []
    for m in QUANTITY.finditer(text):
        v = _num(m.group(1))
        if v is not None:
            out.append((v, _unit(m.group(2)), m.group(0)))
    for m in PER_QUANTITY.finditer(text):
        if (v := _num(m.group(1))) is not None:
            out.append((v, m.group(2).lower(), m.group(0)))
    return out


def stated_quantities(question: str) -> list[tuple[float, str, str]]:
    """The quantities, sums and ages ``question`` states: "a 2,000 km flight", "worth £400", "I'm 30"."""
    return [*quantities(question), *amounts(question), *ages(question)]


# a rate's column: "Charge per cubic metre", "Price per hour (£)"
_PER_HEAD = re.compile(rf"\bper\s+(?:an?\s+|one\s+)?({_UNIT.strip('()')})\b", re.I)
# the question asks the rate itself, not what a quantity costs at it: "how much per cubic metre", "what rate"
_ASKS_RATE = re.compile(r"\b(?:per|a|each|every|rate|tariff|price of one)\s+(?:\w+\s+)?(?:cubic|square)?\s*"
                        r"(?:met(?:re|er)|m³|m3|m²|m2|lit(?:re|er)|hour|minute|day|year|km|kilomet(?:re|er)|mile|kg)\b|"
                        r"\b(?:rate|unit price|per)\b", re.I)


# the question asks a total, not a rate: "altogether", "in total", "over the two years"
TOTAL_ASKED = re.compile(r"\b(?:altogether|in total|in all|overall|total|over (?:the |my |a |all )?(?:\w+ )?"
                         r"(?:years|months|weeks|days|hours))\b", re.I)
# ... unless it asks the rate all the same: "the total yearly fee", "the overall fee per year"
RATE_ASKED = re.compile(r"\b(?:per|a|each|every)\s+(?:year|month|week|day|hour|term|quarter|night)\b|"
                        r"\b(?:yearly|annual|annually|monthly|weekly|daily|hourly|nightly|quarterly)\b", re.I)
_COUNT_WORDS = {w: int(n) for w, n in NUMBER_WORDS.items() if int(n) <= 12}  # "over the two years" (zero to twelve)


def _total_over(question: str, row: Span, rate: str | None, per: re.Match[str]) -> dict[str, Any] | None:
    """A rate per unit ("£5,900" per year) times the count of that unit the question says ("over the two years"),
    else its column's header ("Part-time (per year, 2 years)"): {quantity, unit, rate, per, value} as :func:`charged`
    gives; None when neither says such a count."""
    unit = _unit(per.group(1))
    head = next((h for h, v in _cells(row.display) if v == rate), "")  # "Part-time (per year, 2 years)": its count
    count = re.compile(r"\b(\d+|" + "|".join(_COUNT_WORDS) + r")\s+(years?|months?|weeks?|days?|hours?|nights?|"
                       r"quarters?|terms?|minutes?)\b", re.I)
    asked = [(m.group(1), _unit(m.group(2).lower())) for m in count.finditer(question)]
    if any(u != unit for _, u in asked):
        return None  # "if I study for 18 months" of a rate per year: not the header's 2 years
    for n, said in asked or [(m.group(1), _unit(m.group(2).lower())) for m in count.finditer(head)]:
        if said == unit:
            return charged("", row, rate, float(n) if n.isdigit() else float(_COUNT_WORDS[n.lower()]), unit)
    return None


def _sum_shown(currency: str, rate: str, total: float) -> str:
    """A computed sum as the rate is written: pence when the rate has them or the total does ("£20.72")."""
    return f"{currency}{total:,.2f}" if "." in rate or total != int(total) else f"{currency}{int(total):,}"


def charged(question: str, row: Span, rate: str | None, value: float, unit: str) -> dict[str, Any] | None:
    """What ``value`` ``unit`` (the question's "14 cubic metres") costs at ``rate``, the row's sum per that unit
    ("Charge per cubic metre: £1.48" → £20.72): {quantity, rate, per, value}; None when the question asks the rate
    itself ("how much per cubic metre"), the rate's column is no rate of that unit, or the rate is no sum."""
    if rate is None or _ASKS_RATE.search(question) or not (m := re.fullmatch(rf"\s*{_CUR}\s?{_NUM}\s*", rate)):
        return None
    head = next((h for h, v in _cells(row.display) if v == rate), "")
    per = _PER_HEAD.search(head)
    if per is None or _unit(per.group(1)) != unit or (amount := _num(m.group(2))) is None:
        return None
    total = amount * value
    shown = _sum_shown(m.group(1), m.group(2), total)
    return {"quantity": value, "unit": unit, "rate": rate, "per": per.group(0), "value": shown}


# a count of things bought or booked: "5 adult Vale Day tickets", "three parking passes" (not "2 years", "14 m³")
_ITEMS = re.compile(r"\b(\d{1,3}|" + "|".join(w for w in _COUNT_WORDS if w not in {"zero", "one"}) +
                    r")\s+(?:[A-Za-z][\w'’-]*\s+){0,4}?([a-z]{3,}s)\b", re.I)
# what is bought or booked by the count: tickets, passes, seats ... or the people they are for
_BOUGHT = frozenset("""tickets passes seats sessions licences licenses copies places memberships permits bookings lessons
classes people persons adults children kids users members guests passengers""".split())
# the question asks the price of one, whatever it counts besides: "how much is an adult day ticket", "what does a
# family ticket cost"
_ONE_ASKED = re.compile(r"\b(?:how much (?:is|are|does|do|would|will)|what (?:is|does|would|will)|what['’]s)\s+"
                        r"(?:an?|one|each|the price of an?)\s", re.I)
# a period the price may be per: "for a full year", "monthly" (a second multiplier: no total is computed)
PERIOD = re.compile(r"\b(?:for|per|a|each|every|over|by the)\s+(?:(?:a|an|the|one|two|three|\d+|full|whole)\s+)*"
                    r"(?:years?|months?|weeks?|days?|nights?)\b|\b(?:annual(?:ly)?|monthly|weekly|yearly)\b|"
                    r"\bmonth to month\b", re.I)


def items_counted(question: str, read: str = "") -> float | None:
    """The count of things the question buys or books ("I need to buy 5 adult day tickets"), or None; not when it
    asks the price of one ("how much is a ticket each", "per ticket"), nor a count that names the row read ("across
    3 zones" of the row keyed "3 zones": ``read``, how the value was read)."""
    said = terms(read)
    m = next((m for m in _ITEMS.finditer(question) if m.group(2).lower() in _BOUGHT
              and not terms(m.group(2)).words & said.words and not terms(m.group(1)).numbers & said.numbers), None)
    if m is None or _ASKS_RATE.search(question) or _ONE_ASKED.search(question) or \
            re.search(r"\b(?:each|apiece)\b", question, re.I):
        return None  # "with 2 bikes, how much is an adult day ticket?": the price of one
    n = m.group(1).lower()
    count = float(n) if n.isdigit() else float(_COUNT_WORDS[n])
    return count if count >= 2 else None


def _counted(question: str, got: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """A price read as a cell or a field, for a question that buys a count of things ("5 adult Vale Day tickets -
    what will that come to?"): the price times the count, shown and checked as a band's total is; None when the
    price may be per a period the question also says ("12 seats ... for a full year": two multipliers), or is no
    sum. Any other read as it was."""
    if got is None or not str(got[2]).startswith("cell:") or got[1] is None or \
            not re.fullmatch(rf"\s*{_CUR}\s?{_NUM}\s*", got[1]) or (items := items_counted(question, got[2])) is None:
        return got
    total = None if PERIOD.search(question) else charged_each(got[1], items)
    if total is None:
        return None
    return got[0], total["value"], f"{items:g} × {got[1]} each = {total['value']} ({got[1]}: {got[2][5:]})", \
        {"total": total}


def charged_each(row_price: str, count: float) -> dict[str, Any] | None:
    """``count`` things at ``row_price`` each ("£5.80" × 5 → £29.00), as :func:`charged` shows a total; None when
    the price is no sum."""
    if not (m := re.fullmatch(rf"\s*{_CUR}\s?{_NUM}\s*", row_price)) or (amount := _num(m.group(2))) is None:
        return None
    total = amount * count
    shown = _sum_shown(m.group(1), m.group(2), total)
    return {"quantity": count, "unit": "each", "rate": row_price, "per": "each", "value": shown}


def _row_pattern(answer_type: str) -> re.Pattern[str] | None:
    """What a row's value cell of ``answer_type`` looks like; a price ("how much", a sum or a number to the
    analysis) may be "Free" ("How much is a prescription?")."""
    pattern = VALUE_OF.get(answer_type)
    if answer_type in {"MONEY", "NUMBER"} and pattern is not None:
        return re.compile(rf"{pattern.pattern}|^\s*(?:free(?: of charge)?|no charge)\s*$", re.I)
    return pattern


# an age said without its unit: "I'm 30,", "aged 67", "my son is 12"
_AGE = re.compile(r"\b(?:I['’]?m|I am|aged|(?:he|she|they)(?:['’]s| is| are)|(?:son|daughter|child|wife|husband|"
                  r"partner|mother|father) is)\s+(\d{1,3})\b(?!\s*(?:[%£$€.,]\d|[A-Za-z]))")


def ages(text: str) -> list[tuple[float, str, str]]:
    """(age, "y", matched text) of the ages ``text`` states without their unit ("I'm 30, how much ..."); an age
    with its unit ("67 years old") is one of :func:`quantities`."""
    return [(float(m.group(1)), "y", m.group(0)) for m in _AGE.finditer(text)]


_CUR = r"([£$€])"
_STRICT = 1e-9  # "under 5", "over £1,000": the bound itself is out
# a band of sums ("£250.01 to £1,000", "Up to £50", "Over £1,000"): the unit is the currency
MONEY_RANGES = [
    (re.compile(rf"{_CUR}\s?{_NUM}\s*(?:to|[-–])\s*[£$€]?\s?{_NUM}", re.I), "between"),
    (re.compile(rf"\b(?:up to|at most|no more than|not more than)\s+{_CUR}\s?{_NUM}", re.I), "upto"),
    (re.compile(rf"\b(?:less than|under|below)\s+{_CUR}\s?{_NUM}", re.I), "under"),
    (re.compile(rf"\b(?:more than|over|above|exceeding)\s+{_CUR}\s?{_NUM}", re.I), "over"),
]
# a band without a unit, the whole cell ("16 to 24", "Under 5", "65 and over"): its header says what it counts
BARE_RANGES = [
    (re.compile(rf"{_NUM}\s*(?:to|[-–])\s*{_NUM}"), "between"),
    (re.compile(rf"(?:up to|at most)\s+{_NUM}", re.I), "upto"),
    (re.compile(rf"(?:under|below|less than)\s+{_NUM}", re.I), "under"),
    (re.compile(rf"{_NUM}\s*(?:and|or)\s+(?:over|above|older|more|upwards)", re.I), "from"),
    (re.compile(rf"(?:over|above|more than)\s+{_NUM}", re.I), "over"),
]
# what a header of a bare band says it counts, by the unit of the question's quantity ("Age band" for "19 years")
BAND_HEADS = {"y": frozenset({"age", "aged", "ages"})}


def _bounds(kind: str, a: str, b: str | None = None) -> tuple[float | None, float | None]:
    lo, hi = _num(a), (_num(b) if b is not None else None)
    if kind == "between":
        return lo, hi
    if lo is None:
        return None, None
    return {"upto": (None, lo), "under": (None, lo - _STRICT), "from": (lo, None), "over": (lo + _STRICT, None)}[kind]


def money_range(text: str) -> tuple[float | None, float | None, str] | None:
    """(low, high, currency) of a band of sums in ``text`` ("£250.01 to £1,000"), or None."""
    for pattern, kind in MONEY_RANGES:
        if m := pattern.search(text):
            cur, *nums = m.groups()
            return (*_bounds(kind, *nums), cur)
    return None


def bare_range(cell: str) -> tuple[float | None, float | None, str] | None:
    """(low, high, "") of a cell that is a band and nothing else ("16 to 24", "65 and over"), or None."""
    for pattern, kind in BARE_RANGES:  # "16 to 18 (in full-time education)": the band, its note cited with the row
        if m := pattern.fullmatch(_unbracketed(cell).strip()):
            return (*_bounds(kind, *m.groups()), "")
    return None


def amounts(text: str) -> list[tuple[float, str, str]]:
    """(value, currency, matched text) of the sums in ``text`` ("worth £400")."""
    return [(v, m.group(1), m.group(0)) for m in re.finditer(rf"{_CUR}\s?{_NUM}", text)
            if (v := _num(m.group(2))) is not None]


def band_of(header: str, cell: str) -> tuple[float | None, float | None, str] | None:
    """The band a row's cell states: a range with its unit, a band of sums, or a bare band ("16 to 24") whose
    header says what it counts (its unit then the header's words, matched by :func:`holds`)."""
    if (got := row_range(cell) or money_range(cell)) is not None:
        return got
    bare = bare_range(cell)
    return None if bare is None else (bare[0], bare[1], "header:" + header)


# how many of the second unit one of the first makes: a band in hours holds a stay of 45 minutes
PER = {("min", "h"): 1 / 60, ("h", "min"): 60.0, ("h", "d"): 1 / 24, ("d", "h"): 24.0, ("min", "d"): 1 / 1440,
       ("d", "min"): 1440.0, ("m", "km"): 1 / 1000, ("km", "m"): 1000.0, ("mi", "km"): 1.609344,
       ("km", "mi"): 1 / 1.609344, ("mi", "m"): 1609.344, ("m", "mi"): 1 / 1609.344, ("m3", "l"): 1000.0,
       ("l", "m3"): 1 / 1000}


def same_kind(band: tuple[float | None, float | None, str], unit: str) -> bool:
    """Is ``band`` a band of quantities of ``unit``'s kind (in it, or in a unit it converts to: hours for minutes)?
    A bare band when its header names the quantity's kind."""
    bunit = band[2]
    if bunit.startswith("header:"):  # "Age band" for years; "CO2 emissions (g/km)" for "140 g/km"
        said = re.search(r"\(([^()]+)\)\s*$", bunit[7:])
        return bool(terms(bunit[7:]).words & BAND_HEADS.get(unit, frozenset())) or \
            bool(said and said.group(1).strip().lower() == unit)
    return bunit == unit or (unit, bunit) in PER


def holds(band: tuple[float | None, float | None, str], value: float, unit: str) -> bool:
    """Does ``band`` hold ``value`` in ``unit`` (converted to the band's unit: 45 minutes is 0.75 hours)?"""
    lo, hi, bunit = band
    value = value * PER.get((unit, bunit), 1.0)
    return same_kind(band, unit) and (lo is None or value >= lo) and (hi is None or value <= hi)


def row_range(text: str) -> tuple[float | None, float | None, str] | None:
    """(low, high, unit) of a range written in a table cell, or None."""
    for pattern, kind in RANGES:
        m = pattern.search(text)
        if not m:
            continue
        g = m.groups()
        if kind == "between":
            lo, hi = _num(g[0]), _num(g[2])
            return lo, hi, _unit(g[3] or g[1])
        v = _num(g[0])
        return (None, v, _unit(g[1])) if kind == "upto" else (v, None, _unit(g[1]))
    return None


def other_case(asked: Sequence[tuple[float, str, str]], text: str) -> bool:
    """Whether ``text`` speaks only of other cases of a quantity the question states (``asked``: its
    :func:`quantities`, a point, not a range): the ranges it states in that unit all leave the question's value out
    ("over 3,500 km, you're due 600 Euro" says nothing of a 2,000 km flight), and it does not state the value
    itself. A negated bound ("not less than") is not read; a span with a range holding the value is no other case."""
    ranges = []
    for pattern, _kind in RANGES:
        for m in pattern.finditer(text):
            if re.match(r"[A-Za-z]", text[m.end():m.end() + 1]) or \
                    re.search(r"\b(?:not|no)\s+$", text[max(0, m.start() - 5):m.start()], re.I):
                continue  # "1 month" is no "1 m"; "not less than 3,500 km" is no bound read here
            if (got := row_range(m.group(0))) is not None:
                ranges.append(got)
    stated = {(v, u) for v, u, _ in quantities(text)}
    return any((ours := [(lo, hi) for lo, hi, u in ranges if u == unit]) and (value, unit) not in stated and
               not any((lo is None or value >= lo) and (hi is None or value <= hi) for lo, hi in ours)
               for value, unit, _ in asked)


# a bound the value must pass, not reach ("more than 3500 km"; "at least" and "up to" include it)
STRICT_BOUND = re.compile(r"\b(?:more|less|fewer) than\b|\b(?:over|above|under|below|exceeding|beyond)\s+\d", re.I)
# a question about a change or a comparison with the thing it names: no single cell answers it
RELATIVE_ASK = re.compile(r"相比|相较|比起|比较|提高了|提升了|增加了|减少了|下降了|降低了|高出|低了|多了|少了|"
                          r"\bcompared (?:to|with)\b|\b(?:improve|increase|decrease|differ)\w*", re.I)
_AGENT = re.compile(r"[\w'-]+(?:ed|en|wn)\s+(?:and\s+[\w'-]+(?:ed|en|wn)\s+)?(?:(?:in|on)\s+[\w ,]{1,20}?\s+)?by\s+"
                    r"(?:(?:the|our|their|its|his|her)\s+)?(?:(?:[A-Za-z][\w'-]*\s+){0,3}[A-Za-z][\w'-]*,\s+)?")
# "popularized (in 1949) by ", "driven and staffed by our Mobile Library Officer, ": the doer after its role
_MODIFIES = re.compile(r"\s+(?!(?:and|or|in|on|at|for|with|from|who|which|as|of|to|during|after|before)\b)[a-z]")
HEADED = "+NOUN"  # the label of a name's phrase with its head noun (:func:`_headed`), in no answer type's labels
ENTS_CACHE = 20_000  # spans whose entities a generator remembers (the same units come back across attempts)


def _read_text(span: Span) -> str:
    """A span as the cross-encoder reads it: with its unit's title when the span does not name it."""
    return f"{span.title}: {span.display}" if span.title and span.title.lower() not in span.display.lower() else span.display


@dataclass
class Draft:
    """What a generator returns, before validation: text with [u_…] markers, a direct answer."""

    text: str
    direct: str | None = None
    basis: dict[str, Any] | None = None  # how a computed direct answer was computed (kmrag.answer.validate)
    notes: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class _Scored:
    span: Span
    score: float
    words: frozenset[str]
    typed: bool


# a bracket of a few words that ends in a capitalised one: "(corrective RAG)", "(Harbor Session)"; or of one
# technical name alone, hyphened or with two capitals ("(self-RAG)", "(TCP)"), not "(France)"
_NAME_BRACKET = re.compile(r"\(((?:[^()\s]+\s+){1,3}([A-Z][\w-]*)|([\w]+-[\w-]*[A-Z][\w-]*|[A-Z][\w-]*[A-Z][\w-]*))\)")


def _abbreviates(name: str, before: str) -> bool:
    """"the Marvel Cinematic Universe (MCU)": the bracket only shortens the words before it."""
    letters = [c for c in name if c.isupper()]
    words = re.findall(r"[\w'-]+", before)[-len(letters):] if letters else []
    return len(letters) > 1 and len(words) == len(letters) and \
        all(w[:1].upper() == c for w, c in zip(words, letters, strict=True))


def _bracketed(cand: str, at: int, text: str, nlp: Any) -> tuple[str, int]:
    """A name that ends a short bracket of words alone is the bracket's whole name: "… failure (corrective RAG)"
    names "corrective RAG", not "RAG"; "(Harbor Session)". Before a technical name (capitals inside) nouns and
    adjectives may lead it, before another only names: not "(American singer Patti Page)", "(southern France)".
    Never a bracket with digits, a colon, a comma, a function word or an adverb ("(now Gdańsk)", "(German: …)",
    "(born 1920 in Paris)")."""
    end = at + len(cand)
    start = text.rfind("(", 0, at) + 1
    if start == 0 or text[end:end + 1] != ")" or ")" in text[start:at]:
        return cand, at
    inner = text[start:end]
    words = inner.split()
    if not 1 < len(words) <= 4 or re.search(r"[\d:,;\"“”]", inner) or any(w.lower() in STOP for w in words):
        return cand, at
    lead = nlp(text[start:at])
    technical = len(cand.split()) == 1 and sum(c.isupper() for c in cand) > 1  # "RAG": "corrective RAG"
    if not all((t.pos_ in {"ADJ", "NOUN", "PROPN", "X"} and technical) or (t.pos_ == "PROPN" and t.text[:1].isupper())
               or t.text == "-" for t in lead):  # not "(American singer Patti Page)", "(southern France)"
        return cand, at
    return inner, start


class ExtractiveGenerator:
    name = "extractive"

    def __init__(self, nlp: Any, max_statements: int = 3, min_gain: float = 0.2, reranker: Any = None,
                 w_meaning: float = MEANING_WEIGHT, analyse: Any = None) -> None:
        self.nlp = nlp
        self.max_statements = max_statements
        self.min_gain = min_gain
        self.reranker = reranker  # a cross-encoder (kmrag.nlp.rerank): spans scored by meaning; None: by words
        self.w_meaning = w_meaning
        self.analyse = analyse  # question -> QuestionAnalysis: a compositional question's next hop
        self.picked: dict[str, Any] | None = None
        self._ents_cache: dict[str, list[tuple[str, str, int]]] = {}  # a span's text -> its named entities
        self._ents_lock = threading.Lock()

    # -- the draft -------------------------------------------------------------------------------

    def generate(self, question: str, analysis: QuestionAnalysis, context: Context,
                 queries: Sequence[str] = ()) -> Draft:
        """``queries``: the questions retrieval asked besides this one (its sub-questions, the question
        rewritten with a resolved sub-answer): a span answering one of them is read as answering this one."""
        spans = context.all_spans()
        if not spans:
            return Draft(text="")
        analysis = titled_compared(question, analysis, [str(getattr(u, "title", "") or "") for u in context.units])
        qwords = self._question_words(question, analysis)
        ents = self._entities(spans)
        by_words = sorted((self._score(s, qwords, analysis, ents) for s in spans),
                          key=lambda x: (-x.score, x.span.rank, x.span.start))
        meaning = self._meaning(question, queries, [x.span for x in by_words[:MEANING_TOP]])
        self._meanings = meaning
        self._records = _records_of(spans)  # a fact sheet's records, read whole whatever span is read
        scored = [self._score(s, qwords, analysis, ents, meaning.get((s.unit_id, s.start), 0.0 if meaning else None))
                  for s in spans]
        scored.sort(key=lambda x: (-x.score, x.span.rank, x.span.start))
        if not scored or scored[0].score <= 0:
            return Draft(text="", notes=[{"generator": "extractive", "why": "no span shares a word with the question"}])
        if analysis.answer_type == "DESCRIBE":  # "What does Millstone do?": the clause of a span describing it
            got = read_description(question, [x.span for x in scored], self.nlp)
            said = got[0] if got is not None else self._chain(scored, qwords, analysis)
            return Draft(text="\n".join(f"{_ended(s)} [{s.unit_id}]" for s in said), direct=got and got[1],
                         basis=got and got[2],
                         notes=[{"generator": "extractive", "statements": len(said), "described": got is not None}])
        contact = read_contact(question, [x.span for x in scored], akin,
                               lambda sp: meaning.get((sp.unit_id, sp.start))) \
            if analysis.answer_type != "YES_NO" else None  # who deals with what is asked, then their number
        band = None if contact is not None else self._band(question, scored, analysis) or \
            end_time(question, [x.span for x in scored]) or (
            _counted(question, self._joined(question, scored, analysis)
                     or self._cell(question, scored, analysis, asking(self.nlp, question)[1]
                                   if question.isascii() else None)
                     or self._row_by_cells(question, scored, analysis) or self._field(question, scored, analysis)
                     or self._role(question, scored, analysis) or self._header_said(question, scored))
            if analysis.kind == "factoid" and analysis.answer_type != "YES_NO"
            else None)
        basis: dict[str, Any] | None = None
        direct: str | None
        computed = None if band is not None or contact is not None else self._table(question, analysis, scored)
        if contact is not None:
            chain, direct, basis = contact
        elif computed is not None:
            chain, direct, basis = computed
        elif band is not None and band[2].startswith("cell:"):
            chain, direct = band[0], band[1]
            basis = {"kind": "cell", "rule": band[2][5:]}
        elif band is not None:
            chain, direct, rule, *more = band  # a total computed at a rate: its basis too
            basis = {"kind": "band", "rule": rule,
                     "entities": [{"unit_id": s.unit_id, "quote": s.quote} for s in chain], **(more[0] if more else {})}
        elif analysis.answer_type != "YES_NO" and \
                (assigned := read_assigned(question, [x.span for x in scored], [x.score for x in scored],
                                            {u.id: " ".join([u.title, *u.section_path]) for u in context.units})) \
                is not None:
            chain, direct, basis = assigned  # "what top_k does the example start with": args["top_k"] = 4
        elif analysis.answer_type == "YES_NO" and (faq := faq_answer(question, [x.span for x in scored])):
            chain, direct, basis = faq  # "Do I need my own kayak ...?" a page's FAQ asks, and its "No."
        elif analysis.answer_type == "YES_NO" and (ordered := self._ordered(question, analysis, spans, scored, ents)):
            chain, direct, basis = ordered  # "Was X born before Y?": the choice "Which was born first, X or Y?"
        elif analysis.kind == "comparison" and len(analysis.compared) >= 2 and RELATED_PERSON.search(question) \
                and (analysis.answer_type != "YES_NO" or SAME_PLACE.search(question)):
            # "whose director was born first", "are their directors from the same country": the person's value
            chain, direct, basis = self._compare_related(question, analysis, spans, ents)
        elif analysis.kind == "comparison" and len(analysis.compared) >= 2:
            chain = self._compared_chain(scored, analysis, question)
            direct, basis = self._compare(question, analysis, chain, ents, pool=[x.span for x in scored])
            chain = _with_cited(chain, basis, [x.span for x in scored])
        elif analysis.sub_question is not None and analysis.answer_type not in {"YES_NO", *CLAUSE_ASKED} and \
                (hopped := read_chain(question, analysis, spans, self._reader(ents, question), self.rank_for,
                                      self.analyse)):
            chain, direct, basis = hopped
        else:
            chain = self._chain(scored, qwords, analysis)
            if analysis.answer_type == "YES_NO":
                direct, basis = self._yes_no(question, analysis, chain, ents)
            else:
                self.picked = None
                direct = self._direct(question, analysis, chain, ents, [x.span for x in scored])
                if direct is not None and (picked := self._picked_span) not in chain:
                    chain = [*chain, picked]  # read from a span the statements left out (the question's frame)
                if direct is None and analysis.answer_type not in CLAUSE_ASKED:
                    chain, direct = self._read_further(question, analysis, chain, scored, ents)
                basis = self.picked  # how many values of the kind the span offered, how far from the question's words
                if (options := offered(question)) and not (direct and _one_of(direct, options)):
                    # "Which facility was founded in Missouri, A or B?": one of the options, or no answer
                    chain, direct, basis = self._option(question, options, [x.span for x in scored]) or \
                        (chain, None, None)
        if direct is not None and asks_combined(question) and not (basis or {}).get("total") and \
                (basis or {}).get("kind") not in {"comparison", "yes_no"} and \
                not any(_STATES_COMBINED.search(sp.display) for sp in chain):
            direct, basis = None, {"kind": "dropped", "why": "a total or a difference of values is asked; one value "
                                                           "read is not it"}  # "how many more calls in Q3 than in
            # Q2": not Q3's 312; "a course, a microchip and a vaccine altogether": not the vaccine's £38
        if direct is not None and any(direct.count(a) != direct.count(b) for a, b in ("()", "[]", "{}")):
            direct, basis = None, {"kind": "dropped", "why": "the value read is cut inside brackets"}  # "retrieve(query"
        if direct is not None and (basis or {}).get("kind") == "span" and (cmp := _PICKS_BY_COMPARING.search(question)) \
                and " or " not in question and not any(re.search(rf"\b{cmp.group(1)}\b", sp.display, re.I) for sp in chain):
            direct, basis = None, {"kind": "dropped", "why": "the question picks by comparing values; one value read "
                                                           "is not the comparison"}  # "which branch opens later on a
            # sunday": not the name of the column read first
        text = "\n".join(f"{_ended(s)} [{s.unit_id}]" for s in chain)  # a line each: a span is one statement
        return Draft(text=text, direct=direct, basis=basis,
                     notes=[{"generator": "extractive", "statements": len(chain), "band": band is not None}])

    @staticmethod
    def _question_words(question: str, analysis: QuestionAnalysis) -> frozenset[str]:
        return terms(question).words | terms(" ".join(analysis.mentions)).words

    def _entities(self, spans: list[Span]) -> dict[tuple[str, int], list[tuple[str, str, int]]]:
        """(text, label, offset) of the named entities in each span, by (unit id, start)."""
        cache = self._ents_cache  # shared by the threads of a server: read into ``got``, never iterated unlocked
        got = {t: v for t in dict.fromkeys(s.display for s in spans) if (v := cache.get(t)) is not None}
        todo = [t for t in dict.fromkeys(s.display for s in spans) if t not in got]
        english = [t for t in todo if language_of(t) != "zh"]
        for t in todo:
            if language_of(t) == "zh":  # Chinese: LAC's names, dates and amounts (kmrag.nlp.chinese)
                got[t] = named_spans(t)
        for t, doc in zip(english, self.nlp.pipe(english, batch_size=64), strict=True):
            got[t] = [(e.text, e.label_, e.start_char) for e in doc.ents] + _headed(doc)
        with self._ents_lock:
            cache.update((t, got[t]) for t in todo)
            while len(cache) > ENTS_CACHE:  # the oldest first: a span read again (a retry, the next question) stays
                cache.pop(next(iter(cache)))
        return {(s.unit_id, s.start): got[s.display] for s in spans}

    def _typed(self, span: Span, analysis: QuestionAnalysis, ents: dict[tuple[str, int], list[Any]]) -> bool:
        t = analysis.answer_type
        if t in VALUE_OF and VALUE_OF[t].search(span.display):
            return True
        if t == "PLACE" and PLACE_AFTER.search(span.display):
            return True
        labels = LABELS.get(t, set())
        return any(lab in labels for _, lab, _ in ents.get((span.unit_id, span.start), []))

    def _reader(self, ents: dict[tuple[str, int], list[Any]], asked: str = "") -> Any:
        """Reads one hop's question; ``asked``: the whole question, whose own names no hop's answer is."""
        return lambda q, answer_type, mentions, order: self._read(q, answer_type, mentions, order, ents, asked)

    def rank_for(self, query: str, spans: Sequence[Span]) -> list[tuple[Span, float]]:
        """``spans`` best first for answering ``query``: by the cross-encoder, else by the query's words."""
        if not spans:
            return []
        if self.reranker is not None and language_of(query) != "zh":
            probs = self._answers([query], spans)
        else:
            qw = terms(query).words
            probs = np.array([len(qw & terms(f"{s.title} {s.display}").words) / max(1, len(qw)) for s in spans])
        order = sorted(range(len(spans)), key=lambda i: (-probs[i], spans[i].rank, spans[i].start))
        return [(spans[i], float(probs[i])) for i in order]

    def _meaning(self, question: str, queries: Sequence[str], spans: list[Span]) -> dict[tuple[str, int], float]:
        """Per span, the cross-encoder's probability that it answers the question or one of retrieval's
        rewritten questions (the best of them); empty without a cross-encoder."""
        if self.reranker is None or self.w_meaning <= 0 or language_of(question) == "zh":
            return {}  # the cross-encoder (ms-marco) reads English only: it would rank Chinese spans by noise
        best = self._answers(list(dict.fromkeys([question, *queries]))[:MAX_READ_QUERIES], spans)
        return {(s.unit_id, s.start): float(p) for s, p in zip(spans, best, strict=True)}

    def _answers(self, queries: Sequence[str], spans: Sequence[Span]) -> np.ndarray:
        """Per span, the cross-encoder's probability that it answers one of ``queries`` (the best of them)."""
        texts = [_read_text(s) for s in spans]
        logits = self.reranker.score_pairs([(q, t) for q in queries for t in texts]).reshape(len(queries), len(spans))
        return 1.0 / (1.0 + np.exp(-np.asarray(logits, dtype=np.float64).max(axis=0)))

    def _score(self, span: Span, qwords: frozenset[str], analysis: QuestionAnalysis,
               ents: dict[tuple[str, int], list[Any]], meaning: float | None = None) -> _Scored:
        words = terms(span.display).words
        title = terms(span.title).words - words
        hit = len(qwords & words) + 0.5 * len(qwords & title)
        overlap = hit / max(1, len(qwords))
        typed = self._typed(span, analysis, ents)
        prior = 1.0 / (1.0 + 0.25 * span.rank)
        if meaning is not None:  # what the span says, read with the question, more than the words it shares
            overlap = (1 - self.w_meaning) * overlap + self.w_meaning * meaning
        score = (overlap + (0.3 if typed and overlap > 0 else 0.0)) * prior
        return _Scored(span, score, words | title, typed)

    def _chain(self, scored: list[_Scored], qwords: frozenset[str], analysis: QuestionAnalysis) -> list[Span]:
        chosen = [scored[0]]
        covered = set(scored[0].words & qwords)
        while len(chosen) < self.max_statements:
            used_units = {c.span.unit_id for c in chosen}
            used_titles = {stem(w) for c in chosen for w in c.span.title.split()} - STOP
            chosen_words = set().union(*(c.words for c in chosen))
            have_type = any(c.typed for c in chosen)
            best: tuple[float, _Scored] | None = None
            for s in scored:
                if s.span.unit_id in used_units:
                    continue
                new = len((s.words & qwords) - covered) / max(1, len(qwords))
                title_words = terms(TITLE_QUALIFIER.sub("", s.span.title)).words
                link = bool(title_words) and title_words <= chosen_words  # a used span names this unit's topic
                link = link or bool(used_titles and (terms(s.span.display).words & used_titles))
                gain = new + (0.25 if link else 0.0) + (0.25 if s.typed and not have_type else 0.0)
                gain *= 1.0 / (1.0 + 0.25 * s.span.rank)
                if best is None or gain > best[0]:
                    best = (gain, s)
            if best is None or best[0] < self.min_gain:
                break
            chosen.append(best[1])
            covered |= best[1].words & qwords
        return [c.span for c in chosen]

    def _compared_chain(self, scored: list[_Scored], analysis: QuestionAnalysis, question: str = "") -> list[Span]:
        """The best span about each compared entity; when the question compares dates ("born first", "who
        lived longer"), a span with a year that states a birth, a death or a lifespan first."""
        chain: list[Span] = []
        asked = without_names(question, analysis.compared)
        dated = bool(EARLIER.search(asked) or LATER.search(asked) or LIFESPAN.search(asked))
        for name in analysis.compared[:4]:
            nw = terms(name).words
            about = [s for s in scored if nw and nw <= terms(s.span.title + " " + s.span.display).words]
            if not about and (bare := _LEADING_COUNT.sub("", name, count=1)) != name:  # "four Vale Day tickets"
                nw = terms(bare).words
                about = [s for s in scored if nw and nw <= terms(s.span.title + " " + s.span.display).words]

            def has_date(s: _Scored) -> int:
                if not dated or not YEAR.search(s.span.display):
                    return 0
                return 2 if BIRTH.search(s.span.display) or DEATH.search(s.span.display) or \
                    LIFESPAN_SPAN.search(s.span.display) else 1

            about.sort(key=lambda s: (-own(name, s.span), -has_date(s), -(s.typed), -s.score, s.span.rank))
            if about and about[0].span not in chain:
                chain.append(about[0].span)
        return chain or [scored[0].span]

    # -- table cells -----------------------------------------------------------------------------

    @staticmethod
    def _table(question: str, analysis: QuestionAnalysis,
               scored: list[_Scored]) -> tuple[list[Span], str, dict[str, Any]] | None:
        """A comparison, a superlative or a yes/no computed from a table's cells (kmrag.answer.tables)."""
        yes_no = analysis.answer_type == "YES_NO"
        if not (yes_no or analysis.kind == "comparison" or tables.SUPERLATIVE.search(question)):
            return None
        return tables.compare(question, [s.span for s in scored], yes_no)

    @staticmethod
    def _cell(question: str, scored: list[_Scored], analysis: QuestionAnalysis,
              noun: str | None = None) -> tuple[Any, ...] | None:
        """The cell of the row and column the question names ("单跳检索的准确率是多少" -> the 准确率 of the
        row keyed 单跳检索; "what is the accuracy of single-hop retrieval"): every word of the row's key
        (without its parenthesis) is a word of the question, and most of the column header's are (at least
        half, and two when it has two or more: "平均要检索几次" names 平均检索次数), the best-named column
        winning. One row only: two rows named as fully is no answer here. (chain, direct, "cell:" + how it
        was read)."""
        if RELATIVE_ASK.search(question):
            return None  # "和单跳检索相比…提高了多少": a difference against the named row, not its cell
        qwords, qnumbers = terms(question).words, terms(question).numbers
        if (count := items_counted(question)) is not None:  # "5 adult day tickets": a count, no row's number
            qnumbers -= terms(f"{count:g}").numbers
        if HOW_OFTEN.search(question):  # "how often does Line 14 run": its frequency
            qwords |= {"frequency"}
        noun = noun or _attribute_asked(question)  # the noun asked: "which town", "the opening hours of"
        pattern = VALUE_OF.get(analysis.answer_type)
        found: list[tuple[int, float, Span, str, str, str]] = []
        bare_keys: dict[tuple[str, frozenset[str]], set[str]] = {}
        for x in scored:  # keys of one table told apart only by what key_words leaves out ("London LHR", "London LGW")
            if x.span.kind == "row" and len(first := _cells(x.span.display)[0]) == 2:
                k = _unbracketed(first[1]).strip()
                bare_keys.setdefault((x.span.unit_id, tables.key_words(k)), set()).add(k)

        def kw_full(span: Span, key: str) -> frozenset[str]:
            alike = bare_keys.get((span.unit_id, tables.key_words(key)), set())
            return terms(key).words if len(alike) > 1 else frozenset()
        for s in scored:
            if s.span.kind != "row" or not qnumbers <= terms(f"{s.span.title} {s.span.display}").numbers:
                continue  # "a single adult fare across 3 zones": not the Single row of a table without 3 zones
            cells = [c.split(": ", 1) for c in s.span.display.split("; ")]
            if len(cells) < 2 or any(len(c) != 2 for c in cells):
                continue
            key = _unbracketed(cells[0][1]).strip()
            kw = tables.key_words(key)
            if not kw or not kw <= qwords or (HAN.search(key) and key not in question) or \
                    not _letters_named(key, question, cells[0][0]) or not kw_full(s.span, key) <= qwords:
                continue  # a Chinese key is named as written, not as a bag of its characters
            hq = _abbreviated(_without_key(question, key, kw, qwords)) | _EDGE_OF.get(  # "start": First lessons
                (m.group(1).lower() if (m := _EDGE_ASKED.search(question)) else ""), frozenset())  # "Northgate Pool & Fitness" asks no "Main
            # pool"; "Saturday" names a header "Sat"
            heads = [(len(hw & hq) / len(hw), h, v) for h, v in cells[1:]
                     if (hw := terms(_unbracketed(h)).words) and not (_NEGATING_HEAD.match(h) and not negated(question))
                     and (len(hw & hq) >= min(2, len(hw)) or _head_noun_named(h, hq))
                     and 2 * len(hw & hq) >= len(hw)
                     and (pattern is None or pattern.search(v) or _sum_in(h, v, analysis.answer_type))
                     and (analysis.answer_type != "PERSON" or _names_a_person(h))
                     and (noun is None or noun in VAGUE_NOUNS or bool(terms(noun).words & hw) or noun in _VALUE_KINDS
                          or (analysis.answer_type == "DATE" and noun in DATE_NOUNS)
                          or (noun in {"time", "times"} and bool(CLOCK.search(v))))]
            named_heads = [h for h, _ in cells[1:] if (hw := terms(_unbracketed(h)).words) and 2 * len(hw & hq) >= len(hw)
                           and (len(hw & hq) >= min(2, len(hw)) or _head_noun_named(h, hq))]
            if not heads and not named_heads and (kind := _one_of_kind(question, analysis.answer_type)) is not None:
                # "the annual bill for a Band B property": the row's one sum, whatever its header calls it (not a
                # band's bounds, "£40,001 to £52,000"), when the question names none of its columns ("the part-time
                # fee" of a row whose Part-time cell says "Not available" is no Full-time fee)
                typed = [(0.0, h, v) for h, v in cells[1:] if kind.search(v) and band_of(h, v) is None]
                heads = typed if len(typed) == 1 else []
            heads.sort(key=lambda x: -x[0])
            if heads and (len(heads) == 1 or heads[1][0] < heads[0][0]):
                n, h, v = heads[0]
                found.append((len(kw), n, s.span, key, h, v))
        if not found:
            return None
        found.sort(key=lambda f: (-f[0], -f[1]))
        pool = [x.span for x in scored]
        # of rows keyed alike, the one the question names by a cell of its own ("International", not "Home")
        found = [f for f in found if _the_row_named(question, f[2], f[3], pool)]
        if not found or len(found) > 1 and found[1][:2] == found[0][:2] and found[1][5] != found[0][5]:
            return None
        _, _, span, key, head, value = found[0]
        if pattern is not None and len(parts := [p for p in value.split(", ") if pattern.search(p)]) == 1:
            value = parts[0]  # "Main pool: 33.3 m, 8 lanes": the length asked, not the lanes
        if (per := _PER_HEAD.search(head)) is not None and TOTAL_ASKED.search(question) and \
                not RATE_ASKED.search(question):
            # "what will I pay altogether over the two years" of a "Part-time (per year)" cell: the rate times the
            # years the question says, or no answer (the rate is not the total asked)
            total = _total_over(question, span, value, per)
            if total is None:
                return None
            return [span], total["value"], f"{total['quantity']:g} × {value} {total['per']} = {total['value']} " \
                f"({value}: the {head} of the row keyed {key})", {"total": total}
        return [span], _end_asked(question, value), f"cell:the {head} of the row keyed {key}"

    def _row_by_cells(self, question: str, scored: list[_Scored], analysis: QuestionAnalysis
                      ) -> tuple[list[Span], str, str] | None:
        """The asked column of the one row the question names by what its cells say, not by its key ("what port
        does Gatehouse listen on for HTTP writes": the Port of the row Gatehouse, HTTP writes; kmrag.answer.rows),
        read as a cell is, "cell:" + how."""
        if analysis.answer_type in CLAUSE_ASKED or not question.isascii():
            return None
        noun = asking(self.nlp, question)[1] or _attribute_asked(question)  # "the opening hours of": hours
        got = row_named_by_cells(question, analysis.answer_type, [x.span for x in scored], akin,
                                 VALUE_OF.get(analysis.answer_type), None if noun in VAGUE_NOUNS else noun,
                                 _names_a_person)
        return None if got is None else ([got[0]], got[2], f"cell:the {got[1]} of the row its cells name")

    @staticmethod
    def _field(question: str, scored: list[_Scored], analysis: QuestionAnalysis
               ) -> tuple[list[Span], str | None, str] | None:
        """The value of the labelled field the question names ("Leakage: 61.3 megalitres per day" for "what was
        average leakage in 2023-24", in the key figures of 2023-24), read from the best-scored spans that hold one
        (kmrag.answer.fields); read as a cell is, "cell:" + how."""
        if analysis.answer_type in CLAUSE_ASKED or not question.isascii():
            return None
        pool = [x.span for x in scored[:FIELD_POOL] if x.score > 0]
        records = {(s.unit_id, s.record) for s in pool if s.sheet}  # the other lines of a fact sheet's record the
        pool += [x.span for x in scored if x.span.sheet and (x.span.unit_id, x.span.record) in records  # question
                 and x.span not in pool]  # names ("Team: Keel" ... "Previous lead: Hadrian Pike")
        got = field_value(question, analysis.answer_type, analysis.mentions, pool, [x.span for x in scored])
        return None if got is None else ([got[0]], got[1], "cell:" + got[2])

    def _role(self, question: str, scored: list[_Scored], analysis: QuestionAnalysis
              ) -> tuple[list[Span], str | None, str] | None:
        """The one person whose bracketed role the question asks ("Who chairs the Library Committee?": "Cllr Harriet
        Oyelaran (Chair)" in its minutes), read from the best-scored spans (kmrag.answer.roles); read as a cell
        is, "cell:" + how."""
        if analysis.answer_type != "PERSON" or not question.isascii():
            return None
        got = role_holder(question, analysis.mentions, [x.span for x in scored[:FIELD_POOL] if x.score > 0], akin,
                          lambda text: {e.text for e in self.nlp(text).ents if e.label_ == "PERSON"})
        return None if got is None else ([got[0]], got[1], "cell:" + got[2])

    @staticmethod
    def _header_said(question: str, scored: list[_Scored]) -> tuple[list[Span], str | None, str] | None:
        """The day or month a row's cell the question says stands under ("which day is the gallery closed": the
        header of the Weir Gallery row's "Closed", Monday; kmrag.answer.rows), read as a cell is, "cell:" + how."""
        got = header_of_said_cell(question, [x.span for x in scored]) if question.isascii() else None
        return None if got is None else ([got[0]], got[2], f"cell:the header of the row's cell \"{got[1]}\"")

    @staticmethod
    def _joined(question: str, scored: list[_Scored], analysis: QuestionAnalysis
                ) -> tuple[list[Span], str | None, str] | None:
        """A value read through a key one table's row gives and another table defines ("a full-price ticket for X":
        X's price band, then that band's Full price; kmrag.answer.joins), read as a cell is, "cell:" + how."""
        if not question.isascii():
            return None
        got = joined(question, analysis.answer_type, [x.span for x in scored], VALUE_OF.get(analysis.answer_type))
        return None if got is None else (got[0], got[1], "cell:" + got[2])

    # -- bands -----------------------------------------------------------------------------------

    def _band(self, question: str, scored: list[_Scored],
              analysis: QuestionAnalysis) -> tuple[Any, ...] | None:
        """A table row whose range holds a quantity stated elsewhere in the context: (chain, direct); or the
        cell of the row the question names in the column whose range holds the question's quantity."""
        if (column := self._column_band(question, scored, analysis)) is not None:
            return column
        rows: list[tuple[_Scored, tuple[float | None, float | None, str]]] = []
        for s in scored:
            # a range in a cell ("Flight distance: more than 3500 km"), not in a header ("1–3 days: 62")
            r = next((got for c in _cells(s.span.display) if (got := band_of(c[0], c[-1]))), None) \
                if s.span.kind == "row" else None
            if r is not None:
                rows.append((s, r))
        rows = [(s, r) for s, r in rows if self._asks_row_value(question, s.span, analysis)]
        if not rows:
            return None
        if (top := _extreme_band(question, rows)) is not None:  # "the top band": the row of the highest range
            return [top[0].span], self._row_value(top[0].span, analysis), top[1]
        units = {r[2] for _, r in rows}
        asked = row_range(question)
        for row, r in rows:  # the question names a row's own range ("more than 3500 km")
            if asked is not None and asked == r:
                return [row.span], self._row_value(row.span, analysis), "the row of the range the question names"
        stated = stated_quantities(question)
        for value, unit, said in stated:  # "a 2,000 km flight", "worth £400", "I'm 30"
            for row, band in rows:
                if holds(band, value, unit):
                    rule = f"the row whose range holds {said} (the question's)"
                    read = self._row_value(row.span, analysis)
                    if (total := charged(question, row.span, read, value, unit)) is not None:
                        return [row.span], total["value"], \
                            f"{said} × {read} {total['per']} = {total['value']} ({read}: {rule})", {"total": total}
                    return [row.span], read, rule
        if any(same_kind(band, unit) for _, unit, _ in stated for _, band in rows):
            return None  # the question's own "2 hours" falls in no band read: not a "24-hour" said of else
        # a quantity stated of the question's named things, if it names any ("the distance between Delhi and
        # Munich"), not one of anything else ("up to 3 days a week of remote work" for a trip's days)
        places = self._places(question)  # a quantity stated of other places is not the one asked
        named = [m.lower() for m in analysis.mentions if m[:1].isupper()]
        facts = [(s, q) for s in scored if s.span.kind != "row" and s.score > 0
                 and (not named or any(m in f"{s.span.title} {s.span.display}".lower() for m in named))
                 for q in quantities(s.span.display) if q[1] in units and not _a_bound(q, s.span.display)]
        for fact, (value, unit, said) in facts:  # best-scored fact first
            for row, (lo, hi, runit) in rows:
                if runit != unit or not _names_each(fact.span, places, but=row.span):
                    continue
                if (lo is None or value >= lo) and (hi is None or value <= hi):
                    return [fact.span, row.span], self._row_value(row.span, analysis), \
                        f"the row whose range holds {said} (stated in the cited span)"
        return None

    @staticmethod
    def _column_band(question: str, scored: list[_Scored],
                     analysis: QuestionAnalysis) -> tuple[list[Span], str | None, str] | None:
        """The cell of the row the question names, in the column whose header's range holds a quantity the
        question states: "the daily allowance for a 5-day trip to Port Ashwyn" in a table of destinations by
        "1–3 days", "4–7 days", "8 days or more"."""
        asked = quantities(question)
        if not asked:
            return None
        qwords = terms(question).words
        pattern = VALUE_OF.get(analysis.answer_type)
        for s in scored:
            cells = _cells(s.span.display) if s.span.kind == "row" else []
            if len(cells) < 3 or any(len(c) != 2 for c in cells):
                continue
            key = _unbracketed(cells[0][1]).strip()
            if not terms(key).words or not terms(key).words <= qwords:
                continue  # the row the question names
            for value, unit, said in asked:
                held = [(h, v) for h, v in cells[1:] if (r := row_range(h)) and r[2] == unit
                        and (r[0] is None or value >= r[0]) and (r[1] is None or value <= r[1])]
                if len(held) == 1 and (pattern is None or pattern.search(held[0][1]) or (
                        analysis.answer_type == "MONEY" and re.fullmatch(r"\d[\d,.]*", held[0][1].strip()))):
                    # a sum without its currency in the cell: the table's text says it ("paid per day, in EUR")
                    h, v = held[0]
                    return [s.span], v, f"the {h} column of {key}: its range holds {said} (the question's)"
        return None

    @staticmethod
    def _asks_row_value(question: str, span: Span, analysis: QuestionAnalysis) -> bool:
        """Does the question ask for what the row's value column holds? It names that column ("what
        compensation"), or asks for a value of its kind ("how much": money) and not for the ranged quantity
        itself ("what is the distance")."""
        cells = [c.split(": ", 1) for c in span.display.split("; ")]
        qwords = terms(question).words
        value_heads = [terms(c[0]).words for c in cells if len(c) == 2 and band_of(c[0], c[1]) is None]
        if any(h & qwords for h in value_heads):
            return True
        pattern = _row_pattern(analysis.answer_type)
        values = [c[1] for c in cells if len(c) == 2 and band_of(c[0], c[1]) is None]
        stated = {u for _, u, _ in stated_quantities(question)}
        heads = [c[0].split()[-1] for c in cells if len(c) == 2 and c[0].split()
                 and (band := band_of(c[0], c[1])) is not None and not any(same_kind(band, u) for u in stated)]
        # "what is the distance": the ranged quantity itself; not "I stayed 2 hours": a stay it states
        asks_range = any(terms(h).words & qwords for h in heads)
        counted = HOW_MANY_TIME.search(question)  # "how many days": a count of days, no EUR
        if counted and not any(_counted_in(v, counted.group(1)) or terms(counted.group(1)).words <= terms(v).words
                               for v in values):
            return False
        return pattern is not None and any(pattern.search(v) for v in values) and not asks_range

    @staticmethod
    def _row_value(span: Span, analysis: QuestionAnalysis) -> str | None:
        pattern = _row_pattern(analysis.answer_type)
        cells = [c for c in _cells(span.display) if len(c) == 2 and band_of(c[0], c[-1]) is None]
        values = [v for _, v in cells]
        # the words of the question's own quantities name no column: "22 cubic metres" asks no "Charge per cubic metre"
        said = analysis.question
        for _, _, quantity in stated_quantities(said):
            said = said.replace(quantity, " ")
        qwords = terms(said).words
        named = [v for h, v in cells if terms(_unbracketed(h)).words & qwords and (pattern is None or pattern.search(v))]
        if len(named) == 1:  # "what discount": the column the question names ("Discount on adult fares")
            return named[0]
        if pattern is None:  # the question does not say what kind of value: the row's value column
            return values[-1] if values else None
        return next((v for v in values if pattern.search(v)), None)

    # -- direct answers --------------------------------------------------------------------------

    def _read_further(self, question: str, analysis: QuestionAnalysis, chain: list[Span], scored: list[_Scored],
                      ents: dict[tuple[str, int], list[Any]]) -> tuple[list[Span], str | None]:
        """No value of the kind asked in the statements chosen by their words: the best spans by relevance are
        read for one, and the span holding it joins the statements. A name read so must be one of the noun the
        question asks for ("which system": not "Westminster Parliament"), or there is no answer."""
        more = [x.span for x in scored[:POOL_READ] if x.span not in chain]
        direct = self._direct(question, analysis, more, ents, [x.span for x in scored])
        if direct is None:
            return chain, None
        span = next(s for s in more if (s.unit_id, s.start) == self.picked_at)
        noun = asking(self.nlp, question)[1] if analysis.answer_type == "ENTITY" else None
        # the span must say the question's relation or name what it asks about ("The sailing club was founded by
        # John Baker" answers no "Who directed Foo Bar?"), and a name must be one of the noun asked
        said = (self.picked or {}).get("relation_stated") or any(
            m.lower() in f"{span.title} {span.display}".lower() for m in analysis.mentions if len(m) > 2)
        if not said or (noun and noun not in VAGUE_NOUNS and not headed_by(direct, noun)):
            self.picked = None
            return chain, None
        return [*chain, span], direct

    def _verb_said_elsewhere(self, question: str, analysis: QuestionAnalysis, span: Span, order: Sequence[Span],
                             pool: Sequence[Span], ents: dict[tuple[str, int], list[Any]]
                             ) -> tuple[str, Span, dict[str, Any]] | None:
        """A date or a number read from ``span``, which does not say the question's verb, is read again from the
        best spans that do (the statements left them out): values are everywhere, and "X was founded in 1923 by Y"
        says when X was founded, not when Y died. None when no such span holds a value of the kind asked."""
        verb = asking_verb(self.nlp, question)
        if verb is None or verb in terms(" ".join(analysis.mentions)).words:
            return None
        if says_verb(question, verb, span.display):
            return None
        saying = [s for s in pool[:POOL_READ] if s not in order and says_verb(question, verb, s.display)]
        return self._read(question, analysis.answer_type, analysis.mentions, saying, ents) if saying else None

    def _direct(self, question: str, analysis: QuestionAnalysis, chain: list[Span],
                ents: dict[tuple[str, int], list[Any]], pool: Sequence[Span] = ()) -> str | None:
        if analysis.answer_type in CLAUSE_ASKED:
            return None  # "Why ...?", "How did ...?": the statements answer; no name or value of them does
        order = list(reversed(chain)) if analysis.kind in {"bridge", "inference"} else chain
        if analysis.answer_type in {"NUMBER", "MONEY", "QUANTITY"} and (years := _YEARS_SAID.findall(question)) and \
                not any(_says_years(s.display, years) for s in order):  # "how many members at the end of 2024"
            order = [*order, *(s for s in pool[:POOL_READ] if s not in order and _says_years(s.display, years))]
        got = listed(question, analysis.mentions, order) or \
            self._read(question, analysis.answer_type, analysis.mentions, order, ents)
        if (got is None or not (got[2].get("framed") or got[2].get("listed"))) and frame(question) and \
                (framed := self._read(question, analysis.answer_type, analysis.mentions,
                                      _led_to(question, chain, pool[:POOL_READ]), ents, framed_only=True)):
            got = framed  # the question's frame stated in a span the statements left out: that span joins them
        if got is not None and analysis.answer_type in VALUE_OF and not got[2].get("framed") and \
                (said := self._verb_said_elsewhere(question, analysis, got[1], order, pool, ents)):
            got = said  # "when did the founder of X die": "... died in 1931", not "X was founded in 1923 by Y"
        if got is None:
            return None
        # a list of the things asked stands whole ("the two brothers who share the surname": both names)
        if analysis.answer_type in {"PERSON", "ENTITY"} and not got[2].get("listed") and \
                (part := name_part(question, got[0])):  # "first name of X"
            got = (part, got[1], got[2])
        elif analysis.answer_type in NAMED and (others := got[2].get("others", [])[: got[2].get("typed_others", 0)]) \
                and WHICH_THING.match(question):
            # "Which comedy series starring X was produced by Y?": of the names the span offers, the one whose own
            # unit says the most of what the question says of it
            words = terms(question).words - terms(" ".join([got[0], *others])).words
            got = (best_described(words, got[0], others, pool, kind=asking(self.nlp, question)[1]), got[1], got[2])
        self.picked_at = (got[1].unit_id, got[1].start)
        if _a_band_row(got[1]) and not row_range(question):
            return None  # "what allowance is paid for a trip?" off one band's row: which band is not said
        self._picked_span = got[1]
        p = getattr(self, "_meanings", {}).get((got[1].unit_id, got[1].start))
        self.picked = {**{k: v for k, v in got[2].items() if k not in {"others", "typed_others"}},
                       "meaning": None if p is None else round(p, 4)}
        return got[0]

    def _candidates(self, question: str, answer_type: str, span: Span,
                    ents: dict[tuple[str, int], list[Any]], noun: str | None = None) -> list[tuple[str, int]]:
        """(text, offset) of the values of ``answer_type`` in ``span`` that the question does not name
        (``noun``: what the question word determines, "state" of "in what state")."""
        qlow = question.lower()
        labels = LABELS.get(answer_type, LABELS["ENTITY"])
        qwords = terms(question).words
        cands: list[tuple[str, int]] = []
        pattern = VALUE_OF.get(answer_type)
        if pattern is not None and answer_type not in {"DATE", "NUMBER"}:
            cands += [(m.group(0).strip(), m.start()) for m in pattern.finditer(span.display)]
        whole = list(cands)  # a value the pattern reads whole ("£14"), not the recogniser's part of it ("14")
        cands += [(text, at) for text, lab, at in ents.get((span.unit_id, span.start), []) if lab in labels
                  and not any(a <= at and at + len(text) <= a + len(w) and (w, a) != (text, at) for w, a in whole)]
        # a people's adjective the recogniser knows is no place ("to European royalty") nor person ("by South
        # Korean boy group"), whatever a pattern below finds there
        norp = {at for _, lab, at in ents.get((span.unit_id, span.start), []) if lab == "NORP"} \
            if answer_type in {"PLACE", "PERSON"} else set()
        if answer_type in {"NUMBER", "QUANTITY"}:  # "the One Ring", "Seven Samurai": a number word of a name
            cands = [(t, at) for t, at in cands if not _names_number(span.display, t, at)]
        if answer_type == "NUMBER":  # "01632 960 700": a phone number is whole, whatever the recogniser kept of it
            cands = [_whole_phone(span.display, t, at) for t, at in cands]
        if answer_type == "DATE":  # "when is her last day": a day, not "28 years" (a span of time, no date)
            cands = [(t, at) for t, at in cands if not _DURATION.fullmatch(t.strip()) or re.search(
                r"\b(?:within|in|inside|under)\s+$", span.display[:at])]  # ("reply within two weeks" says when)
            cands = [(t, at) for t, at in cands if not re.fullmatch(r"\d{5,}", t.strip())]  # "charity no. 1098273"
        if answer_type in {"NUMBER", "MONEY"}:  # "£2.50": a sum keeps the currency sign the recogniser left out
            cands = [(span.display[at - 1] + t, at - 1) if at > 0 and span.display[at - 1] in "£$€¥" and
                     t[:1].isdigit() else (t, at) for t, at in cands]
            cands = list(dict.fromkeys(cands))
        if answer_type == "NUMBER" and (counted := _HOW_MANY_OF.search(question)) and \
                not HOW_MANY_TIME.search(question):  # "how many copies": "150 million copies", not "one of ..."
            counting = [(t, at) for t, at in cands if _counts(span.display, t, at, counted.group(1))]
            cands = counting or cands
        if answer_type == "NUMBER" and (timed := HOW_MANY_TIME.search(question)):  # "how many days": "seven days",
            unit = timed.group(1)  # a DATE to spaCy; a number of another unit ("3500 km") counts no days
            cands = [(t, at) for t, at in cands if _counted_in(_with_next_word(span.display, t, at), unit)]
            cands += [(text, at) for text, lab, at in ents.get((span.unit_id, span.start), [])
                      if lab in {"DATE", "TIME"} and _counted_in(text, unit)]
        if answer_type == "ENTITY":  # "the Baudot code": the phrase a name heads for
            headed = {at: text for text, lab, at in ents.get((span.unit_id, span.start), []) if lab == HEADED}
            cands = [(headed.get(at, c) if headed.get(at, "").startswith(c) else c, at) for c, at in cands]
        if answer_type == "WORK" and (m := _OPENING_TITLE.match(span.display)) and \
                not any(at == m.start(1) for _, at in cands):  # a span that opens with a quoted title is about
            cands.append((m.group(1), m.start(1)))  # that work: ""A Rickle in Time" is the first episode ..."
        if answer_type in {"ENTITY", "ORG", "WORK"}:  # "silent retrieval failure (corrective RAG)": the bracket
            cands = [_bracketed(c, at, span.display, self.nlp) for c, at in cands]  # is the name
            for m in _NAME_BRACKET.finditer(span.display):  # "… keeps the state (Harbor Session)", one it missed
                got = (m.group(3), m.start(3)) if m.group(3) else _bracketed(m.group(2), m.start(2), span.display,
                                                                              self.nlp)
                if got[0] in (m.group(1), m.group(3)) and not any(a == got[1] for _, a in cands) \
                        and not _abbreviates(got[0], span.display[:m.start()]):
                    cands.append(got)
        if answer_type in {"ENTITY", "PLACE"} and ASKS_EMAIL.search(question):
            return [(m.group(0), m.start()) for m in EMAIL.finditer(span.display)]  # "pals@fenwickvalley.example"
        if answer_type in {"ENTITY", "PLACE"} and ASKS_ADDRESS.search(question) and \
                (addresses := [(m.group(0), m.start()) for m in STREET_ADDRESS.finditer(span.display)]):
            return addresses  # "What is the address of X?": "14 Market Row, Brackenford, BF1 2AA", not a name in it
        if answer_type == "ENTITY" and (said := copular_ask(self.nlp, question)):
            # "What is the first step?": "Query decomposition is the first step", a phrase no recogniser names
            cands = said_to_be(self.nlp, said, span.display) or cands
        if answer_type == "NATIONALITY":  # "an American actress": the adjective, else a country the span names
            own = [(t, at) for t, at in cands if t.lower() not in NOT_NATIONALITY]
            adjectives = [(t, at) for t, lab, at in ents.get((span.unit_id, span.start), []) if lab == "NORP"
                          and t.lower() not in NOT_NATIONALITY] or [  # one the recogniser missed: "an Armenian- French"
                (m.group(0), m.start()) for m in _CAPITALISED.finditer(span.display)
                if m.group(0).lower() not in NOT_NATIONALITY and people_of(m.group(0)) and not any(
                    at <= m.start() < at + len(t) for t, lab, at in ents.get((span.unit_id, span.start), [])
                    if lab in {"PERSON", "GPE", "ORG", "LOC", "FAC", "WORK_OF_ART"})]  # not "Thomas Mann"
            peoples = [(t, at) for t, at in adjectives if country_named(t)]  # not "credited as Serje Avetikian"
            cands = peoples or adjectives or own
        if noun and noun not in VAGUE_NOUNS and answer_type not in VALUE_OF:  # "which railway": "East Lancashire
            # Railway", a name the recogniser may miss that says it is one
            for m in re.finditer(rf"(?<![\w-])(?:[^\W\d_][\w'’&.-]*\s+){{1,5}}(?i:{re.escape(noun)}s?)\b", span.display):
                words = m.group(0).split()
                lead = next((i for i, w in enumerate(words) if w[:1].isupper() and w.lower() not in STOP), len(words))
                if lead < len(words) - 1 and words[-1][:1].isupper() and all(w[:1].isupper() for w in words[lead:]) \
                        and not terms(" ".join(words[lead:])).words <= qwords:  # "its State Capital": the words asked
                    at = m.start() + m.group(0).index(words[lead])  # "The Old Wexshire Canal": the name, not "The"
                    if not any(at == a for _, a in cands):
                        cands.append((" ".join(words[lead:]), at))
            for m in _said_a(noun).finditer(span.display):
                if m.group(1).lower() not in STOP and not any(m.start(1) == a for _, a in cands):
                    cands.append((m.group(1), m.start(1)))  # "Which library ...?": "LangGraph is a superb library",
                    # "KXII, virtual channel 12, is a CBS-affiliated television station" (an aside between)
            for m in _introduced(noun).finditer(span.display):  # "Which magazine": "the magazine India Today"
                # (not "the company CEO Tim Cook": a person or body the recogniser knows starts inside it)
                inside = any(m.start(1) < at < m.end(1) for _, lab, at in ents.get((span.unit_id, span.start), [])
                             if lab in {"PERSON", "ORG"})
                name = re.sub(r"(?<=[a-z]{3})\.$", "", m.group(1))  # "India Today." ends a sentence
                if not inside and not any(at == m.start(1) for _, at in cands):
                    cands.append((name, m.start(1)))
        if answer_type == "PLACE":
            cands += [(m.group(1), m.start(1)) for m in PLACE_AFTER.finditer(span.display)
                      if not any(m.start(1) == at for _, at in cands) and m.start(1) not in norp]
            for life in LIFESPAN_SPAN.finditer(span.display):  # "(born 6 October 1900, Bangalore – died 1975, Mzuzu)":
                for m in _PLACE_AFTER_YEAR.finditer(life.group(0)):  # the place after each date, whatever the
                    at = life.start() + m.start(1)  # recogniser calls it
                    if not any(at == a for _, a in cands):
                        cands.append((m.group(1), at))
        if answer_type == "PERSON" and not cands and (said := copular_ask(self.nlp, question, who=True)):
            # "Who is the chief financial officer?": "Tamsin Okoro-Lind is the chief financial officer", a name the
            # recogniser does not know
            cands = [(c, at) for c, at in said_to_be(self.nlp, said, span.display) if c[:1].isupper()]
        if answer_type == "PERSON":  # "directed by Christy Cabanne": the small NER model misses many names
            cands += [(m.group(1), m.start(1)) for m in NAME_AFTER_BY.finditer(span.display)
                      if not any(m.start(1) == at for _, at in cands) and m.start(1) not in norp]
            # "King George V": the regnal number is part of the name
            cands = [(c + r.group(0), at) if (r := _REGNAL.match(span.display, at + len(c))) else (c, at)
                     for c, at in cands]
        if answer_type in {"PERSON", "ENTITY"}:  # "Lord Gort": a peer named by the one word of the title is named with it
            cands = [(t.group(0).lstrip() + c, at - len(t.group(0).lstrip())) if len(c.split()) == 1 and (
                t := _PEER.search(span.display[:at])) else (c, at) for c, at in cands]
        if answer_type == "DATE":  # "5 December 1905" read by the NER as "December 1905": the day goes with it
            cands = [(day.group(0) + c, at - len(day.group(0))) if (day := _DAY_BEFORE.search(span.display[:at])) else (c, at)
                     for c, at in cands]
            cands = _range_end(sorted((p for c, at in cands for p in _date_parts(c, at, question)), key=lambda c: c[1]),
                               span.display, question)
            cands = [(c, at) for c, at in cands if re.search(r"\d", c) or not RELATIVE_DATE.search(c)]
            # "between the 8th and 16th centuries": the two ends alone are no time
            cands = [(span.display[b.start():at] + c, b.start()) if (
                b := _BETWEEN_BEFORE.search(span.display[:at])) and (" and " in c or b.group(1)) else (c, at)
                for c, at in cands]
            if YEAR_ASKED.search(question):  # "in what year": the year alone
                cands = [(y.group(0), at + y.start()) for c, at in cands if (y := YEAR.search(c))]
            elif MONTH_ASKED.search(question):  # "in what month": a date that names one ("November 2017")
                cands = [(c, at) for c, at in cands if re.search(rf"\b{MONTHS}\b", c)]
        if answer_type in NAMED and not (NAME_ASKED.search(question) or _ASKS_A_NAME.search(question)):  # "Masherbrum (formerly known as K1)": the
            # thing the span is about under another name, no answer of a question that does not ask its names
            cands = [(c, at) for c, at in cands if not _other_name_of_asked(question, span.display, at, span.title)]
        if answer_type == "PLACE" and _ASKS_COUNTRY.match(question):  # "the country where X is located": "Pakistan",
            # not "the Ghanche District" before it
            cands = [(c, at) for c, at in cands if countries_of(re.sub(r"(?i)^the\s+", "", c), city=False)] or cands
        if answer_type == "PLACE" and noun in LARGER_PLACES:  # "Kent, Washington": the state is the second
            cands = _larger_places(cands, span.display, noun)
        if answer_type == "PLACE" and noun and PLACE_KIND.fullmatch(noun):  # "what city": not "Albany County"
            cands = [(c, at) for c, at in cands if not ((k := PLACE_KIND.fullmatch(c.split()[-1] if c.split() else ""))
                                                        and k.group(0).lower() != noun.lower())]
        if answer_type == "PLACE" and noun and noun.lower().split()[-1] in WITHIN_A_COUNTRY:  # "in which county":
            cands = [(c, at) for c, at in cands if not country_only(c)]  # "Essex", never "England" beside it
        if answer_type == "PLACE" and noun and noun.lower().split()[-1] in SETTLEMENTS:  # "to which city": "London",
            # not "The East Coast Main Line" the recogniser calls a location
            labels_at = {at: lab for _, lab, at in ents.get((span.unit_id, span.start), [])}
            cands = [(c, at) for c, at in cands if labels_at.get(at) not in {"LOC", "FAC"}] or cands
        if answer_type in {"QUANTITY", "NUMBER"}:  # "728,000 ft² (67,000 m²)": the bracket converts the first
            measured = VALUE_OF["QUANTITY"]  # two quantities: "Route 66 (2,448 miles)" converts nothing
            ends = {at + len(c) for c, at in cands if measured.search(c)}
            cands = [(c, at) for c, at in cands if not (span.display[:at].endswith("(") and measured.search(c)
                                                        and len(span.display[:at - 1].rstrip()) in ends)]
        if (asked_unit := HOW_MANY_UNIT.search(question)) and (unit := UNIT_WORDS.get(asked_unit.group(1).lower())):
            in_unit = [(m.group(0), m.start()) for m in QUANTITY.finditer(span.display) if _unit(m.group(2)) == unit
                       and not re.match(r"\s*(?:/|per\b)", span.display[m.end():])]  # not a rate ("5.44 mi/sq mi")
            cands = in_unit or cands  # "how many miles": "140 mi", not "230 km" beside it
        if (alias := NAME_ASKED.search(question)) and (called := [
                (m.group(1), m.start(1)) for m in re.finditer(
                    rf"(?i:\b{re.escape(alias.group(1))}s?\s+(?:of\s+|as\s+)?)[\"“']?([A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)",
                    span.display)]):
            cands = called  # "What is the mononym of X?": the name after "the mononym", not X's full name
        if answer_type == "QUANTITY":  # "how fast / long / far": a measure, never a share ("42.3%")
            cands = [(c, at) for c, at in cands if not re.search(r"%|\bper ?cent\b", c, re.I)]
            if (dim := _DIMENSION_ASKED.search(question)) is not None:  # "how far": "50 metres", not "two minutes"
                units = _LENGTHS if dim.group(1) else _WEIGHTS if dim.group(2) else _DURATIONS
                cands = [(c, at) for c, at in cands if (u := _MEASURE_WORD.search(c)) is None or
                         u.group(0).lower().rstrip("s") in units]
        if answer_type == "NUMBER":  # "over 26,000" -> "26,000"
            cands = [(QUALIFIER.sub("", c), at) for c, at in cands]
        if answer_type == "PERSON":  # "Kenneth Branagh's film": the person, not the possessive
            cands = [(re.sub(r"\s*['’]s$", "", c), at) for c, at in cands]
        if answer_type in {"NUMBER", "QUANTITY"}:
            marks = {at for m in _ENUMERATOR.finditer(span.display) for at in range(m.start(), m.end())}
            cands = [(c, at) for c, at in cands if at not in marks]
        # (a value the question names is no answer; "45 miles" for "how many miles" is, its number unnamed, and so is
        # "Hawaii County" for "in what Hawaii county": the asked phrase describes the answer, it names no thing)
        return [(c, at) for c, at in cands if described_answer(c, question) or c.lower() not in qlow and not (
            terms(c).words and terms(c).words <= qwords and not re.search(r"\d", c))]

    def _kinds(self, question: str, mentions: Sequence[str], span: Span) -> list[tuple[str, int]]:
        """The descriptions in ``span`` answering a "what kind of N" / "What is X?" question (kmrag.answer.kinds)."""
        qlow, qwords = question.lower(), terms(question).words
        return [(c, at) for c, at in kind_candidates(self.nlp, question, mentions, span.display, span.title)
                if c.lower() not in qlow and not terms(c).words <= qwords]

    def _shared_kind(self, question: str, mentions: Sequence[str],
                     ranked: Sequence[Span]) -> tuple[str, Span, dict[str, Any]] | None:
        """"What profession do A and B have in common?": a description said of two of them (in spans of two
        units), first in ``ranked`` order; None when none is said twice."""
        seen: dict[str, set[str]] = {}
        found: list[tuple[str, Span]] = []
        for span in ranked:
            for c, _ in self._kinds(question, mentions, span):
                seen.setdefault(stem(c.lower()), set()).add(span.unit_id)
                found.append((c, span))
        for c, span in found:
            if len(seen[stem(c.lower())]) > 1:
                return c, span, {"kind": "span", "candidates": len(seen), "distance": None, "shared": True}
        return None

    def _read(self, question: str, answer_type: str, mentions: Sequence[str], order: Sequence[Span],
              ents: dict[tuple[str, int], list[Any]], given: str = "", framed_only: bool = False
              ) -> tuple[str, Span, dict[str, Any]] | None:
        """The answer to ``question`` from the first span of ``order`` holding a value of the type asked (none
        that ``given``, the question a hop belongs to, itself names): the
        value nearest the question's relational words (its words other than its entities'), else nearest
        any of its words. A date or a number is first sought in the spans that state the question's relation
        ("died", a lifespan for a death): values are everywhere. (answer, span, how it was picked)."""
        if framed_only and (frame(question) is None or asks_kind(question, mentions) or
                            (answer_type in {"PERSON", "ENTITY"} and kin.asked(question) is not None)):
            return None  # only a value stated right after the question's frame
        if answer_type in {"PERSON", "ENTITY"} and kin.asked(question) is not None:
            # "Who is the mother of X?": a span that says who X's mother is, read with its direction; never the
            # name nearest the word "son" in a span that states no such tie
            tie = kin.read(question, order)
            return tie if tie is not None and not (given and named_by(tie[0], given)) else None
        qwords = terms(question).words
        relational = qwords - terms(" ".join(mentions)).words
        if timed := HOW_MANY_TIME.search(question):  # "how many days is the flight": "days" is what is counted,
            relational -= terms(timed.group(1)).words  # not the relation; a span must say "flight"
        asked, noun = asking(self.nlp, question)
        if noun and ASKED_NAME.search(question):  # "what Hawaii county": the noun asked is no part of a name given
            relational |= terms(noun).words & qwords
        asked &= relational
        # a value's span must say the verb the question asks by ("cost to park": the parking), when it has one
        verb = v if answer_type in VALUE_OF and (v := asking_verb(self.nlp, question)) in relational else None
        count = {(s.unit_id, s.start): (stated_count(question, asked, s.display),
                                        stated_count(question, relational, s.display)) for s in order}
        stated = [s for s in order if count[(s.unit_id, s.start)][1] > 0]
        first = stated if answer_type in VALUE_OF and relational else []  # values are everywhere: the relation's first
        if answer_type in {"NUMBER", "MONEY", "QUANTITY"} and (years := _YEARS_SAID.findall(question)):
            # a year the question says counts as one more of its words said: "how many members at the end of 2024"
            # is "612 members as of 31 December 2024", not "one member, one vote"; "capital investment in the year
            # to March 2024" is still the span saying capital investment, not one saying "March 2024" alone
            told = relational - {"many", "much"}  # "how many" asks; it says nothing a span must
            first = sorted(first, key=lambda s: -(len(told & terms(s.display).words) + _says_years(s.display, years)))
        if asked and asked < relational:  # a clause only says which thing: the spans stating the asking part first
            first = sorted(first, key=lambda s: -count[(s.unit_id, s.start)][0])
        if verb is not None:  # "when did the founder of X die": "died in 1931", not "founded in 1923"
            first = sorted(first, key=lambda s: not says_verb(question, verb, s.display))
        ranked = [*first, *(s for s in order if s not in first)]
        ranked = _hops_first(ranked, count, qwords) if relational else ranked
        if (done := undergoer(self.nlp, question)) is not None:  # "when was the club founded": not "X founded the
            other = {(s.unit_id, s.start) for s in ranked[:UNDERGOER_READ] if done_to_another(self.nlp, done, s.display)}
            ranked = [*(s for s in ranked if (s.unit_id, s.start) not in other),  # canoe section in 1994"
                      *(s for s in ranked if (s.unit_id, s.start) in other)]
        if answer_type == "ENTITY" and (said := copular_ask(self.nlp, question)):  # a span saying what it is first
            stating = [s for s in ranked if said_to_be(self.nlp, said, s.display)]
            ranked = [*stating, *(s for s in ranked if s not in stating)]
        kind = asks_kind(question, mentions)
        if kind and len(mentions) > 1 and SHARED.search(question) and \
                (shared := self._shared_kind(question, mentions, ranked)):
            return shared
        titles = list(dict.fromkeys(TITLE_QUALIFIER.sub("", s.title) for s in order if s.title))
        records = {**_records_of(order), **getattr(self, "_records", {})}

        # a value asked of a case the question states ("what compensation is due for a 2,000 km flight"), not a
        # range it asks about ("which river is over 6,000 km long")
        asked_quantities = quantities(question) if answer_type in {"MONEY", "NUMBER", "QUANTITY"} and \
            row_range(question) is None else []

        people = people_in(self.nlp, question)

        def candidates(span: Span) -> list[tuple[str, int]]:
            if asked_quantities and other_case(asked_quantities, span.display):
                return []  # "over 3,500 km: 600 Euro" answers nothing of a 2,000 km flight
            cands = self._kinds(question, mentions, span) if kind else self._candidates(question, answer_type, span, ents, noun)
            cands = [(c, at) for c, at in cands if not (given and named_by(c, given))]
            if noun and _NUMBERED.fullmatch(noun):  # "which version of .NET": a number of it, no name near it
                cands = [(c, at) for c, at in cands if re.search(r"\d", c) or re.search(rf"\b{noun}\b", c, re.I)] \
                    or _versions(question, mentions, span.display)  # "the King James Version" names one
            if answer_type not in VALUE_OF:  # "Bishop" of "Bishop's Stortford": the name a unit's title gives
                owners = {at for _, lab, at in ents.get((span.unit_id, span.start), []) if lab in _OWNERS}
                cands = [(_title_name(c, at, span.display, titles, at in owners), at) for c, at in cands]
            if answer_type in {"PLACE", "NATIONALITY", "PERSON"}:  # "Pierre-François Wartel" is no country of
                # "François Wartel"; "Cllr Judith Hargreaves" is not who led the council before Judith Hargreaves
                cands = [(c, at) for c, at in cands if not _holds_a_name(c, mentions)]
            if answer_type == "PLACE" and (other := _other_half(span.display, question)):
                cands = [(c, at) for c, at in cands if not other[0] <= at < other[1]]  # not where he was born
            if about_another(span.display, mentions, people):
                return []  # "Southwold Depot ... holds 64 buses" says nothing of Northgate Depot's
            if span.sheet and (_another_field(question, span.display) or _another_record(
                    question, mentions, span, records.get((span.unit_id, span.record), ("", "")))):
                return []  # "Household waste collected: 41,200 tonnes" is not how much food waste was; Team Keel's
                # "Lead: Marisol Quennell" is not who leads Team Oar
            if answer_type == "DATE" and _PAST_ASKED.search(question):  # "when did it open": not "Thursday" of
                cands = [(c, at) for c, at in cands if not _WEEKDAY_ONLY.fullmatch(c.strip())]  # its opening hours
            if answer_type == "DATE" and day_asked(question):  # "on what date is the workshop": not "May"
                cands = [(c, at) for c, at in cands if names_a_day(c)]
            if answer_type == "DATE" and (stated := _months_after(question)):
                cands = [(c, at) for c, at in cands if not _months_stated(c) & stated]  # "the next meeting after the
                # October 2024 one" is not "Date: Wednesday 9 October 2024"
            if answer_type == "TIME" and not _times_the_asked(question, span):
                return []
            if answer_type == "TIME" and (edge := _timed_edge(question, span.display)) is not None:
                cands = [(c, at) for c, at in cands if edge[0] <= at < edge[1]] or cands  # "finish": after "until"
            if answer_type == "PERSON" and ASKS_PREDECESSOR.search(question) and not SUCCESSION.search(span.display):
                return []  # "Who did Joanna Threlkeld replace?" is no name beside hers in a letter's sign-off
            if answer_type == "PERSON" and (past := past_holders(self.nlp, question, span.display)):
                cands = [(c, at) for c, at in cands if not any(a <= at < b for a, b in past)]  # "who is the chief
                # executive" is not "the founding chief executive, in 1994, was Robert Haddon"
            if span.kind == "row" and (paid := _sum_asked(question)) and not akin(
                    paid, terms(f"{span.title} {span.section} {span.display}").words):
                return []  # "the deposit for an International student": not the fee a row of fees gives
            if span.kind == "row":  # a row's values answer, never its column headers ("Daytime frequency: ...")
                heads = _header_spans(span.display)
                cands = [(c, at) for c, at in cands if not any(a <= at < b for a, b in heads)]
            return cands

        if not kind and (framed := _framed(question, ranked, candidates, mentions)):
            return framed  # "a video game developed by which company": "... developed by Crystal Dynamics"
        if framed_only:
            return None
        for span in ranked:
            cands = candidates(span)
            if not cands:
                continue
            words = [(m.start(), stem(m.group(0))) for m in re.finditer(r"[\w'-]+", span.display)
                     if m.group(0).lower() not in STOP]
            anchors = [at for at, w in words if akin(w, asked)] or [at for at, w in words if akin(w, relational)] \
                or [at for at, w in words if w in qwords]  # the value nearest the asking part's words
            clocked = answer_type == "TIME" and (len({c for c, _ in cands}) == 1 or _timed_edge(
                question, span.display) is not None)  # the one time of a span that says what is timed
            how = {"kind": "span", "candidates": len({c.lower() for c, _ in cands}), "distance": None,
                   "relation_stated": clocked or span in stated,
                   "verb_said": clocked or verb is None or says_verb(question, verb, span.display)}
            if not anchors:
                return cands[0][0], span, how
            if answer_type == "PERSON" and (who := self._pronoun_subject(question, span, [at for at, w in words
                                                                                        if akin(w, asked or relational)])):
                return who, span, {**how, "distance": 0, "subject_from_title": True}
            near = sorted(cands, key=lambda c: (min(abs(c[1] - a) for a in anchors), c[1]))
            if answer_type in {"PERSON", "ORG"}:  # "popularized by Patti Page": the doer of the asked verb first
                doers = [c for c in near if any(_AGENT.fullmatch(span.display, a, c[1]) for a in anchors)
                         and not _MODIFIES.match(span.display, c[1] + len(c[0]))]  # "by Sri Lankan director X"
                near = [*doers, *(c for c in near if c not in doers)]
            if answer_type == "PERSON":  # "the actor who plays Paul": not "Paul Varjak", the one named by a first name
                bare = {m.lower() for m in mentions if re.fullmatch(r"[A-Z][\w'-]+", m)}
                named = [c for c in near if c[0].split()[0].lower() in bare]
                near = [*(c for c in near if c not in named), *named]
            best = near[0]
            typed = len({c.lower() for c, _ in near} - {best[0].lower()})  # the others of the kind asked, first
            if answer_type not in VALUE_OF:  # a name: any name of the span may be the one the question describes
                near += sorted((c for c in self._candidates(question, "ENTITY", span, ents, noun) if c not in near
                                and not (answer_type in {"PLACE", "NATIONALITY"} and _holds_a_name(c[0], mentions))),
                               key=lambda c: (min(abs(c[1] - a) for a in anchors), c[1]))
            far = min(abs(best[1] - a) for a in anchors) + HEADED_SLACK
            if noun and noun not in VAGUE_NOUNS and answer_type not in VALUE_OF and not (
                    headed_by(best[0], noun) or introduced_by(best[1], span.display, noun)) \
                    and (headed := [c for c in near if ((headed_by(c[0], noun) or introduced_by(c[1], span.display, noun))
                                                        and min(abs(c[1] - a) for a in anchors) <= far)
                                    or _said_with(noun, span.display, c[1], anchors)]):
                best = headed[0]  # "in what county": "Hawaii County", not the town beside it (but not a name
                near = [best, *(c for c in near if c != best)]  # further off: "attended X, then worked at Y University")
            others = list(dict.fromkeys(c for c, _ in near[1:] if c.lower() != best[0].lower()))
            return best[0], span, {**how, "distance": min(abs(best[1] - a) for a in anchors), "others": others,
                                   "typed_others": typed}
        return None

    @staticmethod
    def _option(question: str, options: Sequence[str], pool: list[Span]) -> tuple[list[Span], str, dict[str, Any]] | None:
        """The option whose own spans (:func:`own`) say more of the question's other words than any other's, with
        the span that says the most; None on a tie or when none says any."""
        words = terms(question).words - terms(" ".join(options)).words
        names = terms(" ".join(re.findall(r"(?<=\s)[A-Z][\w'-]*", question))).words & words  # "Missouri"
        said = []
        for option in options:
            spans = sorted((s for s in pool if own(option, s)), key=lambda s: -len(words & terms(s.display).words))
            has = terms(" ".join(s.display for s in spans)).words
            said.append((len(words & has) if names <= has else 0, option, spans))
        said.sort(key=lambda x: -x[0])
        if not said or not said[0][0] or len(said) > 1 and said[1][0] == said[0][0]:
            return None
        n, option, spans = said[0]
        return [spans[0]], option, {"kind": "span", "candidates": len(options), "distance": None,
                                    "relation_stated": True, "subject_from_title": True, "option": True}

    def _pronoun_subject(self, question: str, span: Span, verbs: Sequence[int]) -> str | None:
        """"He won the race ... against Alex Sink." in the unit titled "David Jolly", for "Who won ...?": the
        person who did what is asked is the pronoun before the asked word, that is the person the unit is about,
        not the other name of the span."""
        title = TITLE_QUALIFIER.sub("", span.title).strip()
        if not title or terms(title).words & terms(question).words or not any(  # "Who did Brennan defeat?"
                _PRONOUN_SUBJECT.search(span.display[:at]) for at in verbs):
            return None
        ents = [e for e in self.nlp(title).ents if e.label_ == "PERSON"]
        return title if ents and ents[0].text == title else None

    def _about(self, chain: list[Span], names: list[str]) -> list[tuple[str, Span]] | None:
        """Each named entity with the chain's span about it (its name in the span or its unit's title)."""
        out = []
        for name in names:
            found = about(name, chain) or about(_LEADING_COUNT.sub("", name, count=1), chain)  # "four Vale Day"
            if not found:
                return None
            out.append((name, next((s for s in found if own(name, s)), found[0])))  # its own span first
        return out

    def _yes_no(self, question: str, analysis: QuestionAnalysis, chain: list[Span],
                ents: dict[tuple[str, int], list[Any]], pool: list[Span] | None = None
                ) -> tuple[str | None, dict[str, Any] | None]:
        """Yes when the span about every compared entity states the question's property; no when the question
        asks whether they share a nationality or place and their spans name different ones; otherwise
        nothing (never a default). A country may be read from any span of ``pool`` about an entity."""
        if HAN.search(question):
            return _yes_zh(question, analysis, chain)
        if (bounded := self._bounded(question, [*chain, *(pool or [])])) is not None:
            return bounded
        names = analysis.compared if len(analysis.compared) >= 2 else analysis.mentions[:1]
        about = self._about(chain, names) if names else None
        if not about:
            return None, None
        entities = [{"name": n, "unit_id": s.unit_id, "quote": s.quote} for n, s in about]
        if SAME_PLACE.search(question) and (len({(s.unit_id, s.start) for _, s in about}) < 2
                                            or RELATED_PERSON.search(question)):
            return None, None  # one entity (or one span for both) has nothing to share; a related person's
            # place is not the entity's
        if SAME_PLACE.search(question) and COUNTRY_ASKED.search(question) and places_available():
            return _same_country(about, pool or chain, ents, born=bool(BORN_ASKED.search(question)))
        if SAME_PLACE.search(question):
            values = [place_names(ents.get((s.unit_id, s.start), [])) for _, s in about]
            if not all(values):
                return None, None
            for e, v in zip(entities, values, strict=True):
                e["value"] = ", ".join(sorted(v))
            same = bool(set.intersection(*values))
            return ("yes" if same else "no"), {"kind": "yes_no", "rule": "the same nationality or place",
                                              "entities": entities}
        nationality = self._same_nationality(question, about, entities, ents)
        if nationality is not None:
            return nationality
        # the question as a claim about each entity, each judged against that entity's span: "Parcheesi is
        # published by Parker Brothers." holds, "Hungry Hungry Hippos is published by Parker Brothers." does not
        # where its span says the game was published by Fred Kroll
        made = claims(question, [n for n, _ in about], analysis.mentions)
        if made and all(_holds(c, s) for c, (_, s) in zip(made, about, strict=True)):
            for e, c in zip(entities, made, strict=True):
                e["claim"] = c
            return "yes", {"kind": "yes_no", "rule": "every entity's span states its claim", "entities": entities}
        for claim, (name, _span) in zip(made or [], about, strict=False):  # "Does X have inpatient beds?": "It
            denied = next((s for s in [*chain, *(pool or [])] if (own(name, s) or _keyed_by(name, s))  # has
                           and _denies(claim, s)), None)
            if denied is not None:  # no inpatient beds", said of X itself: the claim denied in so many words
                return "no", {"kind": "yes_no", "rule": f"the entity's span denies the claim: {claim}", "entities": [
                    {"name": name, "unit_id": denied.unit_id, "quote": denied.quote, "claim": claim}]}
        return None, None

    def _bounded(self, question: str, spans: Sequence[Span]) -> tuple[str, dict[str, Any]] | None:
        """"Is the distance from Delhi to Munich more than 3500 km?": the quantity a span states of every place the
        question names, compared with the question's bound (the computation shown); None when the question sets
        no bound, names no place, or no span states such a quantity of them."""
        bound = row_range(question)
        if bound is None or (bound[0] is None) == (bound[1] is None):
            return None
        lo, hi, unit = bound
        places = self._places(question)
        strict = STRICT_BOUND.search(question) is not None
        for span in spans:
            if span.kind == "row" or not places or not _names_each(span, places):
                continue
            for value, u, said in quantities(span.display):
                if u != unit or row_range(span.display) is not None:
                    continue
                limit = lo if lo is not None else hi
                if limit is None:
                    continue
                holds = (value > limit if strict else value >= limit) if lo is not None else \
                    (value < limit if strict else value <= limit)
                word = ("more than" if strict else "at least") if lo is not None else ("less than" if strict else "at most")
                rule = f"{said} (stated) is {'' if holds else 'not '}{word} {limit:g} {unit}"
                return ("yes" if holds else "no"), {"kind": "yes_no", "rule": rule, "entities": [
                    {"name": " and ".join(places), "unit_id": span.unit_id, "quote": span.quote, "value": said}]}
        return None

    def _places(self, question: str) -> list[str]:
        """The places the question names (spaCy's GPE, LOC and FAC)."""
        return [e.text for e in self.nlp(question).ents if e.label_ in {"GPE", "LOC", "FAC"}]

    @staticmethod
    def _same_nationality(question: str, about: list[tuple[str, Span]], entities: list[dict[str, Any]],
                          ents: dict[tuple[str, int], list[Any]]) -> tuple[str, dict[str, Any]] | None:
        """"Are A and B both American?": yes when each one's span calls it American, no when a span calls one of
        them another nationality and none calls it American ("Rémi Lange is a French film director"); nothing
        when a span names no nationality."""
        m = ASKED_NATIONALITY.search(question)
        if m is None or len(about) < 2:
            return None
        asked = m.group(1).lower()
        values = [{t for t, lab, _ in ents.get((s.unit_id, s.start), [])
                   if lab == "NORP" and t.lower() not in NOT_NATIONALITY} for _, s in about]
        if not all(values):
            return None  # a span that names no nationality decides nothing
        held = [any(asked == w.lower() for t in v for w in re.split(r"[\s-]+", t)) for v in values]
        for e, v in zip(entities, values, strict=True):
            e["value"] = ", ".join(sorted(v))
        return ("yes" if all(held) else "no"), {"kind": "yes_no", "rule": f"each one's nationality against {m.group(1)}",
                                               "entities": entities}

    def _ordered(self, question: str, analysis: QuestionAnalysis, spans: list[Span], scored: list[_Scored],
                 ents: dict[tuple[str, int], list[Any]]) -> tuple[list[Span], str, dict[str, Any]] | None:
        """"Was X born before Y?", "Is X older than Y?": the choice between them (kmrag.answer.ordered) by the
        comparison of their cited values; yes when it falls on X, no when on Y; None when it cannot be made."""
        choice = as_choice(question, analysis.mentions)
        if choice is None or self.analyse is None:
            return None
        asked = self.analyse(choice.question)
        if asked.kind != "comparison" or len(asked.compared) != 2:
            return None
        if RELATED_PERSON.search(choice.question):
            chain, won, basis = self._compare_related(choice.question, asked, spans, ents)
        else:
            chain = self._compared_chain(scored, asked, choice.question)
            won, basis = self._compare(choice.question, asked, chain, ents, pool=[x.span for x in scored])
            chain = _with_cited(chain, basis, [x.span for x in scored])
        if not won or not basis:
            return None
        yes = terms(won).words == terms(choice.first).words
        if not yes and terms(won).words != terms(choice.second).words:
            return None
        answer = "yes" if yes else "no"
        return chain, answer, {**basis, "kind": "yes_no", "asked_as": choice.question,
                               "rule": f"{basis.get('rule')}: {won}, so {answer}"}

    def _compare_related(self, question: str, analysis: QuestionAnalysis, spans: list[Span],
                         ents: dict[tuple[str, int], list[Any]]) -> tuple[list[Span], str | None, dict[str, Any] | None]:
        """A comparison of a related person's dates (birth or death), read hop by hop for each entity."""
        m = RELATED_PERSON.search(question)
        if m is not None and analysis.answer_type == "YES_NO":
            return self._same_related(question, analysis, spans, ents, related_person(m))
        asked = without_names(question, analysis.compared)  # "Just Before I Go": no "before" of the question
        pick = min if EARLIER.search(asked) else max if LATER.search(asked) else None
        if m is None or pick is None:
            return [], None, None
        relation = related_person(m)
        died = bool(DEATH.search(asked))

        def attribute(person: str) -> str:
            return f"When did {person} die?" if died else f"When was {person} born?"

        def year(text: str) -> float | None:
            y = YEAR.search(text)
            return float(y.group(0)) if y else None

        got = compare_related(question, analysis.compared[:4], relation, attribute, spans, self._reader(ents),
                              self.rank_for, year)
        if not got or len(got) < 2:
            return [], None, None
        chain = list(dict.fromkeys(s for e in got for s in e["spans"]))
        if len({e["value"] for e in got}) < len(got):
            return chain, None, None  # a tie decides nothing
        won = pick(got, key=lambda e: e["value"])
        rule = f"{'earliest' if pick is min else 'latest'} {'death' if died else 'birth'} of the {relation}"
        return chain, won["name"], {"kind": "comparison", "rule": rule, "winner": won["name"],
                                    "entities": [{k: v for k, v in e.items() if k != "spans"} for e in got]}

    def _same_related(self, question: str, analysis: QuestionAnalysis, spans: list[Span],
                      ents: dict[tuple[str, int], list[Any]], relation: str) -> tuple[list[Span], str | None, dict[str, Any] | None]:
        """"Are the directors of X and Y from the same country?": each one's nationality read hop by hop."""
        got = compare_related(question, analysis.compared[:4], relation, lambda p: f"What is the nationality of {p}?",
                              spans, self._reader(ents), self.rank_for, lambda v: v.lower(),
                              answer_type="NATIONALITY", stated=False)
        if not got or len(got) < 2:
            return [], None, None
        chain = list(dict.fromkeys(s for e in got for s in e["spans"]))
        countries = [country_named(e["value"]) for e in got]
        if all(countries):  # "American" and "United States" are one country
            for e, c in zip(got, countries, strict=True):
                e["country"] = ", ".join(sorted(c))
            same = bool(frozenset.intersection(*countries))
        elif len({e["value"] for e in got}) == 1:
            same = True
        else:
            return chain, None, None  # a nationality no country is known for decides nothing
        return chain, "yes" if same else "no", {
            "kind": "yes_no", "rule": f"the same nationality of the {relation}",
            "entities": [{k: v for k, v in e.items() if k != "spans"} for e in got]}

    def _compare(self, question: str, analysis: QuestionAnalysis, chain: list[Span],
                 ents: dict[tuple[str, int], list[Any]], pool: list[Span] | None = None
                 ) -> tuple[str | None, dict[str, Any] | None]:
        if analysis.answer_type == "YES_NO":
            return self._yes_no(question, analysis, chain, ents, pool)
        if RELATED_PERSON.search(question):  # "whose director was born first": the value is not the film's own
            return None, None
        values: list[tuple[float, str, Span]] = []
        counts: dict[str, float] = {}  # a compared name's count the question says ("four Vale Day tickets")
        verb = asking_verb(self.nlp, question)
        asked = question
        question = without_names(question, analysis.compared)  # the words that ask, not those of the titles
        for name, span in self._about(chain, analysis.compared) or []:
            if not own(name, span):  # a date of another thing's sentence that names it in passing
                continue
            if verb is not None and not says_verb(asked, verb, span.display):  # "which opened first": the year it
                span = _saying(asked, verb, name, span, [*chain, *(pool or [])])  # opened, not its founder's birth
            years = YEAR.findall(span.display)
            nums = [q[0] for q in quantities(span.display)] or [v for v in (_num(x) for x in re.findall(r"\d[\d,]*", span.display)) if v]
            if counted := COUNTED_MORE.search(question):  # "which has more beds": a number of beds, not a postcode's
                nums = _counts_of(counted.group(1), span.display)
            elif PRICED.search(question):  # "which is cheaper": the sums; "four Vale Day tickets": four of its price
                counts[_LEADING_COUNT.sub("", name, count=1)] = count = _count_before(name, asked)
                nums = [a[0] * count for a in amounts(span.display)]
            elif STRENGTH.search(question):  # "which is stronger": the percentages
                nums = [float(p) for p in re.findall(r"(\d+(?:\.\d+)?)\s*%", span.display)]
            if LIFESPAN.search(question):  # "who lived longer": the years between birth and death
                v = float(int(years[1]) - int(years[0])) if len(years) >= 2 else None
            elif LENGTH_ASKED.search(question):  # "who served longer": a measure ("12 km", "3 hours"), or the years
                measured = [q for q in quantities(span.display)  # from one to the other ("1988 to 2009"); never a
                            if not re.match(r"\s*old\b", span.display[span.display.find(q[2]) + len(q[2]):])]  # year,
                v = _tenure(span.display) or (measured[0][0] if measured else None)  # nor an age ("41 years old")
            elif DEATH.search(question):  # "which died first": the year of the death, not the first year said
                v = _death_year(span.display)
            else:
                v = float(years[0]) if years and (EARLIER.search(question) or LATER.search(question)) else (nums[0] if nums else None)
            if span.kind == "row" and not (PRICED.search(question) or STRENGTH.search(question) or counted or (
                    years and (EARLIER.search(question) or LATER.search(question)))):
                v = None  # a row's first number measures what its column says: "more bitter" is not its ABV
            if v is not None:
                values.append((v, _LEADING_COUNT.sub("", name, count=1), span))  # "Vale Week", not "one Vale Week"
        if len(values) < 2 or len(values) < len(analysis.compared):
            return None, None
        if LIFESPAN.search(question):
            pick, rule = (min, "shortest life") if re.search(r"\b(shorter|younger|earlier|first)\b", question, re.I) \
                else (max, "longest life")
        elif EARLIER.search(question) or LESS.search(question):
            pick, rule = min, "smallest or earliest"
        elif LATER.search(question) or MORE.search(question):
            pick, rule = max, "largest or latest"
        else:
            return None, None
        won = pick(values, key=lambda x: x[0])
        if sum(1 for v in values if v[0] == won[0]) > 1:
            return None, None  # a tie (two born in one year) decides nothing
        return won[1], {"kind": "comparison", "rule": rule, "winner": won[1],
                        "entities": [{"name": n, "value": v, "unit_id": s.unit_id, "quote": s.quote,
                                      **({"count": counts[n], "each": round(v / counts[n], 2)} if counts.get(n, 1) != 1
                                         else {})} for v, n, s in values]}


_LEADING_COUNT = re.compile(rf"(\d{{1,3}}|{'|'.join(_COUNT_WORDS)})\s+(?=[A-Z])")  # "four Vale Day tickets", not "Seven Samurai"


_COUNT_BEFORE = re.compile(rf"\b(\d{{1,3}}|{'|'.join(_COUNT_WORDS)})\s+(?:of\s+(?:the\s+)?)?", re.I)


def _count_before(name: str, question: str) -> float:
    """The count the question says before a compared name ("four Vale Day tickets": 4), else 1."""
    m = _LEADING_COUNT.match(name) or next((c for c in _COUNT_BEFORE.finditer(question)
                                            if question[c.end():c.end() + len(name)].lower() == name.lower()), None)
    if m is None:
        return 1.0
    n = m.group(1).lower()
    return float(n) if n.isdigit() else float(_COUNT_WORDS[n]) or 1.0


LENGTH_ASKED = re.compile(r"\b(?:longer|shorter|longest|shortest)\b", re.I)
_TENURE = re.compile(r"\b(1\d{3}|20\d{2})\s*(?:to|[-–]|until|till)\s*(?:[A-Z][a-z]+\s+)?(1\d{3}|20\d{2})\b")


def _tenure(text: str) -> float | None:
    """The years a span's "1988 to 2009" (or "2009 to August 2021") runs; None without one."""
    m = _TENURE.search(text)
    return float(int(m.group(2)) - int(m.group(1))) if m and int(m.group(2)) >= int(m.group(1)) else None


def _saying(question: str, verb: str, name: str, span: Span, pool: Sequence[Span]) -> Span:
    """The span about ``name`` that says the question's verb and holds a number ("Site: Harrowgate General Hospital;
    Opened: 1923" for "which opened first"), else ``span``: a span about it (its own, or one that names it) before
    one that only stands in its unit ("Sir Matthias was born in 1860")."""
    low = name.lower()
    return next((s for s in pool if s != span and says_verb(question, verb, s.display) and re.search(r"\d", s.display)
                 and (own(name, s) or low in s.display.lower())), span)


def listed(question: str, mentions: Sequence[str], order: Sequence[Span]) -> tuple[str, Span, dict[str, Any]] | None:
    """A question asking for a number of things ("What are the three failure modes …?"): the first span of
    ``order`` listing exactly that many of them after the same number and noun (:mod:`kmrag.answer.listed`)."""
    if (asked := asked_count(question)) is None:
        return None
    relational = terms(question).words - terms(" ".join(mentions)).words
    for span in order:
        if (got := stated_list(span.display, *asked, about=mentions)) is not None:
            stated = stated_count(question, relational, span.display) > 0
            return got[0], span, {"kind": "span", "candidates": 1, "distance": 0, "relation_stated": stated,
                                  "listed": asked[0]}
    return None


def _led_to(question: str, chain: Sequence[Span], pool: Sequence[Span]) -> list[Span]:
    """The spans of ``pool`` not in ``chain`` whose unit the question or a span of ``chain`` names by its title
    (the album a song's span names): a bridge's next unit, not any unit that says "born in" of someone else."""
    said = terms(" ".join([question, *(s.display for s in chain)])).words
    return [s for s in pool if s not in chain and (t := terms(TITLE_QUALIFIER.sub("", s.title)).words) and t <= said]


def _framed(question: str, spans: Sequence[Span], candidates: Any, mentions: Sequence[str] = ()
            ) -> tuple[str, Span, dict[str, Any]] | None:
    """The value a span states right after the question's frame ("a video game developed by which company":
    "... video game developed by Crystal Dynamics", kmrag.answer.asked.frame), from the first span of ``spans``
    that states one; ``candidates``: a span's values of the kind asked."""
    for span in spans:
        ends = framed_at(question, span.display, mentions)
        got = sorted((c for c in candidates(span) if after_frame(c[1], ends)), key=lambda c: c[1]) if ends else []
        if got:
            return got[0][0], span, {"kind": "span", "candidates": len({c.lower() for c, _ in got}), "distance": 0,
                                     "relation_stated": True, "framed": True}
    return None


def _death_year(text: str) -> float | None:
    """The year a span says someone died: the second year of a lifespan "(1887 – 1962)", or a year just after
    "died"; None when it says none (the living, or a span of another fact)."""
    life = LIFESPAN_SPAN.search(text)
    if life is not None and text.find("(") == life.start() and len(years := YEAR.findall(life.group(0))) >= 2:
        return float(years[-1])  # the span's first bracket: its subject's, not a relative's named after
    died = re.search(r"(?<!['’]s\s)\b(?:died|death|passed\s+away)\b[^.;()]{0,40}?\b(1\d{3}|20\d{2})\b", text, re.I)
    return float(died.group(1)) if died else None  # not "after his father's death in 1780"


_OWNERS = frozenset({"GPE", "PERSON", "NORP", "LOC"})  # names that own what follows their "'s" ("London's Wembley")


def _title_name(cand: str, at: int, text: str, titles: Sequence[str], owner: bool = False) -> str:
    """The longest start of a context unit's title (whole words, one more at least, no comma added) that ``text``
    holds where ``cand`` starts: the recogniser cut "Bishop's Stortford" (title "Bishop's Stortford F.C.") at the
    possessive, "Hungarian Rhapsody No. 2" at the abbreviation's stop; with no title, a one-word name and its
    possessive's one capitalised word ending the phrase, unless ``owner`` (the recogniser's place or person: "London's
    Wembley" is Wembley, of London); else ``cand``."""
    best = cand
    if not re.match(r"['’]s\s|\.\s?\d", text[at + len(cand): at + len(cand) + 3]):
        return cand  # only a name cut at a possessive or at "No. 2": "New York" is no start of "New York Yankees"
    for title in titles:
        words = title.split()
        for k in range(len(words), len(cand.split()), -1):
            name = " ".join(words[:k]).rstrip(".")
            if len(name) > len(best) and name.startswith(cand) and "," not in name[len(cand):] and \
                    text.startswith(name, at) and not text[at + len(name): at + len(name) + 1].isalnum():
                best = name
                break
    if best == cand and " " not in cand and not owner and (m := _POSSESSIVE_NAME.match(text, at + len(cand))):
        best = cand + m.group(1)  # no title holds it: "Bishop's Stortford." read whole, not "Germany's Angela Merkel"
    return best


# a one-word name's possessive and one capitalised word closing the phrase: a place's name ("King's Lynn,", "Land's
# End."), as a possessive needs a noun after it and a lone capitalised one ending the clause is that name's rest
_POSSESSIVE_NAME = re.compile(r"(['’]s [A-Z][a-z]+)(?=\s*(?:[.,;:)]|$|\s(?:and|in|on|at|near|from|for|until|since)\b))")


HEADED_SLACK = 20  # characters further from the question's words a name ending in the noun asked may stand
# nouns that say nothing of the name asked for ("which one", "what kind of ...")
_CLOCK_RANGE = re.compile(r"^\s*(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?)\s*(?:to|[-–])\s*(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?)\b",
                          re.I)
_ASKS_CLOSE = re.compile(r"\b(?:what time|when|how late)\b.*\b(?:close[sd]?|closing|shut|shuts|finish(?:es)?|ends?(?!\s+of\b)|"
                         r"stops?|wraps?\s+up)\b|\b(?:closing|finishing|end)\s+time\b", re.I)
_ASKS_OPEN = re.compile(r"\b(?:what time|when|how early)\b.*\b(?:opens?|start[s]?|begins?|kicks?\s+off|commences?)\b|"
                        r"\b(?:opening|starting|start)\s+time\b", re.I)


def _end_asked(question: str, value: str) -> str:
    """Of a cell's hours ("11am to 3pm"), the end a question asks when the place closes, the start when it opens;
    else the cell."""
    m = _CLOCK_RANGE.match(value)
    if m is None or not CLOCK.search(m.group(0)):
        return value
    if _ASKS_CLOSE.search(question):
        return m.group(2).strip()
    return m.group(1).strip() if _ASKS_OPEN.search(question) else value


CLOCK = VALUE_OF["TIME"]  # "3pm", "9:30am", "18:00"
DATE_NOUNS = frozenset({"year", "date", "month", "day"})  # "what year did X open": the Opened column's
VAGUE_NOUNS = frozenset({"one", "thing", "name", "kind", "type", "sort", "person", "people", "man", "woman", "entity"})


@functools.lru_cache(maxsize=256)  # read for every span and candidate of a question asking the noun
def _introduced(noun: str) -> re.Pattern[str]:
    """A name the noun asked introduces: "the magazine India Today", "the American band Molly Hatchet", "its State
    Capital Jaipur"."""
    return re.compile(rf"\b(?i:the|a|an|its|his|her|their)\s+(?:[\w-]+\s+){{0,2}}?(?i:{re.escape(noun)})\s+"
                      rf"((?:[A-Z][\w'’.&-]*)(?:\s+(?:of|the|and|de|la|du)?\s*[A-Z][\w'’.&-]*){{0,4}})")


def introduced_by(at: int, text: str, noun: str) -> bool:
    """Whether ``text`` introduces the name at ``at`` with the noun asked ("the magazine India Today")."""
    return any(m.start(1) == at for m in _introduced(noun).finditer(text))


def _said_with(noun: str, text: str, at: int, anchors: Sequence[int]) -> bool:
    """The name at ``at`` is said to be a ``noun`` that the clause goes on to describe with the question's words
    (at ``anchors``): "Orkel, an aside, is a small library for building agent workflows" for "Which library is
    used to build agent workflows?"; not "Lyon is a city he never liked" for "Which city was he born in?"."""
    m = _said_a(noun).match(text, at)
    if m is None:
        return False
    end = next((i for i in range(m.end(), len(text)) if text[i] in ".;"), len(text))
    return any(m.end() <= a < end for a in anchors)


@functools.lru_cache(maxsize=256)
def _said_a(noun: str) -> re.Pattern[str]:
    """A name (group 1) said to be a ``noun``: "LangGraph is a superb library", "X, an aside, is a small library"."""
    return re.compile(rf"(?<![\w-])([A-Z][\w.+#-]*(?:\s+[A-Z][\w.+#-]*){{0,3}})(?:\s*,[^,.;()]{{1,80}},)?\s+"
                      rf"(?:is|was|are|were)\s+(?:a|an|the|one)\s+(?:[\w-]+\s+){{0,3}}?(?i:{re.escape(noun)}s?)\b")


def headed_by(name: str, noun: str) -> bool:
    """A name whose last word is the noun the question asks for ("Hawaii County" of "what county", "East
    Lancashire Railway" of "which railway")."""
    words = re.findall(r"[\w'-]+", name)
    return len(words) > 1 and stem(words[-1].lower()) == stem(noun.lower())


def _one_of(answer: str, options: Sequence[str]) -> bool:
    low = answer.lower().strip(" .\"'")
    return any(low == o.lower().strip(" .\"'") for o in options)


def _headed(doc: Any) -> list[tuple[str, str, int]]:
    """A name that only modifies the common noun after it, in a phrase with an article: "the Baudot code",
    "a Linux kernel". (the whole phrase without the article, HEADED, the name's offset): what an "ENTITY" question
    ("What is represented on the cover?") asks for is the phrase, not the name in it."""
    out = []
    for e in doc.ents:
        last, after = e[-1], doc[e.end] if e.end < len(doc) else None
        if after is None or last.head.i != after.i or after.pos_ != "NOUN" or not after.is_lower \
                or e.start == 0 or doc[e.start - 1].lower_ not in {"the", "a", "an"}:
            continue
        out.append((doc[e.start: after.i + 1].text, HEADED, e.start_char))
    return out


def own(name: str, span: Span) -> bool:
    """Is ``span`` about ``name`` itself: its unit titled by the name, or the name the sentence opens with
    ("Tufts College was founded in 1852"), not a sentence about someone else that names it in passing ("Ed
    Koffenberger (July 4, 1926 – ...) was a player for the Duke University")?"""
    bare = TITLE_QUALIFIER.sub("", name).strip()  # "Ryan Stevenson (Cricketer)" is Ryan Stevenson's
    if terms(TITLE_QUALIFIER.sub("", span.title)).words == terms(bare).words:
        return True
    opening = re.sub(r"^(?:the|a|an)\s+", "", span.display.lstrip(" \"'“("), flags=re.I)
    if span.kind == "row":  # a table's row opens with its key cell, under the column's label ("Beer: Nightjar; ...")
        opening = re.sub(r"^[^:;]{1,40}:\s*", "", opening)
        key = opening.split(";", 1)[0].strip()
        bare = _LEADING_COUNT.sub("", bare, count=1)  # "four Vale Day tickets": the row "Vale Day", four of it
        rest = terms(bare).words - terms(key).words  # "Student membership": the row "Student" of "Annual membership"
        if key and rest and re.match(rf"(?i:{re.escape(key)})\s", bare) and rest <= terms(f"{span.title} {span.section}").words:
            return True
    named = re.escape(re.sub(r"^(?:the|a|an)\s+", "", bare, flags=re.I))
    return bool(re.match(rf"(?i:{named})(?![\w'’-])(?!\s+(?-i:[A-Z]))", opening))


def _larger_places(cands: list[tuple[str, int]], text: str, noun: str) -> list[tuple[str, int]]:
    """The place asked for in each run of places the text writes "A, B, C": one whose name says the kind asked
    ("Fairfax County" for a county), else the last for a country, else for a state the second that names no
    smaller kind (the state of "Kent, Washington, United States"; "Caddo County" is no state); else the run
    as it is."""
    runs: list[list[tuple[str, int]]] = []
    for c, at in sorted(cands, key=lambda x: x[1]):
        if runs and text.startswith(", ", runs[-1][-1][1] + len(runs[-1][-1][0])) \
                and runs[-1][-1][1] + len(runs[-1][-1][0]) + 2 == at:
            runs[-1].append((c, at))
        else:
            runs.append([(c, at)])
    out = []
    for run in runs:
        named = [x for x in run if re.search(rf"\b{noun}\b", x[0], re.I)]
        later = [x for x in run[1:] if not SMALLER_PLACE.search(x[0])]
        if named:
            out += named
        elif noun in {"country", "nation"}:
            out.append(run[-1])
        elif noun == "state" and later and len(run) > 1:
            out.append(later[0])  # "Kent, Washington": the second; a run ending in its country is longer
        else:
            out += run  # a county, province or region the text does not call one: nothing to choose by
    return out


def without_names(question: str, names: Sequence[str]) -> str:
    """The question without the names it compares: "Which film has the director born later, The Night With The
    Emperor or Just Before I Go?" asks "later", and the "Before" of a title asks nothing."""
    for name in sorted(names, key=len, reverse=True):  # whole words: "Old" is no part of "older"
        question = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", question, flags=re.I) if name.strip() else question
    return question


def _ended(span: Span) -> str:
    """The span as a statement of its own: a table row gets the full stop a sentence has, so that two rows cited
    one after the other are two statements."""
    if span.kind != "row" or span.display.rstrip().endswith((".", "。", "!", "?", "！", "？")):
        return span.display
    return span.display + ("。" if HAN.search(span.display) else ".")


def _same_name(about_each: list[tuple[str, Span]], ents: dict[tuple[str, int], list[Any]]
               ) -> tuple[str | None, dict[str, Any] | None]:
    """Where the country data knows no country of a span's places ("Korean", "Kazakh"): yes when every span
    names one same nationality or place; otherwise nothing (never "no": two names may be one country)."""
    named = [{n.strip(".") for n in place_names(ents.get((s.unit_id, s.start), []))} for _, s in about_each]
    shared = set.intersection(*named) if named else set()
    if not shared or len({(s.unit_id, s.start) for _, s in about_each}) < len(about_each):
        return None, None
    return "yes", {"kind": "yes_no", "rule": "the same nationality or place named", "entities": [
        {"name": n, "unit_id": s.unit_id, "quote": s.quote, "value": ", ".join(sorted(shared))} for n, s in about_each]}


def _with_cited(chain: list[Span], basis: dict[str, Any] | None, pool: list[Span]) -> list[Span]:
    """The chain with the spans its basis cites: one read from another span of an entity's unit replaces the
    chain's span of that unit."""
    out = list(chain)
    for e in (basis or {}).get("entities", []):
        key = (e.get("unit_id"), e.get("quote"))
        if any((s.unit_id, s.quote) == key for s in out):
            continue
        span = next((s for s in pool if (s.unit_id, s.quote) == key), None)
        if span is not None:
            at = next((i for i, s in enumerate(out) if s.unit_id == span.unit_id), None)
            if at is None:
                out.append(span)
            else:
                out[at] = span
    return out


def _same_country(about_each: list[tuple[str, Span]], chain: list[Span], ents: dict[tuple[str, int], list[Any]],
                  born: bool = False) -> tuple[str | None, dict[str, Any] | None]:
    """Yes when the spans about the entities place them in one country, no when in different ones; the span
    about each that names a country is cited (the first that does: "Eaton Academy is a charter school in
    Eastpointe, Michigan.", not "It is located in the former St. Veronica School building."); nothing when a
    span about one of them names none."""
    entities: list[dict[str, Any]] = []
    countries: list[frozenset[str]] = []
    for name, first in about_each:
        own = [x for x in about(name, chain) if x is not first and (x.unit_id == first.unit_id or titled_by(name, x))]
        for span in [first, *own]:  # the entity's own unit: not a festival's that names it in passing
            if found := country_in(span.display, ents.get((span.unit_id, span.start), []), born=born):
                entities.append({"name": name, "unit_id": span.unit_id, "quote": span.quote,
                                 "value": ", ".join(sorted(found))})
                countries.append(found)
                break
        else:  # no country known: only one place named by both says yes (a nationality is no birthplace)
            return (None, None) if born else _same_name(about_each, ents)
    if len({(e["unit_id"], e["quote"]) for e in entities}) < len(entities):
        return None, None  # one span for two entities compares nothing
    same = bool(frozenset.intersection(*countries))
    return ("yes" if same else "no"), {"kind": "yes_no", "rule": "the same country", "entities": entities}


def _holds(claim: str, span: Span) -> bool:
    """A yes / no claim stands on its entity's span with every word of it said there: the slack the support
    check leaves a paraphrase for a filler word is the whole claim here ("Lygodium is a genus of orchids." is
    not "Lygodium is a genus of ferns")."""
    text = span.display
    if span.kind == "row" and (named := _named_cells(claim, text)):
        if _cells_deny(named):
            return False  # "Is Eastmoor Library open on Wednesdays?": its Wednesday cell says "Closed"
        text = named  # the cells the claim names, not the whole row
    v = judge(claim, [text], [span.title])
    return v.supported and v.score >= 0.999


# a table cell that says the row has no such thing: "Closed", "No", "None", "—"
_DENYING_CELL = re.compile(r"\s*(?:closed|no|none|not available|unavailable|n/?a|[-–—×✗]|not offered)\s*\.?\s*", re.I)


def _cells_deny(named: str) -> bool:
    """Do the cells :func:`_named_cells` gave (the key first) all say "Closed", "No", "None" or a dash?"""
    values = [c[1] for c in _cells(named)[1:] if len(c) == 2]
    return bool(values) and all(_DENYING_CELL.fullmatch(v) for v in values)


def _keyed_by(name: str, span: Span) -> bool:
    """Is ``span`` a table row whose key cell is ``name`` ("Library: Eastmoor Library; ...")?"""
    cells = _cells(span.display) if span.kind == "row" else []
    return bool(cells) and len(cells[0]) == 2 and _unbracketed(cells[0][1]).strip().lower() == name.strip().lower()


def _header_words(header: frozenset[str]) -> frozenset[str]:
    """The words a claim must say to name a header: a hyphened word's parts but its stop words ("On-site
    laboratory": site, laboratory), unless that leaves one word ("Walk-in" is named whole)."""
    parts = frozenset(p for w in header for p in w.split("-") if p not in STOP)
    return parts if len(parts) >= 2 else header


def _named_cells(claim: str, row: str) -> str | None:
    """The row's key and the cells whose header the claim names ("Library: Eastmoor Library; Wednesday: Closed"
    for "Eastmoor Library is open on Wednesdays."), or None when it names none."""
    cells = _cells(row)
    words = terms(claim).words | {p for w in terms(claim).words for p in w.split("-")}
    # a header is named by all its words, a hyphened one's parts counted ("On-site laboratory": on, site)
    named = [f"{c[0]}: {c[1]}" for c in cells[1:] if len(c) == 2 and (h := terms(c[0]).words)
             and _header_words(h) <= words]
    return "; ".join([": ".join(cells[0]), *named]) if named and len(cells[0]) == 2 else None


# a denial that still says something of the kind holds: "not by Hasbro but by Parker Brothers", "not only"
_CONTRAST = re.compile(r"\b(?:but|instead|rather|only|except|until|unless|although|though)\b", re.I)
_DENIAL = re.compile(r"\b(?:not|no|never)\s+|n['’]t\b", re.I)


def _denies(claim: str, span: Span) -> bool:
    """Does ``span`` deny ``claim`` in so many words: the claim stands on it once its one negation is taken out
    ("It has no inpatient beds." for "St Aldric's Clinic has inpatient beds."), with nothing that turns the denial
    ("not by Hasbro but by Parker Brothers")?"""
    text = span.display
    if span.kind == "row":  # "Wednesday: Closed" denies "Eastmoor Library is open on Wednesdays."
        named = _named_cells(claim, text)
        return named is not None and _cells_deny(named) and judge(claim, [named], [span.title]).supported
    if len(_DENIAL.findall(text)) != 1 or _CONTRAST.search(text) or not negated(text):
        return False
    v = judge(claim, [_DENIAL.sub(" ", text)], [span.title])
    return v.supported and v.score >= 0.999


def _yes_zh(question: str, analysis: QuestionAnalysis, chain: list[Span]) -> tuple[str | None, dict[str, Any] | None]:
    """是 when a span of the chain supports the question read as a claim ("衡石存储的总部是否设在新加坡" ->
    "衡石存储的总部设在新加坡"), by the support check; never 否 from text alone (only a table's computation
    says no: kmrag.answer.tables)."""
    if tables.COMPARATIVE.search(question):
        return None, None  # "是否比…少": a comparison a sentence may state the other way round; only cells decide it
    claim = re.sub(r"是不是", "是", question)
    claim = re.sub(r"有没有", "有", re.sub(r"能否", "能", re.sub(r"是否", "", claim)))
    claim = re.sub(r"吗?[？?。\s]*$", "", claim)
    for span in chain[:3]:
        if judge(claim, [span.display], [span.title]).supported and _one_clause(claim, span.display):
            return "是", {"kind": "yes_no", "rule": f"the cited span states: {claim}", "entities": [
                {"name": (analysis.mentions or [claim])[0], "unit_id": span.unit_id, "quote": span.quote}]}
    return None, None


def _one_clause(claim: str, text: str) -> bool:
    """The claim's last name stands in a clause that holds most of what the claim says of it: "总部设在新加坡" is
    not said by "在新加坡设有研发中心，总部位于北京" (新加坡's clause says nothing of 总部)."""
    names = names_in(claim)
    if not names:
        return True
    subject = re.match(r"^(.+?)(?:的|为|是|在|于|有)", claim)
    rest = claim[subject.end(1):] if subject else claim  # what is said of the subject
    for n in names:
        rest = rest.replace(n, " ")
    said = {c for c in HAN.findall(rest) if c not in FUNCTION_CHARS}
    clauses = [c for c in CLAUSE.split(text) if names[-1] in c]
    return any(2 * len(said & set(c)) >= len(said) for c in clauses)


def _names_each(fact: Span, mentions: Sequence[str], but: Span | None = None) -> bool:
    """Does the span stating a quantity name each of ``mentions`` (the question's places), but those the span
    ``but`` (a table's row) names: the distance of "a flight from Delhi to Cologne" is not the one stated of
    Delhi and Munich."""
    known = terms(f"{but.title} {but.display}").words if but is not None else set()
    said = terms(f"{fact.title} {fact.display}").words
    return all(terms(m).words <= said for m in mentions if terms(m).words and not terms(m).words <= known)

