"""The one --json envelope of every command: success, a command that finds nothing, bad input, usage errors."""

from __future__ import annotations

import argparse
import json

import pytest

from kmrag import cli
from kmrag.errors import BadInput, NotFound

pytestmark = pytest.mark.unit


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    rc = cli.main(list(argv))
    return rc, json.loads(capsys.readouterr().out)


def test_success_and_nothing_found_share_one_envelope(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    def answers(args: argparse.Namespace) -> int:
        cli._emit(args, [{"id": "a_1"}], lambda d: "one answer")
        return 0

    def sources(args: argparse.Namespace) -> int:
        cli._emit(args, [], lambda d: "none", ("NotFound", "no source id contains 'x'"))
        return 1

    monkeypatch.setattr(cli, "cmd_answers", answers)
    monkeypatch.setattr(cli, "cmd_sources", sources)
    assert _run(capsys, "answers", "--json") == (0, {"ok": True, "command": "answers", "data": [{"id": "a_1"}]})
    rc, out = _run(capsys, "sources", "x", "--json")
    assert rc == 1 and out == {"ok": False, "command": "sources", "data": [],
                               "error": {"type": "NotFound", "message": "no source id contains 'x'", "exit_code": 1}}
    assert cli.main(["answers"]) == 0 and capsys.readouterr().out == "one answer\n"  # people get text


@pytest.mark.parametrize(("error", "code"), [(NotFound("no unit 'u_x' in tenant 't'"), 1),
                                             (BadInput("notes.txt: empty file (0 bytes)"), 2)])
def test_errors_carry_type_message_and_exit_code(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                 error: Exception, code: int) -> None:
    def units(args: argparse.Namespace) -> int:
        raise error

    monkeypatch.setattr(cli, "cmd_units", units)
    rc, out = _run(capsys, "units", "show", "u_x", "--json")
    assert rc == code and out == {"ok": False, "command": "units show", "error": {
        "type": type(error).__name__, "message": str(error), "exit_code": code}}
    assert cli.main(["units", "show", "u_x"]) == code
    assert capsys.readouterr().err == f"kmrag: error: {error}\n"


def test_usage_errors_are_enveloped_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ex:
        cli.main(["entities", "frobnicate", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert ex.value.code == 2 and out["ok"] is False and out["command"] == "entities"
    assert out["error"]["type"] == "UsageError" and out["error"]["exit_code"] == 2 and "frobnicate" in out["error"]["message"]
    with pytest.raises(SystemExit):
        cli.main(["entities", "frobnicate"])
    got = capsys.readouterr()
    assert got.out == "" and "invalid choice" in got.err


@pytest.mark.parametrize(("argv", "name"), [(["ingest", "x"], "ingest"), (["entities", "search", "a"], "entities search"),
                                            (["jobs"], "jobs list"), (["eval", "diff", "a", "b"], "eval diff"), (["eval", "kg"], "eval kg"),
                                            (["bench", "query"], "bench query"), (["units", "show", "u"], "units show"),
                                            (["units", "u"], "units show")])
def test_command_names(argv: list[str], name: str) -> None:
    assert cli.command_name(cli.build_parser().parse_args(argv)) == name


def test_units_takes_one_id_with_or_without_show(capsys: pytest.CaptureFixture[str]) -> None:
    """`kmrag units u_…` is `kmrag units show u_…`; two ids, or none, is an error that says so (before any store)."""
    assert cli.build_parser().parse_args(["units", "u_1"]).unit_id == ["u_1"]
    for argv in (["units", "u_1", "u_2"], ["units", "show"]):
        assert cli.main(argv) == 2
        assert "takes one unit id" in capsys.readouterr().err
    assert cli.main(["units", "frobnicate"]) == 2 and "not a unit id" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "says"), [
    (["ask", "q", "-k", "100000"], "argument -k: 100000 is outside 1..50"),  # the API's bounds, before any store
    (["ask", "q", "-k", "0"], "argument -k: 0 is outside 1..50"),
    (["ask", "q", "-k", "-3"], "argument -k: -3 is outside 1..50"),
    (["answers", "--limit", "-1"], "argument --limit: -1 is outside 1..500"),
    (["entities", "search", "rag", "--limit", "0"], "argument --limit: 0 is outside 1..500"),
    (["jobs", "--limit", "many"], "argument --limit: 'many' is not a whole number"),
    (["eval", "--limit", "0"], "argument --limit: 0 is below 1"),
])
def test_numbers_out_of_range_are_usage_errors_naming_the_option(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                                  says: str) -> None:
    with pytest.raises(SystemExit) as ex:
        cli.main(argv)
    assert ex.value.code == 2 and says in capsys.readouterr().err
    assert cli.build_parser().parse_args(["ask", "q", "-k", "50"]).k == 50
