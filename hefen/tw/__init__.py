"""Taiwanese 16-tile scoring (tai), after the product's reference page
(``spec/rules-tw.md``; the Hindi page ``seeds-002_tw.hi.txt`` is the source).

A hand holds 16 tiles; a win is five sets and a pair (17 tiles with the
winning tile, a kong's fourth tile apart). ``score(hand)`` reads the hand
every way it can, with each place the winning tile can take, and keeps the
reading worth the most tai. A complete hand worth nothing is a valid win, the
chicken hand (屁胡), paid the base. The flower wins — eight flowers (八仙過海)
and seven-rob-one (七搶一) — follow hand-format.md: ``win_tile`` is the
eighth bonus tile and the 16 held tiles need not be complete.

Payment: each payer pays ``base + tai × per_tai`` — the discarder alone on a
discard (the player whose flower was taken on 七搶一), all three on a
self-draw. Whenever the dealer wins or pays, that transaction carries
``1 + dealer_repeat_tai × dealer_streak`` more tai; where it applies to the
whole win (the dealer won, or the dealer alone pays) it is listed as the
patterns Dealer and Dealer Repeats, otherwise a note says what the dealer
pays extra.

Table settings (``options``), the page's reading first:

===================================  =======  ======================================
option                               default  meaning
===================================  =======  ======================================
``base``                             30       底, paid on every win (0 upwards)
``per_tai``                          10       paid per tai
``flower_kong``                      2        tai of a flower kong (花槓); or 1
``human_hand``                       false    true: an earthly win on the dealer's
                                              first discard is 人胡 at 8, not 地胡 16
``all_chows_self_draw``              false    平胡 may be self-drawn (then self-drawn
                                              is added as usual)
``all_chows_with_flowers``           false    平胡 even with bonus tiles
``concealed_self_draw``              3        一摸三: a concealed self-draw is 3 in all;
                                              2: just concealed 1 + self-drawn 1
``small_three_dragons_includes_pungs`` true   小三元 4 includes its dragon-pung tai;
                                              false: they are added (4 + 2)
``big_three_dragons_includes_pungs``  true    大三元 8 in all; false: 8 + 3
``small_four_winds_includes_winds``   false   the page adds seat/round wind tai to 小四喜
``big_four_winds_includes_winds``     true    大四喜 16 in all; false: wind tai added
``flower_kong_includes_own``          false   true: a flower kong's own-seat flower
                                              is not counted again
``dealer_repeat_tai``                 2       extra tai per consecutive repeat (連莊);
                                              some tables give 1
``timing_includes_win``               true    天胡/地胡/人胡 include self-drawn and
                                              concealed; false: those are added
===================================  =======  ======================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..decompose import FORMS_STANDARD, completing_tiles
from ..hand import Hand, HandError
from ..hk.reading import Reading, set_of_meld, standard_readings
from ..hk.table import PatternSpec, load_table
from ..notation import format_tiles
from ..options import KeptSettings, Option, boolean, choice, resolve, whole_number
from ..result import PatternHit, Result
from ..ruleset import Ruleset, score_compiled
from ..tiles import (
    DRAGONS,
    WINDS,
    counts_of,
    is_bonus,
    is_honor,
    rank_of,
    suit_of,
    tile_to_str,
)

__all__ = ["Taiwanese", "RULESET", "score", "OPTIONS", "PATTERNS", "dealer_extra"]

PATTERNS: dict[str, PatternSpec] = load_table(__name__, "tai")
ORDER = list(PATTERNS)

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        whole_number("base", 30, 0, 1_000_000, "底, paid on every win", label="Base (底)"),
        whole_number("per_tai", 10, 0, 1_000_000, "amount per tai", label="Amount per tai"),
        choice("flower_kong", 2, (2, 1), "tai of a flower kong", label="Flower kong tai"),
        boolean(
            "human_hand",
            False,
            "an earthly win on a discard is 人胡 8",
            label="Human hand (人胡) 8 tai",
        ),
        boolean("all_chows_self_draw", False, "平胡 may be self-drawn", label="Self-drawn 平胡"),
        boolean(
            "all_chows_with_flowers", False, "平胡 even with bonus tiles", label="平胡 with flowers"
        ),
        choice(
            "concealed_self_draw",
            3,
            (3, 2),
            "tai of a concealed self-draw",
            label="Concealed self-draw tai",
        ),
        boolean(
            "small_three_dragons_includes_pungs",
            True,
            "小三元 includes dragon pungs",
            label="小三元 includes dragon pungs",
        ),
        boolean(
            "big_three_dragons_includes_pungs",
            True,
            "大三元 includes dragon pungs",
            label="大三元 includes dragon pungs",
        ),
        boolean(
            "small_four_winds_includes_winds",
            False,
            "小四喜 includes the wind tai",
            label="小四喜 includes wind tai",
        ),
        boolean(
            "big_four_winds_includes_winds",
            True,
            "大四喜 includes the wind tai",
            label="大四喜 includes wind tai",
        ),
        boolean(
            "flower_kong_includes_own",
            False,
            "a flower kong absorbs its seat flower",
            label="Flower kong absorbs seat flower",
        ),
        choice(
            "dealer_repeat_tai",
            2,
            (2, 1),
            "extra tai per dealer repeat",
            label="Tai per dealer repeat",
        ),
        boolean(
            "timing_includes_win",
            True,
            "timing wins include self-drawn and concealed",
            label="Timing wins include self-draw tai",
        ),
    )
}

_WIN_TAI = frozenset({"self_drawn", "concealed_hand", "concealed_self_drawn"})
_TIMING = ("heavenly_hand", "earthly_hand", "human_hand")


def resolve_options(raw: dict[str, Any]) -> dict[str, Any]:
    return resolve("TW", OPTIONS, raw)


def _excludes(pid: str, opts: dict[str, Any]) -> set[str]:
    """The table's exclusions, as the settings change them."""
    ex = set(PATTERNS[pid].excludes)
    winds = {"round_wind", "seat_wind"}
    if pid == "small_three_dragons" and not opts["small_three_dragons_includes_pungs"]:
        ex.discard("dragon_pung")
    if pid == "big_three_dragons" and not opts["big_three_dragons_includes_pungs"]:
        ex.discard("dragon_pung")
    if pid == "small_four_winds" and opts["small_four_winds_includes_winds"]:
        ex |= winds
    if pid == "big_four_winds" and not opts["big_four_winds_includes_winds"]:
        ex -= winds
    if pid in _TIMING and not opts["timing_includes_win"]:
        ex -= _WIN_TAI
    return ex


