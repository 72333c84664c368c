"""How much the strong bot beats the baseline, with a 95% confidence interval.

    python bench/game_margin.py --rules mcr --seeds 200 [--jobs 2]

Duplicate seating: every seed's hand is played twice, once with the strong
bot in seats 0 and 2 (the baseline in 1 and 3) and once the other way round,
so both sides see the same walls. A seed's margin is the strong seats' mean
result per hand minus the baseline seats' mean, averaged over the two
seatings (in the ruleset's payment units: MCR points, HK money at unit 1,
TW money at 30/10). The interval is mean ± 1.96 · sd / √seeds over seeds.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

from hefen.game import Game, GameSettings, make_bot


def play(rules: str, seed: int, strong_even: bool) -> float:
    game = Game(GameSettings(rules), f"margin/{seed}", dealer=seed % 4)
    names = ["strong", "simple"] if strong_even else ["simple", "strong"]
    bots = [make_bot(names[s % 2], seed * 4 + s) for s in range(4)]
    while game.phase != "end":
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game, seat))
    assert game.outcome is not None
    change = [0.0] * 4
    for f, t, a in game.outcome.payments:
        change[f] -= a
        change[t] += a
    even, odd = (change[0] + change[2]) / 2, (change[1] + change[3]) / 2
    return even - odd if strong_even else odd - even


def seed_margin(args: tuple[str, int]) -> float:
    rules, seed = args
    return (play(rules, seed, True) + play(rules, seed, False)) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", choices=("mcr", "hk", "tw"), default="mcr")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        margins = list(pool.map(seed_margin, [(args.rules, s) for s in range(args.seeds)]))
    n = len(margins)
    mean = sum(margins) / n
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    print(
        f"{args.rules}: strong − simple = {mean:+.2f} per seat-hand, 95% CI "
        f"[{mean - half:+.2f}, {mean + half:+.2f}] over {n} seeds × 2 seatings "
        f"({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
