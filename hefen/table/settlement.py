"""Payment rules for hands whose value is entered directly (points, fan or tai).

Everything here works on **seat winds** (``"E" "S" "W" "N"``), exactly like
the ``payments`` list of the result object in ``hand-format.md``; the table
maps winds to seats. Amounts are exact: computed as :class:`fractions.Fraction`
and returned as ``int`` when whole, otherwise ``float`` (with the scorers'
whole-number stakes every amount is whole).

* MCR: every opponent pays the base of 8; the discarder additionally pays the
  hand's value, or on a self-draw all three do.
* HK: ``unit × 2^fan`` with the fan capped at ``cap`` (or the half-spicy
  curve); the discarder pays it all, on a self-draw each of three pays half
  (an odd amount's half rounded up, as the scorer does).
* TW: ``base + tai × per_tai``; the discarder alone, or all three on a
  self-draw; any transaction in which the dealer wins or pays carries
  ``1 + dealer_repeat_tai × streak`` extra tai (``dealer_repeat_tai`` is 2
  by default: 1 + 2 × streak).

``options`` are the table's effective options (every option present, as
:attr:`hefen.table.Settings.effective_options` gives them); missing keys
take the reference pages' defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hefen.table.errors import TableError

WINDS: tuple[str, str, str, str] = ("E", "S", "W", "N")
MCR_BASE = 8

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


@dataclass(frozen=True)
class Payment:
    """One transfer of a hand: ``payer`` pays ``amount`` to ``payee`` (seat winds)."""

    payer: str
    payee: str
    amount: Amount

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


def hk_multiplier(fan: int, *, half_spicy: bool = False) -> int:
    """The payment multiplier of ``fan`` (before the unit).

    Ordinary: ``2^fan``. Half-spicy (半辣): ``2^fan`` up to 4 fan, then the
    payment doubles every two fan: 4→16, 5→24, 6→32, 7→48, 8→64, 9→96, 10→128 …
    """
    if fan < 0:
        raise TableError("A hand cannot have negative fan.")
    if not half_spicy or fan <= 4:
        return 1 << fan
    extra = fan - 4
    value = 16 << (extra // 2)
    return value * 3 // 2 if extra % 2 else value


def hk_amount(fan: int, options: Mapping[str, Any]) -> Fraction:
    """What a discarder pays for a hand of ``fan``: ``unit × multiplier(min(fan, cap))``."""
    cap = int(options.get("cap", 13))
    unit = to_fraction(options.get("unit", 1))
    return unit * hk_multiplier(min(fan, cap), half_spicy=bool(options.get("half_spicy", False)))


def tw_dealer_extra(streak: int, repeat_tai: int = 2) -> int:
    """Extra tai on a transaction where the dealer wins or pays: 1 + 2 × repeats
    (``repeat_tai`` is the table's ``dealer_repeat_tai``, 2 or 1)."""
    return 1 + repeat_tai * streak


def _check_winds(winner: str, discarder: str | None, dealer: str) -> None:
    for name, wind in (("winner", winner), ("dealer", dealer)):
        if wind not in WINDS:
            raise TableError(f"The {name}'s seat wind must be one of E, S, W, N, not {wind!r}.")
    if discarder is not None:
        if discarder not in WINDS:
            raise TableError(
                f"The discarder's seat wind must be one of E, S, W, N, not {discarder!r}."
            )
        if discarder == winner:
            raise TableError("The winner cannot also be the discarder.")


def _payers(winner: str, discarder: str | None) -> list[str]:
    if discarder is not None:
        return [discarder]
    return [w for w in WINDS if w != winner]


def check_value(ruleset: str, value: int, options: Mapping[str, Any]) -> None:
    """Raise :class:`TableError` if ``value`` cannot be a winning hand's value."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError("The hand's value must be a whole number.")
    if ruleset == "mcr":
        if value < MCR_BASE:
            raise TableError(f"An MCR hand needs at least 8 points to win, not {value}.")
    elif ruleset == "hk":
        min_fan = int(options.get("min_fan", 3))
        if value < min_fan:
            raise TableError(
                f"A hand of {value} fan is below this table's minimum of {min_fan} fan."
            )
    elif ruleset == "tw":
        if value < 0:
            raise TableError("A Taiwanese hand cannot have negative tai.")
    else:
        raise TableError(f"Unknown ruleset {ruleset!r}; use mcr, hk or tw.")


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
    tai, which this function adds per transaction). ``discarder`` is ``None``
    for a self-drawn win. Raises :class:`TableError` for impossible input.
    """
    opts: Mapping[str, Any] = options or {}
    _check_winds(winner, discarder, dealer)
    if isinstance(dealer_streak, bool) or not isinstance(dealer_streak, int) or dealer_streak < 0:
        raise TableError("The dealer streak must be a whole number of zero or more.")
    check_value(ruleset, value, opts)
    payments: list[Payment] = []
    if ruleset == "mcr":
        for wind in WINDS:
            if wind == winner:
                continue
            pays_value = discarder is None or wind == discarder
            amount = MCR_BASE + (value if pays_value else 0)
            payments.append(Payment(wind, winner, amount))
    elif ruleset == "hk":
        full = hk_amount(value, opts)
        if discarder is not None:
            payments.append(Payment(discarder, winner, to_amount(full)))
        else:
            half = -(-full // 2)  # rounded up, as hefen.hk does
            for wind in _payers(winner, None):
                payments.append(Payment(wind, winner, to_amount(Fraction(half))))
    else:  # tw
        base = to_fraction(opts.get("base", 30))
        per_tai = to_fraction(opts.get("per_tai", 10))
        extra = tw_dealer_extra(dealer_streak, int(opts.get("dealer_repeat_tai", 2)))
        for wind in _payers(winner, discarder):
            tai = value
            if dealer in (winner, wind):
                tai += extra
            payments.append(Payment(wind, winner, to_amount(base + tai * per_tai)))
    return payments
