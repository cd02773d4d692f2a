"""The batch support check behind `kmrag support check` and POST /v1/support: items parsed at the boundary,
one result per item in order, a bad item reported by its line or index while the others are checked, limits
named with their settings. Spans input needs no database (the unit store is asked only for unit ids)."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from kmrag import cli
from kmrag.answer import support_check
from kmrag.answer.judge import judge
from kmrag.answer.support_check import SupportLimits, check_items, check_lines, parse_item
from kmrag.config import load_settings
from kmrag.errors import BadInput
from kmrag.units.store import StoredUnit

pytestmark = pytest.mark.unit

SPAN = "Marie Curie was born in Warsaw. She moved to Paris in 1891."
GOOD = {"statement": "Marie Curie was born in Warsaw.", "spans": [SPAN]}
WRONG = {"statement": "Marie Curie moved to Paris in 1900.", "spans": [SPAN]}
U1, U2, NOPE = "u_" + "1" * 16, "u_" + "2" * 16, "u_" + "f" * 16
LIMITS = SupportLimits(max_statement_chars=100, max_span_chars=200, max_spans=3)


def unit(uid: str, content: str, title: str = "") -> StoredUnit:
    return StoredUnit(id=uid, tenant="t", source_id="notes.txt", source_version="v1", type="paragraph", title=title,
                      ordinal=0, content=content)


class Units:
    """The tenant's units by id, as the unit store answers (unknown ids left out), counting the calls."""

    def __init__(self, *units: StoredUnit) -> None:
        self.units = {u.id: u for u in units}
        self.calls: list[list[str]] = []

    def __call__(self, ids: Sequence[str]) -> list[StoredUnit]:
        self.calls.append(list(ids))
        return [self.units[i] for i in ids if i in self.units]


def lines(*rows: object) -> io.BytesIO:
    return io.BytesIO(b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in rows))


def results(*rows: object, units: Units | None = None, limits: SupportLimits = LIMITS) -> list[dict]:
    return [c.as_dict() for c in check_lines(lines(*rows), limits, units or Units(), "t")]


def test_spans_lines_get_the_checkers_verdicts_in_order_without_a_database() -> None:
    fetch = Units()
    got = results(GOOD, WRONG, {**GOOD, "titles": ["Marie Curie"]}, units=fetch)
    assert [r["line"] for r in got] == [1, 2, 3]
    v = judge(str(WRONG["statement"]), [SPAN])
    assert got[0] == {"line": 1, "supported": True, "score": 1.0, "failed": None}
    assert got[1] == {"line": 2, "supported": False, "score": round(v.score, 4), "failed": v.failed}
    assert "1900" in str(got[1]["failed"]) and got[2]["supported"] is True
    assert fetch.calls == []  # no unit ids: the unit store is never asked


def test_titles_count_as_cited_names() -> None:
    item = {"statement": "It was founded in 1953 by Lufthansa.", "spans": ["It was founded in 1953."]}
    without, with_title = results(item, {**item, "titles": ["Lufthansa"]})
    assert without["supported"] is False and "lufthansa" in without["failed"].lower()
    assert with_title["supported"] is True


