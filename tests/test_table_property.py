"""Property: for any sequence of recorded hands (wins by value, draws, undos,
corrections, settings changes) the balances always sum to exactly zero, every
hand moves zero in total, and the running balances are the sums of the
changes. Runs on the pure fold (no database) so it is fast."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hefen.table import TableError
from hefen.table.core import (
    Event,
    fold,
    plan_correct,
    plan_create,
    plan_record,
    plan_settings,
    plan_undo,
)
from hefen.table.settlement import to_fraction

VALUES = {"mcr": (8, 88), "hk": (0, 13), "tw": (0, 30)}
OPTIONS = {
    "mcr": st.fixed_dictionaries({"variant": st.sampled_from(["green_book", "mil"])}),
    "hk": st.fixed_dictionaries(
        {
            "unit": st.sampled_from([1, 2, 3]),
            "cap": st.sampled_from([8, 10, 13]),
            "half_spicy": st.booleans(),
            "min_fan": st.sampled_from([0, 1, 3]),
        }
    ),
    "tw": st.fixed_dictionaries(
        {
            "base": st.sampled_from([30, 50, 0]),
            "per_tai": st.sampled_from([10, 20, 1]),
            "dealer_repeat_tai": st.sampled_from([2, 1]),
        }
    ),
}


@st.composite
def scenario(draw: Any) -> tuple[str, dict[str, Any], list[tuple[Any, ...]]]:
    ruleset = draw(st.sampled_from(["mcr", "hk", "tw"]))
    lo, hi = VALUES[ruleset]
    options = draw(OPTIONS[ruleset])
    win = st.tuples(
        st.just("win"),
        st.integers(0, 3),
        st.one_of(st.none(), st.integers(0, 3)),
        st.integers(lo, hi),
    )
    op = st.one_of(
        win,
        win,
        win,
        st.tuples(st.just("draw")),
        st.tuples(st.just("undo")),
        st.tuples(st.just("correct"), st.integers(0, 40), win),
        st.tuples(st.just("settings"), OPTIONS[ruleset], st.booleans()),
    )
    ops = draw(st.lists(op, max_size=40))
    return ruleset, options, ops


def _apply(events: list[Event], kind: str, payload: dict[str, Any] | None) -> None:
    if payload is not None:
        events.append(Event(len(events) + 1, kind, "t", "host", payload))


@settings(max_examples=150, deadline=None)
@given(scenario())
def test_balances_always_sum_to_zero(
    case: tuple[str, dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    ruleset, options, ops = case
    events = [
        Event(
            1,
            "table_created",
            "t",
            "host",
            plan_create(
                code="ABCDEF",
                ruleset=ruleset,
                options=options,
                dealer_keeps_on_draw=True,
                names=None,
                host_token_hash="x",
            ),
        )
    ]
    for op in ops:
        state = fold(events)
        try:
            if op[0] == "win":
                _, w, d, v = op
                _apply(
                    events,
                    "hand_recorded",
                    plan_record(state, draw=False, winner=w, discarder=d, value=v),
                )
            elif op[0] == "draw":
                _apply(events, "hand_recorded", plan_record(state, draw=True))
            elif op[0] == "undo":
                _apply(events, "hand_undone", plan_undo(state))
            elif op[0] == "correct":
                _, index, (_, w, d, v) = op
                if state.hands:
                    target = state.hands[index % len(state.hands)].id
                    _apply(
                        events,
                        "hand_corrected",
                        plan_correct(state, target, draw=False, winner=w, discarder=d, value=v),
                    )
            else:
                _, opts, keep = op
                _apply(events, "settings_changed", plan_settings(state, opts, keep))
        except TableError:
            pass  # refused requests write nothing
    state = fold(events)
    assert sum(to_fraction(b) for b in state.balances) == 0
    running = [Fraction(0)] * 4
    for number, hand in enumerate(state.hands, start=1):
        assert hand.number == number
        assert sum(to_fraction(c) for c in hand.changes) == 0
        running = [r + to_fraction(c) for r, c in zip(running, hand.changes, strict=True)]
        assert [to_fraction(b) for b in hand.balances] == running
        if hand.kind == "draw":
            assert hand.payments == ()
        else:
            assert all(p.payee == hand.winner and p.amount >= 0 for p in hand.payments)
    assert state.next.hand_number == len(state.hands) + 1
