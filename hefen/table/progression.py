"""Who deals, which winds the seats have and which round it is.

Seats are numbered 0–3 in counter-clockwise (turn) order; seat ``i`` starts
the evening with wind ``"ESWN"[i]``. The dealer is always the seat whose
wind is East.

* **MCR** (competition rules): the winds rotate after every hand whatever
  happened (no dealer repeats): the South seat becomes East, East becomes
  North, and so on. A game is 16 hands, four rounds of four, and the
  prevalent (round) wind changes every four hands. Between rounds the
  players change places by the standard MCR scheme, so that by wind each
  seat's starting wind per round is::

      round:     East  South  West  North
      seat 0      E     S      N     W
      seat 1      S     E      W     N
      seat 2      W     N      E     S
      seat 3      N     W      S     E

  After hand 16 a new game starts with the first row again.
* **HK and TW**: the dealer keeps the deal (a repeat, 連莊) after winning, or
  on a drawn hand when the table's ``dealer_keeps_on_draw`` is true (the
  default); otherwise the deal passes counter-clockwise to the next seat and
  the streak resets to 0. The round wind advances after each seat has dealt
  once (every four passes); after the North round a new game starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hefen.table.settlement import WINDS

# _MCR_START[round][seat] = index into WINDS of the seat's wind in the round's first hand.
_MCR_START: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),
    (1, 0, 3, 2),
    (3, 2, 0, 1),
    (2, 3, 1, 0),
)


@dataclass(frozen=True)
class Position:
    """Where the table stands before a hand (computed, never stored as truth).

    ``hand_number`` counts the hands played at the table from 1; ``game``
    counts complete cycles of four rounds from 1; ``seat_winds[i]`` is the
    wind of seat ``i``; ``dealer`` is the seat index of the dealer (East);
    ``dealer_streak`` the number of consecutive repeats of that dealer;
    ``hand_in_round`` counts from 1 (for HK/TW it is the number of hands
    played in the round so far plus one, repeats included).
    """

    ruleset: str
    hand_number: int
    game: int
    round_wind: str
    dealer: int
    dealer_streak: int
    seat_winds: tuple[str, str, str, str]
    hand_in_round: int
    passes: int = 0

    def seat_of_wind(self, wind: str) -> int:
        return self.seat_winds.index(wind)

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_number": self.hand_number,
            "game": self.game,
            "round_wind": self.round_wind,
            "dealer": self.dealer,
            "dealer_streak": self.dealer_streak,
            "seat_winds": list(self.seat_winds),
            "hand_in_round": self.hand_in_round,
        }


def _mcr_position(index: int) -> Position:
    game, in_game = divmod(index, 16)
    rnd, hand = divmod(in_game, 4)
    winds = tuple(WINDS[(start - hand) % 4] for start in _MCR_START[rnd])
    assert len(winds) == 4
    seat_winds: tuple[str, str, str, str] = (winds[0], winds[1], winds[2], winds[3])
    return Position(
        ruleset="mcr",
        hand_number=index + 1,
        game=game + 1,
        round_wind=WINDS[rnd],
        dealer=seat_winds.index("E"),
        dealer_streak=0,
        seat_winds=seat_winds,
        hand_in_round=hand + 1,
    )


def _dealer_position(ruleset: str, index: int, passes: int, streak: int, in_round: int) -> Position:
    dealer = passes % 4
    winds = tuple(WINDS[(seat - dealer) % 4] for seat in range(4))
    seat_winds: tuple[str, str, str, str] = (winds[0], winds[1], winds[2], winds[3])
    return Position(
        ruleset=ruleset,
        hand_number=index + 1,
        game=passes // 16 + 1,
        round_wind=WINDS[(passes // 4) % 4],
        dealer=dealer,
        dealer_streak=streak,
        seat_winds=seat_winds,
        hand_in_round=in_round,
        passes=passes,
    )


def first_position(ruleset: str) -> Position:
    """The position before the table's first hand."""
    if ruleset == "mcr":
        return _mcr_position(0)
    return _dealer_position(ruleset, 0, 0, 0, 1)


def dealer_keeps(
    position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
) -> bool | None:
    """Whether the dealer keeps the deal after a hand (``winner`` None: a drawn hand).

    ``None`` for MCR, where the winds rotate whatever happens.
    """
    if position.ruleset == "mcr":
        return None
    if winner is None:
        return dealer_keeps_on_draw
    return winner == position.dealer


def next_position(
    position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
) -> Position:
    """The position after a hand won by seat ``winner`` (``None``: a drawn hand)."""
    index = position.hand_number  # index of the next hand (0-based)
    if position.ruleset == "mcr":
        return _mcr_position(index)
    if dealer_keeps(position, winner=winner, dealer_keeps_on_draw=dealer_keeps_on_draw):
        return _dealer_position(
            position.ruleset,
            index,
            position.passes,
            position.dealer_streak + 1,
            position.hand_in_round + 1,
        )
    passes = position.passes + 1
    in_round = 1 if passes % 4 == 0 else position.hand_in_round + 1
    return _dealer_position(position.ruleset, index, passes, 0, in_round)
