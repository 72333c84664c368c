"""How much the strong bot beats the baseline, with 95% confidence intervals.

    python bench/game_margin.py --rules hk --seeds 300 [--jobs 2] [--first 0]

Duplicate seating: every seed's hand is played twice, once with the strong
bot in seats 0 and 2 (the baseline in 1 and 3) and once the other way round,
so both sides see the same walls. A seed's margin is the strong seats' mean
result per hand minus the baseline seats' mean, averaged over the two
seatings (in the ruleset's payment units: MCR points, HK money at unit 1,
TW money at 30/10). The interval is mean ± 1.96 · sd / √seeds over seeds.

Besides the money margin it prints two lower-variance figures with the same
paired design: the difference in win rate (wins per seat-hand) and in
deal-in rate (discards that another seat won on, per seat-hand), and the
mean value of each side's wins. ``--a``/``--b`` compare other bots.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from hefen.game import Game, GameSettings, make_bot
from hefen.game.match import interval, seat_changes
from hefen.ruleset import DEFAULT_RULESET, ruleset_keys

# per seating: (money a − b, wins a − b, deal-ins a − b, [a win values], [b win values],
# 1.0 for an exhaustive draw)
Seating = tuple[float, float, float, list[float], list[float], float]


def play_seating(
    rules: str, seed: int, a_even: bool, a: str, b: str, options: dict[str, Any] | None = None
) -> tuple[Game, set[int]]:
    """One seating of a seed's hand played to its end: bot ``a`` in seats 0
    and 2 (``a_even``) or 1 and 3, ``b`` in the others; the game and a's
    seats."""
    game = Game(GameSettings(rules, options=dict(options or {})), f"margin/{seed}", dealer=seed % 4)
    names = [a, b] if a_even else [b, a]
    bots = [make_bot(names[s % 2], seed * 4 + s) for s in range(4)]
    while game.phase != "end":
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game, seat))
    return game, {0, 2} if a_even else {1, 3}


def play(
    rules: str,
    seed: int,
    a_even: bool,
    a: str = "strong",
    b: str = "simple",
    options: dict[str, Any] | None = None,
) -> Seating:
    game, side_a = play_seating(rules, seed, a_even, a, b, options)
    out = game.outcome
    assert out is not None
    change = seat_changes(out.payments)
    wins = [0.0, 0.0]  # a, b
    deal_ins = [0.0, 0.0]
    values: tuple[list[float], list[float]] = ([], [])
    for w in out.wins:
        i = 0 if w.seat in side_a else 1
        wins[i] += 1
        values[i].append(float(w.result.total))
    if out.wins and out.discarder is not None:
        deal_ins[0 if out.discarder in side_a else 1] += 1
    money_a = sum(change[s] for s in side_a) / 2
    money_b = sum(change[s] for s in range(4) if s not in side_a) / 2
    return (
        money_a - money_b,
        (wins[0] - wins[1]) / 2,
        (deal_ins[0] - deal_ins[1]) / 2,
        values[0],
        values[1],
        1.0 if out.kind == "draw" else 0.0,
    )


def seed_result(args: tuple[str, int, str, str, dict[str, Any]]) -> tuple[Seating, Seating]:
    rules, seed, a, b, options = args
    return play(rules, seed, True, a, b, options), play(rules, seed, False, a, b, options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rules", choices=ruleset_keys(), default=DEFAULT_RULESET)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--a", default="strong", help="the bot measured")
    parser.add_argument("--b", default="simple", help="the bot it is measured against")
    parser.add_argument("--options", default="{}", help="table options as JSON")
    args = parser.parse_args()
    options = json.loads(args.options)
    started = time.perf_counter()
    seeds = range(args.first, args.first + args.seeds)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(
            pool.map(seed_result, [(args.rules, s, args.a, args.b, options) for s in seeds])
        )
    n = len(results)
    # a seed's figure: the mean of its two seatings (each per seat-hand)
    money = [(x[0] + y[0]) / 2 for x, y in results]
    wins = [(x[1] + y[1]) / 2 for x, y in results]
    deals = [(x[2] + y[2]) / 2 for x, y in results]
    va = [v for x, y in results for v in x[3] + y[3]]
    vb = [v for x, y in results for v in x[4] + y[4]]
    name = f"{args.a} − {args.b}" + (f" {args.options}" if options else "")
    for label, xs, fmt in (
        ("money", money, "+.2f"),
        ("win rate", wins, "+.3f"),
        ("deal-in rate", deals, "+.3f"),
    ):
        mean, half = interval(xs)
        print(
            f"{args.rules}: {name} {label} = {mean:{fmt}} per seat-hand, 95% CI "
            f"[{mean - half:{fmt}}, {mean + half:{fmt}}]"
        )
    hands = 4 * n  # seat-hands per side: 2 seats × 2 seatings
    print(
        f"{args.rules}: wins per seat-hand {args.a} {len(va) / hands:.3f} "
        f"(mean value {sum(va) / max(1, len(va)):.1f}), {args.b} {len(vb) / hands:.3f} "
        f"(mean value {sum(vb) / max(1, len(vb)):.1f}); {n} seeds × 2 seatings "
        f"({time.perf_counter() - started:.0f} s)"
    )
    draws = sum(x[5] + y[5] for x, y in results) / (2 * n)
    print(f"{args.rules}: draw rate {draws:.3f} of hands (both seatings)")


if __name__ == "__main__":
    main()
