"""Labelled fields ("Leakage: 61.3 megalitres per day"), volumes as units, totals at a per-unit rate, and the checks
that keep them from answering another case (kmrag.answer.fields, kmrag.answer.extractive, kmrag.answer.grade)."""

from __future__ import annotations

import pytest

from kmrag.answer.context import Context
from kmrag.answer.extractive import ExtractiveGenerator, charged, holds, quantities, row_range
from kmrag.answer.fields import field_value
from kmrag.answer.grade import OfflineGrader
from kmrag.answer.spans import Span
from kmrag.answer.validate import validate
from kmrag.nlp.extract import SpacyExtractor
from kmrag.retrieval.analysis import QuestionAnalyser, QuestionAnalysis
from tests.unit.test_answer_validation import T, unit

pytestmark = pytest.mark.unit

FIGURES = ("Revenue: £318.4 million (2022-23: £296.1 million) Capital investment: £142 million (2022-23: £121 million) "
           "Average water put into supply: 262 megalitres per day Leakage: 61.3 megalitres per day (2022-23: 64.8) "
           "Mains replaced or relined: 87 km")
BOARD = ("- **Chair:** Sir Colin Ashdown (chair since July 2019)\n- **Chief Executive:** Morwenna Tate (since September "
         "2021)\n- **Customer Services Director:** Lewis Okafor\n- **Director of Operations:** Tom Fairley")
TARIFF = ("| Band | Quarterly usage | Charge per cubic metre |\n|---|---|---|\n| Band A | up to 15 m³ | £1.48 |\n"
          "| Band B | more than 15 m³ and up to 40 m³ | £1.92 |\n| Band C | more than 40 m³ | £2.37 |")


def span(display: str, title: str = "", section: str = "") -> Span:
    return Span("u_" + "f" * 16, "src", 0, len(display), display, "sentence", " ".join(display.split()), 0, title,
                section)


def read(question: str, answer_type: str, spans: list[Span], mentions: tuple[str, ...] = ()) -> str | None:
    got = field_value(question, answer_type, list(mentions), spans)
    return None if got is None else got[1]


def test_a_field_the_question_names_is_read_from_a_list_joined_into_one_paragraph() -> None:
    figures = span(FIGURES, title="KEY FIGURES 2023-24")
    assert read("What was average leakage in 2023-24?", "ENTITY", [figures]) == "61.3 megalitres per day"
    assert read("What was the capital investment in 2023-24?", "MONEY", [figures]) == "£142 million"
    assert read("How many km of mains were replaced or relined?", "NUMBER", [figures]) == "87 km"
    # a year the fields are not of: the bracket's 2022-23 is no heading of theirs
    assert read("What was leakage in 2022-23?", "ENTITY", [figures]) is None
    assert read("What was leakage in 2020-21?", "ENTITY", [figures]) is None


def test_a_field_s_label_is_whole_and_its_value_is_not_the_question_s_own_name() -> None:
    board = span(BOARD, title="Board", section="About Halvern Vale Water / Leadership / Board")
    assert read("Who chairs the board at Halvern Vale Water?", "PERSON", [board], ("Halvern Vale Water",)) == \
        "Sir Colin Ashdown"
    assert read("Who is the Director of Operations?", "PERSON", [board]) == "Tom Fairley"
    # "Customer Services Director" has no label "Director"
    assert read("Who is the director?", "PERSON", [board]) is None
    # the value is the question's own name: whom he succeeded is not said here
    assert read("Who did Tom Fairley take over from as Director of Operations?", "PERSON", [board]) is None


def test_a_field_of_another_case_or_a_sentence_s_colon_is_no_answer() -> None:
    charge = span("**Water standing charge:** £8.75 per quarter (the same in both charging zones)",
                  title="Metered water supply")
    assert read("What is the water standing charge?", "MONEY", [charge]) == "£8.75"
    # business customers: a case the field does not say
    assert read("What standing charge do business customers pay for water?", "MONEY", [charge]) is None
    modes = span("Advanced RAG patterns address three failure modes: insufficient reasoning depth (multi-hop RAG), "
                 "overconfident generation on weak retrieval (self-RAG).")
    assert read("What are the three failure modes that advanced RAG patterns address?", "ENTITY", [modes]) is None
    # two spans holding the field with other values: no one answer
    other = span("Average leakage: 58.0 megalitres per day", title="KEY FIGURES 2023-24")
    assert read("What was average leakage in 2023-24?", "ENTITY", [span(FIGURES, "KEY FIGURES 2023-24"), other]) is None


