"""The answer's confidence: a logistic model over features read off the answer, fitted on one half of the
questions (by a hash of their id) and reported on the other; its reasons in words."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kmrag.answer import confidence as C
from kmrag.eval.calibrate import CalibrationRow, calibrate, is_correct, split_of, summary

pytestmark = pytest.mark.unit


def test_the_half_a_question_falls_in_is_stable_and_blind_to_its_answer() -> None:
    ids = [f"q{i}" for i in range(400)]
    halves = [split_of("2wiki", q) for q in ids]
    assert halves == [split_of("2wiki", q) for q in ids]
    assert 150 < halves.count("tune") < 250


def test_a_right_answer_matches_the_gold_and_its_numbers() -> None:
    assert is_correct("600 EUR", ["600 EUR"], True)
    assert not is_correct("250 EUR", ["600 EUR"], True)   # F1 0.5, but the number is wrong
    assert not is_correct("600 EUR", ["600 EUR"], False)  # not found is not a right answer
    assert is_correct("", [], False) and not is_correct("Bavaria", [], True)  # nothing to find: not found is right


def _rows(n: int, seed: int = 7) -> list[CalibrationRow]:
    """Synthetic answers: with a direct answer right 80% of the time, without 10%."""
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        direct = rnd.random() < 0.5
        ok = rnd.random() < (0.8 if direct else 0.1)
        feats = dict.fromkeys(C.FEATURES, 0.5) | {"direct": float(direct)}
        rows.append(CalibrationRow(dataset="toy", qid=str(i), question="q", answers=["a"], found=True, correct=ok,
                                   features=feats, split=split_of("toy", str(i))))
    return rows


def test_the_fit_learns_what_the_features_say_and_is_calibrated_on_the_held_out_half() -> None:
    result = calibrate(_rows(3000), threshold=0.5)
    w = result["weights"]
    assert w["direct"] > 1.5
    test = result["test"]["all"]
    assert test["ece"] < 0.05, test
    assert test["wrong_at_0_9"] == 0  # nothing here deserves 0.9
    # the prior, not fitted to these answers, is worse calibrated on the same half
    assert result["test_before"]["all"]["ece"] > test["ece"]


def test_summary_measures_what_is_shown_at_the_threshold() -> None:
    m = summary([0.95, 0.95, 0.2, 0.0], [True, False, False, False], [True, True, True, False], threshold=0.5)
    assert m["answered"] == 3 and m["wrong_at_0_9"] == 1 and m["coverage"] == 0.5 and m["accuracy_shown"] == 0.5


def test_the_reasons_are_worded_by_the_features_value() -> None:
    w = dict.fromkeys(("bias", *C.FEATURES), 0.0) | {"multi_hop": -2.0, "direct": 2.0}
    single = dict.fromkeys(C.FEATURES, 0.0) | {"direct": 1.0}
    why = C.explain(single, w)
    assert "raised by: a direct answer read from a cited span, a single-hop question" in why
    assert "several hops" in C.explain(single | {"multi_hop": 1.0}, w)
    assert 0.0 < C.probability(single, w) < 1.0
    # what only some answers are is said when present, never given as a reason when absent
    w2 = w | {"computed": 2.0, "path_stated": 2.0}
    assert "computation" not in C.explain(single, w2) and "path" not in C.explain(single, w2)
    assert "the answer computed from cited values" in C.explain(single | {"computed": 1.0}, w2)


def _noisy(n: int, seed: int) -> list[CalibrationRow]:
    """Few answers, many features of which one says something: a plain fit reads the noise as signal."""
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        direct = rnd.random() < 0.5
        ok = rnd.random() < (0.7 if direct else 0.2)
        feats = {k: rnd.random() for k in C.FEATURES} | {"direct": float(direct)}
        rows.append(CalibrationRow(dataset="toy", qid=str(i), question="q", answers=["a"], found=True, correct=ok,
                                   features=feats, split=split_of("toy", str(i))))
    return rows


def test_the_cross_fitted_confidence_is_no_surer_than_held_out_questions_bear_out() -> None:
    from kmrag.eval.calibrate import cross_fitted, report

    better = 0
    for seed in range(5):
        rows = _noisy(160, seed)
        tune = [r for r in rows if r.split == "tune"]
        test = [r for r in rows if r.split == "test"]
        plain = C.fit([(r.features, r.correct) for r in tune], l2=0.01)
        fitted, how = cross_fitted(tune, [1.0] * len(tune))
        assert how["l2"] in (0.3, 1.0, 3.0, 10.0) and len(how["platt"]) == 2
        better += report(test, fitted, 0.5)["all"]["ece"] < report(test, plain, 0.5)["all"]["ece"]
    assert better >= 4


def test_computed_answers_have_a_scale_of_their_own(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A computation resting on both sides' cited values (95% right here) and a value read from a span with the
    same features (60%): a model that cannot tell them apart speaks of both alike; the computed answers' own
    scale of its log-odds says how sure each is, and the features still decide (an unsupported computation
    stays low)."""
    import json

    from kmrag.eval.calibrate import fit_computed

    rnd = random.Random(3)
    rows = []
    for i in range(4000):
        computed, supported = rnd.random() < 0.4, rnd.random() < 0.7
        ok = rnd.random() < ((0.95 if supported else 0.3) if computed else (0.6 if supported else 0.43))
        feats = dict.fromkeys(C.FEATURES, 0.5) | {"direct": 1.0, "support_min": float(supported),
                                                  "computed": float(computed)}
        rows.append(CalibrationRow(dataset="toy", qid=str(i), question="q", answers=["a"], found=True, correct=ok,
                                   features=feats, split=split_of("toy", str(i))))
    blind = dict.fromkeys(("bias", *C.FEATURES), 0.0) | {"bias": -1.0, "direct": 0.7, "support_min": 0.7}  # p = 0.6
    got = fit_computed([r for r in rows if r.split == "tune"], blind)
    assert got is not None and got["fitted_on"]["questions"] > 400
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"weights": blind, "computed": got}))
    read = dict.fromkeys(C.FEATURES, 0.5) | {"direct": 1.0, "support_min": 1.0, "computed": 0.0}
    computed = read | {"computed": 1.0}
    scale = C.computed_scale(path)
    assert scale is not None and scale[0] > 0
    assert abs(C.probability(read, C.weights(path), scale) - 0.6) < 0.03
    assert abs(C.probability(computed, C.weights(path), scale) - 0.95) < 0.03
    unsupported = computed | {"support_min": 0.0}
    assert abs(C.probability(unsupported, C.weights(path), scale) - 0.3) < 0.08
    # the report of a fit uses the scale for computed answers only
    from kmrag.eval.calibrate import report

    result = calibrate(rows, threshold=0.5)
    unscaled = report([r for r in rows if r.split == "test"], result["weights"], 0.5)["all"]["ece"]
    assert result["computed"]["platt"] and result["test"]["all"]["ece"] < unscaled
    # an older calibration file has no scale: one model for both
    older = tmp_path / "older.json"
    older.write_text(json.dumps({"weights": blind}))
    assert C.computed_scale(older) is None
    # no computed answer: nothing to fit
    assert fit_computed([r for r in rows if not r.features["computed"]], blind) is None


