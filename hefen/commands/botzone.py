"""``hefen botzone`` (a hefen bot as a Botzone bot) and ``hefen arena``
(hefen judges an external Botzone program in duplicate play)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .args import positive, whole

#: the bots a Botzone seat can be played by
BOTZONE_BOTS: tuple[str, ...] = ("simple", "strong", "expert")


def _seconds(text: str) -> float:
    """A per-turn timeout: a number of seconds above 0 and at most 600."""
    try:
        v = float(text)
    except ValueError:
        v = 0.0
    if not 0 < v <= 600:
        raise argparse.ArgumentTypeError(f"takes seconds above 0 and at most 600, not {text!r}")
    return v


def register(subparsers: Any) -> None:
    b = subparsers.add_parser(
        "botzone",
        help="play a hefen bot as a Botzone MCR bot over stdin/stdout",
        description="A hefen bot answers Botzone's Chinese Standard Mahjong requests "
        "(docs/botzone.md): the simple form or JSON, detected from the input.",
    )
    b.add_argument(
        "--bot", choices=BOTZONE_BOTS, default="strong", help="the bot that plays (default strong)"
    )
    b.add_argument(
        "--json", action="store_true", help="read the JSON form even if the input looks simple"
    )
    b.add_argument(
        "--keep-running",
        action="store_true",
        help="Botzone's long-running mode: stay up and read one request per turn",
    )
    b.add_argument("--seed", type=whole, default=0, help="the bot's seed, 0 or more (default 0)")
    b.set_defaults(func=run_botzone)

    a = subparsers.add_parser(
        "arena",
        help="judge an external Botzone MCR program against hefen bots (duplicate)",
        description="Play an external Botzone-protocol program in each seat of the same "
        "walls against hefen bots, and print its margin with a 95% interval.",
    )
    a.add_argument("--cmd", required=True, help="the program's command line, in quotes")
    a.add_argument(
        "--against", choices=BOTZONE_BOTS, default="strong", help="the hefen bots (default strong)"
    )
    a.add_argument("--games", type=positive, default=2, help="games, 1 or more (default 2)")
    a.add_argument(
        "--hands", type=positive, default=4, help="hands (walls) per game, 1 or more (default 4)"
    )
    a.add_argument("--seed", type=whole, default=0, help="seed of the walls, 0 or more (default 0)")
    a.add_argument(
        "--json-protocol",
        action="store_true",
        help="start the program each turn with the JSON history (default: simple form)",
    )
    a.add_argument(
        "--timeout",
        type=_seconds,
        default=5.0,
        help="seconds the program may take per turn (default 5)",
    )
    a.add_argument(
        "--startup",
        type=_seconds,
        default=5.0,
        help="extra seconds for the first answer after each start (default 5)",
    )
    a.add_argument("--json", action="store_true", help="print the report as one JSON object")
    a.set_defaults(func=run_arena)


def run_botzone(args: argparse.Namespace) -> int:
    from ..botzone import run

    return run(
        args.bot,
        sys.stdin,
        sys.stdout,
        sys.stderr,
        json_form=True if args.json else None,
        keep_running=args.keep_running,
        seed=args.seed,
    )


def run_arena(args: argparse.Namespace) -> int:
    from ..arena import Arena

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    arena = Arena(
        args.cmd,
        args.against,
        args.games,
        args.hands,
        args.seed,
        args.json_protocol,
        args.timeout,
        say,
        args.startup,
    )
    try:
        report = arena.run()
    except ValueError as e:
        print(f"hefen arena: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict()))
    else:
        print("\n".join(report.lines()))
    return 0
