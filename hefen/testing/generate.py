"""Random legal MCR hands for differential tests and benchmarks.

The generator is biased towards patterns: each hand starts from a *theme*
(a suit, honours, terminals, a tile range, the green or reversible tiles…)
and often from a pattern *seed* (a straight, shifted or triple chows, shifted
or triple pungs, wind and dragon pungs, the special forms), then fills the
rest, declares some sets as melds or kongs and picks a context, so that every
one of MCR's patterns occurs many times in a few thousand hands.
"""

from __future__ import annotations

import random
from typing import Any

from ..decompose import KNITTED_STRAIGHTS
from ..mcr import MCR
from ..tiles import DRAGONS, ORPHANS, WINDS, tile_to_str

SUITS = (0, 9, 18)
_THEMES: dict[str, list[int]] = {
    "any": list(range(34)),
    "one_suit": [],  # filled per hand
    "one_suit_honors": [],
    "two_suits": [],
    "simples": [t for t in range(27) if 1 <= t % 9 <= 7],
    "terminals_honors": list(ORPHANS),
    "honors": list(range(27, 34)),
    "green": [19, 20, 21, 23, 25, 32],
    "reversible": [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33],
    "lower": [t for t in range(27) if t % 9 <= 3],
    "upper": [t for t in range(27) if t % 9 >= 5],
    "middle": [t for t in range(27) if 3 <= t % 9 <= 5],
    "even": [t for t in range(27) if t % 9 % 2 == 1],
    "fives": [t for t in range(27) if 2 <= t % 9 <= 6],
}


def _seed_sets(rng: random.Random) -> list[tuple[str, int]]:
    """A pattern seed: some sets that together form a combination pattern."""
    s = rng.choice(SUITS)
    s2, s3 = rng.sample([x for x in SUITS if x != s], 2)
    r = rng.randrange(7)
    k = rng.randrange(10)
    choice = rng.randrange(22)
    if choice == 0:
        return [("chow", s), ("chow", s + 3), ("chow", s + 6)]  # pure straight
    if choice == 1:
        return [("chow", s), ("chow", s2 + 3), ("chow", s3 + 6)]  # mixed straight
    if choice == 2:
        st = rng.choice((1, 2))
        base = rng.randrange(7 - 2 * st)
        return [("chow", s + base + i * st) for i in range(3)]
    if choice == 3:
        st = rng.choice((1, 2))
        base = rng.randrange(7 - 3 * st) if 7 - 3 * st > 0 else 0
        return [("chow", s + base + i * st) for i in range(4)]
    if choice == 4:
        return [("chow", s + r)] * rng.choice((2, 3, 4))
    if choice == 5:
        return [("chow", s + r), ("chow", s2 + r), ("chow", s3 + r)][: rng.choice((2, 3))]
    if choice == 6:
        return [("chow", s + r), ("chow", s2 + r + 1), ("chow", s3 + r + 2)] if r <= 4 else []
    if choice == 7:
        return [("pung", s + min(k, 6) + i) for i in range(rng.choice((3, 4)))]
    if choice == 8:
        kk = min(k, 8)
        return [("pung", s + kk), ("pung", s2 + kk), ("pung", s3 + kk)][: rng.choice((2, 3))]
    if choice == 9:
        kk = min(k, 6)
        return [("pung", s + kk), ("pung", s2 + kk + 1), ("pung", s3 + kk + 2)]
    if choice == 10:
        return [("pung", w) for w in rng.sample(WINDS, rng.choice((2, 3, 3, 4)))]
    if choice == 11:
        return [("pung", d) for d in rng.sample(DRAGONS, rng.choice((1, 2, 2, 3)))]
    if choice == 12:
        return [("chow", s), ("chow", s + 6)] * rng.choice((1, 2))
    if choice == 13:
        return [("chow", s), ("chow", s + 6), ("chow", s2), ("chow", s2 + 6)]
    if choice == 14:
        return [("chow", s + r), ("chow", s + min(r + 3, 6))]
    if choice == 15:
        return [("chow", s + r), ("chow", s2 + r)]
    if choice == 16:
        return [("pung", t) for t in rng.sample(list(ORPHANS), 3)]
    return []


