"""Botzone's MCR protocol (hefen.botzone) and the arena that judges an
external Botzone program (hefen.arena, ``hefen arena``)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hefen.arena import Arena
from hefen.botzone import (
    KEEP_RUNNING,
    BotzoneError,
    Driver,
    from_botzone,
    parse_request,
    run,
    to_botzone,
)
from hefen.tiles import tile_from_str

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
BOT = f"{sys.executable} -m hefen botzone --bot simple --keep-running"

#: the seat (player 1), the deal: 123m 456p 567s 567m 9p, three flowers; then
#: player 0 draws and discards 9p: the hand completes but is worth 6 points
#: without its flowers (9 with them), below MCR's 8
SMALL = [
    "0 1 0",
    "1 0 3 0 0 W1 W2 W3 B4 B5 B6 T5 T6 T7 W5 W6 W7 B9 H1 H2 H3",
    "3 0 DRAW",
    "3 0 PLAY B9",
]
#: a pure straight waiting on 2p: the discard wins (16 points)
STRAIGHT = [
    "0 1 0",
    "1 0 1 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B2 H1",
    "3 0 DRAW",
    "3 0 PLAY B2",
]


def answers(requests: list[str], bot: str = "simple") -> list[str]:
    d = Driver(bot)
    return [d.respond(r) for r in requests]


def test_tile_names_round_trip_every_tile() -> None:
    names = [to_botzone(t) for t in range(42)]
    assert len(set(names)) == 42
    assert all(from_botzone(n) == t for t, n in enumerate(names))
    assert to_botzone(tile_from_str("1m")) == "W1" and to_botzone(tile_from_str("9p")) == "B9"
    assert to_botzone(tile_from_str("5s")) == "T5" and to_botzone(tile_from_str("N")) == "F4"
    assert [to_botzone(tile_from_str(x)) for x in "CFP"] == ["J1", "J2", "J3"]
    with pytest.raises(BotzoneError, match="not a Botzone tile"):
        from_botzone("Z9")


def test_requests_parse_and_bad_ones_are_one_sentence() -> None:
    r = parse_request("3 2 CHI B3 W1")
    assert (r.kind, r.player, r.verb, r.tiles) == ("event", 2, "CHI", (11, 0))
    assert parse_request("2 J1").tiles == (31,)
    for bad in ("", "9 1 2", "3 5 PLAY W1", "3 1 FLY W1", "3 1 PLAY", "1 0 0 0 0 W1", "2 X1"):
        with pytest.raises(BotzoneError) as e:
            parse_request(bad)
        assert str(e.value).endswith(".") and "\n" not in str(e.value)


def test_a_win_worth_eight_is_declared_and_a_smaller_one_is_not() -> None:
    assert answers(STRAIGHT)[-1] == "HU"
    # 9 points with its three flowers, 6 without: Botzone's judge would call HU a false win
    assert answers(SMALL)[-1] == "PASS"


def test_a_scripted_hand_gets_legal_answers() -> None:
    d = Driver("strong")
    hand = ["W1", "W2", "W3", "B4", "B5", "B6", "T5", "T6", "T7", "F1", "F1", "J1", "J2"]
    assert d.respond("0 1 0") == "PASS"
    assert d.respond("1 0 0 0 0 " + " ".join(hand)) == "PASS"
    assert d.respond("3 0 DRAW") == "PASS"
    assert d.respond("3 0 PLAY J3") == "PASS"  # nothing to claim
    answer = d.respond("2 W9")
    verb, tile = answer.split()
    assert verb == "PLAY" and tile in hand + ["W9"]
    hand = [*hand, "W9"]
    hand.remove(tile)
    assert d.respond(f"3 1 PLAY {tile}") == "PASS"  # its own discard
    assert d.respond("3 2 DRAW") == "PASS"
    answer = d.respond("3 2 PLAY F1")  # a pung of East is on offer
    assert answer == "PASS" or (answer.split()[0] == "PENG" and answer.split()[1] in hand)
    if answer != "PASS":
        d.respond(f"3 1 {answer}")
    else:
        d.respond("3 3 DRAW")
        assert d.respond("3 3 BUHUA H4") == "PASS"
        assert d.respond("3 3 PLAY W4") in ("PASS", "CHI W3 W1", "CHI W3 W2", "CHI W3 W3")
    assert d.respond("3 0 DRAW") == "PASS"
    assert d.respond("3 0 GANG") == "PASS"  # a concealed kong: its tile is not shown
    assert d.game is not None and len(d.game.players[0].melds) == 1


def _simple_input(requests: list[str], responses: list[str]) -> str:
    lines = [str(len(requests))]
    for i, req in enumerate(requests):
        lines.append(req)
        if i < len(requests) - 1:
            lines.append(responses[i])
    return "\n".join(lines) + "\n"


def _run(text: str, **kw: object) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert run("simple", io.StringIO(text), out, err, **kw) == 0  # type: ignore[arg-type]
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("requests", [STRAIGHT, SMALL, STRAIGHT[:2]], ids=["win", "small", "deal"])
def test_json_and_simple_forms_answer_alike(requests: list[str]) -> None:
    responses = ["PASS"] * (len(requests) - 1)
    simple, _ = _run(_simple_input(requests, responses))
    obj = {"requests": requests, "responses": responses}
    js, _ = _run(json.dumps(obj) + "\n")
    assert json.loads(js) == {"response": simple.strip()}
    assert simple.strip() == answers(requests)[-1]


def test_keep_running_reads_one_request_a_turn() -> None:
    text = "1\n" + "\n".join(STRAIGHT) + "\n"
    out, err = _run(text, keep_running=True)
    assert out.split("\n")[::2][:4] == ["PASS", "PASS", "PASS", "HU"]
    assert out.count(KEEP_RUNNING) == 4 and err == ""
    out, _ = _run(json.dumps({"requests": STRAIGHT[:1], "responses": []}) + "\n"
                  + "\n".join(json.dumps(r) for r in STRAIGHT[1:]) + "\n", keep_running=True)  # fmt: skip
    assert [json.loads(x)["response"] for x in out.split("\n")[::2] if x] == ["PASS"] * 3 + ["HU"]


@pytest.mark.parametrize(
    "text",
    ["1\nhello world\n", "{not json\n", "2\n0 1 0\nPASS\n3 0 PLAY W1\n", "x\n"],
    ids=["unknown request", "bad json", "before the deal", "no count"],
)
def test_a_bad_line_is_one_sentence_and_a_pass(text: str) -> None:
    out, err = _run(text)
    assert out.strip().replace('{"response": "PASS"}', "PASS") == "PASS"
    assert err.startswith("hefen botzone: ") and err.count("\n") == 1 and "Traceback" not in err


def test_a_bad_line_in_keep_running_mode_does_not_stop_the_bot() -> None:
    text = "1\n0 1 0\nnonsense here\n" + "\n".join(STRAIGHT[1:]) + "\n"
    out, err = _run(text, keep_running=True)
    assert out.split("\n")[::2][:5] == ["PASS", "PASS", "PASS", "PASS", "HU"]
    assert err.count("\n") == 1


def test_the_command_answers_over_stdin() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "hefen", "botzone", "--bot", "simple"],
        input=_simple_input(STRAIGHT, ["PASS"] * 3),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=ENV,
    )
    assert (p.returncode, p.stdout, p.stderr) == (0, "HU\n", "")


def _arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hefen", "arena", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=ENV,
    )


def test_the_arena_plays_an_external_hefen_bot_to_a_margin_of_zero() -> None:
    p = _arena("--cmd", BOT, "--against", "simple", "--games", "2", "--hands", "1")
    assert p.returncode == 0, p.stderr
    assert "2 walls × 4 seats (8 hands, duplicate)" in p.stdout
    # the same bot in the same seats on the same walls: the duplicate margin is 0
    assert "margin +0.00 points per hand" in p.stdout and "95% interval [" in p.stdout
    assert "penalties 0" in p.stdout


def test_an_external_program_that_answers_garbage_is_penalised() -> None:
    garbage = (
        f"{sys.executable} -c \"import sys\nfor _ in sys.stdin: print('GARBAGE', flush=True)\""
    )
    p = _arena("--cmd", garbage, "--against", "simple", "--games", "1", "--hands", "1", "--json")
    assert p.returncode == 0, p.stderr
    report = json.loads(p.stdout)
    assert report["offences"]["illegal"] == 4 and report["margin"] < 0
    lines = p.stderr.strip().split("\n")
    assert len(lines) == 4 and all("pays the penalty" in x for x in lines)
    assert "Traceback" not in p.stderr


def test_a_crash_and_a_timeout_are_penalised() -> None:
    crash = Arena(f"{sys.executable} -c pass", "simple", 1, 1, say=lambda m: None)
    assert crash.run().offences["crash"] == 4
    slow = Arena(
        f"{sys.executable} -c 'import time; time.sleep(20)'",
        "simple",
        1,
        1,
        timeout=0.3,
        startup=0.3,
        say=lambda m: None,
    )
    assert slow.run().offences["timeout"] == 4


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--cmd", "no-such-program-here"], "not a program found here"),
        (["--cmd", "'open"], "not a command line"),
        (["--cmd", "x", "--timeout", "0"], "--timeout takes seconds"),
    ],
)
def test_bad_arena_arguments_are_one_sentence(args: list[str], said: str) -> None:
    p = _arena(*args)
    assert p.returncode == 2 and said in p.stderr and p.stderr.count("\n") == 1


class _Recorder:
    """An in-process Botzone seat for :func:`play_hand`: a driver that
    answers in keep-running fashion and records every turn."""

    def __init__(self, bot: str) -> None:
        self.driver = Driver(bot)
        self.turns: list[tuple[str, str]] = []

    def ask(self, request: str) -> str:
        answer = self.driver.respond(request)
        self.turns.append((request, answer))
        return answer

    def close(self) -> None:
        pass


def test_a_replayed_history_answers_as_the_running_bot_did() -> None:
    """Every turn of real hands (claims, kongs, flowers among them), answered
    again from the whole history as the JSON and simple forms give it."""
    from typing import Any

    from hefen.arena import play_hand
    from hefen.game import GameSettings, Match, make_bot

    verbs: set[str] = set()
    for number in range(2):
        match = Match(GameSettings("mcr"), f"arena/replay/{number}", hands=1)
        rec: Any = _Recorder("strong")
        result = play_hand(match.new_game(), [make_bot("strong", s) for s in range(4)], 1, rec)
        assert result[1].offence is None
        requests = [r for r, _ in rec.turns]
        responses = [a for _, a in rec.turns]
        verbs |= {r.split()[2] for r in requests if r.startswith("3 ")}
        for i in range(2, len(requests), 3):
            from hefen.botzone import replay

            assert replay(Driver("strong"), requests[: i + 1], responses[:i]) == responses[i]
    assert {"DRAW", "PLAY", "PENG"} <= verbs


TSUMOGIRI = """
import json, sys
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
def answer(req):
    w = req.split()
    return "PLAY " + w[1] if w[0] == "2" else "PASS"
