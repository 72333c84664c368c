"""Online play: game tables on the server, seen by each seat through its own view."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hefen.game import Game, replay
from hefen.game.record import game_from_header, hand_header
from hefen.web import create_app
from hefen.web.play import meld_claims, table_view

BOTS3 = [None, "simple", "simple", "simple"]


@pytest.fixture
def app() -> Any:
    return create_app(database_url="sqlite://", play_delay=0)


@pytest.fixture
def client(app: Any) -> TestClient:
    return TestClient(app)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/play", json={"ruleset": "mcr", "hands": 1, **body})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def wait_for(client: TestClient, code: str, pred: Any, token: str | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        state: dict[str, Any] = client.get(
            f"/api/play/{code}", headers=auth(token) if token else {}
        ).json()
        if pred(state):
            return state
        assert time.monotonic() < deadline, state["table"]
        time.sleep(0.01)


def human_choice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A human who wins when offered, passes on claims and discards the first tile."""
    for kind in ("win", "pass"):
        for a in legal:
            if a["kind"] == kind:
                return a
    return legal[0]


def decision(msg: dict[str, Any]) -> Any:
    """Which decision of the hand a state message asks for: on a turn its
    step; in a claim window the discard it is about (other seats answering
    in the same window add steps, but it is still the same question)."""
    g = msg["game"]
    if g["phase"] == "discard":
        return ("turn", msg["step"])
    seats = g["seats"]
    return (
        g["phase"],
        g["turn"],
        g["wall_remaining"],
        sum(len(p["discards"]) for p in seats),
        sum(len(p["melds"]) for p in seats),
    )


