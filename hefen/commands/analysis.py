"""``hefen waits``, ``hefen shanten`` and ``hefen advise``: hand analysis.

::

    hefen waits   '123m456p789s11pEE' --visible 1p1pE      # what am I waiting for
    hefen shanten '1m4m7m2p5p8p3s6s9sESWN'                  # how far from ready
    hefen advise  '123m456p789s11pEE +C'                    # what should I discard

``waits`` and ``shanten`` also read interchange objects (without
``win_tile``, with an optional ``visible`` list) one per line with
``--json`` and write one line each; a bad line (not JSON, too deep, too
long, not a hand) gives ``{"valid": false, "error": ...}`` and the batch
goes on; a blank line is skipped (as ``hefen score --json``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from ..analysis import advise, shanten, waits
from ..hand import HandError
from ..notation import parse_tiles
from ..tiles import tile_to_str
from .score import (
    LANGS,
    FlagError,
    add_context_flags,
    error_line,
    hand_object_from_args,
    run_json_batch,
)

__all__ = ["register"]


def _object(args: argparse.Namespace, drawn: bool) -> dict[str, Any]:
    obj = hand_object_from_args(args.hand, args, need_win=False)
    if "win_tile" in obj:
        if not drawn:
            raise HandError(
                "A hand to analyse has no winning tile: leave out the '+' "
                "(use 'hefen advise' for a hand with the tile just drawn)."
            )
    if args.visible:
        try:
            tiles = parse_tiles(args.visible.replace(" ", ""))
        except HandError as e:
            raise FlagError(
                f"--visible takes tiles in the compact notation, e.g. 1p1pE ({str(e).rstrip('.')})."
            ) from e
        obj["visible"] = [tile_to_str(t) for t in tiles]
    return obj


def _json_line(kind: str) -> Callable[[Any], dict[str, Any]]:
    def fn(obj: Any) -> dict[str, Any]:
        try:
            if kind == "waits":
                return waits(obj).to_dict()
            return shanten(obj).to_dict()
        except HandError as e:
            return {"valid": False, "error": str(e)}

    return fn


def _run(kind: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        if getattr(args, "json", False):
            return run_json_batch(_json_line(kind))
        if not args.hand:
            print(
                f"hefen {kind}: give a hand in the compact notation, e.g. "
                f"hefen {kind} '123m456p789s11pEE'" + (", or --json." if kind != "advise" else "."),
                file=sys.stderr,
            )
            return 2
        try:
            obj = _object(args, drawn=kind == "advise")
            if kind == "waits":
                text = waits(obj).describe(args.lang)
            elif kind == "shanten":
                text = shanten(obj).describe(args.lang)
            else:
                text = advise(obj).describe(args.lang)
        except HandError as e:
            print(error_line(e, args.lang), file=sys.stderr)
            return 2
        print(text)
        return 0

    return run


_HELP = {
    "waits": (
        "list the tiles a ready hand waits for, their unseen copies and their scores",
        "Every tile that completes a ready hand (13 tiles, 16 in TW), how many copies are\n"
        "still unseen, and what a win on it scores by discard and by self-draw.\n"
        "  hefen waits '123m456p789s11pEE' --visible 1pE\n"
        "Context flags (--seat, --round, -o ...) apply to the scores; --self-drawn is\n"
        "ignored (both ways of winning are shown).",
    ),
    "shanten": (
        "how many tiles from ready, and which tiles help",
        "The shanten number over every form the rules allow (0 = ready, -1 = complete)\n"
        "and the tiles that lower it, with their unseen copies.\n"
        "  hefen shanten '147m258p369sESWNC' --rules RULES",
    ),
    "advise": (
        "rank the discards of a hand holding the tile just drawn",
        "Each discard ranked by the resulting shanten, the unseen useful tiles, then the\n"
        "value of the waits; write the drawn tile with '+' or among the others.\n"
        "  hefen advise '123m456p789s11pEE +C'",
    ),
}


def register(sub: Any) -> None:
    for kind in ("waits", "shanten", "advise"):
        short, long = _HELP[kind]
        p = sub.add_parser(
            kind,
            help=short,
            description=long,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        p.add_argument(
            "hand", nargs="?", help="the hand in compact notation (see docs/notation.md)"
        )
        if kind != "advise":
            p.add_argument(
                "--json",
                action="store_true",
                help="read interchange objects (no win_tile) from stdin, one per line",
            )
        p.add_argument(
            "--visible",
            default="",
            help="tiles seen outside your hand (discards, others' melds), e.g. 1p1pE",
        )
        p.add_argument(
            "--lang",
            choices=LANGS,
            default="en",
            help="language of the answer: en (English, default), zh (中文), hi (हिन्दी)",
        )
        add_context_flags(p)
        p.set_defaults(func=_run(kind))
