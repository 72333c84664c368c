"""A match: hands played one after another, settled into a table ledger.

The seating, dealer rotation, streaks and round winds come from
:mod:`hefen.table.progression` (the same progression a scored table uses),
and every finished hand is recorded through the table's pure, storage-free
layer: :func:`hefen.table.core.plan_create` / :func:`~hefen.table.core.plan_record`
build the ``table_created`` / ``hand_recorded`` events and
:func:`hefen.table.fold` turns them into the :class:`~hefen.table.TableState`
(hands, payments, running balances, next position). The events could be
appended to a :class:`hefen.table.TableStore` unchanged.

How a hand maps onto the ledger: a win is recorded with its winner, its
discarder (``None`` for a self-draw) and the winner's hand object; the
table scores it again with ``hefen.score`` and settles from the result's
``payments`` — the engine checks that these equal its own. A draw is a
drawn hand. Two cases the table's one-winner record cannot state are
written into the same event: several winners on one discard (a table
setting) — the first in turn order is the recorded winner and the others'
payments are added to the hand's payments; and a Taiwanese four-kong end
won by the dealer, where the deal passes although the dealer won — the
match keeps its own position for it (``Match.position``).

Importing :mod:`hefen.game` loads no part of :mod:`hefen.table` (whose
package also holds the database store): the position is the ruleset's
(:meth:`hefen.ruleset.Ruleset.next_position`) and the ledger's pure layer
is imported where a match first builds or folds its events.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..position import Position
from ..tiles import tile_from_str, tile_to_str
from .engine import Game, GameSettings

if TYPE_CHECKING:  # pragma: no cover
    from ..table.core import Event, TableState

__all__ = ["Match", "HandPlayed", "interval", "seat_changes"]


@dataclass(frozen=True)
class HandPlayed:
    number: int
    position: Position
    game: Game


@dataclass
class Match:
    """Hands at one table under ``settings``; ``seed`` fixes every wall.

    ``hands`` is how many hands to play (MCR: 16 make a full game of four
    rounds). Hand ``n``'s wall is shuffled from the seed ``f"{seed}/{n}"``.
    """

    settings: GameSettings
    seed: int | str = 0
    hands: int = 4
    dealer_keeps_on_draw: bool = True
    events: list[Event] = field(default_factory=list)
    played: list[HandPlayed] = field(default_factory=list)
    position: Position | None = None

    def __post_init__(self) -> None:
        from ..table.core import Event, plan_create

        payload = plan_create(
            code="GAME",
            ruleset=self.settings.rules,
            options=self.settings.options,
            dealer_keeps_on_draw=self.dealer_keeps_on_draw,
            names=None,
            host_token_hash="",
        )
        self.events = [Event(1, "table_created", "", "engine", payload)]
        self.position = self.settings.ruleset.first_position()

    @property
    def state(self) -> TableState:
        from ..table.core import fold

        return fold(self.events)

    @property
    def finished(self) -> bool:
        return len(self.played) >= self.hands

    @property
    def balances(self) -> tuple[Any, ...]:
        return self.state.balances

    def new_game(self) -> Game:
        """The next hand, dealt at the match's position."""
        pos = self.position
        assert pos is not None
        winds = tuple(tile_from_str(w) for w in pos.seat_winds)
        return Game(
            self.settings,
            f"{self.seed}/{pos.hand_number}",
            dealer=pos.dealer,
            seat_winds=(winds[0], winds[1], winds[2], winds[3]),
            round_wind=tile_from_str(pos.round_wind),
            dealer_streak=pos.dealer_streak,
        )

    def record(self, game: Game) -> TableState:
        """Settle a finished hand into the ledger and move to the next position."""
        from ..table.core import Event, fold, plan_outcome

        outcome = game.outcome
        if outcome is None:
            raise ValueError("Only a finished hand can be recorded.")
        pos = self.position
        assert pos is not None
        state = fold(self.events)
        if outcome.kind in ("draw", "false_win"):
            payload = {"outcome": plan_outcome(state, pos, state.settings, draw=True)}
            # a false win's penalty is settled with the drawn hand it ends in
            payload["outcome"]["payments"] = [
                {"from": f, "to": t, "amount": a} for f, t, a in outcome.payments
            ]
        else:
            first = outcome.wins[0]
            result = first.result.to_dict()

            def same(obj: Mapping[str, Any]) -> dict[str, Any]:
                from ..scoring import score

                again = score(dict(obj)).to_dict()
                if again.get("payments") != result.get("payments"):
                    raise ValueError("The table settled the hand differently from the engine.")
                return again

            payload = {
                "outcome": plan_outcome(
                    state,
                    pos,
                    state.settings,
                    draw=False,
                    winner=first.seat,
                    discarder=outcome.discarder,
                    hand=first.hand.to_dict(),
                    score=same,
                )
            }
            for extra in outcome.wins[1:]:
                for pay in extra.result.payments:
                    payload["outcome"]["payments"].append(
                        {
                            "from": game.seat_winds.index(tile_from_str(pay.frm)),
                            "to": game.seat_winds.index(tile_from_str(pay.to)),
                            "amount": pay.amount,
                        }
                    )
        seq = self.events[-1].seq + 1
        self.events.append(Event(seq, "hand_recorded", "", "engine", payload))
        self.played.append(HandPlayed(pos.hand_number, pos, game))
        winner = outcome.wins[0].seat if outcome.wins else None
        if self.settings.dealer_among_winners_keeps and pos.dealer in outcome.winners:
            winner = pos.dealer  # the dealer among several winners keeps the deal
        if outcome.dealer_passes and winner == pos.dealer:
            winner = game.next_seat(pos.dealer)  # the deal passes (TW four kongs)
        self.position = self.settings.ruleset.next_position(
            pos, winner=winner, dealer_keeps_on_draw=self.dealer_keeps_on_draw
        )
        return fold(self.events)

    def play(
        self,
        choose: Callable[[Game, int], Any],
        on_hand: Callable[[HandPlayed], None] | None = None,
    ) -> TableState:
        """Play the remaining hands with ``choose(game, seat) -> Action``."""
        while not self.finished:
            game = self.new_game()
            play_out(game, choose)
            self.record(game)
            if on_hand is not None:
                on_hand(self.played[-1])
        return self.state

    def header(self) -> dict[str, Any]:
        return {
            "type": "match",
            "version": 1,
            "seed": self.seed,
            "hands": self.hands,
            "dealer_keeps_on_draw": self.dealer_keeps_on_draw,
            "settings": self.settings.to_dict(),
        }


def play_out(game: Game, choose: Callable[[Game, int], Any]) -> None:
    """Ask ``choose`` for every seat's action until the hand ends."""
    while game.phase != "end":
        seat = game.to_act()[0]
        game.apply(choose(game, seat))


def winds_of(game: Game) -> list[str]:
    return [tile_to_str(w) for w in game.seat_winds]


def seat_changes(payments: Sequence[tuple[int, int, int | float]]) -> list[float]:
    """What each seat gained (or lost) through ``payments`` (from, to, amount)."""
    change = [0.0] * 4
    for frm, to, amount in payments:
        change[frm] -= amount
        change[to] += amount
    return change


def interval(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95% interval,
    1.96 · sd / √n (0 for a single value).

    >>> mean, half = interval([1.0, 3.0])
    >>> mean, round(half, 2)
    (2.0, 1.96)
    """
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)
