"""Hong Kong New Style scoring (fan), after the product's reference page
(``spec/rules-hk.md``; the Hindi page ``seeds-001_hk.hi.txt`` is the source).

``score(hand)`` reads a 13-tile hand (plus the winning tile) every way it can
— four sets and a pair with each place the winning tile can take, seven pairs,
thirteen orphans — counts the fan of each reading and keeps the best one. A
limit hand scores the cap and nothing is added to it.

The pattern table is data (``patterns.tsv``). The payment is ``unit × 2^fan``
with the fan capped at ``cap`` (or the half-spicy curve); on a discard win the
discarder pays all of it, on a self-drawn win each of the other three pays
half.

Table settings (``options``):

========================  ==========  ================================================
option                    default     meaning
========================  ==========  ================================================
``min_fan``               3           below it the hand is not ``winning`` (0–13)
``cap``                   13          the limit in fan: 13, or the page's 10 or 8
``half_spicy``            false       half-spicy payment: up to 4 fan 2^fan, then
                                      doubling every two fan (5→24, 6→32, 7→48 …)
``small_four_winds``      ``limit``   or 6: a 6-fan pattern with the other fan added
``unit``                  1           money for 2^0 (a whole number from 1)
``self_draw_concealed``   true        a concealed self-draw scores Concealed Hand as
                                      well as Self-Drawn (the common HK convention:
                                      門前清 and 自摸 are separate lines of the page
                                      and of HK tables, so 門前清自摸 is 2 fan);
                                      false: Self-Drawn alone
``bonus_counts_to_min``   true        flower fan (own flower/season, a full set, no
                                      flowers) count toward ``min_fan``, as the page
                                      reads (it sets the minimum on the hand's fan
                                      without exception); false: they are added only
                                      once the hand has reached the minimum
``bouquet_includes_own``  true        a full set of four flowers (or seasons) scores
                                      its 2 fan in place of the own flower (season)
                                      inside it; false: 2 + 1
``seven_pairs_four_kind`` false       four identical tiles may count as two of the
                                      seven pairs
``nine_gates``            ``pure``    ``pure``: the 13 concealed tiles are exactly
                                      1112345678999 of a suit (the page's words);
                                      ``any``: the 14 tiles are 1112345678999 + one
                                      more, whichever tile came last
========================  ==========  ================================================

A self-drawn win always carries at least the 1-fan Self-Drawn, so
``unit × 2^fan`` is always even and each half is a whole amount; were it ever
odd (it cannot be with the patterns above) the half is rounded up and a note
says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..decompose import is_seven_pairs, is_thirteen_orphans
from ..hand import Hand, HandError
from ..notation import format_tiles
from ..options import KeptSettings, Option, boolean, choice, resolve, whole_number
from ..result import PatternHit, Payment, Result
from ..ruleset import Ruleset, score_compiled
from ..tiles import (
    DRAGONS,
    WINDS,
    is_honor,
    is_terminal,
    is_terminal_or_honor,
    suit_of,
    tile_to_str,
)
from .reading import Reading, standard_readings, standing_counts
from .table import PatternSpec, load_table

__all__ = ["HongKong", "RULESET", "score", "OPTIONS", "PATTERNS", "multiplier", "payment_amount"]

PATTERNS: dict[str, PatternSpec] = load_table(__name__, "fan")
ORDER = list(PATTERNS)

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        whole_number(
            "min_fan", 3, 0, 13, "below it the hand is not winning", label="Minimum fan to win"
        ),
        choice("cap", 13, (13, 10, 8), "the limit in fan", label="Fan cap (limit)"),
        boolean("half_spicy", False, "the half-spicy payment curve", label="Half-spicy payments"),
        choice(
            "small_four_winds",
            "limit",
            ("limit", 6),
            "a limit hand, or 6 fan",
            label="Small Four Winds",
        ),
        whole_number("unit", 1, 1, 1_000_000, "money for 2^0", label="Money for 2^0"),
        boolean(
            "self_draw_concealed",
            True,
            "a concealed self-draw also scores Concealed Hand",
            label="Concealed self-draw",
        ),
        boolean(
            "bonus_counts_to_min",
            True,
            "flower fan count toward the minimum",
            label="Flowers count to the minimum",
        ),
        boolean(
            "bouquet_includes_own",
            True,
            "a full flower set replaces the own flower in it",
            label="Bouquet replaces own flower",
        ),
        boolean(
            "seven_pairs_four_kind",
            False,
            "four identical tiles may be two pairs",
            label="Four alike in Seven Pairs",
        ),
        choice(
            "nine_gates", "pure", ("pure", "any"), "which hands are Nine Gates", label="Nine Gates"
        ),
    )
}

_BONUS_GROUP = "bonus"


def resolve_options(raw: dict[str, Any]) -> dict[str, Any]:
    opts = resolve("HK", OPTIONS, raw)
    if opts["min_fan"] > opts["cap"]:
        raise HandError(
            f"The HK option min_fan ({opts['min_fan']}) cannot be above the cap ({opts['cap']})."
        )
    return opts


@dataclass
class Tally:
    """The patterns of one reading: counts and what each used."""

    counts: dict[str, int] = field(default_factory=dict)
    uses: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)  # values set by options

    def add(self, pid: str, uses: list[str] | None = None, n: int = 1) -> None:
        self.counts[pid] = self.counts.get(pid, 0) + n
        if uses:
            self.uses.setdefault(pid, []).extend(uses)

    def value(self, pid: str) -> int | None:
        if pid in self.values:
            return self.values[pid]
        return PATTERNS[pid].value

    @property
    def limits(self) -> list[str]:
        return [p for p in ORDER if p in self.counts and self.value(p) is None]

    def apply_exclusions(self) -> None:
        for pid in ORDER:
            if pid in self.counts:
                for ex in PATTERNS[pid].excludes:
                    self.counts.pop(ex, None)
                    self.uses.pop(ex, None)

    def fan(self, group: str | None = None, skip_group: str | None = None) -> int:
        total = 0
        for pid, n in self.counts.items():
            if group is not None and PATTERNS[pid].group != group:
                continue
            if skip_group is not None and PATTERNS[pid].group == skip_group:
                continue
            total += (self.value(pid) or 0) * n
        return total

    def key(self) -> tuple[int, int]:
        return (1 if self.limits else 0, self.fan())


# ------------------------------------------------------------ context ----
def _check_context(hand: Hand) -> None:
    ctx = hand.context
    if ctx.human:
        raise HandError(
            "context.human (人胡) is a Taiwanese timing win; in Hong Kong rules use earthly."
        )
    if ctx.declared_ready is not None:
        raise HandError("context.declared_ready (天聽/地聽) is Taiwanese only, not Hong Kong.")
    if ctx.earthly and ctx.self_drawn:
        raise HandError(
            "In Hong Kong rules an earthly hand is a win on the dealer's first discard, "
            "not a self-draw."
        )


def _win_patterns(hand: Hand, t: Tally, opts: dict[str, Any]) -> None:
    ctx = hand.context
    if ctx.heavenly:
        t.add("heavenly_hand")
    if ctx.earthly:
        t.add("earthly_hand")
    if ctx.self_drawn:
        t.add("self_drawn")
    if hand.is_concealed and (not ctx.self_drawn or opts["self_draw_concealed"]):
        t.add("concealed_hand")
    if ctx.robbing_kong:
        t.add("robbing_kong")
    if ctx.last_tile_of_wall:
        t.add("last_tile")
    if ctx.double_kong_replacement:
        t.add("double_kong_replacement")
    elif ctx.kong_replacement:
        t.add("kong_replacement")


def _bonus_patterns(hand: Hand, t: Tally, opts: dict[str, Any]) -> None:
    if not hand.flowers:
        t.add("no_flowers")
        return
    seat = WINDS.index(hand.context.seat_wind)
    have = set(hand.flowers)
    for first, own_id, set_id in (
        (34, "own_season", "four_seasons"),
        (38, "own_flower", "four_flowers"),
    ):
        full = all(first + i in have for i in range(4))
        if full:
            t.add(set_id, [format_tiles([first + i for i in range(4)])])
        own = first + seat
        if own in have and not (full and opts["bouquet_includes_own"]):
            t.add(own_id, [tile_to_str(own)])


def _tile_patterns(tiles: list[int], t: Tally) -> None:
    suits = {suit_of(x) for x in tiles if not is_honor(x)}
    honors = any(is_honor(x) for x in tiles)
    if not suits:
        t.add("all_honors")
    elif len(suits) == 1:
        t.add("half_flush" if honors else "full_flush")
    if all(is_terminal_or_honor(x) for x in tiles):
        t.add("mixed_terminals")


def _nine_gates(hand: Hand, opts: dict[str, Any]) -> bool:
    if hand.melds:
        return False
    shape = (3, 1, 1, 1, 1, 1, 1, 1, 3)
    c13 = [0] * 34
    for x in hand.concealed:
        c13[x] += 1
    c14 = standing_counts(hand)
    for s in (0, 9, 18):
        if opts["nine_gates"] == "pure":
            if tuple(c13[s : s + 9]) == shape:
                return True
        elif sum(c14[s : s + 9]) == 14 and all(c14[s + i] >= shape[i] for i in range(9)):
            return True
    return False


# ------------------------------------------------------------ readings ---
def _read_standard(hand: Hand, r: Reading, opts: dict[str, Any]) -> Tally:
    t = Tally()
    ctx = hand.context
    assert r.pair is not None
    sets = list(r.sets)
    pungs = [s for s in sets if s.pung_like]
    chows = [s for s in sets if s.kind == "chow"]
    dragon_pungs = [s for s in pungs if s.tile in DRAGONS]
    wind_pungs = [s for s in pungs if s.tile in WINDS]
    pair = r.pair
    # limit hands
    if len(wind_pungs) == 4:
        t.add("big_four_winds", [s.label() for s in wind_pungs])
    elif len(wind_pungs) == 3 and pair.tile in WINDS:
        t.add("small_four_winds", [s.label() for s in wind_pungs] + [pair.label()])
        if opts["small_four_winds"] != "limit":
            t.values["small_four_winds"] = int(opts["small_four_winds"])
    if len(pungs) == 4 and all(is_terminal(x) for s in sets + [pair] for x in s.tiles()):
        t.add("all_terminals")
    if len(pungs) == 4 and all(s.concealed for s in pungs):
        t.add("four_concealed_pungs", [s.label() for s in pungs])
    if hand.kongs == 4:
        t.add("four_kongs", [s.label() for s in pungs])
    if _nine_gates(hand, opts):
        t.add("nine_gates")
    # dragons
    if len(dragon_pungs) == 3:
        t.add("big_three_dragons", [s.label() for s in dragon_pungs])
    elif len(dragon_pungs) == 2 and pair.tile in DRAGONS:
        t.add("small_three_dragons", [s.label() for s in dragon_pungs] + [pair.label()])
    for s in dragon_pungs:
        t.add("dragon_pung", [s.label()])
    # winds: one pung may give both
    for s in wind_pungs:
        if s.tile == ctx.seat_wind:
            t.add("seat_wind", [s.label()])
        if s.tile == ctx.round_wind:
            t.add("round_wind", [s.label()])
    if len(pungs) == 4:
        t.add("all_pungs")
    elif len(chows) == 4:
        t.add("all_chows", [s.label() for s in chows])
    _tile_patterns(hand.all_tiles(), t)
    return t


def _read_seven_pairs(hand: Hand) -> Tally:
    t = Tally()
    t.add("seven_pairs")
    tiles = hand.all_tiles()
    _tile_patterns(tiles, t)
    return t


def _read_thirteen_orphans() -> Tally:
    t = Tally()
    t.add("thirteen_orphans")
    return t


def _readings(hand: Hand, opts: dict[str, Any]) -> list[Tally]:
    out = [_read_standard(hand, r, opts) for r in standard_readings(hand, 4)]
    if not hand.melds:
        c = standing_counts(hand)
        if is_seven_pairs(c, allow_four=opts["seven_pairs_four_kind"]):
            out.append(_read_seven_pairs(hand))
        if is_thirteen_orphans(c):
            out.append(_read_thirteen_orphans())
    for t in out:
        _win_patterns(hand, t, opts)
        _bonus_patterns(hand, t, opts)
        t.apply_exclusions()
    return out


# ------------------------------------------------------------ payment ----
def multiplier(fan: int, *, half_spicy: bool = False) -> int:
    """The payment multiplier of ``fan`` (before the unit).

    Ordinary: ``2^fan``. Half-spicy (半辣): ``2^fan`` up to 4 fan, then the
    payment doubles every two fan: 4→16, 5→24, 6→32, 7→48, 8→64, 9→96, 10→128 …
    """
    if fan < 0:
        raise HandError("A hand cannot have negative fan.")
    if not half_spicy or fan <= 4:
        return 1 << fan
    extra = fan - 4
    value = 16 << (extra // 2)
    return value * 3 // 2 if extra % 2 else value


def payment_amount(fan: int, opts: Mapping[str, Any]) -> int:
    """What a discarder pays for ``fan`` (capped at the table's cap):
    ``unit × multiplier``."""
    return int(opts["unit"]) * multiplier(min(fan, opts["cap"]), half_spicy=opts["half_spicy"])


# ------------------------------------------------------------ scoring ----
def _not_complete(hand: Hand) -> str:
    wt = tile_to_str(hand.win_tile) if hand.win_tile is not None else "?"
    return (
        f"The hand is not complete: with {wt} it does not form four sets and a pair, "
        "seven pairs or thirteen orphans."
    )


def score(hand: Hand, options: dict[str, Any] | None = None) -> Result:
    """Score a validated Hong Kong hand (``Hand.rules == "hk"``).

    ``options``: the hand's options already resolved (``None``: resolve them).

    With the compiled core the readings run in C (``hefen._core.hk_score``,
    branch for branch as :func:`_py_score`); a hand it does not read goes to
    the Python reference."""
    return score_compiled(
        "hk", hand, options, _HK_SCORE, _py_score, _resolved, resolve_options, _not_complete
    )


#: resolved settings by the raw ones, for the compiled scorer, which reads
#: their table
_resolved = KeptSettings(resolve_options)
_RESOLVED = _resolved.table


def _py_score(hand: Hand, opts: dict[str, Any]) -> Result:
    """The reference scorer: every reading in Python, the best one kept."""
    _check_context(hand)
    if hand.win_tile is None:
        raise HandError("The hand needs a 'win_tile', the tile that completed it.")
    readings = _readings(hand, opts)
    if not readings:
        return Result.invalid("hk", _not_complete(hand))
    best = max(readings, key=Tally.key)
    return _result(hand, best, opts)


def _hit(t: Tally, pid: str, value: int) -> PatternHit:
    spec = PATTERNS[pid]
    return PatternHit(
        pid, spec.name_en, value, t.counts[pid], tuple(t.uses.get(pid, ())), spec.names
    )


def _result(hand: Hand, t: Tally, opts: dict[str, Any]) -> Result:
    cap = opts["cap"]
    notes: list[str] = []
    limits = t.limits
    if limits:
        hits = [_hit(t, limits[0], cap)] + [_hit(t, p, 0) for p in limits[1:]]
        if len(limits) > 1:
            notes.append(
                "A limit hand scores the cap once: "
                + ", ".join(PATTERNS[p].name_en for p in limits[1:])
                + " not added."
            )
        fan = cap
        winning = True
    else:
        hits = [_hit(t, p, t.value(p) or 0) for p in ORDER if p in t.counts]
        raw = t.fan()
        fan = min(raw, cap)
        if raw > cap:
            notes.append(f"{raw} fan is capped at {cap}.")
        to_min = raw if opts["bonus_counts_to_min"] else t.fan(skip_group=_BONUS_GROUP)
        winning = to_min >= opts["min_fan"]
        if not winning:
            what = "fan" if opts["bonus_counts_to_min"] else "fan without flowers"
            notes.append(f"{to_min} {what} is below the table minimum of {opts['min_fan']}.")
    payments: tuple[Payment, ...] = ()
    if winning:
        settled = RULESET.settle_hand(hand, fan, opts, resolved=True)
        payments = settled.payments
        notes.extend(settled.notes)
    return Result(
        rules="hk",
        valid=True,
        winning=winning,
        total=fan,
        unit="fan",
        limit=bool(limits),
        patterns=tuple(hits),
        payments=payments,
        notes=tuple(notes),
    )


def _set_core() -> Any:
    """``hefen._core.hk_score`` with this table registered, or ``None`` (no
    compiled core, ``HEFEN_PURE=1``, or a core without it)."""
    from ..decompose import _CORE
    from ..hand import Meld
    from ..result import NEW
    from ..sets import CHOW, KONG, PAIR, PUNG, set_label
    from ..tiles import BONUS_FIRST, NUM_KINDS

    if _CORE is None or not hasattr(_CORE, "hk_score") or NEW is None:
        return None
    index = {pid: i for i, pid in enumerate(ORDER)}
    labels = []
    for kind in (CHOW, PUNG, KONG, PAIR):
        for x in range(NUM_KINDS):
            ok = kind != CHOW or (x < 27 and x % 9 <= 6)
            for v in range(3):
                labels.append(set_label(kind, x, v == 2, v > 0) if ok else "")
    seats = ("E", "S", "W", "N")
    _CORE._set_hk(
        tuple(ORDER),
        tuple(PATTERNS[p].value for p in ORDER),
        tuple(tuple(sorted(index[x] for x in PATTERNS[p].excludes)) for p in ORDER),
        tuple(PATTERNS[p].group == _BONUS_GROUP for p in ORDER),
        tuple(PATTERNS[p].name_en for p in ORDER),
        tuple(PATTERNS[p].names for p in ORDER),
        tuple(labels),
        tuple(tile_to_str(x) for x in range(BONUS_FIRST + 8)),
        tuple(format_tiles([first + i for i in range(4)]) for first in (34, 38)),
        seats,
        tuple(
            f"No discarder given; {seats[(i + 1) % 4]} (the next seat) is taken as the discarder."
            for i in range(4)
        ),
        Meld,
        PatternHit,
        Payment,
        Result,
        "hk",
        "fan",
    )
    return _CORE.hk_score


#: the compiled scorer (``None``: the Python reference scores every hand)
_HK_SCORE = _set_core()


class HongKong(Ruleset):
    """Hong Kong New Style: fan, a table minimum, 2^fan payments up to a cap."""

    key = "hk"
    names = {"en": "Hong Kong", "zh": "香港麻将", "hi": "हांगकांग"}
    short_names = {"en": "HK", "zh": "港式", "hi": "एचके"}
    unit = "fan"
    unit_names = {"en": "fan", "zh": "番", "hi": "फ़ान"}
    concealed_size = 13
    sets = 4
    forms = ("standard", "seven_pairs", "thirteen_orphans")
    options = OPTIONS
    context_switches = (
        "last_tile_of_wall",
        "kong_replacement",
        "double_kong_replacement",
        "robbing_kong",
        "heavenly",
        "earthly",
    )
    context_fields = ("dealer",)
    rules_doc = "rules-hk.md"
    example_options = {"min_fan": 0}
    plays_for_value = True

    def four_alike_in_seven_pairs(self, options: Mapping[str, Any]) -> bool:
        """The table's ``seven_pairs_four_kind`` setting (default false)."""
        opt = options.get("seven_pairs_four_kind")
        if isinstance(opt, bool):
            return opt
        return bool(OPTIONS["seven_pairs_four_kind"].default)

    def score(self, hand: Hand, options: Mapping[str, Any] | None = None) -> Result:
        return score(
            hand, options if options is None or isinstance(options, dict) else dict(options)
        )

    def resolve_options(self, raw: Any) -> dict[str, Any]:
        if type(raw) is dict and _HK_SCORE is not None:  # kept for the one-call path (a copy)
            return dict(_resolved(raw))
        return resolve_options(raw)

    def min_value(self, options: Mapping[str, Any]) -> int:
        return int(self.resolve_options(options)["min_fan"])

    def max_value(self, options: Mapping[str, Any]) -> int:
        """The highest cap: a hand entered above the table's cap is paid as the
        cap, one above every cap is no hand at all."""
        return max(OPTIONS["cap"].choices)

    def above_maximum(self, value: int, high: int) -> str:
        return (
            f"A hand of {value} fan is above the limit of {high} fan; enter a limit hand as {high}."
        )

    def payment(
        self,
        value: int,
        *,
        payer: str,
        winner: str,
        discarder: str | None,
        dealer: str,
        dealer_streak: int,
        options: Mapping[str, Any],
    ) -> int:
        """The discarder pays the whole amount; on a self-draw each of the
        other three pays half of it, an odd amount's half rounded up."""
        amount = payment_amount(value, options)
        return amount if discarder is not None else (amount + 1) // 2

    def false_win_penalty(self, options: Mapping[str, Any]) -> int | None:
        """A false declarer pays as for a limit hand: each other player gets
        a self-drawn limit hand's share (half the table cap's amount)."""
        opts = self.resolve_options(options)
        return (payment_amount(int(opts["cap"]), opts) + 1) // 2

    def settlement_notes(
        self, value: int, payments: tuple[Payment, ...], options: Mapping[str, Any]
    ) -> tuple[str, ...]:
        amount = payment_amount(value, options)
        if len(payments) == 3 and amount % 2:
            return (f"Half of {amount} is rounded up to {(amount + 1) // 2}.",)
        return ()


RULESET = HongKong()


def _set_score_dict() -> Any:
    """``hefen._core.hk_score_dict`` (``score_uncached`` of a well-formed Hong
    Kong object in one call) with what it reads registered, or ``None``. It
    reads the object with the tables of hefen.mcr's one-call path."""
    from .. import mcr
    from ..decompose import _CORE

    if _HK_SCORE is None or _CORE is None or mcr.SCORE_DICT is None:
        return None
    _CORE._set_hk_score_dict(HongKong.key, _RESOLVED)
    return _CORE.hk_score_dict


#: ``score_uncached(obj)`` for a well-formed Hong Kong hand object, or
#: ``None`` (:func:`hefen.scoring.score_uncached` then takes the Python
#: path); ``None`` itself without the compiled core
SCORE_DICT = _set_score_dict()
