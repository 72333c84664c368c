"""One hand of mahjong, from the shuffled wall to a win or an exhaustive draw.

The engine is a pure state machine: a :class:`Game` is built from a seed and
its settings, answers :meth:`Game.legal_actions` for any seat and takes
:class:`Action` values through :meth:`Game.apply`. An illegal action raises
:class:`IllegalAction` (one sentence) and changes nothing. Flowers, replacement
draws and the next player's draw happen by themselves, so a game is fully
determined by its seed, its settings and the list of actions it took.

Phases (``game.phase``):

``declare``
    Taiwan only, after the deal: each ready non-dealer may declare 天聽
    (``ready``) or ``pass`` before the dealer's first discard.
``discard``
    ``game.turn`` holds one tile more than a waiting hand: ``discard``,
    ``win`` (self-drawn), ``kong`` (concealed or added), or in Taiwan
    ``ready`` (discard that tile and declare 天聽/地聽).
``respond``
    After a discard, every seat that may ``win``, ``pung``, ``kong`` or
    ``chow`` answers (``pass`` included); then the claims are resolved by
    priority: win > pung/kong > chow (chow only by the next seat).
``rob``
    After an added kong, the seats that can win on that tile may rob it.
``rob_flower``
    Taiwan 七搶一: a seat holding seven flowers may take the eighth.
``end``
    ``game.outcome`` says who won (or that the wall ran out) and the payments.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..decompose import completes_with, completing_tiles, ready_discards
from ..hand import _DEFAULT_CONTEXT, Context, Hand, Meld, _rules_pass
from ..result import Result
from ..ruleset import DEFAULT_RULESET, REGISTRY, Ruleset, find_ruleset, ruleset_keys
from ..tiles import NUM_KINDS, WINDS, is_bonus, tile_from_str, tile_to_str

#: the thirteen kinds of Thirteen Orphans (terminals and honours)
ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

__all__ = [
    "Action",
    "ActionKind",
    "Game",
    "GameSettings",
    "IllegalAction",
    "Outcome",
    "Win",
    "forms_for",
]

FALSE_WIN_RULES: tuple[str, ...] = ("refuse", "penalty")

ActionKind = Literal["discard", "win", "kong", "pung", "chow", "pass", "ready"]
ACTION_KINDS: tuple[str, ...] = ("discard", "win", "kong", "pung", "chow", "pass", "ready")


def forms_for(rules: str) -> frozenset[str]:
    """The hand shapes that can win under ``rules`` (:mod:`hefen.decompose`'s
    names, as the ruleset states them)."""
    return find_ruleset(rules).decompose_forms


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why in one sentence."""


@dataclass(frozen=True, slots=True)
class Action:
    """What a seat does. ``tile`` is the discard, the kong's tile, the pung's
    tile or the first tile of the chow; ``None`` for ``win`` and ``pass``
    (and for ``ready`` in the declaring window)."""

    seat: int
    kind: ActionKind
    tile: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.tile is not None:
            d["tile"] = tile_to_str(self.tile)
        return d

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Action:
        kind = obj.get("kind")
        if kind not in ACTION_KINDS:
            raise IllegalAction(f"{kind!r} is not an action (use {', '.join(ACTION_KINDS)}).")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise IllegalAction(f"An action's seat must be 0-3, not {seat!r}.")
        tile = obj.get("tile")
        return cls(seat, kind, None if tile is None else tile_from_str(tile))

    def __str__(self) -> str:
        if self.kind == "chow" and self.tile is not None:
            shown = " ".join(tile_to_str(self.tile + i) for i in range(3))
            return f"seat {self.seat} chows {shown}"
        verb = {
            "discard": "discards",
            "win": "declares a win",
            "kong": "declares a kong of",
            "pung": "pungs",
            "pass": "passes",
            "ready": "declares ready",
        }[self.kind]
        tail = "" if self.tile is None else " " + tile_to_str(self.tile)
        if self.kind == "ready" and self.tile is not None:
            return f"seat {self.seat} discards {tile_to_str(self.tile)} and declares ready"
        return f"seat {self.seat} {verb}{tail}"


@dataclass(frozen=True)
class GameSettings:
    """Table settings for a hand.

    ``options`` go to the scorer unchanged (hand-format.md). ``flowers``: play
    with the eight bonus tiles (default on for every ruleset; Taiwan always
    does). ``multiple_winners``: several seats may win on one discard; off,
    the first claimant in turn order after the discarder wins (head bump).

    House rules (docs/game.md gives each with its default):
    ``dead_wall``: tiles kept back at the end of the wall, never drawn in
    play (``None``: the ruleset's, Taiwan 16, elsewhere 0).
    ``dealer_among_winners_keeps``: when several seats win on one discard
    and the dealer is one of them, the dealer keeps the deal.
    ``rob_concealed_kong``: a seat whose Thirteen Orphans completes with a
    concealed kong's tile may rob it (Hong Kong house rule).
    ``false_win``: ``"refuse"`` a win that is not one (the action is illegal)
    or ``"penalty"``: the hand ends and the false declarer pays each other
    player the ruleset's penalty (:meth:`Ruleset.false_win_penalty`).
    ``locked_kongs``: a declared-ready (天聽/地聽) hand may make a kong with
    the tile it drew when its wait does not change.
    """

    rules: str = DEFAULT_RULESET
    options: Mapping[str, Any] = field(default_factory=dict)
    flowers: bool = True
    multiple_winners: bool = False
    dead_wall: int | None = None
    dealer_among_winners_keeps: bool = True
    rob_concealed_kong: bool = False
    false_win: str = "refuse"
    locked_kongs: bool = False

    def __post_init__(self) -> None:
        if self.rules not in REGISTRY:
            raise ValueError(
                f"rules must be one of {', '.join(ruleset_keys())}, not {self.rules!r}."
            )
        if self.ruleset.flowers_always and not self.flowers:
            raise ValueError(f"{self.ruleset.name()} mahjong always plays with the eight flowers.")
        dead = self.dead_wall
        if dead is not None and (
            isinstance(dead, bool) or not isinstance(dead, int) or not 0 <= dead <= 40
        ):
            raise ValueError(
                f"The dead wall must be a whole number of tiles from 0 to 40, not {dead!r}."
            )
        if self.false_win not in FALSE_WIN_RULES:
            raise ValueError(
                f"false_win must be one of {', '.join(FALSE_WIN_RULES)}, not {self.false_win!r}."
            )
        if self.false_win == "penalty" and self.ruleset.false_win_penalty({}) is None:
            raise ValueError(f"{self.ruleset.name()} mahjong states no penalty for a false win.")
        if self.locked_kongs and not self.ruleset.declared_ready:
            raise ValueError(
                f"locked_kongs needs a declared-ready hand, which {self.ruleset.name()} mahjong has not."
            )

    @property
    def kept_back(self) -> int:
        """The tiles kept back at the end of the wall."""
        return self.ruleset.dead_wall if self.dead_wall is None else self.dead_wall

    @property
    def ruleset(self) -> Ruleset:
        return find_ruleset(self.rules)

    @property
    def hand_size(self) -> int:
        return self.ruleset.concealed_size

    @property
    def sets(self) -> int:
        return self.ruleset.sets

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "options": dict(self.options),
            "flowers": self.flowers,
            "multiple_winners": self.multiple_winners,
            "dead_wall": self.dead_wall,
            "dealer_among_winners_keeps": self.dealer_among_winners_keeps,
            "rob_concealed_kong": self.rob_concealed_kong,
            "false_win": self.false_win,
            "locked_kongs": self.locked_kongs,
        }

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> GameSettings:
        return cls(
            rules=obj.get("rules", DEFAULT_RULESET),
            options=dict(obj.get("options") or {}),
            flowers=bool(obj.get("flowers", True)),
            multiple_winners=bool(obj.get("multiple_winners", False)),
            dead_wall=obj.get("dead_wall"),
            dealer_among_winners_keeps=bool(obj.get("dealer_among_winners_keeps", True)),
            rob_concealed_kong=bool(obj.get("rob_concealed_kong", False)),
            false_win=str(obj.get("false_win", "refuse")),
            locked_kongs=bool(obj.get("locked_kongs", False)),
        )


