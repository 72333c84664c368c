"""Games per second of bot-only play, per ruleset and bot (run by hand).

    python bench/game_simulate.py [--hands 40] [--seed 0]

A "game" here is one hand from the deal to a win or a draw; all four seats
are played by the named bot. Prints hands per second and the mean number of
actions per hand.
"""

from __future__ import annotations

import argparse
import time

from hefen.game import Game, GameSettings, make_bot
from hefen.ruleset import ruleset_keys


def play(rules: str, bot: str, first: int, end: int, seed: int = 0) -> int:
    """Play hands ``first`` to ``end - 1`` of four ``bot`` bots; the actions taken."""
    actions = 0
    for i in range(first, end):
        game = Game(GameSettings(rules), f"bench/{seed}/{i}", dealer=i % 4)
        bots = [make_bot(bot, i * 4 + s) for s in range(4)]
        while game.phase != "end":
            seat = game.to_act()[0]
            game.apply(bots[seat].choose(game, seat))
        actions += len(game.actions)
    return actions


def bench(rules: str, bot: str, hands: int, seed: int) -> tuple[float, float]:
    started = time.perf_counter()
    actions = play(rules, bot, 0, hands, seed)
    elapsed = time.perf_counter() - started
    return hands / elapsed, actions / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'rules':<6}{'bot':<8}{'hands/s':>10}{'actions/hand':>14}")
    for rules in ruleset_keys():
        for bot in ("simple", "strong", "expert"):
            rate, per = bench(rules, bot, args.hands, args.seed)
            print(f"{rules:<6}{bot:<8}{rate:>10.1f}{per:>14.1f}", flush=True)


if __name__ == "__main__":
    main()
