"""The table API the evening needs: corrections, renames, settlement,
export, hand pictures; a bad join code and unknown pages."""

from __future__ import annotations

import csv
import io
import json

import pytest
from fastapi.testclient import TestClient

from hefen.web import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("tapi") / "t.sqlite3"
    return TestClient(create_app(database_url=f"sqlite:///{db}", rate_limit=False))


def table(client: TestClient, ruleset: str = "hk") -> tuple[str, dict[str, str]]:
    r = client.post("/api/tables", json={"ruleset": ruleset, "names": ["Ann", "Bo", "Chen", "Di"]})
    data = r.json()
    return data["code"], {"Authorization": "Bearer " + data["host_token"]}


def test_values_are_checked_by_the_ruleset(client: TestClient) -> None:
    code, host = table(client)
    for value, words in ((99, "above the limit"), (-5, "negative")):
        r = client.post(
            f"/api/tables/{code}/hands",
            json={"winner": 0, "discarder": 1, "value": value},
            headers=host,
        )
        assert r.status_code == 400 and words in r.json()["error"]
        assert "greater than" not in r.json()["error"]
    assert client.get(f"/api/tables/{code}").json()["hands"] == []


def test_correct_rename_settle_export(client: TestClient) -> None:
    code, host = table(client)
    first = client.post(
        f"/api/tables/{code}/hands", json={"winner": 0, "discarder": 1, "value": 5}, headers=host
    ).json()["hand"]
    r = client.post(
        f"/api/tables/{code}/hands/{first['id']}/correct",
        json={"winner": 2, "discarder": None, "value": 4},
        headers=host,
    )
    assert r.status_code == 200
    hand = r.json()["hand"]
    assert (hand["id"], hand["winner"], hand["discarder"], hand["value"]) == (
        first["id"],
        2,
        None,
        4,
    )
    assert len(hand["corrections"]) == 1
    assert client.post(
        f"/api/tables/{code}/hands/{first['id']}/correct", json={}, headers=host
    ).json() == {"error": "A corrected win needs its winner."}
    assert (
        client.post(
            f"/api/tables/{code}/rename", json={"seat": 1, "name": "Bob"}, headers=host
        ).json()["seats"][1]["name"]
        == "Bob"
    )
    assert (
        client.post(f"/api/tables/{code}/rename", json={"seat": 1, "name": "x"}).status_code == 403
    )
    settled = client.get(f"/api/tables/{code}/settlement").json()
    balances = client.get(f"/api/tables/{code}").json()["balances"]
    assert settled["balances"] == balances
    left = list(balances)
    for t in settled["transfers"]:
        left[t["payer"]] += t["amount"]
        left[t["payee"]] -= t["amount"]
    assert left == [0, 0, 0, 0] and len(settled["transfers"]) <= 3
    rows = list(csv.reader(io.StringIO(client.get(f"/api/tables/{code}/export.csv").text)))
    assert rows[0][0] == "hand" and len(rows) == 2
    full = client.get(f"/api/tables/{code}/export.json")
    assert "attachment" in full.headers["content-disposition"]
    kinds = [e["kind"] for e in json.loads(full.text)["events"]]
    assert "hand_corrected" in kinds and "hand_recorded" in kinds  # nothing overwritten
    assert client.get(f"/api/tables/{code}/export.xml").json() == {
        "error": "Export as csv or json, not 'xml'."
    }
    # a hand entered by value has no tiles to draw
    r = client.get(f"/api/tables/{code}/hands/{first['id']}/tiles.svg")
    assert r.status_code == 404 and "entered by its value" in r.json()["error"]


def test_a_scored_hand_is_drawn(client: TestClient) -> None:
    code, host = table(client, "mcr")
    tiles = ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"]
    hand = {"rules": "mcr", "hand": tiles, "win_tile": "5m"}
    rec = client.post(
        f"/api/tables/{code}/hands", json={"winner": 0, "discarder": 1, "hand": hand}, headers=host
    ).json()["hand"]
    r = client.get(f"/api/tables/{code}/hands/{rec['id']}/tiles.svg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.text.startswith("<svg") and r.text.count("<g transform") == 14


def test_a_bad_join_code_keeps_the_text_and_says_why(client: TestClient) -> None:
    r = client.get("/t?code=hello!&lang=en")
    assert r.status_code == 200
    assert 'value="hello!"' in r.text
    assert "hello! is not a join code: a join code has six letters and digits" in r.text


def test_unknown_pages(client: TestClient) -> None:
    page = client.get("/nowhere", headers={"accept": "text/html,*/*"})
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert 'id="not-found"' in page.text
    assert client.get("/nowhere").json() == {"error": "Not Found."}
    api = client.get("/api/nowhere", headers={"accept": "text/html"})
    assert api.status_code == 404 and api.json() == {"error": "Not Found."}


def test_the_rules_reference(client: TestClient) -> None:
    from hefen.mcr.table import PATTERNS

    page = client.get("/rules/mcr?lang=en").text
    numbered = [p for p in PATTERNS.values() if p.no is not None]
    assert len(numbered) == 81 and f"{len(numbered)} patterns, values in points." in page
    assert 'id="rules-search"' in page and "/static/rules.js" in page
    # what a pattern leaves out, linked to that pattern's row
    block = page[page.index('<li id="seven_shifted_pairs"') :]
    block = block[: block.index("</li>")]
    assert "Not counted with it" in block and 'href="#seven_pairs"' in block
    assert 'loading="lazy"' in block
