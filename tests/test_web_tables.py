"""Tables over the web API: create, join, record, undo, token checks, live feed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hefen.web import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database_url=f"sqlite:///{tmp_path / 't.sqlite3'}"))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(client: TestClient, ruleset: str = "mcr", **kw: Any) -> dict[str, Any]:
    r = client.post(
        "/api/tables", json={"ruleset": ruleset, "names": ["Ann", "Bo", "Cy", "Di"], **kw}
    )
    assert r.status_code == 201, r.text
    return r.json()


def test_create_join_record_undo(client: TestClient) -> None:
    t = new_table(client, "tw", options={"base": 30, "per_tai": 10})
    code = t["code"]
    assert t["join_url"].endswith(f"/t/{code}") and t["host_token"]
    assert t["table"]["seats"][1]["name"] == "Bo"
    assert t["table"]["settings"]["options"]["per_tai"] == 10

    seats = {}
    for i in range(4):
        r = client.post(f"/api/tables/{code}/join", json={"seat": i})
        assert r.status_code == 200, r.text
        seats[i] = r.json()["token"]
    assert client.get(f"/api/tables/{code}").json()["seats"][3]["joined"] is True
    who = client.get(f"/api/tables/{code}/whoami", headers=auth(seats[2])).json()
    assert who == {"host": False, "seat": 2}

    # Bo (seat 1) wins 3 tai off Ann's discard: Ann (the dealer) pays 30 + (3+1)*10
    r = client.post(
        f"/api/tables/{code}/hands",
        json={"winner": 1, "discarder": 0, "value": 3},
        headers=auth(seats[1]),
    )
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    assert table["balances"] == [-70, 70, 0, 0]
    assert len(table["hands"]) == 1

    r = client.post(f"/api/tables/{code}/draw", headers=auth(seats[3]))
    assert r.status_code == 201
    assert [h["kind"] for h in r.json()["table"]["hands"]] == ["win", "draw"]

    r = client.post(f"/api/tables/{code}/undo", headers=auth(seats[0]))
    assert r.status_code == 200
    assert r.json()["hand"]["kind"] == "draw"
    assert len(r.json()["table"]["hands"]) == 1
    r = client.post(f"/api/tables/{code}/undo", json={}, headers=auth(t["host_token"]))
    assert r.status_code == 200 and r.json()["table"]["balances"] == [0, 0, 0, 0]


def test_record_a_scored_hand(client: TestClient) -> None:
    t = new_table(client, "mcr")
    code, host = t["code"], t["host_token"]
    hand = {
        "rules": "mcr",
        "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E"],
        "win_tile": "E",
        "context": {"last_tile_of_wall": False},
    }
    r = client.post(
        f"/api/tables/{code}/hands",
        json={"winner": 0, "discarder": None, "hand": hand},
        headers=auth(host),
    )
    body = r.json()
    assert r.status_code == 201, body
    rec = body["hand"]
    assert rec["source"] == "scored" and rec["result"]["valid"] is True
    assert rec["hand"]["context"]["win"] == "self_draw"
    assert sum(body["table"]["balances"]) == 0


def test_token_checks(client: TestClient) -> None:
    t = new_table(client)
    code = t["code"]
    ann = client.post(f"/api/tables/{code}/join", json={"seat": 0}).json()["token"]
    cy = client.post(f"/api/tables/{code}/join", json={"seat": 2}).json()["token"]
    other = new_table(client)["host_token"]
    win = {"winner": 1, "discarder": 3, "value": 8}
    assert client.post(f"/api/tables/{code}/hands", json=win).status_code == 403
    for token in (ann, cy, other, "nonsense"):  # neither winner nor discarder
        r = client.post(f"/api/tables/{code}/hands", json=win, headers=auth(token))
        assert r.status_code == 403, token
        assert r.json()["error"].endswith(".")
    assert client.post(f"/api/tables/{code}/draw", headers=auth(other)).status_code == 403
    assert client.post(f"/api/tables/{code}/undo").status_code == 403
    # a seat is freed by its own player or the host only
    r = client.post(f"/api/tables/{code}/release", json={"seat": 0}, headers=auth(cy))
    assert r.status_code == 403
    r = client.post(f"/api/tables/{code}/release", json={"seat": 0}, headers=auth(ann))
    assert r.status_code == 200 and r.json()["seats"][0]["joined"] is False
    # the winner may record
    r = client.post(f"/api/tables/{code}/hands", json={**win, "discarder": 2}, headers=auth(cy))
    assert r.status_code == 201


def test_errors(client: TestClient) -> None:
    assert client.get("/api/tables/ZZZZZZ").status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    assert "error" in client.get("/api/tables/ZZZZZZ").json()
    r = client.post("/api/tables", json={"ruleset": "riichi"})
    assert r.status_code == 422 and "ruleset" in r.json()["error"]
    r = client.post("/api/tables", json={"ruleset": "hk", "options": {"cap": 11}})
    assert r.status_code == 400 and "cap" in r.json()["error"]
    t = new_table(client)
    code = t["code"]
    assert client.post(f"/api/tables/{code}/join", json={"seat": 1}).status_code == 200
    r = client.post(f"/api/tables/{code}/join", json={"seat": 1})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    r = client.post(
        f"/api/tables/{code}/hands",
        json={"winner": 1, "discarder": 1, "value": 8},
        headers=auth(t["host_token"]),
    )
    assert r.status_code == 400 and r.json()["error"]
    r = client.post(f"/api/tables/{code}/undo", headers=auth(t["host_token"]))
    assert r.status_code == 400  # nothing to undo


def test_websocket_broadcast(client: TestClient) -> None:
    t = new_table(client, "hk")
    code = t["code"]
    with (
        client.websocket_connect(f"/ws/tables/{code}") as a,
        client.websocket_connect(f"/ws/tables/{code.lower()}") as b,
    ):
        assert a.receive_json()["table"]["version"] == 1
        assert b.receive_json()["table"]["code"] == code
        token = client.post(f"/api/tables/{code}/join", json={"seat": 2}).json()["token"]
        for ws in (a, b):
            msg = ws.receive_json()
            assert msg["type"] == "table" and msg["table"]["seats"][2]["joined"]
        client.post(
            f"/api/tables/{code}/hands",
            json={"winner": 2, "discarder": 0, "value": 4},
            headers=auth(token),
        )
        for ws in (a, b):
            table = ws.receive_json()["table"]
            assert len(table["hands"]) == 1 and table["balances"][2] > 0
        a.send_text("ping")
        assert a.receive_json() == {"type": "pong"}


def test_table_pages(client: TestClient) -> None:
    t = new_table(client, "tw")
    code = t["code"]
    page = client.get(f"/t/{code}")
    assert page.status_code == 200 and code in page.text and "<svg" in page.text
    assert client.get(f"/t?code={code.lower()}", follow_redirects=False).status_code == 303
    assert "ZZZZZZ" in client.get("/t/ZZZZZZ").text
    qr = client.get(f"/api/tables/{code}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    import xml.etree.ElementTree as ET

    ET.fromstring(qr.text)
    calc = client.get(f"/calc?table={code}")
    assert calc.status_code == 200 and 'data-table="' + code in calc.text
