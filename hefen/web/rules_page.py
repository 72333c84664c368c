"""The rules reference pages: every pattern of a ruleset with its value, its
name and definition in the page's language and an example hand, with the
table's settings marked where they change a value."""

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
    #: the patterns this one leaves uncounted, and those it counts with it: (id, name)
    excludes: list[tuple[str, str]] = field(default_factory=list)
    implies: list[tuple[str, str]] = field(default_factory=list)
    #: per-set patterns not counted again on the sets this one uses (MCR's
    #: account-once: e.g. Big Three Winds and Pung of Terminals or Honors)
    absorbs: list[tuple[str, str]] = field(default_factory=list)
    #: a numbered pattern of the ruleset's list (MCR's 81), not a combination ruling
    numbered: bool = True
    #: what the hand must hold or how it was won, in the page's language
    definition: str = ""

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
    r = rulesets.ruleset(example.get("rules", rulesets.DEFAULT_RULESET))
    ctx = example.get("context", {})
    tiles = list(example.get("hand", [])) + [example.get("win_tile") or ""]
    tiles += [t for m in example.get("melds", []) for t in m.get("tiles", [])]
    # the seat picks the own flowers where they score (Ruleset.own_flowers)
    flowers = bool(example.get("flowers")) and r.own_flowers
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
    for name, label in rulesets.SWITCH_LABELS.items():
        if ctx.get(name):
            out.append((label, None))
    ready = ctx.get("declared_ready")
    if ready:
        out.append((rulesets.READY_LABELS.get(ready, ready), None))
    # the options an example needs; those it sets only to show every pattern
    # (no table minimum: Ruleset.example_options) are left unsaid
    for o in r.options.values():
        v = example.get("options", {}).get(o.name, o.default)
        if v == o.default or o.name in r.example_options:
            continue
        if o.kind == "bool":
            out.append((o.label, N_("yes") if v else N_("no")))
        elif isinstance(v, str):
            out.append((o.label, rulesets.VALUE_NAMES.get(v, v)))
        else:
            out.append((o.label, str(v)))
    return out


def _name(spec: Any, lang: str) -> tuple[str, str]:
    names = getattr(spec, "names", None)
    if isinstance(names, dict):
        en = names.get("en") or getattr(spec, "name_en", "") or getattr(spec, "name", "")
        return str(names.get(lang) or en), str(en)
    en = getattr(spec, "name_en", None) or getattr(spec, "name", None) or spec.id
    return str(getattr(spec, f"name_{lang}", None) or en), str(en)


def pattern_rows(rules: str, lang: str, options: dict[str, Any]) -> list[PatternRow] | None:
    """The patterns of ``rules`` under ``options`` (values by
    :meth:`hefen.ruleset.Ruleset.pattern_value`), from the ``PATTERNS`` table
    of the ruleset's module in its ``ORDER``; None when it has no table."""
    r = rulesets.ruleset(rules)
    module = importlib.import_module(type(r).__module__)
    table = getattr(module, "PATTERNS", None)
    if not table:
        return None
    specs = list(table.values()) if isinstance(table, dict) else list(table)
    order = getattr(module, "ORDER", None)
    if isinstance(table, dict) and order:
        specs = [table[pid] for pid in order if pid in table]
    ex = examples.examples(rules)
    definitions = r.definitions(lang)
    names = {spec.id: _name(spec, lang)[0] for spec in specs}
    rank = {spec.id: i for i, spec in enumerate(specs)}

    def named(ids: Any) -> list[tuple[str, str]]:
        found = [i for i in (ids or ()) if i in names]
        return [(i, names[i]) for i in sorted(found, key=lambda i: rank[i])]

    rows = []
    for spec in specs:
        value = r.pattern_value(spec, options)
        default = r.pattern_value(spec, {})
        name, en = _name(spec, lang)
        group = getattr(spec, "group", None)
        extra = {"limit": value is None and group == "limit"}
        row = PatternRow(spec.id, name, en, value, default, ex.get(spec.id), extra)
        row.excludes = named(getattr(spec, "excludes", ()))
        row.implies = named(getattr(spec, "implies", ()))
        row.absorbs = named(getattr(spec, "absorbs", ()))
        row.numbered = not hasattr(spec, "no") or spec.no is not None
        row.definition = definitions.get(spec.id, "")
        rows.append(row)
    return rows
