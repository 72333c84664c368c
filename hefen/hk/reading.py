"""Readings of a standard hand, shared by the Hong Kong and Taiwanese rulesets.

A *reading* is one split of the hand into its sets and pair together with the
place the winning tile took in it.  Where the winning tile sits matters: on a
discard win the set it completed counts as claimed (a pung completed that way
is not concealed), and it tells an edge or closed wait from a two-sided one.
Every reading is scored and the best one is kept, so a player always gets the
most favourable placement.

>>> from hefen.hand import Hand
>>> tiles = "1m 1m 1m 2m 2m 2m 3m 3m 3m E E E N".split()
>>> h = Hand.from_dict({"rules": "hk", "hand": tiles, "win_tile": "N"})
>>> len(standard_readings(h, 4))  # three pungs, or three chows 123m
2
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..decompose import PUNG as D_PUNG
from ..decompose import standard_decompositions
from ..hand import Hand
from ..sets import CHOW, PAIR, PUNG, HandSet
from ..tiles import counts_of, rank_of

__all__ = ["HandSet", "Reading", "standard_readings", "standing_counts", "set_of_meld"]


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete standard hand."""

    sets: tuple[HandSet, ...]  # melds first, then the sets from the hand
    pair: HandSet | None  # None only for a Taiwanese four-kong win read from its melds
    win_in: HandSet | None  # the set or pair the winning tile completed

    @property
    def two_sided(self) -> bool:
        """The winning tile completed a chow from the hand at an open end
        (4-5 waiting for 3 or 6), not an edge (1-2 for 3) or closed (4-6 for 5) wait."""
        s = self.win_in
        if s is None or s.kind != CHOW or s.declared:
            return False
        return _two_sided(s, self.win_tile)

    win_tile: int = -1


def _two_sided(s: HandSet, win: int) -> bool:
    if win == s.tile:
        return rank_of(s.tile) != 7  # 89 waiting for 7 is an edge wait
    if win == s.tile + 2:
        return rank_of(s.tile) != 1  # 12 waiting for 3 is an edge wait
    return False


def set_of_meld(kind: str, first: int, concealed: bool) -> HandSet:
    return HandSet(kind, first, concealed, True)


def standing_counts(hand: Hand) -> tuple[int, ...]:
    """The concealed tiles with the winning tile, as 34 counts."""
    tiles = list(hand.concealed)
    if hand.win_tile is not None and hand.win_tile < 34:
        tiles.append(hand.win_tile)
    return tuple(counts_of(tiles))


def standard_readings(hand: Hand, n_sets: int) -> list[Reading]:
    """Every reading of ``hand`` as ``n_sets`` sets and a pair, each with every
    place the winning tile can take.  On a discard win a pung completed by the
    winning tile is not concealed."""
    win = hand.win_tile
    if win is None or win >= 34:
        return []
    melds = tuple(set_of_meld(m.kind, m.first, m.concealed) for m in hand.melds)
    need = n_sets - len(melds)
    discard = not hand.context.self_drawn
    out: list[Reading] = []
    seen: set[tuple[object, ...]] = set()
    for pair_tile, sets in standard_decompositions(standing_counts(hand)):
        if len(sets) != need:
            continue
        own = [HandSet(PUNG if k == D_PUNG else CHOW, t, True) for k, t in sets]
        pair = HandSet(PAIR, pair_tile, True)
        places: list[int | None] = []  # index into own, or None for the pair
        if pair_tile == win:
            places.append(None)
        for i, s in enumerate(own):
            if win in s.tiles() and all(s != own[j] for j in places if j is not None):
                places.append(i)
        for place in places:
            sets_here = list(own)
            win_in = pair
            if place is not None:
                s = own[place]
                if discard and s.kind == PUNG:
                    s = replace(s, concealed=False)
                sets_here[place] = s
                win_in = s
            key = (
                tuple(sorted((x.kind, x.tile, x.concealed) for x in sets_here)),
                pair_tile,
                win_in.kind,
                win_in.tile,
            )
            if key in seen:
                continue
            seen.add(key)
            out.append(Reading(melds + tuple(sets_here), pair, win_in, win))
    return out
