"""Questions that ask what a thing does or is for ("What does Millstone do?", "What is the Ledger used for?"): read
from a glossed term ("- **Millstone** (compactor) — Merges ...") or from a sentence whose subject is the thing, and
never from a sentence that only mentions it. Found on a software company's wiki, where every such question was
"not found" or answered with a name ("What is the Ledger used for?" → "Gatehouse" at 0.56)."""

from __future__ import annotations

import pytest

from kmrag.nlp.extract import SpacyExtractor
from kmrag.nlp.glossed import glossed, glosses, thing_names
from kmrag.retrieval.analysis import QuestionAnalyser, thing_described
from tests.unit.test_extractive_answers import answer, basis

pytestmark = pytest.mark.unit

WRITE_PATH = """- **Gatehouse** (ingest gateway) — Accepts writes over HTTP and groups incoming samples into batches. Owned by Team Sluice.
- **Ledger** (write-ahead log) — Appends every accepted batch to local disk before the write is acknowledged. Owned by Team Keel.
- **Millstone** (compactor) — Merges small segment files into larger ones every 10 minutes. Owned by Team Keel."""
RULES = "Scythe and Millstone must take block locks in ascending block-ID order."
TIMELINE = "09:34 Millstone is found stuck; pausing and resuming it has no effect."
SELF_RAG = ("Self-RAG adds a check after generation. If the generated answer is not well-supported by the retrieved "
            "chunks, the system re-retrieves with a refined query and regenerates.")


@pytest.mark.parametrize(("question", "thing", "rest"), [
    ("What does Millstone actually do?", "Millstone", ""),
    ("what's Scythe for", "Scythe", ""),
    ("Can someone explain what the Sieve component does?", "Sieve component", ""),
    ("What is Switchyard's job in a Tallyhouse cluster?", "Switchyard", "in a Tallyhouse cluster"),
    ("What is the Ledger used for?", "Ledger", ""),
    ("What is the purpose of the result cache?", "result cache", ""),
    ("What does Self-RAG do if the generated answer is not well-supported?", "Self-RAG",
     "if the generated answer is not well-supported"),
    ("What is the Patient Transport Service actually for?", "Patient Transport Service", ""),
    ("I'm thinking of volunteering as a ward befriender - what would I actually be doing?", "ward befriender", ""),
    ("What does a ward befriender do?", "ward befriender", ""),
])
def test_a_question_asking_what_a_thing_does_names_the_thing(question: str, thing: str, rest: str) -> None:
    assert thing_described(question) == (thing, rest)


@pytest.mark.parametrize("question", [
    "What do I pay for parking?", "What does the Business plan cost per seat per month?", "What is the fee for parking?",
    "What country does the director of Axis (Film) come from?", "What do John Lanchester and Alan Dean Foster both do "
    "for a living?", "What is the award named for?", "What does RAG stand for?", "What is the capital of France?",
    "What does it do?", "Who founded Lufthansa?",
])
def test_other_questions_ask_no_description(question: str) -> None:
    assert thing_described(question) is None


def test_the_analysis_types_a_description_and_nothing_else(x: SpacyExtractor) -> None:
    analyser = QuestionAnalyser(x)
    assert analyser.analyse("What does Millstone do?").answer_type == "DESCRIBE"
    assert analyser.analyse("What does the Business plan cost per seat per month?").answer_type == "MONEY"


def test_a_glossed_term_is_the_whole_name_before_its_dash_or_colon() -> None:
    line = "- **Millstone** (compactor) — Merges small segment files into larger ones every 10 minutes."
    assert glossed(line, ["Millstone"]) == "Merges small segment files into larger ones every 10 minutes"
    assert glossed("Ledger: the write-ahead log of every node.", ["Ledger"]) == "the write-ahead log of every node"
    assert glossed(line, ["Mill"]) is None and glossed("- **Millstones** — Merge files.", ["Millstone"]) is None
    assert glossed(RULES, ["Millstone"]) is None and glossed("Millstone — ok", ["Millstone"]) is None  # too short
    assert thing_names("the Sieve component") == ["the Sieve component", "the Sieve"]
    assert glosses(WRITE_PATH, ["Ledger"]) and not glosses(RULES, ["Scythe"])


