"""Taiwanese 16-tile: every tai with a hand that has it and a near miss, every
option, bad input and payments, the page's worked example included
(spec/rules-tw.md)."""

from __future__ import annotations

from typing import Any

import pytest

from hefen import tw
from hefen.result import Result
from hefen.scoring import score
from hefen.testing.generate_hk_tw import hand_dict

#: concealed, two-sided wait (2s or 5s), one dragon pung
DRAGON = "123m456m678sCCC34s55p +2s"
#: five chows, a 5p pair, two-sided wait: 平胡 on a discard
PINGHU = "123m456m678s345p34s55p +2s"
#: the same shape with every set claimed but one chow
OPEN = "34s55p [123m] [456m] [678s] [CCC] +2s"
FLOWERS = "1234567m123p456p999s f:1234567h +8h"

#: a non-dealer's win where the dealer is not involved (seat S, dealer E, discarder W)
NON_DEALER = {"seat_wind": "S", "discarder": "W"}


def tw_score(text: str, options: dict[str, Any] | None = None, **ctx: Any) -> Result:
    r = score(hand_dict(text, "tw", options, **ctx))
    assert r.valid, r.error
    return r


def ids(r: Result) -> set[str]:
    return {p.id for p in r.patterns}


def error(text: str, options: dict[str, Any] | None = None, **ctx: Any) -> str:
    r = score(hand_dict(text, "tw", options, **ctx))
    assert not r.valid and r.error is not None
    return r.error


# (pattern, hand, context, value); the matching near miss is in MISSES
HITS: list[tuple[str, str, dict[str, Any], int]] = [
    ("heavenly_hand", DRAGON, {"win": "self_draw", "heavenly": True}, 24),
    ("earthly_hand", DRAGON, {"win": "self_draw", "seat_wind": "S", "earthly": True}, 16),
    ("human_hand", DRAGON, {"seat_wind": "S", "discarder": "E", "human": True}, 8),
    ("big_four_winds", "EEESSSWWWNNN123m5p +5p", NON_DEALER, 16),
    ("all_honors", "EEESSSWWWCCCFFFP +P", NON_DEALER, 16),
    ("tian_ting", DRAGON, {**NON_DEALER, "declared_ready": "tian_ting"}, 16),
    ("di_ting", DRAGON, {**NON_DEALER, "declared_ready": "di_ting"}, 8),
    ("eight_flowers", FLOWERS, {"win": "self_draw", "seat_wind": "S"}, 8),
    ("seven_rob_one", FLOWERS, NON_DEALER, 8),
    ("small_four_winds", "EEESSSWWWN123m555p +N", NON_DEALER, 8),
    ("big_three_dragons", "CCCFFFPPP123m456p5s +5s", NON_DEALER, 8),
    ("full_flush", "123m234m456m789m999m5m +5m", NON_DEALER, 8),
    ("five_concealed_pungs", "111m222p333s444m555p6s +6s", NON_DEALER, 8),
    ("four_kongs", "5p [1111m] [2222p] [3333s] [4444m] [678s] +5p", NON_DEALER, 8),
    ("four_concealed_pungs", "111m222p333s444m678p6s +6s", NON_DEALER, 5),
    ("all_pungs", "222p333s555s6s [111m] [444m] +6s", NON_DEALER, 4),
    ("half_flush", "123m456m789mEEE111m2m +2m", NON_DEALER, 4),
    ("small_three_dragons", "CCCFFFP123m456p789s +P", NON_DEALER, 4),
    ("concealed_self_drawn", DRAGON, {"win": "self_draw", "seat_wind": "S"}, 3),
    ("all_chows", PINGHU, NON_DEALER, 2),
    ("three_concealed_pungs", "111m222p333s456m789p9s +9s", NON_DEALER, 2),
    ("all_claimed", "5p [123m] [456m] [678s] [345p] [345s] +5p", NON_DEALER, 2),
    ("flower_kong", DRAGON + " f:1234h", NON_DEALER, 2),
    ("self_drawn", OPEN, {"win": "self_draw", "seat_wind": "S"}, 1),
    ("concealed_hand", DRAGON, NON_DEALER, 1),
    ("single_wait", "123m456m678s345p35s55p +4s", NON_DEALER, 1),
    ("round_wind", "123m456m678sEEE34s55p +2s", NON_DEALER, 1),
    ("seat_wind", "123m456m678sSSS34s55p +2s", NON_DEALER, 1),
    ("dragon_pung", DRAGON, NON_DEALER, 1),
    ("own_flower", DRAGON + " f:2h", NON_DEALER, 1),
    (
        "last_tile_of_wall",
        OPEN,
        {"win": "self_draw", "seat_wind": "S", "last_tile_of_wall": True},
        1,
    ),
    ("last_discard", OPEN, {**NON_DEALER, "last_tile_of_wall": True}, 1),
    (
        "kong_replacement",
        "34s55p [1111m] [456m] [678s] [CCC] +2s",
        {"win": "self_draw", "seat_wind": "S", "kong_replacement": True},
        1,
    ),
    ("robbing_kong", DRAGON, {**NON_DEALER, "robbing_kong": True}, 1),
    ("dealer", DRAGON, {"discarder": "S"}, 1),
    ("dealer_streak", DRAGON, {"discarder": "S", "dealer_streak": 1}, 2),
    ("chicken_hand", "34s55p [123m] [456m] [678s] [999p] +2s", NON_DEALER, 0),
]

