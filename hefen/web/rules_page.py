"""The rules reference pages: every pattern of a ruleset with its value, its
name in the page's language and an example hand, with the table's settings
marked where they change a value."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from hefen.web import examples, rulesets

__all__ = ["PatternRow", "pattern_rows"]


@dataclass
class PatternRow:
    id: str
    name: str
    name_en: str
    value: int | None
    default_value: int | None
    example: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return self.value != self.default_value


def _name(spec: Any, lang: str) -> tuple[str, str]:
    names = getattr(spec, "names", None)
    if isinstance(names, dict):
        en = names.get("en") or getattr(spec, "name_en", "") or getattr(spec, "name", "")
        return str(names.get(lang) or en), str(en)
    en = getattr(spec, "name_en", None) or getattr(spec, "name", None) or spec.id
    return str(getattr(spec, f"name_{lang}", None) or en), str(en)


def _mcr_rows(lang: str, options: dict[str, Any]) -> list[PatternRow]:
    from hefen.mcr.table import ORDER, PATTERNS

    default = rulesets.default_options("mcr")["variant"]
    variant = options.get("variant", default)
    ex = examples.examples("mcr")
    rows = []
    for pid in ORDER:
        spec = PATTERNS[pid]
        name, en = _name(spec, lang)
        rows.append(
            PatternRow(
                id=pid,
                name=name,
                name_en=en,
                value=spec.value(variant),
                default_value=spec.value(default),
                example=ex.get(pid),
            )
        )
    return rows


def _generic_rows(rules: str, lang: str) -> list[PatternRow] | None:
    """Rows from a ruleset module's ``PATTERNS`` table, if it has one."""
    try:
        module = importlib.import_module(f"hefen.{rules}")
    except ImportError:
        return None
    table = getattr(module, "PATTERNS", None)
    if not table:
        return None
    specs = list(table.values()) if isinstance(table, dict) else list(table)
    ex = examples.examples(rules)
    rows = []
    for spec in specs:
        value = next(
            (getattr(spec, k) for k in ("value", "points", "fan", "tai") if hasattr(spec, k)),
            None,
        )
        if not isinstance(value, int):
            value = None
        name, en = _name(spec, lang)
        group = getattr(spec, "group", None)
        extra = {"limit": value is None and group == "limit"}
        rows.append(PatternRow(spec.id, name, en, value, value, ex.get(spec.id), extra))
    return rows


def pattern_rows(rules: str, lang: str, options: dict[str, Any]) -> list[PatternRow] | None:
    """The patterns of ``rules`` under ``options``; None when the ruleset's
    module exposes no pattern table."""
    if rules == "mcr":
        return _mcr_rows(lang, options)
    return _generic_rows(rules, lang)
