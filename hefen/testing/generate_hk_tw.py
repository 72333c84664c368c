"""Random legal Hong Kong (13-tile) and Taiwanese (16-tile) hands, for
property tests, and a helper that turns the compact notation into an
interchange object.

The generator favours the shapes the pattern tables care about — flushes,
honour pungs, all pungs and all chows, terminals, the special hands — then
declares some sets as melds or kongs and picks a consistent context.

>>> h = hand_dict("123m456p789sEEECC +C", "hk", win="self_draw")
>>> h["hand"][:3], h["win_tile"], h["context"]["win"]
(['1m', '2m', '3m'], 'C', 'self_draw')
>>> len(random_hands("tw", 3, seed=1))
3
"""

from __future__ import annotations

import random
from typing import Any

from ..notation import parse_hand
from ..ruleset import find_ruleset
from ..tiles import DRAGONS, ORPHANS, TERMINALS, WINDS, tile_to_str

__all__ = ["hand_dict", "random_hand", "random_hands", "permute_suits"]

SUITS = (0, 9, 18)


def hand_dict(
    text: str, rules: str, options: dict[str, Any] | None = None, **context: Any
) -> dict[str, Any]:
    """The interchange object of a hand in the compact notation
    (:mod:`hefen.notation`), with ``context`` keys as keyword arguments."""
    p = parse_hand(text)
    return {
        "rules": rules,
        "hand": [tile_to_str(t) for t in p.concealed],
        "melds": [m.to_dict() for m in p.melds],
        "win_tile": tile_to_str(p.win_tile) if p.win_tile is not None else None,
        "flowers": [tile_to_str(t) for t in p.flowers],
        "context": dict(context),
        "options": dict(options or {}),
    }


def _set_tiles(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t] * 3


def _pool(rng: random.Random) -> list[int]:
    theme = rng.randrange(9)
    s = rng.choice(SUITS)
    if theme == 0:
        return list(range(s, s + 9))
    if theme == 1:
        return list(range(s, s + 9)) + list(range(27, 34))
    if theme == 2:
        return list(range(27, 34))
    if theme == 3:
        return list(ORPHANS)
    if theme == 4:
        return list(TERMINALS)
    if theme == 5:
        return list(WINDS) + [s + rng.randrange(9)]
    if theme == 6:
        return list(DRAGONS) + list(range(s, s + 9))
    return list(range(34))


def _sets(rng: random.Random, n: int) -> tuple[list[tuple[str, int]], int] | None:
    pool = _pool(rng)
    chow_rate = rng.choice((0.0, 0.5, 0.9))
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    for _ in range(60):
        if len(sets) == n:
            break
        t = rng.choice(pool)
        kind = "pung"
        if t < 27 and t % 9 <= 6 and rng.random() < chow_rate:
            kind = "chow"
        tiles = _set_tiles(kind, t)
        if all(counts[x] + tiles.count(x) <= 4 for x in set(tiles)):
            for x in tiles:
                counts[x] += 1
            sets.append((kind, t))
    if len(sets) != n:
        return None
    for _ in range(30):
        p = rng.choice(pool if rng.random() < 0.8 else list(range(34)))
        if counts[p] <= 2:
            return sets, p
    return None


def _special(rng: random.Random, rules: str) -> list[int] | None:
    """Seven pairs, thirteen orphans or nine gates (Hong Kong only)."""
    k = rng.randrange(3)
    if k == 0:
        pool = rng.choice([list(range(34)), list(range(27, 34)), list(ORPHANS)])
        kinds = [rng.choice(pool) for _ in range(7)]
        tiles = [x for k2 in kinds for x in (k2, k2)]
        return tiles if max(tiles.count(x) for x in tiles) <= 4 else None
    if k == 1:
        return list(ORPHANS) + [rng.choice(ORPHANS)]
    b = rng.choice(SUITS)
    return [b] * 3 + list(range(b + 1, b + 8)) + [b + 8] * 3 + [b + rng.randrange(9)]


