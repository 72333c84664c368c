"""Table settings (``options``) of the rulesets.

Each option is declared once, by its ruleset, as an :class:`Option`: a name,
a kind (``bool``, ``int`` or ``choice``), the values it accepts, a default, a
short label and a help sentence (English; translated through the gettext
catalog, see :mod:`hefen.i18n`). Every layer reads these declarations: the
scorer validates with :func:`resolve`, the CLI and the web forms turn text
into values with :meth:`Option.parse`, and the web pages are generated from
:meth:`Option.describe`.

>>> o = whole_number("min_fan", 3, 0, 13, "below it the hand is not winning", label="Minimum fan")
>>> o.parse("5"), o.accepts(5), o.accepts(5.0), o.accepts(True)
(5, True, False, False)
>>> o.parse("five")
Traceback (most recent call last):
...
hefen.errors.HandError: The option min_fan must be a whole number from 0 to 13, not 'five'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import HandError, safe_repr

__all__ = ["Option", "resolve", "choice", "whole_number", "boolean"]

OptionKind = Literal["bool", "int", "choice"]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _show(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


@dataclass(frozen=True, slots=True)
class Option:
    """One table setting, as its ruleset declares it."""

    name: str
    kind: OptionKind
    default: Any
    meaning: str  # the help sentence (English msgid)
    label: str = ""  # a short label for forms (English msgid)
    choices: tuple[Any, ...] = ()
    low: int = 0
    high: int = 0
    #: for a choice whose default is ``None``: what ``None`` means ("by variant")
    none_means: str = ""

    # -- what it accepts -------------------------------------------------
    def accepts(self, v: Any) -> bool:
        """Whether ``v`` (a JSON value) is a legal value of this option."""
        if self.kind == "bool":
            return isinstance(v, bool)
        if self.kind == "int":
            return _is_int(v) and self.low <= v <= self.high
        return any(v == c and type(v) is type(c) for c in self.choices)

    @property
    def allowed(self) -> str:
        """The accepted values in words, for an error sentence."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            return f"a whole number from {self.low} to {self.high}"
        return " or ".join(_show(c) for c in self.choices)

    def check(self, v: Any, ruleset: str = "") -> Any:
        """``v`` if it is legal, else a :class:`HandError` naming the option."""
        if not self.accepts(v):
            who = f"The {ruleset} option" if ruleset else "The option"
            raise HandError(f"{who} {self.name} must be {self.allowed}, not {_repr(v)}.")
        return v

    def parse(self, text: Any) -> Any:
        """A value from text (a form field, ``NAME=VALUE`` on the command line)
        or from JSON; a :class:`HandError` sentence when it does not fit."""
        if not isinstance(text, str):
            return self.check(text)
        t = text.strip()
        if self.kind == "bool":
            low = t.lower()
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
        elif self.kind == "int":
            try:
                v = int(t)
            except ValueError:
                v = None
            if v is not None and self.accepts(v):
                return v
        else:
            for c in self.choices:
                if _show(c).strip('"') == t or (c is None and t in ("", "default")):
                    return c
        raise HandError(f"The option {self.name} must be {self.allowed}, not {_repr(text)}.")

    def describe(self, translate: Callable[[str], str] = str) -> dict[str, Any]:
        """A JSON description for forms and clients (labels through ``translate``)."""
        d: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": translate(self.label or self.name),
            "help": translate(self.meaning),
        }
        if self.kind == "int":
            d["min"], d["max"] = self.low, self.high
        if self.kind == "choice":
            d["choices"] = list(self.choices)
            if self.none_means:
                d["none_means"] = translate(self.none_means)
        return d


def _repr(v: Any) -> str:
    return safe_repr(v)


def boolean(name: str, default: bool, meaning: str, *, label: str = "") -> Option:
    return Option(name, "bool", default, meaning, label)


def choice(
    name: str,
    default: Any,
    values: tuple[Any, ...],
    meaning: str,
    *,
    label: str = "",
    none_means: str = "",
) -> Option:
    return Option(name, "choice", default, meaning, label, values, none_means=none_means)


def whole_number(
    name: str, default: int, low: int, high: int, meaning: str, *, label: str = ""
) -> Option:
    return Option(name, "int", default, meaning, label, low=low, high=high)


class KeptSettings:
    """A ruleset's resolved settings kept by the raw ones: ``kept(raw)`` is
    ``resolve_options(dict(raw))``, shared (not to be changed) when ``raw`` is
    a dict of plain values resolved before; its refusal is the same.

    ``table`` maps ``tuple((name, type(value), value) for each item)`` to the
    resolved dict; the compiled one-call scorers (``hefen._core``) read it as
    it is, so its keys keep that form.

    >>> kept = KeptSettings(lambda raw: {"cap": 8, **raw})
    >>> kept({"cap": 6}) is kept({"cap": 6}), kept({"cap": 6})
    (True, {'cap': 6})
    """

    __slots__ = ("table", "_resolve")

    def __init__(self, resolve_options: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.table: dict[tuple[tuple[str, type, Any], ...], dict[str, Any]] = {}
        self._resolve = resolve_options

    def __call__(self, raw: Any) -> dict[str, Any]:
        key = None
        if type(raw) is dict and all(type(v) in _PLAIN for v in raw.values()):
            key = tuple([(k, type(v), v) for k, v in raw.items()])
            hit = self.table.get(key)
            if hit is not None:
                return hit
        out = self._resolve(dict(raw))
        if key is not None:
            if len(self.table) >= 1024:
                self.table.clear()
            self.table[key] = out
        return out


#: resolved settings by (ruleset, the specs' id, the raw items with their types)
_RESOLVED: dict[Any, tuple[Mapping[str, Option], dict[str, Any]]] = {}
_PLAIN = frozenset({str, int, bool, float, type(None)})


def resolve(ruleset: str, specs: Mapping[str, Option], raw: Any) -> dict[str, Any]:
    """The table's settings with defaults filled in; an unknown name or a
    value out of range is a :class:`HandError`.

    Settings of plain values that resolved once are answered from a cache
    (a fresh dict each time); a refusal is never cached."""
    if raw is None:
        raw = {}
    key = None
    if type(raw) is dict and all(type(v) in _PLAIN for v in raw.values()):
        key = (ruleset, id(specs), tuple([(k, type(v), v) for k, v in raw.items()]))
        hit = _RESOLVED.get(key)
        if hit is not None and hit[0] is specs:
            return dict(hit[1])
    if not isinstance(raw, Mapping):
        raise HandError("'options' must be an object of option names and values.")
    unknown = sorted((k for k in raw if k not in specs), key=str)
    if unknown:
        raise HandError(
            f"Unknown {ruleset} option {_repr(unknown[0])} (known: {', '.join(specs)})."
        )
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        out[name] = spec.check(raw.get(name, spec.default), ruleset)
    if key is not None:
        if len(_RESOLVED) >= 1024:
            _RESOLVED.clear()
        _RESOLVED[key] = (specs, dict(out))
    return out
