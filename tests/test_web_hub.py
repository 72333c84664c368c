"""The live hub: a phone that stops reading is dropped and never holds up a
broadcast or the other phones."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hefen.web import hub as hub_module
from hefen.web.hub import Hub, make_hub


class Phone:
    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.got: list[Any] = []
        self.closed = False

    async def send_json(self, data: Any) -> None:
        if self.stuck:
            await asyncio.sleep(3600)
        self.got.append(data)

    async def close(self, code: int = 1000) -> None:
        self.closed = True


def test_a_stuck_phone_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "SEND_TIMEOUT", 0.2)

    async def run() -> None:
        hub = Hub()
        good, stuck = Phone(), Phone(stuck=True)
        hub.add("T", good)
        hub.add("T", stuck)
        loop = asyncio.get_running_loop()
        started = loop.time()
        for n in range(5):
            await hub.broadcast("T", {"n": n})
        assert loop.time() - started < 0.1  # broadcasting only queues
        await asyncio.sleep(0.5)
        assert [m["n"] for m in good.got] == [0, 1, 2, 3, 4]
        assert hub.sockets("T") == 1 and hub.dropped == 1 and stuck.closed
        await hub.stop()

    asyncio.run(run())


def test_a_phone_that_falls_too_far_behind_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub_module, "QUEUE_LIMIT", 3)
    monkeypatch.setattr(hub_module, "SEND_TIMEOUT", 60)

    async def run() -> None:
        hub = Hub()
        stuck = Phone(stuck=True)
        hub.add("T", stuck)
        for n in range(10):
            await hub.broadcast("T", {"n": n})
        await asyncio.sleep(0.05)
        assert hub.sockets("T") == 0 and stuck.closed
        await hub.stop()

    asyncio.run(run())


def test_make_hub_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEFEN_REDIS_URL", raising=False)
    assert type(make_hub()) is Hub
    monkeypatch.setenv("HEFEN_REDIS_URL", "redis://127.0.0.1:6379/0")
    assert type(make_hub()).__name__ == "RedisHub"


def test_a_binary_frame_is_one_sentence(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from hefen.web import create_app

    client = TestClient(create_app(database_url=f"sqlite:///{tmp_path / 'b.sqlite3'}"))
    code = client.post("/api/tables", json={"ruleset": "mcr"}).json()["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        assert ws.receive_json()["type"] == "table"
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json() == {
            "type": "error",
            "error": "This socket takes text messages only.",
        }
        ws.send_text("ping")
        assert ws.receive_json() == {"type": "pong"}


def test_a_hand_recorded_while_a_phone_connects_reaches_it(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change made between the socket's first read of the table and its
    joining the hub (here: recorded straight into the store, as another
    process would, the moment the socket joins) is in the first table the
    phone gets."""
    from fastapi.testclient import TestClient

    from hefen.web import create_app
    from hefen.web.tables import store_of

    app = create_app(database_url=f"sqlite:///{tmp_path / 'b.sqlite3'}")
    client = TestClient(app)
    made = client.post("/api/tables", json={"ruleset": "hk"}).json()
    code, host = made["code"], made["host_token"]
    joined = Hub.add

    def add_then_record(self: Hub, room: str, ws: Any) -> None:
        joined(self, room, ws)
        store_of(app).record_win(room, host, winner=2, value=3)

    monkeypatch.setattr(Hub, "add", add_then_record)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        first = ws.receive_json()
    assert first["type"] == "table"
    assert [h["winner"] for h in first["table"]["hands"]] == [2]


def _redis_url() -> str:
    import os
    import socket

    url = os.environ.get("HEFEN_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        pytest.skip("Redis at 127.0.0.1:6379 is not running")
    return url


def test_a_redis_hub_reads_only_the_tables_it_has_phones_for() -> None:
    """Each process subscribes to the channels of the tables with a phone
    there (and leaves one when its last phone goes), instead of reading
    every table's changes."""
    from hefen.web.hub import RedisHub

    url = _redis_url()

    async def subscribers(code: str) -> int:
        import redis.asyncio as aioredis

        from hefen.web.hub import CHANNEL_PREFIX

        client = aioredis.from_url(url)
        try:
            counts = await client.pubsub_numsub(CHANNEL_PREFIX + code)
        finally:
            await client.aclose()
        return int(counts[0][1])

    async def run() -> None:
        here, there = RedisHub(url), RedisHub(url)
        await here.start()
        await there.start()
        read: list[str] = []
        deliver = here.deliver

        def counting(code: str, message: Any, text: str | None = None) -> None:
            read.append(code)
            deliver(code, message, text)

        here.deliver = counting  # type: ignore[method-assign]
        try:
            phone = Phone()
            here.add("AAAAAA", phone)
            await here.follow("AAAAAA")
            await there.broadcast("AAAAAA", {"type": "table", "n": 1})
            await there.broadcast("BBBBBB", {"type": "table", "n": 2})  # no phone here
            for _ in range(100):
                if phone.got:
                    break
                await asyncio.sleep(0.02)
            assert phone.got == [{"type": "table", "n": 1}]
            assert here._followed == {"AAAAAA"}
            # at Redis: one subscriber for the table with a phone, none for the other
            assert await subscribers("AAAAAA") == 1 and await subscribers("BBBBBB") == 0
            here.remove("AAAAAA", phone)
            for _ in range(100):
                if not here._followed:
                    break
                await asyncio.sleep(0.02)
            assert here._followed == set() and await subscribers("AAAAAA") == 0
            await there.broadcast("AAAAAA", {"type": "table", "n": 3})
            await asyncio.sleep(0.2)
            assert read == ["AAAAAA"] and phone.got == [{"type": "table", "n": 1}]
        finally:
            await here.stop()
            await there.stop()

    asyncio.run(run())
