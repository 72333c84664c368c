"""Rulesets: the one place each rule of a ruleset is stated, and the registry.

A ruleset is a subclass of :class:`Ruleset` that states only what differs —
in the spirit of python-chess's variants. The base class holds what the
rulesets share (how a win is settled from its payers, how the deal passes);
each subclass sets its class attributes (key, names, unit, hand size,
winning forms, options, rules of play) and overrides the hooks where it
differs (``score``, ``payment``, ``check_value``, ``dealer_keeps``).

Every other layer — hand validation, the table, the game engine and bots,
the analysis, the CLI, the web API, pages and JavaScript — asks the registry
(:func:`find_ruleset`, :func:`rulesets`) and never names a ruleset itself.
Adding a ruleset is one sub-package defining its class plus one line in
:data:`REGISTRY`.

>>> r = find_ruleset("hk")
>>> r.key, r.unit, r.concealed_size, r.names["zh"]
('hk', 'fan', 13, '香港麻将')
>>> [p.to_dict() for p in r.settle(3, winner="S", discarder="N").payments]
[{'from': 'N', 'to': 'S', 'amount': 8}]
>>> find_ruleset("riichi")
Traceback (most recent call last):
...
hefen.errors.HandError: rules must be one of mcr, hk, tw, not 'riichi'.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from .errors import HandError, safe_repr
from .options import Option, resolve
from .position import Position, dealer_position
from .result import Payment, Result
from .tiles import tile_to_str

if TYPE_CHECKING:  # pragma: no cover
    from .hand import Hand

__all__ = [
    "DEFAULT_RULESET",
    "REGISTRY",
    "Ruleset",
    "Settlement",
    "WINDS",
    "find_ruleset",
    "rulesets",
    "ruleset_keys",
]

#: Every ruleset: its key and where its class lives. The only list of rulesets.
REGISTRY: dict[str, str] = {
    "mcr": "hefen.mcr:RULESET",
    "hk": "hefen.hk:RULESET",
    "tw": "hefen.tw:RULESET",
}

#: The ruleset of an interchange object that names none (hand-format.md).
DEFAULT_RULESET = "mcr"

WINDS: tuple[str, str, str, str] = ("E", "S", "W", "N")

#: The analysis' form names that :mod:`hefen.decompose` spells otherwise.
_DECOMPOSE_NAMES: dict[str, str] = {"knitted_straight": "knitted"}

#: A hand value entered by hand above this is refused (no ruleset's real
#: hands come near it); a ruleset with a cap refuses above its cap.
VALUE_CEILING = 10_000


@dataclass(frozen=True, slots=True)
class Settlement:
    """The payments of one win, with the notes a player should read."""

    payments: tuple[Payment, ...]
    notes: tuple[str, ...] = ()


class Ruleset:
    """The base of every ruleset: shared behaviour and the hooks to override."""

    #: the registry key, as in the interchange object's ``rules``
    key: ClassVar[str] = ""
    #: the ruleset's name in each language
    names: ClassVar[Mapping[str, str]] = {}
    #: a short tab label in each language
    short_names: ClassVar[Mapping[str, str]] = {}
    #: what a hand's value is counted in (``points``, ``fan``, ``tai``)
    unit: ClassVar[str] = "points"
    #: the unit's name in each language
    unit_names: ClassVar[Mapping[str, str]] = {}
    #: tiles held before the winning tile (a meld counts three, a kong too)
    concealed_size: ClassVar[int] = 13
    #: sets beside the pair in a standard hand
    sets: ClassVar[int] = 4
    #: the winning forms, by the analysis' names (:data:`hefen.analysis.FORMS`;
    #: :attr:`decompose_forms` gives :mod:`hefen.decompose`'s names)
    forms: ClassVar[tuple[str, ...]] = ("standard",)
    #: the table settings this ruleset declares
    options: ClassVar[Mapping[str, Option]] = {}
    #: the yes/no context keys of hand-format.md that mean something here
    context_switches: ClassVar[tuple[str, ...]] = (
        "last_tile_of_wall",
        "kong_replacement",
        "robbing_kong",
    )
    #: the other context keys a player sets here, beyond win, winds and discarder
    context_fields: ClassVar[tuple[str, ...]] = ()
    #: whether the dealer's streak changes the score (and is sent to the scorer)
    scores_dealer_streak: ClassVar[bool] = False
    #: whether the dealer is a fact of the hand (and is sent to the scorer)
    scores_dealer: ClassVar[bool] = True
    #: whether the dealer keeps the deal after winning (or else the winds rotate every hand)
    dealer_repeats: ClassVar[bool] = True
    #: whether every hand is played with the eight flowers (a table cannot leave them out)
    flowers_always: ClassVar[bool] = False
    #: a hand a seat may declare ready (天聽/地聽), as a context value, or ()
    declared_ready: ClassVar[tuple[str, ...]] = ()
    #: whether a seat dealt or drawing the eighth flower wins (八仙過海/七搶一)
    flower_wins: ClassVar[bool] = False
    #: whether a fourth kong ends the hand as a win
    four_kongs_win: ClassVar[bool] = False
    #: tiles kept back at the end of the wall (never drawn in play)
    dead_wall: ClassVar[int] = 0
    #: whether seven pairs may hold four alike as two pairs (before the options say)
    four_alike_seven_pairs: ClassVar[bool] = False
    #: whether a seat's own flower or season scores (so the seat wind matters
    #: to a hand with flowers even when it holds no wind tile)
    own_flowers: ClassVar[bool] = True
    #: the docs page (under ``docs/``) whose example column gives the rules
    #: page's example hands; "" where they are found by scoring random hands
    rules_doc: ClassVar[str] = ""
    #: the options under which every example hand shows its pattern, however
    #: little it is worth (no table minimum); the rules page leaves them unsaid
    example_options: ClassVar[Mapping[str, Any]] = {}
    #: whether a non-dealer's self-draw on the first draw, before any call,
    #: is an earthly hand (TW 地胡; elsewhere earthly is a win on the dealer's
    #: first discard only)
    earthly_self_drawn: ClassVar[bool] = False
    #: whether a hand's payment doubles with each unit of value above a
    #: table minimum (HK's 2^fan), so that bots play for the hand's expected
    #: payment rather than for speed
    plays_for_value: ClassVar[bool] = False
    #: whether a concealed hand is paid well enough (TW 門清) that a bot
    #: makes the first claim of a concealed hand only for a clear gain
    claims_cost_concealed: ClassVar[bool] = False

    # -- forms ---------------------------------------------------------
    @cached_property
    def decompose_forms(self) -> frozenset[str]:
        """:attr:`forms` by :mod:`hefen.decompose`'s names (it calls the
        knitted straight ``knitted``), for ``is_complete`` and friends."""
        return frozenset(_DECOMPOSE_NAMES.get(f, f) for f in self.forms)

    def four_alike_in_seven_pairs(self, options: Mapping[str, Any]) -> bool:
        """Whether four of a kind may stand for two of the seven pairs at a
        table with these ``options`` (a ruleset with a setting for it reads it)."""
        return self.four_alike_seven_pairs

    # -- identity ------------------------------------------------------
    def __repr__(self) -> str:
        return f"<Ruleset {self.key}>"

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]

    def short_name(self, lang: str = "en") -> str:
        return self.short_names.get(lang) or self.short_names.get("en") or self.key.upper()

    def unit_name(self, lang: str = "en") -> str:
        return self.unit_names.get(lang) or self.unit

    # -- options -------------------------------------------------------
    def resolve_options(self, raw: Any) -> dict[str, Any]:
        """Every option with its default filled in; a :class:`HandError`
        names the first unknown option or ill-typed value."""
        return resolve(self.key, self.options, raw)

    def default_options(self) -> dict[str, Any]:
        return self.resolve_options({})

    def parse_option(self, name: str, text: Any) -> Any:
        """One option's value from text (form fields, ``NAME=VALUE``)."""
        spec = self.options.get(name)
        if spec is None:
            raise HandError(
                f"Unknown {self.key} option {_safe_repr(name)} (known: {', '.join(self.options)})."
            )
        return spec.parse(text)

    def parse_options(self, pairs: Mapping[str, Any]) -> dict[str, Any]:
        """Options given as text (or JSON values), checked together."""
        out = {name: self.parse_option(name, text) for name, text in pairs.items()}
        self.resolve_options(out)
        return out

    # -- scoring -------------------------------------------------------
    def score(
        self, hand: Hand, options: Mapping[str, Any] | None = None
    ) -> Result:  # pragma: no cover - every ruleset overrides
        """Score a validated hand. ``options``, when given, are the hand's
        options already resolved by :meth:`resolve_options` (so that
        :func:`hefen.scoring.score` resolves them once); ``None`` resolves
        ``hand.options``."""
        raise NotImplementedError

    def min_value(self, options: Mapping[str, Any]) -> int:
        """The least value (before any dealer's extra) a winning hand has."""
        return 0

    def max_value(self, options: Mapping[str, Any]) -> int:
        """The most a hand's value can be when entered by hand."""
        return VALUE_CEILING

    def check_value(self, value: Any, options: Mapping[str, Any]) -> int:
        """``value`` if it can be a winning hand's value at this table, else
        a :class:`HandError` sentence."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise HandError("The hand's value must be a whole number.")
        if value < 0:
            raise HandError(f"A hand cannot have negative {self.unit}.")
        low = self.min_value(options)
        if value < low:
            raise HandError(self.below_minimum(value, low))
        high = self.max_value(options)
        if value > high:
            raise HandError(self.above_maximum(value, high))
        return value

    def below_minimum(self, value: int, low: int) -> str:
        return f"A hand of {value} {self.unit} is below this table's minimum of {low} {self.unit}."

    def above_maximum(self, value: int, high: int) -> str:
        return f"A hand of {value} {self.unit} is above the most a hand can be here, {high}."

    def pattern_value(self, spec: Any, options: Mapping[str, Any]) -> int | None:
        """The value of the pattern ``spec`` (an entry of the ruleset's
        ``PATTERNS`` table) at a table with ``options``; ``None`` for a limit
        or a pattern without a value (the rules page shows these)."""
        value = getattr(spec, "value", None)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    # -- settlement ----------------------------------------------------
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
        """What ``payer`` pays ``winner`` for a hand of ``value``."""
        raise NotImplementedError  # pragma: no cover

    def payers(self, winner: str, discarder: str | None) -> list[str]:
        """Who pays: the discarder, or on a self-draw the other three."""
        if discarder is not None:
            return [discarder]
        return [w for w in WINDS if w != winner]

    def settle(
        self,
        value: int,
        *,
        winner: str,
        discarder: str | None,
        dealer: str = "E",
        dealer_streak: int = 0,
        options: Mapping[str, Any] | None = None,
        check: bool = True,
        resolved: bool = False,
    ) -> Settlement:
        """The one payment rule of this ruleset: who pays ``winner`` how much
        for a hand of ``value`` (points, fan, or tai without the dealer's).

        Seats are winds (``E S W N``); ``discarder`` is ``None`` for a
        self-draw. ``check`` refuses a value no winning hand has here.
        ``resolved``: ``options`` are already resolved (by the scorer).
        """
        opts: Mapping[str, Any] = (
            options if resolved and options is not None else self.resolve_options(options or {})
        )
        for what, wind in (("winner", winner), ("dealer", dealer)):
            if wind not in WINDS:
                raise HandError(
                    f"The {what}'s seat wind must be one of E, S, W, N, not {_safe_repr(wind)}."
                )
        if discarder is not None:
            if discarder not in WINDS:
                raise HandError(
                    "The discarder's seat wind must be one of E, S, W, N, "
                    f"not {_safe_repr(discarder)}."
                )
            if discarder == winner:
                raise HandError("The winner cannot also be the discarder.")
        if isinstance(dealer_streak, bool) or not isinstance(dealer_streak, int):
            raise HandError("The dealer streak must be a whole number of zero or more.")
        if not 0 <= dealer_streak <= 100:
            raise HandError("The dealer streak must be a whole number from 0 to 100.")
        if check:
            self.check_value(value, opts)
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise HandError("The hand's value must be a whole number of zero or more.")
        pays = tuple(
            Payment(
                p,
                winner,
                self.payment(
                    value,
                    payer=p,
                    winner=winner,
                    discarder=discarder,
                    dealer=dealer,
                    dealer_streak=dealer_streak,
                    options=opts,
                ),
            )
            for p in self.payers(winner, discarder)
        )
        return Settlement(pays, self.settlement_notes(value, pays, opts))

    def settlement_notes(
        self, value: int, payments: tuple[Payment, ...], options: Mapping[str, Any]
    ) -> tuple[str, ...]:
        return ()

    def settle_hand(
        self, hand: Hand, value: int, options: Mapping[str, Any], *, resolved: bool = False
    ) -> Settlement:
        """The payments of a scored hand, from its context. A discard win
        with no discarder given is paid by the next seat, with a note."""
        ctx = hand.context
        winner = tile_to_str(ctx.seat_wind)
        notes: list[str] = []
        discarder: str | None = None
        if not ctx.self_drawn:
            if ctx.discarder is None:
                discarder = WINDS[(WINDS.index(winner) + 1) % 4]
                notes.append(
                    f"No discarder given; {discarder} (the next seat) is taken as the discarder."
                )
            else:
                discarder = tile_to_str(ctx.discarder)
        s = self.settle(
            value,
            winner=winner,
            discarder=discarder,
            dealer=tile_to_str(ctx.dealer),
            dealer_streak=ctx.dealer_streak,
            options=options,
            check=False,
            resolved=resolved,
        )
        return Settlement(s.payments, tuple(notes) + s.notes)

    def false_win_penalty(self, options: Mapping[str, Any]) -> int | None:
        """What a false declarer pays each other player when the table plays
        ``false_win="penalty"``; ``None`` where the ruleset states no penalty."""
        return None

    # -- the deal ------------------------------------------------------
    def first_position(self) -> Position:
        """Where the table stands before its first hand."""
        return dealer_position(self.key, 0, 0, 0, 1)

    def dealer_keeps(
        self, position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
    ) -> bool | None:
        """Whether the dealer deals again (a repeat) after a hand won by seat
        ``winner`` (``None``: a drawn hand); ``None`` where the winds rotate
        whatever happens."""
        if winner is None:
            return dealer_keeps_on_draw
        return winner == position.dealer

    def next_position(
        self, position: Position, *, winner: int | None, dealer_keeps_on_draw: bool
    ) -> Position:
        """Where the table stands after a hand won by seat ``winner``."""
        index = position.hand_number  # index of the next hand (0-based)
        if self.dealer_keeps(position, winner=winner, dealer_keeps_on_draw=dealer_keeps_on_draw):
            return dealer_position(
                self.key,
                index,
                position.passes,
                position.dealer_streak + 1,
                position.hand_in_round + 1,
            )
        passes = position.passes + 1
        in_round = 1 if passes % 4 == 0 else position.hand_in_round + 1
        return dealer_position(self.key, index, passes, 0, in_round)

    # -- for clients ---------------------------------------------------
    def definitions(self, lang: str = "en") -> dict[str, str]:
        """Each pattern's definition in ``lang`` (pattern id → one or two
        sentences), from ``definitions.tsv`` beside the ruleset's module
        (columns ``id`` and one per language); {} where it has none. The
        file is read on first use, never when a hand is scored."""
        return dict(_definitions(type(self).__module__).get(lang, {}))

    def describe(self, lang: str = "en", translate: Callable[[str], str] = str) -> dict[str, Any]:
        """A JSON descriptor of this ruleset for pages and clients (the JS never
        names a ruleset: it reads this)."""
        return {
            "key": self.key,
            "name": self.name(lang),
            "short_name": self.short_name(lang),
            "unit": self.unit,
            "unit_name": self.unit_name(lang),
            "concealed_size": self.concealed_size,
            "sets": self.sets,
            "forms": list(self.forms),
            "options": [o.describe(translate) for o in self.options.values()],
            "defaults": self.default_options(),
            "context_switches": list(self.context_switches),
            "context_fields": list(self.context_fields),
            "scores_dealer": self.scores_dealer,
            "scores_dealer_streak": self.scores_dealer_streak,
            "declared_ready": list(self.declared_ready),
            "flowers_always": self.flowers_always,
            "dealer_repeats": self.dealer_repeats,
        }


def score_compiled(
    key: str,
    hand: Hand,
    options: dict[str, Any] | None,
    compiled: Callable[[Hand, dict[str, Any]], Result | bool | None] | None,
    reference: Callable[[Hand, dict[str, Any]], Result],
    kept: Callable[[Any], dict[str, Any]],
    resolve_options: Callable[[dict[str, Any]], dict[str, Any]],
    not_complete: Callable[[Hand], str],
) -> Result:
    """A ruleset's ``score(hand, options)`` over its compiled scorer and its
    Python reference, the same for every ruleset.

    ``compiled(hand, opts)`` (``hefen._core.mcr_score`` and the others;
    ``None`` where the extension is not built or ``HEFEN_PURE=1``) answers
    the best reading's :class:`Result`, ``False`` for a hand with no
    reading (then the invalid result says ``not_complete(hand)``), or
    ``None`` for a hand it does not read, which goes to ``reference``;
    ``options`` are the hand's resolved options (``None``: ``kept`` resolves
    them for the compiled scorer, ``resolve_options`` for the reference)."""
    if compiled is not None:
        opts = kept(hand.options) if options is None else options
        found = compiled(hand, opts)
        if isinstance(found, Result):
            return found
        if found is False:
            return Result.invalid(key, not_complete(hand))
        return reference(hand, dict(opts))
    return reference(hand, resolve_options(dict(hand.options)) if options is None else options)


@cache
def _definitions(module: str) -> dict[str, dict[str, str]]:
    """``definitions.tsv`` of the package of ``module``, by language then id."""
    import csv
    import sys
    from importlib import resources

    package = sys.modules[module].__package__ or module
    path = resources.files(package).joinpath("definitions.tsv")
    if not path.is_file():
        return {}
    out: dict[str, dict[str, str]] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        for lang, text in row.items():
            if lang != "id" and text:
                out.setdefault(lang, {})[row["id"]] = text
    return out


def ruleset_keys() -> tuple[str, ...]:
    """The keys of every ruleset, in the registry's order."""
    return tuple(REGISTRY)


def _unknown(key: Any) -> HandError:
    return HandError(f"rules must be one of {', '.join(REGISTRY)}, not {_safe_repr(key)}.")


def _safe_repr(v: Any) -> str:
    return safe_repr(v)


@cache
def _load(key: str) -> Ruleset:
    module_name, _, attr = REGISTRY[key].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        raise HandError(f"The {key} ruleset is not available in this installation.") from e
    inst = getattr(module, attr)
    if not isinstance(inst, Ruleset) or inst.key != key:
        raise HandError(f"The {key} ruleset is not installed correctly.")
    return inst


def find_ruleset(key: Any) -> Ruleset:
    """The ruleset registered under ``key``; a :class:`HandError` sentence otherwise."""
    if not isinstance(key, str) or key not in REGISTRY:
        raise _unknown(key)
    return _load(key)


def rulesets() -> tuple[Ruleset, ...]:
    """Every registered ruleset, in the registry's order."""
    return tuple(find_ruleset(k) for k in REGISTRY)
