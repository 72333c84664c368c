"""MCR detection: the sets of one decomposition in, the patterns out.

Every pattern found records the sets it used.  The account-once,
non-identical and non-repeat principles are one mechanism (see
:func:`select_combinations`): the counted patterns that combine sets must not
join those sets into a cycle, and a set may take part in a given pattern
only once.  Exclusions are data (``patterns.tsv``), applied from the highest
pattern down.

:func:`combination_candidates`, :func:`select_combinations` and the
whole-hand tile patterns (:func:`suit_patterns`, :func:`tile_patterns`,
:func:`rank_patterns`, :func:`tile_hog`) have compiled twins in
:mod:`hefen._core`, used as :mod:`hefen.decompose` uses its own (not
with ``HEFEN_PURE=1``); the Python ones stay here as ``_py_*``, the
references.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..decompose import _CORE
from ..sets import CHOW, KONG, PUNG
from ..sets import HandSet as Group
from ..tiles import (
    DRAGONS,
    NUM_KINDS,
    WINDS,
    is_dragon,
    is_honor,
    is_terminal,
    is_terminal_or_honor,
    is_wind,
    tile_to_str,
)
from .table import PATTERNS, PER_SET

REVERSIBLE = frozenset([9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33])
GREEN = frozenset([19, 20, 21, 23, 25, 32])


@dataclass(slots=True)
class Tally:
    """Patterns found in one way of reading the hand, with the sets each used."""

    fans: Counter[str]
    uses: dict[str, list[str]]
    per_set: list[tuple[str, int]]  # (pattern id, group index)

    @classmethod
    def new(cls) -> Tally:
        return cls(Counter(), {}, [])

    def add(self, pid: str, uses: Sequence[str] = (), n: int = 1) -> None:
        self.fans[pid] += n
        if uses:
            self.uses.setdefault(pid, []).extend(uses)


# ---------------------------------------------------------------- chows --
def _chow_pair(a: int, b: int) -> list[str]:
    """Patterns two chows (first tiles a <= b) can form."""
    out = []
    sa, sb = a // 9, b // 9
    if a == b:
        out.append("pure_double_chow")
    elif a % 9 == b % 9:
        out.append("mixed_double_chow")
    if sa == sb and b - a == 3:
        out.append("short_straight")
    if sa == sb and a % 9 == 0 and b % 9 == 6:
        out.append("two_terminal_chows")
    return out


def _chow_triple(a: int, b: int, c: int) -> list[str]:
    ts = sorted((a, b, c))
    suits = {t // 9 for t in ts}
    ranks = sorted(t % 9 for t in ts)
    out = []
    if len(suits) == 3:
        if ranks[0] == ranks[1] == ranks[2]:
            out.append("mixed_triple_chow")
        if ranks == [0, 3, 6]:
            out.append("mixed_straight")
        if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
            out.append("mixed_shifted_chows")
    elif len(suits) == 1:
        x, y, z = ts
        if x == y == z:
            out.append("pure_triple_chow")
        if x % 9 == 0 and y == x + 3 and z == x + 6:
            out.append("pure_straight")
        if (y - x == z - y) and (y - x in (1, 2)):
            out.append("pure_shifted_chows")
    return out


def _chow_quad(ts: list[int]) -> list[str]:
    a, b, c, d = sorted(ts)
    if a // 9 != d // 9:
        return []
    if a == b == c == d:
        return ["quadruple_chow"]
    if b - a == c - b == d - c and b - a in (1, 2):
        return ["four_pure_shifted_chows"]
    return []


# ---------------------------------------------------------------- pungs --
def _pung_pair(a: int, b: int) -> list[str]:
    if a < 27 and b < 27 and a % 9 == b % 9 and a != b:
        return ["double_pung"]
    if is_dragon(a) and is_dragon(b):
        return ["two_dragon_pungs"]
    return []


def _pung_triple(a: int, b: int, c: int) -> list[str]:
    ts = sorted((a, b, c))
    if all(t < 27 for t in ts):
        suits = {t // 9 for t in ts}
        ranks = sorted(t % 9 for t in ts)
        if len(suits) == 3:
            if ranks[0] == ranks[1] == ranks[2]:
                return ["triple_pung"]
            if ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1:
                return ["mixed_shifted_pungs"]
        if len(suits) == 1 and ts[1] == ts[0] + 1 and ts[2] == ts[1] + 1:
            return ["pure_shifted_pungs"]
        return []
    if all(is_wind(t) for t in ts):
        return ["big_three_winds"]
    if all(is_dragon(t) for t in ts):
        return ["big_three_dragons"]
    return []


def _pung_quad(ts: list[int]) -> list[str]:
    a, b, c, d = sorted(ts)
    if a < 27 and a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        return ["four_pure_shifted_pungs"]
    if [a, b, c, d] == list(WINDS):
        return ["big_four_winds"]
    return []


def _py_combination_candidates(groups: list[Group]) -> list[tuple[str, tuple[int, ...]]]:
    """Every pattern that combines two or more sets, with the sets it uses."""
    cands: list[tuple[str, tuple[int, ...]]] = []
    for kind_is, pair_f, triple_f, quad_f in (
        (lambda g: g.kind == CHOW, _chow_pair, _chow_triple, _chow_quad),
        (lambda g: g.pung_like, _pung_pair, _pung_triple, _pung_quad),
    ):
        idx = [i for i, g in enumerate(groups) if kind_is(g)]
        n = len(idx)
        for x in range(n):
            for y in range(x + 1, n):
                i, j = idx[x], idx[y]
                a, b = sorted((groups[i].tile, groups[j].tile))
                for pid in pair_f(a, b):
                    cands.append((pid, (i, j)))
                for z in range(y + 1, n):
                    k = idx[z]
                    for pid in triple_f(groups[i].tile, groups[j].tile, groups[k].tile):
                        cands.append((pid, (i, j, k)))
        if n == 4:
            for pid in quad_f([groups[i].tile for i in idx]):
                cands.append((pid, tuple(idx)))
    return cands


def _py_select_combinations(
    cands: list[tuple[str, tuple[int, ...]]], value: dict[str, int]
) -> list[tuple[str, tuple[int, ...]]]:
    """The most valuable admissible choice of combination patterns.

    Admissible: the chosen patterns, each seen as linking the sets it uses,
    never close a cycle (account-once: a set already combined may combine
    again only with a set it is not yet linked to, and a pattern implied by a
    bigger one over the same sets is never counted again), and no set takes
    part twice in the same pattern (non-identical)."""
    if not cands:
        return []
    order = sorted(cands, key=lambda c: -value[c[0]])
    best: list[tuple[str, tuple[int, ...]]] = []
    best_v = -1

    def find(parent: list[int], x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    def rec(k: int, parent: list[int], used: set[tuple[str, int]], chosen: list, v: int) -> None:
        nonlocal best, best_v
        if v > best_v:
            best_v, best = v, list(chosen)
        if k == len(order):
            return
        # bound: even taking every remaining pattern cannot beat the best
        if v + sum(value[c[0]] for c in order[k:]) <= best_v:
            return
        pid, sets = order[k]
        roots = {find(parent, s) for s in sets}
        if len(roots) == len(sets) and not any((pid, s) in used for s in sets):
            p2 = list(parent)
            r0 = find(p2, sets[0])
            for s in sets[1:]:
                p2[find(p2, s)] = r0
            chosen.append(order[k])
            rec(k + 1, p2, used | {(pid, s) for s in sets}, chosen, v + value[pid])
            chosen.pop()
        rec(k + 1, parent, used, chosen, v)

    rec(0, list(range(8)), set(), [], 0)
    return best


# ------------------------------------------------------------ whole hand --
def _py_suit_patterns(tiles: Sequence[int], t: Tally) -> None:
    suits = {x // 9 for x in tiles if x < 27}
    honors = any(x >= 27 for x in tiles)
    missing = 3 - len(suits)
    if not honors:
        t.add("no_honors")
    if missing == 1:
        t.add("one_voided_suit")
    elif missing == 2:
        t.add("half_flush" if honors else "full_flush")
    elif missing == 3:
        t.add("one_voided_suit", n=3)
    if missing == 0 and any(is_wind(x) for x in tiles) and any(is_dragon(x) for x in tiles):
        t.add("all_types")


def _py_tile_patterns(tiles: Sequence[int], t: Tally) -> None:
    simples = not any(is_terminal_or_honor(x) for x in tiles)
    if simples:
        t.add("all_simples")
    if all(x in REVERSIBLE for x in tiles):
        t.add("reversible_tiles")
    if all(x in GREEN for x in tiles):
        t.add("all_green")
    if simples:
        return
    if all(is_honor(x) for x in tiles):
        t.add("all_honors")
    elif all(is_terminal(x) for x in tiles):
        t.add("all_terminals")
    elif all(is_terminal_or_honor(x) for x in tiles):
        t.add("all_terminals_and_honors")


def _py_rank_patterns(tiles: Sequence[int], t: Tally) -> None:
    if any(x >= 27 for x in tiles):
        return
    ranks = {x % 9 + 1 for x in tiles}
    if ranks <= {1, 2, 3, 4}:
        t.add("lower_four" if 4 in ranks else "lower_tiles")
    elif ranks <= {6, 7, 8, 9}:
        t.add("upper_four" if 6 in ranks else "upper_tiles")
    elif ranks <= {4, 5, 6}:
        t.add("middle_tiles")


def _py_tile_hog(tiles: Sequence[int], kongs: int, t: Tally) -> None:
    c = Counter(tiles)
    n = sum(1 for v in c.values() if v == 4) - kongs
    if n > 0:
        quads = [tile_to_str(x) * 4 for x, v in c.items() if v == 4]
        t.add("tile_hog", n=n, uses=quads)


_CONCEALED_PUNG_RUNS = {
    2: "two_concealed_pungs",
    3: "three_concealed_pungs",
    4: "four_concealed_pungs",
}
#: the per-set pattern of a pung-like set of each kind of tile
_PUNG_PER_SET = {
    x: "dragon_pung"
    if is_dragon(x)
    else "pung_of_terminals_or_honors"
    if is_terminal(x) or is_wind(x)
    else None
    for x in range(NUM_KINDS)
}


def kong_patterns(groups: list[Group], idx: list[int], variant: str, t: Tally) -> None:
    """Kongs, concealed pungs and All Pungs over the pung-like sets ``idx``."""
    mk: list[int] = []  # melded kongs
    ck: list[int] = []  # concealed kongs
    cp: list[int] = []  # concealed pungs
    for i in idx:
        g = groups[i]
        if g.kind == KONG:
            (ck if g.concealed else mk).append(i)
        elif g.kind == PUNG and g.concealed:
            cp.append(i)
    k = len(mk) + len(ck)
    if k:
        if k == 1:
            t.add("melded_kong" if mk else "concealed_kong", _labels(groups, mk + ck))
        elif k == 2:
            if len(mk) == 2:
                t.add("two_melded_kongs", _labels(groups, mk))
            elif len(ck) == 2:
                t.add("two_concealed_kongs", _labels(groups, ck))
            elif variant == "mil":
                t.add("concealed_kong_and_melded_kong", _labels(groups, ck + mk))
            else:
                t.add("concealed_kong", _labels(groups, ck))
                t.add("melded_kong", _labels(groups, mk))
        elif k == 3:
            t.add("three_kongs", _labels(groups, mk + ck))
        elif k == 4:
            t.add("four_kongs", _labels(groups, mk + ck))
    hidden = ck + cp
    if len(hidden) >= 2:
        t.add(_CONCEALED_PUNG_RUNS[len(hidden)], _labels(groups, hidden))
    if len(idx) == 4:
        t.add("all_pungs", _labels(groups, idx))
    per_set = t.per_set
    for i in idx:
        pid = _PUNG_PER_SET[groups[i].tile]
        if pid is not None:
            per_set.append((pid, i))


def _labels(groups: list[Group], idx: list[int]) -> list[str]:
    return [groups[i].label() for i in idx]


def wind_patterns(groups: list[Group], prevalent: int, seat: int, t: Tally) -> None:
    for g in groups:
        if g.kind == PUNG or g.kind == KONG:
            if g.tile == prevalent:
                t.add("prevalent_wind", [g.label()])
            if g.tile == seat:
                t.add("seat_wind", [g.label()])


def finish(t: Tally, groups: list[Group]) -> None:
    """Apply exclusions (highest pattern first), fold the per-set patterns in,
    and give Chicken Hand when nothing else is left."""
    fans, uses = t.fans, t.uses
    per_set = list(t.per_set)
    for pid in sorted(fans, key=_RANK.__getitem__):
        if fans.get(pid, 0) <= 0:
            continue
        per_set_excludes, excludes, absorbs = _EXCLUDES[pid]
        for ex in excludes:
            fans.pop(ex, None)
            uses.pop(ex, None)
        if per_set:
            for ex in per_set_excludes:
                per_set = [p for p in per_set if p[0] != ex]
            if absorbs:
                mine = set(uses.get(pid, ()))
                per_set = [
                    p for p in per_set if not (p[0] in absorbs and groups[p[1]].label() in mine)
                ]
    if per_set and fans.get("nine_gates"):
        # the gates' own terminal pung is part of Nine Gates
        for k, p in enumerate(per_set):
            if p[0] == "pung_of_terminals_or_honors":
                del per_set[k]
                break
    for pid, i in per_set:
        t.add(pid, [groups[i].label()])
    for pid in [p for p, n in fans.items() if n <= 0]:
        del fans[pid]
    if not fans:
        t.add("chicken_hand")


#: each pattern's exclusions, split for :func:`finish`: the per-set patterns
#: it excludes, the others, and the per-set patterns it absorbs on its sets
_EXCLUDES: dict[str, tuple[tuple[str, ...], tuple[str, ...], frozenset[str]]] = {
    pid: (
        tuple(sorted(ex for ex in spec.excludes if ex in PER_SET)),
        tuple(sorted(ex for ex in spec.excludes if ex not in PER_SET)),
        spec.absorbs,
    )
    for pid, spec in PATTERNS.items()
}


Candidates = list[tuple[str, tuple[int, ...]]]
combination_candidates: Callable[[list[Group]], Candidates]
select_combinations: Callable[[Candidates, dict[str, int]], Candidates]
suit_patterns: Callable[[Sequence[int], Tally], None]
tile_patterns: Callable[[Sequence[int], Tally], None]
rank_patterns: Callable[[Sequence[int], Tally], None]
tile_hog: Callable[[Sequence[int], int, Tally], None]
if _CORE is not None and hasattr(_CORE, "tile_hog"):
    _CORE._set_pure_detect(_py_combination_candidates, _py_select_combinations, Group)
    _CORE._set_pure_tiles(
        _py_suit_patterns,
        _py_tile_patterns,
        _py_rank_patterns,
        _py_tile_hog,
        tuple(tile_to_str(x) for x in range(NUM_KINDS)),
    )
    combination_candidates = _CORE.combination_candidates
    select_combinations = _CORE.select_combinations
    suit_patterns = _CORE.suit_patterns
    tile_patterns = _CORE.tile_patterns
    rank_patterns = _CORE.rank_patterns
    tile_hog = _CORE.tile_hog
else:
    combination_candidates = _py_combination_candidates
    select_combinations = _py_select_combinations
    suit_patterns = _py_suit_patterns
    tile_patterns = _py_tile_patterns
    rank_patterns = _py_rank_patterns
    tile_hog = _py_tile_hog

_ORDER_ALL = sorted(PATTERNS, key=lambda p: (-PATTERNS[p].points_mil, PATTERNS[p].no or 99))
_RANK = {p: i for i, p in enumerate(_ORDER_ALL)}

__all__ = [
    "Group",
    "Tally",
    "combination_candidates",
    "select_combinations",
    "suit_patterns",
    "tile_patterns",
    "rank_patterns",
    "tile_hog",
    "kong_patterns",
    "wind_patterns",
    "finish",
    "DRAGONS",
]
