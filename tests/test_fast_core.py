"""The compiled core (hefen._core) against the pure-Python references in
hefen.decompose: each primitive on the count vectors of generated MCR, Hong
Kong and Taiwanese hands and on random count vectors, then whole scoring
(every ruleset) with the compiled core in this process and the pure one in a
``HEFEN_PURE=1`` subprocess.  The compiled-vs-pure tests are skipped, with the
reason, when the extension is not built; the HEFEN_PURE tests always run."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hand_draws import seat_context, sets_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_check import same_as_reference

import hefen
from hefen import decompose as d
from hefen.testing.generate import random_mcr_hands
from hefen.testing.generate_hk_tw import random_hands
from hefen.tiles import NUM_KINDS, tile_from_str

TESTS = Path(__file__).resolve().parent
# where the hefen under test lives (the source tree, or site-packages when a
# built wheel is tested): the subprocesses import that one
ROOT = Path(hefen.__file__).resolve().parent.parent
BUILT = importlib.util.find_spec("hefen._core") is not None
needs_core = pytest.mark.skipif(
    not BUILT,
    reason="hefen._core is not built (no C compiler at install time?): "
    "run `python setup.py build_ext --inplace` or `pip install -e .` with gcc",
)

FORM_SETS: list[frozenset[str]] = [
    d.FORMS_ALL,
    d.FORMS_STANDARD,
    frozenset(),
    frozenset({"seven_pairs"}),
    frozenset({"thirteen_orphans"}),
    frozenset({"honors_knitted"}),
    frozenset({"knitted"}),
    frozenset({"standard", "knitted"}),
    frozenset({"seven_pairs", "thirteen_orphans", "honors_knitted"}),
]

Counts = tuple[int, ...]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    if not BUILT:
        pytest.skip("hefen._core is not built")
    from hefen import _core

    # registered by hefen.decompose and hefen.mcr.detect unless HEFEN_PURE=1;
    # the fallback needs them
    from hefen.mcr import detect
    from hefen.tiles import tile_to_str

    _core._set_pure(
        d._py_is_standard_complete,
        d._py_standard_decompositions,
        d._py_is_complete,
        d._py_completing_tiles,
        d._py_ready_discards,
        d._py_completes_with,
    )
    _core._set_pure_detect(
        detect._py_combination_candidates, detect._py_select_combinations, detect.Group
    )
    _core._set_pure_tiles(
        detect._py_suit_patterns,
        detect._py_tile_patterns,
        detect._py_rank_patterns,
        detect._py_tile_hog,
        tuple(tile_to_str(x) for x in range(NUM_KINDS)),
    )
    return _core


def shape(x: Any) -> Any:
    """The value with every container's type made part of it, so that
    equality also means the same tuple shapes and the same bool/int types."""
    if isinstance(x, tuple | list):
        return (type(x).__name__, tuple(shape(y) for y in x))
    return (type(x).__name__, x)


def counts_of(codes: list[str]) -> list[int]:
    """Counts of the tile kinds (a bonus tile, e.g. a flower won on, is left out)."""
    c = [0] * NUM_KINDS
    for code in codes:
        t = tile_from_str(code)
        if t < NUM_KINDS:
            c[t] += 1
    return c


def hand_shapes(hands: list[dict[str, Any]]) -> Iterator[tuple[Counts, int]]:
    """For each hand: its concealed tiles with the winning tile (a complete
    shape) and each shape one tile short (a tile taken out), with the number
    of melds."""
    seen: set[tuple[Counts, int]] = set()
    for h in hands:
        c = counts_of(h["hand"] + [h["win_tile"]])
        n = len(h["melds"])
        shapes = [tuple(c)]
        for t in range(NUM_KINDS):
            if c[t]:
                c[t] -= 1
                shapes.append(tuple(c))
                c[t] += 1
        for s in shapes:
            if (s, n) not in seen:
                seen.add((s, n))
                yield s, n


def generated_hands() -> list[dict[str, Any]]:
    return random_mcr_hands(700, 11) + random_hands("hk", 300, 12) + random_hands("tw", 300, 13)


def check_all(core: ModuleType, c: Counts, n_melds: int, every_form: bool = True) -> None:
    """Each primitive, compiled and pure, on ``c``: with ``every_form`` over
    each set of forms and 0, 1 and ``n_melds`` melds, else over all forms and
    the standard form only with ``n_melds``."""
    assert shape(core.is_standard_complete(c)) == shape(d._py_is_standard_complete(c)), c
    assert shape(core.standard_decompositions(c)) == shape(d._py_standard_decompositions(c)), c
    for forms in FORM_SETS if every_form else FORM_SETS[:2]:
        for n in {n_melds, 0, 1} if every_form else (n_melds,):
            assert core.is_complete(c, n, forms) is d._py_is_complete(c, n, forms), (c, n, forms)
            for fifth in (False, True):
                got = core.completing_tiles(c, n, forms, fifth)
                want = d._py_completing_tiles(c, n, forms, fifth)
                assert shape(got) == shape(want), (c, n, forms, fifth)


@needs_core
def test_dispatch_selects_the_compiled_core(core: ModuleType) -> None:
    if os.environ.get("HEFEN_PURE") == "1":
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    assert d.COMPILED
    assert d.is_standard_complete is core.is_standard_complete
    assert d.standard_decompositions is core.standard_decompositions
    assert d.is_complete is core.is_complete
    assert d.completing_tiles is core.completing_tiles


@needs_core
def test_a_stale_core_is_not_used(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """An extension built from another hefen/_core.c (an editable checkout
    not rebuilt after a pull) is left aside, with a warning."""
    if os.environ.get("HEFEN_PURE") == "1":
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    assert core.SOURCE_HASH == d._source_hash()
    assert d._load_core() is core
    monkeypatch.setattr(d, "_source_hash", lambda: "0" * 16)
    with pytest.warns(RuntimeWarning, match="another version"):
        assert d._load_core() is None


@needs_core
def test_primitives_on_generated_hands(core: ModuleType) -> None:
    n = 0
    n_ready = 0
    for c, n_melds in hand_shapes(generated_hands()):
        check_all(core, c, n_melds, every_form=n % 8 == 0)
        n += 1
        n_ready += bool(d._py_completing_tiles(c, n_melds, d.FORMS_ALL))
    assert n > 5000 and n_ready > 500  # the shapes did reach the waits


@needs_core
def test_special_forms_reached(core: ModuleType) -> None:
    """The generated hands include every special form, so the differential
    test above does compare them."""
    hits = {f: 0 for f in ("seven_pairs", "thirteen_orphans", "honors_knitted", "knitted")}
    for c, n_melds in hand_shapes(random_mcr_hands(700, 11)):
        if n_melds == 0 and d.is_seven_pairs(c):
            hits["seven_pairs"] += 1
        if n_melds == 0 and d.is_thirteen_orphans(c):
            hits["thirteen_orphans"] += 1
        if n_melds == 0 and d.honors_and_knitted(c) is not None:
            hits["honors_knitted"] += 1
        if n_melds <= 1 and d.knitted_straight_decompositions(c):
            hits["knitted"] += 1
            assert d.knitted_straight_decompositions(c) == d._knitted_straight_decompositions(
                c, d._py_standard_decompositions
            )
    assert all(v > 0 for v in hits.values()), hits


def _tiles(max_suit: int) -> st.SearchStrategy[Counts]:
    """Up to 18 tiles, at most four of a kind, often crowded into one suit."""

    @st.composite
    def build(draw: st.DrawFn) -> Counts:
        n = draw(st.integers(0, 18))
        pool = draw(
            st.sampled_from([range(NUM_KINDS), range(9), range(9, 18), range(27, 34), range(18)])
        )
        c = [0] * NUM_KINDS
        for t in draw(st.lists(st.sampled_from(list(pool)), min_size=n, max_size=n)):
            if c[t] < max_suit:
                c[t] += 1
        return tuple(c)

    return build()


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=_tiles(4), n_melds=st.integers(0, 4))
def test_primitives_on_random_counts(core: ModuleType, c: Counts, n_melds: int) -> None:
    check_all(core, c, n_melds)


@needs_core
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=_tiles(6), n_melds=st.integers(-1, 2))
def test_primitives_past_four_of_a_kind(core: ModuleType, c: Counts, n_melds: int) -> None:
    """Five or six of a kind (a fifth tile, calculators' reading) and odd
    meld counts: the C code follows the reference there too."""
    check_all(core, c, n_melds)


def _ready_by_each_discard(c: Counts, n_melds: int, forms: frozenset[str]) -> tuple[int, ...]:
    """The kinds whose discard leaves ``c`` waiting, one completing_tiles
    call per kind held (what Game._turn_actions asked before ready_discards)."""
    out = []
    for t in range(NUM_KINDS):
        if c[t]:
            rest = list(c)
            rest[t] -= 1
            if d._py_completing_tiles(tuple(rest), n_melds, forms):
                out.append(t)
    return tuple(out)


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    c=_tiles(4),
    n_melds=st.integers(0, 5),
    forms=st.sampled_from([d.FORMS_ALL, d.FORMS_STANDARD, frozenset({"standard", "seven_pairs"})]),
)
def test_ready_discards_on_random_counts(
    core: ModuleType, c: Counts, n_melds: int, forms: frozenset[str]
) -> None:
    """ready_discards, compiled and pure, against a completing_tiles call per
    kind held, under MCR's, Hong Kong's and Taiwan's forms."""
    want = _ready_by_each_discard(c, n_melds, forms)
    assert core.ready_discards(c, n_melds, forms) == want
    assert d._py_ready_discards(c, n_melds, forms) == want


def _tiles_of(c: Counts) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(c[t])]


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    c=_tiles(4),
    n_melds=st.integers(0, 5),
    forms=st.sampled_from(FORM_SETS),
    drop=st.integers(0, 17),
)
def test_completes_with_is_one_of_the_completing_tiles(
    core: ModuleType, c: Counts, n_melds: int, forms: frozenset[str], drop: int
) -> None:
    """completes_with (the claims' first test), compiled and pure, is
    ``tile in completing_tiles`` for every kind, on random hands and on the
    same hands one tile short of what they hold (often waiting)."""
    tiles = _tiles_of(c)
    if tiles:
        del tiles[drop % len(tiles)]
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    waits = set(d._py_completing_tiles(tuple(counts), n_melds, forms))
    for t in range(NUM_KINDS):
        assert core.completes_with(tiles, n_melds, forms, t) == (t in waits), (tiles, t)
        assert core.completes_with(tuple(tiles), n_melds, forms, t) == (t in waits)
        assert d._py_completes_with(tiles, n_melds, forms, t) == (t in waits)


