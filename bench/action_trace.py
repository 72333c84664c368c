"""Dump or check the action sequences of bot-only hands (run by hand).

    python bench/action_trace.py --out trace.json [--hands 30]
    python bench/action_trace.py --check trace.json

Plays, for every ruleset and bot (simple, strong, expert), ``--hands`` hands
as ``bench/game_simulate.py`` does (``Game(GameSettings(rules),
f"bench/{seed}/{i}", dealer=i % 4)``, ``make_bot(bot, i * 4 + s)``) and
writes each hand's ``game.actions`` (as strings); ``--check`` plays the same
hands and reports the first hand whose actions differ.  A speed-up of the
engine or the bots must leave these unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys

from hefen.game import Game, GameSettings, make_bot
from hefen.ruleset import ruleset_keys

BOTS = ("simple", "strong", "expert")


def play(rules: str, bot: str, i: int, seed: int = 0) -> list[str]:
    game = Game(GameSettings(rules), f"bench/{seed}/{i}", dealer=i % 4)
    bots = [make_bot(bot, i * 4 + s) for s in range(4)]
    while game.phase != "end":
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game, seat))
    return [str(a.to_dict()) for a in game.actions]


def trace(hands: int, seed: int, only: list[str] | None) -> dict[str, list[list[str]]]:
    out = {}
    for rules in ruleset_keys():
        for bot in BOTS:
            key = f"{rules}/{bot}"
            if only and key not in only:
                continue
            out[key] = [play(rules, bot, i, seed) for i in range(hands)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out")
    parser.add_argument("--check")
    parser.add_argument("--only", nargs="*", help="rules/bot keys, e.g. hk/strong")
    args = parser.parse_args()
    if args.check:
        with open(args.check) as f:
            want = json.load(f)
        keys = args.only or list(want)
        got = trace(len(next(iter(want.values()))), args.seed, keys)
        bad = 0
        for key in keys:
            for i, (a, b) in enumerate(zip(want[key], got[key], strict=True)):
                if a != b:
                    n = next(
                        j
                        for j, (x, y) in enumerate(zip(a + [""], b + [""], strict=False))
                        if x != y
                    )
                    print(
                        f"{key} hand {i}: differs at action {n}: {a[n : n + 1]} != {b[n : n + 1]}"
                    )
                    bad += 1
                    break
            else:
                print(f"{key}: same ({len(want[key])} hands)")
        sys.exit(1 if bad else 0)
    data = trace(args.hands, args.seed, args.only)
    with open(args.out, "w") as f:
        json.dump(data, f)
    print(f"wrote {sum(len(v) for v in data.values())} hands to {args.out}")


if __name__ == "__main__":
    main()
