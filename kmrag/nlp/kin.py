"""Family ties read with their direction: "Who is the father of X?" is answered by a span that says who X's
father is, not by the nearest name to the word "son".

The general reader takes the person nearest the question's relational word, and a family tie reads both ways:
"X was the son of A and B" names X's parents; "They had five children: C, D" names the subject's children;
"In 1889 she married Y" names the spouse of the unit's subject. Here a span's ties are read as facts
``(holder, tie, of)`` — ``holder`` is the ``tie`` of ``of`` — from the English ways of stating them:

- a copula and a kin noun: "X (1780–1850) was the eldest son of A and B", "..., and thus, younger brother of C";
- an apposition: "A, the father of X";
- a possessive: "X's wife, Y", "His father, Z, ..." (a possessive pronoun opening the sentence is the unit's
  subject);
- marriage: "X married Y", "X was married to Y", "she married Y";
- birth: "X was born to A and B", "... children born to A and B";
- a sentence that opens with the kin noun: "Son of A and B." under the unit's title.

A pronoun subject ("He", "She") is the person the unit is titled by. The asked tie is answered by the converse
fact too ("X's son Y" answers "Who is Y's father?"). Gender comes from the kin noun ("son", "wife") or a title
of the name ("Princess", "Count"); of two parents named together with no gender said, the father is named
first. Nothing here knows a dataset.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

# kin noun -> (the tie, the holder's gender)
KIN: dict[str, tuple[str, str | None]] = {
    "father": ("parent", "m"), "mother": ("parent", "f"), "parent": ("parent", None), "parents": ("parent", None),
    "son": ("child", "m"), "sons": ("child", "m"), "daughter": ("child", "f"), "daughters": ("child", "f"),
    "child": ("child", None), "children": ("child", None),
    "husband": ("spouse", "m"), "wife": ("spouse", "f"), "spouse": ("spouse", None), "widow": ("spouse", "f"),
    "widower": ("spouse", "m"), "consort": ("spouse", None), "ex-wife": ("spouse", "f"), "ex-husband": ("spouse", "m"),
    "brother": ("sibling", "m"), "sister": ("sibling", "f"), "sibling": ("sibling", None),
    "half-brother": ("sibling", "m"), "half-sister": ("sibling", "f"),
}
CONVERSE = {"parent": "child", "child": "parent", "spouse": "spouse", "sibling": "sibling"}
_KIN = "|".join(sorted(map(re.escape, KIN), key=len, reverse=True))

FEMALE_TITLES = frozenset("princess queen lady countess duchess archduchess infanta empress baroness marchioness "
                          "viscountess mrs mrs. madame dame mademoiselle miss ms ms. sister begum rani tsarina".split())
MALE_TITLES = frozenset("prince king count duke archduke emperor baron marquis marquess lord sir mr mr. infante "
                        "viscount earl tsar sultan shah raja maharaja".split())
# given names of women that do not end in "a" (a guess only when nothing else says the gender)
FEMALE_GIVEN = frozenset("mary margaret elizabeth ann anne jane catherine katherine sarah ellen helen alice frances "
                         "eleanor isabel charlotte caroline emily louise marie ruth rose grace joan agnes edith ethel "
                         "florence harriet susan janet judith esther abigail beatrice mildred dorothy margery elinor "
                         "isabelle claire sophie madeleine jeanne louisa".split())
SUFFIXES = frozenset("jr jr. sr sr. ii iii iv".split())
PARTICLES = frozenset("of de von van der den da di du del della la le y bin ibn al zu dos das do".split())
_PRONOUNS = {"he": "m", "she": "f", "his": "m", "her": "f", "they": None, "their": None}

_WORD = re.compile(r"[^\W\d_][\w'’.-]*|\d+")
# the question: "Who is the father of X?", "Who was X's wife?"
_ASK_OF = re.compile(rf"^\s*(?:who|whom|what)\s+(?:is|was|are|were)\s+(?:the\s+)?({_KIN})\s+of\s+(.+?)\s*\??\s*$", re.I)
# "Who did X marry?", "Who was X married to?", "To whom was X married?"
_ASK_MARRIED = re.compile(r"^\s*(?:(?:who|whom)\s+(?:did|does|do)\s+(.+?)\s+(?:marry|wed)|(?:who|whom)\s+(?:is|was|are|were)"
                          r"\s+(.+?)\s+(?:married|wed)\s+to|to\s+whom\s+(?:is|was|are|were)\s+(.+?)\s+(?:married|wed))\s*\??\s*$",
                          re.I)
# "Who is the man X married?", "Who was the woman that X wed?"
_ASK_MARRIED_ONE = re.compile(r"^\s*(?:who|whom)\s+(?:is|was)\s+the\s+(man|woman|person|one)\s+(?:(?:that|whom|who)\s+)?"
                              r"(.+?)\s+(?:married|wed)\s*\??\s*$", re.I)
_NOT = re.compile(r"\b(?:never|not|n't|nearly|almost|wanted\s+to|refused\s+to)\b", re.I)
# "Who is X the daughter of?": the converse tie
_ASK_HELD = re.compile(rf"^\s*(?:who|whom)\s+(?:is|was|are|were)\s+(.+?)\s+(?:the|a|an)\s+({_KIN})\s+of\s*\??\s*$", re.I)
_ASK_POSS = re.compile(rf"^\s*(?:who|whom)\s+(?:is|was|are|were)\s+(.+?)\s*['’]s?\s+({_KIN})\s*\??\s*$", re.I)
_COPULA = re.compile(r"\b(?:was|is|were|are|became|becomes|remained)\s+(?:(?:the|a|an|one\s+of\s+the)\s+)?"
                     r"(?:[\w-]+\s+){0,3}$", re.I)
_AND_ON = re.compile(r",?\s+and\s+(?:thus|so|therefore|also)?,?\s*(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,2}$", re.I)
_APPOS = re.compile(r",\s*(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,2}$", re.I)
# "married (to) the painter Y": a few words that describe Y before the name, but not "the daughter of Y"
_DESCRIBED = rf"(?:the|a|an|his|her)\s+(?:(?!(?:{_KIN}|of|and|in|at|on)\b)[\w-]+\s+){{0,2}}(?!(?:{_KIN}|of|and|in|at|on)\b)[a-z][\w-]*,?\s+(?=[A-Z])"
_MARRY = re.compile(rf"\b(?:(?:married|marries|marry|wed|weds|wedded)\s+(?:to\s+)?|marriage\s+to\s+)(?:{_DESCRIBED})?")
_BORN_TO = re.compile(r"\bborn\s+(?:(?:in|at)\s+[A-Z][\w'’-]*(?:,?\s+[A-Z][\w'’-]*){0,3}\s+)?to\s+")


class Passage(Protocol):
    """What is read: a span's text (``display``) and its unit's title."""

    @property
    def display(self) -> str: ...

    @property
    def title(self) -> str: ...


P = TypeVar("P", bound=Passage)


@dataclass(frozen=True)
class Tie:
    holder: str          # the person who is the tie ...
    tie: str             # parent | child | spouse | sibling
    of: str              # ... of this person
    gender: str | None   # the holder's gender, when said
    order: int = 0       # the holder's place among those named together ("son of A and B": A 0, B 1)


@dataclass(frozen=True)
class Asked:
    tie: str
    gender: str | None
    of: str
    word: str


def asked(question: str) -> Asked | None:
    """The tie a question asks for: "Who is the mother of X?" -> (parent, f, X); None when it asks no tie of a
    named person ("the father of modern physics", "the mother of the director": a hop for the chain)."""
    if (m := _ASK_OF.match(question)) is not None:
        word, of = m.group(1).lower(), m.group(2)
        tie, gender = KIN[word]
    elif (m := _ASK_POSS.match(question)) is not None:
        of, word = m.group(1), m.group(2).lower()
        tie, gender = KIN[word]
    elif (m := _ASK_MARRIED.match(question)) is not None:
        tie, gender, of, word = "spouse", None, next(g for g in m.groups() if g), "spouse"
    elif (m := _ASK_MARRIED_ONE.match(question)) is not None and not _NOT.search(m.group(2)):  # "Who is the man X
        # married?": X's husband (not "the person X never married")
        tie, gender, of, word = "spouse", {"man": "m", "woman": "f"}.get(m.group(1).lower()), m.group(2), "spouse"
    elif (m := _ASK_HELD.match(question)) is not None:  # X is the daughter of whom: X's parent
        tie = word = CONVERSE[KIN[m.group(2).lower()][0]]
        gender, of = None, m.group(1)
    else:
        return None
    of = of.strip()
    if re.match(r"(?:the|a|an)\s", of, re.I) or not re.search(r"(?:^|\s)[A-Z]", of):
        return None  # "the father of the Internet", "the mother of the director": no named person's tie
    return Asked(tie, gender, of, word)


def _words(name: str) -> set[str]:
    name = re.sub(r"\([^()]*\)", " ", name)
    words = {w.lower().rstrip(".") for w in _WORD.findall(name)} - PARTICLES - FEMALE_TITLES - MALE_TITLES
    return {w + "." if w in {"jr", "sr"} else w for w in words}


def same_person(a: str, b: str) -> bool:
    """Do two names name one person: every word of the shorter in the longer ("Julia Antonia" / "Julia"), with the
    same generation ("Hank Williams" is not "Hank Williams Jr.")."""
    x, y = _words(a), _words(b)
    if not x or not y or (x & SUFFIXES) != (y & SUFFIXES):
        return False
    short, long_ = sorted((x, y), key=len)
    return short <= long_


def _one(a: str, b: str) -> bool:
    """The same words, so the same person (a family shares its surname: "Agnew" is not "Sir Fulque Agnew")."""
    return _words(a) == _words(b)


def gender_of(name: str) -> str | None:
    first = name.split()[0].lower().rstrip(",") if name.split() else ""
    return "f" if first in FEMALE_TITLES else "m" if first in MALE_TITLES else None


def _name_at(text: str, at: int) -> tuple[str, int] | None:
    """The capitalised name that starts at ``at`` (after spaces; "the" before it is skipped), and where it ends:
    capitalised words, with particles ("of", "von") between them and initials ("M. Night")."""
    m = re.compile(r"\s*(?:the\s+)?").match(text, at)
    pos = m.end() if m else at
    words: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []
    for w in re.compile(r"([^\W\d_][\w'’.-]*|[IVX]+\b)(\s*)").finditer(text, pos):
        if w.start() != pos:
            break
        token = w.group(1)
        if token[0].isupper():
            words += [*pending, (w.start(1), w.end(1))]
            pending = []
        elif token.lower() in PARTICLES and words:
            pending.append((w.start(1), w.end(1)))
        else:
            break
        pos = w.end()
        if w.group(2) == "":
            break
    if not words:
        return None
    start, end = words[0][0], words[-1][1]
    name = re.sub(r"['’]s$", "", text[start:end].rstrip("."))
    if re.search(r"\b(?:Jr|Sr)$", name) and text[start + len(name):start + len(name) + 1] == ".":
        name += "."  # "Joseph P. Kennedy Sr."
    return (name, start + len(name)) if _words(name) else None


_FUNCTION = frozenset("and or but nor of in on at to for by with from who whom which that whose was is were are be been "
                      "as than also then later when while after before".split())


def _described_from(text: str, at: int) -> int:
    """Where the name starts after a few words describing it: "the son of Las Vegas gaming legend Benny Binion",
    "ex-wife of former Major League Baseball pitcher Kris Benson": the last capitalised word within six words
    that follows a lower-case word, with no punctuation or function word on the way; else ``at``."""
    best = at
    prev_lower = False
    for i, w in enumerate(re.compile(r"\S+").finditer(text, at)):
        token = w.group(0)
        if i > 6:
            break
        if token[0].isupper() and prev_lower and i > 0:
            best = w.start()
        if re.search(r"[,;:()\"“”]", token) or token.lower() in _FUNCTION:
            break
        prev_lower = token[0].islower() and token.lower() not in {"the", "a", "an"}
        if token.endswith("."):
            break
    return best


def _names_at(text: str, at: int) -> list[str]:
    """"A, B and C" (or "A and B", "A and his wife B") from ``at``; a list that ends in no "and" is its first
    name only ("Carlos, Duke of Madrid, Carlist claimant ...")."""
    return [n for n, _ in _named_at(text, at)]


def _named_at(text: str, at: int) -> list[tuple[str, str | None]]:
    """As :func:`_names_at`, each name with the gender its list says ("and his wife B": f)."""
    first = _name_at(text, at)
    if first is None:
        return []
    names: list[tuple[str, str | None]] = [(first[0], None)]
    end = first[1]
    more: list[tuple[str, str | None]] = []
    while True:
        m = re.compile(r"\s*(,\s*(?:and\s+)?|\s+and\s+)(?:(?:his|her)\s+(wife|husband)\s+)?").match(text, end)
        if not m:
            return names
        nxt = _name_at(text, m.end())
        if nxt is None:
            return names
        more.append((nxt[0], {"wife": "f", "husband": "m"}.get(m.group(2) or "")))
        end = nxt[1]
        if "and" in m.group(1):
            if more[-1][1] is not None and names[0][1] is None:  # "A and his wife B": A is the husband
                names[0] = (names[0][0], "m" if more[-1][1] == "f" else "f")
            return names + more


# an opening phrase before the subject: "In 1921, ...", "Born in Vienna, ...", "According to his biographer, ..."
_LEAD = re.compile(r"\s*(?:(?:In|On|At|By|From|After|Before|During|Following|According|Born|Later|Then|When|While|"
                   r"Although|Since|Upon|As)\b[^,]{0,60},\s*|(?:In|On)\s+(?:\w+\s+){0,2}\d{3,4}\s+)")


def _subject(sentence: str, title: str) -> str | None:
    """Who a sentence is about: its opening name, or the unit's title for an opening pronoun or kin noun."""
    lead = _LEAD.match(sentence)
    at = lead.end() if lead else 0
    m = re.compile(r"\s*(\w+)").match(sentence, at)
    if m and (m.group(1).lower() in _PRONOUNS or m.group(1).lower() in KIN):
        return title or None
    got = _name_at(sentence, at)
    return got[0] if got else (title or None)


