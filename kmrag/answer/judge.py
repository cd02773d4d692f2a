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
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kmrag.answer.support import STOP, negated, number_key, stem

SOFT = 0.6       # cosine of two word vectors that count as the same meaning
SLACK = 0.2      # share of a statement's minor words (not names, numbers or verbs) that may go unmatched

# hedges and fillers a paraphrase adds or drops freely
HEDGES = frozenset("""roughly approximately around nearly almost some circa about approx overall total
respectively also already still even well indeed actually currently originally""".split())
NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
UNIT_KEYS = {"kilometres": "km", "kilometers": "km", "kilometre": "km", "kilometer": "km", "miles": "mi",
             "mile": "mi", "kilograms": "kg", "kilogram": "kg", "metres": "m", "meters": "m", "metre": "m",
             "meter": "m", "percent": "%", "per cent": "%", "hours": "h", "hour": "h", "hrs": "h", "minutes": "min",
             "euros": "eur", "euro": "eur", "€": "eur", "dollars": "usd", "dollar": "usd", "$": "usd"}
# word pairs whose vectors are close but whose meanings are opposite or distinct roles
OPPOSITES = [frozenset(p.split("/")) for p in """born/died born/dead birth/death older/younger oldest/youngest
elder/younger earlier/later earliest/latest first/last before/after husband/wife father/mother father/son
father/daughter mother/son mother/daughter son/daughter brother/sister uncle/aunt nephew/niece
grandfather/grandmother grandson/granddaughter parent/child win/lose won/lost winner/loser larger/smaller
largest/smallest more/less most/least higher/lower highest/lowest longer/shorter longest/shortest north/south
east/west northern/southern eastern/western buy/sell bought/sold import/export maximum/minimum above/below
over/under increase/decrease start/end begin/end opened/closed open/close founded/dissolved founded/closed
married/divorced alive/dead male/female men/women man/woman king/queen actor/actress home/away
predecessor/successor""".split()]
_OPP = {w for p in OPPOSITES for w in p}
# where one clause may end and the next rest on another span
BOUNDARY = re.compile(r"[,;:()\u2013\u2014]|\b(?:and|but|which|who|whom|whose|while|whereas|where|when|"
                      r"although|though|because|as well as)\b", re.I)
RELATIVE = frozenset({"which", "who", "whom", "whose", "that", "where", "when"})
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]|"
                    r"[^\W\d_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af](?:[^\W]|['’-])*|"
                    r"\d[\d,.]*\d|\d|[€$%]")
_AUXW = r"(?!(?:is|was|are|were|has|had|have)\b)"
_POSSESSIVE = re.compile(rf"\b([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)*)['’]s\s+((?:{_AUXW}[a-z][\w-]*\s+){{0,2}}{_AUXW}[a-z][\w-]*)\b")
# a bound on a quantity is part of the claim: "more than 3500 km" is not "1500 to 3500 km"
COMPARATORS = [(re.compile(r"\b(?:more than|over|above|exceeding|beyond|at least|greater than|or more)\b", re.I), ">"),
               (re.compile(r"\b(?:less than|fewer than|under|below|up to|at most|no more than|or less|within)\b", re.I),
                "<")]
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


def _key(word: str) -> tuple[str, bool]:
    """(matching key, is a number)."""
    low = word.lower().replace("’", "'")
    if low in UNIT_KEYS:
        return UNIT_KEYS[low], False
    if low in NUMBER_WORDS:
        return NUMBER_WORDS[low], True
    n = number_key(word)
    if n is not None:
        return n, True
    return stem(low), False


@functools.lru_cache(maxsize=4096)
def _statement(text: str) -> tuple[tuple[str, str, str, int, str], ...]:
    """(word, key, kind, offset, lemma) of a statement's content words, kinds from spaCy's parts of speech."""
    from kmrag.nlp.extract import load_spacy

    doc = load_spacy()(text)
    out = []
    for t in doc:
        if t.is_punct or t.is_space or not _TOKEN.fullmatch(t.text):
            if t.text in {"'s", "’s"} or not any(c.isalnum() for c in t.text):
                continue
        low = t.text.lower()
        if low in STOP or low in HEDGES or low in RELATIVE or low in NEGATORS:
            continue
        key, is_num = _key(t.text)
        if not key:
            continue
        if is_num:
            kind = "num"
        elif t.pos_ == "PROPN" or (t.i > 0 and t.text[:1].isupper() and t.pos_ in {"NOUN", "ADJ", "X"}):
            kind = "name"
        elif t.pos_ in {"VERB"} or (t.pos_ == "AUX" and low not in STOP):
            kind = "verb"
        else:
            kind = "word"
        if t.pos_ == "AUX":  # "is", "has", "was" carry no claim of their own
            continue
        out.append((t.text, key, kind, t.idx, t.lemma_.lower() if not is_num else key))
    out += [(b.text, b.key, "num", b.at, b.key) for b in _bounds(text)]
    return tuple(sorted(out, key=lambda x: x[3]))


