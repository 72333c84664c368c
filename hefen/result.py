"""Results: the patterns a hand scores, its total and the payments it settles."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PatternHit", "Payment", "Result"]


@dataclass(frozen=True, slots=True)
class PatternHit:
    """One counted pattern: its value, how many times, and the sets or tiles
    it used (so a player can see why)."""

    id: str
    name: str
    value: int
    count: int = 1
    uses: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict, compare=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its fields (score_many's workers send results back):
        # several times faster than the dataclass's __getstate__
        return (PatternHit, (self.id, self.name, self.value, self.count, self.uses, self.names))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "value": self.value,
            "count": self.count,
        }
        if self.uses:
            d["uses"] = list(self.uses)
        if self.names:
            d["names"] = dict(self.names)
        return d


@dataclass(frozen=True, slots=True)
class Payment:
    """A transfer between seats (seat winds E S W N)."""

    frm: str
    to: str
    amount: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (Payment, (self.frm, self.to, self.amount))

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.frm, "to": self.to, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Result:
    rules: str
    valid: bool
    winning: bool = False
    total: int = 0
    unit: str = "points"
    limit: bool = False
    patterns: tuple[PatternHit, ...] = ()
    payments: tuple[Payment, ...] = ()
    error: str | None = None
    notes: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            Result,
            (
                self.rules,
                self.valid,
                self.winning,
                self.total,
                self.unit,
                self.limit,
                self.patterns,
                self.payments,
                self.error,
                self.notes,
            ),
        )

    @classmethod
    def invalid(cls, rules: str, error: str) -> Result:
        return cls(rules=rules, valid=False, error=error)

    def pattern(self, pid: str) -> PatternHit | None:
        return next((p for p in self.patterns if p.id == pid), None)

    def count(self, pid: str) -> int:
        p = self.pattern(pid)
        return p.count if p else 0

    def to_dict(self) -> dict[str, Any]:
        if not self.valid:
            return {"rules": self.rules, "valid": False, "error": self.error}
        d: dict[str, Any] = {
            "rules": self.rules,
            "valid": True,
            "winning": self.winning,
            "total": self.total,
            "unit": self.unit,
            "limit": self.limit,
            "patterns": [p.to_dict() for p in self.patterns],
            "payments": [p.to_dict() for p in self.payments],
        }
        if self.notes:
            d["notes"] = list(self.notes)
        return d