@needs_core
def test_completes_with_on_waiting_hands(core: ModuleType) -> None:
    """On generated winning hands less their winning tile (every ruleset's
    forms), the winning tile completes them, compiled and pure."""
    from hefen.testing.generate_hk_tw import random_hands

    n = 0
    for rules in ("hk", "tw"):
        for h in random_hands(rules, 200, 5):
            tiles = [tile_from_str(t) for t in h["hand"]]
            win = tile_from_str(h["win_tile"])
            if win >= NUM_KINDS or max(tiles, default=0) >= NUM_KINDS:
                continue
            n_melds = len(h.get("melds") or [])
            for forms in (d.FORMS_ALL, frozenset({"standard"})):
                want = d._py_completes_with(tiles, n_melds, forms, win)
                assert core.completes_with(tiles, n_melds, forms, win) == want
                n += want
    assert n > 300, n


@needs_core
def test_completes_with_outside_the_compiled_domain(core: ModuleType) -> None:
    """Anything the C does not read (not a list of kinds, a meld count not an
    int, forms not a set, a tile out of range) goes to the reference, with
    its answer or its error."""
    hand = [tile_from_str(t) for t in "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S".split()]
    s = tile_from_str("S")
    assert core.completes_with(iter(hand), 0, d.FORMS_ALL, s) is True  # the reference reads it
    assert core.completes_with(hand, 0, d.FORMS_ALL, 34) is False
    with pytest.raises(IndexError):
        core.completes_with([*hand[:-1], 40], 0, d.FORMS_ALL, s)
    for args in (
        (hand, 1.5, d.FORMS_ALL, s),
        (hand, None, d.FORMS_ALL, s),
        (hand, 0, ("standard",), s),
    ):
        same_as_reference(core.completes_with, d._py_completes_with, *args)


@needs_core
def test_ready_discards_of_dealt_taiwanese_hands(core: ModuleType) -> None:
    """On Taiwanese winning hands with one tile swapped (near ready, beside
    their melds): many discards go ready, and both answers agree."""
    import random

    from hefen.testing.generate_hk_tw import random_hands

    rng = random.Random(3)
    ready = 0
    for h in random_hands("tw", 300, 4):
        tiles = [tile_from_str(t) for t in [*h["hand"], h["win_tile"]]]
        if max(tiles) >= NUM_KINDS:
            continue  # a flower win
        tiles[rng.randrange(len(tiles))] = rng.randrange(NUM_KINDS)
        c = [0] * NUM_KINDS
        for t in tiles:
            c[t] += 1
        if max(c) > 4:
            continue
        n_melds = len(h.get("melds") or [])
        forms = frozenset({"standard"})
        want = _ready_by_each_discard(tuple(c), n_melds, forms)
        assert core.ready_discards(tuple(c), n_melds, forms) == want
        ready += bool(want)
    assert ready > 30, ready


