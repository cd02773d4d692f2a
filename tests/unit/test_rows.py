"""A table row named by what its cells say rather than by its key (kmrag.answer.rows): the port of the row whose
Component is Gatehouse and whose Protocol is HTTP writes; the Default of the option described "How long raw data
is kept before it is deleted"; the Date of the release whose Highlights say "First public release". A software
wiki's three such questions were answered "gatehouse.http_port", "60 seconds" and "2023", at 0.51–0.65."""

from __future__ import annotations

import pytest

from kmrag.answer.extractive import _cells_deny, _named_cells, _names_a_person, akin
from kmrag.answer.rows import row_named_by_cells
from kmrag.answer.spans import Span, unit_spans
from kmrag.nlp.extract import SpacyExtractor
from tests.unit.test_answer_validation import unit
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit

PORTS = ("| Port | Component | Protocol |\n|------|-----------|----------|\n| 8427 | Gatehouse | HTTP writes |\n"
         "| 8428 | Gatehouse | TCP line protocol |\n| 8430 | Switchyard | HTTP queries |")
OPTIONS = ("| Option | Default | Description |\n|--------|---------|-------------|\n"
           "| `scythe.retention` | `30d` | How long raw data is kept before it is deleted |\n"
           "| `switchyard.query_timeout` | `60s` | Queries running longer than this are cancelled |\n"
           "| `ledger.segment_size` | `64MB` | Size at which a Ledger segment is closed |")
RELEASES = ("| Version | Date | Highlights |\n|---|---|---|\n"
            "| 1.0.0 | 2021-06-08 | First public release; single-node only |\n"
            "| 2.0.0 | 2022-05-17 | Clustering via gossip; Switchyard query router introduced |")
WARDS = ("| Ward | Councillor | Leisure sites |\n|---|---|---|\n| Northgate | Priya Okafor | Northgate Pool & Fitness |\n"
         "| Millbrook | Tomasz Wierzbicki | Riverside Leisure Centre |")
SITES = ("| Site | Opened | Manager |\n|---|---|---|\n| Caverley Sports Hub | 2016 | Dana Pryce |\n"
         "| Riverside Leisure Centre | 1988 | Omar Haddad |")


def test_the_column_asked_of_the_row_its_cells_name(x: SpacyExtractor) -> None:
    assert answer(x, "what port does gatehouse listen on for http writes?", [(PORTS, "table", "Network ports", "")]
                  )[0] == "8427"
    assert basis(x, "what port does gatehouse listen on for http writes?", [(PORTS, "table", "Network ports", "")]
                 )["rule"] == "the Port of the row its cells name"
    options = [(OPTIONS, "table", "Tallyhouse configuration: common options", "")]
    assert answer(x, "How long does Tallyhouse keep raw data by default before it gets deleted?", options)[0] == "30d"
    assert answer(x, "If a query runs forever, after how long does Switchyard cancel it by default?", options
                  )[0] == "60s"
    assert answer(x, "When was the very first public release?", [(RELEASES, "table", "Releases", "")])[0] == \
        "2021-06-08"


def test_a_noun_asked_that_no_header_says_is_said_by_the_rows_cells(x: SpacyExtractor) -> None:
    # "the default size of a ledger segment": the Default of the option described "Size at which ...", while
    # "the opening hours of" a site is not its Opened year (no cell of its row says hours)
    assert answer(x, "What is the default size of a ledger segment?", [(OPTIONS, "table", "Common options", "")]
                  )[0] == "64MB"
    sites = ("| Site | Opened | Manager |\n|---|---|---|\n| St Aldric's Clinic | 2009 | Dana Pryce |\n"
             "| Harrowgate Hospital | 1923 | Omar Haddad |")
    assert row_named_by_cells("What are the opening hours of St Aldric's Clinic?", "ENTITY", rows_of(sites, "Sites"),
                              akin, noun="hours") is None


def test_a_row_named_no_better_than_another_answers_nothing() -> None:
    # "Gatehouse" names two rows as well as each other: which port is not said
    assert row_named_by_cells("What port does Gatehouse use?", "ENTITY", rows_of(PORTS, "Network ports"), akin,
                              noun="port") is None


