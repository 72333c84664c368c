"""The compiled Hong Kong and Taiwanese scorers (``hefen._core.hk_score``,
``hk_score_dict`` and ``tw_score``, in hefen/_core_hktw.c) against the Python
references (``hefen.hk._py_score``, ``hefen.tw._py_score``): generated hands
under every table setting, hypothesis-drawn hands with every context flag,
the limit and special hands, incomplete hands, and what the compiled scorers
do not read (which the references then answer).  Skipped, with the reason,
where the extension is not built or ``HEFEN_PURE=1``."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hand_draws import dealer_and_discarder, seat_context, sets_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hefen
import hefen.hk as hk
import hefen.tw as tw
from hefen import decompose as d
from hefen.errors import HandError
from hefen.hand import Context, Hand, Meld
from hefen.result import Result
from hefen.testing.generate_hk_tw import hand_dict, random_hands
from hefen.tiles import WINDS, tile_from_str, tile_to_str

ROOT = Path(hefen.__file__).resolve().parent.parent
BUILT = importlib.util.find_spec("hefen._core") is not None
needs_core = pytest.mark.skipif(
    not BUILT,
    reason="hefen._core is not built (no C compiler at install time?): "
    "run `python setup.py build_ext --inplace` or `pip install -e .` with gcc",
)


@pytest.fixture(scope="module")
def core() -> ModuleType:
    if not BUILT:
        pytest.skip("hefen._core is not built")
    if not d.COMPILED:
        pytest.skip("HEFEN_PURE=1 in this test run's environment")
    from hefen import _core

    return _core


#: table settings: every option of hefen.hk.OPTIONS away from its default
#: in at least one of them
HK_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"min_fan": 0},
    {"min_fan": 5, "cap": 8, "half_spicy": True},
    {"cap": 10, "unit": 3, "small_four_winds": 6},
    {"self_draw_concealed": False, "bonus_counts_to_min": False, "min_fan": 4},
    {"bouquet_includes_own": False, "seven_pairs_four_kind": True},
    {"nine_gates": "any", "min_fan": 1, "half_spicy": True, "unit": 7},
    {
        "min_fan": 8,
        "cap": 8,
        "small_four_winds": 6,
        "self_draw_concealed": False,
        "bonus_counts_to_min": False,
        "bouquet_includes_own": False,
        "seven_pairs_four_kind": True,
        "nine_gates": "any",
        "unit": 1000,
    },
]


def test_the_option_sets_vary_every_option() -> None:
    varied = {k for o in HK_OPTION_SETS for k, v in o.items() if v != hk.OPTIONS[k].default}
    assert varied == set(hk.OPTIONS)


def _variants(h: dict[str, Any], i: int) -> dict[str, Any]:
    """The generated hand with, every few hands, no discarder, a dealer and a
    streak, or a double kong replacement (what the generator seldom draws)."""
    ctx = dict(h["context"])
    seat = tile_from_str(ctx["seat_wind"])
    others = [tile_to_str(w) for w in WINDS if w != seat]
    if i % 5 == 1 and ctx["win"] == "discard":
        ctx.pop("discarder", None)
    if i % 7 == 2 and not ctx.get("heavenly") and not ctx.get("earthly"):
        ctx["dealer"] = others[i % 3] if i % 2 else ctx["seat_wind"]
        ctx["dealer_streak"] = i % 4
    kongs = sum(m["kind"] == "kong" for m in h["melds"])
    if str(h.get("win_tile")).endswith("h"):  # a flower win is not won on a kong tile
        kongs = 0
    if i % 3 == 0 and ctx["win"] == "self_draw" and kongs >= 2:
        ctx["double_kong_replacement"] = True
    if i % 4 == 0 and ctx["win"] == "self_draw" and kongs >= 1:
        ctx["kong_replacement"] = True
    return {**h, "context": ctx}


def _both(hand: Hand, opts: dict[str, Any], mod: ModuleType = hk) -> tuple[Any, Any]:
    """hefen.hk.score (or hefen.tw's: the compiled scorer where it reads the
    hand) and the reference, each as its Result or the exception it raised."""

    def run(f: Any) -> Any:
        try:
            return f(hand, dict(opts))
        except Exception as e:  # the reference's own refusal
            return (type(e), str(e))

    return run(mod.score), run(mod._py_score)


def _same(got: Any, want: Any, what: Any) -> None:
    if isinstance(want, tuple):
        assert got == want, what
        return
    assert isinstance(got, Result), what
    assert got.to_dict() == want.to_dict(), what
    assert got == want and type(got) is type(want), what
    assert [p.names for p in got.patterns] == [p.names for p in want.patterns], what


@needs_core
def test_hk_score_dispatch(core: ModuleType) -> None:
    assert hk._HK_SCORE is core.hk_score


@needs_core
def test_the_compiled_path_scores_without_the_reference(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hefen.hk.score (and hefen.score) answer generated hands with the
    Python reference unable to run: the compiled scorer is what scores."""
    from hefen.scoring import score_uncached

    def no_reference(*args: Any) -> Any:
        raise AssertionError("the Python reference ran")

    objs = random_hands("hk", 300, 61)
    want = [score_uncached(o).to_dict() for o in objs]
    monkeypatch.setattr(hk, "_py_score", no_reference)
    got = [score_uncached(o, strict=True).to_dict() for o in objs]
    assert got == want
    assert sum(1 for r in got if r["valid"] and r["patterns"]) > 250


