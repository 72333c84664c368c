"""The compiled shanten tables (hefen._core: ``suit_table``, ``honor_table``,
``combine``, ``combine_masks``, ``best``, ``best_mask``) and forms
(``standard_kept``, ``seven_pairs_dist``, ``orphans_dist``,
``honors_knitted_dist``, ``knitted_straight_dist``) against the
pure-Python references in hefen.analysis.shanten (``_py_*``): every 9-rank
count vector with at most 8 tiles, a seeded random sample with caps 0-4 and
``_NO_LIMIT``, edge cases, then whole ``shanten``/``waits`` answers on
generated hands of each ruleset with the compiled tables in this process and
the pure ones in a ``HEFEN_PURE=1`` subprocess.  The compiled-vs-pure tests
are skipped, with the reason, when the extension is not built."""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from reference_check import same_as_reference

import hefen
from hefen.analysis import shanten, waits
from hefen.errors import HandError
from hefen.ruleset import find_ruleset
from hefen.testing.generate import random_mcr_hands
from hefen.testing.generate_hk_tw import random_hands

S = importlib.import_module("hefen.analysis.shanten")
TESTS = Path(__file__).resolve().parent
ROOT = Path(hefen.__file__).resolve().parent.parent
BUILT = importlib.util.find_spec("hefen._core") is not None
needs_core = pytest.mark.skipif(
    not BUILT,
    reason="hefen._core is not built (no C compiler at install time?): "
    "run `python setup.py build_ext --inplace` or `pip install -e .` with gcc",
)
Counts = tuple[int, ...]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    from hefen import _core

    # the references are registered by hefen.analysis.shanten unless
    # HEFEN_PURE=1; register them here so the fallbacks work either way
    _core._set_pure_shanten(
        S._py_suit_table,
        S._py_honor_table,
        S._py_combine,
        S._py_combine_masks,
        S._py_best,
        S._py_best_mask,
    )
    _core._set_pure_forms(
        S._py_standard_kept,
        S._py_seven_pairs_dist,
        S._py_orphans_dist,
        S._py_honors_knitted_dist,
        S._py_knitted_straight_dist,
    )
    return _core


def _pure_suit(c: Counts, cap: Counts, base: int) -> Counts:
    return S._py_suit_table.__wrapped__(c, cap, base)  # type: ignore[no-any-return]


def _pure_honor(c: Counts, cap: Counts, base: int) -> Counts:
    return S._py_honor_table.__wrapped__(c, cap, base)  # type: ignore[no-any-return]


def _vectors(n: int, most: int, cap: int) -> Iterator[Counts]:
    """Every ``n``-rank count vector with at most ``most`` tiles, each ``<= cap``."""

    def rec(i: int, left: int, acc: list[int]) -> Iterator[Counts]:
        if i == n:
            yield tuple(acc)
            return
        for k in range(min(cap, left) + 1):
            acc.append(k)
            yield from rec(i + 1, left - k, acc)
            acc.pop()

    yield from rec(0, most, [])


def _same_combinations(core: ModuleType, x: Counts, y: Counts) -> None:
    assert core.combine(x[: S._W], y[: S._W]) == S._py_combine.__wrapped__(x[: S._W], y[: S._W])
    cm = core.combine_masks(x, y)
    assert cm == S._py_combine_masks(x, y)
    for sets in range(S._K + 1):
        b = S._py_best(x, cm, sets)
        assert core.best(x, cm, sets) == b
        assert core.best(x, cm[: S._W], sets) == b
        assert core.best_mask(x, cm, sets, b) == S._py_best_mask(x, cm, sets, b)
        assert core.best_mask(x, cm, sets, b - 1) == S._py_best_mask(x, cm, sets, b - 1)


@needs_core
def test_every_suit_vector_of_up_to_eight_tiles(core: ModuleType) -> None:
    cap = (4,) * 9
    n = 0
    for c in _vectors(9, 8, 4):
        for base in (0, 9, 18):
            assert core.suit_table(c, cap, base) == _pure_suit(c, cap, base), (c, base)
        n += 1
    assert n == 22330  # C(17, 9) less those with a rank over four
    for c in _vectors(7, 8, 4):
        assert core.honor_table(c, (4,) * 7, 27) == _pure_honor(c, (4,) * 7, 27), c


@needs_core
def test_random_vectors_with_caps(core: ModuleType) -> None:
    rng = random.Random(17)
    for i in range(50000):
        cap = tuple(rng.choice((0, 1, 2, 3, 4, 4, 4, S._NO_LIMIT)) for _ in range(9))
        c = tuple(rng.randint(0, min(k, 4 if i % 3 else 6)) for k in cap)
        base = (0, 9, 18)[i % 3]
        t = core.suit_table(c, cap, base)
        assert t == _pure_suit(c, cap, base), (c, cap, base)
        hc, hk = c[:7], cap[:7]
        h = core.honor_table(hc, hk, 27)
        assert h == _pure_honor(hc, hk, 27), (hc, hk)
        if i % 10 == 0:
            _same_combinations(core, t, h)
            _same_combinations(core, h, t)