def test_volumes_and_areas_are_units_of_their_own() -> None:
    assert row_range("up to 15 m³") == (None, 15.0, "m3")
    assert row_range("more than 15 m³ and up to 40 m³") == (15.0, 40.0, "m3")
    assert quantities("22 cubic metres") == [(22.0, "m3", "22 cubic metres")]
    assert quantities("the dam is 38 metres high") == [(38.0, "m", "38 metres")]
    assert quantities("a 40 m² flat") == [(40.0, "m2", "40 m²")]
    assert not holds(row_range("up to 40 m³"), 38.0, "m")  # a dam's height is in no band of volumes
    assert holds(row_range("up to 15 m³"), 14000.0, "l")


def test_a_total_at_a_rate_is_the_question_s_quantity_times_the_rate(x: SpacyExtractor) -> None:
    row = Span("u_1", "s", 0, 10, "| Band A | up to 15 m³ | £1.48 |", "row",
               "Band: Band A; Quarterly usage: up to 15 m³; Charge per cubic metre: £1.48", 0)
    total = charged("What will the water charge be for 14 cubic metres?", row, "£1.48", 14.0, "m3")
    assert total is not None and total["value"] == "£20.72"
    assert charged("How much per cubic metre do I pay for 14 cubic metres?", row, "£1.48", 14.0, "m3") is None
    assert charged("What will the charge be for 14 hours?", row, "£1.48", 14.0, "h") is None  # no rate per hour

    def answer(question: str) -> tuple[str | None, dict | None]:
        ctx = Context.of(T, [unit("u_" + "1" * 16, TARIFF, type_="table", title="Household charges")])
        draft = ExtractiveGenerator(x.nlp).generate(question, QuestionAnalyser(x).analyse(question), ctx)
        v = validate(draft.text, ctx, lambda ids: set(), direct=draft.direct, basis=draft.basis)
        return v.direct, v.basis

    direct, basis = answer("My meter shows 14 cubic metres used last quarter - what will the volumetric water charge be?")
    assert direct == "£20.72" and basis is not None and "14 cubic metres × £1.48" in basis["rule"]
    assert answer("Which usage band would 22 cubic metres in a quarter put me in?")[0] == "Band B"
    assert answer("What is the charge per cubic metre in Band C?")[0] == "£2.37"
    # "the top band" is the row of the highest range, not "Band A" named by the article "a"
    assert answer("What do heavy users in the top band pay per cubic metre of water?")[0] == "£2.37"
    assert answer("What is the charge per cubic metre in the lowest band?")[0] == "£1.48"


def test_a_total_that_is_not_the_rate_times_the_quantity_is_dropped() -> None:
    table = unit("u_" + "2" * 16, TARIFF, type_="table", title="Household charges")
    ctx = Context.of(T, [table])
    row = next(s for s in ctx.spans[table.id] if "Band A" in s.quote)
    text = f"{row.display}. [{table.id}]"
    basis = {"kind": "band", "rule": "r", "entities": [{"unit_id": table.id, "quote": row.quote}],
             "total": {"quantity": 14.0, "unit": "m3", "rate": "£1.48", "per": "per cubic metre", "value": "£20.72"}}
    assert validate(text, ctx, lambda ids: set(), direct="£20.72", basis=basis).direct == "£20.72"
    assert validate(text, ctx, lambda ids: set(), direct="£25.00", basis=basis).direct is None
    wrong_rate = {**basis, "total": {**basis["total"], "rate": "£1.50"}}  # no cited span says £1.50
    assert validate(text, ctx, lambda ids: set(), direct="£21.00", basis=wrong_rate).direct is None


def test_a_year_the_question_asks_of_must_be_one_the_evidence_states() -> None:
    figures = unit("u_" + "3" * 16, FIGURES, title="KEY FIGURES 2023-24")
    ctx = Context.of(T, [figures])

    def on_topic(question: str) -> bool:
        analysis = QuestionAnalysis(question=question, kind="factoid", answer_type="ENTITY", mentions=[])
        v = validate(f"{FIGURES} [{figures.id}]", ctx, lambda ids: set(), direct="61.3 megalitres per day",
                     basis={"kind": "span"})
        return OfflineGrader().grade_answer(question, analysis, v, ctx).on_topic

    assert on_topic("What was average leakage in 2023-24?")
    assert not on_topic("What was the company's leakage figure in 2020-21?")