@needs_core
def test_hk_score_on_generated_hands(core: ModuleType) -> None:
    """Generated hands (seven pairs, orphans, nine gates, melds, kongs,
    flowers, self-draws, timing wins, kong wins, last tiles), each under half
    of the table settings: the same Result, names and all; every pattern of
    the table is reached."""
    seen: dict[str, int] = {}
    n = 0
    notes: set[str] = set()
    for i, h in enumerate(random_hands("hk", 2400, 62)):
        for k, options in enumerate(HK_OPTION_SETS):
            if (i + k) % 2:
                continue
            hand = Hand.from_dict({**_variants(h, i), "options": options})
            opts = hk.resolve_options(dict(hand.options))
            assert core.hk_score(hand, opts) is not None, hand  # in the compiled domain
            got, want = _both(hand, opts)
            _same(got, want, (hand, opts))
            for p in got.patterns:
                seen[p.id] = seen.get(p.id, 0) + 1
            notes.update(x.split(" ")[0] for x in got.notes)
            n += 1
    assert n > 9000
    assert set(hk.ORDER) <= set(seen), set(hk.ORDER) - set(seen)
    # the notes: a limit over another, the cap, the minimum, no discarder
    assert {"A", "No"} <= notes and any(x.isdigit() for x in notes), notes


#: hands the generator draws rarely or not at all: (notation, context)
SPECIAL_HANDS: list[tuple[str, dict[str, Any]]] = [
    ("EEESSSWWWNNNC +C", {"win": "self_draw"}),  # big four winds, all honours
    ("EEESSSWWWNN11m +1m", {}),  # small four winds
    ("EEESSSWWWNNCC +C", {"seat_wind": "W"}),  # small four winds, all honours
    ("111999m111999pE +E", {}),  # all terminals (and concealed pungs on a discard)
    ("111999m111999p1s +1s", {"win": "self_draw"}),  # four concealed pungs
    ("1112345678999m +5m", {}),  # nine gates, both settings
    ("1112345678999m +9m", {"win": "self_draw"}),
    ("1112345678899m +9m", {}),  # nine gates only as "any"
    ("19m19p19sESWNCFP +P", {}),  # thirteen orphans
    ("19m19p19sESWNCFP +1m", {"win": "self_draw", "heavenly": True}),
    ("1122m3344p5566sE +E", {}),  # seven pairs
    ("11112222m3344pE +E", {}),  # seven pairs with four alike, by the setting
    ("CCFFPP11m22m33mE +E", {}),  # seven pairs, half flush, dragons
    ("CCCFFFPPP123mE +E", {}),  # big three dragons
    ("CCCFFFPP123m44p +P", {}),  # small three dragons
    ("123m456m789m123p5p +5p", {"earthly": True, "dealer": "E", "seat_wind": "S"}),
    ("[1111m] [2222p] [3333s] [EEEE] N +N", {"win": "self_draw"}),  # four kongs
    ("(1111m) (2222p) (3333s) (EEEE) N +N", {"win": "self_draw"}),
    ("[1111m] [2222p] 333s 456s 9m +9m", {"win": "self_draw", "double_kong_replacement": True}),
    ("[1111m] 234p 333s 456s 9m +9m", {"win": "self_draw", "kong_replacement": True}),
    ("123m 456p 789s 234s 5s +5s", {"last_tile_of_wall": True}),
    ("123m 456p 789s 234s 5s +6m", {}),  # incomplete
    ("123m456p789s23sEE +4s", {"robbing_kong": True}),
    ("[123m] 456p 789s 234s 5s +5s", {"win": "self_draw"}),
    ("[EEE] [SSS] 789s 234s 5s +5s", {"seat_wind": "S", "round_wind": "E"}),
    ("[EEE] 456p 789s 234s 5s +5s", {"seat_wind": "E", "round_wind": "E"}),
]


