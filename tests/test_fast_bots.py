"""The compiled whole-hand analysis the bots ask for (hefen._core:
``shanten_number``, ``useful_kinds``, ``plan_shanten``, ``plan_shantens``)
against the pure-Python references in hefen.analysis.shanten (``_py_*``),
over many generated positions of every ruleset's forms and hand sizes:
hands drawn from a shuffled wall, hands built from sets and a pair and then
broken a few tiles, melds taking copies away, and inputs the C does not read
(handed to the reference).  Skipped, with the reason, when the extension is
not built."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from reference_check import same_as_reference

from hefen.game import bots as B
from hefen.ruleset import find_ruleset

S = importlib.import_module("hefen.analysis.shanten")
BUILT = importlib.util.find_spec("hefen._core") is not None
needs_core = pytest.mark.skipif(
    not BUILT,
    reason="hefen._core is not built (no C compiler at install time?): "
    "run `python setup.py build_ext --inplace` or `pip install -e .` with gcc",
)
Counts = tuple[int, ...]
Position = tuple[Counts, Counts, int, tuple[str, ...], int, bool]


@pytest.fixture(scope="module")
def core() -> ModuleType:
    from hefen import _core

    _core._set_pure_hands(
        S._py_shanten_number,
        S._py_useful_kinds,
        S._py_plan_shanten,
        S._py_plan_shantens,
        S._py_discard_shantens,
    )
    _core._set_pure_hk_value(B._py_hk_value)
    _core._set_pure_bots(
        B._py_hk_discard_values, B._py_discard_ukeire, B._py_best_discards, B._py_unseen_counts
    )
    return _core


def _melds(rng: random.Random, n: int) -> list[int]:
    """The tiles of ``n`` random sets (pungs, chows, kongs)."""
    out: list[int] = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.4:
            s = rng.randrange(3) * 9 + rng.randrange(7)
            out += [s, s + 1, s + 2]
        else:
            t = rng.randrange(34)
            out += [t] * (4 if kind > 0.9 else 3)
    return out


def _positions(rules: str, n: int, seed: int) -> Iterator[Position]:
    r = find_ruleset(rules)
    forms = r.forms
    size = r.concealed_size
    rng = random.Random(seed)
    for i in range(n):
        n_melds = rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) if size == 13 else rng.randrange(6)
        meld_tiles = _melds(rng, n_melds)
        cap = [4] * 34
        for t in meld_tiles:
            cap[t] -= 1
        wall = [t for t in range(34) for _ in range(max(0, cap[t]))]
        rng.shuffle(wall)
        held = size - 3 * n_melds + (i % 2)  # before and after a draw
        if held <= 0:
            continue
        c = [0] * 34
        if i % 3 == 0:
            # near a complete hand: sets and a pair from the wall, a few broken
            pool = list(wall)
            tiles: list[int] = []
            while len(tiles) + 2 <= held and pool:
                t = rng.choice(pool)
                if rng.random() < 0.5 and t < 27 and t % 9 <= 6:
                    chunk = [t, t + 1, t + 2]
                else:
                    chunk = [t] * (3 if len(tiles) + 3 <= held - 2 else 2)
                if all(pool.count(x) >= chunk.count(x) for x in set(chunk)):
                    for x in chunk:
                        pool.remove(x)
                    tiles += chunk
                else:
                    tiles.append(pool.pop())
            while len(tiles) < held and pool:
                tiles.append(pool.pop())
            tiles = tiles[:held]
            for _ in range(rng.randrange(4)):
                if pool and tiles:
                    tiles[rng.randrange(len(tiles))] = pool.pop()
        else:
            tiles = wall[:held]
        for t in tiles:
            c[t] += 1
        yield tuple(c), tuple(cap), n_melds, forms, size, bool(i % 5)


@needs_core
@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_whole_hand_compiled_and_pure(core: ModuleType, rules: str) -> None:
    checked = 0
    for pos in _positions(rules, 4000, seed=len(rules)):
        assert core.shanten_number(*pos) == S._py_shanten_number(*pos), pos
        assert core.useful_kinds(*pos) == S._py_useful_kinds(*pos), pos
        assert core.plan_shanten(*pos) == S._py_plan_shanten(*pos), pos
        assert core.plan_shantens(*pos) == S._py_plan_shantens(*pos), pos
        assert core.discard_shantens(*pos) == S._py_discard_shantens(*pos), pos
        checked += 1
    assert checked > 3000


@needs_core
def test_whole_hand_every_form_set_and_size(core: ModuleType) -> None:
    # forms and sizes the rulesets do not pair up: every subset of the forms,
    # 13 and 16 tiles, caps from none to four and the uncounted cap
    rng = random.Random(17)
    subsets = [tuple(f for k, f in enumerate(S.FORMS) if m >> k & 1) for m in range(32)]
    for i in range(6000):
        forms = subsets[i % 32]
        size = 16 if i % 4 == 0 else 13
        n_melds = rng.randrange(3)
        cap = tuple(rng.choice((4, 4, 4, 3, 2, 1, 0, S._NO_LIMIT)) for _ in range(34))
        c = [0] * 34
        for _ in range(rng.randint(0, size + 1 - 3 * n_melds)):
            c[rng.randrange(34)] += 1
        pos = (tuple(c), cap, n_melds, forms, size, bool(i % 2))
        assert core.shanten_number(*pos) == S._py_shanten_number(*pos), pos
        assert core.useful_kinds(*pos) == S._py_useful_kinds(*pos), pos
        assert core.plan_shanten(*pos) == S._py_plan_shanten(*pos), pos
        assert core.plan_shantens(*pos) == S._py_plan_shantens(*pos), pos
        assert core.discard_shantens(*pos) == S._py_discard_shantens(*pos), pos


def _hk_contexts(rng: random.Random) -> Iterator[B.HkContext]:
    """Contexts of the Hong Kong value layer: tables' minimum and cap, the
    chance per step, the base fan, the sets needed, the flush plans open, the
    honours that score (as StrongBot._hk_context builds them, and beyond)."""
    while True:
        honours = tuple(
            (h, rng.randint(1, 3), rng.random() < 0.2) for h in range(27, 34) if rng.random() < 0.4
        )
        draws = max(1.0, rng.randrange(0, 90) / 4)
        yield (
            rng.choice((0, 1, 3, 3, 3, 5, 8)),
            rng.choice((13, 13, 8, 10, 3)),
            draws / (draws + 6.0),
            float(rng.randint(0, 3)) + rng.choice((0.0, 1.0)),
            rng.randint(0, 4),
            rng.random() < 0.5,
            rng.randrange(8),
            rng.random() < 0.3,
            rng.random() < 0.5,
            rng.random() < 0.5,
            honours,
        )


@needs_core
def test_hk_value_compiled_and_pure(core: ModuleType) -> None:
    # the value layer's payment, float for float, over generated hands and contexts
    rng = random.Random(99)
    contexts = _hk_contexts(rng)
    n = 0
    for pos in _positions("hk", 3000, seed=5):
        ctx = next(contexts)
        got = core.hk_value(*pos, ctx)
        want = B._py_hk_value(*pos, ctx)
        assert got == want and type(got) is float, (pos, ctx, got, want)
        n += 1
    assert n > 2000


@needs_core
@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_every_discard_at_once_compiled_and_pure(core: ModuleType, rules: str) -> None:
    # the batched calls of a discard decision against the pure answer of each
    # discard alone (hk_value and useful_kinds of the hand without it)
    rng = random.Random(len(rules) + 7)
    contexts = _hk_contexts(rng)
    n = 0
    for pos in _positions(rules, 2000, seed=11):
        c = list(pos[0])
        kinds = tuple(t for t in range(34) if c[t] and rng.random() < 0.7)
        unseen = tuple(rng.randint(0, 4) for _ in range(34))
        ctx = next(contexts)
        want_v = []
        want_u = []
        for k in kinds:
            c[k] -= 1
            rest = (tuple(c), *pos[1:])
            want_v.append(B._py_hk_value(*rest, ctx))
            want_u.append(sum(unseen[t] for t in S._py_useful_kinds(*rest)))
            c[k] += 1
        assert core.hk_discard_values(*pos, ctx, kinds) == tuple(want_v), (pos, ctx, kinds)
        assert core.discard_ukeire(*pos, unseen, kinds) == tuple(want_u), (pos, kinds)
        n += bool(kinds)
    assert n > 1000


@needs_core
@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_best_discards_compiled_and_pure(core: ModuleType, rules: str) -> None:
    """best_discards (the strong bot's plain discard in one call) against each
    discard alone: the least shanten over the kinds (S._py_shanten_number of
    the hand without it) and the useful tiles of each that keeps it; and the
    reference, the same."""
    rng = random.Random(len(rules) + 17)
    n = 0
    for pos in _positions(rules, 1500, seed=12):
        c = list(pos[0])
        kinds = tuple(t for t in range(34) if c[t] and rng.random() < 0.8)
        if not kinds:
            continue
        unseen = tuple(rng.randint(0, 4) for _ in range(34))
        sh, uke = {}, {}
        for k in kinds:
            c[k] -= 1
            rest = (tuple(c), *pos[1:])
            sh[k] = S._py_shanten_number(*rest)
            uke[k] = sum(unseen[t] for t in S._py_useful_kinds(*rest))
            c[k] += 1
        best = min(sh.values())
        want = (best, tuple((k, uke[k]) for k in kinds if sh[k] == best))
        assert core.best_discards(*pos, unseen, kinds) == want, (pos, kinds)
        assert B._py_best_discards(*pos, unseen, kinds) == want, (pos, kinds)
        n += 1
    assert n > 1000
    pos = next(_positions(rules, 1, seed=3))
    held = tuple(t for t in range(34) if pos[0][t])
    for kinds in ((), held[:1] * 2, (34,)):  # outside the C: the reference's answer or error
        try:
            ref = B._py_best_discards(*pos, (4,) * 34, kinds)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                core.best_discards(*pos, (4,) * 34, kinds)
            continue
        assert core.best_discards(*pos, (4,) * 34, kinds) == ref


@needs_core
@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_unseen_counts_compiled_and_pure(core: ModuleType, rules: str) -> None:
    """unseen_counts (what a seat cannot see), compiled and pure, for every
    seat at every step of strong bots' hands: rivers with claimed tiles,
    exposed melds and concealed kongs (seen by their owner alone)."""
    from hefen.game import Game, GameSettings, make_bot

    claimed = 0
    for i in range(12):
        game = Game(GameSettings(rules), f"unseen/{i}", dealer=i % 4)
        bots = [make_bot("strong", i * 4 + s) for s in range(4)]
        while game.phase != "end":
            for s in range(4):
                got = core.unseen_counts(game.players, s)
                assert got == B._py_unseen_counts(game.players, s)
                assert len(got) == 34 and min(got) >= 0
            seat = game.to_act()[0]
            game.apply(bots[seat].choose(game, seat))
        claimed += sum(c for p in game.players for _, c in p.discards)
    assert claimed > 0


@needs_core
def test_unseen_counts_outside_the_compiled_domain(core: ModuleType) -> None:
    """Players or melds of another shape go to the reference (its answer or
    its error)."""
    from hefen.game.engine import Player
    from hefen.hand import Meld

    me = Player(concealed=[0, 0, 5], discards=[(9, False), (9, True)])
    other = Player(melds=[Meld.kong(27, concealed=True), Meld.pung(31)])
    want = B._py_unseen_counts([me, other], 0)
    assert core.unseen_counts([me, other], 0) == want
    assert core.unseen_counts([me, other], 1) == B._py_unseen_counts([me, other], 1)
    # a tuple of players, a river of lists, claimed flags as ints: the reference reads them
    assert core.unseen_counts((me, other), 0) == want
    odd = Player(concealed=[0, 0, 5], discards=[[9, 0], (9, 1)])  # type: ignore[list-item]
    assert core.unseen_counts([odd, other], 0) == want
    for args in (([me, other], 2), ([me, 3], 0), ([Player(concealed=[40])], 0)):
        same_as_reference(core.unseen_counts, B._py_unseen_counts, *args)


@needs_core
def test_batches_outside_the_compiled_domain_go_to_the_reference(core: ModuleType) -> None:
    pos = next(_positions("hk", 1, seed=3))
    held = tuple(t for t in range(34) if pos[0][t])
    ctx = next(_hk_contexts(random.Random(2)))
    unseen = (4,) * 34
    for kinds in (held[:1] * 2, [held[0]], (34,), (-1,), (1.0,)):
        for f, g, extra in (
            (core.hk_discard_values, B._py_hk_discard_values, ctx),
            (core.discard_ukeire, B._py_discard_ukeire, unseen),
        ):
            try:
                want = g(*pos, extra, kinds)
            except Exception as e:  # noqa: BLE001
                with pytest.raises(type(e)):
                    f(*pos, extra, kinds)
                continue
            assert f(*pos, extra, kinds) == want
    missing = next(t for t in range(34) if not pos[0][t])
    assert core.discard_ukeire(*pos, unseen, (missing,)) == B._py_discard_ukeire(
        *pos, unseen, (missing,)
    )
    # an unseen vector the C does not read is the reference's (its answer or its error)
    short = unseen[:33]
    try:
        want = B._py_discard_ukeire(*pos, short, held)
    except IndexError:
        with pytest.raises(IndexError):
            core.discard_ukeire(*pos, short, held)
    else:
        assert core.discard_ukeire(*pos, short, held) == want


@needs_core
def test_hk_value_outside_the_compiled_domain_goes_to_the_reference(core: ModuleType) -> None:
    pos = next(_positions("hk", 1, seed=3))
    ctx = next(_hk_contexts(random.Random(1)))
    bad = [
        ctx[:10],
        (3.0, *ctx[1:]),
        (*ctx[:2], 1, *ctx[3:]),
        (*ctx[:3], 2, *ctx[4:]),
        (*ctx[:4], -1, *ctx[5:]),
        (*ctx[:10], [(27, 1, False)]),
        (*ctx[:10], ((27, 1),)),
        (*ctx[:10], ((40, 1, False),)),
    ]
    for c in bad:
        try:
            want = B._py_hk_value(*pos, c)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)):
                core.hk_value(*pos, c)
            continue
        assert core.hk_value(*pos, c) == want


@needs_core
def test_whole_hand_outside_the_compiled_domain_goes_to_the_reference(core: ModuleType) -> None:
    same = same_as_reference

    ok = (1, 1, 1, 2) + (0,) * 23 + (1, 1, 0, 0, 0, 0, 3)
    cap = (4,) * 34
    forms = S.FORMS
    cases: list[tuple[Any, ...]] = [
        (list(ok), cap, 0, forms, 13, True),
        (ok[:33], cap, 0, forms, 13, True),
        ((-1,) + ok[1:], cap, 0, forms, 13, True),
        ((1.0,) + ok[1:], cap, 0, forms, 13, True),
        (ok, cap[:33], 0, forms, 13, True),
        (ok, cap, -1, forms, 13, True),
        (ok, cap, 7, forms, 13, True),
        (ok, cap, 0, ("standard", "chicken"), 13, True),
        (ok, cap, 0, ["standard"], 13, True),
        (ok, cap, 0, (), 13, True),
        (ok, cap, 0, forms, 40, True),
        (ok, cap, 0, forms, 13, None),
        (ok, cap, 0, forms, 13, 2),
        (ok, cap, 0),
        (ok, cap),
    ]
    for args in cases:
        for f, g in (
            (core.shanten_number, S._py_shanten_number),
            (core.useful_kinds, S._py_useful_kinds),
            (core.plan_shanten, S._py_plan_shanten),
            (core.plan_shantens, S._py_plan_shantens),
            (core.discard_shantens, S._py_discard_shantens),
        ):
            same(f, g, *args)
    same(core.shanten_number, S._py_shanten_number, ok, cap, n_melds=1, forms=("standard",))


def test_cached_names_are_the_references() -> None:
    # the cached functions the bots call keep the references' names and text
    for name in ("shanten_number", "useful_kinds", "plan_shanten", "plan_shantens"):
        f = getattr(S, name)
        assert f.__name__ == name
        assert f.__doc__ == getattr(S, "_py_" + name).__doc__
    c = (1, 1, 1, 2) + (0,) * 23 + (1, 1, 0, 0, 0, 0, 3)
    assert S.shanten_number(c, (4,) * 34, 0, S.FORMS, 13, True) == S._py_shanten_number(
        c, (4,) * 34, 0, S.FORMS, 13, True
    )


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_engine_waits_are_the_completeness_test_per_kind(rules: str) -> None:
    # the engine's waits (one completing_tiles call, kept by the tiles) name
    # exactly the kinds, held fewer than four times, whose tile completes the
    # hand (is_complete per kind, the engine's former test)
    from hefen.decompose import is_complete
    from hefen.game import Game, GameSettings

    game = Game(GameSettings(rules), "waits", dealer=0)
    forms = game.ruleset.decompose_forms
    n = 0
    for pos in _positions(rules, 3000, seed=21):
        c, _, n_melds = pos[0], pos[1], pos[2]
        if sum(c) % 3 != 1:
            continue
        concealed = [t for t in range(34) for _ in range(c[t])]
        want = set()
        for t in range(34):
            if c[t] >= 4:
                continue
            more = list(c)
            more[t] += 1
            if is_complete(tuple(more), n_melds, forms):
                want.add(t)
        assert game._wait_set(concealed, n_melds) == want, (concealed, n_melds)
        assert game._wait_set(concealed, n_melds) == want  # from the memo
        if n_melds == len(game.players[0].melds):
            for t in range(34):
                assert game._complete_with(0, concealed, t) == (t in want), (concealed, t)
        n += bool(want)
    assert n > 100


def _played_hands(rules: str, hands: int) -> Iterator[tuple[Any, int]]:
    """(game, seat) at every decision of strong-bot hands of ``rules``."""
    from hefen.game import Game, GameSettings, make_bot

    for i in range(hands):
        game = Game(GameSettings(rules), f"fast-bots/{i}", dealer=i % 4)
        bots = [make_bot("strong", i * 4 + s) for s in range(4)]
        while game.phase != "end":
            seat = game.to_act()[0]
            yield game, seat
            game.apply(bots[seat].choose(game, seat))


def _reference_winning_waits(game: Any, seat: int, tiles: list[int], unseen: list[int]) -> int:
    # the strong bot's winning waits as they were counted before its memo:
    # every completing kind with an unseen copy scored through the game
    concealed = tuple(sorted(tiles))
    other = game.seat_winds[game.next_seat(seat)]
    total = 0
    for t in B._completing(game, seat, B._counts(tiles), unseen):
        if game._score(B._win_hand(game, seat, concealed, t, "discard", other)).winning:
            total += unseen[t]
    return total


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_winning_waits_memo_is_the_scored_count(rules: str) -> None:
    # the strong bot's kept waits and wins (by hand, melds, flowers and
    # declaration) against scoring every wait again, on the ready hands
    # each discard of a played position leaves
    bot = B.StrongBot(0)
    n = 0
    for game, seat in _played_hands(rules, 12):
        p = game.players[seat]
        if game.phase != "discard" or seat != game.turn or p.declared_ready:
            continue
        unseen = bot._unseen(game, seat)
        for t in sorted(set(p.concealed)):
            rest = list(p.concealed)
            rest.remove(t)
            if not game._completing(rest, len(p.melds)):
                continue
            want = _reference_winning_waits(game, seat, rest, unseen)
            assert bot._winning_waits(game, seat, rest, unseen) == want, (rest, t)
            assert bot._winning_waits(game, seat, rest, unseen) == want  # from the memo
            n += want > 0
    assert n > 5


def _variants(hand: Any) -> Iterator[Any]:
    """``hand`` and hands made from it that ``Hand.check`` refuses (or that
    the compiled reader does not read): a tile too many, a fifth copy, a
    meld that is no set, a contradictory context, fields of other types."""
    import dataclasses

    from hefen.hand import Context, Meld

    yield hand
    rep = dataclasses.replace
    yield rep(hand, concealed=(*hand.concealed, hand.concealed[0]))
    yield rep(hand, concealed=tuple(sorted((*hand.concealed[1:], hand.concealed[0]))))
    yield rep(hand, concealed=list(hand.concealed))
    yield rep(hand, concealed=(*hand.concealed[:-1], True))
    yield rep(hand, concealed=(*hand.concealed[:-1], 40))
    yield rep(
        hand, win_tile=hand.concealed[0] if hand.concealed.count(hand.concealed[0]) == 4 else 50
    )
    yield rep(hand, melds=(*hand.melds[:-1], Meld("chow", (0, 1, 3))) if hand.melds else hand.melds)
    yield rep(hand, melds=tuple(Meld(m.kind, m.tiles, 1) for m in hand.melds))  # type: ignore[arg-type]
    yield rep(hand, melds=list(hand.melds))
    yield rep(hand, flowers=(*hand.flowers, 3))
    yield rep(hand, flowers=hand.flowers + hand.flowers[:1])
    ctx = hand.context
    yield rep(hand, context=rep(ctx, robbing_kong=True, win="self_draw"))
    yield rep(hand, context=rep(ctx, kong_replacement=True))
    yield rep(hand, context=rep(ctx, seat_wind=5))
    yield rep(hand, context=rep(ctx, dealer_streak=True))
    yield rep(hand, context=rep(ctx, last_of_kind=1))
    yield rep(hand, context=rep(ctx, declared_ready="soon"))
    yield rep(hand, context=rep(ctx, heavenly=True))
    yield rep(hand, context=Context())
    yield rep(hand, options=[("x", 1)])
    yield rep(hand, options={"no_such_option": 1})


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_engine_scoring_is_score_uncached(rules: str) -> None:
    # the engine's scoring, which skips Hand.check where each part surely
    # passes, against score_uncached (check and score) on the hands the
    # engine and the bots build in play and on faulty hands made from them
    from hefen.game import engine as E
    from hefen.scoring import score_uncached

    built: list[Any] = []
    scored_before = E._score_checked

    def keep(hand: Any) -> Any:
        built.append(hand)
        return scored_before(hand)

    E._score_checked = keep
    B._score_checked = keep
    try:
        for _ in _played_hands(rules, 12):
            pass
    finally:
        E._score_checked = scored_before
        B._score_checked = scored_before
    assert len(built) > 40
    valid = invalid = 0
    for hand in built[::2]:
        for h in _variants(hand):
            got = scored_before(h)
            want = score_uncached(h)
            assert got == want, h
            valid += got.valid
            invalid += not got.valid
    assert valid > 10 and invalid > 100


def test_fast_shuffle_deals_as_random_shuffle() -> None:
    # the deal's shuffle with Random.shuffle's draws written in: the same
    # permutation for every seed and length (and the one in use deals so)
    from hefen.game import engine as E

    for seed in range(400):
        for n in (0, 1, 2, 3, 136, 144):
            a, b, c = list(range(n)), list(range(n)), list(range(n))
            random.Random(f"s{seed}").shuffle(a)
            E._fast_shuffle(random.Random(f"s{seed}"), b)
            E._shuffle(random.Random(f"s{seed}"), c)
            assert a == b == c, (seed, n)
