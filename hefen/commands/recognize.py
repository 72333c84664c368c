"""``hefen recognize``: read the tiles in a photo of a mahjong hand."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

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
        "--tile",
        nargs="+",
        metavar="IMG",
        help="classify pictures of single tiles instead: one line per picture",
    )
    parser.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"hefen recognize: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from hefen.photo import PhotoError, classify_tile, recognize

    if args.tile and args.photo:
        return _fail("Give either a photo or --tile pictures, not both.")
    if args.tile:
        status = 0
        for path in args.tile:
            try:
                code, confidence, alternatives = classify_tile(path)
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
                print(f"{path} {code} {confidence:.2f}")
        return status
    if not args.photo:
        return _fail("Give the photo to read, or --tile IMG to classify single tiles.")
    try:
        result = recognize(args.photo)
    except PhotoError as exc:
        return _fail(str(exc))
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    for number, group in enumerate(result.groups, 1):
        parts = []
        for t in group.tiles:
            text = f"{t.tile} {t.confidence:.2f}"
            if t.confidence < UNSURE:
                others = ", ".join(f"{c} {p:.2f}" for c, p in t.alternatives)
                text += f" (unsure; or {others})"
            parts.append(text)
        print(f"group {number} ({len(group.tiles)} tiles): " + "  ".join(parts))
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
