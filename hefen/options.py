"""Table settings (``options``) of the rulesets:
each a name, a default and the values it accepts, checked with one-sentence
errors."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .hand import HandError

__all__ = ["Option", "resolve", "choice", "whole_number", "boolean"]


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    default: Any
    accepts: Callable[[Any], bool]
    allowed: str  # the accepted values in words, for the error message
    meaning: str


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def boolean(name: str, default: bool, meaning: str) -> Option:
    return Option(name, default, lambda v: isinstance(v, bool), "true or false", meaning)


def choice(name: str, default: Any, values: tuple[Any, ...], meaning: str) -> Option:
    def ok(v: Any) -> bool:
        return any(v == c and type(v) is type(c) for c in values)

    allowed = " or ".join(f'"{c}"' if isinstance(c, str) else str(c) for c in values)
    return Option(name, default, ok, allowed, meaning)


def whole_number(name: str, default: int, low: int, high: int, meaning: str) -> Option:
    return Option(
        name,
        default,
        lambda v: _is_int(v) and low <= v <= high,
        f"a whole number from {low} to {high}",
        meaning,
    )


def resolve(ruleset: str, specs: Mapping[str, Option], raw: Mapping[str, Any]) -> dict[str, Any]:
    """The table's settings with defaults filled in; an unknown name or a
    value out of range is a :class:`HandError`."""
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        raise HandError(f"Unknown {ruleset} option '{unknown[0]}' (known: {', '.join(specs)}).")
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        v = raw.get(name, spec.default)
        if not spec.accepts(v):
            raise HandError(f"The {ruleset} option {name} must be {spec.allowed}, not {v!r}.")
        out[name] = v
    return out
