#!/usr/bin/env bash
# Start real Neo4j and PostgreSQL+pgvector on 127.0.0.1 and print the environment that points kmrag
# (and its tests) at them:   eval "$(services/up.sh)"
source "$(dirname "$0")/common.sh"
NEO4J_URI="$("$SERVICES_SRC/neo4j.sh" start)"
PG_URI="$("$SERVICES_SRC/postgres.sh" start)"
echo "export KMRAG_NEO4J_URI='$NEO4J_URI'"
echo "export KMRAG_NEO4J_USER='neo4j'"
echo "export KMRAG_NEO4J_PASSWORD='${KMRAG_NEO4J_PASSWORD:-kmrag-dev-password}'"
echo "export KMRAG_DATABASE_URL='$PG_URI'"