def test_the_description_is_read_from_the_glossed_item_not_a_sentence_mentioning_the_thing(x: SpacyExtractor) -> None:
    units = [(RULES, "rule", "Design rules", ""), (TIMELINE, "paragraph", "Timeline", ""),
             (WRITE_PATH, "paragraph", "Write path", "")]
    direct, quotes, _ = answer(x, "What does Millstone actually do?", units)
    assert direct == "Merges small segment files into larger ones every 10 minutes"
    assert quotes == ["- **Millstone** (compactor) — Merges small segment files into larger ones every 10 minutes."]
    assert answer(x, "What is the Ledger used for?", units)[0] == \
        "Appends every accepted batch to local disk before the write is acknowledged"
    assert basis(x, "What is the Ledger used for?", units)["how"] == "glossed"


def test_a_sentence_whose_subject_is_the_thing_or_stands_for_it_under_its_heading(x: SpacyExtractor) -> None:
    units = [(SELF_RAG, "paragraph", "Self-RAG", "")]
    question = "What does Self-RAG do if the generated answer is not well-supported?"
    assert answer(x, question, units)[0] == "re-retrieves with a refined query and regenerates"
    assert basis(x, question, units)["how"] == "subject"
    # the condition's polarity is the question's: the span says what happens when it is *not* well-supported
    assert answer(x, "What does Self-RAG do if the generated answer is well-supported?", units)[0] is None
    # a condition the span does not state is no description of what the thing does then
    assert answer(x, "What does Self-RAG do if the retrieval times out?", units)[0] is None


def test_a_shared_subject_or_a_passive_is_no_description(x: SpacyExtractor) -> None:
    units = [(RULES, "rule", "Design rules", ""), (TIMELINE, "paragraph", "Timeline", "")]
    assert answer(x, "What does Millstone do?", units)[0] is None  # "Scythe and Millstone must ...", "is found stuck"
    assert answer(x, "What does Scythe do?", [(RULES, "rule", "Design rules", "")])[0] is None


def test_a_list_item_quoted_without_its_bullet_and_a_code_in_it_stand() -> None:
    """"What is the Airlink 23X?" was not found: the statement, its item quoted without the "- ", was dropped for
    "'23X' not in the cited spans" (the evidence's words split "23X" in two where the statement's kept it whole)."""
    from kmrag.answer.judge import judge

    item = ("- **Airlink 23X** (express) — A limited-stop service between Orrisford Bus Station and Kestrelvale "
            "Airport, with luggage racks on every bus.")
    assert judge(item[2:], [item]).supported and judge(item[2:], [item]).score == 1.0
    assert judge("The Airlink 23X is a limited-stop service between Orrisford Bus Station and Kestrelvale Airport.",
                 [item]).supported
    assert not judge("The Airlink 23X is a limited-stop service between Orrisford Bus Station and Saltmarrow Quay.",
                     [item]).supported


def test_a_name_alone_asked_what_it_is_is_described(x: SpacyExtractor) -> None:
    assert thing_described("What is the Airlink 23X?") == ("Airlink 23X", "")
    assert thing_described("What is the capital of France?") is None and thing_described("What is it?") is None
    units = [("- **Airlink 23X** (express) — A limited-stop service between Orrisford Bus Station and Kestrelvale "
              "Airport.\n- **Skylark** (night bus) — Runs hourly on Friday nights.", "paragraph", "Our services", "")]
    assert answer(x, "What is the Airlink 23X?", units)[0] == \
        "A limited-stop service between Orrisford Bus Station and Kestrelvale Airport"


