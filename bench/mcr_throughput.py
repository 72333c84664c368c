"""MCR scoring throughput: hefen vs pymahjonggb (the C++ calculator), in-process.

Run by hand:  python bench/mcr_throughput.py [--hands 20000] [--passes 5]

The same generated hands (hefen.testing.generate, MIL variant) are scored by
both.  hefen is measured twice: *cold* (first pass, cache empty: every hand
decomposed and scored) and *warm* (later passes: the canonical-hand cache
answers repeated hands, as in a game simulation or a waits analysis that
scores the same hands again).  pymahjonggb has no cache; its passes are all
the same work.
"""

from __future__ import annotations

import argparse
import platform
import time

from hefen.scoring import clear_cache, score, score_uncached
from hefen.testing.generate import peer_args, random_mcr_hands


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    hands = [{**h, "options": {"variant": "mil"}} for h in random_mcr_hands(args.hands, args.seed)]
    print(f"{len(hands)} hands, python {platform.python_version()}, {platform.machine()}")

    t = time.perf_counter()
    for h in hands:
        score_uncached(h)
    cold = rate(len(hands), time.perf_counter() - t)

    clear_cache()
    for h in hands:
        score(h)
    t = time.perf_counter()
    for _ in range(args.passes):
        for h in hands:
            score(h)
    warm = rate(len(hands) * args.passes, time.perf_counter() - t)

    peer = None
    try:
        import MahjongGB

        calls = [peer_args(h) for h in hands]
        f = MahjongGB.MahjongFanCalculator
        t = time.perf_counter()
        for _ in range(args.passes):
            for c in calls:
                f(**c)
        peer = rate(len(calls) * args.passes, time.perf_counter() - t)
    except ImportError:
        print("pymahjonggb not installed: pip install pymahjonggb")

    print(f"hefen cold (every hand scored):    {cold:>10,.0f} hands/s")
    print(f"hefen warm (canonical-hand cache): {warm:>10,.0f} hands/s")
    if peer:
        print(f"pymahjonggb (C++):                 {peer:>10,.0f} hands/s")
        print(f"ratio cold/peer: {cold / peer:.4f}   warm/peer: {warm / peer:.3f}")


if __name__ == "__main__":
    main()