@needs_core
def test_inputs_outside_the_compiled_domain_go_to_the_reference(core: ModuleType) -> None:
    def same(f: Callable[..., Any], g: Callable[..., Any], *args: Any, **kw: Any) -> None:
        same_as_reference(f, g, *args, key=shape, **kw)

    base = [0] * NUM_KINDS
    base[0:3] = [1, 1, 1]
    base[27] = 2
    odd: list[Any] = [
        list(base),  # a list (the reference caches by tuple: TypeError)
        tuple(base) + (0,),  # 35 counts
        tuple(base[:-1]),  # 33 counts
        tuple([True, True, True] + base[3:]),  # bools
        tuple([17] + base[1:]),  # above MAX_COUNT
        tuple([-1] + base[1:]),  # negative
        tuple([1.0] + base[1:]),  # a float
        tuple([2**70] + base[1:]),  # a huge int
    ]
    for c in odd:
        same(core.is_standard_complete, d._py_is_standard_complete, c)
        same(core.standard_decompositions, d._py_standard_decompositions, c)
        same(core.is_complete, d._py_is_complete, c, 0, d.FORMS_ALL)
        same(core.completing_tiles, d._py_completing_tiles, c, 0, d.FORMS_ALL)
        same(core.ready_discards, d._py_ready_discards, c, 0, d.FORMS_ALL)
    c13 = tuple([1, 1, 1, 0, 0, 0, 0, 0, 0] + [0] * 18 + [2, 0, 0, 0, 0, 0, 0])
    c13 = tuple(x + (i == 12) * 3 for i, x in enumerate(c13))  # 4p pung: 11 tiles
    # keywords, defaults, iterables, n_melds and forms of other types
    same(core.completing_tiles, d._py_completing_tiles, c13)
    same(core.completing_tiles, d._py_completing_tiles, counts=c13, fifth=True)
    same(core.completing_tiles, d._py_completing_tiles, c13, forms=d.FORMS_STANDARD, n_melds=1)
    same(core.completing_tiles, d._py_completing_tiles, list(c13), 1)
    assert core.completing_tiles(iter(c13), 1) == d._py_completing_tiles(c13, 1)
    assert core.completing_tiles(iter(list(c13) + [0]), 1) == d._py_completing_tiles(
        tuple(c13) + (0,), 1
    )
    same(core.completing_tiles, d._py_completing_tiles, c13, 1.0)
    same(core.completing_tiles, d._py_completing_tiles, c13, True)
    same(core.completing_tiles, d._py_completing_tiles, c13, 1, {"standard"})  # unhashable
    same(core.completing_tiles, d._py_completing_tiles, c13, 1, ("standard", "knitted"))
    same(core.completing_tiles, d._py_completing_tiles, c13, 1, d.FORMS_ALL, 1)
    same(core.completing_tiles, d._py_completing_tiles, c13, 1, d.FORMS_ALL, False, 0)
    same(core.completing_tiles, d._py_completing_tiles, c13, colour=1)
    same(core.completing_tiles, d._py_completing_tiles)
    same(core.is_complete, d._py_is_complete, c13, 1)
    same(core.ready_discards, d._py_ready_discards, c13, 1)
    same(core.ready_discards, d._py_ready_discards, c13, 1, ("standard",))
    same(core.ready_discards, d._py_ready_discards, c13, 1.5, d.FORMS_ALL)
    same(core.is_standard_complete, d._py_is_standard_complete)


# --- MCR combination patterns (hefen.mcr.detect) -----------------------------


@needs_core
def test_detect_dispatch(core: ModuleType) -> None:
    from hefen.mcr import detect as dt

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    assert dt.combination_candidates is core.combination_candidates
    assert dt.select_combinations is core.select_combinations