def test_computed_answers_all_right_speak_of_a_smoothed_rate_not_certainty() -> None:
    """n computed answers all right: Platt's target (n + 1) / (n + 2), a shift of the log-odds only, so the
    features still order them; none wrong is no proof that none ever will be."""
    from kmrag.eval.calibrate import fit_computed

    w = dict.fromkeys(("bias", *C.FEATURES), 0.0) | {"bias": -1.0, "support_min": 2.0}
    rows = [CalibrationRow(dataset="toy", qid=str(i), question="q", answers=["a"], found=True, correct=True,
                           features=dict.fromkeys(C.FEATURES, 0.0) | {"computed": 1.0, "support_min": (i % 2) * 1.0},
                           split="tune") for i in range(30)]
    got = fit_computed(rows, w)
    assert got is not None and got["platt"][0] == 1.0 and got["fitted_on"]["targets"][0] == round(31 / 32, 4)
    scale = (got["platt"][0], got["platt"][1])
    ps = [C.probability(r.features, w, scale) for r in rows[:2]]
    assert ps[0] < ps[1] < 0.995  # the features still decide, and nothing is certain
    assert abs(sum(C.probability(r.features, w, scale) for r in rows) / 30 - 31 / 32) < 0.01
    # however large the logits, the shift lands on the target (it cannot run away to certainty)
    high = [r.model_copy(update={"features": r.features | {"support_min": 5.0}}) for r in rows]
    big = fit_computed(high, w)
    assert big is not None and abs(sum(C.probability(r.features, w, (1.0, big["platt"][1])) for r in high) / 30
                                   - 31 / 32) < 0.01
    # all wrong: pulled down the same way
    wrong = fit_computed([r.model_copy(update={"correct": False}) for r in rows], w)
    assert wrong is not None and C.probability(rows[1].features, w, (1.0, wrong["platt"][1])) < 0.1


