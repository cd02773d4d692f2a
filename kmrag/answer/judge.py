"""Does what a statement cites support it? Judged per statement, against each span it cites, offline.

The statement is read with spaCy (parts of speech: which words are names, verbs, numbers); the cited spans
are read as words. Then:

1. **Every word has a counterpart** in one cited span (or that span's unit title): the same word or stem,
   the same number (5,900 = 5900, "three" = 3, "km" = "kilometres"), or a word of the same meaning (the
   MiniLM embedder's word vectors, cosine >= ``SOFT``, never a known opposite: born/died, older/younger,
   husband/wife ...). Names, numbers and verbs must all have one; of the other words at most
   ``SLACK`` share may go without (a paraphrase adds "apart", "situated"), and never the only one.
2. **Each clause rests on one span.** The statement is covered by the fewest spans, switching from one span
   to another only where a clause ends (a comma, "and", "which", ...). A clause that takes its subject from
   the clause before (it starts with a verb, or "which" / "who") must find that subject in its own span or
   title: "Air India was founded in 1953" cited to an Air India sentence and a Lufthansa sentence fails, as
   does "Air India, the flag carrier of India, was founded in 1953".
3. **The same polarity**: "not", "never", "no longer" on one side only fails.
4. **The same roles**: two names around a relation word must stand in the same order as in the span
   (allowing for the passive: "Y was directed by X" is "X directed Y"; "X's father" is "the father of X").

This is not general entailment, but every rule names the part that did not hold (``Verdict.failed``), and
tests/data/support/labelled.jsonl measures it (tests/unit/test_support_judge.py).
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kmrag.answer.judge_zh import FUNCTION_CHARS, chinese_problem
from kmrag.answer.lexicon import LIGHT, OBJECT_LIGHT
from kmrag.answer.lexicon import same as same_relation
from kmrag.answer.support import STOP, negated, number_key, stem
from kmrag.nlp import wordnet

SOFT = 0.6       # cosine of two word vectors that count as the same meaning
SLACK = 0.2      # share of a statement's minor words (not names, numbers or verbs) that may go unmatched

# hedges and fillers a paraphrase adds or drops freely
HEDGES = frozenset("""roughly approximately around nearly almost some circa about approx overall total
respectively also already still even well indeed actually currently originally among others""".split())
SCALES = {"thousand": "thousand", "million": "million", "billion": "billion", "trillion": "trillion",
          "k": "thousand", "m": "million", "bn": "billion", "millions": "million", "billions": "billion",
          "thousands": "thousand"}
NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {"hundred": "100"}  # "a hundred films" (two hundred: not matched)
UNIT_KEYS = {"kilometres": "km", "kilometers": "km", "kilometre": "km", "kilometer": "km", "miles": "mi",
             "mile": "mi", "kilograms": "kg", "kilogram": "kg", "metres": "m", "meters": "m", "metre": "m",
             "meter": "m", "percent": "%", "per cent": "%", "hours": "h", "hour": "h", "hrs": "h", "minutes": "min",
             "euros": "eur", "euro": "eur", "€": "eur", "dollars": "usd", "dollar": "usd", "$": "usd",
             "£": "gbp", "pounds": "gbp", "km": "km", "mi": "mi", "kg": "kg", "eur": "eur", "usd": "usd", "gbp": "gbp",
             "feet": "ft", "foot": "ft", "ft": "ft"}
# word pairs whose vectors are close but whose meanings are opposite or distinct roles
OPPOSITES = [frozenset(p.split("/")) for p in """born/died born/dead birth/death older/younger oldest/youngest
elder/younger earlier/later earliest/latest first/last before/after husband/wife father/mother father/son
father/daughter mother/son mother/daughter son/daughter brother/sister uncle/aunt nephew/niece
grandfather/grandmother grandson/granddaughter parent/child win/lose won/lost winner/loser larger/smaller
largest/smallest more/less most/least higher/lower highest/lowest longer/shorter longest/shortest north/south
east/west northern/southern eastern/western buy/sell bought/sold import/export maximum/minimum above/below
over/under increase/decrease start/end begin/end opened/closed open/close founded/dissolved founded/closed
married/divorced alive/dead male/female men/women man/woman king/queen actor/actress home/away
predecessor/successor survive/live survive/die""".split()]
_OPP = {w for p in OPPOSITES for w in p}
# words of a closed set that name different things however close their vectors: kin, roles, outcomes
CLOSED = frozenset("""father mother son daughter brother sister cousin uncle aunt nephew niece grandfather
grandmother grandson granddaughter husband wife spouse child parent sibling stepfather stepmother father-in-law
director producer writer screenwriter composer actor actress singer songwriter editor author publisher founder
owner president chairman captain coach manager player guitarist drummer bassist winner finalist nominee
runner-up champion member leader successful failed won lost regiment corps battalion brigade division army
navy mayor governor senator minister chancellor premier ambassador secretary treasurer judge sheriff king queen
prince princess emperor empress duke duchess bishop pope""".split())
# kin words: a statement's kin word that the span says otherwise ("brother" for "cousin") is never a paraphrase
KIN = frozenset("""father mother son daughter brother sister cousin uncle aunt nephew niece grandfather grandmother
grandson granddaughter husband wife spouse child children parent parents sibling siblings stepfather stepmother
stepson stepdaughter""".split())
# the ties: words of one may be the same tie said from the other side ("parents" / "son of")
CONVERSE = [frozenset(g.split()) for g in ("parent parents father mother son daughter child children",
                                           "husband wife spouse", "sibling siblings brother sister",
                                           "grandfather grandmother grandson granddaughter")]
# the one tie said from either end: "X's parents were A and B" is "X, son of A and B"; only a statement's word
# that names no sex reads so ("mother" is not said by "son of A and B", nor "daughter" by "father of")
_PARENTS, _CHILDREN = frozenset("parent parents".split()), frozenset("child children".split())


def _converse(said: str, span: str) -> bool:
    """Is the statement's kin word ``said`` the span's ``span`` said from the other end?"""
    return (said in _PARENTS and span in _CHILDREN | {"son", "daughter"}) or \
        (said in _CHILDREN and span in _PARENTS | {"father", "mother"})


ORDINALS = {w: str(i + 2) for i, w in enumerate(  # not "first": it is as often "earliest" or "debut"
    "second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())}
# where one clause may end and the next rest on another span
BOUNDARY = re.compile(r"[,;:()\u2013\u2014，；：（）]|\b(?:and|but|which|who|whom|whose|while|whereas|where|when|"
                      r"although|though|because|as well as)\b", re.I)
RELATIVE = frozenset({"which", "who", "whom", "whose", "that", "where", "when"})
_TOKEN = re.compile(r"(?:[^\W\d_]\.){2,}|"  # "U.S.", "D.C.": one word, as spaCy reads it
                    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]|"
                    r"[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af](?:[^\W]|['’-])*|"
                    r"\d+(?:st|nd|rd|th)\b|\d[\d,.]*\d|\d|[€$%£]")
_CODE = re.compile(r"(?<![\w.])(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z\d]{2,12}(?![\w])")  # a code: letters and figures
_CJK_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_AUXW = r"(?!(?:is|was|are|were|has|had|have)\b)"
# an upper-case letter of a Latin name ("Émile", "Łódź"), not only A-Z
_UP = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĖĘĚĞĠĢĤĪĮİĶĹĻĽŁŃŅŇŌŐŒŔŘŚŜŞŠŢŤŪŮŰŲŴŶŸŹŻŽ"
_POSSESSIVE = re.compile(rf"\b([{_UP}][\w.-]*(?:\s+[{_UP}][\w.-]*)*)['’]s\s+((?:{_AUXW}[a-z][\w-]*\s+){{0,2}}{_AUXW}[a-z][\w-]*)\b")
# a bound on a quantity is part of the claim: "more than 3500 km" is not "1500 to 3500 km"
_QTY_AFTER = r"(?=\s+(?:about\s+|some\s+)?(?:[\d$€£]|(?:a\s+)?(?:hundred|" + "|".join(NUMBER_WORDS) + r")\b))"
_QTY_BEFORE = r"(?<=\d)(?:\s*[a-zA-Z%€$]{0,12})?\s+"
COMPARATORS = [(re.compile(rf"\b(?:more than|over|above|exceeding|beyond|at least|greater than){_QTY_AFTER}|"
                           rf"{_QTY_BEFORE}or more\b", re.I), ">"),
               (re.compile(rf"\b(?:less than|fewer than|under|below|up to|at most|no more than|within){_QTY_AFTER}|"
                           rf"{_QTY_BEFORE}or less\b", re.I), "<")]
NEGATORS = frozenset({"not", "never", "no", "nor", "neither", "cannot", "n't", "none"})


@dataclass(frozen=True)
class Verdict:
    """Is a statement supported by the spans it cites? ``score`` in [0, 1]; ``failed`` names the part that
    did not hold, None when supported; ``used``: the indexes of the spans the statement rests on."""

    supported: bool
    score: float
    failed: str | None = None
    used: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {"supported": self.supported, "score": self.score, "failed": self.failed}


@dataclass
class _Tok:
    text: str
    key: str
    kind: str          # name | num | verb | word
    at: int            # character offset
    lemma: str = ""
    matched: list[int] = field(default_factory=list)  # spans holding a counterpart
    where: dict[int, list[int]] = field(default_factory=dict)  # span -> offsets of the counterparts there
    against: str = ""  # a span word of the opposite or another closed-set meaning ("cousin" for "brother")
    phrase: str = ""   # a verb with its particle, "put_out" of "put out", "take_over" of "took over from"


def _key(word: str) -> tuple[str, bool]:
    """(matching key, is a number)."""
    low = word.lower().replace("’", "'").strip(".'-")
    if re.fullmatch(r"(?:[^\W\d_]\.)+[^\W\d_]", low):  # "u.s" (U.S.) is "us"
        low = low.replace(".", "")
    if low in UNIT_KEYS:
        return UNIT_KEYS[low], False
    if low in NUMBER_WORDS:
        return NUMBER_WORDS[low], True
    if low in ORDINALS:
        return ORDINALS[low] + "th", True
    if re.fullmatch(r"\d+(?:st|nd|rd|th)", low):
        return re.sub(r"(st|nd|rd|th)$", "", low) + "th", True
    n = number_key(word)
    if n is not None:
        return n, True
    return stem(low), False


@functools.lru_cache(maxsize=4096)
def _statement(text: str) -> tuple[tuple[tuple[str, str, str, int, str], ...], dict[int, str]]:
    """(word, key, kind, offset, lemma) of a statement's content words, kinds from spaCy's parts of speech; and
    the phrasal verbs (:func:`_phrasal`), from the same parse."""
    from kmrag.nlp.extract import load_spacy

    doc = load_spacy()(text)
    return _words(doc, text), _phrasal(doc)


def _words(doc: Any, text: str) -> tuple[tuple[str, str, str, int, str], ...]:
    out = []
    cjk = bool(_CJK_CHAR.search(text))
    for t in doc:
        if _CJK_CHAR.search(t.text) or (cjk and re.search(r"\d", t.text) and re.search(r"[^\W\d_]", t.text)
                                        and not _TOKEN.fullmatch(t.text)):
            # Chinese, Japanese, Korean: read character by character, as the evidence is; "120ms": 120 and ms
            out += [(m.group(0), _key(m.group(0))[0], "num" if _key(m.group(0))[1] else "word", t.idx + m.start(),
                     m.group(0).lower()) for m in _TOKEN.finditer(t.text) if _key(m.group(0))[0]
                    and m.group(0) not in FUNCTION_CHARS]  # 的 / 了 / 在: no claim of their own
            continue
        if t.is_punct or t.is_space or not _TOKEN.fullmatch(t.text):
            if t.text in {"'s", "’s"} or not any(c.isalnum() for c in t.text):
                continue
        low = t.text.lower()
        if low in STOP or low in HEDGES or low in RELATIVE or low in NEGATORS or \
                (low in {"bc", "ad", "bce", "ce"} and t.i > 0 and t.nbor(-1).like_num):  # "90 BC": a number's era
            continue
        key, is_num = _key(t.text)
        if low in SCALES or low in UNIT_KEYS or low in UNIT_KEYS.values() or t.text in "€$£%":
            out.append((t.text, SCALES.get(low) or UNIT_KEYS.get(low) or UNIT_KEYS.get(t.text) or low, "num", t.idx,
                        low))  # "billion" is not "million", "km" not "miles", "€" not "$"
            continue
        if not key or (low in NUMBER_WORDS and (t.pos_ != "NUM" or low == "one")) or (len(key) <= 2 and not is_num and
                                                                    not t.text[:1].isupper()):
            continue
        if is_num:
            kind = "num"
        elif t.pos_ == "PROPN" or (t.text[:1].isupper() and t.pos_ in {"NOUN", "ADJ", "X"} and
                                   (t.i > 0 or t.pos_ == "NOUN")):  # a capitalised first word is checked too
            kind = "name"
        elif _used_to(t):  # "used to front Creed" says he is its former frontman: "former" must be cited
            out.append((t.text, "former", "verb", t.idx, "former"))
            continue
        elif (t.pos_ in {"VERB"} or (t.pos_ == "AUX" and low not in STOP)) and t.lemma_.lower() not in LIGHT and \
                not _light_here(t):
            kind = "verb"
        else:
            kind = "word"
        if t.pos_ == "AUX":  # "is", "has", "was" carry no claim of their own
            continue
        out.append((t.text, key, kind, t.idx, t.lemma_.lower() if not is_num else key))
    out += [(said, key, "num", at, key) for said, at, key in _bounds(text)]
    return tuple(sorted(out, key=lambda x: x[3]))


def _phrasal(doc: Any) -> dict[int, str]:
    """offset -> "verb_particle" of each verb said with a particle ("put out" -> "put_out", "passed away" ->
    "pass_away"): the two words name the relation ("put out an album" is "released it"), not the verb alone."""
    return {t.idx: f"{t.lemma_.lower()}_{c.lower_}" for t in doc if t.pos_ in {"VERB", "AUX"}
            for c in t.children if c.dep_ == "prt"}


ROLE_NOUNS = frozenset({"role", "part"})
_WHERE = frozenset("in on at near north south east west between along within beside outside inside across".split())


def _used_to(t: Any) -> bool:
    """"used to" + a verb, the habitual past (not "was used to build")."""
    return t.lower_ == "used" and t.i + 2 < len(t.doc) and t.doc[t.i + 1].lower_ == "to" and \
        t.doc[t.i + 2].pos_ in {"VERB", "AUX"} and not any(c.dep_ == "auxpass" for c in t.children) and \
        not (t.i > 0 and t.doc[t.i - 1].lemma_ == "be")


def _light_here(t: Any) -> bool:
    """A verb that claims nothing of its own where it stands: "lies north of" / "is located in" (is)."""
    nxt = [w.lower_ for w in t.doc[t.i + 1:t.i + 2]]
    if t.lemma_.lower() in {"serve", "work"} and nxt[:1] == ["as"]:
        return True  # "served as mayor" is "was mayor": the role claims it
    if t.lemma_.lower() in OBJECT_LIGHT and any(c.dep_ in {"dobj", "dative"} and c.pos_ == "NOUN" for c in t.children):
        return True  # "earned a degree": the degree claims it
    return t.lemma_.lower() in {"lie", "locate", "situate", "sit"} and bool(nxt) and nxt[0] in _WHERE


def _bounds(text: str) -> list[tuple[str, int, str]]:
    """(text, offset, ">" or "<") of each bound on a quantity in ``text``."""
    return [(m.group(0), m.start(), key) for pattern, key in COMPARATORS for m in pattern.finditer(text)]


def _evidence_words(text: str) -> list[tuple[str, str, int]]:
    out = []
    caps: list[str] = []
    for m in _TOKEN.finditer(text):
        w = m.group(0)
        key, _ = _key(w)
        if key:
            out.append((w, key, m.start()))
        parts = [p for p in re.split(r"[-‐]", w) if p] if "-" in w or "‐" in w else []
        out += [(p, _key(p)[0], m.start()) for p in parts if len(parts) > 1 and _key(p)[0]]
        if w.lower().endswith("ed") and len(w) > 4:  # "based" is "base", "located" "locate"
            out.append((w, w.lower()[:-1], m.start()))
        caps = caps + [w] if w[:1].isupper() else []
        for n in range(2, min(6, len(caps)) + 1):  # "Major League Baseball" is also "MLB"
            out.append((w, "".join(c[0] for c in caps[-n:]).lower(), m.start()))
    out += [(said, key, at) for said, at, key in _bounds(text)]
    for m in _CODE.finditer(text):  # "23X", "EAS7005", "A4": one word, as spaCy reads a statement's
        if key := _key(m.group(0))[0]:
            out.append((m.group(0), key, m.start()))
    for m in re.finditer(r"[^\W_]+(?:&[^\W_]+)+", text):  # "X&Y", "AT&T": one name
        out.append((m.group(0), _key(m.group(0))[0], m.start()))
    for m in _WORK_YEAR.finditer(text):  # "a 1958 British drama film": released, came out, premiered in 1958
        out += [(w, w, m.start(1)) for w in ("released", "release", "premiered", "premiere", "came", "come")]
    for m in _LIFESPAN.finditer(text):  # "Name (25 August 1885 – 29 May 1967)": born, died, lived
        out += [("born", "born", m.start(1)), ("bear", "bear", m.start(1)), ("died", "di", m.start(3)),
                ("die", "die", m.start(3)), ("lived", "liv", m.start(1)), ("live", "live", m.start(1))]
    return out


_WORK_YEAR = re.compile(r"\b(1[89]\d{2}|20\d{2})\s+(?:[A-Za-z-]+\s+){0,4}?(?:film|movie|album|single|song|EP|novel|"
                        r"book|documentary|series|play|opera|musical|video\s+game|game|sitcom|miniseries)\b")
_DATE = r"((?:[^()–—;]{0,20}?)\b(?:1\d{3}|20\d{2})\b)"
# "(9 September 1894 in Valparaíso, Chile – 5 September 1965 in Buenos Aires)": a place may follow each date
_LIFESPAN = re.compile(rf"\(\s*(?:born\s+)?[^()]*?{_DATE}(?:,?\s+(?:in|at)\s+[^()–—;]{{1,60}}?)?(\s*[–—-]\s*){_DATE}[^()]*\)")


@functools.lru_cache(maxsize=1)
def _vectors() -> Any:
    from kmrag.nlp.embed import _local_embedder

    return _local_embedder()


_VEC: dict[str, Any] = {}


def _similar(words: Sequence[str], candidates: Sequence[str]) -> dict[str, float]:
    """The best cosine of each word against the candidates (lower-cased), from the embedder's word vectors."""
    need = [w for w in {*words, *candidates} if w not in _VEC]
    if need:
        if len(_VEC) + len(need) > 50_000:
            _VEC.clear()
            need = list({*words, *candidates})
        for w, v in zip(need, _vectors().embed(need), strict=True):
            _VEC[w] = v
    out = {}
    for w in words:
        best = 0.0
        for c in candidates:
            if frozenset((w, c)) in OPPOSITES or (w in _OPP and c in _OPP and w != c):
                continue
            best = max(best, float(_VEC[w] @ _VEC[c]))
        out[w] = best
    return out


