"""A small bundled corpus for the main job: `kmrag demo` ingests it and shows what was stored."""

from importlib import resources
from pathlib import Path


def corpus_path() -> Path:
    return Path(str(resources.files("kmrag.demo").joinpath("corpus")))
