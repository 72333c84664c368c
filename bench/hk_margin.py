"""Hong Kong expert − strong with the limit hands shown (issue #18).

    python bench/hk_margin.py --first 0 --seeds 1000 [--set '{"hk_orphans_pace": 0.55}']

The duplicate design of ``bench/game_margin.py`` (the same walls, seats
rotated; ``margin/N`` seeds), and beside its money margin the margin with
every win's fan cut to 8 (``clip8``: the limit hands' weight taken out, so a
change in ordinary play shows through), the win and deal-in rates of each
side, and the limit hands each side won (``pattern@d`` on a discard, ``@s``
self-drawn). ``--set`` sets ``ExpertBot`` attributes (the switches measured
in docs/game.md) for the run.
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from game_margin import play_seating

from hefen.game.bots import ExpertBot
from hefen.game.match import interval, seat_changes

# money a − b, clip8 a − b, wins (a, b), deal-ins (a, b), fans (a, b), draw, limits (a, b)
Seating = tuple[float, float, list[int], list[int], list[list[int]], bool, list[list[str]]]


def play(seed: int, a_even: bool, a: str, b: str, switches: dict[str, Any]) -> Seating:
    for k, v in switches.items():
        setattr(ExpertBot, k, v)
    game, side_a = play_seating("hk", seed, a_even, a, b)
    out = game.outcome
    assert out is not None
    change = seat_changes(out.payments)
    cut = {w.seat: 2.0 ** (8 - w.result.total) if w.result.total > 8 else 1.0 for w in out.wins}
    clip = seat_changes([(f, t, amount * cut.get(t, 1.0)) for f, t, amount in out.payments])
    wins, deals = [0, 0], [0, 0]
    fans: list[list[int]] = [[], []]
    limits: list[list[str]] = [[], []]
    for w in out.wins:
        i = 0 if w.seat in side_a else 1
        wins[i] += 1
        fans[i].append(w.result.total)
        if w.result.limit:
            name = next((p.id for p in w.result.patterns if p.value >= w.result.total), "limit")
            limits[i].append(name + ("@d" if out.discarder is not None else "@s"))
    if out.wins and out.discarder is not None:
        deals[0 if out.discarder in side_a else 1] += 1

    def margin(ch: list[float]) -> float:
        return sum(ch[s] for s in side_a) / 2 - sum(ch[s] for s in range(4) if s not in side_a) / 2

    return margin(change), margin(clip), wins, deals, fans, out.kind == "draw", limits


def seed_result(args: tuple[int, str, str, dict[str, Any]]) -> tuple[Seating, Seating]:
    seed, a, b, switches = args
    return play(seed, True, a, b, switches), play(seed, False, a, b, switches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--a", default="expert")
    parser.add_argument("--b", default="strong")
    parser.add_argument("--set", default="{}", help="ExpertBot attributes as JSON")
    args = parser.parse_args()
    switches = json.loads(args.set)
    started = time.perf_counter()
    jobs = [(s, args.a, args.b, switches) for s in range(args.first, args.first + args.seeds)]
    with ProcessPoolExecutor(args.jobs) as pool:
        res = list(pool.map(seed_result, jobs, chunksize=25))
    n = len(res)
    hands = 4 * n  # seat-hands per side
    print(f"hk: {args.a} − {args.b} {args.set}, seeds {args.first}–{args.first + n - 1} × 2")
    for label, i in (("money", 0), ("clip8 money", 1)):
        mean, half = interval([(x[i] + y[i]) / 2 for x, y in res])  # type: ignore[operator]
        print(f"  {label} {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] per seat-hand")
    for label, i in (("win rate", 2), ("deal-in rate", 3)):
        diff = [(x[i][0] - x[i][1] + y[i][0] - y[i][1]) / 4 for x, y in res]  # type: ignore[index]
        mean, half = interval(diff)
        ra = sum(x[i][0] + y[i][0] for x, y in res) / hands  # type: ignore[index]
        rb = sum(x[i][1] + y[i][1] for x, y in res) / hands  # type: ignore[index]
        print(
            f"  {label} {ra:.4f} / {rb:.4f}, diff {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}]"
        )
    for i, name in ((0, args.a), (1, args.b)):
        fans = [f for x, y in res for f in x[4][i] + y[4][i]]
        won = collections.Counter(lim for x, y in res for lim in x[6][i] + y[6][i])
        print(
            f"  {name}: mean fan {sum(fans) / max(1, len(fans)):.2f}, limits {sorted(won.items())}"
        )
    draws = sum(x[5] + y[5] for x, y in res) / (2 * n)
    print(f"  draw rate {draws:.3f} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
