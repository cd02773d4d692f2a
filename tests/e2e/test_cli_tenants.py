"""A tenant name is checked wherever it enters the CLI: KMRAG_TENANT and --tenant, human and --json."""

from __future__ import annotations

import pytest

from kmrag.schema.sanitize import TENANT_RE
from tests.fixtures.cli import error_of, kmrag, server_env

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("bad", ["a b", "x/../y", "t'; DROP TABLE kmrag_units; --", "a\\b", '"q"', ".."])
def test_a_bad_tenant_is_refused_before_any_store_is_touched(bad: str) -> None:
    env = server_env()
    for how in ("flag", "env"):
        args = ("sources", "--tenant", bad) if how == "flag" else ("sources",)
        run_env = env if how == "flag" else {**env, "KMRAG_TENANT": bad}
        human = kmrag(*args, env=run_env, timeout=120)
        assert human.returncode == 2 and repr(bad) in human.stderr and TENANT_RE.pattern in human.stderr, human
        out = kmrag(*args, "--json", env=run_env, timeout=120)
        error = error_of(out)
        assert out.returncode == 2 and error["type"] == "ConfigError" and repr(bad) in error["message"]