_ACTIONS: dict[tuple[int, str, int | None], Action] = {}


def _act(seat: int, kind: ActionKind, tile: int | None = None) -> Action:
    """``Action(seat, kind, tile)``, made once and shared: an action is a
    frozen value, and the legal moves of every turn and discard name the
    same few hundred (building a frozen dataclass costs more than a lookup)."""
    key = (seat, kind, tile)
    a = _ACTIONS.get(key)
    if a is None:
        a = _ACTIONS[key] = Action(seat, kind, tile)
    return a


#: each seat's discard of each kind (the shared actions of _act)
_DISCARDS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(_act(seat, "discard", t) for t in range(NUM_KINDS)) for seat in range(4)
)


def _chows_of(tile: int) -> tuple[tuple[int, int, int], ...]:
    """The chows a suit ``tile`` can complete, lowest first: (first tile,
    the two other tiles)."""
    r = tile % 9
    out = []
    for first in (tile - 2, tile - 1, tile):
        if first < tile - r or first + 2 > tile - r + 8:
            continue
        a, b = [x for x in (first, first + 1, first + 2) if x != tile]
        out.append((first, a, b))
    return tuple(out)


#: each suit tile's chows (_chows_of)
_CHOWS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(_chows_of(t) for t in range(27))


@dataclass
class Player:
    concealed: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    #: seat each meld was claimed from (None for a concealed kong)
    meld_from: list[int | None] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    #: the river: (tile, claimed) — a claimed tile lives on in a meld
    discards: list[tuple[int, bool]] = field(default_factory=list)
    declared_ready: str | None = None
    draws: int = 0
    #: the tile this player won on, when it came from another player
    win_tile: int | None = None


@dataclass(frozen=True)
class Win:
    seat: int
    result: Result
    hand: Hand


@dataclass(frozen=True)
class Outcome:
    """How the hand ended. ``payments`` are (from seat, to seat, amount)."""

    #: ``false_win``: a false declaration ended the hand (``discarder`` is
    #: the false declarer, who pays the penalty in ``payments``)
    kind: Literal["win", "draw", "false_win"]
    wins: tuple[Win, ...] = ()
    discarder: int | None = None
    payments: tuple[tuple[int, int, int | float], ...] = ()
    reason: str = ""
    #: Taiwan: the deal passes even though the dealer won (four kongs)
    dealer_passes: bool = False

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(w.seat for w in self.wins)

    def to_dict(self, winds: tuple[int, ...]) -> dict[str, Any]:
        return {
            "result": self.kind,
            "winners": list(self.winners),
            "discarder": self.discarder,
            "reason": self.reason,
            "payments": [{"from": f, "to": t, "amount": a} for f, t, a in self.payments],
            "scores": [w.result.to_dict() for w in self.wins],
            "hands": [w.hand.to_dict() for w in self.wins],
        }


