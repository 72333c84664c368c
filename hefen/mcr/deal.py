"""The MCR deal (competition rules): the winds rotate after every hand,
whatever happened (no dealer repeats): the South seat becomes East, East
becomes North, and so on. A game is 16 hands, four rounds of four, and the
prevalent (round) wind changes every four hands. Between rounds the players
change places by the standard MCR scheme, so that by wind each seat's
starting wind per round is::

    round:     East  South  West  North
    seat 0      E     S      N     W
    seat 1      S     E      W     N
    seat 2      W     N      E     S
    seat 3      N     W      S     E

After hand 16 a new game starts with the first row again.
"""

from __future__ import annotations

from ..position import WINDS, Position

# _MCR_START[round][seat] = index into WINDS of the seat's wind in the round's first hand.
_MCR_START: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3),
    (1, 0, 3, 2),
    (3, 2, 0, 1),
    (2, 3, 1, 0),
)


def mcr_position(index: int) -> Position:
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