@needs_core
@pytest.mark.parametrize("text,ctx", SPECIAL_HANDS)
def test_hk_score_on_special_hands(core: ModuleType, text: str, ctx: dict[str, Any]) -> None:
    """Limit hands, seven pairs, thirteen orphans, kongs, timing and kong
    wins, incomplete hands: each with and without flowers, under every table
    setting."""
    scored = 0
    for flowers in ([], ["1h"], ["1h", "2h", "3h", "4h"], [f"{i}h" for i in range(1, 9)]):
        for options in HK_OPTION_SETS:
            obj = hand_dict(text, "hk", options, **ctx)
            obj["flowers"] = flowers
            try:
                hand = Hand.from_dict(obj)
            except HandError:
                continue
            opts = hk.resolve_options(dict(hand.options))
            found = core.hk_score(hand, opts)
            assert found is not None, obj
            got, want = _both(hand, opts)
            _same(got, want, obj)
            if found is False:
                assert not want.valid and "not complete" in (want.error or "")
            scored += 1
    assert scored >= len(HK_OPTION_SETS)


def _sets_strategy() -> st.SearchStrategy[Any]:
    chow_tiles = [t for t in range(27) if t % 9 <= 6]
    one = st.one_of(
        st.tuples(st.just("chow"), st.sampled_from(chow_tiles)),
        st.tuples(st.just("pung"), st.integers(0, 33)),
    )
    return st.tuples(st.lists(one, min_size=4, max_size=4), st.integers(0, 33))


def _options_strategy() -> st.SearchStrategy[dict[str, Any]]:
    def choices(name: str) -> st.SearchStrategy[Any]:
        o = hk.OPTIONS[name]
        if name == "min_fan":
            return st.integers(0, 13)
        if name == "unit":
            return st.integers(1, 1_000_000)
        if o.choices:
            return st.sampled_from(list(o.choices))
        return st.booleans()

    return st.fixed_dictionaries({}, optional={name: choices(name) for name in hk.OPTIONS})


FLAGS = (
    "last_tile_of_wall",
    "kong_replacement",
    "double_kong_replacement",
    "robbing_kong",
    "heavenly",
    "earthly",
    "human",
)


@needs_core
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sets_pair=_sets_strategy(), data=st.data())
def test_hk_score_on_random_hands(core: ModuleType, sets_pair: Any, data: st.DataObject) -> None:
    """Random sets and pair, some of them melds (kongs, concealed kongs), a
    winning tile that may not complete the hand, every context flag (and
    the Taiwanese ones Hong Kong refuses), winds, dealers, discarders,
    flowers and settings: the same answer, or the same refusal."""
    sets, pair = sets_pair
    tiles, melds, win = sets_hand(data, sets, pair)
    ctx = seat_context(data, FLAGS, 6)
    dealer_and_discarder(data, ctx)
    if data.draw(st.integers(0, 15)) == 0:
        ctx["declared_ready"] = "tian_ting"
    flowers = data.draw(st.lists(st.integers(1, 8), unique=True, max_size=8))
    obj = {
        "rules": "hk",
        "hand": [tile_to_str(x) for x in tiles],
        "melds": melds,
        "win_tile": tile_to_str(win),
        "flowers": [f"{f}h" for f in flowers],
        "context": ctx,
        "options": data.draw(_options_strategy()),
    }
    try:
        hand = Hand.from_dict(obj)
        opts = hk.resolve_options(dict(hand.options))
    except HandError:  # five copies, a contradictory context, min_fan above the cap
        return
    got, want = _both(hand, opts)
    _same(got, want, obj)


