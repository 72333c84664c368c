"""The hand model: melds, the winning context and a whole hand, with validation.

Every problem with an input becomes a :class:`HandError` whose message is one
sentence naming the tile or key and the reason; the interfaces turn it into
``{"valid": false, "error": ...}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .errors import HandError, safe_repr
from .ruleset import DEFAULT_RULESET, Ruleset, find_ruleset
from .tiles import (
    _PARSE,
    BONUS_FIRST,
    NUM_KINDS,
    WINDS,
    TileError,
    is_bonus,
    is_suited,
    suit_of,
    tile_from_str,
    tile_to_str,
)

__all__ = ["HandError", "Meld", "Context", "Hand"]

MeldKind = Literal["chow", "pung", "kong"]


def _codes(tiles: tuple[int, ...] | list[int]) -> list[str]:
    return [tile_to_str(t) for t in tiles]


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: an exposed chow/pung/kong or a concealed kong."""

    kind: MeldKind
    tiles: tuple[int, ...]
    concealed: bool = False

    @property
    def first(self) -> int:
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind == "kong"

    @property
    def is_pung_like(self) -> bool:
        return self.kind != "chow"

    @classmethod
    def chow(cls, first: int) -> Meld:
        return cls("chow", (first, first + 1, first + 2))

    @classmethod
    def pung(cls, tile: int) -> Meld:
        return cls("pung", (tile,) * 3)

    @classmethod
    def kong(cls, tile: int, concealed: bool = False) -> Meld:
        return cls("kong", (tile,) * 4, concealed)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "tiles": _codes(self.tiles), "concealed": self.concealed}

    @classmethod
    def from_dict(cls, obj: Any) -> Meld:
        if not isinstance(obj, Mapping):
            raise HandError(
                'Each meld must be an object like {"kind": "pung", "tiles": ["C","C","C"]}.'
            )
        unknown = set(obj) - {"kind", "tiles", "concealed"}
        if unknown:
            raise HandError(f"Unknown meld key {_first(unknown)} (use kind, tiles, concealed).")
        kind = obj.get("kind")
        if kind not in ("chow", "pung", "kong"):
            raise HandError(f"A meld kind must be chow, pung or kong, not {safe_repr(kind)}.")
        raw = obj.get("tiles")
        if not isinstance(raw, list):
            raise HandError(f"The {kind} needs a list of tiles.")
        tiles = tuple(sorted(_parse_tile(c, "meld") for c in raw))
        concealed = obj.get("concealed", False)
        if not isinstance(concealed, bool):
            raise HandError("A meld's 'concealed' must be true or false.")
        meld = cls(kind, tiles, concealed)
        meld.check()
        return meld

    def check(self) -> None:
        if self.kind not in ("chow", "pung", "kong"):
            raise HandError(f"A meld kind must be chow, pung or kong, not {safe_repr(self.kind)}.")
        _check_tile_numbers(self.tiles, "meld")
        if not isinstance(self.concealed, bool):
            raise HandError("A meld's 'concealed' must be true or false.")
        shown = " ".join(_codes(self.tiles))
        for t in self.tiles:
            if is_bonus(t):
                raise HandError(f"The bonus tile {tile_to_str(t)} cannot be part of a meld.")
        if self.kind == "chow":
            a = self.tiles
            if not (
                len(a) == 3
                and all(is_suited(t) for t in a)
                and suit_of(a[0]) == suit_of(a[2])
                and a[1] == a[0] + 1
                and a[2] == a[0] + 2
            ):
                raise HandError(f"The chow {shown} is not three consecutive tiles of one suit.")
        else:
            n = 3 if self.kind == "pung" else 4
            if len(self.tiles) != n or len(set(self.tiles)) != 1:
                raise HandError(f"The {self.kind} {shown} is not {n} identical tiles.")
        if self.concealed and self.kind != "kong":
            raise HandError(
                f"Only a kong can be concealed; a claimed {self.kind} ({shown}) is always exposed."
            )

    def __str__(self) -> str:
        from .notation import format_meld

        return format_meld(self)


def _check_tile_numbers(tiles: Any, where: str) -> None:
    """For objects built in Python: each tile a number from 0 to 41."""
    if not isinstance(tiles, tuple):
        raise HandError(f"The tiles of the {where} must be a tuple of tile numbers.")
    for t in tiles:
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < NUM_KINDS + 8:
            raise HandError(
                f"A tile of the {where} must be a tile number from 0 to 41, not {safe_repr(t)}."
            )


