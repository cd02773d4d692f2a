"""Comparisons over a spreadsheet's rows (kmrag.answer.tables.compare): rows named by a title cell when the key is a
date, a film shown on several dates counted once, rows of one thing that disagree deciding nothing, and the
column a comparing word measures when the question names none ("runs longer": running_time_mins)."""

from __future__ import annotations

import pytest

from kmrag.answer import tables
from kmrag.answer.spans import Span, unit_spans
from tests.unit.test_answer_validation import unit

pytestmark = pytest.mark.unit

SCREENINGS = """| date | start_time | title | price_band | running_time_mins | ticket_price |
|---|---|---|---|---|---|
| 2025-02-11 | 11:00 | The Salt Road | CIN | 104 | £8.50 |
| 2025-02-12 | 18:00 | The Salt Road | CIN | 104 | £8.50 |
| 2025-02-18 | 11:00 | Winter in Kerrow | CIN | 118 | £8.50 |
| 2025-02-20 | 14:00 | Winter in Kerrow | CIN | 118 | £5.00 |
| 2025-02-21 | 19:30 | Harbour Lights | CIN | 97 | £7.00 |"""


def spans(text: str = SCREENINGS) -> list[Span]:
    return unit_spans(unit("u_" + "1" * 16, text, type_="table", title="programme"), 0)


@pytest.mark.parametrize("question, winner", [
    ("Which film runs longer, The Salt Road or Winter in Kerrow?", "Winter in Kerrow"),
    ("Which is shorter, The Salt Road or Winter in Kerrow?", "The Salt Road"),
    ("Which is the longer film: Harbour Lights or The Salt Road?", "The Salt Road"),
])
def test_rows_named_by_their_titles_are_compared_on_the_column_the_word_measures(question: str, winner: str) -> None:
    got = tables.compare(question, spans(), False)
    assert got is not None and got[1] == winner
    assert got[2]["rule"].endswith("running_time_mins")  # not start_time, a clock time, not a length
    assert {e["name"] for e in got[2]["entities"]} == {winner, *({"The Salt Road", "Winter in Kerrow",
                                                                 "Harbour Lights"} - {winner})} & {
        e["name"] for e in got[2]["entities"]}
    assert len(got[2]["entities"]) == 2  # a film shown on two dates is one entity


def test_a_yes_no_over_the_measured_column() -> None:
    got = tables.compare("Is The Salt Road longer than Winter in Kerrow?", spans(), True)
    assert got is not None and got[1] == "no"


def test_rows_of_one_thing_that_disagree_decide_nothing() -> None:
    """Winter in Kerrow costs £8.50 on one date and £5.00 on another: which is cheaper is not read."""
    assert tables.compare("Which is cheaper, Winter in Kerrow or Harbour Lights?", spans(), False) is None
    got = tables.compare("Which is cheaper, The Salt Road or Harbour Lights?", spans(), False)
    assert got is not None and got[1] == "Harbour Lights" and got[2]["rule"] == "smallest ticket_price"


def test_no_column_guessed_when_the_word_measures_two_or_none() -> None:
    two = SCREENINGS.replace("ticket_price", "running_length")
    assert tables.compare("Which film runs longer, The Salt Road or Winter in Kerrow?", spans(two), False) is None
    assert tables.compare("Which film is better, The Salt Road or Winter in Kerrow?", spans(), False) is None


HOURS = """| Area | Monday | Tuesday–Saturday | Sunday |
|---|---|---|---|
| Building and foyer | 09:30 until close of last event | 09:30 until close of last event | 11:00–17:00 |
| Café (food and hot drinks) | 09:30–17:00 | 09:30–17:00 | 11:00–16:00 |
| Weir Gallery (free entry) | Closed | 10:00–17:00 | 12:00–16:00 |
| Box office counter | 10:00–18:00 | 10:00–18:00 | Closed |"""