@needs_core
def test_detect_on_generated_hands(core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call the MCR scorer makes, compiled against pure."""
    import hefen.mcr as mcr
    from hefen.mcr import detect as dt
    from hefen.scoring import score_uncached
    from hefen.sets import HandSet

    seen = {"cc": 0, "sc": 0, "chosen": 0}

    def cc(groups: list[HandSet]) -> list[tuple[str, tuple[int, ...]]]:
        got = core.combination_candidates(groups)
        want = dt._py_combination_candidates(groups)
        assert shape(got) == shape(want), groups
        seen["cc"] += 1
        return want

    def sc(
        cands: list[tuple[str, tuple[int, ...]]], value: dict[str, int]
    ) -> list[tuple[str, tuple[int, ...]]]:
        got = core.select_combinations(cands, value)
        want = dt._py_select_combinations(cands, value)
        assert shape(got) == shape(want), cands
        seen["sc"] += 1
        seen["chosen"] += len(want)
        return want

    monkeypatch.setattr(mcr, "combination_candidates", cc)
    monkeypatch.setattr(mcr, "select_combinations", sc)
    monkeypatch.setattr(mcr, "_MCR_SCORE", None)  # the Python readings, which call them
    import hefen.scoring as scoring

    monkeypatch.setattr(scoring, "_MCR_FAST", [None])  # and not the one-call path, if loaded
    monkeypatch.setattr(scoring, "_ONE_CALL", scoring._one_call)  # nor the core's dispatch
    for i, h in enumerate(random_mcr_hands(1500, 31)):
        score_uncached({**h, "options": {"variant": "mil"}} if i % 2 else h, strict=True)
    assert seen["cc"] > 1000 and seen["sc"] > 1000 and seen["chosen"] > 500, seen


def _groups() -> st.SearchStrategy[list[Any]]:
    from hefen.sets import HandSet

    chow_tiles = [t for t in range(27) if t % 9 <= 6]
    one = st.one_of(
        st.builds(HandSet, st.just("chow"), st.sampled_from(chow_tiles), st.booleans()),
        st.builds(HandSet, st.sampled_from(["pung", "kong"]), st.integers(0, 33), st.booleans()),
        st.builds(HandSet, st.just("pair"), st.integers(0, 33), st.booleans()),
        # a chow read at an honour or an edge: the reference's arithmetic anyway
        st.builds(HandSet, st.just("chow"), st.integers(0, 33), st.booleans()),
    )
    return st.lists(one, max_size=6)


@needs_core
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(groups=_groups(), data=st.data())
def test_detect_on_random_sets(core: ModuleType, groups: list[Any], data: st.DataObject) -> None:
    from hefen.mcr import _VALUES
    from hefen.mcr import detect as dt

    cands = dt._py_combination_candidates(groups)
    assert shape(core.combination_candidates(groups)) == shape(cands)
    values = [
        *_VALUES.values(),
        {pid: data.draw(st.integers(0, 6)) for pid, _ in cands},  # ties
    ]
    for value in values:
        assert shape(core.select_combinations(cands, value)) == shape(
            dt._py_select_combinations(cands, value)
        )


@needs_core
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cands=st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c", "d", "e"]),
            st.lists(st.integers(0, 7), min_size=2, max_size=4).map(tuple),
        ),
        max_size=10,
    ),
    data=st.data(),
)
def test_select_combinations_on_random_candidates(
    core: ModuleType, cands: list[tuple[str, tuple[int, ...]]], data: st.DataObject
) -> None:
    """Any candidates (sets repeated, shared, in cycles), any values (ties)."""
    from hefen.mcr import detect as dt

    value = {pid: data.draw(st.integers(0, 9)) for pid, _ in cands}
    got = core.select_combinations(cands, value)
    want = dt._py_select_combinations(cands, value)
    assert shape(got) == shape(want)
    assert all(g is w for g, w in zip(got, want, strict=True))  # the same objects


@needs_core
def test_detect_inputs_outside_the_compiled_domain(core: ModuleType) -> None:
    from hefen.mcr import detect as dt
    from hefen.sets import HandSet

    def same(f: Callable[..., Any], g: Callable[..., Any], *args: Any) -> None:
        same_as_reference(f, g, *args, key=shape)

    gs = [HandSet("chow", 0, True), HandSet("chow", 3, True), HandSet("chow", 6, False)]
    same(core.combination_candidates, dt._py_combination_candidates, tuple(gs))
    same(
        core.combination_candidates, dt._py_combination_candidates, gs + [HandSet("pung", 40, True)]
    )
    same(
        core.combination_candidates, dt._py_combination_candidates, gs + [HandSet("pung", -1, True)]
    )
    same(
        core.combination_candidates,
        dt._py_combination_candidates,
        gs + [HandSet("pung", True, True)],
    )
    same(core.combination_candidates, dt._py_combination_candidates, gs + [None])
    same(core.combination_candidates, dt._py_combination_candidates)
    v = {"a": 2, "b": 1}
    for cands in (
        [("a", (0, 9))],  # past the eight sets: IndexError
        [("a", (-1, 2))],
        [("a", (0, 1)), ("z", (1, 2))],  # no value: KeyError
        [("a", [0, 1])],
        [["a", (0, 1)]],
        [("a", (0, 1.0))],
        [("a", ())],
        (("a", (0, 1)),),
    ):
        same(core.select_combinations, dt._py_select_combinations, cands, v)
    same(core.select_combinations, dt._py_select_combinations, [("a", (0, 1))], {"a": 2.5})
    same(core.select_combinations, dt._py_select_combinations, [("a", (0, 1))], {"a": 2**80})
    same(core.select_combinations, dt._py_select_combinations, [("a", (0, 1))])


class _Calls:
    """Records every call of ``add`` (a Tally's method), to compare the
    calls the compiled and the pure pattern functions make."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def add(self, *args: Any, **kw: Any) -> None:
        self.calls.append((args, sorted(kw.items())))


def _calls() -> Any:
    """A :class:`_Calls`, typed to stand in for a Tally."""
    return _Calls()


TILE_FUNCS = ["suit_patterns", "tile_patterns", "rank_patterns"]


def _same_tile_calls(core: ModuleType, tiles: Any, kongs: Any = 0) -> None:
    from hefen.mcr import detect as dt

    for name in TILE_FUNCS:
        got, want = _calls(), _calls()
        getattr(core, name)(tiles, got)
        getattr(dt, "_py_" + name)(tiles, want)
        assert got.calls == want.calls, (name, tiles)
    got, want = _calls(), _calls()
    core.tile_hog(tiles, kongs, got)
    dt._py_tile_hog(tiles, kongs, want)
    assert got.calls == want.calls, ("tile_hog", tiles, kongs)


@needs_core
def test_tile_patterns_on_generated_hands(core: ModuleType) -> None:
    from hefen.hand import Hand
    from hefen.mcr import detect as dt

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    for name in [*TILE_FUNCS, "tile_hog"]:
        assert getattr(dt, name) is getattr(core, name)
    n_hog = 0
    for h in random_mcr_hands(1500, 41) + random_hands("hk", 300, 42):
        hand = Hand.from_dict(h)
        tiles = hand.all_tiles()
        _same_tile_calls(core, tiles, hand.kongs)
        _same_tile_calls(core, tuple(tiles), 0)
        n_hog += max(tiles.count(x) for x in tiles) == 4
    assert n_hog > 50


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tiles=st.lists(
        st.one_of(st.integers(0, 33), st.sampled_from([0, 8, 19, 21, 27, 31, 32, 33])),
        max_size=18,
    ),
    kongs=st.integers(-1, 4),
)
def test_tile_patterns_on_random_tiles(core: ModuleType, tiles: list[int], kongs: int) -> None:
    _same_tile_calls(core, tiles, kongs)


@needs_core
def test_tile_patterns_outside_the_compiled_domain(core: ModuleType) -> None:
    from hefen.mcr import detect as dt

    for tiles in ([0, 1, 40], [0, -1], [True, 1], iter([1, 2]), [1.0], list(range(34)) * 2):
        for name in TILE_FUNCS:
            got, want = _calls(), _calls()
            t = list(tiles) if not isinstance(tiles, list) else tiles
            try:
                getattr(dt, "_py_" + name)(t, want)
            except Exception as e:
                with pytest.raises(type(e)):
                    getattr(core, name)(t, got)
                continue
            getattr(core, name)(t, got)
            assert got.calls == want.calls
    kongs: Any
    for kongs in (1.0, 2**70, None):
        got, want = _calls(), _calls()
        try:
            dt._py_tile_hog([0, 0, 0, 0], kongs, want)
        except Exception as e:
            with pytest.raises(type(e)):
                core.tile_hog([0, 0, 0, 0], kongs, got)
            continue
        core.tile_hog([0, 0, 0, 0], kongs, got)
        assert got.calls == want.calls

    class Broken:
        def add(self, *args: Any, **kw: Any) -> None:
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        core.tile_patterns([1, 2, 3], Broken())
    with pytest.raises(ZeroDivisionError):
        core.tile_hog([5, 5, 5, 5], 0, Broken())


# --- the compiled MCR scorer (hefen._core.mcr_score) and the hand reader -----
#
# mcr_score runs every reading of a hand in C and builds its Result; the
# Python readings stay as hefen.mcr._py_score.  Each test here compares the
# two on the same Hand and the same resolved settings, by the whole
# to_dict() and by Result equality, so that any divergence (a pattern, its
# count, its uses, their order, the total, the payments, the notes) fails.

MCR_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"variant": "mil"},
    {"variant": "mil", "knitted_wait": "whole_hand", "impossible_waits": "ignore"},
    {"variant": "green_book", "knitted_wait": "remainder", "impossible_waits": "count"},
    {"seven_pairs_tile_hog": False, "nine_gates_extras": False},
    {"variant": "mil", "seven_pairs_tile_hog": False, "nine_gates_extras": False},
]


