"""A throwaway PostgreSQL server for the SQL door's tests.

Debian's ``postgresql`` package (installed by ``.ci/run``) provides ``initdb`` and
``pg_ctl`` under ``/usr/lib/postgresql/<version>/bin``; the session fixture creates a
cluster in a temporary directory and starts it on a Unix socket only
(``listen_addresses=''``: no network). PostgreSQL refuses to run as root, so under root
the cluster belongs to the ``postgres`` user and is driven through ``runuser``. Without
the binaries (or psycopg) the PostgreSQL tests skip, naming what is missing.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest


def _pg_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return os.path.dirname(found[-1])
    initdb = shutil.which("initdb")
    return None if initdb is None else os.path.dirname(initdb)


@pytest.fixture(scope="session")
def pg_dsn() -> Iterator[str]:
    """A libpq connection string of a fresh server (user ``clfeval``, database
    ``postgres``, trust authentication on its own socket directory)."""
    pytest.importorskip("psycopg")
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL binaries (initdb, pg_ctl) not found; apt-get install "
                    "postgresql")
    root = os.geteuid() == 0
    if root:
        import pwd

        try:
            pw = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run the server")
    base = tempfile.mkdtemp(prefix="clfeval-pg-")
    data, sock = os.path.join(base, "data"), os.path.join(base, "sock")
    os.mkdir(sock)
    if root:
        os.chown(base, pw.pw_uid, pw.pw_gid)
        os.chown(sock, pw.pw_uid, pw.pw_gid)
        os.chmod(base, 0o755)

    def run(*cmd: str) -> None:
        full = list(cmd)
        if root:
            full = ["runuser", "-u", "postgres", "--", *full]
        subprocess.run(full, check=True, capture_output=True, timeout=120)

    try:
        run(os.path.join(bindir, "initdb"), "-D", data, "-U", "clfeval", "--auth=trust",
            "-E", "UTF8", "--no-locale")
        run(os.path.join(bindir, "pg_ctl"), "-D", data, "-w", "-l",
            os.path.join(base, "log"), "-o",
            f"-c listen_addresses='' -c unix_socket_directories='{sock}' -c fsync=off",
            "start")
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"could not start PostgreSQL: {exc.stderr.decode(errors='replace')[:300]}")
    try:
        yield f"host={sock} user=clfeval dbname=postgres"
    finally:
        try:
            run(os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate", "stop")
        finally:
            shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def pg(pg_dsn: str) -> Iterator[Any]:
    """An autocommit psycopg connection to the test server."""
    import psycopg

    conn = psycopg.connect(pg_dsn, autocommit=True)
    try:
        yield conn
    finally:
        conn.close()


def pg_load(conn: Any, table: str, columns: dict[str, Any], types: dict[str, str]) -> None:
    """(Re)create ``table`` with ``columns`` (name → sequence; ``None`` is NULL)."""
    import numpy as np
    from psycopg import sql

    names = list(columns)
    with conn.cursor() as cur:
        cur.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(table)))
        cur.execute(sql.SQL("CREATE TABLE {} ({})").format(
            sql.Identifier(table),
            sql.SQL(", ").join(sql.SQL("{} {}").format(sql.Identifier(n), sql.SQL(types[n]))
                               for n in names)))
        copy = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(table), sql.SQL(", ").join(sql.Identifier(n) for n in names))
        cols = [np.asarray(columns[n], dtype=object) for n in names]
        with cur.copy(copy) as cp:
            for row in zip(*cols, strict=True):
                cp.write_row([None if v is None else (v.item() if hasattr(v, "item") else v)
                              for v in row])
