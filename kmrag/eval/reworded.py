"""The hand-reworded question set (tests/data/reworded/questions.jsonl): dev questions of 2Wiki, HotpotQA and
MuSiQue asked in other words with the same meaning and gold answer, for reporting EM / F1 / recall@5 on the
original and the reworded form side by side. One JSON object a line:
``{"dataset", "qid", "original", "reworded", "form"}``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from kmrag.errors import BadInput

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "tests/data/reworded/questions.jsonl"

Dataset = Literal["2wiki", "hotpotqa", "musique"]


class Reworded(BaseModel):
    """One question of a dev file and its rewording."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dataset: Dataset
    qid: str
    original: str
    reworded: str
    form: str


def load_reworded(path: Path | None = None) -> list[Reworded]:
    """Every row of the set (blank lines skipped); a malformed line raises BadInput naming the file and line."""
    p = path if path is not None else DEFAULT_PATH
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{p}: cannot read the reworded question set: {e}") from e
    rows: list[Reworded] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(Reworded.model_validate(json.loads(line)))
        except json.JSONDecodeError as e:
            raise BadInput(f"{p}:{n}: not a JSON object: {e.msg}") from e
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(map(str, err['loc'])) or 'row'}: {err['msg']}" for err in e.errors())
            raise BadInput(f"{p}:{n}: not a reworded question: {problems}") from e
    return rows


def for_dataset(rows: list[Reworded], dataset: str) -> dict[str, str]:
    """qid -> reworded question, for the rows of one dataset."""
    return {r.qid: r.reworded for r in rows if r.dataset == dataset}
