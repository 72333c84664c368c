"""One settlement path, proven (issue #14): a hand scored from its tiles and
the same hand entered by its value pay exactly the same — through
``Ruleset.settle`` and through the table (``plan_record`` by ``hand=`` and by
``value=``) — for every ruleset, its options, any winner, discarder, dealer
and dealer streak.

The value entered is what a player reads off the result: the total, less
(in TW) the dealer's tai, which the ruleset adds per transaction itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hefen.options import Option
from hefen.result import Result
from hefen.ruleset import WINDS, find_ruleset, ruleset_keys
from hefen.scoring import score
from hefen.table import TableError
from hefen.table.core import Event, fold, plan_create, plan_record
from hefen.testing.generate import random_mcr_hand
from hefen.testing.generate_hk_tw import random_hand

#: a random legal winning hand of each ruleset (None: the draw failed, try again)
GENERATORS: dict[str, Callable[[random.Random], dict[str, Any] | None]] = {
    "mcr": random_mcr_hand,
    "hk": lambda rng: random_hand("hk", rng),
    "tw": lambda rng: random_hand("tw", rng),
}

#: patterns a result lists for the dealer's extra, which settle() adds itself
DEALER_PATTERNS = ("dealer", "dealer_streak")


def test_every_ruleset_has_a_generator() -> None:
    assert set(GENERATORS) == set(ruleset_keys())


def _hand(rules: str, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    while True:
        obj = GENERATORS[rules](rng)
        if obj is not None:
            return obj


def _option_values(spec: Option) -> st.SearchStrategy[Any]:
    if spec.kind == "bool":
        values: st.SearchStrategy[Any] = st.booleans()
    elif spec.kind == "int":
        values = st.integers(spec.low, spec.high)
    else:
        values = st.sampled_from(spec.choices)
    # the default half the time, so that most hands still reach the minimum
    return st.one_of(st.just(spec.default), values)


@st.composite
def tables(draw: Any) -> tuple[str, dict[str, Any]]:
    rules = draw(st.sampled_from(ruleset_keys()))
    specs = find_ruleset(rules).options
    chosen = draw(st.lists(st.sampled_from(sorted(specs)), unique=True)) if specs else []
    options = {name: draw(_option_values(specs[name])) for name in chosen}
    return rules, options


def entered_value(result: Result) -> int:
    """What a player enters for a scored hand: its total without the dealer's
    tai (TW lists them as patterns; the payment rule adds them per payer)."""
    extra = sum(p.value * p.count for p in result.patterns if p.id in DEALER_PATTERNS)
    return result.total - extra


SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SETTINGS
@given(
    tables(),
    st.integers(0, 2**32),
    st.sampled_from(WINDS),
    st.integers(0, 3),
    st.sampled_from(WINDS),
    st.integers(0, 6),
)
def test_scored_and_entered_pay_the_same(
    table: tuple[str, dict[str, Any]],
    seed: int,
    winner: str,
    discarder_step: int,
    dealer: str,
    streak: int,
) -> None:
    rules, options = table
    ruleset = find_ruleset(rules)
    # discarder_step 0: a self-draw; else the seat that many places on
    discarder = None if discarder_step == 0 else WINDS[(WINDS.index(winner) + discarder_step) % 4]
    obj = _hand(rules, seed)
    ctx = {
        k: v
        for k, v in obj.get("context", {}).items()
        if k not in ("win", "seat_wind", "discarder", "dealer", "dealer_streak")
    }
    ctx.update(
        win="discard" if discarder else "self_draw",
        seat_wind=winner,
        dealer=dealer,
        dealer_streak=streak,
    )
    if discarder:
        ctx["discarder"] = discarder
    obj = {**obj, "context": ctx, "options": options}
    result = score(obj, strict=True)
    assume(result.valid and result.winning)  # a flag the new seats forbid, a table minimum
    value = entered_value(result)
    settled = ruleset.settle(
        value,
        winner=winner,
        discarder=discarder,
        dealer=dealer,
        dealer_streak=streak,
        options=options,
    )
    assert settled.payments == result.payments, (value, result.to_dict())
    assert all(p.to == winner and p.frm != winner for p in settled.payments)


def _table(rules: str, options: dict[str, Any], draws: int) -> Any:
    create = plan_create(
        code="PROOF1",
        ruleset=rules,
        options=options,
        dealer_keeps_on_draw=True,
        names=None,
        host_token_hash="x",
    )
    events = [Event(1, "table_created", "t", "host", create)]
    for _ in range(draws):  # drawn hands: the dealer keeps the deal, the streak grows
        payload = plan_record(fold(events), draw=True)
        events.append(Event(len(events) + 1, "hand_recorded", "t", "host", payload))
    return fold(events)


@SETTINGS
@given(
    tables(),
    st.integers(0, 2**32),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 5),
)
def test_table_records_by_hand_and_by_value_pay_the_same(
    table: tuple[str, dict[str, Any]],
    seed: int,
    winner: int,
    discarder_step: int,
    draws: int,
) -> None:
    rules, options = table
    try:
        state = _table(rules, options, draws)
    except TableError:
        assume(False)  # settings no table takes (a minimum above the cap)
        raise
    discarder = None if discarder_step == 0 else (winner + discarder_step) % 4
    obj = _hand(rules, seed)
    try:
        by_hand = plan_record(state, draw=False, winner=winner, discarder=discarder, hand=obj)
    except TableError:
        assume(False)  # not a winning hand at this table, in this seat
        raise
    outcome = by_hand["outcome"]
    result = score(outcome["hand"], strict=True)
    assert result.to_dict() == outcome["result"]
    value = entered_value(result)
    by_value = plan_record(state, draw=False, winner=winner, discarder=discarder, value=value)
    assert by_value["outcome"]["payments"] == outcome["payments"], (value, outcome["result"])
    # and both are the ruleset's own rule, seat by seat
    position = state.next
    winds = position.seat_winds
    settled = find_ruleset(rules).settle(
        value,
        winner=winds[winner],
        discarder=None if discarder is None else winds[discarder],
        dealer=winds[position.dealer],
        dealer_streak=position.dealer_streak,
        options=options,
    )
    assert [
        {"from": winds.index(p.frm), "to": winds.index(p.to), "amount": p.amount}
        for p in settled.payments
    ] == outcome["payments"]