def _bounds(text: str) -> list[Any]:
    out = []
    for pattern, key in COMPARATORS:
        for m in pattern.finditer(text):
            if re.search(r"\d", text[max(0, m.start() - 20):m.end() + 20]):  # a bound of a quantity
                out.append((m, key))
    return [_Bound(m.group(0), m.start(), key) for m, key in out]


@dataclass(frozen=True)
class _Bound:
    text: str
    at: int
    key: str

    def group(self, _: int = 0) -> str:
        return self.text

    def start(self) -> int:
        return self.at


def _evidence_words(text: str) -> list[tuple[str, str, int]]:
    out = []
    for m in _TOKEN.finditer(text):
        w = m.group(0)
        key, _ = _key(w)
        if key:
            out.append((w, key, m.start()))
    out += [(b.text, b.key, b.at) for b in _bounds(text)]
    return out


@functools.lru_cache(maxsize=1)
def _vectors() -> Any:
    from kmrag.nlp.embed import _local_embedder

    return _local_embedder()


_VEC: dict[str, Any] = {}


def _similar(words: Sequence[str], candidates: Sequence[str]) -> dict[str, float]:
    """The best cosine of each word against the candidates (lower-cased), from the embedder's word vectors."""
    need = [w for w in {*words, *candidates} if w not in _VEC]
    if need:
        for w, v in zip(need, _vectors().embed(need), strict=True):
            _VEC[w] = v
        if len(_VEC) > 50_000:
            _VEC.clear()
    out = {}
    for w in words:
        best = 0.0
        for c in candidates:
            if frozenset((w, c)) in OPPOSITES or (w in _OPP and c in _OPP and w != c):
                continue
            best = max(best, float(_VEC[w] @ _VEC[c]))
        out[w] = best
    return out


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
    spans = [s for s in spans]
    titles = list(titles) + [""] * (len(spans) - len(titles))
    text = _POSSESSIVE.sub(r"\2 of \1", " ".join(statement.split()))
    toks = [_Tok(w, k, kind, at, lemma) for w, k, kind, at, lemma in _statement(text)]
    if not toks:
        return Verdict(False, 0.0, "the statement has no words to check")
    if not spans:
        return Verdict(False, 0.0, "no span is cited")
    ev = [_evidence_words(s) for s in spans]
    tw = [_evidence_words(t) for t in titles]
    _match(toks, ev, tw)
    missing = [t for t in toks if not t.matched]
    hard = [t for t in missing if t.kind in {"name", "num", "verb"}]
    minor = [t for t in missing if t.kind == "word"]
    score = round(1 - len(missing) / len(toks), 4)
    if hard:
        t = hard[0]
        what = {"name": "name", "num": "number", "verb": "verb"}[t.kind]
        return Verdict(False, score * 0.5, f"{what} {t.text!r} is not in the cited spans")
    lone = [t for t in minor if _clause_support(text, toks, t) < 2]
    if minor and (len(minor) > max(1.0, SLACK * len(toks)) or lone):
        return Verdict(False, score * 0.6, f"{', '.join(repr(t.text) for t in lone or minor)} not in the cited spans")
    segments = _cover(text, toks)
    if segments is None:
        return Verdict(False, score * 0.4, "one clause joins words of different spans: " + _which(toks))
    failed = _subjects(text, toks, segments, ev, tw) or _polarity(text, segments, spans) or \
        _roles(text, toks, segments, spans, ev)
    used = tuple(sorted({s for _, _, s in segments}))
    if failed:
        return Verdict(False, round(score * 0.5, 4), failed, used)
    return Verdict(True, score, None, used)


def _match(toks: list[_Tok], ev: list[list[tuple[str, str, int]]], tw: list[list[tuple[str, str, int]]]) -> None:
    for i, words in enumerate(ev):
        keys = {k for _, k, _ in words} | {k for _, k, _ in tw[i]}
        for t in toks:
            if t.key in keys or stem(t.lemma) in keys or (t.kind == "num" and _number_in(t.key, keys)):
                t.matched.append(i)
            elif t.kind in {"verb", "word"} and any(_prefix_same(t.key, k) for k in keys):
                t.matched.append(i)
    soft = [t for t in toks if not t.matched and t.kind in {"verb", "word"}]
    if not soft:
        return
    for i, words in enumerate(ev):
        cands = sorted({w.lower() for w, k, _ in words + tw[i] if w.lower() not in STOP and not k.isdigit()})
        if not cands:
            continue
        sims = _similar([t.lemma or t.text.lower() for t in soft], cands)
        for t in soft:
            if sims[t.lemma or t.text.lower()] >= SOFT:
                t.matched.append(i)


def _clause_support(text: str, toks: list[_Tok], tok: _Tok) -> int:
    """How many matched words share ``tok``'s clause (the text between two boundaries)."""
    cuts = [0] + [m.end() for m in BOUNDARY.finditer(text)] + [len(text) + 1]
    lo = max(c for c in cuts if c <= tok.at)
    hi = min(c for c in cuts if c > tok.at)
    return sum(1 for t in toks if t.matched and lo <= t.at < hi)