def rows_of(table: str, title: str) -> list[Span]:
    return unit_spans(unit("u_" + "a" * 16, table, type_="table", title=title), 0)


def test_the_column_is_the_noun_asked_and_of_the_kind_asked(x: SpacyExtractor) -> None:
    # the question names the Ward column on the way; it asks the councillor
    assert row_named_by_cells("Which councillor represents the ward that Northgate Pool & Fitness is in?", "PERSON",
                              rows_of(WARDS, "Wards"), akin, noun="councillor", person_header=_names_a_person) is None
    # "when ... opened" says when; "who" asks a person, never the Opened cell's year
    assert row_named_by_cells("Who was the council's chief executive when Caverley Sports Hub opened?", "PERSON",
                              rows_of(SITES, "Sites"), akin, person_header=_names_a_person) is None
    assert answer(x, "Who was the council's chief executive when Caverley Sports Hub opened?",
                  [(SITES, "table", "Sites", "")])[0] != "2016"


def test_a_row_whose_cells_the_question_contradicts_is_not_read() -> None:
    """A reviewer's probes: "What port does Switchyard listen on for HTTP writes?" was Gatehouse's 8427 at 0.97."""
    ports = rows_of(PORTS, "Network ports")
    for question in ("What port does Switchyard listen on for HTTP writes?",  # another row's Component
                     "What port does Gatehouse listen on for HTTP queries?",  # another row's Protocol
                     "What port does Tollbooth listen on for HTTP writes?"):  # a name the table does not have
        assert row_named_by_cells(question, "ENTITY", ports, akin, noun="port") is None, question
    got = row_named_by_cells("What port does Gatehouse listen on for HTTP writes?", "ENTITY", ports, akin, noun="port")
    assert got is not None and got[2] == "8427"
    options = rows_of(OPTIONS, "Tallyhouse configuration")
    assert row_named_by_cells("By default, how long is raw data kept in the cold archive tier before it is deleted?",
                              "QUANTITY", options, akin) is None  # three words no cell says
    assert row_named_by_cells("How long is raw data kept by default before it is deleted?", "QUANTITY", options,
                              akin)[2] == "30d"


def test_a_hyphened_header_is_named_by_its_parts_in_a_yes_no_claim() -> None:
    """"Is there a laboratory at the Fenby wastewater site?" was "yes" at 0.95: the claim was judged against the
    whole row, as no header was named by it, and its "On-site laboratory: No" went unread."""
    row = "Site: Fenby WwTW; Type: Wastewater; On-site laboratory: No"
    named = _named_cells("there a laboratory at is the Fenby wastewater site.", row)
    assert named == "Site: Fenby WwTW; On-site laboratory: No" and _cells_deny(named)
    assert _named_cells("Fenby WwTW has a pumping station on site.", row) is None  # "laboratory" unsaid
    # a hyphened header of one word and a stop word is named whole: "within walking distance" names no "Walk-in"
    assert _named_cells("Eastmoor Clinic is within walking distance.", "Site: Eastmoor Clinic; Walk-in: No") is None


def test_a_bound_of_a_range_another_span_states_picks_no_band(x: SpacyExtractor) -> None:
    """"How much does a weekly parking pass cost?" was "£2.00" at 0.97: the band of "1 hour", read from minutes
    saying "the charge for stays of over 1 hour and up to 2 hours rises ..." (a band's edge, no measure of anything)."""
    bands = ("| Band | Length of stay | Charge |\n|---|---|---|\n| 1 | Up to 30 minutes | Free |\n"
             "| 2 | Over 30 minutes, up to 1 hour | £1.20 |\n| 3 | Over 1 hour, up to 2 hours | £2.00 |")
    minutes = "RESOLVED: the charge for stays of over 1 hour and up to 2 hours rises from £1.80 to £2.00 from 1 April."
    units = [(minutes, "paragraph", "Board minutes", ""), (bands, "table", "Parking charges", "")]
    assert basis(x, "How much does a weekly parking pass cost?", units).get("kind") != "band"