def _fast_shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``: the same permutation, by the same draws
    (:meth:`random.Random.shuffle`'s loop with its ``_randbelow`` written
    in, which is most of a hand's deal); used only where it gives what
    ``shuffle`` gives (checked once, below)."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _shuffle_of_python(rng: random.Random, x: list[int]) -> None:
    rng.shuffle(x)


def _pick_shuffle() -> Any:
    """:func:`_fast_shuffle` where it deals as ``Random.shuffle`` does on this
    Python (a few walls compared), else ``Random.shuffle`` itself."""
    for seed in ("0", "bench/0/1", "x"):
        a, b = list(range(144)), list(range(144))
        random.Random(seed).shuffle(a)
        _fast_shuffle(random.Random(seed), b)
        if a != b:
            return _shuffle_of_python
    return _fast_shuffle


_shuffle = _pick_shuffle()


def full_set(flowers: bool) -> list[int]:
    tiles = [t for t in range(NUM_KINDS) for _ in range(4)]
    if flowers:
        tiles += list(range(34, 42))
    return tiles


#: melds and contexts whose ``check()`` passed, by identity (each kept, so
#: that its id is not reused while it is here; both are frozen values)
_CHECKED: dict[int, object] = {}


#: hefen.scoring's _guarded and score_uncached, once imported (not at import:
#: the scorers import much)
_SCORING: list[Any] = []


def _passes(obj: Meld | Context) -> bool:
    """Whether ``obj.check()`` passes (kept by identity once it has)."""
    if id(obj) in _CHECKED:
        return True
    try:
        obj.check()
    except Exception:
        return False
    if len(_CHECKED) > 1 << 14:
        _CHECKED.clear()
    _CHECKED[id(obj)] = obj
    return True


def _score_checked(hand: Hand) -> Result:
    """:func:`hefen.scoring.score_uncached` of ``hand``, the same answer,
    with :meth:`Hand.check` skipped where each of its parts surely passes:
    the types and tiles (:func:`hefen.hand._rules_pass` reads them exactly),
    each meld's and the context's own ``check()`` (kept by identity: the
    engine's melds and the bots' contexts are asked about again and again)
    and the rules of the hand (``_rules_pass``, or ``_check_rules`` run).
    Anything else, and any part that fails, goes the reference way, whose
    answer (or sentence) it is."""
    if not _SCORING:
        from ..scoring import _guarded, score_uncached

        _SCORING.extend((_guarded, score_uncached))
    guarded, score_uncached = _SCORING
    try:
        ruleset = find_ruleset(hand.rules)
        ok = (
            type(hand.context) is Context
            and isinstance(hand.options, Mapping)
            and type(hand.melds) is tuple
            and all(type(m) is Meld and _passes(m) for m in hand.melds)
            and _passes(hand.context)
        )
        if ok and not _rules_pass(
            hand, ruleset.concealed_size, ruleset.flower_wins, _DEFAULT_CONTEXT
        ):
            # what rules_pass does not read (or the pure core): the types
            # first, as check() does, then the rules themselves
            hand.check_types()
            hand._check_rules(ruleset)
    except Exception:
        ok = False
    if not ok:
        return score_uncached(hand)
    return guarded(hand, lambda: ruleset.score(hand), strict=False)


class Game:
    """One hand at a table. Seats are players 0–3; turn order follows the
    winds E → S → W → N, the dealer being East.

    >>> g = Game(GameSettings("mcr"), seed=7)
    >>> g.phase, g.turn == g.dealer, len(g.players[g.dealer].concealed)
    ('discard', True, 14)
    """

    def __init__(
        self,
        settings: GameSettings | str = DEFAULT_RULESET,
        seed: int | str = 0,
        *,
        dealer: int = 0,
        seat_winds: tuple[int, int, int, int] | None = None,
        round_wind: int = WINDS[0],
        dealer_streak: int = 0,
        wall: list[int] | None = None,
    ) -> None:
        if isinstance(settings, str):
            settings = GameSettings(settings)
        self.settings = settings
        #: the dead wall (settings are frozen: read once)
        self._kept_back = settings.kept_back
        self.rules = settings.rules
        #: the ruleset played: every rule of play that differs is asked of it
        self.ruleset: Ruleset = settings.ruleset
        self.seed = seed
        if seat_winds is None:
            seat_winds = tuple(WINDS[(s - dealer) % 4] for s in range(4))  # type: ignore[assignment]
        assert seat_winds is not None
        if sorted(seat_winds) != list(WINDS) or seat_winds[dealer] != WINDS[0]:
            raise ValueError("The seat winds must be E S W N once each, East being the dealer.")
        self.seat_winds: tuple[int, ...] = tuple(seat_winds)
        self.round_wind = round_wind
        self.dealer = dealer
        self.dealer_streak = dealer_streak
        #: turn order: the seats sorted by wind
        self.order: tuple[int, ...] = tuple(sorted(range(4), key=lambda s: self.seat_winds[s]))
        #: each seat's next seat and the other seats after it, in turn order
        #: (asked at every discard; the order is fixed for the hand)
        self._next: tuple[int, ...] = tuple(
            self.order[(self.order.index(s) + 1) % 4] for s in range(4)
        )
        self._after: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.order[(self.order.index(s) + k) % 4] for k in (1, 2, 3)) for s in range(4)
        )
        #: an arranged wall (deal order: each seat's hand from the dealer on,
        #: then the draws; replacements come from the end) instead of a shuffle
        self.arranged = wall is not None
        if wall is None:
            wall = full_set(settings.flowers)
            _shuffle(random.Random(str(seed)), wall)
        elif sorted(wall) != full_set(settings.flowers):
            raise ValueError("An arranged wall must hold every tile of the set exactly once.")
        self.wall = list(wall)
        self.head = 0  # next draw from the front
        self.tail = len(wall)  # replacements from the end: wall[tail - 1]
        self.players = [Player() for _ in range(4)]
        self.phase: str = "deal"
        self.turn = dealer
        self.drawn: int | None = None
        self.draw_source: str | None = None  # wall | replacement | double_replacement
        self.pending: dict[int, list[Action]] = {}
        self.responses: dict[int, Action] = {}
        self.last_discard: tuple[int, int] | None = None  # (seat, tile)
        self.last_discard_is_last = False
        self.kong_in_progress: tuple[int, int] | None = None  # (seat, tile) being added
        #: the kong in progress is a concealed one (robbed only for Thirteen Orphans)
        self.kong_concealed = False
        self.flower_in_progress: tuple[int, int, str] | None = None  # (seat, flower, source)
        self.any_call = False
        self.discard_count = 0
        self.outcome: Outcome | None = None
        self.actions: list[Action] = []
        #: what happened, for a readable replay: ("draw", seat, tile, source),
        #: ("flower", seat, tile), ("act", action)
        self.log: list[tuple[Any, ...]] = []
        self._score_cache: dict[Any, Result] = {}
        self._completing_memo: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}
        self._deal()

    # ------------------------------------------------------------------ basics
    @property
    def wall_remaining(self) -> int:
        """Tiles still to be drawn in play (the dead wall kept back excluded)."""
        n = self.tail - self.head - self._kept_back
        return n if n > 0 else 0

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def prev_seat(self, seat: int) -> int:
        return self.order[(self.order.index(seat) - 1) % 4]

    def after(self, seat: int) -> list[int]:
        """The other seats in turn order after ``seat``."""
        return list(self._after[seat])

    def wind(self, seat: int) -> str:
        return tile_to_str(self.seat_winds[seat])

    # ------------------------------------------------------------------ the deal
    def _take_front(self) -> int:
        t = self.wall[self.head]
        self.head += 1
        return t

    def _take_back(self) -> int:
        self.tail -= 1
        return self.wall[self.tail]

    def _deal(self) -> None:
        size = self.settings.hand_size
        for seat in self.order:
            for _ in range(size):
                self.players[seat].concealed.append(self._take_front())
        # flowers set aside and replaced from the end of the wall, dealer first
        for seat in self.order:
            p = self.players[seat]
            while any(is_bonus(t) for t in p.concealed):
                flowers = [t for t in p.concealed if is_bonus(t)]
                for f in flowers:
                    p.concealed.remove(f)
                    p.flowers.append(f)
                    p.concealed.append(self._take_back())
        if self.ruleset.flower_wins:
            for seat in self.order:
                if len(self.players[seat].flowers) == 8:
                    self._end_flower_win(seat, None)
                    return
            sevens = [s for s in self.order if len(self.players[s].flowers) == 7]
            owner = next(
                (s for s in self.order if sevens and s != sevens[0] and self.players[s].flowers),
                None,
            )
            if sevens and owner is not None:
                eighth = self.players[owner].flowers[-1]
                self.flower_in_progress = (owner, eighth, "deal")
                self.phase = "rob_flower"
                self.pending = {sevens[0]: [_act(sevens[0], "win"), _act(sevens[0], "pass")]}
                self.responses = {}
                return
        self._after_deal()

    def _after_deal(self) -> None:
        if self.ruleset.declared_ready:
            ready = [
                s
                for s in self.order
                if s != self.dealer and self._waits(s, self.players[s].concealed)
            ]
            if ready:
                self.phase = "declare"
                self.pending = {s: [_act(s, "ready"), _act(s, "pass")] for s in ready}
                self.responses = {}
                return
        self._draw(self.dealer, "wall")

    # ------------------------------------------------------------------ drawing
    def _draw(self, seat: int, source: str) -> None:
        """``seat`` draws from the front (``wall``) or, after a kong, from the end."""
        if self.wall_remaining == 0:
            self._end_draw("the wall is exhausted")
            return
        if source == "wall":
            self.players[seat].draws += 1
            tile = self._take_front()
        else:
            tile = self._take_back()
        self._receive(seat, tile, source)

    def _receive(self, seat: int, tile: int, source: str) -> None:
        """Flowers are set aside and replaced from the end of the wall; the
        draw keeps its kind (a flower's replacement is no kong replacement)."""
        p = self.players[seat]
        while is_bonus(tile):
            p.flowers.append(tile)
            self.log.append(("flower", seat, tile))
            if self.ruleset.flower_wins:
                if len(p.flowers) == 8:
                    self._end_flower_win(seat, None)
                    return
                if self._flower_rob(seat, tile, source):
                    return
            if self.wall_remaining == 0:
                self._end_draw("the wall is exhausted")
                return
            tile = self._take_back()
        self._take_tile(seat, tile, source)

    def _take_tile(self, seat: int, tile: int, source: str) -> None:
        p = self.players[seat]
        p.concealed.append(tile)
        self.log.append(("draw", seat, tile, source))
        self.drawn = tile
        self.draw_source = source
        self.turn = seat
        self.phase = "discard"
        self.pending = {}
        self.responses = {}

    def _flower_rob(self, seat: int, tile: int, source: str) -> bool:
        """Taiwan 七搶一: does a seat holding seven flowers get to take ``tile``?"""
        for other in self.after(seat):
            if len(self.players[other].flowers) == 7:
                self.flower_in_progress = (seat, tile, source)
                self.phase = "rob_flower"
                self.pending = {other: [_act(other, "win"), _act(other, "pass")]}
                self.responses = {}
                return True
        return False

    def _continue_after_flower(self) -> None:
        assert self.flower_in_progress is not None
        seat, _tile, source = self.flower_in_progress
        self.flower_in_progress = None
        if source == "deal":
            self._after_deal()
            return
        if self.wall_remaining == 0:
            self._end_draw("the wall is exhausted")
            return
        self._receive(seat, self._take_back(), source)

    # ------------------------------------------------------------------ hands and wins
    def sets_needed(self, seat: int) -> int:
        return self.settings.sets - len(self.players[seat].melds)

    def _waits(self, seat: int, concealed: list[int]) -> bool:
        """Whether ``concealed`` (a waiting hand's size) is one tile from complete."""
        return bool(self._wait_set(concealed, len(self.players[seat].melds), first=True))

    def _wait_set(self, concealed: list[int], n_melds: int, *, first: bool = False) -> set[int]:
        """The kinds that complete ``concealed`` with ``n_melds`` melds (a kind
        held four times is none): :func:`hefen.decompose.completing_tiles`,
        one call in place of a completeness test per kind (``first`` is
        kept for callers: the answer is the same set, and only its being
        empty or not is read then)."""
        return set(self._completing(concealed, n_melds))

    def _completing(self, concealed: list[int], n_melds: int) -> frozenset[int]:
        """:func:`hefen.decompose.completing_tiles` of ``concealed`` beside
        ``n_melds`` melds, kept by the tiles: a seat's hand is asked about
        at every discard (can it win on it?) and changes only when it
        draws, discards or claims."""
        key = (tuple(concealed), n_melds)
        hit = self._completing_memo.get(key)
        if hit is None:
            c = [0] * NUM_KINDS
            for t in concealed:
                c[t] += 1
            hit = frozenset(completing_tiles(tuple(c), n_melds, self.ruleset.decompose_forms))
            if len(self._completing_memo) > 1 << 14:
                self._completing_memo.clear()
            self._completing_memo[key] = hit
        return hit

    def _locked_kongs(self, seat: int) -> list[Action]:
        """The kongs a declared-ready hand may make with its drawn tile: an
        added kong, or a concealed one that leaves its wait as it was."""
        p = self.players[seat]
        t = self.drawn
        if not self.settings.locked_kongs or t is None or self.wall_remaining == 0:
            return []
        if any(m.kind == "pung" and m.first == t for m in p.melds):
            return [_act(seat, "kong", t)]
        if p.concealed.count(t) == 4:
            before = list(p.concealed)
            before.remove(t)
            after = [x for x in p.concealed if x != t]
            if self._wait_set(before, len(p.melds)) == self._wait_set(after, len(p.melds) + 1):
                return [_act(seat, "kong", t)]
        return []

    def _complete_with(self, seat: int, concealed: list[int], tile: int) -> bool:
        """Whether ``concealed`` and ``tile`` make a complete hand (never with
        a fifth copy): ``tile`` is one of the hand's completing tiles."""
        return tile in self._completing(concealed, len(self.players[seat].melds))

    def visible_count(self, tile: int) -> int:
        """Copies of ``tile`` anyone can see: rivers and exposed melds."""
        n = 0
        for p in self.players:
            n += sum(1 for t, claimed in p.discards if t == tile and not claimed)
            for m in p.melds:
                if not m.concealed:
                    n += m.tiles.count(tile)
        return n

    def win_context(
        self, seat: int, tile: int, *, self_drawn: bool, discarder: int | None, robbing: bool
    ) -> Context:
        """The context of a win by ``seat`` on ``tile``, derived from the state."""
        p = self.players[seat]
        ruleset = self.ruleset
        switches = ruleset.context_switches
        first_go = not self.any_call
        heavenly = earthly = human = False
        if self_drawn and seat == self.dealer:
            heavenly = "heavenly" in switches and (
                first_go and self.discard_count == 0 and not p.melds
            )
        elif not self_drawn and discarder == self.dealer and not robbing:
            earthly = "earthly" in switches and first_go and self.discard_count == 1
        elif self_drawn and ruleset.earthly_self_drawn:
            earthly = first_go and p.draws == 1 and not p.discards and not p.melds
        if (
            earthly
            and "human" in switches
            and not self_drawn
            and self.settings.options.get("human_hand")
        ):
            earthly, human = False, True
        visible = self.visible_count(tile)
        if not self_drawn and not robbing:
            visible -= 1  # the discard itself is the winning tile
        kong_tile_rob = robbing
        last_of_kind = visible >= 3 and not kong_tile_rob
        if self_drawn:
            last = self.wall_remaining == 0
        else:
            last = self.last_discard_is_last and not robbing
        source = self.draw_source if self_drawn else None
        return Context(
            win="self_draw" if self_drawn else "discard",
            seat_wind=self.seat_winds[seat],
            round_wind=self.round_wind,
            last_tile_of_wall=last,
            kong_replacement=source in ("replacement", "double_replacement"),
            double_kong_replacement=source == "double_replacement",
            robbing_kong=robbing,
            last_of_kind=last_of_kind,
            heavenly=heavenly,
            earthly=earthly,
            human=human,
            declared_ready=p.declared_ready,
            discarder=None if discarder is None else self.seat_winds[discarder],
            dealer=self.seat_winds[self.dealer],
            dealer_streak=self.dealer_streak if ruleset.scores_dealer_streak else 0,
        )

    def _win_hand(
        self, seat: int, tile: int, *, self_drawn: bool, discarder: int | None, robbing: bool
    ) -> Hand:
        p = self.players[seat]
        concealed = list(p.concealed)
        if self_drawn:
            concealed.remove(tile)
        ctx = self.win_context(
            seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=robbing
        )
        return Hand(
            rules=self.rules,
            concealed=tuple(sorted(concealed)),
            melds=tuple(p.melds),
            win_tile=tile,
            flowers=tuple(sorted(p.flowers)),
            context=ctx,
            options=dict(self.settings.options),
        )

    def _score(self, hand: Hand) -> Result:
        key = (hand.concealed, hand.melds, hand.win_tile, hand.flowers, hand.context)
        hit = self._score_cache.get(key)
        if hit is None:
            # the game keeps its own cache: the scorer's (keyed by the whole
            # canonical hand) would cost more to look in than a miss here
            hit = _score_checked(hand)
            self._score_cache[key] = hit
        return hit

    def can_win(
        self, seat: int, tile: int, *, self_drawn: bool, discarder: int | None, robbing: bool
    ) -> bool:
        """A complete hand that scores as ``winning`` under the table's rules."""
        p = self.players[seat]
        concealed = list(p.concealed)
        if self_drawn:
            concealed.remove(tile)
        if not self._complete_with(seat, concealed, tile):
            return False
        hand = self._win_hand(
            seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=robbing
        )
        return self._score(hand).winning

    # ------------------------------------------------------------------ legal moves
    def to_act(self) -> list[int]:
        """The seats that have an action to take now."""
        if self.phase == "discard":
            return [self.turn]
        return [s for s in self.order if s in self.pending and s not in self.responses]

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not to act)."""
        if self.phase == "end":
            return []
        if self.phase == "discard":
            return self._turn_actions(seat) if seat == self.turn else []
        if seat in self.pending and seat not in self.responses:
            return list(self.pending[seat])
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        p = self.players[seat]
        out: list[Action] = []
        drawn = self.drawn
        if drawn is not None and self.can_win(
            seat, drawn, self_drawn=True, discarder=None, robbing=False
        ):
            out.append(_act(seat, "win"))
            if p.declared_ready:
                return out  # a locked hand cannot refuse its win
        if p.declared_ready:
            assert drawn is not None
            return out + [_act(seat, "discard", drawn)] + self._locked_kongs(seat)
        held = sorted(p.concealed)
        kinds = list(dict.fromkeys(held))
        discards = _DISCARDS[seat]
        out.extend([discards[t] for t in kinds])
        if drawn is not None and self.wall_remaining > 0:
            pungs = {m.tiles[0] for m in p.melds if m.kind == "pung"}
            # four of a kind needs three tiles past one of each kind held
            if pungs or len(held) - len(kinds) >= 3:
                fours = {held[i] for i in range(len(held) - 3) if held[i] == held[i + 3]}
                for t in kinds:
                    if t in pungs or t in fours:
                        out.append(_act(seat, "kong", t))
        if self.ruleset.declared_ready and self._may_declare(seat):
            # the discards that leave the hand waiting, in one call
            c = [0] * NUM_KINDS
            for t in p.concealed:
                c[t] += 1
            forms = self.ruleset.decompose_forms
            for t in ready_discards(tuple(c), len(p.melds), forms):
                out.append(_act(seat, "ready", t))
        return out

    def _may_declare(self, seat: int) -> bool:
        """Taiwan: 天聽 with the dealer's first discard, 地聽 within one's first two
        draws before any call."""
        p = self.players[seat]
        return not p.declared_ready and not self.any_call and p.draws <= 2 and not p.melds

    def _ready_kind(self, seat: int) -> str:
        if self.phase == "declare" or (seat == self.dealer and self.discard_count == 0):
            return "tian_ting"
        return "di_ting"

    def _claims(self, discarder: int, tile: int) -> dict[int, list[Action]]:
        claims: dict[int, list[Action]] = {}
        last = self.wall_remaining == 0
        chower = self._next[discarder]
        forms = self.ruleset.decompose_forms
        for seat in self._after[discarder]:
            p = self.players[seat]
            opts: list[Action] = []
            # can_win, its first test here (most hands do not complete)
            if completes_with(p.concealed, len(p.melds), forms, tile) and self.can_win(
                seat, tile, self_drawn=False, discarder=discarder, robbing=False
            ):
                opts.append(_act(seat, "win"))
                if p.declared_ready:
                    claims[seat] = opts  # cannot refuse the win
                    continue
            if not p.declared_ready and not last:
                n = p.concealed.count(tile)
                if n >= 2:
                    opts.append(_act(seat, "pung", tile))
                if n == 3 and self.wall_remaining > 0:
                    opts.append(_act(seat, "kong", tile))
                if seat == chower and tile < 27:
                    held = p.concealed
                    for first, a, b in _CHOWS[tile]:
                        if a in held and b in held:
                            opts.append(_act(seat, "chow", first))
            if opts:
                opts.append(_act(seat, "pass"))
                claims[seat] = opts
        return claims

    # ------------------------------------------------------------------ applying
    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` is legal now."""
        if self.phase == "end":
            raise IllegalAction("The hand is over; no more actions can be taken.")
        if (
            action.kind == "discard"
            and self.phase == "discard"
            and action.seat == self.turn
            and action.tile is not None
        ):
            p = self.players[action.seat]
            if not p.declared_ready and action.tile in p.concealed:
                # every kind an undeclared hand holds is one of its legal
                # discards (_turn_actions): no need to list them all again
                return
        legal = self.legal_actions(action.seat)
        if action in legal:
            return
        wind = self.wind(action.seat)
        if (
            action.kind == "chow"
            and self.phase == "respond"
            and self.last_discard is not None
            and action.seat != self.next_seat(self.last_discard[0])
        ):
            raise IllegalAction(
                f"Seat {action.seat} ({wind}) cannot chow: a chow may only be claimed "
                "from the player on the left."
            )
        if not legal:
            if self.phase == "discard":
                raise IllegalAction(
                    f"It is seat {self.turn}'s turn to discard, not seat {action.seat} ({wind})."
                )
            raise IllegalAction(f"Seat {action.seat} ({wind}) has nothing to answer now.")
        tile = "" if action.tile is None else " " + tile_to_str(action.tile)
        p = self.players[action.seat]
        reason = "that is not one of its legal moves"
        if action.kind == "discard" and action.tile is not None:
            if action.tile not in p.concealed:
                reason = f"it does not hold {tile_to_str(action.tile)}"
            elif p.declared_ready:
                reason = "a declared-ready hand must discard the tile it drew"
        elif action.kind == "win":
            reason = "the hand is not complete, or not worth the table's minimum"
        elif action.kind == "chow" and self.last_discard is not None:
            if action.seat != self.next_seat(self.last_discard[0]):
                reason = "a chow may only be claimed from the player on the left"
        elif action.kind == "pass" and p.declared_ready:
            reason = "a declared-ready hand cannot refuse a winning tile"
        raise IllegalAction(
            f"Seat {action.seat} ({wind}) cannot {action.kind}{tile} now: {reason}."
        )

    def apply(self, action: Action) -> None:
        """Take ``action``; an illegal one raises :class:`IllegalAction` and
        changes nothing."""
        if action.kind == "win" and self._false_win(action):
            return
        self.check(action)
        self.actions.append(action)
        self.log.append(("act", action))
        if self.phase == "discard":
            self._apply_turn(action)
        else:
            self.responses[action.seat] = action
            if all(s in self.responses for s in self.pending):
                self._resolve()

    def _false_win(self, action: Action) -> bool:
        """Under ``false_win="penalty"``, a seat to act that declares a win it
        does not have ends the hand and pays the penalty."""
        if self.settings.false_win != "penalty" or self.phase == "end":
            return False
        if action.seat not in self.to_act() or action in self.legal_actions(action.seat):
            return False
        self.actions.append(action)
        self.log.append(("act", action))
        amount = self.ruleset.false_win_penalty(self.settings.options)
        assert amount is not None  # GameSettings refuses the setting otherwise
        if self.kong_in_progress is not None:
            self.players[self.kong_in_progress[0]].concealed.append(self.kong_in_progress[1])
            self.kong_in_progress = None
            self.kong_concealed = False
        self.outcome = Outcome(
            "false_win",
            (),
            action.seat,
            tuple((action.seat, s, amount) for s in self.after(action.seat)),
            reason="false win",
        )
        self._finish()
        return True

    def _apply_turn(self, a: Action) -> None:
        p = self.players[a.seat]
        if a.kind == "win":
            assert self.drawn is not None
            self._end_win([(a.seat, self.drawn)], discarder=None, self_drawn=True, robbing=False)
            return
        if a.kind in ("discard", "ready"):
            assert a.tile is not None
            if a.kind == "ready":
                p.declared_ready = self._ready_kind(a.seat)
            p.concealed.remove(a.tile)
            p.discards.append((a.tile, False))
            self.discard_count += 1
            self.last_discard = (a.seat, a.tile)
            self.last_discard_is_last = self.wall_remaining == 0
            self.drawn = None
            self.draw_source = None
            claims = self._claims(a.seat, a.tile)
            if claims:
                self.phase = "respond"
                self.pending = claims
                self.responses = {}
            else:
                self._next_draw(a.seat)
            return
        if a.kind == "kong":
            assert a.tile is not None
            t = a.tile
            self.any_call = True
            if p.concealed.count(t) == 4:
                robbers = self._orphan_robbers(a.seat, t)
                if robbers:
                    p.concealed.remove(t)
                    self.kong_in_progress = (a.seat, t)
                    self.kong_concealed = True
                    self.phase = "rob"
                    self.pending = robbers
                    self.responses = {}
                    return
                for _ in range(4):
                    p.concealed.remove(t)
                p.melds.append(Meld.kong(t, concealed=True))
                p.meld_from.append(None)
                self._after_kong(a.seat)
                return
            # an added kong: the others may rob it first
            p.concealed.remove(t)
            self.kong_in_progress = (a.seat, t)
            robbers = {
                s: [
                    _act(s, "win"),
                    *([] if self.players[s].declared_ready else [_act(s, "pass")]),
                ]
                for s in self.after(a.seat)
                if self.can_win(s, t, self_drawn=False, discarder=a.seat, robbing=True)
            }
            if robbers:
                self.phase = "rob"
                self.pending = robbers
                self.responses = {}
            else:
                self._finish_added_kong()
            return
        raise AssertionError(a)  # pragma: no cover - check() refused everything else

    def _orphan_robbers(self, seat: int, t: int) -> dict[int, list[Action]]:
        """The seats that may rob a concealed kong of ``t``: only with the
        house rule on, and only for Thirteen Orphans."""
        if not self.settings.rob_concealed_kong or t not in ORPHANS:
            return {}
        out: dict[int, list[Action]] = {}
        for s in self.after(seat):
            q = self.players[s]
            if q.melds or set(q.concealed) | {t} != set(ORPHANS):
                continue
            if self.can_win(s, t, self_drawn=False, discarder=seat, robbing=True):
                out[s] = [_act(s, "win"), *([] if q.declared_ready else [_act(s, "pass")])]
        return out

    def _finish_added_kong(self) -> None:
        assert self.kong_in_progress is not None
        seat, t = self.kong_in_progress
        self.kong_in_progress = None
        p = self.players[seat]
        if self.kong_concealed:
            self.kong_concealed = False
            for _ in range(3):
                p.concealed.remove(t)
            p.melds.append(Meld.kong(t, concealed=True))
            p.meld_from.append(None)
            self._after_kong(seat)
            return
        i = next(i for i, m in enumerate(p.melds) if m.kind == "pung" and m.first == t)
        p.melds[i] = Meld.kong(t)
        self._after_kong(seat)

    def _after_kong(self, seat: int) -> None:
        p = self.players[seat]
        if self.ruleset.four_kongs_win and sum(1 for m in p.melds if m.is_kong) == 4:
            self._end_four_kongs(seat)
            return
        source = (
            "double_replacement"
            if self.draw_source in ("replacement", "double_replacement")
            else "replacement"
        )
        self.drawn = None
        self._draw(seat, source)

    def _next_draw(self, discarder: int) -> None:
        self._draw(self.next_seat(discarder), "wall")

    def _resolve(self) -> None:
        phase = self.phase
        chosen = self.responses
        order = [s for s in self.order if s in chosen]
        if phase == "declare":
            for s in order:
                if chosen[s].kind == "ready":
                    self.players[s].declared_ready = "tian_ting"
            self.pending, self.responses = {}, {}
            self._draw(self.dealer, "wall")
            return
        if phase == "rob_flower":
            seat = order[0]
            if chosen[seat].kind == "win":
                self._end_flower_win(seat, self.flower_in_progress)
                return
            self.pending, self.responses = {}, {}
            self._continue_after_flower()
            return
        if phase == "rob":
            assert self.kong_in_progress is not None
            kong_seat, t = self.kong_in_progress
            winners = [s for s in self.after(kong_seat) if s in chosen and chosen[s].kind == "win"]
            if winners:
                if not self.settings.multiple_winners:
                    winners = winners[:1]
                self._end_win(
                    [(s, t) for s in winners], discarder=kong_seat, self_drawn=False, robbing=True
                )
                return
            self.pending, self.responses = {}, {}
            self._finish_added_kong()
            return
        # respond: win > pung/kong > chow
        assert self.last_discard is not None
        discarder, tile = self.last_discard
        after = self.after(discarder)
        winners = [s for s in after if s in chosen and chosen[s].kind == "win"]
        self.pending, self.responses = {}, {}
        if winners:
            if not self.settings.multiple_winners:
                winners = winners[:1]
            self._end_win(
                [(s, tile) for s in winners], discarder=discarder, self_drawn=False, robbing=False
            )
            return
        claim = next(
            (chosen[s] for s in after if s in chosen and chosen[s].kind in ("pung", "kong")), None
        )
        if claim is None:
            claim = next(
                (chosen[s] for s in after if s in chosen and chosen[s].kind == "chow"), None
            )
        if claim is None:
            self._next_draw(discarder)
            return
        seat = claim.seat
        p = self.players[seat]
        river = self.players[discarder].discards
        river[-1] = (tile, True)
        self.any_call = True
        if claim.kind == "chow":
            assert claim.tile is not None
            for x in (claim.tile, claim.tile + 1, claim.tile + 2):
                if x != tile:
                    p.concealed.remove(x)
            p.melds.append(Meld.chow(claim.tile))
        else:
            n = 3 if claim.kind == "kong" else 2
            for _ in range(n):
                p.concealed.remove(tile)
            p.melds.append(Meld.kong(tile) if claim.kind == "kong" else Meld.pung(tile))
        p.meld_from.append(discarder)
        self.turn = seat
        self.drawn = None
        self.draw_source = None
        if claim.kind == "kong":
            self._after_kong(seat)
        else:
            self.phase = "discard"

    # ------------------------------------------------------------------ endings
    def _payments(self, result: Result) -> list[tuple[int, int, int | float]]:
        out: list[tuple[int, int, int | float]] = []
        for pay in result.payments:
            frm = self.seat_winds.index(tile_from_str(pay.frm))
            to = self.seat_winds.index(tile_from_str(pay.to))
            out.append((frm, to, pay.amount))
        return out

    def _end_win(
        self,
        wins: list[tuple[int, int]],
        *,
        discarder: int | None,
        self_drawn: bool,
        robbing: bool,
    ) -> None:
        records: list[Win] = []
        payments: list[tuple[int, int, int | float]] = []
        for seat, tile in wins:
            hand = self._win_hand(
                seat, tile, self_drawn=self_drawn, discarder=discarder, robbing=robbing
            )
            result = self._score(hand)
            records.append(Win(seat, result, hand))
            payments += self._payments(result)
        if not self_drawn:
            if robbing:
                self.kong_in_progress = None
                if self.kong_concealed:
                    # the three left of the robbed concealed kong stay in its owner's hand
                    self.kong_concealed = False
            else:
                assert discarder is not None
                river = self.players[discarder].discards
                river[-1] = (river[-1][0], True)
            # the claimed tile goes to the (first) winner's hand
            self.players[wins[0][0]].win_tile = wins[0][1]
        self.outcome = Outcome("win", tuple(records), discarder, tuple(payments))
        self._finish()

    def _end_flower_win(self, seat: int, taken: tuple[int, int, str] | None) -> None:
        """Taiwan 八仙過海 (``taken`` None) or 七搶一 (the flower taken from a seat)."""
        p = self.players[seat]
        discarder: int | None = None
        if taken is not None:
            discarder, flower, _ = taken
            self.players[discarder].flowers.remove(flower)
            p.flowers.append(flower)
            self.flower_in_progress = None
        win_tile = p.flowers[-1]
        ctx = Context(
            win="discard" if discarder is not None else "self_draw",
            seat_wind=self.seat_winds[seat],
            round_wind=self.round_wind,
            discarder=None if discarder is None else self.seat_winds[discarder],
            dealer=self.seat_winds[self.dealer],
            dealer_streak=self.dealer_streak,
            declared_ready=p.declared_ready,
        )
        concealed = list(p.concealed)
        if len(concealed) + 3 * len(p.melds) > self.settings.hand_size and self.drawn in concealed:
            concealed.remove(self.drawn)  # pragma: no cover - flowers come with the draw
        hand = Hand(
            rules=self.rules,
            concealed=tuple(sorted(concealed)),
            melds=tuple(p.melds),
            win_tile=win_tile,
            flowers=tuple(sorted(f for f in p.flowers if f != win_tile)),
            context=ctx,
            options=dict(self.settings.options),
        )
        result = self._score(hand)
        self.outcome = Outcome(
            "win",
            (Win(seat, result, hand),),
            discarder,
            tuple(self._payments(result)),
            reason="seven rob one" if discarder is not None else "eight flowers",
        )
        self._finish()

    def _end_four_kongs(self, seat: int) -> None:
        """Taiwan: a player's fourth kong ends the hand as a win (the deal passes).

        The hand is scored as a self-drawn win on the kong's replacement
        tile when it is complete; otherwise as the four kongs with the
        tiles held (the scorer decides what a four-kong end is worth)."""
        p = self.players[seat]
        tile: int | None = None
        if self.wall_remaining > 0:
            tile = self._take_back()
            while is_bonus(tile) and self.wall_remaining > 0:
                p.flowers.append(tile)
                tile = self._take_back()
            if is_bonus(tile):
                p.flowers.append(tile)
                tile = None
        if tile is None:
            self._end_draw("the wall is exhausted")
            return
        p.concealed.append(tile)
        self.drawn = tile
        self.draw_source = "replacement"
        hand = self._win_hand(seat, tile, self_drawn=True, discarder=None, robbing=False)
        result = self._score(hand)
        self.outcome = Outcome(
            "win",
            (Win(seat, result, hand),),
            None,
            tuple(self._payments(result)),
            reason="four kongs",
            dealer_passes=True,
        )
        self._finish()

    def _end_draw(self, reason: str) -> None:
        self.outcome = Outcome("draw", reason=reason)
        self._finish()

    def _finish(self) -> None:
        self.phase = "end"
        self.pending = {}
        self.responses = {}

    # ------------------------------------------------------------------ inspection
    def tile_locations(self) -> list[int]:
        """Every tile of the set exactly once, wherever it is now (the
        conservation check of the tests)."""
        out = list(self.wall[self.head : self.tail])
        for p in self.players:
            out += p.concealed
            out += p.flowers
            for m in p.melds:
                out += m.tiles
            out += [t for t, claimed in p.discards if not claimed]
            if p.win_tile is not None:
                out.append(p.win_tile)
        if self.kong_in_progress is not None:
            out.append(self.kong_in_progress[1])
        return out

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data (equal snapshots: identical games)."""

        def codes(ts: list[int]) -> list[str]:
            return [tile_to_str(t) for t in ts]

        return {
            "settings": self.settings.to_dict(),
            "seed": self.seed,
            "phase": self.phase,
            "turn": self.turn,
            "wall": codes(self.wall[self.head : self.tail]),
            "players": [
                {
                    "concealed": codes(p.concealed),
                    "melds": [m.to_dict() for m in p.melds],
                    "meld_from": list(p.meld_from),
                    "flowers": codes(p.flowers),
                    "discards": [[tile_to_str(t), c] for t, c in p.discards],
                    "declared_ready": p.declared_ready,
                    "draws": p.draws,
                }
                for p in self.players
            ],
            "pending": {str(s): [a.to_dict() for a in v] for s, v in self.pending.items()},
            "responses": {str(s): a.to_dict() for s, a in self.responses.items()},
            "outcome": None if self.outcome is None else self.outcome.to_dict(self.seat_winds),
        }

    def _seat_public(self, seat: int) -> dict[str, Any]:
        p = self.players[seat]
        return {
            "seat": seat,
            "wind": self.wind(seat),
            "melds": [
                {"kind": "kong", "concealed": True, "tiles": None} if m.concealed else m.to_dict()
                for m in p.melds
            ],
            "flowers": [tile_to_str(t) for t in p.flowers],
            "discards": [{"tile": tile_to_str(t), "claimed": c} for t, c in p.discards],
            "concealed_count": len(p.concealed),
            "declared_ready": p.declared_ready,
        }

    def describe(self, entry: tuple[Any, ...]) -> str:
        """One line of :attr:`log` in words."""
        if entry[0] == "act":
            a: Action = entry[1]
            return f"{self.wind(a.seat)} ({str(a)})"
        seat = entry[1]
        if entry[0] == "flower":
            return f"{self.wind(seat)} (seat {seat}) sets aside {tile_to_str(entry[2])}"
        kind = {"wall": "draws", "flower": "draws"}.get(entry[3], "draws a replacement")
        return f"{self.wind(seat)} (seat {seat}) {kind} {tile_to_str(entry[2])}"

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see: no concealed tile of any seat, the wall
        as a count only, and whose turn it is (``to_act`` is ``[turn]`` while
        a seat is to discard, else empty: who may claim a discard is each
        claimant's own secret, it would tell what they hold)."""
        view: dict[str, Any] = {
            "rules": self.rules,
            "phase": self.phase,
            "turn": self.turn,
            "dealer": self.dealer,
            "round_wind": tile_to_str(self.round_wind),
            "dealer_streak": self.dealer_streak,
            "wall_remaining": self.wall_remaining,
            "to_act": [self.turn] if self.phase == "discard" else [],
            "last_discard": None
            if self.last_discard is None
            else {"seat": self.last_discard[0], "tile": tile_to_str(self.last_discard[1])},
            "seats": [self._seat_public(s) for s in range(4)],
        }
        if self.outcome is not None:
            view["outcome"] = self.outcome.to_dict(self.seat_winds)
        return view

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: the public view plus its own concealed
        tiles, its drawn tile and its legal actions (``to_act`` names the
        seat itself when it may claim, never another claimant)."""
        view = self.public_view()
        if seat in self.to_act() and seat not in view["to_act"]:
            view["to_act"] = [seat]
        p = self.players[seat]
        own = view["seats"][seat]
        own["concealed"] = [tile_to_str(t) for t in sorted(p.concealed)]
        own["melds"] = [m.to_dict() for m in p.melds]
        view["seat"] = seat
        view["drawn"] = (
            tile_to_str(self.drawn) if self.drawn is not None and seat == self.turn else None
        )
        view["legal_actions"] = [a.to_dict() for a in self.legal_actions(seat)]
        return view