@dataclass
class Tally:
    counts: dict[str, int] = field(default_factory=dict)
    uses: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)

    def add(self, pid: str, uses: list[str] | None = None, n: int = 1) -> None:
        self.counts[pid] = self.counts.get(pid, 0) + n
        if uses:
            self.uses.setdefault(pid, []).extend(uses)

    def value(self, pid: str) -> int:
        return self.values.get(pid, PATTERNS[pid].value or 0)

    def tai(self) -> int:
        return sum(self.value(p) * n for p, n in self.counts.items())

    def apply_exclusions(self, opts: dict[str, Any]) -> None:
        for pid in ORDER:
            if pid in self.counts:
                for ex in _excludes(pid, opts):
                    self.counts.pop(ex, None)
                    self.uses.pop(ex, None)


# ------------------------------------------------------------ context ----
def _check_context(hand: Hand) -> None:
    ctx = hand.context
    if ctx.human and ctx.self_drawn:
        raise HandError(
            "A human hand (人胡) is a win on the dealer's first discard, not a self-draw."
        )
    if ctx.declared_ready is not None:
        if any(not m.concealed for m in hand.melds):
            raise HandError(
                "A hand declared ready (天聽/地聽) is locked, so it cannot have claimed sets."
            )
        if ctx.heavenly:
            raise HandError("A heavenly hand wins on the deal, before anyone declares ready.")
    wt = hand.win_tile
    if wt is not None and is_bonus(wt):
        if len(hand.flowers) != 7:
            raise HandError(
                f"A win on the bonus tile {tile_to_str(wt)} needs the other seven bonus tiles "
                f"under 'flowers' (八仙過海 or 七搶一), not {len(hand.flowers)}."
            )
        if ctx.robbing_kong or ctx.kong_replacement or ctx.double_kong_replacement:
            raise HandError("A flower win (八仙過海 or 七搶一) is not won on a kong tile.")