def _demonym(a: str, b: str) -> bool:
    """"Tunisia" and "Tunisian", "Japan" and "Japanese": a place and its people's adjective."""
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 4 and long_.startswith(short[:-1]) and long_[len(short) - 1:] in {
        short[-1] + x for x in ("n", "an", "ian", "ese", "ish", "i")} | {x for x in ("n", "an", "ian", "ese", "ish")}


def _prefix_same(a: str, b: str) -> bool:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n >= 5 and n >= 0.7 * min(len(a), len(b))


def judge(statement: str, spans: Sequence[str], titles: Sequence[str] = ()) -> Verdict:
    """The support check every generator's statements and ``kmrag support check`` go through.

    ``spans``: the cited spans (sentences, table rows as "Header: cell; ...", or whole unit texts);
    ``titles``: their units' titles, parallel to ``spans`` when given."""
    spans = [_dash_lost(_marks_off(html.unescape(s))) for s in spans]  # "X&amp;Y" is "X&Y"
    titles = [_marks_off(html.unescape(t)) for t in (list(titles) + [""] * len(spans))[: len(spans)]]
    statement = _dash_lost(_marks_off(statement))
    text = _POSSESSIVE.sub(r"\2 of \1", " ".join(statement.split()))
    text = re.sub(r"(\d)\s*[–—-]\s*(\d)", r"\1 – \2", text)  # "1854–1943": two years
    words, phrases = _statement(text)
    toks = [_Tok(w, k, kind, at, lemma, phrase=phrases.get(at, "")) for w, k, kind, at, lemma in words]
    if not toks:
        return Verdict(False, 0.0, "the statement has no words to check")
    if not spans:
        return Verdict(False, 0.0, "no span is cited")
    if _verbatim(statement, spans):
        return Verdict(True, 1.0, None, tuple(i for i, sp in enumerate(spans) if _verbatim(statement, [sp])))
    lost = chinese_problem(text, spans, titles)  # names, verbs, polarity and numbers of a Chinese statement
    if lost:
        return Verdict(False, 0.0, lost)
    ev = [_evidence_words(s) for s in spans]
    tw = [_evidence_words(t) for t in titles]
    _match(toks, ev, tw)
    _cast(toks, text, spans)
    missing = [t for t in toks if not t.matched]
    hard = [t for t in missing if t.kind in {"name", "num", "verb"}]
    minor = [t for t in missing if t.kind == "word"]
    score = round(1 - len(missing) / len(toks), 4)
    rivals = [t for t in missing if t.against]
    if rivals:
        t = rivals[0]
        return Verdict(False, score * 0.4, f"{t.text!r} where the cited span says {t.against!r}")
    if hard:
        t = hard[0]
        what = {"name": "name", "num": "number", "verb": "verb"}[t.kind]
        return Verdict(False, score * 0.5, f"{what} {t.text!r} is not in the cited spans")
    if minor and not any(t.matched for t in toks if t.kind != "name"):  # "Edmund Varga is a painter."
        return Verdict(False, score * 0.6, f"nothing but the names is in the cited spans: {minor[0].text!r} is not")
    lone = [t for t in minor if _clause_support(text, toks, t) < 2]
    if minor and (len(minor) > max(1.0, SLACK * len(toks)) or lone):
        return Verdict(False, score * 0.6, f"{', '.join(repr(t.text) for t in lone or minor)} not in the cited spans")
    soft = _descriptions(text, toks)
    segments = _cover(text, toks, soft)
    if segments is None:
        return Verdict(False, score * 0.4, "one clause joins words of different spans: " + _which(toks))
    titled = [_with_title(sp, t) for sp, t in zip(spans, titles, strict=True)]  # the span's leading "He" named
    failed = _described(text, toks, segments, soft, ev, tw, spans) or \
        _subjects(text, toks, segments, ev, tw, spans, soft) or _polarity(text, toks, segments, spans) or \
        _lifespan(text, toks, segments, spans) or \
        _near(text, toks, segments, spans) or _direction(text, segments, spans, titles) or \
        _respectively(text, segments, spans) or _one_verb(text, toks, segments, spans) or \
        _kin_of(text, segments, titled) or _agents(text, toks, segments, spans) or \
        _roles(text, toks, segments, titled)
    used = tuple(sorted({s for _, _, s in segments}))
    if failed:
        return Verdict(False, round(score * 0.5, 4), failed, used)
    return Verdict(True, score, None, used)