def _first(keys: set[Any]) -> str:
    """The first of some unknown keys, as an error sentence shows it."""
    return safe_repr(sorted(keys, key=str)[0])


def _parse_tile(code: Any, where: str) -> int:
    try:
        return tile_from_str(code)
    except TileError as e:
        raise HandError(f"Unknown tile code {safe_repr(code)} in the {where}.") from e


def _parse_wind(value: Any, key: str) -> int:
    try:
        t = tile_from_str(value)
    except TileError:
        t = -1
    if t not in WINDS:
        raise HandError(f"context.{key} must be a wind (E, S, W or N), not {safe_repr(value)}.")
    return t


@dataclass(frozen=True, slots=True)
class Context:
    """How the hand was won (hand-format.md, "context")."""

    win: Literal["discard", "self_draw"] = "discard"
    seat_wind: int = 27
    round_wind: int = 27
    last_tile_of_wall: bool = False
    kong_replacement: bool = False
    double_kong_replacement: bool = False
    robbing_kong: bool = False
    last_of_kind: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    declared_ready: str | None = None
    discarder: int | None = None
    dealer: int = 27
    dealer_streak: int = 0

    @property
    def self_drawn(self) -> bool:
        return self.win == "self_draw"

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == self.dealer

    _BOOLS = (
        "last_tile_of_wall",
        "kong_replacement",
        "double_kong_replacement",
        "robbing_kong",
        "last_of_kind",
        "heavenly",
        "earthly",
        "human",
    )

    @classmethod
    def from_dict(cls, obj: Any) -> Context:
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            raise HandError("context must be an object.")
        names = {f.name for f in fields(cls)}
        unknown = set(obj) - names
        if unknown:
            raise HandError(f"Unknown context key {_first(unknown)}.")
        kw: dict[str, Any] = {}
        if "win" in obj:
            if obj["win"] not in ("discard", "self_draw"):
                raise HandError(
                    f"context.win must be 'discard' or 'self_draw', not {safe_repr(obj['win'])}."
                )
            kw["win"] = obj["win"]
        for key in ("seat_wind", "round_wind", "dealer"):
            if key in obj:
                kw[key] = _parse_wind(obj[key], key)
        if obj.get("discarder") is not None:
            kw["discarder"] = _parse_wind(obj["discarder"], "discarder")
        for key in cls._BOOLS:
            if key in obj:
                if not isinstance(obj[key], bool):
                    raise HandError(f"context.{key} must be true or false.")
                kw[key] = obj[key]
        if obj.get("declared_ready") is not None:
            if obj["declared_ready"] not in ("tian_ting", "di_ting"):
                raise HandError("context.declared_ready must be null, 'tian_ting' or 'di_ting'.")
            kw["declared_ready"] = obj["declared_ready"]
        if "dealer_streak" in obj:
            v = obj["dealer_streak"]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 99:
                raise HandError("context.dealer_streak must be a whole number from 0 to 99.")
            kw["dealer_streak"] = v
        return cls(**kw)

    def check(self) -> None:
        """For a context built in Python: every field of the type it states."""
        if self.win not in ("discard", "self_draw"):
            raise HandError(
                f"context.win must be 'discard' or 'self_draw', not {safe_repr(self.win)}."
            )
        for key in ("seat_wind", "round_wind", "dealer", "discarder"):
            v = getattr(self, key)
            if v is None and key == "discarder":
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v not in WINDS:
                raise HandError(
                    f"context.{key} must be a wind tile (27 to 30), not {safe_repr(v)}."
                )
        for key in self._BOOLS:
            if not isinstance(getattr(self, key), bool):
                raise HandError(f"context.{key} must be true or false.")
        if self.declared_ready not in (None, "tian_ting", "di_ting"):
            raise HandError("context.declared_ready must be null, 'tian_ting' or 'di_ting'.")
        v = self.dealer_streak
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 99:
            raise HandError("context.dealer_streak must be a whole number from 0 to 99.")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "win": self.win,
            "seat_wind": tile_to_str(self.seat_wind),
            "round_wind": tile_to_str(self.round_wind),
        }
        for key in self._BOOLS:
            if getattr(self, key):
                d[key] = True
        if self.declared_ready is not None:
            d["declared_ready"] = self.declared_ready
        if self.discarder is not None:
            d["discarder"] = tile_to_str(self.discarder)
        if self.dealer != 27:
            d["dealer"] = tile_to_str(self.dealer)
        if self.dealer_streak:
            d["dealer_streak"] = self.dealer_streak
        return d


