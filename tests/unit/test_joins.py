"""A value read through a key one table's row gives and another table defines (kmrag.answer.joins): a show's price
band in the season programme, then that band's price in the ticket page's table; and a date asked for a day is
never a month or a year alone (kmrag.answer.asked.day_asked / names_a_day)."""

from __future__ import annotations

import pytest

from kmrag.answer.asked import day_asked, names_a_day
from kmrag.answer.joins import joined
from kmrag.answer.spans import unit_spans
from kmrag.nlp.extract import SpacyExtractor
from tests.unit.test_answer_validation import unit
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit

PROGRAMME = """| date | title | venue | price_band | running_time_mins |
|---|---|---|---|---|
| 2025-02-06 | The Lighthouse Keeper's Daughter | Main House | B | 135 |
| 2025-02-28 | Northern Strings Quartet | Main House | C | 95 |
| 2025-03-15 | An Evening with Corinne Blake | Main House | A | 110 |
| 2025-03-20 | Feathers & Fury (Ransome Dance Company) | Main House | B | 85 |
| 2025-03-22 | Glass Menagerie Reading | The Loft | D | 70 |
| 2025-03-29 | Glass Menagerie Reading | The Loft | C | 70 |"""
BANDS = """| Band | Full price | Concession | Under 18 |
|---|---|---|---|
| A | £28.00 | £25.00 | £14.00 |
| B | £22.00 | £19.00 | £11.00 |
| C | £16.00 | £13.00 | £8.00 |
| D | £11.00 | £9.00 | £6.00 |"""
ROOMS = """| Room | Capacity | Hourly rate |
|---|---|---|
| A | 40 | £25.00 |
| B | 12 | £15.00 |"""
CINEMA = """| Ticket | Price |
|---|---|
| Standard | £8.50 |
| Concession | £7.00 |"""


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    return SpacyExtractor()


def both(*more: tuple[str, str, str, str]) -> list[tuple[str, str, str, str]]:
    return [(PROGRAMME, "table", "programme-spring-2025", ""), (BANDS, "table", "Live events", ""), *more]


@pytest.mark.parametrize("question, value", [
    ("How much is a full-price ticket for An Evening with Corinne Blake?", "£28.00"),
    ("What is the concession price for Feathers & Fury?", "£19.00"),  # its title's bracket left out
    ("How much is an under 18 ticket for Northern Strings Quartet?", "£8.00"),
])
def test_the_band_a_row_gives_is_read_in_the_table_that_defines_it(x: SpacyExtractor, question: str,
                                                                     value: str) -> None:
    direct, quotes, _ = answer(x, question, both())
    assert direct == value
    assert len(quotes) == 2  # the programme's row and the band's row, both cited
    got = basis(x, question, both())
    assert got["kind"] == "cell" and "price_band" in str(got["rule"])


def test_a_column_named_beats_a_table_whose_row_the_question_only_seems_to_name(x: SpacyExtractor) -> None:
    """The cinema table's Concession row names "concession" too, but nothing of Feathers & Fury."""
    assert answer(x, "What is the concession price for Feathers & Fury?",
                  both((CINEMA, "table", "Cinema", "")))[0] == "£19.00"


def spans_of(*tables: str) -> list:  # type: ignore[type-arg]
    out = []
    for i, t in enumerate(tables):
        u = unit(f"u_{i:016x}", t, type_="table", title=f"table {i}")
        out += unit_spans(u, i)
    return out


@pytest.mark.parametrize("question", [
    "How much is a ticket for An Evening with Corinne Blake?",  # three prices, none named
    "How much is a full-price ticket for the Glass Menagerie Reading?",  # two rows, bands D and C: two prices
    "How much is a full-price ticket for Hamlet?",  # no row named
    "Who runs An Evening with Corinne Blake?",  # not a value
])
def test_no_join_when_the_column_the_row_or_the_value_is_in_doubt(question: str) -> None:
    from kmrag.retrieval.multihop import VALUE_OF
    kind = "PERSON" if question.startswith("Who") else "MONEY"
    assert joined(question, kind, spans_of(PROGRAMME, BANDS), VALUE_OF.get(kind)) is None


def test_a_key_is_joined_only_to_a_table_whose_key_header_shares_a_word() -> None:
    """Room A is keyed "A" too, but "Room" says nothing of a price band; the same show's two rows, one band."""
    from kmrag.retrieval.multihop import VALUE_OF
    got = joined("What is the hourly rate for The Lighthouse Keeper's Daughter?", "MONEY",
                 spans_of(PROGRAMME, ROOMS), VALUE_OF["MONEY"])
    assert got is None
    chain, value, how = joined("full price for The Lighthouse Keeper's Daughter", "MONEY",
                               spans_of(PROGRAMME, ROOMS, BANDS), VALUE_OF["MONEY"]) or (None, None, None)
    assert value == "£22.00" and "Band is B" in str(how) and chain is not None and len(chain) == 2


