"""The bad-input matrix (issue 11), through `kmrag ingest --json` and `kmrag ask --json` as a user runs
them, against the real services. A good corpus is ingested first; then one job over tests/data/bad/corpus
plus files made here (too large or too odd to commit: a 200 MB file, HTML nested 5,000 deep, deep
reStructuredText, a 10,000-row table, a name with a newline, symlink loops) and a folder that does not
exist. Every bad file is either stored correctly or an error naming it with what to do; the rest of the
job completes; what was stored before is unchanged and not duplicated; the stores agree; the ingest's
peak memory stays bounded. Each case's outcome and peak RSS go to $TMPDIR/kmrag_bad_inputs.json."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kmrag.config import DEFAULT_MAX_BYTES
from tests.fixtures.cli import clear_tenant, data_of, error_of, kmrag, server_env
from tests.fixtures.rss import Measured, run_measured

pytestmark = pytest.mark.e2e

DATA = Path(__file__).resolve().parents[1] / "data" / "bad"
PEAK_LIMIT_MB = 1500  # the ingest process itself
TREE_LIMIT_MB = 2500  # with its embedding worker
HUGE = 200 * 1024 * 1024
REPORT: dict[str, dict[str, Any]] = {}

# what each file must give: ("stored", text one of its units holds) or ("error", words its reason holds)
EXPECTED: dict[str, tuple[str, str]] = {
    "empty.md": ("error", "empty file (0 bytes)"),
    "empty.pdf": ("error", "empty file (0 bytes)"),
    "whitespace.txt": ("error", "contains only whitespace"),
    "truncated.pdf": ("error", "corrupt PDF"),
    "not-a-pdf.pdf": ("error", "not a PDF"),
    "image-as-text.txt": ("error", "binary content (NUL bytes), not plain text"),
    "control-bytes.md": ("error", "binary content"),
    "nul-in-middle.md": ("error", "NUL byte at offset 9036"),
    "broken.json": ("error", "invalid JSON at line 3"),
    "huge.txt": ("error", f"{HUGE:,} bytes is over the limit of {DEFAULT_MAX_BYTES:,}; raise --max-bytes"),
    "invalid-utf8.txt": ("stored", "Valid start, then bytes that are not UTF-8"),  # detected as a code page
    "utf16-bom.md": ("stored", "The Limmat river flows through Zürich. Straße und Brücke."),
    "utf16-nobom.md": ("stored", "The Limmat river flows through Zürich. Straße und Brücke."),
    "latin1.txt": ("stored", "Café Müller in Köln serves crème brûlée and Äpfel."),
    "cjk.md": ("stored", "长江是中国最长的河流，流经上海。"),
    "rtl.md": ("stored", "القاهرة هي عاصمة مصر وتقع على نهر النيل."),
    "ragged-table.md": ("stored", "After the table: Vienna lies on the Danube."),
    "name with spaces.md": ("stored", "The file name has spaces; Valencia is in Spain."),
    "quotes 'single' \"double\".md": ("stored", "The file name has quotes; Porto is in Portugal."),
    "Ünïcödé 日本語 имя.md": ("stored", "The file name is not Latin; Kyoto is in Japan."),
    "name\nwith a newline.md": ("stored", "The file name has a newline; Graz is in Austria."),
    "table-10000.md": ("stored", "| row 9999 | value 9999 | note 9999 |"),
    "deep-5000.html": ("stored", "Text at the bottom of 5,000 nested elements."),
    "deep-3000.rst": ("stored", "level 2999 text"),
}


def _record(case: str, outcome: str, message: str, m: Measured | None = None) -> None:
    REPORT[case] = {"outcome": outcome, "message": message[:300],
                    **({"peak_mb": m.peak_mb, "tree_peak_mb": m.tree_peak_mb, "seconds": m.seconds} if m else {})}
    path = Path(tempfile.gettempdir()) / "kmrag_bad_inputs.json"
    path.write_text(json.dumps(REPORT, ensure_ascii=False, indent=1))


def ingest(env: dict[str, str], *paths: Path | str, extra: tuple[str, ...] = ()) -> Measured:
    m = run_measured([sys.executable, "-m", "kmrag.cli", "ingest", *map(str, paths), *extra, "--json"], env=env)
    assert "Traceback" not in m.stderr, m.stderr[-3000:]
    assert m.peak_mb < PEAK_LIMIT_MB and m.tree_peak_mb < TREE_LIMIT_MB, (m.peak_mb, m.tree_peak_mb)
    return m


def envelope(m: Measured) -> Any:
    """The --json envelope's data, checked against the exit status (as data_of does)."""
    import subprocess

    return data_of(subprocess.CompletedProcess([], m.returncode, m.stdout, m.stderr))


