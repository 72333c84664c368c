"""``--json`` batches answer every line (issue #14): nasty lines each get
one ``{"valid": false, "error": ...}`` answer and the batch goes on; a blank
line gets none; ``--rules`` offers the registry's rulesets."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import pytest

from hefen.commands.score import MAX_LINE, run_json_batch
from hefen.ruleset import ruleset_keys
from hefen.scoring import score

ROOT = Path(__file__).resolve().parent.parent

GOOD = {
    "rules": "mcr",
    "hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E".split(),
    "win_tile": "E",
    "context": {"win": "self_draw"},
}
GOOD_WAITS = {"rules": "mcr", "hand": "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m".split()}

# (a line as bytes, a word its answer's error has; "": the line is a good hand)
NASTY: list[tuple[bytes, str]] = [
    (b"[" * 100_000 + b"]" * 100_000, "too deeply"),  # RecursionError in json.loads
    (b'{"\\ud800": 1}', "Unknown key"),  # a lone surrogate key
    (b'{"rules": "mcr", "hand": ["\\udfff"], "win_tile": "E"}', "Unknown tile code"),
    (b"this is not json", "not valid JSON"),
    (b"{", "not valid JSON"),
    (b"42", "JSON object"),
    (b"-1e999", "JSON object"),
    (b"NaN", "JSON object"),
    (b"null", "JSON object"),
    (b'"a string"', "JSON object"),
    (b"[1, 2, 3]", "JSON object"),
    (b"1" * 5000, "too long"),  # a number over Python's 4,300-digit limit
    (b'{"hand": [' + b"1" * 5000 + b"]}", "too long"),
    (b"\xff\xfe not utf-8", "UTF-8"),
    (b'"' + b"x" * (MAX_LINE + 10) + b'"', "1 MiB"),  # huge input
    (json.dumps({**GOOD, "options": {"x": [[]]}, "context": {"win": []}}).encode(), "context.win"),
    (json.dumps({**GOOD, "options": {"variant": ["green_book"]}}).encode(), "option"),
    (b'{"rules": {"$ne": 1}, "hand": []}', "rules must be one of"),
    (json.dumps(GOOD).encode(), ""),
]


def _answers(stdin: bytes, *args: str) -> list[dict[str, Any]]:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", *args, "--json"],
        input=stdin,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")[-2000:]
    assert p.stderr == b""
    text = p.stdout.decode("utf-8")  # the output is UTF-8 JSON, line by line
    return [json.loads(x) for x in text.splitlines()]


def test_score_batch_answers_every_nasty_line_and_goes_on() -> None:
    stdin = b"\n".join(line for line, _ in NASTY) + b"\n"
    out = _answers(stdin, "score")
    assert len(out) == len(NASTY) == 19
    for (line, word), answer in zip(NASTY, out, strict=True):
        if word == "":
            assert answer == score(GOOD).to_dict()
            continue
        assert answer["valid"] is False, (line[:60], answer)
        error = answer["error"]
        assert isinstance(error, str) and "\n" not in error and error.endswith("."), error
        assert word in error, (line[:60], error)


def test_blank_lines_get_no_answer_and_a_last_line_needs_no_newline() -> None:
    good = json.dumps(GOOD).encode()
    out = _answers(b"\n   \n" + good + b"\n\t\n\n" + good, "score")
    assert len(out) == 2 and all(a["valid"] for a in out)


def _mixed_batch() -> bytes:
    """Good hands of every ruleset, invalid hands, nasty and blank lines, over
    several chunks of ``--jobs``."""
    from hefen.commands.score import CHUNK_LINES
    from hefen.testing.generate import random_mcr_hands

    hands = [json.dumps(h).encode() for h in random_mcr_hands(CHUNK_LINES * 2 + 17, 5)]
    bad = [line for line, _ in NASTY]
    other = [
        json.dumps({**GOOD, "rules": "hk"}).encode(),
        json.dumps({**GOOD, "rules": "tw"}).encode(),
        json.dumps({**GOOD, "win_tile": "9h"}).encode(),
        b"",
        b"   ",
    ]
    lines = bad + hands[:300] + other + bad + hands[300:] + other + bad
    return b"\n".join(lines) + b"\n"


def test_score_batch_with_jobs_answers_the_same_lines_in_order() -> None:
    stdin = _mixed_batch()
    one = _answers(stdin, "score", "--jobs", "1")
    two = _answers(stdin, "score", "--jobs", "2")
    blank = sum(1 for line in stdin.split(b"\n")[:-1] if not line.strip())
    assert len(one) == len(stdin.split(b"\n")) - 1 - blank
    assert two == one
    assert _answers(stdin, "score") == one
    assert sum(1 for a in one if a["valid"] is False) > 3 * len(NASTY)


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "", "100000"])
def test_a_bad_jobs_value_is_one_sentence_naming_the_flag(value: str) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "score", "--json", "--jobs", value],
        input=b"",
        capture_output=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 2 and p.stdout == b""
    err = p.stderr.decode()
    assert err.count("\n") == 1 and err.rstrip().endswith("."), err
    assert "--jobs" in err and "whole number" in err and repr(value) in err, err


def test_jobs_without_json_is_one_sentence() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "score", "123m456p789sEECC +E", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 2 and "--jobs needs --json" in p.stderr, p.stderr


def test_batch_in_process_with_jobs() -> None:
    from hefen.commands.score import _score_line

    text = _mixed_batch().decode("utf-8", "replace")
    outs = []
    for jobs in (1, 2):
        out = io.StringIO()
        assert run_json_batch(_score_line, io.StringIO(text), out, jobs=jobs) == 0
        outs.append(out.getvalue())
    assert outs[0] == outs[1] and outs[0].count("\n") > 550


@pytest.mark.parametrize("command", ["waits", "shanten"])
def test_analysis_batch_answers_every_nasty_line(command: str) -> None:
    lines = [line for line, _ in NASTY if line != json.dumps(GOOD).encode()]
    lines.append(json.dumps(GOOD_WAITS).encode())
    out = _answers(b"\n".join(lines) + b"\n", command)
    assert len(out) == len(lines)
    for answer in out[:-1]:
        assert answer["valid"] is False and "\n" not in answer["error"], answer
    assert "valid" not in out[-1] or out[-1]["valid"] is not False


def test_batch_in_process_over_text_and_bytes_streams() -> None:
    for stream in (io.StringIO("42\n\n{}\n"), io.BytesIO(b"42\n\n{}\n")):
        out = io.StringIO()
        assert run_json_batch(lambda o: score(o).to_dict(), stream, out) == 0
        answers = [json.loads(x) for x in out.getvalue().splitlines()]
        assert [a["valid"] for a in answers] == [False, False]


def test_an_answer_that_cannot_be_written_is_replaced_by_a_sentence() -> None:
    out = io.StringIO()
    answers = [{"valid": True, "x": "\ud800"}, {"valid": True, "x": float("nan")}]
    run_json_batch(lambda o: answers[o], io.StringIO("0\n1\n"), out)
    first, second = (json.loads(x) for x in out.getvalue().splitlines())
    assert first == {"valid": True, "x": "\ud800"}  # escaped, still valid JSON
    assert second["valid"] is False and "could not be written" in second["error"]


def test_an_internal_error_is_one_sentence_and_the_batch_goes_on() -> None:
    def boom(obj: Any) -> dict[str, Any]:
        if obj == 1:
            raise KeyError("bug")
        return {"valid": True}

    out = io.StringIO()
    run_json_batch(boom, io.StringIO("1\n2\n"), out)
    first, second = (json.loads(x) for x in out.getvalue().splitlines())
    assert first["valid"] is False and "KeyError" in first["error"]
    assert second == {"valid": True}


@pytest.mark.parametrize("command", ["score", "waits", "shanten", "advise"])
def test_rules_choices_come_from_the_registry(command: str) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", command, "--rules", "riichi", "x"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 2
    assert "choose from " + ", ".join(repr(k) for k in ruleset_keys()) in p.stderr


@pytest.mark.parametrize(
    "path",
    ["hefen/commands/score.py", "hefen/commands/analysis.py", "hefen/scoring.py", "hefen/cli.py"],
)
def test_no_ruleset_is_named_outside_the_registry(path: str) -> None:
    keys = set(ruleset_keys())
    with open(ROOT / path, "rb") as f:
        for tok in tokenize.tokenize(f.readline):
            if tok.type == tokenize.STRING:
                text = tok.string
                assert not any(f'"{k}"' in text or f"'{k}'" in text for k in keys), (
                    path,
                    tok.start,
                    text[:80],
                )


@pytest.mark.parametrize(
    ("option", "words"),
    [
        ("x=" + "[" * 100_000, "Unknown mcr option 'x'"),  # once a RecursionError in json.loads
        ("variant=" + "1" * 5000, "The option variant must be"),
        ("variant=[]", "The option variant must be"),
        ("novalue", "NAME=VALUE"),
    ],
    ids=["deep", "long-number", "list", "no-equals"],
)
def test_cli_options_that_do_not_fit_are_one_sentence(
    option: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from hefen.cli import main

    assert main(["score", "123m456p789sEECC +E", "-o", option]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and len(err) < 300, err[:300]


def test_cli_options_are_read_as_the_ruleset_declares(capsys: pytest.CaptureFixture[str]) -> None:
    from hefen.cli import main

    hand = "123m456p789sEECC +E"
    assert main(["score", hand, "--rules", "hk", "-o", "unit=2", "-o", "half_spicy=yes"]) == 0
    assert "Payments: S->E 32" in capsys.readouterr().out
    assert main(["score", hand, "--rules", "hk", "-o", "unit=1", "-o", "half_spicy=false"]) == 0
    assert "Payments: S->E 16" in capsys.readouterr().out
    assert main(["score", hand, "-o", "knitted_wait=null", "-o", "variant=mil"]) == 0
    assert "Total" in capsys.readouterr().out


@pytest.mark.parametrize(
    "notation",
    ["1" * 5000, "123x" + "1m" * 1000, "[" + "1m" * 1000, "123m +" + "E" * 1000, "12\udcffm +E"],
    ids=["digits", "character", "meld", "plus", "undecodable-argv"],
)
def test_cli_long_or_odd_notation_is_one_short_sentence(
    notation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from hefen.cli import main

    assert main(["score", notation]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("Not a valid hand:") and "\n" not in err and len(err) < 300, err[:300]
    err.encode("utf-8")
