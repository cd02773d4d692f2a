"""Chinese plain text: headings by their numbering ("一、", "2.1", "（一）"), not by str.isupper() on a line
whose only Latin letters are capitals."""

from __future__ import annotations

import pytest

from kmrag.ingestion.parse import parse_text

pytestmark = pytest.mark.unit

TEXT = ("一、单跳检索的局限性\n\n传统RAG是“一问一查一答”：\n\n单跳检索无法回答需要多步推理的问题，因为答案分散在多个文档里。\n\n"
        "2.1 迭代检索\n\n每一步检索的结果决定下一步的查询，直到找到答案为止。\n\n（一）子问题分解\n\n把复杂问题分解为子问题。\n\n"
        "NOTES\n\nSome text here for the notes section.")


def test_chinese_headings_by_numbering() -> None:
    blocks = [(b.kind, b.level, b.text) for b in parse_text(TEXT)]
    heads = [(level, text) for kind, level, text in blocks if kind == "heading"]
    assert heads == [(1, "一、单跳检索的局限性"), (2, "2.1 迭代检索"), (2, "（一）子问题分解"), (1, "NOTES")]
    assert ("paragraph", 0, "传统RAG是“一问一查一答”：") in blocks  # upper-case Latin letters alone make no heading
