"""The web app's JSON API: /api/score, its errors and limits, the OpenAPI document."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hefen.web import create_app

HAND: dict[str, Any] = {
    "rules": "mcr",
    "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E"],
    "melds": [],
    "win_tile": "E",
    "flowers": ["1h"],
    "context": {"win": "self_draw", "seat_wind": "E", "round_wind": "E"},
    "options": {},
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(database_url="sqlite://"))


def test_score_matches_the_engine(client: TestClient) -> None:
    from hefen import score

    r = client.post("/api/score", json=HAND)
    assert r.status_code == 200, r.text
    assert r.json() == score(HAND).to_dict()
    body = r.json()
    assert body["valid"] is True and body["rules"] == "mcr"
    assert body["total"] == sum(p["value"] * p["count"] for p in body["patterns"])


def test_score_with_melds_and_context(client: TestClient) -> None:
    from hefen import score

    obj = {
        "rules": "mcr",
        "hand": ["2p", "3p", "4p", "6s", "7s", "8s", "5m"],
        "melds": [
            {"kind": "pung", "tiles": ["C", "C", "C"]},
            {"kind": "kong", "tiles": ["9s", "9s", "9s", "9s"], "concealed": True},
        ],
        "win_tile": "5m",
        "context": {"win": "discard", "discarder": "S", "last_tile_of_wall": True},
    }
    r = client.post("/api/score", json=obj)
    assert r.status_code == 200
    assert r.json() == score(obj).to_dict()


def test_illegal_hand_is_200_invalid(client: TestClient) -> None:
    obj = dict(HAND, hand=HAND["hand"][:-1])  # 12 + 1 tiles
    r = client.post("/api/score", json=obj)
    assert r.status_code == 200
    body = r.json()
    assert body["valid"] is False and body["error"]
    five = dict(HAND, hand=["1m"] * 4 + HAND["hand"][4:], win_tile="1m")
    assert client.post("/api/score", json=five).json()["valid"] is False


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "object"),
        (json.dumps({**HAND, "colour": "red"}).encode(), "Unknown key"),
        (json.dumps({**HAND, "rules": "riichi"}).encode(), "rules"),
        (json.dumps({k: v for k, v in HAND.items() if k != "win_tile"}).encode(), "win_tile"),
        (json.dumps({**HAND, "hand": "1m2m3m"}).encode(), "hand"),
        (json.dumps({**HAND, "context": {"win": "tsumo"}}).encode(), "context.win"),
        (json.dumps({**HAND, "melds": [{"kind": "pair", "tiles": []}]}).encode(), "melds[0]"),
    ],
)
def test_bad_shapes_are_4xx_with_one_sentence(client: TestClient, body: bytes, needle: str) -> None:
    r = client.post("/api/score", content=body, headers={"content-type": "application/json"})
    assert 400 <= r.status_code < 500
    err = r.json()["error"]
    assert isinstance(err, str) and needle in err and err.endswith(".")
    assert "\n" not in err


def test_body_over_64_kib_is_413(client: TestClient) -> None:
    big = json.dumps({**HAND, "options": {"pad": "x" * 70_000}})
    r = client.post("/api/score", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert "64 KiB" in r.json()["error"]

    def chunks() -> Any:  # no Content-Length: counted while reading
        for _ in range(70):
            yield b"x" * 1024

    r = client.post("/api/score", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    score = doc["paths"]["/api/score"]["post"]
    schemas = doc["components"]["schemas"]
    assert "ScoreRequest" in json.dumps(score["requestBody"])
    assert "ScoreResult" in json.dumps(score["responses"]["200"])
    for name in ("ScoreRequest", "ScoreResult", "Meld", "Context", "ErrorOut", "CreateTable"):
        assert name in schemas
    for path in ("/api/tables", "/api/tables/{code}/join", "/api/tables/{code}/hands"):
        assert path in doc["paths"]
    assert client.get("/docs").status_code == 200


def test_pages_render(client: TestClient) -> None:
    for path in ("/", "/calc", "/calc?rules=hk", "/calc?rules=tw", "/tables/new", "/healthz"):
        r = client.get(path)
        assert r.status_code == 200, path
    page = client.get("/calc").text
    assert page.count('class="pt"') == 42  # 34 tiles + 8 flowers in the palette
    assert client.get("/static/calc.js").status_code == 200
