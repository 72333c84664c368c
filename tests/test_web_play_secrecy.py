"""Online play keeps secrets: every message a seat or a spectator gets holds
only what it may know, and the walls come from a secret seed the server
draws, committed to by a published hash and revealed when the match ends."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hefen.game import record, replay
from hefen.game.record import game_from_header
from hefen.web import create_app
from tests.test_web_play import BOTS3, auth, create, decision, human_choice, keys_named


def play_out(ws: Any, seat: int, limit: float = 60) -> list[dict[str, Any]]:
    """Play seat ``seat``'s moves on ``ws`` until the match is over; every message received."""
    messages: list[dict[str, Any]] = []
    acted: Any = None
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
        messages.append(msg)
        if msg["table"]["status"] == "finished":
            return messages
        legal = msg["game"]["legal_actions"]
        if legal and decision(msg) != acted:
            a = human_choice(legal)
            ws.send_json({"type": "act", "kind": a["kind"], "tile": a.get("tile")})
            acted = decision(msg)


def check_secret_free(msg: dict[str, Any], seat: int | None, secrets_: list[str]) -> None:
    """``msg`` (sent to ``seat``; None: a spectator) holds nothing ``seat`` may not know."""
    text = json.dumps(msg)
    finished = msg["table"]["status"] == "finished"
    if not finished:
        for secret in secrets_:
            assert secret not in text, f"the seed or salt was sent before the end: {msg}"
        assert keys_named(msg, "seed") == [] and keys_named(msg, "seed_salt") == []
    view = msg["game"]
    if view is None:
        return
    hidden = [p for p in keys_named(msg, "concealed") if ".melds[" not in p]
    assert hidden == ([] if seat is None else [f".game.seats[{seat}].concealed"])
    for s, p in enumerate(view["seats"]):
        for m in p["melds"]:
            if m.get("concealed") and s != seat:
                assert m["tiles"] is None
    turn = [view["turn"]] if view["phase"] == "discard" else []
    if seat is None:
        assert view["to_act"] == turn, view
        assert "legal_actions" not in view and "drawn" not in view
    else:
        assert set(view["to_act"]) <= {seat, *turn}, view
        assert all(a["seat"] == seat for a in view["legal_actions"])
        if view["turn"] != seat:
            assert view["drawn"] is None


#: a secret seed whose hand gives seat 0 (the human of ``play_out``) 26
#: decisions: the server's own draw makes hands of any length, and one that a
#: bot wins early would leave too few messages to say the secrets were kept
LONG_HAND_SEED = "3f9c2b7e5d1a4c8b9e6f0a2d4b7c1e53"


def long_hand_seed() -> tuple[str, str, str]:
    """:func:`hefen.game.record.secret_seed`, drawing the long hand's seed."""
    salt = secrets.token_hex(16)
    return LONG_HAND_SEED, salt, record.seed_commitment(LONG_HAND_SEED, salt)


def test_every_message_to_every_seat_and_spectator_keeps_the_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(record, "secret_seed", long_hand_seed)
    app = create_app(database_url="sqlite://", play_delay=0, rate_limit=False)
    client = TestClient(app)
    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    t = app.state.play.get(code)
    secrets_ = [str(t.header["seed"]), str(t.header["seed_salt"])]
    published = made["state"]["table"]["seed_sha256"]
    assert len(published) == 64 and published not in secrets_
    check_secret_free(made["state"], 0, secrets_)
    with client.websocket_connect(f"/ws/play/{code}") as spectator:
        spectator.send_json({"type": "watch"})
        with client.websocket_connect(f"/ws/play/{code}") as ws:
            ws.send_json({"type": "auth", "token": token})
            # the record, asked for mid-game, has no seed either
            mid = client.get(f"/api/play/{code}/record").text
            assert all(s not in mid for s in secrets_) and published in mid
            mine = play_out(ws, 0)
        watched: list[dict[str, Any]] = []
        deadline = time.monotonic() + 30
        while not watched or watched[-1]["table"]["status"] != "finished":
            assert time.monotonic() < deadline
            msg = spectator.receive_json()
            assert msg["type"] == "state", msg
            watched.append(msg)
    for msg in mine:
        assert msg["seat"] == 0
        check_secret_free(msg, 0, secrets_)
    for msg in watched:
        assert msg["seat"] is None
        check_secret_free(msg, None, secrets_)
    assert len(mine) > 20 and len(watched) > 5
    # HTTP answers keep the same secrets: the spectator's and the seat's view
    check_secret_free(client.get(f"/api/play/{code}").json(), None, secrets_)
    check_secret_free(client.get(f"/api/play/{code}", headers=auth(token)).json(), 0, secrets_)
    # at the end the seed and salt are shown, and they match the published hash
    final = mine[-1]["table"]
    assert final["seed"] == secrets_[0] and final["seed_salt"] == secrets_[1]
    assert final["seed_sha256"] == published


def test_the_seed_is_refused_and_the_deal_can_be_checked_at_the_end() -> None:
    app = create_app(database_url="sqlite://", play_delay=0, rate_limit=False)
    client = TestClient(app)
    r = client.post("/api/play", json={"ruleset": "mcr", "seed": 7})
    assert r.status_code == 400
    assert r.json()["error"].startswith("A game cannot be given a seed")
    made = create(client, bots=BOTS3, seat=0)
    code, token = made["code"], made["token"]
    published = made["state"]["table"]["seed_sha256"]
    dealt = made["state"]["game"]["seats"][0]["concealed"]
    with client.websocket_connect(f"/ws/play/{code}") as ws:
        ws.send_json({"type": "auth", "token": token})
        play_out(ws, 0)
    lines = [json.loads(x) for x in client.get(f"/api/play/{code}/record").text.splitlines()]
    head = lines[0]
    assert head["type"] == "match" and head["seed_sha256"] == published
    # anyone can recompute the commitment from the revealed seed and salt ...
    again = hashlib.sha256(f"{head['seed']}:{head['seed_salt']}".encode()).hexdigest()
    assert again == published
    # ... and rebuild the wall from the seed: the deal seat 0 was shown at the start
    hand = lines[1]
    assert hand["type"] == "hand" and hand["seed"] == f"{head['seed']}/1"
    game = game_from_header(hand)
    assert game.view(0)["seats"][0]["concealed"] == dealt
    # the whole record replays from the seed to the ledger that was recorded
    rep = replay(json.dumps(x) for x in lines)
    assert rep.match is not None
    assert list(rep.match.balances) == client.get(f"/api/tables/{code}").json()["balances"]


def test_the_views_name_a_claimant_only_to_itself() -> None:
    from hefen.game import Game, GameSettings, make_bot

    bots = {s: make_bot("simple", seed=s) for s in range(4)}
    windows = 0
    for n in range(40):
        game = Game(GameSettings("mcr"), f"claims/{n}")
        while game.phase != "end":
            waiting = game.to_act()
            public = game.public_view()
            if game.phase == "discard":
                assert public["to_act"] == [game.turn]
            else:
                windows += 1
                assert public["to_act"] == []  # nobody learns who may claim
            for s in range(4):
                mine = game.view(s)["to_act"]
                assert mine == (
                    [s] if s in waiting and game.phase != "discard" else public["to_act"]
                )
            game.apply(bots[waiting[0]].choose(game, waiting[0]))
    assert windows > 40
