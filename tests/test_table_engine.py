"""Hands scored by the engine (hefen.score) at a table: the table fills in the
context it knows, and a scored hand settles exactly like the same value
entered directly."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hefen.table import TableError, TableStore, open_store

HANDS: dict[str, dict[str, Any]] = {
    "mcr": {
        "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E"],
        "win_tile": "E",
    },
    "hk": {
        "hand": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "7m", "7m", "E", "E", "C", "C"],
        "win_tile": "C",
    },
    "tw": {
        "hand": [
            "1m",
            "2m",
            "3m",
            "4m",
            "5m",
            "6m",
            "7p",
            "8p",
            "9p",
            "2s",
            "3s",
            "4s",
            "C",
            "C",
            "C",
            "5s",
        ],
        "win_tile": "5s",
    },
}


def _engine_for(ruleset: str) -> None:
    import hefen

    if not hasattr(hefen, "score"):
        pytest.skip("hefen.score (the scoring engine) is not available")
    if importlib.util.find_spec(f"hefen.{ruleset}") is None or not hasattr(
        importlib.import_module(f"hefen.{ruleset}"), "score"
    ):
        pytest.skip(f"the {ruleset} scorer (hefen.{ruleset}.score) is not available yet")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    s = open_store(f"sqlite:///{tmp_path / 'engine.sqlite3'}")
    yield s
    s.close()


def _table(store: TableStore, ruleset: str) -> tuple[str, str]:
    t = store.create_table(ruleset, names=["Ann", "Bo", "Cy", "Di"])
    return t.code, t.host_token


# (hands to play before, winner, discarder): covers a dealer repeat streak,
# the dealer paying, a non-dealer self-draw and a plain discard.
SITUATIONS = [
    ([], 1, 2),
    ([], 2, None),
    ([(0, 1)], 0, 3),  # dealer won the hand before: streak 1, dealer wins again
    ([(0, 1), (0, 2)], 3, 0),  # streak 2, dealer pays
    ([(0, 1), (0, 2)], 0, None),  # streak 2, dealer self-draws
    ([(1, 2), (3, 0), (2, None)], 1, 3),
]


@pytest.mark.parametrize("ruleset", ["mcr", "hk", "tw"])
@pytest.mark.parametrize(("before", "winner", "discarder"), SITUATIONS)
def test_scored_and_entered_settle_identically(
    store: TableStore,
    ruleset: str,
    before: list[tuple[int, int | None]],
    winner: int,
    discarder: int | None,
) -> None:
    _engine_for(ruleset)
    scored_code, scored_host = _table(store, ruleset)
    entered_code, entered_host = _table(store, ruleset)
    low = {"mcr": 8, "hk": 3, "tw": 0}[ruleset]
    for code, host in ((scored_code, scored_host), (entered_code, entered_host)):
        for w, d in before:
            store.record_win(code, host, winner=w, discarder=d, value=low)
    hand = {"rules": ruleset, **HANDS[ruleset]}
    scored = store.record_win(
        scored_code, scored_host, winner=winner, discarder=discarder, hand=hand
    )
    assert scored.source == "scored" and scored.result is not None
    assert scored.value == scored.result["total"]
    value = scored.value
    if ruleset == "tw":
        # the engine's total lists the dealer's tai (patterns Dealer and Dealer
        # Repeats) when the dealer won or alone pays; an entered value is the
        # hand's tai without them, the table adds them per transaction
        value -= sum(
            p["value"] * p["count"]
            for p in scored.result["patterns"]
            if p["id"] in ("dealer", "dealer_streak")
        )
    entered = store.record_win(
        entered_code, entered_host, winner=winner, discarder=discarder, value=value
    )
    assert scored.position == entered.position
    assert sorted(p.to_dict().items() for p in scored.payments) == sorted(
        p.to_dict().items() for p in entered.payments
    )
    assert scored.changes == entered.changes


@pytest.mark.parametrize("ruleset", ["mcr", "hk", "tw"])
def test_table_fills_in_the_context(store: TableStore, ruleset: str) -> None:
    _engine_for(ruleset)
    code, host = _table(store, ruleset)
    store.record_win(code, host, winner=1, discarder=0, value={"mcr": 8, "hk": 3, "tw": 0}[ruleset])
    state = store.get(code)
    pos = state.next
    hand = {
        "rules": ruleset,
        **HANDS[ruleset],
        # wrong values the table must replace; a situational flag it must keep
        "context": {
            "seat_wind": "N",
            "round_wind": "N",
            "win": "self_draw",
            "last_tile_of_wall": True,
        },
    }
    rec = store.record_win(code, host, winner=2, discarder=3, hand=hand)
    assert rec.hand is not None
    ctx = rec.hand["context"]
    assert ctx["seat_wind"] == pos.seat_winds[2]
    assert ctx["discarder"] == pos.seat_winds[3]
    assert ctx["round_wind"] == pos.round_wind
    assert ctx["dealer"] == pos.seat_winds[pos.dealer]
    assert ctx["win"] == "discard" and ctx["last_tile_of_wall"] is True
    assert rec.hand["options"] == state.settings.options
    if ruleset == "tw":
        assert ctx["dealer_streak"] == pos.dealer_streak


def test_invalid_or_losing_hands_are_refused(store: TableStore) -> None:
    _engine_for("mcr")
    code, host = _table(store, "mcr")
    before = store.get(code)
    bad = {"rules": "mcr", "hand": ["1m", "2m"], "win_tile": "3m"}
    with pytest.raises(TableError) as info:
        store.record_win(code, host, winner=0, discarder=1, hand=bad)
    assert str(info.value).endswith(".")
    typo = {**HANDS["mcr"], "hnad": []}
    with pytest.raises(TableError, match="hnad"):
        store.record_win(code, host, winner=0, discarder=1, hand=typo)
    # a complete hand under 8 points is not a win
    chicken_ish = {
        "hand": ["1m", "2m", "3m", "4m", "5m", "6m", "2p", "3p", "4p", "6s", "7s", "8s", "9p"],
        "win_tile": "9p",
    }
    with pytest.raises(TableError, match="not a winning hand"):
        store.record_win(code, host, winner=0, discarder=1, hand=chicken_ish)
    assert store.get(code) == before