def _clause_subject(sentence: str, at: int, title: str, subject: str | None) -> str | None:
    """The doer of a verb at ``at``: a pronoun just before it is the unit's subject, a name just before it that
    name, else the sentence's subject."""
    before = sentence[:at]
    if re.search(r"\b(?:he|she|they)\s+(?:\w+\s+)?$", before, re.I):
        return title or subject
    m = re.search(r"([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|de|von|van))*)\s*(?:\([^()]*\)\s*)?,?\s*"
                  r"(?:has\s+|had\s+|was\s+)?$", before)
    if m and m.start() > 0 and (got := _name_at(before, m.start())) is not None and \
            not re.search(r"\b(?:in|of|at|from|by)\s*$", before[:m.start()], re.I):
        return got[0]
    return subject


MAX_SENTENCE = 1500  # characters: a longer "sentence" is a list or a table, and reading it costs more than it says
_ABBREVIATED = re.compile(r"(?:\b[A-Z]|\b(?:Sr|Jr|Dr|Mr|Mrs|Ms|St|Gen|Col|Capt|Rev|Prof|Lt|Sgt|Maj|Hon|Gov|Sen))\.$")


def _sentences(text: str) -> list[str]:
    """The sentences of a span; no break after an initial or an abbreviation ("John F. Kennedy", "Sr. and")."""
    out: list[str] = []
    for piece in re.split(r"(?<=[.;!?])\s+(?=[A-Z\"“])", text):
        if out and _ABBREVIATED.search(out[-1]):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