def snapshot(env: dict[str, str]) -> dict[str, Any]:
    from kmrag.config import load_settings
    from kmrag.stores import open_stores

    tenant = env["KMRAG_TENANT"]
    with open_stores(load_settings(tenant=tenant, environ=env)) as s:
        ids = sorted(s.units.unit_ids(tenant))
        return {"units": {u.id: (u.source_id, u.content) for u in s.units.get_units(tenant, ids)},
                "sources": s.units.source_versions(tenant), "graph_units": s.graph.unit_ids(tenant)}


@pytest.fixture(scope="module")
def env() -> Iterator[dict[str, str]]:
    e = server_env("bad_")
    yield e
    clear_tenant(e)


@pytest.fixture(scope="module")
def good(env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("good") / "good"
    shutil.copytree(DATA / "good", root)
    m = ingest(env, root)
    assert m.returncode == 0 and envelope(m)["job"]["status"] == "completed", m.stdout[-2000:]
    _record("good corpus (2 files)", "stored", "", m)
    snap = snapshot(env)
    assert len(snap["sources"]) == 2 and snap["units"]
    return snap


def make_corpus(root: Path) -> Path:
    shutil.copytree(DATA / "corpus", root)
    with (root / "huge.txt").open("wb") as f:  # sparse: 200 MB by its size, nothing on disk
        f.truncate(HUGE)
    (root / "name\nwith a newline.md").write_text("# Newline\n\nThe file name has a newline; Graz is in Austria.\n")
    rows = "".join(f"| row {i} | value {i} | note {i} |\n" for i in range(10_000))
    (root / "table-10000.md").write_text("# Big table\n\n| row | value | note |\n|---|---|---|\n" + rows)
    (root / "deep-5000.html").write_text("<html><body>" + "<div><span>" * 2500
                                         + "Text at the bottom of 5,000 nested elements." + "</span></div>" * 2500
                                         + "</body></html>")
    (root / "deep-3000.rst").write_text("Deep\n====\n\n" + "".join(" " * (2 * i) + f"level {i} text\n\n"
                                                                   for i in range(3000)))
    os.symlink(".", root / "loop")  # a folder symlink back to its own folder
    os.symlink("self.md", root / "self.md")  # a symlink to itself
    return root


@pytest.fixture(scope="module")
def bad_run(env: dict[str, str], good: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("bad")
    corpus = make_corpus(base / "corpus")
    missing = base / "no such folder"
    m = ingest(env, corpus, missing)
    data = envelope(m)
    _record("whole bad corpus (one job)", data["job"]["status"], "", m)
    return {"m": m, "data": data, "corpus": corpus, "missing": missing, "after": snapshot(env)}


def test_the_job_completes_with_an_error_per_bad_input(bad_run: dict[str, Any]) -> None:
    m, data = bad_run["m"], bad_run["data"]
    assert m.returncode == 1, m.stderr[-2000:]
    assert json.loads(m.stdout)["error"]["type"] == "InputsFailed"
    job = data["job"]
    assert job["status"] == "completed_with_errors", job
    assert data["agreement"]["tenant_agrees"] and data["agreement"]["agree"], data["agreement"]


@pytest.mark.parametrize("name", sorted(n for n, (kind, _) in EXPECTED.items() if kind == "error"))
def test_a_bad_file_is_an_error_naming_it_and_what_to_do(bad_run: dict[str, Any], name: str) -> None:
    path = str(bad_run["corpus"] / name)
    errors = [e for e in bad_run["data"]["job"]["errors"] if e["path"] == path]
    assert len(errors) == 1, (name, bad_run["data"]["job"]["errors"])
    assert EXPECTED[name][1] in errors[0]["reason"], errors[0]
    _record(name, "error", errors[0]["reason"], bad_run["m"])
    assert not any(sid.startswith(path) for sid in bad_run["after"]["sources"])


@pytest.mark.parametrize("name", sorted(n for n, (kind, _) in EXPECTED.items() if kind == "stored"))
def test_an_odd_but_good_file_is_stored(bad_run: dict[str, Any], name: str) -> None:
    sid = (bad_run["corpus"] / name).resolve().as_posix()
    assert sid in bad_run["after"]["sources"], (name, [e for e in bad_run["data"]["job"]["errors"]])
    texts = [c for s, c in bad_run["after"]["units"].values() if s == sid]
    assert any(EXPECTED[name][1] in t for t in texts), (name, [t[:200] for t in texts][:5])
    _record(name, "stored", f"{len(texts)} units", bad_run["m"])


def test_a_broken_record_is_named_by_its_line_and_the_others_are_stored(bad_run: dict[str, Any]) -> None:
    f = bad_run["corpus"] / "broken-record.jsonl"
    errors = [e for e in bad_run["data"]["job"]["errors"] if e["path"].startswith(str(f))]
    assert [e["path"] for e in errors] == [f"{f}:line 2"], errors
    assert "invalid JSON" in errors[0]["reason"] and "fix this one" in errors[0]["reason"]
    sid = f.resolve().as_posix()
    assert {f"{sid}#r1", f"{sid}#r3"} <= set(bad_run["after"]["sources"])
    _record("broken-record.jsonl", "records 1 and 3 stored, line 2 an error", errors[0]["reason"], bad_run["m"])


def test_a_missing_folder_and_symlink_loops_are_named(bad_run: dict[str, Any]) -> None:
    job = bad_run["data"]["job"]
    missing = [e for e in job["errors"] if e["path"] == str(bad_run["missing"])]
    assert len(missing) == 1 and missing[0]["reason"] == "no such file or folder", job["errors"]
    _record("a folder that does not exist", "error", missing[0]["reason"])
    skipped = {Path(e["path"]).name: e["reason"] for e in job["skipped"]}
    assert skipped["loop"].startswith("symlink loop"), skipped
    assert skipped["self.md"].startswith("symlink loop"), skipped
    _record("symlink loop (folder)", "skipped", skipped["loop"])
    _record("symlink loop (file to itself)", "skipped", skipped["self.md"])


def test_what_was_stored_before_is_unchanged_and_not_duplicated(good: dict[str, Any],
                                                                bad_run: dict[str, Any]) -> None:
    after = bad_run["after"]
    assert {k: after["units"][k] for k in good["units"]} == good["units"]
    assert {s: after["sources"][s] for s in good["sources"]} == good["sources"]
    assert good["graph_units"] <= after["graph_units"]
    good_texts = set(good["units"].values())
    assert not [v for k, v in after["units"].items() if k not in good["units"] and v in good_texts]
    assert set(after["graph_units"]) == set(after["units"])  # the stores hold the same units


READ_AND_PARSE = """
import json, sys
from kmrag.ingestion.parse import parse_document
from kmrag.ingestion.sources import SourceDocument, read_sources
from kmrag.ingestion.units import build_units
out = []
for item in read_sources([sys.argv[1]]):
    if isinstance(item, SourceDocument):
        blocks, text = parse_document(item)
        out.append(len(build_units(item, blocks, text, "t_probe").units))
    else:
        out.append(getattr(item, "reason", ""))
print(json.dumps(out))
"""


def read_and_parse(path: Path) -> tuple[list[Any], Measured]:
    """The read and parse stages alone, in a process of their own: what a file costs before NLP."""
    m = run_measured([sys.executable, "-c", READ_AND_PARSE, str(path)], env=dict(os.environ))
    assert m.returncode == 0 and "Traceback" not in m.stderr, m.stderr[-3000:]
    return json.loads(m.stdout), m


@pytest.fixture(scope="module")
def baseline_mb(tmp_path_factory: pytest.TempPathFactory) -> float:
    f = tmp_path_factory.mktemp("small") / "small.md"
    f.write_text("# Small\n\nA small file.\n")
    return read_and_parse(f)[1].peak_mb


def test_a_200_mb_file_is_refused_from_its_size_without_being_read(tmp_path: Path, baseline_mb: float) -> None:
    """The size is checked before the file is read: reading the 200 MB would take ≥ 200 MB more."""
    f = tmp_path / "huge.md"
    with f.open("wb") as out:
        out.seek(HUGE - 1)
        out.write(b"x")
    got, m = read_and_parse(f)
    assert f"{HUGE:,} bytes is over the limit of {DEFAULT_MAX_BYTES:,}; raise --max-bytes" in got[0]
    assert m.peak_mb - baseline_mb < 30, (m.peak_mb, baseline_mb)  # the interpreter and imports, not the file
    _record("200 MB file (read stage)", "error", got[0], m)


@pytest.mark.parametrize("name", ["table-10000.md", "deep-5000.html", "deep-3000.rst", "huge.txt"])
def test_a_heavy_file_is_read_and_parsed_in_bounded_memory(tmp_path: Path, baseline_mb: float, name: str) -> None:
    """Before the fix, docutils took 2.8 GB for 3,000 levels of nested block quotes."""
    corpus = make_corpus(tmp_path / "c")
    got, m = read_and_parse(corpus / name)
    assert m.peak_mb - baseline_mb < 400, (name, m.peak_mb, baseline_mb)
    _record(f"{name} (read + parse stages)", "error" if isinstance(got[0], str) else "parsed",
            got[0] if isinstance(got[0], str) else f"{got[0]} units", m)


def test_a_5_mb_line_without_spaces_is_stored_in_bounded_memory(env: dict[str, str], good: dict[str, Any],
                                                               tmp_path: Path) -> None:
    f = tmp_path / "long-line.txt"
    f.write_text("x" * 5_000_000)
    m = ingest(env, f)
    data = envelope(m)
    assert m.returncode == 0 and data["job"]["status"] == "completed", data["job"]
    assert data["job"]["counts"]["units_written"] > 1000  # cut into units, none of them 5 MB
    _record("5 MB line without spaces", "stored", f"{data['job']['counts']['units_written']} units", m)
    assert {k: v for k, v in snapshot(env)["units"].items() if k in good["units"]} == good["units"]


# -- questions -----------------------------------------------------------------------------------

QUESTIONS = {
    "punctuation only": "?!... ;; --",
    "Cypher fragment": "MATCH (n) DETACH DELETE n //",
    "SQL fragment": "'; DROP TABLE kmrag_units; --",
    "Chinese": "长江流经哪个城市？",
    "Arabic": "ما هي عاصمة مصر؟",
    "Hebrew": "איפה נמצאת ירושלים?",
}


@pytest.mark.parametrize("case", ["empty", "10,000 characters"])
def test_an_empty_or_overlong_question_is_a_clear_error(env: dict[str, str], good: dict[str, Any], case: str) -> None:
    q = "" if case == "empty" else "Where is the Harbor Bridge? " * 358  # 10,024 characters
    res = kmrag("ask", q, "--json", env=env)
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr[-2000:]
    err = error_of(res)
    assert err["type"] == "BadInput", err
    if case == "empty":
        assert "the question is empty" in err["message"]
    else:
        assert "the limit is 2,000 characters" in err["message"] and "KMRAG_MAX_QUESTION_CHARS" in err["message"]
    _record(f"question: {case}", "refused (exit 2)", err["message"])


def test_the_question_limit_is_a_setting(env: dict[str, str], good: dict[str, Any]) -> None:
    res = kmrag("ask", "Where is the Harbor Bridge?", "--json", env={**env, "KMRAG_MAX_QUESTION_CHARS": "10"})
    assert "the limit is 10 characters" in error_of(res)["message"]


@pytest.mark.parametrize("case", sorted(QUESTIONS))
def test_an_odd_question_gets_an_answer_or_not_found(env: dict[str, str], good: dict[str, Any], case: str) -> None:
    res = kmrag("ask", QUESTIONS[case], "--json", env=env)
    assert "Traceback" not in res.stderr, res.stderr[-2000:]
    if case == "punctuation only":  # nothing to search for: refused, saying why
        assert res.returncode == 2 and "no letters or digits" in error_of(res)["message"]
        _record(f"question: {case}", "refused (exit 2)", error_of(res)["message"])
        return
    assert res.returncode == 0, (res.stdout[-2000:], res.stderr[-2000:])
    data = data_of(res)
    assert data["found"] or data["text"] == "Information not found in knowledge map", data
    _record(f"question: {case}", "answer" if data["found"] else "not found", data["text"][:200])
    units = snapshot(env)["units"]
    assert {k: units.get(k) for k in good["units"]} == good["units"]  # asking changes nothing stored


def test_odd_questions_through_the_python_api(env: dict[str, str], good: dict[str, Any]) -> None:
    from kmrag.answer.answerer import Answerer
    from kmrag.config import load_settings
    from kmrag.errors import BadInput
    from kmrag.nlp.embed import get_embedder
    from kmrag.retrieval.ask import ask
    from kmrag.stores import open_stores

    settings = load_settings(tenant=env["KMRAG_TENANT"], environ=env)
    with open_stores(settings) as s:
        answerer = Answerer(s.units, s.graph, get_embedder(settings), settings, save=False)
        for q in ("", "   ", "x" * 10_000, "?!"):
            with pytest.raises(BadInput):
                answerer.answer(settings.tenant, q)
            with pytest.raises(BadInput):
                ask(s.units, s.graph, get_embedder(settings), settings.tenant, q)
        for q in QUESTIONS.values():
            if q == QUESTIONS["punctuation only"]:
                continue
            a = answerer.answer(settings.tenant, q)
            assert a.found or a.text == "Information not found in knowledge map", a
            ask(s.units, s.graph, get_embedder(settings), settings.tenant, q)
        a = answerer.answer(settings.tenant, "What does the Harbor Bridge connect?")
        assert a.found and "Northport" in a.text, a.text


def test_a_question_to_an_empty_tenant_says_the_tenant_holds_nothing(env: dict[str, str], good: dict[str, Any]) -> None:
    """A misspelt tenant ("Demo" for "demo") answered "not found, nothing was found": a new user could not tell
    the tenant was empty. The note says so and names the tenant spelt alike first."""
    empty = {**env, "KMRAG_TENANT": env["KMRAG_TENANT"].upper()}
    res = kmrag("ask", "Where is the Harbor Bridge?", "--no-save", env=empty)
    assert res.returncode == 0 and "Information not found" in res.stdout, res.stderr[-2000:]
    assert f"tenant {empty['KMRAG_TENANT']!r} holds no units: ingest documents first" in res.stderr
    assert f"ask a tenant that holds some: {env['KMRAG_TENANT']}" in res.stderr
    held = kmrag("ask", "Where is the Harbor Bridge?", "--no-save", "--json", env=env)
    assert "holds no units" not in held.stderr
    # an answer asked with --no-save says it is not stored: its id is no answer `audit` can find
    data = json.loads(held.stdout)["data"]
    assert data["stored"] is False and data["id"]
    audited = kmrag("audit", data["id"], env=env)
    assert audited.returncode == 1 and f"no answer {data['id']!r}" in audited.stderr