MISSES: list[tuple[str, str, dict[str, Any]]] = [
    ("heavenly_hand", DRAGON, {"win": "self_draw"}),
    ("earthly_hand", DRAGON, {"win": "self_draw", "seat_wind": "S"}),
    ("human_hand", DRAGON, {"seat_wind": "S", "win": "self_draw", "earthly": True}),  # 地胡 16
    ("big_four_winds", "EEESSSWWWN123m555p +N", NON_DEALER),
    ("all_honors", "EEESSSWWWCCCFFF5p +5p", NON_DEALER),
    ("tian_ting", DRAGON, NON_DEALER),
    ("di_ting", DRAGON, {**NON_DEALER, "declared_ready": "tian_ting"}),
    ("eight_flowers", FLOWERS, NON_DEALER),  # on a discard it is seven-rob-one
    ("seven_rob_one", FLOWERS, {"win": "self_draw", "seat_wind": "S"}),
    ("small_four_winds", "EEESSS123m456pN555p +N", NON_DEALER),
    ("big_three_dragons", "CCCFFFP123m456p789s +P", NON_DEALER),
    ("full_flush", "123m456m789mEEE111m2m +2m", NON_DEALER),
    ("five_concealed_pungs", "111m222p333s444m55p66s +5p", NON_DEALER),  # discard made a pung
    ("four_kongs", "5p [1111m] [2222p] [3333s] [444m] [678s] +5p", NON_DEALER),
    ("four_concealed_pungs", "111m222p333s44m678p66s +4m", NON_DEALER),
    ("all_pungs", "222p333s456s6s [111m] [444m] +6s", NON_DEALER),
    ("half_flush", "123m456m789pEEE111m2m +2m", NON_DEALER),
    ("small_three_dragons", "CCCFFF123m456p789s9p +9p", NON_DEALER),
    ("concealed_self_drawn", OPEN, {"win": "self_draw", "seat_wind": "S"}),
    ("all_chows", PINGHU, {"win": "self_draw", "seat_wind": "S"}),
    ("three_concealed_pungs", "111m222p456m789p33s55s +3s", NON_DEALER),  # 333s from a discard
    (
        "all_claimed",
        "5p [123m] [456m] [678s] [345p] [345s] +5p",
        {"win": "self_draw", "seat_wind": "S"},
    ),
    ("flower_kong", DRAGON + " f:1235h", NON_DEALER),
    ("self_drawn", OPEN, NON_DEALER),
    ("concealed_hand", OPEN, NON_DEALER),
    ("single_wait", PINGHU, NON_DEALER),
    ("round_wind", "123m456m678sWWW34s55p +2s", NON_DEALER),
    ("seat_wind", "123m456m678sWWW34s55p +2s", NON_DEALER),
    ("dragon_pung", "123m456m678s999p34s55p +2s", NON_DEALER),
    ("own_flower", DRAGON + " f:1h", NON_DEALER),
    ("last_tile_of_wall", OPEN, {**NON_DEALER, "last_tile_of_wall": True}),  # that is last discard
    ("last_discard", OPEN, {"win": "self_draw", "seat_wind": "S", "last_tile_of_wall": True}),
    (
        "kong_replacement",
        "34s55p [1111m] [456m] [678s] [CCC] +2s",
        {"win": "self_draw", "seat_wind": "S"},
    ),
    ("robbing_kong", DRAGON, NON_DEALER),
    ("dealer", DRAGON, NON_DEALER),
    ("dealer_streak", DRAGON, {"discarder": "S"}),
    ("chicken_hand", "34s55p [123m] [456m] [678s] [CCC] +2s", NON_DEALER),
]


