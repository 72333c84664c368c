"""The single entry point: any interchange object or Hand in, a Result out."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from .hand import Hand, HandError
from .result import Result

__all__ = ["score", "score_dict"]


def _ruleset(rules: str) -> Any:
    """The module of a ruleset (``hefen.mcr``, ``hefen.hk``, ``hefen.tw``)."""
    if rules not in ("mcr", "hk", "tw"):
        raise HandError(f"rules must be one of mcr, hk, tw, not {rules!r}.")
    try:
        return importlib.import_module(f"hefen.{rules}")
    except ModuleNotFoundError as e:
        raise HandError(f"The {rules} ruleset is not available in this installation.") from e


def score(obj: Hand | Mapping[str, Any]) -> Result:
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
