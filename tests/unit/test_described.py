"""What the question describes is not what it asks: a direct answer that is the thing the question describes is
no answer (kmrag.answer.validate.drop_described: "the football club Calder Mills Athletic" names the club, not its
nickname)."""

from __future__ import annotations

import pytest

from kmrag.answer.validate import Validated, drop_described
from kmrag.retrieval.analysis import SubQuestion

pytestmark = pytest.mark.unit

Q = "What is the nickname of the football club based in Calder Mills?"
SUB = SubQuestion(phrase="the football club based in Calder Mills", question="What is the football club based in "
                  "Calder Mills?", resolves_to="ORG", relation="club", anchor="Calder Mills")
HOME = "Today it is known as the home of the football club Calder Mills Athletic."
NICKNAMED = 'Calder Mills Athletic is nicknamed "the Weavers".'


def _v(direct: str, quote: str, kind: str = "span") -> Validated:
    return Validated(direct=direct, basis={"kind": kind, "quote": quote})


def test_the_thing_described_is_no_answer_when_its_span_calls_it_by_the_described_noun() -> None:
    out = drop_described(_v("Calder Mills Athletic", HOME), Q, SUB, [Q])
    assert out.direct is None and out.issues[-1]["issue"] == "direct_dropped"
    assert "the football club based in Calder Mills" in out.issues[-1]["why"]
    # the nickname read from its own span stands
    assert drop_described(_v("the Weavers", NICKNAMED), Q, SUB, [Q]).direct == "the Weavers"


def test_the_thing_described_is_no_answer_when_retrieval_asked_the_question_of_it() -> None:
    asked = [Q, "What is the nickname of Calder Mills Athletic?"]
    assert drop_described(_v("Calder Mills Athletic", NICKNAMED), Q, SUB, asked).direct is None
    # another name retrieval did not put in the phrase's place stands
    assert drop_described(_v("the Weavers", NICKNAMED), Q, SUB, asked).direct == "the Weavers"


def test_no_sub_question_or_a_computed_answer_is_left_alone() -> None:
    assert drop_described(_v("Calder Mills Athletic", HOME), Q, None, [Q]).direct == "Calder Mills Athletic"
    assert drop_described(_v("Calder Mills Athletic", HOME, "comparison"), Q, SUB, [Q]).direct == \
        "Calder Mills Athletic"


def test_a_span_calling_the_answer_by_the_noun_about_something_else_keeps_it() -> None:
    q = "Who is the father of the director of film Lost in Translation?"
    sub = SubQuestion(phrase="the director of film Lost in Translation", question="Who is the director of film Lost "
                      "in Translation?", resolves_to="PERSON", relation="director", anchor="Lost in Translation")
    quote = "Sofia Coppola is the daughter of director Francis Ford Coppola."
    assert drop_described(_v("Francis Ford Coppola", quote), q, sub, [q]).direct == "Francis Ford Coppola"
    q2 = "What is the parent company of the company that makes Android?"
    sub2 = SubQuestion(phrase="the company that makes Android", question="What is the company that makes Android?",
                       resolves_to="ORG", relation="company", anchor="Android")
    assert drop_described(_v("Alphabet", "Google's parent company Alphabet was formed in 2015."), q2, sub2,
                          [q2]).direct == "Alphabet"


def test_a_phrase_the_question_does_not_hold_or_an_answer_of_a_path_or_cell_is_left_alone() -> None:
    odd = SUB.model_copy(update={"phrase": "the club of Calder Mills"})  # not in the question as typed
    assert drop_described(_v("Berlin", "Berlin is a city."), Q, odd, [Q]).direct == "Berlin"
    for kind in ("path", "cell"):
        assert drop_described(_v("Calder Mills Athletic", HOME, kind), Q, SUB, [Q]).direct == "Calder Mills Athletic"
