# Shared helpers for services/*.sh (sourced, not run).
set -euo pipefail
SERVICES_SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SERVICES_SRC/.." && pwd)"
# Where data, logs, jars and pid files go: the caller chooses with KMRAG_SERVICES_DIR.
SERVICES_DIR="${KMRAG_SERVICES_DIR:-$REPO_ROOT/.services}"
mkdir -p "$SERVICES_DIR"
SERVICES_DIR="$(cd "$SERVICES_DIR" && pwd)"

die() { echo "error: $*" >&2; exit 1; }
info() { echo "[$(basename "$0")] $*" >&2; }

# port_open HOST PORT: true when something accepts TCP connections there
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null && exec 3>&- 3<&- ; }

pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# stop_pid PIDFILE SECONDS NAME: TERM the process, KILL it after SECONDS, forget the pid file
stop_pid() {
  local pidfile=$1 secs=$2 name=$3
  if pid_alive "$pidfile"; then
    local pid; pid="$(cat "$pidfile")"
    kill "$pid"
    wait_for "$secs" "$name stop" bash -c "! kill -0 $pid 2>/dev/null" || { kill -9 "$pid" 2>/dev/null || true; }
    info "stopped"
  else
    info "not running"
  fi
  rm -f "$pidfile"
}

# wait_for SECONDS DESCRIPTION COMMAND...: poll until COMMAND succeeds or time runs out
wait_for() {
  local secs=$1 what=$2; shift 2
  local end=$(( $(date +%s) + secs ))
  until "$@"; do
    [ "$(date +%s)" -lt "$end" ] || return 1
    sleep 0.5
  done
}

# dispatch ACTION: run the service script's start|stop|status|uri function
dispatch() {
  case "${1:-}" in
    start|stop|status|uri) "$1" ;;
    *) echo "usage: $0 start|stop|status|uri" >&2; exit 2 ;;
  esac
}
