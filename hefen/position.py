"""Where a table stands before a hand: who deals, the seats' winds, the round.

Seats are numbered 0–3 in counter-clockwise (turn) order; seat ``i`` starts
the evening with wind ``"ESWN"[i]``. The dealer is always the seat whose
wind is East. How the deal passes is the ruleset's rule
(:meth:`hefen.ruleset.Ruleset.first_position`, ``next_position``): by
default (Hong Kong, Taiwan) the dealer keeps the deal (a repeat, 連莊) after
winning, or on a drawn hand when the table's ``dealer_keeps_on_draw`` is
true; otherwise the deal passes counter-clockwise to the next seat and the
streak resets to 0. The round wind advances after each seat has dealt once
(every four passes); after the North round a new game starts. MCR rotates
the winds after every hand (``hefen.mcr``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WINDS: tuple[str, str, str, str] = ("E", "S", "W", "N")

__all__ = ["Position", "WINDS", "dealer_position"]


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


def dealer_position(ruleset: str, index: int, passes: int, streak: int, in_round: int) -> Position:
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
