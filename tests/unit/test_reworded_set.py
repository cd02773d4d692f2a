"""The hand-reworded question set: every row is a real dev question of its file, asked in a different frame
(not a case or punctuation change), spread over the three sets and over many forms; the loader names the file
and line of a malformed row."""

from __future__ import annotations

import json
import os
import re
import string
from collections import Counter
from pathlib import Path

import pytest

from kmrag.errors import BadInput
from kmrag.eval.reworded import DEFAULT_PATH, Reworded, for_dataset, load_reworded

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
FILES = {
    "2wiki": ("2wiki/2wiki_100.json", "_id"),
    "hotpotqa": ("hotpotqa/hotpotqa_dev_200.json", "_id"),
    "musique": ("musique/musique_dev_100.json", "id"),
}
MIN_ROWS = 150
MIN_PER_DATASET = 45
MAX_FORM_SHARE = 0.20


def shared_data() -> Path | None:
    """KMRAG_SHARED_DATA if set, else ../shared/data next to the repository (or shared/data inside it, as a
    device checkout has it); None when the files are not there."""
    env = os.environ.get("KMRAG_SHARED_DATA")
    for root in [Path(env)] if env else [REPO.parent / "shared" / "data", REPO / "shared" / "data"]:
        if all((root / rel).is_file() for rel, _ in FILES.values()):
            return root
    return None


def words(text: str) -> list[str]:
    """The lower-cased word sequence, punctuation dropped."""
    return re.sub(f"[{re.escape(string.punctuation)}]", " ", text.lower()).split()


@pytest.fixture(scope="module")
def rows() -> list[Reworded]:
    return load_reworded()


@pytest.fixture(scope="module")
def questions() -> dict[str, dict[str, str]]:
    root = shared_data()
    if root is None:
        pytest.skip("the shared QA data is absent: set KMRAG_SHARED_DATA to the folder holding 2wiki/, hotpotqa/ "
                    "and musique/ (default ../shared/data next to the repository)")
    out: dict[str, dict[str, str]] = {}
    for ds, (rel, key) in FILES.items():
        out[ds] = {q[key]: q["question"] for q in json.loads((root / rel).read_text(encoding="utf-8"))}
    return out


def test_the_default_path_is_the_file_in_the_repository() -> None:
    assert DEFAULT_PATH == REPO / "tests" / "data" / "reworded" / "questions.jsonl"
    assert DEFAULT_PATH.is_file()


def test_enough_rows(rows: list[Reworded]) -> None:
    assert len(rows) >= MIN_ROWS


def test_every_dataset_has_enough(rows: list[Reworded]) -> None:
    counts: Counter[str] = Counter(r.dataset for r in rows)
    assert all(counts[ds] >= MIN_PER_DATASET for ds in FILES), counts


def test_no_form_dominates(rows: list[Reworded]) -> None:
    counts = Counter(r.form for r in rows)
    over = {f: n for f, n in counts.items() if n > MAX_FORM_SHARE * len(rows)}
    assert not over, f"forms over {MAX_FORM_SHARE:.0%} of {len(rows)} rows: {over}"
    assert len(counts) >= 8