def _win_patterns(hand: Hand, t: Tally, opts: dict[str, Any]) -> None:
    ctx = hand.context
    if ctx.heavenly:
        t.add("heavenly_hand")
    if ctx.earthly or ctx.human:
        on_discard = not ctx.self_drawn
        t.add("human_hand" if on_discard and opts["human_hand"] else "earthly_hand")
    if ctx.declared_ready == "tian_ting":
        t.add("tian_ting")
    elif ctx.declared_ready == "di_ting":
        t.add("di_ting")
    if hand.is_concealed:
        if not ctx.self_drawn:
            t.add("concealed_hand")
        elif opts["concealed_self_draw"] == 3:
            t.add("concealed_self_drawn")
        else:
            t.add("concealed_hand")
            t.add("self_drawn")
    elif ctx.self_drawn:
        t.add("self_drawn")
    if ctx.last_tile_of_wall:
        t.add("last_tile_of_wall" if ctx.self_drawn else "last_discard")
    if ctx.kong_replacement or ctx.double_kong_replacement:
        t.add("kong_replacement")
    if ctx.robbing_kong:
        t.add("robbing_kong")


def _flower_patterns(hand: Hand, t: Tally, opts: dict[str, Any]) -> None:
    seat = WINDS.index(hand.context.seat_wind)
    have = set(hand.flowers)
    for first in (34, 38):
        group = [first + i for i in range(4)]
        full = all(x in have for x in group)
        if full:
            t.add("flower_kong", [format_tiles(group)])
            t.values["flower_kong"] = opts["flower_kong"]
        own = first + seat
        if own in have and not (full and opts["flower_kong_includes_own"]):
            t.add("own_flower", [tile_to_str(own)])


