"""What a reviewer's probes of the two-table, end-time, spreadsheet and record-directory readers found, pinned: each
input below gave a confident wrong answer (or a crash) in the first version of those readers."""

from __future__ import annotations

import pytest

from kmrag.answer import tables
from kmrag.answer.asked import names_a_day
from kmrag.answer.contacts import contact_asked, directory
from kmrag.answer.joins import end_time, joined
from kmrag.answer.rows import header_of_said_cell
from kmrag.answer.spans import Span, unit_spans
from kmrag.ingestion.units import _split_table
from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.typed import spelled_out
from kmrag.retrieval.multihop import VALUE_OF
from tests.unit.test_answer_validation import unit
from tests.unit.test_extractive_answers import answer

pytestmark = pytest.mark.unit


def spans_of(*texts: str, source: str = "") -> list[Span]:
    out: list[Span] = []
    for i, t in enumerate(texts):
        out += unit_spans(unit(f"u_{i:016x}", t, type_="table", title=f"table {i}"), i)
    return out


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    return SpacyExtractor()


def test_a_row_s_own_column_is_read_before_any_join(x: SpacyExtractor) -> None:
    courses = "| Course | Level | Fee |\n|---|---|---|\n| Life Drawing Basics | L1 | £120 |"
    levels = "| Level | Description | Fee |\n|---|---|---|\n| L1 | Beginner | £90 |"
    assert joined("What is the fee for Life Drawing Basics?", "MONEY", spans_of(courses, levels), VALUE_OF["MONEY"]) is None
    assert answer(x, "What is the fee for Life Drawing Basics?", [(courses, "table", "Courses", ""),
                                                                   (levels, "table", "Levels", "")])[0] == "£120"
    staff = "| Name | Team | Joined |\n|---|---|---|\n| Anna Berg | Sales | 2021-04-01 |"
    teams = "| Team | Lead | Started |\n|---|---|---|\n| Sales | Priya Shah | 2015-01-01 |"
    assert joined("When did Anna Berg start?", "DATE", spans_of(staff, teams), VALUE_OF["DATE"]) is None  # "Sales": a word


def test_a_table_split_in_parts_is_not_joined_to_itself() -> None:
    head = "| code | department | parent_code | budget |\n|---|---|---|---|\n"
    parts = [head + "| MK | Marketing Team | HQ | £90,000 |", head + "| DM | Digital Marketing | MK | £25,000 |"]
    assert joined("What is the budget of Digital Marketing?", "MONEY", spans_of(*parts), VALUE_OF["MONEY"]) is None


def test_an_end_time_needs_a_running_time_in_minutes_and_a_show_that_ends() -> None:
    classes = ("| Class | Day | Start | Length (weeks) | Min age |\n|---|---|---|---|---|\n"
               "| Watercolour for Beginners | Tuesday | 18:30 | 10 | 16 |")
    assert end_time("What time does the Watercolour for Beginners class finish?", spans_of(classes)) is None
    show = "| date | start_time | title | running_time_mins |\n|---|---|---|---|\n| 2025-03-15 | 20:00 | An Evening with Corinne Blake | 110 |"
    assert end_time("When does booking end for the Corinne Blake show?", spans_of(show)) is None
    assert end_time("When does the early-bird discount for An Evening with Corinne Blake end?", spans_of(show)) is None
    minutes = "| Title | Start | Duration (minutes) |\n|---|---|---|\n| The Salt Road | 18:00 | 104 |"
    got = end_time("What time does The Salt Road finish?", spans_of(minutes))
    assert got is not None and got[1] == "19:44"


def test_a_comparing_word_measures_no_age_and_no_band() -> None:
    ages = ("| Class | Min age | Fee |\n|---|---|---|\n| Junior Pottery Club | 8 | £60 |\n"
            "| Teen Drama Workshop | 13 | £75 |")
    assert tables.compare("Which is longer, Junior Pottery Club or Teen Drama Workshop?", spans_of(ages), False) is None
    bands = ("| Title | price_band | Running time |\n|---|---|---|\n| An Evening with Corinne Blake | 1 | 110 |\n"
             "| Northern Strings Quartet | 3 | 95 |")
    assert tables.compare("Which is cheaper, An Evening with Corinne Blake or Northern Strings Quartet?",
                          spans_of(bands), False) is None