# a nickname quoted inside a name: "Jeanne Adèle “Janot” Blum", "Thomas 'Tom' Reed"
_NICKNAME = re.compile(r"(\b[A-Z][\w.'’-]*)\s+[“\"‘']\s*([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)?)\s*[”\"’']\s+(?=[A-Z])")


def ties(text: str, title: str = "") -> list[Tie]:
    """The family ties a span states (see the module's docstring)."""
    title = re.sub(r"\s*\([^()]*\)\s*$", "", title).strip()
    out: list[Tie] = []
    for sentence in _sentences(text):
        if len(sentence) > MAX_SENTENCE:
            continue
        sentence = _NICKNAME.sub(r"\1 \2 ", sentence)  # "Nat "King" Cole": Nat King Cole, one name
        subject = _subject(sentence, title)
        out += _kin_of(sentence, title, subject)
        out += _possessed(sentence, title, subject)
        for m in _MARRY.finditer(sentence):
            who = _clause_subject(sentence, m.start(), title, subject)
            for i, other in enumerate(_names_at(sentence, m.end())[:1]):
                if who and not _one(who, other):
                    out += [Tie(other, "spouse", who, gender_of(other), i), Tie(who, "spouse", other, gender_of(who))]
        for m in _BORN_TO.finditer(sentence):  # "was born (in Leeds) to A and B"
            if subject:
                for i, (parent, said) in enumerate(_named_at(sentence, m.end())):
                    out.append(Tie(parent, "parent", subject, said or gender_of(parent), i))
    return [_titled(t, title) for t in out]


