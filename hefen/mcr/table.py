"""MCR's pattern table as data: values, names and exclusions (``patterns.tsv``)."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType

__all__ = ["PatternSpec", "PATTERNS", "ORDER", "PER_SET"]


@dataclass(frozen=True, slots=True)
class PatternSpec:
    no: int | None
    id: str
    name_en: str
    name_zh: str
    name_hi: str
    points: int | None  # Green Book value; None where the Green Book lacks the pattern
    points_mil: int
    excludes: frozenset[str]  # not counted when this pattern is counted
    absorbs: frozenset[str]  # per-set patterns not counted on the sets this pattern uses

    def value(self, variant: str) -> int | None:
        return self.points_mil if variant == "mil" else self.points

    #: the names by language, one read-only mapping that every
    #: :class:`~hefen.result.PatternHit` of this pattern shares (not a copy
    #: per hit: building a result allocates no dict)
    names: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = {"en": self.name_en, "zh": self.name_zh, "hi": self.name_hi}
        object.__setattr__(self, "names", MappingProxyType(names))


def _load() -> dict[str, PatternSpec]:
    text = resources.files(__package__).joinpath("patterns.tsv").read_text(encoding="utf-8")
    rows = csv.DictReader(text.splitlines(), delimiter="\t")
    out: dict[str, PatternSpec] = {}
    for r in rows:
        out[r["id"]] = PatternSpec(
            no=int(r["no"]) if r["no"].isdigit() else None,
            id=r["id"],
            name_en=r["name_en"],
            name_zh=r["name_zh"],
            name_hi=r["name_hi"],
            points=int(r["points"]) if r["points"].isdigit() else None,
            points_mil=int(r["points_mil"]),
            excludes=frozenset(x for x in r["excludes"].split(",") if x),
            absorbs=frozenset(x for x in r["absorbs_on_its_sets"].split(",") if x),
        )
    return out


PATTERNS: dict[str, PatternSpec] = _load()
#: highest value first (the order in which exclusions are applied)
ORDER: list[str] = sorted(PATTERNS, key=lambda p: (-PATTERNS[p].points_mil, PATTERNS[p].no or 99))
#: patterns scored once per set, which bigger patterns may absorb set by set
PER_SET = frozenset({"pung_of_terminals_or_honors", "dragon_pung"})
