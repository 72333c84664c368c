"""Hong Kong New Style: every pattern with a hand that has it and a near miss,
every option, bad input and payments (spec/rules-hk.md)."""

from __future__ import annotations

from typing import Any

import pytest

from hefen import hk
from hefen.result import Result
from hefen.scoring import score
from hefen.testing.generate_hk_tw import hand_dict


def hk_score(text: str, options: dict[str, Any] | None = None, **ctx: Any) -> Result:
    r = score(hand_dict(text, "hk", options, **ctx))
    assert r.valid, r.error
    return r


def ids(r: Result) -> set[str]:
    return {p.id for p in r.patterns}


def error(text: str, options: dict[str, Any] | None = None, **ctx: Any) -> str:
    r = score(hand_dict(text, "hk", options, **ctx))
    assert not r.valid
    assert r.error is not None
    return r.error


# ------------------------------------------------------------ limit hands --
LIMITS = [
    ("big_four_winds", "EEESSSWWWNNN1m +1m", {}),
    ("small_four_winds", "EEESSSWWWNN11m +1m", {}),
    ("all_honors", "EEESSSCCCFFFP +P", {}),
    ("all_terminals", "999p1s [111m] [999m] [111p] +1s", {}),
    ("four_concealed_pungs", "111m222p333s444mE +E", {}),
    ("four_kongs", "E [1111m] [2222p] [3333s] [4444m] +E", {}),
    ("thirteen_orphans", "19m19p19sESWNCFP +1m", {}),
    ("nine_gates", "1112345678999m +5m", {}),
    ("heavenly_hand", "123m456p789s111pE +E", {"win": "self_draw", "heavenly": True}),
    ("earthly_hand", "123m456p789s111pE +E", {"seat_wind": "S", "discarder": "E", "earthly": True}),
]

NEAR_LIMITS = [
    ("big_four_winds", "EEESSSWWWNN11m +1m", {}),  # the fourth wind is the pair
    ("small_four_winds", "EEESSS123mNN11m +1m", {}),  # only two wind pungs
    ("all_honors", "SSSCCCFFF1m [EEE] +1m", {}),  # one suit tile
    ("all_terminals", "999pE [111m] [999m] [111p] +E", {}),  # an honour pair
    ("four_concealed_pungs", "111m222p333s44mEE +4m", {}),  # the discard completed a pung
    ("four_kongs", "E [1111m] [2222p] [3333s] [444m] +E", {}),  # three kongs
    ("nine_gates", "1112345678899m +9m", {}),  # not 1112345678999 before the win
    ("heavenly_hand", "123m456p789s111pE +E", {"win": "self_draw", "seat_wind": "S"}),
    ("earthly_hand", "123m456p789s111pE +E", {"seat_wind": "S", "discarder": "E"}),
]


@pytest.mark.parametrize(("pid", "text", "ctx"), LIMITS, ids=[x[0] for x in LIMITS])
def test_limit_hand_scores_the_cap_and_nothing_else(
    pid: str, text: str, ctx: dict[str, Any]
) -> None:
    r = hk_score(text, **ctx)
    assert r.limit and r.winning
    assert r.total == 13
    assert r.patterns[0].id == pid or pid in ids(r)
    assert sum(p.value * p.count for p in r.patterns) == 13
    assert all(hk.PATTERNS[p.id].is_limit for p in r.patterns)


@pytest.mark.parametrize(("pid", "text", "ctx"), NEAR_LIMITS, ids=[x[0] for x in NEAR_LIMITS])
def test_limit_hand_near_miss(pid: str, text: str, ctx: dict[str, Any]) -> None:
    r = hk_score(text, **ctx)
    assert pid not in ids(r)
    if pid not in ("big_four_winds",):
        assert not r.limit


def test_thirteen_orphans_near_miss_is_not_complete() -> None:
    assert "not complete" in error("129m19p19sESWNCF +P")


def test_four_concealed_pungs_self_drawn_last_pung() -> None:
    assert "four_concealed_pungs" in ids(hk_score("111m222p333s44mEE +4m", win="self_draw"))


def test_limit_hands_together_score_the_cap_once() -> None:
    r = hk_score("EEESSSWWWCCCN +N")  # small four winds, all honours, four concealed pungs
    assert r.total == 13
    assert [p.value for p in r.patterns] == [13, 0, 0]
    assert any("not added" in n for n in r.notes)