#: a hand with nothing else to score (the generator seldom draws one)
CHICKEN_HAND: dict[str, Any] = {
    "rules": "mcr",
    "hand": ["3m", "3m", "5m", "6m", "7m", "6p", "7p", "8p", "W", "W"],
    "melds": [{"kind": "chow", "tiles": ["2s", "3s", "4s"], "concealed": False}],
    "win_tile": "3m",
    "flowers": ["6h"],
    "context": {"win": "discard", "seat_wind": "S", "round_wind": "S"},
    "options": {},
}


def _context_variants(h: dict[str, Any], i: int) -> dict[str, Any]:
    """The generated hand with, every few hands, a discarder, a dealer and a
    streak, or a double kong replacement (what the generator leaves out)."""
    from hefen.tiles import WINDS, tile_from_str, tile_to_str

    ctx = dict(h["context"])
    seat = tile_from_str(ctx["seat_wind"])
    others = [tile_to_str(w) for w in WINDS if w != seat]
    if i % 5 == 1 and ctx["win"] == "discard":
        ctx["discarder"] = others[i % 3]
    if i % 7 == 2:
        ctx["dealer"] = others[i % 3] if i % 2 else ctx["seat_wind"]
        ctx["dealer_streak"] = i % 4
    if (
        i % 11 == 3
        and ctx["win"] == "self_draw"
        and sum(m["kind"] == "kong" for m in h["melds"]) >= 2
    ):
        ctx["double_kong_replacement"] = True
    return {**h, "context": ctx}


def _mcr_pair(hand: Any, opts: dict[str, Any]) -> tuple[Any, Any]:
    """The compiled scorer's answer and the reference's, for one Hand."""
    import hefen.mcr as mcr

    return mcr.score(hand, opts), mcr._py_score(hand, dict(opts))


@needs_core
def test_mcr_score_dispatch(core: ModuleType) -> None:
    import hefen.hand as hand_mod
    import hefen.mcr as mcr
    import hefen.result as result_mod

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    assert mcr._MCR_SCORE is core.mcr_score
    assert result_mod.NEW is core.new
    assert hand_mod._fast_hand is core.fast_hand
    assert hand_mod._rules_pass is core.rules_pass
    assert mcr.SCORE_DICT is core.mcr_score_dict


@needs_core
def test_mcr_score_on_generated_hands(core: ModuleType) -> None:
    """Every generated hand (seven pairs, orphans, nine gates, honours and
    knitted, knitted straights, melds, kongs, flowers, self-draws, last
    tiles, kong wins) under each set of table options, both variants."""
    import hefen.mcr as mcr
    from hefen.hand import Hand

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    seen: dict[str, int] = {}
    n = 0
    for i, h in enumerate(random_mcr_hands(1500, 51) + [CHICKEN_HAND]):
        for k, options in enumerate(MCR_OPTION_SETS):
            if (i + k) % 2:
                continue  # half of the settings per hand
            hand = Hand.from_dict({**_context_variants(h, i), "options": options})
            opts = mcr.resolve_options(dict(hand.options))
            assert core.mcr_score(hand, opts) is not None, hand  # in the compiled domain
            got, want = _mcr_pair(hand, opts)
            assert got.to_dict() == want.to_dict(), (hand, opts)
            assert got == want and type(got) is type(want)
            for p in got.patterns:
                seen[p.id] = seen.get(p.id, 0) + 1
            n += 1
    assert n > 4000
    # every pattern of the table was reached
    assert set(mcr.ORDER) <= set(seen), set(mcr.ORDER) - set(seen)
    for pid in (
        "seven_pairs",
        "seven_shifted_pairs",
        "thirteen_orphans",
        "nine_gates",
        "greater_honors_and_knitted_tiles",
        "lesser_honors_and_knitted_tiles",
        "knitted_straight",
        "tile_hog",
        "concealed_kong_and_melded_kong",
        "melded_kong",
        "two_concealed_kongs",
        "robbing_the_kong",
        "out_with_replacement_tile",
        "last_tile",
        "last_tile_draw",
        "last_tile_claim",
        "flower_tiles",
        "edge_wait",
        "closed_wait",
        "single_wait",
        "chicken_hand",
        "little_three_dragons",
        "pure_terminal_chows",
        "all_chows",
        "outside_hand",
        "pung_of_terminals_or_honors",
        "dragon_pung",
        "prevalent_wind",
        "seat_wind",
    ):
        assert seen.get(pid, 0) > 0, pid


@needs_core
def test_mcr_score_whole_results_through_score(core: ModuleType) -> None:
    """hefen.score_uncached on interchange objects: the compiled path (fast
    reader, rules check, mcr_score) against the reference readings."""
    import hefen.mcr as mcr
    from hefen.hand import Hand
    from hefen.scoring import score_uncached

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    for i, h in enumerate(random_mcr_hands(800, 52)):
        obj = {**_context_variants(h, i), "options": MCR_OPTION_SETS[i % len(MCR_OPTION_SETS)]}
        got = score_uncached(obj, strict=True)
        hand = Hand._parse_dict(obj)
        hand.check()
        want = mcr._py_score(hand, mcr.resolve_options(dict(hand.options)))
        assert json.dumps(got.to_dict()) == json.dumps(want.to_dict()), obj


def _sets_strategy() -> st.SearchStrategy[Any]:
    chow_tiles = [t for t in range(27) if t % 9 <= 6]
    one = st.one_of(
        st.tuples(st.just("chow"), st.sampled_from(chow_tiles)),
        st.tuples(st.just("pung"), st.integers(0, 33)),
    )
    return st.tuples(st.lists(one, min_size=4, max_size=4), st.integers(0, 33))


@needs_core
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sets_pair=_sets_strategy(),
    data=st.data(),
)
def test_mcr_score_on_random_hands(core: ModuleType, sets_pair: Any, data: st.DataObject) -> None:
    """Random sets and pair, some of them melds (kongs, concealed kongs),
    a random winning tile (sometimes one that does not complete the hand),
    random context flags and settings."""
    import hefen.mcr as mcr
    from hefen.errors import HandError
    from hefen.hand import Hand
    from hefen.tiles import tile_to_str

    sets, pair = sets_pair
    tiles, melds, win = sets_hand(data, sets, pair)
    ctx = seat_context(
        data, ("last_tile_of_wall", "kong_replacement", "robbing_kong", "last_of_kind"), 5
    )
    options = data.draw(st.sampled_from(MCR_OPTION_SETS))
    flowers = data.draw(st.lists(st.integers(1, 8), unique=True, max_size=4))
    obj = {
        "rules": "mcr",
        "hand": [tile_to_str(x) for x in tiles],
        "melds": melds,
        "win_tile": tile_to_str(win),
        "flowers": [f"{f}h" for f in flowers],
        "context": ctx,
        "options": options,
    }
    try:
        hand = Hand.from_dict(obj)
    except HandError:  # five copies, a contradictory context
        return
    opts = mcr.resolve_options(dict(hand.options))
    got, want = _mcr_pair(hand, opts)
    assert got.to_dict() == want.to_dict(), obj
    assert got == want