@needs_core
def test_tables_of_hands_one_rank_apart(core: ModuleType) -> None:
    """The C keeps the memo of the ranks past the last one that changed since
    the table before (a discard or a draw changes one rank): walks of one
    rank at a time, over the same and other windows and caps, answer as the
    reference.  A cap over seven is never cached, so every step is made."""
    rng = random.Random(29)
    c = [1, 1, 1, 0, 2, 0, 0, 3, 1]
    cap = [4] * 8 + [S._NO_LIMIT]
    for i in range(20000):
        r = rng.randrange(9)
        step = rng.choice((1, -1))
        if 0 <= c[r] + step <= 4 and 1 <= sum(c) + step <= 14:
            c[r] += step
        if i % 97 == 0:
            cap[rng.randrange(8)] = rng.choice((2, 3, 4))
        t, ct = tuple(c), tuple(cap)
        assert core.suit_table(t, ct, 0) == _pure_suit(t, ct, 0), (t, ct)


@needs_core
def test_edge_cases(core: ModuleType) -> None:
    vecs = [(0,) * 9, (4,) * 9, (1,) * 9, (3, 1, 1, 1, 1, 1, 1, 1, 3), (0,) * 8 + (1,)]
    caps = [(4,) * 9, (0,) * 9, (S._NO_LIMIT,) * 9, (1,) * 9, (3,) * 9]
    for c in vecs + [(5,) * 9, (9, 0, 0, 0, 0, 0, 0, 0, 9)]:
        for cap in caps:
            for base in (0, 9, 18, 27, 55):
                assert core.suit_table(c, cap, base) == _pure_suit(c, cap, base), (c, cap)
                assert core.honor_table(c[:7], cap[:7], base) == _pure_honor(c[:7], cap[:7], base)
            assert core.suit_table(c, cap) == S._py_suit_table.__wrapped__(c, cap)
            assert core.honor_table(c[:7], cap[:7]) == S._py_honor_table.__wrapped__(c[:7], cap[:7])
    for a in vecs:
        for b in vecs:
            _same_combinations(core, _pure_suit(a, (4,) * 9, 0), _pure_suit(b, (4,) * 9, 9))


@needs_core
def test_inputs_outside_the_compiled_domain_go_to_the_reference(core: ModuleType) -> None:
    same = same_as_reference

    big = 1 << 70
    for c, cap, base in [
        ((1, 0, 0, 0, 0, 0, 0, 0, 2), (4,) * 9, 60),  # masks past bit 63
        ((1, 0, 0, 0, 0, 0, 0, 0, 2), (4,) * 9, big),
        ((-1, 2, 0, 0, 0, 0, 0, 0, 0), (4,) * 9, 0),  # not a count
        ([1, 1, 1, 0, 0, 0, 0, 0, 0], (4,) * 9, 0),  # not a tuple
        ((1, 1, 1, 0, 0, 0, 0, 0, 0, 0), (4,) * 10, 0),  # ten ranks
        ((1, 1, 1, 0, 0, 0, 0, 0), (4,) * 8, 0),  # eight ranks
        ((1, big, 1, 0, 0, 0, 0, 0, 0), (4,) * 9, 0),
        ((True, 1, 1, 0, 0, 0, 0, 0, 0), (4,) * 9, 0),
    ]:
        same(core.suit_table, S._py_suit_table, c, cap, base)
        same(core.honor_table, S._py_honor_table, c[:7], cap[:7], base)
    same(core.honor_table, S._py_honor_table, (1, 2), (4, 4, 4), 27)
    same(core.honor_table, S._py_honor_table, (1,) * 10, (4,) * 10, 0)
    t = _pure_suit((1, 1, 1, 2, 0, 0, 0, 0, 0), (4,) * 9, 0)
    h = _pure_honor((0, 0, 2, 0, 0, 3, 0), (4,) * 7, 27)
    same(core.best, S._py_best, t, h, 7)
    same(core.best, S._py_best, t, h, -1)
    same(core.best, S._py_best, t[:5], h, 1)
    same(core.combine, S._py_combine, t[:5], h)
    same(core.combine, S._py_combine, t + (0,), h)
    same(core.combine_masks, S._py_combine_masks, t[: S._W], h)
    same(core.combine_masks, S._py_combine_masks, t[:-1] + (-1,), h)
    same(core.best_mask, S._py_best_mask, t, h, 2, big)
    same(core.best_mask, S._py_best_mask, t[:-1] + (big,), h, 2, 3)


