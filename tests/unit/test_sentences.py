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
