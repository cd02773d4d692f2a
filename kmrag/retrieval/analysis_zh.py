"""Question analysis for questions in Chinese: the same QuestionAnalysis the English analyser gives (kind,
expected answer type, entity mentions, compared entities), from the question words of Chinese and LAC's
segmentation and names (kmrag.nlp.chinese). General Chinese only; nothing here knows a document or a set.

- Kind: 是否 / 是不是 / 有没有 / a final 吗 is a yes/no question; two names and a comparative (更 / 最 /
  哪个…早 / 谁先) a comparison; otherwise a factoid.
- Expected type: 谁 / 哪位 a person; 何时 / 什么时候 / 哪一年 / 哪年 / 哪天 / 几月 a date; 多少 / 几 a number (money
  with 钱 / 元 / 美元 / 费用 / 价格); 哪里 / 在哪 / 哪个城市 / 哪个国家 / 哪座 a place; 哪家 / 哪个公司 /
  什么机构 an organisation; else any name.
- Mentions: the names LAC finds (people, places, organisations, works, Latin names), and the phrases
  between particles and question words ("单跳检索的准确率是多少" gives 单跳检索 and 准确率: the model's
  segmentation of technical terms is poor); the linker looks up each phrase and its parts (link_keys).
"""

from __future__ import annotations

import re

from kmrag.nlp.chinese import HAN, LABELS, is_name, tokens
from kmrag.retrieval.analysis import Kind, QuestionAnalysis

YES_NO = re.compile(r"是否|是不是|有没有|对不对|能否|可否|吗[？?。\s]*$")
COMPARATIVE = re.compile(r"更|最|较|哪个.{0,6}(早|晚|多|少|大|小|高|低|快|慢|长|短)|谁.{0,4}(先|早|晚|大|小)")
TYPES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"何时|什么时候|哪一年|哪年|哪天|哪一天|几月|何年|哪个月|什么时间|哪个时间"), "DATE"),
    (re.compile(r"多少(钱|元|美元|人民币|费用)|(费用|价格|售价|金额|营收|收入|融资)(是|为)?多少"), "MONEY"),
    (re.compile(r"多少|几[个名位家次年人]|几$|多大|多远|多长|多高|多久"), "NUMBER"),
    (re.compile(r"谁|哪位|哪个人|什么人"), "PERSON"),
    (re.compile(r"哪里|哪儿|在哪|何处|哪[个座所]?(城市|国家|省|地区|地方|市|区)|什么(城市|地方|国家)"), "PLACE"),
    (re.compile(r"哪[家个所]?(公司|机构|企业|组织|大学|学校|团队|银行)|什么(公司|机构|企业|组织)"), "ORG"),
]
# what separates the phrases of a question: punctuation, particles, the copula, prepositions, question words
SEPARATORS = re.compile(r"[，。？！、；：,.?!;:\s“”\"'（）()《》]|的|是否|是不是|有没有|是|在|和|与|及|或|哪一[年天个位家]|"
                        r"哪[里儿个些位家年天座所]?|什么|多少|谁|何时|几|吗|呢|了|为|由|被|对|从|到|把|将|更|最|比|还是")
LINKERS = ("和", "与", "及", "、", "或", "还是")


def is_chinese_question(question: str) -> bool:
    from kmrag.nlp.language import language_of

    return language_of(question) == "zh"


def analyse_chinese(question: str) -> QuestionAnalysis:
    toks = [t for t in tokens(question) if t.word.strip()]
    names = [t.word.strip() for t in toks if t.tag in LABELS and is_name(t.word, t.tag)]
    phrases = phrases_of(question)
    mentions = list(dict.fromkeys([*names, *(p for _, p in phrases)]))
    answer_type = next((label for pattern, label in TYPES if pattern.search(question)), "ENTITY")
    compared = _compared(question, phrases)
    kind: Kind = "factoid"
    if YES_NO.search(question):
        kind, answer_type = ("comparison" if len(compared) >= 2 and COMPARATIVE.search(question) else "yes_no"), "YES_NO"
    elif len(compared) >= 2 and COMPARATIVE.search(question):
        kind = "comparison"
    return QuestionAnalysis(question=question, kind=kind, answer_type=answer_type, mentions=mentions,
                            compared=compared if kind == "comparison" else [])


def phrases_of(question: str) -> list[tuple[int, str]]:
    """(offset, text) of the phrases between the separators, of two or more characters."""
    out, at = [], 0
    for m in [*SEPARATORS.finditer(question), None]:
        end = m.start() if m is not None else len(question)
        text = question[at:end].strip()
        if len(HAN.findall(text)) >= 2 or (text and is_name(text, "ORG")):
            out.append((at, text))
        at = m.end() if m is not None else end
    return out


def _compared(question: str, phrases: list[tuple[int, str]]) -> list[str]:
    """The two phrases joined by 和 / 与 / 还是 ("迭代检索和分解检索哪个更准"), in order."""
    for (a, x), (b, y) in zip(phrases, phrases[1:], strict=False):
        if question[a + len(x):b].strip() in LINKERS:
            return [x, y]
    return []


def link_keys(mentions: list[str]) -> list[str]:
    """The names to look a Chinese question's phrases up by: each phrase and its substrings of two to eight
    characters ("知识图谱方案" holds the entity 知识图谱), which an exact lookup then keeps or drops."""
    out = list(mentions)
    for m in mentions:
        if HAN.search(m):
            out += [m[i:j] for i in range(len(m)) for j in range(i + 2, min(len(m), i + 8) + 1)]
    return list(dict.fromkeys(out))


RELATIONAL_TAGS = {"n", "v", "vn", "vd", "nz", "a", "an"}


def relational_words(question: str) -> list[str]:
    """The words of a Chinese question that may name a relation: its nouns, verbs and adjectives of two or
    more characters that are not names or question words ("澄川科技的首席技术官出生在哪座城市" -> 首席, 技术,
    出生, 城市)."""
    out = []
    for t in tokens(question):
        w = t.word.strip()
        if (t.tag in RELATIONAL_TAGS and len(HAN.findall(w)) >= 2 and not QUESTION_WORD.fullmatch(w)
                and not (t.tag in LABELS and is_name(w, t.tag))):
            out.append(w)
    return list(dict.fromkeys(out))


QUESTION_WORD = re.compile(r"是否|是不是|有没有|多少|什么|哪.?|谁|何时|几.?|怎么|如何|为什么")