HOURS = ("| Site | Mon | Tue | Sat | Sun |\n|---|---|---|---|---|\n"
         "| Carrowby Health Centre | 08:00–18:30 | 08:00–18:30 | 09:00–13:00 | Closed |\n"
         "| Fennimore Street Clinic | 09:00–17:00 | Closed | 09:00–12:00 | Closed |")


def test_a_day_named_in_full_names_its_short_header_and_what_time_asks_a_clock(x: SpacyExtractor) -> None:
    """"What time does Fennimore Street Clinic close on a Saturday?" was not read: "Saturday" did not name the
    header "Sat", and "what time" asked for no kind of value ("What time's the first Skylark out?" read a place)."""
    hours = [(HOURS, "table", "General clinics by site and weekday", "")]
    assert answer(x, "What time does Fennimore Street Clinic close on a Saturday?", hours)[0] == "12:00"
    assert answer(x, "What time does Carrowby Health Centre open on Tuesdays?", hours)[0] == "08:00"
    night = [("- **Skylark** (night bus) — Runs hourly between Orrisford Bus Station, Saltmarrow Quay and Ledwick "
              "Cross.", "paragraph", "Our services", "")]
    assert answer(x, "What time's the first Skylark out of Orrisford Bus Station?", night)[0] is None


def test_a_start_or_an_end_asked_is_said_by_from_or_until_a_time(x: SpacyExtractor) -> None:
    """"what time does quiz night kick off?" was refused: "kick" is no word of "Quiz Night – every Wednesday from
    19:30"; "from <time>" says when a thing starts, "until <time>" when it ends; neither says the other."""
    events = [("- **Quiz Night** – every Wednesday from 19:30. £2 per player, teams of up to six.\n- **Doors** – "
               "the taproom opens at 16:00.", "paragraph", "Events", "")]
    assert answer(x, "what time does quiz night kick off?", events)[0] == "19:30"
    classes = [("Life drawing runs every Thursday from 18:00 until 20:30 in the studio.", "paragraph", "Classes", "")]
    assert answer(x, "What time does life drawing finish?", classes)[0] == "20:30"
    assert answer(x, "What time does the quiz finish?", events)[0] is None


@pytest.mark.parametrize(("question", "kind"), [
    ("What time does the library open?", "TIME"), ("By what time do groups have to check in?", "TIME"),
    ("What time's the first Skylark out of Orrisford?", "TIME"), ("What time period was the castle built in?", "ENTITY"),
])
def test_what_time_asks_a_clock_time(x: SpacyExtractor, question: str, kind: str) -> None:
    from kmrag.retrieval.analysis import QuestionAnalyser

    assert QuestionAnalyser(x).analyse(question).answer_type == kind


FARES = ("| Ticket | Valid for | Adult | Child | Concession |\n|---|---|---|---|---|\n"
         "| Vale Single | One journey | £2.40 | £1.20 | £1.60 |\n| Vale Day | Unlimited travel for one day | £5.80 | £2.90 | "
         "£3.90 |")
PLANS = "| Plan | Price per seat per month |\n|---|---|\n| Team | $14 |\n| Business | $29 |"


def test_a_count_of_things_bought_multiplies_the_price_or_nothing_is_read(x: SpacyExtractor) -> None:
    """"I need to buy 5 adult Vale Day tickets ... what will that come to in total?" was £5.80 at 0.94, one
    ticket's price; now 5 × £5.80, shown and recomputed by validation."""
    fares = [(FARES, "table", "Fares", "")]
    question = "I need to buy 5 adult Vale Day tickets for our team's away day - what will that come to in total?"
    assert answer(x, question, fares)[0] == "£29.00"
    assert basis(x, question, fares)["total"]["quantity"] == 5
    assert answer(x, "How much is an adult Vale Day ticket?", fares)[0] == "£5.80"
    assert answer(x, "How much is an adult Vale Day ticket each, if I buy 5?", fares)[0] == "£5.80"  # the price asked
    # a second multiplier (the month the price is per, a year asked): no total is computed, nor the price given
    plans = [(PLANS, "table", "Plans", "")]
    assert answer(x, "We want 12 people on the Team plan, billed month to month. What would that cost us for a full "
                     "year?", plans)[0] is None


