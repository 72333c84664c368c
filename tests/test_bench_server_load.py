"""A small run of ``bench/server_load.py`` (the issue's benchmark at CI size):
every phase runs against real ``hefen`` server processes on loopback and
nothing is lost — one process on SQLite, and two on PostgreSQL with Redis
where those run. The figures themselves are read by hand, not asserted."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = os.environ.get("HEFEN_TEST_POSTGRES_URL", "")
REDIS = os.environ.get("HEFEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _up(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _run(*extra: str) -> dict[str, Any]:
    argv = [sys.executable, str(ROOT / "bench" / "server_load.py"), "--hands", "40"]
    argv += ["--tables", "6", "--rate", "20", "--deadline", "30", "--capacity", "1"]
    argv += ["--connects", "12", "--score-rates", "20", "--seconds", "1", *extra]
    p = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert p.returncode == 0, p.stderr[-2000:]
    out: dict[str, Any] = {}
    for line in p.stdout.splitlines():
        name, sep, rest = line.partition(": ")
        if sep and rest.startswith("{"):
            out[name] = json.loads(rest)
    return out


def _check(out: dict[str, Any], processes: int) -> None:
    assert out["hands"]["hands"] == 40 and out["hands"]["server_cpu_ms_per_hand"] > 0
    cap = out["capacity"]
    assert cap["processes"] == processes and cap["hands_per_s"] > 0
    assert cap["machine_cpu_ms_per_hand"] >= cap["server_cpu_ms_per_hand"] * 0.5
    live = out["broadcast 6 tables"]
    assert live["sockets"] == 24 and live["lost"] == 0 and live["posts_failed"] == 0
    assert live["deliveries"] == 24  # every hand reached all four of its table's phones
    assert out["connects at once"] == {**out["connects at once"], "opened": 12, "failed": 0}
    assert out["score 20/s"]["errors"] == 0 and out["score 20/s"]["requests"] == 20


def test_one_process_on_sqlite() -> None:
    _check(_run(), 1)


@pytest.mark.skipif(not POSTGRES, reason="HEFEN_TEST_POSTGRES_URL is not set")
@pytest.mark.skipif(not _up(6379), reason="Redis is not running on 6379")
def test_two_processes_on_postgresql_and_redis() -> None:
    out = _run("--processes", "2", "--database-url", POSTGRES, "--redis-url", REDIS)
    _check(out, 2)
