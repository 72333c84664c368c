"""Tiles: the 34 suit and honour tiles and the 8 bonus tiles.

A tile is a small int (``Tile`` is an ``IntEnum`` over the same values):

====== ==========================================
0–8    characters 1m…9m
9–17   dots 1p…9p
18–26  bamboo 1s…9s
27–30  winds E S W N
31–33  dragons C (red 中), F (green 發), P (white 白)
34–41  bonus tiles 1h…8h (spring … winter, plum … bamboo)
====== ==========================================

>>> Tile.from_str("3s")
<Tile.S3: 20>
>>> str(Tile.from_str("7z"))
'C'
>>> tile_to_str(tile_from_str("\U0001f004"))
'C'
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from .errors import safe_repr

__all__ = [
    "Tile",
    "TileError",
    "tile_from_str",
    "tile_to_str",
    "tiles_from_str",
    "suit_of",
    "rank_of",
    "is_suited",
    "is_honor",
    "is_terminal",
    "is_terminal_or_honor",
    "is_wind",
    "is_dragon",
    "is_bonus",
    "WINDS",
    "DRAGONS",
    "HONORS",
    "TERMINALS",
    "ORPHANS",
    "NUM_KINDS",
    "BONUS_SEAT",
    "counts_of",
]


class TileError(ValueError):
    """A tile code that hefen does not know."""


NUM_KINDS = 34  # suit and honour tile kinds
M, P, S = 0, 9, 18
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
HONORS = WINDS + DRAGONS
TERMINALS = (0, 8, 9, 17, 18, 26)
ORPHANS = TERMINALS + HONORS
BONUS_FIRST = 34

_SUIT_LETTERS = "mps"
_HONOR_LETTERS = "ESWNCFP"

_CODES: list[str] = (
    [f"{r}{s}" for s in _SUIT_LETTERS for r in range(1, 10)]
    + list(_HONOR_LETTERS)
    + [f"{r}h" for r in range(1, 9)]
)

_PARSE: dict[str, int] = {code: i for i, code in enumerate(_CODES)}
# riichi honour order: 1z E, 2z S, 3z W, 4z N, 5z white, 6z green, 7z red
for _i, _t in enumerate((EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED), start=1):
    _PARSE[f"{_i}z"] = _t
# Unicode mahjong tiles U+1F000…U+1F029
_UNICODE_ORDER = (
    [EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE]
    + list(range(0, 9))  # characters
    + list(range(18, 27))  # bamboo
    + list(range(9, 18))  # dots
    + [
        38,
        39,
        41,
        40,
        34,
        35,
        36,
        37,
    ]  # plum orchid bamboo chrysanthemum spring summer autumn winter
)
for _i, _t in enumerate(_UNICODE_ORDER):
    _PARSE[chr(0x1F000 + _i)] = _t
UNICODE: dict[int, str] = {t: chr(0x1F000 + i) for i, t in enumerate(_UNICODE_ORDER)}

# Seat of each bonus tile: 1h..4h and 5h..8h belong to E, S, W, N in turn.
BONUS_SEAT: dict[int, int] = {BONUS_FIRST + i: WINDS[i % 4] for i in range(8)}


class Tile(IntEnum):
    """One tile; ``str(tile)`` is its interchange code."""

    M1, M2, M3, M4, M5, M6, M7, M8, M9 = range(0, 9)
    P1, P2, P3, P4, P5, P6, P7, P8, P9 = range(9, 18)
    S1, S2, S3, S4, S5, S6, S7, S8, S9 = range(18, 27)
    E, S, W, N, C, F, P = range(27, 34)
    H1, H2, H3, H4, H5, H6, H7, H8 = range(34, 42)

    @classmethod
    def from_str(cls, code: str) -> Tile:
        return cls(tile_from_str(code))

    def __str__(self) -> str:
        return _CODES[self]

    @property
    def unicode(self) -> str:
        return UNICODE[self]


def tile_from_str(code: str) -> int:
    """Parse one tile code (``3s``, ``E``, ``7z``, ``1h`` or a Unicode tile)."""
    if not isinstance(code, str):
        raise TileError(
            f"A tile must be given as a code such as '3s' or 'E', not {safe_repr(code)}."
        )
    t = _PARSE.get(code.strip())
    if t is None:
        raise TileError(
            f"{safe_repr(code)} is not a tile code (use 1m-9m, 1p-9p, 1s-9s, E S W N, C F P, 1h-8h)."
        )
    return t


def tile_to_str(t: int) -> str:
    return _CODES[t]


def tiles_from_str(codes: Iterable[str]) -> list[int]:
    return [tile_from_str(c) for c in codes]


def suit_of(t: int) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honours, 4 bonus."""
    if t < 27:
        return t // 9
    return 3 if t < 34 else 4


def rank_of(t: int) -> int:
    """1–9 for suit tiles, 0 otherwise."""
    return t % 9 + 1 if t < 27 else 0


def is_suited(t: int) -> bool:
    return t < 27


def is_honor(t: int) -> bool:
    return 27 <= t < 34


def is_wind(t: int) -> bool:
    return 27 <= t <= 30


def is_dragon(t: int) -> bool:
    return 31 <= t <= 33


def is_bonus(t: int) -> bool:
    return t >= 34


def is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def is_terminal_or_honor(t: int) -> bool:
    return (t < 27 and t % 9 in (0, 8)) or 27 <= t < 34


def counts_of(tiles: Iterable[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c
