"""The ``hefen score`` command: readable table and JSON batch."""

import json
import subprocess
import sys

import pytest


def hefen(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "hefen.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_readable_table():
    p = hefen("score", "123m456p789sEECC +E", "--self-drawn")
    assert p.returncode == 0
    assert "Mixed Straight" in p.stdout and "Total" in p.stdout and "22 points" in p.stdout
    assert "S->E 30" in p.stdout


def test_chinese_names_and_options():
    p = hefen("score", "(1111m) (2222p) 345s678sE +E", "-o", "variant=mil", "--lang", "zh")
    assert "双暗杠" in p.stdout


def test_bad_hand_one_sentence():
    p = hefen("score", "123m456p789sEECCC +E")
    assert p.returncode == 2
    assert p.stderr.strip().count("\n") == 0 and "needs 14" in p.stderr


def test_json_batch_keeps_order_and_goes_on():
    lines = [
        json.dumps(
            {
                "rules": "mcr",
                "hand": "1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m 9m".split(),
                "win_tile": "5m",
            }
        ),
        "this is not json",
        "",
        json.dumps({"rules": "mcr", "hand": [], "win_tile": "1m"}),
        json.dumps(
            {
                "rules": "mcr",
                "hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E".split(),
                "win_tile": "E",
                "context": {"win": "self_draw"},
            }
        ),
    ]
    p = hefen("score", "--json", stdin="\n".join(lines) + "\n")
    assert p.returncode == 0
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 4
    assert out[0]["valid"] and out[0]["patterns"][0]["id"] == "nine_gates"
    assert not out[1]["valid"] and "not valid JSON" in out[1]["error"]
    assert not out[2]["valid"] and "tiles" in out[2]["error"]
    assert out[3]["total"] == 22


@pytest.mark.parametrize("args", [["score"], ["score", "123m"]])
def test_usage_errors(args):
    p = hefen(*args)
    assert p.returncode == 2 and p.stderr