def _titled(tie: Tie, title: str) -> Tie:
    """A one-word name that is a word of the unit's title ("Reed" in the unit "Tom Reed") is the title's person."""
    def full(name: str) -> str:
        return title if title and len(_words(name)) == 1 and _words(name) < _words(title) else name
    return Tie(full(tie.holder), tie.tie, full(tie.of), tie.gender, tie.order)


# "Jane Doe, who was the daughter of": the name a relative clause is about
_WHO = re.compile(r"([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|de|von|van))*)\s*(?:\([^()]*\)\s*)?,?\s*who\s+"
                  r"(?:was|is|were|are|became)\s+(?:(?:the|a|an)\s+)?(?:[\w-]+\s+){0,3}$")


def _kin_of(sentence: str, title: str, subject: str | None) -> list[Tie]:
    """"X was the son of A and B", "A, the father of X", "Son of A and B." (under X's title)."""
    out = []
    for m in re.finditer(rf"\b({_KIN})\s+of\s+", sentence, re.I):
        word = m.group(1).lower()
        tie, gender = KIN[word]
        objects = _named_at(sentence, _described_from(sentence, m.end()))
        if not objects and (d := re.compile(_DESCRIBED).match(sentence, m.end())):
            objects = _named_at(sentence, d.end())  # "the husband of editor Toni Weisskopf"
        if not objects:
            continue
        before = sentence[:m.start()]
        holder: str | None = None
        if (w := _WHO.search(before)) is not None:  # "Jane Doe, who was the daughter of": Jane Doe's tie
            holder = w.group(1)
        elif re.search(r"\b(?:who|which|whom|whose)\b", before):
            continue  # a clause about someone not named just before: no guess
        elif re.fullmatch(r"\s*the\s*", before, re.I) and len(objects) == 1 and (is_ := re.compile(
                r"\s*,?\s*(?:was|is)\s+").match(sentence, sentence.find(objects[0][0], m.end()) + len(objects[0][0]))):
            holder = next(iter(_names_at(sentence, _described_from(sentence, is_.end()))), None)  # "The father of X
            # was Y."
        elif not before.strip():
            holder = title or None  # "Son of A and B." under the unit's title
        elif (a := _APPOS.search(before)) and (n := re.search(
                r"([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|de|von|van|der))*)\s*(?:\([^()]*\)\s*)?$", before[:a.start()])):
            holder = n.group(1) if not _COPULA.search(before) else subject
        elif _COPULA.search(before) or _AND_ON.search(before):
            holder = subject
        if not holder:
            continue
        for i, (other, said) in enumerate(objects):
            if _one(holder, other):
                continue
            # "the son of A and B" -> A, B are the holder's parents (genders from their titles)
            out.append(Tie(holder, tie, other, gender, 0))
            out.append(Tie(other, CONVERSE[tie], holder, said or gender_of(other), i))
    return out


