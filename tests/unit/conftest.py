"""Fixtures the unit tests share."""

from __future__ import annotations

import pytest

from kmrag.nlp.extract import SpacyExtractor


@pytest.fixture(scope="module")
def x() -> SpacyExtractor:
    """The spaCy extractor, loaded once per module."""
    return SpacyExtractor()
