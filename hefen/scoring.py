"""The single entry point: any interchange object or Hand in, a Result out."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .hand import Hand, HandError
from .result import Result

__all__ = ["score", "score_uncached", "score_dict", "clear_cache"]


def _ruleset(rules: str) -> Any:
    """The module of a ruleset (``hefen.mcr``, ``hefen.hk``, ``hefen.tw``)."""
    if rules not in ("mcr", "hk", "tw"):
        raise HandError(f"rules must be one of mcr, hk, tw, not {rules!r}.")
    try:
        return importlib.import_module(f"hefen.{rules}")
    except ModuleNotFoundError as e:
        raise HandError(f"The {rules} ruleset is not available in this installation.") from e


_CACHE: dict[Any, Result] = {}
CACHE_SIZE = 1 << 16


def _cache_key(obj: Mapping[str, Any]) -> Any:
    """A hashable canonical key of an interchange object, or None."""
    try:
        melds = obj.get("melds") or ()
        return (
            obj.get("rules", "mcr"),
            tuple(sorted(obj["hand"])),
            tuple(
                (m["kind"], tuple(sorted(m["tiles"])), m.get("concealed", False), len(m))
                for m in melds
            ),
            obj.get("win_tile"),
            tuple(sorted(obj.get("flowers") or ())),
            tuple(sorted((obj.get("context") or {}).items())),
            tuple(sorted((obj.get("options") or {}).items())),
            len(obj),
        )
    except (TypeError, KeyError, AttributeError):
        return None


def score(obj: Hand | Mapping[str, Any]) -> Result:
    """Score a hand (see :func:`score_uncached`); results are cached by the
    canonical form of the hand, so the same hand is only scored once."""
    if isinstance(obj, Mapping) and isinstance(obj.get("hand"), list):
        key = _cache_key(obj)
        if key is not None:
            hit = _CACHE.get(key)
            if hit is None:
                hit = score_uncached(obj)
                if len(_CACHE) >= CACHE_SIZE:
                    _CACHE.clear()
                _CACHE[key] = hit
            return hit
    return score_uncached(obj)


def score_uncached(obj: Hand | Mapping[str, Any]) -> Result:
    """Score a hand given as an interchange dict (hand-format.md) or a
    :class:`~hefen.hand.Hand`.  Never raises for bad input: the result is then
    ``valid=False`` with one sentence in ``error``."""
    rules = "mcr"
    try:
        if isinstance(obj, Hand):
            hand = obj
            hand.check()
        else:
            if isinstance(obj, Mapping) and isinstance(obj.get("rules"), str):
                rules = obj["rules"]
            hand = Hand.from_dict(obj)
        rules = hand.rules
        module = _ruleset(hand.rules)
        result: Result = module.score(hand)
        return result
    except HandError as e:
        return Result.invalid(rules if rules in ("mcr", "hk", "tw") else "mcr", str(e))


def score_dict(obj: Any) -> dict[str, Any]:
    return score(obj).to_dict()


def clear_cache() -> None:
    _CACHE.clear()
