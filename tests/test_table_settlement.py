"""Payment rules of directly entered hand values (hefen.table.settlement)."""

from __future__ import annotations

import pytest

from hefen.hk import multiplier as hk_multiplier
from hefen.table import TableError, settle


def _pay(payments: list) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for p in payments:
        out[p.frm] = p.amount
        assert p.to not in out
    return out


def test_mcr_discard_and_self_draw() -> None:
    pays = settle("mcr", 30, winner="E", discarder="S")
    assert _pay(pays) == {"S": 38, "W": 8, "N": 8}
    assert all(p.to == "E" for p in pays)
    assert _pay(settle("mcr", 10, winner="W", discarder=None)) == {"E": 18, "S": 18, "N": 18}


def test_mcr_minimum() -> None:
    with pytest.raises(TableError, match="at least 8 points"):
        settle("mcr", 7, winner="E", discarder="S")


@pytest.mark.parametrize(
    ("fan", "ordinary", "half"),
    [
        (0, 1, 1),
        (3, 8, 8),
        (4, 16, 16),
        (5, 32, 24),
        (6, 64, 32),
        (7, 128, 48),
        (8, 256, 64),
        (9, 512, 96),
        (10, 1024, 128),
    ],
)
def test_hk_curves(fan: int, ordinary: int, half: int) -> None:
    assert hk_multiplier(fan) == ordinary
    assert hk_multiplier(fan, half_spicy=True) == half


def test_hk_discard_self_draw_cap_unit() -> None:
    opts = {"unit": 2, "cap": 13, "min_fan": 3}
    assert _pay(settle("hk", 3, winner="S", discarder="N", options=opts)) == {"N": 16}
    # self-draw: each of the three pays half
    assert _pay(settle("hk", 3, winner="S", discarder=None, options=opts)) == {
        "E": 8,
        "W": 8,
        "N": 8,
    }
    # capped at 10 fan: a 13-fan limit hand pays 2^10
    capped = settle("hk", 13, winner="E", discarder="W", options={"cap": 10})
    assert _pay(capped) == {"W": 1024}
    spicy = settle("hk", 7, winner="E", discarder="W", options={"half_spicy": True, "unit": 1})
    assert _pay(spicy) == {"W": 48}


def test_hk_half_of_odd_amount_is_rounded_up() -> None:
    # as hefen.hk settles: only possible at 0 fan with a minimum of 0
    pays = settle("hk", 0, winner="E", discarder=None, options={"min_fan": 0, "unit": 1})
    assert [p.amount for p in pays] == [1, 1, 1]


def test_hk_minimum_fan() -> None:
    with pytest.raises(TableError, match="below this table's minimum of 3 fan"):
        settle("hk", 2, winner="E", discarder="S", options={"min_fan": 3})


def test_tw_worked_example() -> None:
    # rules-tw.md: dealer sits South, second consecutive repeat, concealed
    # self-draw 3 + seat flower 1 + dragon pung 1 = 5 tai of the hand; the
    # dealer's 1 + 2 x 2 repeats make 10 tai; at 30/10 each pays 130.
    pays = settle(
        "tw",
        5,
        winner="S",
        discarder=None,
        dealer="S",
        dealer_streak=2,
        options={"base": 30, "per_tai": 10},
    )
    assert _pay(pays) == {"E": 130, "W": 130, "N": 130}
    # the same hand on a discard: 1 instead of 3 → 3 + 5 = 8 tai, discarder alone
    pays = settle(
        "tw",
        3,
        winner="S",
        discarder="W",
        dealer="S",
        dealer_streak=2,
        options={"base": 30, "per_tai": 10},
    )
    assert _pay(pays) == {"W": 110}


def test_tw_dealer_pays_extra_only_on_his_transaction() -> None:
    opts = {"base": 30, "per_tai": 10}
    # non-dealer self-draws: the dealer (E, one repeat → 3 extra) pays more
    pays = settle("tw", 2, winner="W", discarder=None, dealer="E", dealer_streak=1, options=opts)
    assert _pay(pays) == {"E": 30 + 5 * 10, "S": 50, "N": 50}
    # non-dealer discards to non-dealer: no extra
    assert _pay(settle("tw", 2, winner="W", discarder="N", dealer="E", options=opts)) == {"N": 50}
    # a table giving 1 tai per repeat: 1 + 1 x 2
    pays = settle(
        "tw",
        5,
        winner="S",
        discarder=None,
        dealer="S",
        dealer_streak=2,
        options={"base": 30, "per_tai": 10, "dealer_repeat_tai": 1},
    )
    assert _pay(pays) == {"E": 110, "W": 110, "N": 110}
    # chicken hand (0 tai) is paid the base
    assert _pay(settle("tw", 0, winner="W", discarder="N", dealer="E", options=opts)) == {"N": 30}


def test_bad_input_is_one_sentence() -> None:
    with pytest.raises(TableError, match="cannot also be the discarder"):
        settle("tw", 1, winner="E", discarder="E")
    with pytest.raises(TableError, match="Unknown ruleset"):
        settle("riichi", 1, winner="E", discarder="S")
    with pytest.raises(TableError, match="whole number"):
        settle("tw", 1.5, winner="E", discarder="S")  # type: ignore[arg-type]
