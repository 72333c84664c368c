"""Shanten: how many tiles a hand is away from ready, over every form a
ruleset allows, and which tiles bring it closer.

The number is computed exactly as a *distance*: the fewest tiles that must be
exchanged (drawn, each followed by a discard) to turn the concealed tiles
into a complete hand, minus one.  So ``-1`` is a complete hand, ``0`` a ready
hand, ``1`` one useful draw away from ready, and so on.  A target hand never
holds a fifth copy of a tile: the copies in the player's own concealed tiles
and melds are counted (``fifth=True`` drops that limit, the reading of
calculators that ignore how many copies exist, e.g. pymahjonggb).

The standard form (sets and a pair) is solved per suit by a dynamic
programme over the nine ranks that maximises the tiles *kept* for each number
of set slots and pair slots used in that suit; the state after rank ``i`` is
the suffix of counts still to place and the chows still open, memoised
process-wide, so the suffix ``…567`` of one hand is reused by the next.  Suit
tables are combined by a max-plus product; slots no held tile fills are
placed on a tile nobody holds.  Seven pairs, thirteen orphans, honours and
knitted tiles and the knitted straight have closed forms or reuse the suit
tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..decompose import KNITTED_STRAIGHTS
from ..tiles import NUM_KINDS, ORPHANS

__all__ = [
    "FORMS",
    "RULES_FORMS",
    "ShantenInfo",
    "form_distances",
    "shanten_counts",
]

Counts = tuple[int, ...]

#: the form names, in the order they are reported
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
#: the forms each ruleset allows
RULES_FORMS: dict[str, tuple[str, ...]] = {
    "mcr": FORMS,
    "hk": ("standard", "seven_pairs", "thirteen_orphans"),
    "tw": ("standard",),
}

_K = 5  # set slots a table tracks (TW needs five)
_W = (_K + 1) * 2  # table width: index = sets * 2 + pairs
_NEG = -1000  # "impossible"
_NO_LIMIT = 99  # the per-kind cap when copies are not counted
_EMPTY_CLOSED: tuple[int, ...] = (0,) * _W  # nothing kept, every slot free
_EXACT_EMPTY: tuple[int, ...] = (0,) + (_NEG,) * (_W - 1)


def _closure(t: tuple[int, ...]) -> tuple[int, ...]:
    """Monotone closure: at most ``s`` set slots and ``p`` pair slots (the
    unused ones are filled with tiles nobody holds)."""
    out = list(t)
    for s in range(_K + 1):
        for p in range(2):
            i = s * 2 + p
            best = out[i]
            if s and out[i - 2] > best:
                best = out[i - 2]
            if p and out[i - 1] > best:
                best = out[i - 1]
            out[i] = best
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _suffix(c: Counts, cap: Counts, a: int, b: int) -> tuple[int, ...]:
    """Best kept tiles of the ranks ``c`` (with per-rank caps ``cap``) using
    at most ``s`` set slots and ``p`` pair slots (index ``s * 2 + p``), given
    ``a`` chows begun one rank before and ``b`` two ranks before (each needs
    a tile here)."""
    if not c:
        return _EMPTY_CLOSED
    ci = c[0]
    capi = cap[0]
    need = a + b
    if need > capi:
        return _IMPOSSIBLE
    rest_c = c[1:]
    rest_cap = cap[1:]
    out = [_NEG] * _W
    # more chows starting here than the most tiles held on any of their three
    # ranks keep nothing more: the extra ones are free slots
    max_x = max(ci, rest_c[0], rest_c[1]) if len(c) >= 3 else 0
    if max_x > _K:
        max_x = _K
    for x in range(max_x + 1):
        tx = need + x
        if tx > capi:
            break
        child = _suffix(rest_c, rest_cap, x, a)
        if child[_W - 1] <= _NEG // 2:
            continue
        for y, z in _YZ if ci else _YZ0:
            t = tx + 3 * y + 2 * z
            if t > capi:
                continue
            kept = t if t < ci else ci
            ds = x + y
            if ds > _K:
                continue
            for s in range(ds, _K + 1):
                base = s * 2
                cb = (s - ds) * 2
                if z:
                    v = child[cb] + kept
                    if v > out[base + 1]:
                        out[base + 1] = v
                else:
                    v = child[cb] + kept
                    if v > out[base]:
                        out[base] = v
                    v = child[cb + 1] + kept
                    if v > out[base + 1]:
                        out[base + 1] = v
    # closed already: every option is monotone where it is defined
    return tuple(out)


_YZ = ((0, 0), (1, 0), (0, 1), (1, 1))
_YZ0 = ((0, 0),)
_IMPOSSIBLE: tuple[int, ...] = (_NEG,) * _W


@lru_cache(maxsize=1 << 16)
def _suit_table(c: Counts, cap: Counts) -> tuple[int, ...]:
    if not any(c):
        return _EMPTY_CLOSED
    # leading and trailing ranks without tiles are only needed for chows
    # that reach over them: keep two of them on each side
    lo = 0
    while c[lo] == 0:
        lo += 1
    hi = 8
    while c[hi] == 0:
        hi -= 1
    lo = max(0, lo - 2)
    hi = min(8, hi + 2)
    return _suffix(c[lo : hi + 1], cap[lo : hi + 1], 0, 0)


@lru_cache(maxsize=1 << 14)
def _honor_table(c: Counts, cap: Counts) -> tuple[int, ...]:
    tab = list(_EXACT_EMPTY)
    for n, k in zip(c, cap, strict=True):
        if not n:
            continue
        opts = [(0, 0, 0)]
        if k >= 3:
            opts.append((1, 0, min(n, 3)))
        if k >= 2:
            opts.append((0, 1, min(n, 2)))
        if k >= 5:
            opts.append((1, 1, min(n, 5)))
        new = [_NEG] * _W
        for idx in range(_W):
            v = tab[idx]
            if v <= _NEG // 2:
                continue
            for ds, dp, kept in opts:
                s = (idx >> 1) + ds
                p = (idx & 1) + dp
                if s > _K or p > 1:
                    continue
                j = s * 2 + p
                if v + kept > new[j]:
                    new[j] = v + kept
        tab = new
    return _closure(tuple(tab))


def _combine(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus product of two closed tables (still closed)."""
    out = []
    for s in range(_K + 1):
        b0 = b1 = _NEG
        for s1 in range(s + 1):
            i = s1 * 2
            j = (s - s1) * 2
            x0 = x[i]
            y0 = y[j]
            v = x0 + y0
            if v > b0:
                b0 = v
            v = x[i + 1] + y0
            if v > b1:
                b1 = v
            v = x0 + y[j + 1]
            if v > b1:
                b1 = v
        out.append(b0)
        out.append(b1)
    return tuple(out)


