"""Table cells a question names in its own words: a key's abbreviation or address left unsaid, a row's one sum, a
unit per unit, opening hours' ends, years compared by "first", and what stops each from answering another question
(kmrag.answer.extractive, kmrag.answer.tables)."""

from __future__ import annotations

import pytest

from kmrag.answer.extractive import quantities
from kmrag.answer.tables import key_words
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit

WORKS = ("| Site | Town | Opened | Main pool |\n|---|---|---|---|\n| Carrow WTW | Pennick | 1964 | 25 m, 6 lanes |\n"
         "| Fenby WwTW | Fenby | 1972 | 33.3 m, 8 lanes |\n| Brackley Cross WTW | Brackley Cross | 1981 | – |")
TAX = ("| Band | Value on 1 April 1991 | Annual charge 2024/25 |\n|---|---|---|\n| A | up to £40,000 | £1,456.24 |\n"
       "| B | £40,001 to £52,000 | £1,698.95 |\n| F | £120,001 to £160,000 | £3,155.19 |")
PERMITS = ("| CO2 emissions (g/km) | First permit | Second or third permit |\n|---|---|---|\n| 101 to 130 | £85 | £125 |\n"
           "| 131 to 165 | £110 | £150 |\n| 166 to 225 | £145 | £185 |")
LIBRARIES = ("| Library | Ward | Saturday | Sunday |\n|---|---|---|---|\n"
             "| Central Library, Market Square | St Anselm's | 9am to 5pm | 11am to 3pm |\n"
             "| Brindle Library, Church Street | Brindle | 10am to 1pm | Closed |")
CENTRES = ("| Centre | Opened | Main pool |\n|---|---|---|\n| Northgate Pool & Fitness | 1994 | 33.3 m, 8 lanes |\n"
           "| Riverside Leisure Centre | 1978 | 25 m, 6 lanes |")


def table(content: str) -> list[tuple[str, str, str, str]]:
    return [(content, "table", "Table", "")]


def test_a_key_is_named_without_its_abbreviated_kind_or_its_address() -> None:
    assert key_words("Carrow WTW") == key_words("Carrow")
    assert key_words("Central Library, Market Square") == key_words("Central Library")
    assert key_words("NHS Trust") != key_words("Trust")  # an abbreviation first is part of the name
    assert key_words("BBC One") != key_words("One")


def test_cells_named_in_the_question_s_own_words(x: SpacyExtractor) -> None:
    assert answer(x, "Which town is the Brackley Cross treatment works in?", table(WORKS))[0] == "Brackley Cross"
    assert answer(x, "What year did Fenby wastewater treatment works originally open?", table(WORKS))[0] == "1972"
    assert answer(x, "What time does Central Library close on a Sunday?", table(LIBRARIES))[0] == "3pm"
    assert answer(x, "What time does Brindle Library open on Saturday?", table(LIBRARIES))[0] == "10am"
    assert answer(x, "What are Central Library's Saturday opening hours?", table(LIBRARIES))[0] == "9am to 5pm"
    # the length asked, not the lanes beside it in the cell
    assert answer(x, "How long is the main pool at Northgate Pool & Fitness?", table(CENTRES))[0] == "33.3 m"


def test_the_key_s_own_words_name_no_column(x: SpacyExtractor) -> None:
    """"Northgate Pool & Fitness" says "pool": a swim's price is no "Main pool" cell (a span read may still offer
    a number, which the confidence then weighs as read from a row that does not say what is asked)."""
    assert basis(x, "How much is an adult swim session at Northgate Pool & Fitness?", table(CENTRES)).get("kind") != "cell"


def test_a_row_s_one_sum_answers_what_it_costs_whatever_its_header_calls_it(x: SpacyExtractor) -> None:
    assert answer(x, "What's the annual council tax bill for a Band B property in 2024/25?", table(TAX))[0] == \
        "£1,698.95"
    assert answer(x, "How much is council tax for a band F home?", table(TAX))[0] == "£3,155.19"
    # a row's one date is no answer to a date it does not name: it opened then, it does not shut then
    assert basis(x, "When does Riverside Leisure Centre shut for the building work?", table(CENTRES)).get("kind") != "cell"