def test_a_clock_time_is_read_only_from_a_span_saying_what_the_question_times(x: SpacyExtractor) -> None:
    """A reviewer's probes: "What time does the AGM start?" read "6pm" off "Board meetings start at 6pm"."""
    assert answer(x, "What time does the AGM start?", [("Board meetings start at 6pm. The AGM is held in March.",
                                                      "paragraph", "Meetings", "")])[0] is None
    assert answer(x, "What time does the quiz start?", [("Doors open at 7pm. The quiz begins once all teams have "
                                                       "registered.", "paragraph", "Quiz night", "")])[0] is None
    assert answer(x, "What time does the AGM start?", [("The AGM starts at 6pm in the main hall.", "paragraph",
                                                      "Meetings", "")])[0] == "6pm"


def test_a_fact_sheet_line_answers_only_what_its_label_says(x: SpacyExtractor) -> None:
    """Once each "Field: value" line of a fact sheet was a sentence, "How many tonnes of food waste were collected?"
    read "Household waste collected: 41,200 tonnes" and "How many kilometres of water mains does the company
    have?" read "Mains replaced or relined: 87 km". A label word the question does not say ("household",
    "replaced") is another field; a word naming the kind of value ("Length", "Rate") needs no saying."""
    sheet = [("KEY FIGURES 2023-24\nHousehold waste collected: 41,200 tonnes\nRecycling and composting rate: 46.8%\n"
              "Mains replaced or relined: 87 km\nLength of water mains: 6,420 km", "paragraph", "Annual report", "")]
    assert answer(x, "How many tonnes of food waste were collected in 2023-24?", sheet)[0] is None
    assert answer(x, "How many kilometres of water mains does the company have?", sheet)[0] == "6,420 km"
    assert answer(x, "How many tonnes of household waste were collected in 2023-24?", sheet)[0] == "41,200 tonnes"


def test_a_date_the_question_states_is_not_its_answer(x: SpacyExtractor) -> None:
    """"When's the next meeting after the October 2024 one?" read the minutes' own "Date: Wednesday 9 October 2024"
    once that line stood alone: a month and year the question states are not what it asks."""
    minutes = [("Quarter: Q3 2024\nDate: Wednesday 9 October 2024, 09:30\nLocation: The Mezzanine", "paragraph",
                "QUARTERLY MANAGEMENT MEETING - MINUTES", ""),
               ("Next meeting: Wednesday 15 January 2025, 09:30, The Mezzanine.", "paragraph", "6. AOB", "")]
    assert answer(x, "When's the next quarterly management meeting after the October 2024 one?", minutes)[0] == \
        "Wednesday 15 January 2025"


def test_a_fact_sheet_record_s_line_is_read_though_it_shares_no_word_with_the_question(x: SpacyExtractor) -> None:
    """"Previous lead: Hadrian Pike" says none of "Who ran Team Keel before Marisol Quennell took over?": the field
    reader takes it with the lines of its record that do ("Team: Keel", "Lead: Marisol Quennell"), whatever the
    unit's title says (a file name, "team-sheet", said "team" before)."""
    keel = ("Team: Keel\nFocus: Storage engine\nLead: Marisol Quennell\nLead since: 2023-09-01\nPrevious lead: "
            "Hadrian Pike (moved to Developer Relations in September 2023)\nHeadcount: 6 engineers")
    assert answer(x, "Who ran Team Keel before Marisol Quennell took over?", [(keel, "paragraph", "team-sheet", "")])[0] \
        == "Hadrian Pike"