@pytest.mark.parametrize(("row", "says"), [
    (b"not json at all", "not JSON (Expecting value at column 1)"),
    (b'{"statement": "x", "spans": ["y"]', "not JSON"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    ([GOOD], "not a JSON object (got array)"),
    ("just a string", "not a JSON object (got string)"),
    ({"statement": "", "spans": [SPAN]}, "statement is empty"),
    ({"statement": " \t ", "spans": [SPAN]}, "statement is empty"),
    ({"spans": [SPAN]}, "statement is missing"),
    ({"statement": 7, "spans": [SPAN]}, "statement must be a string, not number"),
    ({"statement": "Paris."}, "no evidence: give spans"),
    ({"statement": "Paris.", "spans": []}, "no evidence: give spans"),
    ({"statement": "Paris.", "spans": [SPAN], "unit_ids": [U1]}, "give spans or unit_ids, not both"),
    ({"statement": "Paris.", "unit_ids": [U1], "titles": ["T"]}, "titles go with spans"),
    ({"statement": "Paris.", "spans": SPAN}, "spans must be an array of strings, not string"),
    ({"statement": "Paris.", "spans": [SPAN, 3, None]},
     "spans[1] must be a string, not number; spans[2] must be a string, not null"),
    ({"statement": "Paris.", "spans": [SPAN, "  "]}, "spans[1] is empty"),
    ({"statement": "Paris.", "span": [SPAN]}, "unknown field 'span'"),
    ({"statement": "Paris.", "unit_ids": ["u_x"]}, "unit_ids[0]: 'u_x' is not a unit id"),
    ({"statement": "Paris.", "unit_ids": [42]}, "unit_ids[0] must be a string, not number"),
])
def test_a_bad_line_is_named_by_its_number_and_the_others_are_checked(row: object, says: str) -> None:
    got = results(GOOD, row, WRONG)
    assert got[0]["supported"] is True and got[2]["supported"] is False
    assert set(got[1]) == {"line", "error"} and got[1]["line"] == 2, got[1]
    assert got[1]["error"].startswith("line 2: ") and says in got[1]["error"], got[1]


@pytest.mark.parametrize(("row", "says"), [
    ({"statement": "x" * 101, "spans": [SPAN]},
     "statement is 101 characters, over the limit of 100 (KMRAG_SUPPORT_MAX_STATEMENT_CHARS)"),
    ({"statement": "Paris.", "spans": [SPAN] * 4}, "4 spans, over the limit of 3 per statement (KMRAG_SUPPORT_MAX_SPANS)"),
    ({"statement": "Paris.", "unit_ids": [U1] * 4}, "4 unit_ids, over the limit of 3 per statement"),
    ({"statement": "Paris.", "spans": [SPAN], "titles": ["t"] * 4}, "4 titles, over the limit of 3"),
    ({"statement": "Paris.", "spans": [SPAN, "y" * 201]},
     "spans[1] is 201 characters, over the limit of 200 per span (KMRAG_SUPPORT_MAX_SPAN_CHARS)"),
    ({"statement": "Paris.", "spans": [SPAN], "titles": ["y" * 201]}, "titles[0] is 201 characters"),
])
def test_limits_are_named_with_their_settings(row: dict, says: str) -> None:
    (got,) = results(row)
    assert set(got) == {"line", "error"} and got["error"].startswith("line 1: " + says), got
    assert got["error"].endswith(")") and "KMRAG_SUPPORT_MAX_" in got["error"]


def test_items_at_the_limits_are_checked() -> None:
    rows = [{"statement": "x" * 100, "spans": [SPAN] * 3, "titles": ["t" * 200] * 3},
            {"statement": "Paris.", "spans": ["y" * 200]}, {"statement": "Paris.", "unit_ids": [U1] * 3}]
    assert all("supported" in r for r in results(*rows, units=Units(unit(U1, "z" * 5000)))), rows


def test_the_limits_are_settings() -> None:
    settings = load_settings(environ={"KMRAG_SUPPORT_MAX_SPANS": "2", "KMRAG_SUPPORT_MAX_SPAN_CHARS": "30",
                                      "KMRAG_SUPPORT_MAX_STATEMENT_CHARS": "40"}, config_file=Path("/nonexistent"))
    limits = SupportLimits.from_settings(settings)
    assert (limits.max_spans, limits.max_span_chars, limits.max_statement_chars) == (2, 30, 40)
    defaults = SupportLimits.from_settings(load_settings(environ={}, config_file=Path("/nonexistent")))
    assert (defaults.max_spans, defaults.max_span_chars, defaults.max_statement_chars) == (50, 20_000, 5000)
    with pytest.raises(BadInput, match="3 spans, over the limit of 2"):
        parse_item({"statement": "x", "spans": ["a", "b", "c"]}, limits)


def test_unit_ids_are_read_once_per_batch_and_unknown_ones_are_named() -> None:
    fetch = Units(unit(U1, "Marie Curie was born in Warsaw.", title="Marie Curie"),
                  unit(U2, "She moved to Paris in 1891.", title="Marie Curie"))
    got = results({"statement": "She moved to Paris in 1891.", "unit_ids": [U2, U2]},
                  {"statement": "Marie Curie was born in Warsaw.", "unit_ids": [U1, NOPE]},
                  b"{broken",
                  {"statement": "Marie Curie moved to Paris in 1891.", "unit_ids": [U2]},
                  {"statement": "Curie was born in 1867.", "unit_ids": [U1, U2]},
                  units=fetch)
    assert fetch.calls == [[U2, U1, NOPE]]  # one lookup for the batch, each id once
    assert got[0] == {"line": 1, "supported": True, "score": 1.0, "failed": None}
    assert got[1] == {"line": 2, "error": f"line 2: unknown unit id in tenant 't': {NOPE}"}
    assert got[2]["line"] == 3 and got[2]["error"].startswith("line 3: not JSON")
    assert got[3]["supported"] is True  # the name comes from the unit's title
    assert got[4]["supported"] is False and "1867" in got[4]["failed"]


def test_batches_keep_the_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(support_check, "BATCH", 2)
    fetch = Units(unit(U1, SPAN))
    rows = [GOOD, {"statement": "Marie Curie was born in Warsaw.", "unit_ids": [U1]}, b"[]", WRONG,
            {"statement": "x", "unit_ids": [NOPE]}]
    got = results(*rows, units=fetch)
    assert [r["line"] for r in got] == [1, 2, 3, 4, 5]
    assert [r.get("supported") for r in got] == [True, True, None, False, None]
    assert fetch.calls == [[U1], [NOPE]]


def test_blank_lines_are_skipped_and_a_byte_order_mark_is_read() -> None:
    stream = io.BytesIO(b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\r\n\n   \n" + json.dumps(WRONG).encode())
    got = [c.as_dict() for c in check_lines(stream, LIMITS, Units(), "t")]
    assert [(r["line"], r["supported"]) for r in got] == [(1, True), (4, False)]


def test_request_items_are_indexed_from_zero() -> None:
    got = [c.as_dict("index") for c in check_items([GOOD, 5, {"statement": "x", "unit_ids": [NOPE]}, WRONG],
                                                   LIMITS, Units(), "t")]
    assert [r["index"] for r in got] == [0, 1, 2, 3]
    assert got[1] == {"index": 1, "error": "items[1]: " + got[1]["error"].removeprefix("items[1]: ")}
    assert "not a JSON object (got number)" in got[1]["error"]
    assert got[2]["error"] == f"items[2]: unknown unit id in tenant 't': {NOPE}"
    assert got[0]["supported"] is True and got[3]["supported"] is False


# -- the CLI face, on spans (no database) -------------------------------------------------------------------


@pytest.fixture
def no_db(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Settings without servers, a data folder of its own: spans-only checks must not need a store."""
    for var in ("KMRAG_DATABASE_URL", "KMRAG_NEO4J_URI", "KMRAG_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("KMRAG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def test_cli_json_exit_codes_and_text(no_db: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok = tmp_path / "ok.jsonl"
    ok.write_bytes(lines(GOOD, WRONG).getvalue())
    assert cli.main(["support", "check", str(ok), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"ok": True, "command": "support check", "data": results(GOOD, WRONG)}

    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(lines(GOOD, b"oops", WRONG).getvalue())
    assert cli.main(["support", "check", str(bad), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and [r["line"] for r in out["data"]] == [1, 2, 3]
    assert out["data"][1]["error"].startswith("line 2: not JSON") and out["data"][2]["supported"] is False
    assert out["error"]["type"] == "BadInput" and out["error"]["exit_code"] == 2
    assert "1 of 3 line(s) could not be checked (line(s) 2)" in out["error"]["message"]

    assert cli.main(["support", "check", str(bad)]) == 2
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("line 1  ✓ 1.00  Marie Curie was born in Warsaw.")
    assert text[1].startswith("line 2  error: not JSON")
    assert text[2].startswith("line 3  ✗ ") and "failed: number '1900' is not in the cited spans" in text[2]
    assert text[3] == "3 statement(s): 1 supported, 1 not supported, 1 could not be checked"
    assert not (tmp_path / "data").exists()  # no store was opened


def test_cli_reads_stdin_and_refuses_a_missing_or_empty_file(no_db: None, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(lines(GOOD)))
    assert cli.main(["support", "check", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["data"] == results(GOOD)
    assert cli.main(["support", "check", str(tmp_path / "missing.jsonl"), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["type"] == "NotFound"
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    assert cli.main(["support", "check", str(tmp_path / "empty.jsonl"), "--json"]) == 2
    err = json.loads(capsys.readouterr().out)["error"]
    assert err["type"] == "BadInput" and "no statements" in err["message"]