mode = sys.argv[1]
first = sys.stdin.readline()
if mode == "json":
    obj = json.loads(first)
    assert len(obj["requests"]) == len(obj["responses"]) + 1
    print(json.dumps({"response": answer(obj["requests"][-1])}))
    sys.exit()
n = int(first)
lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
print(answer(lines[-1]), flush=True)
if mode == "keep":
    print(KEEP, flush=True)
    for line in sys.stdin:
        print(answer(line.strip()))
        print(KEEP, flush=True)
"""


@pytest.fixture
def tsumogiri(tmp_path: Path) -> Path:
    """A tiny legal Botzone program: it discards what it draws, passes the rest."""
    path = tmp_path / "tsumogiri.py"
    path.write_text(TSUMOGIRI, encoding="utf-8")
    return path


@pytest.mark.parametrize("mode", ["keep", "simple", "json"])
def test_the_arena_talks_each_form(tsumogiri: Path, mode: str) -> None:
    from hefen.arena import External

    ext = External([sys.executable, str(tsumogiri), mode], json_protocol=mode == "json")
    deal = "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J2"
    try:
        got = [ext.ask(r) for r in ("0 1 0", deal, "3 0 DRAW", "3 0 PLAY J3", "2 W9")]
    finally:
        ext.close()
    assert got == ["PASS"] * 4 + ["PLAY W9"]
    assert len(ext.requests) == len(ext.responses) == 5


def test_a_legal_program_of_its_own_plays_without_penalty(tsumogiri: Path) -> None:
    cmd = f"{sys.executable} {tsumogiri} keep"
    report = Arena(cmd, "simple", 1, 2, seed=1, say=lambda m: None).run()
    assert report.walls == 2 and sum(report.offences.values()) == 0
    assert report.margins and all(isinstance(m, float) for m in report.margins)


def test_the_botzone_bot_loads_no_table_store_nor_web_app() -> None:
    code = (
        "import sys, hefen.botzone\n"
        "bad = [m for m in sys.modules if m.startswith(('sqlalchemy', 'fastapi', 'hefen.table'))]\n"
        "assert not bad, bad"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert p.returncode == 0, p.stderr


def test_a_bot_that_fails_still_answers_legally(monkeypatch: pytest.MonkeyPatch) -> None:
    from hefen.game.bots import SimpleBot

    def broken(self: object, game: object, seat: int) -> None:
        raise RuntimeError("broken")

    monkeypatch.setattr(SimpleBot, "choose", broken)
    out, err = _run("1\n" + "\n".join([*STRAIGHT[:2], "2 W5"]) + "\n", keep_running=True)
    assert out.split("\n")[::2][:3] == ["PASS", "PASS", "PLAY W5"]
    assert "could not answer '2 W5'" in err and err.count("\n") == 1