def test_a_quantity_per_unit_falls_in_the_band_of_a_header_in_that_unit(x: SpacyExtractor) -> None:
    assert quantities("a car that emits 140 g/km") == [(140.0, "g/km", "140 g/km")]
    assert answer(x, "How much is a resident parking permit for a car that emits 140 g/km of CO2?",
                  table(PERMITS))[0] == "£110"


def test_a_sum_asked_with_its_compound_noun_is_a_sum(x: SpacyExtractor) -> None:
    analyse = QuestionAnalyser(x).analyse
    assert analyse("What's the annual council tax bill for a Band B property?").answer_type == "MONEY"
    assert analyse("What is the water standing charge for a household?").answer_type == "MONEY"
    assert analyse("What is the human cost of the war?").answer_type != "MONEY"


def test_a_table_s_years_compared_by_first_and_most_recent(x: SpacyExtractor) -> None:
    assert answer(x, "Which opened first, Brackley Cross water treatment works or Fenby wastewater works?",
                  table(WORKS))[0] == "Fenby WwTW"
    assert answer(x, "Which opened more recently, Carrow WTW or Fenby WwTW?", table(WORKS))[0] == "Fenby WwTW"


def test_a_person_who_holds_the_question_s_own_name_is_not_its_answer(x: SpacyExtractor) -> None:
    direct, _, _ = answer(x, "Who led the council before Judith Hargreaves took over?", [
        ("From 2003 to 2014 the council was led by Cllr Judith Hargreaves.", "paragraph", "History", "")])
    assert direct is None


def test_who_served_longer_compares_tenures_never_the_years_themselves(x: SpacyExtractor) -> None:
    q = "Who served longer as chief executive, Eileen Dunstable or Alan Gossage?"
    decades = [("Eileen Dunstable was the first woman to lead the council's staff in the 1990s.", "paragraph",
                "Eileen Dunstable", ""),
               ("Alan Gossage led the council through the spending reductions of the 2010s.", "paragraph",
                "Alan Gossage", "")]
    assert answer(x, q, decades)[0] is None  # "1990s" and "2010s" are when, not how long
    tenures = [("Eileen Dunstable was chief executive from 1988 to 2009.", "paragraph", "Eileen Dunstable", ""),
               ("Alan Gossage was chief executive from 2009 to August 2021.", "paragraph", "Alan Gossage", "")]
    assert answer(x, q, tenures)[0] == "Eileen Dunstable"


def test_a_verb_the_tagger_took_for_a_noun_is_still_the_question_s_verb(x: SpacyExtractor) -> None:
    from kmrag.answer.asked import asking_verb

    assert asking_verb(x.nlp, "Who did Joanna Threlkeld replace as chief executive?") is not None


FEES = ("| Programme | Student category | Full-time (1 year) | Part-time (per year, 2 years) |\n|---|---|---|---|\n"
        "| MSc Applied Geoscience | Home | £11,200 | £5,900 |\n| MSc Applied Geoscience | International | £27,400 | "
        "Not available |\n| MSc Hydrogeology | Home | £10,500 | £5,500 |\n"
        "| MSc Hydrogeology | International | £26,150 | Not available |")


def test_a_total_over_years_of_a_yearly_fee_is_the_fee_times_the_years(x: SpacyExtractor) -> None:
    fees = [(FEES, "table", "Tuition fees", "")]
    assert answer(x, "If I do the MSc Applied Geoscience part-time as a Home student, what will I pay in tuition "
                     "altogether over the two years?", fees)[0] == "£11,800"
    # the count from the column's header when the question says none
    assert answer(x, "What will the part-time MSc Hydrogeology cost a Home student in total?", fees)[0] == "£11,000"
    assert answer(x, "What will the part-time MSc Hydrogeology cost a Home student per year?", fees)[0] == "£5,500"