@pytest.mark.parametrize("question, asked", [
    ("On what date is the workshop?", True), ("The workshop runs on what date?", True),
    ("What is the date of birth of X?", True), ("what day is the AGM", True),
    ("When is the workshop?", False), ("Which day of the week is the gallery closed?", False),
    ("In what year did it open?", False),
])
def test_a_day_asked(question: str, asked: bool) -> None:
    assert day_asked(question) is asked


@pytest.mark.parametrize("value, day", [
    ("17 May", True), ("May 17th", True), ("Sunday 15 June", True), ("2025-05-17", True), ("17/05/2025", True),
    ("September 6, 1895", True), ("the 3rd of March", True),
    ("May", False), ("May 2025", False), ("1926", False), ("spring 2025", False), ("1098273", False),
])
def test_a_date_that_names_a_day(value: str, day: bool) -> None:
    assert names_a_day(value) is day


def test_a_month_is_no_answer_when_a_day_is_asked(x: SpacyExtractor) -> None:
    minutes = ("Morag Whyte will run a sourdough baking demonstration at Harbourside in May as a trial of paid "
               "café workshops.", "paragraph", "Board minutes", "")
    assert answer(x, "The baking demonstration by Morag Whyte is on what date?", [minutes])[0] is None
    assert answer(x, "When is the baking demonstration by Morag Whyte?", [minutes])[0] == "May"
    newsletter = ("On Saturday 17 May, from 10:00 to 12:00, Morag Whyte will run our first ever baking "
                  "demonstration in the Harbourside café.", "paragraph", "Spring newsletter", "")
    got = answer(x, "The baking demonstration by Morag Whyte is on what date?", [minutes, newsletter])[0]
    assert got is not None and "17 May" in got


def test_a_registration_number_is_no_date(x: SpacyExtractor) -> None:
    """"1098273" (a charity's number, a DATE to the recogniser) was given at 0.68 for when the next meeting is."""
    minutes = [("MILLRACE ARTS CENTRE (Registered charity no. 1098273) MINUTES OF THE MEETING OF THE BOARD OF "
                "TRUSTEES Tuesday 21 January 2025, 18:30, Green Room", "paragraph", "minutes", ""),
               ("DATE OF NEXT MEETING Tuesday 18 March 2025, 18:30, Green Room.", "paragraph", "minutes", "")]
    got = answer(x, "When is the trustees' next meeting after the January 2025 one?", minutes)[0]
    assert got is not None and "18 March 2025" in got
    assert answer(x, "When is the trustees' next meeting after the January 2025 one?", minutes[:1])[0] is None
    assert answer(x, "When was the charity registered?", minutes)[0] != "1098273"


SEASON = """| date | start_time | title | venue | running_time_mins |
|---|---|---|---|---|
| 2025-03-15 | 20:00 | An Evening with Corinne Blake | Main House | 110 |
| 2025-02-07 | 19:30 | The Lighthouse Keeper's Daughter | Main House | 135 |
| 2025-02-08 | 14:30 | The Lighthouse Keeper's Daughter | Main House | 135 |"""


def test_the_time_a_show_ends_is_its_start_plus_its_running_time(x: SpacyExtractor) -> None:
    from kmrag.answer.joins import end_time
    got = end_time("what time does the corinne blake show finish", spans_of(SEASON))
    assert got is not None and got[1] == "21:50" and got[3] == {"clock": {"start": "20:00", "minutes": 110}}
    direct, quotes, _ = answer(x, "what time does the corinne blake show finish", [(SEASON, "table", "season", "")])
    assert direct == "21:50" and len(quotes) == 1 and "20:00" in quotes[0]
    # two performances ending at different times: no one end time
    assert end_time("When does The Lighthouse Keeper's Daughter finish?", spans_of(SEASON)) is None
    assert end_time("When does the corinne blake show start?", spans_of(SEASON)) is None  # not an end asked


def test_an_end_time_stands_only_when_recomputed_from_the_cited_row() -> None:
    from kmrag.answer.joins import clock_holds
    row = ["| 2025-03-15 | 20:00 | An Evening with Corinne Blake | Main House | 110 |"]
    assert clock_holds("21:50", {"start": "20:00", "minutes": 110}, row)
    assert not clock_holds("21:40", {"start": "20:00", "minutes": 110}, row)  # not the sum
    assert not clock_holds("22:00", {"start": "20:00", "minutes": 120}, row)  # 120 is no cell of the row
    assert not clock_holds("21:50", {"start": "20:00", "minutes": 110}, ["| 19:30 | Hamlet | 140 |"])