#: the setting a pattern needs (人胡 is a table's choice)
SETTING: dict[str, dict[str, Any]] = {"human_hand": {"human_hand": True}}


@pytest.mark.parametrize(("pid", "text", "ctx", "value"), HITS, ids=[x[0] for x in HITS])
def test_tai_found(pid: str, text: str, ctx: dict[str, Any], value: int) -> None:
    r = tw_score(text, SETTING.get(pid), **ctx)
    hit = r.pattern(pid)
    assert hit is not None, [p.id for p in r.patterns]
    assert hit.value == value
    assert r.unit == "tai" and r.winning and not r.limit
    assert r.total == sum(p.value * p.count for p in r.patterns)


@pytest.mark.parametrize(("pid", "text", "ctx"), MISSES, ids=[x[0] for x in MISSES])
def test_tai_near_miss(pid: str, text: str, ctx: dict[str, Any]) -> None:
    r = tw_score(text, SETTING.get(pid), **ctx)
    assert pid not in ids(r)


def test_every_tai_of_the_table_is_tested() -> None:
    assert {x[0] for x in HITS} == set(tw.PATTERNS) == {x[0] for x in MISSES}


# ------------------------------------------------------------ readings ----
def test_worked_example_self_drawn() -> None:
    """East round, the dealer sits South with two repeats, concealed
    self-draw, seat flower, dragon pung: 10 tai, each pays 130."""
    ctx = {
        "win": "self_draw",
        "seat_wind": "S",
        "round_wind": "E",
        "dealer": "S",
        "dealer_streak": 2,
    }
    r = tw_score(DRAGON + " f:2h", **ctx)
    got = {p.id: p.value * p.count for p in r.patterns}
    assert got == {
        "concealed_self_drawn": 3,
        "own_flower": 1,
        "dragon_pung": 1,
        "dealer": 1,
        "dealer_streak": 4,
    }
    assert r.total == 10
    assert [(p.frm, p.to, p.amount) for p in r.payments] == [
        ("E", "S", 130),
        ("W", "S", 130),
        ("N", "S", 130),
    ]


def test_worked_example_on_a_discard() -> None:
    ctx = {"seat_wind": "S", "round_wind": "E", "dealer": "S", "dealer_streak": 2, "discarder": "W"}
    r = tw_score(DRAGON + " f:2h", **ctx)
    assert r.total == 8  # concealed 1 instead of the 3
    assert [(p.frm, p.amount) for p in r.payments] == [("W", 110)]


def test_concealed_self_draw_is_three_in_all() -> None:
    r = tw_score(DRAGON, win="self_draw", seat_wind="S")
    assert not {"self_drawn", "concealed_hand"} & ids(r)


def test_single_wait_edge_closed_and_pair_but_not_two_sided() -> None:
    edge = tw_score("123m456m678s345p12s55p +3s", **NON_DEALER)
    closed = tw_score("123m456m678s345p35s55p +4s", **NON_DEALER)
    pair = tw_score("123m456m678s345p234sE +E", **NON_DEALER)
    two_sided = tw_score(PINGHU, **NON_DEALER)
    assert all("single_wait" in ids(r) for r in (edge, closed, pair))
    assert "single_wait" not in ids(two_sided)
    # a 4-5-6-7 shape: waits 4s and 7s... read as 456 + lone 7 it is still two tiles
    assert "single_wait" not in ids(tw_score("123m456m678s345p4567s +7s", **NON_DEALER))


def test_all_chows_conditions() -> None:
    assert "all_chows" in ids(tw_score(PINGHU, **NON_DEALER))
    # honour pair, terminal pair, edge wait, a flower: each breaks 平胡
    assert "all_chows" not in ids(tw_score("123m456m678s345p34sEE +2s", **NON_DEALER))
    assert "all_chows" not in ids(tw_score("123m456m678s345p34s99p +2s", **NON_DEALER))
    assert "all_chows" not in ids(tw_score("123m456m678s345p12s55p +3s", **NON_DEALER))
    assert "all_chows" not in ids(tw_score(PINGHU + " f:3h", **NON_DEALER))


def test_all_claimed_adds_single_wait() -> None:
    r = tw_score("5p [123m] [456m] [678s] [345p] [345s] +5p", **NON_DEALER)
    assert {"all_claimed", "single_wait"} <= ids(r)
    assert r.total == 3


