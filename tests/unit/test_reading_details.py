"""Details of reading a value that gave wrong or ragged answers (the thirtieth round): a passive question's verb
done to another thing, a place's name cut at its possessive, a date run on into how often or glued to the next
date, a version asked for, and a role asked with the kind of body it is held in ("the club treasurer")."""

from __future__ import annotations

import pytest

from kmrag.answer.asked import done_to_another, undergoer
from kmrag.answer.extractive import _date_parts, _title_name, _versions
from kmrag.answer.roles import LISTED
from kmrag.nlp.extract import SpacyExtractor
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    return SpacyExtractor()


@pytest.mark.parametrize("question, text, other", [
    ("When was the club founded?", "In 1994 Jane Hale founded the canoe and kayak section with four kayaks.", True),
    ("When was the club founded?", "The section was founded in 1994.", True),
    ("When was the club founded?", "The club was founded in 1921 by Arthur Penn.", False),
    ("When was the club founded?", "It was founded in 1921.", False),  # a pronoun may be the club
    ("When was the club founded?", "Riverside RC was founded in 1921.", False),  # a name may be the club's
    ("When was Lufthansa founded?", "The airline was founded in 1926.", False),  # its own article's way of saying it
    ("When was Lufthansa founded?", "Deutsche Luft Hansa founded Condor in 1926.", True),
    ("When was the Eiffel Tower built?", "Gustave Eiffel built the tower in 1889.", False),
    ("When was the bridge built?", "Workers built a new road in 1889.", True),
])
def test_a_passive_question_s_verb_done_to_another_thing(x: SpacyExtractor, question: str, text: str,
                                                        other: bool) -> None:
    asked = undergoer(x.nlp, question)
    assert asked is not None
    assert done_to_another(x.nlp, asked, text) is other


@pytest.mark.parametrize("question", ["Who founded the club?", "When did the club open?", "What is the club?"])
def test_only_a_passive_question_has_an_undergoer(x: SpacyExtractor, question: str) -> None:
    assert undergoer(x.nlp, question) is None


def test_the_span_saying_the_asked_thing_s_founding_is_read_first(x: SpacyExtractor) -> None:
    direct, quotes, _ = answer(x, "When was the club founded?", [
        ("In 1994 Jane Hale, a long-standing member, founded the canoe and kayak section with four kayaks.",
         "paragraph", "History", ""),
        ("The club was founded in 1921 as the Riverside Amateur Rowing Club by Arthur Penn, a local ironmonger.",
         "paragraph", "History", ""),
    ])
    assert direct == "1921"


@pytest.mark.parametrize("text, cand, name", [
    ("He is currently the manager of Bishop's Stortford.", "Bishop", "Bishop's Stortford"),
    ("They went to King's Lynn and Norwich.", "King", "King's Lynn"),
    ("He met Germany's Angela Merkel.", "Germany", "Germany"),  # two capitalised words: a person of it
    ("It is Apple's Siri team.", "Apple", "Apple"),  # a noun after it: a possessive
    ("It was sold to Macy's.", "Macy", "Macy"),
])
def test_a_one_word_name_cut_at_its_possessive_is_read_whole(text: str, cand: str, name: str) -> None:
    assert _title_name(cand, text.index(cand), text, []) == name


@pytest.mark.parametrize("text, parts", [
    ("May 22, 2017 every Monday", [("May 22, 2017", 0)]),
    ("22 November 17615 July 1816", []),  # two dates run together: neither is read
    ("every Monday", [("every Monday", 0)]),
    ("2 February 1910 - 10 February 2000", [("2 February 1910", 0), ("10 February 2000", 18)]),
])
def test_a_date_without_how_often_and_no_date_of_glued_digits(text: str, parts: list[tuple[str, int]]) -> None:
    assert _date_parts(text, 0, "When did it premiere?") == parts


def test_a_version_is_a_number_after_the_name_asked_of(x: SpacyExtractor) -> None:
    assert _versions("Which version of .NET does the example need?", [], "• .NET 8.0 or later • OpenAI API Key") == [
        (".NET 8.0 or later", 2)]
    assert _versions("What Python version is required?", ["Python"], "Requires Python 3.11 or newer.") == [
        ("Python 3.11 or newer", 9)]
    direct, _, _ = answer(x, "Which version of .NET does the retry example need?", [
        ("This example demonstrates multi-hop RAG with retry mechanisms using the Semantic Kernel Graph package.",
         "paragraph", "Retry example", ""),
    ])
    assert direct is None  # a name near the words asked is no version


