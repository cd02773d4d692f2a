#!/usr/bin/env bash
# Stop the services started by services/up.sh, the LLM server too if it runs (data is kept under
# KMRAG_SERVICES_DIR).
source "$(dirname "$0")/common.sh"
"$SERVICES_SRC/neo4j.sh" stop || true
"$SERVICES_SRC/postgres.sh" stop || true
"$SERVICES_SRC/llm.sh" stop || true
