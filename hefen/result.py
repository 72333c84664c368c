"""Results: the patterns a hand scores, its total and the payments it settles."""

from __future__ import annotations

from collections.abc import Mapping
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
    #: the pattern's names by language (``en``, ``zh``, ``hi``): the
    #: ruleset's read-only table of them, shared by every hit of the pattern
    names: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its fields (score_many's workers send results back):
        # several times faster than the dataclass's __getstate__
        return (
            PatternHit,
            (self.id, self.name, self.value, self.count, self.uses, dict(self.names)),
        )

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
        # pickled as plain tuples, its patterns and payments too (score_many's
        # workers send results back): no Python call per pattern to pickle
        if (
            type(self) is not Result
            or any(type(p) is not PatternHit for p in self.patterns)
            or any(type(p) is not Payment for p in self.payments)
        ):
            return (_result_of, (type(self), tuple(getattr(self, f) for f in _RESULT_FIELDS)))
        return (
            _plain_result,
            (
                self.rules,
                self.valid,
                self.winning,
                self.total,
                self.unit,
                self.limit,
                tuple(
                    (p.id, p.name, p.value, p.count, p.uses, dict(p.names)) for p in self.patterns
                ),
                tuple((p.frm, p.to, p.amount) for p in self.payments),
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


_RESULT_FIELDS = tuple(Result.__dataclass_fields__)


def _result_of(cls: type[Result], values: tuple[Any, ...]) -> Result:
    return cls(*values)


def _plain_result(
    rules: str,
    valid: bool,
    winning: bool,
    total: int,
    unit: str,
    limit: bool,
    patterns: tuple[tuple[Any, ...], ...],
    payments: tuple[tuple[Any, ...], ...],
    error: str | None,
    notes: tuple[str, ...],
) -> Result:
    """A :class:`Result` from the plain tuples :meth:`Result.__reduce__` gives."""
    return Result(
        rules,
        valid,
        winning,
        total,
        unit,
        limit,
        tuple([PatternHit(*p) for p in patterns]),
        tuple([Payment(*p) for p in payments]),
        error,
        notes,
    )


def _load_new() -> Any:
    """``hefen._core.new`` with these classes registered, or ``None`` (no
    compiled core, or ``HEFEN_PURE=1``)."""
    from .decompose import _CORE

    if _CORE is None or not hasattr(_CORE, "new"):
        return None
    _CORE._set_new_types(
        tuple((cls, tuple(cls.__dataclass_fields__)) for cls in (PatternHit, Payment, Result))
    )
    return _CORE.new


#: ``NEW(cls, *fields)``: ``cls(*fields)`` for :class:`PatternHit`,
#: :class:`Payment`, :class:`Result` (every field given, in order) without
#: the frozen dataclass's ``__init__``, from :mod:`hefen._core`; ``None``
#: without the compiled core
NEW = _load_new()
