"""MCR (Mahjong Competition Rules, the Chinese Official rules).

``score(hand)`` reads the hand every way the rules allow (standard sets and
pair, seven pairs, thirteen orphans, honours-and-knitted, knitted straight
with a set and a pair), scores each reading with the Green Book principles
and keeps the best one.

Table settings (``options``):

======================  ==============  =================================================
option                  default         meaning
======================  ==============  =================================================
``variant``             ``green_book``  ``mil``: Mahjong International League values (Two
                                        Concealed Kongs 6, Concealed Kong and Melded Kong
                                        5) and its readings below
``knitted_wait``        by variant      ``whole_hand`` (Green Book: a single wait is one
                                        tile completing the whole hand) or ``remainder``
                                        (MIL calculator: only the set and pair beside the
                                        knitted straight are asked)
``seven_pairs_tile_hog`` ``true``       four of a kind inside Seven Pairs scores Tile Hog
``discarder_default``   ``next``        who pays a discard win when ``context.discarder``
                                        is missing: ``next`` (the seat after the winner)
======================  ==============  =================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..decompose import (
    FORMS_ALL,
    FORMS_STANDARD,
    completing_tiles,
    honors_and_knitted,
    is_seven_pairs,
    is_thirteen_orphans,
    knitted_straight_decompositions,
    standard_decompositions,
)
from ..decompose import (
    PUNG as D_PUNG,
)
from ..hand import Hand, Meld
from ..options import KeptSettings, Option, boolean, choice, resolve
from ..position import Position
from ..result import NEW, PatternHit, Payment, Result
from ..ruleset import Ruleset, score_compiled
from ..sets import CHOW, KONG, PAIR, PUNG
from ..sets import HandSet as Group
from ..tiles import NUM_KINDS, is_terminal_or_honor, tile_to_str
from .deal import mcr_position
from .detect import (
    Tally,
    combination_candidates,
    finish,
    kong_patterns,
    rank_patterns,
    select_combinations,
    suit_patterns,
    tile_hog,
    tile_patterns,
    wind_patterns,
)
from .table import ORDER, PATTERNS

__all__ = ["MCR", "RULESET", "score", "OPTIONS", "PATTERNS", "MIN_POINTS", "BASE"]

MIN_POINTS = 8
BASE = 8

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        choice(
            "variant",
            "green_book",
            ("green_book", "mil"),
            "Green Book or MIL pattern values",
            label="Point values",
        ),
        choice(
            "knitted_wait",
            None,
            (None, "whole_hand", "remainder"),
            "single wait beside a knitted straight (default: by variant)",
            label="Knitted straight waits",
            none_means="by the point values",
        ),
        boolean(
            "seven_pairs_tile_hog",
            True,
            "four of a kind in Seven Pairs scores Tile Hog",
            label="Tile Hog in Seven Pairs",
        ),
        boolean(
            "nine_gates_extras",
            True,
            "Nine Gates also scores the other patterns of its reading (Pure Straight …)",
            label="Nine Gates extras",
        ),
        choice(
            "impossible_waits",
            None,
            (None, "ignore", "count"),
            "whether a fifth copy counts as a wait (default: by variant)",
            label="Impossible waits",
            none_means="by the point values",
        ),
    )
}


def resolve_options(raw: dict[str, Any]) -> dict[str, Any]:
    """The table's MCR settings with defaults filled in (readings that follow
    the variant get the variant's reading)."""
    out = resolve("mcr", OPTIONS, raw)
    mil = out["variant"] == "mil"
    if out["knitted_wait"] is None:
        out["knitted_wait"] = "remainder" if mil else "whole_hand"
    if out["impossible_waits"] is None:
        out["impossible_waits"] = "count" if mil else "ignore"
    return out


def _values(variant: str) -> dict[str, int]:
    v = {}
    for pid, spec in PATTERNS.items():
        val = spec.value(variant)
        v[pid] = val if val is not None else 0
    return v


_VALUES = {"green_book": _values("green_book"), "mil": _values("mil")}


