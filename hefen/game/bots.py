"""Bots that play a seat: each picks one of the seat's legal actions.

A bot only reads what its seat may see: its own tiles and the public table
(rivers, exposed melds, flowers, declared-ready flags, the wall count).

* :class:`SimpleBot` (``"simple"``) — the fast baseline: wins whenever it
  can, never claims a pung or chow, and discards the tile with the fewest
  neighbours in its hand (isolated honours first).
* :class:`StrongBot` (``"strong"``) — hand analysis: discards to the lowest
  shanten (counted by :mod:`hefen.analysis` over every form the ruleset
  allows), then the most unseen useful tiles; when ready, prefers waits that
  are *winning* under the table's rules (MCR's 8 points, HK's minimum fan —
  checked with ``hefen.score``); claims a set only when it brings the hand
  closer; kongs when it costs nothing; declares ready in Taiwan on good
  waits; and against a threatening seat (declared ready, three or more
  exposed sets, or a short wall) it folds a far-off hand by discarding the
  safest tile (that seat's own discards, then tiles with most copies
  visible, suji-like neighbours of its discards, honours already out).
* :class:`ExpertBot` (``"expert"``) — the strong bot with a reading of the
  table (danger per seat, folding against big hands) and, in MCR and
  Taiwan, discards and claims near ready chosen by the chance of a
  *winning* hand (MCR's 8 points), two plies deep; in Hong Kong thirteen
  orphans as a limit plan beside the value plans, and discards weighed by
  money (the hand's expected win against the measured cost of dealing in);
  in Taiwan the chance is weighed against the money a discard risks (what
  each seat has passed is no wait of it), and far hands look two draws on.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

from ..analysis.shanten import (
    COMPILED_HANDS,
    _py_discard_shantens,
    discard_shantens,
    plan_shanten,
    plan_shantens,
    shanten_number,
    useful_kinds,
)
from ..decompose import _CORE, completing_tiles
from ..hand import Context, Hand
from ..tiles import DRAGONS, NUM_KINDS, ORPHANS, WINDS
from .engine import Action, Game, GameSettings, Meld, Player, _act, _score_checked

__all__ = ["Bot", "SimpleBot", "StrongBot", "ExpertBot", "BOTS", "make_bot"]


class Bot(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> Action: ...


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def _completing(game: Game, seat: int, c: list[int], unseen: list[int]) -> Iterator[int]:
    """The kinds with an unseen copy that complete the concealed counts
    ``c`` (one tile short) of ``seat``, in any of the ruleset's forms."""
    # completing_tiles: the kinds held fewer than four times that complete
    # the hand, in order (one call in place of a completeness test per kind)
    n_melds = len(game.players[seat].melds)
    for t in completing_tiles(tuple(c), n_melds, game.ruleset.decompose_forms):
        if unseen[t]:
            yield t


def _discard_shanten(
    shape: _Shape, tiles: list[int], candidates: list[int]
) -> list[tuple[int, int]]:
    """(shanten after discarding t, t) for each distinct candidate ``t``
    (every discard's shanten in one call, :func:`discard_shantens`)."""
    after = shape.discards(_counts(tiles))
    return [(after[t], t) for t in dict.fromkeys(candidates)]  # type: ignore[misc]


def _win_hand(
    game: Game,
    seat: int,
    concealed: tuple[int, ...],
    t: int,
    win: Literal["discard", "self_draw"],
    discarder: int | None,
    streak: int = 0,
) -> Hand:
    """The hand ``seat`` would win with ``t`` (``discarder``: the wind of the
    seat that dealt it in, None for a self-draw)."""
    p = game.players[seat]
    seat_wind, round_wind, dealer = (
        game.seat_winds[seat],
        game.round_wind,
        game.seat_winds[game.dealer],
    )
    # the same few contexts are asked about all game: made once (a frozen
    # value), so that the engine's check of it is made once too
    key = (
        win,
        seat_wind,
        round_wind,
        type(round_wind),
        discarder,
        dealer,
        p.declared_ready,
        streak,
        type(streak),
    )
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        if len(_CONTEXTS) > 1 << 12:
            _CONTEXTS.clear()
        ctx = _CONTEXTS[key] = Context(
            win=win,
            seat_wind=seat_wind,
            round_wind=round_wind,
            discarder=discarder,
            dealer=dealer,
            declared_ready=p.declared_ready,
            dealer_streak=streak,
        )
    return Hand(
        rules=game.rules,
        concealed=concealed,
        melds=tuple(p.melds),
        win_tile=t,
        flowers=tuple(sorted(p.flowers)),
        context=ctx,
        options=dict(game.settings.options),
    )


#: the contexts :func:`_win_hand` made, by what it made them of
_CONTEXTS: dict[tuple[object, ...], Context] = {}


def _neighbour_table(t: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """What :func:`_neighbour_score` adds for ``t`` whatever the hand (1 for
    a suit tile from 2 to 8) and the neighbours it weighs ((kind, weight):
    2 one away, 1 two away, in its suit)."""
    if t >= 27:
        return 0, ()
    r = t % 9
    near = []
    for d, w in ((1, 2), (2, 1)):
        if r - d >= 0:
            near.append((t - d, w))
        if r + d <= 8:
            near.append((t + d, w))
    return (1 if 1 <= r <= 7 else 0), tuple(near)


_NEIGHBOURS = tuple(_neighbour_table(t) for t in range(NUM_KINDS))


def _neighbour_score(c: list[int], t: int) -> int:
    """How useful ``t`` looks in a hand with counts ``c`` (``t`` included):
    three for each other copy, two for each neighbour one away held, one
    for each two away, one for a suit tile from 2 to 8."""
    bonus, near = _NEIGHBOURS[t]
    s = 3 * (c[t] - 1) + bonus
    for k, w in near:
        if c[k] > 0:
            s += w
    return s


@lru_cache(maxsize=1 << 12)
def _cap_of(meld_tiles: tuple[int, ...]) -> tuple[int, ...]:
    """The most copies of each kind the concealed tiles may reach beside
    melds holding ``meld_tiles`` (four minus the copies in them)."""
    cap = [4] * NUM_KINDS
    for t in meld_tiles:
        cap[t] -= 1
    return tuple(cap)


_CAPS: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}


def _cap(melds: Sequence[Meld], extra: tuple[int, ...] = ()) -> tuple[int, ...]:
    """:func:`_cap_of` the tiles of ``melds`` and ``extra`` (kept by the
    melds' tiles: a dict of tuples of ints is cheaper than sorting them)."""
    key = (*(m.tiles for m in melds), extra)
    cap = _CAPS.get(key)
    if cap is None:
        if len(_CAPS) > 1 << 14:
            _CAPS.clear()
        cap = _CAPS[key] = _cap_of(tuple(sorted([t for m in melds for t in m.tiles] + list(extra))))
    return cap


@dataclass(frozen=True, slots=True)
class _Shape:
    """What :mod:`hefen.analysis` needs besides the concealed counts: the
    copies left of each kind, the melds, the ruleset's forms and hand size,
    and whether four alike make two of seven pairs."""

    cap: tuple[int, ...]
    n_melds: int
    forms: tuple[str, ...]
    size: int
    four_pairs: bool

    def shanten(self, counts: list[int]) -> int:
        return shanten_number(
            tuple(counts), self.cap, self.n_melds, self.forms, self.size, self.four_pairs
        )

    def plan(self, counts: list[int]) -> int:
        """The shanten of the tiles a plan keeps (:func:`plan_shanten`)."""
        return plan_shanten(
            tuple(counts), self.cap, self.n_melds, self.forms, self.size, self.four_pairs
        )

    def discards(self, counts: list[int]) -> tuple[int | None, ...]:
        """:func:`discard_shantens`: for each kind held, the shanten of the
        hand without one of it."""
        return discard_shantens(
            tuple(counts), self.cap, self.n_melds, self.forms, self.size, self.four_pairs
        )

    def plans(self, counts: list[int]) -> tuple[int, ...]:
        """:func:`plan_shantens`: the plan shanten of the hand, of its half
        and full flush of each suit, and the shanten of seven pairs alone."""
        return plan_shantens(
            tuple(counts), self.cap, self.n_melds, self.forms, self.size, self.four_pairs
        )

    def useful(self, counts: list[int]) -> tuple[int, ...]:
        return useful_kinds(
            tuple(counts), self.cap, self.n_melds, self.forms, self.size, self.four_pairs
        )


#: the shapes made, by their fields (shared by every bot: a shape is a value)
_SHAPES: dict[tuple[tuple[int, ...], int, tuple[str, ...], int, bool], _Shape] = {}


def _flower_fan(flowers: list[int], seat_wind: int) -> int:
    """The Hong Kong bonus fan of a seat's flowers (defaults: a full set of
    four scores 2 in place of the own one inside it; none at all scores 1)."""
    if not flowers:
        return 1
    seat = WINDS.index(seat_wind)
    fan = 0
    for first in (34, 38):
        if all(first + i in flowers for i in range(4)):
            fan += 2
        elif first + seat in flowers:
            fan += 1
    return fan


def _hk_payoff(fan: float, min_fan: int, cap: int) -> float:
    """The expected payment of a Hong Kong win worth ``fan`` on a discard
    (a self-draw adds Self-Drawn's fan and is paid by all three): 0 for a
    hand that stays below the table's minimum either way."""
    value = 0.0
    if fan >= min_fan:
        value += 0.55 * 2 ** min(fan, cap)
    if fan + 1 >= min_fan:
        value += 0.45 * 1.5 * 2 ** min(fan + 1, cap)
    return value


def _pung_shanten(c: Sequence[int], need: int) -> int:
    """Shanten towards ``need`` pungs and a pair from the concealed counts."""
    pungs = sum(1 for n in c if n >= 3)
    pairs = sum(1 for n in c if n == 2)
    m = min(pungs, need)
    p = 1 if pairs else 0
    t = min(pairs - p, need - m)
    return 2 * need - 2 * m - t - p


#: what :func:`hk_value` reads besides the hand: min_fan, cap, the chance
#: per step, the base fan, the sets still needed, whether a set is exposed,
#: the suits a flush may still take (a bit each), whether an honour set is
#: declared, whether no chow is, whether seven pairs is open, and the
#: honours that score ((kind, fan, already a declared pung), ...)
HkContext = tuple[
    int, int, float, float, int, bool, int, bool, bool, bool, tuple[tuple[int, int, bool], ...]
]


