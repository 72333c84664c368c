"""What the web pages need to know about each ruleset: its name, hand size,
which context switches apply, and its table settings (options).

The option names and defaults are those of the interchange format
(``hand-format.md``); labels are marked with ``N_`` for gettext and
translated when a page is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


def N_(message: str) -> str:
    """Mark a string for translation without translating it (gettext's ``N_``)."""
    return message


RULESETS: tuple[str, ...] = ("mcr", "hk", "tw")
WINDS: tuple[str, ...] = ("E", "S", "W", "N")

RULESET_NAMES: dict[str, str] = {
    "mcr": N_("MCR (Chinese Official)"),
    "hk": N_("Hong Kong"),
    "tw": N_("Taiwanese 16-tile"),
}
SHORT_NAMES: dict[str, str] = {"mcr": "MCR", "hk": "HK", "tw": "TW"}
UNITS: dict[str, str] = {"mcr": N_("points"), "hk": N_("fan"), "tw": N_("tai")}
# Tiles held before the winning tile (a meld counts three, a kong too).
HAND_SIZE: dict[str, int] = {"mcr": 13, "hk": 13, "tw": 16}
WIND_NAMES: dict[str, str] = {
    "E": N_("East"),
    "S": N_("South"),
    "W": N_("West"),
    "N": N_("North"),
}


@dataclass(frozen=True)
class Option:
    """One table setting of a ruleset."""

    name: str
    label: str
    kind: Literal["int", "number", "bool", "choice"]
    default: Any
    choices: tuple[tuple[Any, str], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "choices": [v for v, _ in self.choices],
        }


OPTIONS: dict[str, tuple[Option, ...]] = {
    "mcr": (
        Option(
            "variant",
            N_("Point values"),
            "choice",
            "green_book",
            (("green_book", N_("Green Book")), ("mil", N_("Mahjong International League"))),
        ),
    ),
    "hk": (
        Option("min_fan", N_("Minimum fan to win"), "int", 3),
        Option("cap", N_("Fan cap (limit)"), "choice", 13, ((13, "13"), (10, "10"), (8, "8"))),
        Option("half_spicy", N_("Half-spicy payments"), "bool", False),
        Option(
            "small_four_winds",
            N_("Small Four Winds"),
            "choice",
            "limit",
            (("limit", N_("limit")), (6, "6")),
        ),
        Option("unit", N_("Money for 2^0"), "number", 1),
    ),
    "tw": (
        Option("base", N_("Base (底)"), "int", 30),
        Option("per_tai", N_("Amount per tai"), "int", 10),
        Option("flower_kong", N_("Flower kong tai"), "choice", 2, ((2, "2"), (1, "1"))),
        Option("human_hand", N_("Human hand (人胡) 8 tai"), "bool", False),
    ),
}


@dataclass(frozen=True)
class Switch:
    """A yes/no fact about how the hand was won (a ``context`` key)."""

    name: str
    label: str
    rulesets: tuple[str, ...] = RULESETS


SWITCHES: tuple[Switch, ...] = (
    Switch("last_tile_of_wall", N_("Last tile")),
    Switch("kong_replacement", N_("Kong replacement")),
    Switch("double_kong_replacement", N_("Double kong replacement"), ("hk",)),
    Switch("robbing_kong", N_("Robbing a kong")),
    Switch("last_of_kind", N_("Last of its kind"), ("mcr",)),
    Switch("heavenly", N_("Heavenly hand"), ("hk", "tw")),
    Switch("earthly", N_("Earthly hand"), ("hk", "tw")),
    Switch("human", N_("Human hand"), ("tw",)),
)


def options_for(rules: str) -> tuple[Option, ...]:
    return OPTIONS[rules]


def default_options(rules: str) -> dict[str, Any]:
    return {o.name: o.default for o in OPTIONS[rules]}


def clean_options(rules: str, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` reduced to the ruleset's known options, coerced to their kind.

    Raises ``ValueError`` (one sentence) for a value that does not fit.
    """
    out: dict[str, Any] = {}
    for opt in OPTIONS[rules]:
        if opt.name not in given or given[opt.name] in (None, ""):
            continue
        value = given[opt.name]
        try:
            if opt.kind == "bool":
                if isinstance(value, str):
                    value = value.lower() in ("1", "true", "on", "yes")
                value = bool(value)
            elif opt.kind == "int":
                value = int(value)
            elif opt.kind == "number":
                value = float(value)
                value = int(value) if value.is_integer() else value
            else:
                allowed = [v for v, _ in opt.choices]
                match = [v for v in allowed if str(v) == str(value)]
                if not match:
                    raise ValueError
                value = match[0]
        except (TypeError, ValueError):
            raise ValueError(f"The setting {opt.name} cannot be {value!r}.") from None
        out[opt.name] = value
    return out
