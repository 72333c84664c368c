"""Taiwan, expert − strong per seed, for paired comparisons of expert variants.

    python bench/tw_paired.py --first 40000 --seeds 3000 --out base.json
    python bench/tw_paired.py --first 40000 --seeds 3000 --set '{"tw_weigh_margin": 1.0}' \
        --out m1.json --against base.json

The duplicate design of ``bench/game_margin.py`` (its ``seed_result``, in
``--jobs`` processes), with ``ExpertBot`` attributes set from ``--set``;
writes each seed's money, win-rate and deal-in-rate differences (the mean
of its two seatings) to ``--out``, and with ``--against`` prints the paired
difference from an earlier file over the same seeds (hand for hand: zero
where the play is the same)."""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import game_margin  # noqa: E402

from hefen.game.bots import ExpertBot  # noqa: E402


def interval(xs: list[float]) -> str:
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def configure(settings: dict[str, object]) -> None:
    """Set ``ExpertBot`` attributes in a worker process."""
    for key, value in settings.items():
        setattr(ExpertBot, key, value)


def seed_row(seed: int) -> list[float]:
    """A seed's money, win-rate and deal-in-rate differences (the mean of its two seatings)."""
    x, y = game_margin.seed_result(("tw", seed, "expert", "strong", {}))
    return [(x[0] + y[0]) / 2, (x[1] + y[1]) / 2, (x[2] + y[2]) / 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--first", type=int, default=40000)
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--set", default="{}", help="ExpertBot attributes as JSON")
    parser.add_argument("--out", required=True)
    parser.add_argument("--against", help="an earlier --out to pair with")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args()
    settings = json.loads(args.set)
    for key in settings:
        if not hasattr(ExpertBot, key):
            raise SystemExit(f"ExpertBot has no attribute {key!r}")
    started = time.perf_counter()
    seeds = range(args.first, args.first + args.seeds)
    with ProcessPoolExecutor(args.jobs, initializer=configure, initargs=(settings,)) as pool:
        rows = pool.map(seed_row, seeds, chunksize=50)
        out = {str(seed): row for seed, row in zip(seeds, rows, strict=True)}
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
