"""Settling a win at the table: the table asks the ruleset.

The payment rule of each ruleset lives in one place,
:meth:`hefen.ruleset.Ruleset.settle` (MCR's base 8 in :mod:`hefen.mcr`,
Hong Kong's 2^fan and half-spicy curve in :mod:`hefen.hk`, Taiwan's base +
per tai with the dealer's extra tai in :mod:`hefen.tw`); a hand scored from
its tiles is paid by the same rule, so a hand entered by value and the same
hand entered by tiles pay the same.

Everything here works on **seat winds** (``"E" "S" "W" "N"``), exactly like
the ``payments`` list of the result object in ``hand-format.md``; the table
maps winds to seats. Balances are kept exactly (:func:`to_fraction`,
:func:`to_amount`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from hefen.errors import HandError
from hefen.position import WINDS
from hefen.result import Payment
from hefen.ruleset import find_ruleset, ruleset_keys
from hefen.table.errors import TableError

__all__ = ["WINDS", "Amount", "Payment", "check_value", "settle", "to_amount", "to_fraction"]

Amount = int | float


def to_amount(value: Fraction) -> Amount:
    """An exact fraction as ``int`` when whole, else ``float``."""
    if value.denominator == 1:
        return int(value)
    return float(value)


def to_fraction(value: Amount) -> Fraction:
    """A number as an exact fraction (floats by their decimal text: 0.1 is 1/10)."""
    if isinstance(value, bool):
        raise TableError("An amount must be a number, not true or false.")
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(str(value))


def _ruleset(ruleset: str) -> Any:
    try:
        return find_ruleset(ruleset)
    except HandError as exc:
        raise TableError(f"Unknown ruleset {ruleset!r}; use {', '.join(ruleset_keys())}.") from exc


def check_value(ruleset: str, value: Any, options: Mapping[str, Any]) -> None:
    """Raise :class:`TableError` if ``value`` cannot be a winning hand's value."""
    rs = _ruleset(ruleset)
    try:
        rs.check_value(value, rs.resolve_options(options))
    except HandError as exc:
        raise TableError(str(exc)) from exc


def settle(
    ruleset: str,
    value: int,
    *,
    winner: str,
    discarder: str | None,
    dealer: str = "E",
    dealer_streak: int = 0,
    options: Mapping[str, Any] | None = None,
) -> list[Payment]:
    """The payments of a win whose value was entered directly.

    ``value`` is points (MCR), fan (HK) or tai (TW, without the dealer's extra
    tai, which the ruleset adds per transaction). ``discarder`` is ``None``
    for a self-drawn win. Raises :class:`TableError` for impossible input.
    """
    rs = _ruleset(ruleset)
    try:
        settled = rs.settle(
            value,
            winner=winner,
            discarder=discarder,
            dealer=dealer,
            dealer_streak=dealer_streak,
            options=options or {},
        )
    except HandError as exc:
        raise TableError(str(exc)) from exc
    return list(settled.payments)
