"""Rate limits: guessing table codes and mass-creating tables are stopped,
while players who type their code right never meet a limit."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from hefen.web import create_app


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database_url=f"sqlite:///{tmp_path / 'l.sqlite3'}"))


def test_guessing_codes_is_stopped_but_the_right_code_works_before(tmp_path: Path) -> None:
    client = _client(tmp_path)
    code = client.post("/api/tables", json={"ruleset": "mcr"}).json()["code"]
    for _ in range(50):  # a real table looked up often: no limit
        assert client.get(f"/api/tables/{code}").status_code == 200
    statuses = [client.get(f"/api/tables/ZZZZZ{i % 10}").status_code for i in range(30)]
    assert statuses[:20] == [404] * 20
    assert set(statuses[20:]) == {429}
    r = client.get("/t/QQQQQQ")
    assert r.status_code == 429
    assert r.json() == {"error": "Too many unknown table codes from this address; wait a minute."}
    assert r.headers["retry-after"] == "60"


def test_creating_tables_is_bounded(tmp_path: Path) -> None:
    client = _client(tmp_path)
    statuses = [client.post("/api/tables", json={"ruleset": "hk"}).status_code for _ in range(12)]
    assert statuses[:10] == [201] * 10 and statuses[10:] == [429, 429]


def test_limits_can_be_off_for_a_trusted_deployment(tmp_path: Path) -> None:
    app = create_app(database_url=f"sqlite:///{tmp_path / 'n.sqlite3'}", rate_limit=False)
    client = TestClient(app)
    assert all(client.get(f"/api/tables/ZZZZZ{i}").status_code == 404 for i in range(30))