def _template(rng: random.Random) -> tuple[list[tuple[str, int]], int]:
    """Whole hands for the rarest patterns."""
    s, s2, s3 = rng.sample(SUITS, 3)
    k = rng.randrange(14)
    if k == 13 and rng.random() < 0.7:
        k = 12
    if k == 0:  # pure terminal chows
        return [("chow", s), ("chow", s), ("chow", s + 6), ("chow", s + 6)], s + 4
    if k == 1:  # three-suited terminal chows
        return [("chow", s), ("chow", s + 6), ("chow", s2), ("chow", s2 + 6)], s3 + 4
    if k == 2:  # all fives
        opts = [("chow", x + r) for x in SUITS for r in (2, 3, 4)] + [
            ("pung", x + 4) for x in SUITS
        ]
        return rng.sample(opts, 4), rng.choice(SUITS) + 4
    if k == 3:  # all terminals
        ts = rng.sample([0, 8, 9, 17, 18, 26], 5)
        return [("pung", t) for t in ts[:4]], ts[4]
    if k == 4:  # winds
        ws = list(WINDS)
        rng.shuffle(ws)
        return [("pung", w) for w in ws[:3]] + [
            ("pung", rng.choice(list(DRAGONS) + [s + rng.randrange(9)]))
        ], ws[3]
    if k == 5:  # dragons
        ds = list(DRAGONS)
        rng.shuffle(ds)
        return [
            ("pung", ds[0]),
            ("pung", ds[1]),
            ("chow", s + rng.randrange(7)),
            ("pung", rng.choice(WINDS)),
        ], ds[2]
    if k == 6:  # lower / upper / middle tiles
        lo = rng.choice((0, 3, 6))
        sets = []
        for _ in range(4):
            x = rng.choice(SUITS)
            sets.append(
                ("chow", x + lo) if rng.random() < 0.5 else ("pung", x + lo + rng.randrange(3))
            )
        return sets, rng.choice(SUITS) + lo + rng.randrange(3)
    if k == 7:  # all even pungs
        ts = rng.sample([x + r for x in SUITS for r in (1, 3, 5, 7)], 5)
        return [("pung", t) for t in ts[:4]], ts[4]
    if k == 8:  # pure triple chow and quadruple chow
        r = rng.randrange(7)
        n = rng.choice((3, 4))
        return [("chow", s + r)] * n + [("pung", rng.choice(WINDS))] * (4 - n), rng.choice(DRAGONS)
    if k == 9:  # all green
        sets = [
            rng.choice(
                [
                    ("chow", 19),
                    ("pung", 19),
                    ("pung", 21),
                    ("pung", 23),
                    ("pung", 25),
                    ("pung", 32),
                    ("pung", 20),
                ]
            )
            for _ in range(4)
        ]
        return sets, rng.choice([19, 21, 23, 25, 32])
    if k == 10:  # four kongs (kongs are chosen later from pungs)
        ts = rng.sample(range(34), 5)
        return [("pung", t) for t in ts[:4]], ts[4]
    if k == 11:  # all honors
        ts = rng.sample(range(27, 34), 5)
        return [("pung", t) for t in ts[:4]], ts[4]
    if k == 12:  # chicken-ish: unrelated chows and a simple pung, an honour pair
        r1 = rng.randrange(7)
        r2 = (r1 + rng.choice((2, 4))) % 7
        sets = [("chow", s + r1), ("chow", s2 + r2), ("pung", s3 + 1 + rng.randrange(7))]
        sets.append(("chow", s3 + (r1 + 3) % 7))
        return sets, rng.choice(list(WINDS) + list(DRAGONS))
    # mixed chows and pungs with no particular relation
    return [
        ("chow", s + rng.randrange(7)),
        ("chow", s2 + rng.randrange(7)),
        ("pung", s3 + rng.randrange(9)),
        ("pung", rng.choice(WINDS)),
    ], rng.randrange(34)


