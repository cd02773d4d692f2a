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


def test_eta_text() -> None:
    from kmrag.ingestion.progress import eta_text

    assert eta_text(12, 40, 60.0) == "about 2 min left"  # 28 left at 0.2/s: 140 s
    assert eta_text(30, 40, 30.0) == "about 10 s left"
    assert eta_text(1, 1000, 60.0) == "about 16 h 39 min left"
    assert eta_text(0, 40, 10.0) == eta_text(5, None, 10.0) == eta_text(40, 40, 10.0) == ""


def test_lines_show_totals_once_known_and_the_time_left(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from kmrag.ingestion import progress

    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    p = Progress("lines", interval=30)
    p.add("documents", 1)  # before the walk's end: no total
    p.found(3)  # three files, one a record file of 3 records
    for _ in range(3):
        p.record("recs.jsonl")
    p.expect("write", 10)
    p.expect("write", 5)
    assert p.totals["documents"] == 5 and p.totals["write"] == 15 and p.totals["nlp"] is None
    p.add("documents", 1)
    clock[0] = 160.0
    p.add("write", 6)  # 60 s on: the line
    p.close()
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("kmrag: progress: documents 2/5 (0.03/s, about 2 min left), nlp 0 (0/s), "
                      "embed 0 (0/s), write 6/15 (0.10/s); 60 s elapsed")
    assert err[-1].startswith("kmrag: done: documents 2/5 (")
