"""Questions of several parts (kmrag.answer.parts): which are split and how, which are read whole, and how the
parts' answers make one answer (found only when every part is; confidence the product of the parts')."""

from __future__ import annotations

from typing import Any

import pytest

from kmrag.answer.parts import Part, combine, retrieved, split_parts
from kmrag.answer.validate import NOT_FOUND
from kmrag.retrieval.analysis import QuestionAnalyser
from kmrag.schema import Answer, Citation, Statement

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def split(extractor: Any) -> Any:
    analyser = QuestionAnalyser(extractor)
    return lambda q: [(p.question, p.of_part, p.pronoun) for p in split_parts(q, extractor.nlp, analyser.analyse)]


@pytest.mark.parametrize(("question", "parts"), [
    # two questions joined by "and": "it" is the first part's subject, or its object after "who"
    ("Who founded Lufthansa and when was it founded?", [("Who founded Lufthansa?", None, ""),
                                                        ("When was Lufthansa founded?", None, "")]),
    ("When was Lufthansa founded, and where is its hub?", [("When was Lufthansa founded?", None, ""),
                                                          ("Where is Lufthansa's hub?", None, "")]),
    # "he" for the one person the first part names
    ("Where was Mozart born and when did he die?", [("Where was Mozart born?", None, ""),
                                                    ("When did Mozart die?", None, "")]),
    # three parts
    ("Who founded Lufthansa and when was it founded and where is it based?",
     [("Who founded Lufthansa?", None, ""), ("When was Lufthansa founded?", None, ""),
      ("Where is Lufthansa based?", None, "")]),
    ("When was Lufthansa founded? Where is it based? Who founded it?",
     [("When was Lufthansa founded?", None, ""), ("Where is Lufthansa based?", None, ""),
      ("Who founded Lufthansa?", None, "")]),
    # a question about the thing it names: "it" / "he" is that thing
    ("What is RAG and how does it work?", [("What is RAG?", None, ""), ("How does RAG work?", None, "")]),
    ("Who was Mozart and when did he die?", [("Who was Mozart?", None, ""), ("When did Mozart die?", None, "")]),
    # "who is the CEO of X": a person asked for, whom "he" stands for
    ("Who is the CEO of Lufthansa and when was he born?", [("Who is the CEO of Lufthansa?", None, ""),
                                                           ("When was he born?", 0, "he")]),
    # two attributes of one thing
    ("What are the accuracy and the latency of single-hop retrieval?",
     [("What is the accuracy of single-hop retrieval?", None, ""), ("What is the latency of single-hop retrieval?", None, "")]),
    ("What is the price and the release date of the Orion X2?",
     [("What is the price of the Orion X2?", None, ""), ("What is the release date of the Orion X2?", None, "")]),
    # two questions with names of their own
    ("Where was Marie Curie born and what is the capital of Poland?",
     [("Where was Marie Curie born?", None, ""), ("What is the capital of Poland?", None, "")]),
    # a backslash is a character of a name, not an escape
    ("Who founded Air\\India and where is it based?", [("Who founded Air\\India?", None, ""),
                                                        ("Where is Air\\India based?", None, "")]),
    # two sentences
    ("Who founded Lufthansa? When was it founded?", [("Who founded Lufthansa?", None, ""),
                                                     ("When was Lufthansa founded?", None, "")]),
    # a pronoun standing for the first part's answer: asked once that answer is known
    ("What company acquired DeepMind and when was it founded?", [("What company acquired DeepMind?", None, ""),
                                                                 ("When was it founded?", 0, "it")]),
    ("Who directed Titanic and when was he born?", [("Who directed Titanic?", None, ""),
                                                    ("When was he born?", 0, "he")]),
    ("Which composer wrote The Magic Flute and when did he die?",
     [("Which composer wrote The Magic Flute?", None, ""), ("When did he die?", 0, "he")]),
    # "it" is never a year
    ("In what year was Lufthansa founded and who founded it?", [("In what year was Lufthansa founded?", None, ""),
                                                                ("Who founded Lufthansa?", None, "")]),
    ("In which year was Lufthansa founded and who founded it?", [("In which year was Lufthansa founded?", None, ""),
                                                                 ("Who founded Lufthansa?", None, "")]),
    # a name the tagger reads as an adjective is still the subject "it" stands for
    ("When was Trellisant founded and who founded it?", [("When was Trellisant founded?", None, ""),
                                                         ("Who founded Trellisant?", None, "")]),
    # two question words over one clause
    ("When and where was Mozart born?", [("When was Mozart born?", None, ""), ("Where was Mozart born?", None, "")]),
    # Chinese: two attributes of one thing, or one attribute of two things ("分别")
    ("单跳检索的准确率和平均耗时是多少？", [("单跳检索的准确率是多少？", None, ""), ("单跳检索的平均耗时是多少？", None, "")]),
    ("单跳检索的准确率和平均耗时分别是多少？", [("单跳检索的准确率是多少？", None, ""), ("单跳检索的平均耗时是多少？", None, "")]),
    ("单跳检索和迭代检索的准确率分别是多少？", [("单跳检索的准确率是多少？", None, ""), ("迭代检索的准确率是多少？", None, "")]),
    ("汉莎航空和印度航空的总部分别在哪里？", [("汉莎航空的总部在哪里？", None, ""), ("印度航空的总部在哪里？", None, "")]),
])
def test_a_question_of_two_parts_is_split_into_questions_of_their_own(split: Any, question: str,
                                                                      parts: list[Any]) -> None:
    assert split(question) == parts


