"""Contacts read from a directory (kmrag.answer.contacts): the number or address of the one entry a question names,
or of the one a span on what the question asks names ("what number do I ring to report a capsize": the page on
who deals with capsizes, then the directory's line for that role); nothing when the name asked is two entries'."""

from __future__ import annotations

import pytest

from kmrag.answer.contacts import contact_asked, holder_keys
from kmrag.answer.extractive import akin
from kmrag.answer.spans import Span
from kmrag.nlp.extract import SpacyExtractor
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit

DIRECTORY = ("- Rachel Adeyemi — Chair (chair@riverside.example, 07700 900112)\n"
             "- Tom Hargreaves — Vice-Chair (07700 900135)\n"
             "- Claire Hargreaves — Membership Secretary (membership@riverside.example, 07700 900372)\n"
             "- Janet Moss — Welfare Officer (welfare@riverside.example, 07700 900395)\n"
             "- Colin Drury — Safety Adviser (safety@riverside.example, 07700 900418)")
WHO_DEALS = ("- **Joining, renewals and key fobs:** Membership Secretary\n"
             "- **An incident, a capsize or a near miss:** Safety Adviser\n"
             "- **Concerns about the welfare of a child:** Welfare Officer")
COACHES = ("| Name | Role | Phone |\n|---|---|---|\n| Fiona Marsh | Junior Rowing Coach | 07700 900519 |\n"
           "| Richard Tate | Masters Coach | 07700 900534 |")
TIMETABLE = ("- 07:30-09:30 · Senior squad · Coach: Daniel Okafor\n"
             "- 09:00-11:00 · Junior squad (J14-J18), rowing · Coach: Fiona Marsh")


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    return SpacyExtractor()


@pytest.mark.parametrize("question, kind", [
    ("what number do i ring to report a capsize", "phone"),
    ("Could you give me the phone number of the coach?", "phone"),
    ("email address for the welfare officer", "email"),
    ("How many boats does the club have?", None),
    ("What is the number of members?", None),
])
def test_a_contact_asked(question: str, kind: str | None) -> None:
    assert contact_asked(question) == kind


@pytest.mark.parametrize("question, value", [
    ("email address for the welfare officer", "welfare@riverside.example"),
    ("What is the chair's phone number?", "07700 900112"),  # not the Vice-Chair's
    ("phone number for Tom Hargreaves", "07700 900135"),
])
def test_the_entry_a_question_names_gives_its_contact(x: SpacyExtractor, question: str, value: str) -> None:
    direct, quotes, _ = answer(x, question, [(DIRECTORY, "paragraph", "Officers", "")])
    assert direct == value and len(quotes) == 1


def test_a_contact_asked_through_who_deals_with_it_is_read_in_two_hops(x: SpacyExtractor) -> None:
    units = [(WHO_DEALS, "paragraph", "Who to contact about what", ""), (DIRECTORY, "paragraph", "Officers", "")]
    direct, quotes, _ = answer(x, "What number do I ring to report a capsize?", units)
    assert direct == "07700 900418"
    assert quotes == ["- **An incident, a capsize or a near miss:** Safety Adviser",
                      "- Colin Drury — Safety Adviser (safety@riverside.example, 07700 900418)"]
    got = basis(x, "What number do I ring to report a capsize?", units)
    assert got["kind"] == "chain" and [h["answer"] for h in got["hops"]] == ["Safety Adviser", "07700 900418"]


def test_a_coach_named_by_a_timetable_row_and_a_table_s_number(x: SpacyExtractor) -> None:
    units = [(TIMETABLE, "paragraph", "SATURDAY", ""), (COACHES, "table", "Coaches", "")]
    direct, _, _ = answer(x, "Could you give me the phone number of the coach who runs the Saturday junior rowing "
                             "squad?", units)
    assert direct == "07700 900519"


def test_a_name_two_entries_share_is_no_answer_of_either(x: SpacyExtractor) -> None:
    units = [(DIRECTORY, "paragraph", "Officers", ""),
             ("Direct Debits are set up by the Membership Secretary, Claire Hargreaves.", "paragraph", "Paying", "")]
    assert basis(x, "phone number for Hargreaves", units).get("kind") != "chain"


