"""``hefen simulate`` and ``hefen replay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hefen.cli import main


def test_simulate_json_lines_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.jsonl"
    code = main(
        [
            "simulate",
            "--rules",
            "hk",
            "--games",
            "2",
            "--hands",
            "2",
            "--seed",
            "3",
            "--bots",
            "simple",
            "--json",
            "--record",
            str(record),
        ]
    )
    assert code == 0
    out = capsys.readouterr()
    lines = [json.loads(x) for x in out.out.splitlines()]
    assert len(lines) == 4
    for line in lines:
        assert set(line) == {"rules", "game", "hand", "result", "winner", "payments", "score"}
        assert line["result"] in ("win", "draw")
        assert sum(p["amount"] for p in line["payments"] if p["to"] == line["winner"]) == sum(
            p["amount"] for p in line["payments"]
        )
    assert "games" in out.err  # the summary and progress bar go to stderr with --json
    assert main(["replay", str(record)]) == 0
    shown = capsys.readouterr().out
    assert "Hand 1" in shown and "Final balances" in shown


def test_replay_of_a_broken_file_fails_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "action", "seat": 0, "kind": "discard", "tile": "1m"}\n')
    assert main(["replay", str(bad)]) == 1
    assert "before any hand header" in capsys.readouterr().err


def test_replay_of_a_missing_or_binary_file_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.jsonl"
    assert main(["replay", str(missing)]) == 1
    err = capsys.readouterr().err
    assert err == f"hefen replay: cannot read {missing} (No such file or directory).\n"
    binary = tmp_path / "photo.jsonl"
    binary.write_bytes(b"\xff\xd8\xff\xe0 not a record \x80\x81")
    assert main(["replay", str(binary)]) == 1
    assert capsys.readouterr().err == f"hefen replay: {binary} is not a text record (UTF-8).\n"


def test_simulate_takes_the_house_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "tw.jsonl"
    argv = ["simulate", "--rules", "tw", "--games", "1", "--hands", "1", "--bots", "simple"]
    code = main([*argv, "--dead-wall", "8", "--locked-kongs", "--record", str(record)])
    assert code == 0
    header = json.loads(record.read_text().splitlines()[0])
    assert header["settings"]["dead_wall"] == 8 and header["settings"]["locked_kongs"] is True
    capsys.readouterr()
    assert main([*argv, "--false-win", "penalty"]) == 2
    assert "no penalty" in capsys.readouterr().err
