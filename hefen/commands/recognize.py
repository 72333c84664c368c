"""``hefen recognize``: read the tiles in a photo of a mahjong hand."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hefen.photo import TileMemory

#: Tiles recognised with less confidence than this are marked and shown with alternatives.
UNSURE = 0.6


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "recognize",
        help="read the tiles in a photo",
        description=(
            "Find the mahjong tiles in a photo and name them, group by group "
            "(concealed hand, exposed melds, flowers), each with the model's confidence."
        ),
    )
    parser.add_argument("photo", nargs="?", help="photo of a hand (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--memory",
        metavar="FILE",
        help="a tile memory: tiles taught in it are read as taught",
    )
    parser.add_argument(
        "--teach",
        metavar="CODES",
        help="teach the photo's tiles as these codes, in reading order (e.g. "
        "'1h 2h 3h 4h 5h 6h 7h 8h'), adding them to the --memory FILE; with --tile, "
        "one code per picture",
    )
    parser.add_argument(
        "--forget",
        metavar="CODES",
        help="forget the tiles taught as these codes (e.g. '5h 6h') in the --memory FILE; "
        "with --memory FILE alone, list what it remembers",
    )
    parser.add_argument(
        "--tile",
        nargs="+",
        metavar="IMG",
        help="classify pictures of single tiles instead: one line per picture "
        "(with --memory, taught tiles read as taught; with --teach, teach them)",
    )
    parser.set_defaults(func=run)


def _codes(text: str) -> list[str]:
    """Tile codes as given on the command line: spaces or commas between them."""
    return text.replace(",", " ").split()


def _unsure(confidence: float, alternatives: tuple[tuple[str, float], ...]) -> str:
    """What a tile read under :data:`UNSURE` adds to its line: the tiles it may be instead.

    >>> _unsure(0.45, (("P", 0.3), ("5h", 0.1))), _unsure(0.9, (("P", 0.05),))
    (' (unsure; or P 0.30, 5h 0.10)', '')
    """
    if confidence >= UNSURE:
        return ""
    return " (unsure; or " + ", ".join(f"{c} {p:.2f}" for c, p in alternatives) + ")"


def _fail(message: str) -> int:
    print(f"hefen recognize: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from hefen.photo import PhotoError, TileMemory, classify_tile, recognize

    if args.tile and args.photo:
        return _fail("Give either a photo or --tile pictures, not both.")
    if args.tile:
        if args.forget is not None:
            return _fail("Give either --tile pictures or --forget, not both.")
        if args.teach is not None:
            return _teach_tiles(args)
        try:
            memory = TileMemory.load(args.memory) if args.memory else None
        except PhotoError as exc:
            return _fail(str(exc))
        status = 0
        for path in args.tile:
            try:
                code, confidence, alternatives = classify_tile(path, memory)
            except PhotoError as exc:
                status = _fail(f"{path}: {exc}")
                continue
            if args.json:
                line = {
                    "image": path,
                    "tile": code,
                    "confidence": round(confidence, 4),
                    "alternatives": [[c, round(p, 4)] for c, p in alternatives],
                }
                print(json.dumps(line))
            else:
                print(f"{path} {code} {confidence:.2f}{_unsure(confidence, alternatives)}")
        return status
    if args.forget is not None or (args.memory and not args.photo and args.teach is None):
        if args.photo:
            return _fail("Give either a photo or --forget, not both.")
        return _remembered(args)
    if not args.photo:
        return _fail("Give the photo to read, or --tile IMG to classify single tiles.")
    if args.teach is not None:
        return _teach(args)
    try:
        memory = TileMemory.load(args.memory) if args.memory else None
        result = recognize(args.photo, memory)
    except PhotoError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    for number, group in enumerate(result.groups, 1):
        parts = []
        for t in group.tiles:
            text = f"{t.tile} {t.confidence:.2f}" + (" sideways" if t.sideways else "")
            parts.append(text + _unsure(t.confidence, t.alternatives))
        print(f"group {number} ({_tiles(len(group.tiles))}): " + "  ".join(parts))
    for group in result.set_aside:
        read = " ".join(f"{t.tile} {t.confidence:.2f}" for t in group.tiles)
        print(f"set aside, more tiles than a hand holds ({_tiles(len(group.tiles))}): {read}")
    print("tiles: " + " ".join(result.tiles))
    try:
        reading = result.reading()
    except PhotoError as exc:
        print(f"hand: none ({exc})")
        return 0
    melds = "".join(f"  {m['kind']} {' '.join(m['tiles'])}" for m in reading.melds)
    flowers = f"  flowers {' '.join(reading.flowers)}" if reading.flowers else ""
    print(f"hand: {' '.join(reading.hand)}  win {reading.win_tile}{melds}{flowers}")
    return 0


def _teach(args: argparse.Namespace) -> int:
    """Add the photo's tiles, named by ``--teach``, to the ``--memory`` file."""
    from hefen.photo import teach

    if not args.memory:
        return _fail("--teach needs --memory FILE to keep the taught tiles in.")
    codes = _codes(args.teach)
    return _save_taught(args, codes, lambda memory: teach(args.photo, codes, memory))


