"""What the web pages need to know about the rulesets — all of it asked of the
registry (:mod:`hefen.ruleset`): names, units, hand size, which context
switches and fields apply, and the table settings (each ruleset's
:class:`hefen.options.Option` declarations).

This module only adds the words the web shows beside the registry's facts:
the labels of the context switches, of the winds and of the choice values,
marked with ``N_`` for gettext. Option labels and help sentences are the
rulesets' own (English msgids in the web catalog); everything is translated
when a page is rendered, through the ``translate`` function of its language.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from hefen.options import Option
from hefen.ruleset import DEFAULT_RULESET, Ruleset, find_ruleset, ruleset_keys

__all__ = [
    "DEFAULT_RULESET",
    "N_",
    "RULESETS",
    "RulesetKey",
    "SWITCH_LABELS",
    "VALUE_NAMES",
    "WINDS",
    "WIND_NAMES",
    "choice_text",
    "default_options",
    "describe",
    "option_fields",
    "page_key",
    "ruleset",
    "settings_rows",
    "table_options",
    "value_text",
]

Translate = Callable[[str], str]


def N_(message: str) -> str:
    """Mark a string for translation without translating it (gettext's ``N_``)."""
    return message


#: The rulesets, in the registry's order.
RULESETS: tuple[str, ...] = ruleset_keys()
#: A ruleset key, for request models (built from the registry; a string to
#: the type checker).
if TYPE_CHECKING:
    RulesetKey = str
else:
    RulesetKey = Literal[RULESETS]

WINDS: tuple[str, ...] = ("E", "S", "W", "N")
WIND_NAMES: dict[str, str] = {
    "E": N_("East"),
    "S": N_("South"),
    "W": N_("West"),
    "N": N_("North"),
}

#: The words of hand-format.md's yes/no context keys (which apply to which
#: ruleset is the ruleset's ``context_switches``).
SWITCH_LABELS: dict[str, str] = {
    "last_tile_of_wall": N_("Last tile"),
    "kong_replacement": N_("Kong replacement"),
    "double_kong_replacement": N_("Double kong replacement"),
    "robbing_kong": N_("Robbing a kong"),
    "last_of_kind": N_("Last of its kind"),
    "heavenly": N_("Heavenly hand"),
    "earthly": N_("Earthly hand"),
    "human": N_("Human hand"),
}

#: The words of the hand-format.md ``declared_ready`` values.
READY_LABELS: dict[str, str] = {
    "tian_ting": N_("Heavenly ready (天聽)"),
    "di_ting": N_("Earthly ready (地聽)"),
}

#: The words of the options' text choices (a value not here is shown as it is).
VALUE_NAMES: dict[str, str] = {
    "green_book": N_("Green Book"),
    "mil": N_("Mahjong International League"),
    "whole_hand": N_("the whole hand"),
    "remainder": N_("the set and pair beside it"),
    "ignore": N_("ignored"),
    "count": N_("counted"),
    "limit": N_("limit"),
    "pure": N_("pure only"),
    "any": N_("any"),
}


def ruleset(key: Any) -> Ruleset:
    """The registry's ruleset ``key``; a :class:`hefen.errors.HandError` sentence otherwise."""
    return find_ruleset(key)


def page_key(key: Any) -> str:
    """``key`` if it names a ruleset, else the default one (for page links)."""
    return key if isinstance(key, str) and key in RULESETS else DEFAULT_RULESET


def default_options(key: str) -> dict[str, Any]:
    """Every option of ``key`` with its declared default."""
    return {name: o.default for name, o in find_ruleset(key).options.items()}


def table_options(key: str, given: Any) -> dict[str, Any]:
    """The options a table chose, typed by the ruleset's own parser (form
    text or JSON values); a :class:`hefen.errors.HandError` sentence names
    the first unknown option or value that does not fit."""
    r = find_ruleset(key)
    if not isinstance(given, Mapping):
        raise ValueError("'options' must be an object of option names and values.")
    return r.parse_options(given)


def choice_text(value: Any) -> str:
    """A choice's value as a form field carries it (JSON text: ``13``,
    ``"limit"``, ``null``), read back with ``JSON.parse``."""
    return json.dumps(value)


def value_text(option: Option, value: Any, translate: Translate = str) -> str:
    """An option's value in words."""
    if option.kind == "bool":
        return translate(N_("yes")) if value else translate(N_("no"))
    if value is None:
        return translate(option.none_means) if option.none_means else "—"
    if isinstance(value, str):
        return translate(VALUE_NAMES.get(value, value))
    return str(value)


def option_fields(key: str, translate: Translate = str) -> list[dict[str, Any]]:
    """The settings form of ruleset ``key``: every option it declares, labelled."""
    out = []
    for o in find_ruleset(key).options.values():
        field: dict[str, Any] = {
            "name": o.name,
            "kind": o.kind,
            "label": translate(o.label or o.name),
            "help": translate(o.meaning),
            "default": o.default,
        }
        if o.kind == "int":
            field["min"], field["max"] = o.low, o.high
        if o.kind == "choice":
            field["default_text"] = choice_text(o.default)
            field["choices"] = [
                {"value": choice_text(c), "label": value_text(o, c, translate)} for c in o.choices
            ]
        out.append(field)
    return out


def settings_rows(
    key: str, options: Mapping[str, Any] | None, translate: Translate = str
) -> list[dict[str, Any]]:
    """Every option of ruleset ``key`` at a table that chose ``options``:
    its label, help, value in words and whether it differs from the default.
    A value left to another option ("by the point values") says what it is
    in effect."""
    r = find_ruleset(key)
    chosen = dict(options or {})
    effective = r.resolve_options(chosen)
    rows = []
    for o in r.options.values():
        value = chosen.get(o.name, o.default)
        text = value_text(o, value, translate)
        if value is None and effective.get(o.name) is not None:
            text = f"{text}: {value_text(o, effective[o.name], translate)}"
        rows.append(
            {
                "name": o.name,
                "label": translate(o.label or o.name),
                "help": translate(o.meaning),
                "value": value,
                "text": text,
                "default_text": value_text(o, o.default, translate),
                "changed": value != o.default or type(value) is not type(o.default),
            }
        )
    return rows


def describe(key: str, lang: str, translate: Translate = str) -> dict[str, Any]:
    """The registry's descriptor of ruleset ``key`` for pages and their
    scripts, with the words of its switches and fields in ``lang``."""
    r = find_ruleset(key)
    d = r.describe(lang, translate)
    d["switch_labels"] = {s: translate(SWITCH_LABELS.get(s, s)) for s in r.context_switches}
    d["ready_labels"] = {v: translate(READY_LABELS.get(v, v)) for v in r.declared_ready}
    return d
