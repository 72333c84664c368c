"""The rules reference pages: every pattern of a ruleset with its value, its
name in the page's language and an example hand, with the table's settings
marked where they change a value."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from hefen.web import examples, rulesets
from hefen.web.rulesets import N_

__all__ = ["PatternRow", "context_words", "pattern_rows"]

WIND_TILES = frozenset("ESWN")


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

    @property
    def context(self) -> list[tuple[str, str | None]]:
        return context_words(self.example) if self.example else []


def context_words(example: dict[str, Any]) -> list[tuple[str, str | None]]:
    """How an example hand was won, as (label, value) message ids for the
    page to translate: the kind of win always; the seat wind where the hand
    holds winds or (in Hong Kong and Taiwan) flowers and the round wind where
    it holds winds; seat, dealer and discarder for the timing wins;
    every context switch that is on; table settings the example needs."""
    rules = example.get("rules", "mcr")
    ctx = example.get("context", {})
    tiles = list(example.get("hand", [])) + [example.get("win_tile") or ""]
    tiles += [t for m in example.get("melds", []) for t in m.get("tiles", [])]
    # the seat picks the own flowers in Hong Kong and Taiwan, not in MCR
    flowers = bool(example.get("flowers")) and rules != "mcr"
    winds = any(t in WIND_TILES for t in tiles) or flowers
    timing = any(ctx.get(k) for k in ("heavenly", "earthly", "human"))
    out: list[tuple[str, str | None]] = [
        (N_("Self-drawn") if ctx.get("win") == "self_draw" else N_("Won on a discard"), None)
    ]
    if winds or timing or "dealer" in ctx:
        out.append((N_("Seat wind"), rulesets.WIND_NAMES[ctx.get("seat_wind", "E")]))
    if any(t in WIND_TILES for t in tiles):
        out.append((N_("Round wind"), rulesets.WIND_NAMES[ctx.get("round_wind", "E")]))
    if timing or "dealer" in ctx:
        out.append((N_("Dealer"), rulesets.WIND_NAMES[ctx.get("dealer", "E")]))
    if timing and ctx.get("discarder"):
        out.append((N_("Discarder"), rulesets.WIND_NAMES[ctx["discarder"]]))
    if ctx.get("dealer_streak"):
        out.append((N_("Dealer repeats"), str(ctx["dealer_streak"])))
    for sw in rulesets.SWITCHES:
        if ctx.get(sw.name):
            out.append((sw.label, None))
    ready = ctx.get("declared_ready")
    if ready:
        label = N_("Heavenly ready (天聽)") if ready == "tian_ting" else N_("Earthly ready (地聽)")
        out.append((label, None))
    for o in rulesets.OPTIONS.get(rules, ()):
        v = example.get("options", {}).get(o.name, o.default)
        if v == o.default or o.name == "min_fan":  # min_fan 0: shown below the minimum
            continue
        if o.kind == "bool":
            out.append((o.label, N_("yes") if v else N_("no")))
        else:
            out.append((o.label, next((cl for cv, cl in o.choices if cv == v), str(v))))
    return out


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