@needs_core
def test_hk_score_outside_the_compiled_domain(core: ModuleType) -> None:
    """What hk_score does not read (a Hand built in Python with other types,
    a context Hong Kong refuses, settings it does not know, not a Hand at
    all) is answered by the reference: hk_score says None, and hefen.hk.score
    answers (or raises) as _py_score does."""
    base = Hand.from_dict(
        {
            "rules": "hk",
            "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "C"],
            "win_tile": "C",
            "context": {"win": "self_draw", "seat_wind": "E", "round_wind": "E"},
        }
    )
    opts = hk.resolve_options({})
    assert core.hk_score(base, opts) is not None
    ctx = base.context
    odd = [
        dataclasses.replace(base, concealed=list(base.concealed)),
        dataclasses.replace(base, concealed=base.concealed[:-1]),
        dataclasses.replace(base, concealed=(*base.concealed[:-1], 27.0)),
        dataclasses.replace(base, win_tile=None),
        dataclasses.replace(base, win_tile=True),
        dataclasses.replace(base, win_tile=35),
        dataclasses.replace(base, flowers=(50,)),
        dataclasses.replace(base, flowers=(3,)),
        dataclasses.replace(base, flowers=[34]),
        dataclasses.replace(base, context=dataclasses.replace(ctx, last_tile_of_wall=1)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, win="tsumo")),
        dataclasses.replace(base, context=dataclasses.replace(ctx, seat_wind=5)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, dealer_streak=True)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, human=True)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, declared_ready="tian_ting")),
        dataclasses.replace(base, context=dataclasses.replace(ctx, earthly=True)),
        dataclasses.replace(
            base, context=dataclasses.replace(ctx, win="discard", discarder=27)
        ),  # the winner's own seat
        dataclasses.replace(
            base, concealed=base.concealed[3:], melds=(Meld("chow", (0, 1, 2), True),)
        ),
        dataclasses.replace(base, concealed=base.concealed[3:], melds=(("chow", (0, 1, 2)),)),
        dataclasses.replace(base, context=Context(win="self_draw", discarder=True)),
    ]
    bad_settings = [
        {**opts, "nine_gates": "other"},
        {**opts, "small_four_winds": "6"},
        {**opts, "cap": 13.0},
        {**opts, "min_fan": True},
        {**opts, "unit": -1},
        {**opts, "half_spicy": 1},
        {**opts, "seven_pairs_four_kind": None},
        {k: v for k, v in opts.items() if k != "bouquet_includes_own"},
    ]
    cases = [(h, opts) for h in odd] + [(base, s) for s in bad_settings]
    for hand, o in cases:
        assert core.hk_score(hand, o) is None, (hand, o)
        got, want = _both(hand, o)
        _same(got, want, (hand, o))
    assert core.hk_score(None, opts) is None
    assert core.hk_score(base, None) is None
    assert core.hk_score(base) is None
    # an incomplete hand: False, and the reference's sentence
    short = dataclasses.replace(base, win_tile=33)
    assert core.hk_score(short, opts) is False
    got, want = _both(short, opts)
    _same(got, want, short)
    assert not got.valid


def _reference(obj: Any) -> Result:
    """score_uncached(obj) the Python way: the reference reader and checks,
    then hefen.hk's reference scorer (another ruleset's own scorer)."""
    from hefen.scoring import _guarded, _parse

    def run() -> Result:
        hand = _parse(obj)
        if hand.rules != "hk":
            return hand.ruleset.score(hand)
        return hk._py_score(hand, hk.resolve_options(dict(hand.options)))

    return _guarded(obj, run, strict=True)


