"""Decompositions and waits, shared by every ruleset.

Counts are tuples of 34 ints (one per tile kind).  A *standard* decomposition
splits the concealed tiles into sets (chows and pungs) and one pair; the
special forms are seven pairs, thirteen orphans, honours-and-knitted and a
knitted straight with one set and a pair (MCR).

The four hot primitives (:func:`is_standard_complete`,
:func:`standard_decompositions`, :func:`is_complete` and
:func:`completing_tiles`) have a compiled twin in :mod:`hefen._core` (C, built
by the package's own build when a compiler is there).  The public names are
the compiled ones when the extension imports and the environment variable
``HEFEN_PURE`` is not ``1`` at import time; otherwise they are the pure-Python
references kept here as ``_py_*`` (the compiled core hands any input outside
its domain back to them, so both answer alike everywhere).  :data:`COMPILED`
says which is in use.  The pure references cache by the count tuple.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from itertools import permutations
from pathlib import Path
from types import ModuleType

from .tiles import NUM_KINDS, ORPHANS

__all__ = [
    "CHOW",
    "PUNG",
    "standard_decompositions",
    "is_standard_complete",
    "is_seven_pairs",
    "is_thirteen_orphans",
    "KNITTED_STRAIGHTS",
    "honors_and_knitted",
    "knitted_straight_decompositions",
    "completing_tiles",
    "ready_discards",
    "FORMS_ALL",
    "FORMS_STANDARD",
    "COMPILED",
    "is_complete",
]

CHOW = 0
PUNG = 1

Counts = tuple[int, ...]
SetT = tuple[int, int]  # (CHOW|PUNG, first tile)
Decomposition = tuple[int, tuple[SetT, ...]]  # (pair tile, sets sorted)


@lru_cache(maxsize=1 << 16)
def _split(counts: Counts, need_pair: bool) -> tuple[tuple[int, tuple[SetT, ...]], ...]:
    """All ways to split ``counts`` into sets (+ one pair if ``need_pair``).
    Returns (pair_tile or -1, sets) tuples; each decomposition once."""
    i = 0
    while i < NUM_KINDS and counts[i] == 0:
        i += 1
    if i == NUM_KINDS:
        return ((-1, ()),) if not need_pair else ()
    out: list[tuple[int, tuple[SetT, ...]]] = []
    c = list(counts)
    n = c[i]
    if need_pair and n >= 2:
        c[i] -= 2
        for _pair, sets in _split(tuple(c), False):
            out.append((i, sets))
        c[i] += 2
    if n >= 3:
        c[i] -= 3
        for pair, sets in _split(tuple(c), need_pair):
            out.append((pair, ((PUNG, i),) + sets))
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for pair, sets in _split(tuple(c), need_pair):
            out.append((pair, ((CHOW, i),) + sets))
    return tuple(out)


def _py_standard_decompositions(counts: Counts) -> tuple[Decomposition, ...]:
    """Every split of ``counts`` (a multiple of three plus two tiles) into
    sets and one pair."""
    if sum(counts) % 3 != 2:
        return ()
    return _split(counts, True)


@cache
def _suit_splits(c: tuple[int, ...], pair: bool) -> bool:
    """Whether one suit's nine counts split into sets (plus a pair if ``pair``)."""
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return not pair
    lst = list(c)
    if pair and lst[i] >= 2:
        lst[i] -= 2
        if _suit_splits(tuple(lst), False):
            return True
        lst[i] += 2
    if lst[i] >= 3:
        lst[i] -= 3
        if _suit_splits(tuple(lst), pair):
            return True
        lst[i] += 3
    if i <= 6 and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        if _suit_splits(tuple(lst), pair):
            return True
    return False


def _py_is_standard_complete(counts: Counts) -> bool:
    """Sets and one pair, checked suit by suit (each suit's answer is cached)."""
    pairs = 0
    for b in (0, 9, 18):
        part = counts[b : b + 9]
        r = sum(part) % 3
        if r == 1:
            return False
        if r == 2:
            pairs += 1
            if pairs > 1 or not _suit_splits(part, True):
                return False
        elif part != _EMPTY9 and not _suit_splits(part, False):
            return False
    for t in range(27, 34):
        n = counts[t]
        if n == 2:
            pairs += 1
            if pairs > 1:
                return False
        elif n not in (0, 3):
            return False
    return pairs == 1


_EMPTY9 = (0,) * 9


def is_seven_pairs(counts: Counts, allow_four: bool = True) -> bool:
    """Fourteen concealed tiles in pairs; a four of a kind is two pairs
    when ``allow_four``."""
    if sum(counts) != 14:
        return False
    ok = (0, 2, 4) if allow_four else (0, 2)
    return all(n in ok for n in counts)