def _marks_off(text: str) -> str:
    """The text in composed form, without the combining marks left over ("Серге́й" is "Сергей"): a stress mark
    cut a word in two for one reader of the text and not for the other."""
    text = unicodedata.normalize("NFC", text)  # only the Latin-range marks: an Indic vowel sign is a letter's part
    return text if text.isascii() else re.sub("[\u0300-\u036f]", "", text)


_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_YEAR_THEN_DATE = re.compile(rf"\b(1\d{{3}}|20\d{{2}})(?=(?:{_MONTHS})\s+\d)")


def _dash_lost(text: str) -> str:
    """A lifespan whose dash was lost when the text was extracted: "(February 9, 1768June 17, 1852)" is
    "(February 9, 1768 – June 17, 1852)" (in brackets only: "in 1999May 5" in running text is a lost space)."""
    return re.sub(r"\([^()]*\)", lambda m: _YEAR_THEN_DATE.sub(r"\1 – ", m.group(0)), text) if "(" in text else text


def _spaced(text: str) -> str:
    """Spaces collapsed, and none before a stop or comma ("Tokarev , 29" is "Tokarev, 29"), as statements are split."""
    return re.sub(r"\s+([.,;:!?])(?=\s|$)", r"\1", " ".join(text.split()))  # not ".NET"


