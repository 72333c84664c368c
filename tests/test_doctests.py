"""Every example in hefen's docstrings runs and says what it shows: each
module of the package (bar the database migration scripts, which only run
inside Alembic) is imported and its doctests run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import hefen

#: modules that are scripts for another tool, not importable on their own
NOT_MODULES = ("hefen.table.migrations",)


def _modules() -> list[str]:
    names = ["hefen"]
    for info in pkgutil.walk_packages(hefen.__path__, "hefen."):
        if not info.name.startswith(NOT_MODULES):
            names.append(info.name)
    return sorted(names)


MODULES = _modules()


def test_doctests_cover_the_whole_package() -> None:
    assert {"hefen", "hefen.scoring", "hefen.ruleset", "hefen.cli", "hefen.options"} <= set(MODULES)
    assert len(MODULES) > 40


@pytest.mark.parametrize("name", MODULES)
def test_doctests_of_module(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:  # an optional dependency of that module alone
        if e.name and not e.name.startswith("hefen"):
            pytest.skip(f"{name} needs {e.name}, which is not installed")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
