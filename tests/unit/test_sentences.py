"""Sentence boundaries across scripts: Chinese terminators need no space; a capital of any script starts a
sentence; abbreviations and initials still do not end one."""

from __future__ import annotations

import pytest

from kmrag.nlp.sentences import sentence_spans, split_sentences

pytestmark = pytest.mark.unit


def test_chinese_splits_on_its_own_terminators() -> None:
    text = "传统RAG是“一问一查一答”。多跳检索需要多次查询！为什么？因为问题复杂；所以要分解。"
    assert split_sentences(text) == ["传统RAG是“一问一查一答”。", "多跳检索需要多次查询！", "为什么？",
                                     "因为问题复杂；", "所以要分解。"]
    assert all(text[a:b] for a, b in sentence_spans(text))  # spans index the text as written


def test_capitals_of_any_script_start_a_sentence_and_abbreviations_do_not_end_one() -> None:
    got = split_sentences("Dr. Smith went home. Он пришёл домой. Είναι εδώ. J. R. R. Tolkien wrote it. "
                          "It is 3.5 km long. and so on")
    assert got == ["Dr. Smith went home.", "Он пришёл домой.", "Είναι εδώ.", "J. R. R. Tolkien wrote it.",
                   "It is 3.5 km long. and so on"]


def test_a_list_item_on_a_new_line_opens_a_sentence() -> None:
    text = ("- **Gatehouse** (gateway) — Accepts writes. Owned by Team Sluice.\n- **Ledger** (log) — Appends every "
            "batch.\n2. restart it. Then wait.\nA - b. - c.")
    assert split_sentences(text) == ["- **Gatehouse** (gateway) — Accepts writes.", "Owned by Team Sluice.",
                                     "- **Ledger** (log) — Appends every batch.", "2. restart it.", "Then wait.",
                                     "A - b. - c."]  # a dash inside a line opens nothing


def test_a_line_introducing_a_list_ends_before_its_first_item() -> None:
    text = "use structural parsers:\n1. **Parse**: Extract sections.\n2. **Normalize**: Assign IDs.\nNote: a: b."
    assert split_sentences(text) == ["use structural parsers:", "1. **Parse**: Extract sections.",
                                     "2. **Normalize**: Assign IDs.", "Note: a: b."]  # a colon inside a line splits nothing


def test_each_line_of_a_fact_sheet_is_a_sentence_of_its_own() -> None:
    """Lines of "Field: value" (a price list, a staff sheet) end in no full stop; they were read as one run-on
    sentence ("Larkspur Yeast Lab Honey"). Two or more of them in a paragraph make each a sentence; a value that
    goes on onto the next line stays with its field; the heading above them and what follows stand alone."""
    sheet = ("== TAKE-AWAY ==\nSingle can, 440ml, core beer: £3.80\nMixed case (24 x 440ml core cans): £78.00\n"
             "Present: Cllr Harriet Oyelaran (Chair), Cllr Neville Brasch,\nCllr Amaka Tideswell\n"
             "In attendance: Odile Framsby\n(Central Library Manager)\n\nThe meeting opened at six.")
    assert split_sentences(sheet) == [
        "== TAKE-AWAY ==", "Single can, 440ml, core beer: £3.80", "Mixed case (24 x 440ml core cans): £78.00",
        "Present: Cllr Harriet Oyelaran (Chair), Cllr Neville Brasch,\nCllr Amaka Tideswell",
        "In attendance: Odile Framsby\n(Central Library Manager)", "The meeting opened at six."]
    # one field line, or prose wrapped at a colon, is as before
    assert split_sentences("Note: the shop shuts early\non Fridays.") == ["Note: the shop shuts early\non Fridays."]
    assert split_sentences("The plan is\nas follows: we go. Then we stop.") == [
        "The plan is\nas follows: we go.", "Then we stop."]
    # a line after a field's value that opens a new thought is a sentence of its own
    assert split_sentences("Name: Bob\nRole: chef\nIt was a good day.") == ["Name: Bob", "Role: chef",
                                                                         "It was a good day."]
