"""`kmrag eval`: build a set's corpus as the field does, ingest it once into its own tenant, run
every requested strategy on every question, score, and save per-question results."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from kmrag.errors import BadInput, ConfigError
from kmrag.eval import evidence_match
from kmrag.eval import metrics as M
from kmrag.eval.bench import eval_set_path
from kmrag.ingestion import qa_corpora
from kmrag.ingestion.sources import record_source_id, source_id_for
from kmrag.stores import Stores

KS = (1, 2, 3, 5, 10)
# GraphRAG-Bench: the question types whose evidence is a few sentences a ranking can hold (the others ask for
# a summary or a story)
GRAPHRAG_TYPES = ("Fact Retrieval", "Complex Reasoning")


class AnswerScores(BaseModel):
    """What an answer row adds (None: a retrieval row). See kmrag.eval.metrics for each measure."""

    em: float | None = None
    f1: float | None = None
    answer_in_answer: float | None = None
    citation_precision: float | None = Field(default=None, description="cited quotes that are gold evidence (a gold "
                                             "supporting sentence; MuSiQue: from a gold paragraph) / cited quotes; "
                                             "None when nothing is cited")
    citation_recall: float | None = Field(default=None, description="gold evidence items cited / gold evidence items")
    citation_unit_precision: float | None = Field(default=None, description="cited units whose passage is gold")
    supported_share: float | None = Field(default=None, description="statements the support checker finds supported "
                                          "by their citations' quotes")
    citation_validity: float | None = Field(default=None, description="an internal check, not a measure: cited IDs "
                                            "that exist and were in the context, with no uncited sentence, no quote "
                                            "off its unit, no statement's unit left uncited (1.0 expected)")
    confidence: float | None = Field(default=None, description="the answer's confidence (first-sentence: 1.0 when it "
                                     "answers)")
    correct: bool | None = Field(default=None, description="kmrag.eval.metrics.is_correct: EM, or token F1 >= 0.5")


class QuestionResult(AnswerScores):
    strategy: str
    qid: str
    question: str
    answers: list[str]
    gold: list[str]
    ranked_passages: list[str]
    unit_ids: list[str]
    recall: dict[str, float]
    all_recall_5: float
    answer_in_context_5: float
    latency_ms: float
    rounds: int
    error: str | None = None
    unreachable_gold: int = Field(default=0, description="gold passages no strategy can retrieve (empty text, "
                                  "not in the corpus, not stored); they stay in the recall denominator as misses")
    question_type: str | None = None
    evidence_recall_5: float | None = Field(default=None, description="GraphRAG-Bench: share of the paraphrased "
                                            "evidence sentences held by a top-5 unit of the question's record "
                                            "(kmrag.eval.evidence_match)")
    sub_questions: list[int] | None = Field(default=None, description=(
        "retrieval rows where the set gives the inner hops' answers (MuSiQue, 2Wiki): [asked, resolved, right] of "
        "the sub-questions the strategy resolved on the way (kmrag.eval.metrics.sub_questions); None else"))
    # answer rows (`--answer`): what was answered and how it scores
    generator: str | None = None
    prediction: str | None = None
    answer_text: str | None = None
    found: bool | None = None
    cited: list[str] = Field(default_factory=list)
    basis: str | None = Field(default=None, description=(
        "how the direct answer was read: span, chain (hop by hop through the text), path (a relation path of "
        "the graph), comparison, yes_no, band; None without one"))


class ReliabilityRow(BaseModel):
    """One confidence bin [lo, hi) of the answered questions (the last bin holds 1.0 too)."""

    lo: float
    hi: float
    count: int
    confidence: float | None = None
    accuracy: float | None = None


class StrategySummary(BaseModel):
    strategy: str
    questions: int
    recall: dict[str, float]
    all_recall_5: float
    answer_in_context_5: float
    latency_p50_ms: float
    latency_p95_ms: float
    rounds_mean: float
    errors: int
    unreachable_gold: int = 0
    question_type: str | None = Field(default=None, description="the summary of one question type (None: all)")
    evidence_recall_5: float | None = None
    sub_questions: list[int] | None = Field(default=None, description=(
        "[asked, resolved, right] summed over the questions whose inner hops' answers the set gives"))
    # answer rows only (None / empty for a retrieval row)
    found: float | None = None
    em: float | None = None
    f1: float | None = None
    answer_in_answer: float | None = None
    citation_precision: float | None = None
    citation_recall: float | None = None
    citation_unit_precision: float | None = None
    supported_share: float | None = None
    # answers with a direct answer, by how it was read (kmrag.answer: span, chain, path, ...): count, EM, F1
    by_basis: dict[str, dict[str, float]] = Field(default_factory=dict)
    correct: float | None = Field(default=None, description="share of the questions answered correctly")
    ece: float | None = Field(default=None, description="expected calibration error, 10 equal-width bins, over the "
                              "answered questions")
    wrong_at_0_9: int | None = Field(default=None, description="answered wrong at confidence >= 0.9")
    wrong_at_0_9_share: float | None = Field(default=None, description="wrong_at_0_9 / answered questions")
    coverage_at: dict[str, float | None] = Field(default_factory=dict, description="per confidence threshold: share "
                                                 "of the questions answered at >= it")
    accuracy_at: dict[str, float | None] = Field(default_factory=dict, description="per threshold: share correct of "
                                                 "those answered at >= it")
    reliability: list[ReliabilityRow] = Field(default_factory=list)
    invalid_citations: int | None = Field(default=None, description="answers whose citation validity is below 1.0: "
                                          "a broken run, not a score (expected 0)")


class EvalRun(BaseModel):
    run_id: str
    dataset: str
    path: str
    tenant: str
    corpus_passages: int
    questions: int
    loader_problems: list[str] = Field(default_factory=list)
    unreachable_gold: int = Field(default=0, description="gold passages of the questions that cannot be retrieved")
    ingest: dict[str, Any] = Field(default_factory=dict)
    questions_file: str | None = Field(default=None, description="--questions-file: the wordings used instead of "
                                       "the set's")
    reworded: int = Field(default=0, description="questions whose wording came from questions_file")
    summaries: list[StrategySummary]
    out_dir: str = ""
    created_at: str = ""


def answer_context(trace: Sequence[dict[str, Any]]) -> list[str]:
    """The units an answer could cite, from its trace: every generator attempt's context, and the units of the
    relation path whose answer was taken (its ``decide`` step's context; empty when the text's answer stood)."""
    ctx = [u for s in trace if s["step"] == "generate" for u in s["context"]]
    ctx += [u for s in trace if s["step"] == "decide" for u in s.get("context", [])]
    return list(dict.fromkeys(ctx))


def tenant_for(name: str, embedder: str | None = None) -> str:
    """The set's eval tenant: ``eval-<set>`` for all-MiniLM-L6-v2 (the tenants made before other embedders),
    ``eval-<set>-<embedder>`` for another (a tenant holds one embedder's vectors)."""
    from kmrag.nlp.embed import MINILM_NAME

    suffix = "" if embedder in (None, MINILM_NAME) else "-" + str(embedder).removesuffix("-onnx-int8")
    return "eval-" + re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")[:40] + suffix


def load_set(dataset: str, data_root: str | None = None) -> tuple[Path, str, list[qa_corpora.QAItem], list[str],
                                                                   list[qa_corpora.Passage]]:
    path = eval_set_path(dataset, data_root)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadInput(f"{path}: cannot read as JSON: {e}") from e
    fmt = qa_corpora.detect_format(data)
    if fmt is None or fmt == "passages":
        raise BadInput(f"{path}: not a MuSiQue, HotpotQA, 2Wiki or GraphRAG-Bench question file")
    items, problems = qa_corpora.load_questions(data, fmt)
    if fmt == "graphrag-bench":
        corpus = qa_corpora.graphrag_corpus_path(path)
        passages = qa_corpora.graphrag_corpus(corpus)
        items, unknown = attach_records(items, passages, corpus)
        return path, fmt, items, problems + unknown, passages
    passages, _ = qa_corpora.corpus_passages(data, fmt)
    return path, fmt, items, problems, passages


def attach_records(items: Sequence[qa_corpora.QAItem], passages: Sequence[qa_corpora.Passage],
                   corpus: Path) -> tuple[list[qa_corpora.QAItem], list[str]]:
    """GraphRAG-Bench questions with their record's passage as gold; a question whose ``source`` names no
    record of the corpus is left out and reported."""
    keys = {p.title: p.key for p in passages}
    kept, problems = [], []
    for it in items:
        if it.corpus_record in keys:
            kept.append(it.model_copy(update={"gold_keys": [keys[it.corpus_record]]}))
        else:
            problems.append(f"question {it.id}: source {it.corpus_record!r} is not a record of {corpus}")
    return kept, problems


def select_questions(items: Sequence[qa_corpora.QAItem], fmt: str, limit: int | None) -> list[qa_corpora.QAItem]:
    """The questions evaluated: the first ``limit`` (all without one); for GraphRAG-Bench only the
    ``GRAPHRAG_TYPES``, and the first ``limit`` of each type, in file order."""
    if fmt != "graphrag-bench":
        return list(items[:limit] if limit else items)
    out = []
    for t in GRAPHRAG_TYPES:
        of_type = [it for it in items if it.type == t]
        out += of_type[:limit] if limit else of_type
    return out


def reword(items: Sequence[qa_corpora.QAItem], path: Path, dataset: str = "the set") -> tuple[
        list[qa_corpora.QAItem], int]:
    """The set's questions with the wordings of ``path`` (JSON lines ``{"qid": ..., "question": ...}``) in
    place of theirs, matched by qid; the corpus, answers and gold stay the set's. Returns (items, how many
    were reworded). A line that is not such an object, a qid given twice, or a qid the set does not have is
    BadInput naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: cannot read the questions file: {e}") from e
    wording: dict[str, tuple[int, str]] = {}
    known = {it.id for it in items}
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise BadInput(f"{path}:{n}: not a JSON object ({e.msg}); each line is "
                           '{"qid": "...", "question": "..."}') from e
        qid, question = (rec.get("qid"), rec.get("question")) if isinstance(rec, dict) else (None, None)
        if not isinstance(qid, str | int) or isinstance(qid, bool) or not isinstance(question, str) \
                or not question.strip():
            raise BadInput(f"{path}:{n}: each line is {{\"qid\": \"...\", \"question\": \"...\"}} with a "
                           "non-empty question")
        qid = str(qid)
        if qid in wording:
            raise BadInput(f"{path}:{n}: qid {qid!r} again (first at line {wording[qid][0]})")
        if qid not in known:
            raise BadInput(f"{path}:{n}: qid {qid!r} is not a question of {dataset}")
        wording[qid] = (n, question.strip())
    if not wording:
        raise BadInput(f"{path}: holds no questions (lines of {{\"qid\": \"...\", \"question\": \"...\"}})")
    out = [it.model_copy(update={"question": wording[it.id][1]}) if it.id in wording else it for it in items]
    return out, len(wording)


ANSWER_GENERATORS = ("extractive", "llm", "first-sentence")
# what a citation is matched against: the gold sentences as written (HotpotQA, 2Wiki), the gold passages
# (MuSiQue), or paraphrased gold sentences, by kmrag.eval.evidence_match (GraphRAG-Bench)
EvidenceKind = Literal["sentences", "passages", "paraphrased"]
EVIDENCE_KIND: dict[str, EvidenceKind] = {"musique": "passages", "graphrag-bench": "paraphrased"}


def run_eval(stores: Stores, dataset: str, strategies: Sequence[str], limit: int | None = None,
             tenant: str | None = None, out_root: Path = Path("reports/eval"), data_root: str | None = None,
             k_max: int = 10, progress: bool = False, answer: Sequence[str] = (),
             questions_file: str | Path | None = None) -> EvalRun:
    from kmrag.eval.baselines import BASELINES, build_baseline
    from kmrag.ingestion.pipeline import ingest
    from kmrag.nlp.embed import get_embedder
    from kmrag.retrieval.strategies import STRATEGIES, build_strategy, known_strategy

    bad = [g for g in answer if g not in ANSWER_GENERATORS]
    if bad:
        raise ConfigError(f"unknown answer generator {bad[0]!r}: choose from {', '.join(ANSWER_GENERATORS)}")
    unknown = [s for s in strategies if not known_strategy(s) and s not in BASELINES]
    if unknown or not strategies:
        raise ConfigError(f"unknown strategy {unknown[0]!r}: choose from {', '.join([*STRATEGIES, *BASELINES])}"
                          if unknown else "name at least one strategy")
    path, fmt, items, problems, passages = load_set(dataset, data_root)
    corpus = qa_corpora.graphrag_corpus_path(path) if fmt == "graphrag-bench" else path
    name = dataset if not Path(dataset).exists() else path.stem
    reworded = 0
    if questions_file is not None:
        items, reworded = reword(items, Path(questions_file), name)
    embedder = get_embedder(stores.settings)
    tenant = tenant or tenant_for(name, embedder.name)
    # the corpus: every passage of the file, de-duplicated on title + text (GraphRAG-Bench: the corpus file
    # beside the questions); ingestion is a no-op when unchanged
    job = ingest(stores, [corpus], tenant, progress=progress, embedder=embedder).job
    ingest_info = {"job": job.id, "status": job.status, "documents_new": job.counts.get("documents_new", 0),
                   "documents_unchanged": job.counts.get("documents_unchanged", 0),
                   "seconds": job.timings.get("total", 0.0)}
    file_sid = source_id_for(corpus, corpus)  # the id ingestion gave the file: its location
    key_to_sid = {p.key: record_source_id(file_sid, p.title, p.text) for p in passages}
    record_sources = {p.title: key_to_sid[p.key] for p in passages} if fmt == "graphrag-bench" else {}
    questions = select_questions(items, fmt, limit)
    # gold passages that cannot be retrieved (empty text, not in the corpus, not stored) stay in the
    # recall denominator as misses, and are counted
    stored = stores.units.source_ids(tenant)
    resolved = [M.resolve_gold(item.gold_keys, key_to_sid, stored) for item in questions]
    run_id = f"{name}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"
    out_dir = out_root / run_id
    out_dir.mkdir(parents=True, exist_ok=True)
    results: list[QuestionResult] = []
    summaries = []
    for sname in strategies:
        retriever = build_baseline(sname, stores, embedder, questions, record_sources) if sname in BASELINES \
            else build_strategy(sname, stores.units, embedder, exact=True, graph=stores.graph,
                                path_weight=stores.settings.path_weight)
        per: list[QuestionResult] = []
        for item, (gold, unreachable) in _each(questions, resolved, f"{name} {sname}", progress):
            t = time.perf_counter()
            error = None
            trace: list[dict[str, Any]] = []
            try:
                got = _retrieve(retriever, tenant, item, k_max)
                unit_ids, rounds, trace = got.unit_ids, got.rounds, got.trace
            except BadInput as e:
                unit_ids, rounds, error = [], 0, str(e)
            latency = (time.perf_counter() - t) * 1000
            subs = M.sub_questions(trace, item.bridges)
            per.append(QuestionResult(
                strategy=sname, **_retrieval_scores(stores, tenant, item, gold, unit_ids, k_max),
                latency_ms=round(latency, 2), rounds=rounds, error=error, unreachable_gold=len(unreachable),
                sub_questions=list(subs) if subs is not None else None))
        results.extend(per)
        summaries += summarise_types(sname, per)
        for gen in answer if sname not in BASELINES else ():
            rows = answer_rows(stores, tenant, sname, gen, retriever, questions, resolved, key=f"{name} {sname}+{gen}",
                               progress=progress, evidence=EVIDENCE_KIND.get(fmt, "sentences"))
            results.extend(rows)
            summaries += summarise_types(f"{sname}+{gen}", rows)
    run = EvalRun(run_id=run_id, dataset=name, path=str(path), tenant=tenant, corpus_passages=len(passages),
                  questions=len(questions), loader_problems=problems, unreachable_gold=sum(len(u) for _, u in resolved),
                  ingest=ingest_info, summaries=summaries,
                  questions_file=str(questions_file) if questions_file is not None else None, reworded=reworded,
                  out_dir=str(out_dir), created_at=datetime.now(UTC).isoformat())
    save_run(run, results, out_dir)
    return run


def _retrieve(retriever: Any, tenant: str, item: qa_corpora.QAItem, k: int) -> Any:
    """A strategy retrieves for the question's words; a baseline (kmrag.eval.baselines) for the question."""
    if hasattr(retriever, "retrieve_item"):
        return retriever.retrieve_item(tenant, item, k)
    return retriever.retrieve(tenant, item.question, k)


def _each(questions: Sequence[qa_corpora.QAItem], resolved: Sequence[tuple[list[str], list[str]]], desc: str,
          progress: bool) -> Iterator[tuple[qa_corpora.QAItem, tuple[list[str], list[str]]]]:
    """The questions with their resolved gold, behind a progress bar on a terminal."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(questions), desc=desc, unit="q", leave=False)
    try:
        for pair in zip(questions, resolved, strict=True):
            if bar is not None:
                bar.update(1)
            yield pair
    finally:
        if bar is not None:
            bar.close()


def _retrieval_scores(stores: Stores, tenant: str, item: qa_corpora.QAItem, gold: list[str], unit_ids: list[str],
                      k_max: int) -> dict[str, Any]:
    units = stores.units.get_units(tenant, unit_ids)
    ranked = M.dedupe(u.source_id for u in units)
    evidence_recall = None
    if item.corpus_record is not None:  # paraphrased evidence, held by a top-5 unit of the question's record
        evidence_recall = evidence_match.evidence_recall([u.content for u in units[:5] if u.source_id in gold],
                                                         item.gold_sentences)
    return {"qid": item.id, "question": item.question, "question_type": item.type,
            "evidence_recall_5": evidence_recall, "answers": item.answers, "gold": gold,
            "ranked_passages": ranked[:k_max], "unit_ids": unit_ids,
            "recall": {str(k): M.recall_at_k(ranked, gold, k) for k in KS},
            "all_recall_5": M.all_recall_at_k(ranked, gold, 5),
            "answer_in_context_5": M.answer_in_context([u.content for u in units[:5]], item.answers)}


def answer_rows(stores: Stores, tenant: str, strategy: str, generator: str, retriever: Any,
                questions: Sequence[qa_corpora.QAItem], resolved: Sequence[tuple[list[str], list[str]]], key: str,
                progress: bool = False, evidence: EvidenceKind = "sentences") -> list[QuestionResult]:
    """Answer every question with ``generator`` on top of ``strategy`` (answers not stored) and score them:
    EM / F1 of the direct answer (else the answer text) and correctness, answer-in-answer, citation
    precision / recall against the gold ``evidence`` (the supporting sentences, HotpotQA / 2Wiki; the
    supporting passages, MuSiQue), citation unit precision (cited units that are gold passages), the share
    of statements the support checker finds supported, the answer's confidence, and citation validity as
    a check (every cited ID exists for the tenant and was in the generator's context, no sentence of the
    shown text is uncited, every quote is its unit's text). ``first-sentence`` is the baseline: the first
    sentence of the top unit, cited to it, at confidence 1.0 (it has no notion of doubt)."""
    from kmrag.answer.answerer import Answerer
    from kmrag.answer.validate import NOT_FOUND, split_statements
    from kmrag.nlp.embed import get_embedder
    from kmrag.nlp.sentences import sentence_spans
    from kmrag.schema import Citation

    answerer = None
    if generator != "first-sentence":
        answerer = Answerer(stores.units, stores.graph, get_embedder(stores.settings), stores.settings,
                            generator=generator, strategy=strategy, retriever=retriever, save=False)
    out = []
    for item, (gold, unreachable) in _each(questions, resolved, key, progress):
        t = time.perf_counter()
        error = None
        statements: list[tuple[str, list[str]]] = []
        citations: list[Citation] = []
        basis: str | None = None
        try:
            if answerer is None:
                got = retriever.retrieve(tenant, item.question, 8)
                unit_ids, ctx_ids, rounds = got.unit_ids, got.unit_ids[:1], got.rounds
                top = stores.units.get_units(tenant, unit_ids[:1])
                spans = sentence_spans(top[0].content) if top else []
                direct: str | None = None
                text, confidence = NOT_FOUND, 0.0
                if spans:
                    (start, end), unit = spans[0], top[0]
                    direct = unit.content[start:end]
                    text, confidence = f"{direct} [{unit.id}]", 1.0
                    statements = [(direct, [unit.id])]
                    citations = [Citation(unit_id=unit.id, source_id=unit.source_id, quote=direct, start=start,
                                          end=end)]
            else:
                ans = answerer.answer(tenant, item.question)
                from kmrag.answer.parts import retrieved

                unit_ids, rounds = retrieved(ans.trace)  # each part's, for a question of parts
                ctx_ids = answer_context(ans.trace)
                direct, text, confidence = ans.direct, ans.text, ans.confidence
                statements = [(s.text, list(s.unit_ids)) for s in ans.statements]
                citations = list(ans.citations)
                basis = (ans.basis or {}).get("kind") if ans.direct else None
        except BadInput as e:
            unit_ids, ctx_ids, rounds, direct, text, confidence, error = [], [], 0, None, NOT_FOUND, 0.0, str(e)
            statements, citations = [], []
        latency = (time.perf_counter() - t) * 1000
        found = text != NOT_FOUND
        # validity on the answer as shown, not on what the validator reports: every ID-like string in the text
        # must be a unit of the tenant that was in the generator's context, every sentence must carry a marker,
        # and every quote must be the unit's own text at its span
        shown, uncited = M.shown_citations(text if found else "")
        cited = list(dict.fromkeys(shown))
        cited_units = stores.units.get_units(tenant, cited)
        validity = M.citation_validity(shown, ctx_ids, [u.id for u in cited_units])
        stored = {u.id: u for u in stores.units.get_units(tenant, [c.unit_id for c in citations])}
        wrong_quote = any(c.unit_id not in stored or c.start is None or
                          stored[c.unit_id].content[c.start:c.end] != c.quote for c in citations)
        unshown = not {u for _, ids in statements for u in ids} <= set(cited)
        if validity is not None and (uncited or wrong_quote or unshown):
            validity = 0.0  # a sentence shown without a citation, a quote not in its unit, a citation not shown
        prediction = direct or (" ".join(s for s, _ in split_statements(text)) if found else "")
        em, f1 = M.exact_match(prediction, item.answers), M.token_f1(prediction, item.answers)
        # each distinct cited span once, in the answer's order
        spans_cited = list(dict.fromkeys((c.unit_id, c.quote) for c in citations)) if found else []
        if evidence == "passages":
            source = {c.unit_id: stored[c.unit_id].source_id if c.unit_id in stored else c.source_id for c in citations}
            matches = M.passage_evidence([source[u] for u, _ in spans_cited], gold)
            n_gold = len(gold)
        else:
            match = evidence_match.holds if evidence == "paraphrased" else None
            matches = M.sentence_evidence([q for _, q in spans_cited], item.gold_sentences, match)
            n_gold = len(item.gold_sentences) + item.missing_gold_sentences
        cite_precision, cite_recall = M.evidence_precision_recall(matches, n_gold)
        supported = M.supported_share(statements, spans_cited, {u.id: u.title for u in stored.values()}) \
            if found else None
        out.append(QuestionResult(
            strategy=f"{strategy}+{generator}", **_retrieval_scores(stores, tenant, item, gold, unit_ids, 10),
            latency_ms=round(latency, 2), rounds=rounds, error=error, unreachable_gold=len(unreachable),
            generator=generator, prediction=prediction, answer_text=text, found=found, em=em, f1=f1,
            correct=M.is_correct(em, f1, prediction, item.answers), confidence=confidence,
            answer_in_answer=M.answer_in_context([f"{direct or ''} {text if found else ''}"], item.answers),
            citation_validity=validity, citation_precision=cite_precision, citation_recall=cite_recall,
            citation_unit_precision=M.citation_unit_precision([u.source_id for u in cited_units], gold),
            supported_share=supported, cited=cited, basis=basis))
    return out


def _r(v: float | None, digits: int = 4) -> float | None:
    return None if v is None else round(v, digits)


def answer_summary(answered: Sequence[QuestionResult]) -> dict[str, Any]:
    """The answer measures of a strategy+generator: means of the per-answer scores, then calibration over
    (confidence, correct), where a not-found answer is not answered (confidence None)."""
    points: list[M.Judged] = [(r.confidence if r.found else None, bool(r.correct)) for r in answered]
    wrong, wrong_share = M.wrong_at(points, M.OVERCONFIDENT)
    at = {str(t): M.coverage_accuracy(points, t) for t in M.THRESHOLDS}
    return {
        "em": _r(M.mean(r.em for r in answered)), "f1": _r(M.mean(r.f1 for r in answered)),
        "answer_in_answer": _r(M.mean(r.answer_in_answer for r in answered)),
        "found": _r(M.mean(float(bool(r.found)) for r in answered)),
        "citation_precision": _r(M.mean(r.citation_precision for r in answered)),
        "citation_recall": _r(M.mean(r.citation_recall for r in answered)),
        "citation_unit_precision": _r(M.mean(r.citation_unit_precision for r in answered)),
        "supported_share": _r(M.mean(r.supported_share for r in answered)),
        "correct": _r(M.mean(float(bool(r.correct)) for r in answered)),
        "ece": _r(M.expected_calibration_error(points)),
        "wrong_at_0_9": wrong, "wrong_at_0_9_share": _r(wrong_share),
        "coverage_at": {t: _r(c) for t, (c, _) in at.items()},
        "accuracy_at": {t: _r(a) for t, (_, a) in at.items()},
        "reliability": [ReliabilityRow(lo=b.lo, hi=b.hi, count=b.count, confidence=_r(b.confidence),
                                       accuracy=_r(b.accuracy)) for b in M.reliability(points)],
        "invalid_citations": sum(1 for r in answered if r.citation_validity is not None and r.citation_validity < 1.0),
        "by_basis": _by_basis(answered),
    }


def _by_basis(answered: Sequence[QuestionResult]) -> dict[str, dict[str, float]]:
    groups: dict[str, list[QuestionResult]] = {}
    for r in answered:
        if r.found and r.basis:
            groups.setdefault(r.basis, []).append(r)
    return {k: {"answers": len(v), "em": _r(M.mean(r.em for r in v)) or 0.0, "f1": _r(M.mean(r.f1 for r in v)) or 0.0}
            for k, v in sorted(groups.items())}


def summarise_types(strategy: str, per: Sequence[QuestionResult]) -> list[StrategySummary]:
    """The strategy's summary over all questions, then (when the questions have types) one per type."""
    types = list(dict.fromkeys(r.question_type for r in per if r.question_type))
    return [summarise(strategy, per), *(summarise(strategy, [r for r in per if r.question_type == t], t)
                                        for t in types)]


def summarise(strategy: str, per: Sequence[QuestionResult], question_type: str | None = None) -> StrategySummary:
    n = len(per) or 1
    lat = [r.latency_ms for r in per]
    answered = [r for r in per if r.generator is not None]
    extra = answer_summary(answered) if answered else {}
    return StrategySummary(**extra,
        strategy=strategy, questions=len(per),
        recall={str(k): round(sum(r.recall[str(k)] for r in per) / n, 4) for k in KS},
        all_recall_5=round(sum(r.all_recall_5 for r in per) / n, 4),
        answer_in_context_5=round(sum(r.answer_in_context_5 for r in per) / n, 4),
        latency_p50_ms=round(M.percentile(lat, 50), 2) if lat else 0.0,
        latency_p95_ms=round(M.percentile(lat, 95), 2) if lat else 0.0,
        rounds_mean=round(sum(r.rounds for r in per) / n, 2), errors=sum(1 for r in per if r.error),
        unreachable_gold=sum(r.unreachable_gold for r in per), question_type=question_type,
        evidence_recall_5=_r(M.mean(r.evidence_recall_5 for r in per)), sub_questions=_summed(per))


def _summed(per: Sequence[QuestionResult]) -> list[int] | None:
    """[asked, resolved, right] of the sub-questions over the rows that have them; None when none has."""
    rows = [r.sub_questions for r in per if r.sub_questions is not None]
    return [sum(x[i] for x in rows) for i in range(3)] if rows else None


def save_run(run: EvalRun, results: Sequence[QuestionResult], out_dir: Path) -> None:
    from kmrag.eval.report import recall_chart, render_markdown

    (out_dir / "summary.json").write_text(run.model_dump_json(indent=2), encoding="utf-8")
    with (out_dir / "questions.jsonl").open("w", encoding="utf-8") as f:
        for r in results:
            f.write(r.model_dump_json() + "\n")
    (out_dir / "report.md").write_text(render_markdown([run]), encoding="utf-8")
    recall_chart(run, out_dir / "recall.png")


def load_run(ref: str, out_root: Path = Path("reports/eval")) -> tuple[EvalRun, list[QuestionResult]]:
    """A saved run by its folder, its summary.json, or its run id under the reports folder."""
    p = Path(ref)
    if p.is_file():
        p = p.parent
    if not p.is_dir():
        p = out_root / ref
    if not (p / "summary.json").exists():
        raise BadInput(f"no saved eval run at {ref!r} (looked for {p / 'summary.json'})")
    run = EvalRun.model_validate_json((p / "summary.json").read_text(encoding="utf-8"))
    rows = [QuestionResult.model_validate_json(line) for line in
            (p / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return run, rows