@pytest.mark.parametrize("question", [
    "Who founded Lufthansa?",
    "What is the population of Trinidad and Tobago?",  # a name with "and"
    "Who wrote Kiss and Tell?",
    # a relative clause or a second verb of the same subject is one question
    "What is the name of the man who directed Titanic and who was born in Canada?",
    "What giant silverware company was started as a religious Utopian group and was for many years run by "
    "Pierrepont Noyes?",
    "Are Random House Tower and 888 7th Avenue both used for real estate?",
    "Which film came out first, Blind Shaft or The Mask Of Fu Manchu?",
    # the second part leans on the first: "this", an elliptical "which", "they" for a group, a subject with no name
    "How did the Church respond to the rebellion, and what impact did this response have?",
    "Which methods are common to ACC and pheochromocytoma, and which are unique to ACC?",
    "Which factors are considered prognostic in AML and how do they impact treatment decisions?",
    "How is performance status assessed in AML and why is it important?",
    # "its" for a person is no reading of "it"
    "What did Cousin Caesar do with Rob Roy's stone jug, and what was its contents at the time?",
    # a comparison of two things in Chinese without "分别", and a question of one attribute
    "知识图谱和向量检索的区别是什么？",
    "单跳检索的准确率是多少？",
    # a first part that is no question
    "The Magic Flute (2006 Film) — music by whom, and where did that composer die?",
    # a pronoun that could stand for two things: the answer or the thing named, two names, two pronouns
    "What is the default max_hops of the IterativeRetriever and what is its min_score?",
    "Where is Munich Airport located and what is the capital of it?",
    "What is the capital of France and what is its population?",
    "Who operates the Delhi to Munich flight and where is it based?",
    "Who married Pierre Curie and where did he meet her?",
    "What is Lufthansa's hub and when was it opened?",
    # "it" is no time of day
    "What time does the flight leave and when does it arrive?",
    # two question words and a third part
    "When and where was Lufthansa founded, and who is its chief executive?",
    # adjectives or a phrase of one thing, not two attributes; a name with "and"
    "What are the common genetic and biomarker features of rectal cancer?",
    "What are the key symptoms and physical manifestations of stomach cancer?",
    "What is the difference and the similarity of A and B?",
    # a value of two attributes together
    "单跳检索的准确率和平均耗时之差是多少？",
    "检索的召回率和精确率之比是多少？",
])
def test_a_question_of_one_part_is_read_whole(split: Any, question: str) -> None:
    assert split(question) == []


def test_a_pronoun_is_replaced_by_the_earlier_answer() -> None:
    assert Part("When was it founded?", of_part=0, pronoun="it").with_answer("Google") == "When was Google founded?"
    assert Part("What is its hub?", of_part=0, pronoun="its", possessive=True).with_answer("Lufthansa") == \
        "What is Lufthansa's hub?"
    # an answer is text, never a pattern: "C:\\data", "\\1"
    assert Part("Where is it?", of_part=0, pronoun="it").with_answer("C:\\data\\1") == "Where is C:\\data\\1?"


