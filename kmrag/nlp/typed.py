"""A question as people type it into a chat box or say it to a phone, written out for the rephraser.

Shorthand ("dob", "yr", "w/", "b4", "r", "n"), a spoken filler ("um"), a tail that only asks to be told
("... or nah", "y/n", "just double checking", "bc i think not", "I need the film."), and a question sent as
several short messages ("quick q" / the pair / the question) become the words and the single question the
rephraser (kmrag.nlp.rephrase) reads. Only lower-case shorthand is written out: "N", "R" or "EP" in a name
stay as typed. Each rule is a habit of typing English, not a wording of any dataset.
"""

from __future__ import annotations

import re

# lower-case shorthand as a whole word (never inside a name: "R. Kelly", "EP", "Rock N Roll" keep their case)
_SHORT = {"dob": "date of birth", "pob": "place of birth", "dod": "date of death", "yr": "year", "yrs": "years",
          "uni": "university", "b4": "before", "abt": "about", "ppl": "people", "bc": "because", "cuz": "because",
          "coz": "because", "thru": "through", "u": "you", "ur": "your", "r": "are", "n": "and", "govt": "government",
          "bro": "brother", "sis": "sister", "grandpa": "grandfather", "grandma": "grandmother",
          "granddad": "grandfather", "grandad": "grandfather", "granny": "grandmother"}
_SHORT_WORD = re.compile(r"(?<![\w'’.&/-])(?-i:(" + "|".join(sorted(_SHORT, key=len, reverse=True)) + r"))(?![\w'’&-])")
_WITH = re.compile(r"(?<![\w/])(?-i:w/o|w/)(?=\s)")
# "ep" is an episode only where a show is talked of (a band's "EP" typed in lower case is a record)
_EPISODE = re.compile(r"(?<![\w'’.-])(?-i:ep(s?))(?![\w'’-])")
_SHOW = re.compile(r"(?i)\b(?:season|series|show|sitcom|tv|television|episode|aired|broadcast)\b")
# a spoken filler
_FILLER = re.compile(r"(?<![\w'’-])(?-i:u+m+|u+h+|uhm+|erm+|hmm+|mm+)(?![\w'’-])\s*,?\s*")
# a tail that asks for a yes or a no ("... or nah", "... y/n"), written as the ", yes or no?" the rephraser reads
_YES_NO_TAIL = re.compile(r"\s*(?:[,.\u2013\u2014]|\s-)?\s*(?:or\s+(?:nah|no|nope)|(?<=,)\s*yes|(?:yes|y)\s*/\s*(?:no|n)|yes\s+or\s+no|true\s+or\s+false)"
                          r"\s*[?.!]*\s*$", re.I)
# what only says why one asks or that the answer is wanted, after the question
_AFTER = re.compile(r"(?:(?<=[?.!])|\s*,)\s*(?:(?:just\s+)?(?:double[\s-]?checking|checking|to\s+be\s+sure|curious|"
                    r"wondering)|(?:bc|b/c|because|cuz|cause|coz)\s+i\s+(?:think|guess|believe|reckon)\s+(?:so|not)|"
                    r"(?:i\s+)?(?:just\s+)?(?:need|want|give\s+me)\s+(?:the|its|a)\s+(?:film|movie|title|name|answer)"
                    r"(?:\s+(?:title|name))?(?:\s+(?:only|pls|plz|please))?)\s*[.!?]*\s*$", re.I)
_BECAUSE_TAIL = re.compile(r"\s*,?\s*(?:because|cuz|cause|coz)\s+i\s+(?:think|guess|believe|reckon)\s+(?:so|not)\s*[.!?]*\s*$",
                           re.I)
