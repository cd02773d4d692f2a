"""`kmrag eval` and `kmrag eval diff` as a user runs them, on the servers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.fixtures.cli import data_of

pytestmark = pytest.mark.e2e
MINI = Path(__file__).resolve().parents[1] / "fixtures" / "mini_musique.json"


def kmrag(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kmrag.cli", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def test_eval_file_json_then_diff(tmp_path: Path) -> None:
    if not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    tenant = "e2e_eval_" + uuid.uuid4().hex[:8]
    env = dict(os.environ)
    try:
        res = kmrag("eval", "--file", str(MINI), "--strategy", "bm25,dense", "--tenant", tenant,
                    "--out", str(tmp_path), "--json", env=env)
        assert res.returncode == 0, res.stderr
        (run,) = data_of(res)
        assert [s["strategy"] for s in run["summaries"]] == ["bm25", "dense"] and run["questions"] == 2
        assert run["unreachable_gold"] == 0 and all(s["unreachable_gold"] == 0 for s in run["summaries"])
        assert run["corpus_passages"] == 5 and all(s["recall"]["10"] == 1.0 for s in run["summaries"])
        human = kmrag("eval", "--file", str(MINI), "--strategy", "bm25,dense", "--tenant", tenant,
                      "--out", str(tmp_path), env=env)
        assert human.returncode == 0, human.stderr
        assert "| bm25 |" in human.stdout and "| dense |" in human.stdout and "recall.png" in human.stdout
        assert "2 questions, corpus 5 passages" in human.stdout and "unreachable gold passages: 0" in human.stdout
        runs = sorted(p for p in tmp_path.iterdir() if p.is_dir())
        diff = kmrag("eval", "diff", str(runs[0]), str(runs[1]), "--json", env=env)
        assert diff.returncode == 0, diff.stderr
        d = data_of(diff)
        assert d["metric"] == "recall@5" and d["a"] == runs[0].name and d["b"] == runs[1].name
        assert {n: (st["better"], st["worse"], st["same"]) for n, st in d["strategies"].items()} == \
            {"bm25": (0, 0, 2), "dense": (0, 0, 2)}
        human_diff = kmrag("eval", "diff", str(runs[0]), str(runs[1]), env=env)
        assert human_diff.returncode == 0 and "dense: better 0, worse 0, same 2" in human_diff.stdout
        # the same questions in another wording: corpus and gold stay the set's
        reworded = tmp_path / "reworded.jsonl"
        reworded.write_text(json.dumps({"qid": "q2", "question": "Who was the engineer behind the tower in Paris?"})
                            + "\n", encoding="utf-8")
        res = kmrag("eval", "--file", str(MINI), "--strategy", "bm25", "--tenant", tenant, "--out", str(tmp_path),
                    "--questions-file", str(reworded), "--json", env=env)
        assert res.returncode == 0, res.stderr
        (run,) = data_of(res)
        assert run["reworded"] == 1 and run["questions_file"] == str(reworded) and run["questions"] == 2
        per = {r["qid"]: r for r in map(json.loads, (Path(run["out_dir"]) / "questions.jsonl").read_text().splitlines())}
        assert per["q2"]["question"] == "Who was the engineer behind the tower in Paris?" and len(per["q2"]["gold"]) == 2
        assert per["q1"]["question"].startswith("In which country")
        reworded.write_text(json.dumps({"qid": "q1", "question": "ok?"}) + "\n"
                            + json.dumps({"qid": "q9", "question": "who?"}) + "\n", encoding="utf-8")
        unknown_qid = kmrag("eval", "--file", str(MINI), "--tenant", tenant, "--out", str(tmp_path),
                            "--questions-file", str(reworded), env=env)
        assert unknown_qid.returncode == 2 and "reworded.jsonl:2: qid 'q9'" in unknown_qid.stderr
        bad = kmrag("eval", "--file", str(tmp_path / "missing.json"), "--tenant", tenant, env=env)
        assert bad.returncode == 2 and "missing.json" in bad.stderr
        unknown = kmrag("eval", "--file", str(MINI), "--strategy", "magic", "--tenant", tenant,
                        "--out", str(tmp_path), env=env)
        assert unknown.returncode == 2 and "unknown strategy 'magic'" in unknown.stderr
        bad_gen = kmrag("eval", "--file", str(MINI), "--answer", "oracle", "--tenant", tenant, env=env)
        assert bad_gen.returncode == 2 and "unknown answer generator 'oracle'" in bad_gen.stderr
    finally:
        from kmrag.config import load_settings
        from kmrag.stores import open_stores

        with open_stores(load_settings(tenant=tenant)) as s:
            s.graph.clear_tenant(tenant)
            s.units.clear_tenant(tenant)


def test_eval_answers_fill_the_answer_columns(tmp_path: Path) -> None:
    if not os.environ.get("KMRAG_DATABASE_URL"):
        pytest.fail("start the services first: eval \"$(services/up.sh)\"", pytrace=False)
    tenant = "e2e_eval_ans_" + uuid.uuid4().hex[:8]
    env = dict(os.environ)
    try:
        res = kmrag("eval", "--file", str(MINI), "--strategy", "hybrid", "--answer", "extractive,first-sentence",
                    "--tenant", tenant, "--out", str(tmp_path), "--json", env=env)
        assert res.returncode == 0, res.stderr
        (run,) = data_of(res)
        rows = {s["strategy"]: s for s in run["summaries"]}
        assert list(rows) == ["hybrid", "hybrid+extractive", "hybrid+first-sentence"]
        assert rows["hybrid"]["em"] is None
        for name in ("hybrid+extractive", "hybrid+first-sentence"):
            assert rows[name]["invalid_citations"] == 0 and "citation_validity" not in rows[name]
            assert rows[name]["em"] is not None and rows[name]["found"] == 1.0
            for measure in ("citation_precision", "citation_recall", "citation_unit_precision", "supported_share",
                            "ece", "wrong_at_0_9_share"):
                assert 0 <= rows[name][measure] <= 1, measure
            assert len(rows[name]["reliability"]) == 10 and set(rows[name]["accuracy_at"]) == {"0.5", "0.7", "0.9"}
        # the baseline answers everything at confidence 1.0 and is never right here
        assert rows["hybrid+first-sentence"]["wrong_at_0_9"] == 2 and rows["hybrid+first-sentence"]["ece"] == 1.0
        out_dir = Path(run["out_dir"])
        per = [json.loads(line) for line in (out_dir / "questions.jsonl").read_text().splitlines()]
        answered = [r for r in per if r["generator"] == "extractive"]
        assert len(answered) == 2 and all(r["cited"] and r["answer_text"] for r in answered)
        assert all(r["citation_validity"] == 1.0 and isinstance(r["correct"], bool) for r in answered)
        report = (out_dir / "report.md").read_text()
        assert "ans-in-ans" in report and "wrong @≥0.9" in report and "cite valid" not in report
    finally:
        from kmrag.config import load_settings
        from kmrag.stores import open_stores

        with open_stores(load_settings(tenant=tenant)) as s:
            s.graph.clear_tenant(tenant)
            s.units.clear_tenant(tenant)
