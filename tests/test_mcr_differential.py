"""Differential test against pymahjonggb (the C++ MCR calculator of
ChineseOfficialMahjongHelper), in hefen's ``mil`` variant which follows the
same Mahjong International League conventions."""

from collections import Counter

import pytest

from hefen import score
from hefen.mcr.table import PATTERNS
from hefen.testing.generate import peer_args, random_mcr_hands

MahjongGB = pytest.importorskip("MahjongGB", reason="pymahjonggb is a test dependency")

N_HANDS = 20_000


@pytest.fixture(scope="module")
def outcome():
    hands = random_mcr_hands(N_HANDS, seed=20261129)
    agree = 0
    differences = []
    seen: Counter[str] = Counter()
    for obj in hands:
        obj = {**obj, "options": {"variant": "mil"}}
        ours = score(obj)
        assert ours.valid, (obj, ours.error)
        peer = MahjongGB.MahjongFanCalculator(**peer_args(obj), verbose=True)
        peer_total = sum(points * count for points, count, *_ in peer)
        for p in ours.patterns:
            seen[p.id] += 1
        if ours.total == peer_total:
            agree += 1
        else:
            differences.append((obj, ours.to_dict()["patterns"], peer))
    return agree, differences, seen


def test_totals_agree_with_pymahjonggb(outcome):
    agree, differences, _ = outcome
    assert agree / N_HANDS >= 0.999, differences[:5]


def test_generator_reaches_every_pattern(outcome):
    _, _, seen = outcome
    rare = {p: seen[p] for p in PATTERNS if seen[p] < 5}
    assert not rare, rare
