"""Taiwan, expert − strong per seed, for paired comparisons of expert variants.

    python bench/tw_paired.py --first 40000 --seeds 3000 --out base.json
    python bench/tw_paired.py --first 40000 --seeds 3000 --set '{"tw_weigh_margin": 1.0}' \
        --out m1.json --against base.json

The duplicate design of ``bench/game_margin.py`` (its ``seed_result``, one
process), with ``ExpertBot`` attributes set from ``--set``; writes each
seed's money, win-rate and deal-in-rate differences (the mean of its two
seatings) to ``--out``, and with ``--against`` prints the paired difference
from an earlier file over the same seeds (hand for hand: zero where the
play is the same)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import game_margin  # noqa: E402

from hefen.game.bots import ExpertBot  # noqa: E402


def interval(xs: list[float]) -> str:
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--first", type=int, default=40000)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--set", default="{}", help="ExpertBot attributes as JSON")
    parser.add_argument("--out", required=True)
    parser.add_argument("--against", help="an earlier --out to pair with")
    args = parser.parse_args()
    for key, value in json.loads(args.set).items():
        if not hasattr(ExpertBot, key):
            raise SystemExit(f"ExpertBot has no attribute {key!r}")
        setattr(ExpertBot, key, value)
    started = time.perf_counter()
    out: dict[str, list[float]] = {}
    for seed in range(args.first, args.first + args.seeds):
        x, y = game_margin.seed_result(("tw", seed, "expert", "strong", {}))
        out[str(seed)] = [(x[0] + y[0]) / 2, (x[1] + y[1]) / 2, (x[2] + y[2]) / 2]
    Path(args.out).write_text(json.dumps(out))
    rows = list(out.values())
    print(
        f"money {interval([r[0] for r in rows])}, win rate {statistics.mean(r[1] for r in rows):+.3f}, "
        f"deal-in rate {statistics.mean(r[2] for r in rows):+.3f} "
        f"({len(rows)} seeds, {time.perf_counter() - started:.0f} s)"
    )
    if args.against:
        before = json.loads(Path(args.against).read_text())
        keys = [k for k in out if k in before]
        diff = [out[k][0] - before[k][0] for k in keys]
        differ = sum(1 for d in diff if abs(d) > 1e-9)
        print(f"paired {interval(diff)} over {len(keys)} seeds, {differ} differ")


if __name__ == "__main__":
    main()