def _hand_sets(rng: random.Random) -> tuple[list[tuple[str, int]], int] | None:
    if rng.random() < 0.15:
        sets, pair = _template(rng)
        counts = [0] * 34
        for kind, t in sets:
            for x in [t, t + 1, t + 2] if kind == "chow" else [t] * 3:
                counts[x] += 1
        counts[pair] += 2
        return (sets, pair) if max(counts) <= 4 else None
    theme = rng.choice(list(_THEMES))
    pool = _THEMES[theme]
    if theme == "one_suit":
        s = rng.choice(SUITS)
        pool = list(range(s, s + 9))
    elif theme == "one_suit_honors":
        s = rng.choice(SUITS)
        pool = list(range(s, s + 9)) + list(range(27, 34))
    elif theme == "two_suits":
        a, b = rng.sample(SUITS, 2)
        pool = (
            list(range(a, a + 9))
            + list(range(b, b + 9))
            + (list(range(27, 34)) if rng.random() < 0.5 else [])
        )
    sets = _seed_sets(rng) if rng.random() < 0.7 else []
    counts = [0] * 34
    for kind, t in sets:
        for x in [t, t + 1, t + 2] if kind == "chow" else [t] * 3:
            counts[x] += 1
    if any(c > 4 for c in counts):
        return None
    tries = 0
    while len(sets) < 4 and tries < 60:
        tries += 1
        t = rng.choice(pool)
        if (
            rng.random() < 0.5
            and t < 27
            and t % 9 <= 6
            and t + 2 in pool
            or (t < 27 and t % 9 <= 6 and rng.random() < 0.15)
        ):
            tiles = [t, t + 1, t + 2]
            kind = "chow"
        else:
            tiles = [t] * 3
            kind = "pung"
        if all(counts[x] + tiles.count(x) <= 4 for x in set(tiles)):
            for x in tiles:
                counts[x] += 1
            sets.append((kind, t))
    if len(sets) != 4:
        return None
    sets = sets[:4]
    for _ in range(30):
        p = rng.choice(pool if rng.random() < 0.8 else list(range(34)))
        if counts[p] + 2 <= 4:
            return sets, p
    return None