def _py_hk_value(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    four_pairs: bool,
    ctx: HkContext,
) -> float:
    """The expected payment of a Hong Kong hand (``StrongBot._hk_ev``):
    the best over its plans of the win chance of the plan's shanten
    (:func:`plan_shantens`; all pungs by :func:`_pung_shanten`) times
    :func:`_hk_payoff` of the plan's fan.  The reference of the compiled
    ``hefen._core.hk_value``."""
    (
        min_fan,
        fan_cap,
        q,
        base,
        need,
        exposed,
        open_suits,
        honour_melds,
        pungs_ok,
        seven_ok,
        honours,
    ) = ctx
    honour = 0.0
    for h, w, melded in honours:
        if melded or counts[h] >= 3:
            honour += w
        elif counts[h] == 2:
            honour += 0.5 * w

    def ev(sh: int, fan: float, pace: float = 1.0) -> float:
        # pace: how much slower the plan's useful tiles come than any tile's
        return (q * pace) ** max(0, sh + 1) * _hk_payoff(fan, min_fan, fan_cap)

    plans = plan_shantens(counts, cap, n_melds, forms, size, four_pairs)
    best = ev(plans[0], base + honour)
    for suit in range(3):
        if not open_suits >> suit & 1:
            continue
        best = max(best, ev(plans[1 + suit], base + honour + 3, 0.85))
        if not honour_melds:
            best = max(best, ev(plans[4 + suit], base + 7, 0.65))
    if pungs_ok:
        fan = float(fan_cap) - 1 if not exposed else base + honour + 3
        best = max(best, ev(_pung_shanten(counts, need), fan, 0.7 if exposed else 0.5))
    if seven_ok:
        best = max(best, ev(plans[7], base + 4, 0.6))
    return best


def _py_hk_discard_values(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    four_pairs: bool,
    ctx: HkContext,
    kinds: tuple[int, ...],
) -> tuple[float, ...]:
    """:func:`hk_value` of the hand without one of each of ``kinds`` (every
    discard's value in one call); the reference of
    ``hefen._core.hk_discard_values``."""
    c = list(counts)
    out = []
    for k in kinds:
        c[k] -= 1
        out.append(hk_value(tuple(c), cap, n_melds, forms, size, four_pairs, ctx))
        c[k] += 1
    return tuple(out)


def _py_discard_ukeire(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    four_pairs: bool,
    unseen: tuple[int, ...],
    kinds: tuple[int, ...],
) -> tuple[int, ...]:
    """For each of ``kinds``, the unseen copies of the :func:`useful_kinds`
    of the hand without one of it (every discard's useful tiles in one
    call); the reference of ``hefen._core.discard_ukeire``."""
    c = list(counts)
    out = []
    for k in kinds:
        c[k] -= 1
        useful = useful_kinds(tuple(c), cap, n_melds, forms, size, four_pairs)
        out.append(sum(unseen[t] for t in useful))
        c[k] += 1
    return tuple(out)


