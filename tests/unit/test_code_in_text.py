"""Program text pasted into plain text without fences becomes `code` blocks; prose that merely starts
with a keyword does not."""

from __future__ import annotations

import pytest

from kmrag.ingestion.parse.code_lines import code_regions
from kmrag.ingestion.parse.text import parse_text

pytestmark = pytest.mark.unit

PY = '''2.1 迭代检索（Iterative Retrieval）

最直观的方案：查一步、用结果再查一步。

class IterativeRetriever:
    """迭代检索"""

    def __init__(self, llm, max_hops: int = 3):
        self.llm = llm

        prompt = f"""
        原始问题：{query}

        请判断：这些文档是否足以回答原始问题？
        """


# 使用示例
retriever = IterativeRetriever(llm)

# 输出：
# 第1跳，查询：马斯克创立的公司

2.2 分解检索（Decomposition Retrieval）

把复杂问题拆成子问题。
'''


def test_python_in_chinese_text_is_one_code_block_and_the_text_around_it_is_kept() -> None:
    blocks = parse_text(PY)
    kinds = [(b.kind, b.text[:12]) for b in blocks]
    code = [b for b in blocks if b.kind == "code"]
    assert len(code) == 1, kinds
    assert code[0].text.startswith("class IterativeRetriever:")
    assert code[0].text.endswith("# 第1跳，查询：马斯克创立的公司")  # the comments are the code's, not headings
    assert PY[code[0].start:code[0].end] == code[0].text
    headings = [b.text for b in blocks if b.kind == "heading"]
    assert headings == ["2.1 迭代检索（Iterative Retrieval）", "2.2 分解检索（Decomposition Retrieval）"]
    assert [b.text for b in blocks if b.kind == "paragraph"] == ["最直观的方案：查一步、用结果再查一步。", "把复杂问题拆成子问题。"]


def test_csharp_and_a_call_spanning_lines_are_code() -> None:
    text = ("The executor is built as follows.\n\n"
            "private static GraphExecutor Create(Kernel kernel)\n{\n    var executor = new GraphExecutor();\n"
            "    executor.AddEdge(ConditionalEdge.Create(\n        analyze,\n        retrieve));\n    return executor;\n}\n\n"
            "It returns the executor.\n")
    (start, end), = code_regions(text)
    assert text[start:end].startswith("private static") and text[start:end].endswith("}")
    assert "It returns" not in text[start:end]


@pytest.mark.parametrize("prose", [
    # release-note continuation lines and sentences that start with a keyword
    ' * "git log" learned a new option; see the documentation for details\n   using the "key::" prefix\n'
    '   mechanism (e.g. "key::ecdsa").\n',
    "return to the main menu and press the button.\nif you are lost: ask the desk.\n",
    "import duties are paid at the border.\n",
    "The value x = the number of hops. It is small.\nLet the user decide.\n",
    "Note: install the package first.\nThen run it.\n",
])
def test_prose_is_not_code(prose: str) -> None:
    assert code_regions(prose) == []
    assert all(b.kind != "code" for b in parse_text(prose))


def test_a_single_statement_line_is_not_a_region() -> None:
    assert code_regions("Run this:\n\nprint(answer)\n\nand read the result.\n") == []
