#!/usr/bin/env bash
# Stop the services started by services/up.sh, the LLM servers too if they run (data is kept under
# KMRAG_SERVICES_DIR).
source "$(dirname "$0")/common.sh"
"$SERVICES_SRC/neo4j.sh" stop || true
"$SERVICES_SRC/postgres.sh" stop || true
for m in gemma-270m qwen-0.5b qwen-1.5b; do KMRAG_LOCAL_LLM=$m "$SERVICES_SRC/llm.sh" stop 2>/dev/null || true; done
