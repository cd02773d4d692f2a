"""`kmrag bench api`: POST /v1/ask from N concurrent clients for S seconds per level, against a server it
starts (``kmrag serve --insecure-local`` on a free loopback port, the tenant of the settings) or one at
``--url`` (with ``--key``). Per level: requests per second, latency p50 / p95, errors (anything but 200),
and the server's PostgreSQL pool (size, idle, waiting) and the database's connection count, before and
after, from /v1/status."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from kmrag.errors import ConfigError, ServiceUnavailable
from kmrag.eval import metrics as M

DEFAULT_QUESTION = "How much can I receive if I am denied boarding, for flights from Delhi to Munich?"
POOL_KEYS = ("pool_size", "pool_available", "requests_waiting", "server_connections")
EXPECTED = {200, 429, 504}  # an answer, the key's rate limit, an ask past KMRAG_SERVER_ASK_TIMEOUT_S: not errors


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """``kmrag serve --insecure-local`` in a subprocess, for the benchmark's duration."""

    def __init__(self, tenant: str, wait_s: float = 180.0, ask_timeout_s: float | None = None) -> None:
        import httpx

        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        self._log = tempfile.TemporaryFile()
        env = dict(os.environ)
        if ask_timeout_s is not None:
            env["KMRAG_SERVER_ASK_TIMEOUT_S"] = f"{ask_timeout_s:.3f}"
        self.proc = subprocess.Popen([sys.executable, "-m", "kmrag.cli", "serve", "--insecure-local", "--port",
                                      str(port), "--tenant", tenant, "--log-level", "warning"],
                                     stdout=self._log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                if httpx.get(self.url + "/v1/health", timeout=5).status_code in (200, 503):
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.3)
        self._log.seek(0)
        tail = self._log.read().decode("utf-8", "replace")[-2000:]
        self.stop()
        raise ServiceUnavailable(f"the benchmark's server did not start: {tail}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._log.close()


def _pool(client: Any) -> dict[str, Any]:
    r = client.get("/v1/status")
    body = r.json()
    if r.status_code != 200:
        raise ServiceUnavailable(f"{client.base_url}/v1/status answered {r.status_code}: {body.get('detail')}")
    pool = body.get("pool") or {}
    return {**{k: pool.get(k) for k in ("pool_max", *POOL_KEYS)}, "threads": body.get("threads"),
            "asks_running": body.get("asks_running")}


def _level(url: str, headers: dict[str, str], n: int, seconds: float, questions: Sequence[str],
           body: dict[str, Any], timeout: float) -> dict[str, Any]:
    import httpx

    latencies: list[list[float]] = [[] for _ in range(n)]
    errors: list[list[str]] = [[] for _ in range(n)]
    statuses: list[list[int]] = [[] for _ in range(n)]
    start = threading.Barrier(n + 1)
    deadline = [0.0]

    def client_loop(i: int) -> None:
        with httpx.Client(base_url=url, headers=headers, timeout=timeout) as c:
            start.wait()
            j = i
            while time.monotonic() < deadline[0]:
                q = questions[j % len(questions)]
                j += 1
                t = time.perf_counter()
                try:
                    r = c.post("/v1/ask", json={**body, "question": q})
                    statuses[i].append(r.status_code)
                    ok = r.status_code in EXPECTED
                    why = "" if ok else f"{r.status_code}: {r.text[:200]}"
                except httpx.HTTPError as e:
                    ok, why = False, f"{type(e).__name__}: {e}"
                latencies[i].append((time.perf_counter() - t) * 1000)
                if not ok:
                    errors[i].append(why)

    threads = [threading.Thread(target=client_loop, args=(i,), daemon=True) for i in range(n)]
    for th in threads:
        th.start()
    t0 = time.monotonic()
    deadline[0] = t0 + seconds
    start.wait()
    for th in threads:
        th.join()
    elapsed = time.monotonic() - t0
    lat = [x for xs in latencies for x in xs]
    errs = [x for xs in errors for x in xs]
    return {"concurrency": n, "requests": len(lat), "seconds": round(elapsed, 2),
            "rps": round(len(lat) / elapsed, 2) if elapsed else 0.0,
            "p50_ms": round(M.percentile(lat, 50), 1) if lat else None,
            "p95_ms": round(M.percentile(lat, 95), 1) if lat else None,
            "statuses": {str(k): v for k, v in sorted(Counter(x for xs in statuses for x in xs).items())},
            "errors": len(errs), "error_samples": sorted(set(errs))[:3]}


def bench_api(tenant: str, concurrency: Sequence[int], seconds: float, questions: Sequence[str] = (),
              url: str | None = None, key: str | None = None, generator: str = "extractive",
              strategy: str = "multihop", note: Callable[[str], None] | None = None,
              ask_timeout_s: float | None = None) -> dict[str, Any]:
    """``ask_timeout_s``: the KMRAG_SERVER_ASK_TIMEOUT_S of the server it starts (asks past it answer 504 and
    stop at their next step: the threads and connections before and after each level show they do)."""
    import httpx

    if not concurrency or min(concurrency) < 1:
        raise ConfigError("--concurrency takes positive whole numbers (e.g. 1,8,16)")
    if seconds <= 0:
        raise ConfigError("--seconds must be positive")
    if ask_timeout_s is not None and (ask_timeout_s <= 0 or url):
        raise ConfigError("--ask-timeout is a positive number of seconds, for the server the benchmark starts "
                          "(a server at --url has its own KMRAG_SERVER_ASK_TIMEOUT_S)")
    questions = list(questions) or [DEFAULT_QUESTION]
    if url and not key:
        raise ConfigError("kmrag bench api --url needs --key (or KMRAG_API_KEY) unless the server is --insecure-local")
    server = None if url else LocalServer(tenant, ask_timeout_s=ask_timeout_s)
    base = url.rstrip("/") if url else server.url  # type: ignore[union-attr]
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    body = {"generator": generator, "strategy": strategy}
    timeout = 600.0
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=timeout) as c:
            _pool(c)
            warm = c.post("/v1/ask", json={**body, "question": questions[0]})  # models loaded, statements prepared
            if warm.status_code not in (200, 504):
                raise ServiceUnavailable(f"POST {base}/v1/ask answered {warm.status_code}: {warm.text[:300]}")
            levels = []
            for n in concurrency:
                if note:
                    note(f"{n} client(s) for {seconds:g} s")
                before = _pool(c)
                level = _level(base, headers, n, seconds, questions, body, timeout)
                level.update(pool_before=before, pool_after=_pool(c))
                levels.append(level)
    finally:
        if server is not None:
            server.stop()
    return {"url": base, "started_server": server is not None, "tenant": tenant if server else None,
            "questions": len(questions), "generator": generator, "strategy": strategy, "seconds": seconds,
            "ask_timeout_s": ask_timeout_s, "levels": levels}