def _meld_at(index: int, obj: Any) -> Meld:
    """The meld ``melds[index]`` of a hand object; its error names where it is."""
    try:
        return Meld.from_dict(obj)
    except HandError as e:
        raise HandError(f"melds[{index}]: {e}") from None


_TOP_KEYS = {"rules", "hand", "melds", "win_tile", "flowers", "context", "options"}


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand to score: concealed tiles (without the winning tile), melds,
    winning tile, bonus tiles, context and table options."""

    rules: str
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    flowers: tuple[int, ...] = ()
    context: Context = field(default_factory=Context)
    options: Mapping[str, Any] = field(default_factory=dict)

    # -- construction -------------------------------------------------
    @classmethod
    def from_dict(cls, obj: Any, *, need_win_tile: bool = True) -> Hand:
        """Parse and validate an interchange object (hand-format.md).

        A well-formed plain-dict object is read in one pass
        (:func:`_fast_hand`); anything else, and every object with a fault,
        is read by the reference parser, whose sentence is the answer. The
        rules of the hand (tile count, copies, context) are checked once,
        after either."""
        try:
            hand = _fast_hand(cls, obj, need_win_tile)
        except Exception:  # any fault: the reference parser says which
            hand = None
        if hand is None:
            hand = cls._parse_dict(obj, need_win_tile=need_win_tile)
            hand.check_types()
        ruleset = find_ruleset(hand.rules)
        if not _rules_pass(hand, ruleset.concealed_size, ruleset.flower_wins, _DEFAULT_CONTEXT):
            hand._check_rules(ruleset)
        return hand

    @classmethod
    def _parse_dict(cls, obj: Any, *, need_win_tile: bool = True) -> Hand:
        """The reference parser: each key in turn, the first fault a sentence."""
        if not isinstance(obj, Mapping):
            raise HandError("A hand must be a JSON object.")
        unknown = set(obj) - _TOP_KEYS
        if unknown:
            raise HandError(f"Unknown key {_first(unknown)} in the hand object.")
        rules = obj.get("rules", DEFAULT_RULESET)
        find_ruleset(rules)  # an unknown ruleset is one sentence
        raw_hand = obj.get("hand")
        if not isinstance(raw_hand, list):
            raise HandError("'hand' must be a list of tile codes.")
        concealed = tuple(sorted(_parse_tile(c, "hand") for c in raw_hand))
        for t in concealed:
            if is_bonus(t):
                raise HandError(
                    f"The bonus tile {tile_to_str(t)} cannot be in the hand; list it under 'flowers'."
                )
        raw_melds = obj.get("melds", [])
        if not isinstance(raw_melds, list):
            raise HandError("'melds' must be a list.")
        melds = tuple(_meld_at(i, m) for i, m in enumerate(raw_melds))
        win_tile: int | None = None
        if obj.get("win_tile") is not None:
            win_tile = _parse_tile(obj["win_tile"], "win_tile")
        elif need_win_tile:
            raise HandError("The hand needs a 'win_tile', the tile that completed it.")
        raw_flowers = obj.get("flowers", [])
        if not isinstance(raw_flowers, list):
            raise HandError("'flowers' must be a list of bonus tiles.")
        flowers = tuple(sorted(_parse_tile(c, "flowers") for c in raw_flowers))
        context = Context.from_dict(obj.get("context"))
        options = obj.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise HandError("'options' must be an object.")
        return cls(rules, concealed, melds, win_tile, flowers, context, dict(options))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rules": self.rules,
            "hand": _codes(self.concealed),
            "melds": [m.to_dict() for m in self.melds],
        }
        if self.win_tile is not None:
            d["win_tile"] = tile_to_str(self.win_tile)
        d["flowers"] = _codes(self.flowers)
        d["context"] = self.context.to_dict()
        d["options"] = dict(self.options)
        return d

    # -- derived facts ------------------------------------------------
    @property
    def ruleset(self) -> Ruleset:
        """The ruleset this hand is scored by."""
        return find_ruleset(self.rules)

    @property
    def size(self) -> int:
        """Tiles held before the winning tile (a kong counting as three)."""
        return self.ruleset.concealed_size

    @property
    def kongs(self) -> int:
        return sum(1 for m in self.melds if m.kind == "kong")

    @property
    def is_concealed(self) -> bool:
        """No claimed sets (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def all_tiles(self) -> list[int]:
        """Every tile held, melds and winning tile included (no bonus tiles)."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        if self.win_tile is not None and not is_bonus(self.win_tile):
            out.append(self.win_tile)
        return out

    def counts(self) -> list[int]:
        c = [0] * NUM_KINDS
        for t in self.all_tiles():
            c[t] += 1
        return c

    # -- validation ---------------------------------------------------
    def check_types(self) -> None:
        """For a hand built in Python: a known ruleset, tile numbers, Meld and
        Context objects and an options mapping (what :meth:`from_dict` makes
        sure of) — a :class:`HandError` sentence otherwise. The tile count
        is not checked (the analysis holds one tile more or less)."""
        find_ruleset(self.rules)  # an unknown ruleset is one sentence
        _check_tile_numbers(self.concealed, "hand")
        _check_tile_numbers(self.flowers, "flowers")
        if self.win_tile is not None:
            _check_tile_numbers((self.win_tile,), "win_tile")
        if not isinstance(self.melds, tuple) or not all(isinstance(m, Meld) for m in self.melds):
            raise HandError("The melds of a Hand must be a tuple of Meld objects.")
        if not isinstance(self.context, Context):
            raise HandError("The context of a Hand must be a Context object.")
        if not isinstance(self.options, Mapping):
            raise HandError("'options' must be an object.")
        self.context.check()
        for m in self.melds:
            m.check()
        for t in self.concealed:
            if is_bonus(t):
                raise HandError(
                    f"The bonus tile {tile_to_str(t)} cannot be in the hand; list it under 'flowers'."
                )

    def check(self) -> None:
        """Raise :class:`HandError` for anything illegal (rules-independent part
        plus the tile count of ``self.rules``)."""
        self.check_types()
        self._check_rules(find_ruleset(self.rules))

    def _check_rules(self, ruleset: Ruleset) -> None:
        """What :meth:`check` asks beyond the types: bonus tiles, the tile
        count of ``ruleset``, at most four copies, and the context."""
        wt = self.win_tile
        flower_win = wt is not None and wt >= BONUS_FIRST
        if flower_win and not ruleset.flower_wins:
            raise HandError(
                f"The winning tile {tile_to_str(wt or 0)} is a bonus tile; "
                f"{ruleset.name()} has no flower wins."
            )
        flowers = self.flowers
        if flowers or flower_win:
            for t in flowers:
                if not is_bonus(t):
                    raise HandError(
                        f"{tile_to_str(t)} is not a bonus tile; only 1h-8h go under 'flowers'."
                    )
            bonus = list(flowers) + ([wt] if flower_win and wt else [])
            if len(set(bonus)) != len(bonus):
                dup = next(t for t in bonus if bonus.count(t) > 1)
                raise HandError(f"The bonus tile {tile_to_str(dup)} appears more than once.")
        concealed = self.concealed
        melds = self.melds
        held = len(concealed) + 3 * len(melds)
        need = ruleset.concealed_size
        if held != need:
            with_win = held + (1 if wt is not None and not flower_win else 0)
            total_need = need + (1 if wt is not None and not flower_win else 0)
            raise HandError(
                f"The hand has {with_win} tiles (a kong counting as three) "
                f"where {ruleset.short_name()} needs {total_need}"
                + (
                    " beside the winning bonus tile."
                    if flower_win
                    else " with the winning tile."
                    if wt is not None
                    else "."
                )
            )
        c = [0] * NUM_KINDS
        for t in concealed:
            c[t] += 1
        for m in melds:
            for t in m.tiles:
                c[t] += 1
        if wt is not None and not flower_win:
            c[wt] += 1
        if max(c) > 4:
            for t, n in enumerate(c):
                if n > 4:
                    raise HandError(
                        f"There are {n} copies of {tile_to_str(t)}; a set has only four."
                    )
        self._check_context()

    def _check_context(self) -> None:
        ctx = self.context
        if ctx is _DEFAULT_CONTEXT:
            return  # a discard win with nothing else said: nothing to contradict
        kongs = self.kongs
        if ctx.robbing_kong and ctx.self_drawn:
            raise HandError("Robbing a kong is a win on another player's tile, not a self-draw.")
        if ctx.kong_replacement and not ctx.self_drawn:
            raise HandError("A win on a kong replacement tile is a self-draw, not a discard win.")
        if ctx.kong_replacement and kongs == 0:
            raise HandError("A win on a kong replacement tile needs a kong among the melds.")
        if ctx.double_kong_replacement and not ctx.self_drawn:
            raise HandError("A double kong replacement win is a self-draw, not a discard win.")
        if ctx.double_kong_replacement and kongs < 2:
            raise HandError("A double kong replacement win needs two kongs among the melds.")
        if ctx.heavenly and (not ctx.self_drawn or self.melds or not ctx.is_dealer):
            raise HandError(
                "A heavenly hand is the dealer's self-drawn win on the dealt hand, with no melds."
            )
        if (ctx.earthly or ctx.human) and (
            ctx.is_dealer or any(not m.concealed for m in self.melds)
        ):
            raise HandError(
                "An earthly hand is a non-dealer's win at the first chance, with no claimed sets."
            )
        if ctx.heavenly and (ctx.earthly or ctx.human):
            raise HandError("A hand cannot be both heavenly and earthly.")
        if ctx.discarder is not None:
            if ctx.self_drawn:
                raise HandError("A self-drawn win has no discarder.")
            if ctx.discarder == ctx.seat_wind:
                raise HandError("The discarder cannot be the winner's own seat.")
        wt = self.win_tile
        if ctx.robbing_kong and wt is not None and not is_bonus(wt):
            if wt in self.concealed or any(wt in m.tiles for m in self.melds):
                raise HandError(
                    f"The robbed kong tile {tile_to_str(wt)} cannot also be in the winner's hand, "
                    "since the other three are in the robbed pung."
                )
        if ctx.last_of_kind and wt is not None and wt in self.concealed:
            raise HandError(
                f"The winning tile {tile_to_str(wt)} cannot be the last of its kind while "
                "another copy is in the concealed hand."
            )


# -- the fast path of Hand.from_dict --------------------------------------
#
# One pass over a well-formed plain-dict hand object, with the tile codes,
# the legal melds and the context keys looked up in tables built once.  It
# answers ``None`` (or raises, for an unhashable code) at the first thing it
# does not expect, and :meth:`Hand.from_dict` then reads the object with the
# reference parser, whose sentence is the answer: so it never accepts what
# the reference refuses, and builds the same Hand when it accepts.

_DEFAULT_CONTEXT = Context()

#: every legal meld, by (kind, sorted tiles, concealed)
_MELDS: dict[tuple[str, tuple[int, ...], bool], Meld] = {}
for _t in range(NUM_KINDS):
    if _t < 27 and _t % 9 <= 6:
        _MELDS["chow", (_t, _t + 1, _t + 2), False] = Meld.chow(_t)
    _MELDS["pung", (_t,) * 3, False] = Meld.pung(_t)
    _MELDS["kong", (_t,) * 4, False] = Meld.kong(_t)
    _MELDS["kong", (_t,) * 4, True] = Meld.kong(_t, True)

_WIND_CODES: dict[str, int] = {code: t for code, t in _PARSE.items() if t in WINDS}
_CONTEXT_BOOLS = frozenset(Context._BOOLS)
_CONTEXT_WINDS = frozenset({"seat_wind", "round_wind", "dealer"})
_WIN_KINDS = frozenset({"discard", "self_draw"})
_READY = frozenset({"tian_ting", "di_ting"})
_MELD_KEYS = frozenset({"kind", "tiles", "concealed"})
_CONTEXTS: dict[tuple[tuple[str, Any], ...], Context] = {}


def _fast_meld(obj: Any) -> Meld | None:
    if type(obj) is not dict or not obj.keys() <= _MELD_KEYS:
        return None
    concealed = obj.get("concealed", False)
    if concealed is not True and concealed is not False:
        return None
    raw = obj.get("tiles")
    kind = obj.get("kind")
    if type(raw) is not list or type(kind) is not str:
        return None
    return _MELDS.get((kind, tuple(sorted([_PARSE[c] for c in raw])), concealed))


def _fast_context(obj: Any) -> Context | None:
    if obj is None:
        return _DEFAULT_CONTEXT
    if type(obj) is not dict:
        return None
    kw: dict[str, Any] = {}
    for key, v in obj.items():
        if key in _CONTEXT_BOOLS:
            if v is not True and v is not False:
                return None
        elif key in _CONTEXT_WINDS:
            v = _WIND_CODES[v]
        elif key == "win":
            if type(v) is not str or v not in _WIN_KINDS:
                return None
        elif key == "discarder":
            if v is None:
                continue
            v = _WIND_CODES[v]
        elif key == "declared_ready":
            if v is None:
                continue
            if type(v) is not str or v not in _READY:
                return None
        elif key == "dealer_streak":
            if type(v) is not int or not 0 <= v <= 99:
                return None
        else:
            return None
        kw[key] = v
    if not kw or kw == {"win": "discard"}:
        return _DEFAULT_CONTEXT
    # every value of a key has one type here, so equal keys are equal contexts
    ck = tuple(kw.items())
    ctx = _CONTEXTS.get(ck)
    if ctx is None:
        if len(_CONTEXTS) >= 4096:
            _CONTEXTS.clear()
        ctx = _CONTEXTS[ck] = Context(**kw)
    return ctx


def _py_fast_hand(cls: type[Hand], obj: Any, need_win_tile: bool) -> Hand | None:
    if type(obj) is not dict or not obj.keys() <= _TOP_KEYS:
        return None
    rules = obj.get("rules", DEFAULT_RULESET)
    if type(rules) is not str:
        return None
    raw_hand = obj.get("hand")
    if type(raw_hand) is not list:
        return None
    concealed = tuple(sorted([_PARSE[c] for c in raw_hand]))
    if concealed and concealed[-1] >= BONUS_FIRST:
        return None
    raw_melds = obj.get("melds")
    melds: tuple[Meld, ...] = ()
    if raw_melds is not None:
        if type(raw_melds) is not list:
            return None
        found = [_fast_meld(m) for m in raw_melds]
        if None in found:
            return None
        melds = tuple(found)  # type: ignore[arg-type]
    elif "melds" in obj:
        return None
    raw_win = obj.get("win_tile")
    win_tile: int | None = None
    if raw_win is not None:
        win_tile = _PARSE[raw_win]
    elif need_win_tile:
        return None
    raw_flowers = obj.get("flowers")
    flowers: tuple[int, ...] = ()
    if raw_flowers is not None:
        if type(raw_flowers) is not list:
            return None
        flowers = tuple(sorted([_PARSE[c] for c in raw_flowers]))
    elif "flowers" in obj:
        return None
    context = _fast_context(obj.get("context"))
    if context is None:
        return None
    options = obj.get("options")
    if options is None:
        options = {}
    elif type(options) is not dict:
        return None
    return cls(rules, concealed, melds, win_tile, flowers, context, dict(options))


def _load_fast_hand() -> Any:
    """:func:`_py_fast_hand`, or its compiled twin ``hefen._core.fast_hand``
    (branch for branch the same; a class other than :class:`Hand` goes to
    the Python one) with the tables registered."""
    from .decompose import _CORE

    if _CORE is None or not hasattr(_CORE, "fast_hand"):
        return _py_fast_hand
    # Hand built slot by slot; Hand, Context and Meld read so (hefen._core.new)
    _CORE._set_new_types(
        tuple((cls, tuple(cls.__dataclass_fields__)) for cls in (Hand, Context, Meld))
    )
    _CORE._set_fast_context(
        _DEFAULT_CONTEXT,
        _CONTEXT_BOOLS,
        _CONTEXT_WINDS,
        _WIND_CODES,
        _WIN_KINDS,
        _READY,
        _CONTEXTS,
        Context,
    )
    _CORE._set_fast_hand(
        _PARSE,
        _MELDS,
        frozenset(_TOP_KEYS),
        _MELD_KEYS,
        DEFAULT_RULESET,
        BONUS_FIRST,
        _fast_context,
        Hand,
        _py_fast_hand,
    )
    return _CORE.fast_hand


#: the fast path of :meth:`Hand.from_dict` (compiled unless ``HEFEN_PURE=1``)
_fast_hand = _load_fast_hand()


def _py_rules_pass(hand: Hand, need: int, flower_wins: bool, default: Context) -> bool:
    """Whether :meth:`Hand._check_rules` surely passes, without running it:
    never, here (the compiled ``hefen._core.rules_pass`` answers for the hands
    it reads, and :meth:`Hand._check_rules` runs whenever it says no)."""
    return False


def _load_rules_pass() -> Any:
    from .decompose import _CORE

    if _CORE is None or not hasattr(_CORE, "rules_pass") or _fast_hand is _py_fast_hand:
        return _py_rules_pass
    return _CORE.rules_pass


_rules_pass = _load_rules_pass()
