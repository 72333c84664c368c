"""The scorer never raises and never lies (issue #14).

* ``score(x, strict=True)``, ``score_uncached`` and the analysis
  (``shanten``, ``waits``, ``advise``) answer every JSON-like value and every
  mutation of a valid hand: a result, or one sentence (the analysis raises
  only its documented :class:`HandError`), never an internal exception.
* Near-twins (``13``/``13.0``, ``false``/``0``, ``[]``/``null``) in options
  and context are scored in either order exactly as when scored alone.
* A seeded fuzz run of 100,000 mutated hands (``slow``) finds no exception.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hefen
from hefen.analysis import advise, shanten, waits
from hefen.errors import HandError
from hefen.hand import Context, Hand, Meld
from hefen.ruleset import find_ruleset, ruleset_keys
from hefen.scoring import clear_cache, score, score_uncached
from hefen.testing.generate import random_mcr_hands
from hefen.testing.generate_hk_tw import random_hands
from hefen.testing.mutate import CONTEXT_KEYS, TOP_KEYS, mutate

BASE: list[dict[str, Any]] = (
    random_mcr_hands(60, seed=14)
    + random_hands("hk", 60, seed=14)
    + random_hands("tw", 60, seed=14)
)


# -- strategies ----------------------------------------------------------------
def _huge(n: int) -> int:
    return 2**n if abs(n) < 100 else 10**n * (1 if n > 0 else -1)


surrogates = st.sampled_from(["\ud800", "\udfff", "1m\ud83d", "\udc00E"])
texts = st.one_of(st.text(max_size=8), surrogates, st.sampled_from(["1m", "E", "mcr", "hk", "tw"]))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.sampled_from([63, -64, 400, 5000]).map(_huge),  # 10**5000: too long for repr()
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(texts, st.sampled_from(TOP_KEYS + CONTEXT_KEYS)), inner, max_size=4
        ),
    ),
    max_leaves=12,
)
hand_shaped = st.fixed_dictionaries(
    {},
    optional={
        "rules": st.one_of(st.sampled_from(ruleset_keys()), json_values),
        "hand": st.one_of(st.lists(st.one_of(texts, json_values), max_size=17), json_values),
        "melds": json_values,
        "win_tile": st.one_of(texts, json_values),
        "flowers": json_values,
        "context": st.one_of(
            st.dictionaries(st.sampled_from(CONTEXT_KEYS), json_values, max_size=5), json_values
        ),
        "options": st.one_of(st.dictionaries(texts, json_values, max_size=4), json_values),
        "visible": json_values,
    },
)
anything = st.one_of(json_values, hand_shaped)
mutants = st.builds(
    lambda base, seed, n: _mutate_n(base, seed, n),
    st.sampled_from(BASE),
    st.integers(0, 2**32),
    st.integers(1, 3),
)


def _mutate_n(obj: dict[str, Any], seed: int, n: int) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(n):
        obj = mutate(obj, rng)
    return obj


def _one_sentence(text: Any) -> None:
    assert isinstance(text, str) and text.strip(), text
    assert "\n" not in text and "Traceback" not in text, text
    text.encode("utf-8")  # printable as it is: no lone surrogate


def _check_score(obj: Any) -> None:
    for r in (hefen.score(obj, strict=True), hefen.score_uncached(obj, strict=True)):
        d = r.to_dict()
        json.dumps(d)
        if not r.valid:
            _one_sentence(r.error)


def _analysis_input(obj: Any) -> Any:
    if isinstance(obj, dict):
        obj = dict(obj)
        obj.pop("win_tile", None)
    return obj


ANALYSES: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("shanten", shanten),
    ("waits", lambda o: waits(o, scored=True)),
    ("advise", lambda o: advise(o, scored=False)),
)


def _check_analysis(obj: Any) -> None:
    for kind, fn in ANALYSES:
        arg = obj if kind == "advise" else _analysis_input(obj)
        try:
            json.dumps(fn(arg).to_dict())
        except HandError as e:  # the analysis' one documented answer to bad input
            _one_sentence(str(e))


# -- properties ----------------------------------------------------------------
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(anything)
def test_score_never_raises_for_json_like_values(obj: Any) -> None:
    _check_score(obj)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutants)
def test_score_never_raises_for_mutated_hands(obj: dict[str, Any]) -> None:
    _check_score(obj)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(anything)
def test_analysis_answers_json_like_values_in_one_sentence(obj: Any) -> None:
    _check_analysis(obj)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutants)
def test_analysis_answers_mutated_hands_in_one_sentence(obj: dict[str, Any]) -> None:
    _check_analysis(obj)


def _swap_huge(v: Any) -> Any:
    """``v`` with each ``"huge"`` replaced by 10**5000 (whose repr raises)."""
    if v == "huge":
        return 10**5000
    if isinstance(v, dict):
        return {k: _swap_huge(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_swap_huge(x) for x in v]
    return v


@pytest.mark.parametrize(
    "obj",
    [
        {"rules": "mcr", "hand": ["huge"], "win_tile": "E"},
        {"rules": "hk", "hand": ["\ud800"], "win_tile": "E"},
        {"rules": "tw", "hand": [], "options": {"\ud800": 1}},
        {"rules": "mcr", "hand": [], "context": {"seat_wind": "huge"}},
        {"rules": "hk", "hand": [], "melds": [{"kind": "huge", "tiles": []}]},
    ],
    ids=["huge-tile", "surrogate-tile", "surrogate-option", "huge-wind", "huge-meld-kind"],
)
def test_unprintable_values_are_named_in_a_printable_sentence(obj: dict[str, Any]) -> None:
    obj = _swap_huge(obj)
    r = score(obj, strict=True)
    assert r.valid is False
    _one_sentence(r.error)
    with pytest.raises(HandError) as e:
        shanten(_analysis_input(obj))
    _one_sentence(str(e.value))


def test_lists_in_options_and_context_no_longer_raise() -> None:
    """The issue's measure: 6,000 hands with a list (or object) put into their
    options or context raised TypeError in 655; now none does, and each
    answer is one sentence."""
    rng = random.Random(655)
    bad = 0
    for i in range(6000):
        obj = dict(BASE[i % len(BASE)])
        where = rng.choice(("options", "context"))
        inner = dict(obj.get(where) or {})
        if where == "options":
            names = list(find_ruleset(obj["rules"]).options)
        else:
            names = list(CONTEXT_KEYS)
        inner[rng.choice(names)] = rng.choice(([], [1], [[]], {}, {"a": []}, ["E"]))
        obj[where] = inner
        try:
            r = score(obj, strict=True)
        except Exception:
            bad += 1
            continue
        assert r.valid is False
        _one_sentence(r.error)
    assert bad == 0


# -- near-twins ----------------------------------------------------------------
TWINS: tuple[tuple[Any, Any], ...] = ((13, 13.0), (False, 0), ([], None), (True, 1), (0, 0.0))


def _twin_cases() -> list[tuple[str, str, str, Any, Any]]:
    cases = []
    for rules in ruleset_keys():
        for a, b in TWINS:
            for name in find_ruleset(rules).options:
                cases.append((rules, "options", name, a, b))
            for key in CONTEXT_KEYS:
                cases.append((rules, "context", key, a, b))
    return cases


def _scored(obj: dict[str, Any]) -> dict[str, Any]:
    return score(obj, strict=True).to_dict()


def _with(base: dict[str, Any], where: str, key: str, value: Any) -> dict[str, Any]:
    out = dict(base)
    out[where] = {**(base.get(where) or {}), key: value}
    return out


def _base(rules: str) -> dict[str, Any]:
    return next(h for h in BASE if h["rules"] == rules)


@pytest.mark.parametrize("rules", ruleset_keys())
def test_near_twins_answer_in_either_order_as_when_alone(rules: str) -> None:
    base = _base(rules)
    checked = 0
    for r, where, key, a, b in _twin_cases():
        if r != rules:
            continue
        ha, hb = _with(base, where, key, a), _with(base, where, key, b)
        clear_cache()
        alone_a = _scored(ha)
        clear_cache()
        alone_b = _scored(hb)
        assert alone_a == score_uncached(ha, strict=True).to_dict()
        assert alone_b == score_uncached(hb, strict=True).to_dict()
        clear_cache()
        assert (_scored(ha), _scored(hb)) == (alone_a, alone_b), (where, key, a, b)
        clear_cache()
        assert (_scored(hb), _scored(ha)) == (alone_b, alone_a), (where, key, a, b)
        checked += 1
    clear_cache()
    assert checked == len(TWINS) * (len(find_ruleset(rules).options) + len(CONTEXT_KEYS))


@pytest.mark.parametrize("rules", ruleset_keys())
def test_a_twin_of_a_legal_value_is_refused_not_read_as_it(rules: str) -> None:
    """``13.0`` is not the whole number ``13``, ``0`` is not ``false``: the
    twin of a legal option value is refused with a sentence (never scored
    as if it were the legal one, whatever was cached before)."""
    base = _base(rules)
    for name, spec in find_ruleset(rules).options.items():
        legal = spec.default
        if isinstance(legal, bool):
            twin: Any = int(legal)
        elif isinstance(legal, int):
            twin = float(legal)
        else:
            continue
        clear_cache()
        good = _scored(_with(base, "options", name, legal))
        bad = _scored(_with(base, "options", name, twin))
        assert good["valid"] is True, good
        assert bad["valid"] is False and name in bad["error"], bad
    clear_cache()


# -- the fuzz run --------------------------------------------------------------
FUZZ_INPUTS = 100_000


@pytest.mark.slow
def test_fuzz_100000_mutated_hands_raise_nothing() -> None:
    rng = random.Random(20261201)
    start = time.perf_counter()
    failures: list[tuple[dict[str, Any], str]] = []
    for _ in range(FUZZ_INPUTS):
        obj = mutate(rng.choice(BASE), rng)
        if rng.random() < 0.3:
            obj = mutate(obj, rng)
        try:
            r = score(obj, strict=True)
            if not r.valid:
                _one_sentence(r.error)
        except Exception as e:  # collected, so the report shows them all
            failures.append((obj, repr(e)))
    elapsed = time.perf_counter() - start
    print(f"fuzz: {FUZZ_INPUTS} mutated hands in {elapsed:.1f} s, {len(failures)} exceptions")
    assert failures == []


# -- Hand objects built in Python ------------------------------------------------
tile_numbers = st.one_of(st.integers(-2, 45), st.sampled_from([True, 2**70, 27.0, "E", None]))
melds_built = st.builds(
    lambda kind, tiles, concealed: Meld(kind, tiles, concealed),
    st.sampled_from(["chow", "pung", "kong", "pair", 3]),
    st.lists(tile_numbers, max_size=5).map(tuple),
    st.one_of(st.booleans(), st.just(1)),
)
contexts_built = st.builds(
    Context,
    win=st.sampled_from(["discard", "self_draw", "x", 1]),
    seat_wind=st.one_of(st.integers(25, 32), st.just(27.0)),
    round_wind=st.sampled_from([27, 28, 99]),
    dealer=st.sampled_from([27, 30, -1, True]),
    discarder=st.sampled_from([None, 28, 29, 5]),
    dealer_streak=st.one_of(st.integers(-1, 101), st.just(2.0)),
    robbing_kong=st.sampled_from([False, True, 0]),
)
hands_built = st.builds(
    Hand,
    rules=st.one_of(st.sampled_from(ruleset_keys()), st.just("riichi")),
    concealed=st.lists(tile_numbers, max_size=17).map(tuple),
    melds=st.lists(melds_built, max_size=5).map(tuple),
    win_tile=st.one_of(st.none(), tile_numbers),
    flowers=st.lists(tile_numbers, max_size=3).map(tuple),
    context=contexts_built,
    options=st.one_of(st.just({}), st.dictionaries(st.text(max_size=3), json_values, max_size=2)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(hands_built)
def test_score_never_raises_for_hand_objects_built_in_python(hand: Hand) -> None:
    _check_score(hand)
    _check_analysis(hand)


def test_hand_objects_of_valid_hands_still_score() -> None:
    for obj in BASE[::10]:
        hand = Hand.from_dict(obj)
        assert score(hand, strict=True).to_dict() == score(obj, strict=True).to_dict()
