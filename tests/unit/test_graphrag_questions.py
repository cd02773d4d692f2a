"""GraphRAG-Bench as an eval set (`kmrag eval --dataset novel`): its question format, its corpus beside the
question file, which questions are evaluated, the baselines that should score badly, the per-type summaries."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kmrag.errors import BadInput
from kmrag.eval.baselines import OtherQuestion, RandomUnits
from kmrag.eval.report import render_markdown
from kmrag.eval.runner import (
    EvalRun,
    QuestionResult,
    attach_records,
    load_set,
    select_questions,
    summarise_types,
)
from kmrag.ingestion.qa_corpora import (
    Passage,
    QAItem,
    corpus_passages,
    detect_format,
    graphrag_corpus,
    graphrag_corpus_path,
    load_questions,
    split_evidence,
)

pytestmark = pytest.mark.unit


def q(i: int, source: str = "Novel-1", qtype: str = "Fact Retrieval", **over: object) -> dict[str, object]:
    rec: dict[str, object] = {"id": f"Novel-{i}", "source": source, "question": f"Question {i}?", "answer": f"A{i}",
                              "question_type": qtype, "evidence": "Ilia was from Troy.; Ilia was a descendant of Laomedon.",
                              "evidence_triple": "(Ilia, was from, Troy)"}
    rec.update(over)
    return rec


def test_the_format_is_detected_by_its_fields():
    assert detect_format([q(1)]) == "graphrag-bench"
    assert detect_format([{k: v for k, v in q(1).items() if k != "evidence"}]) is None
    assert detect_format([{"corpus_name": "Novel-1", "context": "text"}]) is None


def test_a_question_becomes_an_item_with_its_evidence_sentences_type_and_record():
    (item,), problems = load_questions([q(1)], "graphrag-bench")
    assert problems == []
    assert item.gold_sentences == ["Ilia was from Troy.", "Ilia was a descendant of Laomedon."]
    assert (item.type, item.corpus_record, item.answers, item.gold_keys) == ("Fact Retrieval", "Novel-1", ["A1"], [])


@pytest.mark.parametrize(("evidence", "sentences"), [
    ("One sentence.", ["One sentence."]),
    ("First.; Second!; Third?", ["First.", "Second!", "Third?"]),
    ("A list; of things, in one sentence.", ["A list; of things, in one sentence."]),  # ';' inside a sentence
    ("", []),
])
def test_evidence_splits_only_between_sentences(evidence: str, sentences: list[str]):
    assert split_evidence(evidence) == sentences


def test_bad_records_are_reported_with_their_index_and_the_rest_kept():
    data = [q(0), "not an object", {k: v for k, v in q(2).items() if k != "source"}, q(3, answer=""), q(4)]
    items, problems = load_questions(data, "graphrag-bench")
    assert [it.id for it in items] == ["Novel-0", "Novel-4"]
    assert problems == ["record 1: expected an object, got str", "record 2: missing field(s) ['source']",
                        "record 3: field 'answer' must be a non-empty string"]


def test_a_question_file_is_not_a_corpus():
    passages, problems = corpus_passages([q(1)], "graphrag-bench")
    assert passages == [] and "its corpus is the file beside it" in problems[0]


def _corpus(folder: Path, rows: list[dict[str, object]], name: str = "novel") -> Path:
    path = folder / f"{name}.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def test_the_corpus_is_the_parquet_beside_the_questions(tmp_path: Path):
    corpus = _corpus(tmp_path, [{"corpus_name": "Novel-1", "context": "Ilia was from Troy."}])
    assert graphrag_corpus_path(tmp_path / "novel_questions.json") == corpus
    assert graphrag_corpus(corpus) == [Passage(title="Novel-1", text="Ilia was from Troy.")]
    (tmp_path / "medical.json").write_text(json.dumps({"corpus_name": "Medical", "context": "Text."}))
    assert graphrag_corpus(graphrag_corpus_path(tmp_path / "medical_questions.json"))[0].title == "Medical"
    with pytest.raises(BadInput, match=r"no corpus beside it \(looked for other.parquet and other.json\)"):
        graphrag_corpus_path(tmp_path / "other_questions.json")


def test_a_bad_corpus_record_names_its_index(tmp_path: Path):
    corpus = _corpus(tmp_path, [{"corpus_name": "Novel-1", "context": "x"}, {"corpus_name": "Novel-2", "context": " "}])
    with pytest.raises(BadInput, match=r"record 1: needs non-empty strings corpus_name and context"):
        graphrag_corpus(corpus)
    (tmp_path / "broken.parquet").write_bytes(b"not parquet")
    with pytest.raises(BadInput, match="broken.parquet: cannot read the corpus"):
        graphrag_corpus(tmp_path / "broken.parquet")


def test_load_set_gives_each_question_its_novel_as_gold_and_reports_unknown_novels(tmp_path: Path):
    _corpus(tmp_path, [{"corpus_name": "Novel-1", "context": "Ilia was from Troy."},
                       {"corpus_name": "Novel-2", "context": "Another novel."}])
    questions = tmp_path / "novel_questions.json"
    questions.write_text(json.dumps([q(1), q(2, source="Novel-2"), q(3, source="Novel-9")]))
    path, fmt, items, problems, passages = load_set(str(questions))
    assert (path, fmt, len(passages)) == (questions, "graphrag-bench", 2)
    assert [it.gold_keys for it in items] == [[passages[0].key], [passages[1].key]]
    assert problems == [f"question Novel-3: source 'Novel-9' is not a record of {tmp_path / 'novel.parquet'}"]


def test_attach_records_keeps_questions_of_known_records_only():
    items, _ = load_questions([q(1), q(2, source="Novel-2")], "graphrag-bench")
    kept, problems = attach_records(items, [Passage(title="Novel-2", text="t")], Path("c.parquet"))
    assert [it.id for it in kept] == ["Novel-2"] and len(problems) == 1


def test_only_fact_retrieval_and_complex_reasoning_are_evaluated_the_first_n_of_each():
    data = [q(1, qtype="Complex Reasoning"), q(2), q(3, qtype="Contextual Summarize"), q(4), q(5),
            q(6, qtype="Creative Generation"), q(7, qtype="Complex Reasoning")]
    items, _ = load_questions(data, "graphrag-bench")
    assert [it.id for it in select_questions(items, "graphrag-bench", None)] == \
        ["Novel-2", "Novel-4", "Novel-5", "Novel-1", "Novel-7"]
    assert [it.id for it in select_questions(items, "graphrag-bench", 1)] == ["Novel-2", "Novel-1"]
    assert [it.id for it in select_questions(items, "hotpotqa", 2)] == ["Novel-1", "Novel-2"]


def _item(i: int, record: str = "Novel-1") -> QAItem:
    return QAItem(id=f"q{i}", question=f"Q{i}?", answers=["a"], passages=[], gold_keys=[], corpus_record=record)


class _Units:
    def __init__(self, ids: dict[str, set[str]]) -> None:
        self.ids = ids

    def unit_ids(self, tenant: str, source_id: str | None = None) -> set[str]:
        return self.ids.get(source_id or "", set())


def test_the_random_baseline_draws_from_the_questions_own_record_the_same_every_run():
    units = _Units({"s1": {f"u{i}" for i in range(50)}, "s2": {"v1", "v2"}})
    base = RandomUnits(units, {"Novel-1": "s1", "Novel-2": "s2"})
    first = base.retrieve_item("t", _item(1), 5).unit_ids
    assert len(set(first)) == 5 and set(first) <= units.ids["s1"]
    assert RandomUnits(units, {"Novel-1": "s1"}).retrieve_item("t", _item(1), 5).unit_ids == first
    assert base.retrieve_item("t", _item(2), 5).unit_ids != first
    assert sorted(base.retrieve_item("t", _item(3, "Novel-2"), 5).unit_ids) == ["v1", "v2"]
    assert base.retrieve_item("t", _item(4, "Novel-7"), 5).unit_ids == []


class _Echo:
    def retrieve(self, tenant: str, question: str, k: int = 10) -> object:
        return question


def test_the_other_question_baseline_asks_the_next_question_of_the_same_record():
    items = [_item(1), _item(2, "Novel-2"), _item(3), _item(4), _item(5, "Novel-3")]
    base = OtherQuestion(_Echo(), items)
    assert [base.retrieve_item("t", items[i], 5) for i in (0, 2, 3)] == ["Q3?", "Q4?", "Q1?"]
    assert base.retrieve_item("t", items[1], 5).unit_ids == []  # Novel-2's only question borrows nothing
    assert base.retrieve_item("t", items[4], 5).unit_ids == []


def _row(qid: str, qtype: str, ev: float, f1: float | None = None) -> QuestionResult:
    return QuestionResult(strategy="dense", qid=qid, question="?", answers=["a"], gold=["s1"], ranked_passages=["s1"],
                          unit_ids=["u1"], recall={k: 1.0 for k in ("1", "2", "3", "5", "10")}, all_recall_5=1.0,
                          answer_in_context_5=0.0, latency_ms=1.0, rounds=1, question_type=qtype,
                          evidence_recall_5=ev, f1=f1, em=0.0 if f1 is not None else None,
                          generator="extractive" if f1 is not None else None)


def test_summaries_come_overall_then_per_type_and_the_report_shows_each_type():
    rows = [_row("1", "Fact Retrieval", 1.0), _row("2", "Fact Retrieval", 0.0), _row("3", "Complex Reasoning", 0.5)]
    overall, fact, complex_ = summarise_types("dense", rows)
    assert (overall.question_type, overall.questions, overall.evidence_recall_5) == (None, 3, 0.5)
    assert (fact.question_type, fact.questions, fact.evidence_recall_5) == ("Fact Retrieval", 2, 0.5)
    assert (complex_.question_type, complex_.evidence_recall_5) == ("Complex Reasoning", 0.5)
    run = EvalRun(run_id="r", dataset="novel", path="p", tenant="t", corpus_passages=1, questions=3,
                  summaries=[overall, fact, complex_])
    text = render_markdown([run])
    assert "| dense | Fact Retrieval | 2 | 50.0 | 100.0 | n/a | n/a |" in text
    assert "| dense | Complex Reasoning | 1 | 50.0 |" in text
    assert text.count("| dense |") == 3  # the overall row once in the main table, a row per type


def test_per_type_answer_scores_are_means_of_that_type():
    rows = [_row("1", "Fact Retrieval", 1.0, f1=1.0), _row("2", "Complex Reasoning", 0.0, f1=0.25)]
    _, fact, complex_ = summarise_types("dense+extractive", rows)
    assert (fact.f1, complex_.f1, fact.em) == (1.0, 0.25, 0.0)


def test_other_sets_have_no_types_and_no_evidence_recall():
    (item,), _ = load_questions([{"id": "m1", "question": "Q?", "answer": "A", "paragraphs": [
        {"title": "T", "paragraph_text": "A.", "is_supporting": True}]}], "musique")
    assert item.corpus_record is None and item.type is None
    rows = [_row("1", "x", 0.0).model_copy(update={"question_type": None, "evidence_recall_5": None})]
    assert [s.question_type for s in summarise_types("dense", rows)] == [None]
    assert summarise_types("dense", rows)[0].evidence_recall_5 is None