def _number_in(key: str, keys: set[str]) -> bool:
    """A year inside a written date range ("1910-2000"), a number written with a unit glued on ("5900km")."""
    return any(k.startswith(key) and not k[len(key):len(key) + 1].isdigit() and len(key) >= 3 for k in keys)


def _which(toks: list[_Tok]) -> str:
    by: dict[int, list[str]] = {}
    for t in toks:
        if len(t.matched) == 1:
            by.setdefault(t.matched[0], []).append(t.text)
    return " / ".join(" ".join(v[:4]) for v in by.values()) or "no single span holds it"


def _cover(text: str, toks: list[_Tok]) -> list[tuple[int, int, int]] | None:
    """The fewest (first token, last token, span) segments covering the statement, switching span only at a
    clause boundary; None when no such cover exists."""
    n = len(toks)
    spans = sorted({s for t in toks for s in t.matched})
    inf = 10**9
    cost = [{s: (0 if (not toks[0].matched or s in toks[0].matched) else inf) for s in spans}]
    back: list[dict[int, int]] = [{}]
    for i in range(1, n):
        edge = bool(BOUNDARY.search(text[toks[i - 1].at + len(toks[i - 1].text):toks[i].at]))
        row, brow = {}, {}
        for s in spans:
            if toks[i].matched and s not in toks[i].matched:
                row[s] = inf
                continue
            best, arg = cost[i - 1][s], s
            if edge:
                for p in spans:
                    if cost[i - 1][p] + 1 < best:
                        best, arg = cost[i - 1][p] + 1, p
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


def _subjects(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], ev: list[Any], tw: list[Any]) -> str | None:
    """A clause resting on another span than the one before must name its subject, or find the subject it
    takes from before in its own span."""
    names = [t for t in toks if t.kind == "name"]
    for a, b, s in segs[1:]:
        seg = toks[a:b + 1]
        first_verb = next((i for i, t in enumerate(seg) if t.kind == "verb"), None)
        own = [t for t in (seg if first_verb is None else seg[:first_verb]) if t.kind == "name"]
        lead = text[toks[a - 1].at + len(toks[a - 1].text):seg[0].at].lower()
        if own and first_verb is not None and not re.search(r"\b(?:which|who|whose|whom|that)\b", lead):
            continue
        before = [t for t in toks[:a] if t.kind == "name"]
        if before and (re.search(r"\b(?:which|who|whose|whom|that)\b", lead) or first_verb is None):
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


def _name_group(toks: list[_Tok], i: int) -> list[_Tok]:
    j = i
    while j + 1 < len(toks) and toks[j + 1].kind == "name" and toks[j + 1].at - (toks[j].at + len(toks[j].text)) <= 1:
        j += 1
    while i > 0 and toks[i - 1].kind == "name" and toks[i].at - (toks[i - 1].at + len(toks[i - 1].text)) <= 1:
        i -= 1
    return toks[i:j + 1]


def _polarity(text: str, segs: list[tuple[int, int, int]], spans: Sequence[str]) -> str | None:
    said = negated(text)
    used = [spans[s] for _, _, s in segs]
    if said != any(negated(s) for s in used):
        return ("the statement negates what the cited span says" if said
                else "the cited span negates what the statement says")
    return None


_PASSIVE = re.compile(r"\b(?:was|were|is|are|been|being|be)\s+(?:\w+\s+){0,2}?\w+(?:ed|en|wn|lt|ng|ne)\s+by\b|\bby\b",
                      re.I)


def _roles(text: str, toks: list[_Tok], segs: list[tuple[int, int, int]], spans: Sequence[str],
           ev: list[list[tuple[str, str, int]]]) -> str | None:
    """Two names around a relation word stand in the same order in the span (passive voice allowed for)."""
    for a, b, s in segs:
        seg = toks[a:b + 1]
        names = [t for t in seg if t.kind == "name"]
        rels = [t for t in seg if t.kind in {"verb", "word"}]
        if len(names) < 2 or not rels:
            continue
        pos: dict[str, int] = {}
        for _, k, at in ev[s]:
            pos.setdefault(k, at)
        for x in range(len(names)):
            for y in range(x + 1, len(names)):
                n1, n2 = names[x], names[y]
                if n1.key == n2.key or n1.key not in pos or n2.key not in pos:
                    continue
                between = [r for r in rels if n1.at < r.at < n2.at and r.key in pos]
                if not between:
                    continue
                r = between[0]
                s_fwd = True
                e1, e2, er = pos[n1.key], pos[n2.key], pos[r.key]
                if not (min(e1, e2) < er < max(e1, e2)):
                    continue
                e_fwd = e1 < e2
                s_pass = bool(_PASSIVE.search(text[n1.at:n2.at]))
                e_pass = bool(_PASSIVE.search(spans[s][min(e1, e2):max(e1, e2)]))
                if (s_fwd == e_fwd) != (s_pass == e_pass):
                    return f"{n1.text!r} and {n2.text!r} stand in the other roles in the cited span ({r.text!r})"
    return None
