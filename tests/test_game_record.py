"""`hefen replay` refuses any damaged or edited record with one sentence and exit 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hefen.cli import main
from hefen.game import GameSettings, Match, make_bot
from hefen.game.record import RecordError, dumps, match_lines, replay


@pytest.fixture(scope="module")
def record() -> list[dict[str, Any]]:
    match = Match(GameSettings("hk"), seed=3, hands=2)
    bots = [make_bot("strong"), make_bot("simple"), make_bot("strong"), make_bot("simple")]
    match.play(lambda g, s: bots[s].choose(g, s))
    return [json.loads(line) for line in dumps(match_lines(match)).splitlines()]


def _damaged(record: list[dict[str, Any]], index: int, change: dict[str, Any]) -> str:
    lines = [dict(line) for line in record]
    for key, value in change.items():
        if value is _DROP:
            lines[index].pop(key, None)
        else:
            lines[index][key] = value
    return dumps(lines)


_DROP = object()


def _hand_index(record: list[dict[str, Any]]) -> int:
    return next(i for i, line in enumerate(record) if line["type"] == "hand")


def _end_index(record: list[dict[str, Any]]) -> int:
    return next(i for i, line in enumerate(record) if line["type"] == "end")


DAMAGE: list[tuple[str, str, dict[str, Any], str]] = [
    ("match", "no hands", {"hands": _DROP}, "has no 'hands'"),
    ("match", "no seed", {"seed": _DROP}, "has no 'seed'"),
    ("match", "no settings", {"settings": _DROP}, "has no 'settings'"),
    ("match", "unknown rules", {"settings": {"rules": "xx"}}, "rules"),
    ("match", "hands not a number", {"hands": "four"}, "'hands' must be a whole number"),
    ("hand", "no dealer", {"dealer": _DROP}, "has no 'dealer'"),
    ("hand", "dealer 9", {"dealer": 9}, "'dealer' must be a seat from 0 to 3"),
    ("hand", "no seat winds", {"seat_winds": _DROP}, "has no 'seat_winds'"),
    ("hand", "bad seat winds", {"seat_winds": ["E", "E", "W", "N"]}, "the four winds"),
    ("hand", "no seed", {"seed": _DROP}, "has no 'seed'"),
    ("hand", "no settings", {"settings": _DROP}, "has no 'settings'"),
    ("end", "edited balances", {"balances": [1000, -1000, 0, 0]}, "differ from the replayed"),
]


@pytest.mark.parametrize(("where", "what", "change", "says"), DAMAGE, ids=[d[1] for d in DAMAGE])
def test_a_damaged_record_is_one_sentence(
    record: list[dict[str, Any]], where: str, what: str, change: dict[str, Any], says: str
) -> None:
    index = {"match": 0, "hand": _hand_index(record), "end": _end_index(record)}[where]
    text = _damaged(record, index, change)
    with pytest.raises(RecordError, match=says):
        replay(text.splitlines())


def test_the_cli_exits_1_on_damage(
    record: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(dumps(record), encoding="utf-8")
    assert main(["replay", "--quiet", str(good)]) == 0
    capsys.readouterr()
    for i, (where, _what, change, says) in enumerate(DAMAGE):
        index = {"match": 0, "hand": _hand_index(record), "end": _end_index(record)}[where]
        bad = tmp_path / f"bad{i}.jsonl"
        bad.write_text(_damaged(record, index, change), encoding="utf-8")
        assert main(["replay", str(bad)]) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith("hefen replay: ") and says.split("'")[0] in err
        assert "Traceback" not in err and len(err.splitlines()) == 1
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert main(["replay", str(empty)]) == 1
    assert "no hand" in capsys.readouterr().err
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    assert main(["replay", str(deep)]) == 1
    assert "nested too deeply" in capsys.readouterr().err