def random_mcr_hand(rng: random.Random) -> dict[str, Any] | None:
    """One random legal MCR interchange object (or None when a draw failed)."""
    form = rng.random()
    melds: list[dict[str, Any]] = []
    if form < 0.06:
        # seven pairs (sometimes shifted, sometimes with four of a kind)
        if rng.random() < 0.3:
            s = rng.choice(SUITS)
            b = rng.randrange(3)
            kinds = [s + b + i for i in range(7)]
        else:
            pool = rng.choice(
                [
                    list(range(34)),
                    list(range(27)),
                    list(ORPHANS),
                    list(range(27, 34)) + list(range(9)),
                ]
            )
            kinds = [rng.choice(pool) for _ in range(7)]
        tiles = [t for k in kinds for t in (k, k)]
        if max(tiles.count(x) for x in tiles) > 4:
            return None
    elif form < 0.08:
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    elif form < 0.09:
        b = rng.choice(SUITS)
        tiles = [b, b, b] + list(range(b + 1, b + 8)) + [b + 8] * 3 + [b + rng.randrange(9)]
    elif form < 0.13:
        ks = list(rng.choice(KNITTED_STRAIGHTS))
        honors = list(range(27, 34))
        n_h = rng.choice((5, 6, 7, 7))
        tiles = rng.sample(honors, n_h) + rng.sample(ks, 14 - n_h)
    elif form < 0.18:
        ks = list(rng.choice(KNITTED_STRAIGHTS))
        got = _hand_sets(rng)
        if got is None:
            return None
        sets, pair = got
        kind, t = sets[0]
        tiles = ks + ([t, t + 1, t + 2] if kind == "chow" else [t] * 3) + [pair, pair]
        if max(tiles.count(x) for x in tiles) > 4:
            return None
    else:
        got = _hand_sets(rng)
        if got is None:
            return None
        sets, pair = got
        tiles = [pair, pair]
        n_melds = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4))
        kong_rate = 0.25 if rng.random() < 0.9 else 0.95
        order = list(range(4))
        rng.shuffle(order)
        total_counts = [0] * 34
        for kind, t in sets:
            for x in [t, t + 1, t + 2] if kind == "chow" else [t] * 3:
                total_counts[x] += 1
        total_counts[pair] += 2
        for i, (kind, t) in enumerate(sets):
            if kind == "pung" and total_counts[t] == 3 and rng.random() < kong_rate:
                total_counts[t] += 1
                melds.append(
                    {"kind": "kong", "tiles": [tile_to_str(t)] * 4, "concealed": rng.random() < 0.5}
                )
            elif order.index(i) < n_melds:
                ts = [t, t + 1, t + 2] if kind == "chow" else [t] * 3
                melds.append(
                    {"kind": kind, "tiles": [tile_to_str(x) for x in ts], "concealed": False}
                )
            else:
                tiles += [t, t + 1, t + 2] if kind == "chow" else [t] * 3
    if form < 0.18 and form >= 0.13 and rng.random() < 0.3:
        pass
    win = rng.choice(tiles)
    tiles.remove(win)
    ctx: dict[str, Any] = {
        "win": "self_draw" if rng.random() < 0.4 else "discard",
        "seat_wind": tile_to_str(rng.choice(WINDS)),
        "round_wind": tile_to_str(rng.choice(WINDS)),
    }
    if rng.random() < 0.06:
        ctx["last_tile_of_wall"] = True
    has_kong = any(m["kind"] == "kong" for m in melds)
    r = rng.random()
    if r < 0.08:
        if ctx["win"] == "self_draw" and has_kong:
            ctx["kong_replacement"] = True
        elif (
            ctx["win"] == "discard"
            and win not in tiles
            and not any(tile_to_str(win) in m["tiles"] for m in melds)
        ):
            ctx["robbing_kong"] = True
    if rng.random() < 0.06 and win not in tiles:
        ctx["last_of_kind"] = True
    flowers = sorted(rng.sample(range(1, 9), rng.choice((0, 0, 0, 1, 2, 3))))
    return {
        "rules": MCR.key,
        "hand": [tile_to_str(t) for t in sorted(tiles)],
        "melds": melds,
        "win_tile": tile_to_str(win),
        "flowers": [f"{f}h" for f in flowers],
        "context": ctx,
        "options": {},
    }


def random_mcr_hands(n: int, seed: int = 0) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        h = random_mcr_hand(rng)
        if h is not None:
            out.append(h)
    return out


# ------------------------------------------------------------ the peer --
_PEER_WIND = {"E": 0, "S": 1, "W": 2, "N": 3}
_PEER_HONOR = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "C": "J1", "F": "J2", "P": "J3"}


def peer_tile(code: str) -> str:
    if code in _PEER_HONOR:
        return _PEER_HONOR[code]
    return {"m": "W", "p": "B", "s": "T"}[code[1]] + code[0]


def peer_args(obj: dict[str, Any]) -> dict[str, Any]:
    """The same hand as arguments of pymahjonggb's MahjongFanCalculator."""
    packs = []
    for i, m in enumerate(obj["melds"]):
        tiles = m["tiles"]
        if m["kind"] == "chow":
            packs.append(("CHI", peer_tile(sorted(tiles)[1]), 1 + i % 3))
        elif m["kind"] == "pung":
            packs.append(("PENG", peer_tile(tiles[0]), 1 + i % 3))
        else:
            packs.append(("GANG", peer_tile(tiles[0]), 0 if m.get("concealed") else 1 + i % 3))
    ctx = obj.get("context", {})
    return dict(
        pack=tuple(packs),
        hand=tuple(peer_tile(t) for t in obj["hand"]),
        winTile=peer_tile(obj["win_tile"]),
        flowerCount=len(obj.get("flowers", [])),
        isSelfDrawn=ctx.get("win") == "self_draw",
        is4thTile=bool(ctx.get("last_of_kind")),
        isAboutKong=bool(ctx.get("kong_replacement") or ctx.get("robbing_kong")),
        isWallLast=bool(ctx.get("last_tile_of_wall")),
        seatWind=_PEER_WIND[ctx.get("seat_wind", "E")],
        prevalentWind=_PEER_WIND[ctx.get("round_wind", "E")],
    )