def random_hand(rules: str, rng: random.Random) -> dict[str, Any] | None:
    """One random legal ``hk`` or ``tw`` interchange object (or None when a
    draw failed; callers draw again)."""
    ruleset = find_ruleset(rules)
    n_sets = ruleset.sets
    melds: list[dict[str, Any]] = []
    flower_win = ruleset.flower_wins and rng.random() < 0.03
    # the special forms where the ruleset has them (seven pairs, orphans)
    if "seven_pairs" in ruleset.forms and rng.random() < 0.12:
        got_tiles = _special(rng, rules)
        if got_tiles is None:
            return None
        tiles = got_tiles
    else:
        got = _sets(rng, n_sets)
        if got is None:
            return None
        sets, pair = got
        tiles = [pair, pair]
        n_melds = rng.choice((0, 0, 1, 1, 2, 3, n_sets))
        kong_rate = rng.choice((0.0, 0.2, 0.9))
        total = [0] * 34
        for kind, t in sets:
            for x in _set_tiles(kind, t):
                total[x] += 1
        total[pair] += 2
        for i, (kind, t) in enumerate(sets):
            if kind == "pung" and total[t] == 3 and rng.random() < kong_rate:
                total[t] += 1
                concealed = rng.random() < 0.4
                melds.append(
                    {"kind": "kong", "tiles": [tile_to_str(t)] * 4, "concealed": concealed}
                )
            elif i < n_melds:
                ts = [tile_to_str(x) for x in _set_tiles(kind, t)]
                melds.append({"kind": kind, "tiles": ts, "concealed": False})
            else:
                tiles += _set_tiles(kind, t)
    flowers = sorted(rng.sample(range(34, 42), rng.choice((0, 0, 1, 2, 3, 4))))
    if flower_win:
        # eight flowers or seven-rob-one: the 16 held tiles need not be complete
        tiles.pop(rng.randrange(len(tiles)))
        flowers = list(range(34, 42))
        win = flowers.pop(rng.randrange(8))
    else:
        win = tiles.pop(rng.randrange(len(tiles)))
    ctx: dict[str, Any] = {
        "win": "self_draw" if rng.random() < 0.4 else "discard",
        "seat_wind": tile_to_str(rng.choice(WINDS)),
        "round_wind": tile_to_str(rng.choice(WINDS)),
    }
    if ctx["win"] == "discard" and rng.random() < 0.7:
        ctx["discarder"] = tile_to_str(
            rng.choice([w for w in WINDS if tile_to_str(w) != ctx["seat_wind"]])
        )
    has_kong = any(m["kind"] == "kong" for m in melds)
    r = rng.random()
    if r < 0.05:
        ctx["last_tile_of_wall"] = True
    elif r < 0.1 and ctx["win"] == "self_draw" and has_kong:
        ctx["kong_replacement"] = True
    elif r < 0.15 and ctx["win"] == "discard" and win not in tiles and win < 34:
        if not any(tile_to_str(win) in m["tiles"] for m in melds):
            ctx["robbing_kong"] = True
    elif r < 0.18 and not melds:
        if ctx["win"] == "self_draw":
            ctx["heavenly"] = True
            ctx["dealer"] = ctx["seat_wind"]
        elif ctx["win"] == "discard":
            ctx["earthly"] = True
            seat = ctx["seat_wind"]
            ctx.setdefault(
                "discarder", next(tile_to_str(w) for w in WINDS if tile_to_str(w) != seat)
            )
            ctx["dealer"] = ctx["discarder"]
    if ruleset.scores_dealer_streak:
        if "dealer" not in ctx:
            ctx["dealer"] = tile_to_str(rng.choice(WINDS))
        ctx["dealer_streak"] = rng.choice((0, 0, 1, 2))
    if ruleset.declared_ready:
        if rng.random() < 0.05 and not any(not m["concealed"] for m in melds):
            if not ctx.get("heavenly"):
                ctx["declared_ready"] = rng.choice(ruleset.declared_ready)
    if flower_win:
        for key in ("kong_replacement", "robbing_kong"):
            ctx.pop(key, None)
    return {
        "rules": rules,
        "hand": [tile_to_str(t) for t in sorted(tiles)],
        "melds": melds,
        "win_tile": tile_to_str(win),
        "flowers": [tile_to_str(f) for f in flowers],
        "context": ctx,
        "options": {},
    }


def random_hands(rules: str, n: int, seed: int = 0) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        h = random_hand(rules, rng)
        if h is not None:
            out.append(h)
    return out


def _permute_code(code: str, perm: tuple[int, int, int]) -> str:
    if len(code) == 2 and code[1] in "mps":
        return code[0] + "mps"[perm["mps".index(code[1])]]
    return code


def permute_suits(obj: dict[str, Any], perm: tuple[int, int, int]) -> dict[str, Any]:
    """The same hand with the three suits exchanged (m→``"mps"[perm[0]]`` …)."""
    out = dict(obj)
    out["hand"] = [_permute_code(c, perm) for c in obj["hand"]]
    out["melds"] = [
        {**m, "tiles": [_permute_code(c, perm) for c in m["tiles"]]} for m in obj["melds"]
    ]
    if obj.get("win_tile") is not None:
        out["win_tile"] = _permute_code(obj["win_tile"], perm)
    return out