def render_api(r: dict[str, Any]) -> str:
    lines = [f"POST {r['url']}/v1/ask ({r['strategy']}, {r['generator']}; {r['questions']} question(s); "
             f"{r['seconds']:g} s per level{'; server started for the run' if r['started_server'] else ''})", "",
             "| clients | requests | req/s | p50 ms | p95 ms | statuses | errors | pool size before → after | idle "
             "| waiting | db connections before → after | threads before → after |", "|---" * 12 + "|"]
    for lv in r["levels"]:
        b, a = lv["pool_before"], lv["pool_after"]
        shown = ", ".join(f"{k}: {v}" for k, v in lv["statuses"].items())
        lines.append(f"| {lv['concurrency']} | {lv['requests']} | {lv['rps']} | {lv['p50_ms']} | {lv['p95_ms']} | "
                     f"{shown} | {lv['errors']} | {b['pool_size']} → {a['pool_size']} (max {a['pool_max']}) | "
                     f"{a['pool_available']} | {a['requests_waiting']} | {b['server_connections']} → "
                     f"{a['server_connections']} | {b['threads']} → {a['threads']} |")
    for lv in r["levels"]:
        for e in lv["error_samples"]:
            lines.append(f"error at {lv['concurrency']} client(s): {e}")
    return "\n".join(lines)