@needs_core
def test_mcr_score_outside_the_compiled_domain(core: ModuleType) -> None:
    """What mcr_score does not read (a Hand built in Python with other
    types, settings it does not know, not a Hand at all) is answered by the
    reference: mcr_score says None, and hefen.mcr.score answers (or raises)
    as _py_score does."""
    import dataclasses

    import hefen.mcr as mcr
    from hefen.hand import Context, Hand, Meld

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    base = Hand.from_dict(
        {
            "rules": "mcr",
            "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "C"],
            "win_tile": "C",
            "context": {"win": "self_draw", "seat_wind": "E", "round_wind": "E"},
        }
    )
    opts = mcr.resolve_options({})
    assert core.mcr_score(base, opts) is not None
    ctx = base.context
    odd = [
        dataclasses.replace(base, concealed=list(base.concealed)),
        dataclasses.replace(base, concealed=base.concealed[:-1]),
        dataclasses.replace(base, concealed=(*base.concealed[:-1], 27.0)),
        dataclasses.replace(base, win_tile=None),
        dataclasses.replace(base, win_tile=True),
        dataclasses.replace(base, context=dataclasses.replace(ctx, last_tile_of_wall=1)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, win="tsumo")),
        dataclasses.replace(base, context=dataclasses.replace(ctx, seat_wind=5)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, dealer_streak=True)),
        dataclasses.replace(
            base, concealed=base.concealed[3:], melds=(Meld("chow", (0, 1, 2), True),)
        ),
        dataclasses.replace(base, concealed=base.concealed[3:], melds=(("chow", (0, 1, 2)),)),
        dataclasses.replace(base, flowers=(50,)),
        dataclasses.replace(base, context=Context(win="self_draw", discarder=True)),
    ]
    settings = [
        {**opts, "variant": "other"},
        {**opts, "knitted_wait": None},
        {**opts, "impossible_waits": 1},
        {**opts, "seven_pairs_tile_hog": 1},
        {k: v for k, v in opts.items() if k != "nine_gates_extras"},
    ]
    cases = [(h, opts) for h in odd] + [(base, s) for s in settings]
    for hand, o in cases:
        assert core.mcr_score(hand, o) is None, (hand, o)
        try:
            want = mcr._py_score(hand, dict(o))
        except Exception as e:  # the reference's own error
            with pytest.raises(type(e)):
                mcr.score(hand, o)
            continue
        assert mcr.score(hand, o) == want
    assert core.mcr_score(None, opts) is None
    assert core.mcr_score(base, None) is None
    assert core.mcr_score(base) is None
    # an incomplete hand: False, and the reference's sentence
    short = dataclasses.replace(base, win_tile=33)
    assert core.mcr_score(short, opts) is False
    assert mcr.score(short, opts) == mcr._py_score(short, opts)


@needs_core
def test_new_builds_the_same_objects(core: ModuleType) -> None:
    from hefen.result import PatternHit, Payment, Result

    hit = core.new(PatternHit, "a", "A", 2, 1, ("x",), {"en": "A"})
    assert hit == PatternHit("a", "A", 2, 1, ("x",), {"en": "A"}) and type(hit) is PatternHit
    assert hit.names == {"en": "A"}
    pay = core.new(Payment, "E", "S", 8)
    assert pay == Payment("E", "S", 8)
    res = core.new(Result, "mcr", True, True, 9, "points", False, (hit,), (pay,), None, ())
    assert res == Result("mcr", True, True, 9, "points", False, (hit,), (pay,), None, ())
    with pytest.raises(AttributeError):  # still frozen
        res.total = 1  # type: ignore[misc]
    # any other call is cls(*fields)
    assert core.new(PatternHit, "a", "A", 2) == PatternHit("a", "A", 2)  # the defaults
    assert core.new(tuple, [1, 2]) == (1, 2)
    with pytest.raises(TypeError):
        core.new(Payment, 1, 2, 3, 4, 5)
    with pytest.raises(TypeError):
        core.new(Payment, "E", "S")
    with pytest.raises(TypeError):
        core.new()


def _mutated_objects(seed: int) -> list[Any]:
    """Generated hand objects of every ruleset, and copies with one thing
    changed: a key removed or set to an odd value, a meld's field."""
    import copy
    import random

    rng = random.Random(seed)
    hs: list[Any] = (
        random_mcr_hands(400, seed) + random_hands("hk", 150, seed) + random_hands("tw", 150, seed)
    )
    odd = [None, 1, 1.0, "1m", "E", [], {}, [[]], ["zz"], ["1h", "1h"], True, "mcr", [None]]
    out = list(hs)
    for h in hs:
        for _ in range(3):
            m = copy.deepcopy(h)
            r = rng.random()
            key = rng.choice([*m, "x", "context"])
            if r < 0.4:
                m[key] = rng.choice(odd)
            elif r < 0.55:
                m.pop(key, None)
            elif r < 0.8:
                ctx = m.setdefault("context", {})
                ctx[
                    rng.choice(
                        [
                            "win",
                            "seat_wind",
                            "discarder",
                            "dealer",
                            "dealer_streak",
                            "heavenly",
                            "robbing_kong",
                            "last_of_kind",
                            "kong_replacement",
                            "declared_ready",
                            "x",
                        ]
                    )
                ] = rng.choice([*odd, "S", "self_draw", "tian_ting", 3, 100, False])
            elif m.get("melds"):
                m["melds"][0][rng.choice(["kind", "tiles", "concealed", "x"])] = rng.choice(
                    [*odd, "pung", "kong", ["C", "C", "C", "C"], False]
                )
            else:
                m["hand"] = m["hand"][:-1] + [rng.choice(["1h", "C", "9s", "zz"])]
            out.append(m)
    return out


@needs_core
def test_fast_hand_same_as_python(core: ModuleType) -> None:
    """The compiled fast reader against the Python one: the same Hand, or
    both giving up (None, or the Python's exception) to the reference."""
    import hefen.hand as hm

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    accepted = 0
    for obj in _mutated_objects(61):
        for need in (True, False):
            try:
                want = hm._py_fast_hand(hm.Hand, obj, need)
            except Exception:
                want = None
            got = core.fast_hand(hm.Hand, obj, need)
            assert got == want, obj
            if got is not None:
                accepted += 1
                assert type(got) is hm.Hand and got.options is not obj.get("options")
    assert accepted > 1500

    # a subclass goes to the Python reader
    class Sub(hm.Hand):
        pass

    obj = random_mcr_hands(1, 1)[0]
    assert type(core.fast_hand(Sub, obj, True)) is Sub


