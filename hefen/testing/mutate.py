"""Cheap mutations of valid interchange objects, for fuzz and property tests.

A mutation copies the object one level deep (its ``options``, ``context``
and lists too) and changes one thing: a top-level value, an option, a
context key, a tile or a meld — to a value of the wrong type, a near-twin
(``13.0`` for ``13``), a list or object where a scalar belongs, a huge
number, ``nan``, a lone surrogate…

>>> import random
>>> obj = {"rules": "mcr", "hand": ["1m"], "win_tile": "1m", "context": {}, "options": {}}
>>> out = mutate(obj, random.Random(1))
>>> out is obj, obj == {"rules": "mcr", "hand": ["1m"], "win_tile": "1m", "context": {}, "options": {}}
(False, True)
"""

from __future__ import annotations

import random
from typing import Any

from ..ruleset import REGISTRY, find_ruleset

__all__ = ["JUNK", "TOP_KEYS", "CONTEXT_KEYS", "mutate", "option_names"]

#: values that do not belong (or only just belong) anywhere in a hand object
JUNK: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    -1,
    13,
    13.0,
    0.5,
    2**70,
    -(2**70),
    10**400,
    10**5000,  # too long for repr() under Python's digit limit
    float("nan"),
    float("inf"),
    float("-inf"),
    "",
    " ",
    "x",
    "\ud800",
    "1m\udfff",
    "E",
    "1m",
    "discard",
    "self_draw",
    "default",
    [],
    [None],
    [[]],
    ["1m"],
    [1, 2],
    {},
    {"a": 1},
    {"\ud800": []},
    {"kind": "pung", "tiles": ["C", "C", "C"]},
)

TOP_KEYS: tuple[str, ...] = ("rules", "hand", "melds", "win_tile", "flowers", "context", "options")

CONTEXT_KEYS: tuple[str, ...] = (
    "win",
    "seat_wind",
    "round_wind",
    "dealer",
    "discarder",
    "dealer_streak",
    "declared_ready",
    "last_tile_of_wall",
    "kong_replacement",
    "double_kong_replacement",
    "robbing_kong",
    "last_of_kind",
    "heavenly",
    "earthly",
    "human",
)


def option_names(rules: Any) -> tuple[str, ...]:
    """The option names of ``rules`` (every ruleset's when it is not one)."""
    if isinstance(rules, str) and rules in REGISTRY:
        return tuple(find_ruleset(rules).options)
    return tuple(name for key in REGISTRY for name in find_ruleset(key).options)


def _copy(obj: dict[str, Any]) -> dict[str, Any]:
    return {
        k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
        for k, v in obj.items()
    }


def _junk(rng: random.Random) -> Any:
    v = rng.choice(JUNK)
    # containers are copied so that no two mutants share one
    if isinstance(v, list):
        return list(v)
    if isinstance(v, dict):
        return dict(v)
    return v


def _sub(obj: dict[str, Any], key: str) -> dict[str, Any]:
    d = obj.get(key)
    if not isinstance(d, dict):
        d = obj[key] = {}
    return d


def mutate(obj: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A copy of ``obj`` with one thing changed (``obj`` is left as it was)."""
    out = _copy(obj)
    r = rng.random()
    if r < 0.2:  # a top-level value
        out[rng.choice(TOP_KEYS)] = _junk(rng)
    elif r < 0.25:  # a key that does not exist, or one removed
        if rng.random() < 0.5:
            out[rng.choice(("visible", "Hand", "\ud800", ""))] = _junk(rng)
        else:
            out.pop(rng.choice(TOP_KEYS), None)
    elif r < 0.55:  # an option: wrong type, near-twin, unknown name
        opts = _sub(out, "options")
        names = option_names(out.get("rules")) + ("no_such_option",)
        opts[rng.choice(names)] = _junk(rng)
    elif r < 0.8:  # a context key
        _sub(out, "context")[rng.choice(CONTEXT_KEYS + ("no_such_key",))] = _junk(rng)
    elif r < 0.9:  # a tile of the hand or the flowers
        key = rng.choice(("hand", "flowers"))
        tiles = out.get(key)
        if isinstance(tiles, list) and tiles:
            tiles[rng.randrange(len(tiles))] = _junk(rng)
        else:
            out[key] = [_junk(rng)]
    else:  # a meld, or a value inside one
        melds = out.get("melds")
        if isinstance(melds, list) and melds and rng.random() < 0.6:
            i = rng.randrange(len(melds))
            m = melds[i]
            m = dict(m) if isinstance(m, dict) else {}
            m[rng.choice(("kind", "tiles", "concealed", "x"))] = _junk(rng)
            melds[i] = m
        else:
            out["melds"] = (list(melds) if isinstance(melds, list) else []) + [_junk(rng)]
    return out
