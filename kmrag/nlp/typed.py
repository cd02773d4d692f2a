"""A question as people type it into a chat box or say it to a phone, written out for the rephraser.

Shorthand ("dob", "yr", "w/", "b4", "r", "n"), a spoken filler ("um"), a tail that only asks to be told
("... or nah", "y/n", "just double checking", "bc i think not", "I need the film."), and a question sent as
several short messages ("quick q" / the pair / the question) become the words and the single question the
rephraser (kmrag.nlp.rephrase) reads. Only lower-case shorthand is written out, and the one-letter forms only
where they cannot be a name's initial or a title's word ("guns n roses", "r kelly", "the u of michigan" stay):
"N", "R" or "EP" in a name stay as typed. Each rule is a habit of typing English, not a wording of any dataset.
"""

from __future__ import annotations

import re

# the words a question is asked with, and its auxiliaries: the lists the patterns below share
_WH = "who|whom|whose|what|which|when|where|why|how"
_AUX = "is|are|was|were|do|does|did|has|have|had|can|could"
# a wh-word anywhere (the rephraser's too: "A and B, they're both ... by whom?" asks, it confirms nothing)
ASKING = re.compile(rf"(?i)\b(?:{_WH})\b")
# lower-case shorthand as a whole word (never inside a name: "R. Kelly", "EP", "Rock N Roll" keep their case)
_SHORT = {"dob": "date of birth", "pob": "place of birth", "dod": "date of death", "yr": "year", "yrs": "years",
          "b4": "before", "abt": "about", "ppl": "people", "thru": "through",
          "govt": "government", "grandpa": "grandfather", "grandma": "grandmother", "granddad": "grandfather",
          "grandad": "grandfather", "granny": "grandmother"}
_SHORT_WORD = re.compile(r"(?<![\w'’.&/-])(?-i:(" + "|".join(sorted(_SHORT, key=len, reverse=True)) + r"))(?![\w'’&-])")
# the one-letter forms, only where a name's initial or a title's word cannot stand: "r they", "r A and B ...",
# "can u", "A n B" between two capitalised names
_ARE = re.compile(r"(?-i:^r\s+(?=[A-Z])|(?:^|(?<=\s))r\s+(?=(?:they|u|you|we|these|those|both|there|the|he|she|it)\b))")
_YOU = re.compile(r"(?-i:\b(can|could|do|did|would|will|are|have)\s+u\b(?![\w'’.-]))")
_AND = re.compile(r"(?-i:(?<=[\w)])\s+n\s+(?=[A-Z]))")
_UNI = re.compile(r"(?-i:(?<![\w'’.-])uni)(?=\s+\w|\s*\?)")
# "whats ...", "Whats ..." at the start (typed without the apostrophe; "who sang whats love ..." is a title's)
_WH_IS = re.compile(r"^(\s*)(what|where|how)s\b(?!['’])", re.I)
_WITH = re.compile(r"(?<![\w/])(?-i:w/o|w/)(?=\s)")
# "ep" is an episode only as one of a show's ("the first ep of X season 2"; a band's "ep" is a record)
_EPISODE = re.compile(r"(?<![\w'’.-])(?-i:ep(s?))(?=\s+(?:of|in)\s)")
_SHOW = re.compile(r"(?i)\b(?:season|series|show|sitcom|episode|aired)\b")
# a spoken filler, never the question's last word ("the book uh oh" is its title's)
_FILLER = re.compile(rf"(?<![\w'’-])(?-i:u+m+|u+h+|uhm+|erm+|hmm+)(?![\w'’-])\s*,?\s+(?=(?:{_WH}|is|are|was|were|do|does|"
                     r"did|the|a|an|so|like|i)\b|(?-i:[A-Z]))")
# a tail that asks for a yes or a no ("... or nah", "... y/n"), typed in lower case (a title may be "Yes or No")
_YES_NO_TAIL = re.compile(r"\s*(?:[,.\u2013\u2014]|\s-)?\s*(?-i:or\s+(?:nah|no|nope)|(?<=,)\s*yes|(?:yes|y)\s*/\s*(?:no|n)|"
                          r"yes\s+or\s+no|true\s+or\s+false)\s*[?.!]*\s*$")