def test_concealed_pungs_levels_replace_each_other() -> None:
    r = tw_score("111m222p333s444m555p6s +6s", **NON_DEALER)
    assert "five_concealed_pungs" in ids(r)
    assert not {"four_concealed_pungs", "three_concealed_pungs"} & ids(r)


def test_claimed_tile_pung_does_not_count_but_self_draw_does() -> None:
    text = "111m222p333s444m55p66s +5p"
    assert "four_concealed_pungs" in ids(tw_score(text, **NON_DEALER))
    assert "five_concealed_pungs" in ids(tw_score(text, win="self_draw", seat_wind="S"))


def test_small_four_winds_adds_the_wind_tai() -> None:
    r = tw_score("EEESSSWWWN123m555p +N", seat_wind="S", discarder="W", round_wind="E")
    assert {"small_four_winds", "round_wind", "seat_wind"} <= ids(r)


def test_big_four_winds_includes_the_wind_tai() -> None:
    r = tw_score("EEESSSWWWNNN123m5p +5p", **NON_DEALER)
    assert not {"round_wind", "seat_wind"} & ids(r)


def test_four_kongs_ends_the_hand_even_when_the_rest_is_not_a_set() -> None:
    r = tw_score("1p5p6p9s [1111m] [2222p] [3333s] [4444m] +7s", **NON_DEALER)
    assert "four_kongs" in ids(r)
    assert any("streak" in n for n in r.notes)


def test_flower_win_ignores_the_held_tiles() -> None:
    r = tw_score(FLOWERS, win="self_draw", seat_wind="S")
    assert [p.id for p in r.patterns] == ["eight_flowers"]
    assert r.total == 8


# ------------------------------------------------------------ options ----
def test_base_and_per_tai() -> None:
    r = tw_score(DRAGON, {"base": 50, "per_tai": 20}, **NON_DEALER)
    assert r.payments[0].amount == 50 + 20 * r.total


def test_flower_kong_one() -> None:
    r = tw_score(DRAGON + " f:1234h", {"flower_kong": 1}, **NON_DEALER)
    assert r.pattern("flower_kong").value == 1  # type: ignore[union-attr]


def test_human_hand_option() -> None:
    ctx = {"seat_wind": "S", "discarder": "E", "earthly": True}
    assert "earthly_hand" in ids(tw_score(DRAGON, **ctx))
    assert "human_hand" in ids(tw_score(DRAGON, {"human_hand": True}, **ctx))
    # the self-drawn case stays 地胡
    ctx2 = {"seat_wind": "S", "win": "self_draw", "earthly": True}
    assert "earthly_hand" in ids(tw_score(DRAGON, {"human_hand": True}, **ctx2))


def test_all_chows_self_draw_option() -> None:
    ctx = {"win": "self_draw", "seat_wind": "S"}
    assert "all_chows" in ids(tw_score(PINGHU, {"all_chows_self_draw": True}, **ctx))


def test_all_chows_with_flowers_option() -> None:
    r = tw_score(PINGHU + " f:3h", {"all_chows_with_flowers": True}, **NON_DEALER)
    assert "all_chows" in ids(r)


def test_concealed_self_draw_two() -> None:
    r = tw_score(DRAGON, {"concealed_self_draw": 2}, win="self_draw", seat_wind="S")
    assert {"self_drawn", "concealed_hand"} <= ids(r) and "concealed_self_drawn" not in ids(r)


def test_dragon_inclusion_options() -> None:
    small = "CCCFFFP123m456p789s +P"
    big = "CCCFFFPPP123m456p5s +5s"
    assert (
        tw_score(small, {"small_three_dragons_includes_pungs": False}, **NON_DEALER).count(
            "dragon_pung"
        )
        == 2
    )
    assert tw_score(small, **NON_DEALER).count("dragon_pung") == 0
    assert (
        tw_score(big, {"big_three_dragons_includes_pungs": False}, **NON_DEALER).count(
            "dragon_pung"
        )
        == 3
    )
    assert tw_score(big, **NON_DEALER).count("dragon_pung") == 0


def test_wind_inclusion_options() -> None:
    small = "EEESSSWWWN123m555p +N"
    big = "EEESSSWWWNNN123m5p +5p"
    ctx = {"seat_wind": "S", "discarder": "W"}
    assert "seat_wind" not in ids(tw_score(small, {"small_four_winds_includes_winds": True}, **ctx))
    assert "seat_wind" in ids(tw_score(big, {"big_four_winds_includes_winds": False}, **ctx))