def test_of_rows_keyed_alike_the_one_named_by_its_own_cell_is_read(x: SpacyExtractor) -> None:
    fees = [(FEES, "table", "Tuition fees", "")]
    assert answer(x, "What is the full-time fee for an International student on the MSc Hydrogeology?", fees)[0] == \
        "£26,150"
    assert answer(x, "What is the full-time fee for a Home student on the MSc Hydrogeology?", fees)[0] == "£10,500"
    # neither named: no one row; the International part-time cell is no sum: not the full-time fee beside it
    assert basis(x, "What is the full-time fee for the MSc Hydrogeology?", fees).get("kind") != "cell"
    assert basis(x, "What is the part-time fee for an International student on the MSc Hydrogeology?",
                 fees).get("kind") not in {"cell", "band"}


def test_questions_after_an_opening_phrase_and_what_a_thing_will_cost(x: SpacyExtractor) -> None:
    analyse = QuestionAnalyser(x).analyse
    assert analyse("As an MSc student, am I allowed to use the SEM out of hours?").answer_type == "YES_NO"
    assert analyse("If I move house, do I need a new permit?").answer_type == "YES_NO"
    assert analyse("In 2010, who was the mayor of Paris?").answer_type != "YES_NO"
    assert analyse("What will the part-time course cost a Home student?").answer_type == "MONEY"
    assert analyse("What does the cost of living index measure?").answer_type != "MONEY"


def test_what_the_reviewer_s_probes_found_stays_unanswered(x: SpacyExtractor) -> None:
    """Each of these was answered with a cell before its fix."""
    tax = table(TAX)
    # another sum than the row's one: no answer from it
    assert answer(x, "How much is the single person discount for a Band B property?", tax)[0] != "£1,698.95"
    fees = [(FEES, "table", "Tuition fees", "")]
    assert answer(x, "How much is the deposit for an International student on the MSc Hydrogeology?", fees)[0] not in \
        {"£26,150", "26,150"}  # (read with its currency sign since the twenty-ninth round, as "26,150" before)
    # a rate asked, though "total" or "overall" is said; a count in another unit than the rate's
    assert answer(x, "What is the total yearly part-time fee for a Home student on the MSc Hydrogeology?", fees)[0] \
        == "£5,500"
    assert answer(x, "What will the part-time MSc Hydrogeology cost a Home student in total if I study for 18 "
                     "months?", fees)[0] != "£11,000"
    # "the end of term" asks no closing time
    assert answer(x, "What time does Central Library open at the end of term on a Saturday?", table(LIBRARIES))[0] \
        != "5pm"


def test_keys_told_apart_only_by_their_abbreviation_must_be_said_whole(x: SpacyExtractor) -> None:
    airports = ("| Airport | Code | Terminals |\n|---|---|---|\n| London LHR | LHR | 4 |\n| London LGW | LGW | 2 |")
    assert basis(x, "How many terminals does London have?", table(airports)).get("kind") != "cell"
    assert answer(x, "How many terminals does London LGW have?", table(airports))[0] == "2"


def test_a_key_s_letter_is_said_after_its_word() -> None:
    from kmrag.answer.extractive import _letters_named

    assert not _letters_named("Band I", "What would I pay for a Band D home?")
    assert not _letters_named("Band A", "A Band C home: what do I pay?")
    assert _letters_named("B", "How much is council tax for a band B home?", "Band")
    assert not _letters_named("B", "How much is council tax?", "Band")


def test_who_served_longer_reads_a_tenure_not_an_age(x: SpacyExtractor) -> None:
    q = "Who served longer as chief executive, Eileen Dunstable or Alan Gossage?"
    units = [("Eileen Dunstable, then 41 years old, was chief executive from 1988 to 2009.", "paragraph",
              "Eileen Dunstable", ""),
             ("Alan Gossage was chief executive from 2009 to 2021.", "paragraph", "Alan Gossage", "")]
    assert answer(x, q, units)[0] == "Eileen Dunstable"