@needs_core
def test_fast_context_same_as_python(core: ModuleType) -> None:
    import hefen.hand as hm

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    for obj in _mutated_objects(62):
        raw = obj.get("context") if isinstance(obj, dict) else None
        try:
            want = hm._fast_context(raw)
        except Exception:
            want = None
        got = core.fast_context(raw)
        assert got == want and (got is None or type(got) is hm.Context), raw
        assert core.fast_context(raw) is got or got is None  # from the same cache


@needs_core
def test_from_dict_same_answers_as_the_reference(core: ModuleType) -> None:
    """Hand.from_dict (compiled reader and rules check) against the
    reference parser and checks: the same Hand, or the same sentence."""
    import hefen.hand as hm
    from hefen.errors import HandError

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    refused = 0
    for obj in _mutated_objects(63):
        try:
            want: Any = hm.Hand._parse_dict(obj)
            want.check()
        except HandError as e:
            want = str(e)
        except Exception as e:  # noqa: BLE001 - the reference's own error type
            want = type(e)
        try:
            got: Any = hm.Hand.from_dict(obj)
        except HandError as e:
            got = str(e)
        except Exception as e:  # noqa: BLE001
            got = type(e)
        assert got == want, obj
        refused += isinstance(want, str)
    assert refused > 500


@needs_core
def test_rules_pass_only_where_the_check_passes(core: ModuleType) -> None:
    """rules_pass says True only where Hand._check_rules would not raise
    (Hands built in Python with any context, tiles and flowers), and True
    for every generated legal hand."""
    import dataclasses
    import random

    import hefen.hand as hm
    from hefen.ruleset import find_ruleset

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    rng = random.Random(64)
    hs = random_mcr_hands(600, 64) + random_hands("hk", 200, 64) + random_hands("tw", 200, 64)
    hands = [hm.Hand.from_dict(h) for h in hs]
    fields = [f.name for f in dataclasses.fields(hm.Context)]
    values = [True, False, None, 27, 28, 29, 30, 0, 99, 100, "self_draw", "discard", 27.0, "x"]

    def mutate(x: hm.Hand) -> hm.Hand:
        r = rng.random()
        if r < 0.45:
            ctx = dataclasses.replace(x.context, **{rng.choice(fields): rng.choice(values)})
            return dataclasses.replace(x, context=ctx)
        if r < 0.7:
            key = rng.choice(["concealed", "flowers", "win_tile"])
            v = rng.choice(
                [x.concealed[:-1], (*x.concealed, 5), (34, 34), (35,), (40, 41), None, 34, 5, 33]
            )
            return dataclasses.replace(x, **{key: v})
        ctx = hm.Context(
            win=rng.choice(["discard", "self_draw"]),
            seat_wind=rng.choice([27, 28]),
            dealer=rng.choice([27, 28]),
            discarder=rng.choice([None, 27, 29]),
            **{k: rng.random() < 0.3 for k in hm.Context._BOOLS},
        )
        return dataclasses.replace(x, context=ctx)

    for x in hands:
        rs = find_ruleset(x.rules)
        assert hm._rules_pass(x, rs.concealed_size, rs.flower_wins, hm._DEFAULT_CONTEXT), x
    for x in [mutate(x) for x in hands for _ in range(6)]:
        rs = find_ruleset(x.rules)
        try:
            x._check_rules(rs)
            passes = True
        except Exception:
            passes = False
        got = core.rules_pass(x, rs.concealed_size, rs.flower_wins, hm._DEFAULT_CONTEXT)
        assert got is passes or (got is False and passes), x
    assert core.rules_pass(None, 13, False, None) is False
    assert core.rules_pass(hands[0], "13", False, None) is False


@needs_core
def test_mcr_score_dict_same_as_the_python_path(core: ModuleType) -> None:
    """mcr_score_dict (score_uncached of a well-formed MCR object in one
    call) against the Python path of score_uncached on generated and mutated
    objects of every ruleset: the same Result wherever it answers, None
    wherever the Python path refuses the object or scores another ruleset."""
    import hefen.mcr as mcr
    from hefen.scoring import _guarded, _parse

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    assert mcr.SCORE_DICT is core.mcr_score_dict
    objs = _mutated_objects(65)
    objs += [{**h, "options": o} for h in random_mcr_hands(300, 66) for o in MCR_OPTION_SETS]
    answered = 0
    for _ in range(2):  # the second time, every setting was resolved once
        for obj in objs:
            want = _guarded(obj, lambda o=obj: (h := _parse(o)).ruleset.score(h), strict=True)
            got = core.mcr_score_dict(obj)
            if got is not None:
                answered += 1
                assert got == want and got.to_dict() == want.to_dict(), obj
                assert want.valid and want.rules == "mcr"
    assert answered > 2000
    assert core.mcr_score_dict(None) is None
    assert core.mcr_score_dict([]) is None


