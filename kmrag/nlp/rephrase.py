"""A question asked as a request, with its alternatives up front, or with a relative clause where a
relational noun would do, put as the direct question the analysis reads.

People ask "Tell me whether A and B are in the same country.", "Give the date on which the father of X was
born.", "Between A and B, who lived longer?", "Which nationality does the person who directed X have?". The
question analysis (kmrag.retrieval.analysis) reads direct questions: "Are A and B in the same country?",
"When was the father of X born?", "Who lived longer, A or B?", "What nationality is the director of X?".
Each rule here is a form of English, not a wording of any dataset; a question none applies to comes back as
it was, and ``rephrase`` is idempotent. Chinese questions are left alone.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from kmrag.nlp.kin import PARTICLES
from kmrag.nlp.typed import ASKING, spelled_out

# "tell me", "I'd like to know", "can you tell me", "I wonder", "please say" ... before an embedded question
_ASK = (r"(?:(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?(?:tell|show)\s+me|"
        r"i(?:'d| would)\s+like\s+to\s+(?:know|find\s+out|learn)|i\s+(?:want|need|wish)\s+to\s+(?:know|find\s+out|learn)|"
        r"i\s+wonder|i'm\s+wondering|"
        r"i\s+am\s+wondering|i'm\s+curious|i\s+am\s+curious|do\s+you\s+know|let\s+me\s+know|find\s+out|say|check|"
        r"help\s+me\s+(?:find\s+out|find|figure\s+out|work\s+out)|(?:any|got\s+any)\s+idea|"
        r"(?:please\s+)?(?:remind\s+me|let\s+me\s+know)|i\s+was\s+wondering|i\s+(?:forget|forgot|can't\s+remember)|"
        r"(?:does\s+)?any(?:one|body)\s+know|(?:would|do)\s+you\s+(?:happen\s+to\s+)?know|"
        r"you\s+(?:wouldn't|would\s+not|don't|do\s+not)\s+(?:happen\s+to\s+)?know|(?:can|could)\s+you\s+confirm|"
        r"i(?:'ve|\s+have)\s+been\s+trying\s+to\s+(?:find\s+out|figure\s+out|work\s+out|remember)|"
        r"i(?:'m|\s+am)\s+trying\s+to\s+(?:find\s+out|figure\s+out|work\s+out|remember)|"
        r"(?:someone|somebody|a\s+friend)\s+asked\s+me)")
_EMBEDDED = re.compile(rf"^\s*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?{_ASK}\s*,?\s+"
                       r"(whether|if|who|whom|whose|what|when|where|which|why|how)\b\s*(.*)$",
                       re.I | re.S)
_TRUE_THAT = re.compile(r"^\s*(?:is\s+it\s+(?:true|the\s+case|correct)|(?:is|was)\s+it\s+so)\s+that\s+(.*)$",
                        re.I | re.S)
# "Give the birth date of X", "Name the film whose director ...", "Identify which of A and B ..."
_IMPERATIVE = re.compile(r"^\s*(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
                         r"(?:give|state|name|identify|provide|list|find\s+out|figure\s+out|work\s+out|find|say|tell|"
                         r"look\s+up|specify|determine|indicate|mention|i(?:'d|\s+would)\s+(?:like|love)\s+to\s+know|"
                         r"do\s+you\s+know|i\s+need|i\s+want|"
                         r"i'm\s+looking\s+for|i\s+am\s+looking\s+for|looking\s+for|help\s+me\s+find)\s+(?:me\s+|us\s+)?(.*)$",
                         re.I | re.S)
# a year asked for ("in which year", "the year in which", "X was founded in what year?")
_YEAR = re.compile(r"\b(?:publication|release|founding|completion|construction|opening|birth|death)\s+year\b|\b(?:what|which)\s+year\b|\byear\s+(?:in\s+which|when|that)\b|(?<!\bof\s)\bthe\s+year\b", re.I)
# "On what date did X die?" (not "On which day of the week ...", "In what time zone ...")
_WH_DATE = re.compile(r"^(?:on|in|at)\s+(?:what|which)\s+(?P<noun>date|day|year|place|location)\s+"
                      r"((?:did|does|do|was|were|is|are|will|has|had|have)\b.*)$", re.I | re.S)
# "the date on which S V", "the place where S V", "the year in which S V"
_NOUN_CLAUSE = re.compile(r"^the\s+(date|day|year|month|time|place|city|town|country|location|county|state|region|"
                          r"province|district|village|island|nation)\s+"
                          r"(?P<rel>on\s+which\s+|in\s+which\s+|at\s+which\s+|when\s+|where\s+|that\s+|(?=the\s|(?-i:[A-Z])|(?:he|she|they|it|we|i)\s))(.*)$",
                          re.I | re.S)
# kinds of place asked by name ("the county where X is located" asks which county, not any place in it)
_PLACE_KINDS = frozenset("county state region province district village island nation".split())
# the alternatives are names: capitalised or quoted, not numbers ("Between 1950 and 1960, who ...?" is a span of
# time), at most eight words each
_ALT = r"(?-i:[A-Z\"“'‘])\S*?(?:\s+\S+?){0,7}?"  # (a one-letter first word: "I Am A Camera")
_FRONTED = [re.compile(r"^\s*(?:between|of|out\s+of|among|(?:thinking|talking)\s+(?:about|of)|considering|comparing|"
                       rf"regarding|as\s+for|looking\s+at)\s+(?:the\s+(?-i:[a-z][\w-]*\s+){{0,4}})?({_ALT})\s+and\s+"
                       rf"({_ALT}),\s*(?:{_ASK}\s+)?((?:who|which|what|whose)\b.*)$", re.I | re.S),
            re.compile(r"^\s*(?!(?:did|does|do|is|are|was|were|if|whether|who|what|which|when|where|how|in|on|at|to|"
                       rf"from|for|by|with|of|according|after|before|during|since|until)\b)({_ALT})"
                       rf"\s+(?:or|/)\s+({_ALT})\s*(?:[:;,]|\s[-\u2013\u2014])\s*((?:[^?]*?\s)?(?:who|which|what|whose)\b.*)$",
                       re.I | re.S)]
# "A & B: which came out first?", "A, B - who was born earlier?": a pair listed with "&" or a comma, then a
# question that compares (a cue word) and has no pronoun of one of them ("Marks & Spencer: when was it founded?")
# (each a name: capitalised words, a few small words between, a bracketed tag; no "and", "or" or comma inside)
_LISTED = (r"(?-i:[A-Z0-9\"“'‘])[\w'’.\"”-]*(?:\s+(?:(?-i:[A-Z0-9\"“'‘])[\w'’.\"”-]*|(?-i:of|de|la|von|van|the|a|an|"
           r"in|on|to|for|at|by|with)|\([^()]{1,40}\)))*?")
_LISTED_PAIR = re.compile(r"^\s*(?!(?:did|does|do|is|are|was|were|if|whether|who|what|which|when|where|how|in|on|at|"
                          rf"to|from|for|by|with|of)\b)({_LISTED})\s*(?:\s&|,|\sand)\s+({_LISTED})\s*(?::|\s[-\u2013\u2014])\s*"
                          r"((?:which|who)\b[^?]*\??)\s*$", re.I | re.S)
# "Titanic or Avatar - released first?", "A vs B: older?": a pair, then only the words that compare them
_TERSE_CHOICE = re.compile(rf"^\s*({_LISTED})\s+(?:or|vs\.?|versus)\s+({_LISTED})\s*(?::|,|\s[-\u2013\u2014])\s*"
                           r"((?-i:(?:more|less)\s+[a-z]+(?:ous|ful|ive|al|ic|able|ible|ent|ant|ular)|"
                           r"(?P<done>released|born|made|built|founded|formed|established|created|published|written|"
                           r"directed|produced|opened|launched|shot|sung|recorded|started|set\s+up|discovered|invented|"
                           r"completed)(?:\s+(?:first|earlier|later|last|sooner|more\s+recently))?|first|last|"
                           r"(?:young|old|long|short|tall|small|bigg|larg|new|earli|lat|high|low|great|heavi|rich|"
                           r"wealthi)er))\s*\??\s*$")
_PICKS_ONE = re.compile(r"(?i)^(?:which|who)\s+(?:one\b|of\s+(?:them|the\s+two|these|those|both)\b)")
_PICKS_BY_VERB = re.compile(r"(?i)^(?:which|who)\s+(?:is|was|are|were|has|had|have|did|does|do|came|comes|got|went|"
                            r"lived|died|opened|started|began|appeared|(?-i:[a-z]+ed))\b")
_ONE_PRONOUN = re.compile(r"(?i)\b(?:he|she|it|him|her|his|its|hers|there)\b")
# "Which of A and B was born later?" / "Which one of A and B ..." -> "Which was born later, A or B?"
_WHICH_OF = re.compile(rf"^\s*(which|who)(?:\s+one)?\s+of\s+(?:the\s+(?:two\s*,?\s*)?(?:(?-i:[a-z][\w-]*)\s+)?)?"
                       rf"({_ALT})\s+and\s+({_ALT})\s+"
                       r"((?:is|was|are|were|has|had|did|does|do|came|died|lived|got|won|made)\b.*)$", re.I | re.S)
# "A and B: are they in the same country?" / "A and B - are both of them operas?" -> "Are A and B ...?"
_TOPIC = re.compile(r"^\s*(.+?)\s*(?::|\s[-\u2013\u2014])\s*(is|are|was|were|do|does|did|have|has|had)\s+"
                    r"(they\s+both|both\s+of\s+them|they|it|he|she|(?:these|those|the)\s+two(?:\s+(?-i:[a-z][\w-]*s)\b)?|"
                    r"these|those)\b\s*(.*)$", re.I | re.S)  # ("are these two movies from ...": the pair)
# "A and B — do their directors come from the same country?": a topic, then a question with one pronoun for it
_TOPIC_ASKED = re.compile(r"^\s*(.+?)\s*(?::|\s[-\u2013\u2014])\s*((?:is|are|was|were|do|does|did|have|has|had|who|"
                          r"whom|whose|what|which|when|where|how|in|on|at|from)\b.+\?)\s*$", re.I | re.S)
# "The founder of X, when did he die?": a noun phrase, a comma, then the question about it (the topic no clause);
# the question about a comma topic asks of it with its one pronoun, and its wh-word asks with a noun or alone
# ("which band did he ...", "when did he ..."; not "which did he write", "how many does he have": those ask of
# the topic's members)
_TOPIC_COMMA_ASKED = re.compile(r"^\s*(?!(?:for|about|in|on|at|by|with|from|to|during|after|before|since|as|like|unlike|"
                                r"her|his|its|their|my|our|your|this|that|if|when|while|although|though|because|okay|ok|so|"
                                r"well|hey|um)\b)((?:the\s+|(?-i:[A-Z]))[^,?]{1,80}?)\s*,\s*((?:who|whom|whose|when|where|why|"
                                r"(?:what|which)(?!\s+(?:is|was|are|were|do|does|did|has|have|had)\s+(?:he|she|it|they)\b)|"
                                r"how\s+(?:old|long|tall))"
                                r"\b[^,?]+\?)\s*$", re.I)
_ANY_PRONOUN = re.compile(r"(?i)\b(?:he|she|it|they|him|her|them|his|its|their|hers|theirs)\b")
_VERB_WORD = re.compile(r"(?i:\b(?:is|are|was|were|be|been|did|does|do|has|have|had|i|you|we)\b)|\b(?-i:[a-z]+ed)\b")
# "A vs B: film with the earlier-born director" -> "Which film with the earlier-born director, A or B?"
_VERSUS = re.compile(r"^\s*(.+?)\s+(?:vs\.?|versus)\s+(.+?)\s*(?::|\s[-\u2013\u2014])\s*(.+?)\s*$", re.I | re.S)
# words people use for the same thing the analysis reads in one form
# a name of a pair typed as a subject: capitalised words, "of"/"de"/"the" between, a place after its comma
# ("Peak Pobeda, Sakha"), a bracketed tag ("City Police (Film)")
_PAIR_NAME = r"(?-i:[A-Z])[\w'’.-]*(?:,?\s+(?:(?-i:[A-Z])[\w'’.-]*|of|de|la|von|van|the|\([^()]{1,40}\)))*"
# the past tense of the verbs of coming out ("Did A come out before B ...?": which came out first)
_PAST_VERB: dict[str, str] = {"come": "came", "appear": "appeared", "premiere": "premiered", "open": "opened",
                              "debut": "debuted"}
_SAME_WORDS = [(re.compile(r"\bpass(?:ed)?\s+away\b", re.I), lambda m: "died" if "ed" in m.group(0).lower() else "die"),
               (re.compile(r"\bpasses\s+away\b", re.I), lambda m: "dies"),
               (re.compile(r"\b(what|who|where|when|how)'s\b", re.I), lambda m: f"{m.group(1)} is"),
               (re.compile(r"\b(birth|death)\s+date\b", re.I), lambda m: f"date of {m.group(1).lower()}"),
               (re.compile(r"(?-i:\bbirth-?date\b)"), lambda m: "date of birth"),
               (re.compile(r"(?-i:\bhubby\b)"), lambda m: "husband"),
               # "A's native country", "the native country of X": a person's nationality
               (re.compile(r"(\bthe|['’]s)\s+(?:native|home)\s+country\b(?=\s+(?:of\b|the\s+same\b|as\b|and\b|\?))", re.I),
                lambda m: f"{m.group(1)} nationality"),
               (re.compile(r"(?-i:\bwifey\b)"), lambda m: "wife"),
               (re.compile(r"\bone\s+and\s+the\s+same\b", re.I), lambda m: "the same"),
               # "On what day of the year was X born?": the date (day and month), not the year
               (re.compile(r"\b(what|which)\s+day\s+of\s+the\s+year\b", re.I), lambda m: f"{m.group(1)} date"),
               # "X's birthplace belongs to which county?": the county it is in
               (re.compile(r"^(.{2,80}?)\s+belongs?\s+to\s+(?:which|what)\s+(county|state|country|province|region|"
                           r"district)\s*\?$", re.I), lambda m: f"Which {m.group(2).lower()} is {m.group(1)} in?"),
               (re.compile(r"^(?:which|what)\s+(county|state|country|province|region|district)\s+(?:does|do)\s+(.{2,80}?)"
                           r"\s+belong\s+to\s*\?$", re.I), lambda m: f"Which {m.group(1).lower()} is {m.group(2)} in?"),
               # "List the occupations shared by A and B": what both have
               (re.compile(r"^(?:list|name|give|state|what\s+are)\s+(?:me\s+)?the\s+(\w+)\s+(?:shared\s+by|common\s+to)\s+"
                           r"(.{2,60}?)\s+and\s+(.{2,60}?)\s*[.?]?$", re.I),
                lambda m: f"What {m.group(1).lower()} do both {m.group(2)} and {m.group(3)} have?"),
               # "Did A come out before B, or was it the other way around?": which came first
               (re.compile(r"^did\s+((?-i:[A-Z\"“'‘])[^,?]{0,80}?)\s+(come\s+out|appear|premiere|open|debut)\s+(?:before|earlier\s+than)\s+"
                           r"((?-i:[A-Z\"“'‘])[^,?]{0,80}?)\s*,?\s+or\s+(?:was\s+it\s+|is\s+it\s+)?(?:the\s+other\s+way\s+(?:a)?round|"
                           r"vice\s+versa|the\s+reverse|the\s+opposite)\s*\??$", re.I),
                lambda m: f"Which {_PAST_VERB.get(m.group(2).lower().split()[0], m.group(2))}"
                          f"{' out' if m.group(2).lower().startswith('come') else ''} first, {m.group(1)} or {m.group(3)}?"),
               (re.compile(r"^(?:was|were)\s+((?-i:[A-Z\"“'‘])[^,?]{0,80}?)\s+(born|released|founded|published|made|built|"
                           r"established|formed|created)\s+(?:before|earlier\s+than)\s+((?-i:[A-Z\"“'‘])[^,?]{0,80}?)\s*,?\s+or\s+"
                           r"(?:was\s+it\s+)?(?:the\s+other\s+way\s+(?:a)?round|vice\s+versa|the\s+reverse|the\s+opposite)"
                           r"\s*\??$", re.I),
                lambda m: f"Which was {m.group(2).lower()} first, {m.group(1)} or {m.group(3)}?"),
               # "the place where X was born" inside a question: X's birthplace (the place is not what is asked)
               (re.compile(r"(?<=\s)the\s+(?:place|location)\s+(?:where|in\s+which)\s+((?-i:[A-Z])[^?,;]{1,60}?)\s+"
                           r"(?:was|were)\s+born\b(?=\s*\?)", re.I), lambda m: f"the birthplace of {m.group(1)}"),
               # "[A] vs [B]": names in square brackets are the names
               (re.compile(r"\[([^\[\]?]{1,80})\](\s*(?:vs\.?|versus|and|or|,|&|/)\s*)\[([^\[\]?]{1,80})\]", re.I),
                lambda m: m.group(1) + m.group(2) + m.group(3)),
               # a name's abbreviations: "dir. of X — b. when?", "X dir. — d. where?"
               (re.compile(r"(?-i:\bdir\.(?=\s|$))"), lambda m: "director"),
               (re.compile(r"(?-i:(?:(?<=^)|(?<=[\u2013\u2014:,-]\s)|(?<=[\u2013\u2014:,-])|(?<=director\s))([bd])\.\s+(when|where|in|on)\b)"),
                lambda m: ("born " if m.group(1) == "b" else "died ") + m.group(2)),
               # "X... its director died when?": the trailing dots set the topic apart
               (re.compile(r"^(?!(?i:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did)\b)([^.?,]{2,80}?)"
                           r"(?:\.\.\.|\u2026)\s+(?=(?-i:[a-z]))"), lambda m: f"{m.group(1)} \u2014 "),
               # "I read that A and B were both directors, is that so?": whether it is so
               (re.compile(r"^\s*i\s+(?:read|heard|saw|was\s+told)\s+(?:somewhere\s+)?that\s+(.+?)\s*(?:[,;:]|\s[-\u2013\u2014])?\s*(?:is\s+that\s+"
                           r"(?:so|true|right|correct)|(?:is\s+)?that\s+(?:true|right|correct))\s*\?\s*$", re.I),
                lambda m: f"Is it true that {m.group(1)}?"),
               # "published under what title": published as what
               (re.compile(r"\b(published|released|issued|reissued|marketed|sold|known|distributed)\s+under\s+"
                           r"(?:what|which)\s+(?:other\s+)?(?:title|name)\b", re.I), lambda m: f"{m.group(1)} as what"),
               # "A, B: do their directors ...?", "A, B — same nationality?": the pair
               # (not "Bayfield, Wisconsin and Drmeni", "X in Nashville, Tennessee — what is it?": a pair's words follow)
               (re.compile(r"^\s*((?-i:[A-Z])(?:(?!\s(?:and|or)\s)[^,:;?]){0,60}?),\s+((?-i:[A-Z])(?:(?!\sand\s)[^,:;?]){0,60}?)"
                           r"(?=\s*(?::|\s[-\u2013\u2014])[^?]*\b(?:same|their|both|they|them|these|those|either)\b|\s*(?::|\s[-\u2013\u2014])\s*(?:which\s+(?:one|of\s+them|"
                           r"film|movie|book|novel|song|album|band|person|place)|whose)\b)", re.I),
                lambda m: m.group(0) if _locates(m.group(2)) else f"{m.group(1)} and {m.group(2)}"),
               # "A vs B director born first": a search box's comparison, its ask after the second name
               (re.compile(r"^\s*((?-i:[A-Z])[^:;?]{0,60}?)\s+(?:vs\.?|versus)\s+((?-i:[A-Z])(?:[^\s:;?]*)(?:\s+(?-i:[A-Z(])"
                           r"[^\s:;?]*|\s+(?:of|de|la|von|van|the|and|in|a|on))*)\s+(?=(?-i:[a-z]))(?!(?:and|or|vs)\b)"
                           r"([^?:;\u2013\u2014]*?\b(?:first|earlier|earliest|later|latest|last|older|oldest|younger|"
                           r"youngest|elder|eldest|more|less|same|longer|shorter|bigger|larger|smaller|higher|lower|"
                           r"taller|newer|recent(?:ly)?)\b[^?:;\u2013\u2014]*?)\s*\??\s*$"),
                lambda m: f"{m.group(1)} vs. {m.group(2)}: {m.group(3)}?" if m.group(1).strip().lower() != m.group(
                    2).strip().lower() and not re.match(r"(?i)(?:who|whom|whose|what|which|when|where|why|how|is|are|was|"
                                                        r"were|do|does|did|has|have|had)\b", m.group(1).strip())
                and not re.search(r"(?i)\bthan\b|^v\.?\s", m.group(3)) else m.group(0)),
               # "Publication year of X?": the year X was published
               (re.compile(r"^\s*(?:the\s+)?(publication|release|founding|completion|construction|opening)\s+(year|date)\s+"
                           r"of\s+(.+?)\s*\??\s*$", re.I),
                lambda m: ("In what year was " if m.group(2).lower() == "year" else "When was ") + _lower_article(m.group(3))
                + " " + {"publication": "published", "release": "released", "founding": "founded",
                         "completion": "completed", "construction": "constructed", "opening": "opened"}[m.group(1).lower()]
                + "?"),
               # "In what year was the university founded where X taught?": the relative clause by its noun
               (re.compile(r"^((?:in\s+)?(?:what|which)\s+(?:year|date|day|month|decade|century)\s+|when\s+|where\s+)"
                           r"(was|were|is|are)\s+(the\s+(?:[\w-]+\s+){0,3}?[\w-]+)\s+((?-i:[a-z]+ed|built|made|written|"
                           r"born|begun|shot|held|won|sung|drawn|set\s+up))\s+((?:where|in\s+which|at\s+which|that|which|"
                           r"who|whom|whose)\s+[^?]+?)\s*\?\s*$", re.I),
                lambda m: f"{m.group(1)}{m.group(2)} {m.group(3)} {m.group(5)} {m.group(4)}?"),
               # "the woman married to X": X's wife ("the person married to X": the spouse)
               (re.compile(r"\bthe\s+(woman|lady|man|gentleman|person)\s+(?:who\s+(?:was|is|got)\s+)?married\s+to\s+"
                           r"(?=(?-i:[A-Z]))", re.I),
                lambda m: "the " + {"woman": "wife", "lady": "wife", "man": "husband", "gentleman": "husband"}.get(
                    m.group(1).lower(), "spouse") + " of "),
               # "The director of X: which country is that person from?": "that person" is the topic
               (re.compile(r"^(\s*the\s+(?-i:[a-z]+)\s+of\s+[^:?\u2013\u2014]+?(?::|\s[-\u2013\u2014])\s*(?:who|whom|what|which|"
                           r"when|where|how)\b[^?:]*?)\b(?:that|this)\s+(person|individual|man|guy|woman|lady)\b(?!['’])",
                           re.I),
                lambda m: m.group(1) + ("she" if m.group(2).lower() in {"woman", "lady"} else "he")),
               (re.compile(r"\b(?:citizens|nationals)\s+of\s+the\s+same\s+(country|nation)\b", re.I),
                lambda m: "from the same country"),
               # family words and a film's "helmed", in lower case only (a title may be "Mom and Dad")
               (re.compile(r"(?-i:\b(?:dad|daddy)\b)"), lambda m: "father"),
               (re.compile(r"(?-i:\b(?:mom|mum|mommy|mummy)\b)"), lambda m: "mother"),
               (re.compile(r"(?-i:\bhelmed\b)"), lambda m: "directed"),
               # question words people type fast
               (re.compile(r"(?-i:\b(?:whos)\b)"), lambda m: "who is"),
               (re.compile(r"(?-i:\b(?:wich|whcih|wihch)\b)"), lambda m: "which"),
               (re.compile(r"(?-i:\b(?:waht|wat)\b)"), lambda m: "what"),
               # "compatriots", "hail from", "within a single country": the same country
               (re.compile(r"\b(?:compatriots|fellow\s+countrymen|countrymen)\b", re.I),
                lambda m: "from the same country"),
               (re.compile(r"\bhail(s|ed)?\s+from\b", re.I),
                lambda m: {"s": "comes", "ed": "came"}.get((m.group(1) or "").lower(), "come") + " from"),
               (re.compile(r"\boutlived\s+the\s+other(?:'s|s'|\s+one)?", re.I), lambda m: "died later"),
               (re.compile(r"(?-i:\b(?:bday|b-day|birth\s+day)\b)"), lambda m: "birthday"),
               # idioms for dying, marrying, directing; "where'd", "whereabouts"
               (re.compile(r"\bbreathe(d|s)?\s+(?:his|her|their|its)\s+last(?:\s+breath)?\b", re.I),
                lambda m: {"d": "died", "s": "dies"}.get(m.group(1) or "", "die")),
               (re.compile(r"\bt(ie|ied|ies)\s+the\s+knot\s+with\b", re.I),
                lambda m: {"ie": "marry", "ied": "married", "ies": "marries"}[m.group(1).lower()]),
               (re.compile(r"\b(where|when|who|what|how)'d\b", re.I), lambda m: f"{m.group(1)} did"),
               # "came out on top in the election", "come into the world", "line of work"
               (re.compile(r"\b(came|come|comes)\s+out\s+on\s+top\s+(?:in|of|at)\b", re.I),
                lambda m: {"came": "won", "come": "win", "comes": "wins"}[m.group(1).lower()]),
               (re.compile(r"\bdid\s+(.{2,80}?)\s+come\s+into\s+the\s+world\b", re.I),
                lambda m: f"was {m.group(1)} born"),
               (re.compile(r"\bline\s+of\s+work\b", re.I), lambda m: "profession"),
               # a band that got together: formed (not "got together with" someone, nor "they")
               (re.compile(r"\bdid\s+(the\s+(?:[^?]{0,40}?\s)?(?:band|group|duo|trio|quartet|performer|ensemble|orchestra|choir)\b"
                           r".{0,80}?)\s+get\s+together\s*(?=\?)",
                           re.I),
                lambda m: f"was {m.group(1)} formed"),
               (re.compile(r"\b(band|group|duo|trio|quartet)\s+got\s+together\b(?!\s+with\b)", re.I),
                lambda m: f"{m.group(1)} formed"),
               # a group that split up or broke up disbanded; one put together was formed
               (re.compile(r"\b(?:split|break|broke|broken)\s+up\b(?!\s+with\b)", re.I),
                lambda m: "disbanded" if m.group(0).lower().startswith(("broke", "broken")) else "disband"),
               (re.compile(r"\b(?:was|were)\s+(.{2,80}?)\s+put\s+together\b", re.I), lambda m: f"was {m.group(1)} formed"),
               # what a picture depicts, it represents
               (re.compile(r"(?-i:\bdepict(s|ed)?\b)"), lambda m: "represent" + (m.group(1) or "")),
               (re.compile(r"^whereabouts\b", re.I), lambda m: "Where"),
               (re.compile(r"\bthe\s+(person|people|man|woman)\s+behind\s+the\s+camera\s+(?:on|of|for)\b", re.I),
                lambda m: "the directors of" if m.group(1).lower() == "people" else "the director of"),
               (re.compile(r"(?-i:\bfilm-?makers?\s+(?:of|behind)\b)"),
                lambda m: "directors of" if "makers" in m.group(0) else "director of"),
               (re.compile(r"^\s*(?:hey|hi|hello)\s*,\s*(?=(?-i:the\s))", re.I), lambda m: ""),
               (re.compile(r"\.\s+(?:do|does|did|are|is|were|was)\s+(?:they|it|he|she|both)\s*\?\s*$", re.I),
                lambda m: "?"),  # "... have one country of origin. Do they?"
               (re.compile(r"\bwhoever\s+(?:was|is)\s+behind\s+the\s+camera\s+(?:on|of|for)\b", re.I),
                lambda m: "the director of"),
               (re.compile(r"^(who)\s+(?:was|is)\s+behind\s+the\s+camera\s+(?:on|of|for)\b", re.I),
                lambda m: f"{m.group(1)} directed"),
               (re.compile(r"([.;]\s+)(who)\s+(?:was|is)\s+behind\s+the\s+camera\s+(?:on|of|for)\b", re.I),
                lambda m: f"{m.group(1)}{m.group(2)} directed"),
               # "who arrived in / came into the world more recently": was born
               (re.compile(r"\b(?:arrived|came)\s+(?:in|into)\s+the\s+world\b", re.I), lambda m: "was born"),
               # "from one contry": a slip in an ordinary word
               (re.compile(r"(?-i:\bcontry\b)"), lambda m: "country"),
               (re.compile(r"\b(come|came|comes|are|were|is|was|be|both|people|directors?|actors?|writers?)\s+from\s+one\s+"
                           r"(country|nation)\b", re.I), lambda m: f"{m.group(1)} from the same {m.group(2).lower()}"),
               (re.compile(r"\b(have|has|share)\s+one\s+(country\s+of\s+origin|country|nationality)\b", re.I),
                lambda m: f"{m.group(1)} the same {m.group(2).lower()}"),
               # "Which film predates the other, A or B?": the one that came first
               (re.compile(r"\bpredate[sd]?\s+the\s+other(?:\s+one)?\b", re.I), lambda m: "came first"),
               (re.compile(r"\b(?:within|in)\s+(?:a\s+single|one\s+and\s+the\s+same|just\s+one|one)\s+"
                           r"(country|nation|state|city)\b", re.I), lambda m: f"in the same {m.group(1).lower()}"),
               # "made by directors of one nationality", "from same country": the same
               (re.compile(r"\b(of|from|in|have|has|had|share)\s+same\s+(country|nation|nationality|citizenship)\b", re.I),
                lambda m: f"{m.group(1)} the same {m.group(2).lower()}"),
               (re.compile(r"\bof\s+one\s+(nationality|citizenship)\b", re.I), lambda m: f"of the same {m.group(1).lower()}"),
               (re.compile(r"(?-i:\bsame\s+nation\b)"), lambda m: "same country"),
               # "in the same country like Y", "the same country where Y lies": as Y
               (re.compile(r"\bsame\s+(country|nation|nationality|state|city|county|region|province)\s+like\b", re.I),
                lambda m: f"same {m.group(1).lower()} as"),
               (re.compile(r"\b(lies?)\s+in\s+the\s+same\s+(country|nation|state|city|county|region|province)\s+"
                           r"(?:where|in\s+which)\s+((?-i:[A-Z]).{0,80}?)\s+(?:lies|is\s+located|is\s+situated|is)\s*(?=[?.]?\s*$)",
                           re.I), lambda m: f"{m.group(1)} in the same {m.group(2).lower()} as {m.group(3)}"),
               (re.compile(r"^((?i:is|are|was|were)\s+(?:(?!born|buried|died|married)[^?])+?\s+from)\s+the\s+same\s+"
                           r"(country|nation|state|city|county|region|province)\s+(?:where|that)\s+((?-i:[A-Z]).{0,80}?)\s+"
                           r"(?:is|was|are|were|comes|came)\s+from\s*(?=[?.]?\s*$)"),
                lambda m: f"{m.group(1)} the same {m.group(2).lower()} as {m.group(3)}"),
               # "Is A a fellow countryman of B?": from the same country as B
               (re.compile(r"\b(?:an?\s+)?(?:fellow\s+(?:countryman|countrywoman|citizen|national)|compatriot)\s+of\b",
                           re.I), lambda m: "from the same country as"),
               # "A and B, they're both Americans", "A and B are those in the same country": the pair is the subject
               (re.compile(rf"^\s*({_PAIR_NAME}\s+and\s+{_PAIR_NAME})\s*,?\s+(?:(are|were)\s+(?:they|those|"
                           r"these)|(?:they|those|these)\s*(?:['’]re|\s+(are|were)))\s+(?=(?:both\s+|all\s+)?(?:in|from|of|"
                           r"located|situated|based|(?-i:[a-zA-Z]+)))"),
                lambda m: m.group(0) if ASKING.search(m.string[m.end():]) else
                f"{(m.group(2) or m.group(3) or 'are').capitalize()} {m.group(1)} "),
               (re.compile(rf"^\s*(?!(?i:are|were|is|was|do|does|did)\s)({_PAIR_NAME}\s+and\s+{_PAIR_NAME})\s+both\s+(?=(?:(?-i:[a-z]+s)\s+|an?\s+"
                           r"(?-i:[a-z]+)\s+)?(?:located\s+|situated\s+|based\s+)?(?:in|from)\s+the\s+same\b)"),
                lambda m: f"Are {m.group(1)} both "),  # "A and B both villages in the same country"
               # "A / B", "A + B": the pair (spaced, so "AC/DC" stays)
               (re.compile(r"(?<=[\w)])\s+[+/](?=[^?]*\b(?:both|same)\b)\s+(?=(?-i:[A-Z]))"), lambda m: " and "),
               # "got born", "got graduated", "more late", "more young": the words for it
               (re.compile(r"(?-i:\bgot\s+(born|graduated)\b)"), lambda m: (
                   "was born" if m.group(1) == "born" else m.group(1))),
               (re.compile(r"(?-i:\bmore\s+(late|young|old|early)\b)(?=\s*(?:[?,.]|$|than\b))"), lambda m: {
                   "late": "later", "young": "younger", "old": "older", "early": "earlier"}[m.group(1)]),
               (re.compile(r"\bha(s|ve|d)\s+(less|fewer|more)\s+years\s*(?=[?,]|$)", re.I),
                lambda m: {"s": "is", "ve": "are", "d": "was"}[m.group(1).lower()] + (
                    " older" if m.group(2).lower() == "more" else " younger")),
               # a person who passed on / expired, or passed at the end of a question: died
               (re.compile(r"^((?i:where|when)\s+did\s+(?:he|she|the\s+(?:[\w-]+\s+){0,2}?(?:person|man|woman|director|"
                           r"composer|writer|author|singer|actor|actress|producer|founder|father|mother|wife|husband))\b.{0,80}?)"
                           r"\s+pass\s+on\s*(?=[?.]?\s*$)"), lambda m: f"{m.group(1)} die"),
               (re.compile(r"(?i:\b(father|mother|son|daughter|wife|husband|brother|sister|director|grandfather|"
                           r"grandmother))\s+passed\s*(?=\?\s*$)"), lambda m: f"{m.group(1)} died"),
               (re.compile(r"\b(did|does|do)\s+(he|she)\s+expire\b", re.I), lambda m: f"{m.group(1)} {m.group(2)} die"),
               # "before the other" (after "b4"): first; "the one who founded": the founder
               (re.compile(r"\bbefore\s+the\s+other(?:\s+one)?(?=\s*(?:[,?]|$))", re.I), lambda m: "first"),
               # "both Americans": both American (the nationality asked)
               (re.compile(r"(?-i:\b(both)\s+([A-Z][a-z]+(?:an|ian)))s\s*(?=[?,.]|$)"), lambda m: f"{m.group(1)} {m.group(2)}"),
               # "... — A's or B's?", "the film A or the film B": the two names
               (re.compile(r"^(?=(?i:whose)\b)(.*?[:,\u2013\u2014]\s*)((?-i:[A-Z])[^?:,]{0,60}?)['’]s\s+or\s+((?-i:[A-Z])[^?:,]{0,60}?)"
                           r"['’]s(?=\s*\??\s*$)"), lambda m: f"{m.group(1)}{m.group(2)} or {m.group(3)}"),  # (a whose-question
               # asks of its names' things: "Whose birth came later: A's or B's?"; "Sotheby's or Christie's" are names)
               (re.compile(r"(?-i:(?<=[:,]\s)the\s+(film|movie|book|novel|song|album|series|band|village|town|city)\s+([A-Z][^?:,]{0,60}?)\s+or\s+"
                           r"the\s+\1\s+([A-Z][^?:,]{0,60}?))(?=\s*[?.]?\s*$)"), lambda m: f"{m.group(2)} or {m.group(3)}"),
               # "Which of two films has the older director: A, B?": the choice between them
               (re.compile(r"^\s*((?i:which|who|whose)\b[^:?]+?)\s*:\s*((?-i:[A-Z])(?:(?!\s(?:or|and)\s)[^,:;?&]){0,60}?)\s*"
                           r"(?:,|\s+and\s+)\s*((?-i:[A-Z])(?:(?!\s(?:or|and)\s)[^,:;?&]){0,60}?)\s*[.?]?\s*$"),
                lambda m: _listed_choice(m)),
               # "Which of the two films, A or B, had ...?": the choice at the end, where it is read
               (re.compile(r"^\s*(which(?:\s+of\s+(?:the\s+)?(?:two|these|those)\s+((?-i:[a-z]+s))|\s+(?-i:[a-z]+))?|who)\s*,\s*"
                           r"((?-i:[A-Z\"“])(?:(?!\sor\s)[^,?]){0,80}?)\s+or\s+((?-i:[A-Z\"“])(?:(?!\sor\s)[^,?]){0,80}?)\s*,\s+"
                           r"((?:(?!\sor\s)[^,?:;])+?)\s*\?\s*$", re.I),
                lambda m: f"{('Which ' + _singular_noun(m.group(2))) if m.group(2) else m.group(1)[:1].upper() + m.group(1)[1:]} "
                f"{m.group(5)}, {m.group(3)} or {m.group(4)}?"),
               # "belong to one nation": the same country; a forename is a first name, asked the usual way
               (re.compile(r"\bbelong\s+to\s+(?:one|a\s+single|one\s+and\s+the\s+same)\s+country\b", re.I),
                lambda m: "belong to the same country"),
               (re.compile(r"\b(the|a|his|her|their|its|what|which)\s+(?:forename|given\s+name|christian\s+name)\b", re.I),
                lambda m: f"{m.group(1)} first name"),
               (re.compile(r"\b(the|a|his|her|their|its|what|which)\s+(?:surname|family\s+name)\b", re.I),
                lambda m: f"{m.group(1)} last name"),
               (re.compile(r"^\s*what\s+(first|last|middle)\s+name\s+(did|does)\s+(.{2,80}?)\s+(?:have|bear|go\s+by|use)\s*\?\s*$",
                           re.I),
                lambda m: f"What {'was' if m.group(2).lower() == 'did' else 'is'} the {m.group(1).lower()} name of {m.group(3)}?"),
               # "are both of them directors": both
               (re.compile(r"\b(are|were)\s+both\s+of\s+them\b", re.I), lambda m: f"{m.group(1)} they both"),
               # "Under what other title was X published?": what X was published as
               (re.compile(r"^\s*under\s+(?:what|which)\s+(other\s+|different\s+)?(?:title|name)\s+(was|were|is|are)\s+"
                           r"(.+?)\s+(also\s+)?(published|released|issued|reissued|marketed|sold|known|distributed)\s*\??\s*$",
                           re.I), lambda m: f"What {m.group(2).lower()} {m.group(3)} "
                + ("also " if m.group(1) or m.group(4) else "") + f"{m.group(5)} as?"),
               # "what job": the profession
               (re.compile(r"\b(what|which|same)\s+job\b(?!\s+(?:title|description|market))", re.I), lambda m: f"{m.group(1)} profession"),
               # "the series with X that Y produced, what's it called?": its name
               (re.compile(r"^((?i:the)\s+[^?,]{3,200}?)\s*,\s*(?i:what\s+is\s+(?:it|that|this)\s+called)\s*\?\s*$"),
                lambda m: f"What is the name of {_lower_article(m.group(1))}?"),
               # "where is X from, like which country": which country X is from
               (re.compile(r"^\s*where\s+is\s+(.+?)\s+from\s*,?\s+(?:like\s+|i\s+mean\s+)?(?:which|what)\s+"
                           r"(country|nation|city|state|town)\s*\??\s*$", re.I),
                lambda m: f"Which {m.group(2).lower()} is {m.group(1)} from?"),
               # "X, from which city she is?", "X's wife, from where she graduated?": the question put the usual way
               (re.compile(r",\s*from\s+(which|what)\s+(\w+)\s+(he|she|it|they)\s+(is|was|are|were)\s*\?\s*$", re.I),
                lambda m: f", {m.group(1).lower()} {m.group(2)} {m.group(4).lower()} {m.group(3).lower()} from?"),
               (re.compile(r",\s*from\s+where\s+(he|she|it|they)\s+([a-z]+ed)\s*\?\s*$", re.I),
                lambda m: f", where did {m.group(1).lower()} {_base(m.group(2))} from?"),
               (re.compile(r",\s*from\s+where\s+(did|does|do)\s+([^?]+?)\s*\?\s*$", re.I),
                lambda m: f", where {m.group(1).lower()} {m.group(2)} from?")]
# a chatty or labelled lead before the question ("hey, quick one:", "Trivia question:", "Yes or no:")
_LEAD = re.compile(r"^\s*(?-i:[A-Za-z][a-z']*)(?:[ ,]+(?-i:[a-z][a-z']*)){0,8}\s*(?::|\s[-\u2013\u2014])\s*(?=(?:who|whom|whose|what|which|"
                   r"when|where|why|how|is|are|was|were|do|does|did|has|have|had|can|could|tell|give|name|list|find|"
                   r"of|between|among|out\s+of)\b)",
                   re.I)
# "So are A and B ...?", "Okay, who ...?": a word that only opens the question
_PRONOUN_ASKED = re.compile(r"(?i)(?<![\w'])(?:it|its|he|his|him|she|her|they|their|them|there)(?![\w'])")
_OPENER = re.compile(r"^\s*(?:so|and|well|ok|okay|now|right|alright|anyway|(?:hi|hello|hey|hiya)(?:\s+there)?|"
                     r"(?:i'?m|i\s+am)\s+not\s+(?:sure|certain)(?:\s+about\s+(?:this|that)(?:\s+one)?)?\s*,\s*but|"
                     r"not\s+sure\s*,\s*but|(?:i\s+think|i\s+believe)\s*,?\s*but)\s*[,!]?\s+(?=(?:who|whom|whose|what|which|when|"
                     r"where|why|how|is|are|was|were|do|does|did|has|have|had|can|could)\b)", re.I)
# a lead that says why or how one asks ("Settle a bet for me:", "For a history assignment:", "I forget -")
_ASIDE = re.compile(r"\b(?:bet|argument|assignment|homework|essay|class|quiz|question|forget|forgot|wondering|curious|"
                    r"remind|remember|asking|debate|confirm|check|verify|know)\b", re.I)
# a lead about the asker's own work or plans: dropped only when the question names its own topic
_ASIDE_WORK = re.compile(r"\b(?:trivia|sheet|trip|planning|confused|project|research|crossword|paper|article)\b", re.I)
_CHAT = frozenset("""hey hi hello ok okay so yes no quick quiz trivia question q one random simple serious honest
another next last final bonus fun silly easy hard tricky small short little query search help please""".split())
# a courtesy at the end ("? thanks", "(year please)", ", please."): no part of what is asked
_THANKS = re.compile(r"(?:(?<=[?.!])\s*(?i:thanks|thank\s+you|thx|cheers|ty)|,\s*(?:thanks|thank\s+you|thx|cheers))"
                     r"(?:\s+(?:a\s+lot|so\s+much|in\s+advance))?[\s.!?]*$|"
                     r"\s*\((?P<paren>[^()]{0,30}?)\s*(?i:please)\)[\s.!?]*$|(?:(?<=[?.!])\s*(?i:please)|,\s*please)[\s.!?]*$")
# "Does A's nationality match B's?"
_MATCH_POSS = re.compile(r"^(?:does|do|did)\s+(.+?)['’]s\s+(\w+)\s+(?:match|equal)\s+(.+?)['’]s(?:\s+\w+)?\s*\?$",
                         re.I | re.S)
# a noun phrase asked: "Size of the mall where X has its studios?" -> "What is the size of ...?"
# (a capitalised noun with its question mark, "Size of ...?"; a lower-case phrase typed as is, "winner of ...")
_NOUN_ASKED = re.compile(r"^(?:the\s+)?((?-i:[A-Z][a-z]+)(?=\s+of\s+.+\?\s*$)|(?!(?:total\s+)?number\b)(?-i:[a-z]+)"
                         r"(?:\s+(?-i:[a-z]+))?)\s+of\s+(.+?)\s*\??$", re.S)
_MEASURE_ASKED = re.compile(r"^((?-i:Distance|Length|Height|Altitude|Elevation|Area|Population|Depth|Width|Weight))\s+"
                            r"((?:in\s+[a-z]+\s+)?(?:from|between)\s+.+?)\s*\?$", re.S)
_BIRTHDAY = re.compile(r"^when\s+(?:is|was)\s+(?:(?:the\s+)?birthday\s+of\s+(.+?)|(.+?)\s*['’]s\s+birthday)\s*\?$",
                       re.I | re.S)
# a tag after a question or a statement: ", right?", ", by any chance?", "or not?"
_TAG = re.compile(r"\s*(?:,\s*(?:right|correct|by\s+any\s+chance|is\s+that\s+right|true|yes\s+or\s+no|"
                  r"(?:is|are|was|were|do|does|did)n't\s+(?:it|they|he|she)|(?:would|do|can|could|will)\s+you|"
                  r"do\s+you\s+think|don't\s+you\s+think|(?:do\s+)?you\s+know|any\s+idea|if\s+you\s+know)|\s+or\s+not)"
                  r"\s*\?\s*$", re.I)
# options after the question: "Which ...? (a) X (b) Y" / "... ? A) X B) Y"
_OPTIONS = re.compile(r"^(.*?)\s*\?\s*\(?\s*(?:a|1)\s*[).]\s*(.+?)\s*[,;]?\s+\(?\s*(?:b|2)\s*[).]\s*(.+?)\s*\.?\s*$",
                      re.I | re.S)
# "Does the nationality of A match that of B?" -> "Do A and B have the same nationality?"
_MATCH = re.compile(r"^(?:does|do|did)\s+the\s+([\w ]+?)\s+of\s+(.+?)\s+(?:match|equal)\s+(?:that|the\s+\1)\s+of\s+(.+?)"
                    r"\s*\?$", re.I | re.S)
# a search box's label before the query ("Search: X director", "Query: ...")
_LABEL = re.compile(r"^\s*(?:search|query|q|question|find)\s*:\s*", re.I)
# "Fill in the blank: the director of X is from ____." -> "The director of X is from where?" (then fronted)
_BLANK_LABEL = re.compile(r"^\s*(?:fill\s+in\s+the\s+blanks?|complete(?:\s+the\s+(?:sentence|blank))?)\s*[:\-\u2013\u2014]\s*",
                          re.I)
_BLANK = re.compile(r"_{2,}|\[\s*blank\s*\]", re.I)
# the wh-word a blank after a preposition stands for ("from ____": where; "on ____": when; "by ____": whom)
_BLANK_WH = {"from": "where", "in": "where", "at": "where", "near": "where", "on": "when", "since": "when",
             "by": "whom", "to": "whom", "with": "whom"}
# a search-box query: a name, the people it leads through, what is asked of the last ("Elizabeth Merbury husband
# death date", "Tit For Tat (1921 Film) director place of death")
# ("birth date" / "death date" are "date of birth" / "date of death" by then: _SAME_WORDS runs first)
_TERSE_ASKED = {"date of death": "When did {} die?", "death": "When did {} die?",
                "died": "When did {} die?", "date of birth": "When was {} born?",
                "birthday": "When was {} born?", "birthdate": "When was {} born?", "born": "When was {} born?",
                "birth": "When was {} born?", "place of death": "Where did {} die?", "death place": "Where did {} die?",
                "place of birth": "Where was {} born?", "birthplace": "Where was {} born?",
                "birth place": "Where was {} born?", "hometown": "Where was {} born?",
                "nationality": "What is the nationality of {}?", "citizenship": "What is the nationality of {}?",
                "first name": "What is the first name of {}?", "last name": "What is the surname of {}?",
                "surname": "What is the surname of {}?", "headquarters": "Where is {} headquartered?",
                "headquarters state": "In what state is {} headquartered?",
                "headquarters city": "In what city is {} headquartered?",
                "headquarters country": "In what country is {} headquartered?",
                "died when": "When did {} die?", "died where": "Where did {} die?", "born when": "When was {} born?",
                "born where": "Where was {} born?", "was born when": "When was {} born?",
                "was born where": "Where was {} born?", "alma mater": "Where did {} graduate from?",
                "education": "Where was {} educated?", "year formed": "When was {} formed?",
                "year founded": "When was {} founded?", "founding year": "When was {} founded?",
                "founding date": "When was {} founded?"}
# a terse query in two parts: "X performing group - year formed?", "X's wife: alma mater"
_TERSE_PARTS = re.compile(r"^(.+?)\s*(?::|\s[-\u2013\u2014])\s*((?-i:[a-z]+)(?:\s+(?-i:[a-z]+)){0,3}\s*\??)\s*$")
# the kind of work a terse query's name is ("Once I Loved song performer birthplace"): said before the name
_TERSE_KIND = frozenset("song film movie album book novel band group play opera series show poem painting company".split())
# the doer nouns a terse query says as a participle ("X performing group" is the group that performs X)
_TERSE_DOER = {"performing group": "performer", "performing artist": "performer", "recording artist": "performer"}
_TERSE = re.compile(r"^(?P<of>(?:(?:the\s+)?(?-i:[a-z]+)\s+of\s+){1,3})?(?P<name>(?-i:[A-Z0-9\"“])[^?]*?(?:\s\([^()]{1,40}\))?)(?:'s|’s)?\s+"
                    r"(?P<rest>(?:(?:paternal|maternal)\s+)?[a-z]+(?:\s+[a-z]+){0,5})\s*[?.]?$")
# "A and B: same country?", "A and B - same nationality" -> "Are A and B from the same country?"
_TERSE_SAME = re.compile(r"^\s*(?:(?:so|ok|okay|well)\s*,\s*)?(.+?)\s+(?:and|vs\.?|versus)\s+(.+?)\s*(?::|\s[-\u2013\u2014])"
                         r"\s*(?:both\s+)?(?:(?:in|from)\s+)?(?:the\s+)?same\s+(?:home\s+|native\s+)?"
                         r"([a-z]+(?:\s+of\s+[a-z]+)?)(?:\s+(?:for|of)\s+(?:the|their|both)\s+(?P<role>[a-z]+?)s?)?"
                         r"(?:\s*,?\s+or\s+(?:not|different|no))?\s*\??\s*$", re.I | re.S)
# "Same country for A and B?", "Same nationality: A and B" -> "A and B: same country"
_SAME_FOR = re.compile(r"^\s*(?:the\s+)?same\s+([a-z]+(?:\s+of\s+[a-z]+)?)\s*(?:for|:|\s[-\u2013\u2014])\s*(.+?)\s+and\s+(.+?)"
                       r"\s*\??\s*$", re.I | re.S)
# "A and B same nationality": two names, then what they would share, with nothing between
_NAME = r"(?-i:[A-Z][\w'’.-]*)(?:\s+(?-i:[A-Z][\w'’.-]*|of|de|la|von|van|the))*(?:\s\([^()]{1,40}\))?"
_BARE_SAME = re.compile(rf"^\s*(?!(?:is|are|was|were|do|does|did|have|has|had|who|what|which)\b)(?:(?-i:[a-z]+s)\s+)?({_NAME})(?:\s+and\s+|\s*/\s*|\s+&\s+)({_NAME})(?:\s+(?:the\s+|their\s+)?((?-i:directors|writers|composers|producers|founders|creators|authors|"
                        r"performers|singers)))?\s+(?:the\s+)?same\s+(country|nationality|citizenship|country\s+of\s+origin)\s*"
                        r"\??\s*$", re.I)
# a trailing "... : A or B." after a request
_TRAILING = re.compile(r"^(.*?)\s*[:;]\s*([^:;]+?)\s+or\s+([^:;]+?)\s*[.?]?\s*$", re.S)
# the doer of a verb, for "the person who directed X" / "whoever wrote X" -> "the director of X"
AGENT = {"direct": "director", "write": "writer", "compose": "composer", "produce": "producer", "founded": "founder",
         "create": "creator", "invent": "inventor", "design": "designer", "paint": "painter", "build": "builder",
         "own": "owner", "discover": "discoverer", "edit": "editor", "publish": "publisher", "perform": "performer",
         "sing": "singer", "narrate": "narrator", "illustrate": "illustrator", "translate": "translator",
         "develop": "developer", "manage": "manager", "coach": "coach", "lead": "leader", "head": "head",
         "host": "host", "present": "presenter"}
# ... followed by its object, a name or a phrase with an article ("the man who directed in Germany" is no doer)
_DOER = re.compile(r"\b(?:the\s+(?P<noun>(?!people\b)(?-i:[a-z]+))\s+(?:who|that)|whoever|"
                   r"(?P<many>the\s+people\s+(?:who|that)|those\s+who))\s+"
                   r"(?:(?:has|had|have)\s+)?(\w+)\s+(?=(?:(?:the|a|an)\s+(?:(?-i:[a-z]+)\s+)?)?(?-i:[A-Z0-9\"“'‘]))",
                   re.I)  # "whoever performed the song Once I Loved"
_ANY_DOER = frozenset({"person", "man", "woman", "one", "individual", "artist", "musician", "band", "guy", "lady",
                       "gentleman", "fellow", "chap"})
_PAST = {"wrote": "write", "written": "write", "led": "lead", "built": "build", "sang": "sing", "sung": "sing",
         "made": "make", "drew": "draw", "ran": "run", "headed": "head"}
_SOMEONE = r"(people|persons|someone|somebody|a\s+person|a\s+man|a\s+woman|men|women|individuals)"
# "Were A and B directed by people from the same country?" -> "Were the directors of A and B from ...?"
_BY_SOMEONE = re.compile(rf"^(were|was|are|is)\s+(.+?)\s+(\w+)\s+by\s+{_SOMEONE}\s+(?:who\s+(?:are|were)\s+)?"
                         r"((?:from|born|of)\b.*)$", re.I | re.S)
# "X was directed by someone of what nationality?" -> "What nationality is the director of X?"
_BY_WHOM_OF = re.compile(rf"^(.+?)\s+(?:was|were|is|are)\s+(\w+)\s+by\s+{_SOMEONE}\s+(?:of|with|holding)\s+(?:what|which)\s+"
                         r"(nationality|citizenship)\s*\??$", re.I | re.S)
# "X was directed by whom?" -> "Who directed X?"
_BY_WHOM = re.compile(r"^(.+?)\s+(?:was|were|is|are)\s+([a-z]+ed|written|made|built|sung|drawn|led|won|shot|founded)\s+by\s+whom\s*\?$",
                      re.S)
# "number of schools at the university where ..." -> "How many schools are there at the university where ...?"
_NUMBER_OF = re.compile(r"^\s*(?:the\s+)?(?:total\s+)?number\s+of\s+((?:[a-z]+\s+)?[a-z]+s)\s+((?:at|in|on|of|for|by|with|from)\s+.+?)\s*\??$",
                        re.I | re.S)
# "Did (both) A and B work as directors?" -> "Are A and B both directors?"
_HOLD_NATIONALITY = re.compile(r"^(do|did|does)\s+(.+?)\s+and\s+(.+?)\s+both\s+(?:hold|have|possess|share|carry)\s+"
                               r"((?-i:[A-Z])[a-z]+)\s+(?:nationality|citizenship)\s*\?$", re.I)  # nationality?": both American
_ROLE_SAME_COUNTRY = re.compile(r"^(?:is|was)\s+the\s+([a-z]+)\s+(?:of|behind)\s+(.+?)\s+from\s+the\s+same\s+(country|nation)\s+as\s+"
                      r"(?:the\s+([a-z]+)\s+(?:of|behind)\s+|whoever\s+(?:made|created|did)\s+|(?:that|the\s+one)\s+of\s+)"
                      r"(.+?)\s*\?$", re.I)
_WORK_AS = re.compile(r"^(did|do|does)\s+(?:both\s+)?(.+?)\s+and\s+(.+?)\s+(?:both\s+)?(?:work|serve|act)\s+as\s+(?:an?\s+)?"
                      r"([a-z]+s)\s*\?$", re.I | re.S)
# "Compare (the directors of) A and B and tell me which film's director was born first" -> "Which ..., A or B?"
# ("Compare the directors of A and B: which film's director was born first?" too)
_COMPARE = re.compile(r"^\s*(?:please\s+)?compare\s+(?:the\s+[\w ]{1,30}?\s+of\s+)?(.+?)\s+and\s+(.+?)(?:\s*[:;\u2014\u2013]\s*|"
                      r"\s*,?\s+and\s+(?:tell\s+me|say|decide|determine|find\s+out|work\s+out)\s+)(which\b.+?)\s*[.?!]?\s*$",
                      re.I | re.S)
# "X was directed by a person born on what date?" -> "When was the director of X born?"
_IN_SITU = re.compile(rf"^(.+?)\s+(?:was|were|is|are)\s+(\w+)\s+by\s+{_SOMEONE}\s+(?:who\s+(?:was|were)\s+)?(born|died|who\s+died)"
                      r"\s+(?:on|in|at)\s+(?:what|which)\s+(date|day|year|place|city|town|country)\s*\??$", re.I | re.S)
# an attribute two things may have in common ("share a border with" is a relation, not an attribute)
_SHARED = ("nationality|citizenship|birthplace|hometown|country|language|religion|profession|occupation|genre|"
           "surname|birthday|director|author|publisher|label|manufacturer|father|mother|parent|alma\\s+mater|"
           "record\\s+label|place\\s+of\\s+birth|place\\s+of\\s+death|country\\s+of\\s+origin")
_SHARE_WITH = re.compile(rf"^(?:does|do|did)\s+(.+?)\s+share\s+(?:a|an|the|one|its|his|her|their)\s+(?:common\s+|home\s+|native\s+)?"
                         rf"({_SHARED})\s+with\s+(.+?)\s*\?$", re.I | re.S)
_SHARE = re.compile(rf"\bshare\s+(?:a|an|the|one)\s+(?:common\s+|home\s+|native\s+)?({_SHARED})\b(?!\s+with\b)", re.I)
_CJK = re.compile(r"[\u3400-\u9fff]")
_DO = {"VBD": "did", "VBZ": "does", "VBP": "do"}
MAX_CHARS = 300  # a longer question is read as asked (and no pattern runs long on it)


def rephrase(question: str) -> str:
    """The question as the analysis reads it best (see the module's docstring); unchanged when no rule
    applies."""
    if _CJK.search(question):
        return question
    q = " ".join(spelled_out(question).split())
    if not q or len(q) > MAX_CHARS:
        return question
    out = _rephrase(q)
    if out != q:
        out = re.sub(r"\s*[,;:]+\s*\?$", "?", out)  # "..., A or B,?": a name's comma left before the mark
    if out.startswith("When ") and (_YEAR.search(q) or re.search(r"\([^()]*\byear\b[^()]*please\)", q, re.I)) and \
            not _YEAR.search(out):
        out = f"In what year {out[5:]}"  # a year was asked: the year alone is the answer, not the date
    return out if out != " ".join(question.split()) else question


_ASKS = re.compile(r"^(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|has|have|had|can|"
                   r"could|will|would)\b|(?:,|:|\s[-\u2013\u2014])\s*(?:who|what|which)\b|"
                   r"\s(?:(?:in|on|at|of|from|for|by|to|with)\s+)?(?-i:(?:what|which)\s+\w+|who|whom|when|where)\s*$", re.I)


@functools.lru_cache(maxsize=2048)
def _rephrase(q: str) -> str:
    if not re.search(r"[?!]|\.\s*$", q) and _ASKS.search(q):
        q = q.rstrip() + "?"  # typed without its question mark: "is X in the same country as Y"
    for _ in range(3):  # a request around a fronted comparison around a relative clause
        before = q
        q = _in_situ(_doers(_share(_front(_request(_terse(_words(q)))))))
        if q == before:
            break
    if not re.search(r"[?!.][\"”’')\]]*\s*$", q) and re.match(r"(?:Is|Are|Was|Were|Do|Does|Did|Who|What|Which|When|Where|How)\b", q):
        q = q.rstrip() + "?"  # a question the rules put in order, typed without its mark
    return q


def _end(text: str) -> str:
    return text.strip().rstrip(".?!").strip()


def _request(q: str) -> str:
    """"Tell me whether X." -> a yes / no question; "I'd like to know where X died." -> "Where did X die?";
    "Give the date on which X was born." -> "When was X born?"; "whether A or B has ..." -> "Which has ..., A
    or B?"; "A and B: same country?" -> "Are A and B from the same country?"."""
    said = _BARE_SAME.sub(lambda b: f"{b.group(1)} and {b.group(2)}: same {b.group(4)}" + (
        f" for the {b.group(3)}" if b.group(3) else ""), _SAME_FOR.sub(r"\2 and \3: same \1", q))
    m = _TERSE_SAME.match(said) or (  # "A & B - same country?": "&" joins the two when nothing else does
        _TERSE_SAME.match(said.replace(" & ", " and ", 1)) if said.count(" & ") == 1 and not re.search(
            r"(?i)\s(?:and|vs\.?|versus)\s", said) else None)
    if m and len(m.group(1).split()) <= 12 and len(m.group(2).split()) <= 12:
        a, b, attr = m.group(1).strip(), m.group(2).strip(), m.group(3).lower()
        if m.group("role"):  # "A vs B: same country for the directors?"
            a, b = f"the {m.group('role').lower()}s of {a}", b
        if attr in {"country", "nationality", "citizenship", "origin", "country of origin"}:
            return f"Are {a} and {b} from the same {attr}?"
        if attr in {"state", "province", "region", "county", "city", "town", "district"}:
            return f"Are {a} and {b} in the same {attr}?"
        return f"Do {a} and {b} have the same {attr}?"
    m = _BY_WHOM.match(q)
    if m:
        x = m.group(1).rstrip(" ,;")  # "X, by the performer of Y, was written by whom?"
        if re.match(r"(?:The|A|An)\s", x):
            x = x[0].lower() + x[1:]
        done = {"written": "wrote", "sung": "sang", "drawn": "drew"}.get(m.group(2), m.group(2))
        return f"Who {done} {x}?"
    m = _NUMBER_OF.match(q)
    if m and not _ASKS.search(q):
        return f"How many {m.group(1).lower()} are there {m.group(2)}?"
    m = _HOLD_NATIONALITY.match(q)
    if m and len(m.group(2).split()) <= 8 and len(m.group(3).split()) <= 8:  # "Do A and B both hold American
        return f"{'Were' if m.group(1).lower() == 'did' else 'Are'} {m.group(2)} and {m.group(3)} both {m.group(4)}?"
    m = _ROLE_SAME_COUNTRY.match(q)
    if m and m.group(4) is None and len(m.group(2).split()) <= 8 \
            and len(m.group(5).split()) <= 8:  # "Is the director of A from the same country as whoever made B?"
        return f"Are the {m.group(1)}s of {m.group(2)} and {m.group(5)} from the same {m.group(3).lower()}?"
    m = _WORK_AS.match(q)
    if m and len(m.group(2).split()) <= 8 and len(m.group(3).split()) <= 8:
        return f"Are {m.group(2)} and {m.group(3)} both {m.group(4).lower()}?"  # what they were is what they are
    m = _TRUE_THAT.match(q)
    if m:
        return _as_yes_no(_end(m.group(1))) or q
    m = _EMBEDDED.match(q)
    if m:
        wh, rest = m.group(1).lower(), _end(re.sub(r"^or\s+not\b\s*", "", m.group(2), flags=re.I))
        choice = _CHOICE.match(rest)
        if wh in {"whether", "if"} and choice:  # "whether A or B has the older director": a choice, not yes / no
            return f"Which {_singular_verb(choice.group(3))} {_end(choice.group(4))}, {choice.group(1)} or {choice.group(2)}?"
        if wh in {"whether", "if"}:
            return _as_yes_no(rest) or q
        return _as_wh(wh, rest) or q
    m = _IMPERATIVE.match(q)
    if m and not re.match(r"^(?:me|us)\b", m.group(1), re.I) and "?" not in m.group(1).rstrip("?"):
        # (not "Do you know the film that won X? Who directed it?": two questions, the first a topic)
        body = _end(m.group(1))
        trailing = _TRAILING.match(body)
        tail = ""
        if trailing and len(trailing.group(2).split()) <= 8 and len(trailing.group(3).split()) <= 8:
            body, tail = trailing.group(1), f", {trailing.group(2)} or {trailing.group(3)}"
        wh = re.match(r"^(whether|if|who|whom|whose|what|when|where|which|why|how)\b\s*(.*)$", body, re.I)
        if wh and wh.group(1).lower() in {"whether", "if"}:  # "Indicate whether A is older than B."
            return _as_yes_no(_end(wh.group(2))) or q
        if wh:  # "Identify which of A and B has ..."
            return (_as_wh(wh.group(1).lower(), wh.group(2)) or f"{wh.group(1).capitalize()} {wh.group(2)}") \
                .rstrip("?") + tail + "?"
        n = _NOUN_CLAUSE.match(body)
        if n:  # "the date on which X was born"
            noun, rest = n.group(1).lower(), n.group(3)
            if noun in _PLACE_KINDS:  # "Which county is X located in?"; "Which state borders X?"
                inverted = _invert(_end(rest)) if n.group("rel").strip().lower() in {"where", "in which"} else None
                asked = f"Which {noun} {inverted[0].lower()}{inverted[1:]} in" if inverted else \
                    _as_wh("which", f"{noun} {rest}")
                return (asked or q).rstrip("?") + tail + "?"
            wh_word = "where" if noun in {"place", "city", "town", "country", "location"} else "when"
            return (_as_wh(wh_word, rest) or q).rstrip("?") + tail + "?"
        whose = re.match(r"^the\s+(\w+)\s+(whose|which|that|who)\s+(.*)$", body, re.I)
        if whose and whose.group(2).lower() == "whose":  # "Name the film whose director ..."
            return f"Which {whose.group(1)}'s {whose.group(3)}{tail}?"
        head = re.match(r"^the\s+([\w\s-]+?)\s+of\s+\S", body, re.I)
        if head:  # "Give the birth date of X", "List the members of the band"
            plural = head.group(1).split()[-1].lower().endswith("s") and not head.group(1).lower().endswith("ss")
            who = head.group(1).split()[-1].lower() in _person_nouns() and not re.search(r"['’]s\b", body)
            # ("the newly elected Chief Justice of ..."; not "the director of Inception's birthplace")
            return f"{'Who' if who else 'What'} {'are' if plural else 'is'} {body}{tail}?"
        person = re.match(r"^the\s+(?:[\w-]+\s+){0,3}?([\w-]+)\s+(?:born|who|that|whose)\b", body, re.I)
        if person and person.group(1).lower() in _person_nouns():  # "Identify the player born in 1984 who ..."
            return f"Who is {body}{tail}?"
        kind = re.match(r"^the\s+(?:[\w-]+\s+){0,3}?([\w-]+)\s+(?:that|which|where|whose)\s", body, re.I)
        if kind:  # "Looking for the league that X's team played in.", "List the films that X directed."
            plural = kind.group(1).lower().endswith("s") and not kind.group(1).lower().endswith("ss")
            return f"What {'are' if plural else 'is'} {body}{tail}?"
        if (asked := _noun_phrase_asked(body)) is not None:  # "Could you tell me the price per person for a tour?"
            return asked.rstrip("?") + tail + "?"
    return q


def _noun_phrase_asked(body: str) -> str | None:
    """A request's object when it is a noun phrase and nothing more ("the price per person for a brewery tour",
    "the amount agreed for the book fund"), asked as "What is ...?" ("Who is ...?" for a person, "are" for a
    plural); None for a clause ("the film I saw", "the bus leaves at 9"), whose own verb says what is asked."""
    if not re.match(r"(?i)(?:the|your|its|their|his|her|our)\s+\S", body):
        return None
    doc = _nlp()(body)
    head = next((t for t in doc if t.dep_ == "ROOT"), None)
    if head is not None and head.tag_ == "VBD" and head.lower_.endswith("ed") and not any(
            c.dep_ in {"dobj", "attr", "ccomp"} for c in head.children):  # "the amount agreed for X": a participle
        head = next((c for c in head.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"), None)  # the parser read
        # as a verb with the noun its subject
    if head is None or any(t.tag_ in {"VBZ", "VBP", "MD"} or t.tag_ == "VBD" and t.head != head and t != head.head
                           or t.lower_ in {"i", "we", "you", "he", "she", "they"} for t in doc):
        return None
    if head is None or head.pos_ not in {"NOUN", "PROPN"}:
        return None
    who = head.lemma_.lower() in _person_nouns() | {"person", "people", "someone", "one"}
    plural = head.tag_ in {"NNS", "NNPS"}
    return f"{'Who' if who else 'What'} {'are' if plural else 'is'} {_lower_article(body)}?"


# "A or B has the earlier-born director" (each alternative a name of at most eight words)
_CHOICE = re.compile(rf"^({_ALT})\s+or\s+({_ALT})\s+(has|have|had|is|are|was|were|did|does|do|came|lived|died|"
                     r"won|got|made)\b\s*(.*)$", re.S)


@functools.lru_cache(maxsize=1)
def _person_nouns() -> frozenset[str]:
    from kmrag.nlp.asked_nouns import PERSON_NOUNS

    return frozenset(PERSON_NOUNS)


def _singular_verb(verb: str) -> str:
    return {"have": "has", "are": "is", "were": "was", "do": "does"}.get(verb.lower(), verb.lower())


def _born_when(q: str) -> str | None:
    """"director of X — born when?", "X director — died where?" -> "When was the director of X born?"."""
    m = _BORN_WHEN.match(q)
    if m and len(m.group(1).split()) <= 12:
        who = _lower_article(m.group(1))
        role = re.match(r"^(.+?)\s+((?-i:[a-z]+))$", who)
        if role and role.group(2).lower() in _person_nouns() and role.group(1)[:1].isupper() and \
                not re.search(r"['’]s?$", role.group(1)):  # ("John Lennon's son" is said as it is)
            who = f"the {role.group(2)} of {role.group(1)}"  # "X director": the director of X
        elif who[:1].islower() and not who.startswith(("the ", "a ", "an ")):
            who = f"the {who}"  # "director of X"
        born = (m.group(2) or m.group(4) or m.group(7)).lower() in {"born", "birth"}
        wh = {"when": "When", "where": "Where", "date": "When", "place": "Where", "year": "In what year"}[
            (m.group(3) or m.group(5) or m.group(6)).lower()]
        return f"{wh} was {who} born?" if born else f"{wh} did {who} die?"
    return None


@functools.lru_cache(maxsize=2048)  # asked of the same text by _words, then by _rephrase's loop
def _terse(q: str) -> str:
    """"Elizabeth Merbury husband death date" -> "When did the husband of Elizabeth Merbury die?"; "Lufthansa
    founder" -> "Who is the founder of Lufthansa?". Only a name followed by words for people and for what is
    asked of them; anything else (a verb, a wh-word, an unknown word) is left as it is."""
    if (born := _born_when(q)) is not None:
        return born
    if (parts := _TERSE_PARTS.match(q)) and (joined := f"{parts.group(1)} {parts.group(2)}") != q and \
            (read := _terse(joined)) != joined:
        return read  # "Attics To Eden performing group — year formed?"
    m = _TERSE.match(q)
    if m is None or re.match(r"(?i)(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|"
                             r"has|have|had|can|could|tell|give|name|list|find|show|state|mention|specify|identify|"
                             r"describe|explain|define|summari[sz]e|indicate|determine|please|kindly)\b", q) or \
            re.search(r"(?<![\w'’])(?:who|whom|whose|what|which|when|where|how)\b", m.group("name")):
        return q  # a question ("In what year was X born?"), not a query
    name = m.group("name").strip()
    bare = re.sub(r"\s*\([^()]*\)$", "", name).split()
    if not bare or re.fullmatch(r"[a-z][\w-]*", bare[-1]) or \
            bare[-1].lower() in {"the", "a", "an", "this", "that", "his", "her", "its", "their", "my", "our", "your"}:
        return q  # the name ends in a lower-case word or an article ("The director died"): not a name
    rest = m.group("rest")
    for said, doer in _TERSE_DOER.items():  # (with something asked of the doer: "X recording artist" describes X)
        rest = re.sub(rf"\b{said}\b(?=\s+\w)", doer, rest)
    words = rest.split()
    kind = words.pop(0) if len(words) > 1 and words[0] in _TERSE_KIND else ""
    if q.rstrip().endswith(".") and words and words[-1] in {"died", "born", "death", "birth"}:
        return q  # "Queen Victoria died.": a statement, not a query (a query ends in what it asks: "… birthplace.")
    asked = None
    for n in (3, 2, 1):
        if len(words) >= n and " ".join(words[-n:]) in _TERSE_ASKED:
            asked, words = _TERSE_ASKED[" ".join(words[-n:])], words[:-n]
            break
    rels: list[str] = []
    for w in words:
        if rels and rels[-1] in {"paternal", "maternal"}:
            rels[-1] = f"{rels[-1]} {w}"
        elif w in {"paternal", "maternal"} or w in _person_nouns() - {"person", "people", "man", "woman", "who"} \
                or w in _MAKERS:
            rels.append(w)
        else:
            return q
    if rels and rels[-1] in {"paternal", "maternal"} or not (rels or asked):
        return q
    thing = f"the {kind} {name}" if kind else _lower_article(name)  # "The director of X"
    of = re.findall(r"([a-z]+)\s+of\b", m.group("of") or "")  # "director of Titanic nationality"
    if any(r not in _person_nouns() and r not in _MAKERS for r in of):
        return q
    for r in reversed(of):
        thing = f"the {r} of {thing}"
    for r in rels:
        thing = f"the {r} of {thing}"
    return asked.format(thing) if asked else f"{'What' if rels[-1] in _MAKERS else 'Who'} is {thing}?"


# the companies a thing has ("Bisquick manufacturer headquarters state")
_MAKERS = frozenset("manufacturer maker developer distributor label network broadcaster parent".split())


# kinship composed of two relations a text states one at a time: a paternal grandmother is the father's mother
_SIDE = {"paternal": "father", "maternal": "mother"}
_GRAND = {"grandmother": "mother", "grandfather": "father", "grandparents": "parents", "grandparent": "parent"}
_KIN_OF = re.compile(r"\b(the\s+)?(paternal|maternal)\s+(grandmother|grandfather|grandparents?)\s+of\s+", re.I)
_KIN_POSS = re.compile(r"((?-i:[A-Z])[\w.'’-]*(?:\s+(?:(?-i:[A-Z])[\w.'’-]*|of|de|von|van|the|\([^()]{1,40}\)))*?)['’]s\s+"
                       r"(paternal|maternal)\s+(grandmother|grandfather|grandparents?)\b", re.I)
_IN_LAW = re.compile(r"\b(the\s+)?(mother|father)[- ]in[- ]law\s+of\s+", re.I)


def _kinship(q: str) -> str:
    """"the paternal grandmother of X" -> "the mother of the father of X"; "X's maternal grandfather" -> "the
    father of the mother of X"; "the mother-in-law of X" -> "the mother of the spouse of X"."""
    q = _KIN_POSS.sub(lambda m: f"the {_GRAND[m.group(3).lower()]} of the {_SIDE[m.group(2).lower()]} of {m.group(1)}", q)
    q = _KIN_OF.sub(lambda m: f"{m.group(1) or ''}{_GRAND[m.group(3).lower()]} of the {_SIDE[m.group(2).lower()]} of ", q)
    return _IN_LAW.sub(lambda m: f"{m.group(1) or ''}{m.group(2).lower()} of the spouse of ", q)


def _words(q: str) -> str:
    """"passed away" -> "died", "what's" -> "what is", "birth date" -> "date of birth"; a search box's label
    ("Search: ") dropped."""
    q = _blank(_LABEL.sub("", q))
    while (thanks := _THANKS.search(q)) and thanks.start() > 0:
        q = q[:thanks.start()].rstrip()
        if q[-1:] not in {"?", "."}:
            q += "?"
    lead = _LEAD.match(q)
    first = re.match(r"\W*(\w+)", lead.group(0)) if lead else None
    plain = lead and len(lead.group(0).split()) <= 6 and (first and first.group(1).lower() in _CHAT or _ASIDE.search(
        lead.group(0)))
    own_topic = lead and not _PRONOUN_ASKED.search(q[lead.end():]) and not re.search(
        r"(?i)\b(?:to|about|on|of|in|for)\s+(?!(?:a|an|the|my|our|this|that|some)\b)\w", lead.group(0))
    if not (lead and first and not re.search(r"\d", lead.group(0)) and (
            plain or own_topic and (_ASIDE.search(lead.group(0)) or _ASIDE_WORK.search(lead.group(0))))):
        # (a longer lead, or one about the asker's work, may name the topic: "for my paper on the civil war - when
        # did it end?", "planning a trip to rome - which museum ...?")
        lead = _OPENER.match(q)  # "So are A and B ...?": a word that only opens the question
    if lead:
        q = q[lead.end():]
        q = q[:1].upper() + q[1:]
    if (m := _COMPARE.match(q)) and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8:
        q = _compared(q, m)  # before a pair's colon ("A and B: which ...?") is read with "Compare the directors
        # of" as part of A
    for pattern, repl in _SAME_WORDS:
        q = pattern.sub(repl, q)
    q = _KIN_ON_THE_SIDE.sub(lambda m: f"{_SIDE_OF[m.group(2).lower()]} {m.group(1)}", q)
    q = _RESPONSIBLE.sub(lambda m: f"{m.group(1)} {'who' if m.group(2).lower() in _person_nouns() else 'that'} was {m.group(3)} ", q)
    q = _BY_THE_OLDER.sub(_by_the_older, q)
    q = _WOULD_BE.sub(lambda m: f"{m.group(1)} is {m.group(2)}?", q)
    q = _FROM_WHICH.sub(lambda m: f"{m.group(1).capitalize()} {m.group(2)} {m.group(3)} from?", q)
    q = _YES_OR_NO_LEAD.sub("", q)
    q = _DONE_WHICH.sub(lambda m: f"{m.group(3).capitalize()} {m.group(4)} was {m.group(2)} by {m.group(1)}?", q)
    if (m := _TOPIC_THEN_OWNED_WH.match(q)) and (said := _said_of(
            f"{m.group(4).capitalize()} {m.group(3).lower()} {m.group(2)}?", _topic_name(m.group(1)))):
        q = said  # "X — his mother's father was who?" -> "Who was the father of the mother of X?"
    q = _BOTH_FIRST.sub(lambda m: f"{m.group(1).capitalize()} {m.group(2)} and {m.group(3)} both {m.group(4)}?"
                        if _people(m.group(4)) else m.group(0), q)
    q = _OR_THE_ER.sub(lambda m: f"Which {m.group(1).lower()} {m.group(4)}, {m.group(2)} or {m.group(3)}?", q)
    q = _COUNTRY_WISE.sub(lambda m: f"Which country {m.group(1).lower()} {m.group(2)} come from?", q)
    q = _WHAT_NOUN_AFTER.sub(lambda m: f"What is the {m.group(2).lower()} of {_lower_article(m.group(1))}?", q)
    q = _POSS_SAME.sub(lambda m: f"Do {m.group(1)} and {m.group(3)} have the same {m.group(2).lower()}?", q)
    q = _IN_THE_KIND_WHERE.sub(lambda m: f"{'Are' if m.group(1).lower() == 'is' else 'Were'} {m.group(2)} and "
                               f"{m.group(4)} in the same {m.group(3).lower()}?", q)
    q = _pair_referred(q)
    q = _PAIR_IS.sub(_pair_then_asked, q)
    q = _PAIR_ROLES.sub(lambda m: f"{m.group(3).capitalize()} the {m.group(4).lower()} of {m.group(1)} and {m.group(2)} "
                        f"{m.group(5)}?" if m.group(4).lower()[:-1] in _person_nouns() else m.group(0), q)
    q = _PAIR_CHOICE.sub(_pair_choice, q)
    if (m := _PAIR_SET_UP.match(q)) and " or " not in m.group(3) and len(m.group(1).split()) <= 8 and \
            len(m.group(2).split()) <= 8 and q[:m.start(3)].lower().count(" and ") == 1:  # "A and B each have a director. Which film's director was born earlier?"
        q = f"{m.group(3)}, {m.group(1)} or {m.group(2)}?"
    q = _ON_THE_SIDE.sub(lambda m: f"{m.group(2)[:1].upper()}{m.group(2)[1:]}{_SIDE_OF[m.group(1).lower()]} "
                         f"{m.group(3)}", q)
    q = _kinship(q)
    m = _OPTIONS.match(q)
    if m and len(m.group(2).split()) <= 8 and len(m.group(3).split()) <= 8:
        q = f"{m.group(1)}, {m.group(2)} or {m.group(3)}?"
    m = _MATCH.match(q)
    if m and len(m.group(1).split()) <= 3:
        q = f"Do {m.group(2)} and {m.group(3)} have the same {m.group(1)}?"
    m = _MATCH_POSS.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(3).split()) <= 8:
        q = f"Do {m.group(1)} and {m.group(3)} have the same {m.group(2)}?"
    m = _NOUN_ASKED.match(q)  # "Size of the mall ...?", "winner of the 2014 election" (a search box's phrase)
    quoted = [range(x.start(), x.end()) for x in re.finditer(r"[\"“][^\"”]*[\"”]", q)]  # a title's own verbs
    titled = re.fullmatch(r"(?:(?-i:[A-Z0-9][\w'’.-]*)|of|the|and|a|an|in|on|for|de|la|le)(?:\s+(?:(?-i:[A-Z0-9][\w'’.-]*)|of|"
                          r"the|and|a|an|in|on|for|de|la|le))*\s*\??", q)  # "Kings of Leon": a title, as typed
    if m and not titled and not _ASKS.match(q) and not _BORN_WHEN.match(q) and (q[:1].isupper() or _terse(q) == q) and \
            _nlp()(m.group(1).lower())[-1].pos_ == "NOUN" and \
            not any(t.pos_ in {"VERB", "AUX"} and t.dep_ == "ROOT" and not _relative_verb(t)
                    and not any(t.idx in r for r in quoted) for t in _nlp()(q)):
        who = m.group(1).split()[-1].lower() in _person_nouns()  # "Author of the book ...?": a person
        q = f"{'Who' if who else 'What'} is the {m.group(1)[0].lower()}{m.group(1)[1:]} of {m.group(2)}?"
    q = _MEASURE_ASKED.sub(lambda m: f"What is the {m.group(1).lower()} {m.group(2)}?", q)  # "Distance in miles from A
    # to B?"
    m = _BIRTHDAY.match(q)
    if m:  # "When is the birthday of X?" / "When is X's birthday?" -> "When was X born?"
        q = f"When was {m.group(1) or m.group(2)} born?"
    q = re.sub(r"^(?i:what\s+is\s+the\s+size\s+of)\s+(.+?)\s*\?$", r"How large is \1?", q)
    tag = _TAG.search(q)
    if tag:
        body = q[:tag.start()]
        if re.match(r"(?i)(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|has|have|had)\b",
                    body) or _EMBEDDED.match(body):
            q = body + "?"
        elif re.search(r"[:\u2013\u2014]|\s-\s", body) and re.search(r"(?i)\bsame\b", body) and \
                not re.search(r"(?i)\b(?:is|are|was|were)\b", body):  # "A and B: same country of origin, yes or no?": the
            q = body + "?"  # terse form is read as it is (its names are no clause: "We Stick Together ...")
        elif re.search(r"(?i)(?::|\s[-\u2013\u2014])\s*(?:is|are|was|were|do|does|did|have|has|had)\b", body) or \
                re.search(r"(?i)\b(?:which|what|whom|who|where|when|how\s+(?:many|much|long|old))\b", body) and not \
                re.search(r"(?i)\byes\s+or\s+no\b", tag.group(0)):
            q = body + "?"  # "X had been a Senator from which state, do you know?": the wh-word asks, in place;
            # "A and B — are they both directors, yes or no?": the question after the topic
        else:  # "A and B are in the same country, right?" -> "Are A and B in the same country?"
            q = _as_yes_no(_end(body)) or (body + "?" if re.search(r"(?i)\byes\s+or\s+no\b", tag.group(0)) else q)
            # (never "yes" or "no" as the choice asked)
    return q


def _relative_verb(verb: Any) -> bool:
    """A verb whose subject is "who" / "that" / "which": a relative clause's, though the parser made it the root
    of a phrase without a verb of its own ("birth year of the singer who popularized X")."""
    return any(c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ in {"who", "that", "which"} for c in verb.children)


def _blank(q: str) -> str:
    """A sentence with one blank for the answer, as a question with the wh-word in the blank's place: "the
    director of X is from ____." -> "The director of X is from where?"; the wh-word is fronted later."""
    blanks = list(_BLANK.finditer(q))
    if len(blanks) != 1 or (not _BLANK_LABEL.match(q) and re.search(
            r"(?i)\b(?:who|whom|whose|what|which|when|where|why|how)\b", q)):
        return q  # "Who is ___?" asks already
    b = blanks[0]
    body = _BLANK_LABEL.sub("", q[:b.start()])
    before = re.search(r"(\w+)\s*$", body)
    if not before or _end(q[b.end():]):
        return q  # a blank that opens the sentence or has words after it: which wh-word is not plain
    noun = re.search(r"\b(?:the|a|an)\s+([a-z]+)\s*$", body)
    if noun:  # "founded in the year ____" -> "founded in which year?"
        out = f"{body[:noun.start()].rstrip()} which {noun.group(1)}?"
    else:
        out = f"{body.rstrip()} {_BLANK_WH.get(before.group(1).lower(), 'what')}?"
    return out[:1].upper() + out[1:]


# "When was it that X died?" -> "When did X die?"
_CLEFT_CHOICE = re.compile(rf"^\s*(?:was|is)\s+it\s+({_ALT})\s+or\s+({_ALT})\s+(that|who|which)\s+(?=(?-i:[a-z]))(.+)$",
                           re.I | re.S)
_CLEFT = re.compile(r"^\s*(who|whom|what|when|where|which\s+\w+|what\s+\w+)\s+(?:was|is)\s+it\s+that\s+(.+)$",
                    re.I | re.S)
# "Is there a country where both A and B are located?" -> "Are A and B located in the same country?"
_THERE_IS = re.compile(r"^\s*is\s+there\s+an?\s+(country|state|city|town|county|region|province|nation)\s+"
                       r"(?:where|in\s+which|that)\s+(?:both\s+)?(.+?)\s+(are|were)\s+(?:both\s+)?(\w+)\s*\??\s*$",
                       re.I | re.S)
# "Was A or B born more recently?"; "Is A younger than B, or is it the other way around?" (see _or_choice)
_OR_CHOICE = re.compile(rf"^\s*(is|was|are|were)\s+({_ALT})\s+or\s+({_ALT})\s+((?-i:[a-z])[^?]*?)\s*\?\s*$", re.I | re.S)
_COMPARED_BY = re.compile(r"\b(?:more|less|most|least)\s+\w+|\b(?:first|earlier|earliest|later|latest|last|older|oldest|"
                          r"younger|youngest|longer|shorter|taller|bigger|larger|smaller|newer)\b", re.I)
_OR_REVERSED = re.compile(rf"^\s*(is|was|are|were)\s+({_ALT})\s+((?:more|less)\s+\w+|\w+er)\s+than\s+({_ALT})\s*,?\s+"
                          r"or\s+(?:(?:is|was)\s+it\s+)?(?:the\s+other\s+way\s+a?round|vice\s+versa)\s*\?\s*$", re.I | re.S)
# "Who is the younger of A and B?" -> "Who is younger, A or B?"
_ER = r"(?:young|old|eld|tall|short|larg|bigg|small|long|earli|lat|new|high|low|great|heavi|wealthi|rich|wid|fast|slow)er"
_THE_ER_OF = re.compile(rf"^\s*(who|which(?:\s+\w+)?)\s+(is|was)\s+the\s+({_ER})\s+of\s+(?:the\s+two\s*,?\s+)?"
                        rf"({_ALT})\s+and\s+({_ALT})\s*\?\s*$", re.I | re.S)
# "You know the film X? When was its director born?" -> "When was the director of the film X born?"
# "Think about the films A and B. Which one's director was born first?", "A, B. Which came out first?": a pair
# set up, then a choice between them
_KINDS = r"(?:films?|movies?|people|persons|men|women|places|villages|towns|books|novels|songs|albums|bands|players|works)"
_PAIR_DOT = re.compile(rf"^\s*(?:(?:think\s+(?:of|about)|consider|take|look\s+at)\s+)?(?:(?:the\s+)?(?:two\s+)?{_KINDS}\s*[:,]?\s+)?"
                       rf"({_ALT})(?:\s+(?-i:and)\s+|,\s+)({_ALT})\s*[.:;]\s+((?:which|who|whose)\b[^?]*\?)\s*$", re.I | re.S)
_TOPIC_FIRST = re.compile(r"^\s*(?:you\s+know|do\s+you\s+know|remember|know|ever\s+heard\s+of|consider|take|"
                          r"think\s+(?:of|about)|look\s+at|picture|imagine|(?:i\s*'?m\s+|i\s+am\s+|been\s+|i\s+was\s+)?"
                          r"(?:reading|watching|learning|listening)\s+(?:up\s+)?(?:about|on|to)?)\s+"
                          r"([^?.]{2,80}?)\s*[?.]\s+(.+\?)\s*$", re.I | re.S)


def _compared(q: str, m: re.Match[str]) -> str:
    """"Compare A and B: which ...?" -> "Which ..., A or B?"; "Compare the directors of A and B: which was born
    first?" -> "Whose director was born first, A or B?" (the relation kept when the clause does not say it)."""
    which = _end(m.group(3))
    rel = re.match(r"\s*(?:please\s+)?compare\s+the\s+([a-z]{4,30}?)s?\s+of\s", q, re.I)
    if rel and rel.group(1).lower()[:5] not in which.lower() and (
            rest := re.match(r"which\s+(?:one\s+|of\s+them\s+)?((?:was|were|is|are|had|has|did)\b.*)$", which, re.I)):
        return f"Whose {rel.group(1).lower()} {rest.group(1)}, {m.group(1)} or {m.group(2)}?"
    if rel and rel.group(1).lower()[:5] not in which.lower():
        return q  # the relation would be lost: read as asked
    return f"{which[0].upper()}{which[1:]}, {m.group(1)} or {m.group(2)}?"


def _or_choice(q: str) -> str | None:
    """"Was A or B born more recently?" -> "Which was born more recently, A or B?"; "Is A younger than B, or is it
    the other way around?" -> "Which is younger, A or B?": a choice asked as a yes / no question (only with a
    comparative: "Was A or B at the meeting?" is left as asked)."""
    m = _OR_CHOICE.match(q)
    if m and _COMPARED_BY.search(m.group(4)) and len(m.group(2).split()) <= 8 and len(m.group(3).split()) <= 8:
        return f"Which {m.group(1).lower()} {m.group(4)}, {m.group(2).strip()} or {m.group(3).strip()}?"
    m = _OR_REVERSED.match(q)
    if m and len(m.group(2).split()) <= 8 and len(m.group(4).split()) <= 8:
        return f"Which {m.group(1).lower()} {m.group(3)}, {m.group(2).strip()} or {m.group(4).strip()}?"
    return None


def _front(q: str) -> str:
    """"Between A and B, who lived longer?" / "A or B: which ...?" / "Which of A and B lived longer?" -> "Who
    lived longer, A or B?"; "A and B: are they both operas?" -> "Are A and B both operas?"; "Was it A or B that
    ...?" -> "Which ..., A or B?"."""
    if chosen := _or_choice(q):
        return chosen
    m = _CLEFT_CHOICE.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8 and \
            not re.match(r"(?:the|a|an|he|she|they|it|we|i|you|his|her|their|its|this|that)\b", m.group(4), re.I):
        # (the gap is the subject: "Was it A or B that got its start in X?"; not "... that Michael Mann directed?")
        return f"{'Who' if m.group(3).lower() == 'who' else 'Which'} {_end(m.group(4))}, {m.group(1)} or {m.group(2)}?"
    m = _CLEFT.match(q)
    if m and (asked := _as_wh(m.group(1).lower(), _end(m.group(2)))):
        return asked
    m = _THERE_IS.match(q)
    if m and re.search(r"\band\b", m.group(2)):
        return f"{m.group(3).capitalize()} {m.group(2)} {m.group(4)} in the same {m.group(1).lower()}?"
    m = _THE_ER_OF.match(q)
    if m and len(m.group(4).split()) <= 8 and len(m.group(5).split()) <= 8:
        return f"{m.group(1).capitalize()} {m.group(2)} {m.group(3)}, {m.group(4)} or {m.group(5)}?"
    m = _FRONTED_PP.match(q)
    if m and not re.search(r"(?i)\b(?:it|its|he|his|she|her|they|their|there|then)\b|\bor\b", m.group(2)) and \
            not re.search(r"(?i)\bside\b|\bor\b", m.group(1)) and not _DISCOURSE.match(m.group(1)):  # ("on his mother's side": a kinship, read as one;
        # "In Munich or Augsburg, which ...": a choice)
        # "In 1900, what was the population of X?": the time or place said where the question would say it
        pp = m.group(1)[0].lower() + m.group(1)[1:]
        return f"{m.group(2)[0].upper()}{m.group(2)[1:]} {pp}?"
    m = _HAVE_WHO.match(q)
    if m and len(m.group(2).split()) <= 8 and len(m.group(3).split()) <= 8 and m.group(4).lower()[:-1] in _person_nouns():
        verb = m.group(5)
        aux = "Are" if re.match(r"(?i)are\b", verb) else "Were" if re.match(r"(?i)were\b", verb) else m.group(1).capitalize()
        verb = re.sub(r"(?i)^(?:are|were)\s+", "", verb) if aux in {"Are", "Were"} else re.sub(r"(?i)^came\b", "come", verb)
        return f"{aux} the {m.group(4)} of {m.group(2)} and {m.group(3)} {verb.strip()}?"
    m = _PAIR_DOT.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8 and \
            not re.search(r"\s(?-i:(?:have|has|had|are|is|was|were)\b)", m.group(2)) and (  # ("A and B have different
        # directors; which ...": a statement, not a pair)
            _COMPARED_BY.search(m.group(3)) or re.search(r"(?i)\bsame\b", m.group(3))) and not _locates(m.group(2)) \
            and not re.search(r"(?i)\b(?:the\s+(?:first|second|last|other)\s+one|the\s+former|the\s+latter)\b", m.group(3)) \
            and not _points_at_one(m.group(3)) and not _NOT_A_NAME_FIRST.match(m.group(1)) and \
            not re.search(r"\s(?-i:and)\s", f" {m.group(1)} {m.group(2)} "):  # ("War and Peace and Anna Karenina")
        ask = re.sub(r"(?i)^(which|who)\s+of\s+(?:them|the\s+two|these(?:\s+two)?|those(?:\s+two)?)\b", r"\1", m.group(3))
        ask = _BOTH_OFFERED.sub("", ask)  # "who was older, the first or the second?"
        return f"{_end(ask)}, {m.group(1).strip()} or {m.group(2).strip()}?"  # "A, B. Which one's director ...?"
    m = _TOPIC_FIRST.match(q)
    if m and (said := _said_of(m.group(2), m.group(1).strip())):
        return said
    if said := _restated(q) or _introduced(q):
        return said
    m = _WHICH_OF.match(q)
    if m and len(m.group(2).split()) <= 8 and len(m.group(3).split()) <= 8:
        return f"{m.group(1).capitalize()} {_end(m.group(4))}, {m.group(2).strip()} or {m.group(3).strip()}?"
    m = _TERSE_CHOICE.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8 and _COMPARED_BY.search(m.group(3)):
        verb = "was" if m.group("done") else "is"  # "released first" is done to it; "older" it is
        return f"Which {verb} {m.group(3).strip()}, {m.group(1).strip()} or {m.group(2).strip()}?"  # "A or B — released first?"
    m = _VERSUS.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8 and \
            re.match(r"(?i)(?:is|are|was|were|do|does|did|have|has|had)\b", m.group(3)):  # "A vs. B — do the
        return _front(f"{m.group(1).strip()} and {m.group(2).strip()} \u2014 {m.group(3)}")  # directors share ...?"
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8 and m.group(1).strip().lower() != \
            m.group(2).strip().rstrip(".").lower() and re.match(r"[a-z]", m.group(3)) and not re.match(
            r"(?i)(?:who|whom|whose|what|which|when|where|how|is|are|was|were|do|does|did)\b", m.group(1)) and \
            not _PRONOUN.search(m.group(3)):  # not "Kramer vs. Kramer: who directed it?"
        ask = _end(m.group(3))
        role = re.match(r"(?:the\s+|their\s+)?((?-i:[a-z]+))\s+((?-i:born|died|[a-z]+ed)\b.*)$", ask)
        if role and role.group(1).lower() in _person_nouns():  # "director born first": whose director was
            ask = f"whose {role.group(1)} was {role.group(2)}"
        if not re.match(r"(?i)(?:who|whom|whose|what|which|when|where|how)\b", ask):
            ask = f"which {ask}"  # "film with the earlier-born director" -> "which film with ..."
        return f"{ask[0].upper()}{ask[1:]}, {m.group(1).strip()} or {m.group(2).strip()}?"
    m = _PAIR_THEN_REQUEST.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8:
        asked = _request(m.group(3)[0].upper() + m.group(3)[1:])  # "A and B: name the film whose director ..."
        if asked != m.group(3) and re.match(r"(?:Which|Who|Whose)\b", asked):
            return f"{asked.rstrip('?')}, {m.group(1)} or {m.group(2)}?"
    m = _TOPIC_COMMA.match(q)
    if m and len(m.group(1).split()) <= 12 and re.search(r"(?-i:[A-Z])", m.group(1)) and \
            not re.match(r"(?i)(?:her|his|their|its|my|our|your|this|that)\b", m.group(1)) and \
            (said := _said_of(m.group(2), _topic_name(m.group(1)))):  # (not "For her work on radium, what ...?")
        return said  # "For the film X, where did its director die?"
    m = _TOPIC_THE.match(q)
    if m and not _VERB_WORD.search(m.group("topic")) and not _ANY_PRONOUN.search(m.group("topic")) and \
            not _NOT_OF_NOUN.search(m.group("np")) and _named_topic(m.group("topic")) and \
            m.group("np").split()[-1].lower() in _ASKED_OF_TOPIC | _person_nouns():
        wh, cop = m.group("wh").capitalize(), (m.group("cop") or "is").lower()
        return f"{wh} {cop} the {m.group('np')} of {_lower_article(m.group('topic'))}?"  # "X: who is the director?"
    m = _TOPIC_ASKED.match(_QUESTION_LABEL.sub(" \u2014 ", q))
    if m and not _TOPIC.match(q) and len(m.group(1).split()) <= 16 and not _CLAUSE_TOPIC.search(m.group(1)) and \
            not _SOME_ONE.search(m.group(1)) and \
            not re.search(r"\s(?:or|/)\s", m.group(1)) and \
            (said := _said_of(m.group(2), _topic_name(m.group(1)))):
        return said  # "A and B — do their directors come from the same country?"
    m = _TOPIC_COMMA_ASKED.match(q)
    if m and not _CLAUSE_TOPIC.search(m.group(1)) and not _VERB_WORD.search(re.sub(r"[\"“][^\"”]*[\"”]", "", m.group(1))) and \
            _noun_phrase(m.group(1)) and len(_ANY_PRONOUN.findall(m.group(2))) == 1 and \
            (said := _said_of(m.group(2), _topic_name(m.group(1)))):
        return said  # "The founder of X, when did he die?", "X's wife, where did she graduate from?"
    m = _TOPIC.match(q)
    if m and re.search(r"\band\b|,", m.group(1)) and len(m.group(1).split()) <= 16:
        both = " both" if "both" in m.group(3).lower() else ""
        return f"{m.group(2).capitalize()}{both} {m.group(1).strip()} {_end(m.group(4))}?".replace("  ", " ")
    m = _LISTED_PAIR.match(q)
    if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8 and not _ONE_PRONOUN.search(m.group(3)) and \
            not re.search(r"(?i)\sor\s", m.group(3)) and (_PICKS_ONE.match(m.group(3)) or (
                _COMPARED_BY.search(m.group(3)) and _PICKS_BY_VERB.match(m.group(3)) and
                not re.search(r"(?i)\bthe\s+(?:[a-z]+est|most|least|first|last)\b", m.group(3)))):
        # (one of the two, asked with no noun of its own: "Simon & Garfunkel: which album came out first?" asks of
        # one name, "London, UK: which is the oldest bridge?" of many things)
        ask = _end(m.group(3))
        return f"{ask[0].upper()}{ask[1:]}, {m.group(1).strip()} or {m.group(2).strip()}?"
    for pattern in _FRONTED:
        m = pattern.match(q)
        if m and len(m.group(1).split()) <= 8 and len(m.group(2).split()) <= 8:
            a, b, ask = m.group(1).strip(), m.group(2).strip(), _end(m.group(3))
            return f"{ask[0].upper()}{ask[1:]}, {a} or {b}?"
    m = _WH_DATE.match(q)
    if m and not (m.group("noun").lower() in {"place", "location"} and re.search(
            r"\b(?:finish|finished|rank|ranked|come|came|end|ended|place|placed)\b", m.group(2), re.I)) and \
            not (m.group("noun").lower() == "day" and re.match(r"(?:is|are|does|do)\b", m.group(2), re.I)):
        # ("On which day is the gallery closed?" asks a day of the week, each week: not "When is ...?")
        # "On what date did X die?" -> "When did X die?"; "In which place did X die?" -> "Where did X die?" (not
        # "In what place did Brazil finish?", a ranking)
        return f"{'Where' if m.group('noun').lower() in {'place', 'location'} else 'When'} {m.group(2)}"
    return q


# "A and B: name the film whose director died first." -> "Which film's director died first, A or B?"
_PAIR_THEN_REQUEST = re.compile(rf"^\s*({_ALT})\s+and\s+({_ALT})\s*(?::|\s[-\u2013\u2014])\s*"
                                r"((?:name|identify|tell\s+me|give|say|state|pick|choose|find)\b.+)$", re.I | re.S)
# "Titanic: who is the director?", "Masherbrum's country - who's the Chief Justice?": the noun asked of the topic
_TOPIC_THE = re.compile(r"^\s*(?P<topic>(?-i:[A-Z\"“])[^:?;\u2013\u2014]{0,80}?)\s*(?::|\s[-\u2013\u2014])\s*"
                        r"(?P<wh>who|what)(?:\s+(?P<cop>is|was|are|were)|['’]s)\s+the\s+"
                        r"(?P<np>[\w-]+(?:\s+[\w-]+){0,4})\s*\?\s*$", re.I)
# the nouns a topic's question asks of it ("the director", "the population"; not "the Force", "the largest country",
# a thing of its own): the relational nouns of the analysis and the values said of a thing
_ASKED_OF_TOPIC = frozenset("""population capital budget founder headquarters nationality birthplace birthday age height
    length area label publisher developer manufacturer owner network genre language currency motto anthem flag mascot
    justice judge ceo""".split())
# labels a question is filed under, not topics ("Geography: what ...?", "Note: who ...?")
_LABEL_WORDS = frozenset("""geography history sports sport science music movies film films trivia quiz question topic note
    notes fyi follow-up followup update context background edit ps help urgent quick re q""".split())


def _named_topic(topic: str) -> bool:
    """Is ``topic`` a name (a proper noun or a possessive of one, no verb), not a label or a clause?"""
    if topic.strip().lower() in _LABEL_WORDS:
        return False
    doc = _nlp()(topic)
    return (any(t.pos_ == "PROPN" or t.tag_ == "POS" for t in doc) or all(w[:1].isupper() for w in topic.split())) and \
        not any(t.pos_ in {"VERB", "AUX"} for t in doc)


# words of a clause or a phrase after the noun ("the director of the sequel", "the one that ..."): asked as typed
_NOT_OF_NOUN = re.compile(r"(?i)\b(?:of|in|on|at|for|by|with|from|to|that|who|whom|which|whose|where|when|did|does|"
                          r"do|is|are|was|were|has|have|had|he|she|it|they|his|her|its|their|one|same|both)\b")
# "For the film X, where did its director die?", "Thinking about X, when was its director born?"
_TOPIC_COMMA = re.compile(r"^\s*(?:for|about|regarding|concerning|as\s+for|as\s+to|speaking\s+of|talking\s+about|"
                          r"thinking\s+about|considering|with\s+regard\s+to|when\s+it\s+comes\s+to)\s+(.+?)\s*,\s*"
                          r"((?:who|whom|whose|what|which|when|where|how|is|are|was|were|do|does|did|in|on|at|from)\b.+\?)"
                          r"\s*$", re.I | re.S)
# "Film: X. Question: when was its director born?": the label of the question after the topic
_QUESTION_LABEL = re.compile(r"\.\s+question\s*:\s*", re.I)
# the words around a topic that are not its name: a label ("Film: X"), what the asker did ("Just finished
# watching X"); a lead that opens with a determiner is the topic itself ("The director of X")
_TOPIC_LABEL = re.compile(r"^\s*(?:film|movie|book|novel|song|album|band|show|series|topic|subject|person|company|"
                          r"place|re)\s*:\s*", re.I)
# (what the asker did: a lead with a verb in -ed or -ing, or one of a few past forms; "Life is Beautiful" is a title)
_TOPIC_LEAD = re.compile(r"^\s*(?!(?:the|a|an|this|that|these|those|my|our|your|his|her|its|their)\b)"
                         r"(?-i:[A-Z][a-z']*)(?=(?:\s+(?-i:[a-z][a-z']*))*?\s+(?-i:[a-z]+(?:ed|ing)|saw|seen|read|heard|met|"
                         r"got|found)\b)(?:\s+(?!(?:and|or|of|vs|versus|the|a|an|de|del|la|le|von|van|der|in|on|"
                         r"at|to|for|with|from|by)\b)(?-i:[a-z][a-z']*)){1,5}\s+(?=(?-i:[A-Z0-9\"“]))", re.I)
# "Bayfield, Wisconsin and Drmeni are located in the same country?": a statement asked with its mark
_DECLARATIVE = re.compile(r"^(?!(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|has|"
                          r"have|had|can|could|will|would|should|shall|may|might|must|if|whether)\b)"
                          r"(?!.*\b(?:who|whom|whose|what|which|when|where|why|how|or|whether)\b)"
                          r"(?!.*(?:[:;\u2013\u2014]|\s-\s))(?!(?:.*\b(?:is|are|was|were)\b){2})"
                          r"([^?]+?\s(?:(?-i:is|are|was|were)|(?-i:came|come|comes|have|has|had|share|shares|shared)"
                          r"(?=[^?]*\b(?:same|both)\b))\s[^?]+?)\s*\?\s*$", re.I | re.S)
# "If you compare A with B, are they from the same country?" -> "Are A and B from the same country?"
_COMPARE_LEAD = re.compile(r"^\s*(?:if\s+(?:you|we|one)\s+compare|when\s+(?:you|we)\s+compare|comparing|compare)\s+"
                           r"(.+?)\s+(?:with|to|and|against)\s+(.+?)\s*,\s*(are|were|do|did)\s+(?:they|the\s+two|"
                           r"both|they\s+both)\s+(.+?\?)\s*$", re.I | re.S)
# "In short, ...", "On second thought, ...": a word on the asking, not on the asked
_DISCOURSE = re.compile(r"(?i)(?:in|on|at)\s+(?:short|brief|fact|general|particular|sum|total|any\s+case|other\s+words|"
                        r"second\s+thought|the\s+other\s+hand|the\s+whole|first|last|least|most|all|addition|"
                        r"summary|conclusion|turn|truth|reality|practice|theory|principle|my\s+\w+|your\s+\w+)\s*$")
_FRONTED_PP = re.compile(r"^\s*((?:in|on|during|at|since|as\s+of|throughout|within)\s+[^,?]{2,100}?),\s+"
                         r"((?:who|whom|what|which|when|where|how)\b[^?]*?)\s*\?\s*$", re.I | re.S)
# "Do A and B have directors who come from the same country?" -> "Do the directors of A and B come from ...?"
_HAVE_WHO = re.compile(r"^\s*(do|did)\s+(.+?)\s+and\s+(.+?)\s+(?:both\s+)?have\s+((?-i:[a-z]+s))\s+(?:who|that)\s+"
                       r"((?:come|came|hail|were|are)\b[^?]*\bsame\b[^?]*)\?\s*$", re.I | re.S)
# "Are A and B two films whose directors come from the same country?" -> "Do the directors of A and B come ...?"
_WHOSE_BOTH = re.compile(r"^\s*(?:are|were)\s+(.+?\s+and\s+.+?)\s+(?:two|both)\s+(?-i:[a-z]+)\s+whose\s+"
                         r"(?-i:([a-z]+s))\s+(.+?\?)\s*$", re.I | re.S)
# "Does the country that A is located in also contain B?" -> "Are A and B located in the same country?"
_ALSO_CONTAINS = re.compile(r"^\s*(?:does|did)\s+the\s+(country|nation|state|city|county|region|province)\s+"
                            r"(?:that|which|where)\s+(.+?)\s+(?:is|was|lies|sits)\s+(?:located\s+|situated\s+|found\s+)?"
                            r"(?:in\s+)?(?:also\s+)?(?:contain|include)\s+((?-i:[A-Z]).+?)\s*\?\s*$", re.I | re.S)


# "X was a professor at a university; in what year was that university founded?": a statement that introduces a
# thing ("a university"), then a question about it ("that university", "the band", or a pronoun)
_STATED_THEN_ASKED = re.compile(r"^\s*(?P<stmt>[^;?]{8,200}?)\s*(?:;|(?<!\b[A-Z])\.|\s[-\u2013\u2014]|"
                                r",(?=\s+(?:who|whom|what|which|when|where|how)\b))\s+"
                                r"(?P<q>(?-i:[A-Za-z])[^;.]*\?)\s*$",
                                re.S)
_WHICH_ONE = re.compile(r"^\s*(?:which|what)(?:\s+(?P<n>(?-i:[a-z][\w-]*)))??(?:\s+one|\s+(?:is|was)\s+(?:it|that))?\s*\?\s*$",
                        re.I)
_SHE = frozenset("wife mother daughter sister actress queen princess grandmother aunt niece woman girl".split())
_HE = frozenset("husband father son brother actor king prince grandfather uncle nephew man boy".split())
_PREPS = "at|in|for|from|of|on|by|with|to|into|under"
_PLACES = (_PLACE_KINDS - {"nation"}) | frozenset("city town country place area".split())
# words that stand for any thing introduced before ("replaced an Argentine footballer. When was that man born?")
_GENERIC = frozenset("man woman person one guy lady fellow individual thing place".split())


_REF = re.compile(r"(?i)\b(?:that|this|the|said)\s+(?:(?-i:[a-z][\w-]*)\s+){0,3}?((?-i:[a-z][\w-]*))(?:['’]s\b)?")


def _referred(stmt: str, ask: str) -> tuple[re.Match[str] | None, tuple[str, str, bool] | None]:
    """The phrase of ``ask`` that refers to a thing ``stmt`` introduced, and that thing (see _introducing): the
    first "the / that N" when the statement introduces its noun, else a "that N" after a preposition or verb that
    does ("the political party that holds the majority in that body": "that body"), else the first such phrase and
    the statement's last thing."""
    refs = [r for r in _REF.finditer(ask) if not (r.group(1).lower() in _GENERIC and re.match(
        r"\s+(?:who|whom|that|which)\b", ask[r.end():]))]  # "the person who performed it": one the question describes
    pointed = [r for r in refs if re.match(r"(?i)(?:that|this|said)\s", r.group(0)) and (r.start() == 0 or re.search(
        rf"(?i)\b(?:{_PREPS}|is|was|are|were|did|does|do)\s+$", ask[:r.start()]))]  # "in that body", not "the
    # party that holds": a relative "that" after its noun
    first = _REF.search(ask)
    head = [first] if first is not None and any(r.span() == first.span() for r in refs) else []
    for ref in head + [r for r in pointed if not head or r.span() != head[0].span()]:  # the first, then one that
        if ref.group(1).lower() not in _GENERIC and (intro := _introducing(stmt, ref.group(1))) is not None:  # points
            return ref, intro  # back
    return (head[0] if head else None), _introducing(stmt, None)


def _introduced(q: str) -> str | None:
    """The question with the thing a statement before it introduced named in full: "X was a professor at a
    university; in what year was that university founded?" -> "In what year was the university at which X was a
    professor founded?"; "X has a wife. When is her birthday?" -> "When is the birthday of X's wife?"."""
    m = _STATED_THEN_ASKED.match(q)
    if m is None or re.match(r"(?i)\s*(?:who|whom|when|where)\b", m.group("stmt")) or \
            re.search(r"(?i)\b(?:what|which|how)\b", m.group("stmt")) or \
            re.search(r"(?i),\s*and\s+(?:there|it|he|she|they|this|that)\b", m.group("stmt")):
        return None  # (a relative "who" / "where" may describe in a statement: "The trainer who bred X was ..."; two
        # statements joined, "X was born in a place, and there was a battle there", introduce more than one thing)
    stmt, ask = m.group("stmt").strip(), m.group("q")
    ref, intro = _referred(stmt, ask)
    if intro is None:
        return None
    thing, n, itself = intro
    if itself and n.lower() in _person_nouns() and re.search(r"(?i)(?<![\w'])(?:it|its)(?![\w'])", ask):
        # "X was a professor at a university. In what year was it established?": "it" is not the professor
        last = re.findall(r"(?i)\ban?\s+(?:(?-i:[a-z][\w-]*)\s+){0,3}?((?-i:[a-z][\w-]*))\b", stmt)
        if last and last[-1].lower() != n.lower() and (other := _introducing(stmt, last[-1])) is not None:
            thing, n, _ = other
            itself = True  # "it" is this thing, the only one the statement introduces that "it" can be
    which = _WHICH_ONE.match(ask)  # "X was killed at an airport in Y. Which one?" / "Which airport was it?"
    if which and not itself and which.group("n") in {None, "one", n.lower(), n.lower() + "s"}:
        return f"{'Who' if n.lower() in _person_nouns() else 'What'} is {thing}?"  # "Which explorer was it?": a person
    if ref is not None and (ref.group(1) == n or ref.group(1).lower() in _GENERIC):
        if ref.group(0).endswith(("'s", "’s")):  # "one of that college's locations": the locations of the college
            do = re.search(r"(?i)\b(?:do|does|did)\b", ask[:ref.start()])  # ("what does that film's title mean?":
            after = re.match(r"\s+((?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*)){0,2}?)(?=\s+(?-i:[a-z]+)\s*\?\s*$)", ask[ref.end():]) \
                if do else re.match(r"\s+((?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*)){0,2})(?=\s*\?\s*$)", ask[ref.end():])
            after = after or \
                re.match(r"\s+((?-i:[a-z][\w-]*))", ask[ref.end():])  # "mean" is the verb) "that university's
            # founding year?": all of it
            if after is None:
                return None
            owned_end = _owned_noun_end(ask, ref.end())  # the noun the parse says is owned: "that book's author"
            if owned_end is not None and owned_end < ref.end() + after.end():  # (not "... write in total")
                out = f"{ask[:ref.start()]}the {ask[ref.end():owned_end].strip()} of {thing}{ask[owned_end:]}"
                return out[:1].upper() + out[1:]
            out = f"{ask[:ref.start()]}the {after.group(1)} of {thing}{ask[ref.end() + after.end():]}"
        else:
            out = f"{ask[:ref.start()]}{thing}{ask[ref.end():]}"
        return out[:1].upper() + out[1:]
    there = re.search(r"(?i)(?<![\w'])there(?![\w'])", ask)
    before_there = ask[:there.start()].rstrip().split()[-1:] if there else []
    if there and n.lower() in _PLACES and not itself and before_there and (
            re.fullmatch(rf"(?i)(?:{_PREPS}|near)", before_there[0]) or before_there[0][:1].isupper() and not
            _ASKS.match(before_there[0])) and \
            not re.match(r"\s+(?:be|been|is|are|was|were|used|ever|has|have|had)\b", ask[there.end():]):
        # ("Has there ever been ...?", "Why did he leave there?": no place named)
        prep = re.search(rf"\b(?:{_PREPS}|near)\s+$", ask[:there.start()])  # "depart from there": from the city
        out = f"{ask[:there.start()]}{'' if prep else 'in '}{thing}{ask[there.end():]}"  # "What was built there?"
        return out[:1].upper() + out[1:]
    said = re.findall(r"(?i)(?<![\w'])(?:it|its|he|his|him|she|her|they|their)(?![\w'])", ask)
    # a gendered pronoun only: "it" may as well be the statement's subject ("Amazon was founded in a garage. Who
    # founded it?")
    gender = {"she", "her"} if n.lower() in _SHE else {"he", "his", "him"} if n.lower() in _HE else \
        {"he", "his", "she", "her"} if n.lower() in _person_nouns() and not itself and not _person_first(stmt) else \
        {"it", "its"} if itself else ({"its", "it"} if re.search(r"(?i)\bit\s*\?\s*$", ask) or re.search(
            r"(?i)\b(?:was|is|were|are)\s+it\s+(?-i:[a-z]+(?:ed|en)|built|made|held|set\s+up)\b(?!\s+(?:to|that)\b)", ask)
            else {"its"}) \
        if _person_first(stmt) else set()  # "X appeared in a film; who was its
    # director?" ("is it true?" asks of no film)
    if len(said) != 1 or said[0].lower() not in gender or said[0].lower() == "him":
        return None
    word = said[0]
    if word.lower() in {"it", "its"} and not itself:  # "it": the one thing (no person) the statement introduces
        things = [w for w in re.findall(r"(?i)\b(?:an?|some)\s+(?:[\w-]+\s+){0,3}?((?-i:[a-z][\w-]*))\b", stmt)
                  if w.lower() not in _person_nouns() | _HE | _SHE]
        if len(things) != 1:
            return None  # ("X held a professorship at a university; when was it established?": which one?)
        if things[0].lower() != n.lower() and (other := _introducing(stmt, things[0])) is not None:
            thing = other[0]
    asked = re.sub(rf"(?<![\w']){word}(?![\w'])", "its", ask) if word.lower() in {"his", "her"} and re.search(
        rf"(?i)(?<![\w']){word}\s+(?-i:[a-z])", ask) else ask
    said_of = _said_of(asked, thing)
    return None if said_of is None else said_of[:1].upper() + said_of[1:]


_DONE_BY = re.compile(r"(?!(?:in|on|at|during|after|before|since|by|for)\s)(?P<x>.+?)\s+"
                      r"(?P<be>was|were|is|are|has\s+been|had\s+been)\s+(?P<v>(?-i:[a-z]+))\s+by\s+"
                      r"(?:someone|somebody|a\s+person|an?\s+(?:(?-i:[A-Z])[\w-]*\s+)?(?P<n>[A-Za-z][a-z-]+))", re.I)


_THERE_CALLED = re.compile(r"there(?:['’]s|\s+is|\s+was|\s+exists)\s+(?:an?|this|one)\s+(?P<mods>(?:[\w-]+\s+){0,3}?)"
                           r"(?P<n>(?-i:[a-z][\w-]*))\s+(?:called|named|titled|entitled|known\s+as)\s+(?P<x>.+)", re.I)


# a pair named in a statement, then a choice asked between them with no options of its own
_PAIR_SET_UP = re.compile(rf"^({_ALT})\s+and\s+({_ALT})\s+(?:each\s+|both\s+)?(?:have|has|had|are|were|is|was)\b[^.?]*\.\s+"
                          r"((?:which|who|whose)\b[^?]*?)\s*\?$", re.I | re.S)
# the past tense of a participle that is not the same word ("a school run by a charity": the charity ran it)
_PAST_OF = {"run": "ran", "written": "wrote", "given": "gave", "taken": "took", "sung": "sang", "drawn": "drew",
            "chosen": "chose"}


def _owned_noun_end(ask: str, at: int) -> int | None:
    """Where the noun after a possessive at `at` ends, by the parse ("that book's author write ..." -> after
    "author"); None when the parse does not say."""
    doc = _nlp()(ask)
    first = next((t for t in doc if t.idx >= at), None)
    poss = next((t for t in doc if t.dep_ == "poss" and t.idx < at and t.head.i >= (first.i if first else len(doc))),
                None)
    if first is None or poss is None or poss.head.pos_ not in {"NOUN", "PROPN"}:
        return None
    end = _of_noun(doc, poss.head)
    return doc[end].idx + len(doc[end].text)


def _locates(name: str) -> bool:
    """"Massachusetts" in "Cambridge, Massachusetts": a country or a region of one, naming where the name before
    it is (not a second name to compare)."""
    from kmrag.nlp.places import countries_of

    return bool(countries_of(name.strip(), city=False))


def _people(word: str) -> bool:
    from kmrag.nlp.places import people_of

    return bool(people_of(word))


def _noun_phrase(text: str) -> bool:
    """Is ``text`` a noun phrase (its head a noun, no clause of its own: "the guitarist who co-wrote X" is, "Lennon
    wrote Imagine" is not)?"""
    doc = _nlp()(text)
    relative = next((t.i for t in doc if t.lower_ in {"who", "that", "which", "whose", "whom"}), len(doc))
    return not any(t.tag_ in {"VBD", "VBZ", "VBP", "MD"} or t.dep_ in {"nsubj", "nsubjpass"} and t.head.i < relative
                   for t in doc[:relative])
    # (a finite verb or a subject before any relative pronoun: a clause, "The Titanic sank in 1912"; not a thing,
    # "the guitarist who co-wrote X")


def _singular_noun(plural: str) -> str:
    """"universities" -> "university", "movies" -> "movie", "series" -> "series" (the lemmatiser's)."""
    return str(_nlp()(f"the {plural}")[1].lemma_)


def _listed_choice(m: re.Match[str]) -> str:
    """"Which of two films has the older director: A, B" -> "Which film has the older director, A or B?"."""
    if not _COMPARED_BY.search(m.group(1)):
        return m.group(0)  # "Who wrote these: Hamlet and Othello?" asks of both, no choice
    asked = re.sub(r"(?i)^which\s+of\s+(?:the\s+)?two\s+((?-i:[a-z]+s))\b", lambda w: f"Which {_singular_noun(w.group(1))}",
                   m.group(1))
    return f"{asked}, {m.group(2)} or {m.group(3)}?"


def _base(verb: str) -> str:
    """A past form's base: "graduated" -> "graduate"."""
    return str(_nlp()(f"They {verb.lower()}.")[1].lemma_)


def _lower_article(text: str) -> str:
    """"The director of X" -> "the director of X": an article that opened a sentence, not a title's ("The Who")."""
    return re.sub(r"^(The|A|An)(?=\s+(?-i:[a-z]))", lambda m: m.group(1).lower(), text.strip())


def _points_at_one(asked: str) -> bool:
    """Does the question point at one of a pair named before it ("who directed the first?"), not ask which came
    first ("which was the first founded?", "who was the first?")?"""
    ref = _REFERRED.search(asked)
    return ref is not None and not re.search(r"(?i)\b(?:is|was|are|were)\s+$", asked[: ref.start()])


def _pair_choice(m: re.Match[str]) -> str:
    """"A and B — who was born more recently?" -> "Who was born more recently, A or B?"; not when the pair is no pair
    of names ("War and Peace and Anna Karenina", "I like A and B", "A and B are films") or the question points at
    one of the two ("who wrote the first?"); "the first or the second" offered again is dropped."""
    a, b, asked = m.group(1), m.group(2), m.group(3)
    if _NOT_A_NAME_FIRST.match(a) or re.search(r"\s(?-i:and|are|were|is|was)\s", f" {a} {b} ") or _points_at_one(asked):
        return m.group(0)
    asked = _BOTH_OFFERED.sub("", asked)
    return f"{asked[:1].upper()}{asked[1:]}, {a} or {b}?"


def _pair_referred(q: str) -> str:
    """"Titanic and Avatar are films: who directed the first?" -> "Who directed Titanic?": a pair named, then one
    of the two asked about as the first / the former or the second / the latter."""
    m = _PAIR_REFERRED.match(q)
    if not m or len(m.group(1).split()) > 8 or len(m.group(2).split()) > 8 or \
            len(re.findall(r"\s(?-i:and)\s", q[m.start(1):m.end(2)])) != 1 or _NOT_A_NAME_FIRST.match(m.group(1)):
        return q  # ("Pride and Prejudice and Emma ...", "Both Titanic and Avatar ...", "I like Titanic and ...")
    if len(_ORDINAL.findall(m.group(3))) != 1 or (ref := _REFERRED.search(m.group(3))) is None or \
            re.search(r"(?i)\b(?:is|was|are|were|be|been)\s+$", m.group(3)[: ref.start()]):
        return q  # one pointer, not said of the answer ("which was the first founded?", "who was the first?": who
        # came first, a comparison; "was the first older than the second?": both)
    name = m.group(1) if ref.group(1).lower() in {"first", "former"} else m.group(2)
    asked = m.group(3)[: ref.start()] + name.strip() + m.group(3)[ref.end():]
    return asked[:1].upper() + asked[1:]


def _pair_then_asked(m: re.Match[str]) -> str:
    """"A and B are villages. Are they in the same country?" -> "Are A and B in the same country?"; "Which of them
    has the older director?" -> "Which has the older director, A or B?"; the statement as it was otherwise."""
    a, b, ask = m.group(1).strip(), m.group(2).strip(), m.group(3)
    which = re.match(r"(?i)(which|who)(?:\s+one)?\s+of\s+(?:them|the\s+two)\s+(.+?)\s*\?$", ask)
    if which:
        return f"{which.group(1).capitalize()} {which.group(2)}, {a} or {b}?"
    whose = re.match(r"(?i)((?:which(?:\s+one|\s+(?-i:[a-z]+))?['’]s|whose)\s+.+?)\s*\?$", ask)
    if whose and _COMPARED_BY.search(ask):  # "A and B are two films. Which one's director was born first?"
        return f"{whose.group(1)[:1].upper()}{whose.group(1)[1:]}, {a} or {b}?"
    they = re.match(r"(?i)(are|were|do|did|have|had)\s+(?:they|both\s+of\s+them)(\s+both)?\s+(.+?)\s*\?$", ask)
    if they:
        return f"{they.group(1).capitalize()} {a} and {b}{' both' if they.group(2) else ''} {they.group(3)}?"
    return m.group(0)


def _person_first(stmt: str) -> bool:
    """Does the statement open with a person's name (so "it" / "its" after it is the thing it introduced)?"""
    return any(e.label_ == "PERSON" and e.start == 0 for e in _nlp()(stmt).ents)


def _introducing(stmt: str, noun: str | None) -> tuple[str, str, bool] | None:
    """(the thing ``stmt`` introduces with "a", said in full, its noun, whether it is the statement's subject
    itself): "X was a professor at a university" ->
    "the university at which X was a professor"; "X has a wife" -> "X's wife". ``noun``: the one asked about,
    else the statement's last "a" noun."""
    there = _THERE_CALLED.fullmatch(stmt.strip())
    if there and (noun is None or noun.lower() == there.group("n").lower()):  # "There's a song called X": X
        return f"the {there.group('mods') or ''}{there.group('n')} {there.group('x').strip()}", there.group("n"), True
    by = _DONE_BY.fullmatch(stmt.strip())
    if by and (noun is None or noun.lower() == (by.group("n") or "").lower()):
        x = by.group("x")  # "X was directed by someone": the director of X; "made by a King": the King who made X
        x = x[0].lower() + x[1:] if re.match(r"(?:The|A|An)\s", x) else x
        if agent := agent_of(by.group("v")):
            return f"the {agent} of {x}", by.group("n") or "person", False
        if by.group("n") and by.group("v").endswith(("ed", "de", "ote", "ung", "ang", "ilt", "ew")) and \
                by.group("be").lower() in {"was", "were"}:
            who = "who" if by.group("n").lower() in _person_nouns() | _HE | _SHE else "that"
            return f"the {by.group('n')} {who} {by.group('v')} {x}", by.group("n"), False
    word = re.escape(noun) if noun else r"(?-i:[a-z][\w-]*)"
    found = list(re.finditer(rf"(?:\s(?P<prep>{_PREPS}))?\s+(?:an?|some)\s+(?P<mods>(?:(?!(?:an?|the|some|{_PREPS})\b)"
                             rf"[\w-]+\s+){{0,4}}?)"
                             rf"(?P<n>{word})\b(?P<rest>(?:\s+(?:{_PREPS}|called|named|known|(?-i:[a-z]{{3,}}(?:ing|ed)))\b[^;?]*)?)$", " " + stmt, re.I))
    found = [f for f in found if not (" " + stmt)[:f.start()].rstrip().endswith(",")]  # (", a television series
    # made for Netflix,": an apposition says what the name before it is; it introduces nothing)
    if not found:
        return None
    m = found[-1]
    before = (" " + stmt)[:m.start()].strip()
    n, rest = m.group("n"), m.group("rest").rstrip()
    mods = re.sub(r"(?i)\b(?:certain|particular|specific)\s+", "", m.group("mods"))  # "a certain series": the series
    if not before:  # "A political body passed a bill ...": the thing that did it (not "A film directed by X")
        did = re.match(r"\s+((?-i:[a-z]+ed|wrote|led|built|sang|won|made|held|began|founded|gave|took|ran|won))\s+"
                       r"(?:an?|the|some|his|her|its|their|(?-i:[A-Z]))", rest)
        if did and did.group(1).lower() not in {"called", "named", "titled", "entitled", "located", "situated", "based"}:
            return f"the {mods}{n} that{rest}", n, False
        return None
    owner = re.fullmatch(r"(.+?)\s+(?:has|had|have)", before)
    if owner and not m.group("prep") and not rest:
        if re.match(r"(?:The|A|An)\s+(?-i:[a-z])", owner.group(1)):  # "The film X had a director": the director of
            return f"the {mods}{n} of {_lower_article(owner.group(1))}", n, False  # the film X
        return f"{owner.group(1)}'s {mods}{n}", n, False
    copula = re.fullmatch(r"(.+?)\s+(?:is|was|are|were)", before)
    if copula and not m.group("prep"):  # "Lufthansa is an airline": the airline is Lufthansa ("it" too)
        return copula.group(1), n, True
    before = before[0].lower() + before[1:] if re.match(r"(?:The|A|An|In|On|At|During|After|Before|For)\s", before) \
        else before
    link = f"{m.group('prep').lower()} which" if m.group("prep") else "that"
    done = re.fullmatch(rf"(?P<s>.+?)\s+(?P<p>{_PREPS})\s+(?:an?|the)\s+(?P<o>(?:[\w'’-]+\s+){{0,5}}?[\w'’-]+)\s+"
                        r"(?P<v>(?-i:[a-z]{3,}ed|built|held|won|run|made|led|written|given|taken|sung|drawn|shot|"
                        r"owned|kept|sold|bought|taught|chosen))", before, re.I)
    if link == "by which" and done and not re.search(r"(?i)\b(?:is|are|was|were|been|be)$", done.group("o")):
        # "X played in a cup hosted by a state": the state that hosted the cup in which X played
        active = _PAST_OF.get(done.group("v").lower(), done.group("v"))  # "a school run by a charity": it ran it
        return (f"the {mods}{n}{rest} that {active} the {done.group('o')} {done.group('p').lower()} which "
                f"{done.group('s')}"), n, False
    return f"the {mods}{n}{rest} {link} {before}", n, False


def _topic_name(lead: str) -> str:
    """The name in a topic lead: "Just finished watching Carmen Jones (Film)" -> "Carmen Jones (Film)"; "Film:
    Sixteen Daughters" -> "Sixteen Daughters"."""
    return _TOPIC_LEAD.sub("", _TOPIC_LABEL.sub("", lead)).strip(" .,;")


def _restated(q: str) -> str | None:
    """Questions worded around what they ask, read in the direct form: a statement with a question mark, a
    comparison introduced by "if you compare", a relative clause over two names, "does the country that A is in
    also contain B"."""
    m = _COMPARE_LEAD.match(q)
    if m and len(m.group(1).split()) <= 10 and len(m.group(2).split()) <= 10:
        return f"{m.group(3).capitalize()} {m.group(1)} and {m.group(2)} {m.group(4)}"
    m = _WHOSE_BOTH.match(q)
    if m and len(m.group(1).split()) <= 16:
        rest = m.group(3)
        aux = re.match(r"(?i)(are|were|is|was)\s+(.*)$", rest, re.S)
        if aux:
            return f"{aux.group(1).capitalize()} the {m.group(2)} of {m.group(1)} {aux.group(2)}"
        if q.lstrip()[:3].lower() == "are":  # "whose directors come from": present, "do"; a past verb is left
            return f"Do the {m.group(2)} of {m.group(1)} {rest}"
    m = _ALSO_CONTAINS.match(q)
    if m and len(m.group(2).split()) <= 10 and len(m.group(3).split()) <= 10:
        return f"Are {m.group(2)} and {m.group(3)} located in the same {m.group(1).lower()}?"
    m = _DECLARATIVE.match(q)
    if m and len(m.group(1).split()) <= 30:
        return _as_yes_no(m.group(1))
    return None


_OWNED = re.compile(r"(?i)\b(?:its|his|her|their)\s+([a-z][\w-]*)")
_PRONOUN = re.compile(r"(?i)(?<![\w'])(?:it|he|she|they)(?![\w'])")


def _said_of(question: str, topic: str) -> str | None:
    """The question with its one pronoun for the topic replaced: "When was its director born?" -> "When was the
    director of <topic> born?"; "In what city does it have a building?" -> "... does <topic> have ...?"."""
    owned, bare = _OWNED.findall(question), _PRONOUN.findall(question)
    if len(bare) == 1 and len(owned) == 1 and bare[0].lower() in {"he", "she"} and re.search(
            rf"(?i)\b{'his' if bare[0].lower() == 'he' else 'her'}\s+{re.escape(owned[0])}\b", question):
        owned = []  # "where did she get her degree?": the topic is "she", and "her degree" stays hers
    elif len(owned) + len(bare) != 1:
        return None
    topic = _lower_article(topic)  # "the studio album ..."
    if owned:
        out = _possessed(question, topic) or _OWNED.sub(lambda m: f"the {m.group(1)} of {topic}", question, count=1)
    else:
        out = _PRONOUN.sub(lambda m: re.sub(r"^The\b", "the", topic) if m.start() else topic, question, count=1)
    return out[:1].upper() + out[1:]


def _possessed(question: str, topic: str) -> str | None:
    """The pronoun's thing said of the topic, the whole noun and what owns it in turn: "what was his first name"
    -> "what was the first name of <topic>"; "its director's birth date" -> "the birth date of the director of
    <topic>"."""
    doc = _nlp()(question)
    pron = next((t for t in doc if t.lower_ in {"its", "his", "her", "their"} and t.dep_ == "poss"), None)
    if pron is None or pron.head.i <= pron.i:
        return None
    head = pron.head
    if head.dep_ == "ROOT" and head.i - 1 > pron.i and any(t.dep_ == "aux" and t.head.i == head.i for t in doc):
        head = doc[head.i - 1]  # "what does its cover art depict": the verb misread as the noun "its" owns
    end = _of_noun(doc, head)
    thing = f"the {doc[pron.i + 1: end + 1].text} of {topic}"
    while head.dep_ == "poss" and head.i + 1 < len(doc) and doc[head.i + 1].tag_ == "POS" and head.head.i > head.i + 1:
        outer = head.head  # "director's birth date": the date of the director
        end = _of_noun(doc, outer)
        thing = f"the {doc[head.i + 2: end + 1].text} of {thing}"
        head = outer
    return question[:pron.idx] + thing + question[doc[end].idx + len(doc[end].text):]


def _of_noun(doc: Any, noun: Any) -> int:
    """The last token of a noun with its bare "of" noun ("date of birth"), else the noun's own."""
    nxt = noun.i + 1
    if nxt + 1 < len(doc) and doc[nxt].lower_ == "of" and doc[nxt].head == noun and doc[nxt + 1].pos_ == "NOUN" \
            and doc[nxt + 1].head == doc[nxt]:
        return nxt + 1
    return noun.i


_WH_LAST = re.compile(r"^(?!(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did)\b)"
                      r"(?P<clause>(?:(?!\b(?:what|how)\b).)+?)\s+"  # a relative "who" / "which" may be in it
                      r"(?:(?P<prep>in|on|at|of|from|for|by|to|with|into)\s+)?"
                      r"(?:(?P<det>which|what|whose)\s+(?P<noun>(?:(?-i:[A-Z])[\w'’.-]*,?\s+){0,4}?\w+)|(?P<wh>who|whom|what|when|where))"
                      r"\s*\?$", re.I | re.S)
_TOPIC_SPLIT = re.compile(r"^([^:?\u2013\u2014]{2,80}?)\s*(?::|\s[-\u2013\u2014])\s*((?-i:[a-z])[^:?\u2013\u2014]*\?)\s*$")
# "director of X — born when?", "X director — died where?": the person, then what is asked of them
_BORN_WHEN = re.compile(r"^\s*(.+?)\s*(?::|\s[-\u2013\u2014])\s*(?:(?:his|her|their)\s+)?(?:(born|died)\s+(when|where)|"
                        r"(birth|death)\s*(year|date|place)|(year|date|place)\s+of\s+(birth|death))"
                        r"\s*\??\s*$", re.I)
_WHEN_NOUNS = {"year", "date", "day", "month", "decade", "century"}


def _in_situ(q: str) -> str:
    """The wh-word at the end: "The team X played for was in which league?" -> "Which league was the team X
    played for in?"; "Lufthansa was founded in what year?" -> "When was Lufthansa founded?"; "X was born
    where?" -> "Where was X born?"."""
    topic = _TOPIC_SPLIT.match(q)  # "X — its director died when?": the question after the topic, turned round
    if topic and (turned := _in_situ(topic.group(2)[:1].upper() + topic.group(2)[1:])) != topic.group(2)[:1].upper() + \
            topic.group(2)[1:]:
        return f"{topic.group(1)} \u2014 {turned[:1].lower()}{turned[1:]}"
    m = _WH_LAST.match(q)
    if m is None or _asked_inside(m.group("clause")) or re.search(r"[.:;\u2013\u2014-]$", m.group("clause")):
        return q  # (not "X is near a capital — which one?", "... one of them is older. Which one?": the wh-word
        # points back, to no clause of its own)
    inverted = _invert(m.group("clause"))
    if inverted is None:
        return q
    body = _article_lowered(inverted[0].lower() + inverted[1:])  # the auxiliary
    prep = m.group("prep")
    if m.group("det"):
        noun = m.group("noun").lower().split()[-1]  # "which Fayette County, Kentucky airport": an airport
        if noun in {"month", "decade", "century"}:
            return q  # the month asked, as asked: "When ...?" would take any date ("2017" for "November 2017")
        if noun in _WHEN_NOUNS and prep in {None, "in", "on"}:
            return f"When {body}?"
        return f"{m.group('det').capitalize()} {m.group('noun')} {body}{' ' + prep if prep else ''}?"
    return f"{m.group('wh').capitalize()} {body}{' ' + prep if prep else ''}?"


def _article_lowered(body: str) -> str:
    """"did The director of X die": the article that opened the statement is no title's."""
    first, _, rest = body.partition(" ")
    return f"{first} {_lower_article(rest)}" if rest else body


def _asked_inside(clause: str) -> bool:
    """Does the wh-word at the end go with a clause inside ("X was bred by the trainer who was killed at what
    airport?": the trainer was killed there), not with the main verb ("The singer who performed X was born
    where?")?"""
    verbs = [t for t in _nlp()(clause) if t.pos_ in {"VERB", "AUX"}]
    if not verbs:
        return False
    last = verbs[-1]
    main = last if last.dep_ not in {"aux", "auxpass"} else last.head
    return main.dep_ not in {"ROOT", "xcomp"}


_SAME_AS = re.compile(r"^(is|was|are|were)\s+(.+?)\s+((?:[a-z]+ed|born|made|built|written|shot)\s+)?(of\s+|from\s+|in\s+|)"
                      r"the\s+same\s+([\w ]+?)\s+as\s+(.+?)\s*\?$", re.I | re.S)
# "Did A come from the same country as B?" -> "Is A from the same country as B?" (then as above)
_COME_FROM_SAME = re.compile(r"^(?:did|does|do)\s+(.+?)\s+(?:come|originate|stem)\s+from\s+(the\s+same\s+[\w ]+?\s+as\s+.+\?)$",
                             re.I | re.S)


def _share(q: str) -> str:
    """"Do A and B share a nationality?" -> "Do A and B have the same nationality?"; "Is A of the same
    nationality as B?" -> "Are A and B of the same nationality?"; "Does A share a nationality with B?" -> "Do A
    and B have the same nationality?"."""
    q = _COME_FROM_SAME.sub(r"Is \1 from \2", q)
    m = _SHARE_WITH.match(q)
    if m and len(m.group(1).split()) <= 12 and len(m.group(3).split()) <= 12:
        return f"Do {m.group(1)} and {m.group(3)} have the same {m.group(2)}?"
    m = _SAME_AS.match(q)
    if m and " or " not in m.group(6) and not any(t.pos_ in {"VERB", "AUX"} and not t.text[:1].isupper()
                                                  for t in _nlp()(m.group(6))):
        # not "as his wife died" (a clause) nor "as Nuremberg or Augsburg"
        aux = {"is": "Are", "was": "Were"}.get(m.group(1).lower(), m.group(1).capitalize())
        return f"{aux} {m.group(2)} and {m.group(6)} {m.group(3) or ''}{m.group(4) or 'of '}the same {m.group(5)}?"
    return _SHARE.sub(lambda m: f"have the same {m.group(1)}", q)


def _doers(q: str) -> str:
    """"the person who directed X" / "whoever wrote X" -> "the director of X" / "the writer of X"."""
    def sub(m: re.Match[str]) -> str:
        agent = agent_of(m.group(3))
        if agent is None or (m.group("noun") and m.group("noun") not in _ANY_DOER):
            return m.group(0)  # "the film that produced X" is no doer; "the king who built X" is more than one
        return ("The" if m.start() == 0 else "the") + f" {agent}{'s' if m.group('many') else ''} of "
    out = _DOER.sub(sub, q)
    m = _BY_SOMEONE.match(out)
    if m and agent_of(m.group(3)):
        many = "s" if m.group(4).lower() in {"people", "persons", "men", "women", "individuals"} else ""
        return f"{m.group(1).capitalize()} the {agent_of(m.group(3))}{many} of {m.group(2)} {m.group(5)}"
    m = _BY_WHOM_OF.match(out)
    if m and agent_of(m.group(2)):
        return f"What {m.group(4).lower()} is the {agent_of(m.group(2))} of {m.group(1)}?"
    m = _IN_SITU.match(out)
    if m and agent_of(m.group(2)):
        wh = "Where" if m.group(5).lower() in {"place", "city", "town", "country"} else "When"
        verb = "was the {} of {} born" if m.group(4).lower() == "born" else "did the {} of {} die"
        thing = m.group(1)[0].lower() + m.group(1)[1:] if m.group(1).startswith("The ") else m.group(1)
        return f"{wh} {verb.format(agent_of(m.group(2)), thing)}?"
    return _by_one_who(out)


# "X was directed by someone who died when?", "X was performed by a group formed in what year?", "X was directed
# by someone from which country?": the doer, then the question asked of it
_BY_ONE_WHO = re.compile(r"^(?P<x>.+?)\s+(?P<be>was|were|is|are)\s+(?P<v>(?-i:[a-z]+))\s+by\s+(?:someone|somebody|a\s+person|"
                         r"an?\s+(?P<n>(?-i:[a-z]+)))\s+(?:(?:who|that)\s+(?:(?P<passive>was|were)\s+)?)?"
                         r"(?P<pred>(?-i:[a-z]+)(?:\s+(?:in|on|at))?)?\s*"
                         r"(?P<wh>when|where|(?:in|on|at|from)\s+(?:what|which)\s+(?P<noun>year|date|day|city|country|place|"
                         r"state|town))\s*\?$", re.I | re.S)


def _by_one_who(q: str) -> str:
    """"X was directed by someone who died when?" -> "When did the director of X die?"; "X was popularized by a
    singer born in what year?" -> "In what year was the singer who popularized X born?"; "X was directed by
    someone from which country?" -> "Which country is the director of X from?"."""
    m = _BY_ONE_WHO.match(q)
    if m is None:
        return q
    x = m.group("x")
    x = x[0].lower() + x[1:] if re.match(r"(?:The|A|An)\s", x) else x
    agent, n = agent_of(m.group("v")), m.group("n")
    if n and n.lower() not in {"person", "man", "woman"}:  # "a group formed in ...": the group by which X was performed
        doer = f"the {n} by {'whom' if n.lower() in _person_nouns() else 'which'} {x} {m.group('be').lower()} {m.group('v')}"
    elif agent:
        doer = f"the {agent} of {x}"
    else:
        return q
    pred = (m.group("pred") or "").split()
    noun = (m.group("noun") or "").lower()
    if not pred:
        if m.group("wh").lower().startswith("from") and noun in {"country", "city", "place", "state", "town"}:
            return f"Which {noun} is {doer} from?"
        return q
    verb = pred[0].lower()
    wh = "In what year" if noun == "year" else "When" if m.group("wh").lower() == "when" or noun in {"date", "day"} \
        else "Where"
    if m.group("passive") or verb in {"born", "formed", "founded", "established", "created", "buried", "raised",
                                      "educated", "based", "located", "headquartered", "situated"}:  # "who was knighted when?": when was he knighted
        return f"{wh} was {doer} {verb}?"
    return f"{wh} did {doer} {_base(verb)}?"


# "Which film was directed by the older person, A or B?" -> "Which film has the director born first, A or B?"
_BY_THE_OLDER = re.compile(r"\b(?:is|was|were|are)\s+([a-z]+)\s+by\s+the\s+(?:(older|elder|younger)\s+"
                           r"(?:person|man|woman|one|individual|people|of\s+the\s+two)|(?:person|man|woman|one|"
                           r"individual)\s+(?:who\s+was\s+)?born\s+(first|earlier|later|last))\b", re.I)


# "Who would the maternal grandfather of X be?" -> "Who is the maternal grandfather of X?"
_WOULD_BE = re.compile(r"^((?i:who|what|where|which|when))\s+would\s+((?i:the|a|an)\s.+?|(?-i:[A-Z]).+?)\s+be\s*\?\s*$", re.S)
# "On his mother's side, who was the grandfather of X?" -> "Who was the maternal grandfather of X?"
# "Are both A and B American?" -> "Are A and B both American?" (not "B American" read as one name)
_BOTH_FIRST = re.compile(r"^\s*(are|were)\s+both\s+(.+?)\s+and\s+(.+?)\s+((?-i:[A-Z][a-z]+(?:an|ian|ese|ish|ch|i)))\s*\?\s*$",
                         re.I)
# "Is A or B the older institution?" -> "Which is the older institution, A or B?"
_OR_THE_ER = re.compile(rf"^\s*((?i:is|was|are|were))\s+({_ALT})\s+or\s+({_ALT})\s+(the\s+(?:[a-z]+er|more\s+[a-z]+|less\s+[a-z]+|"
                        r"elder|first|last)\b[^?]*?)\s*\?\s*$", re.S)
# a statement, not a topic: "X was developed by an English inventor — when was he born?"
# "X was employed at some place — where does it rank?": the pronoun is the unnamed place's, not the statement's
_SOME_ONE = re.compile(r"\b(?:some(?:one|body|thing|where)|some\s+[a-z]+)\b")  # (not "Someone Like You")
_CLAUSE_TOPIC = re.compile(r"\b(?:is|was|are|were|has\s+been|had\s+been)\s+(?:[a-z]+ly\s+)?(?-i:[a-z]+(?:ed|en))\s+by\b", re.I)
# "X — his mum's dad was who?": a topic, then what one of its own is, asked at the end
_TOPIC_THEN_OWNED_WH = re.compile(r"^\s*(.+?)\s*(?::|\s[-\u2013\u2014])\s*((?:his|her|its|their)\s+[^?]+?)\s+(was|is|were|are)\s+"
                                  r"(who|what|where|when)\s*\?\s*$", re.I | re.S)
# "Abso Lutely Productions produced which series starring X?" -> "Which series starring X was produced by Abso Lutely
# Productions?" (a name, a regular verb's past, the thing asked after it)
_DONE_WHICH = re.compile(r"^\s*(?!(?i:who|whom|whose|what|which|when|where|why|how|is|are|was|were|did|does|do)\b)((?-i:[A-Z])[\w.'&-]*(?:\s+(?-i:[A-Z])[\w.'&-]*){0,5})\s+((?-i:[a-z]{3,}ed))\s+"
                         r"((?i:which|what))\s+((?!(?i:year|date|day|month|time|decade|century|in|on|at)\b)"
                         r"(?-i:[a-zA-Z])[^?]*?)\s*\?\s*$")
# "Yes or no: A and B are in the same country?": the lead that says what kind of answer is wanted
_YES_OR_NO_LEAD = re.compile(r"^\s*(?:yes\s+or\s+no|true\s+or\s+false|yes/no)\s*[:,\-\u2013\u2014]\s*", re.I)
# "Where does X come from, country-wise?" -> "Which country does X come from?"
_COUNTRY_WISE = re.compile(r"^\s*where\s+(does|do|did)\s+(.+?)\s+(?:come|hail)\s+from\s*,?\s*country[\s-]?wise\s*\?\s*$", re.I)
# "The director of X — what nationality?" -> "What is the nationality of the director of X?"
_WHAT_NOUN_AFTER = re.compile(r"^\s*((?:the\s+)?[^?:\u2013\u2014]{3,120}?)\s*(?::|\s[-\u2013\u2014])\s*(?:what|which)\s+"
                              r"(nationality|citizenship|birthplace|birth\s+date|date\s+of\s+birth|date\s+of\s+death|"
                              r"place\s+of\s+birth|place\s+of\s+death)\s*\?\s*$", re.I)
# "Is A's nationality the same as B's?" -> "Do A and B have the same nationality?"
_POSS_SAME = re.compile(r"^\s*(?:is|was)\s+(.+?)['’]s\s+(nationality|citizenship|country|birthplace|profession|occupation|"
                        r"job)\s+the\s+same\s+as\s+(.+?)['’]s\s*\?\s*$", re.I)
# "Is A in the country where B is?" -> "Are A and B in the same country?"
_IN_THE_KIND_WHERE = re.compile(r"^\s*(is|was)\s+(.+?)\s+(?:located\s+|situated\s+|found\s+)?in\s+the\s+(country|state|"
                                r"city|county|region|province)\s+(?:where|in\s+which|that)\s+(.+?)\s+(?:is|was)"
                                r"(?:\s+(?:located|situated|found|in))?\s*\?\s*$", re.I)
# "A and B are villages. Are they in the same country?" / "... Which of them has ...?": the pair the pronoun is
# "A and B (are films): who directed the first?": the pair, then a question pointing at one of the two
_PAIR_REFERRED = re.compile(rf"^\s*({_ALT})\s+(?-i:and)\s+({_ALT})(?:\s+(?:are|were)\s+(?:both\s+)?(?:two\s+)?"
                            r"(?:(?-i:[a-z][\w-]*)\s+){0,2}(?-i:[a-z][\w-]*))?\s*(?::|;|\.|\s[-\u2013\u2014])\s*"
                            r"((?:who|whom|whose|what|which|when|where|how|is|was|did|does|do|the)\b[^?]*\?)\s*$", re.I | re.S)
_BOTH_OFFERED = re.compile(r"(?i),?\s*the\s+(?:first|former)\s+or\s+the\s+(?:second|latter)\b")
_ORDINAL = re.compile(r"\bthe\s+(?:first|former|second|latter)\b", re.I)
_NOT_A_NAME_FIRST = re.compile(r"(?i)(?:both|either|neither|i|we|you|my|our|so|well|and|but|also)\b")
_REFERRED = re.compile(r"\bthe\s+(first|former|second|latter)(?:\s+one)?(?=\s*(?:[?,.;]|$|(?-i:[a-z]+ed|born|died|came|won|wrote|made|became|began|went|was|is|did|has|had)\b))",
                       re.I)
_PAIR_IS = re.compile(rf"^\s*({_ALT})\s+and\s+({_ALT})\s+(?:are|were)\s+(?:both\s+)?(?:two\s+)?(?:(?-i:[a-z][\w-]*)\s+){{0,3}}?"
                      r"(?-i:[a-z][\w-]*)\s*[.;]\s+(.+\?)\s*$", re.S)
# "A / B: are the two directors from the same country?" -> "Are the directors of A and B from the same country?"
_PAIR_ROLES = re.compile(r"^\s*((?:(?!\s/\s).)+?|[^/]+?)\s*(?:\s/\s|(?<!/.)\band\b(?!.*\s/\s)|&)\s*(.+?)\s*(?::|\s[-\u2013\u2014])\s*(are|were|do|did)\s+"
                         r"(?:the|their)\s+(?:two\s+|both\s+)?((?-i:[a-z]+)s)\s+(.+?)\s*\?\s*$", re.I | re.S)
# "A and B — who was born more recently?" -> "Who was born more recently, A or B?" (a comparison only)
_PAIR_CHOICE = re.compile(rf"^\s*({_ALT})\s+and\s+({_ALT})\s*(?::|\s[-\u2013\u2014])\s*((?:who|which|whose)\b[^?]*?"
                          r"\b(?:first|earlier|later|older|younger|elder|more|less|longer|shorter|recently|before|after|"
                          r"[a-z]+est)\b[^?]*?)\s*\?\s*$", re.S)
# "From which country does X come?" -> "Which country does X come from?" (the preposition the analysis reads last)
_FROM_WHICH = re.compile(r"^\s*from\s+(which|what)\s+((?-i:[a-z][\w-]*)(?:\s+(?-i:[a-z][\w-]*))?)\s+"
                         r"((?:does|do|did|is|was|are|were)\s+(?:(?!\s(?:in|on|at|during|after|before|since)\s)[^?\d])+?)"
                         r"\s*\?\s*$", re.I | re.S)
_ON_THE_SIDE = re.compile(r"^\s*on\s+(?:his|her|their|the)\s+(mother|father)['’]s\s+side\s*,?\s+(.*?\bthe\s+)"
                          r"(grandmother|grandfather|grandparents?)\b", re.I)
_SIDE_OF = {"mother": "maternal", "father": "paternal"}
# "the King responsible for X" -> "the King who was responsible for X": a describing clause the analysis reads
_NOT_NOUN = r"(?!(?:who|that|which|was|is|were|are|be|been|being|not|solely|mainly|directly|most|chiefly)\b)"
_RESPONSIBLE = re.compile(rf"\b(the\s+(?:{_NOT_NOUN}[A-Za-z][\w-]*\s+){{0,2}}?({_NOT_NOUN}[A-Za-z][\w-]*))\s+"
                          r"(responsible\s+for|in\s+charge\s+of)\s+"
                          r"(?=(?:the\s+)?[A-Z0-9\"“])")
# "X's grandfather on his mother's side" -> "X's maternal grandfather"
_KIN_ON_THE_SIDE = re.compile(r"\b((?:grand|great-grand)?(?:father|mother|parent|son|daughter|uncle|aunt|cousin)s?)"
                              r"\s+on\s+(?:his|her|their|the)\s+(mother|father)['’]s\s+side\b", re.I)


def _by_the_older(m: re.Match[str]) -> str:
    agent = agent_of(m.group(1))
    if agent is None:
        return m.group(0)
    later = (m.group(2) or "").lower() == "younger" or (m.group(3) or "").lower() in {"later", "last"}
    return f"has the {agent} born {'later' if later else 'first'}"


def agent_of(verb: str) -> str | None:
    """The doer of a verb in its past form: "directed" -> "director", "wrote" -> "writer"."""
    word = verb.lower()
    stem = re.sub(r"(?:ed|d)$", "", word)
    for lemma in (_PAST.get(word, word), stem, stem + "e", stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2]
                  else stem):
        if lemma in AGENT:
            return AGENT[lemma]
    return None


def _nlp() -> Any:
    from kmrag.nlp.extract import load_spacy

    return load_spacy()


_FINITE_AUX = re.compile(r"\s(is|are|was|were|has|have|had|can|could|will|would|does|do|did)\s", re.I)


def _as_yes_no(clause: str) -> str | None:
    """A declarative clause as a yes / no question: the first auxiliary to the front ("A and B are located in
    X" -> "Are A and B located in X?"), else "do" ("A and B share ..." -> "Do A and B share ...?")."""
    inverted = _invert(clause)
    if inverted is None:  # a subject the parser splits ("Bayfield, Wisconsin"): the first auxiliary
        m = _FINITE_AUX.search(clause)
        if m is None:
            return None
        inverted = f"{m.group(1).capitalize()} {clause[:m.start()]} {clause[m.end():]}"
    return inverted + "?"


def _as_wh(wh: str, rest: str) -> str | None:
    """An embedded wh-clause as a direct question: "where the father of X died" -> "Where did the father of
    X die?"; "who directed X" and "which film came out first" keep their order (the wh-word is the subject)."""
    rest = _end(rest)
    if not rest:
        return None
    probe = _nlp()(f"{wh} {rest}")
    # the words that go with the wh-word stay with it: "how many films X made", "which film X directed"
    lead = ""
    if wh == "how":
        m = re.match(r"^(?i:much|many|long|far|old|big|large|tall|high|often)\s+(?:(?!the\b|a\b|an\b)[a-z]+\s+"
                     r"(?=\S+\s+\S))?", rest)
        lead = m.group(0) if m else ""
    elif wh in {"which", "what", "whose"} and len(probe) > 1 and probe[1].pos_ in {"NOUN", "PROPN", "ADJ"}:
        # "which airline", "what year", "which American sketch comedy series": the noun phrase the word opens
        i = 1
        while i < len(probe) - 1 and probe[i].dep_ in {"amod", "compound", "nmod", "nummod"} and probe[i].head.i > i \
                and not (probe[i].pos_ == "NOUN" and probe[i + 1].pos_ == "PROPN"):
            i += 1  # the words before the noun that modify it (a name after a noun is the clause's subject)
        if probe[i].pos_ in {"NOUN", "PROPN"}:
            lead = probe[1: i + 1].text_with_ws
    clause = rest[len(lead):]
    at = len(wh) + 1 + len(lead)
    first = next((t for t in probe if t.idx >= at), None)
    if first is None or first.pos_ in {"VERB", "AUX"}:  # the wh-phrase is the subject: "which film came out first"
        return f"{wh.capitalize()} {rest}?"
    inverted = _invert(clause)
    if inverted is None:
        return f"{wh.capitalize()} {rest}?"
    return f"{wh.capitalize()} {lead}{inverted[0].lower() + inverted[1:]}?".replace("  ", " ")


def _invert(clause: str) -> str | None:
    doc = _nlp()(clause)
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or _inside_name(doc, root):
        return None  # "Nelson Pereira dos Santos were ...": "dos" parsed as the verb; the caller's first auxiliary
    subj = [t for t in root.children if t.dep_ in {"nsubj", "nsubjpass", "expl"}]
    if not subj:
        return None
    start = min(t.i for t in subj[0].subtree)
    if 0 < start and all(t.text[:1].isupper() and t.pos_ == "AUX" for t in doc[:start]) and doc[start].pos_ == "PROPN":
        start = 0  # "Will James and X came from ...": a name's first word read as an auxiliary
    if start != 0:
        return None  # a fronted phrase: leave it as it is
    auxes = sorted([t for t in root.children if t.dep_ in {"aux", "auxpass"} and t.i > subj[0].i], key=lambda t: t.i)
    aux = auxes[0] if auxes else (root if root.pos_ == "AUX" or root.lemma_ == "be" else None)
    words = [t.text_with_ws for t in doc]
    if aux is not None:
        words[aux.i] = ""
        body = "".join(words).strip()
        return f"{aux.text.capitalize()} {_lower_first(doc, body)}"
    if root.tag_ not in _DO:
        return None
    words[root.i] = root.lemma_ + root.whitespace_
    body = "".join(words).strip()
    return f"{_DO[root.tag_].capitalize()} {_lower_first(doc, body)}"


def _inside_name(doc: Any, tok: Any) -> bool:
    """A name's particle between two capitalised words ("Pereira dos Santos"), parsed as a verb; not a verb
    between two names ("Spielberg directed Jaws")."""
    return tok.lower_ in PARTICLES and 0 < tok.i < len(doc) - 1 and doc[tok.i - 1].text[:1].isupper() \
        and doc[tok.i + 1].text[:1].isupper()


def _lower_first(doc: Any, body: str) -> str:
    """"The team ..." -> "the team ..." inside a question; a name ("Attics To Eden") and "I" stay."""
    first = doc[0]
    if len(doc) > 1 and doc[1].pos_ == "PROPN" and first.lower_ == "the" and first.text == "The" \
            and doc[1].text[:1].isupper():
        return body  # "The Beatles": the name's own article
    if first.pos_ in {"DET", "PRON"} and first.text != "I" or first.lower_ in {"the", "a", "an"}:
        return body[0].lower() + body[1:]
    return body