def _py_best_discards(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    four_pairs: bool,
    unseen: tuple[int, ...],
    kinds: tuple[int, ...],
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The least shanten of the hand without one of any of ``kinds``
    (distinct kinds held, at least one), and ``(kind, unseen useful tiles)``
    for each of ``kinds`` that keeps it, in their order: what
    :func:`discard_shantens` and :func:`_py_discard_ukeire` of those answer;
    the reference of ``hefen._core.best_discards``."""
    after = _py_discard_shantens(counts, cap, n_melds, forms, size, four_pairs)
    best = min(after[t] for t in kinds)  # type: ignore[type-var]
    keep = tuple(t for t in kinds if after[t] == best)
    ukes = _py_discard_ukeire(counts, cap, n_melds, forms, size, four_pairs, unseen, keep)
    return best, tuple(zip(keep, ukes, strict=True))  # type: ignore[return-value]


def _py_unseen_counts(players: Sequence[Player], seat: int) -> list[int]:
    """The copies of each kind that ``seat`` cannot see: four, less its own
    concealed tiles and kongs, every river's unclaimed tiles and every
    exposed meld (none below 0); the reference of
    ``hefen._core.unseen_counts``.

    >>> me = Player(concealed=[0, 0, 5], discards=[(9, False), (9, True)])
    >>> other = Player(melds=[Meld.kong(27, concealed=True), Meld.pung(31)])
    >>> u = _py_unseen_counts([me, other], 0)
    >>> u[0], u[5], u[9], u[27], u[31]
    (2, 3, 3, 4, 1)
    """
    unseen = [4] * NUM_KINDS
    for t in players[seat].concealed:
        unseen[t] -= 1
    for s, p in enumerate(players):
        for t, claimed in p.discards:
            if not claimed:
                unseen[t] -= 1
        for m in p.melds:
            if not m.concealed or s == seat:
                for t in m.tiles:
                    unseen[t] -= 1
            # a concealed kong of another seat shows nothing
    return [n if n > 0 else 0 for n in unseen]


# compiled (hefen._core) where the whole-hand analysis is; the Python above
# stays as the reference, and answers what the C does not read
hk_value: Callable[..., float] = _py_hk_value
hk_discard_values: Callable[..., tuple[float, ...]] = _py_hk_discard_values
discard_ukeire: Callable[..., tuple[int, ...]] = _py_discard_ukeire
best_discards: Callable[..., tuple[int, tuple[tuple[int, int], ...]]] = _py_best_discards
unseen_counts: Callable[[Sequence[Player], int], list[int]] = _py_unseen_counts
if _CORE is not None and COMPILED_HANDS and hasattr(_CORE, "discard_ukeire"):
    _CORE._set_pure_hk_value(_py_hk_value)
    _CORE._set_pure_bots(
        _py_hk_discard_values, _py_discard_ukeire, _py_best_discards, _py_unseen_counts
    )
    hk_value = _CORE.hk_value
    hk_discard_values = _CORE.hk_discard_values
    discard_ukeire = _CORE.discard_ukeire
    best_discards = _CORE.best_discards
    unseen_counts = _CORE.unseen_counts


class SimpleBot:
    """The fast baseline."""

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        for a in legal:
            if a.kind == "win":
                return a
        if game.phase != "discard":
            return next(a for a in legal if a.kind == "pass")
        for a in legal:
            if a.kind == "kong" and game.players[seat].concealed.count(a.tile or 0) == 4:
                return a
        discards = [a for a in legal if a.kind == "discard"]
        c = _counts(game.players[seat].concealed)
        return min(discards, key=lambda a: (_neighbour_score(c, a.tile or 0), -(a.tile or 0)))


class StrongBot:
    """Shanten, useful tiles, hand value and defence; the shanten and the
    useful tiles are :mod:`hefen.analysis`'s (:func:`shanten_number`,
    :func:`useful_kinds`), over the ruleset's forms with copies capped at
    four. ``exact`` is accepted for callers of old: the one count is exact."""

    name = "strong"

    #: never break a ready hand whose wait already wins (off: the old play,
    #: kept for measuring the change, bench/ready_breaks.py)
    keep_ready: bool = True
    #: how many unseen winning tiles a wait needs before 天聽/地聽 is declared
    ready_waits: int = 4

    def __init__(self, seed: int = 0, exact: bool = False) -> None:
        self.rng = random.Random(seed)
        self.exact = exact
        #: the settings last seen and whether four alike make two of seven pairs there
        self._four: tuple[GameSettings, bool] | None = None
        #: the shapes asked for under those settings, by the tiles of the melds
        #: and ``extra`` they were made for
        self._by_melds: dict[tuple[tuple[int, ...], ...], _Shape] = {}
        #: the last :meth:`_hk_context`: (melds, key, shape, context)
        self._hk_memo: tuple[list[Meld], tuple[object, ...], _Shape, HkContext] | None = None
        #: :meth:`_winning_waits`' memo for the game last asked about: by the
        #: hand (its seat, tiles, melds, flowers, declaration), its completing
        #: kinds and whether a discard win on each scores as winning
        self._wins_memo: (
            tuple[Game, dict[tuple[object, ...], tuple[tuple[int, ...], dict[int, bool]]]] | None
        ) = None

    # -- what the seat can see
    def _unseen(self, game: Game, seat: int) -> list[int]:
        """The copies of each kind ``seat`` cannot see (:func:`unseen_counts`)."""
        return unseen_counts(game.players, seat)

    def _shape(self, game: Game, melds: list[Meld], extra: tuple[int, ...] = ()) -> _Shape:
        """How the analysis counts a hand beside ``melds`` (and a meld of
        the tiles ``extra`` about to be claimed) under the game's ruleset."""
        settings = game.settings
        if self._four is None or self._four[0] is not settings:
            r = game.ruleset
            self._four = (settings, r.four_alike_in_seven_pairs(settings.options))
            self._by_melds = {}
        # by the melds' tiles first (what the shape is made of), without
        # hashing the 34 caps each time
        tiles_key = (*[m.tiles for m in melds], extra) if melds else (extra,)
        shape = self._by_melds.get(tiles_key)
        if shape is not None:
            return shape
        r = game.ruleset
        key = (
            _cap(melds, extra),
            len(melds) + (1 if extra else 0),
            r.forms,
            r.concealed_size,
            self._four[1],
        )
        shape = _SHAPES.get(key)
        if shape is None:
            if len(_SHAPES) > 1 << 14:
                _SHAPES.clear()
            shape = _SHAPES[key] = _Shape(*key)
        if len(self._by_melds) > 1 << 12:
            self._by_melds.clear()
        self._by_melds[tiles_key] = shape
        return shape

    def _count(
        self, game: Game, counts: list[int], melds: list[Meld], extra: tuple[int, ...] = ()
    ) -> int:
        """The shanten of concealed ``counts`` beside ``melds`` (and ``extra``,
        as in :meth:`_shape`)."""
        return self._shape(game, melds, extra).shanten(counts)

    def _shanten(self, game: Game, seat: int, tiles: list[int], extra: tuple[int, ...] = ()) -> int:
        """The shanten of ``tiles`` held by ``seat`` (``extra``: the tiles of a
        meld it is about to declare, as in :meth:`_shape`)."""
        return self._count(game, _counts(tiles), game.players[seat].melds, extra)

    def _ukeire(self, game: Game, seat: int, tiles: list[int], unseen: list[int]) -> int:
        """Unseen copies of the tiles whose draw lowers the shanten of ``tiles``."""
        useful = self._shape(game, game.players[seat].melds).useful(_counts(tiles))
        return sum(unseen[t] for t in useful)

    def _winning_waits(self, game: Game, seat: int, tiles: list[int], unseen: list[int]) -> int:
        """Unseen copies of the tiles that complete ``tiles`` into a *winning*
        hand (scored on a discard, the harder case for a minimum)."""
        concealed = tuple(sorted(tiles))
        p = game.players[seat]
        memo = self._wins_memo
        if memo is None or memo[0] is not game:
            memo = self._wins_memo = (game, {})
        # what the answer depends on besides ``unseen``: the hand, its melds,
        # flowers and declaration (the seat winds and options are the game's)
        key = (seat, concealed, tuple(p.melds), tuple(p.flowers), p.declared_ready)
        known = memo[1].get(key)
        if known is None:
            c = _counts(tiles)
            waits = completing_tiles(tuple(c), len(p.melds), game.ruleset.decompose_forms)
            known = memo[1][key] = (waits, {})
        waits, won = known
        total = 0
        for t in waits:
            if unseen[t]:
                w = won.get(t)
                if w is None:
                    # not asked before: scored as Game._score would (its cache
                    # holds the same answer for the same hand; none is kept)
                    other = game.seat_winds[game.next_seat(seat)]
                    hand = _win_hand(game, seat, concealed, t, "discard", other)
                    w = won[t] = _score_checked(hand).winning
                if w:
                    total += unseen[t]
        return total

    def _threats(self, game: Game, seat: int) -> list[int]:
        out = []
        for s in game._after[seat]:
            p = game.players[s]
            if p.declared_ready:
                out.append(s)
            elif len(p.melds) >= 2:  # fewer: nothing exposed enough
                exposed = sum(1 for m in p.melds if not m.concealed)
                if exposed >= 3 or (exposed >= 2 and game.wall_remaining < 30):
                    out.append(s)
        return out

    def _fold(self, game: Game, seat: int, threats: list[int], best_sh: int) -> bool:
        """Whether to give up the hand and discard the safest tile."""
        return bool(threats) and best_sh >= 2

    def _danger(self, game: Game, threats: list[int], t: int, unseen: list[int]) -> float:
        danger = 0.0
        for s in threats:
            river = {x for x, _ in game.players[s].discards}
            if t in river:
                continue  # genbutsu: rarely kept as a wait
            d = 1.0 + unseen[t] / 4
            if t < 27:
                r = t % 9
                suji = [t - 3] if r >= 3 else []
                suji += [t + 3] if r <= 5 else []
                if suji and all(x in river for x in suji):
                    d *= 0.4
                if r in (0, 8):
                    d *= 0.7
            else:
                d *= 0.3 + 0.2 * unseen[t]
            danger += d
        return danger

    # -- Hong Kong: hand value
    def _hk_ev(self, game: Game, seat: int, c: list[int], melds: list[Meld]) -> float:
        """The expected payment of a Hong Kong hand (concealed counts ``c``
        before a draw, declared ``melds``): over the plans it may follow —
        as it stands, a half or full flush, all pungs (four concealed pungs
        while nothing is exposed), seven pairs — the win probability of the
        plan's shanten times :func:`_hk_payoff` of its fan
        (:func:`hk_value`, with what does not depend on ``c`` read once
        by :meth:`_hk_context`)."""
        shape, ctx = self._hk_context(game, seat, melds)
        return hk_value(
            tuple(c), shape.cap, shape.n_melds, shape.forms, shape.size, shape.four_pairs, ctx
        )

    def _hk_evs(
        self, game: Game, seat: int, c: list[int], melds: list[Meld], kinds: list[int]
    ) -> tuple[float, ...]:
        """:meth:`_hk_ev` of the counts ``c`` without one of each of
        ``kinds`` (distinct kinds ``c`` holds), in one call
        (:func:`hk_discard_values`)."""
        shape, ctx = self._hk_context(game, seat, melds)
        return hk_discard_values(
            tuple(c),
            shape.cap,
            shape.n_melds,
            shape.forms,
            shape.size,
            shape.four_pairs,
            ctx,
            tuple(kinds),
        )

    def _ukeires(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        kinds: list[int],
        unseen: list[int],
        shape: _Shape | None = None,
    ) -> dict[int, int]:
        """:meth:`_ukeire` of ``tiles`` without one of each of ``kinds``
        (distinct kinds held), in one call (:func:`discard_ukeire`);
        ``shape``: the seat's (:meth:`_shape` of its melds), where known."""
        if not kinds:
            return {}
        if shape is None:
            shape = self._shape(game, game.players[seat].melds)
        got = discard_ukeire(
            tuple(_counts(tiles)),
            shape.cap,
            shape.n_melds,
            shape.forms,
            shape.size,
            shape.four_pairs,
            tuple(unseen),
            tuple(kinds),
        )
        return dict(zip(kinds, got, strict=True))

    def _hk_context(self, game: Game, seat: int, melds: list[Meld]) -> tuple[_Shape, HkContext]:
        """What :meth:`_hk_ev` reads of the table besides the concealed
        counts: the shape, the table's minimum and cap, the flowers' and
        concealed hand's fan, the honours that count, the chance per step,
        which flush plans the melds leave open (kept while the same melds,
        wall and flowers are asked about again)."""
        p = game.players[seat]
        key = (game, seat, len(melds), game.wall_remaining, len(p.flowers))
        memo = self._hk_memo
        if memo is not None and memo[0] is melds and memo[1] == key:
            return memo[2], memo[3]
        opts = game.settings.options
        min_fan = int(opts.get("min_fan", 3))
        cap = int(opts.get("cap", 13))
        seat_wind, round_wind = game.seat_winds[seat], game.round_wind
        need = game.settings.sets - len(melds)
        exposed = any(not m.concealed for m in melds)
        base = float(_flower_fan(p.flowers, seat_wind)) + (0.0 if exposed else 1.0)
        meld_pungs = {m.tiles[0] for m in melds if m.kind != "chow"}
        honours = []
        for h in (*DRAGONS, *WINDS):
            w = (h in DRAGONS) + (h == seat_wind) + (h == round_wind)
            if w:
                honours.append((h, w, h in meld_pungs))
        draws = max(1.0, game.wall_remaining / 4)
        q = draws / (draws + 6.0)
        suits = {m.tiles[0] // 9 for m in melds if m.tiles[0] < 27}
        open_suits = sum(1 << suit for suit in range(3) if not suits - {suit})
        ctx: HkContext = (
            min_fan,
            cap,
            q,
            base,
            need,
            exposed,
            open_suits,
            any(m.tiles[0] >= 27 for m in melds),
            all(m.kind != "chow" for m in melds),
            not melds and "seven_pairs" in game.ruleset.forms,
            tuple(honours),
        )
        shape = self._shape(game, melds)
        self._hk_memo = (melds, key, shape, ctx)
        return shape, ctx

    # -- decisions
    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        for a in legal:
            if a.kind == "win":
                return a
        if len(legal) == 1:
            return legal[0]
        if game.phase == "declare":
            return (
                legal[0] if self._good_wait(game, seat, game.players[seat].concealed) else legal[1]
            )
        if game.phase != "discard":
            return self._respond(game, seat, legal)
        return self._turn(game, seat, legal)

    def _good_wait(self, game: Game, seat: int, tiles: list[int]) -> bool:
        return self._winning_waits(game, seat, tiles, self._unseen(game, seat)) >= self.ready_waits

    def _ready_keeps(
        self, game: Game, seat: int, tiles: list[int], scored: list[tuple[int, int]]
    ) -> dict[int, int]:
        """The discards that keep a ready hand whose wait wins (meets the
        table's minimum), with their unseen winning tiles; empty unless one
        has two or more."""
        if not self.keep_ready:
            return {}
        unseen = self._unseen(game, seat)
        out: dict[int, int] = {}
        for sh, t in scored:
            if sh != 0:
                continue
            rest = list(tiles)
            rest.remove(t)
            n = self._winning_waits(game, seat, rest, unseen)
            if n > 0:
                out[t] = n
        return out if out and max(out.values()) >= 2 else {}

    def _best_discard(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        candidates: list[int],
        melds: list[Meld],
    ) -> tuple[int, tuple[float, ...]]:
        """The discard to make from ``tiles`` (``melds`` declared). In Hong
        Kong the hand's expected value (:meth:`_hk_ev`) comes first, then the
        shanten, winning waits, useful tiles and danger as elsewhere."""
        unseen = self._unseen(game, seat)
        threats = self._threats(game, seat)
        n_melds = len(melds)
        hk = game.ruleset.plays_for_value
        shape = self._shape(game, melds)
        if not hk and candidates and melds is game.players[seat].melds:
            # the plain case with the seat's own melds: the least shanten and
            # the useful tiles of the discards that keep it, in one call
            # (what the lines below find, when they do not fold)
            best_sh, at_best = best_discards(
                tuple(_counts(tiles)),
                shape.cap,
                shape.n_melds,
                shape.forms,
                shape.size,
                shape.four_pairs,
                tuple(unseen),
                tuple(dict.fromkeys(candidates)),
            )
            if not self._fold(game, seat, threats, best_sh):
                return self._best_kept(
                    game,
                    seat,
                    tiles,
                    [(best_sh, t) for t, _ in at_best],
                    best_sh,
                    threats,
                    unseen,
                    True,
                    shape,
                    dict(at_best),
                )
        scored = _discard_shanten(shape, tiles, candidates)
        best_sh = min(scored)[0]
        fold = self._fold(game, seat, threats, best_sh)
        out: list[tuple[tuple[float, ...], int]] = []
        bins: dict[int, float] = {}
        own_melds = n_melds == len(game.players[seat].melds)
        if hk and not fold and own_melds:
            # a ready hand that already wins enough stays ready: the value
            # plans choose only among the discards that keep it
            keeps = self._ready_keeps(game, seat, tiles, scored)
            if keeps:
                scored = [(sh, t) for sh, t in scored if t in keeps]
        if hk and not fold:
            # the expected value first: only the best candidates go further
            evs = self._hk_evs(game, seat, _counts(tiles), melds, [t for _, t in scored])
            for (_, t), ev in zip(scored, evs, strict=True):
                bins[t] = -round(math.log2(ev + 1e-6) * 4)
            top = min(bins.values())
            scored = [(sh, t) for sh, t in scored if bins[t] == top]
        kept = [
            (sh, t)
            for sh, t in scored
            if not (sh > best_sh + (1 if threats else 0) and (fold or not hk))
        ]
        if not hk and not fold:
            # the seat's own shape, where the melds are its own
            own = shape if melds is game.players[seat].melds else None
            return self._best_kept(
                game, seat, tiles, kept, best_sh, threats, unseen, own_melds, own
            )
        # from here: a fold, or Hong Kong's value bins first; the useful
        # tiles of every kept discard (none when folding), in one call
        ukes = {} if fold else self._ukeires(game, seat, tiles, [t for _, t in kept], unseen)
        for sh, t in kept:
            # no threat, no danger (what _danger answers then, unread)
            danger = self._danger(game, threats, t, unseen) if threats else 0.0
            key: tuple[float, ...]
            if fold:
                key = (danger, float(sh), 0.0)  # fold: safety first
                out.append((key, t))
                continue
            value = 0.0
            if sh == 0 and own_melds:
                rest = list(tiles)
                rest.remove(t)
                value = -float(self._winning_waits(game, seat, rest, unseen))
            key = (bins[t], float(sh), value, -ukes[t] + danger * 2)
            out.append((key, t))
        best_key, tile = min(out, key=lambda x: (x[0], -x[1]))
        return tile, best_key

    def _best_kept(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        kept: list[tuple[int, int]],
        best_sh: int,
        threats: list[int],
        unseen: list[int],
        own_melds: bool,
        shape: _Shape | None = None,
        ukes: dict[int, int] | None = None,
    ) -> tuple[int, tuple[float, ...]]:
        """:meth:`_best_discard`'s choice among ``kept`` where the hand is
        played for the win alone (no value layer, no fold): the least
        ``(shanten, -winning waits, -useful tiles + 2 * danger)``, then the
        highest tile.  Only a discard of the least shanten can be least, and
        among those only one of the most winning waits: the useful tiles and
        the danger are counted for those alone (the same choice and key as
        counting every discard's); ``ukes``: the useful tiles of each of
        those, where already counted (:func:`best_discards`)."""
        cands = [t for sh, t in kept if sh == best_sh]
        values = dict.fromkeys(cands, 0.0)
        if best_sh == 0 and own_melds:
            for t in cands:
                rest = list(tiles)
                rest.remove(t)
                values[t] = -float(self._winning_waits(game, seat, rest, unseen))
            top = min(values.values())
            cands = [t for t in cands if values[t] == top]
        if ukes is None:
            ukes = self._ukeires(game, seat, tiles, cands, unseen, shape)
        if not threats:
            # no danger: the values left are equal, so the most useful
            # tiles, then the highest tile (the same choice and key)
            tile = max(cands, key=lambda t: (ukes[t], t))
            return tile, (float(best_sh), values[tile], -ukes[tile] + 0.0)
        out: list[tuple[tuple[float, ...], int]] = []
        for t in cands:
            danger = self._danger(game, threats, t, unseen)
            out.append(((float(best_sh), values[t], -ukes[t] + danger * 2), t))
        best_key, tile = min(out, key=lambda x: (x[0], -x[1]))
        return tile, best_key

    def _turn(self, game: Game, seat: int, legal: list[Action]) -> Action:
        p = game.players[seat]
        tiles = list(p.concealed)
        discards = [a.tile for a in legal if a.kind == "discard" and a.tile is not None]
        base: int | None = None  # the hand's shanten, counted only where a kong is offered
        for a in legal:
            if a.kind == "kong" and a.tile is not None:
                if tiles.count(a.tile) < 4:
                    return a  # an added kong: a free extra tile
                if base is None:
                    base = self._shanten(game, seat, tiles)
                rest = [x for x in tiles if x != a.tile]
                if self._shanten(game, seat, rest, (a.tile,) * 4) <= base:
                    return a
        tile, _ = self._best_discard(game, seat, tiles, discards, p.melds)
        ready = [a for a in legal if a.kind == "ready" and a.tile == tile]
        if ready:
            rest = list(tiles)
            rest.remove(tile)
            if self._good_wait(game, seat, rest):
                return ready[0]
        return _act(seat, "discard", tile)

    def _respond(self, game: Game, seat: int, legal: list[Action]) -> Action:
        p = game.players[seat]
        passing = next(a for a in legal if a.kind == "pass")
        if game.phase != "respond" or game.last_discard is None:
            return passing
        tile = game.last_discard[1]
        base = self._shanten(game, seat, p.concealed)
        if self._threats(game, seat) and base >= 2:
            return passing
        if game.ruleset.plays_for_value:
            return self._hk_respond(game, seat, legal, passing, tile)
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.kind in ("pung", "kong", "chow") and a.tile is not None:
                rest = list(p.concealed)
                if a.kind == "chow":
                    used = [x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile]
                else:
                    used = [tile] * (3 if a.kind == "kong" else 2)
                for x in used:
                    rest.remove(x)
                meld = (*used, tile)
                if a.kind == "kong":
                    sh = self._shanten(game, seat, rest, meld)
                    if sh <= base and (best is None or sh < best[0]):
                        best = (sh, a)
                    continue
                after = self._shape(game, p.melds, meld).discards(_counts(rest))
                sh = min([after[x] for x in set(rest)])  # type: ignore[type-var, assignment]  # held: never None
                if sh < base and (best is None or sh < best[0]):
                    best = (sh, a)
        return best[1] if best is not None else passing

    def _hk_respond(
        self, game: Game, seat: int, legal: list[Action], passing: Action, tile: int
    ) -> Action:
        """Hong Kong: claim only when the hand's expected value after the
        claim and the best discard beats keeping it (a claim that leaves the
        hand below the table minimum, or gives up a concealed or flush plan,
        is worth less than it saves)."""
        p = game.players[seat]
        keep = self._hk_ev(game, seat, _counts(p.concealed), p.melds)
        best: tuple[float, Action] | None = None
        for a in legal:
            if a.kind not in ("pung", "kong", "chow") or a.tile is None:
                continue
            rest = list(p.concealed)
            if a.kind == "chow":
                used = [x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile]
                meld = Meld.chow(a.tile)
            else:
                used = [tile] * (3 if a.kind == "kong" else 2)
                meld = Meld("kong" if a.kind == "kong" else "pung", (tile,) * (len(used) + 1))
            for x in used:
                rest.remove(x)
            melds = [*p.melds, meld]
            if a.kind == "kong":
                ev = self._hk_ev(game, seat, _counts(rest), melds)
            else:
                ev = 0.0
                for v in self._hk_evs(game, seat, _counts(rest), melds, list(set(rest))):
                    ev = max(ev, v)
            if ev > 1.2 * keep and (best is None or ev > best[0]):
                best = (ev, a)
        return best[1] if best is not None else passing


def _flush_suit(game: Game, s: int) -> int | None:
    """The suit (0–2) of a seat whose exposed sets, two or more, are all of
    one suit or honours: a flush in the making; ``None`` otherwise."""
    exposed = [m for m in game.players[s].melds if not m.concealed]
    suits = {m.tiles[0] // 9 for m in exposed if m.tiles[0] < 27}
    if len(exposed) >= 2 and len(suits) == 1:
        return next(iter(suits))
    return None


#: Hong Kong: the chance a middle suit tile (3–7, a copy unseen) discarded
#: by a strong bot wins for one given concealed seat, by the wall left in
#: tens (0–9, 10–19, …); fitted on strong bots' play (3000 hands, seeds
#: 0–2999 of ``margin/N``), with its river, the copies in sight and the
#: tile's rank as factors (:meth:`ExpertBot._hk_deal_in`)
_HK_DEAL_IN = (0.0206, 0.0170, 0.0126, 0.0086, 0.0062, 0.0035, 0.0014, 0.0004, 0.0)
#: what a discard win takes from its discarder, by the wall left in tens
#: (the mean measured with it, limit hands included, smoothed)
_HK_PAYMENT = (45.0, 45.0, 40.0, 30.0, 25.0, 22.0, 15.0, 12.0, 12.0)

#: Hong Kong: the money a strong bot's seat goes on to win from a hand by
#: its shanten (0 ready, 1, 2, 3) and the wall left in twenties (0–19,
#: 20–39, …): measured on strong bots' play (600 hands, limit hands
#: weighed in), smoothed and made to fall with the shanten
_HK_OWN = (
    (7.0, 1.0, 0.2, 0.0),
    (15.0, 3.5, 1.5, 0.2),
    (15.0, 7.0, 4.0, 0.6),
    (16.0, 9.5, 5.5, 3.0),
    (16.0, 9.5, 5.5, 3.0),
)
#: Taiwan: the share of strong-bot seats that are ready after their own
#: discard, by discards made (rows: 0–2, 3–5, …, 15 and on) and sets
#: exposed (columns: 0–3; four exposed is nearly always ready), measured
#: on 150 strong-bot hands (seeds margin/0–149)
_TW_READY = (
    (0.0, 0.0, 0.0, 0.0),
    (0.02, 0.04, 0.06, 0.12),
    (0.11, 0.16, 0.23, 0.45),
    (0.17, 0.34, 0.48, 0.67),
    (0.18, 0.33, 0.60, 0.74),
    (0.20, 0.35, 0.70, 0.75),
)
#: Taiwan: the mean number of kinds a ready hand waits on (1.55 measured
#: on the same hands: one kind half the time, two nearly as often)
_TW_WAIT_KINDS = 1.55


def _honour_fan(game: Game, s: int, melds: Sequence[Meld]) -> int:
    """What seat ``s``'s honour pungs and kongs among ``melds`` count: one
    for each dragon, one for its own wind and one for the round wind."""
    wind = game.seat_winds[s]
    fan = 0
    for m in melds:
        h = m.tiles[0]
        if m.kind != "chow" and h >= 27:
            fan += (h in DRAGONS) + (h == wind) + (h == game.round_wind)
    return fan


def _wait_weight(t: int, river: set[int], unseen: int, suit: int | None, first: float) -> float:
    """How likely a seat is to wait on ``t``, against its other kinds: more
    with more copies unseen (``unseen``), times ``first``, less where the
    tiles three away are in its ``river`` (suji-like) and for terminals,
    honours by the copies left; a flush in the making (``suit``) makes its
    suit and honours likelier, the other suits much less."""
    d = 1.0 + unseen / 4
    d *= first
    if t < 27:
        r = t % 9
        sides = [x for x in (t - 3 if r >= 3 else -1, t + 3 if r <= 5 else -1) if x >= 0]
        if sides and all(x in river for x in sides):
            d *= 0.35
        elif any(x in river for x in sides):
            d *= 0.7
        if r in (0, 8):
            d *= 0.7
    else:
        d *= 0.25 + 0.2 * unseen
    if suit is not None:
        if t >= 27:
            d *= 1.5
        elif t // 9 == suit:
            d *= 2.5
        else:
            d *= 0.2
    return d


def _tw_flush(game: Game, s: int) -> int | None:
    """:func:`_flush_suit` of seat ``s`` where its river bears it out: at
    most one discard of that suit (a seat throwing the suit is not making
    its flush)."""
    suit = _flush_suit(game, s)
    if suit is None:
        return None
    thrown = sum(1 for t, _ in game.players[s].discards if t < 27 and t // 9 == suit)
    return suit if thrown <= 1 else None


def _tw_rules(game: Game) -> bool:
    """Whether the table plays the Taiwanese rules the expert's Taiwanese
    play is made for: a win on any discard at any value (no table minimum,
    no value doubling), the dealer's tai on every payment, declared ready."""
    r = game.ruleset
    return bool(r.declared_ready) and r.scores_dealer_streak and not r.plays_for_value


class ExpertBot(StrongBot):
    """The strong bot's analysis with a reading of the table:

    * danger is read per threatening seat from its river (its own discards
      are safe: genbutsu), suji-like neighbours (a tile three away from two
      of its discards on both sides), tiles whose every copy is visible or
      in hand (no one can hold them), honours by the copies left, and a
      flush in the making (two or more exposed sets of one suit: that
      suit's tiles and honours are dangerous, the other suits much less);
    * a seat is a threat as for the strong bot (declared ready, three
      sets shown, or two late); a big hand (declared ready, three sets, a
      flush in the making, two dragon pungs) makes it fold even a hand one
      from ready in the last twelve tiles; farther hands fold against any
      threat;
    * it never breaks a ready hand whose wait wins (all rulesets), unless
      it folds;
    * it declares 天聽/地聽 with two or more unseen winning tiles;
    * in MCR and Taiwan, once a discard can leave the hand one from ready
      or better, it discards for the best *chance of a winning hand*
      (:meth:`_chance`): a ready hand counts only its winning waits (in
      MCR those that score 8 points), and a hand one from ready — or ready
      on no winning tile — counts the draws that make it ready on a
      winning wait, each weighed by that wait; ties go to the most useful
      tiles, then the safest; so it does not settle for a ready hand that
      cannot win while a route to 8 points stays open; with
      :attr:`by_value` (off by default) each winning wait is weighed by the
      money a win on it takes (:meth:`_wait_value`: the completed hand
      scored by :func:`hefen.score`, won on a discard and self-drawn), so a
      wait worth more tai (a flush kept, 門清) counts for more;
    * it claims a set there only when the claim (with its best discard)
      raises that chance — a claim that leaves no winning wait in reach is
      refused; in Taiwan a first claim must raise it by 30% (門清's tai),
      unless :attr:`by_value` counts the concealed tai in the money;
    * in Hong Kong (the strong bot's value layer otherwise) it counts
      thirteen orphans, the limit, as a plan beside the value plans
      (:meth:`_hk_orphans_ev`; the strong bot scores it at the hand's own
      fan), so a concealed claim is refused and terminals and honours are
      kept while the plan is worth most; and it weighs each discard by
      money (:meth:`_hk_best_discard`): what the hand may go on to win
      against the chance and payment of dealing in with the tile
      (:meth:`_hk_deal_in`, measured on strong bots' play by the wall
      left, the seat's river, copies in sight, rank, exposed sets, a
      flush in the making and the honour fan it shows) — so late in the
      wall a slow hand throws safe tiles, a ready hand stays ready unless
      its tile is costly, and a visible flush is not fed its suit.
    * in Taiwan it reads the money a discard risks (:meth:`_tw_risk`): a
      tile thrown since a seat's own last discard and not won on is no wait
      of that seat (no table minimum, no rule against a tile one threw, and
      bots always take a win; a declared hand's wait is locked), each seat
      is ready by a measured table of its discards and sets shown, and a
      deal-in costs base + tai × per-tai with the dealer's tai; near ready
      it discards for the chance of winning × a win's money less that risk
      (:meth:`_tw_discard`), folding for the least risk at every seat, and
      two or more from ready it looks two draws on (:meth:`_tw_far`); there
      the fold or far choice gives way to a discard worth three money more,
      the hand's rough chance × a win's money against each tile's risk
      (:meth:`_tw_weigh_far`) — so it keeps an early hand against a threat.
    """

    name = "expert"
    ready_waits = 2
    #: choose among near-ready discards by the chance of a winning hand
    by_chance: bool = True
    #: how much more likely to win a first claim must make a concealed Taiwan hand
    concealed_bonus: float = 1.3
    #: how much of the chance of winning a unit of danger costs
    danger_weight: float = 0.0
    #: the most tiles a hand expects still to come into play
    horizon: int = 30
    #: claims judged by the chance of winning (off: the strong bot's claims)
    claim_by_chance: bool = True
    #: weigh each winning wait by the money a win on it takes (off, the
    #: default: count waits; measured no gain in MCR or Taiwan for half the
    #: speed in Taiwan, docs/game.md)
    by_value: bool = False
    #: the share of wins taken by self-draw, for a wait's mean money
    self_draw_share: float = 0.4
    #: where hands are paid by value (HK), a ready hand's discard by the
    #: chance of winning times the scored money of its waits (off: measured
    #: no gain, docs/game.md; the strong bot's value layer)
    ready_by_value: bool = False
    #: Hong Kong: weigh each discard by money, the hand's value against the
    #: expected payment of dealing in (:meth:`_hk_best_discard`)
    hk_money: bool = True
    #: the share of the value plans' expected payment (:meth:`_hk_ev`, an
    #: optimistic figure) a seat goes on to win: about a tenth, measured
    hk_value_share: float = 0.1
    #: how much of a deal-in's payment a safe discard saves (the seat may
    #: still win later, by a self-draw that costs as much)
    hk_risk_weight: float = 0.7
    #: how much safer (money) another discard must be than the strong bot's
    hk_margin: float = 0.2
    #: Hong Kong: thirteen orphans (a limit hand) as a plan beside the strong
    #: bot's value plans (:meth:`_hk_orphans_ev`)
    hk_orphans: bool = True
    #: how much slower the orphans' useful tiles come than any tile's
    hk_orphans_pace: float = 0.6

    #: Taiwan: weigh each discard's chance of winning against the money it
    #: risks dealing in (:meth:`_tw_risk`)
    tw_defence: bool = True
    #: Taiwan: how much of the money a win takes the chance of winning counts
    #: for against the money a discard risks (measured 0.6, 1.0, 1.5 and 2.5
    #: on seeds 0–999; 1.0 kept, docs/game.md)
    tw_win_weight: float = 1.0
    #: Taiwan: the share of wins taken by self-draw (paid by all three)
    tw_self_draw_share: float = 0.3
    #: Taiwan: fold (shanten two or more against a threat) by :meth:`_tw_risk`
    tw_fold_by_risk: bool = True
    #: Taiwan: two or more from ready, choose among the near-best discards by
    #: the useful tiles two draws on (:meth:`_tw_far`)
    tw_far: bool = True
    #: Taiwan: how near the most useful tiles a discard must keep for :meth:`_tw_far`
    tw_far_margin: float = 0.8
    #: Taiwan: two or more from ready, weigh the hand's chance of winning
    #: (:meth:`_tw_far_chance`) × a win's money against what each discard
    #: risks (:meth:`_tw_weigh_far`), folding or pushing by money
    tw_weigh_far: bool = True
    #: Taiwan: the chance a hand two from ready wins with the whole wall to come
    tw_far_p: float = 0.35
    #: Taiwan: how much more money another discard must be worth to replace
    #: the fold or far choice (:meth:`_tw_weigh_far`; 1 and 3 measured on
    #: seeds 40000–45999, 3 kept, docs/game.md)
    tw_weigh_margin: float = 3.0

    def _big(self, game: Game, s: int) -> bool:
        p = game.players[s]
        exposed = [m for m in p.melds if not m.concealed]
        dragons = sum(1 for m in exposed if m.kind != "chow" and m.tiles[0] in DRAGONS)
        return (
            bool(p.declared_ready)
            or len(exposed) >= 3
            or dragons >= 2
            or _flush_suit(game, s) is not None
        )

    def _fold(self, game: Game, seat: int, threats: list[int], best_sh: int) -> bool:
        if not threats:
            return False
        if best_sh >= 2:
            return True
        return (
            best_sh == 1 and game.wall_remaining < 12 and any(self._big(game, s) for s in threats)
        )

    def _danger(self, game: Game, threats: list[int], t: int, unseen: list[int]) -> float:
        danger = 0.0
        for s in threats:
            river = {x for x, _ in game.players[s].discards}
            if t in river:
                continue
            # every other copy in sight: only a wait on the last
            d = _wait_weight(
                t, river, unseen[t], _flush_suit(game, s), 0.15 if unseen[t] == 0 else 1.0
            )
            if game.players[s].declared_ready:
                d *= 1.5
            danger += d
        return danger

    def _winning_waits(self, game: Game, seat: int, tiles: list[int], unseen: list[int]) -> int:
        """As the strong bot's; in Taiwan every complete hand wins (no table
        minimum), so the completing tiles are counted without scoring them."""
        if _tw_rules(game):
            c = _counts(tiles)
            cap = _cap(game.players[seat].melds)  # no fifth copy of a kind
            return sum(unseen[t] for t in _completing(game, seat, c, unseen) if c[t] < cap[t])
        return super()._winning_waits(game, seat, tiles, unseen)

    # -- Taiwan: the money a discard risks
    def _tw_passed(self, game: Game, seat: int) -> dict[int, set[int]]:
        """For each other seat, the kinds that cannot be its wait now.  A
        Taiwanese hand may win on any discard at any value (no minimum, no
        rule against a tile one threw), and a bot always takes a win, so a
        tile discarded since the seat's own last discard (that discard
        too: its hand before it would have won) and not won on is not what
        it waits for; a declared-ready hand's wait is locked, so every
        discard since its declaration counts."""
        out: dict[int, set[int]] = {}
        actions = game.actions
        for s in game.after(seat):
            locked = bool(game.players[s].declared_ready)
            safe: set[int] = set()
            for a in reversed(actions):
                if a.kind == "discard" or a.kind == "ready":
                    if a.tile is not None:
                        safe.add(a.tile)
                    if a.seat == s and (a.kind == "ready" or not locked):
                        break
            out[s] = safe
        return out

    @staticmethod
    def _tw_p_ready(game: Game, s: int) -> float:
        """The chance seat ``s`` is ready (:data:`_TW_READY`; 1 when declared)."""
        p = game.players[s]
        if p.declared_ready:
            return 1.0
        exposed = sum(1 for m in p.melds if not m.concealed)
        if exposed >= 4:
            return 0.95
        return _TW_READY[min(len(p.discards) // 3, len(_TW_READY) - 1)][exposed]

    @staticmethod
    def _tw_tai(game: Game, s: int) -> float:
        """A rough count of the tai seat ``s`` would win with: two, and what
        shows (dragon and own-wind pungs, own flowers, a flush in the
        making, a declared-ready hand's tai)."""
        p = game.players[s]
        tai = 2.0 + _honour_fan(game, s, p.melds)
        seat_i = WINDS.index(game.seat_winds[s])
        tai += sum(1 for f in p.flowers if f in (34 + seat_i, 38 + seat_i))
        if _tw_flush(game, s) is not None:
            tai += 4
        if p.declared_ready == "tian_ting":
            tai += 16
        elif p.declared_ready == "di_ting":
            tai += 8
        return tai

    def _tw_pay(self, game: Game, seat: int, s: int, tai: float) -> float:
        """The money ``seat`` pays ``s`` for a win worth ``tai`` on its
        discard: base + tai × per-tai, the dealer's tai (1 + 2 per repeat)
        when either is the dealer."""
        opts = game.settings.options
        if game.dealer in (seat, s):
            tai += 1 + 2 * game.dealer_streak
        return float(opts.get("base", 30)) + float(opts.get("per_tai", 10)) * tai

    def _tw_risk(self, game: Game, seat: int, unseen: list[int]) -> list[float]:
        """Taiwan: for each kind, the money ``seat`` expects to pay by
        discarding it — over the other seats, the chance the seat is ready
        (:meth:`_tw_p_ready`) × the chance the kind is one of its waits ×
        what a win on it costs (:meth:`_tw_pay`). A seat's waits are spread
        (:data:`_TW_WAIT_KINDS` kinds in all) over the kinds it may still
        wait on — none with every copy in sight, none it has passed
        (:meth:`_tw_passed`) — weighed as :meth:`_danger` weighs them: its
        older discards and the suji of passed or discarded tiles much less,
        terminals and honours by the copies left, its flush suit more."""
        risk = [0.0] * NUM_KINDS
        passed = self._tw_passed(game, seat)
        for s in game.after(seat):
            ready = self._tw_p_ready(game, s)
            if ready <= 0:
                continue
            p = game.players[s]
            safe = passed[s]
            river = {x for x, _ in p.discards} | safe
            suit = _tw_flush(game, s)
            w = [0.0] * NUM_KINDS
            for t in range(NUM_KINDS):
                if unseen[t] == 0 or t in safe:
                    continue
                # an older discard: its hand has changed since
                w[t] = _wait_weight(t, river, unseen[t], suit, 0.3 if t in river else 1.0)
            total = sum(w)
            if total <= 0:
                continue
            pay = self._tw_pay(game, seat, s, self._tw_tai(game, s))
            for t in range(NUM_KINDS):
                if w[t]:
                    risk[t] += ready * min(1.0, _TW_WAIT_KINDS * w[t] / total) * pay
        return risk

    def _tw_win_money(self, game: Game, seat: int) -> float:
        """What a win is worth to ``seat``, roughly: its payment
        (:meth:`_tw_pay` of :meth:`_tw_tai`, the dealer's tai on every
        payment when it deals), three payers on a self-draw."""
        tai = self._tw_tai(game, seat)
        pay = sum(self._tw_pay(game, seat, s, tai) for s in game.after(seat)) / 3
        return pay * (1 + 2 * self.tw_self_draw_share)

    def _tw_far_chance(self, game: Game, sh: int) -> float:
        """Taiwan: a rough chance a hand ``sh`` (two or more) from ready
        wins: :attr:`tw_far_p` with the whole wall to come (60 tiles),
        falling as the wall's share to the power 1.5, halved for each step
        farther."""
        left = min(1.0, game.wall_remaining / 60)
        return self.tw_far_p * left**1.5 * 0.5 ** max(0, sh - 2)

    def _tw_weigh_far(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        scored: list[tuple[int, int]],
        shape: _Shape,
        best_sh: int,
        choice: tuple[int, tuple[float, ...]],
    ) -> tuple[int, tuple[float, ...]]:
        """Taiwan, two or more from ready: ``choice`` (the fold's tile or the
        far one) unless another discard is worth :attr:`tw_weigh_margin`
        more money — each discard worth the hand's chance
        (:meth:`_tw_far_chance`) × a win's money (:meth:`_tw_win_money`) ×
        its useful tiles' share of the most (a third of that one step
        farther, nothing beyond) less what it risks (:meth:`_tw_risk`). So a
        hand folds late against seats likely ready though none shows a
        threat, and pushes early against a threat while the hand is worth
        more than the tile risks."""
        unseen = self._unseen(game, seat)
        risk = self._tw_risk(game, seat, unseen)
        sh_of = {t: sh for sh, t in scored}
        kinds = list(sh_of)
        ukes = self._ukeires(game, seat, tiles, kinds, unseen, shape)
        top = max(1, max(ukes[t] for t in kinds if sh_of[t] == best_sh))
        value = self._tw_far_chance(game, best_sh) * self._tw_win_money(game, seat)

        def ev(t: int) -> float:
            f = min(1.0, ukes[t] / top)
            if sh_of[t] > best_sh:
                f = f / 3 if sh_of[t] == best_sh + 1 else 0.0
            return value * f - risk[t]

        evs = {t: ev(t) for t in kinds}
        tile = choice[0]
        best = max(kinds, key=lambda t: (evs[t], ukes[t], -risk[t], t))
        if best != tile and evs[best] > evs.get(tile, float("-inf")) + self.tw_weigh_margin:
            return best, (float(sh_of[best]), -evs[best], 0.0)
        return choice

    # -- the chance a hand wins
    def _ww(
        self,
        game: Game,
        seat: int,
        c: list[int],
        unseen: list[int],
        cache: dict[tuple[int, ...], tuple[int, float]],
    ) -> tuple[int, float]:
        """The unseen winning tiles of the ready concealed counts ``c`` and
        what a win on one is worth: its mean money (:meth:`_wait_value`)
        where the bot plays for value (:attr:`by_value`), else 1 (cached)."""
        if self.by_value:
            return self._wait_value(game, seat, c, unseen, cache)
        key = tuple(c)
        hit = cache.get(key)
        if hit is None:
            tiles = [t for t in range(NUM_KINDS) for _ in range(c[t])]
            hit = cache[key] = (self._winning_waits(game, seat, tiles, unseen), 1.0)
        return hit

    def _wait_value(
        self,
        game: Game,
        seat: int,
        c: list[int],
        unseen: list[int],
        cache: dict[tuple[int, ...], tuple[int, float]],
    ) -> tuple[int, float]:
        """The unseen winning tiles of the ready concealed counts ``c`` and
        the mean money the seat takes for a win on one (cached): each
        completed hand scored with :func:`hefen.score` as won on a discard
        and as self-drawn, mixed by :attr:`self_draw_share`."""
        key = tuple(c)
        hit = cache.get(key)
        if hit is not None:
            return hit
        tiles = tuple(t for t in range(NUM_KINDS) for _ in range(c[t]))
        other = game.seat_winds[game.next_seat(seat)]
        streak = game.dealer_streak if game.ruleset.scores_dealer_streak else 0
        ways: tuple[tuple[Literal["discard", "self_draw"], int | None], ...] = (
            ("discard", other),
            ("self_draw", None),
        )
        n = 0
        total = 0.0
        for t in _completing(game, seat, c, unseen):
            money = []
            for win, discarder in ways:
                r = game._score(_win_hand(game, seat, tiles, t, win, discarder, streak))
                if not r.winning:
                    break
                money.append(float(sum(x.amount for x in r.payments)))
            if len(money) < 2:
                continue
            n += unseen[t]
            s = self.self_draw_share
            total += unseen[t] * ((1 - s) * money[0] + s * money[1])
        hit = cache[key] = (n, total / n if n else 0.0)
        return hit

    @staticmethod
    def _p_ready(w: int, pool: int, k: float) -> float:
        """The chance one of ``w`` winning tiles among ``pool`` unseen comes
        into play (drawn or discarded) within ``k`` tiles."""
        if w <= 0:
            return 0.0
        return 1.0 - (1.0 - min(1.0, w / pool)) ** max(1.0, k)

    def _chance(
        self,
        game: Game,
        seat: int,
        c: list[int],
        sh: int,
        shape: _Shape,
        unseen: list[int],
        cache: dict[tuple[int, ...], tuple[int, float]],
    ) -> float:
        """A rough chance that the concealed counts ``c`` (before a draw)
        win: a ready hand by its *winning* waits (a ready hand whose waits
        cannot score — MCR's 8 points — is worth only what a draw makes of
        it); a hand one from ready (or ready on no winning tile) by the
        draws that make it ready on a winning wait, each weighed by that
        wait. ``-1`` for a hand farther off."""
        pool = max(1, sum(unseen))
        # tiles still to come into play: the wall, or as many as a hand lasts
        k = float(max(1, min(game.wall_remaining, self.horizon)))
        if sh == 0:
            w, v = self._ww(game, seat, c, unseen, cache)
            if w:
                return self._p_ready(w, pool, k) * v
        elif sh > 1:
            return -1.0
        kinds = shape.useful(c) if sh == 1 else range(NUM_KINDS)
        reach = 0.0
        weighted = 0.0
        for u in kinds:
            if unseen[u] == 0 or c[u] >= shape.cap[u]:
                continue
            c[u] += 1
            best = 0.0
            # every discard's shanten after the draw in one call
            after = shape.discards(c)
            for d in range(NUM_KINDS):
                if c[d] == 0 or d == u or after[d] != 0:
                    continue
                c[d] -= 1
                w, v = self._ww(game, seat, c, unseen, cache)
                if w:
                    best = max(best, self._p_ready(w, pool, 0.6 * k) * v)
                c[d] += 1
            c[u] -= 1
            if best:
                reach += unseen[u]
                weighted += unseen[u] * best
        if not reach:
            return 0.0
        own = k / 4  # own draws left
        return (1.0 - (1.0 - reach / pool) ** max(1.0, own)) * weighted / reach

    def _claim_chance(
        self, game: Game, seat: int, a: Action, tile: int, unseen: list[int]
    ) -> tuple[int, float]:
        """The lowest shanten a claim leaves after its discard, and the best
        :meth:`_chance` among the discards that leave one from ready or
        better (``-1`` when none does)."""
        p = game.players[seat]
        rest = list(p.concealed)
        if a.kind == "chow":
            assert a.tile is not None
            used = [x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile]
            meld = Meld.chow(a.tile)
        else:
            used = [tile] * (3 if a.kind == "kong" else 2)
            meld = Meld.kong(tile) if a.kind == "kong" else Meld.pung(tile)
        for x in used:
            rest.remove(x)
        saved = p.melds
        p.melds = [*saved, meld]
        try:
            shape = self._shape(game, p.melds)
            c = _counts(rest)
            options: list[list[int]] = []
            if a.kind == "kong":
                options.append(c)
            else:
                for d in range(NUM_KINDS):
                    if c[d]:
                        c2 = list(c)
                        c2[d] -= 1
                        options.append(c2)
            cache: dict[tuple[int, ...], tuple[int, float]] = {}
            low = min(shape.shanten(o) for o in options)
            best = -1.0
            for o in options:
                sh = shape.shanten(o)
                if sh <= 1:
                    best = max(best, self._chance(game, seat, o, sh, shape, unseen, cache))
            return low, best
        finally:
            p.melds = saved

    def _respond(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if (
            game.ruleset.plays_for_value
            or not (self.by_chance and self.claim_by_chance)
            or game.phase != "respond"
            or game.last_discard is None
        ):
            return super()._respond(game, seat, legal)
        p = game.players[seat]
        passing = next(a for a in legal if a.kind == "pass")
        tile = game.last_discard[1]
        base = self._shanten(game, seat, p.concealed)
        if self._threats(game, seat) and base >= 2:
            return passing
        unseen = self._unseen(game, seat)
        keep = -1.0
        if base <= 1:
            keep = self._chance(
                game, seat, _counts(p.concealed), base, self._shape(game, p.melds), unseen, {}
            )
        judged: dict[Action, float] = {}
        for a in legal:
            if a.kind in ("pung", "kong", "chow") and a.tile is not None:
                low, ch = self._claim_chance(game, seat, a, tile, unseen)
                if low <= 1:
                    judged[a] = ch
        if judged:
            a, ch = max(judged.items(), key=lambda x: x[1])
            # where a concealed hand is paid well (Ruleset.claims_cost_concealed:
            # TW 門清), a first claim must raise the chance by more than it gives up
            # — unless the chance already weighs each wait by its money, which
            # counts the concealed tai the claim gives up (by_value)
            need = (
                self.concealed_bonus
                if game.ruleset.claims_cost_concealed
                and all(m.concealed for m in p.melds)
                and not self.by_value
                else 1.0
            )
            if ch > 0 and ch > keep * need:
                return a
        choice = super()._respond(game, seat, legal)
        return passing if choice in judged else choice

    def _ready_by_value(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        candidates: list[int],
        melds: list[Meld],
    ) -> tuple[int, tuple[float, ...]] | None:
        """Where a hand is paid by its value (Hong Kong's 2^fan): a ready
        hand that stays ready on a winning wait (as the strong bot's
        :meth:`_ready_keeps`) discards for the best chance of winning times
        the mean money of its winning waits (:meth:`_wait_value`, scored),
        not the value plans' rough fan; ``None`` to leave the choice to the
        strong bot (not ready, folding, or a claim being weighed)."""
        if melds is not game.players[seat].melds:
            return None
        scored = _discard_shanten(self._shape(game, melds), tiles, candidates)
        threats = self._threats(game, seat)
        best_sh = min(sh for sh, _ in scored)
        if best_sh != 0 or self._fold(game, seat, threats, best_sh):
            return None
        keeps = self._ready_keeps(game, seat, tiles, scored)
        if not keeps:
            return None
        unseen = self._unseen(game, seat)
        pool = max(1, sum(unseen))
        k = float(max(1, min(game.wall_remaining, self.horizon)))
        cache: dict[tuple[int, ...], tuple[int, float]] = {}
        ev: dict[int, float] = {}
        for t in keeps:
            rest = list(tiles)
            rest.remove(t)
            w, v = self._wait_value(game, seat, _counts(rest), unseen, cache)
            ev[t] = self._p_ready(w, pool, k) * v
        tile = max(ev, key=lambda x: (ev[x], -self._danger(game, threats, x, unseen), x))
        return tile, (0.0, -ev[tile], 0.0)

    def _hk_orphans_ev(
        self, game: Game, seat: int, c: list[int], melds: list[Meld], unseen: list[int]
    ) -> float:
        """Hong Kong: the expected payment of thirteen orphans (the limit)
        from the concealed counts ``c`` (13 tiles), as :func:`hk_value` counts
        a plan: the chance per step (slowed by :attr:`hk_orphans_pace`) to
        the power of its shanten plus one, times :func:`_hk_payoff` of the
        cap; 0 with a declared set, or where a missing kind has no unseen copy."""
        if melds or not self.hk_orphans:
            return 0.0
        distinct = 0
        pair = False
        can_pair = False
        for t in ORPHANS:
            if c[t]:
                distinct += 1
                pair = pair or c[t] >= 2
                can_pair = can_pair or unseen[t] > 0
            elif not unseen[t]:
                return 0.0  # every copy of a kind it needs is in sight
        if not pair and not can_pair:
            return 0.0
        sh = 13 - distinct - (1 if pair else 0)
        opts = game.settings.options
        cap = int(opts.get("cap", 13))
        draws = max(1.0, game.wall_remaining / 4)
        q = draws / (draws + 6.0)
        return float((q * self.hk_orphans_pace) ** max(0, sh + 1) * _hk_payoff(cap, 0, cap))

    def _hk_ev(self, game: Game, seat: int, c: list[int], melds: list[Meld]) -> float:
        ev = super()._hk_ev(game, seat, c, melds)
        if melds or not self.hk_orphans:
            return ev
        return max(ev, self._hk_orphans_ev(game, seat, c, melds, self._unseen(game, seat)))

    def _hk_evs(
        self, game: Game, seat: int, c: list[int], melds: list[Meld], kinds: list[int]
    ) -> tuple[float, ...]:
        evs = super()._hk_evs(game, seat, c, melds, kinds)
        if melds or not self.hk_orphans:
            return evs
        unseen = self._unseen(game, seat)
        out = []
        c = list(c)
        for k, ev in zip(kinds, evs, strict=True):
            c[k] -= 1
            out.append(max(ev, self._hk_orphans_ev(game, seat, c, melds, unseen)))
            c[k] += 1
        return tuple(out)

    def _hk_deal_in(self, game: Game, seat: int, t: int, unseen: list[int]) -> float:
        """Hong Kong: the expected money ``seat`` pays by discarding ``t``:
        over the other seats, the chance ``t`` wins for it (by the wall left,
        its river, the copies in sight, the tile's rank, its exposed sets
        and a flush in the making — :data:`_HK_DEAL_IN`, measured on strong
        bots' play) times what it would pay (:data:`_HK_PAYMENT` by the wall,
        doubled for each fan the seat shows)."""
        band = min(game.wall_remaining // 10, len(_HK_DEAL_IN) - 1)
        base = _HK_DEAL_IN[band]
        if base <= 0.0:
            return 0.0
        cap = int(game.settings.options.get("cap", 13))
        total = 0.0
        for s in game.after(seat):
            p = game.players[s]
            if any(x == t for x, _ in p.discards):
                f = 0.02  # its own discard: it cannot win on it but by a changed wait
            elif t >= 27:
                f = 0.0 if unseen[t] <= 1 else (0.33 if unseen[t] == 2 else 0.65)
            else:
                r = t % 9
                f = 0.63 if r in (0, 8) else (0.87 if r in (1, 7) else 1.0)
                if unseen[t] == 0:
                    f *= 0.25  # no copy left to hold: only a chow wait
            if f == 0.0:
                continue
            exposed = [m for m in p.melds if not m.concealed]
            f *= 1.0 if not exposed else (0.4 if len(exposed) == 1 else 1.3)
            fan = _honour_fan(game, s, exposed)
            suit = _flush_suit(game, s)
            if suit is not None:
                f *= 1.5 if t >= 27 else (2.5 if t // 9 == suit else 0.2)
                fan += 2
            pay = min(_HK_PAYMENT[band] * 2.0**fan, 2.0**cap)
            total += base * f * pay
        return total

    def _hk_best_discard(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        candidates: list[int],
        melds: list[Meld],
    ) -> tuple[int, tuple[float, ...]]:
        """Hong Kong: the strong bot's discard unless another is worth more
        money.  The strong bot's discard is worth what the seat may expect
        to win with the hand it leaves: :data:`_HK_OWN` by its shanten and
        the wall (measured on strong bots' play), or :attr:`hk_value_share`
        of the value plans' expected payment (:meth:`_hk_ev`) where that is
        more (a limit plan); another discard is worth that scaled down where
        it keeps fewer useful tiles, a higher shanten or less of the value
        plans' payment, never up; each less :attr:`hk_risk_weight` times
        the expected payment of dealing in with it (:meth:`_hk_deal_in`).  Another discard is taken where it beats
        the strong bot's by :attr:`hk_margin`.  So a slow hand late in the
        wall gives way to safe tiles, a ready hand stays ready unless the
        tile it must throw is costly (a seat showing a big hand), and a
        flush in the making is not fed its suit."""
        tile, key = super()._best_discard(game, seat, tiles, candidates, melds)
        band = min(game.wall_remaining // 10, len(_HK_DEAL_IN) - 1)
        if melds is not game.players[seat].melds or _HK_DEAL_IN[band] <= 0.0:
            return tile, key
        unseen = self._unseen(game, seat)
        kinds = list(dict.fromkeys(candidates))
        shape = self._shape(game, melds)
        sh = dict((t, x) for x, t in _discard_shanten(shape, tiles, kinds))
        evs = dict(zip(kinds, self._hk_evs(game, seat, _counts(tiles), melds, kinds), strict=True))
        ukes = self._ukeires(game, seat, tiles, kinds, unseen)
        own = _HK_OWN[min(game.wall_remaining // 20, len(_HK_OWN) - 1)]
        ref_sh, ref_ev, ref_uke = sh[tile], evs[tile], max(1, ukes[tile])
        # what the strong bot's discard may win: the measured figure of its
        # shanten, or a share of the value plans' payment where that is more
        # (a limit plan: four concealed pungs, thirteen orphans)
        ref_own = own[ref_sh] if ref_sh < len(own) else 0.0
        ref_money = max(ref_own, self.hk_value_share * ref_ev)

        def money(t: int) -> float:
            m = ref_money
            if sh[t] == ref_sh:
                m *= min(1.0, ukes[t] / ref_uke)
            elif sh[t] > ref_sh:
                m *= (own[sh[t]] if sh[t] < len(own) else 0.0) / ref_own if ref_own > 0 else 0.0
            if ref_ev > 0:
                m *= min(1.0, evs[t] / ref_ev)
            return m - self.hk_risk_weight * self._hk_deal_in(game, seat, t, unseen)

        scores = {t: money(t) for t in kinds}
        best = max(kinds, key=lambda t: (scores[t], t == tile, -t))
        if scores[best] > scores[tile] + self.hk_margin:
            return best, (0.0, -scores[best], 0.0)
        return tile, key

    def _tw_far(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        scored: list[tuple[int, int]],
        shape: _Shape,
        best_sh: int,
        unseen: list[int],
    ) -> tuple[int, tuple[float, ...]] | None:
        """Taiwan, two or more from ready: of the discards that keep the
        lowest shanten and nearly the most useful tiles (within
        :attr:`tw_far_margin`), the one whose useful draws lead on best —
        each useful tile (by its unseen copies) times the useful tiles of
        the hand after it and its best discard (two plies); ``None`` where
        :attr:`tw_far` is off or one discard stands alone."""
        if not self.tw_far:
            return None
        best = [t for sh, t in scored if sh == best_sh]
        ukes = self._ukeires(game, seat, tiles, best, unseen)
        top = max(ukes.values())
        near = [t for t in best if ukes[t] >= self.tw_far_margin * top]
        if len(near) < 2:
            return None
        c = _counts(tiles)
        score: dict[int, float] = {}
        for t in near:
            c[t] -= 1
            total = 0.0
            for u in shape.useful(c):
                if not unseen[u]:
                    continue
                c[u] += 1
                after = shape.discards(c)
                kinds = [d for d in range(NUM_KINDS) if c[d] and after[d] == best_sh - 1]
                if kinds:
                    got = discard_ukeire(
                        tuple(c),
                        shape.cap,
                        shape.n_melds,
                        shape.forms,
                        shape.size,
                        shape.four_pairs,
                        tuple(unseen),
                        tuple(kinds),
                    )
                    total += unseen[u] * max(got)
                c[u] -= 1
            c[t] += 1
            score[t] = total
        tile = max(near, key=lambda x: (score[x], ukes[x], -_neighbour_score(c, x), x))
        return tile, (float(best_sh), -score[tile], 0.0)

    def _tw_discard(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        scored: list[tuple[int, int]],
        shape: _Shape,
        threats: list[int],
        best_sh: int,
        fold: bool,
    ) -> tuple[int, tuple[float, ...]] | None:
        """Taiwan: the discard by expected money. Folding, the tile that
        risks least (:meth:`_tw_risk`, which reads what each seat has
        passed); near ready (a discard leaves the hand one from ready or
        better), the tile with the best chance of winning (:meth:`_chance`)
        × what a win takes (:meth:`_tw_win_money`, weighed by
        :attr:`tw_win_weight`) less the money it risks — so a ready hand is
        kept unless what it risks outweighs what it may win, and of two
        discards alike for the hand the safer goes. ``None``: the choice
        is the others' (far from ready, or no winning wait in reach)."""
        unseen = self._unseen(game, seat)
        if fold:
            if not self.tw_fold_by_risk:
                return None
            risk = self._tw_risk(game, seat, unseen)
            sh_of = {t: sh for sh, t in scored}
            tile = min(
                sh_of,
                key=lambda t: (
                    round(risk[t], 3),
                    self._danger(game, threats, t, unseen),
                    sh_of[t],
                    -t,
                ),
            )
            return tile, (risk[tile], float(sh_of[tile]), 0.0)
        if best_sh > 1:
            return self._tw_far(game, seat, tiles, scored, shape, best_sh, unseen)
        if not self.by_chance:
            return None
        cache: dict[tuple[int, ...], tuple[int, float]] = {}
        chances: dict[int, float] = {}
        for sh, t in scored:
            if sh <= 1:
                rest = list(tiles)
                rest.remove(t)
                chances[t] = self._chance(game, seat, _counts(rest), sh, shape, unseen, cache)
        if not chances or max(chances.values()) <= 0:
            return None
        risk = self._tw_risk(game, seat, unseen)
        win = self.tw_win_weight * self._tw_win_money(game, seat)
        ev = {t: win * max(0.0, chances.get(t, 0.0)) - risk[t] for _, t in scored}
        top = max(ev.values())
        near = [t for t, v in ev.items() if v >= top - 0.001 * abs(top)]
        c = _counts(tiles)
        ukes = self._ukeires(game, seat, tiles, near, unseen, shape)
        tile = max(near, key=lambda x: (ukes[x], -risk[x], -_neighbour_score(c, x), x))
        return tile, (0.0, -ev[tile], 0.0)

    def _best_discard(
        self,
        game: Game,
        seat: int,
        tiles: list[int],
        candidates: list[int],
        melds: list[Meld],
    ) -> tuple[int, tuple[float, ...]]:
        if game.ruleset.plays_for_value and self.ready_by_value:
            choice = self._ready_by_value(game, seat, tiles, candidates, melds)
            if choice is not None:
                return choice
        if game.ruleset.plays_for_value and self.hk_money:
            return self._hk_best_discard(game, seat, tiles, candidates, melds)
        if not game.ruleset.plays_for_value and melds is game.players[seat].melds:
            shape = self._shape(game, melds)
            scored = _discard_shanten(shape, tiles, candidates)
            threats = self._threats(game, seat)
            best_sh = min(sh for sh, _ in scored)
            fold = self._fold(game, seat, threats, best_sh)
            if self.tw_defence and _tw_rules(game):
                tw = self._tw_discard(game, seat, tiles, scored, shape, threats, best_sh, fold)
                if self.tw_weigh_far and best_sh >= 2:
                    if tw is None:
                        tw = super()._best_discard(game, seat, tiles, candidates, melds)
                    tw = self._tw_weigh_far(game, seat, tiles, scored, shape, best_sh, tw)
                if tw is not None:
                    return tw
            if self.by_chance and not fold and best_sh <= 1:
                unseen = self._unseen(game, seat)
                cache: dict[tuple[int, ...], tuple[int, float]] = {}
                chances: dict[int, float] = {}
                for sh, t in scored:
                    if sh <= 1:
                        rest = list(tiles)
                        rest.remove(t)
                        chances[t] = self._chance(
                            game, seat, _counts(rest), sh, shape, unseen, cache
                        )
                if chances and max(chances.values()) > 0:
                    if threats and self.danger_weight:
                        for t in chances:
                            if chances[t] >= 0:
                                chances[t] -= self.danger_weight * self._danger(
                                    game, threats, t, unseen
                                )
                    top = max(chances.values())
                    near = [t for t, v in chances.items() if v >= top - 0.001 * abs(top)]
                    tile = max(
                        near,
                        key=lambda x: (
                            self._ukeire(
                                game,
                                seat,
                                [y for y in tiles if y != x] + [x] * (tiles.count(x) - 1),
                                unseen,
                            ),
                            -self._danger(game, threats, x, unseen),
                            -_neighbour_score(_counts(tiles), x),
                            x,
                        ),
                    )
                    return tile, (0.0, -chances[tile], 0.0)
            if not fold:
                keeps = self._ready_keeps(game, seat, tiles, scored)
                if keeps:
                    unseen = self._unseen(game, seat)
                    tile = max(
                        keeps,
                        key=lambda x: (keeps[x], -self._danger(game, threats, x, unseen), x),
                    )
                    return tile, (0.0, -float(keeps[tile]), 0.0)
        return super()._best_discard(game, seat, tiles, candidates, melds)


BOTS: tuple[str, ...] = ("simple", "strong", "strong-exact", "expert")


def make_bot(name: str, seed: int = 0) -> SimpleBot | StrongBot:
    """``simple``, ``strong``, or ``strong-exact`` (the name of old for the
    strong bot when it had a faster, rougher count of its own; both now count
    shanten with ``hefen.analysis`` and play alike)."""
    if name == "simple":
        return SimpleBot(seed)
    if name == "strong":
        return StrongBot(seed)
    if name == "strong-exact":
        return StrongBot(seed, exact=True)
    if name == "expert":
        return ExpertBot(seed)
    raise ValueError(f"Unknown bot {name!r} (use {', '.join(BOTS)}).")
