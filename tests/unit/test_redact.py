"""The one redaction helper: known secret values and password/key patterns hidden in messages."""

from __future__ import annotations

import pytest

from kmrag.schema import redact as r

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "secret"), [
    ("postgresql://kmrag:S3cr3t-XYZ-123@127.0.0.1:5432/kmrag", "S3cr3t-XYZ-123"),
    ("at postgres://u:p%40ss-Word9@h/db: refused", "p%40ss-Word9"),
    ("host=h port=1 password=S3cr3t-XYZ-123 dbname=k", "S3cr3t-XYZ-123"),
    ("host=h password='S3cr3t XYZ' dbname=k", "S3cr3t"),
    ("https://h/v1?api_key=sk-abcdef123456&x=1", "sk-abcdef123456"),
    ("bolt://neo4j:S3cr3t-NEO-456@127.0.0.1:7687", "S3cr3t-NEO-456"),
    ("Authorization: Bearer sk-abcdefghijklmnop", "sk-abcdefghijklmnop"),
])
def test_patterns_are_hidden_in_messages(text: str, secret: str) -> None:
    out = r.redact(text)
    assert secret not in out and r.MASK in out


def test_known_values_from_the_environment_and_settings_are_hidden(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from kmrag.config import load_settings

    monkeypatch.setenv("KMRAG_NEO4J_PASSWORD", "neo-Value-1")
    monkeypatch.setenv("KMRAG_DATABASE_URL", "postgresql://u:db%2FValue-2@h/d")
    assert "neo-Value-1" not in r.redact("the driver said neo-Value-1 was wrong", patterns=False)
    assert "db/Value-2" not in r.redact("unquoted db/Value-2 echoed")  # the URL's password, decoded
    (tmp_path / "k.toml").write_text('[kmrag]\nllm_api_key = "toml-Key-3"\n')
    load_settings(config_file=tmp_path / "k.toml", environ={})
    assert r.redact_data({"a": ["x toml-Key-3 y"]}) == {"a": [f"x {r.MASK} y"]}


def test_document_text_keeps_its_own_examples_when_patterns_are_off() -> None:
    text = "Set password=changeme in the config."
    assert r.redact(text, patterns=False) == text
    assert r.redact("", patterns=True) == ""