# ------------------------------------------------------------ fan patterns --
# (pattern, hand, context, expected value) — the near miss follows each.
HITS = [
    ("big_three_dragons", "CCCFFFPPP123m4m +4m", {}, 8),
    ("full_flush", "123m456m789m111m2m +2m", {}, 7),
    ("small_three_dragons", "CCCFFFPP123m44m +4m", {}, 5),
    ("seven_pairs", "1133m5577p99sEEC +C", {}, 4),
    ("all_pungs", "222p333s444mE [111m] +E", {}, 3),
    ("half_flush", "123m456m789mEEE2m +2m", {}, 3),
    ("all_chows", "123m456p789s234s5p +5p", {}, 1),
    ("dragon_pung", "123m456p789sCCC5p +5p", {}, 1),
    ("seat_wind", "123m456p789sSSS5p +5p", {"seat_wind": "S"}, 1),
    ("round_wind", "123m456p789sSSS5p +5p", {"round_wind": "S"}, 1),
    ("mixed_terminals", "999pEEE1s [111m] [NNN] +1s", {}, 1),
    ("own_flower", "123m456p789sCCC5p +5p f:6h", {"seat_wind": "S"}, 1),
    ("own_season", "123m456p789sCCC5p +5p f:2h", {"seat_wind": "S"}, 1),
    ("four_flowers", "123m456p789sCCC5p +5p f:5678h", {}, 2),
    ("four_seasons", "123m456p789sCCC5p +5p f:1234h", {}, 2),
    ("no_flowers", "123m456p789sCCC5p +5p", {}, 1),
    ("self_drawn", "123m456p789s5p [CCC] +5p", {"win": "self_draw"}, 1),
    ("concealed_hand", "123m456p789sCCC5p +5p", {}, 1),
    ("robbing_kong", "123m46p789sCCC55s +5p", {"robbing_kong": True}, 1),
    ("last_tile", "123m456p789sCCC5p +5p", {"last_tile_of_wall": True}, 1),
    (
        "kong_replacement",
        "123m456p789s5p [CCCC] +5p",
        {"win": "self_draw", "kong_replacement": True},
        1,
    ),
    (
        "double_kong_replacement",
        "123m456p5p [CCCC] [1111s] +5p",
        {"win": "self_draw", "double_kong_replacement": True},
        8,
    ),
]

MISSES = [
    ("big_three_dragons", "CCCFFFPP123m44m +4m", {}),
    ("full_flush", "123m456m789mEEE2m +2m", {}),
    ("small_three_dragons", "CCCFFF123m456m4p +4p", {}),
    ("seven_pairs", "1133m5577p99sEEC +E", {}),  # not complete as pairs
    ("all_pungs", "234p333s444mE [111m] +E", {}),
    ("half_flush", "123m456m789p EEE2m +2m", {}),
    ("all_chows", "123m456p789s222s5p +5p", {}),
    ("dragon_pung", "123m456p789s555pC +C", {}),
    ("seat_wind", "123m456p789sSSS5p +5p", {"seat_wind": "W"}),
    ("round_wind", "123m456p789sSSS5p +5p", {"round_wind": "W"}),
    ("mixed_terminals", "999pEEE2s [111m] [NNN] +2s", {}),
    ("own_flower", "123m456p789sCCC5p +5p f:5h", {"seat_wind": "S"}),
    ("own_season", "123m456p789sCCC5p +5p f:1h", {"seat_wind": "S"}),
    ("four_flowers", "123m456p789sCCC5p +5p f:567h", {}),
    ("four_seasons", "123m456p789sCCC5p +5p f:123h", {}),
    ("no_flowers", "123m456p789sCCC5p +5p f:3h", {}),
    ("self_drawn", "123m456p789s5p [CCC] +5p", {}),
    ("concealed_hand", "123m456p789s5p [CCC] +5p", {}),
    ("robbing_kong", "123m456p789sCCC5p +5p", {}),
    ("last_tile", "123m456p789sCCC5p +5p", {}),
    ("kong_replacement", "123m456p789s5p [CCCC] +5p", {"win": "self_draw"}),
    (
        "double_kong_replacement",
        "123m456p5p [CCCC] [1111s] +5p",
        {"win": "self_draw", "kong_replacement": True},
    ),
]