# ------------------------------------------------------------ readings ---
def _read(hand: Hand, r: Reading, waits: tuple[int, ...], opts: dict[str, Any]) -> Tally:
    t = Tally()
    ctx = hand.context
    sets = list(r.sets)
    pair = r.pair
    pungs = [s for s in sets if s.pung_like]
    chows = [s for s in sets if s.kind == "chow"]
    dragon_pungs = [s for s in pungs if s.tile in DRAGONS]
    wind_pungs = [s for s in pungs if s.tile in WINDS]
    hidden = [s for s in pungs if s.concealed]
    labels = [s.label() for s in hidden]
    if len(hidden) >= 5:
        t.add("five_concealed_pungs", labels)
    elif len(hidden) == 4:
        t.add("four_concealed_pungs", labels)
    elif len(hidden) == 3:
        t.add("three_concealed_pungs", labels)
    if hand.kongs == 4:
        t.add("four_kongs", [s.label() for s in sets if s.kind == "kong"])
    if len(pungs) == 5:
        t.add("all_pungs")
    if len(wind_pungs) == 4:
        t.add("big_four_winds", [s.label() for s in wind_pungs])
    elif len(wind_pungs) == 3 and pair is not None and pair.tile in WINDS:
        t.add("small_four_winds", [s.label() for s in wind_pungs] + [pair.label()])
    if len(dragon_pungs) == 3:
        t.add("big_three_dragons", [s.label() for s in dragon_pungs])
    elif len(dragon_pungs) == 2 and pair is not None and pair.tile in DRAGONS:
        t.add("small_three_dragons", [s.label() for s in dragon_pungs] + [pair.label()])
    for s in dragon_pungs:
        t.add("dragon_pung", [s.label()])
    for s in wind_pungs:
        if s.tile == ctx.round_wind:
            t.add("round_wind", [s.label()])
        if s.tile == ctx.seat_wind:
            t.add("seat_wind", [s.label()])
    tiles = hand.all_tiles()
    suits = {suit_of(x) for x in tiles if not is_honor(x)}
    if not suits:
        t.add("all_honors")
    elif len(suits) == 1:
        t.add("half_flush" if any(is_honor(x) for x in tiles) else "full_flush")
    if pair is not None:
        if (
            len(chows) == 5
            and pair.tile < 27
            and 2 <= rank_of(pair.tile) <= 8
            and (not hand.flowers or opts["all_chows_with_flowers"])
            and r.two_sided
            and len(waits) >= 2
            and (not ctx.self_drawn or opts["all_chows_self_draw"])
        ):
            t.add("all_chows", [s.label() for s in chows] + [pair.label()])
        if (
            len(hand.melds) == 5
            and not any(m.concealed for m in hand.melds)
            and not ctx.self_drawn
            and r.win_in is not None
            and r.win_in.kind == "pair"
        ):
            t.add("all_claimed", [s.label() for s in sets])
        if len(waits) == 1:
            t.add("single_wait", [tile_to_str(waits[0])])
    _win_patterns(hand, t, opts)
    _flower_patterns(hand, t, opts)
    t.apply_exclusions(opts)
    return t


def _flower_win(hand: Hand) -> Tally:
    t = Tally()
    bonus = sorted(hand.flowers + ((hand.win_tile,) if hand.win_tile is not None else ()))
    t.add("eight_flowers" if hand.context.self_drawn else "seven_rob_one", [format_tiles(bonus)])
    return t


# ------------------------------------------------------------ payment ----
def dealer_extra(dealer_streak: int, opts: Mapping[str, Any]) -> int:
    """The extra tai of every transaction the dealer takes part in:
    1 + ``dealer_repeat_tai`` × the repeats."""
    return 1 + opts["dealer_repeat_tai"] * dealer_streak


# ------------------------------------------------------------ scoring ----
def _not_complete(hand: Hand) -> str:
    wt = tile_to_str(hand.win_tile) if hand.win_tile is not None else "?"
    return f"The hand is not complete: with {wt} it does not form five sets and a pair."


def score(hand: Hand, options: dict[str, Any] | None = None) -> Result:
    """Score a validated Taiwanese hand (``Hand.rules == "tw"``).

    ``options``: the hand's options already resolved (``None``: resolve them).

    With the compiled core the readings run in C (``hefen._core.tw_score``,
    branch for branch as :func:`_py_score`); a hand it does not read goes to
    the Python reference."""
    return score_compiled(
        "tw", hand, options, _TW_SCORE, _py_score, _resolved, resolve_options, _not_complete
    )


#: resolved settings by the raw ones, for the compiled scorer, which reads
#: their table
_resolved = KeptSettings(resolve_options)
_RESOLVED = _resolved.table


def _py_score(hand: Hand, opts: dict[str, Any]) -> Result:
    """The reference scorer: every reading in Python, the best one kept."""
    if hand.win_tile is None:
        raise HandError("The hand needs a 'win_tile', the tile that completed it.")
    _check_context(hand)
    notes: list[str] = []
    if is_bonus(hand.win_tile):
        best = _flower_win(hand)
        notes.append(_FLOWER_WIN_NOTE)
    else:
        waits = completing_tiles(tuple(counts_of(hand.concealed)), len(hand.melds), FORMS_STANDARD)
        tallies = [_read(hand, r, waits, opts) for r in standard_readings(hand, 5)]
        if not tallies and hand.kongs == 4:
            melds = tuple(set_of_meld(m.kind, m.first, m.concealed) for m in hand.melds)
            tallies = [_read(hand, Reading(melds, None, None, hand.win_tile), (), opts)]
            notes.append(_FOUR_KONG_WIN_NOTE)
        if not tallies:
            return Result.invalid("tw", _not_complete(hand))
        best = max(tallies, key=Tally.tai)
        if "four_kongs" in best.counts:
            notes.append(_FOUR_KONGS_NOTE)
    return _result(hand, best, opts, notes)