def test_a_column_asked_with_a_word_for_its_kind_of_value_is_the_column(x: SpacyExtractor) -> None:
    """"What is the IBU rating of Pelt & Thistle?" read another row's style ("Imperial Stout"): "rating" named no
    header, so no cell was read. A word that only names the kind of value ("rating", "score", "figure") asks the
    column the question otherwise names."""
    beers = [("| Beer | Style | ABV | IBU |\n|---|---|---|---|\n| Pelt & Thistle | Hazy IPA | 6.2% | 35 |\n"
              "| Nightjar | Imperial Stout | 10.4% | 55 |", "table", "Our Beers", "")]
    assert answer(x, "What is the IBU rating of Pelt & Thistle?", beers)[0] == "35"
    assert answer(x, "What is the ABV figure for Nightjar?", beers)[0] == "10.4%"


@pytest.mark.parametrize(("content", "question", "expected"), [
    # the reviewer's probes: the time after "from" / "until" is the asked thing's only in its own clause
    ("The museum closes at 17:00, and group visits are admitted from 10:00 to 15:00.",
     "What time does the museum close?", "17:00"),
    ("The café serves lunch from 12:00 until 15:00 and breakfast from 08:00 until 11:30.",
     "What time does breakfast finish at the café?", None),
    ("Registration opens from 08:30, with talks from 09:30 until 17:00 and a drinks reception until 19:00.",
     "What time does the drinks reception finish?", "19:00"),
    ("The concert: doors from 18:30, with the concert itself running 19:30 to 22:00.",
     "What time does the concert start?", "19:30"),  # its own range (the thirtieth round; None before, not 18:30)
    ("The concert: doors from 18:30, with the concert itself running 19:30 to 22:00.",
     "What time does the concert finish?", "22:00"),
])
def test_a_start_or_an_end_is_read_from_the_clause_of_the_thing_asked(x: SpacyExtractor, content: str, question: str,
                                                                      expected: str | None) -> None:
    assert answer(x, question, [(content, "paragraph", "Events", "")])[0] == expected


@pytest.mark.parametrize(("content", "question", "expected"), [
    ("The Hale Bridge was closed on 14 March 2023 for repairs and reopened to traffic on 2 June 2023.",
     "When was the Hale Bridge closed in March 2023?", "14 March 2023"),
    ("The committee met on 9 October 2024. The previous meeting was held on 10 July 2024.",
     "On what day in October 2024 did the committee meet?", "9 October 2024"),
])
def test_a_month_the_question_narrows_to_is_still_the_answer_s(x: SpacyExtractor, content: str, question: str,
                                                               expected: str) -> None:
    """Only a date the question asks what came after ("after the October 2024 one") is ruled out, not one it narrows
    the answer to (the reviewer's probes answered "2 June 2023" and "10 July 2024")."""
    assert answer(x, question, [(content, "paragraph", "Hale Bridge", "")])[0] == expected


def test_a_fact_sheet_line_is_read_for_its_record_by_the_record_s_own_lines(x: SpacyExtractor) -> None:
    """A line of a sheet answers only for its record: the record's names are said by its lines above ("Site name:
    Pellowdene Community Hospital" for "Opened: 1978", though the question's words make a longer phrase of the name),
    and a year the question asks must be the one the record's heading states, when it states one."""
    sheet = [("Document: Site fact sheet\nSite name: Pellowdene Community Hospital\nSite manager: Orla Kestwick\n"
              "Opened: 1978\nBeds: 32", "paragraph", "site-factsheet-pellowdene", "")]
    assert answer(x, "What year did Pellowdene Community Hospital first open?", sheet)[0] == "1978"
    figures = [("KEY FIGURES 2023-24\nRevenue: £318.4 million\nLeakage: 92 megalitres per day", "paragraph",
                "Annual report", "")]
    assert answer(x, "What was leakage in 2023-24?", figures)[0] == "92 megalitres per day"
    assert answer(x, "How much water is lost to leakage per day in 2020-21?", figures)[0] is None
    teams = [("Team: Keel\nFocus: Storage engine\nLead: Marisol Quennell\n\nTeam: Oar\nFocus: Query planner\n"
              "Headcount: 4 engineers", "paragraph", "team-sheet", "")]
    assert answer(x, "Who leads Team Oar?", teams)[0] is None
    assert answer(x, "Who leads Team Keel?", teams)[0] == "Marisol Quennell"