def _teach_tiles(args: argparse.Namespace) -> int:
    """Add each ``--tile`` picture, named by its code in ``--teach``, to ``--memory``."""
    from hefen.photo import PhotoError, teach_tile

    if not args.memory:
        return _fail("--teach needs --memory FILE to keep the taught tiles in.")
    codes = _codes(args.teach)
    if len(codes) != len(args.tile):
        return _fail(
            "Give one tile code per picture: "
            f"{_count(len(args.tile), 'picture')}, {_count(len(codes), 'code')}."
        )

    def each(memory: TileMemory | None) -> TileMemory:
        for path, code in zip(args.tile, codes, strict=True):
            try:
                memory = teach_tile(path, code, memory)
            except PhotoError as exc:
                raise PhotoError(f"{path}: {exc}") from exc
        assert memory is not None  # one picture at least: argparse's nargs="+"
        return memory

    return _save_taught(args, codes, each)


def _save_taught(
    args: argparse.Namespace, codes: list[str], add: Callable[[TileMemory | None], TileMemory]
) -> int:
    """Teach ``codes`` into the ``--memory`` file with ``add`` (given the memory there, or
    None), save it, and say so; a bad photo or file is one sentence, nothing written."""
    from pathlib import Path

    from hefen.photo import PhotoError, TileMemory

    try:
        memory = TileMemory.load(args.memory) if Path(args.memory).exists() else None
        before = len(memory) if memory else 0
        add(memory).save(args.memory)
    except PhotoError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"The tile memory {args.memory} cannot be written: {exc.strerror}.")
    print(
        f"taught {_count(len(codes), 'tile')} ({' '.join(codes)}); {args.memory} now "
        f"remembers {before + len(codes)}"
    )
    return 0


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _remembered(args: argparse.Namespace) -> int:
    """List what the ``--memory`` file remembers, after forgetting ``--forget``'s tiles."""
    from collections import Counter

    from hefen.photo import PhotoError, TileMemory

    if not args.memory:
        return _fail("--forget needs --memory FILE, the memory to forget the tiles in.")
    try:
        memory = TileMemory.load(args.memory)
        if args.forget is not None:
            codes = _codes(args.forget)
            gone = memory.forget(codes)
            memory.save(args.memory)
            print(f"forgot {gone} tiles taught as {' '.join(codes)}")
    except PhotoError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"The tile memory {args.memory} cannot be written: {exc.strerror}.")
    counts = Counter(memory.codes)
    taught = "  ".join(f"{c} x{n}" if n > 1 else c for c, n in sorted(counts.items()))
    print(f"{args.memory} remembers {len(memory)} tiles{': ' + taught if taught else ''}")
    return 0


def _tiles(n: int) -> str:
    """The count of tiles in words: "1 tile", "3 tiles"."""
    return f"{n} tile" if n == 1 else f"{n} tiles"
