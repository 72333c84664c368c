"""Bot-only hands per second against another checkout of hefen (run by hand).

    git worktree add /tmp/base 203b403     # the code before issue #17's work
    (cd /tmp/base && python setup.py build_ext --inplace)
    python bench/bot_speed.py --base /tmp/base [--rules tw] [--pairs 5] [--hands 60]

For each ruleset, ``--pairs`` times: one fresh process on the base tree, then
one on this tree (alternating, so that a machine whose speed drifts moves
both alike), each pinned to one core where the OS allows, each playing three
warm-up hands and then ``--hands`` hands of four ``--bot`` bots with
``bench/game_simulate.py``'s ``play`` (``Game(GameSettings(rules),
f"bench/0/{i}", dealer=i % 4)``, ``make_bot(bot, i * 4 + s)``; the base
tree's ``hefen``, this tree's bench).  A process
reports hands per second of CPU time (a busy machine's other work is not
counted; its effect on caches still is) and the actions per hand, which
must be the same on both sides (the same play).  Prints each pair, its
ratio, and the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, os, sys, time
try:
    os.sched_setaffinity(0, {int(sys.argv[4])})
except (AttributeError, OSError, ValueError):
    pass
sys.path.insert(0, sys.argv[5])
from game_simulate import play  # this tree's bench, the other tree's hefen
rules, bot, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
play(rules, bot, 0, 3)
t = time.process_time()
actions = play(rules, bot, 3, 3 + n)
dt = time.process_time() - t
print(json.dumps({"rate": n / dt, "actions": actions / n}))
"""


def run(tree: Path, rules: str, bot: str, hands: int, cpu: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("HEFEN_PURE", None)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, rules, bot, str(hands), str(cpu), str(HERE / "bench")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", type=Path, required=True, help="the other checkout, built")
    parser.add_argument("--rules", nargs="*", default=["mcr", "hk", "tw"])
    parser.add_argument("--bot", default="strong")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--cpu", type=int, default=0, help="the core to pin to")
    args = parser.parse_args()
    base = args.base.resolve()
    if not (base / "hefen").is_dir():
        parser.error(f"{base} is not a checkout of hefen (no hefen/ folder there)")
    for rules in args.rules:
        print(f"{rules}, four {args.bot} bots, {args.hands} hands after 3 warm-up, CPU time:")
        pairs = []
        for _ in range(args.pairs):
            b = run(base, rules, args.bot, args.hands, args.cpu)
            m = run(HERE, rules, args.bot, args.hands, args.cpu)
            same = "" if abs(b["actions"] - m["actions"]) < 1e-9 else "  (other play!)"
            print(
                f"  base {b['rate']:8.1f}  this {m['rate']:8.1f} hands/s"
                f"  x{m['rate'] / b['rate']:6.2f}   actions/hand {m['actions']:.2f}{same}",
                flush=True,
            )
            pairs.append((b["rate"], m["rate"]))
        mb = statistics.median(p[0] for p in pairs)
        mm = statistics.median(p[1] for p in pairs)
        ratios = sorted(m / b for b, m in pairs)
        print(
            f"  median base {mb:.1f}, this {mm:.1f} hands/s: x{mm / mb:.2f};"
            f" pairs x{ratios[0]:.2f}-x{ratios[-1]:.2f}, median x{statistics.median(ratios):.2f}"
        )


if __name__ == "__main__":
    main()
