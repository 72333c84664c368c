"""Table settings: the ruleset's house-rule options (stakes included) and table rules.

``options`` holds the options the table chose explicitly; it is passed
unchanged to the scorer as the hand object's ``options`` (``hand-format.md``).
The options are validated, and their defaults filled in
(:attr:`Settings.effective_options`), by the ruleset's own
:meth:`hefen.ruleset.Ruleset.resolve_options`, so the table accepts exactly the options
the scorer does; the direct-entry settlement reads the same effective values.
``dealer_keeps_on_draw`` is a table rule of Hong Kong and Taiwanese tables
(the dealer keeps the deal on a drawn hand); MCR ignores it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hefen.errors import HandError
from hefen.ruleset import Ruleset, find_ruleset, ruleset_keys
from hefen.table.errors import TableError


def check_ruleset(ruleset: Any) -> str:
    """``ruleset`` if the registry knows it, else a :class:`TableError` sentence."""
    keys = ruleset_keys()
    if not isinstance(ruleset, str) or ruleset not in keys:
        raise TableError(f"Unknown ruleset {ruleset!r}; use {', '.join(keys)}.")
    return ruleset


def ruleset_of(ruleset: Any) -> Ruleset:
    """The ruleset a table plays; :class:`TableError` for an unknown one."""
    return find_ruleset(check_ruleset(ruleset))


def resolve_options(ruleset: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The complete options (defaults filled in) by the scorer's own rules;
    :class:`TableError` names the first unknown option or bad value."""
    check_ruleset(ruleset)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise TableError("The table options must be an object of option names and values.")
    try:
        resolved = ruleset_of(ruleset).resolve_options(dict(options))
    except HandError as exc:  # one sentence
        raise TableError(str(exc).strip() or f"Invalid {ruleset} options.") from exc
    return dict(resolved)


def default_options(ruleset: str) -> dict[str, Any]:
    """Every option of ``ruleset`` with its default value."""
    return resolve_options(ruleset, {})


@dataclass(frozen=True)
class Settings:
    """Settings of a whole table: the scorer ``options`` the table chose
    (stakes included; missing ones take their defaults) and table rules."""

    ruleset: str
    options: dict[str, Any] = field(default_factory=dict)
    dealer_keeps_on_draw: bool = True

    @property
    def unit(self) -> str:
        """What hand values are counted in: points, fan or tai."""
        return find_ruleset(self.ruleset).unit

    @property
    def effective_options(self) -> dict[str, Any]:
        """All options with defaults filled in (what the scorer will use)."""
        return resolve_options(self.ruleset, self.options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "effective_options": self.effective_options,
            "dealer_keeps_on_draw": self.dealer_keeps_on_draw,
        }


def make_settings(
    ruleset: str,
    options: Mapping[str, Any] | None = None,
    dealer_keeps_on_draw: Any = True,
) -> Settings:
    """Validated settings; raises :class:`TableError` naming the first problem."""
    resolve_options(ruleset, options)
    if not isinstance(dealer_keeps_on_draw, bool):
        raise TableError("The setting dealer_keeps_on_draw must be true or false.")
    return Settings(
        ruleset=ruleset, options=dict(options or {}), dealer_keeps_on_draw=dealer_keeps_on_draw
    )