class _Win:
    """Facts about the win shared by every reading of the hand."""

    __slots__ = (
        "hand",
        "win",
        "self_drawn",
        "wall_last",
        "about_kong",
        "fourth",
        "variant",
        "opts",
        "values",
        "standing",
        "standing13",
        "n_kongs",
        "n_exposed",
        "waits",
        "fixed",
        "tiles",
    )

    def __init__(self, hand: Hand, opts: dict[str, Any]) -> None:
        ctx = hand.context
        self.hand = hand
        self.opts = opts
        self.variant = opts["variant"]
        self.values = _VALUES[self.variant]
        assert hand.win_tile is not None
        self.win = hand.win_tile
        self.self_drawn = ctx.self_drawn
        self.wall_last = ctx.last_tile_of_wall
        self.about_kong = ctx.kong_replacement or ctx.double_kong_replacement or ctx.robbing_kong
        in_melds = sum(
            m.tiles.count(self.win) if m.kind != "chow" else (self.win in m.tiles)
            for m in hand.melds
        )
        self.fourth = ctx.last_of_kind or (in_melds == 3 and self.win not in hand.concealed)
        c13 = [0] * NUM_KINDS
        for t in hand.concealed:
            c13[t] += 1
        self.standing13 = tuple(c13)
        c13[self.win] += 1
        self.standing = tuple(c13)
        self.tiles = hand.all_tiles()  # every tile held, the winning tile included
        self.n_kongs = hand.kongs
        self.n_exposed = sum(1 for m in hand.melds if not m.concealed)
        self.fixed = [_MELD_SETS[m.kind, m.first, m.concealed] for m in hand.melds]

    def win_flags(self, t: Tally) -> None:
        if self.fourth:
            t.add("last_tile", [tile_to_str(self.win)])
        if self.wall_last:
            t.add("last_tile_draw" if self.self_drawn else "last_tile_claim")
        if self.about_kong:
            t.add("out_with_replacement_tile" if self.self_drawn else "robbing_the_kong")
        if self.self_drawn:
            t.add("self_drawn")


def _hand_waits(w: _Win) -> tuple[int, ...]:
    if w.opts["impossible_waits"] == "count":
        forms = FORMS_STANDARD if w.hand.melds else frozenset({"standard", "seven_pairs"})
        return completing_tiles(w.standing13, len(w.hand.melds), forms, fifth=True)
    return completing_tiles(w.standing13, len(w.hand.melds), FORMS_ALL)


def _wait_pattern(groups: list[Group], win: int, t: Tally) -> None:
    """Edge, closed or single wait from where the (only) winning tile sits."""
    edge = closed = single = False
    for g in groups:
        if g.declared:
            continue
        if g.kind == CHOW:
            if g.tile + 1 == win:
                closed = True
            elif g.tile == win or g.tile + 2 == win:
                edge = True
        elif g.kind == PAIR and g.tile == win:
            single = True
    if edge:
        t.add("edge_wait", [tile_to_str(win)])
    elif closed:
        t.add("closed_wait", [tile_to_str(win)])
    elif single:
        t.add("single_wait", [tile_to_str(win)])


# the sets of the readings, built once (a HandSet is immutable)
_CHOW_SETS = [Group(CHOW, x, True) for x in range(NUM_KINDS)]
_CONCEALED_PUNGS = [Group(PUNG, x, True) for x in range(NUM_KINDS)]
_EXPOSED_PUNGS = [Group(PUNG, x, False) for x in range(NUM_KINDS)]
_PAIRS = [Group(PAIR, x, True) for x in range(NUM_KINDS)]
_MELD_SETS = {
    (kind, x, concealed): Group(kind, x, concealed, True)
    for kind in (CHOW, PUNG, KONG)
    for x in range(NUM_KINDS)
    for concealed in (False, True)
}

# the trait of a set for Outside Hand, All Fives and All Even Pungs
_OUTSIDE, _FIVE, _EVEN, _PLAIN = range(4)


def _set_trait(kind: str, first: int) -> int:
    ts = Group(kind, first, True).tiles()
    if any(is_terminal_or_honor(x) for x in ts):
        return _OUTSIDE
    if any(x < 27 and x % 9 == 4 for x in ts):
        return _FIVE
    if kind != CHOW and first < 27 and first % 9 % 2 == 1:
        return _EVEN
    return _PLAIN


_TRAITS = {(k, x): _set_trait(k, x) for k in (CHOW, PUNG, KONG, PAIR) for x in range(NUM_KINDS)}