def _mcr_edits(h: dict[str, Any]) -> list[dict[str, Any]]:
    """One MCR object changed in each of the ways the compiled reader must
    take or leave exactly as the Python one (context flags and their
    contradictions, winds, streaks, settings, flowers, melds, tiles)."""
    from hefen.tiles import WINDS, tile_from_str, tile_to_str

    ctx = h["context"]
    seat = ctx["seat_wind"]
    other = next(tile_to_str(w) for w in WINDS if tile_to_str(w) != seat)
    held = [c for c in h["hand"] if c != h["win_tile"]]
    contexts: list[Any] = [
        None,
        {},
        {"win": "discard"},
        {**ctx, "robbing_kong": True},
        {**ctx, "win": "self_draw", "robbing_kong": True},
        {**ctx, "win": "self_draw", "kong_replacement": True},
        {**ctx, "win": "self_draw", "double_kong_replacement": True},
        {**ctx, "win": "self_draw", "heavenly": True, "dealer": seat},
        {**ctx, "heavenly": True, "earthly": True},
        {**ctx, "earthly": True, "dealer": other},
        {**ctx, "human": True, "dealer": seat},
        {**ctx, "discarder": seat},
        {**ctx, "discarder": other},
        {**ctx, "discarder": None},
        {**ctx, "win": "self_draw", "discarder": other},
        {**ctx, "declared_ready": "di_ting"},
        {**ctx, "declared_ready": "x"},
        {**ctx, "declared_ready": None},
        {**ctx, "dealer_streak": 99},
        {**ctx, "dealer_streak": 100},
        {**ctx, "dealer_streak": True},
        {**ctx, "last_of_kind": True},
        {**ctx, "last_tile_of_wall": 1},
        {**ctx, "seat_wind": "1m"},
        {**ctx, "round_wind": None},
        {**ctx, "win": "tsumo"},
        {**ctx, "x": 1},
        [],
    ]
    out = [{**h, "context": c} for c in contexts]
    out += [{**h, "options": o} for o in (None, {"variant": "xx"}, {"x": 1}, [], {"variant": 1})]
    out += [
        {**h, "flowers": f} for f in (None, ["1h", "1h"], ["1m"], ["1h"] * 9, ["8h", "1h"], "1h")
    ]
    out += [{k: v for k, v in h.items() if k != key} for key in ("flowers", "options", "melds")]
    out += [{**h, "win_tile": w} for w in (None, "1h", "zz", [], held[0] if held else "1m", "C")]
    out += [{**h, "hand": hh} for hh in (h["hand"] + ["1h"], h["hand"][:-1], h["hand"] + ["1m"])]
    out += [{**h, "rules": r} for r in ("hk", "tw", None, 1)]
    if h["melds"]:
        m0 = h["melds"][0]
        for m in (
            {**m0, "concealed": True},
            {**m0, "concealed": 1},
            {**m0, "tiles": m0["tiles"] + m0["tiles"][:1]},
            {**m0, "kind": "pung" if m0["kind"] != "pung" else "chow"},
            {"kind": "kong", "tiles": [m0["tiles"][0]] * 3},
            {**m0, "x": 1},
            [m0["kind"]],
        ):
            out.append({**h, "melds": [m, *h["melds"][1:]]})
    elif held:
        t = tile_from_str(held[0])
        if t < 27 and t % 9 <= 6:
            out.append({**h, "melds": [{"kind": "chow", "tiles": held[:1] * 3, "concealed": True}]})
    return out


@needs_core
def test_mcr_score_dict_on_edited_objects(core: ModuleType) -> None:
    from hefen.scoring import _guarded, _parse

    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    answered = refused = 0
    for _ in range(2):
        for h in random_mcr_hands(120, 67):
            for obj in _mcr_edits(h):
                want = _guarded(obj, lambda o=obj: (x := _parse(o)).ruleset.score(x), strict=True)
                got = core.mcr_score_dict(obj)
                if got is not None:
                    answered += 1
                    assert got == want and got.to_dict() == want.to_dict(), obj
                elif not want.valid:
                    refused += 1
    assert answered > 3000 and refused > 3000, (answered, refused)


# --- whole scoring: compiled here, pure in a HEFEN_PURE=1 subprocess -------

_SCORE_SCRIPT = """
import json, sys
from hefen import decompose
from hefen.scoring import score_uncached
from hefen.testing.generate import random_mcr_hands
from hefen.testing.generate_hk_tw import random_hands
sys.path.insert(0, {tests!r})
from test_fast_core import scoring_hands
assert decompose.COMPILED is {compiled!r}, decompose.COMPILED
out = [score_uncached(h).to_dict() for h in scoring_hands({rules!r}, {n!r})]
json.dump(out, sys.stdout)
"""


def scoring_hands(rules: str, n: int) -> list[dict[str, Any]]:
    """The hands both sides score: generated, with some table options."""
    if rules == "mcr":
        hs = random_mcr_hands(n, 21)
        return [{**h, "options": {"variant": "mil"}} if i % 2 else h for i, h in enumerate(hs)]
    return random_hands(rules, n, 22 if rules == "hk" else 23)


def _start_scoring(rules: str, n: int, pure: bool) -> subprocess.Popen[str]:
    """Score ``scoring_hands(rules, n)`` in a subprocess, with the pure core
    (``HEFEN_PURE=1``) or the compiled one; read it with :func:`_scores`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if pure:
        env["HEFEN_PURE"] = "1"
    else:
        env.pop("HEFEN_PURE", None)
    script = _SCORE_SCRIPT.format(tests=str(TESTS), compiled=not pure, rules=rules, n=n)
    return subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _scores(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-2000:]
    res: list[dict[str, Any]] = json.loads(out)
    return res


@needs_core
@pytest.mark.parametrize("rules,n", [("mcr", 3000), ("hk", 2000), ("tw", 2000)])
def test_scoring_same_with_compiled_and_pure_core(core: ModuleType, rules: str, n: int) -> None:
    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    from hefen.scoring import score_uncached

    proc = _start_scoring(rules, n, pure=True)  # runs while this process scores
    mine = json.loads(json.dumps([score_uncached(h).to_dict() for h in scoring_hands(rules, n)]))
    pure = _scores(proc)
    assert len(mine) == len(pure) == n
    diffs = [i for i, (a, b) in enumerate(zip(mine, pure, strict=True)) if a != b]
    assert not diffs, (len(diffs), mine[diffs[0]], pure[diffs[0]])
    assert sum(1 for r in mine if r.get("valid")) > n // 2  # mostly real scores, not refusals


def test_hefen_pure_selects_the_pure_core() -> None:
    script = (
        "from hefen import decompose as d\n"
        "assert not d.COMPILED\n"
        "assert d.is_standard_complete is d._py_is_standard_complete\n"
        "assert d.standard_decompositions is d._py_standard_decompositions\n"
        "assert d.is_complete is d._py_is_complete\n"
        "assert d.completing_tiles is d._py_completing_tiles\n"
        "import hefen.mcr, hefen.tw, hefen.hk.reading\n"
        "assert hefen.mcr.completing_tiles is d._py_completing_tiles\n"
        "assert hefen.mcr.standard_decompositions is d._py_standard_decompositions\n"
        "assert hefen.hk.reading.standard_decompositions is d._py_standard_decompositions\n"
        "import hefen.mcr.detect as dt\n"
        "assert dt.combination_candidates is dt._py_combination_candidates\n"
        "assert dt.select_combinations is dt._py_select_combinations\n"
        "assert hefen.mcr.select_combinations is dt._py_select_combinations\n"
        "assert hefen.mcr.tile_hog is dt._py_tile_hog\n"
        "assert dt.suit_patterns is dt._py_suit_patterns\n"
        "assert hefen.mcr._MCR_SCORE is None and hefen.mcr.SCORE_DICT is None\n"
        "import hefen.hand, hefen.result\n"
        "assert hefen.result.NEW is None\n"
        "assert hefen.hand._fast_hand is hefen.hand._py_fast_hand\n"
        "assert hefen.hand._rules_pass is hefen.hand._py_rules_pass\n"
        "print('pure')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEFEN_PURE": "1"}
    res = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "pure"


def test_without_hefen_pure_the_core_is_used_when_built() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HEFEN_PURE", None)
    res = subprocess.run(
        [sys.executable, "-c", "from hefen import decompose as d; print(d.COMPILED)"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == str(BUILT)
