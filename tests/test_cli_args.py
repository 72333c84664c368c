"""Every bad argument of every command is one sentence naming the flag and
what it accepts (issue #15): typos suggest the nearest flag, counts must be
positive, table settings are NAME=VALUE checked by the ruleset's declarations."""

from __future__ import annotations

import pytest

from hefen.cli import main
from hefen.ruleset import DEFAULT_RULESET, find_ruleset

HAND = "123m456p789sEECC +E"


def _one_sentence(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    assert "usage:" not in err and captured.out == "", (err, captured.out)
    assert err.endswith((".", "?")), err
    return err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--games", "-1"], ["--games", "whole number of 1 or more", "'-1'"]),
        (["simulate", "--games", "0"], ["--games", "1 or more"]),
        (["simulate", "--hands", "x"], ["--hands", "1 or more", "'x'"]),
        (["simulate", "--seed", "-3"], ["--seed", "0 or more"]),
        (["simulate", "--gmaes", "2"], ["--gmaes", "did you mean --games?"]),
        (["score", HAND, "--self-drwn"], ["--self-drwn", "did you mean --self-drawn?"]),
        (["waits", "123m456p789s11pEE", "--visble", "1p"], ["did you mean --visible?"]),
        (["score", HAND, "--seat", "x"], ["--seat", "E, S, W or N", "'x'"]),
        (["score", HAND, "--round", "up"], ["--round", "E, S, W or N"]),
        (["score", HAND, "--discarder", "7"], ["--discarder", "E, S, W or N"]),
        (["score", HAND, "--streak", "-2"], ["--streak", "from 0 to 99"]),
        (["score", HAND, "--streak", "500"], ["--streak", "from 0 to 99", "'500'"]),
        (["simulate", "--record", "/nonexistent/dir/x.jsonl"], ["--record", "/nonexistent"]),
        (["score", HAND, "--seat"], ["--seat needs a value", "E S W N"]),
        (["score", HAND, "--rules", "riichi"], ["--rules", "'riichi'", "choose from"]),
        (["score", HAND, "--lang", "fr"], ["--lang", "'fr'", "choose from 'en', 'zh', 'hi'"]),
        (["scroe", HAND], ["command 'scroe'", "did you mean 'score'?"]),
        (["serve", "--port", "99999"], ["--port", "1 to 65535"]),
        (["serve", "--prot", "80"], ["did you mean --port?"]),
        (["replay"], ["give file", "record"]),
        (["waits", "123m456p789s11pEE", "--visible", "xyz"], ["--visible", "compact notation"]),
        (["score", "123m", "456p"], ["'456p' is one argument too many", "quote"]),
        (["serve", "--host", "192.0.2.99"], ["--host 192.0.2.99", "0.0.0.0"]),
        (["serve", "--public-url", "mahjong"], ["--public-url", "http://"]),
        (["--verison"], ["--verison"]),
        (["simulate", "--bots", "nobody"], ["--bots"]),
    ],
)
def test_bad_arguments_are_one_sentence(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = _one_sentence(capsys)
    for w in words:
        assert w in err, (w, err)


@pytest.mark.parametrize("seat", ["e", "s", "W", "n"])
def test_seat_takes_either_case(seat: str, capsys: pytest.CaptureFixture[str]) -> None:
    upper = seat.upper()
    assert main(["score", HAND, "--seat", seat, "--round", seat.lower(), "--self-drawn"]) == 0
    lower_out = capsys.readouterr().out
    assert main(["score", HAND, "--seat", upper, "--round", upper, "--self-drawn"]) == 0
    assert capsys.readouterr().out == lower_out and "Total" in lower_out


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--options", '{"cap":11}'],
        ["simulate", "--options", "cap=10"],
        ["simulate", "-o", "cap=10"],
        ["score", HAND, "--options", "cap=10"],
        ["score", HAND, "-o", "cap=10"],
        ["shanten", "147m258p369sESWN", "-o", "cap=10"],
        ["waits", "123m456p789s11pEE", "--option", "cap=10"],
        ["advise", "123m456p789s11pEE +C", "-o", "cap=10"],
    ],
)
def test_unknown_settings_are_table_settings(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = _one_sentence(capsys)
    assert "Table setting" in err and "Not a valid hand" not in err
    assert f"Unknown {DEFAULT_RULESET} option 'cap'" in err
    for name in find_ruleset(DEFAULT_RULESET).options:
        assert name in err  # it lists what the ruleset takes


def test_simulate_options_are_checked_by_the_declarations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ruleset = find_ruleset(DEFAULT_RULESET)
    choice = next(o for o in ruleset.options.values() if o.kind == "choice")
    assert main(["simulate", "-o", f"{choice.name}=nonsense"]) == 2
    err = _one_sentence(capsys)
    assert f"The option {choice.name} must be {choice.allowed}" in err
    assert main(["simulate", "-o", "{not json"]) == 2
    assert "NAME=VALUE" in _one_sentence(capsys)
    assert main(["simulate", "-o", "[1, 2]"]) == 2
    assert "NAME=VALUE" in _one_sentence(capsys)
    value = str(choice.choices[-1]).lower() if choice.choices[-1] is not None else "null"
    for given in (
        f"{choice.name}={value}",
        _json({choice.name: choice.choices[-1]}),
    ):
        code = main(["simulate", "--games", "1", "--hands", "1", "-o", given, "--json"])
        assert code == 0, capsys.readouterr().err
        out = capsys.readouterr()
        assert out.out.count("\n") == 1 and "1 games" in out.err


def _json(v: object) -> str:
    import json

    return json.dumps(v)


def test_lower_case_honour_gets_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "123m456p789see cc +e"]) == 2
    err = _one_sentence(capsys)
    assert err.startswith("Not a valid hand:") and "did you mean 'E'?" in err
    assert main(["score", "123m456p789sEEcC +E"]) == 2
    assert "did you mean 'C'?" in _one_sentence(capsys)


def test_replay_errors_stay_one_sentence_and_exit_1(
    tmp_path: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "/nonexistent/record.jsonl"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("hefen replay:") and "\n" not in err


def test_help_still_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "NAME=VALUE" in out and "--games" in out
