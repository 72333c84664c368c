"""The package's habits (issue #14): typed (``py.typed`` shipped), its
version stated once, and the test command checking ruff and mypy first."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import hefen

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_habits_py_typed_is_shipped() -> None:
    assert (ROOT / "hefen" / "py.typed").is_file()
    data = PYPROJECT["tool"]["setuptools"]["package-data"]
    assert any("py.typed" in patterns for patterns in data.values())


def test_habits_version_is_stated_once() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "hefen.__version__"}
    assert importlib.metadata.version("hefen") == hefen.__version__


def test_habits_mypy_covers_the_whole_package() -> None:
    assert PYPROJECT["tool"]["mypy"]["files"] == ["hefen"]


def test_habits_test_command_runs_ruff_and_mypy_before_pytest() -> None:
    lines = [
        line.strip()
        for line in (ROOT / "scripts" / "test").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    assert "set -euo pipefail" in lines  # a failing check ends the run
    ruff = next(i for i, line in enumerate(lines) if line.startswith("python -m ruff check"))
    mypy = next(i for i, line in enumerate(lines) if line.startswith("python -m mypy"))
    pytest_ = next(i for i, line in enumerate(lines) if line.startswith("python -m pytest"))
    assert ruff < pytest_ and mypy < pytest_