def _best(x: tuple[int, ...], y: tuple[int, ...], sets: int) -> int:
    """max kept of two closed tables together with ``sets`` set slots and
    one pair slot."""
    best = _NEG
    for s in range(sets + 1):
        a0, a1 = x[s * 2], x[s * 2 + 1]
        b0, b1 = y[(sets - s) * 2], y[(sets - s) * 2 + 1]
        v = a1 + b0 if a1 + b0 > a0 + b1 else a0 + b1
        if v > best:
            best = v
    return best


def _parts(c: Counts, cap: Counts) -> list[tuple[int, ...]]:
    return [
        _suit_table(c[0:9], cap[0:9]),
        _suit_table(c[9:18], cap[9:18]),
        _suit_table(c[18:27], cap[18:27]),
        _honor_table(c[27:34], cap[27:34]),
    ]


def _standard_kept(c: Counts, cap: Counts, sets: int) -> int:
    p = _parts(c, cap)
    return _best(_combine(p[0], p[1]), _combine(p[2], p[3]), sets)


def _seven_pairs_dist(c: Counts, allow_four: bool) -> int:
    slots: list[int] = []
    for n in c:
        if n:
            slots.append(min(n, 2))
            if allow_four and n > 2:
                slots.append(min(n - 2, 2))
    slots.sort(reverse=True)
    return 14 - sum(slots[:7])


def _orphans_dist(c: Counts) -> int:
    kinds = sum(1 for t in ORPHANS if c[t])
    pair = any(c[t] >= 2 for t in ORPHANS)
    return 14 - kinds - (1 if pair else 0)


def _honors_knitted_dist(c: Counts) -> int:
    honors = sum(1 for t in range(27, 34) if c[t])
    best = max(sum(1 for t in ks if c[t]) for ks in KNITTED_STRAIGHTS)
    return 14 - min(14, honors + best)


def _knitted_straight_dist(c: Counts, cap: Counts, n_melds: int, beat: int = 99) -> int:
    """Distance to a knitted straight with a set and a pair; when no
    reading can come under ``beat`` the answer is only a lower bound."""
    sets = 1 - n_melds
    target = 9 + 3 * sets + 2
    held = sum(c)
    cands = []
    for ks in KNITTED_STRAIGHTS:
        if any(cap[t] < 1 for t in ks):
            continue
        kept = sum(1 for t in ks if c[t])
        cands.append((kept, ks))
    cands.sort(reverse=True)
    best = target - beat  # a reading must keep more than this to matter
    for kept, ks in cands:
        # the set and pair beside the straight keep at most the other tiles
        if kept + min(3 * sets + 2, held - kept) <= best:
            continue
        rc = list(c)
        rcap = list(cap)
        for t in ks:
            if rc[t]:
                rc[t] -= 1
            rcap[t] -= 1
        kept += _standard_kept(tuple(rc), tuple(rcap), sets)
        if kept > best:
            best = kept
    return target - best if best > target - beat else beat


