"""The tile classes the photo recogniser knows, in the project's tile codes."""

from __future__ import annotations

SUITED: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10))
HONORS: tuple[str, ...] = ("E", "S", "W", "N", "C", "F", "P")
BONUS: tuple[str, ...] = tuple(f"{n}h" for n in range(1, 9))

#: The 42 tile codes, in the order of the classifier's first 42 outputs.
TILE_CODES: tuple[str, ...] = SUITED + HONORS + BONUS

#: The classifier's extra output for a crop that is not one whole tile
#: (a cut between two tiles, half a tile, table). Never reported as a tile.
NOT_A_TILE = "-"

#: All classifier outputs, in order.
MODEL_CLASSES: tuple[str, ...] = TILE_CODES + (NOT_A_TILE,)


def copies_allowed(code: str) -> int:
    """How many copies of ``code`` a mahjong set holds: one of each bonus tile, else four."""
    return 1 if code.endswith("h") else 4