def _hit(t: Tally, pid: str) -> PatternHit:
    spec = PATTERNS[pid]
    return PatternHit(
        pid, spec.name_en, t.value(pid), t.counts[pid], tuple(t.uses.get(pid, ())), spec.names
    )


def _result(hand: Hand, t: Tally, opts: dict[str, Any], notes: list[str]) -> Result:
    ctx = hand.context
    tai = t.tai()
    if tai == 0:
        t.add("chicken_hand")
    hits = [_hit(t, p) for p in ORDER if p in t.counts and p not in ("dealer", "dealer_streak")]
    settled = RULESET.settle_hand(hand, tai, opts, resolved=True)
    payments = settled.payments
    notes.extend(settled.notes)
    payers = {p.frm for p in payments}
    dealer = tile_to_str(ctx.dealer)
    extra = dealer_extra(ctx.dealer_streak, opts)
    total = tai
    if ctx.dealer == ctx.seat_wind or payers == {dealer}:
        spec = PATTERNS["dealer"]
        hits.append(PatternHit("dealer", spec.name_en, 1, 1, (dealer,), spec.names))
        if ctx.dealer_streak:
            spec = PATTERNS["dealer_streak"]
            hits.append(
                PatternHit(
                    "dealer_streak",
                    spec.name_en,
                    opts["dealer_repeat_tai"],
                    ctx.dealer_streak,
                    (dealer,),
                    spec.names,
                )
            )
        total += extra
    elif dealer in payers:
        notes.append(
            f"The dealer ({dealer}) pays for {extra} more tai: 1 for the dealer"
            + (
                f" and {opts['dealer_repeat_tai']} for each of {ctx.dealer_streak} repeats."
                if ctx.dealer_streak
                else "."
            )
        )
    return Result(
        rules="tw",
        valid=True,
        winning=True,
        total=total,
        unit="tai",
        limit=False,
        patterns=tuple(hits),
        payments=payments,
        notes=tuple(notes),
    )


#: the notes of _py_score, for the compiled scorer
_FLOWER_WIN_NOTE = "A flower win scores its 8 tai; the 16 held tiles are not read."
_FOUR_KONG_WIN_NOTE = "The fourth kong ends the hand as a win; the other tiles are not read."
_FOUR_KONGS_NOTE = "Four kongs end the dealer's streak."


def _set_core() -> Any:
    """``hefen._core.tw_score`` with this table registered, or ``None`` (no
    compiled core, ``HEFEN_PURE=1``, or a core without it)."""
    from .. import hk
    from ..decompose import _CORE
    from ..hand import Meld
    from ..result import NEW, Payment
    from ..sets import CHOW, KONG, PAIR, PUNG, set_label
    from ..tiles import BONUS_FIRST, NUM_KINDS

    if _CORE is None or not hasattr(_CORE, "tw_score") or NEW is None or hk._HK_SCORE is None:
        return None
    index = {pid: i for i, pid in enumerate(ORDER)}
    labels = []
    for kind in (CHOW, PUNG, KONG, PAIR):
        for x in range(NUM_KINDS):
            ok = kind != CHOW or (x < 27 and x % 9 <= 6)
            for v in range(3):
                labels.append(set_label(kind, x, v == 2, v > 0) if ok else "")
    seats = ("E", "S", "W", "N")
    _CORE._set_tw(
        tuple(ORDER),
        tuple(PATTERNS[p].value for p in ORDER),
        tuple(tuple(sorted(index[x] for x in PATTERNS[p].excludes)) for p in ORDER),
        tuple(PATTERNS[p].name_en for p in ORDER),
        tuple(PATTERNS[p].names for p in ORDER),
        tuple(labels),
        tuple(tile_to_str(x) for x in range(BONUS_FIRST + 8)),
        tuple(format_tiles([first + i for i in range(4)]) for first in (34, 38)),
        format_tiles(list(range(BONUS_FIRST, BONUS_FIRST + 8))),
        seats,
        tuple(
            f"No discarder given; {seats[(i + 1) % 4]} (the next seat) is taken as the discarder."
            for i in range(4)
        ),
        _FLOWER_WIN_NOTE,
        _FOUR_KONG_WIN_NOTE,
        _FOUR_KONGS_NOTE,
        Meld,
        PatternHit,
        Payment,
        Result,
        "tw",
        "tai",
    )
    return _CORE.tw_score


