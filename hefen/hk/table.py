"""Pattern tables as data (``patterns.tsv`` beside each ruleset), shared by
the Hong Kong and Taiwanese rulesets.

Columns: ``id``, ``name_en``, ``name_zh``, ``name_hi`` (the Hindi reference
page's words), the value (``fan`` or ``tai``; ``limit`` for a limit hand),
``group`` (where the pattern comes from: limit, shape, suit, set, bonus, win,
dealer), ``implies`` (patterns every hand with this one also has; for the
documentation and the tests) and ``excludes`` (patterns not added when this
one is counted — "included" in the page's words).
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType

__all__ = ["PatternSpec", "load_table"]


@dataclass(frozen=True, slots=True)
class PatternSpec:
    id: str
    name_en: str
    name_zh: str
    name_hi: str
    value: int | None  # None for a limit hand
    group: str
    implies: frozenset[str]
    excludes: frozenset[str]

    @property
    def is_limit(self) -> bool:
        return self.value is None

    #: the names by language, one read-only mapping that every
    #: :class:`~hefen.result.PatternHit` of this pattern shares (not a copy
    #: per hit: building a result allocates no dict)
    names: Mapping[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = {"en": self.name_en, "zh": self.name_zh, "hi": self.name_hi}
        object.__setattr__(self, "names", MappingProxyType(names))


def _ids(cell: str | None) -> frozenset[str]:
    return frozenset(x for x in (cell or "").split(",") if x)


def load_table(package: str, value_column: str) -> dict[str, PatternSpec]:
    """Read ``patterns.tsv`` of ``package``, in table order."""
    text = resources.files(package).joinpath("patterns.tsv").read_text(encoding="utf-8")
    out: dict[str, PatternSpec] = {}
    for r in csv.DictReader(text.splitlines(), delimiter="\t"):
        raw = r[value_column]
        out[r["id"]] = PatternSpec(
            id=r["id"],
            name_en=r["name_en"],
            name_zh=r["name_zh"],
            name_hi=r["name_hi"],
            value=None if raw == "limit" else int(raw),
            group=r["group"],
            implies=_ids(r["implies"]),
            excludes=_ids(r["excludes"]),
        )
    for spec in out.values():
        unknown = (spec.implies | spec.excludes) - set(out)
        if unknown:  # pragma: no cover - a broken table is a programming error
            raise ValueError(f"{package}/patterns.tsv: {spec.id} names unknown {sorted(unknown)}")
    return out
