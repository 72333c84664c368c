"""Imports follow the layers (issue #14): the scorer and its command line
load neither the database (SQLAlchemy), the web app (FastAPI) nor the photo
model (OpenCV, onnxruntime). Each check runs a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: what a scoring run must not load: the table's database, the web app, the photo model
HEAVY = ("sqlalchemy", "fastapi", "cv2", "onnxruntime")


def _loaded_by_cli(*args: str, stdin: str | None = None) -> set[str]:
    """The top-level packages a ``hefen`` run imports (read from -X importtime)."""
    p = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hefen.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    names = set()
    for line in p.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    assert "hefen" in names  # the measure did see the imports
    return names


def _loaded_by_code(code: str) -> set[str]:
    p = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    return {m.split(".")[0] for m in p.stdout.split()}


@pytest.mark.parametrize(
    "args",
    [
        ("score", "123m456p789sEECC +E"),
        ("score", "--rules", "tw", "123m456p789s111222pE +E"),
        ("waits", "123m456p789s11pEE"),
        ("shanten", "147m258p369sESWN"),
        ("advise", "123m456p789s11pEE +C"),
    ],
    ids=["score", "score-tw", "waits", "shanten", "advise"],
)
def test_core_layers_cli_commands_load_no_heavy_package(args: tuple[str, ...]) -> None:
    assert _loaded_by_cli(*args) & set(HEAVY) == set()


def test_core_layers_cli_json_batch_loads_no_heavy_package() -> None:
    line = (
        '{"hand": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","C","C","E","E"], "win_tile": "E"}'
    )
    assert _loaded_by_cli("score", "--json", stdin=line + "\n") & set(HEAVY) == set()


def test_core_layers_import_hefen_loads_no_heavy_package() -> None:
    loaded = _loaded_by_code(
        "import hefen\nhefen.score({'hand': ['1m'] * 3, 'win_tile': '1m'})\n"
        "import hefen.analysis, hefen.ruleset\n"
        "[hefen.ruleset.find_ruleset(k) for k in hefen.ruleset.ruleset_keys()]"
    )
    assert loaded & set(HEAVY) == set()
    assert "numpy" not in loaded  # nor the numeric stack the photo model needs


def test_core_layers_help_still_lists_every_command() -> None:
    from hefen.cli import COMMANDS

    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert p.returncode == 0
    for name in COMMANDS:
        assert name in p.stdout


GAME_CHECK = """
import sys
import hefen.game
found = sorted(m for m in sys.modules if m.startswith(("sqlalchemy", "fastapi", "hefen.table")))
assert not found, found
print("clean")
"""


def test_the_game_engine_imports_no_table_store() -> None:
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    done = subprocess.run(
        [sys.executable, "-c", GAME_CHECK],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "clean"