_WH_LAST = re.compile(rf"(?:^|[.!]\s+)(?:{_WH})\b[^.!?]*$", re.I)
# what only says why one asks or that the answer is wanted, after the question
_AFTER = re.compile(r"(?:(?<=[?.!])|\s*,)\s*(?:(?:just\s+)?(?:double[\s-]?checking|checking|to\s+be\s+sure|curious|"
                    r"wondering)|(?:i\s+)?(?:just\s+)?(?:need|want|give\s+me)\s+(?:the|its|a)\s+(?:film|movie|title|name|"
                    r"answer)(?:\s+(?:title|name))?(?:\s+(?:only|pls|plz|please))?)\s*[.!?]*\s*$", re.I)
_BECAUSE_TAIL = re.compile(r"\s*,?\s*(?:because|bc|b/c|cuz|cause|coz)\s+i\s+(?:think|guess|believe|reckon)\s+(?:so|not)"
                           r"\s*[.!?]*\s*$", re.I)
# "right now" typed short (between the question's parts: "reading abt X rn. when ..."), in lower case
_NOW = re.compile(r"(?<!\ban)(?<!\ba)(?<!\bthe)\s+(?-i:rn)(?=\s*[.,;!]\s*\S)")
# a spoken opening ("okay so", "so", "well"), before what can only start a question or name its topic
_SPOKEN_OPENING = re.compile(rf"^\s*(?-i:(?:okay|ok|alright|so|well)(?:\s+so)?)\s*,?\s+(?=(?:{_WH}|is|are|was|were|do|does|"
                             r"did|two|the)\b|(?-i:[A-Z]))")
# "(...)? year pls": the year is what is wanted (the rephraser reads "(year please)")
_PLEASE_TAIL = re.compile(r"(?<=[?.])\s*(?:(year|date)\s+)?(?:pls|plz|please)\s*[.!]?\s*$", re.I)
# a courtesy typed after the question without a stop ("email address for the cinema programmer please")
# (lower case, not after a word that takes it as its object: "the welsh word for please"; thanks only after a stop:
# "who sang thank you", "a letter of thanks"; a capitalised one is a title: "Who sang Thank You?", "the sitcom, Cheers")
_COURTESY_TAIL = re.compile(r"(?:(?<=\w)(?<!\bfor)(?<!\bof)(?<!\bsay)(?<!\bsays)(?<!\bsaid)(?<!\bsang)(?<!\bsing)(?<!\bcalled)"
                            r"(?<!\bword)(?<!\bthe)(?<!\ba)(?<!\bto)(?<!\bmean)(?<!\bmeans)[\s,]+(?-i:please|pls|plz)|"
                            r"(?<=[?!.])\s+(?:please|pls|plz|thanks|thank\s+you|cheers))\s*[.!?]*\s*$", re.I)
# a spoken question with no stops: a pair, then what is asked of it ("A and B which one had ...")
_RUN_ON = re.compile(r"(?<=[\w)])\s+(?=(?-i:which\s+(?:one|of\s+(?:them|these|those|the\s+two))|whose|do\s+(?:they|the)|"
                     r"did\s+(?:they|the))\b)")
_LAST_ASKS = re.compile(rf"(?:^|[.!]\s+)(?:{_WH}|{_AUX})\b[^.!?]*$|(?-i:\b(?:what|which))(?:\s+[^\s.!?]+){{1,5}}\s*$|"
                        r"(?-i:\b(?:who|whom|where|when))\s*$", re.I)