@pytest.mark.parametrize(("question", "content", "title"), [
    ("What does Millstone do?", "- Millstone: no change since last week, still blocked on review.", "Status"),
    ("What is Scythe for?", "- Scythe: faster deletes.\n- Ledger: fewer fsyncs.", "Changelog 2.3"),
    ("What does Dana Pryce do?", "Dana Pryce lives in Harrowgate with her two dogs.", "Staff"),
    ("What does Ledger do?", "Ledger does not replicate data across nodes.", "Ledger"),
    ("What does Millstone do?", "The system pages the on-call engineer when disk usage passes 90%.",
     "Millstone incident review"),
    ("What does Gatehouse do with rejected writes?", "- **Gatehouse** — Accepts writes over HTTP and groups samples "
     "into batches.", "Write path"),
])
def test_a_status_a_field_list_or_any_predicate_is_no_description(x: SpacyExtractor, question: str, content: str,
                                                                   title: str) -> None:
    """A reviewer's probes, each answered at about 0.68 before: a status line or a changelog's entry is no gloss, a
    field list does not run on into the description, what a thing has or is not, or where a person lives, is no
    description of what it does, "the system" stands for the thing only under a condition the question sets, and
    "with rejected writes" must be said."""
    assert answer(x, question, [(content, "paragraph", title, "")])[0] is None


def test_a_field_line_of_a_fact_sheet_is_read_alone_not_run_on_into_the_next(x: SpacyExtractor) -> None:
    """Each line of a run of "Field: value" lines is a sentence of its own: the Ledger's gloss stops at its line's
    end (it used to run on into "Owner: Team Keel ...", and was refused for that)."""
    content = "Ledger: the write-ahead log\nOwner: Team Keel\nOn-call: Priya Okafor"
    assert answer(x, "What is the Ledger?", [(content, "paragraph", "Components", "")])[0] == "the write-ahead log"


def test_what_a_thing_does_is_its_functional_sentence_not_what_it_uses(x: SpacyExtractor) -> None:
    units = [("Millstone uses about 4 GB of memory per node. Millstone merges small segment files.", "paragraph",
              "Components", "")]
    assert answer(x, "What does Millstone do?", units)[0] == "merges small segment files"


def test_what_is_a_name_reads_what_a_copula_says_it_is(x: SpacyExtractor) -> None:
    units = [("Tallyhouse is a self-hosted metrics database. A single binary contains every component.", "paragraph",
              "Architecture", "")]
    assert answer(x, "What is Tallyhouse?", units)[0] == "a self-hosted metrics database"
    assert answer(x, "What does Tallyhouse do?", units)[0] is None  # what it is, not what it does
    assert answer(x, "What is Tallyhouse?", [("Tallyhouse is not a hosted service.", "paragraph", "FAQ", "")]
                  )[0] is None  # what it is not


def test_the_first_item_of_a_list_after_its_introducing_line_is_read(x: SpacyExtractor) -> None:
    """The seeds' "use structural parsers:\\n1. **Parse**: Extract sections/tables" was one sentence with its intro."""
    units = [("Instead of split, use structural parsers:\n1. **Parse**: Extract sections/tables (e.g., using "
              "Unstructured).\n2. **Normalize**: Assign stable IDs based on content hash + source metadata.",
              "paragraph", "4. Ingestion Workflow", "")]
    assert answer(x, "What does the Parse step do?", units)[0] == "Extract sections/tables (e.g., using Unstructured)"
    assert answer(x, "What does the Normalize step do?", units)[0] == \
        "Assign stable IDs based on content hash + source metadata"


@pytest.mark.parametrize(("question", "thing"), [
    ("Please explain what the Repair Café is.", "Repair Café"),
    ("Can you explain what the plate heat exchanger is for?", "plate heat exchanger"),
    ("Could you describe what the Digital Drop-in is?", "Digital Drop-in"),
])
def test_a_request_to_explain_what_a_thing_is_or_is_for_asks_a_description(question: str, thing: str) -> None:
    """Two users' forms answered "not found" (0.02, 0.45): "explain what X is" and "explain what X is for", the
    questions "What is X?" and "What is X for?" embedded in a request; "explain what the fee is for" is no such
    question (a sum's noun), nor "explain what the problem is" (no name)."""
    assert thing_described(question) == (thing, "")
    assert thing_described("Can you explain what the fee is for?") is None
    assert thing_described("Explain what the problem is.") is None