def _random_hand(rng: random.Random, i: int) -> tuple[Counts, Counts]:
    """Random 34 counts and caps: caps 0-4 per kind (as beside melds) or all
    ``_NO_LIMIT``; 0-17 tiles drawn within the caps, a few past them."""
    if i % 7 == 0:
        cap = (S._NO_LIMIT,) * 34
    else:
        cap = tuple(rng.choice((0, 1, 2, 3, 4, 4, 4, 4, 4, 4)) for _ in range(34))
    c = [0] * 34
    lo_kinds = rng.choice((34, 34, 9, 16, 7))  # some hands in few kinds
    kinds = rng.sample(range(34), lo_kinds)
    for _ in range(rng.randint(0, 17)):
        k = rng.choice(kinds)
        if c[k] < min(cap[k], 6 if cap[k] == S._NO_LIMIT else 4) or i % 97 == 0:
            c[k] += 1
    return tuple(c), cap


@needs_core
def test_random_hands_forms(core: ModuleType) -> None:
    rng = random.Random(1717)
    for i in range(50000):
        c, cap = _random_hand(rng, i)
        n_melds = i % 5
        for sets in {4 - n_melds, 5 - n_melds}:
            assert core.standard_kept(c, cap, sets) == S._py_standard_kept(c, cap, sets), (c, cap)
        for allow in (True, False):
            assert core.seven_pairs_dist(c, allow) == S._py_seven_pairs_dist(c, allow), c
        assert core.orphans_dist(c) == S._py_orphans_dist(c), c
        assert core.honors_knitted_dist(c) == S._py_honors_knitted_dist(c), c
        km = i % 2
        assert core.knitted_straight_dist(c, cap, km) == S._py_knitted_straight_dist(c, cap, km)
        beat = rng.randint(0, 8)
        got = core.knitted_straight_dist(c, cap, km, beat)
        assert got == S._py_knitted_straight_dist(c, cap, km, beat), (c, cap, km, beat)


@needs_core
def test_forms_edge_cases(core: ModuleType) -> None:
    hands = [(0,) * 34, (4,) * 34, (1,) * 34, (S._NO_LIMIT,) * 34, (9,) + (0,) * 33]
    caps = [(4,) * 34, (0,) * 34, (S._NO_LIMIT,) * 34, (1,) * 34, (-1,) * 34]
    for c in hands:
        for cap in caps:
            for sets in range(S._K + 1):
                assert core.standard_kept(c, cap, sets) == S._py_standard_kept(c, cap, sets)
            for km in (0, 1):
                for beat in (-5, 0, 1, 99, 10**6):
                    got = core.knitted_straight_dist(c, cap, km, beat)
                    assert got == S._py_knitted_straight_dist(c, cap, km, beat)
        for allow in (True, False, 0, 1, 7):
            assert core.seven_pairs_dist(c, allow) == S._py_seven_pairs_dist(c, allow)
        assert core.orphans_dist(c) == S._py_orphans_dist(c)
        assert core.honors_knitted_dist(c) == S._py_honors_knitted_dist(c)


@needs_core
def test_forms_outside_the_compiled_domain_go_to_the_reference(core: ModuleType) -> None:
    same = same_as_reference

    big = 1 << 70
    ok = (1, 1, 1, 2) + (0,) * 23 + (1, 1, 0, 0, 0, 0, 3)
    cap = (4,) * 34
    bad = [
        list(ok),
        ok[:33],
        ok + (0,),
        (-1,) + ok[1:],
        (True,) + ok[1:],
        (big,) + ok[1:],
        (1.0,) + ok[1:],
    ]
    for c in bad:
        same(core.standard_kept, S._py_standard_kept, c, cap, 4)
        same(core.seven_pairs_dist, S._py_seven_pairs_dist, c, True)
        same(core.orphans_dist, S._py_orphans_dist, c)
        same(core.honors_knitted_dist, S._py_honors_knitted_dist, c)
        same(core.knitted_straight_dist, S._py_knitted_straight_dist, c, cap, 0)
        same(core.standard_kept, S._py_standard_kept, ok, c, 4)
        same(core.knitted_straight_dist, S._py_knitted_straight_dist, ok, c, 1, 3)
    for sets in (-1, 6, big, 2.0, None):
        same(core.standard_kept, S._py_standard_kept, ok, cap, sets)
    for km in (-1, 2, 3, big, True, 0.0):
        same(core.knitted_straight_dist, S._py_knitted_straight_dist, ok, cap, km)
    for beat in (big, -big, 2.5, None, "3"):
        same(core.knitted_straight_dist, S._py_knitted_straight_dist, ok, cap, 0, beat)
    for allow in (None, "", "x", 1.0, [], big):
        same(core.seven_pairs_dist, S._py_seven_pairs_dist, ok, allow)
    same(core.seven_pairs_dist, S._py_seven_pairs_dist, ok)
    same(core.orphans_dist, S._py_orphans_dist, ok, 1)
    same(core.knitted_straight_dist, S._py_knitted_straight_dist, ok, cap)


