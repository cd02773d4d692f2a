import math

import pytest

from kmrag.eval.metrics import (
    all_recall_at_k,
    answer_in_context,
    citation_precision,
    citation_validity,
    exact_match,
    mean,
    normalize_answer,
    percentile,
    recall_at_k,
    resolve_gold,
    token_f1,
)

pytestmark = pytest.mark.unit


def test_squad_normalisation():
    assert normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert normalize_answer("An apple, a pear and THE fig.") == "apple pear and fig"
    assert normalize_answer("theatre") == "theatre"  # 'the' only as a word


def test_exact_match_max_over_aliases():
    assert exact_match("the Big Apple", ["New York City", "Big Apple"]) == 1.0
    assert exact_match("New York", ["New York City"]) == 0.0
    assert exact_match("x", []) == 0.0


def test_token_f1_pinned_values():
    assert token_f1("New York", ["New York City"]) == pytest.approx(0.8)  # P=1, R=2/3
    assert token_f1("in New York City today", ["New York City"]) == pytest.approx(0.75)  # P=3/5, R=1
    assert token_f1("Paris", ["London", "paris"]) == 1.0
    assert token_f1("", ["Paris"]) == 0.0
    assert token_f1("the", ["a"]) == 1.0  # both normalise to empty
    assert token_f1("x x y", ["x y y"]) == pytest.approx(2 / 3)  # multiset overlap


def test_recall_at_k_with_duplicates_in_the_ranking():
    ranked = ["p1", "p1", "p2", "p3", "p4"]
    assert recall_at_k(ranked, ["p2", "p4"], 2) == 0.5  # deduplicated: p1, p2
    assert recall_at_k(ranked, ["p2", "p4"], 4) == 1.0
    assert recall_at_k(ranked, ["p9"], 5) == 0.0
    assert recall_at_k(ranked, [], 5) == 0.0
    assert recall_at_k(ranked, ["p2", "p2"], 2) == 1.0  # gold is a set


def test_all_recall():
    assert all_recall_at_k(["a", "b", "c"], ["a", "c"], 3) == 1.0
    assert all_recall_at_k(["a", "b", "c"], ["a", "c"], 2) == 0.0
    assert all_recall_at_k(["a"], [], 5) == 0.0


def test_answer_in_context_normalised_and_on_word_boundaries():
    ctx = ["It was built in Paris, France.", "Nothing here."]
    assert answer_in_context(ctx, ["paris"]) == 1.0
    assert answer_in_context(ctx, ["The Paris"]) == 1.0  # article dropped
    assert answer_in_context(["Parisian cafes"], ["Paris"]) == 0.0
    assert answer_in_context(ctx, ["Lyon", "France"]) == 1.0  # any alias
    assert answer_in_context(ctx, [""]) == 0.0


def test_citation_measures():
    assert citation_validity(["u1", "u2", "u9"], context_ids=["u1", "u2"], existing_ids=["u1", "u2", "u9"]) == \
        pytest.approx(2 / 3)
    assert citation_validity(["u1"], context_ids=["u1"], existing_ids=[]) == 0.0  # must exist
    assert citation_validity([], ["u1"], ["u1"]) is None
    assert citation_precision(["u1", "u2"], ["u2"]) == 0.5
    assert citation_precision([], ["u2"]) is None


def test_percentiles_and_mean():
    vals = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]
    assert percentile(vals, 50) == 50.0 and percentile(vals, 95) == 100.0 and percentile([7.0], 95) == 7.0
    assert math.isnan(percentile([], 50))
    assert mean([1.0, None, 3.0]) == 2.0 and mean([None]) is None


def test_unreachable_gold_stays_in_the_recall_denominator():
    key_to_id = {"k1": "f#p1", "k2": "f#p2"}  # "k3": an empty gold passage, left out of the corpus
    gold, unreachable = resolve_gold(["k1", "k2", "k3"], key_to_id)
    assert gold == ["f#p1", "f#p2", "unreachable:k3"] and unreachable == ["unreachable:k3"]
    ranked = ["f#p1", "f#p2", "f#p9"]
    assert recall_at_k(ranked, gold, 5) == pytest.approx(2 / 3)  # not 1.0: the empty passage is a miss
    assert all_recall_at_k(ranked, gold, 5) == 0.0
    gold, unreachable = resolve_gold(["k3"], key_to_id)
    assert recall_at_k(ranked, gold, 5) == 0.0 and unreachable == ["unreachable:k3"]


def test_gold_passages_never_stored_are_unreachable_but_keep_their_id():
    key_to_id = {"k1": "f#p1", "k2": "f#p2"}
    gold, unreachable = resolve_gold(["k1", "k2"], key_to_id, retrievable={"f#p1"})
    assert gold == ["f#p1", "f#p2"] and unreachable == ["f#p2"]
    assert resolve_gold(["k1", "k2"], key_to_id, retrievable={"f#p1", "f#p2"}) == (["f#p1", "f#p2"], [])


def test_resolve_gold_dedupes_and_keeps_order():
    gold, unreachable = resolve_gold(["k2", "k1", "k2", "kx", "kx"], {"k1": "a", "k2": "b"})
    assert gold == ["b", "a", "unreachable:kx"] and unreachable == ["unreachable:kx"]
    assert resolve_gold([], {"k1": "a"}) == ([], [])


def test_shown_citations_reads_the_answer_as_shown_apart_from_the_validator() -> None:
    from kmrag.eval.metrics import shown_citations

    a, b = "u_" + "a" * 16, "u_" + "b" * 16
    assert shown_citations(f"Paris is in France. [{a}] Rome is in Italy. [{a}] [{b}]") == ([a, a, b], False)
    assert shown_citations(f"Paris is in France. [{a}] Rome is in Italy.") == ([a], True)  # the last is uncited
    assert shown_citations(f"Paris is in France. Rome is in Italy. [{a}]") == ([a], True)  # two sentences, one marker
    # an ID however written counts (and then must be valid): nothing ID-like escapes the measure
    assert shown_citations(f"Paris (u_{'e' * 16}) is in France. [{a}]") == (["u_" + "e" * 16, a], False)
    assert shown_citations(f"Paris is in France. [U_{'A' * 16}]") == (["U_" + "A" * 16], True)
    assert shown_citations("Information not found in knowledge map") == ([], True)
    assert shown_citations("") == ([], False)