def test_qids_unique_per_dataset(rows: list[Reworded]) -> None:
    dup = [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    assert not dup


def test_originals_are_the_questions_of_the_files(rows: list[Reworded], questions: dict[str, dict[str, str]]) -> None:
    wrong = []
    for r in rows:
        asked = questions[r.dataset].get(r.qid)
        if asked != r.original:
            wrong.append((r.dataset, r.qid, r.original, asked))
    assert not wrong, wrong[:5]


def test_rewordings_differ_beyond_case_and_punctuation(rows: list[Reworded]) -> None:
    same = [(r.dataset, r.qid) for r in rows if words(r.reworded) == words(r.original)]
    assert not same


def test_rewordings_are_single_questions_or_requests(rows: list[Reworded]) -> None:
    for r in rows:
        assert r.reworded == r.reworded.strip() and r.reworded
        assert "\n" not in r.reworded
        assert r.reworded[-1] in "?.", r.reworded


def test_yes_no_questions_stay_yes_no(rows: list[Reworded]) -> None:
    """An original asked as a yes/no question (gold yes/no) is reworded as a yes/no question or a
    'whether/if' request, never as a which-question."""
    aux = re.compile(r"^(are|is|was|were|do|does|did)\b", re.IGNORECASE)
    for r in rows:
        if aux.match(r.original.strip()) and " or " not in r.original:
            assert aux.match(r.reworded) or re.search(r"\b(whether|if)\b", r.reworded), (r.qid, r.reworded)


def test_for_dataset_maps_qid_to_the_rewording(rows: list[Reworded]) -> None:
    for ds in FILES:
        mapping = for_dataset(rows, ds)
        assert len(mapping) == sum(r.dataset == ds for r in rows)
        assert all(mapping[r.qid] == r.reworded for r in rows if r.dataset == ds)
    assert for_dataset(rows, "nope") == {}


def good_line(qid: str = "q1") -> str:
    return json.dumps({"dataset": "musique", "qid": qid, "original": "Who is X?", "reworded": "Name X.",
                       "form": "name-the"})


@pytest.mark.parametrize("bad", [
    "{not json",
    json.dumps({"dataset": "musique", "qid": "q3", "original": "Who is X?"}),  # fields missing
    json.dumps({"dataset": "squad", "qid": "q3", "original": "a", "reworded": "b", "form": "c"}),
    json.dumps(["musique", "q3"]),
])
def test_a_malformed_line_is_reported_with_its_number(tmp_path: Path, bad: str) -> None:
    p = tmp_path / "questions.jsonl"
    p.write_text("\n".join([good_line("q1"), "", bad, good_line("q4")]) + "\n", encoding="utf-8")
    with pytest.raises(BadInput) as e:
        load_reworded(p)
    assert f"{p}:3:" in str(e.value)


def test_a_good_file_loads(tmp_path: Path) -> None:
    p = tmp_path / "questions.jsonl"
    p.write_text(good_line("q1") + "\n\n" + good_line("q2") + "\n", encoding="utf-8")
    assert [r.qid for r in load_reworded(p)] == ["q1", "q2"]


def test_a_missing_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="nothing.jsonl"):
        load_reworded(tmp_path / "nothing.jsonl")


BLIND = REPO / "tests" / "data" / "reworded" / "blind.jsonl"


def test_the_blind_set_is_well_formed(questions: dict[str, dict[str, str]]) -> None:
    """blind.jsonl: rewordings written by someone who had not seen the question-reading rules (see README)."""
    blind = load_reworded(BLIND)
    assert len(blind) >= 90 and {r.dataset for r in blind} == set(FILES)
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in blind).items() if n > 1]
    for r in blind:
        assert questions[r.dataset].get(r.qid) == r.original, (r.dataset, r.qid)
        assert words(r.reworded) != words(r.original) and r.reworded[-1] in "?.", r.reworded
    assert max(Counter(r.form for r in blind).values()) <= MAX_FORM_SHARE * len(blind)


OTHER_SETS = [REPO / "tests" / "data" / "reworded" / name for name in ("blind.jsonl", "tune.jsonl")]


