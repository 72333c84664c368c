"""The ``hefen`` command line.

Each sub-command lives in its own module that exposes ``register(subparsers)``;
this file only collects them, so a feature adds its command names to
``COMMANDS``. A run imports only the module of the command it runs (``hefen
score`` never loads the web app, the table's database or the photo model);
``hefen --help`` or an unknown command imports them all to list them.

>>> [name for name, module in COMMANDS.items() if module.endswith(".analysis")]
['waits', 'shanten', 'advise']
>>> command_of(["--help"]), command_of(["score", "--json"]), command_of([])
(None, 'score', None)
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["COMMANDS", "COMMAND_MODULES", "build_parser", "command_of", "main"]

#: Each command name and the module that registers it. The module defines
#: ``register(subparsers) -> None``; the parser it adds sets ``func`` (a
#: callable taking the parsed args and returning an exit code).
COMMANDS: dict[str, str] = {
    "score": "hefen.commands.score",
    "recognize": "hefen.commands.recognize",
    "waits": "hefen.commands.analysis",
    "shanten": "hefen.commands.analysis",
    "advise": "hefen.commands.analysis",
    "serve": "hefen.commands.serve",
    "replay": "hefen.commands.game",
    "simulate": "hefen.commands.game",
    "botzone": "hefen.commands.botzone",
    "arena": "hefen.commands.botzone",
}

#: Every command module, each once, in the order of the help listing.
COMMAND_MODULES: list[str] = list(dict.fromkeys(COMMANDS.values()))


def command_of(argv: Sequence[str]) -> str | None:
    """The command an argument list runs, if it names a known one first."""
    if argv and argv[0] in COMMANDS:
        return argv[0]
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (its module only
    is imported)."""
    from hefen.commands.args import Parser

    parser = Parser(
        prog="hefen",
        description="Score, analyse and play mahjong: MCR, Hong Kong and Taiwanese rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES
    for name in modules:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command_of(args_list))
    try:
        args, extras = parser.parse_known_args(args_list)
        if extras:  # a mistyped flag: one sentence from its command's parser, with the nearest
            from hefen.commands.args import parser_of

            parser_of(parser, getattr(args, "command", None)).unknown(extras)
    except SystemExit as stop:  # --help, or a bad argument (one sentence on stderr, 2)
        return stop.code if isinstance(stop.code, int) else 2
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
