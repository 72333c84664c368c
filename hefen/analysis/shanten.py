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
process-wide, so the suffix ``…567`` of one hand is reused by the next.
Where :mod:`hefen._core` is built (and ``HEFEN_PURE`` is not ``1``) the
tables, their products and ``_best`` are its C twins, with a per-call memo
over (rank, a, b) for the suffixes and the suit tables cached here.  Suit
tables are combined by a max-plus product; slots no held tile fills are
placed on a tile nobody holds.  Seven pairs, thirteen orphans, honours and
knitted tiles and the knitted straight have closed forms or reuse the suit
tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any

from ..decompose import _CORE, KNITTED_STRAIGHTS
from ..ruleset import REGISTRY, find_ruleset
from ..tiles import NUM_KINDS, ORPHANS

__all__ = [
    "FORMS",
    "RULES_FORMS",
    "ShantenInfo",
    "form_distances",
    "shanten_counts",
    "plan_shanten",
    "plan_shantens",
    "discard_shantens",
    "shanten_number",
    "useful_kinds",
]

Counts = tuple[int, ...]

#: the form names, in the order they are reported
FORMS = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")


class _RulesForms(Mapping[str, tuple[str, ...]]):
    """The forms each ruleset allows, read from the ruleset (``Ruleset.forms``)."""

    def __getitem__(self, key: str) -> tuple[str, ...]:
        if key not in REGISTRY:
            raise KeyError(key)
        return find_ruleset(key).forms

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)


#: the forms each ruleset allows (a view of each ruleset's ``forms``)
RULES_FORMS: Mapping[str, tuple[str, ...]] = _RulesForms()

_K = 5  # set slots a table tracks (TW needs five)
_W = (_K + 1) * 2  # table width: index = sets * 2 + pairs
_NEG = -1000  # "impossible"
_NO_LIMIT = 99  # the per-kind cap when copies are not counted

# A table holds, for every number of set slots ``s`` and pair slots ``p``
# (index ``s * 2 + p``), the most tiles kept (``t[i]``) and, beside it
# (``t[_W + i]``), a bit mask of the tile kinds that some target keeping that
# many has more copies of than the hand holds: the kinds whose draw would
# keep one more (the useful tiles, where no slot of the target is empty).
Table = tuple[int, ...]
_EMPTY_CLOSED: Table = (0,) * _W + (0,) * _W  # nothing kept, every slot free
_EXACT_EMPTY: Table = (0,) + (_NEG,) * (_W - 1) + (0,) * _W
_IMPOSSIBLE: Table = (_NEG,) * _W + (0,) * _W


def _closure(t: Table) -> Table:
    """Monotone closure: at most ``s`` set slots and ``p`` pair slots (the
    unused ones are filled with tiles nobody holds)."""
    out = list(t)
    for s in range(_K + 1):
        for p in range(2):
            i = s * 2 + p
            best, mask = out[i], out[_W + i]
            for j in (i - 2 if s else -1, i - 1 if p else -1):
                if j < 0:
                    continue
                if out[j] > best:
                    best, mask = out[j], out[_W + j]
                elif out[j] == best:
                    mask |= out[_W + j]
            out[i], out[_W + i] = best, mask
    return tuple(out)