@pytest.mark.parametrize("path", OTHER_SETS, ids=lambda p: p.name)
def test_the_blind_and_the_tuning_sets_are_real_questions_reworded(path: Path,
                                                                     questions: dict[str, dict[str, str]]) -> None:
    rows = load_reworded(path)
    assert len(rows) >= 100 and {r.dataset for r in rows} == set(FILES)
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    wrong = [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not wrong, wrong[:5]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert len(Counter(r.form for r in rows)) >= 15


@pytest.mark.parametrize("name, sets, forms, most", [
    # tune2.jsonl: reworded by a second writer blind to the rules (README)
    ("tune2.jsonl", {"2wiki": 70, "hotpotqa": 40}, 15, 11),
    # tune3.jsonl: forms unlike tune2's, by a writer who read neither the rules nor the held-out sets (README)
    ("tune3.jsonl", {"2wiki": 55, "hotpotqa": 25}, 30, 5),
    # tune4.jsonl: tune-half questions of all three sets, in forms unlike the three sets before it (README)
    ("tune4.jsonl", {"2wiki": 40, "hotpotqa": 25, "musique": 25}, 40, 4),
    # tune5.jsonl: tune-half questions, in forms none of the sets before it used (README)
    ("tune5.jsonl", {"2wiki": 30, "hotpotqa": 30, "musique": 30}, 70, 3),
    # tune6.jsonl: tune-half questions by a writer who saw nothing here but the questions (README)
    ("tune6.jsonl", {"2wiki": 40, "hotpotqa": 30}, 30, 6),
    # tune7.jsonl: tune-half questions of all three sets by a seventh writer blind to the rules (README)
    ("tune7.jsonl", {"2wiki": 35, "hotpotqa": 30, "musique": 25}, 80, 2),
    # tune8.jsonl: every tune-half 2Wiki question a writer could reword, and more HotpotQA ones (README)
    ("tune8.jsonl", {"2wiki": 42, "hotpotqa": 69, "musique": 39}, 60, 4),
])
def test_the_later_tuning_sets_are_real_questions_reworded(questions: dict[str, dict[str, str]], name: str,
                                                          sets: dict[str, int], forms: int, most: int) -> None:
    rows = load_reworded(REPO / "tests" / "data" / "reworded" / name)
    assert Counter(r.dataset for r in rows) == sets
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    # changed words, or (tune5's "caps-emphasis", "1979/80") case and punctuation alone
    assert not [r.qid for r in rows if r.reworded == r.original]
    assert name == "tune5.jsonl" or not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert len(Counter(r.form for r in rows)) >= forms and max(Counter(r.form for r in rows).values()) <= most


@pytest.mark.parametrize("name", ["tune4.jsonl", "tune5.jsonl", "tune6.jsonl", "tune7.jsonl", "tune8.jsonl"])
def test_the_fourth_to_seventh_tuning_sets_hold_tune_half_questions_only(name: str) -> None:
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / name)
    assert {split_of(r.dataset, r.qid) for r in rows} == {"tune"}


@pytest.mark.parametrize(("name", "forms", "most"), [("blind2.jsonl", 25, 8), ("blind3.jsonl", 30, 6),
                                                     ("blind4.jsonl", 45, 3), ("blind5.jsonl", 50, 3)])
def test_the_later_blind_sets_are_test_half_questions_reworded(questions: dict[str, dict[str, str]], name: str,
                                                               forms: int, most: int) -> None:
    """blind2.jsonl to blind5.jsonl: written on 2026-12-05 by writers who saw only the three dev files,
    from their test half, to measure the wording rules blind (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / name)
    assert Counter(r.dataset for r in rows) == {"2wiki": 40, "hotpotqa": 30, "musique": 30}
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {"test"}
    assert len(Counter(r.form for r in rows)) >= forms and max(Counter(r.form for r in rows).values()) <= most


@pytest.mark.parametrize(("name", "forms"), [("tune9.jsonl", 70), ("tune10.jsonl", 120), ("tune12.jsonl", 70)])
def test_the_ninth_and_tenth_tuning_sets_reword_every_tune_half_2wiki_question_twice(
        questions: dict[str, dict[str, str]], name: str, forms: int) -> None:
    """tune9.jsonl, tune10.jsonl, tune12.jsonl: two forms of each tune-half 2Wiki question, and HotpotQA and
    MuSiQue ones once (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / name)
    assert Counter(r.dataset for r in rows) == ({"2wiki": 84, "hotpotqa": 50, "musique": 40} if name == "tune12.jsonl"
                                                else {"2wiki": 84, "hotpotqa": 30, "musique": 20})
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows if r.dataset != "2wiki").items() if n > 1]
    twice = Counter(r.qid for r in rows if r.dataset == "2wiki")
    assert set(twice.values()) == {2} and len(twice) == 42
    assert not [k for k, n in Counter((r.dataset, r.qid, r.reworded) for r in rows).items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {"tune"}
    assert len(Counter(r.form for r in rows)) >= forms and max(Counter(r.form for r in rows).values()) <= 4


def test_the_eleventh_tuning_set_rewords_every_tune_half_2wiki_question_three_times(
        questions: dict[str, dict[str, str]]) -> None:
    """tune11.jsonl: three forms of each tune-half 2Wiki question (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / "tune11.jsonl")
    assert Counter(r.dataset for r in rows) == {"2wiki": 126}
    thrice = Counter(r.qid for r in rows)
    assert set(thrice.values()) == {3} and len(thrice) == 42
    assert not [k for k, n in Counter((r.qid, r.reworded) for r in rows).items() if n > 1]
    assert not [r.qid for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {"tune"}
    assert len(Counter(r.form for r in rows)) >= 90 and max(Counter(r.form for r in rows).values()) <= 3


@pytest.mark.parametrize("name, counts, forms, per_form", [
    ("tune13", {"2wiki": 84, "hotpotqa": 40, "musique": 30}, 80, 3),
    ("tune14", {"2wiki": 84, "hotpotqa": 47, "musique": 35}, 166, 1),
])
def test_the_thirteenth_and_fourteenth_tuning_sets_reword_tune_half_questions(
        questions: dict[str, dict[str, str]], name: str, counts: dict[str, int], forms: int, per_form: int) -> None:
    """tune13.jsonl, tune14.jsonl: two forms of each tune-half 2Wiki question, some HotpotQA and MuSiQue ones once
    (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / f"{name}.jsonl")
    assert Counter(r.dataset for r in rows) == counts
    twice = Counter(r.qid for r in rows if r.dataset == "2wiki")
    assert set(twice.values()) == {2} and len(twice) == 42
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows if r.dataset != "2wiki").items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {"tune"}
    assert len(Counter(r.form for r in rows)) >= forms and max(Counter(r.form for r in rows).values()) <= per_form


