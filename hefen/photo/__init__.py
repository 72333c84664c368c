"""Photo scoring: recognise the mahjong tiles in a photo.

    >>> from hefen.photo import recognize
    >>> recognize("hand.jpg").tiles          # doctest: +SKIP
    ['1m', '2m', '3m', ...]

See ``docs/photo.md`` for how it works and how the model is trained.
"""

from __future__ import annotations

from hefen.photo.classes import TILE_CODES
from hefen.photo.errors import PhotoError
from hefen.photo.memory import TileMemory
from hefen.photo.pipeline import (
    Recognition,
    RecognizedTile,
    TileGroup,
    classify_tile,
    load_image,
    recognize,
    teach,
    teach_tile,
)

__all__ = [
    "TILE_CODES",
    "PhotoError",
    "Recognition",
    "RecognizedTile",
    "TileGroup",
    "TileMemory",
    "classify_tile",
    "load_image",
    "recognize",
    "teach",
    "teach_tile",
]
