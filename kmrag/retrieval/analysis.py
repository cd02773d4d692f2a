"""Question analysis: one spaCy parse of the question gives its entity mentions, its kind, the type of
answer it expects, the entities it compares, and the dependent sub-question a compositional question
starts with ("Where did the director of film X die?" first needs "the director of film X").

General English rules only: wh-words, auxiliaries, comparatives and the head nouns of relational
phrases. Nothing here knows a dataset.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field

from kmrag.nlp.asked_nouns import (
    DATE_NOUNS,
    MEASURE_NOUNS,
    MONEY_NOUNS,
    NUMBER_NOUNS,
    ORG_NOUNS,
    PERSON_NOUNS,
    PLACE_NOUNS,
    WORK_NOUNS,
)
from kmrag.nlp.extract import SpacyExtractor, clean_name

Kind = Literal["bridge", "comparison", "yes_no", "inference", "factoid"]

AUX_START = {"am", "is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "will",
             "would", "should", "shall", "may", "might", "must"}
COMPARATIVE = re.compile(
    r"\b(first|earlier|earliest|later|latest|last|older|oldest|elder|eldest|younger|youngest|longer|longest|shorter|"
    r"shortest|larger|largest|bigger|biggest|smaller|smallest|higher|highest|lower|lowest|more|most|"
    r"less|fewer|newer|newest|taller|tallest|closer|farther|further|before|after|(?-i:greater|greatest|wider|widest|"
    r"heavier|heaviest|deeper|deepest))\b", re.I)  # ("Greater London" is a name)
# "how many days": a count of a unit of time (a number, not money; read as a count of that unit)
HOW_MANY_TIME = re.compile(r"\bhow\s+many\s+(seconds|minutes|hours|days|weeks|months|years|decades|centuries)\b", re.I)
BOTH_SAME = re.compile(r"\b(both|same|either|neither)\b", re.I)
# relations one infers by composing two facts (a grandfather is a parent's father)
INFERRED = re.compile(
    r"\b(grand(?:father|mother|son|daughter|parent|child|children)|(?:paternal|maternal)\s+\w+|"
    r"uncle|aunt|nephew|niece|cousin|(?:father|mother|son|daughter|brother|sister)[- ]in[- ]law|"
    r"step(?:father|mother|son|daughter|brother|sister))\b", re.I)

# "how accurate" asks what "what accuracy" asks: a measure, said as a number or a percentage
MEASURED_BY_ADJECTIVE = r"\bhow (accurate|accurately|precise|precisely|effective|efficient|reliable|often|frequent|" \
    r"frequently|successful|likely|common|popular)\b"

ANSWER_BY_NOUN: list[tuple[set[str], str]] = [
    (DATE_NOUNS, "DATE"), (PERSON_NOUNS, "PERSON"), (PLACE_NOUNS, "PLACE"), (ORG_NOUNS, "ORG"),
    (WORK_NOUNS, "WORK"), (NUMBER_NOUNS | MEASURE_NOUNS, "NUMBER"),
]


# a question (or a span) about a death or a birth
DEATH = re.compile(r"\b(die|died|death|dead|pass(ed)? away|killed)\b", re.I)
BIRTH = re.compile(r"\b(born|birth|birthday|birthplace)\b", re.I)
# nouns of an event ("the death of X", "the founding of Y"): a phrase of one says when, it names no thing a hop
# could resolve to
EVENT_NOUNS = frozenset({"death", "birth", "founding", "foundation", "beginning", "start", "end", "fall", "collapse",
                         "creation", "launch", "invasion", "independence", "marriage", "wedding", "divorce", "reign",
                         "arrival", "departure", "retirement", "resignation", "murder", "assassination", "execution",
                         "burial", "coronation", "abdication", "dissolution", "establishment", "opening", "closure"})


def noun_class(lemma: str) -> str | None:
    low = lemma.lower()
    for nouns, label in ANSWER_BY_NOUN:
        if low in nouns:
            return label
    return None


class SubQuestion(BaseModel):
    """The inner phrase of a compositional question and the type of entity it resolves to."""

    phrase: str          # "the director of film Polish Wedding"
    question: str        # "Who is the director of film Polish Wedding?"
    resolves_to: str     # PERSON | PLACE | ORG | WORK | DATE | NUMBER | ENTITY
    relation: str        # the relational noun ("director")
    anchor: str          # the mention inside the phrase ("Polish Wedding")

    def outer(self, question: str, answer: str) -> str:
        """The outer question with the phrase replaced by its answer ("Where did Theresa Connelly die?")."""
        return question.replace(self.phrase, answer, 1)


class QuestionAnalysis(BaseModel):
    question: str
    kind: Kind
    answer_type: str  # PERSON | PLACE | NATIONALITY | ORG | WORK | DATE | TIME | NUMBER | MONEY | QUANTITY | YES_NO |
    # ENTITY, or one a clause answers: REASON | MANNER | DESCRIBE
    mentions: list[str] = Field(default_factory=list)
    compared: list[str] = Field(default_factory=list)
    sub_question: SubQuestion | None = None

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "answer_type": self.answer_type, "mentions": self.mentions}
        if self.compared:
            out["compared"] = self.compared
        if self.sub_question:
            out["sub_question"] = self.sub_question.question
        return out


# "Where is / was / does X come from?": a person's origin (a place asked of a thing stays a place)
ORIGIN = re.compile(r"^\s*where\s+(?:(?:is|was|are|were)\b.*\bfrom|(?:does|did|do)\b.*\b(?:come|hail)\s+from)\s*\??\s*$",
                    re.I)


# "what is the (average) latency of X": the noun a copula's "what" asks for (spaCy parses "what" as the pronoun,
# not the noun's determiner)
ATTRIBUTE_ASKED = re.compile(r"^(?:what|which) (?:is|was|are|were|'s|’s) (?:the |its |their |his |her )?(?:[\w'’-]+ ){0,6}?"
                             r"([a-z]+)(?: (?-i:[a-z]+ed))?(?: (?:of|for|in|at|on|per)\b| ?\?$|$)")
# ("the price per person for a tour", "the amount agreed for the fund": the noun before a rate or a participle)


# answer types a clause answers ("Why ...?", "How did ...?", "What does X do?"), never a name or a value of the
# spans (a described thing's description is read by kmrag.answer.described)
CLAUSE_ASKED = frozenset({"REASON", "MANNER", "DESCRIBE"})

# a name's last word that makes "What is the Gatehouse Port?" a value asked, not a thing to describe
ATTRIBUTE_NOUNS = frozenset("""port number phone telephone address email e-mail price fee cost charge date time year
day name title role rate salary budget total population size capacity length height width weight age code postcode
score count percentage share limit default value""".split())
_THING = r"(?P<x>(?!(?:i|we|you|they|he|she|it|one|this|that|there)\b)[^?]{1,60}?)"
# "What does Millstone (actually) do?", "What is the Ledger used for?", "What's Scythe for", "What is Switchyard's
# job in a cluster?", "What is the purpose of X?", "Can someone explain what the Sieve component does?": what a
# thing does or is for, said in a clause; ``x`` the thing, ``rest`` what the question adds ("if the answer ...")
DESCRIBED = [re.compile(p, re.I) for p in (
    rf"^(?:.*\b(?:explain|describe|tell me|know|wondering)\s+)?what\s+(?:does|do|did)\s+{_THING}\s+"
    r"(?:actually\s+|exactly\s+|really\s+|even\s+)?do\b(?P<rest>[^?]*)\??\s*$",
    rf"^.*\b(?:explain|describe|tell me|know|wondering)\s+what\s+{_THING}\s+(?:actually\s+|really\s+)?"
    r"(?:does|do)\b(?P<rest>[^?]*)\??\s*$",
    rf"^what(?:\s+(?:is|are|was|were)|['’]s)\s+{_THING}\s+(?:actually\s+|really\s+|exactly\s+)?"
    r"(?:(?:used|meant|designed|needed)\s+)?for\s*\??\s*$",
    rf"^what(?:\s+(?:is|are|was|were)|['’]s)\s+{_THING}['’]s?\s+(?:job|purpose|function|task)\b"
    r"(?P<rest>[^?]*)\??\s*$",
    rf"^what(?:\s+(?:is|are|was|were)|['’]s)\s+the\s+(?:job|purpose|function|task)\s+of\s+{_THING}\s*\??\s*$",
    # "What is the Airlink 23X?", "What's Corrective RAG?": a name alone, asked what it is
    r"^what(?:\s+(?:is|are)|['’]s)\s+(?:the\s+|an?\s+)?(?P<x>(?-i:[A-Z])[\w&'’.-]*(?:\s+(?-i:[A-Z0-9])[\w&'’.-]*){0,4})"
    r"\s*\??\s*$",
    # "Can you explain what the plate heat exchanger is for?", "Please explain what the Repair Café is.": the same,
    # embedded in a request
    rf"^.*\b(?:explain|describe|tell me|know|wondering)\s+what\s+{_THING}\s+(?:is|are)\s+(?:actually\s+|really\s+)?"
    r"(?:(?:used|meant|designed|needed)\s+)?for\b(?P<rest>[^?.]*)[?.]?\s*$",
    r"^.*\b(?:explain|describe|tell me)\s+what\s+(?:the\s+|an?\s+)?(?P<x>(?-i:[A-Z])[\w&'’.-]*(?:\s+(?-i:[A-Z0-9])"
    r"[\w&'’.-]*){0,4})\s+(?:is|are)\s*[?.]?\s*$",
    # "I'm thinking of volunteering as a ward befriender - what would I actually be doing?"
    rf"^.*\bas\s+(?:an?|the)\s+{_THING}\s*[-–—,.;:]+\s*what\s+(?:would|will|do|does|should|might)\s+"
    r"(?:i|we|you|they|he|she)\s+(?:actually\s+|really\s+|be\s+)*(?:doing|do)\b(?P<rest>[^?]*)\??\s*$",
)]


def thing_described(question: str) -> tuple[str, str] | None:
    """(the thing, the rest) of a question asking what a thing does or is for; None for any other question
    ("what does it cost", "what do I pay", "what is the fee for X" are no such question)."""
    q = " ".join(question.split())
    for form in DESCRIBED:
        if (m := form.match(q)) is None:
            continue
        thing = re.sub(r"^(?:the|a|an)\s+", "", m.group("x").strip(), flags=re.I)
        rest = (m.groupdict().get("rest") or "").strip()
        if not thing or re.search(r"(?i)\b(?:cost|costs|pay|charge|mean|means|stand|living)\b", f"{thing} {rest}") or \
                re.search(r"(?i)\w+ed$", thing) and " " in thing or \
                thing.split()[-1].lower() in ATTRIBUTE_NOUNS:  # "the award named for", "the Reception Phone Number"
            return None
        return thing, rest
    return None


SUM_MODIFIERS = frozenset({"list", "average", "total", "retail", "ticket", "purchase", "sale", "sales", "base", "unit",
                           "annual", "monthly", "daily", "weekly", "starting", "full", "net", "gross", "asking"})


def _a_sum(doc: Any, text: str, attr: re.Match[str]) -> bool:
    """The noun a copula's "what" asks for names a sum: "the price of X", "the list price of Y", not a title
    ("The Price of Salt") nor another kind of cost ("the human cost of"). ``text``: the question's words in
    lower case, which ``attr`` matched."""
    toks = [t for t in doc if not t.is_punct][: len(text[: attr.end(1)].split())]  # as written
    said = [t.text for t in toks]
    modifiers = toks[2:-1]  # between "what is" and the noun
    modifiers = modifiers[1:] if modifiers and modifiers[0].lower_ in {"the", "its", "their", "his", "her"} else modifiers
    # "the annual council tax bill": a sum's words, or nouns in lower case that say what it is paid for
    return bool(said) and said[-1].islower() and \
        all(m.lower_ in SUM_MODIFIERS or (m.pos_ == "NOUN" and m.text.islower()) for m in modifiers)


def _singular(noun: str) -> str:
    return noun[:-3] + "y" if noun.endswith("ies") else noun[:-1] if noun.endswith("s") and not noun.endswith("ss") \
        else noun


class QuestionAnalyser:
    def __init__(self, extractor: SpacyExtractor) -> None:
        self.extractor = extractor

    def analyse(self, question: str) -> QuestionAnalysis:
        from kmrag.retrieval.analysis_zh import analyse_chinese, is_chinese_question

        if is_chinese_question(question):
            return analyse_chinese(question)
        doc = self.extractor.nlp(question)
        mentions = self._mentions(doc)
        words = [t.lower_ for t in doc if not t.is_punct]
        first = words[0] if words else ""
        answer_type = self._answer_type(doc, words)
        no_wh = not any(t.tag_ in {"WDT", "WP", "WP$", "WRB"} for t in doc)
        if answer_type == "ENTITY" and no_wh and (searched := _searched_kind(doc)):
            answer_type = searched  # "out of hours emergency number": a search box's phrase asks what its noun names
        # "A and B: were both directed by people from the same country?", "A and B — same-country directors?":
        # a yes / no question after its set-up, or one without a verb that asks whether they are the same
        asked = question.rstrip().endswith("?") and not (doc and doc[0].tag_ == "VB")  # not "Name a film ..."
        yes_no = first in AUX_START or (no_wh and asked and (_lead_after_setup(question) in AUX_START or
                                                             bool(SAME_WORD.search(question))))
        compared = self._compared(question, mentions, asks_yes_no=yes_no)
        mentions = list(dict.fromkeys([*mentions, *compared]))
        if yes_no and no_wh:
            kind: Kind = "comparison" if (compared or BOTH_SAME.search(question)) and len(mentions) >= 2 else "yes_no"
            answer_type = "YES_NO"
        elif compared and (COMPARATIVE.search(question) or _compares(doc, compared)):
            kind = "comparison"
            if first == "whose" or (first == "which" and answer_type == "PERSON" and len(doc) > 1 and
                                    (doc[1].lower_ == "one" or doc[1].pos_ not in {"NOUN", "PROPN"})):
                answer_type = "ENTITY"  # "Whose director died first, A or B?", "Which one was made by the
                # director who ...": one of A and B, not the person
        elif INFERRED.search(question):
            kind = "inference"
        else:
            kind = "factoid"
        sub = self._sub_question(question, mentions, doc) if kind in {"factoid", "inference"} else None
        if sub is not None and kind == "factoid":
            kind = "bridge"
        if answer_type == "PLACE" and sub is not None and sub.resolves_to == "PERSON" and ORIGIN.search(question):
            answer_type = "NATIONALITY"  # "Where is the director of X from?": "American", as "Which country ...?"
        return QuestionAnalysis(question=question, kind=kind, answer_type=answer_type, mentions=mentions,
                                compared=compared if kind == "comparison" else [], sub_question=sub)

    def _mentions(self, doc: Any) -> list[str]:
        return question_mentions(self.extractor, doc, thorough=True)

    @staticmethod
    def _answer_type(doc: Any, words: list[str]) -> str:
        text = " ".join(words)
        if HOW_MANY_TIME.search(text):
            return "NUMBER"  # "within how many days must it be paid": a count of days, not money
        if re.search(r"\bhow (much|many)\b.*\b(cost|costs|paid|pay|owed|worth|compensation|price|fee|eur|euros?|"
                     r"dollars?|pounds?)\b", text) or re.search(r"\bhow much (money|compensation)\b", text) \
                or re.search(r"\bhow much (?!time\b|longer\b|further\b)(?:\w+ ){0,4}(receive|get|be paid|paid|owed|claim|"
                             r"earn|refund(ed)?|entitled)\b", text) \
                or re.search(r"\bwhat (?:do|does|did|will|would|should|must) (?:i|we|you|they|he|she|one) (?:have to )?"
                             r"(?:pay|owe|be charged)\b", text) \
                or re.search(r"^what (?:do|does|did|will|would) (?!.*\bcost of living\b).{1,80}(?<!the )(?<!a )(?<!its )"
                             r"\bcost\b(?![-\w])", text):
            # "what do I pay for parking", "what will the part-time course cost"
            return "MONEY"
        if re.search(r"\bhow (many|much)\b", text) or re.search(MEASURED_BY_ADJECTIVE, text):
            return "NUMBER"  # "how accurate was X": its accuracy, a number
        if re.search(r"\bhow (long|far|tall|high|big|large|old|heavy|fast|quick|quickly|slow|deep|wide)\b", text):
            return "QUANTITY"
        if re.match(r"(?:and |so )?why\b", text):
            return "REASON"  # a cause, said in a clause: no name or value is the answer
        if re.match(r"(?:and |so )?how (?:did|does|do|is|are|was|were|can|could|has|have|had|will|would)\b", text) \
                and not re.search(r"\b(?:die|died|dies|death|finish|finished|rank|ranked|related)\b", text):
            return "MANNER"  # "How did X differ ...?", "How were they expelled?": a way, said in a clause
        if thing_described(doc.text) is not None:
            return "DESCRIBE"  # "What does Millstone do?", "What is the Ledger used for?": a clause describes it
        if (attr := ATTRIBUTE_ASKED.search(text)) and _singular(attr.group(1)) in NUMBER_NOUNS | MEASURE_NOUNS:
            return "NUMBER"  # "What is the average latency of X?", "What was the population of Y in 1900?"
        if (attr := ATTRIBUTE_ASKED.search(text)) and _singular(attr.group(1)) in MONEY_NOUNS and " or " not in text \
                and not re.search(r"\bcost of living\b", text) and _a_sum(doc, text, attr):
            return "MONEY"  # "What is the price of X?": a sum (not "which price is higher, A or B?")
        if re.search(r"\b(?:what|which) time\b(?! (?:period|frame|zone|span|scale|of (?:year|the year|life)))", text) \
                or re.search(r"\b(?:opening|closing|start|starting|finish|finishing|departure|arrival|kick-off|check-in|"
                             r"check-out) time\b(?!\s+for\b)", text):  # (not "the closing time for
            # applications", a date; "opening times" are a schedule)
            return "TIME"  # "What time does the clinic close on a Saturday?": a clock time ("12:00", "9:30am")
        asked = _asking_wh(doc)  # "when" / "where" that ask, not those of a relative clause ("the city where")
        if re.search(r"\b(what year|which year|what date|which date|in what year|date of|year of|"
                     r"(?:birth|death) (?:date|year)|birthdate|birthday)\b", text) or "when" in asked:
            return "DATE"
        if re.search(r"\b(?:what|which) (?:nationalit(?:y|ies)|citizenship)\b|\b(?:nationality|citizenship) of\b", text) or \
                re.search(r"^(?:which|what) (?:country|nation)\b(?=.*\b(?:is|was|are|were|come|comes|came)\b).*\bfrom$", text) or \
                re.search(r"^(?:of )?(?:which|what) country\b.*\b(?:an?|the) (?:citizen|national)(?: of)?$", text):
            return "NATIONALITY"  # "Which country is the director of X from?": "American" or "United States"
        if ("where" in asked or re.match(r"(?:from\s+)?(?:which|what)\s+(?:place|location)\b", text)) and _schooled(doc):
            return "ORG"  # "Where did X graduate from?", "From which place did X graduate?": a school, not a place
        if "where" in asked:
            return "PLACE"
        for tok in doc:  # "which company", "what city", "whose album"
            if tok.lower_ in {"which", "what", "whose"} and tok.head.pos_ in {"NOUN", "PROPN"} and tok.head != tok:
                # "What compensation is due ...?", "What fee ...?": a sum with its currency (not "Which price is
                # higher, A or B?": a choice; nor "the cost of living", "the human cost": no question word asks them)
                cls = noun_class(tok.head.lemma_) or ("MONEY" if tok.head.lemma_.lower() in MONEY_NOUNS and
                                                      " or " not in text else None)
                if cls:
                    return cls
        if not re.match(r"(?i)\s*(?:who|whom|whose)\b", doc.text) and \
                (m := re.search(r"\b(?:which|what)\s+(?:[A-Z][\w.-]*\s+){1,2}([a-z]+)\b", doc.text)) and \
                any(t.idx == m.start(1) and t.pos_ == "NOUN" for t in doc) and (cls := noun_class(m.group(1))):
            return cls  # "from which State capital", "which NFL team": a capitalised word before the noun
        if (cls := _fronted_wh_noun_class(doc)) is not None:
            return cls  # "In which city was X born?", "At which airport was X killed?" (the parser's "which" an object)
        if named := _named_noun_class(doc):
            return named  # "What is the name of the child of the president in office when ...?": a person
        if _subject_noun_class(doc) == "PLACE":
            return "PLACE"  # "What is the place of death of X?", "What is the birthplace of the artist who ...?" (the
            # "who" of a clause inside asks for no person)
        if re.search(r"\b(who|whom|whose)\b", text):
            return "PERSON"
        if re.search(r"\bwhere\b", text):  # "What is the name of the city where X was born?"
            return "PLACE"
        if re.search(r"\bwhen\b", text):
            return "DATE"
        return "ENTITY"

    @staticmethod
    def _compared(question: str, mentions: list[str], asks_yes_no: bool = True) -> list[str]:
        """The alternatives of "…, X or Y?" (the text on each side, which keeps titles the parser splits,
        like "The Mask Of Fu Manchu"), else the mentions on both sides of "or" (and of "and" in a yes / no
        question: "Are A and B both …?"; a wh-question offers its options with "or": "the system modelled after
        the United Kingdom and used in Canada" compares nothing)."""
        if options := offered(question):
            return options
        if not asks_yes_no and COMPARATIVE.search(question) and (pair := grouped(question, mentions)):
            return pair
        for m2 in (re.search(r"\b(or|and)\b" if asks_yes_no else r"\b(or)\b", question),
                   re.search(r"(?<=\bsame\b)[^?]*?\b(as)\b", question) if asks_yes_no else None,
                   re.search(r"\w(;)\s", question) if asks_yes_no else None):  # "A, Region; B, Region — are ...?"
            # "Is A in the same country as B, or are they ...?": the names on both sides of "as" when "or" has none
            if m2 and (pair := QuestionAnalyser._either_side(question, mentions, m2)):
                return pair
        return []

    @staticmethod
    def _either_side(question: str, mentions: list[str], m2: re.Match[str]) -> list[str]:
        left, right = question[: m2.start(1)], question[m2.end(1):]
        # the name that ends nearest the conjunction on its left, the one that starts nearest on its right; the
        # longer of two that end (start) there: "Proloy (Film)", not the "Film" inside it; the names without a
        # leading auxiliary or common noun ("Are Edmund Varga", "film East Side Story")
        named = [t for t in dict.fromkeys(re.sub(r"^(?:[a-z][\w-]*\s+)+", "", _trim(x)) for x in mentions) if t]
        la = sorted((x for x in named if x in left), key=lambda x: (left.rfind(x) + len(x), len(x)))
        rb = sorted((x for x in named if x in right), key=lambda x: (right.find(x), -len(x)))
        if not (la and rb):
            return []
        a, b = la[-1], rb[0]
        if m2.group(1) == "as":  # "Is A, a pupil of C, of the same nationality as B?": the subject, not C; and B
            # opens what follows "as" ("that of B", "the director of B"), not "the film directed by B"
            a = sorted((x for x in named if x in left), key=lambda x: (left.find(x), -len(x)))[0]
            if not re.match(rf"\s*(?:(?:that|those|the\s+one)\s+of\s+)?(?:the\s+[a-z]+\s+of\s+)?(?:the\s+)?"
                            rf"{re.escape(b)}", right):
                return []
        # a place named with its region, as titles are ("Khoshkabad, Isfahan and Dastjerd, Ardestan")
        before = re.search(rf"({'|'.join(re.escape(x) for x in named)}),\s*{re.escape(a)}\s*,?\s*$", left)
        after = re.match(rf"\s*{re.escape(b)},\s*({'|'.join(re.escape(x) for x in named)})\b", right)
        if m2.group(1) in {"and", ";"} and before and after:
            a, b = f"{before.group(1)}, {a}", f"{b}, {after.group(1)}"
        return [a, b]

    @staticmethod
    def _sub_question(question: str, mentions: list[str], doc: Any = None) -> SubQuestion | None:
        """The relational phrase around a mention that must be resolved first: "the director of film X",
        "X's founder", "the X performer", "the city where X is based". Textual patterns over the mentions, so a
        poor parse of the question does not lose them; where the parse has the relative clause a pattern found,
        the clause is taken whole (:func:`relative_phrases`)."""
        body = question.rstrip(" ?")
        names = [m for m in mentions if _is_name(re.sub(r"\s*\([^()]*\)$", "", m) or m)]
        if (sub := _described_by_clause(body, names)) is not None:
            return sub
        relative: list[tuple[str, str]] | None = None  # parsed once, when a pattern needs it
        skip = r"(?!(?:where|that|which|who|whose|when)\b)"
        for anchor in sorted(names, key=len, reverse=True):  # names, not phrases ending in a common noun
            a = re.escape(anchor) + r"(?!\s+[A-Z])"  # the whole name, not the start of a longer one
            found: list[tuple[str, str]] = []  # (phrase, relational noun)
            # the relational noun right before the name ("the date of birth of the performer of X": "performer")
            # ("the group behind X": "behind" is "of" for a maker)
            m = re.search(rf"\b(?:the|a|an)\s+(?:(?!of\b)[a-z][\w-]*\s+){{0,2}}?([a-z][\w-]*)\s+(?:of|behind)\s+(?:the\s+)?"
                          rf"(?:{skip}(?!of\b)[a-z]+\s+){{0,2}}[\"“]?{a}(?:{_KIND_AFTER})?(?!\w)[\"”]?", body)  # ("the
            # address of the Fenwick Green library": the library named with its kind noun is the phrase's end)
            if m:
                found.append((m.group(0), m.group(1)))
            m = re.search(rf"\b{a}\s?'s?\s+([a-z][\w-]*)(?:\s+([a-z][\w-]*))?", body)
            if m:
                words = [w for w in m.groups() if w]
                for i, w in enumerate(words):
                    if noun_class(w) or noun_class(w.rstrip("s")):
                        found.append((m.group(0)[: m.start(i + 1) - m.start()] + w, w))
                        break
            m = re.search(rf"\bthe\s+{a}\s+{skip}([a-z][\w-]*)\b", body)  # "the King who": no noun after
            if m and noun_class(m.group(1)) and not re.match(_NAMED_KIND, body[m.start(1) - 1:]):  # "the Fenwick
                # Green library" is that library, named with its kind noun, no hop
                found.append((m.group(0), m.group(1)))
            # "the (English) inventor that developed X", "the King who made X", "the 1940 film in which X appeared":
            # a noun, a modifier or two before it
            m = re.search(rf"\bthe\s+(?:{skip}[\w-]+\s+){{0,2}}?([A-Za-z][\w-]*)\s+(?:(?:in|on|at|for|with|by|from|to)\s+)?"
                          rf"(?:where|that|which|who|whom|whose)\s+"
                          rf"(?:[\"“]?[\w'-]+\s+){{0,4}}?[\"“]?"
                          rf"{a}(?:(?:\s+(?:is|was|are|were))?\s+(?!(?:and|or|but)\b)[a-z]+"
                          rf"(?:\s+(?:in|by|at|on|from)\b)?)?", body)
            if m and noun_class(m.group(1)):  # "the city where X is based"; the parse's clause when it has one
                if relative is None:
                    relative = relative_phrases(doc) if doc is not None else []
                whole = [(p, n) for p, n in relative if n == m.group(1).lower() and 0 <= (at := body.find(p)) <= m.start()
                         < at + len(p) and anchor in p]  # (a clause the parser cut short of the name is not whole)
                found.append(whole[0] if whole else (m.group(0), m.group(1)))
            elif not found and doc is not None and re.search(rf"\b(?:where|that|which|who|whom|whose)\b.*{a}", body):
                # a clause the patterns do not spell, the parse has it: "the studio album that includes the song
                # "Speed of Sound"" (a quoted title inside); one thing, so "the": "a song that ..." is any song
                if relative is None:
                    relative = relative_phrases(doc)
                found += [(p, n) for p, n in relative if re.search(rf"{a}(?!\w)", p) and p.lower().startswith("the ")]
            # "the 1940 film featuring X", "the 1940 film X appeared in", "the man X married": the clause inside a
            # phrase ("the mayor of the city X is based in") is what is resolved first
            for r, strong in _reduced_relative(body, a, skip):
                at = body.find(r[0])
                if strong or not found:
                    found = [f for f in found if not (body.find(f[0]) < at < body.find(f[0]) + len(f[0]))] + [r]
            for phrase, noun in sorted(found, key=lambda f: len(f[0])):  # the innermost phrase first
                if _asks_phrase(body, phrase):
                    return None  # the phrase is the question itself: nothing to resolve first
                if noun.lower() in EVENT_NOUNS:
                    continue  # "after the death of Sarah": a time, not a thing to name first
                cls = noun_class(noun) or noun_class(noun.rstrip("s")) or "ENTITY"
                wh = {"PERSON": "Who", "DATE": "When"}.get(cls, "What")
                return SubQuestion(phrase=phrase, question=f"{wh} is {phrase}?", resolves_to=cls, anchor=anchor,
                                   relation=noun)
        return None


# "X plays Y in a film directed by which director?": a statement about an unnamed thing ("a film"), then what is
# asked of it (a participle with "by which / whom", or a clause: "a scientist who died in which year")
_CLAUSE_THEN_ASKED = re.compile(r"^(?P<clause>(?!(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|"
                                r"does|did|has|have|had|in|on|at)\b)[^?]+?\s(?:in|on|at|for|from|with|of|to|as)\s+)"
                                r"(?:a|an)\s+(?P<mods>(?:[\w'-]+\s+){0,3}?)(?P<noun>[a-z][\w-]*)\s+"
                                r"(?:(?P<verb>[a-z]+(?:ed|en|wn))\s+by|(?:who|that)\s+(?:[a-z]+\s+){1,3}?"
                                r"(?:in|on|at|from|for|by|to|with))\s+(?:which|what|whom|who)\b", re.I)


def _described_by_clause(body: str, names: Sequence[str]) -> SubQuestion | None:
    """"Ed Marlow plays Tyler in a film directed by which director?": first "Ed Marlow plays Tyler in which film?"
    (its anchor the first name of the clause), then "<that film> directed by which director?"."""
    m = _CLAUSE_THEN_ASKED.match(body)
    cls = noun_class(m.group("noun")) if m else None
    if m is None or cls is None or re.search(r",|\b(?:who|whom|whose|which|that|where|when)\b", m.group("clause"), re.I) \
            or re.match(r"(?:name|give|tell|list|identify|find|state|according)\b", body, re.I):
        return None  # a statement of its own: not "Name the actor who ...", "According to X, ..."
    clause = m.group("clause")
    named = sorted((n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", clause)), key=clause.find)
    if not named:
        return None
    phrase = body[: m.end("noun")]
    return SubQuestion(phrase=phrase, question=f"{clause}which {m.group('mods')}{m.group('noun')}?", resolves_to=cls,
                       anchor=named[0], relation=m.group("noun").lower())


def _reduced_relative(body: str, anchor: str, skip: str) -> list[tuple[tuple[str, str], bool]]:
    """A relational noun joined to the name by a participle ("the 1940 film featuring X", "the album written by
    X") or by a clause without "that" ("the 1940 film X appeared in", "the country X is in", "the man X married"),
    each with whether it is plain (a participle, or "is" in the clause) or may be a title in apposition ("the
    film Metropolis" in "the director of the film Metropolis died")."""
    m = re.search(rf"\bthe\s+(?:{skip}[\w-]+\s+){{0,2}}?({skip}[a-z][\w-]*)\s+(?:[a-z]+(?:ing|ed)|written|known|made|"
                  rf"sung|shot|drawn|with)\s+(?:(?:by|in|on|at|from|with|for|of|as)\s+)?[\"“]?{anchor}", body)
    if m and noun_class(m.group(1)):
        return [((m.group(0).rstrip('"“'), m.group(1)), True)]
    # (a clause, not the question's own verb: "the director of the film X die" is no clause)
    m = re.search(rf"\bthe\s+(?:{skip}[\w-]+\s+){{0,2}}?({skip}[a-z][\w-]*)\s+[\"“]?{anchor}[\"”]?(?:\s+(?P<aux>is|was|are|were|"
                  rf"has|had))?\s+(?P<verb>(?!(?:and|or|but|is|was|are|were)\b)[a-z]+)"
                  rf"(?P<prep>\s+(?:in|on|at|for|from|with|by|of|to))?\b", body)
    stranded = m is not None and m.group("prep") is not None and re.match(r"\s*(?:[?,.]|$)", body[m.end():]) is not None
    # "What is the date of death of the man X married", "When did the man X married die": the question has a verb
    # of its own, so the one after the name is the clause's
    own_verb = m is not None and m.group("prep") is None and m.group("verb").endswith("ed") and (
        re.match(r"(?i)(?:what|which|who)\s+(?:is|was|are|were)\b", body) and not body[m.end():].strip()
        or re.match(r"(?i)(?:when|where|how|(?:what|which)\s+[a-z]+)\s+(?:did|does|do)\b", body)
        and re.fullmatch(r"\s+[a-z]+(?:\s+(?:from|in|at|for|to|on|with|of))?[\s?.]*", body[m.end():]))
    if m and noun_class(m.group(1)) and (m.group("aux") in {"is", "was", "are", "were"} or stranded or own_verb):
        # (not "the album Thriller recorded": a title in apposition and the question's own verb)
        return [((m.group(0), m.group(1)), m.group("aux") in {"is", "was", "are", "were"})]
    return []


def _subject_noun_class(doc: Any) -> str | None:
    """The kind of answer the subject noun of "What is the N of X?" names, by the analysis's noun lists."""
    if not len(doc) or doc[0].lower_ != "what" or doc[0].head.lemma_ != "be":
        return None
    subj = next((t for t in doc[0].head.children if t.dep_ == "nsubj" and t.i > 0), None)
    return noun_class(subj.lemma_) if subj is not None and subj.pos_ == "NOUN" else None


def _fronted_wh_noun_class(doc: Any) -> str | None:
    """The kind of the noun a question's first "which" / "what" goes with when a preposition leads ("In which city
    was X born?": a place), read from the words (the parser takes "which" for the preposition's object)."""
    for tok in doc[:2]:
        if tok.lower_ not in {"which", "what"} or tok.i == 0 or doc[tok.i - 1].pos_ != "ADP":
            continue
        j = tok.i + 1
        while j < len(doc) and (doc[j].pos_ in {"ADJ", "PROPN", "NUM"} or doc[j].dep_ == "compound" or doc[j].text == ","):
            j += 1
        if j < len(doc) and doc[j].pos_ == "NOUN" and not (j + 1 < len(doc) and doc[j + 1].lower_ == "of"):
            cls = noun_class(doc[j].lemma_)  # ("In which school of painting ...": a school of something, no ORG)
            return cls if cls in {"PLACE", "ORG", "PERSON", "WORK"} else None  # ("In which capacity / area ...":
            # no measure)
    return None


def _named_noun_class(doc: Any) -> str | None:
    """The kind of answer of "What is the name (title) of the N ...?": the kind N names, by the noun lists."""
    if not len(doc) or doc[0].lower_ != "what" or doc[0].head.lemma_ != "be":
        return None
    subj = next((t for t in doc[0].head.children if t.dep_ == "nsubj" and t.i > 0), None)
    if subj is None or subj.lemma_ not in {"name", "title"}:
        return None
    of = next((t for t in subj.children if t.dep_ == "prep" and t.lower_ == "of"), None)
    noun = next((t for t in of.children if t.dep_ == "pobj" and t.pos_ == "NOUN"), None) if of is not None else None
    return noun_class(noun.lemma_) if noun is not None else None


_QUOTED_OPTIONS = re.compile(r'["“]([^"“”]{1,80}?)[,.]?["”]\s*,?\s+or\s+["“]([^"“”]{1,80}?)[,.]?["”](?!\s*[A-Z])')


def offered(question: str) -> list[str]:
    """The options a question ends with: "Which facility was founded in Missouri, Discovery Zone or Valentino's?"
    (the text on each side of "or", which keeps titles the parser splits), or two quoted titles with "or" between
    them anywhere in it ("Which movie was filmed first "The Guest" or "You're Next"?"); [] when it offers none."""
    if q := _QUOTED_OPTIONS.search(question):
        return [q.group(1).strip(), q.group(2).strip()]
    m = re.search(r"(?:[,:;]|\s[-–—])\s*([^,:;]+?)\s+or\s+([^,:;?]+)\??\s*$", question)
    if m:
        # a title may start with a wh-word ("What Ever Happened to Baby Jane?"): a capitalised one before a name
        titled = re.match(r"(?:What|Who|Which|When|Where|Why|How)\s+[A-Z]", m.group(1).strip())
        a = m.group(1).strip().rstrip("?").strip() if titled else _trim(m.group(1))
        b = m.group(2).strip().rstrip("?").strip()
        if a and b and len(a.split()) <= 8 and len(b.split()) <= 8:
            return [a, b]
    return []


# the words that group two names ("out of", "which of", "older of")
_GROUP_WORD = (r"\bout\s+of\s+|\b(?:which|who|whom|one)\s+of\s+|\b(?:first|earlier|later|older|elder|younger|longer|"
               r"shorter|larger|bigger|smaller|higher|lower|more|less)\s+(?:of|between|among)\s+")
# two names set apart together: "Who was born earlier out of A and B?", "Comparing A with B, who ...?", "Of A and
# B, which ...?", "A vs B: who ...?" (after a boundary or a word that groups them, before a boundary)
_GROUPED = (r"(?:^(?:of|between|among|amongst)?\s*|[,:;]\s*|" + _GROUP_WORD + r")(?:the\s+)?{a}\s+(?:and|vs\.?|versus|or)\s+"
            r"(?:the\s+)?{b}\s*(?:[,:;?.]|$)",
            # "&" groups two names where a word does ("Which came first of A & B?"); "A & B" alone may be one name
            r"(?:^(?:of|between|among|amongst)\s+|" + _GROUP_WORD + r")(?:the\s+)?{a}\s+&\s+(?:the\s+)?{b}\s*(?:[,:;?.]|$)",
            # the options after the question ("Which premiered first? A or B", "... A / B"): "or" or a slash
            r"\?\s*(?:the\s+)?{a}(?:\s+or\s+|\s*/\s*)(?:the\s+)?{b}\s*(?:[?.]|$)",
            r"\b(?:comparing|compare)\s+(?:the\s+)?{a}\s+(?:with|to|and|against)\s+(?:the\s+)?{b}(?!\w)",
            # "A and B were both released; which came first?": a statement of the two, then the question
            r"^(?:the\s+)?{a}\s+and\s+(?:the\s+)?{b}\s+(?:are|were)\s+both\b[^?;:\u2014\u2013]*(?:[;:\u2014\u2013]|\s-)"
            r"\s*(?:which|who)\b")


SAME_WORD = re.compile(r"\bsame\b", re.I)
# the set-up a question opens with before its own clause: "A and B: were both ...?", "A — is it ...?"
_SETUP = re.compile(r"(?:[:;]|\s[\u2014\u2013-]+)\s*([A-Za-z]+)\b[^:;\u2014\u2013]*$")
# an opening phrase before the question's clause: "As an MSc student, am I allowed ...", "If I move, do I ..."
_OPENING = re.compile(r"(?i:as|for|in|on|at|after|before|during|if|with|since|once|by)\b[^,?:;]{1,80},\s*([A-Za-z]+)\b")


# a body or a place a name names with its kind noun after it, the phrase ending there ("the Fenwick Green library?",
# "the Carrow treatment works,"): the name of that thing, no hop to another
_KIND_AFTER = r"\s+(?:" + "|".join(sorted((ORG_NOUNS | PLACE_NOUNS) - {"capital", "where", "when"})) + r")s?"
_NAMED_KIND = _KIND_AFTER + r"\s*(?:[,.?;]|$)"


def _searched_kind(doc: Any) -> str | None:
    """The kind of value a search box's phrase asks for, by its last noun ("emergency number", "head office
    address" is no kind), when the phrase has no verb; None for a sentence."""
    if any(t.pos_ in {"VERB", "AUX"} for t in doc):
        return None
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    nouns = [t for t in doc if t.pos_ == "NOUN"]
    words = [t for t in doc if not t.is_punct]
    if not nouns or not words or nouns[-1] != words[-1] or (root is not None and root.pos_ == "NOUN" and root != nouns[-1]):
        return None  # the phrase ends on the noun that heads it ("HQ state?"), not on a name after it ("birthplace of
        # the performer of Dragon Dreams") nor on a noun another heads ("lead vocalist on X's album")
    cls = noun_class(nouns[-1].lemma_.lower())
    return cls if cls != "NUMBER" or nouns[-1].lemma_.lower() == "number" else None  # ("tour length": a measure
    # with its unit, not any number of the span)


def _compares(doc: Any, names: Sequence[str]) -> bool:
    """A comparative or superlative the parser tells by its form ("stronger", "cheaper", "most bitter"), outside
    the names compared ("Greater Manchester or Leeds": a name's word)."""
    inside = " ".join(names).lower().split()
    return any(t.tag_ in {"JJR", "RBR", "JJS", "RBS"} and t.lower_ not in inside for t in doc)


def _lead_after_setup(question: str) -> str:
    """The first word of the question's own clause after a set-up ("A and B: were both ...?": "were"); ""
    when it has none."""
    m = _SETUP.search(question.strip()) or _OPENING.match(question.strip())
    if m is None:
        return ""
    clause = re.findall(r"[A-Za-z][\w'-]*", question.strip()[m.start(1):])
    if len(clause) > 1 and all(w[0].isupper() for w in clause):
        return ""  # "the film Grey Orchard: Is It Over?": a title's second half, not a question of its own
    return m.group(1).lower()


def grouped(question: str, mentions: Sequence[str]) -> list[str]:
    """The two names a comparison sets apart with "and", "with" or "vs"; each side one of the question's names,
    whole ([] otherwise: "the film released first in the UK and Canada" compares nothing)."""
    names = sorted({re.sub(r"^(?:the|comparing|compare|between|among|amongst|of|out\s+of)\s+", "", m.strip(), flags=re.I)
                    for m in mentions if m.strip()}, key=len, reverse=True)  # "Comparing Jane Austen": the parser's
    for a in names:
        for b in names:
            if a.lower() != b.lower() and any(re.search(p.format(a=re.escape(a), b=re.escape(b)), question.strip(), re.I)
                                              for p in _GROUPED):
                return [a, b]
    return []


def _asking_wh(doc: Any) -> set[str]:
    """The words "when" and "where" that ask: opening the question ("When ...", "From where ...") or a clause of
    it after a comma ("In the city where X died, when was ..."); not those inside it ("Who is the Chief Justice of
    the country where X is located?" asks for a person, "Who was president when the war ended?" too)."""
    out = set()
    for t in doc:
        if t.lower_ in {"when", "where"}:
            before = [w for w in doc[: t.i] if not w.is_space and w.pos_ not in {"CCONJ", "INTJ"}]  # "And when ..."
            if not before or before[-1].text in {",", ";", ":", "\u2014", "\u2013", "-"} or (len(before) == 1 and before[0].pos_ == "ADP"):
                out.add(t.lower_)
    return out


_SCHOOLED = frozenset({"graduate", "study", "educate", "matriculate"})


def _schooled(doc: Any) -> bool:
    """Does the question's main verb ask where one studied ("Where did X graduate from?", "Where was X educated?")?"""
    if any(t.lemma_.lower() in {"degree", "diploma", "doctorate", "phd"} and t.dep_ in {"dobj", "pobj"}
           and any(c.dep_ == "poss" for c in t.children) for t in doc):
        return True  # "Where did she get her degree?"
    if re.search(r"\b(?:graduate|study|matriculate|educated|(?:go|went)\s+to\s+(?:college|university|school))"
                 r"(?:\s+from)?\s*\??\s*$", doc.text, re.I):
        return True  # "Where did X's wife graduate?": the verb ending the question (the parser may take it for a noun)
    return any(t.lemma_.lower() in _SCHOOLED and (t.dep_ in {"ROOT", "dobj"} or t.pos_ == "VERB" and t.dep_ in {"conj", "xcomp"})
               for t in doc)  # (the main verb after a clause, "Where did the woman X married graduate from?", which
    # the parser may read as a noun; not "the man who graduated from Yale", nor "his graduate studies")


def _asks_phrase(body: str, phrase: str) -> bool:
    """Is the phrase what the question asks for ("Who is the actor who played X", "Who is this cartoonist,
    writer, and voice actor that worked with X"), not a part of it ("Who was married to the star of X")?"""
    # "Which railway is a part of X and also runs between Y and Z": a second predicate of the answer; after a
    # relative clause ("the general who received X, and was the first ...") it goes on that clause instead
    more = "" if re.search(r"\b(?:who|whom|whose|which|that|where)\b", phrase, re.I) else _SECOND_PREDICATE
    m = re.fullmatch(rf"(?:who|what|which (\w+))\s+(?:is|was|are|were)\s+(.*?){re.escape(phrase)}{more}", body, re.I)
    if m is not None and m.group(1) and phrase.lower().split()[-1] in _GAP_WORDS and \
            phrase.lower().split()[-2:-1] != [] and phrase.lower().split()[-2] in _GAP_WORDS:
        return False  # "Which league was the team that X was a member of in?": a league (in it), not the team
    return m is not None and not any(
        w in _GAP_WORDS or w.endswith("ed") for w in re.findall(r"[a-z][\w-]*", m.group(2).lower()))


_GAP_WORDS = {"of", "to", "in", "on", "at", "by", "for", "from", "with", "about", "into", "than"}
# "... and also runs between X": a verb phrase after "and", not a name ("and Golden Harvest") nor a second question
# ("and what is his nationality")
_SECOND_PREDICATE = (r"(?:,?\s+(?:and|but)\s+(?:also\s+)?(?!(?:who|whom|whose|what|which|when|where|why|how|is|was|"
                     r"are|were|do|does|did|has|have|had)\b)(?-i:[a-z]+)\b.*)?")
_RELATIVE_WH = {"how", "what"}  # a clause holding the question's own wh-word is the asking part
_RELATIVISERS = {"that", "which", "who", "whom", "whose", "where", "when"}


def relative_phrases(doc: Any) -> list[tuple[str, str]]:
    """The noun phrases of the question that a relative clause describes, as (phrase, head noun): "the 1940
    film in which John Arledge appeared", "the airline that operates the Delhi to Munich flight" (of "When was
    the airline that operates the Delhi to Munich flight founded?": the question's own verb at the end, which
    the parser often hangs inside the clause, is left out). Only heads of a kind questions ask about
    (:func:`noun_class`), never the asked phrase ("Which film that ...") nor a clause that holds the question's
    wh-word ("a book that sold how many copies")."""
    out = []
    for clause in doc:
        head = clause.head
        if clause.dep_ != "relcl" or clause.pos_ not in {"VERB", "AUX"} or head.pos_ not in {"NOUN", "PROPN"}:
            continue
        noun = head.lower_ if noun_class(head.lower_) else head.lemma_.lower()
        if not (noun_class(noun) or noun_class(noun.rstrip("s"))):
            continue
        start, end = _phrase_start(doc, head), clause.right_edge.i + 1
        first = clause.left_edge
        rel = doc[first.i + 1] if first.pos_ == "ADP" and first.i + 1 < len(doc) else first
        opens = rel.lower_ in _RELATIVISERS and rel.dep_ != "det"  # not "from which State capital"
        if not opens or doc[start].lower_ in {"which", "what", "whose"} or any(
                t.lower_ in _RELATIVE_WH for t in doc[first.i: end]) or any(
                t.lower_ in _RELATIVISERS | _RELATIVE_WH for t in doc[start: first.i]):
            continue
        end = _without_question_verb(doc, start, end)
        if end < len(doc) and doc[end].text in {'"', "”"} and doc[start:end].text.count('"') % 2:
            end += 1  # the closing quote of a title
        if end > head.i + 1:
            out.append((doc[start:end].text, noun))
    return out


def _phrase_start(doc: Any, head: Any) -> int:
    """Where the noun phrase of ``head`` starts: its left edge, or the determiner before it when only names,
    modifiers and commas stand between ("the Sayrevill, New Jersey rock band")."""
    start = head.left_edge.i
    for i in range(start - 1, max(-1, start - 6), -1):
        tok = doc[i]
        if tok.lower_ in {"the", "a", "an"}:
            return i
        if tok.pos_ not in {"PROPN", "ADJ", "NOUN", "NUM", "PUNCT"} or tok.text in {'"', "?", ":", ";"}:
            break
    return start


def _without_question_verb(doc: Any, start: int, end: int) -> int:
    """The end of the phrase without the question's own verb the parser ran into it: "When was [the airline
    that operates the ... flight] founded?" -- a participle (and its particle) ending the question, whose
    wh-part ends with an auxiliary right before the phrase and has no verb of its own."""
    words = [t for t in doc if not t.is_punct]
    if not words or words[-1].i >= end or words[-1].i < start:
        return end
    last = words[-1].i
    verb = last - 1 if (doc[last].pos_ in {"ADP", "PART"} or doc[last].dep_ == "prt") and last - 1 > start else last
    aux = doc[start - 1] if start > 0 else None
    if aux is not None and aux.lower_ in AUX_START and (
            doc[verb].pos_ == "VERB" or verb < last and aux.lower_ in {"do", "does", "did"}) and \
            not any(t.pos_ == "VERB" for t in doc[: start - 1]):
        return verb
    return end


def question_mentions(extractor: SpacyExtractor, doc: Any, thorough: bool = True) -> list[str]:
    """The entity mentions of a parsed question: named entities (not dates) and proper-noun chunks;
    ``thorough`` also strips leading verbs from the chunks and adds runs of capitalised words. A question in
    Chinese: its names and noun runs (kmrag.retrieval.analysis_zh)."""
    from kmrag.retrieval.analysis_zh import analyse_chinese, is_chinese_question

    if is_chinese_question(doc.text):
        return analyse_chinese(doc.text).mentions
    ex = extractor.from_doc(doc, with_triples=False)
    found = [e.name for e in ex.entities if e.label != "DATE"]
    chunks = [c for c in doc.noun_chunks if any(t.pos_ == "PROPN" for t in c)]
    found += [clean_name(_strip_verbs(c) if thorough else c.text) for c in chunks]
    if thorough:
        found = [*_bracketed_titles(doc.text), *found, *_capitalised_runs(doc)]
    # a name with its bracket first ("Society Girl (1932 Film)"), then as the graph may know it ("Society Girl")
    verbs = {t.text for t in doc if t.pos_ in {"VERB", "AUX"} and t.text.islower()}
    found = [x for m in found for x in (_closed(_untail(m, verbs), doc.text),
                                        re.sub(r"\s*\([^)]*$", "", _untail(m, verbs)))]
    return [m for m in dict.fromkeys(found) if m and (not thorough or any(c.isalnum() for c in m))
            and not _asked_phrase(m, doc.text)]


def _asked_phrase(mention: str, question: str) -> bool:
    """Is ``mention`` the phrase a question asks for, a name describing the noun it asks about ("what Hawaii
    county", "which Jane Austen novel"): the answer, not a thing it names?"""
    phrase = re.sub(r"^(?:what|which)\s+", "", mention, flags=re.I)  # "Which Jane Austen novel" at the start
    last = phrase.split()[-1] if phrase.split() else ""
    return last.islower() and bool(noun_class(last) or noun_class(last.rstrip("s"))) and re.search(
        rf"\b(?:what|which)\s+{re.escape(phrase)}(?!\w)", question, re.I) is not None


def _is_name(text: str) -> bool:
    """A name, not a phrase ending in a common noun ("East Side Story" of "East Side Story (1997 film)"); a title
    may end in a lower-case word that is no noun of what questions ask about ("La fida ninfa", not "Montecchi
    comic operas")."""
    words = text.split()
    if not words:
        return False
    last = words[-1]
    return last[:1].isupper() or last[:1].isdigit() or (
        len(words) >= 3 and text[:1].isupper() and not noun_class(last) and not noun_class(last.rstrip("s")))


_PARTICLES = {"de", "van", "von", "da", "di", "du", "la", "le", "al", "el", "bin", "ibn", "ben", "del", "der", "dos"}


def _untail(mention: str, verbs: set[str]) -> str:
    """A name without the question's verbs the parser ran on into it ("Specter Of The Rose die") nor the
    common noun it was run on from ("film East Side Story"); a name may hold lower-case words ("La fida
    ninfa") and starts with a capitalised word or a particle ("de Gaulle")."""
    words = mention.split()
    while len(words) > 1 and words[-1] in verbs:
        words.pop()
    while len(words) > 1 and re.fullmatch(r"[a-z][a-z-]*", words[0]) and words[0] not in _PARTICLES:
        words.pop(0)
    return " ".join(words)


def _closed(mention: str, question: str) -> str:
    """A name with the bracket the question writes after it, or whose closing bracket the cleaning cut:
    "French Without Tears (Film)", "Proloy (Film)" (titles are told apart so)."""
    if mention.count("(") > mention.count(")"):
        m = re.search(re.escape(mention) + r"[^()]{0,40}?\)", question)
        return m.group(0) if m else mention
    m = re.search(re.escape(mention) + r"\s?\([^()]{1,40}\)", question)
    return m.group(0) if m and mention.count("(") == mention.count(")") == 0 else mention


def _trim(text: str) -> str:
    words = text.strip().rstrip("?").split()
    while words and words[0].lower() in {"who", "what", "which", "is", "was", "are", "were", "did", "does", "do",
                                          "first", "earlier", "older", "younger", "between"}:
        words = words[1:]
    return " ".join(words)


def _strip_verbs(chunk: Any) -> str:
    toks = list(chunk)
    while toks and toks[0].pos_ in {"AUX", "VERB", "PRON", "SCONJ", "ADV"} and not _hyphened(toks, 0):
        toks = toks[1:]
    # "multi-hop RAG" stays one word: the parser's "multi" is no adverb to strip, nor "-" a word of its own
    return "".join(t.text + ("" if _hyphened(toks, i) else " ") for i, t in enumerate(toks)).strip()


def _hyphened(toks: list[Any], i: int) -> bool:
    """Whether token ``i`` is written against the next with a hyphen between ("multi" "-" "hop")."""
    return i + 1 < len(toks) and not toks[i].whitespace_ and "-" in {toks[i].text, toks[i + 1].text}


CONNECTORS = {"of", "the", "de", "la", "le", "von", "van", "der", "du", "del", "da", "in", "on", "for", "&",
              "dos", "das", "di", "bin", "ibn", "ben", "al", "el", "ter", "zu"}  # "Nelson Pereira dos Santos"


# a title with the bracket that tells it apart, small words and all: "Once There Was a War (film)"
_BRACKETED = re.compile(r"(?<![\w'’])[A-Z0-9][\w'’.-]*(?:\s+(?:[A-Z0-9][\w'’.-]*|a|an|the|of|de|la|le|von|van|der|"
                        r"du|del|da))*\s?\([^()]{1,40}\)")  # not "in" / "with": "Tom Hanks in Big (1988 film)"


def _bracketed_titles(text: str) -> list[str]:
    """Titles written with their bracket, whose small words split them for the parser ("Once There Was a War
    (film)" is not "Once There Was" and "War (film)"); the question's first word is no part of one."""
    out = []
    for m in _BRACKETED.finditer(text):
        words = m.group(0).split()
        if m.start() == 0 and len(words) > 1 and words[0].lower() in AUX_START | {"who", "what", "which", "when",
                                                                                    "where", "how", "whose"}:
            words = words[1:]
        while words and words[0].islower():
            words = words[1:]
        if len(words) > 1:
            out.append(" ".join(words))
    return out


def _capitalised_runs(doc: Any) -> list[str]:
    """Runs of capitalised words (titles the parser splits: "Polish Wedding", "The Mask Of Fu Manchu");
    the question's first word counts only if it is a proper noun."""
    runs: list[str] = []
    cur: list[Any] = []

    def close() -> None:
        while cur and cur[-1].lower_ in CONNECTORS:
            cur.pop()
        if cur:
            runs.append(" ".join(t.text for t in cur))
        cur.clear()

    for tok in doc:
        cap = tok.text[:1].isupper() and (tok.i > 0 or tok.pos_ == "PROPN") and tok.tag_ not in {"WP", "WDT", "WRB"}
        if cap or tok.like_num and cur:
            cur.append(tok)
        elif cur and tok.lower_ in CONNECTORS:
            cur.append(tok)
        else:
            close()
    close()
    return [clean_name(r) for r in runs if r]