def test_the_fifteenth_tuning_set_rewords_every_tune_half_question_once(questions: dict[str, dict[str, str]]) -> None:
    """tune15.jsonl: every tune-half question of the three sets once (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / "tune15.jsonl")
    assert Counter(r.dataset for r in rows) == {"2wiki": 42, "hotpotqa": 95, "musique": 46}
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {"tune"}
    assert len(Counter(r.form for r in rows)) == len(rows)


@pytest.mark.parametrize(("name", "half", "forms", "most"), [("tune16.jsonl", "tune", 40, 12),
                                                             ("blind6.jsonl", "test", 100, 2)])
def test_the_sixteenth_tuning_set_and_the_sixth_blind_set(questions: dict[str, dict[str, str]], name: str, half: str,
                                                          forms: int, most: int) -> None:
    """tune16.jsonl (tune half, to be tuned on) and blind6.jsonl (test half, run, not read): 40 questions of each
    set, written on 2026-12-06 by two writers who saw only the three dev files (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / name)
    assert Counter(r.dataset for r in rows) == {"2wiki": 40, "hotpotqa": 40, "musique": 40}
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {half}
    assert len(Counter(r.form for r in rows)) >= forms and max(Counter(r.form for r in rows).values()) <= most


@pytest.mark.parametrize(("name", "forms", "most"), [("blind7.jsonl", 100, 4), ("blind8.jsonl", 85, 4),
                                                     ("blind9.jsonl", 65, 4)])
def test_the_seventh_and_eighth_blind_sets(questions: dict[str, dict[str, str]], name: str, forms: int,
                                           most: int) -> None:
    """blind7.jsonl (run twice, then read: a tuning set since), blind8.jsonl (read in the twenty-ninth round) and
    blind9.jsonl (run, not read): 40 test-half questions of each set, written on 2026-12-07 by writers who saw only
    a list of original questions (README)."""
    from kmrag.eval.calibrate import split_of

    rows = load_reworded(REPO / "tests" / "data" / "reworded" / name)
    assert Counter(r.dataset for r in rows) == {"2wiki": 40, "hotpotqa": 40, "musique": 40}
    assert not [k for k, n in Counter((r.dataset, r.qid) for r in rows).items() if n > 1]
    assert not [(r.dataset, r.qid) for r in rows if questions[r.dataset].get(r.qid) != r.original]
    assert not [r.qid for r in rows if words(r.reworded) == words(r.original)]
    assert {split_of(r.dataset, r.qid) for r in rows} == {"test"}
    assert len(Counter(r.form for r in rows)) >= forms and max(Counter(r.form for r in rows).values()) <= most
