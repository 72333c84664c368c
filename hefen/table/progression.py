"""Who deals, which winds the seats have and which round it is — for the table.

The rule is the ruleset's (:meth:`hefen.ruleset.Ruleset.next_position`;
:mod:`hefen.position` for the default, :mod:`hefen.mcr.deal` for MCR's
rotation); these functions ask it for a position's ruleset.
"""

from __future__ import annotations

from hefen.position import Position
from hefen.ruleset import find_ruleset

__all__ = ["Position", "first_position", "dealer_keeps", "next_position"]


def first_position(ruleset: str) -> Position:
    """The position before the table's first hand."""
    return find_ruleset(ruleset).first_position()


def dealer_keeps(
    position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
) -> bool | None:
    """Whether the dealer keeps the deal after a hand (``winner`` None: a drawn hand).

    ``None`` where the winds rotate whatever happens (MCR).
    """
    return find_ruleset(position.ruleset).dealer_keeps(
        position, winner=winner, dealer_keeps_on_draw=dealer_keeps_on_draw
    )


def next_position(
    position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
) -> Position:
    """The position after a hand won by seat ``winner`` (``None``: a drawn hand)."""
    return find_ruleset(position.ruleset).next_position(
        position, winner=winner, dealer_keeps_on_draw=dealer_keeps_on_draw
    )