@pytest.mark.parametrize("line, held", [
    ("Martin Cole — Treasurer (treasurer@example.org, 07700 900261)", ("Martin Cole", "Treasurer")),
    ("- **Ines Vardalou** — Head Brewer", ("Ines Vardalou", "Head Brewer")),
    ("Dev Kallaway - Operations Director; looks after finance", ("Dev Kallaway", "Operations Director")),
])
def test_a_listed_role_ends_at_a_bracket(line: str, held: tuple[str, str]) -> None:
    m = LISTED.search(line)
    assert m is not None and (m.group("name"), m.group("role")) == held


def test_the_club_treasurer_is_the_treasurer_named(x: SpacyExtractor) -> None:
    direct, _, _ = answer(x, "Who is the club treasurer?", [
        ("Present: Rachel Adeyemi (Chair), Tom Harris (Vice-Chair), Priya Nair (Secretary), Martin Cole (Treasurer), "
         "Helen Okoro (Club Captain), Ben Whitlock.", "paragraph", "committee-minutes", ""),
    ])
    assert direct == "Martin Cole"


TIMETABLE = """WEEKLY TIMETABLE

WEDNESDAY
  09:30-11:30  Masters (daytime) rowing          Coach: Richard Tate
  18:00-19:30  Learn to Row course (in blocks)   Lead: Kate Price

FRIDAY
  No water sessions.
  Gym open 17:00-21:00 (key fob access).
"""


def test_rows_typed_in_columns_are_a_heading_and_one_item_each() -> None:
    from kmrag.ingestion.parse.text import parse_text

    blocks = parse_text(TIMETABLE)
    got = [(b.kind, b.text) for b in blocks]
    assert got[1:4] == [("heading", "WEDNESDAY"),
                        ("list_item", "09:30-11:30 · Masters (daytime) rowing · Coach: Richard Tate"),
                        ("list_item", "18:00-19:30 · Learn to Row course (in blocks) · Lead: Kate Price")]
    assert TIMETABLE[blocks[2].start:blocks[2].end].startswith("09:30-11:30  Masters")
    assert got[4] == ("paragraph", "FRIDAY No water sessions. Gym open 17:00-21:00 (key fob access).")  # no columns


@pytest.mark.parametrize("raw", [
    "The club met.  It agreed the fees.\nThe chair spoke.  Nobody objected.",  # prose spaced twice after stops
    "09:30-11:30  Masters rowing\n18:00-19:30 Learn to Row   Lead: Kate",  # columns that do not line up
    "Only one row  of columns",
    "Members  of the club must book boats\nin  advance and sign the book",  # justified prose
    'He said "stop."  And left the room\nthen  he came back',
])
def test_prose_and_ragged_lines_are_no_rows(raw: str) -> None:
    from kmrag.ingestion.parse.text import aligned_rows

    assert aligned_rows(raw) is None


@pytest.mark.parametrize("question, value", [
    ("What time does the Wednesday daytime masters session start?", "09:30"),
    ("What time does the masters session finish on Wednesday?", "11:30"),
    ("What time does the Wednesday session start?", None),  # two sessions that day: which is not said
])
def test_a_timetable_row_s_range_starts_and_ends_what_it_names(x: SpacyExtractor, question: str,
                                                               value: str | None) -> None:
    rows = ("- 09:30-11:30 · Masters (daytime) rowing · Coach: Richard Tate\n"
            "- 18:00-19:30 · Learn to Row course (in blocks) · Lead: Kate Price")
    assert answer(x, question, [(rows, "paragraph", "WEDNESDAY", "")])[0] == value


FEES = ("| Category | Who it is for | 2025/26 fee | 2024/25 fee |\n|---|---|---|---|\n"
        "| Senior Full | Adults 18+, rowing and paddling | £420 | £395 |\n"
        "| Senior Paddling-only | Adults 18+, paddling only | £240 | £240 |\n"
        "| Student | Full-time students aged 18 to 25 | £210 | £210 |")