def keys_named(obj: Any, name: str, path: str = "") -> list[str]:
    """Every path in ``obj`` that holds a key ``name``."""
    found: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == name:
                found.append(f"{path}.{k}")
            found += keys_named(v, name, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += keys_named(v, name, f"{path}[{i}]")
    return found


def at_step(game: Game, step: int) -> Game:
    """The hand ``game`` as it was after its first ``step`` actions."""
    again = game_from_header(hand_header(game))
    for a in game.actions[:step]:
        again.apply(a)
    return again


def as_json(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


def test_human_sees_only_their_own_tiles_in_every_message(app: Any, client: TestClient) -> None:
    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    assert made["seat"] == 0
    mine = made["state"]["game"]["seats"][0]["concealed"]
    assert len(mine) == 14  # the dealer, after the deal
    messages: list[dict[str, Any]] = []
    acted: Any = None
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": token})
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline
            msg = ws.receive_json()
            assert msg["type"] == "state", msg  # never an error: the human only plays legal moves
            messages.append(msg)
            if msg["table"]["status"] == "finished":
                break
            legal = msg["game"]["legal_actions"]
            if legal and decision(msg) != acted:
                a = human_choice(legal)
                ws.send_json({"type": "act", "kind": a["kind"], "tile": a.get("tile")})
                acted = decision(msg)
    t = app.state.play.get(code)
    game = t.match.played[0].game
    assert any(a.seat == 0 for a in game.actions)  # the human really played
    for msg in messages:
        assert msg["seat"] == 0
        view = msg["game"]
        # exactly what the engine lets seat 0 see at that point of the hand
        assert view == as_json(table_view(at_step(game, msg["step"]), 0))
        for s in (1, 2, 3):
            assert "concealed" not in view["seats"][s]
            for m in view["seats"][s]["melds"]:
                if m.get("concealed"):
                    assert m["tiles"] is None
        hidden_paths = [p for p in keys_named(msg, "concealed") if ".melds[" not in p]
        assert hidden_paths == [".game.seats[0].concealed"]
        if view["turn"] != 0:
            assert view["drawn"] is None
    # what this seat is sent does not depend on the other seats' hidden tiles:
    # swap them with wall tiles (on its turn) and the view stays the same
    turn = next(
        m
        for m in messages
        if m["game"]["phase"] == "discard" and m["game"]["turn"] == 0 and m["step"] > 8
    )
    twin = at_step(game, turn["step"])
    assert twin.wall_remaining > 3 * 14
    start = twin.head
    for s in (1, 2, 3):
        hidden = list(twin.players[s].concealed)
        window = slice(start, start + len(hidden))
        twin.players[s].concealed, twin.wall[window] = list(twin.wall[window]), hidden
        start += len(hidden)
    assert as_json(table_view(twin, 0)) == turn["game"]
    # the hand ended with payments that sum to zero, recorded in the ledger
    final = messages[-1]
    net = [0.0] * 4
    for p in final["game"]["outcome"]["payments"]:
        net[p["from"]] -= p["amount"]
        net[p["to"]] += p["amount"]
    assert sum(net) == 0
    assert final["table"]["balances"] == net
    assert len(final["table"]["history"]) == 1


def test_spectator_sees_only_public_information(app: Any, client: TestClient) -> None:
    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        first = ws.receive_json()
        assert first["seat"] is None
        client.post(
            f"/api/play/{code}/act",
            json={"kind": "discard", "tile": first_discard(client, code, token)},
            headers=auth(token),
        )
        seen = [first]
        while len(seen) < 3 or seen[-1]["step"] == first["step"]:
            seen.append(ws.receive_json())
        # a spectator cannot play
        ws.send_json({"type": "act", "kind": "pass"})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "error":
                assert "Spectators" in msg["error"]
                break
            seen.append(msg)
    game = app.state.play.get(code).game
    for msg in seen:
        view = msg["game"]
        assert "legal_actions" not in view and "drawn" not in view and "seat" not in view
        assert all("concealed" not in p for p in view["seats"])
        assert view == as_json(table_view(at_step(game, msg["step"]), None))
    # the public page carries only the public view too (a concealed kong's meld says it is
    # concealed, which every player sees; no seat's concealed tiles are there)
    page = client.get(f"/play/{code}").text
    assert '"legal_actions"' not in page
    embedded = page.split('<script id="play-data" type="application/json">', 1)[1]
    state = json.loads(embedded.split("</script>", 1)[0])["state"]
    shown = state["game"]
    assert "legal_actions" not in shown and "drawn" not in shown and "seat" not in shown
    assert all("concealed" not in p for p in shown["seats"])
    assert shown == as_json(table_view(at_step(game, state["step"]), None))


def first_discard(client: TestClient, code: str, token: str) -> str:
    state = client.get(f"/api/play/{code}", headers=auth(token)).json()
    tiles: list[str] = [a["tile"] for a in state["game"]["legal_actions"] if a["kind"] == "discard"]
    return tiles[0]


def test_illegal_actions_are_refused_and_change_nothing(client: TestClient) -> None:
    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    before = client.get(f"/api/play/{code}", headers=auth(token)).json()
    held = set(before["game"]["seats"][0]["concealed"])
    missing = next(
        t for t in ("1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "C", "F") if t not in held
    )
    r = client.post(
        f"/api/play/{code}/act", json={"kind": "discard", "tile": missing}, headers=auth(token)
    )
    assert r.status_code == 400 and "does not hold" in r.json()["error"]
    r = client.post(
        f"/api/play/{code}/act", json={"kind": "pung", "tile": "C"}, headers=auth(token)
    )
    assert r.status_code == 400
    r = client.post(f"/api/play/{code}/act", json={"kind": "discard", "tile": "1m"})
    assert r.status_code == 403  # no token
    r = client.post(
        f"/api/play/{code}/act", json={"kind": "discard", "tile": "1m"}, headers=auth("nope")
    )
    assert r.status_code == 403
    r = client.post(f"/api/play/{code}/join", json={"seat": 2})
    assert r.status_code == 409  # a bot's seat
    r = client.post(f"/api/play/{code}/join", json={"seat": 0})
    assert r.status_code == 409  # taken
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": token})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "act", "kind": "chow", "tile": "1m"})
        err = ws.receive_json()
        assert err["type"] == "error" and "cannot chow" in err["error"]
        ws.send_json({"type": "act", "kind": "discard", "tile": "zz"})
        assert ws.receive_json()["type"] == "error"
        ws.send_text("{not json")
        assert ws.receive_json()["type"] == "error"
    after = client.get(f"/api/play/{code}", headers=auth(token)).json()
    assert after["step"] == before["step"] == 0
    assert after["game"] == before["game"]


def test_bots_play_a_match_to_the_end_payments_sum_to_zero() -> None:
    for rules in ("mcr", "hk", "tw"):
        app = create_app(database_url="sqlite://", play_delay=0)
        client = TestClient(app)
        made = create(client, ruleset=rules, bots=["simple"] * 4, hands=3)
        code = made["code"]
        state = wait_for(client, code, lambda s: s["table"]["status"] == "finished")
        table = state["table"]
        assert len(table["history"]) == 3
        for hand in table["history"]:
            assert sum(hand["changes"]) == pytest.approx(0)
        assert sum(table["balances"]) == pytest.approx(0)
        t = app.state.play.get(code)
        for hp in t.match.played:
            paid: dict[int, float] = {s: 0 for s in range(4)}
            for f, to, a in hp.game.outcome.payments:
                paid[f] -= a
                paid[to] += a
            assert sum(paid.values()) == 0
        # the stored record (exported as JSON lines) replays to the same ledger
        record = client.get(f"/api/play/{code}/record")
        assert record.headers["content-type"].startswith("application/x-ndjson")
        again = replay(record.text.splitlines())
        assert again.match is not None
        assert list(again.match.balances) == table["balances"]


def test_reconnect_returns_the_same_seat_and_state(client: TestClient) -> None:
    made = create(client, bots=[None, None, "simple", "simple"], seat=1, names=["Ann", "Bo"])
    code, token = made["code"], made["token"]
    assert made["state"]["table"]["status"] == "waiting"
    joined = client.post(f"/api/play/{code}/join", json={"seat": 0, "name": "Ann"}).json()
    assert joined["seat"] == 0
    state = wait_for(client, code, lambda s: s["game"] is not None, token)
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": token})
        one = ws.receive_json()
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": token})
        two = ws.receive_json()
    assert one["seat"] == two["seat"] == 1
    assert one["game"]["seats"][1]["concealed"] == two["game"]["seats"][1]["concealed"]
    assert one["step"] == two["step"] == state["step"]
    assert one["table"]["names"][:2] == ["Ann", "Bo"]
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"/ws/play/{code}") as ws:
            ws.send_json({"type": "auth", "token": "not-a-token"})
            ws.receive_json()
    assert closed.value.code == 4403


def test_restart_replays_the_hand_in_progress(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'play.sqlite3'}"
    app = create_app(database_url=url, play_delay=0)
    client = TestClient(app)
    made = create(client, bots=BOTS3, seat=0, hands=2)
    code, token = made["code"], made["token"]
    # play a few discards, waiting for the bots each time
    for _ in range(3):
        state = wait_for(client, code, lambda s: bool(s["game"]["legal_actions"]), token)
        a = human_choice(state["game"]["legal_actions"])
        r = client.post(
            f"/api/play/{code}/act",
            json={"kind": a["kind"], "tile": a.get("tile")},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
    state = wait_for(client, code, lambda s: bool(s["game"]["legal_actions"]), token)
    # a new server on the same database replays the record
    restarted = TestClient(create_app(database_url=url, play_delay=0))
    again = restarted.get(f"/api/play/{code}", headers=auth(token)).json()
    assert again["step"] == state["step"] > 3
    assert again["game"] == state["game"]
    assert again["table"]["names"] == state["table"]["names"]


def test_pages_render(client: TestClient) -> None:
    assert "play.js" in client.get("/play/new").text
    made = create(client, bots=BOTS3, seat=0)
    page = client.get(f"/play/{made['code']}?lang=zh").text
    assert "下一局" in page and "<svg" in page
    assert "ABCDEF" in client.get("/play/ABCDEF").text


def test_each_meld_says_which_discard_it_claimed() -> None:
    """``claims`` (per seat, per meld) names the discarder and the tile taken,
    as everyone saw it: the tile is the discard the claim answered, it lies
    in the meld and is marked claimed in the discarder's river; a kong from
    the hand has none. Checked after every move of bot-played hands."""
    from hefen.game import GameSettings, make_bot

    calls = 0
    for rules, seed in (("mcr", 0), ("hk", 1), ("tw", 2)):
        game = Game(GameSettings(rules), seed=seed)
        bots = [make_bot("strong", seed=s) for s in range(4)]
        while game.phase != "end":
            seat = game.to_act()[0]
            game.apply(bots[seat].choose(game, seat))
            claims = meld_claims(game)
            for s, p in enumerate(game.players):
                assert len(claims[s]) == len(p.melds)
                for claim, meld, frm in zip(claims[s], p.melds, p.meld_from, strict=True):
                    if frm is None:
                        assert claim is None
                        continue
                    assert claim is not None and claim["from"] == frm != s
                    assert claim["tile"] in meld.to_dict()["tiles"]
                    river = [
                        d["tile"] for d in game.view(0)["seats"][frm]["discards"] if d["claimed"]
                    ]
                    assert claim["tile"] in river
                    calls += 1
        public = table_view(game, None)
        assert [p["claims"] for p in public["seats"]] == meld_claims(game)
        assert "concealed" not in json.dumps([p["claims"] for p in public["seats"]])
    assert calls > 0


def test_an_act_is_answered_with_the_state_the_move_left_though_bots_answer_at_once(
    app: Any, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots woken by a move may answer before the move's reply is written
    (on a loaded server they often did): the reply is still the state right
    after the move, step for step, with the bots' answers on the socket."""
    manager = app.state.play
    changed = manager._changed

    def bots_answer_first(t: Any, kick: bool = True, table: bool = False) -> None:
        changed(t, kick=kick, table=table)
        if kick:  # a human's move: let the bots answer it before the reply
            deadline = time.monotonic() + 20
            while t.driving or manager._bot_move(t) not in (None, 0):
                assert time.monotonic() < deadline
                time.sleep(0.01)

    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    monkeypatch.setattr(manager, "_changed", bots_answer_first)
    state = wait_for(client, code, lambda s: bool(s["game"] and s["game"]["legal_actions"]), token)
    assert state["step"] == 0
    tile = next(a["tile"] for a in state["game"]["legal_actions"] if a["kind"] == "discard")
    r = client.post(
        f"/api/play/{code}/act", json={"kind": "discard", "tile": tile}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    assert r.json()["step"] == 1
    assert [d["tile"] for d in r.json()["game"]["seats"][0]["discards"]] == [tile]
    later = client.get(f"/api/play/{code}", headers=auth(token)).json()
    assert later["step"] > 1  # the bots did answer before the reply was read