def test_a_list_is_about_what_its_headings_say_a_paragraph_is_not() -> None:
    q = "Who chairs the board at Halvern Vale Water?"
    analysis = QuestionAnalysis(question=q, kind="factoid", answer_type="PERSON", mentions=["Halvern Vale Water"])
    path = ["About Halvern Vale Water", "Leadership", "Board"]

    def on_topic(content: str, cited: str) -> bool:
        u = unit("u_" + "4" * 16, content, title="Board").model_copy(update={"section_path": path})
        ctx = Context.of(T, [u])
        v = validate(f"{cited} [{u.id}]", ctx, lambda ids: set(), direct="Sir Colin Ashdown", basis={"kind": "span"})
        return OfflineGrader().grade_answer(q, analysis, v, ctx).on_topic

    assert on_topic(BOARD, "**Chair:** Sir Colin Ashdown (chair since July 2019)")
    assert not on_topic("Sir Colin Ashdown chairs the board of the Kestrel Trust.",
                        "Sir Colin Ashdown chairs the board of the Kestrel Trust.")


def test_an_answer_from_a_span_of_another_time_than_the_one_asked_is_off_topic() -> None:
    said = "At the elections in May 2022, Cllr Deborah Luscombe was elected Leader."
    u = unit("u_" + "5" * 16, "From 2003 to 2014 the council was led by Cllr Judith Hargreaves. " + said,
             title="History")
    ctx = Context.of(T, [u])

    def on_topic(question: str) -> bool:
        analysis = QuestionAnalysis(question=question, kind="factoid", answer_type="PERSON", mentions=[])
        v = validate(f"{said} [{u.id}]", ctx, lambda ids: set(), direct="Cllr Deborah Luscombe", basis={"kind": "span"})
        return OfflineGrader().grade_answer(question, analysis, v, ctx).on_topic

    assert not on_topic("Who led the council before Judith Hargreaves took over in 2003?")
    assert on_topic("Who led the council after Judith Hargreaves took over in 2003?")
    assert on_topic("Who was elected Leader of the council?")


def test_a_key_s_capital_letter_must_be_named_in_the_question() -> None:
    from kmrag.answer.extractive import _letters_named

    assert _letters_named("Band A", "What is the charge per cubic metre in Band A?")
    assert not _letters_named("Band A", "What does a heavy user pay per cubic metre in a band?")
    assert _letters_named("Central Library", "When does Central Library open?")


def test_a_field_is_not_read_for_another_holder_or_into_the_next_label() -> None:
    board = span(BOARD, title="Board", section="About Halvern Vale Water / Leadership / Board")
    for q in ["Who did the Director of Operations replace?", "Who will succeed the Chief Executive?",
              "Who was the previous Chair?", "Who is the deputy Chair?", "Who was Chair before Sir Colin?"]:
        assert read(q, "PERSON", [board]) is None, q
    joined = span("Employees: 1,240 Customers served: 388,000 Leakage: 61.3 megalitres per day Capacity: 18,400 Ml")
    assert read("How many employees?", "NUMBER", [joined]) == "1,240"
    assert read("How many customers served?", "NUMBER", [joined]) == "388,000"
    assert read("What was leakage?", "ENTITY", [joined]) == "61.3 megalitres per day"
    dam = span("Completed: awaiting survey Opened: 12 May 1961", title="Dam")
    assert read("When was the dam completed?", "DATE", [dam]) is None
    assert read("When was the dam opened?", "DATE", [dam]) == "12 May 1961"


def test_a_quantity_after_in_is_no_year_asked() -> None:
    from kmrag.answer.grade import asked_years

    assert asked_years("What is the charge in 1500 litres?") == []
    assert asked_years("What was leakage in 2020-21?") == ["2020"]


SHEET = span("Document: Site fact sheet Site name: Pellowdene Community Hospital Site code: BCH-PCH Site manager: Orla "
             "Kestwick Site manager since: 1 November 2021 Previous site manager: Desmond Ashgrove (2012 to October "
             "2021) Matron: Bernadette Fowey-Lund", title="site-factsheet-pellowdene")


def test_the_one_before_a_holder_is_read_from_a_previous_holders_field() -> None:
    """"Who was the site manager at Pellowdene before Orla Kestwick?" was not read ("Fact", 0.33): a "before X" asks
    the "Previous site manager:" field, as "Who did X replace?" and "whom did X take over from" do."""
    for q in ("Who was the site manager at Pellowdene before Orla Kestwick?",
              "Who did Orla Kestwick replace as site manager at Pellowdene?",
              "Who did Orla Kestwick take over from as site manager at Pellowdene?"):
        assert read(q, "PERSON", [SHEET], ("Pellowdene", "Orla Kestwick")) == "Desmond Ashgrove", q
    assert read("Who is the site manager at Pellowdene?", "PERSON", [SHEET], ("Pellowdene",)) == "Orla Kestwick"
    # the one before the previous holder is not said; nor is the current holder one before anyone
    assert read("Who was the site manager at Pellowdene before Desmond Ashgrove?", "PERSON", [SHEET],
                ("Pellowdene", "Desmond Ashgrove")) is None
    assert read("Who will replace Orla Kestwick as site manager at Pellowdene?", "PERSON", [SHEET],
                ("Pellowdene", "Orla Kestwick")) is None  # the one after is not the one before
    assert read("Who was the previous site manager at Pellowdene?", "PERSON", [SHEET], ("Pellowdene",)) == \
        "Desmond Ashgrove"
    # a code or a double-barrelled name ends the value before a label ("BCH-PCH Site manager:", "Fowey-Lund Opened:")
    assert read("When did Pellowdene open?", "DATE", [span(SHEET.display + " Opened: 1978 Beds: 32")],
                ("Pellowdene",)) == "1978"


