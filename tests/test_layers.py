"""Layering: the pure game engine does not pull in the table store or its web stack."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
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
        [sys.executable, "-c", CHECK],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "clean"