def test_a_feature_added_since_the_fit_gets_its_weight_with_the_others_held() -> None:
    """`eval calibrate --extend F`: only F's weight moves, toward what the dev sets' tune rows having it say
    (right more often than the held weights say: up; wrong more often: down); all right, they speak of
    (n + 1) / (n + 2), not of certainty; the demo set's rows (the questions tests check) are not fitted on."""
    from kmrag.errors import BadInput
    from kmrag.eval.calibrate import check_feature, extend

    held = dict.fromkeys(("bias", *C.FEATURES), 0.0) | {"bias": -1.0, "support_min": 1.0, "path_stated": 0.0}
    base = {"weights": held, "fitted_on": {"questions": 1}}

    def rows(right_when_stated: float, dataset: str = "toy") -> list[CalibrationRow]:
        rnd, out = random.Random(5), []
        for i in range(2000):
            stated = i % 4 == 0
            ok = rnd.random() < (right_when_stated if stated else 0.5)
            feats = dict.fromkeys(C.FEATURES, 0.0) | {"path_stated": float(stated), "support_min": 1.0}
            out.append(CalibrationRow(dataset=dataset, qid=str(i), question="q", answers=["a"], found=True,
                                      correct=ok, features=feats, split=split_of("toy", str(i))))
        return out

    up = extend(rows(0.9), "path_stated", 0.5, base)
    assert up["weights"]["path_stated"] > 1.5 and {k: v for k, v in up["weights"].items() if k != "path_stated"} \
        == {k: v for k, v in held.items() if k != "path_stated"}
    assert up["test"]["all"]["ece"] < up["test_without"]["all"]["ece"]
    assert extend(rows(0.2), "path_stated", 0.5, base)["weights"]["path_stated"] < -1.0
    three = [r.model_copy(update={"correct": True}) for r in rows(0.9) if r.features["path_stated"]
             and r.split == "tune"][:3]
    w = extend(three, "path_stated", 0.5, base)["weights"]["path_stated"]
    assert abs(C.probability(three[0].features, held | {"path_stated": w}) - 0.8) < 0.01  # (3 + 1) / (3 + 2)
    with pytest.raises(BadInput, match="no answered tune row of the dev sets"):
        extend([r.model_copy(update={"dataset": "demo"}) for r in three], "path_stated", 0.5, base)
    with pytest.raises(BadInput, match="not a confidence feature"):
        check_feature("nonsense")
    with pytest.raises(BadInput, match="no answered tune row"):
        extend([r for r in rows(0.9) if not r.features["path_stated"]], "path_stated", 0.5, base)