@needs_core
@pytest.mark.parametrize("forms", sorted(set(S.RULES_FORMS.values())))
def test_form_distances_compiled_and_pure(
    core: ModuleType, forms: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(len(forms))
    hands = [_random_hand(rng, i) for i in range(3000)]

    def run() -> list[Any]:
        out: list[Any] = []
        for i, (c, cap) in enumerate(hands):
            n_melds = i % 5
            size = 16 if i % 3 == 0 else 13
            out.append(S.form_distances(c, cap, n_melds, forms, size, bool(i % 2)))
            out.append(S._best_distances(c, cap, n_melds, forms, size, True, i % 3))
        return out

    mine = run()
    for name in (
        "standard_kept",
        "seven_pairs_dist",
        "orphans_dist",
        "honors_knitted_dist",
        "knitted_straight_dist",
    ):
        monkeypatch.setattr(S, "_" + name, getattr(S, "_py_" + name))
    assert run() == mine


def test_dispatch() -> None:
    if os.environ.get("HEFEN_PURE") == "1" or not BUILT:
        assert not S.COMPILED
        assert S._suit_table is S._py_suit_table
        assert S._best is S._py_best
        assert not S.COMPILED_FORMS
        assert S._knitted_straight_dist is S._py_knitted_straight_dist
    else:
        assert S.COMPILED_FORMS is S.COMPILED
        from hefen import decompose

        assert S.COMPILED is decompose.COMPILED


# --- whole answers: compiled here, pure in a HEFEN_PURE=1 subprocess -------

_SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
import test_fast_shanten as t
assert t.S.COMPILED is {compiled!r}, t.S.COMPILED
json.dump(t.answers({rules!r}, {n!r}), sys.stdout)
"""


def analysis_hands(rules: str, n: int) -> list[dict[str, Any]]:
    """Generated hands (ready), and each again with one to three tiles swapped
    for random ones (further from ready), all between turns."""
    rng = random.Random({"mcr": 51, "hk": 52, "tw": 53}[rules])
    base = random_mcr_hands(n, 50) if rules == "mcr" else random_hands(rules, n, 54)
    kinds = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + list("ESWNCFP")
    out = []
    for g in base:
        h = {k: v for k, v in g.items() if k != "win_tile"}
        out.append(h)
        hand = list(h["hand"])
        for _ in range(rng.randint(1, 3)):
            hand[rng.randrange(len(hand))] = rng.choice(kinds)
        out.append({**h, "hand": hand})
    return out


def answers(rules: str, n: int) -> list[Any]:
    res: list[Any] = []
    for h in analysis_hands(rules, n):
        try:
            sh = shanten(h).to_dict()
            fifth = shanten(h, fifth=True).to_dict()
        except HandError as e:
            res.append(["error", str(e)])
            continue
        w = waits(h, scored=len(res) % 4 == 0).to_dict()
        res.append([sh, fifth, w])
    # the bots' entry points, on random deals (plus a drawn tile)
    forms = find_ruleset(rules).forms
    size = 16 if rules == "tw" else 13
    rng = random.Random(7)
    wall = [k for k in range(34) for _ in range(4)]
    cap = (4,) * 34
    for _ in range(n):
        c = [0] * 34
        for k in rng.sample(wall, size + rng.randint(0, 1)):
            c[k] += 1
        cc = tuple(c)
        res.append(
            [
                S.shanten_number(cc, cap, 0, forms, size),
                S.plan_shanten(cc, cap, 0, forms, size),
                list(S.useful_kinds(cc, cap, 0, forms, size)),
            ]
        )
    return json.loads(json.dumps(res))  # type: ignore[no-any-return]


@needs_core
@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_answers_same_with_compiled_and_pure_tables(core: ModuleType, rules: str) -> None:
    if not S.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    n = 1000  # each hand twice: 2,000 hands
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEFEN_PURE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT.format(tests=str(TESTS), compiled=False, rules=rules, n=n)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    mine = answers(rules, n)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err[-2000:]
    pure = json.loads(out)
    assert len(mine) == len(pure) == 3 * n
    diffs = [i for i, (a, b) in enumerate(zip(mine, pure, strict=True)) if a != b]
    assert not diffs, (len(diffs), mine[diffs[0]], pure[diffs[0]])
    assert sum(1 for r in mine if r[0] != "error") > n  # mostly real answers