def test_a_non_member_price_is_a_kind_not_a_negation(x: SpacyExtractor) -> None:
    prices = "| Course | Member price | Non-member price |\n|---|---|---|\n| Life Drawing Basics | £90 | £120 |"
    assert answer(x, "What is the non-member price for Life Drawing Basics?",
                  [(prices, "table", "Prices", "")])[0] == "£120"


def test_the_parts_of_a_split_table_are_compared_together() -> None:
    rows = [f"| 2025-03-{i + 1:02d} | Show {name} Evening | {mins} |" for i, (name, mins) in
            enumerate([("Alpha", 75), ("Bravo", 81)] + [(f"Filler{j}", 60) for j in range(3)] + [("Kestrel", 116)])]
    head = "| date | title | running_time_mins |\n|---|---|---|\n"
    parts = [head + "\n".join(rows[:3]), head + "\n".join(rows[3:])]
    units = [unit(f"u_{i:016x}", p, type_="table", title="programme").model_copy(update={"source_id": "src/p.csv"})
             for i, p in enumerate(parts)]  # one source, one table, two parts
    got = tables.compare("Which runs longer, Show Bravo Evening or Show Kestrel Evening?",
                         [s for i, u in enumerate(units) for s in unit_spans(u, i)], False)
    assert got is not None and got[1] == "Show Kestrel Evening"


@pytest.mark.parametrize("question", [
    "Which day is the Riverside Gallery closed?",  # another gallery
    "Which day is the gallery not closed?",  # negated
    "When is the gallery shop closed?",  # another thing of the gallery
])
def test_the_day_a_cell_stands_under_is_read_only_for_the_row_named(question: str) -> None:
    hours = ("| Area | Monday | Tuesday–Saturday |\n|---|---|---|\n| Weir Gallery (free entry) | Closed | 10:00–17:00 |\n"
             "| Café | 09:30–17:00 | 09:30–17:00 |")
    assert header_of_said_cell(question, spans_of(hours)) is None


def test_an_extension_asked_is_a_telephone_s_and_a_record_is_keyed_by_its_own_name_and_role() -> None:
    assert contact_asked("Who do I ask for a deadline extension?") is None
    assert contact_asked("How do I get an extension on my coursework deadline?") is None
    record = "Name: Helen Okafor\nRole: Finance Manager\nCover: Felix Wendt\nExtension: 210"
    (entry,) = directory("extension", unit_spans(unit("u_" + "5" * 16, record), 0))
    assert entry.keys == ("Helen Okafor", "Finance Manager") and entry.value == "210"


def test_a_table_whose_header_is_most_of_the_bound_is_kept_whole() -> None:
    header = "| " + " | ".join(f"column_number_{i:03d}" for i in range(80)) + " |"
    table = "\n".join([header, "|" + "---|" * 80, *("| " + " | ".join(["x"] * 80) + " |" for _ in range(5))])
    assert _split_table(table) == [table]


@pytest.mark.parametrize("typed", ["who sang thank you", "which sitcom was set in a bar called cheers",
                                   "what is the welsh word for please", "how do I write a letter of thanks"])
def test_a_courtesy_word_that_is_what_is_asked_is_kept(typed: str) -> None:
    assert spelled_out(typed).rstrip("?") == typed


@pytest.mark.parametrize("value, day", [("Saturdays", True), ("Sept 3", True), ("Term 2", False),
                                        ("Week 3", False), ("Room 12", False), ("12 Noon", False)])
def test_a_day_is_a_weekday_or_a_month_s_day(value: str, day: bool) -> None:
    assert names_a_day(value) is day