def is_thirteen_orphans(counts: Counts) -> bool:
    if sum(counts) != 14:
        return False
    return all(counts[t] >= 1 for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14


#: the six knitted straights (1-4-7 / 2-5-8 / 3-6-9 spread over the three suits)
KNITTED_STRAIGHTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            s * 9 + r
            for s, start in zip(perm, (0, 1, 2), strict=True)
            for r in (start, start + 3, start + 6)
        )
    )
    for perm in permutations(range(3))
)


def honors_and_knitted(counts: Counts) -> tuple[int, ...] | None:
    """Fourteen single tiles: honours and suit tiles of one knitted straight.
    Returns that knitted straight, or None."""
    if sum(counts) != 14 or any(n > 1 for n in counts):
        return None
    suited = {t for t in range(27) if counts[t]}
    for ks in KNITTED_STRAIGHTS:
        if suited <= set(ks):
            return ks
    return None


def knitted_straight_decompositions(counts: Counts) -> list[tuple[tuple[int, ...], Decomposition]]:
    """Splits into a knitted straight (nine tiles) + sets + a pair."""
    return _knitted_straight_decompositions(counts, standard_decompositions)


def _knitted_straight_decompositions(
    counts: Counts, split: Callable[[Counts], tuple[Decomposition, ...]]
) -> list[tuple[tuple[int, ...], Decomposition]]:
    out = []
    for ks in KNITTED_STRAIGHTS:
        if all(counts[t] for t in ks):
            c = list(counts)
            for t in ks:
                c[t] -= 1
            for dec in split(tuple(c)):
                out.append((ks, dec))
    return out


FORMS_STANDARD = frozenset({"standard"})
FORMS_ALL = frozenset({"standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted"})


def _py_is_complete(counts: Counts, n_melds: int, forms: frozenset[str]) -> bool:
    """Whether ``counts`` (with ``n_melds`` declared sets) is complete in one
    of ``forms``; the standard form is always tried."""
    if _py_is_standard_complete(counts):
        return True
    if n_melds == 0:
        if "seven_pairs" in forms and is_seven_pairs(counts):
            return True
        if "thirteen_orphans" in forms and is_thirteen_orphans(counts):
            return True
        if "honors_knitted" in forms and honors_and_knitted(counts) is not None:
            return True
    if (
        "knitted" in forms
        and n_melds <= 1
        and _knitted_straight_decompositions(counts, _py_standard_decompositions)
    ):
        return True
    return False


def _candidates(counts: Counts, n_melds: int, forms: frozenset[str]) -> list[int]:
    """Tiles that could possibly complete the hand: for sets and pairs only a
    held tile or a neighbour within two in its suit; the special forms add
    their own tiles when the hand is shaped for them."""
    cand = set()
    for t in range(NUM_KINDS):
        if counts[t]:
            cand.add(t)
            if t < 27:
                r = t % 9
                for d in (-2, -1, 1, 2):
                    if 0 <= r + d <= 8:
                        cand.add(t + d)
    if n_melds == 0 and ("thirteen_orphans" in forms or "honors_knitted" in forms):
        if "thirteen_orphans" in forms and all(
            counts[t] == 0 for t in range(34) if t not in ORPHANS
        ):
            cand.update(ORPHANS)
        if "honors_knitted" in forms and max(counts) <= 1:
            cand.update(range(NUM_KINDS))
    if "knitted" in forms and n_melds <= 1:
        for ks in KNITTED_STRAIGHTS:
            if sum(1 for t in ks if counts[t]) >= 8:
                cand.update(ks)
    return sorted(cand)


