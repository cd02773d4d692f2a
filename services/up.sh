#!/usr/bin/env bash
# Start real Neo4j and PostgreSQL+pgvector on 127.0.0.1 and print the environment that points kmrag
# (and its tests) at them:   eval "$(services/up.sh)"
# With KMRAG_WITH_LLM=1 it also starts a local OpenAI-compatible LLM server (services/llm.sh) for the
# LLM tests and exports KMRAG_TEST_LLM_BASE_URL / KMRAG_TEST_LLM_MODEL (Gemma 3 270M, a base model); with
# KMRAG_WITH_INSTRUCT_LLM=1 also an instruct model's server (KMRAG_TEST_INSTRUCT_LLM: qwen-0.5b, default, or
# qwen-1.5b; its own port, KMRAG_INSTRUCT_LLM_PORT) for the tests a base model cannot pass, exporting
# KMRAG_TEST_INSTRUCT_LLM_BASE_URL / KMRAG_TEST_INSTRUCT_LLM_MODEL.
source "$(dirname "$0")/common.sh"
NEO4J_URI="$("$SERVICES_SRC/neo4j.sh" start)"
PG_URI="$("$SERVICES_SRC/postgres.sh" start)"
echo "export KMRAG_NEO4J_URI='$NEO4J_URI'"
echo "export KMRAG_NEO4J_USER='neo4j'"
echo "export KMRAG_NEO4J_PASSWORD='${KMRAG_NEO4J_PASSWORD:-kmrag-dev-password}'"
echo "export KMRAG_DATABASE_URL='$PG_URI'"
echo "export KMRAG_NEO4J_BROWSER_URL='http://127.0.0.1:${NEO4J_HTTP_PORT:-7474}/browser/'"
if [ "${KMRAG_WITH_LLM:-}" = 1 ]; then
  LLM_URL="$("$SERVICES_SRC/llm.sh" start)"
  LLM_MODEL="$("$SERVICES_SRC/llm.sh" model)"
  echo "export KMRAG_TEST_LLM_BASE_URL='$LLM_URL'"
  echo "export KMRAG_TEST_LLM_MODEL='$LLM_MODEL'"
fi
if [ "${KMRAG_WITH_INSTRUCT_LLM:-}" = 1 ]; then
  INSTRUCT="${KMRAG_TEST_INSTRUCT_LLM:-qwen-0.5b}"
  I_URL="$(KMRAG_LOCAL_LLM="$INSTRUCT" KMRAG_LLM_PORT="${KMRAG_INSTRUCT_LLM_PORT:-}" "$SERVICES_SRC/llm.sh" start)"
  I_MODEL="$(KMRAG_LOCAL_LLM="$INSTRUCT" KMRAG_LLM_PORT="${KMRAG_INSTRUCT_LLM_PORT:-}" "$SERVICES_SRC/llm.sh" model)"
  echo "export KMRAG_TEST_INSTRUCT_LLM_BASE_URL='$I_URL'"
  echo "export KMRAG_TEST_INSTRUCT_LLM_MODEL='$I_MODEL'"
fi
