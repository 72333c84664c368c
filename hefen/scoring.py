"""The single entry point: any interchange object or Hand in, a Result out.

``score`` never raises for what it is given, and never lets one input change
another's answer: results are cached by the *validated, canonical* hand (its
parsed tiles, context and resolved options, each value with its type), so
``13`` and ``13.0``, ``false`` and ``0``, ``[]`` and ``null`` are different
keys — and only hands that parsed are cached at all.

A hand that names no ruleset is scored by :data:`~hefen.ruleset.DEFAULT_RULESET`:

>>> score({"hand": ["1m"], "win_tile": "1m"}).error
'The hand has 2 tiles (a kong counting as three) where MCR needs 14 with the winning tile.'
>>> score({"hand": [[[]]]}).error
'Unknown tile code [[]] in the hand.'
>>> score({"hand": "1m"}).error
"'hand' must be a list of tile codes."
>>> score(["not", "a", "hand"]).error
'A hand must be a JSON object.'
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any

from .errors import HandError
from .hand import Context, Hand
from .result import Result
from .ruleset import DEFAULT_RULESET, find_ruleset, ruleset_keys

__all__ = ["score", "score_uncached", "score_dict", "clear_cache", "canonical_key"]

_CACHE: dict[Any, Result] = {}
CACHE_SIZE = 1 << 16

#: the sentence for an input the validator let through but the scorer could not read
UNREADABLE = "The hand could not be read: it is not a hand object as hand-format.md describes."


#: the plain types whose values are their own keys (beside their type's name)
_SCALARS = {t: t.__name__ for t in (str, int, bool, float, type(None))}


def _typed(v: Any) -> Any:
    """A JSON value as a hashable key that keeps its type (``1`` is not ``True``)."""
    name = _SCALARS.get(type(v))
    if name is not None:
        return (name, v)
    if isinstance(v, Mapping):
        return ("{}", tuple(sorted((str(k), _typed(x)) for k, x in v.items())))
    if isinstance(v, (list, tuple)):
        return ("[]", tuple(_typed(x) for x in v))
    return (type(v).__name__, v)


def canonical_key(hand: Hand) -> Any:
    """The cache key of a validated hand: everything the scorer reads, typed."""
    return _key(hand, find_ruleset(hand.rules).resolve_options(hand.options))


_CONTEXT_FIELDS = tuple(Context.__dataclass_fields__)  # slots dataclass
_context_values = attrgetter(*_CONTEXT_FIELDS)


def _key(hand: Hand, options: Mapping[str, Any]) -> Any:
    """:func:`canonical_key` with the hand's options already resolved."""
    ctx = hand.context
    context = tuple(zip(_CONTEXT_FIELDS, map(_typed, _context_values(ctx)), strict=True))
    return (
        hand.rules,
        hand.concealed,
        tuple((m.kind, m.tiles, m.concealed) for m in hand.melds),
        hand.win_tile,
        hand.flowers,
        context,
        _typed(options),
    )


def _parse(obj: Hand | Mapping[str, Any]) -> Hand:
    if isinstance(obj, Hand):
        obj.check()
        return obj
    return Hand.from_dict(obj)


def _rules_of(obj: Any) -> str:
    rules = getattr(obj, "rules", None)
    if rules is None and isinstance(obj, Mapping):
        rules = obj.get("rules")
    return rules if isinstance(rules, str) and rules in ruleset_keys() else DEFAULT_RULESET


def _guarded(obj: Any, fn: Any, *, strict: bool) -> Result:
    try:
        result: Result = fn()
        return result
    except HandError as e:
        return Result.invalid(_rules_of(obj), str(e))
    except (RecursionError, MemoryError):
        return Result.invalid(_rules_of(obj), "The hand object is nested too deeply to read.")
    except Exception:
        if strict:
            raise
        return Result.invalid(_rules_of(obj), UNREADABLE)


def score(obj: Hand | Mapping[str, Any], *, strict: bool = False) -> Result:
    """Score a hand (see :func:`score_uncached`); results are cached by the
    canonical form of the validated hand, so the same hand is scored once.

    ``strict`` lets an internal error through instead of answering
    :data:`UNREADABLE` (the fuzz tests use it to prove there is none)."""

    def run() -> Result:
        hand = _parse(obj)
        ruleset = find_ruleset(hand.rules)
        options = ruleset.resolve_options(hand.options)  # once: the key and the scorer
        key = _key(hand, options)
        hit = _CACHE.get(key)
        if hit is None:
            hit = ruleset.score(hand, options)
            if len(_CACHE) >= CACHE_SIZE:
                _CACHE.clear()
            _CACHE[key] = hit
        return hit

    return _guarded(obj, run, strict=strict)


def score_uncached(obj: Hand | Mapping[str, Any], *, strict: bool = False) -> Result:
    """Score a hand given as an interchange dict (hand-format.md) or a
    :class:`~hefen.hand.Hand`.  Never raises for bad input: the result is then
    ``valid=False`` with one sentence in ``error``."""
    return _guarded(obj, lambda: (h := _parse(obj)).ruleset.score(h), strict=strict)


def score_dict(obj: Any) -> dict[str, Any]:
    return score(obj).to_dict()


def clear_cache() -> None:
    _CACHE.clear()
