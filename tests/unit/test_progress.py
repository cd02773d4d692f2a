"""Ingestion progress: bars on a terminal, periodic lines in a log, nothing with --json."""

from __future__ import annotations

import pytest

from kmrag.ingestion.progress import Progress, progress_mode

pytestmark = pytest.mark.unit


def test_progress_lines_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert progress_mode(False) == "off" and progress_mode(True) == "bars"
    p = Progress("lines", interval=0)
    p.add("documents", 2)
    p.add("nlp", 40)
    p.close()
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("kmrag: progress: documents 2 (") and "elapsed" in err[0]
    assert err[-1].startswith("kmrag: done: documents 2") and "nlp 40 (" in err[-1]
    quiet = Progress("off")
    quiet.add("documents", 1)
    quiet.close()
    assert capsys.readouterr().err == ""