def _unlisted(text: str) -> str:
    """``text`` without the list marker it opens with ("- ", "2. "): an item is the same quote with or without it."""
    return re.sub(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+", "", text)


def _verbatim(statement: str, spans: Sequence[str]) -> bool:
    """The statement is a cited span, or one whole sentence or line of it, word for word (spaces and the closing stop
    aside): a quote says what it quotes, in any script ("(Arabic: فلاي دبي)", "Atari 400/800")."""
    said = _unlisted(_spaced(statement)).rstrip(". ")
    if not said:
        return False
    for span in spans:
        whole = _unlisted(_spaced(span))
        if whole.rstrip(". ") == said:
            return True
        if any(sent.rstrip(". ") == said for sent in re.split(r"(?<=[.!?])\s+(?=[A-Z\"“(])", whole)):
            return True
        if "\n" in span and any(_spaced(line).rstrip(". ") == said for line in span.split("\n")):
            return True  # one whole line of a block of code or of a list
    return False


def _match(toks: list[_Tok], ev: list[list[tuple[str, str, int]]], tw: list[list[tuple[str, str, int]]]) -> None:
    """Each statement word's counterparts: ``t.matched`` the spans, ``t.where[span]`` their offsets there (-1:
    the unit's title, which stands for the span's "it" / "he")."""
    cjk = {t.at: bool(_CJK_CHAR.search(t.text)) for t in toks}  # a lone character has no word forms to compare
    for i, words in enumerate(ev):
        both = words + [(w, k, -1) for w, k, _ in tw[i]]
        lowered = [w.lower() for w, _, _ in both]
        for t in toks:
            lem = stem(t.lemma) if t.lemma else t.key
            at = []
            for j, (_w, k, pos) in enumerate(both):
                if k == t.key or k == lem or (t.kind == "num" and _number_in(t.key, {k})) or \
                        (t.kind in {"verb", "word"} and _prefix_same(t.key, k)) or \
                        (t.kind == "name" and _demonym(t.key, k)) or \
                        (t.kind != "num" and not cjk[t.at] and
                         _lexical(t, lowered[j], lowered[j + 1] if j + 1 < len(both) else "")):
                    at.append(pos)
            if at:
                t.matched.append(i)
                t.where[i] = at
        _two_words(toks, both, lowered, i)
    # the embedder's vectors say nothing of a lone Chinese character: those are matched by what they are
    soft = [t for t in toks if not t.matched and t.kind in {"verb", "word"} and not _CJK_CHAR.search(t.text)]
    if not soft:
        return
    for i, words in enumerate(ev):
        both = words + [(w, k, -1) for w, k, _ in tw[i]]
        cands = sorted({w.lower() for w, k, _ in both if w.lower() not in STOP and not k.isdigit()})
        if not cands:
            continue
        _similar([t.lemma or t.text.lower() for t in soft] + [t.text.lower() for t in soft], cands)
        # a word of a name the statement says is not also another word's counterpart ("won" is not "Prize" in
        # "a finalist for the Pulitzer Prize")
        taken = {pos for t in toks if t.kind == "name" for pos in t.where.get(i, []) if pos >= 0}
        for t in soft:
            mine = t.lemma or t.text.lower()
            said = t.text.lower()  # "older" as said, whose lemma "old" is in no list of opposites
            at = [pos for w, _, pos in both if w.lower() in _VEC and (_close(mine, w.lower()) or
                                                                     _synonym(mine, w.lower(), t.kind) or
                                                                     _synonym(t.phrase, w.lower(), t.kind, 99)) and
                  (pos < 0 or pos not in taken) and not (said != w.lower() and said in _OPP and w.lower() in _OPP)]
            rival = [w for w, _, _ in both if w.lower() in _VEC and
                     (_rival(mine, w.lower()) or (said != mine and frozenset((said, w.lower())) in OPPOSITES))]
            if rival and not at:
                t.against = rival[0]
            if at:
                t.matched.append(i)
                t.where[i] = at


_PLAYS = frozenset({"play", "portray"})


def _groups(names: list[_Tok]) -> list[list[_Tok]]:
    """Runs of adjacent name words ("Doris's neighbor Fred Gailey": "Doris Fred Gailey")."""
    out: list[list[_Tok]] = []
    for t in names:
        if out and t.at - (out[-1][-1].at + len(out[-1][-1].text)) <= 1:
            out[-1].append(t)
        else:
            out.append([t])
    return out


_HAS_ROLE = re.compile(r"\b(?:ha[sd]|have|having|got|gets|landed|lands|took|takes|taken|played|plays)\s+(?:an?\s+|the\s+|"
                       r"his\s+|her\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:role|part)s?\b", re.I)


def _cast(toks: list[_Tok], text: str, spans: Sequence[str]) -> None:
    """"A played C" / "C is played by A" is what a cast list says as "C (A)" or "A as C"; "played a role" is
    "had a role" (not "was offered a role")."""
    for i, v in enumerate(toks):
        if v.kind != "verb" or v.lemma not in _PLAYS:
            continue
        if i + 1 < len(toks) and any(t.lemma in ROLE_NOUNS for t in toks[i + 1:i + 3]):
            for s, span in enumerate(spans):
                m = _HAS_ROLE.search(span)
                if m and s not in v.matched:
                    v.matched.append(s)
                    v.where[s] = [m.start()]
        by = bool(re.match(r"\w+\s+by\b", text[v.at:]))
        before = [t for t in toks[:i] if t.kind == "name"]
        after = [t for t in toks[i + 1:] if t.kind == "name"]
        if not before or not after:
            continue
        ends = [" ".join(t.text for t in g[k:]) for g in _groups(before) for k in range(len(g))]
        starts = [" ".join(t.text for t in g[:k]) for g in _groups(after) for k in range(len(g), 0, -1)]
        for x, y in ((x, y) for x in ends for y in starts):
            actor, role = (re.escape(y), re.escape(x)) if by else (re.escape(x), re.escape(y))
            pattern = re.compile(rf"\b{role}\s*\(\s*(?:as\s+)?{actor}\s*\)|\b{actor}\s+\(?as\s+(?:the\s+)?{role}\b")
            for s, span in enumerate(spans):
                m = pattern.search(span)
                if m and s not in v.matched:
                    v.matched.append(s)
                    v.where[s] = [m.start()]


def _two_words(toks: list[_Tok], both: list[tuple[str, str, int]], lowered: list[str], i: int) -> None:
    """Two adjacent statement words that say one span word's relation ("every day" for "daily")."""
    for t, u in zip(toks, toks[1:], strict=False):
        if (i in t.matched and i in u.matched) or u.at - (t.at + len(t.text)) > 1 or "num" in {t.kind, u.kind}:
            continue
        pair = frozenset({f"{t.text.lower()} {u.text.lower()}", f"{t.lemma} {u.lemma}"})
        at = [pos for j, (_w, _k, pos) in enumerate(both)
              if _said(pair, lowered[j], lowered[j + 1] if j + 1 < len(both) else "")]
        for x in (t, u):
            if at and i not in x.matched:
                x.matched.append(i)
                x.where[i] = at


def _rival(a: str, b: str) -> bool:
    """``b`` is close to ``a`` in meaning but names another thing of the same kind (or the opposite); two kin
    words of different ties always do ("brother" / "cousin")."""
    if a == b or _converse(a, b) or not (frozenset((a, b)) in OPPOSITES or (a in CLOSED and b in CLOSED)):
        return False
    if a in KIN and b in KIN and not any(a in g and b in g for g in CONVERSE):
        return True
    return float(_VEC[a] @ _VEC[b]) >= 0.45


def _close(a: str, b: str) -> bool:
    if _converse(a, b):
        return True
    if frozenset((a, b)) in OPPOSITES or (a in _OPP and b in _OPP and a != b) or \
            (a != b and (a in CLOSED or b in CLOSED)):
        return False
    return float(_VEC[a] @ _VEC[b]) >= SOFT


def _synonym(mine: str, word: str, kind: str, senses: int = 0) -> bool:
    """Does a span's ``word`` (any of its forms) share one of the most frequent WordNet senses of the
    statement's lemma ``mine`` ("hired" / "engaged", "issued" / "released")? Never a known opposite, two words
    of a closed set (kin, roles), nor two verbs whose doers are different roles ("wrote" / "published")."""
    if not mine or not wordnet.available() or frozenset((mine, word)) in OPPOSITES or \
            (mine in _OPP and word in _OPP):
        return False
    pos = "verb" if kind == "verb" else "noun"
    for form in _forms(word):
        if form == mine or form in STOP or (form in CLOSED or mine in CLOSED) or frozenset((mine, form)) in OPPOSITES:
            continue
        doers = {_DOER.get(mine), _DOER.get(form)}
        if len(doers) == 2 and None not in doers:
            continue
        if wordnet.first_sense_shared(mine, form, pos) if not senses else wordnet.same_sense(mine, form, pos, senses):
            return True
    return False


IRREGULAR = {"born": "bear", "won": "win", "took": "take", "taken": "take", "gave": "give", "given": "give",
             "ran": "run", "flew": "fly", "flown": "fly", "wrote": "write", "written": "write", "held": "hold",
             "made": "make", "sold": "sell", "bought": "buy", "led": "lead", "began": "begin", "begun": "begin",
             "built": "build", "laid": "lay", "left": "leave", "known": "know", "shown": "show", "set": "set",
             "sent": "send", "won't": "win", "founded": "found", "lay": "lie", "lain": "lie", "stood": "stand",
             "sat": "sit", "hit": "hit", "struck": "strike", "beat": "beat", "beaten": "beat", "became": "become",
             "drew": "draw", "drawn": "draw", "chose": "choose", "chosen": "choose", "dealt": "deal", "met": "meet"}


# the doer's noun says its verb: "a novel by writer X" is "X wrote it" (a list: "former" is no "form" + "er")
AGENTS = {"writer": "write", "director": "direct", "producer": "produce", "composer": "compose",
          "publisher": "publish", "founder": "found", "owner": "own", "leader": "lead", "creator": "create",
          "designer": "design", "builder": "build", "singer": "sing", "player": "play", "winner": "win",
          "editor": "edit", "painter": "paint", "manufacturer": "manufacture", "developer": "develop",
          "inventor": "invent", "narrator": "narrate", "performer": "perform", "teacher": "teach",
          "operator": "operate", "presenter": "present", "illustrator": "illustrate", "translator": "translate",
          "architect": "design", "novelist": "write", "songwriter": "write", "screenwriter": "write",
          "recipient": "receive", "resident": "reside"}


# a verb's doer noun ("write" -> "writer"), for roles WordNet would merge ("write" / "publish")
_DOER = {verb: noun for noun, verb in AGENTS.items() if noun.startswith(verb[:3])}


@functools.lru_cache(maxsize=65536)
def _forms(word: str) -> frozenset[str]:
    """The lemmas an inflected word may have (no parser for the cited spans: a few suffix rules)."""
    w = word.lower()
    out = {w, IRREGULAR.get(w, w), AGENTS.get(w, w), AGENTS.get(w[:-1] if w.endswith("s") else w, w)}
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"), ("d", ""),
                         ("ing", ""), ("ing", "e")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            base = w[: -len(suffix)] + repl
            out.add(base)
            if suffix in {"ed", "ing"} and len(base) > 3 and base[-1] == base[-2]:  # "starring", "capped"
                out.add(base[:-1])
    return frozenset(out)


def _lexical(tok: _Tok, word: str, after: str) -> bool:
    """Does ``word`` (or ``word after``) of a span say the same relation as ``tok`` (kmrag.answer.lexicon)?"""
    return _said(frozenset({tok.lemma, tok.text.lower(), tok.phrase} - {""}), word, after)


@functools.lru_cache(maxsize=65536)
def _said(mine: frozenset[str], word: str, after: str) -> bool:
    cands = _forms(word) | {f"{c} {after}" for c in _forms(word)} if after else _forms(word)
    return any(same_relation(x, y) for x in mine for y in cands)


def _clause_support(text: str, toks: list[_Tok], tok: _Tok) -> int:
    """How many matched words share ``tok``'s clause (the text between two boundaries)."""
    cuts = [0] + [m.end() for m in BOUNDARY.finditer(text)] + [len(text) + 1]
    lo = max(c for c in cuts if c <= tok.at)
    hi = min(c for c in cuts if c > tok.at)
    return sum(1 for t in toks if t.matched and lo <= t.at < hi)


def _number_in(key: str, keys: set[str]) -> bool:
    """A year inside a written date range ("1910-2000"), a number written with a unit glued on ("5900km")."""
    return any(k.startswith(key) and len(key) >= 3 and not re.match(r"[\d.,]", k[len(key):len(key) + 1]) for k in keys)


def _which(toks: list[_Tok]) -> str:
    by: dict[int, list[str]] = {}
    for t in toks:
        if len(t.matched) == 1:
            by.setdefault(t.matched[0], []).append(t.text)
    return " / ".join(" ".join(v[:4]) for v in by.values()) or "no single span holds it"


def _descriptions(text: str, toks: list[_Tok]) -> dict[int, tuple[int, int]]:
    """Where a description of a thing the statement does not name begins or ends: a noun phrase headed by a
    common noun with words of its own ("the chief executive of [Germany's flag carrier]", "[the state where
    X is located] was won by Y", "of [a team that plays at Z]"). {token index a span may switch at: (first,
    last) token of the description}."""
    if _CJK_CHAR.search(text) or len(toks) < 3:
        return {}
    out: dict[int, tuple[int, int]] = {}
    for h in _parsed(text):
        if h.pos_ != "NOUN" or h.dep_ not in {"pobj", "nsubj", "nsubjpass", "dobj", "attr"}:
            continue
        sub = list(h.subtree)
        lo, hi = sub[0].idx, sub[-1].idx + len(sub[-1].text)
        inside = [i for i, t in enumerate(toks) if lo <= t.at < hi]
        if len(inside) < 2 or len(inside) == len(toks):
            continue
        first, last = inside[0], inside[-1]
        for i in (first, last + 1):
            if 0 < i < len(toks):
                out[i] = (first, last)
    return out


def _described(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], soft: dict[int, tuple[int, int]],
               ev: list[Any], tw: list[Any], spans: Sequence[str]) -> str | None:
    """A switch of span inside a clause, at a description: the description's span and the other span must name
    one thing the statement does not (the description stands for it: "Germany's flag carrier" for Lufthansa,
    in "Lufthansa is the flag carrier of Germany" and "Carsten Spohr is the chief executive of Lufthansa")."""
    said = {t.key for t in toks}
    for k in range(1, len(segs)):
        a = segs[k][0]
        edge = _boundary_between(text, toks[a - 1], toks[a])
        if edge or a not in soft:
            continue
        first, last = soft[a]
        inner = next((s for x, y, s in segs if x <= first and last <= y), None)
        outer = segs[k - 1][2] if a == first else segs[k][2]
        if inner is None or inner == outer:
            return f"one clause joins words of different spans: {_which(toks)}"
        at = [p for t in toks[first:last + 1] for p in t.where.get(inner, []) if p >= 0]
        out_at = [p for t in toks[:first] + toks[last + 1:] for p in t.where.get(outer, []) if p >= 0]
        # a title both spans have is one unit's: it names no thing the description could stand for
        same = {k for _, k, _ in tw[outer]} & {k for _, k, _ in tw[inner]}
        shared = (_proper(spans[outer], tw[outer]) & _proper(spans[inner], tw[inner])) - said - same

        def there(s: int, at: list[int], k: str) -> bool:  # the thing named in the clause of the words at ``at``
            return any(p < 0 or any(_one_clause(spans[s], p, q) for q in at)
                       for _, key, p in ev[s] + [(w, key, -1) for w, key, _ in tw[s]] if key == k)
        if not any(there(inner, at, k) and there(outer, out_at, k) for k in shared):
            d = " ".join(t.text for t in toks[first:last + 1])
            return f"one clause joins words of different spans: {d!r} stands for nothing both spans name"
    return None


def _proper(span: str, title: list[tuple[str, str, int]]) -> set[str]:
    """The keys of the names a span says (proper nouns, by its parse; capitalised words past the first where it
    cannot be parsed) and of its unit's title."""
    if _parsable(span):
        keys = {_key(t.text)[0] for t in _parsed(span) if t.pos_ == "PROPN"}
    else:
        keys = {k for w, k, p in _evidence_words(span) if w[:1].isupper() and p != 0}
    return {k for k in keys | {k for w, k, _ in title if w[:1].isupper()} if len(k) > 2 and k not in STOP}


def _cover(text: str, toks: list[_Tok], soft: dict[int, tuple[int, int]] | None = None
           ) -> list[tuple[int, int, int]] | None:
    """The fewest (first token, last token, span) segments covering the statement, switching span only at a
    clause boundary or where a description begins or ends (``soft``); None when no such cover exists."""
    soft = soft or {}
    n = len(toks)
    spans = sorted({s for t in toks for s in t.matched})
    inf = 1e9
    cost: list[dict[int, float]] = [{s: (0.0 if (not toks[0].matched or s in toks[0].matched) else inf)
                                     for s in spans}]
    back: list[dict[int, int]] = [{}]
    for i in range(1, n):
        edge = bool(BOUNDARY.search(text[toks[i - 1].at + len(toks[i - 1].text):toks[i].at]))
        step = 1.0 if edge else 1.001  # a clause boundary before a description's
        row: dict[int, float] = {}
        brow: dict[int, int] = {}
        for s in spans:
            if toks[i].matched and s not in toks[i].matched:
                row[s] = inf
                continue
            best, arg = cost[i - 1][s], s
            if edge or i in soft:
                for p in spans:
                    if cost[i - 1][p] + step < best:
                        best, arg = cost[i - 1][p] + step, p
            row[s], brow[s] = best, arg
        cost.append(row)
        back.append(brow)
    end = min(spans, key=lambda s: cost[-1][s]) if spans else None
    if end is None or cost[-1][end] >= inf:
        return None
    path = [end]
    for i in range(n - 1, 0, -1):
        path.append(back[i][path[-1]])
    path.reverse()
    segs: list[tuple[int, int, int]] = []
    for i, s in enumerate(path):
        if segs and segs[-1][2] == s:
            segs[-1] = (segs[-1][0], i, s)
        else:
            segs.append((i, i, s))
    return segs


