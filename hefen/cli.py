"""The ``hefen`` command line.

Each sub-command lives in its own module that exposes ``register(subparsers)``;
this file only collects them, so a feature adds one name to ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module defines ``register(subparsers) -> None``; the parser it adds
# sets ``func`` (a callable taking the parsed args and returning an exit code).
COMMAND_MODULES: list[str] = [
    "hefen.commands.score",
    "hefen.commands.recognize",
    "hefen.commands.analysis",
    "hefen.commands.serve",
    "hefen.commands.game",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hefen",
        description="Score, analyse and play mahjong: MCR, Hong Kong and Taiwanese rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except BrokenPipeError:  # e.g. `hefen score --json | head`
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
