#!/usr/bin/env bash
# A real Neo4j 5.26 Community server (Bolt + HTTP with Neo4j Browser at /browser/) on 127.0.0.1,
# assembled from Maven Central artifacts and run with the installed Java 17. No Docker.
#   services/neo4j.sh start|stop|status|uri
# Env: KMRAG_SERVICES_DIR (data, logs, jars), NEO4J_BOLT_PORT (7687), NEO4J_HTTP_PORT (7474),
#      KMRAG_NEO4J_PASSWORD (initial password of user neo4j, default kmrag-dev-password), NEO4J_HEAP (1g),
#      NEO4J_LIB (a folder of Neo4j jars that another services dir already fetched: reused, read-only;
#      default $KMRAG_SERVICES_DIR/neo4j/lib, fetched there once)
source "$(dirname "$0")/common.sh"

BOLT_PORT="${NEO4J_BOLT_PORT:-7687}"
HTTP_PORT="${NEO4J_HTTP_PORT:-7474}"
PASSWORD="${KMRAG_NEO4J_PASSWORD:-kmrag-dev-password}"
HEAP="${NEO4J_HEAP:-1g}"
HOME_DIR="$SERVICES_DIR/neo4j"
LIB="${NEO4J_LIB:-$HOME_DIR/lib}"
PIDFILE="$HOME_DIR/run/neo4j.pid"
LOG="$HOME_DIR/logs/console.log"
START_TIMEOUT="${NEO4J_START_TIMEOUT:-180}"

uri() { echo "bolt://127.0.0.1:$BOLT_PORT"; }

http_ready() { curl -fsS "http://127.0.0.1:$HTTP_PORT/" >/dev/null 2>&1; }
ready() { port_open 127.0.0.1 "$BOLT_PORT" && http_ready; }

fetch_jars() {
  local want
  want="$(sed -n 's:.*<neo4j.version>\(.*\)</neo4j.version>.*:\1:p' "$SERVICES_SRC/neo4j/pom.xml")"
  if [ -f "$LIB/.complete-$want" ]; then return 0; fi
  [ -z "${NEO4J_LIB:-}" ] || die "NEO4J_LIB=$NEO4J_LIB holds no complete Neo4j $want: unset it to fetch the jars"
  command -v mvn >/dev/null || die "Maven (mvn) is needed to fetch Neo4j from Maven Central: apt-get install maven"
  info "fetching Neo4j $want and Neo4j Browser from Maven Central into $LIB (once, ~140 MB)"
  rm -rf "$LIB"; mkdir -p "$LIB"
  if ! mvn -q -B -f "$SERVICES_SRC/neo4j/pom.xml" dependency:copy-dependencies \
        -DoutputDirectory="$LIB" >"$HOME_DIR/mvn.log" 2>&1; then
    tail -20 "$HOME_DIR/mvn.log" >&2
    die "could not fetch Neo4j jars from Maven Central (log: $HOME_DIR/mvn.log)"
  fi
  touch "$LIB/.complete-$want"
}

write_conf() {
  mkdir -p "$HOME_DIR"/{conf,data,logs,run,plugins,import}
  cat > "$HOME_DIR/conf/neo4j.conf" <<CONF
server.default_listen_address=127.0.0.1
server.default_advertised_address=127.0.0.1
server.bolt.enabled=true
server.bolt.listen_address=127.0.0.1:$BOLT_PORT
server.http.enabled=true
server.http.listen_address=127.0.0.1:$HTTP_PORT
server.https.enabled=false
dbms.security.auth_enabled=true
server.directories.data=$HOME_DIR/data
server.directories.logs=$HOME_DIR/logs
server.directories.plugins=$HOME_DIR/plugins
server.directories.import=$HOME_DIR/import
server.directories.run=$HOME_DIR/run
server.memory.heap.initial_size=$HEAP
server.memory.heap.max_size=$HEAP
server.memory.pagecache.size=256m
dbms.usage_report.enabled=false
db.tx_log.rotation.retention_policy=1 files
CONF
}

start() {
  if pid_alive "$PIDFILE" && ready; then info "already running"; uri; return 0; fi
  if ! pid_alive "$PIDFILE" && port_open 127.0.0.1 "$BOLT_PORT"; then
    die "port $BOLT_PORT is taken by another process; stop it or set NEO4J_BOLT_PORT"
  fi
  command -v java >/dev/null || die "Java 17+ is needed to run Neo4j: apt-get install openjdk-17-jre-headless"
  local jv; jv="$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
  [ "${jv:-0}" -ge 17 ] || die "Neo4j 5 needs Java 17+, found '${jv:-none}'"
  command -v curl >/dev/null || die "curl is needed to check Neo4j: apt-get install curl"
  local t0=$SECONDS
  fetch_jars
  write_conf
  if [ ! -d "$HOME_DIR/data/dbms" ]; then
    NEO4J_HOME="$HOME_DIR" NEO4J_CONF="$HOME_DIR/conf" java -cp "$LIB/*" org.neo4j.cli.AdminTool \
      dbms set-initial-password "$PASSWORD" >>"$HOME_DIR/logs/admin.log" 2>&1 \
      || die "could not set the initial password (see $HOME_DIR/logs/admin.log)"
  fi
  info "starting Neo4j (bolt $BOLT_PORT, http $HTTP_PORT), logs in $HOME_DIR/logs"
  NEO4J_HOME="$HOME_DIR" NEO4J_CONF="$HOME_DIR/conf" nohup java -Xms"$HEAP" -Xmx"$HEAP" \
    -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow -XX:+DisableExplicitGC -Djdk.tls.ephemeralDHKeySize=2048 \
    --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
    --add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
    -cp "$LIB/*" org.neo4j.server.CommunityEntryPoint \
    --home-dir="$HOME_DIR" --config-dir="$HOME_DIR/conf" >"$LOG" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  if ! wait_for "$START_TIMEOUT" "neo4j" ready; then
    tail -30 "$LOG" >&2
    pid_alive "$PIDFILE" || die "Neo4j exited during start-up (log above, full: $LOG)"
    die "Neo4j did not answer on bolt $BOLT_PORT / http $HTTP_PORT within ${START_TIMEOUT}s (log: $LOG)"
  fi
  info "Neo4j $(sed -n 's:.*<neo4j.version>\(.*\)</neo4j.version>.*:\1:p' "$SERVICES_SRC/neo4j/pom.xml") ready in $((SECONDS - t0))s; Browser: http://127.0.0.1:$HTTP_PORT/browser/"
  uri
}

stop() { stop_pid "$PIDFILE" 60 neo4j; }

status() {
  if pid_alive "$PIDFILE" && ready; then echo "running $(uri) http://127.0.0.1:$HTTP_PORT/browser/"; else echo "stopped"; return 1; fi
}

dispatch "$@"
