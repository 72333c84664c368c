"""Online games are tables of the table store: the game's record and its
finished hands are the table's events, its seats the table's seat tokens, and
a new server on the same database rebuilds the game from them."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hefen.game import match_lines
from hefen.table import TableError, open_store
from hefen.table.core import GAME_HANDS
from hefen.web import create_app
from hefen.web.play import table_view

BOTS3 = [None, "simple", "simple", "simple"]


def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/play", json={"ruleset": "mcr", "hands": 1, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def state_of(client: TestClient, code: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/play/{code}", headers=auth(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def human_choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in ("win", "pass"):
        for a in legal:
            if a["kind"] == kind:
                return a
    return legal[0]


def play(client: TestClient, code: str, token: str, moves: int | None = None) -> dict[str, Any]:
    """Play the token's seat through the API: ``moves`` moves, or (None) until
    the hand is over; returns the state after the last move (bots settled)."""
    deadline = time.monotonic() + 60
    done = 0
    while True:
        state = state_of(client, code, token)
        legal = state["game"]["legal_actions"] if state["game"] else []
        if state["table"]["status"] in ("between", "finished"):
            assert moves is None, "the hand ended early"
            return state
        if moves is not None and done == moves and legal:
            return state
        if legal:
            a = human_choice(legal)
            r = client.post(
                f"/api/play/{code}/act",
                json={"kind": a["kind"], "tile": a.get("tile")},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
            done += 1
        else:
            assert time.monotonic() < deadline, state["table"]
            time.sleep(0.01)


def test_a_finished_hand_is_in_the_table_store(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    app = create_app(database_url=url, play_delay=0)
    client = TestClient(app)
    made = create(client, bots=BOTS3, seat=0, names=["Ann"])
    code, token = made["code"], made["token"]
    final = play(client, code, token)
    assert final["table"]["status"] == "finished"
    outcome = final["game"]["outcome"]

    store = open_store(url)  # the same database, opened by the table library
    state = store.get(code)
    assert state.game is not None and list(state.game.bots) == BOTS3
    assert [s.name for s in state.seats][:1] == ["Ann"]
    assert [s.joined for s in state.seats] == [True, False, False, False]
    assert len(state.hands) == 1
    hand = state.hands[0]
    assert hand.kind == outcome["result"]
    assert list(state.balances) == final["table"]["balances"]
    net = [0] * 4
    for p in outcome["payments"]:
        net[p["from"]] -= p["amount"]
        net[p["to"]] += p["amount"]
    assert list(hand.changes) == net and sum(net) == 0
    assert final["table"]["history"][0]["changes"] == net
    # the table's own views show the game's hand: API, export, page
    table = client.get(f"/api/tables/{code}").json()
    assert table["balances"] == list(state.balances) and len(table["hands"]) == 1
    assert table["game"]["bots"] == BOTS3
    exported = json.loads(store.export_json(code))
    assert exported["balances"] == list(state.balances)
    assert len(store.export_csv(code).strip().splitlines()) == 2  # header and the one hand
    assert "Ann" in client.get(f"/t/{code}").text
    # the events: created, opened with its match line, joined, the record line by line, the hand
    kinds = [e.kind for e in store.events(code)]
    assert kinds[:4] == ["table_created", "game_opened", "game_line", "player_joined"]
    assert kinds[-1] == "hand_recorded" and kinds.count("hand_recorded") == 1
    record = store.game_record(code)
    assert kinds.count("game_line") == len(record) == state.game.lines
    t = app.state.play.get(code)
    lines = json.loads(json.dumps(match_lines(t.match)))
    # the match line also holds the seed's salt and the published commitment
    assert record[0] == {
        **lines[0],
        "seed_salt": t.header["seed_salt"],
        "seed_sha256": t.header["seed_sha256"],
    }
    assert record[1:] == lines[1:]
    assert record[-1]["type"] == "end"
    # the hand cannot be recorded, undone or corrected by hand, nor a bot's seat taken
    with pytest.raises(TableError, match="online game"):
        store.undo(code, token)
    with pytest.raises(TableError, match="online game"):
        store.record_draw(code, token)
    r = client.post(f"/api/tables/{code}/draw", headers=auth(token))
    assert r.status_code == 400 and r.json()["error"] == GAME_HANDS
    r = client.post(f"/api/tables/{code}/join", json={"seat": 2})
    assert r.status_code == 400 and r.json()["error"] == "Seat 2 is played by a bot."
    assert store.version(code) == state.version  # nothing was written
    store.close()


def test_restart_rebuilds_the_game_from_the_database(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    client = TestClient(create_app(database_url=url, play_delay=0))
    made = create(client, bots=BOTS3, seat=0, hands=2)
    code, token = made["code"], made["token"]
    before = play(client, code, token, moves=4)
    # a new server on the same database: the hand in progress, replayed
    app2 = create_app(database_url=url, play_delay=0)
    client2 = TestClient(app2)
    again = state_of(client2, code, token)
    assert again["step"] == before["step"] > 4
    assert again["game"] == before["game"]
    # it plays on there; the hand is recorded once, by the new server
    over = play(client2, code, token)
    assert over["table"]["status"] == "between"
    store = open_store(url)
    assert len(store.get(code).hands) == 1
    # and once more, between the hands: the ledger and the next hand
    client3 = TestClient(create_app(database_url=url, play_delay=0))
    between = state_of(client3, code, token)
    assert between["table"]["status"] == "between"
    assert between["table"]["history"] == over["table"]["history"]
    assert between["table"]["balances"] == list(store.get(code).balances)
    r = client3.post(f"/api/play/{code}/next", headers=auth(token))
    assert r.status_code == 200, r.text
    assert r.json()["table"]["hand_number"] == 2
    assert [line["type"] for line in store.game_record(code)].count("hand") == 2
    store.close()


def test_a_seat_token_of_the_table_store_authorises_play(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    client = TestClient(create_app(database_url=url, play_delay=0))
    made = create(client, bots=[None, None, "simple", "simple"], seat=1, names=["", "Bo"])
    code, token = made["code"], made["token"]
    store = open_store(url)
    assert store.whoami(code, token).seat == 1  # the play API's token is the table's
    assert made["state"]["table"]["status"] == "waiting"
    # seat 0 (the dealer) is taken through the table library, not the play API
    joined = store.join(code, 0, "Ann")
    state = state_of(client, code, joined.token)
    assert state["seat"] == 0 and state["table"]["status"] == "playing"
    assert state["table"]["names"][:2] == ["Ann", "Bo"]
    assert len(state["game"]["seats"][0]["concealed"]) == 14
    tile = next(a["tile"] for a in state["game"]["legal_actions"] if a["kind"] == "discard")
    r = client.post(
        f"/api/play/{code}/act", json={"kind": "discard", "tile": tile}, headers=auth(joined.token)
    )
    assert r.status_code == 200, r.text
    assert r.json()["step"] == 1
    # the discard is the record's first action (the bots, at no delay, may already have
    # answered it: their passes follow it)
    actions = [line for line in store.game_record(code) if line["type"] == "action"]
    assert actions[0] == {
        "type": "action",
        "seat": 0,
        "kind": "discard",
        "tile": tile,
    }
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": joined.token})
        msg = ws.receive_json()
        assert msg["seat"] == 0 and "concealed" in msg["game"]["seats"][0]
    # a seat freed through the table library: its token stops working for play
    store.release_seat(code, joined.token, 0)
    r = client.get(f"/api/play/{code}", headers=auth(joined.token))
    assert r.status_code == 403
    assert state_of(client, code, token)["table"]["joined"][:2] == [False, True]
    store.close()


def test_a_bad_token_is_refused_with_one_sentence(tmp_path: Path) -> None:
    client = TestClient(create_app(database_url=db_url(tmp_path), play_delay=0))
    made = create(client, bots=BOTS3, seat=0)
    code = made["code"]
    other = client.post("/api/tables", json={"ruleset": "mcr"}).json()  # a score table
    for bad in ("nope", other["host_token"]):
        for method, path, body in (
            ("post", f"/api/play/{code}/act", {"kind": "discard", "tile": "1m"}),
            ("post", f"/api/play/{code}/start", None),
            ("post", f"/api/play/{code}/next", None),
            ("get", f"/api/play/{code}", None),
        ):
            r = client.request(method.upper(), path, json=body, headers=auth(bad))
            assert r.status_code == 403, (path, r.text)
            assert r.json() == {"error": "This token does not belong to this table."}
    r = client.post(f"/api/play/{code}/act", json={"kind": "pass"})
    assert r.status_code == 403 and r.json() == {"error": "This action needs your seat token."}
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"/ws/play/{code}") as ws:
            ws.send_json({"type": "auth", "token": "nope"})
            ws.receive_json()
    assert closed.value.code == 4403
    # a score table is not a game, and says so in one sentence
    r = client.get(f"/api/play/{other['code']}")
    assert r.status_code == 404
    error = r.json()["error"]
    assert "score table, not an online game" in error and error.count(". ") == 0
    assert client.get(f"/api/play/{code}", headers=auth(made["token"])).json()["step"] == 0


def test_the_tables_live_feed_follows_a_game(tmp_path: Path) -> None:
    client = TestClient(create_app(database_url=db_url(tmp_path), play_delay=0))
    made = create(client, bots=[None, None, "simple", "simple"], seat=1)
    code = made["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        first = ws.receive_json()
        assert first["type"] == "table" and first["table"]["game"]["bots"][2] == "simple"
        assert [s["joined"] for s in first["table"]["seats"]] == [False, True, False, False]
        r = client.post(f"/api/play/{code}/join", json={"seat": 0, "name": "Ann"})
        assert r.status_code == 200, r.text
        while True:  # the join, then the moves of the hand it starts
            msg = ws.receive_json()
            if msg["type"] == "table":
                break
            assert msg["type"] == "game" and msg["code"] == code
        assert msg["table"]["seats"][0] == {
            "index": 0,
            "initial_wind": "E",
            "name": "Ann",
            "joined": True,
        }


def test_a_server_that_missed_a_move_reloads_the_game(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    one = TestClient(create_app(database_url=url, play_delay=0))
    made = create(one, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    two = TestClient(create_app(database_url=url, play_delay=0))
    start = state_of(two, code, token)  # server two has the game in memory too
    discards = [a["tile"] for a in start["game"]["legal_actions"] if a["kind"] == "discard"]
    with two.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["step"] == 0
        # server one plays a move (and its bots answer) behind server two's back
        r = one.post(
            f"/api/play/{code}/act",
            json={"kind": "discard", "tile": discards[0]},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
        ahead = play(one, code, token, moves=0)
        # a move on server two's socket is refused, and server two reloads
        ws.send_json({"type": "act", "kind": "discard", "tile": discards[-1]})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "error":
                break
        assert msg["error"] == f"The game {code} was played on elsewhere; reload it and try again."
    after = state_of(two, code, token)
    assert after["step"] == ahead["step"] > 1
    assert after["game"] == ahead["game"]
    store = open_store(url)
    record = store.game_record(code)
    assert record[2] == {"type": "action", "seat": 0, "kind": "discard", "tile": discards[0]}
    assert len(record) == 2 + after["step"]  # the match and hand lines, then each move once
    store.close()


def test_a_move_that_cannot_be_saved_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlalchemy as sa

    from hefen.game import replay

    app = create_app(database_url=db_url(tmp_path), play_delay=0)
    client = TestClient(app)
    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    before = state_of(client, code, token)
    tile = next(a["tile"] for a in before["game"]["legal_actions"] if a["kind"] == "discard")
    store = app.state.store
    real_append, real_get = store.append_game, store.get

    def down(*args: Any, **kwargs: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))

    def discard() -> Any:
        return client.post(
            f"/api/play/{code}/act", json={"kind": "discard", "tile": tile}, headers=auth(token)
        )

    monkeypatch.setattr(store, "append_game", down)
    r = discard()
    assert r.status_code == 503
    assert r.json() == {"error": "The move could not be saved; please try again."}
    assert state_of(client, code, token) == before  # reloaded from the store
    # the reload fails too: the game writes nothing until it could be reloaded
    monkeypatch.setattr(store, "get", down)
    assert discard().status_code == 503
    monkeypatch.setattr(store, "append_game", real_append)
    r = client.get(f"/api/play/{code}", headers=auth(token))
    assert r.status_code == 503
    assert r.json() == {"error": "The game's database cannot be reached; please try again."}
    assert store.game_record(code)[-1]["type"] == "hand"
    monkeypatch.setattr(store, "get", real_get)
    assert state_of(client, code, token) == before
    r = discard()
    assert r.status_code == 200, r.text
    settled = play(client, code, token, moves=0)  # the bots have answered
    record = store.game_record(code)
    assert record[2] == {"type": "action", "seat": 0, "kind": "discard", "tile": tile}
    assert len(record) == 2 + settled["step"]  # each move stored once, none lost
    # the stored record replays (the export hides the seed until the match ends)
    again = replay(json.dumps(line) for line in record)
    assert json.loads(json.dumps(table_view(again.games[0], 0))) == settled["game"]
    assert '"seed"' not in store.export_record(code)
