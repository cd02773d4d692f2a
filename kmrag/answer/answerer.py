"""The answer controller: retrieve -> grade units -> generate -> validate -> grade answer -> (refine)* -> store.

- **retrieve**: the configured strategy (``multihop`` by default, itself a capped refine loop).
- **grade units** (Self-RAG): each retrieved unit is graded useful or not; useful units are kept across
  attempts and form the context, most useful first (a unit holding the expected kind of value rises).
- **generate**: extractive (offline) or LLM; the draft is **validated** (kmrag.answer.validate). An LLM
  draft with problems (invented or out-of-context IDs, uncited or unsupported sentences) is regenerated
  once with the problems named; the better of the two is kept.
- **grade answer**: grounded in its citations? addresses the question? A failed grade, or no useful unit,
  sends the controller back to retrieve with a corrective query (the question's entities and content
  words, twice as deep), at most ``max_attempts`` times. The best answer seen is kept.
- **store**: in PostgreSQL and as (:Answer)-[:CITES]->(:Unit) in the graph, for the audit.

When nothing survives, the answer is exactly "Information not found in knowledge map". Every step is in
the answer's trace.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from kmrag.answer import paths
from kmrag.answer.asked import asking, day_asked, names_a_day
from kmrag.answer.casing import restore_case, split_pair
from kmrag.answer.confidence import explain, features, probability
from kmrag.answer.contacts import contact_asked, contact_values, holder_keys
from kmrag.answer.context import Context
from kmrag.answer.extractive import Draft, ExtractiveGenerator, akin
from kmrag.answer.grade import AnswerGrade, OfflineGrader, grader_for
from kmrag.answer.llm import LLMClient, LLMGenerator
from kmrag.answer.llm_judge import LLMJudge
from kmrag.answer.parts import Part, combine, split_parts
from kmrag.answer.paths import PathAnswer, PathReader
from kmrag.answer.spelling import mend_slips
from kmrag.answer.support import YES_NO_WORDS, terms
from kmrag.answer.validate import NOT_FOUND, Validated, drop_described, drop_given, validate
from kmrag.config import Settings
from kmrag.errors import ConfigError
from kmrag.graph.base import GraphStore
from kmrag.nlp.embed import Embedder, word_vectors
from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.rephrase import rephrase
from kmrag.nlp.rerank import question_cache
from kmrag.retrieval.analysis import QuestionAnalyser, QuestionAnalysis
from kmrag.retrieval.multihop import broader_query
from kmrag.retrieval.observe import TraceLog, tagging
from kmrag.retrieval.strategies import Retriever, build_strategy, check_question
from kmrag.schema import Answer, answer_id
from kmrag.units.store import PgUnitStore

__all__ = ["NOT_FOUND", "Answerer", "generator_name"]

COMPUTED = {"comparison", "yes_no"}  # question kinds whose answer is computed from the cited spans, not quoted
CONTACT_HITS = 3  # directory units looked up for a contact asked in two hops (kmrag.answer.contacts)
REGENERATE_ON = {"invented_id", "out_of_context_id", "uncited", "recited", "dropped"}


def generator_name(settings: Settings, requested: str | None = None) -> str:
    name = requested or settings.generator
    if name == "auto":
        return "llm" if settings.llm_configured else "extractive"
    if name == "llm" and not settings.llm_model:
        raise ConfigError("the llm generator needs an LLM: set KMRAG_LLM_BASE_URL and KMRAG_LLM_MODEL "
                          "(or use --generator extractive)")
    if name not in {"extractive", "llm"}:
        raise ConfigError(f"unknown generator {name!r}: choose extractive or llm")
    return name


class Answerer:
    def __init__(self, units: PgUnitStore, graph: GraphStore, embedder: Embedder, settings: Settings,
                 generator: str | None = None, strategy: str = "multihop", k: int = 8, max_attempts: int = 2,
                 retriever: Retriever | None = None, llm_client: Any = None, save: bool = True) -> None:
        self.units, self.graph, self.settings = units, graph, settings
        self.generator_name = generator_name(settings, generator)
        self.strategy = strategy
        self.retriever = retriever or build_strategy(strategy, units, embedder, graph=graph, rerank=settings.rerank,
                                                      path_weight=settings.path_weight)
        self.k = k
        self.max_attempts = max(1, max_attempts)
        self.save = save
        extractor = SpacyExtractor()
        self.analyser = QuestionAnalyser(extractor)
        self.extractive = ExtractiveGenerator(extractor.nlp, reranker=reader_model(settings), analyse=self.analyser.analyse)
        self.client: LLMClient | None = None
        if self.generator_name == "llm":
            self.client = LLMClient(settings, client=llm_client)
        self.llm = LLMGenerator(self.client) if self.client else None
        helps = self.client if settings.llm_roles == "all" else None  # "draft": the LLM only drafts
        self.grader = grader_for(helps) if helps else OfflineGrader()
        self.second_opinion = LLMJudge(helps) if helps else None  # can only make support stricter
        self.paths = PathReader(graph, extractor.nlp, word_vectors(embedder)) if settings.paths == "relations" else None

    # -- the loop ---------------------------------------------------------------------------------

    def answer(self, tenant: str, question: str) -> Answer:
        with question_cache():  # the cross-encoder reads a (query, sentence) pair once per question
            asked = check_question(question, self.settings.max_question_chars)
            # "who founded lufthansa and when was it founded?": names in capitals first, to find what "it" is
            cased = None if any(c.isupper() for c in asked) else \
                restore_case(self.graph, tenant, asked, titles=self._title_forms(tenant))
            parts = split_parts(cased or asked, self.extractive.nlp, self.analyser.analyse)
            answer = self._answer_parts(tenant, asked, parts) if parts else self._answer(tenant, asked, cased)
        if self.save:
            self._store(answer)
        return answer

    def _answer_parts(self, tenant: str, asked: str, parts: list[Part]) -> Answer:
        """A question of several parts: each answered on its own (a part naming an earlier one's answer is
        asked with that answer in its place), then put together (:func:`kmrag.answer.parts.combine`)."""
        t0 = time.perf_counter()
        trace: list[dict[str, Any]] = TraceLog("answer")
        trace.append({"step": "parts", "asked": asked, "parts": [p.question for p in parts]})
        answers: list[Answer] = []
        said: list[str] = []
        for n, part in enumerate(parts):
            known = answers[part.of_part] if part.of_part is not None else None
            question = part.with_answer(known.direct) if known is not None and known.found and known.direct else \
                part.question
            said.append(question)
            if known is not None and question == part.question:
                got = Answer(id=answer_id(), tenant=tenant, question=question, text=NOT_FOUND,
                             confidence_why=f"it needs the answer of \"{parts[part.of_part or 0].question}\", "
                                            f"which {'gave no direct answer' if known.found else 'was not found'}")
            else:
                with tagging(part=n + 1):
                    got = self._answer(tenant, question)
            trace.append({"step": "part", "n": n + 1, "question": question, "found": got.found,
                          "direct": got.direct, "confidence": got.confidence})
            trace.extend({**step, "part": n + 1} for step in got.trace)
            answers.append(got)
        whole = combine(asked, said, answers, self.settings.min_confidence)
        trace.append({"step": "done", "found": bool(whole["statements"]), "statements": len(whole["statements"]),
                      "confidence_why": whole["confidence_why"], "basis": whole["basis"], "parts": [
                          {"question": q, "found": a.found, "direct": a.direct, "confidence": a.confidence}
                          for q, a in zip(said, answers, strict=True)],
                      "evidence": [e.model_dump() for e in whole["evidence"]], "ms": round((time.perf_counter() - t0) * 1000, 1)})
        return Answer(id=answer_id(), tenant=tenant, generator=self.generator_name, strategy=self.strategy,
                      trace=trace, **whole)

    def _answer(self, tenant: str, asked: str, cased: str | None = None) -> Answer:
        """``cased``: ``asked`` with its names' capitals restored, when :meth:`answer` already did it."""
        t0 = time.perf_counter()
        # "foo fighters or awolnation, which ..." with the names' capitals; "Tell me whether A and B ..." is read
        # as "Are A and B ...?"
        title_forms = self._title_forms(tenant)
        if cased is None:
            cased = restore_case(self.graph, tenant, asked, titles=title_forms)  # names first
        mended = mend_slips(cased)  # "wich", "contry"
        q = rephrase(split_pair(self.graph, tenant, mended, titles=title_forms))
        analysis = self.analyser.analyse(q)
        trace: list[dict[str, Any]] = TraceLog("answer")
        if q != asked:
            trace.append({"step": "rephrase", "asked": asked, "read_as": q})
        kept: dict[str, Any] = {}      # useful units across attempts, with their grade
        scores: dict[str, float] = {}
        best: tuple[tuple[int, int, int], Validated, Context, AnswerGrade] | None = None
        query, depth = q, self.k
        entities: list[str] = []
        for attempt in range(1, self.max_attempts + 1):
            t = time.perf_counter()
            got = self.retriever.retrieve(tenant, query, depth)
            entities = entities or got.entities
            trace.append({"step": "retrieve", "attempt": attempt, "query": query, "strategy": self.strategy,
                          "units": len(got.unit_ids), "unit_ids": got.unit_ids, "rounds": got.rounds,
                          "ms": round((time.perf_counter() - t) * 1000, 1),
                          "controller": [s for s in got.trace if s.get("step") in {"judge", "done"}],
                          "paths": got.paths})
            stored = self.units.get_units(tenant, got.unit_ids, include_retired=False)
            rank = {u: i for i, u in enumerate(got.unit_ids)}
            grades = self.grader.grade_units(q, analysis, stored, got.queries)
            for g, u in zip(grades, stored, strict=True):
                if g.useful and u.id not in kept:
                    kept[u.id] = u
                    scores[u.id] = g.score + 1.0 / (1 + rank[u.id])  # the retrieval rank breaks near-ties
            trace.append({"step": "grade_units", "attempt": attempt,
                          "by": sorted({g.by for g in grades}) if grades else [self.grader.name],
                          "useful": [g.unit_id for g in grades if g.useful],
                          "not_useful": [{"id": g.unit_id, "why": g.why} for g in grades if not g.useful]})
            ordered = sorted(kept.values(), key=lambda u: -scores[u.id])[: self.k]
            context = Context.of(tenant, ordered)
            if context:
                validated = self._generate(q, analysis, context, trace, attempt, got.queries)
                if (hop := self._contact_hop(tenant, q, analysis, context, validated, trace, attempt, got.queries)):
                    validated, context = hop
                grade = self.grader.grade_answer(q, analysis, validated, context)
                trace.append({"step": "grade_answer", "attempt": attempt, "by": grade.by, "grounded": grade.grounded,
                              "addresses": grade.addresses, "why": grade.why})
                key = (int(grade.ok), int(grade.on_topic and validated.found), int(validated.direct is not None))
                if best is None or key > best[0]:
                    best = (key, validated, context, grade)
                if grade.ok:
                    break
            else:
                trace.append({"step": "grade_units", "attempt": attempt, "decision": "no useful unit"})
            if attempt < self.max_attempts:
                query, depth = self._corrective_query(q, analysis, query), depth * 2
                trace.append({"step": "refine", "attempt": attempt, "decision": "corrective retrieval",
                              "query": query, "depth": depth})
        path = self._read_path(tenant, q, analysis, entities, trace)
        if path is not None:
            best = self._decide(q, analysis, path, best, trace)
        validated = best[1] if best else Validated()
        if best and validated.found and not best[3].on_topic:
            trace.append({"step": "judge", "decision": "not found: the evidence is not about the question's entities",
                          "why": best[3].why})
            validated = Validated(citations=validated.citations)
        confidence, why, evidence = 0.0, "nothing was found", []
        if validated.found and validated.direct and analysis.answer_type == "DATE" and day_asked(asked) and \
                not names_a_day(validated.direct):
            # "On what date is the workshop?" (read as "When is ...?"): "in May" names no day
            why = f"the question asks for a day, and \"{validated.direct}\" names none; the statements are shown as evidence"
            trace.append({"step": "judge", "decision": "not found: " + why})
            evidence, validated = validated.statements, Validated(citations=validated.citations)
        if best and validated.found:
            titles = {u.id: u.title for u in best[2].units}
            feats = features(q, analysis, validated, titles, self.extractive.nlp)
            confidence, why = round(probability(feats), 3), explain(feats)
            trace.append({"step": "confidence", "p": confidence, "features": feats, "why": why,
                          "threshold": self.settings.min_confidence})
            if confidence < self.settings.min_confidence:
                trace.append({"step": "judge", "decision": f"not found: confidence {confidence:.2f} is below "
                              f"{self.settings.min_confidence:.2f}; the statements are shown as evidence", "why": why})
                why = _refused(validated.direct, confidence, self.settings.min_confidence, why)
                evidence, validated = validated.statements, Validated(citations=validated.citations)
        elif best and best[1].found and not evidence:
            evidence = best[1].statements
            why = f"what was found is not about what the question asks: {best[3].why}"
        trace.append({"step": "done", "found": validated.found, "statements": len(validated.statements),
                      "confidence_why": why, "evidence": [e.model_dump() for e in evidence], "basis": validated.basis,
                      "ms": round((time.perf_counter() - t0) * 1000, 1)})
        answer = Answer(id=answer_id(), tenant=tenant, question=asked, text=validated.text, direct=validated.direct,
                        statements=validated.statements, citations=validated.citations, confidence=confidence,
                        confidence_why=why, evidence=evidence, basis=validated.basis,
                        generator=self.generator_name, strategy=self.strategy, trace=trace)
        return answer

    def _contact_hop(self, tenant: str, q: str, analysis: QuestionAnalysis, context: Context, validated: Validated,
                     trace: list[dict[str, Any]], attempt: int, queries: Sequence[str]) -> tuple[Validated, Context] | None:
        """A telephone number or an e-mail address asked through who deals with something ("what number do I ring
        to report a capsize"): the directory units naming whom the context's spans name for it, read with the
        context (kmrag.answer.contacts); None when the draft already reads it in two hops, or no such unit helps."""
        kind = contact_asked(q)
        if kind is None or (validated.basis or {}).get("kind") == "chain":
            return None
        keys = holder_keys(q, context.all_spans(), akin)
        have = set(context.ids)
        extra: list[Any] = []
        for key in keys:
            hits = [h.id for h in self.units.fulltext_search(tenant, key, CONTACT_HITS) if h.id not in have]
            for u in self.units.get_units(tenant, hits, include_retired=False):
                if key in u.content and contact_values(kind, u.content) and len(extra) < CONTACT_HITS:
                    extra.append(u)
                    have.add(u.id)
        if not extra:
            return None
        wider = Context.of(tenant, [*context.units, *extra])
        trace.append({"step": "contact_hop", "attempt": attempt, "looked_up": keys, "units": [u.id for u in extra]})
        got = self._generate(q, analysis, wider, trace, attempt, queries)
        return (got, wider) if (got.basis or {}).get("kind") == "chain" else None

    def _store(self, answer: Answer) -> None:
        self.units.save_answer(answer)  # PostgreSQL holds the record the audit reads
        try:
            # (:Answer)-[:CITES] is what an answer rests on: a not-found answer's evidence is not that
            self.graph.write_answer(answer if answer.found else answer.model_copy(update={"citations": []}))
            self.graph.flush()  # an embedded graph holding unflushed changes would keep its view frozen
        except Exception as e:  # noqa: BLE001 - the answer stands and is auditable; only its graph view is missing
            answer.trace.append({"step": "store", "warning": f"the answer is stored in PostgreSQL, but its "
                                 f"(:Answer)-[:CITES] view could not be written to the graph: {e}"})

    def _title_forms(self, tenant: str) -> Callable[[list[str]], dict[str, str]]:
        return lambda names: self.units.title_forms(tenant, names)

    def _generate(self, q: str, analysis: QuestionAnalysis, context: Context, trace: list[dict[str, Any]],
                  attempt: int, asked: Sequence[str] = ()) -> Validated:
        def known(ids: list[str]) -> set[str]:
            return {u.id for u in self.units.get_units(context.tenant, ids)}

        # an LLM sees the best units that fit its budget; only what it saw can be cited
        shown = context.within(self.settings.llm_context_chars) if self.llm is not None else context

        def run(feedback: str = "", previous: str = "") -> tuple[Draft, Validated]:
            t = time.perf_counter()
            if self.llm is not None:
                draft = self.llm.generate(q, analysis, shown, feedback, previous)
            else:
                draft = self.extractive.generate(q, analysis, context, queries=asked)
            v = validate(draft.text, shown, known, direct=draft.direct, basis=draft.basis,
                         second_opinion=self.second_opinion)
            if self.llm is None:  # the offline reader's rules (kmrag.answer.validate)
                v = drop_described(drop_given(v, q), q, analysis.sub_question, asked)
            if self.llm is not None and draft.direct and (analysis.kind in COMPUTED or
                                                          draft.direct.strip().lower() in YES_NO_WORDS):
                v = self._computed(q, analysis, shown, asked, draft.direct.strip(), v, known, trace)
            trace.append({"step": "generate", "attempt": attempt, "generator": self.generator_name,
                          "context": shown.ids, "left_out": len(context.units) - len(shown.units),
                          "regenerated": bool(feedback), "sentences": v.raw_sentences, "kept": len(v.statements),
                          "issues": v.issues, "notes": draft.notes, "ms": round((time.perf_counter() - t) * 1000, 1)})
            return draft, v

        first, v = run()
        problems = _problems(v)
        if self.llm is not None and (problems or not v.found):
            previous = next((str(n["raw"]) for n in first.notes if "raw" in n), "")
            _, again = run(previous=previous, feedback=_feedback(v) or ("the answer had no sentence after Because: (only IDs); copy "
                                                     "the sentences that answer it, each followed by its [u_…] ID"
                                                     if not v.raw_sentences else "the answer cited no unit"))
            if (len(again.statements), -len(again.issues)) > (len(v.statements), -len(v.issues)):
                v = again
        return v

    def _computed(self, q: str, analysis: QuestionAnalysis, shown: Context, asked: Sequence[str], said: str,
                  v: Validated, known: Callable[[list[str]], set[str]], trace: list[dict[str, Any]]) -> Validated:
        """A model's yes / no or comparison winner stands only when the cited spans compute it, with the
        computation shown: the offline reader compares the same units. The same answer keeps the model's
        statements after the computation's; another answer, or none computed, drops the model's."""
        check = self.extractive.generate(q, analysis, shown, queries=asked)
        cv = Validated()
        if (check.basis or {}).get("kind") in {"yes_no", "comparison"}:
            cv = validate(check.text, shown, known, direct=check.direct, basis=check.basis,
                          second_opinion=self.second_opinion)
        if cv.direct and _plain(said) == _plain(cv.direct):
            seen = {(c.unit_id, c.quote) for c in cv.citations}
            extra = [i for i, st in enumerate(v.statements) if st.text not in {c.text for c in cv.statements}]
            cited = {u for i in extra for u in v.statements[i].unit_ids}
            trace.append({"step": "compute", "said": said, "computed": cv.direct, "basis": cv.basis,
                          "decision": "the cited spans compute the model's answer: it stands, with the computation"})
            return Validated(statements=[*cv.statements, *(v.statements[i] for i in extra)],
                             citations=[*cv.citations, *(c for c in v.citations if (c.unit_id, c.quote) not in seen
                                                         and c.unit_id in cited)],
                             direct=cv.direct, issues=[i for i in v.issues if i["issue"] != "direct_dropped"],
                             raw_sentences=v.raw_sentences,
                             scores=[*cv.scores, *(v.scores[i] for i in extra if i < len(v.scores))], basis=cv.basis)
        why = (f"the cited spans compute {cv.direct!r}, not {said!r}" if cv.direct
               else "the cited spans do not compute it for every entity compared")
        trace.append({"step": "compute", "said": said, "computed": cv.direct, "decision": f"the model's answer "
                      f"is dropped: {why}"})
        if v.direct is None:
            return v
        return Validated(statements=v.statements, citations=v.citations, direct=None, raw_sentences=v.raw_sentences,
                         issues=[*v.issues, {"issue": "direct_dropped", "text": said[:200], "why": why}],
                         scores=v.scores)

    def _read_path(self, tenant: str, q: str, analysis: QuestionAnalysis, entities: Sequence[str],
                   trace: list[dict[str, Any]]) -> tuple[PathAnswer, Context] | None:
        """The best relation path's answer with each hop's sentence, and the context of its units; None when
        no path answers (the trace says why)."""
        if self.paths is None:
            return None
        t = time.perf_counter()
        found, step = self.paths.read(tenant, q, analysis, entities)
        top, why = paths.best(found)
        context = None
        if top is not None:
            units = self.units.get_units(tenant, sorted({u for h in top.hops for u in h.unit_ids}), include_retired=False)
            context = Context.of(tenant, units)
            if not paths.cite(top, context.all_spans(), self.paths.aliases(tenant, top)):
                top, why = None, "a hop of the best path has no sentence naming both its ends"
        trace.append({**step, "decision": why, "answer": top.answer if top else None,
                      "ms": round((time.perf_counter() - t) * 1000, 1)})
        return (top, context) if top is not None and context is not None else None

    def _decide(self, q: str, analysis: QuestionAnalysis, path: tuple[PathAnswer, Context],
                text: tuple[tuple[int, int, int], Validated, Context, AnswerGrade] | None,
                trace: list[dict[str, Any]]) -> tuple[tuple[int, int, int], Validated, Context, AnswerGrade] | None:
        """The path's answer or the text's: the same answer rests on a path of two hops (one hop adds nothing to
        the text's reading); when they differ, the support check decides (the path's statements validated and its
        answer graded like the text's)."""
        top, context = path
        said = (text[1].direct or "") if text and text[1].found else ""
        noun = asking(self.paths.nlp, q)[1] if self.paths is not None else None
        if not paths.of_kind(top.answer, noun, [*context.all_spans(), *(text[2].all_spans() if text else [])]):
            trace.append({"step": "decide", "path": top.answer, "text": said or None, "agree": False,
                          "decision": f"the path's end {top.answer!r} is nowhere said to be a {noun}: the text's "
                                      "answer stands"})
            return text
        agree = bool(said) and _same_answer(said, top.answer)
        if said and not agree and text and (text[1].basis or {}).get("kind") in {"cell", "band"}:
            trace.append({"step": "decide", "path": top.answer, "text": said, "agree": False,
                          "decision": "the text's answer is read from a table's cells by the question's own row and "
                                      "column: it stands"})
            return text  # "the visiting hours on Ward 7": the cell, not a hop "home to" a ward

        def known(ids: list[str]) -> set[str]:
            return {u.id for u in self.units.get_units(context.tenant, ids)}

        last = top.spans[-1]
        asked = list(dict.fromkeys([q, paths.last_question(q, analysis, top)]))
        meaning = max(p for a in asked for _, p in self.extractive.rank_for(a, [last])) \
            if self.extractive.reranker is not None else None
        v = drop_given(validate(paths.text(top), context, known, direct=top.answer, second_opinion=self.second_opinion,
                                basis=paths.basis(top, rivals=1 if agree or not said else 2, meaning=meaning)), q)
        grade = self.grader.grade_answer(q, analysis, v, context)
        ok = v.found and v.direct is not None and grade.ok and not v.issues
        if agree and ok and len(top.hops) == 1:
            decision = "the path says what the text says: the text's reading stands"
        elif agree and ok:
            decision = "the path and the text give the same answer: it rests on the path's hops"
        elif ok:
            decision = (f"the path's answer {top.answer!r} differs from the text's {said!r}; the support check "
                        "passes the path's statements" if said else "the text gave no answer; the path's passes "
                        "the support check")
        else:
            decision = "the text's answer stands: the path's " + ("statements fail the support check" if v.issues or
                                                                 not v.found else "answer is not kept or not on topic")
        taken = ok and not (agree and len(top.hops) == 1)
        trace.append({"step": "decide", "path": top.answer, "text": said or None, "agree": agree,
                      "decision": decision, "issues": v.issues, "grounded": grade.grounded,
                      "addresses": grade.addresses,
                      "context": context.ids if taken else []})  # the units a taken path's answer is read from
        if not taken:
            return text
        return ((1, 1, 1), v, context, grade)

    @staticmethod
    def _corrective_query(q: str, analysis: QuestionAnalysis, last: str) -> str:
        """The question's entities and content words alone (a broader scope), else the first sub-question."""
        broad = broader_query(q, analysis)
        if broad and broad != last:
            return broad
        if analysis.sub_question and analysis.sub_question.question != last:
            return analysis.sub_question.question
        return q