def _hk_edits(h: dict[str, Any]) -> list[dict[str, Any]]:
    """One Hong Kong object changed in each of the ways the compiled reader
    must take or leave exactly as the Python one: those of the MCR reader's
    test, and the Hong Kong settings, right and wrong."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_fast_core import _mcr_edits

    out = _mcr_edits(h)
    for o in [*HK_OPTION_SETS, {"cap": 9}, {"min_fan": 14}, {"min_fan": 9, "cap": 8}]:
        out.append({**h, "options": o})
    for o in ({"unit": 2.0}, {"half_spicy": 1}, {"nine_gates": None}, {"small_four_winds": "6"}):
        out.append({**h, "options": o})
    ctx = h.get("context") or {}
    for extra in ({"human": True}, {"declared_ready": "tian_ting"}, {"earthly": True}):
        out.append({**h, "context": {**ctx, **extra}})
    return out


@needs_core
def test_hk_score_dict_dispatch(core: ModuleType) -> None:
    from hefen import scoring

    assert hk.SCORE_DICT is core.hk_score_dict
    obj = random_hands("hk", 1, 70)[0]
    scoring.score_uncached(obj)  # its settings resolved once
    assert scoring._FAST[hk.RULESET.key] is core.hk_score_dict
    assert core.hk_score_dict(obj) is not None
    assert scoring._one_call(obj) == core.hk_score_dict(obj)


@needs_core
def test_score_dict_answers_as_each_rulesets_one_call(core: ModuleType) -> None:
    """hefen._core.score_dict (score_uncached's first try) answers each
    object as the one-call path of the ruleset it names does (MCR where it
    names none), and None for anything no such path reads: another ruleset,
    a rules field that is no string, an object that is no plain dict."""
    from hefen import mcr, scoring
    from hefen.testing.generate import random_mcr_hands

    assert scoring._ONE_CALL is core.score_dict
    groups = {
        "mcr": random_mcr_hands(150, 73),
        "hk": random_hands("hk", 150, 74),
        "tw": random_hands("tw", 150, 75),
    }
    paths = {"mcr": mcr.SCORE_DICT, "hk": hk.SCORE_DICT, "tw": tw.SCORE_DICT}
    for objs in groups.values():
        scoring.score_uncached(objs[0])  # each path registered, as by a first score
    answered = 0
    for rules, objs in groups.items():
        for obj in objs:
            want = paths[rules](obj)
            got = core.score_dict(obj)
            assert got == want and (got is None or got.to_dict() == want.to_dict()), obj
            answered += got is not None
            assert core.score_dict({**obj, "rules": rules.upper()}) is None
            assert core.score_dict({**obj, "rules": 3}) is None
            assert core.score_dict(list(obj.items())) is None
        unnamed = {k: v for k, v in objs[0].items() if k != "rules"}
        assert core.score_dict(unnamed) == mcr.SCORE_DICT(unnamed)
    assert answered > 400, answered
    assert core.score_dict(None) is None and core.score_dict({}) is None


@needs_core
def test_hk_score_dict_same_as_the_python_path(core: ModuleType) -> None:
    """hk_score_dict (score_uncached of a well-formed Hong Kong object in one
    call) against the Python path with the reference scorer, on generated
    objects under every setting and on edited ones: the same Result wherever
    it answers, None wherever the Python path refuses the object, scores
    another ruleset or finds it incomplete; and score_uncached, whichever
    path it takes, answers as the reference does."""
    from hefen.scoring import score_uncached

    objs = [
        {**_variants(h, i), "options": o}
        for i, h in enumerate(random_hands("hk", 400, 71))
        for o in HK_OPTION_SETS
    ]
    for h in random_hands("hk", 60, 72):
        objs += _hk_edits(h)
    answered = refused = 0
    for _ in range(2):  # the second time, every setting was resolved once
        for obj in objs:
            want = _reference(obj)
            got = core.hk_score_dict(obj)
            if got is not None:
                answered += 1
                assert got == want and got.to_dict() == want.to_dict(), obj
                assert want.valid and want.rules == "hk", obj
            elif not want.valid:
                refused += 1
            assert score_uncached(obj, strict=True).to_dict() == want.to_dict(), obj
    assert answered > 3000 and refused > 1000, (answered, refused)
    assert core.hk_score_dict(None) is None
    assert core.hk_score_dict([]) is None
    assert core.hk_score_dict({}) is None


def test_hefen_pure_leaves_the_hk_reference() -> None:
    """With HEFEN_PURE=1 hefen.hk scores in Python only."""
    script = (
        "import hefen.hk as hk\n"
        "assert hk._HK_SCORE is None and hk.SCORE_DICT is None\n"
        "from hefen.scoring import score_uncached\n"
        "from hefen.testing.generate_hk_tw import random_hands\n"
        "rs = [score_uncached(h) for h in random_hands('hk', 20, 1)]\n"
        "assert all(r.rules == 'hk' for r in rs)\n"
        "print('pure')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEFEN_PURE": "1"}
    res = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "pure"


# --- Taiwanese -------------------------------------------------------------

#: table settings: every option of hefen.tw.OPTIONS away from its default
#: in at least one of them
TW_OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"flower_kong": 1, "human_hand": True, "all_chows_self_draw": True},
    {"all_chows_with_flowers": True, "concealed_self_draw": 2, "base": 0, "per_tai": 7},
    {
        "small_three_dragons_includes_pungs": False,
        "big_three_dragons_includes_pungs": False,
        "small_four_winds_includes_winds": True,
        "dealer_repeat_tai": 1,
    },
    {"big_four_winds_includes_winds": False, "flower_kong_includes_own": True},
    {"timing_includes_win": False, "human_hand": True, "concealed_self_draw": 2},
    {
        "base": 100,
        "per_tai": 20,
        "flower_kong": 1,
        "human_hand": True,
        "all_chows_self_draw": True,
        "all_chows_with_flowers": True,
        "concealed_self_draw": 2,
        "small_three_dragons_includes_pungs": False,
        "big_three_dragons_includes_pungs": False,
        "small_four_winds_includes_winds": True,
        "big_four_winds_includes_winds": False,
        "flower_kong_includes_own": True,
        "dealer_repeat_tai": 1,
        "timing_includes_win": False,
    },
]


def test_the_tw_option_sets_vary_every_option() -> None:
    varied = {k for o in TW_OPTION_SETS for k, v in o.items() if v != tw.OPTIONS[k].default}
    assert varied == set(tw.OPTIONS)


@needs_core
def test_tw_score_dispatch(core: ModuleType) -> None:
    assert tw._TW_SCORE is core.tw_score


@needs_core
def test_the_compiled_tw_path_scores_without_the_reference(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hefen.score_uncached answers generated Taiwanese hands with the Python
    reference unable to run: the compiled scorer is what scores."""
    from hefen.scoring import score_uncached

    def no_reference(*args: Any) -> Any:
        raise AssertionError("the Python reference ran")

    objs = random_hands("tw", 300, 81)
    want = [score_uncached(o).to_dict() for o in objs]
    monkeypatch.setattr(tw, "_py_score", no_reference)
    got = [score_uncached(o, strict=True).to_dict() for o in objs]
    assert got == want
    assert sum(1 for r in got if r["valid"] and r["patterns"]) > 250


@needs_core
def test_tw_score_on_generated_hands(core: ModuleType) -> None:
    """Generated Taiwanese hands (melds, kongs, flowers, flower wins, timing
    wins, declared ready hands, dealers and streaks, kong wins, last tiles),
    each under half of the table settings: the same Result, names and all;
    every pattern of the table is reached."""
    seen: dict[str, int] = {}
    n = 0
    notes: set[str] = set()
    for i, h in enumerate(random_hands("tw", 2400, 82)):
        for k, options in enumerate(TW_OPTION_SETS):
            if (i + k) % 2:
                continue
            hand = Hand.from_dict({**_variants(h, i), "options": options})
            opts = tw.resolve_options(dict(hand.options))
            assert core.tw_score(hand, opts) is not None, hand  # in the compiled domain
            got, want = _both(hand, opts, tw)
            _same(got, want, (hand, opts))
            for p in got.patterns:
                seen[p.id] = seen.get(p.id, 0) + 1
            notes.update(x.split(" ")[0] for x in got.notes)
            n += 1
    assert n > 8000
    assert set(tw.ORDER) <= set(seen), set(tw.ORDER) - set(seen)
    # the notes: a flower win, no discarder, the dealer's extra
    assert {"A", "No", "The"} <= notes, notes


#: Taiwanese hands the generator draws rarely or not at all
TW_SPECIAL_HANDS: list[tuple[str, dict[str, Any]]] = [
    # four kongs: read as sets, and as the fourth kong's win from the melds
    ("[1111m] [2222p] [3333s] [EEEE] 5m5m6m7m +5m", {"win": "self_draw"}),
    ("[1111m] [2222p] [3333s] (EEEE) 5m6m8m9m +C", {"win": "self_draw"}),
    ("(1111m) (2222p) (3333s) (EEEE) 5m6m8m9m +C", {"win": "self_draw", "dealer": "S"}),
    # all claimed, won on the pair
    ("[123m] [456m] [789p] [EEE] [CCC] N +N", {"discarder": "S"}),
    ("[123m] [456m] [789p] [EEE] [CCC] N +N", {"win": "self_draw"}),
    # five concealed pungs, the winds and dragons
    ("111m222p333sEEECCC9s +9s", {"win": "self_draw"}),
    ("EEESSSWWWNNN123mC +C", {"seat_wind": "S"}),
    ("EEESSSWWW123m456pN +N", {"round_wind": "W"}),
    ("CCCFFFPPP123m456p9s +9s", {}),
    ("CCCFFF123m456p789sP +P", {}),
    # all chows: a two-sided wait, flowers or not, self-drawn or not
    ("123m456m789p234s67s55p +5s", {}),
    ("123m456m789p234s67s55p +5s", {"win": "self_draw"}),
    ("123m456m789p234s68s55p +7s", {}),  # a closed wait
    # timing wins and declared ready
    ("123m456m789p234s67s55p +5s", {"human": True, "dealer": "N", "seat_wind": "E"}),
    ("123m456m789p234s67s55p +5s", {"win": "self_draw", "earthly": True, "dealer": "N"}),
    ("123m456m789p234s67s55p +5s", {"win": "self_draw", "heavenly": True}),
    ("123m456m789p234s67s55p +5s", {"declared_ready": "tian_ting"}),
    ("123m456m789p234s67s55p +5s", {"declared_ready": "di_ting", "win": "self_draw"}),
    ("123m456m789p234s67s55p +4m", {}),  # incomplete
]


@needs_core
@pytest.mark.parametrize("text,ctx", TW_SPECIAL_HANDS)
def test_tw_score_on_special_hands(core: ModuleType, text: str, ctx: dict[str, Any]) -> None:
    """Four kongs (as sets and as the fourth kong's win), all claimed, the
    concealed pungs, winds and dragons, all chows, timing wins, declared
    ready hands, incomplete hands: with no flowers, some, a flower kong and
    all eight (a flower win), dealers and streaks, under every setting."""
    scored = 0
    for flowers in ([], ["1h"], ["1h", "2h", "3h", "4h"], [f"{i}h" for i in range(1, 8)]):
        for options in TW_OPTION_SETS:
            for dealer in (None, "E", "S"):
                obj = hand_dict(text, "tw", options, **ctx)
                obj["flowers"] = flowers
                if dealer and "dealer" not in ctx:
                    obj["context"] = {**obj["context"], "dealer": dealer, "dealer_streak": 2}
                try:
                    hand = Hand.from_dict(obj)
                except HandError:
                    continue
                opts = tw.resolve_options(dict(hand.options))
                found = core.tw_score(hand, opts)
                assert found is not None, obj
                got, want = _both(hand, opts, tw)
                _same(got, want, obj)
                if found is False:
                    assert not want.valid and "not complete" in (want.error or "")
                scored += 1
    assert scored >= len(TW_OPTION_SETS)


def _tw_options_strategy() -> st.SearchStrategy[dict[str, Any]]:
    def choices(name: str) -> st.SearchStrategy[Any]:
        o = tw.OPTIONS[name]
        if name in ("base", "per_tai"):
            return st.integers(0, 1_000_000)
        if o.choices:
            return st.sampled_from(list(o.choices))
        return st.booleans()

    return st.fixed_dictionaries({}, optional={name: choices(name) for name in tw.OPTIONS})


@needs_core
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_tw_score_on_random_hands(core: ModuleType, data: st.DataObject) -> None:
    """Random five sets and a pair, some of them melds (kongs, concealed
    kongs), a winning tile that may not complete the hand or may be the
    eighth bonus tile, every context flag, declared ready hands, winds,
    dealers, streaks, discarders, flowers and settings: the same answer, or
    the same refusal."""
    chow_tiles = [t for t in range(27) if t % 9 <= 6]
    one = st.one_of(
        st.tuples(st.just("chow"), st.sampled_from(chow_tiles)),
        st.tuples(st.just("pung"), st.integers(0, 33)),
    )
    sets = data.draw(st.lists(one, min_size=5, max_size=5))
    pair = data.draw(st.integers(0, 33))
    tiles, melds, win = sets_hand(data, sets, pair)
    ctx = seat_context(data, FLAGS, 6)
    dealer_and_discarder(data, ctx)
    if data.draw(st.integers(0, 5)) == 0:
        ctx["declared_ready"] = data.draw(st.sampled_from(["tian_ting", "di_ting"]))
    flowers = data.draw(st.lists(st.integers(1, 8), unique=True, max_size=8))
    win_code = tile_to_str(win)
    if data.draw(st.integers(0, 7)) == 0:  # a flower win: the eighth bonus tile
        flowers = list(range(1, 9))
        win_code = f"{flowers.pop(data.draw(st.integers(0, 7)))}h"
    obj = {
        "rules": "tw",
        "hand": [tile_to_str(x) for x in tiles],
        "melds": melds,
        "win_tile": win_code,
        "flowers": [f"{f}h" for f in flowers],
        "context": ctx,
        "options": data.draw(_tw_options_strategy()),
    }
    try:
        hand = Hand.from_dict(obj)
        opts = tw.resolve_options(dict(hand.options))
    except HandError:  # five copies, a contradictory context
        return
    got, want = _both(hand, opts, tw)
    _same(got, want, obj)


@needs_core
def test_tw_score_outside_the_compiled_domain(core: ModuleType) -> None:
    """What tw_score does not read is answered by the reference: tw_score
    says None, and hefen.tw.score answers (or raises) as _py_score does."""
    base = Hand.from_dict(
        {
            "rules": "tw",
            "hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s 1s 2s 3s E E C C".split(),
            "win_tile": "C",
            "context": {"win": "self_draw", "seat_wind": "E", "round_wind": "E"},
        }
    )
    opts = tw.resolve_options({})
    assert core.tw_score(base, opts) is not None
    flower_win = dataclasses.replace(base, win_tile=35, flowers=(34, 36, 37, 38, 39, 40, 41))
    assert core.tw_score(flower_win, opts) is not None
    _same(*_both(flower_win, opts, tw), flower_win)
    ctx = base.context
    odd = [
        dataclasses.replace(base, concealed=list(base.concealed)),
        dataclasses.replace(base, concealed=base.concealed[:-1]),
        dataclasses.replace(base, concealed=(*base.concealed[:-1], 27.0)),
        dataclasses.replace(base, win_tile=None),
        dataclasses.replace(base, win_tile=True),
        dataclasses.replace(base, win_tile=35),  # a flower win with no flowers
        dataclasses.replace(base, flowers=(50,)),
        dataclasses.replace(base, flowers=(34, 34)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, last_tile_of_wall=1)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, win="tsumo")),
        dataclasses.replace(base, context=dataclasses.replace(ctx, seat_wind=5)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, dealer_streak=True)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, human=True)),
        dataclasses.replace(base, context=dataclasses.replace(ctx, declared_ready="x")),
        dataclasses.replace(
            base, context=dataclasses.replace(ctx, heavenly=True, declared_ready="tian_ting")
        ),
        dataclasses.replace(
            base, context=dataclasses.replace(ctx, win="discard", discarder=27)
        ),  # the winner's own seat
        dataclasses.replace(
            base, concealed=base.concealed[3:], melds=(Meld("chow", (0, 1, 2), True),)
        ),
        dataclasses.replace(base, concealed=base.concealed[3:], melds=(("chow", (0, 1, 2)),)),
    ]
    bad_settings = [
        {**opts, "base": 1.0},
        {**opts, "flower_kong": "2"},
        {**opts, "human_hand": 1},
        {**opts, "per_tai": -1},
        {k: v for k, v in opts.items() if k != "timing_includes_win"},
    ]
    cases = [(h, opts) for h in odd] + [(base, s) for s in bad_settings]
    for hand, o in cases:
        assert core.tw_score(hand, o) is None, (hand, o)
        got, want = _both(hand, o, tw)
        _same(got, want, (hand, o))
    assert core.tw_score(None, opts) is None
    assert core.tw_score(base, None) is None
    assert core.tw_score(base) is None
    short = dataclasses.replace(base, win_tile=33)
    assert core.tw_score(short, opts) is False
    got, want = _both(short, opts, tw)
    _same(got, want, short)
    assert not got.valid