def _answer(question: str, direct: str | None, confidence: float, unit: str = "u_a") -> Answer:
    found = direct is not None
    st = [Statement(text=f"{question} {direct}.", unit_ids=[unit])]
    return Answer(id="a_x", tenant="t", question=question, text=f"{st[0].text} [{unit}]" if found else NOT_FOUND,
                  direct=direct, statements=st if found else [], evidence=[] if found else st,
                  citations=[Citation(unit_id=unit, source_id="s", quote=f"{question} {direct}.")],
                  confidence=confidence)


def test_the_parts_answers_make_one_answer_when_every_part_is_found_and_sure_enough() -> None:
    parts = ["When was X founded?", "Where is X based?"]
    whole = combine("When was X founded and where is it based?", parts,
                    [_answer(parts[0], "1953", 0.9, "u_a"), _answer(parts[1], "Cologne", 0.8, "u_b")], 0.5)
    assert whole["statements"] and whole["direct"] == "1953; Cologne"
    assert whole["confidence"] == 0.72  # both must be right
    assert [c.unit_id for c in whole["citations"]] == ["u_a", "u_b"]
    assert "[u_a]" in whole["text"] and "[u_b]" in whole["text"]
    assert [p["direct"] for p in whole["basis"]["parts"]] == ["1953", "Cologne"]
    assert "2 parts" in whole["confidence_why"] and "1953 (90%)" in whole["confidence_why"]


def test_a_part_not_found_or_a_whole_below_the_threshold_is_not_found_with_the_parts_as_evidence() -> None:
    parts = ["When was X founded?", "Where is X based?"]
    half = combine("q", parts, [_answer(parts[0], "1953", 0.9), _answer(parts[1], None, 0.3)], 0.5)
    assert half["text"] == NOT_FOUND and not half["statements"] and half["direct"] is None
    assert [s.text for s in half["evidence"]] == ["When was X founded? 1953.", "Where is X based? None."]
    assert half["confidence"] == 0.27 and "not found (30%)" in half["confidence_why"] and half["basis"] is None
    # every part found, but the whole is not sure enough: the answers are evidence, never an answer
    low = combine("q", parts, [_answer(parts[0], "1953", 0.7), _answer(parts[1], "Cologne", 0.6)], 0.5)
    assert low["text"] == NOT_FOUND and low["confidence"] == 0.42 and len(low["evidence"]) == 2
    assert "below the threshold" in low["confidence_why"]
    # the product is compared unrounded: 0.707 x 0.707 = 0.49985 is below 0.5
    edge = combine("q", parts, [_answer(parts[0], "1953", 0.707), _answer(parts[1], "Cologne", 0.707)], 0.5)
    assert edge["text"] == NOT_FOUND and edge["confidence"] == 0.5
    # the same cited row for both parts is shown once
    same = combine("q", parts, [_answer("r", "1", 0.9, "u_a"), _answer("r", "1", 0.9, "u_a")], 0.5)
    assert len(same["statements"]) == 1 and len(same["citations"]) == 1


def test_the_units_retrieved_are_each_parts_first_retrieval_in_turn() -> None:
    one = [{"step": "retrieve", "unit_ids": ["u_a", "u_b"], "rounds": 2}, {"step": "retrieve", "unit_ids": ["u_c"]}]
    assert retrieved(one) == (["u_a", "u_b"], 2)  # a retry's units are not the ranking
    parts = [{"step": "parts"}, {"step": "retrieve", "part": 1, "unit_ids": ["u_a", "u_b"], "rounds": 1},
             {"step": "retrieve", "part": 1, "unit_ids": ["u_x"], "rounds": 1},
             {"step": "retrieve", "part": 2, "unit_ids": ["u_b", "u_c"], "rounds": 2}, {"step": "done"}]
    assert retrieved(parts) == (["u_a", "u_b", "u_c"], 3)
    assert retrieved([]) == ([], 0)


@pytest.mark.parametrize(("question", "second"), [
    # a name inside another is one name ("Lumbrook" of "Lumbrook office")
    ("When was the Lumbrook office opened and what is its head count?", "What is Lumbrook office's head count?"),
    # a name the tagger calls a person in part ("Mini") is no person
    ("When was the Canopy Mini released and what is its price?", "What is Canopy Mini's price?"),
    # the people counted are no "it": the office named is
    ("How many people work in the Port Ashwyn office and who leads it?", "Who leads Port Ashwyn office?"),
])
def test_it_stands_for_the_one_thing_named(split: Any, question: str, second: str) -> None:
    assert [p[0] for p in split(question)][1] == second