def _possessed(sentence: str, title: str, subject: str | None) -> list[Tie]:
    """"X's wife, Y", "X's father was Y", "His father, Z, ..." (an opening possessive pronoun: the unit's subject)."""
    out = []
    pattern = rf"(?:([A-Z][\w'’.-]*(?:\s+(?:[A-Z][\w'’.-]*|of|de|von|van))*)\s*['’]s?|^\s*(His|Her|Their))\s+" \
              rf"(?:(?:late|elder|eldest|younger|youngest|first|second|only|older)\s+)?({_KIN})\b\s*,?\s*(?:(?:was|is)\s+)?"
    for m in re.finditer(pattern, sentence):
        owner = m.group(1) or (title or subject)
        word = m.group(3).lower()
        tie, gender = KIN[word]
        for i, holder in enumerate(_names_at(sentence, _described_from(sentence, m.end()))[:1]):
            if owner and not _one(owner, holder):  # "X's mother was the actress Y"
                out.append(Tie(holder, tie, owner, gender or gender_of(holder), i))
                out.append(Tie(owner, CONVERSE[tie], holder, gender_of(owner), 0))
    return out


def _given(name: str) -> str | None:
    """A guess from the given name when nothing else says the gender: one ending in "a" ("Julia", "Ludwika") or
    a woman's name of :data:`FEMALE_GIVEN` ("Margaret")."""
    first = next((w for w in name.split() if w.lower().rstrip(".,") not in FEMALE_TITLES | MALE_TITLES), "").lower()
    return "f" if len(first) > 2 and (first.endswith("a") or first in FEMALE_GIVEN) else None