def _tw_reference(obj: Any) -> Result:
    """score_uncached(obj) the Python way, with hefen.tw's reference scorer."""
    from hefen.scoring import _guarded, _parse

    def run() -> Result:
        hand = _parse(obj)
        if hand.rules != "tw":
            return hand.ruleset.score(hand)
        return tw._py_score(hand, tw.resolve_options(dict(hand.options)))

    return _guarded(obj, run, strict=True)


def _tw_edits(h: dict[str, Any]) -> list[dict[str, Any]]:
    """One Taiwanese object changed in each of the ways the compiled reader
    must take or leave exactly as the Python one."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_fast_core import _mcr_edits

    out = _mcr_edits(h)
    for o in [*TW_OPTION_SETS, {"base": 1.5}, {"flower_kong": 3}, {"human_hand": None}]:
        out.append({**h, "options": o})
    ctx = h.get("context") or {}
    for extra in (
        {"human": True, "win": "self_draw"},
        {"declared_ready": "tian_ting"},
        {"declared_ready": "di_ting", "heavenly": True},
        {"declared_ready": 1},
    ):
        out.append({**h, "context": {**ctx, **extra}})
    held = [c for c in h["hand"] if c != h["win_tile"]]
    eight = [f"{i}h" for i in range(1, 9)]
    out += [
        {
            **h,
            "hand": held[:16] if len(held) >= 16 else h["hand"],
            "win_tile": "3h",
            "flowers": [f for f in eight if f != "3h"],
        },
        {**h, "win_tile": "3h", "flowers": [f for f in eight if f not in ("3h", "4h")]},
        {**h, "win_tile": "3h", "flowers": eight},
    ]
    return out


@needs_core
def test_tw_score_dict_dispatch(core: ModuleType) -> None:
    from hefen import scoring

    assert tw.SCORE_DICT is core.tw_score_dict
    obj = random_hands("tw", 1, 90)[0]
    scoring.score_uncached(obj)  # its settings resolved once
    assert scoring._FAST[tw.RULESET.key] is core.tw_score_dict
    assert core.tw_score_dict(obj) is not None
    assert scoring._one_call(obj) == core.tw_score_dict(obj)


@needs_core
def test_tw_score_dict_same_as_the_python_path(core: ModuleType) -> None:
    """tw_score_dict against the Python path with the reference scorer, on
    generated objects under every setting and on edited ones: the same
    Result wherever it answers, None wherever the Python path refuses the
    object, scores another ruleset or finds it incomplete; score_uncached
    answers as the reference does."""
    from hefen.scoring import score_uncached

    objs = [
        {**_variants(h, i), "options": o}
        for i, h in enumerate(random_hands("tw", 400, 91))
        for o in TW_OPTION_SETS
    ]
    for h in random_hands("tw", 60, 92):
        objs += _tw_edits(h)
    answered = refused = flower_wins = 0
    for _ in range(2):
        for obj in objs:
            want = _tw_reference(obj)
            got = core.tw_score_dict(obj)
            if got is not None:
                answered += 1
                assert got == want and got.to_dict() == want.to_dict(), obj
                assert want.valid and want.rules == "tw", obj
                flower_wins += got.patterns[0].id in ("eight_flowers", "seven_rob_one")
            elif not want.valid:
                refused += 1
            assert score_uncached(obj, strict=True).to_dict() == want.to_dict(), obj
    assert answered > 3000 and refused > 1000 and flower_wins > 50, (
        answered,
        refused,
        flower_wins,
    )
    assert core.tw_score_dict(None) is None
    assert core.tw_score_dict({"rules": "tw"}) is None


def test_hefen_pure_leaves_the_tw_reference() -> None:
    script = (
        "import hefen.tw as tw\n"
        "assert tw._TW_SCORE is None and tw.SCORE_DICT is None\n"
        "from hefen.scoring import score_uncached\n"
        "from hefen.testing.generate_hk_tw import random_hands\n"
        "rs = [score_uncached(h) for h in random_hands('tw', 20, 1)]\n"
        "assert all(r.rules == 'tw' for r in rs)\n"
        "print('pure')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEFEN_PURE": "1"}
    res = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "pure"
