"""Pure parts of the multihop strategy: whether a text names a sub-question's anchor, and the order of the units
titled by the question's names."""

from __future__ import annotations

import pytest

from kmrag.retrieval.multihop import _flatten, names_anchor

pytestmark = pytest.mark.unit


def test_a_text_names_an_anchor_by_the_whole_phrase_or_most_of_its_capitalised_words() -> None:
    assert names_anchor("Sergio Villanueva (born 1988 in Guadalajara) is a footballer.", "Sergio Villanueva")
    assert names_anchor("his voice role as J.A.R.V.I.S. in Avengers: Age of Ultron", "Jarvis in the Avengers Age of Ultron")
    assert not names_anchor("Sergio Furlan is an Italian sailor.", "Sergio Villanueva")  # one of two words: no
    assert not names_anchor("Portugal spearheaded European exploration.", "Sergio Villanueva")
    # no capital: more than half of its content words
    assert names_anchor("the census county division of the bureau", "census county division")
    assert names_anchor("the census county of the bureau", "census county division")
    assert not names_anchor("a county of the state", "census county division")
    assert not names_anchor("anything", "the") and not names_anchor("anything", "  ")
    # every number must be there; the phrase on word boundaries; a capitalised stop word is no evidence
    assert not names_anchor("the 2004 Summer Olympics in Athens", "1996 Summer Olympics")
    assert not names_anchor("Apollo 11 landed on the Moon.", "Apollo 13")
    assert not names_anchor("Annapolis is the capital of Maryland.", "Ann")
    assert not names_anchor("the man who came to dinner", "The Who Live")
    # the same name written another way is the same name
    assert names_anchor("Conan O\u2019Brien hosted the show.", "Conan O'Brien")
    assert names_anchor("Jean-Paul Sartre wrote Nausea.", "Jean Paul Sartre")
    assert names_anchor("Hecht's screenplay won.", "Ben Hecht") is False  # one of two words
    assert names_anchor("Ben Hecht's screenplay won.", "Ben Hecht")
    assert names_anchor("Ph\u0075\u0301 L\u01b0\u01a1ng is a mountain.", "Ph\u00fa L\u01b0\u01a1ng")  # decomposed "ú"


def test_titled_units_follow_the_question_ranking_and_the_names_take_turns() -> None:
    each = {"Portugal": [("p1", "s1"), ("p2", "s1"), ("p3", "s1")], "Sergio": [("v1", "s2")]}
    # without the turns, a long document about the first name would fill the top three
    assert _flatten(each, ["Portugal", "Sergio"], ["p3", "v1", "p1"]) == ["p3", "v1", "p1", "p2"]
    # units the ranking does not hold keep their document order, after the ranked ones
    assert _flatten(each, ["Portugal"], []) == ["p1", "p2", "p3"]
    assert _flatten(each, ["Nobody", "Sergio"], ["v1"]) == ["v1"]
    assert _flatten({"A": [("x", "s")], "B": [("x", "s"), ("y", "s")]}, ["A", "B"], []) == ["x", "y"]


def test_without_the_relation_word_the_first_units_candidate_resolves_the_sub_question() -> None:
    from types import SimpleNamespace

    from kmrag.retrieval.multihop import _nearest_to_relation

    madonna = SimpleNamespace(id="e1", name="Madonna")
    hoff = SimpleNamespace(id="e2", name="David Hasselhoff")
    texts = ["Sings America is an album released in 2004 by the singer David Hasselhoff.",
             "Madonna is a singer."]
    # neither text says "performer": the anchor's own unit (first) decides, not the earliest position in any unit
    assert _nearest_to_relation([madonna, hoff], {"e1", "e2"}, texts, "performer") is hoff
    assert _nearest_to_relation([madonna], {"e1"}, texts, "performer") is madonna
    assert _nearest_to_relation([madonna, hoff], set(), texts, "performer") is None  # none of the kind asked for


def test_an_agent_nouns_sub_question_is_resolved_by_whoever_does_its_verb() -> None:
    from types import SimpleNamespace

    from kmrag.retrieval.multihop import _nearest_to_relation

    ada = SimpleNamespace(id="e1", name="Ada Lind")
    lute = SimpleNamespace(id="e2", name="Lute")  # a recogniser's PERSON, nearer the verb than the doer
    both = [ada, lute]
    # "composer": the one who composed, before the verb or after "by", however near another name is
    assert _nearest_to_relation(both, {"e1", "e2"}, ["Ada Lind composed a lute concerto in 1720."], "composer") is ada
    assert _nearest_to_relation(both, {"e1", "e2"}, ["The concerto for lute was composed by Ada Lind."],
                                "composer") is ada
    # the noun itself is read by nearness ("the lute's composer" names no doer): the nearest name stands
    assert _nearest_to_relation(both, {"e1", "e2"}, ["Ada Lind wrote for the lute, whose composer Lute was."],
                                "composer") is lute
    # a relation that names no doer ("capital") is read by nearness as before
    assert _nearest_to_relation(both, {"e1", "e2"}, ["Ada Lind made Lute its capital."], "capital") is lute