@pytest.mark.parametrize("question, winner", [
    ("Which is cheaper, Student membership or Senior Paddling-only membership?", "Student membership"),
    ("Which costs more, Senior Full membership or Student membership?", "Senior Full membership"),
])
def test_rows_are_compared_by_names_that_add_the_table_s_kind(x: SpacyExtractor, question: str, winner: str) -> None:
    """"Student membership" is the row "Student" of the "Annual membership" table."""
    direct, quotes, _ = answer(x, question, [(FEES, "table", "Annual membership", "")])
    assert direct == winner and len(quotes) == 2
    # a word the table's title does not say is no part of its rows' names
    assert answer(x, question.replace("membership", "season ticket"), [(FEES, "table", "Annual membership", "")])[0] \
        is None


FAQ = ("**Do I need my own kayak to join the paddling section?** No. The club has ten touring kayaks for members. "
       "**Do I need to be able to swim?** Yes. Everyone must pass the club swim test before going afloat.")


@pytest.mark.parametrize("question, said", [
    ("do i need my own kayak to join the paddling section", "no"),
    ("Do I need to be able to swim?", "yes"),
    ("Can I join without my own kayak?", None),  # negated: not the FAQ's question
    ("Do I need my own paddle?", None),  # one word in common is no match
])
def test_a_yes_no_question_a_faq_asks_is_answered_by_its_yes_or_no(x: SpacyExtractor, question: str,
                                                                    said: str | None) -> None:
    direct, quotes, _ = answer(x, question, [(FAQ, "paragraph", "Starting out", "")])
    assert direct == said
    if said:
        assert quotes[0].endswith("?**") and quotes[1].lower().startswith(said)


def test_a_sentence_ends_inside_markdown_emphasis() -> None:
    from kmrag.nlp.sentences import split_sentences

    got = split_sentences("**Is it free?** Yes, it costs nothing. See *the notes.* Then more.")
    assert got == ["**Is it free?**", "Yes, it costs nothing.", "See *the notes.*", "Then more."]


@pytest.mark.parametrize("question, value", [
    ("how far do you have to swim for the swim test", "50 metres"),
    ("how long do you have to tread water in the swim test", "two minutes"),
])
def test_a_measure_of_the_dimension_asked(x: SpacyExtractor, question: str, value: str) -> None:
    test = ("Every member must pass the club swim test before going afloat: swim **50 metres** in light clothing and "
            "tread water for two minutes.")
    assert answer(x, question, [(test, "paragraph", "Safety", "")])[0] == value


@pytest.mark.parametrize("question, said", [
    ("Was the club founded in 1925?", None),  # another year than the FAQ's
    ("Do coaches need to book boats?", None),  # another subject
    ("Do members need to book boats?", "yes"),
])
def test_a_faq_answers_only_its_own_question(x: SpacyExtractor, question: str, said: str | None) -> None:
    faq = "**Was the club founded in 1921?** Yes, by six friends. **Do members need to book boats?** Yes, always."
    assert answer(x, question, [(faq, "paragraph", "FAQ", "")])[0] == said


def test_a_version_named_as_one_is_kept(x: SpacyExtractor) -> None:
    direct, _, _ = answer(x, "Which version of the Bible is read at the service?", [
        ("At the service the minister reads from the King James Version of the Bible.", "paragraph", "Services", "")])
    assert direct is not None and "King James Version" in direct


def test_a_place_s_possessive_is_not_read_as_one_name(x: SpacyExtractor) -> None:
    direct, _, _ = answer(x, "In which city was the final played?", [
        ("The final was played at London's Wembley.", "paragraph", "Final", "")])
    assert direct != "London's Wembley"
    assert _date_parts("around 10000 BC", 0, "When?") == [("around 10000 BC", 0)]  # no glued date in it


@pytest.mark.parametrize("text, value, shown", [
    ("Call us on 07700-900418.", "900418", False),  # a piece of a telephone number
    ("Held on 2024-05-12 at noon.", "05", False),
    ("The session runs 09:30-11:30 daily.", "11:30", True),
    ("Fees rose from 1,500-2,000 a year.", "2,000", True),
])
def test_a_number_joined_by_a_hyphen_stands_only_as_a_range_s_end(text: str, value: str, shown: bool) -> None:
    import re as _re

    from kmrag.answer.validate import _no_piece_of_an_id

    assert _no_piece_of_an_id(text, _re.search(_re.escape(value), text)) is shown  # type: ignore[arg-type]