def answers(ask: Asked, span_ties: Sequence[Tie]) -> list[str]:
    """The names holding the asked tie to the asked person, best first: a gender said that fits before one
    guessed or not said; one said otherwise never. Of two parents named together with no gender said, the father
    is the first and the mother the second; a lone parent with no gender said or guessed answers a father, a spouse
    either."""
    cands = [t for t in span_ties if t.tie == ask.tie and same_person(t.of, ask.of) and not same_person(t.holder, ask.of)]
    if ask.gender is None:
        return list(dict.fromkeys(t.holder for t in cands))
    said = [t for t in cands if t.gender == ask.gender]
    open_ = [t for t in cands if t.gender is None]
    if ask.gender == "f":
        guessed = [t for t in open_ if _given(t.holder) == "f"]
        second = [t for t in open_ if t.order > 0 and ask.tie == "parent" and t not in guessed]
        rest = second if ask.tie == "parent" else [t for t in open_ if t not in guessed] if ask.tie == "spouse" else []
        picked = [*said, *guessed, *rest]  # a spouse whose gender is not said answers "wife" as "husband"
    else:
        picked = [*said, *sorted((t for t in open_ if _given(t.holder) != "f"), key=lambda t: t.order)]
    return list(dict.fromkeys(t.holder for t in picked))


def stated(question: str, units: Sequence[Any]) -> list[str]:
    """The names that ``units`` (each with ``content`` and ``title``) say hold the tie ``question`` asks, unit by
    unit, best first in each; [] when it asks no tie."""
    ask = asked(question)
    if ask is None:
        return []
    return list(dict.fromkeys(n for u in units for n in answers(ask, ties(u.content, u.title or ""))))


def read(question: str, order: Sequence[P]) -> tuple[str, P, dict[str, Any]] | None:
    """The answer to a kin question from the first of ``order`` (spans: :class:`Passage`) that states the tie
    asked, with how."""
    ask = asked(question)
    if ask is None:
        return None
    for span in order:
        found = answers(ask, ties(span.display, span.title))
        if found:
            return found[0], span, {"kind": "span", "candidates": len(found), "distance": 0,
                                    "relation_stated": True, "kin": f"{ask.word} of {ask.of}", "others": found[1:],
                                    "typed_others": len(found) - 1}
    return None