@pytest.mark.parametrize("question, value", [
    ("Which day of the week is the gallery closed?", "Monday"),  # the row named by a word of its key
    ("what day is the box office counter closed", "Sunday"),
    ("When is the gallery closed?", "Monday"),  # a habit, each week
    ("On which day is the gallery closed?", "Monday"),
    ("When was the gallery closed?", None),  # an event, past
    ("Which day is the café closed?", None),  # its row says no "closed"
    ("Which day of the week is it closed?", None),  # no row named: two rows say "Closed"
    ("What time does the gallery open on Sunday?", None),  # not a day asked
])
def test_the_day_a_said_cell_stands_under(question: str, value: str | None) -> None:
    from kmrag.answer.rows import header_of_said_cell
    got = header_of_said_cell(question, spans(HOURS))
    assert (got and got[2]) == value
    if value:
        assert got is not None and got[1] == "Closed" and got[0].quote.startswith("| " + ("Weir" if value ==
                                                                                          "Monday" else "Box"))


def test_the_reader_answers_the_day_from_the_header() -> None:
    from kmrag.nlp.extract import SpacyExtractor
    from tests.unit.test_extractive_answers import answer
    direct, quotes, _ = answer(SpacyExtractor(), "Which day of the week is the gallery closed?",
                               [(HOURS, "table", "Opening hours", "")])
    assert direct == "Monday" and quotes == ["| Weir Gallery (free entry) | Closed | 10:00–17:00 | 12:00–16:00 |"]


CLASSES = """| Class | Day | Tutor | Term fee |
|---|---|---|---|
| Ballet for Over-55s | Thursday | Fiona Leckie | £70 |
| Ukulele Group | Friday | Dot Maynard | £60 |
| Life Drawing | Tuesday | Ines Carr | £9 per session |"""


@pytest.mark.parametrize("question, winner", [
    ("which costs less for the term, ballet for over 55s or the ukulele group", "Ukulele Group"),  # "Over-55s"
    ("Which costs more, the Ukulele Group or Ballet for Over-55s?", "Ballet for Over-55s"),
])
def test_the_rows_named_are_compared_whatever_another_row_s_unit(question: str, winner: str) -> None:
    """"£9 per session" in a row not asked about made the Term fee column one of two units: nothing was compared."""
    got = tables.compare(question, spans(CLASSES), False)
    assert got is not None and got[1] == winner and got[2]["rule"].endswith("Term fee")


def test_a_superlative_over_a_column_of_two_units_is_still_refused() -> None:
    assert tables.compare("Which class has the lowest term fee?", spans(CLASSES), False) is None


TERMS = """| Term | First lessons | Last lessons | No lessons (half term) | Number of lessons |
|---|---|---|---|---|
| Spring 2025 | Monday 6 January | Saturday 5 April | 17–23 February | 12 |
| Summer 2025 | Monday 28 April | Saturday 19 July | 26 May – 1 June | 11 |"""


@pytest.mark.parametrize("question, value", [
    ("When do kids' swimming lessons start again for the summer term?", "Monday 28 April"),  # was the half term
    ("When does the summer term of swimming lessons finish?", "Saturday 19 July"),
])
def test_a_term_s_start_and_end_are_its_first_and_last_columns(question: str, value: str) -> None:
    """"start again" was answered "26 May – 1 June" at 0.95 on a held-out corpus: the column of no lessons was
    named by its one word "lessons"."""
    from kmrag.nlp.extract import SpacyExtractor
    from tests.unit.test_extractive_answers import answer
    assert answer(SpacyExtractor(), question, [(TERMS, "table", "Term dates", "")])[0] == value


def test_a_column_of_what_does_not_happen_needs_a_negated_question() -> None:
    from kmrag.nlp.extract import SpacyExtractor
    from tests.unit.test_extractive_answers import answer
    got = answer(SpacyExtractor(), "When are the swimming lessons in the summer term?",
                 [(TERMS, "table", "Term dates", "")])[0]
    assert got != "26 May – 1 June"