# "right now" typed short, and a spoken opening ("okay so", "um"), in lower case
_NOW = re.compile(r"\s+(?-i:rn)(?![\w'’-])")
_SPOKEN_OPENING = re.compile(r"^\s*(?-i:(?:okay|ok|alright|so|well)(?:\s+so)?)\s*,?\s+(?=\S)")
# "(...)? year pls": the year is what is wanted (the rephraser reads "(year please)")
_PLEASE_TAIL = re.compile(r"(?<=[?.])\s*(?:(year|date)\s+)?(?:pls|plz|please)\s*[.!]?\s*$", re.I)
# a spoken question with no stops: the pair, then what is asked of it ("A and B which one had ...")
_RUN_ON = re.compile(r"(?<=[\w)])\s+(?=(?-i:which\s+(?:one|of\s+(?:them|these|those|the\s+two))|whose|do\s+(?:they|the)|"
                     r"did\s+(?:they|the))\b)")
_LAST_ASKS = re.compile(r"(?:^|[.!]\s+)(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|has|have|"
                        r"had|can|could)\b[^.!?]*$|(?-i:\b(?:what|which))(?:\s+[^\s.!?]+){1,5}\s*$|"
                        r"(?-i:\b(?:who|whom|where|when))\s*$", re.I)
_FIRST_WORD = re.compile(r"^\s*(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|has|have|had|"
                         r"can|could|tell|give|name|list|find)\b", re.I)
# a first message that only opens ("hey", "quick q", "question"), sent as a sentence of its own
_OPENING_WORDS = frozenset("hey hi hello yo hiya ok okay so quick q qq question um".split())
_OPENING_SENTENCE = re.compile(r"^\s*(?:(?:hey|hi|hello|yo|hiya|ok|okay|so|quick|q|qq|question|um)\b[\s,]*)+[.!]\s+(?=\S)",
                               re.I)


def as_sentences(text: str) -> str:
    """Lines sent one after another, each a sentence: a line that does not end in a stop gets one ("Glass Hours
    and Iron Bells\nwhich one is older" -> "Glass Hours and Iron Bells. which one is older"); one line as it is."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return text
    out = []
    for line, nxt in zip(lines, lines[1:] + [""], strict=True):
        said = nxt and line[-1] not in ".?!:;,\u2014-" and (_FIRST_WORD.match(nxt) or set(
            re.findall(r"[\w']+", line.lower())) <= _OPENING_WORDS)
        out.append(line + "." if said else line)  # (a line wrapped inside a sentence, "Who is\nX?", is joined)
    return " ".join(out)


def spelled_out(question: str) -> str:
    """The question with its shorthand, fillers, confirming tail and message breaks written out; unchanged when
    none is there."""
    q = _OPENING_SENTENCE.sub("", as_sentences(question))
    q = _FILLER.sub("", q)
    q = _WITH.sub(lambda m: "without" if m.group(0) == "w/o" else "with", q)
    q = _SHORT_WORD.sub(lambda m: _SHORT[m.group(1)], q)
    if _SHOW.search(q):
        q = _EPISODE.sub(lambda m: "episode" + m.group(1), q)
    q = _NOW.sub("", _SPOKEN_OPENING.sub("", q))
    q = _BECAUSE_TAIL.sub("", _AFTER.sub("", q)).rstrip()
    q = _PLEASE_TAIL.sub(lambda m: f" ({m.group(1).lower()} please)" if m.group(1) else "", q)
    if (tail := _YES_NO_TAIL.search(q)) and tail.start() > 0:
        q = q[:tail.start()].rstrip(" ,?.") + ", yes or no?"
    if not re.search(r"[?!.;:\u2013\u2014]|\s-\s", q) and not _FIRST_WORD.match(q) and (
            run_on := _RUN_ON.search(q)) and re.search(r"(?-i:[A-Z])", q[:run_on.start()]):
        q = f"{q[:run_on.start()]}. {q[run_on.end():]}"  # "A and B which one ..." -> "A and B. which one ..."
    if not re.search(r"[?!.]\s*$", q) and _LAST_ASKS.search(q):
        q = q.rstrip() + "?"  # "reading about X. when did his father die"
    return " ".join(q.split()) or question