@lru_cache(maxsize=1 << 18)
def _suffix(c: Counts, cap: Counts, a: int, b: int) -> Table:
    """Best kept tiles of the ranks ``c`` (with per-rank caps ``cap``) using
    at most ``s`` set slots and ``p`` pair slots (index ``s * 2 + p``), given
    ``a`` chows begun one rank before and ``b`` two ranks before (each needs
    a tile here); the masks' bit 0 is the first of these ranks."""
    if not c:
        return _EMPTY_CLOSED
    ci = c[0]
    capi = cap[0]
    need = a + b
    if need > capi:
        return _IMPOSSIBLE
    rest_c = c[1:]
    rest_cap = cap[1:]
    out = [_NEG] * _W + [0] * _W
    # a slot begun in these ranks that keeps none of their tiles is free, so
    # more slots than tiles held here keep no more: tables stop at ``top``
    top = sum(c)
    if top > _K:
        top = _K
    # more chows starting here than the most tiles held on any of their three
    # ranks keep nothing more: the extra ones are free slots
    max_x = max(ci, rest_c[0], rest_c[1]) if len(c) >= 3 else 0
    if max_x > top:
        max_x = top
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
            if t < ci:
                kept, miss = t, 0
            else:
                kept, miss = ci, 1 if t > ci else 0
            ds = x + y
            if ds > top:
                continue
            for s in range(ds, top + 1):
                i = (s - ds) * 2
                j = s * 2
                if not z:  # the pair slot (if any) lies further on
                    v = child[i] + kept
                    o = out[j]
                    if v > o:
                        out[j] = v
                        out[_W + j] = (child[_W + i] << 1) | miss
                    elif v == o:
                        out[_W + j] |= (child[_W + i] << 1) | miss
                    i += 1
                j += 1
                v = child[i] + kept
                o = out[j]
                if v > o:
                    out[j] = v
                    out[_W + j] = (child[_W + i] << 1) | miss
                elif v == o:
                    out[_W + j] |= (child[_W + i] << 1) | miss
    # closed already: every option is monotone where it is defined; past
    # ``top`` the extra slots are free (their masks would only ever be read
    # where no slot is free, see _useful)
    for s in range(top + 1, _K + 1):
        for p in (0, 1):
            out[s * 2 + p] = out[top * 2 + p]
            out[_W + s * 2 + p] = out[_W + top * 2 + p]
    return tuple(out)


_YZ = ((0, 0), (1, 0), (0, 1), (1, 1))
_YZ0 = ((0, 0),)


def _shifted(t: Table, by: int) -> Table:
    """``t`` with its masks moved ``by`` kinds on."""
    return t[:_W] + tuple(m << by for m in t[_W:])


@lru_cache(maxsize=1 << 16)
def _py_suit_table(c: Counts, cap: Counts, base: int = 0) -> Table:
    """The table of one suit's nine counts; mask bit 0 is kind ``base``."""
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
    return _shifted(_suffix(c[lo : hi + 1], cap[lo : hi + 1], 0, 0), base + lo)


@lru_cache(maxsize=1 << 14)
def _py_honor_table(c: Counts, cap: Counts, base: int = 27) -> Table:
    tab = list(_EXACT_EMPTY)
    for r, (n, k) in enumerate(zip(c, cap, strict=True)):
        if not n:
            continue
        bit = 1 << (base + r)
        opts = [(0, 0, 0, 0)]
        if k >= 3:
            opts.append((1, 0, min(n, 3), bit if n < 3 else 0))
        if k >= 2:
            opts.append((0, 1, min(n, 2), bit if n < 2 else 0))
        if k >= 5:
            opts.append((1, 1, min(n, 5), bit if n < 5 else 0))
        new = [_NEG] * _W + [0] * _W
        for idx in range(_W):
            v = tab[idx]
            if v <= _NEG // 2:
                continue
            for ds, dp, kept, miss in opts:
                s = (idx >> 1) + ds
                p = (idx & 1) + dp
                if s > _K or p > 1:
                    continue
                j = s * 2 + p
                m = tab[_W + idx] | miss
                if v + kept > new[j]:
                    new[j] = v + kept
                    new[_W + j] = m
                elif v + kept == new[j]:
                    new[_W + j] |= m
        tab = new
    return _closure(tuple(tab))