def form_distances(
    c: Counts,
    cap: Counts,
    n_melds: int,
    forms: tuple[str, ...],
    size: int = 13,
    allow_four_pairs: bool = True,
) -> dict[str, int]:
    """Distance (shanten + 1) of the concealed counts ``c`` to each form;
    ``cap`` is the most copies of each kind the concealed tiles may reach
    (four minus those in melds, or 99 when copies are not counted)."""
    out: dict[str, int] = {}
    sets = (size + 1) // 3 - n_melds
    if "standard" in forms:
        out["standard"] = 3 * sets + 2 - _standard_kept(c, cap, sets)
    if n_melds == 0 and size == 13:
        if "seven_pairs" in forms:
            out["seven_pairs"] = _seven_pairs_dist(c, allow_four_pairs)
        if "thirteen_orphans" in forms:
            out["thirteen_orphans"] = _orphans_dist(c)
        if "honors_knitted" in forms:
            out["honors_knitted"] = _honors_knitted_dist(c)
    if "knitted_straight" in forms and n_melds <= 1 and size == 13:
        out["knitted_straight"] = _knitted_straight_dist(c, cap, n_melds)
    return out


@dataclass(frozen=True, slots=True)
class ShantenInfo:
    """The shanten of concealed counts: the number, the forms reaching it,
    and the tile kinds (0-33) that lower it, with their per-form shanten."""

    shanten: int
    forms: tuple[str, ...]
    useful: tuple[int, ...]
    by_form: dict[str, int]


def shanten_counts(
    counts: Counts,
    meld_counts: Counts | None = None,
    n_melds: int = 0,
    forms: tuple[str, ...] = FORMS,
    size: int = 13,
    fifth: bool = False,
    allow_four_pairs: bool = True,
) -> ShantenInfo:
    """Shanten of the concealed ``counts`` (34 ints) beside ``n_melds``
    declared sets whose tiles are ``meld_counts``; ``size`` is the hand size
    before the winning tile (13, or 16 for TW).  The hand may hold its
    normal number of tiles (``size - 3 * n_melds``) or one more (just
    drawn): the number means the same, the fewest exchanges to a complete
    hand minus one.  Useful tiles are those whose draw lowers the number;
    a kind whose four copies the player already holds is never useful
    unless ``fifth``."""
    c = tuple(counts)
    if fifth:
        cap = (_NO_LIMIT,) * NUM_KINDS
    else:
        mc = meld_counts or (0,) * NUM_KINDS
        cap = tuple(4 - m for m in mc)
    dists = form_distances(c, cap, n_melds, forms, size, allow_four_pairs)
    if not dists:
        raise ValueError("no form of this ruleset fits the hand")
    best = min(dists.values())
    best_forms = tuple(f for f in FORMS if dists.get(f) == best)
    useful: set[int] = set()
    for f in best_forms:
        useful.update(_useful(c, cap, n_melds, f, size, allow_four_pairs, best, fifth))
    return ShantenInfo(
        best - 1, best_forms, tuple(sorted(useful)), {f: d - 1 for f, d in dists.items()}
    )


def _useful(
    c: Counts,
    cap: Counts,
    n_melds: int,
    form: str,
    size: int,
    allow_four: bool,
    dist: int,
    fifth: bool,
) -> list[int]:
    cl = list(c)
    out: list[int] = []
    if form == "standard":
        sets = (size + 1) // 3 - n_melds
        p = _parts(c, cap)
        left = _combine(p[0], p[1])
        right = _combine(p[2], p[3])
        rests = (
            _combine(p[1], right),
            _combine(p[0], right),
            _combine(left, p[3]),
            _combine(left, p[2]),
        )
        for part in range(4):
            rest = rests[part]
            base = part * 9
            n_kinds = 9 if part < 3 else 7
            for r in range(n_kinds):
                t = base + r
                if cl[t] >= cap[t] or (not fifth and cl[t] >= 4):
                    continue
                cl[t] += 1
                seg = tuple(cl[base : base + n_kinds])
                seg_cap = cap[base : base + n_kinds]
                tab = _suit_table(seg, seg_cap) if part < 3 else _honor_table(seg, seg_cap)
                cl[t] -= 1
                if 3 * sets + 2 - _best(tab, rest, sets) < dist:
                    out.append(t)
        return out
    for t in range(NUM_KINDS):
        if cl[t] >= cap[t] or (not fifth and cl[t] >= 4):
            continue
        cl[t] += 1
        cc = tuple(cl)
        cl[t] -= 1
        if form == "seven_pairs":
            d = _seven_pairs_dist(cc, allow_four)
        elif form == "thirteen_orphans":
            d = _orphans_dist(cc)
        elif form == "honors_knitted":
            d = _honors_knitted_dist(cc)
        else:
            d = _knitted_straight_dist(cc, cap, n_melds, dist)
        if d < dist:
            out.append(t)
    return out
