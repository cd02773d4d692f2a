from pathlib import Path

import pytest
from pydantic import ValidationError

from kmrag.config import load_settings
from kmrag.errors import ConfigError
from kmrag.schema import KnowledgeUnit, UnitType, unit_id
from kmrag.schema.ddl import neo4j_statements, postgres_statements

pytestmark = pytest.mark.unit


def test_defaults_are_embedded(tmp_path: Path):
    s = load_settings(config_file=tmp_path / "none.toml", environ={})
    assert s.uses_embedded_graph and s.uses_embedded_postgres
    assert s.tenant == "default" and s.embedding_dim == 384


def test_env_overrides_file(tmp_path: Path):
    f = tmp_path / "kmrag.toml"
    f.write_text('[kmrag]\ntenant = "from-file"\nneo4j_uri = "bolt://x:7687"\n')
    s = load_settings(config_file=f, environ={"KMRAG_TENANT": "from-env"})
    assert s.tenant == "from-env" and s.neo4j_uri == "bolt://x:7687"
    assert not s.uses_embedded_graph


def test_bad_settings_name_the_variable(tmp_path: Path):
    with pytest.raises(ConfigError, match="KMRAG_EMBEDDING_DIM"):
        load_settings(config_file=tmp_path / "none.toml", environ={"KMRAG_EMBEDDING_DIM": "zero"})
    f = tmp_path / "kmrag.toml"
    f.write_text("[kmrag]\nnope = 1\n")
    with pytest.raises(ConfigError, match="unknown settings"):
        load_settings(config_file=f, environ={})
    f.write_text("[kmrag\n")
    with pytest.raises(ConfigError, match="kmrag.toml"):
        load_settings(config_file=f, environ={})


def test_postgres_ddl_has_vector_dim_and_indexes():
    stmts = postgres_statements(384)
    joined = "\n".join(stmts)
    assert "vector(384)" in joined
    assert "USING hnsw (embedding vector_cosine_ops)" in joined
    assert "USING gin (tsv)" in joined
    assert all("IF NOT EXISTS" in s for s in stmts if s.startswith("CREATE"))
    with pytest.raises(ValueError):
        postgres_statements("384); DROP TABLE x; --")  # type: ignore[arg-type]


def test_neo4j_schema_is_named_and_idempotent():
    stmts = neo4j_statements()
    assert stmts and all(" IF NOT EXISTS " in s for s in stmts)
    assert all(s.split()[1] in ("CONSTRAINT", "INDEX") or s.startswith("CREATE FULLTEXT") for s in stmts)


def _unit(**over: object) -> dict[str, object]:
    fields: dict[str, object] = {"id": unit_id("t", "s", "text"), "tenant": "t", "source_id": "s",
                                 "source_version": "v", "type": "rule", "ordinal": 0, "content": "text"}
    return {**fields, **over}


def test_unit_model_accepts_a_well_formed_unit():
    u = KnowledgeUnit(**_unit())  # type: ignore[arg-type]
    assert u.type is UnitType.RULE and u.id.startswith("u_") and len(u.id) == 18


@pytest.mark.parametrize(
    ("over", "field", "why"),
    [
        ({"id": "x1"}, "id", "must look like u_ + 16 hex"),
        ({"id": "u_0123456789ABCDEF"}, "id", "must look like u_ + 16 hex"),  # upper-case hex
        ({"id": "u_0123456789abcde"}, "id", "must look like u_ + 16 hex"),  # 15 hex
        ({"id": "u_0123456789abcdef0"}, "id", "must look like u_ + 16 hex"),  # 17 hex
        ({"type": "chunk"}, "type", "Input should be"),
        ({"type": "RULE"}, "type", "Input should be"),
        ({"ordinal": -1}, "ordinal", "greater than or equal to 0"),
        ({"content": ""}, "content", "at least 1 character"),
        ({"embedding": [0.1]}, "embedding", "Extra inputs are not permitted"),
    ],
)
def test_unit_model_rejects_bad_input(over: dict[str, object], field: str, why: str):
    with pytest.raises(ValidationError) as e:
        KnowledgeUnit(**_unit(**over))  # type: ignore[arg-type]
    errors = e.value.errors()
    assert [err["loc"] for err in errors] == [(field,)]  # rejected for this field, and only for it
    assert why in errors[0]["msg"]


def test_an_unexpected_failure_is_reported_not_dumped(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import json as _json

    from kmrag import cli

    def boom(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "cmd_answers", boom)
    monkeypatch.delenv("KMRAG_DEBUG", raising=False)
    assert cli.main(["answers", "--json"]) == 3
    out = _json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["command"] == "answers" and "data" not in out
    err = out["error"]
    assert err["type"] == "ZeroDivisionError" and err["internal"] is True and err["exit_code"] == 3
    assert "KMRAG_DEBUG=1" in err["message"] and err["at"].startswith("test_config_and_schema.py:")
    assert cli.main(["answers"]) == 3
    assert "internal error ZeroDivisionError" in capsys.readouterr().err
    monkeypatch.setenv("KMRAG_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        cli.main(["answers"])
