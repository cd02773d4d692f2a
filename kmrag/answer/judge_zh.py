"""What the support check (kmrag.answer.judge) asks of a statement in Chinese, beyond its characters: the check
reads Chinese character by character (there are no spaces to find words by), which alone passes a swapped
name, another verb, a negation or another row's number. So, with LAC's words (kmrag.nlp.chinese):

- every **name** of the statement stands in a cited span or title as written (or without its 市 / 省 / 县 / 区);
- every **verb** stands in a cited span, or one of the span's verbs means the same canonical relation
  (创办 ~ 创立: kmrag/nlp/data/predicates.json): 生于 is not 死于;
- every **adjective**, and every noun holding a character of a scale (最高峰, 下降), stands in a cited span as
  written: 最低峰 is not 最高峰;
- the same **polarity**: 不 / 没 / 没有 / 未 / 并非 / 无法 on both sides or neither;
- no relation the other way round ("腾讯收购了阿里巴巴" on "阿里巴巴收购了腾讯", by the extractor's patterns);
- each **number** stands in a span after the words that own it: the characters before it in the statement
  (names and function characters aside) are, three in four, among those before it in the span, back to the previous
  number or clause break ("知识图谱的准确率为42.3%" is not said by "单跳检索的准确率为42.3%，知识图谱的…78.5%").

Each returns what failed, or None.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from kmrag.nlp.chinese import HAN, named_spans, tokens
from kmrag.nlp.predicates import canonical

OWNED = 0.75  # of the characters owning a number in the statement, the share owning it in the span
NEGATORS = {"不", "没", "没有", "未", "并非", "非", "无法", "不是", "不再", "从未", "尚未"}
LIGHT_VERBS = {"是", "为", "有", "在", "了", "被", "由", "将", "把", "成为", "进行", "达到", "约", "共", "于"}
FUNCTION_CHARS = set("的为是有约达共了在于和与及其之")
# characters of a scale and its other end (高 / 低, 多 / 少, 早 / 晚): a word holding one is not a paraphrase of
# the word holding the other
POLAR = set("高低多少大小长短早晚快慢新旧好坏上下前后强弱增减升降涨跌胜负首末")
NUMBER = re.compile(r"\d[\d,.]*")
CLAUSE = re.compile(r"[，,；;。！？!?：:\n]")
SUFFIX = re.compile(r"[市省县区州]$")


def chinese_problem(statement: str, spans: Sequence[str], titles: Sequence[str]) -> str | None:
    if not HAN.search(statement):
        return None
    held = " ".join([*spans, *titles])
    toks = [t for t in tokens(statement) if t.word.strip()]
    names = names_in(statement)
    for name in names:
        if name not in held and SUFFIX.sub("", name) not in held:
            return f"name {name!r} is not in the cited spans"
    span_verbs = {t.word for s in spans for t in tokens(s) if t.tag == "v"}
    for t in toks:
        if t.tag == "v" and t.word not in LIGHT_VERBS and t.word not in NEGATORS and t.word not in held \
                and not _same_relation(t.word, span_verbs):
            return f"verb {t.word!r} is not in the cited spans"
    for t in toks:  # "最低峰" on "最高峰": a word with a character of a scale stands as written
        if (t.tag in {"a", "ad", "an"} or (t.tag in {"n", "nz", "vn"} and POLAR & set(t.word))) and len(t.word) >= 2 \
                and t.word not in held:
            return f"{t.word!r} is not in the cited spans"
    if _negated(toks) != any(_negated([t for t in tokens(s) if t.word.strip()]) for s in spans):
        return "one side says 不 / 没有 / 未 and the other does not"
    return _roles(statement, spans) or _number_owner(statement, spans, names)


def names_in(text: str) -> list[str]:
    """The names of a Chinese text (LAC's), not its dates, percentages or counts."""
    return [n for n, label, _ in named_spans(text) if label not in {"DATE", "PERCENT", "CARDINAL"}]


def _roles(statement: str, spans: Sequence[str]) -> str | None:
    """A relation of the statement that the spans state the other way round ("腾讯收购了阿里巴巴" on
    "阿里巴巴收购了腾讯"), by the Chinese extractor's patterns on both sides."""
    from kmrag.nlp.chinese import ChineseExtractor

    ex = ChineseExtractor()
    said = {(t.subject.name, _rel(t.predicate), t.object.name) for s in spans for t in ex.extract_text(s).triples}
    for t in ex.extract_text(statement).triples:
        mine = (t.subject.name, _rel(t.predicate), t.object.name)
        if mine not in said and (mine[2], mine[1], mine[0]) in said:
            return f"the cited spans say {mine[2]} {t.predicate} {mine[0]}, not the other way round"
    return None


def _rel(predicate: str) -> str:
    c = canonical(predicate)
    return c.predicate if c is not None else predicate


def _negated(toks: Sequence[object]) -> bool:
    return any(getattr(t, "word", "") in NEGATORS for t in toks)


def _same_relation(verb: str, others: set[str]) -> bool:
    mine = canonical(verb) or canonical(verb + "于")
    return mine is not None and any((canonical(o) or canonical(o + "于")) == mine for o in others)


def _owner(text: str, at: int) -> set[str]:
    """The characters before position ``at``, back to the previous number or clause break."""
    start = max([m.end() for m in CLAUSE.finditer(text, 0, at)] + [m.end() for m in NUMBER.finditer(text, 0, at)]
                + [0])
    return set(HAN.findall(text[start:at]))


_ROW = re.compile(r"^([^:;\n]+): ([^;\n]+)(?:; [^:;\n]+: [^;\n]*)+")  # "方案: 分解检索; 准确率: 71.2%; …"


def _row_owns(text: str, at: int, said: set[str]) -> bool:
    """Whether the statement's characters before a number (``said``) name the table row cell at ``at`` the number
    stands in: every character of its header and some of the row's key, the first cell ("方案: 分解检索; …; 平均耗时:
    620ms": "分解检索的平均耗时是620ms"). False for text that is no row, or a header only partly said (最低温度 is not
    最高温度's)."""
    m = _ROW.match(text)
    start = text.rfind("; ", 0, at)
    if m is None or start < 0:
        return False
    head = set(HAN.findall(text[start + 2: at]))
    key = set(HAN.findall(m.group(2)))
    return bool(head) and head <= said and (not key or bool(key & said))


def _number_owner(statement: str, spans: Sequence[str], names: Sequence[str]) -> str | None:
    name_chars = {c for n in names for c in n}
    for m in NUMBER.finditer(statement):
        said = _owner(statement, m.start()) - FUNCTION_CHARS
        want = said - name_chars
        if len(want) < 2:
            continue
        best = 0.0
        for s in spans:
            for n in re.finditer(re.escape(m.group(0)) + r"(?!\d)", s):
                if n.start() and s[n.start() - 1].isdigit():
                    continue
                best = max(best, 1.0 if _row_owns(s, n.start(), said) else len(want & _owner(s, n.start())) / len(want))
        if best < OWNED:
            return f"the number {m.group(0)!r} belongs to something else in the cited spans"
    return None
