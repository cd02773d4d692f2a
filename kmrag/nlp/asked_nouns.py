"""The nouns that say what a question asks for ("which city", "the director of X"), by the kind of answer:
read by the question analysis (kmrag.retrieval.analysis) and by the rephrasing of search-box queries
(kmrag.nlp.rephrase)."""

from __future__ import annotations

from kmrag.nlp.patterns import PERSON_NOUNS as OCCUPATIONS

PERSON_NOUNS = {
    "person", "people", "man", "woman", "director", "performer", "author", "writer", "founder", "cofounder",
    "creator", "composer", "singer", "songwriter", "producer", "president", "ceo", "owner", "member",
    "player", "actor", "actress", "artist", "spouse", "wife", "husband", "father", "mother", "son",
    "daughter", "brother", "sister", "parent", "child", "children", "sibling", "grandfather", "grandmother",
    "uncle", "aunt", "cousin", "king", "queen", "leader", "mayor", "governor", "minister", "chancellor",
    "manager", "coach", "captain", "editor", "publisher", "inventor", "designer", "architect", "painter",
    "poet", "novelist", "star", "host", "presenter", "narrator", "screenwriter", "head", "chairman",
    "successor", "predecessor", "partner", "heir", "monarch", "emperor", "pope", "bishop", "teacher",
    "student", "who",
}
PLACE_NOUNS = {"city", "town", "village", "country", "nation", "state", "province", "region", "capital",
               "place", "birthplace", "location", "county", "district", "island", "continent", "river",
               "mountain", "headquarters", "venue", "stadium", "airport", "where"}
ORG_NOUNS = {"company", "organization", "organisation", "team", "club", "band", "group", "label", "network",
             "university", "college", "school", "party", "firm", "corporation", "agency", "airline",
             "broadcaster", "studio", "newspaper", "magazine", "channel", "institution", "hospital", "clinic", "museum",
             "library", "hotel", "theatre", "theater"}
WORK_NOUNS = {"film", "movie", "album", "song", "book", "novel", "series", "show", "play", "opera", "game",
              "single", "poem", "painting", "work", "episode"}
DATE_NOUNS = {"year", "date", "day", "month", "century", "decade", "when"}
NUMBER_NOUNS = {"number", "population", "amount", "count"}
# what a measurement is called ("What accuracy did X reach?"): a number is asked, yet the noun is the relation a
# path's hop says (a table row's (X) -[accuracy]-> (42.3%)), so it is no kind noun of kmrag.answer.paths
MEASURE_NOUNS = {"accuracy", "precision", "percentage", "proportion", "rate", "ratio", "latency", "duration", "length",
                 "distance", "height", "weight", "speed", "area", "depth", "width", "capacity", "elevation",
                 "altitude"}
# what an amount of money is called ("What compensation is due ...?", "the price of X"): a sum is asked, said with
# its currency ("600 EUR"); read for the answer's type only, not as a hop's relation (kmrag.retrieval.analysis)
MONEY_NOUNS = frozenset({"compensation", "price", "cost", "fee", "fare", "salary", "wage", "payment", "refund",
                         "reimbursement", "budget", "revenue", "income", "profit", "earnings", "allowance", "charge", "rent", "bill",
                         "toll"})
# the roles people have ("the engineer who"), but for the words that name other kinds too ("broadcaster", a
# company; "model", a product) or as often a thing as a person ("driver", "pilot", "conductor")
PERSON_NOUNS |= OCCUPATIONS - PLACE_NOUNS - ORG_NOUNS - WORK_NOUNS - DATE_NOUNS - NUMBER_NOUNS - MEASURE_NOUNS - {
    "model", "anchor", "personality", "driver", "pilot", "conductor"}
# every noun above: the words a question says what it asks with
ASKED_NOUNS = frozenset(PERSON_NOUNS | PLACE_NOUNS | ORG_NOUNS | WORK_NOUNS | DATE_NOUNS | NUMBER_NOUNS | MEASURE_NOUNS)
