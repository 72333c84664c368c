"""Table settings: the ruleset's house-rule options (stakes included) and table rules.

``options`` is passed unchanged to the scorer as the hand object's
``options`` (``hand-format.md``); the direct-entry settlement reads the same
values. ``dealer_keeps_on_draw`` is a table rule of Hong Kong and Taiwanese
tables (the dealer keeps the deal on a drawn hand); MCR ignores it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hefen.table.errors import TableError

RULESETS: tuple[str, str, str] = ("mcr", "hk", "tw")

#: Default options per ruleset (the defaults of the reference pages).
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {
    "mcr": {"variant": "green_book"},
    "hk": {"min_fan": 3, "cap": 13, "half_spicy": False, "small_four_winds": "limit", "unit": 1},
    "tw": {"base": 30, "per_tai": 10, "flower_kong": 2, "human_hand": False},
}

#: What the value of a hand is counted in, per ruleset.
UNITS: dict[str, str] = {"mcr": "points", "hk": "fan", "tw": "tai"}


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# option -> (check, sentence describing the allowed values)
_CHECKS: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "mcr": {
        "variant": (lambda v: v in ("green_book", "mil"), '"green_book" or "mil"'),
    },
    "hk": {
        "min_fan": (lambda v: _is_int(v) and 0 <= v <= 13, "a whole number from 0 to 13"),
        "cap": (lambda v: _is_int(v) and 1 <= v <= 13, "a whole number from 1 to 13"),
        "half_spicy": (lambda v: isinstance(v, bool), "true or false"),
        "small_four_winds": (lambda v: v == "limit" or (_is_int(v) and v == 6), '"limit" or 6'),
        "unit": (lambda v: _is_number(v) and v > 0, "a number above 0"),
    },
    "tw": {
        "base": (lambda v: _is_number(v) and v >= 0, "a number of 0 or more"),
        "per_tai": (lambda v: _is_number(v) and v >= 0, "a number of 0 or more"),
        "flower_kong": (lambda v: _is_int(v) and v in (1, 2), "1 or 2"),
        "human_hand": (lambda v: isinstance(v, bool), "true or false"),
    },
}


def check_ruleset(ruleset: Any) -> str:
    if ruleset not in RULESETS:
        raise TableError(f"Unknown ruleset {ruleset!r}; use mcr, hk or tw.")
    return str(ruleset)


def validate_options(ruleset: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate ``options`` (a partial dict) and return the full options with defaults."""
    check_ruleset(ruleset)
    if options is not None and not isinstance(options, Mapping):
        raise TableError("The table options must be an object of option names and values.")
    full = dict(DEFAULT_OPTIONS[ruleset])
    checks = _CHECKS[ruleset]
    for key, value in (options or {}).items():
        if key not in checks:
            known = ", ".join(sorted(checks))
            raise TableError(f"Unknown {ruleset} option {key!r}; the options are {known}.")
        check, allowed = checks[key]
        if not check(value):
            raise TableError(f"The {ruleset} option {key!r} must be {allowed}, not {value!r}.")
        full[key] = value
    if ruleset == "hk" and full["min_fan"] > full["cap"]:
        raise TableError(
            f"The minimum of {full['min_fan']} fan cannot be above the cap of {full['cap']} fan."
        )
    return full


@dataclass(frozen=True)
class Settings:
    """Settings of a whole table: scorer ``options`` (stakes included) and table rules."""

    ruleset: str
    options: dict[str, Any] = field(default_factory=dict)
    dealer_keeps_on_draw: bool = True

    @property
    def unit(self) -> str:
        """What hand values are counted in: points, fan or tai."""
        return UNITS[self.ruleset]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "dealer_keeps_on_draw": self.dealer_keeps_on_draw,
        }


def make_settings(
    ruleset: str,
    options: Mapping[str, Any] | None = None,
    dealer_keeps_on_draw: Any = True,
) -> Settings:
    """Validated settings; raises :class:`TableError` naming the first problem."""
    full = validate_options(ruleset, options)
    if not isinstance(dealer_keeps_on_draw, bool):
        raise TableError("The setting dealer_keeps_on_draw must be true or false.")
    return Settings(ruleset=ruleset, options=full, dealer_keeps_on_draw=dealer_keeps_on_draw)