def test_whom_to_look_up_is_named_by_the_span_on_what_is_asked() -> None:
    def span(text: str) -> Span:
        return Span("u_1", "s", 0, len(text), text, "sentence", text, 0, "Safety", "Safety")
    spans = [span("Contact Details are on the Committee page."),
             span("Every capsize or near miss must be reported to the **Safety Adviser** within 24 hours."),
             span("Colin Drury — Safety Adviser (07700 900418)")]  # a directory line: no first hop
    assert holder_keys("what number do i ring to report a capsize", spans, akin) == ["Safety Adviser"]
    assert holder_keys("How many capsizes were there?", spans, akin) == []  # no contact asked


@pytest.mark.parametrize("question", [
    "What is the vice captain's phone number?",  # "Captain" is another role
    "assistant coach's phone number",
])
def test_a_role_with_a_word_of_its_own_is_not_the_entry_s(x: SpacyExtractor, question: str) -> None:
    directory = "- Tom Harris — Captain (captain@riverside.example, 07700 900001)\n- Ann Lee — Coach (07700 900002)"
    assert answer(x, question, [(directory, "paragraph", "Officers", "")])[0] is None


def test_a_span_that_denies_or_gives_a_number_itself_is_no_first_hop(x: SpacyExtractor) -> None:
    denies = [("Capsizes are not handled by the Treasurer; see the safety page.", "paragraph", "Notes", ""),
              ("- Martin Cole — Treasurer (07700 900261)\n- Ann Lee — Secretary (07700 900207)", "paragraph", "Officers", "")]
    assert basis(x, "What number do I ring to report a capsize?", denies).get("kind") != "chain"
    gives = [("To report a capsize ring the boathouse on 01632 960700. Capsize reports are then reviewed by the "
              "Safety Adviser.", "paragraph", "Safety", ""), (DIRECTORY, "paragraph", "Officers", "")]
    assert answer(x, "What number do I ring to report a capsize?", gives)[0] != "07700 900418"


@pytest.mark.parametrize("question", ["How often is the email newsletter sent?", "What number of members is needed "
                                      "to call a meeting?"])
def test_email_or_number_said_in_passing_asks_no_contact(question: str) -> None:
    assert contact_asked(question) is None


def test_a_role_after_the_is_looked_up() -> None:
    text = "The Safety Adviser deals with every capsize."
    got = holder_keys("what number do i ring to report a capsize",
                      [Span("u_1", "s", 0, len(text), text, "sentence", text, 0, "Safety", "Safety")], akin)
    assert got == ["Safety Adviser"]


STAFF_RECORDS = """Name: Helen Okafor
Role: Finance Manager
Email: helen.okafor@millrace.example
Extension: 210

Name: Dev Malhotra
Role: Venue Hire & Events Coordinator
Email: dev.malhotra@millrace.example
Extension: 290

Name: Felix Wendt
Role: Cinema Programmer
Email: felix.wendt@millrace.example
Extension: 240"""
HIRE = ("Studio A can be hired on Saturday afternoons and Sundays for a minimum of two hours. Please contact the "
        "Venue Hire & Events Coordinator for a quote.")


@pytest.mark.parametrize("question, kind", [
    ("which phone extension do I ring to ask about hiring a studio", "extension"),
    ("What's the extension of the Finance Manager?", "extension"),
    ("What is the phone number of the box office?", "phone"),
])
def test_an_extension_asked(question: str, kind: str) -> None:
    assert contact_asked(question) == kind


def test_a_directory_of_records_gives_the_extension_in_two_hops(x: SpacyExtractor) -> None:
    """"which phone extension do I ring to ask about hiring a studio": the FAQ names the Venue Hire & Events
    Coordinator, the staff directory's record for that role gives Extension: 290."""
    units = [(HIRE, "paragraph", "Can I hire a studio?", ""), (STAFF_RECORDS, "paragraph", "Staff directory", "")]
    direct, quotes, _ = answer(x, "which phone extension do I ring to ask about hiring a studio", units)
    assert direct == "290" and "Extension: 290" in quotes
    assert answer(x, "email address for the venue hire & events coordinator", units)[0] == "dev.malhotra@millrace.example"
    assert answer(x, "What's the extension of the Cinema Programmer?", units)[0] == "240"
