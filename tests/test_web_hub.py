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
