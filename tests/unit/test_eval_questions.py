"""What the eval reads from a set beyond its passages: the gold supporting sentences of HotpotQA / 2Wiki,
and another wording of its questions (`kmrag eval --questions-file`)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from kmrag.errors import BadInput
from kmrag.eval.runner import reword
from kmrag.ingestion.qa_corpora import load_questions

pytestmark = pytest.mark.unit

HOTPOT = {"_id": "h1", "question": "In which country was Marie Curie born?", "answer": "Poland", "type": "bridge",
          "level": "hard", "supporting_facts": [["Marie Curie", 1], ["Warsaw", 0], ["Marie Curie", 1]],
          "context": [["Marie Curie", ["Marie Curie was a physicist.", " She was born in Warsaw in 1867."]],
                      ["Warsaw", ["Warsaw is the capital of Poland.", " It lies on the Vistula."]],
                      ["Lyon", ["Lyon is a city in France."]]]}


def test_hotpotqa_supporting_facts_become_gold_sentences():
    (item,), problems = load_questions([HOTPOT], "hotpotqa")
    assert problems == []
    assert item.gold_sentences == ["She was born in Warsaw in 1867.", "Warsaw is the capital of Poland."]
    assert item.missing_gold_sentences == 0 and len(item.gold_keys) == 2


def test_2wiki_facts_that_name_no_sentence_are_counted_not_dropped_silently():
    rec = {"_id": "w1", "type": "compositional", "question": "Who is the father of X?", "answer": "Y",
           "evidences": [["X", "father", "Y"]],
           "supporting_facts": [["X", 0], ["X", 5], ["Nobody", 0], ["Dup", 1]],
           "context": [["X", ["X is a film.", "Its father is Y."]], ["Dup", ["Only one sentence."]],
                       ["Dup", ["First.", "Second of the later Dup."]]]}
    (item,), _ = load_questions([rec], "2wiki")
    # X/5 is past the end, "Nobody" is no title; a title given twice is read where the sentence exists
    assert item.gold_sentences == ["X is a film.", "Second of the later Dup."]
    assert item.missing_gold_sentences == 2


def test_musique_has_gold_passages_and_no_gold_sentences():
    rec = {"id": "m1", "question": "Q?", "answer": "A", "paragraphs": [
        {"idx": 0, "title": "T", "paragraph_text": "A is here.", "is_supporting": True}]}
    (item,), _ = load_questions([rec], "musique")
    assert item.gold_sentences == [] and len(item.gold_keys) == 1


def _items():
    items, _ = load_questions([HOTPOT, {**HOTPOT, "_id": "h2", "question": "Where is Warsaw?"}], "hotpotqa")
    return items


def _write(tmp_path: Path, *lines: str) -> Path:
    f = tmp_path / "q.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f


def test_a_questions_file_rewords_by_qid_and_keeps_the_rest(tmp_path: Path):
    f = _write(tmp_path, json.dumps({"qid": "h2", "question": " Which country's capital is Warsaw? "}), "")
    items, n = reword(_items(), f)
    assert n == 1
    assert [it.question for it in items] == ["In which country was Marie Curie born?",
                                             "Which country's capital is Warsaw?"]
    assert items[1].gold_sentences == _items()[1].gold_sentences and items[1].answers == ["Poland"]


@pytest.mark.parametrize("lines, message", [
    ([json.dumps({"qid": "h1", "question": "ok?"}), json.dumps({"qid": "zz", "question": "x?"})],
     "q.jsonl:2: qid 'zz' is not a question of the set"),
    ([json.dumps({"qid": "h1", "question": "a?"}), json.dumps({"qid": "h1", "question": "b?"})],
     "q.jsonl:2: qid 'h1' again (first at line 1)"),
    (["{not json"], "q.jsonl:1: not a JSON object"),
    ([json.dumps({"qid": "h1"})], "q.jsonl:1: each line is"),
    ([json.dumps({"qid": "h1", "question": "  "})], "q.jsonl:1: each line is"),
    ([json.dumps(["h1", "q?"])], "q.jsonl:1: each line is"),
    ([""], "holds no questions"),
])
def test_a_bad_questions_file_names_the_line(tmp_path: Path, lines: list[str], message: str):
    with pytest.raises(BadInput, match=re.escape(message)):
        reword(_items(), _write(tmp_path, *lines))


def test_an_unreadable_questions_file_is_bad_input(tmp_path: Path):
    with pytest.raises(BadInput, match="missing.jsonl"):
        reword(_items(), tmp_path / "missing.jsonl")


def test_an_answers_context_is_the_generators_and_a_taken_paths_units() -> None:
    from kmrag.eval.runner import answer_context

    trace = [{"step": "retrieve", "unit_ids": ["u_r"]},
             {"step": "generate", "attempt": 1, "context": ["u_a", "u_b"]},
             {"step": "generate", "attempt": 2, "context": ["u_b", "u_c"]},
             {"step": "decide", "path": "1953", "context": ["u_p1", "u_a"]}]
    assert answer_context(trace) == ["u_a", "u_b", "u_c", "u_p1"]
    # a path whose answer was not taken adds nothing: the text's answer may cite only the generator's context
    trace[-1]["context"] = []
    assert answer_context(trace) == ["u_a", "u_b", "u_c"]
    assert answer_context([{"step": "retrieve", "unit_ids": ["u_r"]}]) == []


def test_the_inner_hops_answers_are_read_where_the_set_gives_them():
    mu = {"id": "m1", "question": "Where was the composer of Gloria born?", "answer": "Venice", "paragraphs": [],
          "question_decomposition": [{"question": "composer of Gloria", "answer": "Antonio Vivaldi"},
                                     {"question": "where was #1 born", "answer": "Venice"}]}
    (item,), _ = load_questions([mu], "musique")
    assert item.bridges == ["Antonio Vivaldi"]  # the last step's answer is the question's own
    wiki = {"_id": "w2", "type": "compositional", "question": "Where did X's father die?", "answer": "Versailles",
            "evidences": [["Marie Thérèse of France", "father", "Louis XIV of France"],
                          ["Louis XIV", "place of death", "Palace of Versailles"]],
            "supporting_facts": [], "context": []}
    comparison = {**wiki, "_id": "w3", "type": "comparison",
                  "evidences": [["A", "date of birth", "1901"], ["B", "date of birth", "1920"]]}
    (a, b), _ = load_questions([wiki, comparison], "2wiki")
    assert a.bridges == ["Louis XIV of France"]  # the object another triple starts from, however it is written
    assert b.bridges == []  # two facts side by side: no hop leads through either
    (h,), _ = load_questions([HOTPOT], "hotpotqa")
    assert h.bridges == []


def test_sub_questions_are_scored_against_the_inner_answers_and_can_fail():
    from kmrag.eval.metrics import sub_questions

    def trace(*resolved):
        return [{"step": "analyse"}, {"step": "retrieve", "round": 1},
                *({"step": "retrieve", "round": 2 + i, "actions": [{"bridges": ["Y"]}, {"sub_question": "q?",
                                                                                         "resolved": r}]}
                  for i, r in enumerate(resolved))]

    gold = ["Louis XIV of France"]
    assert sub_questions(trace("Louis XIV"), gold) == (1, 1, 1)
    assert sub_questions(trace("Marie Thérèse of France", None), gold) == (2, 1, 0)  # wrong, then unresolved
    assert sub_questions(trace(), gold) == (0, 0, 0)  # a strategy that decomposes nothing resolves nothing right
    assert sub_questions(trace("Lo"), ["Louis"]) == (1, 1, 0)  # two letters inside a name are no match
    assert sub_questions(trace("Louis XIV"), []) is None  # no gold inner answers: not measured


def test_a_runs_summary_sums_the_sub_questions_of_the_rows_that_have_them():
    from kmrag.eval.runner import _summed

    rows = [SimpleNamespace(sub_questions=[2, 1, 1]), SimpleNamespace(sub_questions=None),
            SimpleNamespace(sub_questions=[1, 1, 0])]
    assert _summed(rows) == [3, 2, 1]
    assert _summed([SimpleNamespace(sub_questions=None)]) is None
