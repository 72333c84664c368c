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


def _serve(port: int, delay: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "HEFEN_DATABASE_URL": POSTGRES,
        "HEFEN_REDIS_URL": REDIS,
        "HEFEN_PLAY_DELAY": delay,
        "PYTHONPATH": str(ROOT),
    }
    cmd = [sys.executable, "-m", "hefen.cli", "serve", "--port", str(port)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.parametrize("seen", [True, False], ids=["loaded-there", "never-loaded-there"])
def test_a_bot_game_goes_on_through_the_other_process_when_its_driver_dies(seen: bool) -> None:
    """SIGKILL the driver mid-game: the other process finishes the game,
    whether it had the game loaded (a phone there) or never heard of it (it
    finds the game among those with bots to move whose lease has expired)."""
    import signal

    import httpx

    ports = [_free_port(), _free_port()]
    procs = [_serve(p, "0.02") for p in ports]
    urls = [f"http://127.0.0.1:{p}" for p in ports]
    try:
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
        made = httpx.post(
            urls[0] + "/api/play",
            json={"ruleset": "mcr", "bots": ["simple"] * 4, "hands": 2},
            timeout=10,
        ).json()
        code = made["code"]
        watch = urls[1] if seen else urls[0]  # a process that has the game loaded
        if seen:  # the second process knows the game (and watches for a driver that stops)
            assert httpx.get(f"{urls[1]}/api/play/{code}", timeout=10).status_code == 200
        while httpx.get(f"{watch}/api/play/{code}", timeout=10).json()["step"] < 15:
            assert time.monotonic() < deadline + 60
            time.sleep(0.1)
        procs[0].send_signal(signal.SIGKILL)  # the driver dies mid-game
        procs[0].wait(timeout=10)
        from hefen.table import open_store

        end = time.monotonic() + 120
        if seen:
            stopped = httpx.get(f"{urls[1]}/api/play/{code}", timeout=10).json()
            assert stopped["table"]["status"] != "finished"
            while True:
                state = httpx.get(f"{urls[1]}/api/play/{code}", timeout=10).json()
                if state["table"]["status"] == "finished":
                    break
                assert time.monotonic() < end, state["table"]
                time.sleep(0.2)
        else:  # watched in the database alone: a request would load the game
            watcher = open_store(POSTGRES)
            try:
                assert len(watcher.get(code).hands) < 2
                while len(watcher.get(code).hands) < 2:
                    assert time.monotonic() < end, "no process took the game over"
                    time.sleep(0.2)
            finally:
                watcher.close()
        # no move lost or doubled: the record replays to the ledger, seq has no gap
        from hefen.game import replay

        record = httpx.get(f"{urls[1]}/api/play/{code}/record", timeout=10).text
        again = replay(record.splitlines())
        assert again.match is not None and len(again.match.played) == 2
        store = open_store(POSTGRES)
        try:
            events = store.events(code)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            lines = [e for e in events if e.kind == "game_line"]
            assert len(lines) == len(record.splitlines())
            assert list(again.match.balances) == list(store.get(code).balances)
        finally:
            store.close()
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