def _read_standard(
    w: _Win, pair: int, sets: tuple[tuple[int, int], ...], waits: tuple[int, ...]
) -> Tally:
    t = Tally.new()
    win = w.win
    # a concealed pung completed by a discard counts as exposed, unless the
    # winning tile can be read as part of a concealed chow
    claimed_pung = not w.self_drawn and not any(k != D_PUNG and s <= win <= s + 2 for k, s in sets)
    groups = list(w.fixed)
    for k, s in sets:
        if k != D_PUNG:
            groups.append(_CHOW_SETS[s])
        elif claimed_pung and s == win:
            groups.append(_EXPOSED_PUNGS[s])
        else:
            groups.append(_CONCEALED_PUNGS[s])
    groups.append(_PAIRS[pair])
    w.win_flags(t)
    sets_only = groups[:-1]
    pung_idx: list[int] = []
    chow_idx: list[int] = []
    for i, g in enumerate(sets_only):
        if g.kind == CHOW:
            chow_idx.append(i)
        elif g.kind == PUNG or g.kind == KONG:
            pung_idx.append(i)
    if pung_idx:
        kong_patterns(groups, pung_idx, w.variant, t)
    # chow and pung combinations
    terminal_chows = None
    if len(chow_idx) == 4 and pair < 27 and pair % 9 == 4:
        chows = sorted(groups[i].tile for i in chow_idx)
        ps = pair // 9
        if all(c // 9 == ps for c in chows) and [c % 9 for c in chows] == [0, 0, 6, 6]:
            terminal_chows = "pure_terminal_chows"
        elif (
            all(c // 9 != ps for c in chows)
            and sorted((c // 9, c % 9) for c in chows)
            == sorted((s, r) for s in {c // 9 for c in chows} for r in (0, 6))
            and len({c // 9 for c in chows}) == 2
        ):
            terminal_chows = "three_suited_terminal_chows"
    cands = combination_candidates(sets_only)
    if terminal_chows:
        t.add(terminal_chows, [groups[i].label() for i in chow_idx] + [groups[-1].label()])
        cands = [c for c in cands if not all(sets_only[i].kind == CHOW for i in c[1])]
    for pid, used in select_combinations(cands, w.values):
        t.add(pid, [groups[i].label() for i in used])
    # nine gates
    if not w.hand.melds:
        for s in range(3):
            b = s * 9
            if (
                w.standing13[b] == 3
                and w.standing13[b + 8] == 3
                and all(w.standing13[b + r] == 1 for r in range(1, 8))
            ):
                t.add("nine_gates")
    # concealed / melded hand
    if w.n_exposed == 0:
        t.add("fully_concealed_hand" if w.self_drawn else "concealed_hand")
    elif w.n_exposed == 4 and not w.self_drawn:
        t.add("melded_hand")
    # the pair decides All Chows, Little Three Dragons, Little Four Winds
    if len(chow_idx) == 4:
        if pair < 27:
            t.add("all_chows")
    elif t.fans.get("two_dragon_pungs") and 31 <= pair <= 33:
        uses = t.uses.pop("two_dragon_pungs", []) + [groups[-1].label()]
        del t.fans["two_dragon_pungs"]
        t.add("little_three_dragons", uses)
    elif t.fans.get("big_three_winds") and 27 <= pair <= 30:
        uses = t.uses.pop("big_three_winds", []) + [groups[-1].label()]
        del t.fans["big_three_winds"]
        t.add("little_four_winds", uses)
    # set traits: Outside Hand, All Fives, All Even Pungs
    traits = [0, 0, 0, 0]
    for g in groups:
        traits[_TRAITS[g.kind, g.tile]] += 1
    if traits[_OUTSIDE] == 5:
        t.add("outside_hand")
    elif traits[_FIVE] == 5:
        t.add("all_fives")
    elif traits[_EVEN] == 5:
        t.add("all_even_pungs")
    tiles = w.tiles
    suit_patterns(tiles, t)
    tile_patterns(tiles, t)
    rank_patterns(tiles, t)
    tile_hog(tiles, w.n_kongs, t)
    if not t.fans.get("melded_hand") and not t.fans.get("four_kongs") and len(waits) == 1:
        _wait_pattern(groups, w.win, t)
    ctx = w.hand.context
    wind_patterns(groups, ctx.round_wind, ctx.seat_wind, t)
    finish(t, groups)
    if t.fans.get("nine_gates") and not w.opts["nine_gates_extras"]:
        for pid in [p for p in t.fans if p not in _NINE_GATES_KEEPS]:
            del t.fans[pid]
            t.uses.pop(pid, None)
    return t


# what Nine Gates keeps when its reading's other patterns are not counted:
# the winning context only
_NINE_GATES_KEEPS = frozenset(
    {
        "nine_gates",
        "self_drawn",
        "last_tile",
        "last_tile_draw",
        "last_tile_claim",
        "out_with_replacement_tile",
        "robbing_the_kong",
    }
)


def _read_knitted(
    w: _Win,
    ks: tuple[int, ...],
    pair: int,
    sets: tuple[tuple[int, int], ...],
    waits: tuple[int, ...],
) -> Tally:
    t = Tally.new()
    t.add("knitted_straight", ["".join(tile_to_str(x) for x in ks)])
    if sets:
        k, s = sets[0]
        g = Group(CHOW if k != D_PUNG else PUNG, s, True)
    else:
        g = w.fixed[0]
    groups = [g, Group(PAIR, pair, True)]
    if g.kind == CHOW:
        if pair < 27:
            t.add("all_chows")
    else:
        kong_patterns(groups, [0], w.variant, t)
    w.win_flags(t)
    if not w.hand.melds or (g.kind == KONG and g.concealed):
        t.add("fully_concealed_hand" if w.self_drawn else "concealed_hand")
    tiles = w.tiles
    suit_patterns(tiles, t)
    tile_hog(tiles, w.n_kongs, t)
    remainder = g.tiles() + [pair, pair]
    if w.win in remainder:
        if w.hand.melds and not (g.kind == KONG and g.concealed):
            t.add("single_wait", [tile_to_str(w.win)])
        elif w.opts["knitted_wait"] == "remainder":
            # the MIL calculator asks only the set and pair beside the
            # knitted straight what they wait for
            rest = [0] * NUM_KINDS
            for x in remainder:
                rest[x] += 1
            rest[w.win] -= 1
            if len(completing_tiles(tuple(rest), 3, FORMS_STANDARD, fifth=True)) == 1:
                _wait_pattern(groups, w.win, t)
        elif len(waits) == 1:
            _wait_pattern(groups, w.win, t)
    ctx = w.hand.context
    wind_patterns([g], ctx.round_wind, ctx.seat_wind, t)
    finish(t, groups)
    return t


def _read_special(w: _Win) -> list[Tally]:
    out = []
    c = w.standing
    tiles = w.tiles
    if is_seven_pairs(c):
        t = Tally.new()
        pairs = [x for x in range(NUM_KINDS) for _ in range(c[x] // 2)]
        if (
            len(set(pairs)) == 7
            and pairs[0] < 27
            and pairs[6] - pairs[0] == 6
            and pairs[0] // 9 == pairs[6] // 9
        ):
            t.add("seven_shifted_pairs")
        else:
            t.add("seven_pairs")
        suit_patterns(tiles, t)
        tile_patterns(tiles, t)
        rank_patterns(tiles, t)
        if w.opts["seven_pairs_tile_hog"]:
            tile_hog(tiles, 0, t)
        w.win_flags(t)
        finish(t, [])
        out.append(t)
    if is_thirteen_orphans(c):
        t = Tally.new()
        t.add("thirteen_orphans")
        w.win_flags(t)
        finish(t, [])
        out.append(t)
    ks = honors_and_knitted(c)
    if ks is not None:
        t = Tally.new()
        honors = sum(1 for x in range(27, 34) if c[x])
        if honors == 7:
            t.add("greater_honors_and_knitted_tiles")
        else:
            t.add("lesser_honors_and_knitted_tiles")
            if honors == 5:
                t.add("knitted_straight")
        w.win_flags(t)
        finish(t, [])
        out.append(t)
    return out


def _total(t: Tally, values: dict[str, int]) -> int:
    return sum(values[p] * n for p, n in t.fans.items())


def score(hand: Hand, options: dict[str, Any] | None = None) -> Result:
    """Score a validated MCR hand (``Hand.rules == "mcr"``).

    ``options``: the hand's options already resolved (``None``: resolve them).

    With the compiled core the readings run in C (``hefen._core.mcr_score``,
    branch for branch as :func:`_py_score`); a hand it does not read goes to
    the Python reference."""
    return score_compiled(
        "mcr",
        hand,
        options,
        _MCR_SCORE,
        _py_score,
        _resolved,
        resolve_options,
        _not_complete_sentence,
    )


#: resolved settings by the raw ones, for the compiled scorer, which reads
#: their table
_resolved = KeptSettings(resolve_options)
_RESOLVED = _resolved.table


def _py_score(hand: Hand, opts: dict[str, Any]) -> Result:
    """The reference scorer: every reading in Python, the best one kept."""
    w = _Win(hand, opts)
    waits = _hand_waits(w)
    readings: list[Tally] = []
    n_sets = 4 - len(hand.melds)
    for pair, sets in standard_decompositions(w.standing):
        if len(sets) == n_sets:
            readings.append(_read_standard(w, pair, sets, waits))
    if not hand.melds:
        readings.extend(_read_special(w))
    if len(hand.melds) <= 1:
        for ks, (pair, sets) in knitted_straight_decompositions(w.standing):
            if len(sets) + len(hand.melds) == 1:
                readings.append(_read_knitted(w, ks, pair, sets, waits))
    if not readings:
        return Result.invalid("mcr", _not_complete_sentence(hand))
    best = max(readings, key=lambda t: _total(t, w.values))
    return _result(hand, best, w.values, opts)


def _not_complete_sentence(hand: Hand) -> str:
    wt = tile_to_str(hand.win_tile) if hand.win_tile is not None else "?"
    return (
        f"The hand is not complete: with {wt} it does not form four sets and a pair "
        "or one of the special hands."
    )


#: each pattern's place in :data:`ORDER` (the order of a result's patterns)
_RANK = {pid: i for i, pid in enumerate(ORDER)}
_NAME_EN = {pid: spec.name_en for pid, spec in PATTERNS.items()}
_NAMES = {pid: spec.names for pid, spec in PATTERNS.items()}
_FLOWERS = PATTERNS["flower_tiles"]


def _result(hand: Hand, t: Tally, values: dict[str, int], opts: dict[str, Any]) -> Result:
    hits = []
    points = 0
    uses = t.uses
    fans = t.fans
    for pid in sorted(fans.keys() & _RANK.keys(), key=_RANK.__getitem__):
        n = fans[pid]
        if n <= 0:
            continue
        value = values[pid]
        points += value * n
        hits.append(PatternHit(pid, _NAME_EN[pid], value, n, tuple(uses.get(pid, ())), _NAMES[pid]))
    return _result_of(hand, points, hits, opts)


def _result_of(hand: Hand, points: int, hits: list[PatternHit], opts: dict[str, Any]) -> Result:
    """The result of the best reading: its patterns (``points`` without
    flowers), the flowers, and the settlement."""
    flowers = len(hand.flowers)
    if flowers:
        hits.append(
            PatternHit(
                "flower_tiles",
                _FLOWERS.name_en,
                1,
                flowers,
                tuple(tile_to_str(f) for f in hand.flowers),
                _FLOWERS.names,
            )
        )
    total = points + flowers
    winning = points >= MIN_POINTS
    if winning:
        settled = RULESET.settle_hand(hand, total, opts, resolved=True)
        payments, notes = settled.payments, settled.notes
    else:
        payments = ()
        notes = (f"{points} points without flowers is below the {MIN_POINTS}-point minimum.",)
    return Result(
        rules="mcr",
        valid=True,
        winning=winning,
        total=total,
        unit="points",
        patterns=tuple(hits),
        payments=payments,
        notes=notes,
    )


def _set_core() -> Any:
    """``hefen._core.mcr_score`` with this table registered, or ``None``
    (no compiled core, ``HEFEN_PURE=1``, or a core without it)."""
    from ..decompose import _CORE, KNITTED_STRAIGHTS
    from ..sets import set_label
    from .detect import _EXCLUDES

    if _CORE is None or not hasattr(_CORE, "mcr_score") or NEW is None:
        return None
    index = {pid: i for i, pid in enumerate(ORDER)}

    def idx(names: Any) -> tuple[int, ...]:
        return tuple(sorted(index[x] for x in names if x in index))

    labels = []
    for kind in (CHOW, PUNG, KONG, PAIR):
        for x in range(NUM_KINDS):
            ok = kind != CHOW or (x < 27 and x % 9 <= 6)
            for v in range(3):
                labels.append(set_label(kind, x, v == 2, v > 0) if ok else "")
    _CORE._set_mcr(
        tuple(ORDER),
        tuple(PATTERNS[p].value("green_book") for p in ORDER),
        tuple(PATTERNS[p].value("mil") for p in ORDER),
        tuple((idx(a), idx(b), idx(c)) for a, b, c in (_EXCLUDES[p] for p in ORDER)),
        idx(_NINE_GATES_KEEPS),
        tuple(labels),
        tuple(tile_to_str(x) for x in range(NUM_KINDS)),
        KNITTED_STRAIGHTS,
        tuple("".join(tile_to_str(x) for x in ks) for ks in KNITTED_STRAIGHTS),
        Meld,
        tuple(_NAME_EN[p] for p in ORDER),
        tuple(_NAMES[p] for p in ORDER),
        PatternHit,
    )
    seats = ("E", "S", "W", "N")
    _CORE._set_mcr_result(
        Result,
        Payment,
        tuple(tile_to_str(x) for x in range(NUM_KINDS + 8)),
        "flower_tiles",
        _FLOWERS.name_en,
        _FLOWERS.names,
        seats,
        tuple(
            f"No discarder given; {seats[(i + 1) % 4]} (the next seat) is taken as the discarder."
            for i in range(4)
        ),
        MIN_POINTS,
        BASE,
        "mcr",
        "points",
    )
    return _CORE.mcr_score


#: the compiled scorer (``None``: the Python reference scores every hand)
_MCR_SCORE = _set_core()


class MCR(Ruleset):
    """Mahjong Competition Rules: 81 patterns, 8 points to win, base 8 from each."""

    key = "mcr"
    names = {"en": "MCR (Chinese Official)", "zh": "国标麻将 (MCR)", "hi": "एमसीआर (चीनी आधिकारिक)"}
    short_names = {"en": "MCR", "zh": "国标", "hi": "एमसीआर"}
    unit = "points"
    unit_names = {"en": "points", "zh": "番", "hi": "अंक"}
    concealed_size = 13
    sets = 4
    forms = ("standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight")
    options = OPTIONS
    context_switches = (
        "last_tile_of_wall",
        "kong_replacement",
        "robbing_kong",
        "last_of_kind",
    )
    scores_dealer = False
    dealer_repeats = False
    four_alike_seven_pairs = True
    own_flowers = False

    def pattern_value(self, spec: Any, options: Any) -> int | None:
        """A pattern's value under the table's ``variant`` (Green Book or MIL)."""
        value: int | None = spec.value(self.resolve_options(options)["variant"])
        return value

    def score(self, hand: Hand, options: Mapping[str, Any] | None = None) -> Result:
        return score(
            hand, options if options is None or isinstance(options, dict) else dict(options)
        )

    def resolve_options(self, raw: Any) -> dict[str, Any]:
        if type(raw) is dict:  # kept for the compiled one-call path (a copy: the caller's)
            return dict(_resolved(raw))
        return resolve_options(raw)

    def min_value(self, options: Any) -> int:
        return MIN_POINTS

    def below_minimum(self, value: int, low: int) -> str:
        return f"An MCR hand needs at least {low} points to win, not {value}."

    def payers(self, winner: str, discarder: str | None) -> list[str]:
        """Every opponent pays the base, a discard win too."""
        return [w for w in ("E", "S", "W", "N") if w != winner]

    def payment(
        self,
        value: int,
        *,
        payer: str,
        winner: str,
        discarder: str | None,
        dealer: str,
        dealer_streak: int,
        options: Any,
    ) -> int:
        """The base of 8, and the hand's value from the discarder (or, on a
        self-draw, from each opponent)."""
        return BASE + (value if discarder is None or payer == discarder else 0)

    def false_win_penalty(self, options: Any) -> int | None:
        """The competition rules' 错和: the false declarer pays each of the
        other three players 10 points."""
        return FALSE_WIN_POINTS

    def first_position(self) -> Position:
        return mcr_position(0)

    def dealer_keeps(
        self, position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
    ) -> bool | None:
        return None  # the winds rotate after every hand

    def next_position(
        self, position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
    ) -> Position:
        return mcr_position(position.hand_number)


#: what a false declarer pays each other player (competition rules)
FALSE_WIN_POINTS = 10

RULESET = MCR()


def _set_score_dict() -> Any:
    """``hefen._core.mcr_score_dict`` (``score_uncached`` of a well-formed
    MCR object in one call) with what it reads registered, or ``None``."""
    from ..decompose import _CORE
    from ..hand import _DEFAULT_CONTEXT, _fast_hand, _py_fast_hand

    if _MCR_SCORE is None or _CORE is None or _fast_hand is _py_fast_hand:
        return None
    _CORE._set_mcr_score_dict(
        MCR.key, _RESOLVED, _DEFAULT_CONTEXT, MCR.concealed_size, MCR.flower_wins
    )
    return _CORE.mcr_score_dict


#: ``score_uncached(obj)`` for a well-formed MCR hand object, or ``None``
#: (:func:`hefen.scoring.score_uncached` then takes the Python path);
#: ``None`` itself without the compiled core
SCORE_DICT = _set_score_dict()
