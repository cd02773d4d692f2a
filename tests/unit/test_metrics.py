import math

import pytest

from kmrag.eval.metrics import (
    all_recall_at_k,
    answer_in_context,
    citation_unit_precision,
    citation_validity,
    coverage_accuracy,
    evidence_precision_recall,
    exact_match,
    expected_calibration_error,
    is_correct,
    mean,
    normalize_answer,
    passage_evidence,
    percentile,
    quote_matches,
    recall_at_k,
    reliability,
    resolve_gold,
    sentence_evidence,
    supported_share,
    token_f1,
    wrong_at,
)

pytestmark = pytest.mark.unit


def test_squad_normalisation():
    assert normalize_answer("The  Eiffel-Tower!") == "eiffeltower"
    assert normalize_answer("An apple, a pear and THE fig.") == "apple pear and fig"
    assert normalize_answer("theatre") == "theatre"  # 'the' only as a word


def test_chinese_is_scored_by_character_and_english_is_unchanged():
    assert normalize_answer("杭州市（浙江）") == "杭 州 市 浙 江"  # its own punctuation goes too
    assert exact_match("42.3％", ["42.3%"]) == 1.0  # a full-width sign is the sign
    assert exact_match("42.3%", ["42.3%"]) == 1.0 and exact_match("无锡", ["无锡市"]) == 0.0
    assert token_f1("浙江省杭州市", ["杭州市"]) == pytest.approx(2 * (3 / 6) * 1.0 / (3 / 6 + 1.0))
    assert answer_in_context(["单跳检索的准确率为42.3%。"], ["42.3%"]) == 1.0
    assert answer_in_context(["单跳检索的准确率为42.3%。"], ["78.5%"]) == 0.0
    assert normalize_answer("The  Eiffel-Tower!") == "eiffeltower"


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
    assert citation_unit_precision(["u1", "u2"], ["u2"]) == 0.5
    assert citation_unit_precision([], ["u2"]) is None


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


# -- citations against the gold evidence ------------------------------------------------------------------

GOLD = ["She was born in Warsaw in 1867.", "Warsaw is the capital of Poland."]


def test_a_quote_matches_a_gold_sentence_equal_inside_or_containing_it():
    assert quote_matches("Warsaw is the capital of Poland", GOLD[1])  # equal once normalised (final stop)
    assert quote_matches("the CAPITAL of Poland!", GOLD[1])  # inside it
    assert quote_matches("Marie Curie was a physicist. She was born in Warsaw in 1867.", GOLD[0])  # holds it
    assert not quote_matches("Lyon is a city in France.", GOLD[1])
    assert not quote_matches("Warsaw is the capital of Mazovia.", GOLD[1])
    assert not quote_matches("", GOLD[0]) and not quote_matches("The.", GOLD[0])  # normalises to nothing
    assert not quote_matches("Warsaw", "")


def test_sentence_evidence_precision_and_recall_by_hand():
    quotes = ["Warsaw is the capital of Poland.", "Lyon is a city in France.",
              "She was born in Warsaw in 1867. Warsaw is the capital of Poland."]
    matches = sentence_evidence(quotes, GOLD)
    assert matches == [{1}, set(), {0, 1}]
    assert evidence_precision_recall(matches, 2) == (pytest.approx(2 / 3), 1.0)  # 2 of 3 quotes gold; both cited
    # a third gold fact the data cannot name stays in the denominator
    assert evidence_precision_recall(matches, 3) == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    only_one = sentence_evidence(["Warsaw is the capital of Poland.", "Warsaw is the capital of Poland."], GOLD)
    assert evidence_precision_recall(only_one, 2) == (1.0, 0.5)  # citing one fact twice recalls it once


def test_a_not_found_answer_has_no_precision_and_zero_recall():
    assert evidence_precision_recall([], 2) == (None, 0.0)
    assert evidence_precision_recall([{0}], 0) == (1.0, None)  # no gold evidence: recall undefined
    assert evidence_precision_recall([], 0) == (None, None)


def test_passage_evidence_for_musique():
    matches = passage_evidence(["p1", "p2", "p1"], ["p1", "p3"])
    assert matches == [{0}, set(), {0}]
    assert evidence_precision_recall(matches, 2) == (pytest.approx(2 / 3), 0.5)


class _Recorded:
    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str], list[str]]] = []

    def __call__(self, statement, spans, titles):
        from kmrag.answer.judge import Verdict

        self.calls.append((statement, list(spans), list(titles)))
        return Verdict(supported=bool(spans), score=1.0 if spans else 0.0)