def test_a_count_before_a_compared_name_multiplies_its_price(x: SpacyExtractor) -> None:
    """"one Vale Week or four Vale Day tickets" was answered "Vale Day tickets" at 0.97 from the price of one."""
    fares = [("| Ticket | What it covers | Adult |\n|---|---|---|\n| Vale Day | One day's travel | £5.80 |\n"
              "| Vale Week | Seven days' travel | £21.00 |", "table", "Tickets", "")]
    question = "Which is cheaper for an adult, one Vale Week or four Vale Day tickets?"
    assert answer(x, question, fares)[0] == "Vale Week"
    day = next(e for e in basis(x, question, fares)["entities"] if e["name"] == "Vale Day tickets")  # type: ignore
    assert (day["count"], day["each"], day["value"]) == (4.0, 5.8, 23.2)


@pytest.mark.parametrize("question, value", [
    ("How far ahead do I have to book patient transport?", "48 hours"),  # a time ahead, not a length
])
def test_how_far_ahead_asks_a_time(x: SpacyExtractor, question: str, value: str) -> None:
    text = "Patient transport must be booked at least 48 hours before your appointment, up to 20 miles away."
    assert answer(x, question, [(text, "paragraph", "Transport", "")])[0] == value


def test_a_past_event_is_not_dated_by_a_weekday(x: SpacyExtractor) -> None:
    units = [("| Day | Riverside branch |\n|---|---|\n| Thursday | 10:00–17:00 |", "table", "Opening hours", ""),
             ("The **Riverside branch** opened on 22 April 2017 in the former chandlery.", "paragraph", "About", "")]
    assert answer(x, "When did the Riverside branch open?", units)[0] == "22 April 2017"


def test_a_question_picking_by_comparison_is_not_answered_by_one_span(x: SpacyExtractor) -> None:
    """"which branch opens later on a sunday" was answered "Harbourside branch" (the column read), which opens earlier."""
    hours = [("Day: Sunday; Marketgait branch: 11:00–16:00; Harbourside branch: 10:00–16:00", "paragraph",
              "Opening hours", "")]
    assert answer(x, "which branch opens later on a sunday", hours)[0] is None


def test_a_value_cut_inside_brackets_is_no_answer(x: SpacyExtractor) -> None:
    """"retrieve(query" was answered at 0.54 from a code unit's line."""
    code = ('def corrective_rag(query: str, index, top_k: int = 5) -> dict:\n    """\n    Corrective RAG: evaluate '
            'retrieval quality before generation.\n    Falls back to web search if index retrieval quality is too low.\n'
            '    """\n    results = retrieve(query, index, top_k=top_k)\n    quality = retrieval_quality_score(results)')
    got = basis(x, "What does corrective RAG score before deciding whether to fall back?",
                [(code, "code", "Corrective RAG", "")])
    assert got == {"kind": "dropped", "why": "the value read is cut inside brackets"}


def test_a_count_asked_of_a_year_is_read_where_the_year_is_said(x: SpacyExtractor) -> None:
    """"How many members ... at the end of 2024?" was answered "one" at 0.61 from "one member, one vote": the span
    giving the count as of 31 December 2024 was not among the statements chosen."""
    units = [("Quill & Kettle works on the principle of one member, one vote, however many shares you hold.",
              "paragraph", "Membership", ""),
             ("Sent to members on 25 March 2025. Hello, and welcome to the spring newsletter of Quill & Kettle!",
              "paragraph", "Newsletter", ""),
             ("- **Two branches:** Marketgait and Harbourside.\n- **612 members** as of 31 December 2024.\n"
              "- **19 employees**, plus a team of around 30 regular volunteers.", "paragraph", "Quill & Kettle today",
              "")]
    assert answer(x, "How many members did Quill & Kettle have at the end of 2024?", units)[0] == "612"
    assert answer(x, "How many members did Quill & Kettle have at the end of 2019?", units)[0] != "612"
    report = [("Capital investment of £142 million was the highest in the company's history.", "paragraph",
               "Annual report", ""),
              ("The number of customers on our social tariff grew to 31,200 households by March 2024, up from 26,500 a "
               "year earlier.", "paragraph", "Annual report", "")]  # the year alone says nothing of investment
    assert answer(x, "How much capital investment did the company make in the year to March 2024?",
                  report)[0] == "£142 million"