_FIRST_WORD = re.compile(rf"^\s*(?:{_WH}|{_AUX}|tell|give|name|list|find)\b", re.I)
# a first message that only opens ("hey", "quick q", "question"), sent as a sentence of its own
_OPENING_WORDS = frozenset("hey hi hello yo hiya ok okay so quick q qq question um".split())
_OPENING_SENTENCE = re.compile(rf"^\s*(?:(?:{'|'.join(sorted(_OPENING_WORDS))})\b[\s,]*)+[.!]\s+(?=\S)", re.I)


def as_sentences(text: str) -> str:
    """Lines sent one after another, each a sentence: a line that only opens, or one the next line's question
    follows, gets a stop ("Glass Hours and Iron Bells\\nwhich one is older" -> "Glass Hours and Iron Bells.
    which one is older"); a line wrapped inside a question is joined ("Who directed\\nWhat Women Want?")."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        return text
    out = []
    for line, nxt in zip(lines, lines[1:] + [""], strict=True):
        opening = set(re.findall(r"[\w']+", line.lower())) <= _OPENING_WORDS
        said = nxt and line[-1] not in ".?!:;,\u2014-" and (opening or _FIRST_WORD.match(nxt) and not (
            _FIRST_WORD.match(line) or ASKING.search(line)))
        out.append(line + "." if said else line)
    return " ".join(out)


def spelled_out(question: str) -> str:
    """The question with its shorthand, fillers, confirming tail and message breaks written out; unchanged when
    none is there. Idempotent."""
    q = as_sentences(question)
    while (opened := _OPENING_SENTENCE.sub("", q)) != q:
        q = opened
    q = _FILLER.sub("", q)
    q = _WITH.sub(lambda m: "without" if m.group(0) == "w/o" else "with", q)
    q = _YOU.sub(lambda m: f"{m.group(1)} you", _AND.sub(" and ", _ARE.sub("are ", q)))
    q = _UNI.sub("university", _SHORT_WORD.sub(lambda m: _SHORT[m.group(1)], q))
    q = _WH_IS.sub(lambda m: f"{m.group(1)}{m.group(2)} is", q)
    if _SHOW.search(q):
        q = _EPISODE.sub(lambda m: "episode" + m.group(1), q)
    q = _NOW.sub("", q)
    if (opened := _SPOKEN_OPENING.sub("", q)) != q:
        q = opened[:1].upper() + opened[1:] if _FIRST_WORD.match(opened) else opened
    q = _tailless(q)
    if (tail := _YES_NO_TAIL.search(q)) and tail.start() > 0:
        body = q[:tail.start()].rstrip(" ,?.")
        if not _WH_LAST.search(body):
            q = body + ", yes or no?"
        elif re.match(r"(?i)[\s,.\u2013\u2014-]*(?:or\s+(?:nah|no|nope)|y\s*/\s*n)", tail.group(0)):
            q = body + "?"  # "which one is older or nah": the tail only asks to be told (not "Who said yes or no?")
    if not re.search(r"[?!.;:\u2013\u2014]|\s-\s", q) and not _FIRST_WORD.match(q) and (
            run_on := _RUN_ON.search(q)) and re.search(r"(?-i:[A-Z])", q[:run_on.start()]) and \
            re.search(r"\sand\s|,", q[:run_on.start()]) and not ASKING.search(q[:run_on.start()]):
        q = f"{q[:run_on.start()]}. {q[run_on.end():]}"  # "A and B which one ..." -> "A and B. which one ..."
    if not re.search(r"[?!.]\s*$", q) and _LAST_ASKS.search(q):
        q = q.rstrip() + "?"  # "reading about X. when did his father die"
    return " ".join(q.split()) or question


def _tailless(q: str) -> str:
    """The question without the courtesies and confirmations after it; "year pls" kept as "(year please)"."""
    wanted = ""
    while True:
        if please := _PLEASE_TAIL.search(q):
            wanted, q = please.group(1) or wanted, q[:please.start()]
        plain = _COURTESY_TAIL.sub("", _BECAUSE_TAIL.sub("", _AFTER.sub("", q))).rstrip()
        if plain == q and not please:
            break
        q = plain
    return f"{q} ({wanted.lower()} please)" if wanted else q