@pytest.mark.parametrize(("pid", "text", "ctx", "value"), HITS, ids=[x[0] for x in HITS])
def test_pattern_found(pid: str, text: str, ctx: dict[str, Any], value: int) -> None:
    r = hk_score(text, {"min_fan": 0}, **ctx)
    hit = r.pattern(pid)
    assert hit is not None, [p.id for p in r.patterns]
    assert hit.value == value
    assert not r.limit
    assert r.total == sum(p.value * p.count for p in r.patterns)


@pytest.mark.parametrize(("pid", "text", "ctx"), MISSES, ids=[x[0] for x in MISSES])
def test_pattern_near_miss(pid: str, text: str, ctx: dict[str, Any]) -> None:
    r = score(hand_dict(text, "hk", {"min_fan": 0}, **ctx))
    assert not r.valid or pid not in ids(r)


def test_every_pattern_of_the_table_is_tested() -> None:
    tested = {x[0] for x in LIMITS} | {x[0] for x in HITS}
    assert tested == set(hk.PATTERNS)


def test_big_three_dragons_includes_the_dragon_pungs() -> None:
    r = hk_score("CCCFFFPPP123m4m +4m")
    assert "dragon_pung" not in ids(r)
    assert r.pattern("big_three_dragons").uses == ("CCC", "FFF", "PPP")  # type: ignore[union-attr]


def test_small_three_dragons_includes_the_dragon_pungs() -> None:
    r = hk_score("CCCFFFPP123m44m +4m")
    assert "dragon_pung" not in ids(r)
    # small three dragons 5, half flush 3, concealed 1, no flowers 1
    assert r.total == 10


def test_one_pung_gives_seat_and_round_wind() -> None:
    r = hk_score("123m456p789sSSS5p +5p", seat_wind="S", round_wind="S")
    assert r.count("seat_wind") == 1 and r.count("round_wind") == 1


def test_mixed_terminals_with_all_pungs_on_top() -> None:
    r = hk_score("999pEEE1s [111m] [NNN] +1s")
    assert {"mixed_terminals", "all_pungs"} <= ids(r)


def test_full_flush_replaces_half_flush() -> None:
    r = hk_score("123m456m789m111m2m +2m")
    assert "half_flush" not in ids(r)


def test_most_fan_reading_wins() -> None:
    # 111222333m: three pungs (all pungs with EEE + the 9m pair) or three chows
    r = hk_score("111222333mEEE9m +9m")
    assert "four_concealed_pungs" in ids(r)  # the pung reading is a limit hand
    r2 = hk_score("111222333m9m [EEE] +9m")
    assert {"all_pungs", "full_flush"} & ids(r2) == {"all_pungs"}
    assert "half_flush" in ids(r2)


# ------------------------------------------------------------ options ----
def test_min_fan() -> None:
    text = "123m456p222s5p [345m] +5p"  # no flowers 1 only
    r = hk_score(text)
    assert r.total == 1 and not r.winning and r.payments == ()
    assert hk_score(text, {"min_fan": 1}).winning


def test_cap() -> None:
    r = hk_score("1112345678999m +5m", {"cap": 8})
    assert r.total == 8
    assert r.payments[0].amount == 256


def test_fan_above_the_cap_is_capped() -> None:
    # full flush 7 + all pungs 3 + concealed... read as a plain hand with melds
    r = hk_score("222m333m9m [111m] [444m] +9m", {"cap": 8})
    assert r.total == 8 and not r.limit
    assert any("capped" in n for n in r.notes)


def test_half_spicy_curve() -> None:
    opts = hk.resolve_options({"half_spicy": True})
    assert [hk.payment_amount(f, opts) for f in range(3, 11)] == [8, 16, 24, 32, 48, 64, 96, 128]
    plain = hk.resolve_options({})
    assert hk.payment_amount(7, plain) == 128
    r = hk_score("123m456m789mEEE2m +2m", {"half_spicy": True}, discarder="S")
    assert r.total == 7 and r.payments[0].amount == 48


def test_small_four_winds_as_six_fan() -> None:
    r = hk_score("EEESSSWWWNN11m +1m", {"small_four_winds": 6})
    assert not r.limit
    assert r.pattern("small_four_winds").value == 6  # type: ignore[union-attr]
    assert "all_pungs" in ids(r)