def test_supported_share_judges_each_statement_on_the_quotes_of_its_own_units():
    judge = _Recorded()
    statements = [("A.", ["u1"]), ("B.", ["u2", "u3"]), ("C.", ["u9"])]
    citations = [("u1", "q1"), ("u2", "q2"), ("u3", "q3"), ("u1", "q1b")]
    share = supported_share(statements, citations, {"u1": "T1", "u2": "T2"}, judge=judge)
    assert share == pytest.approx(2 / 3)  # C cites a unit with no quote: nothing supports it
    assert judge.calls == [("A.", ["q1", "q1b"], ["T1", "T1"]), ("B.", ["q2", "q3"], ["T2", ""]),
                           ("C.", [], [])]
    assert supported_share([], citations, judge=judge) is None  # not found: no statement to judge


def test_supported_share_with_the_real_checker():
    citations = [("u1", "Warsaw is the capital and largest city of Poland."),
                 ("u2", "Lyon is a city in France known for its cuisine.")]
    statements = [("Warsaw is the capital and largest city of Poland.", ["u1"]),  # verbatim
                  ("Warsaw has 1867 bridges.", ["u1"]),  # a number its quote does not hold
                  ("Lyon is a city in France known for its cuisine.", ["u2"])]
    assert supported_share(statements, citations) == pytest.approx(2 / 3)


# -- calibration -----------------------------------------------------------------------------------------


def test_correct_is_exact_match_or_f1_of_at_least_a_half():
    assert is_correct(1.0, 1.0) and is_correct(0.0, 0.5) and is_correct(1.0, 0.0)
    assert not is_correct(0.0, 0.49) and not is_correct(None, None)
    # a wrong number is a wrong answer, whatever the words around it
    assert not is_correct(0.0, 0.5, "600 EUR", ["400 EUR"]) and is_correct(0.0, 0.8, "about 5,900 km", ["5,900 km"])
    # a name swapped for another is a wrong answer, though the two share half their words
    assert not is_correct(0.0, 0.5, "Tufts University", ["Duke University"])
    assert not is_correct(0.0, 0.5, "Loughborough College", ["Loughborough University"])
    # a part of the gold answer, or the gold answer with more words, is right at F1 >= 0.5
    assert is_correct(0.0, 0.8, "69.7 million", ["69.7 million litres"])
    assert is_correct(0.0, 0.67, "Chobham", ["Chobham, Surrey"]) and is_correct(0.0, 0.8, "Martin O'Malley's", ["Martin O'Malley"])


def test_a_perfectly_calibrated_input_scores_ece_zero():
    points = [(0.2, i < 1) for i in range(5)] + [(0.8, i < 8) for i in range(10)] + [(None, False)] * 3
    assert expected_calibration_error(points) == pytest.approx(0.0, abs=1e-12)


def test_always_certain_and_half_wrong_scores_ece_one_half():
    points = [(1.0, True), (1.0, False)] * 5
    assert expected_calibration_error(points) == pytest.approx(0.5)
    assert wrong_at(points, 0.9) == (5, 0.5)
    assert coverage_accuracy(points, 0.9) == (1.0, 0.5)


def test_calibration_by_hand():
    points = [(0.95, True), (0.95, False), (0.6, True), (0.3, False), (None, False)]
    # answered: 4. bin 9: 2 answers, conf .95, acc .5 -> 2/4 * .45; bin 6: 1/4 * .4; bin 3: 1/4 * .3
    assert expected_calibration_error(points) == pytest.approx(0.225 + 0.1 + 0.075)
    assert wrong_at(points, 0.9) == (1, 0.25)  # of the answered questions
    assert coverage_accuracy(points, 0.5) == (pytest.approx(3 / 5), pytest.approx(2 / 3))  # of all questions
    assert coverage_accuracy(points, 0.7) == (pytest.approx(2 / 5), 0.5)
    assert coverage_accuracy(points, 0.99) == (0.0, None)
    table = reliability(points)
    assert [b.count for b in table] == [0, 0, 0, 1, 0, 0, 1, 0, 0, 2]
    assert (table[9].lo, table[9].hi, table[9].confidence, table[9].accuracy) == (0.9, 1.0, pytest.approx(0.95), 0.5)
    assert table[0].confidence is None and table[0].accuracy is None


def test_bins_are_exact_at_their_edges():
    table = reliability([(0.0, False), (0.1, False), (0.7, True), (0.9, True), (1.0, True)])
    assert [i for i, b in enumerate(table) for _ in range(b.count)] == [0, 1, 7, 9, 9]


def test_nothing_answered():
    points = [(None, False), (None, False)]
    assert expected_calibration_error(points) is None
    assert wrong_at(points) == (0, None)
    assert coverage_accuracy(points, 0.5) == (0.0, None)
    assert coverage_accuracy([], 0.5) == (None, None)