@pytest.mark.parametrize(("name", "text", "titles"), [
    ("Rochester Hills", "an American artist from Rochester Hills, Michigan.",
     ["Rochester Hills, Michigan.", "Rochester Hills, Michigan"]),
    ("Hilo", "a house in Hilo, Hawaii, United States", ["Hilo, Hawaii"]),  # up to the second comma
    ("Elizabeth Hay", "Elizabeth Hay, Countess of Erroll (1801–1856)", ["Elizabeth Hay, Countess",
                                                                       "Elizabeth Hay, Countess of Erroll"]),
    ("Washington", "born in Washington, D.C. in 1950", ["Washington, D.C.", "Washington, D.C"]),
    ("rochester hills", "from Rochester Hills, Michigan", ["Rochester Hills, Michigan"]),  # as the text writes it
    ("Delta", "Delta Hardware is an album", []),
    ("Portland", "born in South Portland, Maine", []),  # the end of a longer name is another place
    ("Kona", "in Kailua-Kona, Hawaii", []),
    ("Paris", "From Paris, Texas, he moved", ["Paris, Texas"]),  # a capitalised stop word lengthens no name
    ("Hilo", "Hilo, Hawaii's county seat", ["Hilo, Hawaii"]),  # without the possessive
    ("Madison", "Madison, Wisconsin. The city grew", ["Madison, Wisconsin.", "Madison, Wisconsin"]),
    ("Lund", "Lund, Östergötland is a town", ["Lund, Östergötland"]),  # capitals of other Latin letters
    ("Aleksandrów", "in Aleksandrów, Łódź Voivodeship", ["Aleksandrów, Łódź", "Aleksandrów, Łódź Voivodeship"]),
    ("Paris", "Paris, and later Rome", []),
    ("Paris", "Paris, the capital", []),
    ("Aris", "Paris, Texas", []),
    ("", "Paris, Texas", []),
])
def test_qualified_titles_are_the_ones_the_text_writes(name: str, text: str, titles: list[str]) -> None:
    from kmrag.retrieval.multihop import qualified_titles
    assert qualified_titles(name, [text]) == titles


class _NoSections:
    def get_units(self, tenant: str, ids: list[str], include_retired: bool = False) -> list[object]:
        return []  # no heading units: the fused order stands as it is


def _finished(final_k: int) -> list[str]:
    """multihop's last fusion of a round's lists: 'top' is first in two lists, 'middling' twelfth in three."""
    from kmrag.retrieval.analysis import QuestionAnalysis
    from kmrag.retrieval.multihop import MultiHopRetriever, _State

    r = MultiHopRetriever.__new__(MultiHopRetriever)
    r.units, r.w_ppr, r.final_k = _NoSections(), 0.0, final_k  # type: ignore[assignment]
    filler = [f"f{i}" for i in range(11)]
    st = _State(question="q", analysis=QuestionAnalysis(question="q", kind="factoid", answer_type="ENTITY"))
    st.add(["top", *filler[:3]], 1.0)
    st.add(["top", *filler[3:6]], 1.0)
    for _ in range(3):
        st.add([*filler, "middling"], 1.0)
    return [u for u, _ in r._finish("t", st, 20)]


def test_the_last_fusion_lets_a_unit_first_in_some_lists_outrank_one_middling_in_many() -> None:
    from kmrag.retrieval.multihop import FINAL_RRF_K

    got = _finished(FINAL_RRF_K)
    assert got.index("top") < got.index("middling")
    at_60 = _finished(60)  # the usual constant: the many middling ranks win
    assert at_60.index("middling") < at_60.index("top")


def test_candidates_are_ranked_unit_by_unit_nearest_the_relation_first_then_by_kind_in_order() -> None:
    from types import SimpleNamespace

    from kmrag.retrieval.multihop import _nearest_to_relation, ranked_by_relation

    ada, bo, cy, dee = (SimpleNamespace(id=f"e{i}", name=n) for i, n in enumerate(["Ada Lind", "Bo Sten", "Cy Moor",
                                                                                    "Dee Vale"]))
    texts = ["The album was recorded by Bo Sten in a studio owned by Ada Lind.",
             "Cy Moor recorded it again in 1990; Ada Lind produced it.",
             "Dee Vale sang on it."]
    every, kinds = [ada, bo, cy, dee], {"e0", "e1", "e2", "e3"}
    # the first unit's names nearest the relation's word, then the second unit's, then the rest of the kind asked
    assert ranked_by_relation(every, kinds, texts, "recording") == [bo, ada, cy, dee]
    assert _nearest_to_relation(every, kinds, texts, "recording") is bo  # the first of the ranking
    # a name of another kind is ranked only where the relation is said, behind one of the kind within reach
    assert ranked_by_relation(every, {"e0", "e3"}, texts, "recording") == [ada, bo, cy, dee]
    # no unit says the relation: those of the kind asked, in the units' order; none of it: nothing
    assert ranked_by_relation(every, {"e3", "e2"}, texts, "spouse") == [cy, dee]
    assert ranked_by_relation(every, set(), texts, "spouse") == []


def test_each_candidate_is_ranked_once_where_it_first_stands() -> None:
    from types import SimpleNamespace

    from kmrag.retrieval.multihop import _first_of_each

    john, helen = SimpleNamespace(id="e1", name="John Miller"), SimpleNamespace(id="e2", name="Helen Brandt")
    # a tie read names John Miller, and the relation's ranking names him again: the runner-up is Helen Brandt
    assert _first_of_each([john, john, helen, john]) == [john, helen]
