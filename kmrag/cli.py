"""kmrag command line: init | doctor | services | ingest | jobs | delete | ask | audit | eval | bench."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from kmrag.config import Settings, load_settings
from kmrag.errors import KmragError


def _emit(args: argparse.Namespace, data: Any, human: Callable[[Any], str]) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    else:
        print(human(data))


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(tenant=getattr(args, "tenant", None))


def cmd_init(args: argparse.Namespace) -> int:
    from kmrag.stores import open_stores

    settings = _settings(args)
    with open_stores(settings) as stores:
        stores.init_schema()
        data = {"graph": stores.graph.server_info(), "postgres": stores.units.server_info(),
                "schema": stores.units.schema_status()}
    _emit(args, data, lambda d: "schema ready\n" + f"  graph:    {d['graph']}\n  postgres: {d['postgres']}")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from kmrag.doctor import run_doctor

    report = run_doctor(_settings(args))

    def human(r: Any) -> str:
        lines = []
        for c in report.checks:
            lines.append(f"[{'ok' if c.ok else 'FAIL'}] {c.name}: " + ", ".join(f"{k}={v}" for k, v in c.detail.items()))
            if c.fix:
                lines.append(f"       fix: {c.fix}")
        lines.append("all good" if report.ok else "problems found")
        return "\n".join(lines)

    _emit(args, report.model_dump(), human)
    return 0 if report.ok else 1


def cmd_services(args: argparse.Namespace) -> int:
    from kmrag.retrieval.embedded_pg import stop_embedded

    settings = _settings(args)
    stopped = stop_embedded(settings.data_dir)
    _emit(args, {"stopped": stopped}, lambda d: "embedded PostgreSQL stopped" if stopped else "nothing was running")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kmrag", description="Knowledge-graph-augmented RAG with cited knowledge units")
    sub = p.add_subparsers(dest="command", required=True)

    def add(name: str, fn: Callable[[argparse.Namespace], int], help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_)
        sp.add_argument("--json", action="store_true", help="machine-readable output")
        sp.add_argument("--tenant", help="tenant (default: KMRAG_TENANT or 'default')")
        sp.set_defaults(fn=fn)
        return sp

    add("init", cmd_init, "create the database schemas (idempotent)")
    add("doctor", cmd_doctor, "check backends, schema and models")
    svc = add("services", cmd_services, "manage the embedded PostgreSQL")
    svc.add_argument("action", choices=["stop"])
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.fn(args))
    except KmragError as e:
        if getattr(args, "json", False):
            print(json.dumps({"error": type(e).__name__, "message": str(e)}))
        else:
            print(f"kmrag: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kmrag: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