def _problems(v: Validated) -> list[str]:
    """What a regeneration is asked to mend. A sentence the model left uncited and validation re-cited to the
    unit that says it is mended already: asking again costs a call and gains nothing. A wrong citation, an
    invented ID or a dropped sentence is a problem."""
    mended = {i.get("sentence") for i in v.issues if i["issue"] == "recited" and not i.get("cited")}
    return sorted({i["issue"] for i in v.issues if i["issue"] in REGENERATE_ON
                   and not (i["issue"] in {"recited", "uncited"} and i.get("sentence") in mended)})


def _plain(answer: str) -> str:
    """An answer as said, bare: "No." is "no", "The Dark Tower" is "dark tower"."""
    words = re.sub(r"[^\w\s]", " ", answer.lower()).split()
    return " ".join(words[1:] if words[:1] == ["the"] and len(words) > 1 else words)


def _same_answer(a: str, b: str) -> bool:
    """One answer in two wordings: equal ignoring case and punctuation, or one's words all in the other's."""
    wa, wb = terms(a), terms(b)
    x, y = wa.words | wa.numbers, wb.words | wb.numbers
    return bool(x and y) and (x <= y or y <= x)


def reader_model(settings: Settings) -> Any:
    """The cross-encoder the extractive reader scores spans with (``reader`` setting), or None: by words."""
    if settings.reader != "cross-encoder":
        return None
    from kmrag.nlp.rerank import get_cross_encoder

    return get_cross_encoder()