def _subjects(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], ev: list[Any], tw: list[Any],
              spans: Sequence[str], soft: dict[int, tuple[int, int]] | None = None) -> str | None:
    """A clause resting on another span than the one before must name its subject, or find the subject it
    takes from before in its own span (a switch at a description is judged by ``_described``)."""
    names = [t for t in toks if t.kind == "name"]
    for a, b, s in segs[1:]:
        if soft and a in soft and not _boundary_between(text, toks[a - 1], toks[a]):
            continue
        seg = toks[a:b + 1]
        first_verb = next((i for i, t in enumerate(seg) if t.kind == "verb"), None)
        own = [t for t in (seg if first_verb is None else seg[:first_verb]) if t.kind == "name"]
        lead = text[toks[a - 1].at + len(toks[a - 1].text):seg[0].at].lower()
        attached = _attached(text, toks[a - 1].at + len(toks[a - 1].text), seg[-1].at + len(seg[-1].text))
        # "the state where the Carnival is held": a clause with its own subject is still said of the noun
        said_of = attached is not None and re.search(r"\b(?:where|when|whereby)\b", lead)
        if own and first_verb is not None and not re.search(r"\b(?:which|who|whose|whom|that)\b", lead) \
                and not said_of:
            continue
        k = [x[0] for x in segs].index(a)
        prev = segs[k - 1][2]
        if _joint_subject(toks, segs[k - 1], seg, lead, prev):
            continue
        if attached is not None and attached[0] == "noun":
            # "in the state where Dell is ...": the two spans must share the name the noun stands for
            at = [p for t in seg for p in t.where.get(s, []) if p >= 0]
            if _bridge(ev[prev] + tw[prev], ev[s] + tw[s], spans[s], at):
                continue
            return (f"the clause {' '.join(t.text for t in seg[:4])!r} is about {attached[2]!r}, which its span and "
                    "the span before name nothing in common")
        at_name = [i for i, t in enumerate(toks[:a]) if attached is not None and t.at == attached[1]]
        before = [t for t in toks[:a] if t.kind == "name"]
        if at_name and toks[at_name[0]].kind == "name":  # "Lufthansa, an airline founded in 1953"
            ante = _name_group(toks, at_name[0])
        elif before and (re.search(r"\b(?:which|who|whose|whom|that)\b", lead) or first_verb is None):
            ante = _name_group(toks, toks.index(before[-1]))
        elif names and names[0] in toks[:a]:
            ante = _name_group(toks, toks.index(names[0]))
        else:
            return f"the clause {' '.join(t.text for t in seg)!r} rests on another span with no subject shared"
        keys = {k for _, k, _ in ev[s]} | {k for _, k, _ in tw[s]}
        if not all(t.key in keys for t in ante):
            return (f"{' '.join(t.text for t in ante)!r} is not what the span of "
                    f"{' '.join(t.text for t in seg[:4])!r} is about")
    return None


def _joint_subject(toks: list[_Tok], before: tuple[int, int, int], seg: list[_Tok], lead: str, prev: int) -> bool:
    """"Helvetia and Tucson are both in Pima County": names joined by "and" before one predicate, each from
    its own span; the predicate must be said in the first name's span too."""
    first = toks[before[0]:before[1] + 1]
    if lead.strip() != "and" or not first or any(t.kind != "name" for t in first) or seg[0].kind != "name":
        return False
    rest = seg[len(_name_group(seg, 0)):]
    return bool(rest) and all(prev in t.matched for t in rest)


@functools.lru_cache(maxsize=256)  # a parse of a long span is large
def _parsed(text: str) -> Any:
    """spaCy's parse of a text, with its bracketed asides that hold a number blanked out (offsets kept): "Gaius
    Antonius (died 42 BC) was the second son ..." is parsed as "Gaius Antonius was the second son ...", not
    with "Gaius Antonius" as the subject of "died"."""
    from kmrag.nlp.extract import load_spacy

    return load_spacy()(_ASIDE.sub(lambda m: " " * len(m.group(0)), text))


_ASIDE = re.compile(r"\s*\([^()]*\d[^()]*\)")


def _attached(text: str, lo: int, hi: int) -> tuple[str, int, str] | None:
    """What the clause at ``text[lo:hi]`` hangs from, when it is a relative clause, a participle or an
    apposition of a noun before it: ("name" | "noun", the noun's offset, the noun)."""
    if _CJK_CHAR.search(text):
        return None
    doc = _parsed(text)
    for t in doc:
        if lo <= t.idx < hi and t.dep_ in {"relcl", "acl", "appos"} and t.head.idx < lo:
            h = t.head
            if text[h.idx + len(h.text):lo].strip(" ,\"'’”)"):  # the noun right before the clause, or none
                before = [x for x in doc if x.idx < lo and not x.is_punct]
                if t.dep_ != "appos" or not before or before[-1].pos_ not in {"PROPN", "NOUN"}:
                    return None
                h = before[-1]  # "studios in the Dimond Center, the biggest mall": the parser hangs the
                # apposition on "studios"; it describes the noun right before its comma
            if h.pos_ == "PROPN":
                return "name", h.idx, h.text
            if h.pos_ == "NOUN":
                return "noun", h.idx, h.text
            return None
    return None


def _bridge(one: list[tuple[str, str, int]], other: list[tuple[str, str, int]], span: str, at: list[int],
            unsaid: set[str] | frozenset[str] = frozenset()) -> bool:
    """Do two spans (with their titles) name one thing in common (a capitalised word, not the first of a
    sentence; none of the keys ``unsaid``), said in ``span`` of the clause the statement's words ``at`` stand
    in ("held every year in Venice, Italy, and draws crowds from Germany": Germany is not where it is held)?"""
    def names(words: list[tuple[str, str, int]]) -> set[str]:
        return {k for w, k, p in words if w[:1].isupper() and p != 0 and len(k) > 2 and w.lower() not in STOP}
    shared = (names(one) & names(other)) - set(unsaid)
    if not shared or not at or not _parsable(span):
        return bool(shared)
    return any(p < 0 or any(_one_clause(span, p, q) for q in at) for w, k, p in other if k in shared)


def _name_group(toks: list[_Tok], i: int) -> list[_Tok]:
    j = i
    while j + 1 < len(toks) and toks[j + 1].kind == "name" and toks[j + 1].at - (toks[j].at + len(toks[j].text)) <= 1:
        j += 1
    while i > 0 and toks[i - 1].kind == "name" and toks[i].at - (toks[i - 1].at + len(toks[i - 1].text)) <= 1:
        i -= 1
    return toks[i:j + 1]


_NOT_NEGATION = re.compile(r"\bno (?:later|earlier|sooner|more|less|fewer) than\b|\bnot only\b|\bno doubt\b|"
                           r"(?-i:(?<=\S )No(?= [A-Z]))|(?-i:^No(?= [A-Z][\w'’-]*(?: [A-Z][\w'’-]*)* (?:is|was) (?:a|an|the)\b))", re.I)
# "... Horrible, No Good, Very Bad Day" and "No Escape is a 1936 film" are titles; "No Canadian team won" is not