@lru_cache(maxsize=1 << 16)
def _py_combine(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
    """Max-plus product of the kept counts of two closed tables (still
    closed; no masks); cached, as the same suit tables meet again and again."""
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


def _py_combine_masks(x: Table, y: Table) -> Table:
    """:func:`_combine` with the masks: those of every split that reaches
    the best, joined."""
    out = [_NEG] * _W + [0] * _W
    for s in range(_K + 1):
        for s1 in range(s + 1):
            i = s1 * 2
            j = (s - s1) * 2
            # (pair from neither), (pair from x), (pair from y)
            for o, a, b in ((s * 2, i, j), (s * 2 + 1, i + 1, j), (s * 2 + 1, i, j + 1)):
                v = x[a] + y[b]
                if v > out[o]:
                    out[o] = v
                    out[_W + o] = x[_W + a] | y[_W + b]
                elif v == out[o]:
                    out[_W + o] |= x[_W + a] | y[_W + b]
    return tuple(out)


def _py_best(x: Table, y: Table, sets: int) -> int:
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


def _py_best_mask(x: Table, y: Table, sets: int, best: int) -> int:
    """The masks of every way two closed tables keep ``best`` tiles with
    ``sets`` set slots and one pair slot, joined."""
    mask = 0
    for s in range(sets + 1):
        i, j = s * 2, (sets - s) * 2
        if x[i + 1] + y[j] == best:
            mask |= x[_W + i + 1] | y[_W + j]
        if x[i] + y[j + 1] == best:
            mask |= x[_W + i] | y[_W + j + 1]
    return mask


# The compiled twins (hefen._core, C), used as hefen.decompose uses its own
# (not with HEFEN_PURE=1, nor when the extension is not built or is stale);
# the Python ones above stay as the references, and the C ones hand them any
# input they do not read.  The compiled tables are cached here by their
# arguments, as the pure ones are.
_suit_table: Callable[..., Table]
_honor_table: Callable[..., Table]
_combine: Callable[[tuple[int, ...], tuple[int, ...]], tuple[int, ...]]
_combine_masks: Callable[[Table, Table], Table]
_best: Callable[[Table, Table, int], int]
_best_mask: Callable[[Table, Table, int, int], int]
if _CORE is not None and hasattr(_CORE, "suit_table"):
    _CORE._set_pure_shanten(
        _py_suit_table, _py_honor_table, _py_combine, _py_combine_masks, _py_best, _py_best_mask
    )
    _suit_table = lru_cache(maxsize=1 << 16)(_CORE.suit_table)
    _honor_table = lru_cache(maxsize=1 << 14)(_CORE.honor_table)
    _combine = lru_cache(maxsize=1 << 16)(_CORE.combine)
    _combine_masks = _CORE.combine_masks
    _best = _CORE.best
    _best_mask = _CORE.best_mask
else:
    _suit_table = _py_suit_table
    _honor_table = _py_honor_table
    _combine = _py_combine
    _combine_masks = _py_combine_masks
    _best = _py_best
    _best_mask = _py_best_mask
#: whether the shanten tables are the compiled ones (hefen._core)
COMPILED: bool = _suit_table is not _py_suit_table


def _best_unpaired(x: Table, y: Table, sets: int) -> int:
    """max kept of two closed tables together with ``sets`` set slots and
    no pair slot."""
    return max(x[s * 2] + y[(sets - s) * 2] for s in range(sets + 1))


def _parts(c: Counts, cap: Counts) -> list[Table]:
    return [
        _suit_table(c[0:9], cap[0:9], 0),
        _suit_table(c[9:18], cap[9:18], 9),
        _suit_table(c[18:27], cap[18:27], 18),
        _honor_table(c[27:34], cap[27:34], 27),
    ]


def _py_standard_kept(c: Counts, cap: Counts, sets: int) -> int:
    p = _parts(c, cap)
    return _best(_combine(p[0][:_W], p[1][:_W]), _combine(p[2][:_W], p[3][:_W]), sets)


def _py_seven_pairs_dist(c: Counts, allow_four: bool) -> int:
    # each kind held fills a slot of two (one for a single tile); with
    # ``allow_four`` a kind held three or more times fills a second slot
    # (of one for three, two for four or more); the best seven slots count
    c1, c2, c3, c4 = c.count(1), c.count(2), c.count(3), c.count(4)
    more = len(c) - c.count(0) - c1 - c2 - c3 - c4  # five or more (``fifth``)
    twos = c2 + c3 + c4 + more
    ones = c1
    if allow_four:
        twos += c4 + more
        ones += c3
    pairs = twos if twos < 7 else 7
    return 14 - 2 * pairs - min(ones, 7 - pairs)


_orphan_counts = itemgetter(*ORPHANS)
_honor_counts = itemgetter(*range(27, 34))
_knitted_counts = tuple(itemgetter(*ks) for ks in KNITTED_STRAIGHTS)


def _held(counts: tuple[int, ...]) -> int:
    """How many of ``counts`` are not zero."""
    return len(counts) - counts.count(0)


def _py_orphans_dist(c: Counts) -> int:
    o = _orphan_counts(c)
    kinds = _held(o)
    pair = kinds > o.count(1)
    return 14 - kinds - (1 if pair else 0)


def _py_honors_knitted_dist(c: Counts) -> int:
    honors = _held(_honor_counts(c))
    best = max(_held(get(c)) for get in _knitted_counts)
    return 14 - min(14, honors + best)


def _py_knitted_straight_dist(c: Counts, cap: Counts, n_melds: int, beat: int = 99) -> int:
    """Distance to a knitted straight with a set and a pair; when no
    reading can come under ``beat`` the answer is only a lower bound."""
    sets = 1 - n_melds
    target = 9 + 3 * sets + 2
    held = sum(c)
    best = target - beat  # a reading must keep more than this to matter
    room = min(3 * sets + 2, held)  # the most the set and pair can keep
    cands = []
    for ks, get in zip(KNITTED_STRAIGHTS, _knitted_counts, strict=True):
        kept = _held(get(c))
        if kept + room <= best or min(get(cap)) < 1:
            continue
        cands.append((kept, ks))
    cands.sort(reverse=True)
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


# The compiled forms (hefen._core), as the tables above: the pure functions
# stay as the references, and the C ones hand them any input they do not read.
_standard_kept: Callable[[Counts, Counts, int], int]
_seven_pairs_dist: Callable[[Counts, bool], int]
_orphans_dist: Callable[[Counts], int]
_honors_knitted_dist: Callable[[Counts], int]
_knitted_straight_dist: Callable[..., int]
if _CORE is not None and COMPILED and hasattr(_CORE, "knitted_straight_dist"):
    _CORE._set_pure_forms(
        _py_standard_kept,
        _py_seven_pairs_dist,
        _py_orphans_dist,
        _py_honors_knitted_dist,
        _py_knitted_straight_dist,
    )
    _standard_kept = _CORE.standard_kept
    _seven_pairs_dist = _CORE.seven_pairs_dist
    _orphans_dist = _CORE.orphans_dist
    _honors_knitted_dist = _CORE.honors_knitted_dist
    _knitted_straight_dist = _CORE.knitted_straight_dist
else:
    _standard_kept = _py_standard_kept
    _seven_pairs_dist = _py_seven_pairs_dist
    _orphans_dist = _py_orphans_dist
    _honors_knitted_dist = _py_honors_knitted_dist
    _knitted_straight_dist = _py_knitted_straight_dist
#: whether the forms' distances are the compiled ones (hefen._core)
COMPILED_FORMS: bool = _knitted_straight_dist is not _py_knitted_straight_dist


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
    return _distances(c, cap, n_melds, forms, size, allow_four_pairs, None)


def _best_distances(
    c: Counts,
    cap: Counts,
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    slack: int,
) -> dict[str, int]:
    """:func:`form_distances`, except that the knitted straight (the costly
    form) is only counted exactly where it comes within ``slack`` of the
    other forms' best; elsewhere its entry is a lower bound above that."""
    return _distances(c, cap, n_melds, forms, size, allow_four_pairs, slack)


def _distances(
    c: Counts,
    cap: Counts,
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    slack: int | None,
) -> dict[str, int]:
    """The distance to each form; the knitted straight exactly (``slack``
    None) or only within ``slack`` of the other forms' best."""
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
        if slack is None:
            out["knitted_straight"] = _knitted_straight_dist(c, cap, n_melds)
        else:
            beat = min(out.values(), default=98) + slack
            out["knitted_straight"] = _knitted_straight_dist(c, cap, n_melds, beat)
    return out


def _py_shanten_number(
    counts: Counts,
    cap: Counts,
    n_melds: int = 0,
    forms: tuple[str, ...] = FORMS,
    size: int = 13,
    allow_four_pairs: bool = True,
) -> int:
    """The shanten alone (``shanten_counts(...).shanten``) of the concealed
    ``counts`` (a 34-tuple) beside ``n_melds`` declared sets, each kind
    capped at ``cap`` copies; cached by the whole hand, for callers that ask
    about many hands (the game's bots).  A form the hand cannot take (seven
    pairs beside a meld) is skipped; with none left the answer is 99."""
    dists = _best_distances(counts, cap, n_melds, forms, size, allow_four_pairs, 0)
    return min(dists.values(), default=100) - 1


def _py_plan_shanten(
    counts: Counts,
    cap: Counts,
    n_melds: int = 0,
    forms: tuple[str, ...] = FORMS,
    size: int = 13,
    allow_four_pairs: bool = True,
) -> int:
    """:func:`shanten_number` of the tiles a plan keeps (a hand with the
    tiles the plan gives up, say the other suits of a flush, taken out),
    where each slot of the standard form those tiles leave empty counts one
    tile: the hand still holds a tile to discard for every draw into it.
    On a whole hand it is the shanten; on fewer tiles it counts only the
    draws the plan needs, not the tiles it gives up."""
    out = _py_shanten_number(counts, cap, n_melds, forms, size, allow_four_pairs)
    if "standard" in forms:
        sets = (size + 1) // 3 - n_melds
        p = _parts(counts, cap)
        left = _combine(p[0][:_W], p[1][:_W])
        right = _combine(p[2][:_W], p[3][:_W])
        kept = max(
            max(_best(left, right, s), _best_unpaired(left, right, s) + 1) + sets - s
            for s in range(sets + 1)
        )
        out = min(out, 3 * sets + 2 - kept - 1)
    return out


def _py_useful_kinds(
    counts: Counts,
    cap: Counts,
    n_melds: int = 0,
    forms: tuple[str, ...] = FORMS,
    size: int = 13,
    allow_four_pairs: bool = True,
) -> tuple[int, ...]:
    """The tile kinds whose draw lowers :func:`shanten_number` (as
    ``shanten_counts(...).useful``, without the report); cached."""
    dists = _best_distances(counts, cap, n_melds, forms, size, allow_four_pairs, 1)
    if not dists:
        return ()
    best = min(dists.values())
    useful: set[int] = set()
    for f in FORMS:
        if dists.get(f) == best:
            useful.update(_useful(counts, cap, n_melds, f, size, allow_four_pairs, best, False))
    return tuple(sorted(useful))


def _py_plan_shantens(
    counts: Counts,
    cap: Counts,
    n_melds: int = 0,
    forms: tuple[str, ...] = FORMS,
    size: int = 13,
    allow_four_pairs: bool = True,
) -> tuple[int, ...]:
    """The plans of a hand in one answer (the Hong Kong value layer's):
    :func:`plan_shanten` of the whole hand, of its half flush of each suit
    (the other two suits' counts zeroed, honours kept), of its full flush of
    each suit (honours zeroed too), then the shanten of seven pairs alone
    (:func:`shanten_number` with the one form): eight ints."""
    out = [_py_plan_shanten(counts, cap, n_melds, forms, size, allow_four_pairs)]
    fulls = []
    for suit in range(3):
        lo, hi = 9 * suit, 9 * suit + 9
        half = (0,) * lo + counts[lo:hi] + (0,) * (27 - hi) + counts[27:]
        full = (0,) * lo + counts[lo:hi] + (0,) * (NUM_KINDS - hi)
        out.append(_py_plan_shanten(half, cap, n_melds, forms, size, allow_four_pairs))
        fulls.append(_py_plan_shanten(full, cap, n_melds, forms, size, allow_four_pairs))
    out += fulls
    out.append(_py_shanten_number(counts, cap, n_melds, ("seven_pairs",), size, allow_four_pairs))
    return tuple(out)


def _py_discard_shantens(
    counts: Counts,
    cap: Counts,
    n_melds: int = 0,
    forms: tuple[str, ...] = FORMS,
    size: int = 13,
    allow_four_pairs: bool = True,
) -> tuple[int | None, ...]:
    """For each kind (0-33) the hand holds, :func:`shanten_number` of the
    hand without one of it; ``None`` for a kind it does not hold: every
    discard's shanten in one answer."""
    c = list(counts)
    out: list[int | None] = []
    for t in range(NUM_KINDS):
        if not c[t]:
            out.append(None)
            continue
        c[t] -= 1
        out.append(_py_shanten_number(tuple(c), cap, n_melds, forms, size, allow_four_pairs))
        c[t] += 1
    return tuple(out)


# The whole-hand functions compiled (hefen._core): one C call for the
# shanten, the useful kinds or the plans of a hand in place of the Python
# walk over the forms and tables above, which stays as the reference (and
# answers any input the C does not read).  Both are cached by the whole hand,
# for callers that ask about many hands (the game's bots).
if _CORE is not None and COMPILED_FORMS and hasattr(_CORE, "plan_shantens"):
    _CORE._set_pure_hands(
        _py_shanten_number,
        _py_useful_kinds,
        _py_plan_shanten,
        _py_plan_shantens,
        _py_discard_shantens,
    )
    _whole_fns: tuple[Callable[..., object], ...] = (
        _CORE.shanten_number,
        _CORE.useful_kinds,
        _CORE.plan_shanten,
        _CORE.plan_shantens,
        _CORE.discard_shantens,
    )
else:
    _whole_fns = (
        _py_shanten_number,
        _py_useful_kinds,
        _py_plan_shanten,
        _py_plan_shantens,
        _py_discard_shantens,
    )
#: whether the whole-hand functions are the compiled ones (hefen._core)
COMPILED_HANDS: bool = _whole_fns[0] is not _py_shanten_number


def _cached(fn: Callable[..., object], ref: Callable[..., object], size: int) -> Any:
    """``fn`` behind an ``lru_cache``, named and documented as ``ref``."""
    out = lru_cache(maxsize=size)(fn)
    out.__name__ = out.__qualname__ = ref.__name__.removeprefix("_py_")
    out.__doc__ = ref.__doc__
    out.__module__ = ref.__module__
    return out


shanten_number: Callable[..., int] = _cached(_whole_fns[0], _py_shanten_number, 1 << 18)
useful_kinds: Callable[..., tuple[int, ...]] = _cached(_whole_fns[1], _py_useful_kinds, 1 << 16)
plan_shanten: Callable[..., int] = _cached(_whole_fns[2], _py_plan_shanten, 1 << 16)
plan_shantens: Callable[..., tuple[int, ...]] = _cached(_whole_fns[3], _py_plan_shantens, 1 << 16)
#: not cached: a hand before its discard seldom comes back
discard_shantens: Callable[..., tuple[int | None, ...]] = _whole_fns[4]  # type: ignore[assignment]


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
        left = _combine_masks(p[0], p[1])
        right = _combine_masks(p[2], p[3])
        full = _best(left, right, sets)
        # Where every target keeping the most has a held tile in each slot,
        # a draw keeps one more exactly when some such target has more
        # copies of it than the hand: the tables' masks say which.  Where one
        # set slot fewer, or no pair slot, keeps as many, a slot may go on
        # tiles nobody holds, and each draw is tried instead.
        free_slot = (sets > 0 and _best(left, right, sets - 1) >= full) or _best_unpaired(
            left, right, sets
        ) >= full
        if not free_slot:
            mask = _best_mask(left, right, sets, full)
            return [t for t in range(NUM_KINDS) if mask >> t & 1]
        rests = (
            _combine(p[1][:_W], right[:_W]),
            _combine(p[0][:_W], right[:_W]),
            _combine(left[:_W], p[3][:_W]),
            _combine(left[:_W], p[2][:_W]),
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
                if part < 3:
                    tab = _suit_table(seg, seg_cap, base)
                else:
                    tab = _honor_table(seg, seg_cap, base)
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