def _plausible_forms(counts: Counts, n_melds: int, forms: frozenset[str]) -> frozenset[str]:
    """The forms a hand one tile short could still complete (cheap tests),
    so that waits are not looked for in shapes the hand cannot take."""
    keep = {"standard"} & forms
    if n_melds == 0:
        if "seven_pairs" in forms and sum(n // 2 for n in counts) >= 6:
            keep.add("seven_pairs")
        if "thirteen_orphans" in forms and all(
            counts[t] == 0 for t in range(NUM_KINDS) if t not in ORPHANS
        ):
            keep.add("thirteen_orphans")
        if "honors_knitted" in forms and max(counts) <= 1:
            keep.add("honors_knitted")
    if "knitted" in forms and n_melds <= 1:
        if any(sum(1 for t in ks if counts[t]) >= 8 for ks in KNITTED_STRAIGHTS):
            keep.add("knitted")
    return frozenset(keep)


@lru_cache(maxsize=1 << 16)
def _completing(
    counts: Counts, n_melds: int, forms: frozenset[str], fifth: bool = False
) -> tuple[int, ...]:
    out = []
    forms = _plausible_forms(counts, n_melds, forms)
    c = list(counts)
    for t in _candidates(counts, n_melds, forms):
        if c[t] >= 4 and not fifth:
            continue
        c[t] += 1
        if _py_is_complete(tuple(c), n_melds, forms):
            out.append(t)
        c[t] -= 1
    return tuple(out)


def _py_completing_tiles(
    counts: Counts, n_melds: int = 0, forms: frozenset[str] = FORMS_ALL, fifth: bool = False
) -> tuple[int, ...]:
    """The tile kinds that complete a hand one tile short (``counts`` are the
    concealed tiles, ``n_melds`` the declared sets). A kind already held four
    times in the concealed tiles is not a wait, unless ``fifth`` (the reading
    of calculators that ignore how many copies exist)."""
    return _completing(tuple(counts), n_melds, forms, fifth)


def _py_ready_discards(
    counts: Counts, n_melds: int = 0, forms: frozenset[str] = FORMS_ALL
) -> tuple[int, ...]:
    """The kinds ``counts`` holds whose discard leaves a hand one tile from
    complete (:func:`completing_tiles` of the rest not empty; a kind the rest
    holds four times is no wait), ascending: which discards go ready, as a
    declaration of ready asks.

    >>> from hefen.tiles import tile_from_str
    >>> c = [0] * 34
    >>> for t in "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S W".split():
    ...     c[tile_from_str(t)] += 1
    >>> [t == tile_from_str("S") or t == tile_from_str("W") for t in _py_ready_discards(c, 0)]
    [True, True]
    """
    c = list(counts)
    out = []
    for t in range(len(c)):
        if c[t] <= 0:
            continue
        c[t] -= 1
        if _completing(tuple(c), n_melds, forms, False):
            out.append(t)
        c[t] += 1
    return tuple(out)


def _py_completes_with(
    tiles: Sequence[int], n_melds: int, forms: frozenset[str], tile: int
) -> bool:
    """Whether ``tile`` completes the hand of the kinds ``tiles`` beside
    ``n_melds`` declared sets: one of its :func:`completing_tiles` (never a
    fifth copy), what a claim asks of every discard.

    >>> from hefen.tiles import tile_from_str
    >>> hand = [tile_from_str(t) for t in "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S".split()]
    >>> _py_completes_with(hand, 0, FORMS_ALL, tile_from_str("S"))
    True
    >>> _py_completes_with(hand, 0, FORMS_ALL, tile_from_str("W"))
    False
    """
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return tile in _completing(tuple(counts), n_melds, forms, False)


def _source_hash() -> str:
    """The digest of hefen/_core.c (and hefen/_core_hktw.c, which it
    includes) beside this module, as setup.py computes it; the extension's
    own when the source is not there (nothing to compare)."""
    here = Path(__file__)
    try:
        data = b"".join(here.with_name(f).read_bytes() for f in ("_core.c", "_core_hktw.c"))
    except OSError:
        from . import _core

        return str(getattr(_core, "SOURCE_HASH", ""))
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()[:16]


def _load_core() -> ModuleType | None:
    """The compiled core, or None (not built, or ``HEFEN_PURE=1``)."""
    if os.environ.get("HEFEN_PURE") == "1":
        return None
    try:
        from . import _core
    except ImportError:
        return None
    if getattr(_core, "SOURCE_HASH", None) != _source_hash():
        warnings.warn(
            "hefen._core was built from another version of hefen/_core.c: using the "
            "pure-Python core (rebuild: python setup.py build_ext --inplace)",
            RuntimeWarning,
            stacklevel=2,
        )
        return None
    _core._set_pure(
        _py_is_standard_complete,
        _py_standard_decompositions,
        _py_is_complete,
        _py_completing_tiles,
        _py_ready_discards,
        _py_completes_with,
    )
    return _core


_CORE = _load_core()
#: whether the public primitives are the compiled ones (:mod:`hefen._core`)
COMPILED: bool = _CORE is not None

is_standard_complete: Callable[[Counts], bool]
standard_decompositions: Callable[[Counts], tuple[Decomposition, ...]]
is_complete: Callable[[Counts, int, frozenset[str]], bool]
completing_tiles: Callable[..., tuple[int, ...]]
ready_discards: Callable[[Counts, int, frozenset[str]], tuple[int, ...]]
completes_with: Callable[[Sequence[int], int, frozenset[str], int], bool]
if _CORE is not None:
    is_standard_complete = _CORE.is_standard_complete
    standard_decompositions = _CORE.standard_decompositions
    is_complete = _CORE.is_complete
    completing_tiles = _CORE.completing_tiles
    ready_discards = _CORE.ready_discards
    completes_with = _CORE.completes_with
else:
    is_standard_complete = _py_is_standard_complete
    standard_decompositions = _py_standard_decompositions
    is_complete = _py_is_complete
    completing_tiles = _py_completing_tiles
    ready_discards = _py_ready_discards
    completes_with = _py_completes_with