def test_the_one_before_is_read_only_from_a_span_that_says_a_succession(x: SpacyExtractor) -> None:
    """"Who did Joanna Threlkeld replace as chief executive?" was "Cllr Deborah Luscombe" at 0.61: the name beside
    hers in a letter's sign-off, which says nothing of who came before whom."""
    from tests.unit.test_extractive_answers import answer

    signoff = [("Yours faithfully,\nCllr Deborah Luscombe, Leader of the Council\nJoanna Threlkeld, Chief Executive",
                "paragraph", "Foreword", "")]
    assert answer(x, "Who did Joanna Threlkeld replace as chief executive?", signoff)[0] is None
    release = [("Tom Fairley will become Director of Operations on 1 October 2024. He succeeds Hilary Brandt, who "
                "retires at the end of September.", "paragraph", "Press release", "")]
    assert answer(x, "Who did Tom Fairley replace as Director of Operations?", release)[0] == "Hilary Brandt"


@pytest.mark.parametrize(("question", "asks"), [
    ("Who was the site manager at Pellowdene before Orla Kestwick?", True),
    ("Who did Orla Kestwick replace as site manager?", True),
    ("Whom did Tom Fairley take over from?", True),
    ("Who was Sir Colin Ashdown's predecessor as Chair?", True),
    ("Just Before I Go stars an actress who plays what character in the series?", False),  # a title
    ("Who won the special election in 2014 to replace Bill Young?", False),  # the verb asked is "won"
    ("What happened before 1990?", False),
    ("Who will replace Orla Kestwick as site manager?", False),  # the one after
    ("Who will take over from Orla Kestwick?", False),
    ("Who has succeeded Hilary Brandt?", False),
])
def test_a_question_after_the_one_before_a_holder(question: str, asks: bool) -> None:
    from kmrag.answer.fields import ASKS_PREDECESSOR

    assert bool(ASKS_PREDECESSOR.search(question)) is asks


def test_a_fact_sheet_line_is_read_with_the_lines_of_its_record_above_it() -> None:
    """Each line of a fact sheet is a sentence of its own now; the field reader reads a line's record (the lines above
    it in the unit) as what names it: "Team: Keel" and "Lead: Marisol Quennell" frame "Previous lead: ...". "Who ran"
    a team says its "Lead" label. A line of another record does not answer for this one."""
    from kmrag.answer.spans import unit_spans

    sheet = ("Team: Sluice\nLead: Bram Esterhuizen\nPrevious lead: Oona Vey\n\nTeam: Keel\nFocus: Storage engine\n"
             "Lead: Marisol Quennell\nLead since: 2023-09-01\nPrevious lead: Hadrian Pike (moved in September 2023)")
    spans = unit_spans(unit("u_0000000000000001", sheet, type_="paragraph", title="Team sheet"), 0)
    assert all(s.sheet for s in spans)
    got = field_value("Who ran Team Keel before Marisol Quennell took over?", "PERSON", ["Team Keel", "Marisol Quennell"],
                      spans)
    assert got is not None and got[1] == "Hadrian Pike"
    got = field_value("Who led Team Sluice before Bram Esterhuizen?", "PERSON", ["Team Sluice", "Bram Esterhuizen"],
                      spans)
    assert got is not None and got[1] == "Oona Vey"


def test_a_contact_label_stands_for_its_noun() -> None:
    """"email address for the cinema programmer" was answered with another record's email at 0.34: "address" is
    no word of the label "Email", and one word unsaid was one too many."""
    record = """Name: Felix Wendt
Role: Cinema Programmer
Department: Programming
Email: felix.wendt@millrace-arts.org.uk
Extension: 240"""
    from kmrag.answer.spans import unit_spans
    from tests.unit.test_answer_validation import unit
    lines = unit_spans(unit("u_" + "4" * 16, record, title="staff-directory"), 0)
    assert read("email address for the cinema programmer", "ENTITY", lines) == "felix.wendt@millrace-arts.org.uk"
    assert read("What is the phone extension number of the Cinema Programmer?", "NUMBER", lines) == "240"
    assert read("What is the fax number of the Cinema Programmer?", "NUMBER", lines) is None