#: the compiled scorer (``None``: the Python reference scores every hand)
_TW_SCORE = _set_core()


class Taiwanese(Ruleset):
    """Taiwanese 16-tile: tai, base + per tai, dealer and streak tai, flowers."""

    key = "tw"
    names = {"en": "Taiwanese 16-tile", "zh": "台湾十六张", "hi": "ताइवानी 16-टाइल"}
    short_names = {"en": "TW", "zh": "台式", "hi": "टीडब्ल्यू"}
    unit = "tai"
    unit_names = {"en": "tai", "zh": "台", "hi": "ताई"}
    concealed_size = 16
    sets = 5
    forms = ("standard",)
    options = OPTIONS
    context_switches = (
        "last_tile_of_wall",
        "kong_replacement",
        "robbing_kong",
        "heavenly",
        "earthly",
        "human",
    )
    context_fields = ("dealer", "dealer_streak", "declared_ready")
    scores_dealer_streak = True
    flowers_always = True
    declared_ready = ("tian_ting", "di_ting")
    flower_wins = True
    four_kongs_win = True
    #: Taiwanese tables keep the last sixteen tiles back (a table may change
    #: it with the game setting ``dead_wall``)
    dead_wall = 16
    rules_doc = "rules-tw.md"
    earthly_self_drawn = True
    claims_cost_concealed = True

    def score(self, hand: Hand, options: Mapping[str, Any] | None = None) -> Result:
        return score(
            hand, options if options is None or isinstance(options, dict) else dict(options)
        )

    def resolve_options(self, raw: Any) -> dict[str, Any]:
        if type(raw) is dict and _TW_SCORE is not None:  # kept for the one-call path (a copy)
            return dict(_resolved(raw))
        return resolve_options(raw)

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
        """``base + tai × per_tai``; a transaction with the dealer in it
        carries the dealer's extra tai."""
        tai = value + (dealer_extra(dealer_streak, options) if dealer in (winner, payer) else 0)
        return int(options["base"]) + tai * int(options["per_tai"])


RULESET = Taiwanese()


def _set_score_dict() -> Any:
    """``hefen._core.tw_score_dict`` (``score_uncached`` of a well-formed
    Taiwanese object in one call) with what it reads registered, or
    ``None``. It reads the object with the tables of hefen.mcr's one-call
    path (registered by hefen.hk's)."""
    from .. import hk
    from ..decompose import _CORE

    if _TW_SCORE is None or _CORE is None or hk.SCORE_DICT is None:
        return None
    _CORE._set_tw_score_dict(Taiwanese.key, _RESOLVED)
    return _CORE.tw_score_dict


#: ``score_uncached(obj)`` for a well-formed Taiwanese hand object, or
#: ``None`` (:func:`hefen.scoring.score_uncached` then takes the Python
#: path); ``None`` itself without the compiled core
SCORE_DICT = _set_score_dict()