def _feedback(v: Validated) -> str:
    """What failed, sentence by sentence, for the one regeneration: the model is told which statement the
    support check refused and why, not only that something was wrong."""
    parts = []
    for kind, say in (("invented_id", "it cited IDs that do not exist"),
                      ("out_of_context_id", "it cited units that were not given"),
                      ("uncited", "some sentences had no [u_…] citation")):
        ids = sorted({str(i["id"]) for i in v.issues if i["issue"] == kind and i.get("id")})
        if v.count(kind):
            parts.append(say + (f" ({', '.join(ids[:3])})" if ids else ""))
    for i in v.issues:
        if i["issue"] == "recited" and i.get("cited"):
            cited = ", ".join(f"[{u}]" for u in i["cited"])
            parts.append(f'the statement "{i.get("text", "")}" is not supported by {cited} ({i["why"]}); '
                         f"it is stated in [{i['id']}]: cite the unit that states it")
        elif i["issue"] == "dropped":
            parts.append(f'the statement "{i.get("text", "")}" is not supported by any unit ({i["why"]}): '
                         "say only what a unit states")
    return "; ".join(parts)


def _refused(direct: str | None, p: float, threshold: float, why: str) -> str:
    """Why an answer read but not shown was refused, naming what was read: "the best answer read, "1953", is below
    the threshold (0.42 < 0.50): <why>" (the statements are shown as evidence; the candidate is said here)."""
    read = f'the best answer read, "{direct}",' if direct else "what was read"
    limit = f"{threshold:.2f}" if round(threshold, 2) == threshold else f"{threshold:g}"  # 0.999, not "1.00"
    return f"{read} is below the threshold ({p:.2f} < {limit}): {why}"