def test_unit() -> None:
    r = hk_score("123m456m789mEEE2m +2m", {"unit": 5}, discarder="N")
    assert r.payments[0].amount == 5 * 2**r.total


def test_self_draw_concealed() -> None:
    text = "123m456p789sCCC5p +5p"
    on = hk_score(text, win="self_draw")
    off = hk_score(text, {"self_draw_concealed": False}, win="self_draw")
    assert "concealed_hand" in ids(on) and "concealed_hand" not in ids(off)
    assert on.total == off.total + 1


def test_bonus_counts_to_min() -> None:
    text = "123m456p789s5p [CCC] +5p f:1h"  # dragon 1 + own season 1 + self-drawn 1
    assert hk_score(text, win="self_draw").winning
    r = hk_score(text, {"bonus_counts_to_min": False}, win="self_draw")
    assert not r.winning and r.total == 3


def test_bouquet_includes_own() -> None:
    text = "123m456p789sCCC5p +5p f:5678h"
    assert "own_flower" not in ids(hk_score(text))
    r = hk_score(text, {"bouquet_includes_own": False})
    assert r.count("own_flower") == 1 and r.count("four_flowers") == 1


def test_seven_pairs_four_kind() -> None:
    text = "1111m5577p99sEEC +C"
    assert not score(hand_dict(text, "hk")).valid
    assert "seven_pairs" in ids(hk_score(text, {"seven_pairs_four_kind": True}))


def test_nine_gates_any() -> None:
    r = hk_score("1112345678899m +9m", {"nine_gates": "any"})
    assert r.limit and "nine_gates" in ids(r)


# ------------------------------------------------------------ bad input --
def test_sixteen_tiles_for_hk() -> None:
    msg = error("123m456m789m123p456p7p +7p")
    assert "HK needs 14" in msg


def test_unknown_option() -> None:
    assert error("123m456p789sCCC5p +5p", {"fan_cap": 10}).startswith("Unknown HK option 'fan_cap'")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"cap": 12}, "cap must be 13 or 10 or 8"),
        ({"min_fan": -1}, "min_fan must be a whole number"),
        ({"half_spicy": "yes"}, "half_spicy must be true or false"),
        ({"small_four_winds": 7}, "small_four_winds must be"),
        ({"unit": 0}, "unit must be a whole number from 1"),
        ({"min_fan": 9, "cap": 8}, "cannot be above the cap"),
    ],
)
def test_illegal_option_value(options: dict[str, Any], words: str) -> None:
    msg = error("123m456p789sCCC5p +5p", options)
    assert words in msg
    assert msg.count(".") >= 1 and "\n" not in msg


def test_taiwanese_context_is_refused() -> None:
    assert "Taiwanese" in error("123m456p789sCCC5p +5p", declared_ready="tian_ting")
    assert "Taiwanese" in error("123m456p789sCCC5p +5p", seat_wind="S", human=True)
    assert "not a self-draw" in error(
        "123m456p789sCCC5p +5p", win="self_draw", seat_wind="S", earthly=True
    )


def test_bonus_win_tile_refused() -> None:
    assert "bonus tile" in error("123m456p789sCCC5p +1h")


def test_incomplete_hand() -> None:
    assert "not complete" in error("123m456p789sCCC5p +6p")


# ------------------------------------------------------------ payments ----
def test_discard_payment() -> None:
    r = hk_score("123m456m789mEEE2m +2m", discarder="W")  # half flush 3, winds 2, concealed 1...
    assert [(p.frm, p.to, p.amount) for p in r.payments] == [("W", "E", 2**r.total)]


def test_self_draw_payment_each_pays_half() -> None:
    r = hk_score("123m456m789mEEE2m +2m", win="self_draw", seat_wind="S")
    half = 2**r.total // 2
    assert [(p.frm, p.amount) for p in r.payments] == [("E", half), ("W", half), ("N", half)]


def test_missing_discarder_is_the_next_seat() -> None:
    r = hk_score("123m456m789mEEE2m +2m", seat_wind="N")
    assert r.payments[0].frm == "E"
    assert any("next seat" in n for n in r.notes)


def test_limit_payment() -> None:
    r = hk_score("1112345678999m +5m", discarder="S")
    assert r.payments[0].amount == 2**13
    r2 = hk_score("1112345678999m +5m", win="self_draw")
    assert {p.amount for p in r2.payments} == {2**12}