def test_a_path_is_stated_when_two_hops_or_more_each_say_a_question_word() -> None:
    def basis(said: list[list[str]], hops: int = 2, meaning: float | None = 0.9, kind: str = "path") -> dict:
        return {"kind": kind, "said": said, "hops": [{}] * hops, "meaning": meaning}

    assert C._path_stated(basis([["locate"], ["capital"]])) == 0.9
    assert C._path_stated(basis([["locate"], ["capital"]], meaning=None)) == 0.5
    assert C._path_stated(basis([["locate"], []])) == 0.0  # a hop no question word says
    assert C._path_stated(basis([["museum"]], hops=1)) == 0.0  # one hop adds nothing to the text's reading
    assert C._path_stated(basis([["a"], ["b"]], kind="chain")) == 0.0


def test_hops_owned_is_the_weakest_hop_when_the_last_hop_is_read_from_the_bridge_s_own_unit() -> None:
    hops = [{"question": "Who directed X?", "answer": "Ann Lee", "meaning": 0.9},
            {"question": "When did Ann Lee die?", "answer": "1950", "meaning": 0.6}]
    assert C._hops_owned({"kind": "chain", "hops": hops, "owned": True}) == pytest.approx(0.6)
    assert C._hops_owned({"kind": "chain", "hops": hops, "owned": False}) == 0.0  # a span naming her in passing
    assert C._hops_owned({"kind": "path", "hops": hops, "owned": True}) == 0.0
    assert C._hops_owned({"kind": "chain", "hops": [{"meaning": None}], "owned": True}) == 0.5  # not read by one
    assert C._hops_owned({"kind": "span"}) == 0.0


def test_calibrate_takes_a_tenant_for_one_set_only(tmp_path: Path) -> None:
    from kmrag.errors import BadInput
    from kmrag.eval.calibrate import run_calibration

    with pytest.raises(BadInput, match="one --dataset"):
        run_calibration(object(), ["2wiki", "musique"], tmp_path, tenant="p1-2wiki")  # type: ignore[arg-type]


def test_a_value_s_span_states_the_relation_only_when_it_says_the_verb_asked_by() -> None:
    assert C._relation_stated({"relation_stated": True, "verb_said": True}, True) == 1.0
    assert C._relation_stated({"relation_stated": True, "verb_said": False}, True) == 0.0  # a tram line's cost
    assert C._relation_stated({"relation_stated": False}, True) == 0.0
    assert C._relation_stated({}, True) == 1.0  # a computed answer rests on its computation
    assert C._relation_stated({"relation_stated": True}, False) == 0.0  # no direct answer, nothing stated


def test_the_organisations_question_sets_read_as_calibration_items(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kmrag.errors import BadInput
    from kmrag.eval.calibrate import ORGS, org_sets

    sets = org_sets()
    assert len(sets) >= 9 and all(docs.is_dir() and any(docs.iterdir()) for _, docs, _ in sets)
    assert sum(len(q) for _, _, q in sets) >= 250
    for name, _, questions in sets:
        assert all(q.strip() for q, _ in questions), name
    brewery = dict(next(q for n, _, q in sets if n == "brewery"))
    assert brewery["Which is stronger, Sallow Lane Stout or Copperkettle Red?"] == [
        "Sallow Lane Stout (5.2% vs 5.0%)", "Sallow Lane Stout"]  # the gold, and without its bracketed note
    assert any(answers == [] for _, _, q in sets for _, answers in q)  # NOT_IN_DOCS: right when not found
    assert (ORGS / "README.md").is_file()
    bad = tmp_path / "x"
    (bad / "docs").mkdir(parents=True)
    (bad / "questions.tsv").write_text("question\tgold\tkind\twhere\n\tNo\tyesno\t\n", encoding="utf-8")
    with pytest.raises(BadInput, match=r"questions.tsv:2"):
        org_sets(tmp_path)
