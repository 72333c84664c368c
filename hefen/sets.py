"""A set of a reading: a chow, pung or kong (or the pair), shared by every
ruleset's detection code."""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import tile_to_str

__all__ = ["CHOW", "PUNG", "KONG", "PAIR", "HandSet", "set_label"]

CHOW, PUNG, KONG, PAIR = "chow", "pung", "kong", "pair"
_SIZE = {CHOW: 3, PUNG: 3, KONG: 4, PAIR: 2}


@dataclass(frozen=True, slots=True)
class HandSet:
    """One set (or the pair) of a reading."""

    kind: str  # chow, pung, kong or pair
    tile: int  # the first tile
    concealed: bool  # held concealed: not claimed, and not completed by a discard
    declared: bool = False  # a meld, as opposed to a set formed from the hand

    @property
    def pung_like(self) -> bool:
        return self.kind in (PUNG, KONG)

    def tiles(self) -> list[int]:
        t = self.tile
        if self.kind == CHOW:
            return [t, t + 1, t + 2]
        return [t] * _SIZE[self.kind]

    def label(self) -> str:
        """The set in the compact notation: ``[CCC]`` claimed, ``(1111s)`` a
        concealed kong, ``123m`` a set or pair from the hand."""
        lab = _LABELS.get((self.kind, self.tile, self.concealed and self.declared, self.declared))
        if lab is None:
            lab = set_label(self.kind, self.tile, self.concealed, self.declared)
        return lab


_LABELS: dict[tuple[str, int, bool, bool], str] = {}


def set_label(kind: str, tile: int, concealed: bool, declared: bool) -> str:
    key = (kind, tile, concealed and declared, declared)
    lab = _LABELS.get(key)
    if lab is None:
        code = tile_to_str(tile)
        n = _SIZE[kind]
        if len(code) == 1:
            body = code * n
        else:
            ranks = [tile + i for i in range(3)] if kind == CHOW else [tile] * n
            body = "".join(tile_to_str(t)[0] for t in ranks) + code[1]
        if declared:
            body = f"({body})" if concealed else f"[{body}]"
        lab = _LABELS[key] = body
    return lab
