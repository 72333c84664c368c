"""POST /api/waits: what a ready hand waits for, errors as one sentence."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from hefen.analysis import waits
from hefen.web import create_app

HAND = ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("waits") / "t.sqlite3"
    return TestClient(create_app(database_url=f"sqlite:///{db}"))


def test_waits_are_the_analysis(client: TestClient) -> None:
    obj = {"rules": "mcr", "hand": HAND}
    r = client.post("/api/waits", json={**obj, "win_tile": None})
    assert r.status_code == 200
    assert r.json() == waits(obj).to_dict()
    tiles = [w["tile"] for w in r.json()["waits"]]
    assert "5m" in tiles and all(w["unseen"] >= 0 for w in r.json()["waits"])


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        (b"", "The request body must be a JSON object."),
        (b"{", "The request body is not valid JSON."),
        (b"[1]", "The request body must be a JSON object."),
        (b'{"rules": "mcr", "hand": ["1m"]}', "where MCR needs 13"),
        (b'{"rules": "riichi", "hand": []}', "rules must be one of"),
    ],
)
def test_bad_input_is_one_sentence(client: TestClient, body: bytes, sentence: str) -> None:
    r = client.post("/api/waits", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    error = r.json()["error"]
    assert sentence in error and error.endswith(".") and "\n" not in error
