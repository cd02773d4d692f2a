"""Code written into plain text without fences (articles pasted as .txt, release notes, PDFs' text):
the regions of lines that are program text, so they become `code` blocks rather than paragraphs,
steps and headings ("# 使用示例" is a comment, not a title).

A region starts at a line that is a statement in a common language (``def``/``class``/``import``,
``return``, a lowercase ``if …:``/``for … in …:``, an assignment or a call, a decorator, a shell or
REPL prompt, a closing brace) and runs on over blank lines, lines indented deeper than its first line,
comment lines and further statements; it ends at the first line back at the region's indentation that
is none of those (prose, a heading). A region needs two statement or comment lines, so one sentence
that happens to start with a keyword is never code.
"""

from __future__ import annotations

import re

_STATEMENT = re.compile(
    r"""^(?:
        (?:async\s+)?def\s+\w+\s*\(.*                       # Python def
      | class\s+\w+[\w\s,()\[\].=]*:\s*$                    # Python class
      | (?:import\s+[\w.]+|from\s+[\w.]+\s+import\s+\S)     # Python imports
      | (?:return|raise|yield|await|break|continue|pass)\b(?!\s+[A-Z][a-z]+\s+[a-z]) # flow
      | (?:if|elif|while|with)\s.*:\s*$ | (?:else|try|finally)\s*:\s*$ | except\b.*:\s*$
      | for\s+[\w, ()]+\s+in\s+.+:\s*$                       # Python for
      | (?:const|let|var)\s+\w+\s*[=:;] | (?:func|fn)\s+\w+\s*[(<]         # JS, Go, Rust
      | (?:(?:public|private|protected|internal|static|async|override|readonly)\s+)+[\w<>\[\],.?]+\s+\w+\s*[({=;]
      | using\s+[\w.]+\s*; | package\s+[\w.]+\s*;?\s*$ | \#include\s*[<"] | \#define\s+\w+
      | [A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*(?:=|\+=|-=|:=|\*=)\s*\S.*  # assignment
      | [A-Za-z_][\w.]*\(.*\)\s*[;,]?\s*$                    # a call statement
      | @[A-Za-z_][\w.]*(?:\(.*\))?\s*$                       # decorator
      | (?:\$|>>>|\.\.\.|%)\s+\S.*                            # shell / REPL prompt
      | [}\])]+\s*[;,)]*\s*$ | .*[{;]\s*$                     # braces, statement ends
      | (?:\"\"\"|''').*                                      # docstring
    )""",
    re.X,
)
_COMMENT = re.compile(r"^(?:#(?!#)|//|--\s|/\*|\*\s|\*/)")
_PROSE_END = re.compile(r"[.!?。！？]\s*$")


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')


def _depth(line: str) -> int:
    """How many brackets a line leaves open (negative: closes)."""
    return sum(line.count(c) for c in "([{") - sum(line.count(c) for c in ")]}")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def is_statement(line: str) -> bool:
    s = line.strip()
    if not s or len(s) > 400:
        return False
    if _STATEMENT.match(s):
        # a sentence that looks like an assignment ("x = the number of hops.") or a call
        # is prose when it ends like a sentence and holds several plain words
        return not (_PROSE_END.search(s) and len(re.findall(r"\b[a-z]{3,}\b", s)) >= 6 and "(" not in s)
    return False


def code_regions(text: str) -> list[tuple[int, int]]:
    """Char spans (start, end) of the code regions of plain text."""
    lines = text.splitlines(keepends=True)
    starts = []
    pos = 0
    for ln in lines:
        starts.append(pos)
        pos += len(ln)
    regions: list[tuple[int, int]] = []
    i = 0
    in_string = False
    while i < len(lines):
        line = lines[i]
        if not is_statement(line):
            i += 1
            continue
        base = _indent(line)
        j, last, code_lines, depth = i, i, 0, 0
        in_string = False
        while j < len(lines):
            ln = lines[j]
            s = ln.strip()
            if s.count('"""') % 2 or s.count("'''") % 2:
                in_string = not in_string
                last, code_lines = j, code_lines + 1
            elif not s:
                pass
            elif in_string or depth > 0 or _indent(ln) > base:
                last = j
            elif is_statement(ln) or _COMMENT.match(s):
                last, code_lines = j, code_lines + 1
            else:
                break
            if not in_string:
                depth = max(0, depth + _depth(_STRING.sub("", s)))
            j += 1
        if code_lines >= 2 and last > i:
            end = starts[last] + len(lines[last].rstrip("\r\n"))
            regions.append((starts[i] + base, end))
        i = last + 1
    return regions