def _polarity(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """"not", "never", "no longer" on one side only; in a span, only the clauses the statement's words stand in
    count ("Drawing from literature that was not destroyed, Ibn Sina proposed ..." does not negate "proposed")."""
    said = _negated(text)
    used = []
    for a, b, s in segs:
        at = [p for t in toks[a:b + 1] for p in t.where.get(s, [])]
        verbs = [p for t in toks[a:b + 1] if t.kind == "verb" for p in t.where.get(s, [])]
        used.append(_negated(_said_clauses(spans[s], at)) or _governed(spans[s], verbs))
    if said != any(used):
        return ("the statement negates what the cited span says" if said
                else "the cited span negates what the statement says")
    return None


def _governed(span: str, at: list[int]) -> bool:
    """Does a "not" govern the verbs at ``at`` from a clause above theirs ("Historians do not agree that the
    regiment was disbanded in 1919")?"""
    if not _parsable(span):
        return False
    doc = _parsed(span)
    for t in doc:
        if any(t.idx <= p < t.idx + len(t.text) for p in at if p >= 0):
            for h in [t, *t.ancestors]:
                if any(c.dep_ == "neg" for c in h.children):
                    return True
    return False


def _said_clauses(span: str, at: list[int]) -> str:
    """The clauses of ``span`` (between two boundaries) holding one of the offsets ``at``; the whole span when
    none does (the words matched its title)."""
    cuts = [0] + [m.start() for m in BOUNDARY.finditer(span)] + [len(span)]
    pieces = [span[lo:hi] for lo, hi in zip(cuts, cuts[1:], strict=False) if any(lo <= p < hi for p in at)]
    return " ".join(pieces) if pieces else span


# verbs that say their complement did not happen: "refused to fund" is "did not fund"
_NEGATIVE_VERB = re.compile(r"\b(?:refus(?:e|es|ed|ing|al)|fail(?:s|ed|ing|ure)?|declin(?:e|es|ed|ing)|"
                            r"neglect(?:s|ed|ing)?)\s+to\s+(?!\d)[a-z]+", re.I)


def _negated(text: str) -> bool:
    return negated(_NOT_NEGATION.sub(" ", text)) or bool(_NEGATIVE_VERB.search(text))


NEAR = 30  # characters: how far apart in a span two words the statement puts side by side may stand


def _lifespan(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """In "Name (5 May 1990 – 3 June 2020)" the first date is the birth, the second the death."""
    # each year is said of the nearest "born" / "died" / "lived" before it ("born in 1852 and died in 1815";
    # "born Roger Kelly, ... lived from 1943 to 2014": the years are the life's, not the birth's)
    said: list[tuple[str, str]] = []
    quoted = [m.span() for m in _LIFESPAN.finditer(text)]  # the statement's own "(born X; 1929 – 2004)"
    for i, t in enumerate(toks):
        if t.kind == "num" and re.fullmatch(r"1\d{3}|20\d{2}", t.key) and not any(a <= t.at < b for a, b in quoted):
            verb = next((v.lemma for v in reversed(toks[:i]) if v.lemma in {"bear", "die", "live"}), None)
            if verb in {"bear", "die"}:  # a year before any of them ("X (1917 – 2005) (born Y)") claims neither
                said.append((t.key, verb))
    places = []  # "born in Valparaíso": a name after "born" / "died", said of that event
    for i, t in enumerate(toks):
        if t.kind == "name" and any(_LIFE_IN.search(text[v.at:t.at]) for v in toks[:i] if v.lemma in {"bear", "die"}):
            verb = next(v.lemma for v in reversed(toks[:i]) if v.lemma in {"bear", "die", "live"})
            if verb in {"bear", "die"}:
                places.append((t.text.lower(), verb))
    for _, _, s in segs:
        for m in _LIFESPAN.finditer(spans[s]):
            born_part = spans[s][m.start(1):m.start(2)].lower()
            died_part = spans[s][m.end(2):m.end()].lower()
            for name, verb in places:
                own, other = (born_part, died_part) if verb == "bear" else (died_part, born_part)
                if re.search(rf"\b{re.escape(name)}\b", other) and not re.search(rf"\b{re.escape(name)}\b", own):
                    event = "birth" if verb == "die" else "death"
                    return f"{name} is the place of the {event} in the cited span's lifespan"
            born, died = m.group(1), m.group(3)
            for y, verb in said:
                if verb == "bear" and y in died and y not in born:
                    return f"{y} is the death in the cited span's lifespan, not the birth"
                if verb == "die" and y in born and y not in died:
                    return f"{y} is the birth in the cited span's lifespan, not the death"
    return None


# "born in ", "died on May 5, 1965 in ": not across a clause ("born in Tollby and studied at")
_LIFE_IN = re.compile(r"^\w+(?:(?:\s+|,\s*(?=\d))(?!(?:and|or|but|then)\b)\w+){0,6}?\s+(?:in|at)\s+$")


def _gap(a: _Tok, b: _Tok) -> int:
    x, y = sorted((a, b), key=lambda t: t.at)
    return y.at - (x.at + len(x.text))


def _doer(text: str, toks: list[_Tok], i: int) -> list[_Tok]:
    """The name that does what ``toks[i]`` says: after "by" when passive, else the nearest name before it."""
    if re.match(r"\w+\s+by\b", text[toks[i].at:]):
        after = [t for t in toks[i + 1:] if t.kind == "name"]
        return _name_group(toks, toks.index(after[0])) if after else []
    before = [t for t in toks[:i] if t.kind == "name" and not _boundary_between(text, t, toks[i])]
    while before and _gap(before[-1], toks[i]) <= 1:  # "an American author": it says what kind
        before.pop()
    return _name_group(toks, toks.index(before[-1])) if before else []


def _by_agent(t: _Tok, word: str) -> bool:
    """Does ``t`` match span word ``word`` only as the doer's noun of its verb ("wrote" / "writer")?"""
    noun = word[:-1] if word.endswith("s") and word[:-1] in AGENTS else word
    if noun not in AGENTS or noun == t.text.lower() or noun == t.lemma:
        return False
    return not any(same_relation(x, noun) for x in {t.lemma, t.text.lower()} - {""})


def _agents(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """A relation read from a doer's noun ("a novel by writer X, edited by Y") is said of the name that noun
    stands beside in the span: "written by Y" is not."""
    for a, b, s in segs:
        for i in range(a, b + 1):
            t = toks[i]
            if t.kind not in {"verb", "word"} or s not in t.where:
                continue
            nouns = [p for p in t.where[s] if p >= 0 and
                     (m := re.match(r"[\w-]+", spans[s][p:])) and _by_agent(t, m.group(0).lower())]
            if not nouns or len(nouns) < len([p for p in t.where[s] if p >= 0]):
                continue
            doer = _doer(text, toks, i)
            if not doer or s not in doer[0].where:
                continue
            span = spans[s]
            at = [q for q in doer[0].where[s] if q >= 0]
            if -1 in doer[0].where[s] and (lead := _PRONOUN.match(span)):
                at.append(lead.end(1))  # "He was a recipient of X": the title's name, said by its "He"
            if not any((0 <= q - p <= 40 and not re.search(r"[,;()]|\bby\b", span[p:q])) or
                       (0 <= p - q <= 60 and not re.search(r"[;()]|\bby\b", span[q:p]))
                       for p in nouns for q in at):
                return f"{t.text!r} is said of another name than {' '.join(d.text for d in doer)!r} in the cited span"
    return None


def _boundary_between(text: str, a: _Tok, b: _Tok) -> bool:
    x, y = sorted((a, b), key=lambda t: t.at)
    return bool(BOUNDARY.search(text[x.at + len(x.text):y.at]))


def _near(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """A number is said of the words around it in the statement (up to three each side): in its span one of
    those words stands within ``NEAR`` characters of it, and, when a name is among them, a name within twice
    that ("disbanded in 2001" is not "released in 2001 ... disbanded in 2004")."""
    for a, b, s in segs:
        for i in range(a, b + 1):
            t = toks[i]
            if t.kind != "num" or s not in t.where:
                continue
            beside = [n for n in toks[max(0, i - 1):i] + toks[i + 1:i + 2]
                      if _gap(n, t) <= 1 or (n.kind == "name" and _gap(n, t) <= 5)]  # "Miracle on 34th", "Five Finger"
            if all(p < 0 for p in t.where[s]) and beside and all(n.kind == "name" and -1 in n.where.get(s, ())
                                                                 for n in beside):
                continue  # "Miracle on 34th Street": a number of the title's name, said with it
            around = [n for n in toks[max(0, i - 3):i] + toks[i + 1:i + 4]
                      if n.kind != "num" and s in n.where and any(q >= 0 for q in n.where[s])]
            own = [n for n in around if not _boundary_between(text, n, t)]
            around = own or around
            mine = {q for n in toks for q in n.where.get(s, ())}
            head = [n for n in toks if n.kind == "verb" and s in n.where and _one_clause(text, t.at, n.at)
                    and not (n.text[:1].isupper() and n.at > 0)]
            # the number hangs from the same verb on both sides: the words around it need not stand near it
            same_verb = bool(head) and _parsable(spans[s]) and any(
                _one_clause(spans[s], p, q, mine) for n in head for p in t.where[s] for q in n.where[s])
            verbs = [n for n in around if n.kind == "verb" and _one_clause(text, t.at, n.at)
                     and not (n.text[:1].isupper() and n.at > 0)]  # "Read It and Weep (2006)": a title
            if verbs and all(_other_verb(spans[s], p, q) for n in verbs for p in t.where[s] for q in n.where[s]) \
                    and _parsable(spans[s]):  # "founded in 1941 ..., and later reconstituted as a corps in 1950"
                return f"{t.text!r} is not said of {' / '.join(n.text for n in verbs)!r} in the cited span"
            row = _row_between(spans[s], t, [n for n in around if n.kind == "name"], s, toks)
            if row:
                return f"{t.text!r} is not the value of {row[0]!r} in the cited span: {row[1]!r} is"
            for kinds, reach in (({"verb", "word"}, NEAR), ({"name"}, 2 * NEAR)):
                near = [n for n in around if n.kind in kinds and not (same_verb and "verb" in kinds)]
                if own != around:  # "At 5,050 feet, Fort Davis has ...": said of the sentence
                    near = [n for n in near if not any(_one_sentence(spans[s], p, q) for p in t.where[s]
                                                       for q in n.where[s])]
                if near and not any(abs(p - q) <= max(reach, abs(t.at - n.at) + 15)  # as far apart as said, or near
                                    or _one_clause(spans[s], p, q)  # or in one clause of the span, however far
                                    for n in near for p in t.where[s] for q in n.where[s] if q >= 0):
                    return f"{t.text!r} is not said of {' / '.join(n.text for n in near)!r} in the cited span"
    return _year_of_value(text, segs, spans) or _names_near(text, toks, segs, spans)


# "36,818 in 1940": a value and the year it is of
_VALUE_IN_YEAR = re.compile(r"(?<![\w.,])(\d[\d,.]*\d|\d)\s+(?:[a-z]+\s+){0,2}?in\s+(1\d{3}|20\d{2})\b")


def _year_of_value(text: str, segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """A value said "in" a year is that year's in the span too: "reached 36,818 in 1920" is not "20,292 in 1920
    and 36,818 in 1940", where 36,818 is 1940's."""
    said = [(number_key(v), y) for v, y in _VALUE_IN_YEAR.findall(text) if not re.fullmatch(r"1\d{3}|20\d{2}", v)]
    for _, _, s in segs:
        span_pairs = {(number_key(v), y) for v, y in _VALUE_IN_YEAR.findall(spans[s])}
        for v, y in said:
            years = {yy for vv, yy in span_pairs if vv == v}
            if years and y not in years:
                return f"the cited span says {v} in {', '.join(sorted(years))}, not in {y}"
    return None


_YEAR = re.compile(r"1\d{3}|20\d{2}")


def _row_between(span: str, num: _Tok, names: list[_Tok], s: int, toks: list[_Tok]) -> tuple[str, str] | None:
    """(name, value) when, in the span, another value of the number's kind (a year, or not) that the statement
    does not say stands between the number and a name the statement says it with: the name is of that value's
    row ("All-American at Oklahoma (1939, 1940) and ... for Phillips 66 (1943, 1944)"; "401-500 according to
    ARWU and 551-600 according to QS"). The span's subject, said of every row, and a range's other end are not
    rivals."""
    if not names or not _parsable(span) or not num.text[:1].isdigit():
        return None
    said = {t.key for t in toks if t.kind == "num"}
    names_said = {t.key for t in toks if t.kind == "name"}
    year = bool(_YEAR.fullmatch(num.key))
    subject = {t.idx for t in _parsed(span) if t.dep_ in {"nsubj", "nsubjpass"} or
               (t.dep_ == "compound" and t.head.dep_ in {"nsubj", "nsubjpass"})}
    values = [(m.start(), m.group(0)) for m in re.finditer(r"\d[\d,.]*\d|\d", span)]
    for n in names:
        for q in n.where.get(s, []):
            if q < 0 or q in subject:
                continue
            for p in num.where.get(s, []):
                lo, hi = sorted((p, q))
                for at, v in values:
                    if not lo < at < hi or v.replace(",", "") in said or bool(_YEAR.fullmatch(v)) != year:
                        continue
                    def unsaid(lo: int, hi: int) -> bool:
                        return any(_key(w)[0] not in names_said for w in re.findall(rf"\b[{_UP}][\w-]*", span[lo:hi]))
                    if unsaid(min(at, q) + (len(v) if at < q else len(n.text)), max(at, q)):
                        continue  # a name the statement does not say stands between: that is the value's row
                        # ("All-Star at Leeds (1979, 1980) and at York (1983)": 1979 is of Leeds)
                    if not unsaid(min(at, p) + (len(v) if at < p else len(num.text)), max(at, p)):
                        continue  # one row's two values: "the Red Sox have played in 12 and won 8"
                    if re.fullmatch(r"\s*(?:[–—-]|to)\s*", span[min(p, at) + len(v if at < p else num.key):max(p, at)]):
                        continue  # the range "401-500", "1939 to 1940"
                    if _in_brackets(span, at) and not _in_brackets(span, p):
                        continue  # an aside: "Ibn Sina (980–1037) had more than 450 books"
                    return n.text, v
    return None


def _one_sentence(text: str, p: int, q: int) -> bool:
    lo, hi = sorted((p, q))
    return lo >= 0 and not re.search(r"[.!?]\s+[A-Z]", text[lo:hi])


def _in_brackets(text: str, at: int) -> bool:
    return text.rfind("(", 0, at) > text.rfind(")", 0, at)


_KIN_OF = re.compile(r"\b(" + "|".join(sorted(KIN, key=len, reverse=True)) + rf")\s+of\s+([{_UP}][\w.'’-]*(?:\s+[{_UP}][\w.'’-]*)*)")
_KIN_WORD = re.compile(r"\b(" + "|".join(sorted(KIN, key=len, reverse=True)) + r")\b", re.I)


def _kin_of(text: str, segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """"the daughter of X": the kin word nearest before X in the span must be that one ("a daughter of Lucius
    Julius Caesar and mother of Mark Antony" does not make her Mark Antony's daughter)."""
    for m in _KIN_OF.finditer(text):
        kin, name = m.group(1).lower(), m.group(2).rstrip(".'’-")
        for s in sorted({s for _, _, s in segs}):
            span = _POSSESSIVE.sub(r"\2 of \1", spans[s])
            found = [x.start() for x in re.finditer(rf"\b{re.escape(name)}\b", span)]
            if not found:
                continue
            said = []
            for at in found:
                before = [k for k in _KIN_WORD.finditer(span[max(0, at - 80):at])]
                if before and not re.search(r"[.;]\s", span[max(0, at - 80) + before[-1].end():at]):
                    said.append(before[-1].group(1).lower())
            if said and all(stem(w) != stem(kin) for w in said):
                return f"{kin!r} of {name} where the cited span says {said[0]!r} of {name}"
            # "X's son" where the span says X is the son of another: the tie follows X in its clause, no other
            # name between ("X (died 42 BC) was the second son of Y"; not "X married Tom, the son of a farmer")
            tie = re.match(rf"(?:\([^()]*\)|[^.;A-Z()])*?\b{re.escape(kin)}\s+of\b", span[found[0] + len(name):])
            if not said and tie:
                return f"{kin!r} of {name} where the cited span says {name} is the {kin!r} of another"
    return None


def _one_verb(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """The names a statement's verb joins are said of one occurrence of it in the span ("Air India is
    headquartered in Cologne" is not "Air India is headquartered in New Delhi, while Lufthansa is based in
    Cologne", where each name stands by one of two verbs of that meaning)."""
    for a, b, s in segs:
        if not _parsable(spans[s]):
            continue
        seg = toks[a:b + 1]
        for v in seg:
            qs = [q for q in v.where.get(s, []) if q >= 0]
            if v.kind != "verb" or len(set(qs)) < 2:
                continue
            names = [n for n in seg if n.kind == "name" and s in n.where and -1 not in n.where[s]
                     and not _boundary_between(text, n, v) and _one_clause(text, n.at, v.at)]
            def with_(n: _Tok, q: int, s: int = s) -> bool:
                return any(_one_clause(spans[s], p, q) for p in n.where[s])
            # a name said by no occurrence of the verb may be one the span leaves understood ("the Yankees have
            # played in 40 World Series and won 27, the Red Sox ... won 8")
            names = [n for n in names if any(with_(n, q) for q in set(qs))]
            if len(names) < 2:
                continue
            if not any(all(with_(n, q) for n in names) for q in set(qs)):
                said = " and ".join(repr(n.text) for n in names)
                return f"{said} are not said of one {v.text!r} in the cited span"
    return None


def _verb_above(t: Any) -> tuple[Any, list[int]]:
    """The nearest verb (or auxiliary, or the root) at or above a word in its parse, and the coordinated words
    passed on the way ("Ana Lind in 1966 and Eva Berg in 1976": 1976 is said of Eva Berg only)."""
    h, joins = t, []
    while h.pos_ not in {"VERB", "AUX"} and h.head.i != h.i:
        if h.dep_ == "conj":
            joins.append(h.i)
        h = h.head
    return h, joins


@functools.lru_cache(maxsize=4096)
def _clauses(span: str) -> tuple[tuple[int, int, tuple[int, ...], bool], ...]:
    """(start, end, clause) of each word of a span: the clause is the nearest verb (or the root) above the word
    in spaCy's dependency parse, with the coordinated words on the way up; whether the word is coordinated."""
    out = []
    for t in _parsed(span):
        h, joins = _verb_above(t)
        if h.pos_ == "AUX" and h.head.i != h.i and h.dep_ in {"aux", "auxpass"}:
            h = h.head
        out.append((t.idx, t.idx + len(t.text), (h.i, *joins), t.dep_ == "conj"))
    return tuple(out)


def _parsable(span: str) -> bool:
    """A span read as prose (not a table row "Header: cell; ...", not Chinese)."""
    return not _CJK_CHAR.search(span) and span.count(";") < 2 and ": " not in span


def _other_verb(span: str, p: int, q: int) -> bool:
    """Is the word at ``p`` said of another verb than the one at ``q``, one coordinated with it ("founded in
    1941 as a regiment, and later reconstituted as a corps in 1950": 1941 is of "founded")?"""
    if p < 0 or q < 0:
        return False
    doc = _parsed(span)
    at = {t.idx: t for t in doc}
    word = _name_head(doc, p, set())
    verb = at.get(q)
    if word is None or verb is None or verb.pos_ not in {"VERB", "AUX"}:
        return False
    h, _ = _verb_above(word)
    if h.i == verb.i or h.pos_ != "VERB":
        return False
    if h.dep_ == "conj" and h.i > verb.i and _chain(h).i == _chain(verb).i:
        # "devised and directed by Mike Leigh": what follows a bare later verb is said of all, unless one before
        # it has its own ("directed by Peter Cotes and starring Phyllis Calvert": Calvert is of "starring" only)
        own = any(c.dep_ in {"aux", "auxpass", "nsubj", "nsubjpass"} for c in h.children) or \
            any(c.dep_ in {"agent", "dobj"} and c.i < h.i for x in doc[verb.i:h.i] if x.pos_ == "VERB"
                for c in x.children)
        return own or word.i < h.i
    if h.dep_ in {"advcl", "ccomp"} and h.head.i == verb.i and \
            any(c.dep_ in {"nsubj", "nsubjpass"} for c in h.children):
        return True  # a clause with its own subject: "headquartered in New Delhi, while Lufthansa is based in Cologne"
    return verb.dep_ == "conj" and verb.head.i == h.i


def _chain(t: Any) -> Any:
    """The first of the coordinated words ``t`` is one of."""
    while t.dep_ == "conj" and t.head.i != t.i:
        t = t.head
    return t


def _one_clause(span: str, p: int, q: int, ours: set[int] | frozenset[int] = frozenset()) -> bool:
    """Do the words at offsets ``p`` and ``q`` of ``span`` hang from the same verb ("Frederick Lindemann, Baron
    Cherwell, the British government's chief scientific adviser, sent ..."), with no coordinated word between
    them but the statement's own (``ours``: offsets)?"""
    if p < 0 or q < 0 or _CJK_CHAR.search(span):
        return False
    heads = {}
    words = _clauses(span)
    for a, b, h, _ in words:
        for x in (p, q):
            if a <= x < b:
                heads[x] = h
    lo, hi = sorted((p, q))
    if len(heads) == 2 and heads[p] != heads[q] and \
            (_modified_by(span, p, heads[q][0]) or _modified_by(span, q, heads[p][0]) or
             _subject_described(span, p, heads[q][0]) or _subject_described(span, q, heads[p][0]) or
             (heads[p][0] == heads[q][0] and (_subject_of(span, p, heads[p][0]) or _subject_of(span, q, heads[q][0])))):
        return True  # the subject is said of every coordinated word of its verb ("X was the second son ..., and
        # thus, younger brother of Y")
    # a coordinated word between the two: "married Ana Lind in 1966 and Eva Berg in 1976" (not past the subject)
    return len(heads) == 2 and heads[p] == heads[q] and \
        (not any(j and lo < a < hi and not any(a <= o < b for o in ours) for a, b, _, j in words) or
         _subject_of(span, lo, heads[p][0]))


def _name_head(doc: Any, p: int, through: set[str] | None = None) -> Any:
    """The word at offset ``p`` of a parse, or the head of the name it is part of (up ``through`` these
    dependencies: by default the words of one name)."""
    w = next((t for t in doc if t.idx <= p < t.idx + len(t.text)), None)
    deps = {"compound", "flat"} if through is None else through
    while w is not None and w.dep_ in deps and w.head.i != w.i:
        w = w.head
    return w


def _subject_of(span: str, p: int, verb: int) -> bool:
    """Is the word at ``p`` (or the name it is part of) the subject of ``verb``, standing before it?"""
    doc = _parsed(span)
    w = _name_head(doc, p)
    return w is not None and w.dep_ in {"nsubj", "nsubjpass"} and w.head.i == verb and w.i < verb


def _subject_described(span: str, p: int, verb: int) -> bool:
    """Is the word at ``p`` (or the name it is part of) the subject a copula describes with a noun the clause of
    ``verb`` hangs from ("The Young and the Guilty is a 1958 film directed by Peter Cotes and starring Phyllis
    Calvert": the film stars her)?"""
    doc = _parsed(span)
    c = _chain(doc[verb])
    if c.dep_ not in {"acl", "relcl"} or c.head.dep_ != "attr":
        return False
    w = _name_head(doc, p, {"compound", "flat", "conj"})
    return w is not None and w.dep_ in {"nsubj", "nsubjpass"} and w.head.i == c.head.head.i


def _modified_by(span: str, p: int, verb: int) -> bool:
    """Is the word at offset ``p`` (or the name it is part of) the noun the clause of ``verb`` is said of ("the
    man who founded it", "Lindemann, Baron Cherwell, ..., sent": a clause parsed as hanging from the noun)?"""
    doc = _parsed(span)
    v = doc[verb]
    if v.dep_ not in {"acl", "relcl"}:
        return False
    w = _name_head(doc, p)
    return w is not None and w.i == v.head.i


def _names_near(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """A name is said of the relation words next to it (one each side): in its span one of them stands as
    near it as in the statement, or within twice ``NEAR`` ("Lana Wood ... stars" is not "stars ... Natalie
    Wood")."""
    for a, b, s in segs:
        i = a
        while i <= b:
            j = i
            while j + 1 <= b and toks[i].kind == "name" and toks[j + 1].kind == "name":
                j += 1
            if toks[i].kind != "name" or s not in toks[i].where or any(-1 in t.where.get(s, [-1]) for t in toks[i:j + 1]):
                i = j + 1
                continue
            group = toks[i:j + 1]
            heres = _whole(group, s) or [p for g in group for p in g.where[s]]
            side = [n for n in (toks[i - 1] if i > 0 else None, toks[j + 1] if j + 1 < len(toks) else None)
                    if n is not None and n.kind in {"verb", "word"} and s in n.where and -1 not in n.where[s]]
            said = " ".join(g.text for g in group)
            verbs = [n for n in side if n.kind == "verb" and _one_clause(text, group[-1].at, n.at)]
            if verbs and _parsable(spans[s]) and all(_other_verb(spans[s], p, q) for n in verbs for p in heres
                                                     for q in n.where[s]):
                # "based in New Delhi and was founded ... in Cologne's twin city": Cologne is of "founded"
                return f"{said!r} is not said of {' / '.join(n.text for n in verbs)!r} in the cited span"
            if side and not any(abs(p - q) <= max(2 * NEAR, abs(group[0].at - n.at) + 20) or _one_clause(spans[s], p, q)
                                for n in side for p in heres for q in n.where[s]):
                return f"{said!r} is not said of {' / '.join(n.text for n in side)!r} in the cited span"
            i = j + 1
    return None


_FROM_TO = re.compile(rf"\bfrom\s+([{_UP}][\w-]*(?:\s+[{_UP}][\w-]*)*)\s+to\s+([{_UP}][\w-]*(?:\s+[{_UP}][\w-]*)*)")
_LEAD = r"^(\s*(?:[\w,]+\s+){0,3}?)"  # a span's first few words, before its pronoun
_PRONOUN = re.compile(_LEAD + r"(?:he|she|it|they)\b", re.I)


def _whole(group: list[_Tok], s: int) -> list[int]:
    """The offsets in span ``s`` where a name of several words stands whole ("Shane Jacobson", not the
    "Jacobson" of "Clayton Jacobson")."""
    if len(group) < 2:
        return []
    out = []
    for start in group[0].where[s]:
        at, ok = start, start >= 0
        for g in group[1:]:
            nxt = [p for p in g.where[s] if at < p <= at + len(group[group.index(g) - 1].text) + 3]
            if not nxt:
                ok = False
                break
            at = nxt[0]
        if ok:
            out += [start, at]
    return out


# "His father Ben Lowe was …" under the title "Tom Hale": Ben Lowe is the father of Tom Hale
_POSS_PRONOUN = r"(?:[Hh]is|[Hh]er|[Ii]ts|[Tt]heir)"
_THEIR_NOUN_NAME = re.compile(_LEAD + _POSS_PRONOUN + r"\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)"
                              rf"\s+([{_UP}][\w.'’-]*(?:\s+(?:de\s+|van\s+|von\s+)?[{_UP}][\w.'’-]*)*)")
_THEIR = re.compile(_LEAD + _POSS_PRONOUN + r"\b")


def _with_title(span: str, title: str) -> str:
    """The span with a leading "He" / "It" read as its unit's title, a leading "His <noun> <Name>" as "<Name>,
    <noun> of <title>," and another leading "His" as "<title>'s", for the order of names."""
    if title and (m := _THEIR_NOUN_NAME.match(span)) and m.group(2).islower():
        span = f"{m.group(1)}{m.group(3)}, {m.group(2)} of {title},{span[m.end():]}"
    elif title and (m := _THEIR.match(span)):  # "His artwork followed …": the title's artwork
        span = f"{m.group(1)}{title}'s{span[m.end():]}"
    span = _PRONOUN.sub(lambda m: m.group(1) + title, span, count=1) if title and _PRONOUN.match(span) else span
    return _POSSESSIVE.sub(r"\2 of \1", span)


def _direction(text: str, segs: list[tuple[int, int, int]], spans: Sequence[str], titles: Sequence[str]) -> str | None:
    """"from A to B" the other way round in the span."""
    said = {(a.lower(), b.lower()) for a, b in _FROM_TO.findall(text)}
    for _, _, s in segs:
        for a, b in _FROM_TO.findall(spans[s]):
            if (b.lower(), a.lower()) in said and (a.lower(), b.lower()) not in said:
                return f"the cited span says from {a} to {b}"
    return None


_ITEM = r"(?:(?!\band\b)[^,;:()])+?"
_RESPECTIVELY = re.compile(rf"({_ITEM}(?:,\s*{_ITEM})*),?\s+and\s+({_ITEM}),?\s+respectively\b", re.I)
_PAIR = re.compile(rf"({_ITEM}(?:,\s*{_ITEM})*),?\s+and\s+({_ITEM})(?=[,;:()]|$)", re.I)


def _head(item: str, ending: bool) -> tuple[str, int] | None:
    """(the name that heads an item of a list: its last run of capitalised words, or, ``ending``, the run or
    word it ends with; offset)."""
    caps = list(re.finditer(rf"[{_UP}][\w.'’-]*(?:\s+(?:of\s+|de\s+)?[{_UP}][\w.'’-]*)*", item))
    last = re.search(r"[\w.'’-]+(?=\W*$)", item)
    if ending:
        m = caps[-1] if caps and not item[caps[-1].end():].strip() else last
    else:
        m = caps[-1] if caps else last
    return (m.group(0), m.start()) if m else None


def _lists(span: str) -> list[tuple[list[str], list[str]]]:
    """The pairs of lists a span joins with "respectively" ("split into the Czech Republic and Slovakia ...
    assigned .cz and .sk respectively"): the names that head each list's items, in order."""
    out = []
    for m in _RESPECTIVELY.finditer(span):
        items = [x for x in m.group(1).split(",")] + [m.group(2)]
        heads = [_head(x, True) for x in items]
        if any(h is None for h in heads):
            continue
        second = [h[0] for h in heads if h]
        start = m.start(1) + (heads[0][1] if heads[0] else 0)
        firsts = [f for f in _PAIR.finditer(span[:start].rstrip(" :")) if len(f.group(1).split(",")) + 1 >= len(second)]
        if not firsts:
            continue
        f = firsts[-1]
        first = [_head(x, False) for x in f.group(1).split(",")[1 - len(second):] + [f.group(2)]]
        if all(first):
            out.append(([h[0] for h in first if h], second))
    return out


def _respectively(text: str, segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """An item of one list said with another item's partner ("the Czech Republic was assigned .sk")."""
    def said(items: list[str]) -> list[int]:
        return [i for i, x in enumerate(items) if re.search(rf"(?<![\w.]){re.escape(x)}(?!\w)", text, re.I)]
    for s in sorted({s for _, _, s in segs}):
        for first, second in _lists(spans[s]):
            a, b = said(first), said(second)
            if len(a) == 1 and len(b) == 1 and a != b:
                return f"{first[a[0]]!r} goes with {second[a[0]]!r} in the cited span, not {second[b[0]]!r}"
    return None


_STAR_IN = frozenset({"star", "feature", "appear", "act"})  # "X stars in Y": the roles of "Y stars X"
_IN = re.compile(r"[\w-]+\s+in\b", re.I)
_NOUN_BY = re.compile(r"[\w-]+\s+by\b", re.I)
_NOUN_OF = re.compile(r"[\w-]+\s+(?:by|of)\b", re.I)
_BY = re.compile(r"[\w-]+(?:\s+[\w,-]+){0,4}?\s+by\b", re.I)


def _both_sides(name: _Tok, rels: list[_Tok], pos: dict[str, int], every: list[int], between: str,
                span: str) -> str | None:
    """A name on both sides of a relation word ("Lufthansa is the chief executive of Lufthansa") must stand
    on both sides of it in the span too, in the relation's own clause: one side is the span's other party
    ("Carsten Spohr, formerly at Lufthansa, is the chief executive of Lufthansa" does not say it)."""
    for r in rels:
        if r.key not in pos or not (name.at < r.at < name.at + len(between)):
            continue
        er = pos[r.key]
        before = [a for a in every if a < er and not re.search(r"[,;()]", span[a:er])]
        after = [a for a in every if a > er and not re.search(r"[,;()]", span[er:a])]
        if not (before and after):
            return f"{name.text!r} stands on both sides of {r.text!r}, the cited span says it on one side only"
        return None
    return None


# a comma before a ranking's preposition keeps the names in one clause: "the third largest, after Dell and HP"
_RANKED_AFTER = re.compile(r"^[^,;()]*,\s*(?:after|behind|ahead\s+of|before|below|above)\s+[^,;()]*$", re.I)


_MODIFIER_GAP = re.compile(rf"(?:\s+[{_UP}][\w.'’-]*)*\s*")  # the rest of a name, then its noun


def _roles(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    """Two names around a relation word stand in the same order in the span ("Y was directed by X" is
    "X directed Y"; the span's leading "He" is its title)."""
    for a, b, s in segs:
        seg = toks[a:b + 1]
        names = [t for t in seg if t.kind == "name"]
        rels = [t for t in seg if t.kind in {"verb", "word"}]
        if len(names) < 2 or not rels:
            continue
        ev = _evidence_words(spans[s])
        pos: dict[str, int] = {}
        every: dict[str, list[int]] = {}
        for _, k, at in ev:
            pos.setdefault(k, at)
            every.setdefault(k, []).append(at)
        for x in range(len(names)):
            for y in range(x + 1, len(names)):
                n1, n2 = names[x], names[y]
                if n1.key not in pos or n2.key not in pos or (re.search(r"[,;()]", text[n1.at:n2.at]) and not
                                                             _RANKED_AFTER.search(text[n1.at:n2.at])):
                    continue  # names of two clauses; but "X was third in the world, after Y" is one
                if n1.key == n2.key:
                    if [t.key for t in _name_group(toks, toks.index(n1))] != \
                            [t.key for t in _name_group(toks, toks.index(n2))]:
                        continue  # "San Diego" and "Diego Maradona"
                    lost = _both_sides(n1, rels, pos, every[n1.key], text[n1.at:n2.at], spans[s])
                    if lost:
                        return lost
                    continue
                # "the Greater Manchester village of X", "Lufthansa CEO Y": a name before a noun describes it; its
                # place in the span ("the village of X in Greater Manchester") is free, the words after it are not
                between = [r for r in rels if n1.at < r.at < n2.at and r.key in pos and not (
                    r.kind != "verb" and _MODIFIER_GAP.fullmatch(text[n1.at + len(n1.text):r.at]))]
                if not between:
                    continue
                r = between[0]
                e1, e2, er = pos[n1.key], pos[n2.key], pos[r.key]
                if not (min(e1, e2) < er < max(e1, e2)):
                    continue
                # the passive turns the roles of a verb round; "the film by X" is "the film of X"
                s_pass = r.kind == "verb" and bool(_BY.match(text[r.at:]))
                e_pass = r.kind == "verb" and bool(_BY.match(spans[s][er:]))
                if r.kind != "verb" and _NOUN_BY.match(spans[s][er:]) and not _NOUN_OF.match(text[r.at:]):
                    e_pass = True  # "Bob Ray made the documentary X" is "X is a documentary by Bob Ray"
                if r.kind == "verb" and r.lemma in _STAR_IN:  # "X starred in Y" is "Y starring X"
                    s_pass ^= bool(_IN.match(text[r.at:]))
                    e_pass ^= bool(_IN.match(spans[s][er:]))
                if (e1 < e2) != (s_pass == e_pass):
                    return f"{n1.text!r} and {n2.text!r} stand in the other roles in the cited span ({r.text!r})"
    return None
