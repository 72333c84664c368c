"""Properties of Hong Kong and Taiwanese scoring over random legal hands:
a hand always scores or is refused with one sentence, never raises, and
exchanging the three suits changes nothing."""

from __future__ import annotations

import random
from itertools import permutations
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hefen.scoring import score
from hefen.testing.generate_hk_tw import permute_suits, random_hand

PERMS = [p for p in permutations(range(3)) if p != (0, 1, 2)]

HK_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "min_fan": st.integers(0, 8),
        "cap": st.sampled_from([13, 10, 8]),
        "half_spicy": st.booleans(),
        "small_four_winds": st.sampled_from(["limit", 6]),
        "self_draw_concealed": st.booleans(),
        "bonus_counts_to_min": st.booleans(),
        "seven_pairs_four_kind": st.booleans(),
        "nine_gates": st.sampled_from(["pure", "any"]),
    },
)
TW_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "flower_kong": st.sampled_from([2, 1]),
        "human_hand": st.booleans(),
        "all_chows_self_draw": st.booleans(),
        "concealed_self_draw": st.sampled_from([3, 2]),
        "small_four_winds_includes_winds": st.booleans(),
        "dealer_repeat_tai": st.sampled_from([2, 1]),
        "timing_includes_win": st.booleans(),
    },
)


def _draw(rules: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    while True:
        h = random_hand(rules, rng)
        if h is not None:
            return h


def _summary(r: Any) -> Any:
    d = r.to_dict()
    if not d["valid"]:
        return d
    return (
        d["total"],
        d["winning"],
        d["limit"],
        sorted((p["id"], p["value"], p["count"]) for p in d["patterns"]),
        d["payments"],
    )


def _check(obj: dict[str, Any]) -> None:
    r = score(obj)
    if not r.valid:
        assert r.error and r.error.endswith(".") and "\n" not in r.error
        return
    listed = sum(p.value * p.count for p in r.patterns)
    assert bool(r.payments) == r.winning
    if obj["rules"] == "hk":
        cap = obj["options"].get("cap", 13)
        assert r.unit == "fan" and r.total == min(listed, cap)
    else:
        assert r.unit == "tai" and r.winning and r.total == listed >= 0
        per = obj["options"].get("per_tai", 10)
        assert all((p.amount - 30) % per == 0 for p in r.payments)
    for perm in PERMS:
        assert _summary(score(permute_suits(obj, perm))) == _summary(r)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=HK_OPTIONS)
def test_hk_random_hands_score_or_are_refused(seed: int, options: dict[str, Any]) -> None:
    obj = _draw("hk", seed)
    if options.get("min_fan", 0) > options.get("cap", 13):
        options["min_fan"] = 0
    obj["options"] = options
    _check(obj)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=TW_OPTIONS)
def test_tw_random_hands_score_or_are_refused(seed: int, options: dict[str, Any]) -> None:
    obj = _draw("tw", seed)
    obj["options"] = options
    _check(obj)


def test_many_generated_hands_are_valid() -> None:
    """The generator makes legal hands: nearly all of them score."""
    for rules in ("hk", "tw"):
        rng = random.Random(7)
        hands = [h for h in (random_hand(rules, rng) for _ in range(400)) if h is not None]
        valid = sum(score(h).valid for h in hands)
        assert valid >= 0.9 * len(hands)


@settings(max_examples=100, deadline=None)
@given(
    rules=st.sampled_from(["hk", "tw"]),
    hand=st.lists(st.sampled_from(["1m", "5p", "9s", "E", "C", "1h", "x"]), max_size=18),
    win=st.sampled_from(["1m", "E", "8h", None, 3]),
)
def test_garbage_never_raises(rules: str, hand: list[str], win: Any) -> None:
    r = score({"rules": rules, "hand": hand, "win_tile": win})
    assert r.valid or r.error
