#!/usr/bin/env bash
# Start real Neo4j and PostgreSQL+pgvector on 127.0.0.1 and print the environment that points kmrag
# (and its tests) at them:   eval "$(services/up.sh)"
# With KMRAG_WITH_LLM=1 it also starts a local OpenAI-compatible LLM server (services/llm.sh) for the
# LLM tests and exports KMRAG_TEST_LLM_BASE_URL / KMRAG_TEST_LLM_MODEL.
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
