"""Several `hefen serve` processes on one PostgreSQL and one Redis: a hand
recorded through either reaches every phone, whichever process it is on."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

POSTGRES = os.environ.get("HEFEN_TEST_POSTGRES_URL", "")
REDIS = os.environ.get("HEFEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parent.parent


def _up(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES, reason="HEFEN_TEST_POSTGRES_URL is not set"),
    pytest.mark.skipif(not _up("127.0.0.1", 6379), reason="Redis is not running on 6379"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def schema() -> Iterator[str]:
    """A schema of its own in the test database, dropped afterwards."""
    import sqlalchemy as sa

    name = f"hefen_mp_{uuid.uuid4().hex[:12]}"
    engine = sa.create_engine(POSTGRES)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    try:
        yield name
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{name}" CASCADE'))
        engine.dispose()


@pytest.fixture
def servers(schema: str) -> Iterator[list[str]]:
    """Two `hefen serve` processes on the same database and Redis."""
    sep = "&" if "?" in POSTGRES else "?"
    env = {
        **os.environ,
        "HEFEN_DATABASE_URL": f"{POSTGRES}{sep}options=-csearch_path%3D{schema}",
        "HEFEN_REDIS_URL": REDIS,
        "PYTHONPATH": str(ROOT),
    }
    procs, urls = [], []
    for _ in range(2):
        port = _free_port()
        cmd = [sys.executable, "-m", "hefen.cli", "serve", "--port", str(port)]
        procs.append(
            subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        )
        urls.append(f"http://127.0.0.1:{port}")
    try:
        import httpx

        deadline = time.monotonic() + 60
        for url in urls:
            while True:
                assert time.monotonic() < deadline, "hefen serve did not start"
                try:
                    if httpx.get(url + "/", timeout=2).is_success:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.2)
        yield urls
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


async def _phones_see_every_hand(urls: list[str]) -> None:
    import httpx
    import websockets

    async with httpx.AsyncClient(timeout=10) as http:
        r = await http.post(
            urls[0] + "/api/tables",
            json={"ruleset": "hk", "names": ["Ann", "Bo", "Cy", "Di"]},
        )
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        tokens = []
        for seat in range(4):  # seats 0 and 2 join through the first, 1 and 3 the second
            r = await http.post(f"{urls[seat % 2]}/api/tables/{code}/join", json={"seat": seat})
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        ws_urls = [
            urls[seat % 2].replace("http", "ws", 1) + f"/ws/tables/{code}" for seat in range(4)
        ]
        phones = [await websockets.connect(u) for u in ws_urls]
        try:
            for ws in phones:  # the state now
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert first["type"] == "table" and first["table"]["hands"] == []
            hands = 4
            for n in range(hands):  # each hand recorded through the other process in turn
                winner = n % 4
                r = await http.post(
                    f"{urls[n % 2]}/api/tables/{code}/hands",
                    json={"winner": winner, "discarder": (winner + 1) % 4, "value": 3},
                    headers={"Authorization": f"Bearer {tokens[winner]}"},
                )
                assert r.status_code == 201, r.text
                for ws in phones:
                    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    assert msg["type"] == "table"
                    assert len(msg["table"]["hands"]) == n + 1
            final = (await http.get(f"{urls[1]}/api/tables/{code}")).json()
            assert len(final["hands"]) == hands and sum(final["balances"]) == 0
        finally:
            for ws in phones:
                await ws.close()


def test_two_processes_keep_four_phones_in_step(servers: list[str]) -> None:
    asyncio.run(_phones_see_every_hand(servers))