def test_flower_kong_includes_own_option() -> None:
    text = DRAGON + " f:1234h"
    assert "own_flower" in ids(tw_score(text, **NON_DEALER))
    assert "own_flower" not in ids(tw_score(text, {"flower_kong_includes_own": True}, **NON_DEALER))


def test_dealer_repeat_tai_option() -> None:
    r = tw_score(DRAGON, {"dealer_repeat_tai": 1}, discarder="S", dealer_streak=3)
    assert r.pattern("dealer_streak").value == 1  # type: ignore[union-attr]
    assert r.total == 2 + 1 + 3


def test_timing_includes_win_option() -> None:
    ctx = {"win": "self_draw", "heavenly": True}
    assert "concealed_self_drawn" not in ids(tw_score(DRAGON, **ctx))
    r = tw_score(DRAGON, {"timing_includes_win": False}, **ctx)
    assert "concealed_self_drawn" in ids(r)


# ------------------------------------------------------------ bad input ---
def test_thirteen_tiles_for_tw() -> None:
    assert "TW needs 17" in error("123m456p789sCCC5p +5p")


def test_unknown_option() -> None:
    assert error(DRAGON, {"min_fan": 3}).startswith("Unknown TW option 'min_fan'")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"flower_kong": 3}, "flower_kong must be 2 or 1"),
        ({"base": -5}, "base must be a whole number"),
        ({"per_tai": "10"}, "per_tai must be a whole number"),
        ({"human_hand": 1}, "human_hand must be true or false"),
    ],
)
def test_illegal_option_value(options: dict[str, Any], words: str) -> None:
    assert words in error(DRAGON, options)


def test_flower_win_needs_seven_other_flowers() -> None:
    assert "seven bonus tiles" in error("1234567m123p456p999s f:123456h +8h", win="self_draw")


def test_declared_ready_hand_cannot_claim() -> None:
    assert "locked" in error(OPEN, declared_ready="di_ting", seat_wind="S")


def test_human_hand_is_not_self_drawn() -> None:
    assert "not a self-draw" in error(DRAGON, win="self_draw", seat_wind="S", human=True)


def test_incomplete_hand() -> None:
    assert "five sets and a pair" in error("123m456m678sCCC34s55p +9s")


# ------------------------------------------------------------ payments ----
def test_chicken_hand_is_paid_the_base() -> None:
    r = tw_score("34s55p [123m] [456m] [678s] [999p] +2s", **NON_DEALER)
    assert r.total == 0 and r.winning
    assert [(p.frm, p.to, p.amount) for p in r.payments] == [("W", "S", 30)]


def test_non_dealer_self_draw_dealer_pays_extra() -> None:
    r = tw_score(OPEN, win="self_draw", seat_wind="S", dealer_streak=1)  # self-drawn 1 + dragon 1
    assert r.total == 2 and "dealer" not in ids(r)
    assert {p.frm: p.amount for p in r.payments} == {"E": 30 + 10 * (2 + 3), "W": 50, "N": 50}
    assert any("dealer (E) pays for 3 more tai" in n for n in r.notes)


def test_dealer_discards() -> None:
    r = tw_score(OPEN, seat_wind="S", discarder="E")
    assert "dealer" in ids(r) and r.total == 2
    assert r.payments[0].amount == 30 + 10 * 2


def test_seven_rob_one_paid_by_the_player_whose_flower_was_taken() -> None:
    r = tw_score(FLOWERS, seat_wind="S", discarder="N")
    assert [(p.frm, p.amount) for p in r.payments] == [("N", 30 + 80)]


def test_missing_discarder_is_the_next_seat() -> None:
    r = tw_score(DRAGON, seat_wind="S")
    assert r.payments[0].frm == "W"
    assert any("next seat" in n for n in r.notes)


def test_big_four_winds_does_not_imply_all_pungs_in_sixteen_tiles() -> None:
    """Taiwan's hand has five sets: the four wind pungs leave room for a chow,
    so the table does not say Big Four Winds implies All Pungs (the rules
    page would list it as counted with it)."""
    from hefen import score
    from hefen.tw import PATTERNS

    hand = "E E E S S S W W W N N N 1m 2m 3m 5p".split()
    r = score({"rules": "tw", "hand": hand, "win_tile": "5p", "context": {"win": "self_draw"}})
    ids = [p.id for p in r.patterns]
    assert "big_four_winds" in ids and "all_pungs" not in ids
    assert "all_pungs" not in PATTERNS["big_four_winds"].implies
