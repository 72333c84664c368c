"""Hands per second: hefen's shanten vs pymahjonggb's (run by hand).

    python bench/analysis_shanten.py [N] [SEED]

Both sides get the same N random 13-tile MCR hands (the differential test's
generator: random deals, some with melds, and ready or near-ready pattern
hands) and compute the shanten number with the useful tiles over every MCR
form: hefen with ``shanten_counts`` (counts already made), pymahjonggb with
``MahjongShanten`` plus the per-form functions that give useful tiles.
hefen's tables start empty (a fresh process) and fill as the run goes.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import MahjongGB  # noqa: E402
from test_analysis_peer import random_hand  # noqa: E402

from hefen.analysis import situation  # noqa: E402
from hefen.analysis.shanten import FORMS, shanten_counts  # noqa: E402
from hefen.testing.generate import peer_tile  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    objs = [random_hand(rng) for _ in range(n)]

    mine_in = []
    peer_in = []
    for o in objs:
        s = situation(o)
        mine_in.append((s.concealed_counts(), s.meld_counts(), s.n_melds))
        packs = []
        for m in o["melds"]:
            tiles = sorted(m["tiles"], key=lambda c: (len(c), c[-1], c))
            kind = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}[m["kind"]]
            packs.append((kind, peer_tile(tiles[1] if kind == "CHI" else tiles[0]), 1))
        peer_in.append((tuple(packs), tuple(peer_tile(c) for c in o["hand"])))

    t0 = time.perf_counter()
    for c, mc, k in mine_in:
        shanten_counts(c, mc, k, FORMS)
    t_mine = time.perf_counter() - t0

    t0 = time.perf_counter()
    for c, mc, k in mine_in:
        shanten_counts(c, mc, k, FORMS)
    t_warm = time.perf_counter() - t0

    regular = MahjongGB.RegularShanten
    specials = (
        MahjongGB.SevenPairsShanten,
        MahjongGB.ThirteenOrphansShanten,
        MahjongGB.HonorsAndKnittedTilesShanten,
    )
    t0 = time.perf_counter()
    for packs, hand in peer_in:
        MahjongGB.MahjongShanten(packs, hand)
        regular(hand)
        if not packs:
            for f in specials:
                f(hand)
        if len(packs) <= 1:
            MahjongGB.KnittedStraightShanten(hand)
    t_peer = time.perf_counter() - t0

    h_mine, h_warm, h_peer = n / t_mine, n / t_warm, n / t_peer
    print(f"hands: {n} (seed {seed})")
    print(f"hefen shanten + useful, first pass:  {h_mine:10.0f} hands/s")
    print(f"hefen shanten + useful, same hands:  {h_warm:10.0f} hands/s")
    print(f"pymahjonggb shanten + useful:        {h_peer:10.0f} hands/s")
    print(
        f"ratio hefen/pymahjonggb: {h_mine / h_peer:.3f} (first pass), {h_warm / h_peer:.3f} (again)"
    )


if __name__ == "__main__":
    main()
