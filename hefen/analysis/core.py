"""What a hand is waiting for, what each wait is worth, what to discard.

The input is an interchange object (hand-format.md) **without** ``win_tile``,
plus one optional key of its own:

``visible``
    a list of tile codes the player can see outside their own hand: every
    discard on the table and the tiles of the other players' melds (a tile
    once per copy seen).  It only changes how many copies of a tile are
    still *unseen*: ``4 - (copies in your own hand and melds) - (copies in
    visible)``.

``waits`` and ``shanten`` take the hand as held between turns (13 tiles,
16 in TW, a meld counting three); ``advise`` takes it with the tile just
drawn (one more; the drawn tile may also be given as ``win_tile``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import safe_repr
from ..hand import Hand, HandError
from ..i18n import N_, aside, full_stop, separator, translate_note, translations
from ..result import Result
from ..ruleset import DEFAULT_RULESET, REGISTRY, find_ruleset
from ..scoring import score
from ..tiles import NUM_KINDS, TileError, is_bonus, tile_from_str, tile_to_str
from .shanten import FORMS, shanten_counts

__all__ = [
    "Situation",
    "Wait",
    "WaitsReport",
    "ShantenReport",
    "DiscardOption",
    "Advice",
    "situation",
    "waits",
    "shanten",
    "advise",
    "allow_four_in_seven_pairs",
]

FORM_NAMES = {
    "standard": N_("sets and a pair"),
    "seven_pairs": N_("seven pairs"),
    "thirteen_orphans": N_("thirteen orphans"),
    "honors_knitted": N_("honours and knitted tiles"),
    "knitted_straight": N_("knitted straight with a set and a pair"),
}


def _gettext(lang: str) -> Any:
    """The CLI catalog's ``gettext`` for ``lang`` (:mod:`hefen.i18n`; English: the identity)."""
    return translations(lang).gettext


def allow_four_in_seven_pairs(rules: str, options: Mapping[str, Any]) -> bool:
    """Whether four of a kind may stand for two of the seven pairs.

    The ruleset says (``Ruleset.four_alike_in_seven_pairs``): MCR allows it
    (the Green Book scores it with Tile Hog); HK follows its table setting
    ``seven_pairs_four_kind`` (default there: false); TW has no seven pairs."""
    return find_ruleset(rules).four_alike_in_seven_pairs(options)


@dataclass(frozen=True, slots=True)
class Situation:
    """A hand under analysis: the hand (its ``concealed`` tiles may be one
    more than usual for ``advise``), the visible tiles, and derived counts."""

    hand: Hand
    visible: tuple[int, ...] = ()

    @property
    def rules(self) -> str:
        return self.hand.rules

    @property
    def size(self) -> int:
        return self.hand.size

    @property
    def n_melds(self) -> int:
        return len(self.hand.melds)

    def concealed_counts(self) -> tuple[int, ...]:
        c = [0] * NUM_KINDS
        for t in self.hand.concealed:
            c[t] += 1
        return tuple(c)

    def meld_counts(self) -> tuple[int, ...]:
        c = [0] * NUM_KINDS
        for m in self.hand.melds:
            for t in m.tiles:
                c[t] += 1
        return tuple(c)

    def own_counts(self) -> tuple[int, ...]:
        a, b = self.concealed_counts(), self.meld_counts()
        return tuple(x + y for x, y in zip(a, b, strict=True))

    def visible_counts(self) -> tuple[int, ...]:
        c = [0] * NUM_KINDS
        for t in self.visible:
            c[t] += 1
        return tuple(c)

    def unseen(self, t: int) -> int:
        own = self.own_counts()[t]
        return max(0, 4 - own - self.visible_counts()[t])

    @property
    def forms(self) -> tuple[str, ...]:
        return find_ruleset(self.rules).forms

    @property
    def four_pairs(self) -> bool:
        return allow_four_in_seven_pairs(self.rules, self.hand.options)


# ------------------------------------------------------------ parsing --
def _parse_visible(raw: Any) -> tuple[int, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise HandError("'visible' must be a list of tile codes (discards and others' melds).")
    out = []
    for code in raw:
        try:
            t = tile_from_str(code)
        except TileError as e:
            raise HandError(f"Unknown tile code {safe_repr(code)} in 'visible'.") from e
        if is_bonus(t):
            raise HandError(
                f"The bonus tile {tile_to_str(t)} cannot be in 'visible'; list only suit and honour tiles."
            )
        out.append(t)
    return tuple(sorted(out))


def _check_copies(sit: Situation) -> None:
    own = sit.own_counts()
    vis = sit.visible_counts()
    for t in range(NUM_KINDS):
        if own[t] > 4:
            raise HandError(f"There are {own[t]} copies of {tile_to_str(t)}; a set has only four.")
        if own[t] + vis[t] > 4:
            raise HandError(
                f"There are {own[t] + vis[t]} copies of {tile_to_str(t)} between the hand and "
                "'visible'; a set has only four."
            )


def situation(obj: Hand | Situation | Mapping[str, Any], *, drawn: bool = False) -> Situation:
    """Parse and validate an analysis input (see the module docstring).

    ``drawn``: the hand holds the tile just drawn (one more than between
    turns), as for :func:`advise`.  Raises :class:`HandError` with one
    sentence for anything illegal."""
    if isinstance(obj, Situation):
        sit = obj
    elif isinstance(obj, Hand):
        obj.check_types()  # a Hand built in Python: tile numbers, types
        sit = Situation(obj)
    else:
        if not isinstance(obj, Mapping):
            raise HandError("A hand must be a JSON object.")
        d = dict(obj)
        visible = _parse_visible(d.pop("visible", None))
        if not drawn:
            if d.get("win_tile") is not None:
                raise HandError(
                    "A hand to analyse has no 'win_tile': give the tiles held between turns "
                    "(13, or 16 in TW, a meld counting three)."
                )
            hand = Hand.from_dict(d, need_win_tile=False)
        else:
            hand = _parse_drawn(d)
        sit = Situation(hand, visible)
    expected = sit.size + (1 if drawn else 0)
    held = len(sit.hand.concealed) + 3 * sit.n_melds
    if held != expected:
        when = "with the tile just drawn" if drawn else "between turns"
        raise HandError(
            f"The hand has {held} tiles (a kong counting as three) where {sit.rules.upper()} "
            f"needs {expected} {when}."
        )
    if sit.hand.win_tile is not None:
        raise HandError("A hand to analyse has no winning tile yet.")
    _check_copies(sit)
    return sit


def _parse_drawn(d: dict[str, Any]) -> Hand:
    """A hand holding one tile more than between turns: validate it through
    the core by setting one tile aside as if it were the winning tile."""
    raw = d.get("hand")
    rules = d.get("rules", DEFAULT_RULESET)
    melds = d.get("melds", [])
    if (
        isinstance(raw, list)
        and isinstance(melds, list)
        and isinstance(rules, str)
        and rules in REGISTRY
    ):
        ruleset = find_ruleset(rules)
        held = len(raw) + 3 * len(melds) + (1 if d.get("win_tile") is not None else 0)
        need = ruleset.concealed_size + 1
        if held != need:
            raise HandError(
                f"The hand has {held} tiles (a kong counting as three) where {ruleset.short_name()} "
                f"needs {need} with the tile just drawn."
            )
    drawn_code = d.pop("win_tile", None)
    if drawn_code is None:
        if not isinstance(raw, list) or not raw:
            raise HandError("'hand' must be a list of tile codes.")
        d["hand"] = list(raw[:-1])
        drawn_code = raw[-1]
    d["win_tile"] = drawn_code
    ctx = d.get("context")
    if isinstance(ctx, Mapping):
        # flags about a winning tile do not apply to a drawn one
        d["context"] = {
            k: v for k, v in ctx.items() if k not in ("robbing_kong", "last_of_kind", "discarder")
        }
        d["context"]["win"] = "self_draw"
    hand = Hand.from_dict(d, need_win_tile=True)
    if hand.win_tile is None or is_bonus(hand.win_tile):
        raise HandError("The drawn tile must be a suit or honour tile, not a bonus tile.")
    context = hand.context
    if isinstance(ctx, Mapping):
        from ..hand import Context

        context = Context.from_dict(ctx)
    return replace(
        hand,
        concealed=tuple(sorted(hand.concealed + (hand.win_tile,))),
        win_tile=None,
        context=context,
    )


# ------------------------------------------------------------ shanten --
@dataclass(frozen=True, slots=True)
class ShantenReport:
    """``shanten``: -1 complete, 0 ready, n: n useful draws from ready.
    ``useful``: (tile, unseen copies) for every tile that lowers it."""

    shanten: int
    useful: tuple[tuple[int, int], ...]
    forms: tuple[str, ...]
    by_form: dict[str, int] = field(default_factory=dict)

    @property
    def unseen_total(self) -> int:
        return sum(n for _, n in self.useful)

    def to_dict(self) -> dict[str, Any]:
        return {
            "shanten": self.shanten,
            "useful": [tile_to_str(t) for t, _ in self.useful],
            "unseen": {tile_to_str(t): n for t, n in self.useful},
            "forms": list(self.forms),
        }

    def describe(self, lang: str = "en") -> str:
        """The report in words, in ``lang`` (en, zh, hi).

        >>> print(shanten({"hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s 1p 1p E E".split()}).describe("zh"))
        听牌（向听数 0），最佳形式：面子加雀头。
        2 种和牌张，尚未见到 4 张：1p(2) E(2)
        """
        _ = _gettext(lang)
        forms = ", ".join(_(FORM_NAMES[f]) for f in self.forms)
        if self.shanten < 0:
            return _("Complete hand ({forms}).").format(forms=forms)
        if self.shanten == 0:
            head = _("Ready (shanten {shanten}), best form: {forms}.")
        else:
            head = _("{shanten} away from ready (shanten {shanten}), best form: {forms}.")
        lines = [head.format(shanten=self.shanten, forms=forms)]
        if self.useful:
            if self.shanten == 0:
                what = _("{kinds} winning tile kinds, {unseen} unseen copies: ")
            else:
                what = _("{kinds} useful tile kinds, {unseen} unseen copies: ")
            lines.append(
                what.format(kinds=len(self.useful), unseen=self.unseen_total)
                + " ".join(f"{tile_to_str(t)}({n})" for t, n in self.useful)
            )
        else:
            lines.append(_("No tile lowers it: every copy the hand needs is already in it."))
        return "\n".join(lines)


def _shanten_of(sit: Situation, fifth: bool = False) -> ShantenReport:
    info = shanten_counts(
        sit.concealed_counts(),
        sit.meld_counts(),
        sit.n_melds,
        sit.forms,
        sit.size,
        fifth=fifth,
        allow_four_pairs=sit.four_pairs,
    )
    useful = tuple((t, sit.unseen(t)) for t in info.useful)
    return ShantenReport(info.shanten, useful, info.forms, info.by_form)


def shanten(obj: Hand | Situation | Mapping[str, Any], *, fifth: bool = False) -> ShantenReport:
    """The shanten of a hand held between turns, over every form its
    ruleset allows, and the tiles that lower it.  ``fifth=True`` ignores
    the four-copies limit (the reading of pymahjonggb and other
    calculators)."""
    return _shanten_of(situation(obj), fifth)


# -------------------------------------------------------------- waits --
@dataclass(frozen=True, slots=True)
class Wait:
    """One tile that completes the hand."""

    tile: int
    unseen: int
    real: bool
    discard: Result | None
    self_draw: Result | None
    note: str | None = None

    def value(self) -> int:
        """What a win on a discard is worth (0 if below the table minimum)."""
        r = self.discard
        return r.total if r is not None and r.valid and r.winning else 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"tile": tile_to_str(self.tile), "unseen": self.unseen}
        d["discard"] = self.discard.to_dict() if self.discard is not None else None
        d["self_draw"] = self.self_draw.to_dict() if self.self_draw is not None else None
        if not self.real:
            d["real"] = False
        if self.note:
            d["note"] = self.note
        return d

    def describe(self, lang: str = "en") -> str:
        _ = _gettext(lang)
        code = tile_to_str(self.tile)
        note = translate_note(self.note, lang) if self.note else ""
        if not self.real:
            return _("{tile}: not a real wait — {note}").format(tile=code, note=note)
        parts = [_("{tile}: {unseen} unseen").format(tile=code, unseen=self.unseen)]
        for label, r in ((_("on a discard"), self.discard), (_("self-drawn"), self.self_draw)):
            parts.append(f"{label} {_result_words(r, lang)}")
        line = separator(lang).join(parts)
        if note:
            line += aside(note, lang)
        return line


def _result_words(r: Result | None, lang: str = "en") -> str:
    _ = _gettext(lang)
    if r is None:
        return _("not scored")
    if not r.valid:
        return _("cannot be scored ({error})").format(error=r.error)
    pats = ", ".join(
        (p.names.get(lang, p.name) if p.names else p.name) + (f" x{p.count}" if p.count > 1 else "")
        for p in r.patterns
    )
    try:
        unit = find_ruleset(r.rules).unit_name(lang)
    except HandError:
        unit = r.unit
    words = f"{r.total} {unit}" + (" " + _("(limit)") if r.limit else "")
    if not r.winning:
        words += _(" — complete but below the table minimum, not a win")
    return words + (f" [{pats}]" if pats else "")


@dataclass(frozen=True, slots=True)
class WaitsReport:
    shanten: int
    waits: tuple[Wait, ...]

    @property
    def real_waits(self) -> tuple[Wait, ...]:
        return tuple(w for w in self.waits if w.real)

    def to_dict(self) -> dict[str, Any]:
        return {"waits": [w.to_dict() for w in self.waits], "shanten": self.shanten}

    def best(self) -> int:
        return max((w.value() for w in self.real_waits if w.unseen), default=0)

    def average(self) -> float:
        """The discard-win value averaged over the unseen winning copies."""
        n = sum(w.unseen for w in self.real_waits)
        if not n:
            return 0.0
        return sum(w.unseen * w.value() for w in self.real_waits) / n

    def describe(self, lang: str = "en") -> str:
        """The report in words, in ``lang`` (en, zh, hi)."""
        _ = _gettext(lang)
        if self.shanten > 0 and self.waits:
            lines = [
                _(
                    "Not really ready: the shape is complete with {tiles}, but no such tile "
                    "is left, so the hand is {shanten} away from ready."
                ).format(
                    tiles=", ".join(tile_to_str(w.tile) for w in self.waits),
                    shanten=self.shanten,
                )
            ]
            return "\n".join(lines + ["  " + w.describe(lang) for w in self.waits])
        if self.shanten > 0:
            return _(
                "Not ready: the hand is {shanten} away from ready (see 'hefen shanten')."
            ).format(shanten=self.shanten)
        if self.shanten < 0:
            return _("The hand is already complete.")
        live = sum(w.unseen for w in self.real_waits)
        kinds = len(self.real_waits)
        if kinds == 1:
            head = _("Ready: {kinds} winning tile kind, {unseen} unseen copies.")
        else:
            head = _("Ready: {kinds} winning tile kinds, {unseen} unseen copies.")
        lines = [head.format(kinds=kinds, unseen=live)]
        lines += ["  " + w.describe(lang) for w in self.waits]
        return "\n".join(lines)


def _score_win(sit: Situation, tile: int, how: str) -> Result:
    hand = sit.hand
    ctx = hand.context.to_dict()
    ctx["win"] = how
    if how == "self_draw":
        for k in ("robbing_kong", "discarder"):
            ctx.pop(k, None)
    else:
        for k in ("kong_replacement", "double_kong_replacement"):
            ctx.pop(k, None)
    # the last copy of its kind: the other three are on the table (the
    # player's exposed melds or 'visible'), none in the concealed tiles
    exposed = sum(m.tiles.count(tile) for m in hand.melds if not m.concealed)
    last = tile not in hand.concealed and exposed + sit.visible_counts()[tile] == 3
    ctx.pop("last_of_kind", None)
    if last:
        ctx["last_of_kind"] = True
    obj = hand.to_dict()
    obj["win_tile"] = tile_to_str(tile)
    obj["context"] = ctx
    try:
        return score(obj)
    except ImportError:
        return Result.invalid(
            hand.rules, f"Scoring under {hand.rules.upper()} rules is not installed yet."
        )


def _waits_of(sit: Situation, scored: bool = True) -> WaitsReport:
    c = list(sit.concealed_counts())
    own = sit.own_counts()
    vis = sit.visible_counts()
    base = shanten_counts(
        tuple(c),
        sit.meld_counts(),
        sit.n_melds,
        sit.forms,
        sit.size,
        fifth=True,
        allow_four_pairs=sit.four_pairs,
    )
    if base.shanten != 0:
        honest = _shanten_of(sit).shanten if base.shanten > 0 else base.shanten
        return WaitsReport(honest, ())
    # every tile kind that completes it, a fifth copy included
    real_exists = any(own[t] < 4 for t in base.useful)
    honest = 0 if real_exists else _shanten_of(sit).shanten
    out = []
    for t in base.useful:
        if own[t] >= 4:
            out.append(
                Wait(
                    t,
                    0,
                    False,
                    None,
                    None,
                    f"all four {tile_to_str(t)} are already in your own hand or melds; "
                    "no copy is left to win on",
                )
            )
            continue
        unseen = 4 - own[t] - vis[t]
        note = None
        if unseen <= 0:
            unseen = 0
            note = "every other copy is visible on the table; none is left to win on"
        elif unseen == 1:
            note = "the last copy"
        d = _score_win(sit, t, "discard") if scored else None
        s = _score_win(sit, t, "self_draw") if scored else None
        out.append(Wait(t, unseen, True, d, s, note))
    return WaitsReport(honest, tuple(out))


def waits(obj: Hand | Situation | Mapping[str, Any], *, scored: bool = True) -> WaitsReport:
    """Every tile that completes a ready hand, its unseen copies and its
    score by discard and by self-draw (the table's options and context
    apply; the analysis sets ``win`` and, from ``visible``,
    ``last_of_kind``).  A tile whose four copies the player holds is listed
    with ``unseen: 0`` and a note: it is not a real wait."""
    return _waits_of(situation(obj), scored)


# ------------------------------------------------------------- advise --
@dataclass(frozen=True, slots=True)
class DiscardOption:
    tile: int
    shanten: int
    useful: tuple[tuple[int, int], ...]
    waits: WaitsReport | None = None

    @property
    def unseen(self) -> int:
        return sum(n for _, n in self.useful)

    @property
    def best(self) -> int | None:
        return self.waits.best() if self.waits is not None else None

    @property
    def average(self) -> float | None:
        return self.waits.average() if self.waits is not None else None

    def key(self) -> tuple[int, int, float, int, int]:
        return (self.shanten, -self.unseen, -(self.average or 0.0), -(self.best or 0), self.tile)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "discard": tile_to_str(self.tile),
            "shanten": self.shanten,
            "useful": [tile_to_str(t) for t, _ in self.useful],
            "unseen": self.unseen,
        }
        if self.waits is not None:
            d["waits"] = self.waits.to_dict()["waits"]
            d["best"] = self.best
            d["average"] = round(self.average or 0.0, 2)
        return d

    def describe(self, unit: str, lang: str = "en") -> str:
        _ = _gettext(lang)
        code = tile_to_str(self.tile)
        if self.shanten < 0:
            return _(
                "Discard {tile}: impossible, the hand is already complete — declare the win."
            ).format(tile=code)
        kinds = len(self.useful)
        if self.shanten == 0:
            ws = ", ".join(
                _("{tile} ({n} left)").format(tile=tile_to_str(t), n=n) for t, n in self.useful
            ) or _("nothing")
            line = _("Discard {tile}: ready, waiting on {waits}; {live} live tiles").format(
                tile=code, waits=ws, live=self.unseen
            )
            if self.waits is not None:
                real = [w for w in self.waits.real_waits if w.unseen]
                if real and self.best:
                    line += _(
                        "; a discard win is worth up to {best} {unit}, "
                        "{average} on average over the live tiles"
                    ).format(best=self.best, unit=unit, average=f"{self.average or 0:.1f}")
                elif real:
                    line += _("; but no live winning tile reaches the table minimum")
                dead = [w for w in self.waits.waits if not w.real]
                for w in dead:
                    line += _("; {tile} would not be a real wait (all four are yours)").format(
                        tile=tile_to_str(w.tile)
                    )
            return line + full_stop(lang)
        if self.shanten == 1:
            steps = _(
                "Discard {tile}: 1 tile from ready; {kinds} kinds of useful tiles, "
                "{unseen} unseen copies"
            )
        else:
            steps = _(
                "Discard {tile}: {shanten} tiles from ready; {kinds} kinds of useful tiles, "
                "{unseen} unseen copies"
            )
        return (
            steps.format(tile=code, shanten=self.shanten, kinds=kinds, unseen=self.unseen)
            + (
                aside(" ".join(tile_to_str(t) for t, _n in self.useful), lang)
                if self.useful
                else ""
            )
            + full_stop(lang)
        )


@dataclass(frozen=True, slots=True)
class Advice:
    rules: str
    complete: bool
    options: tuple[DiscardOption, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"complete": self.complete, "options": [o.to_dict() for o in self.options]}

    def describe(self, lang: str = "en") -> str:
        """The ranked discards in words, in ``lang`` (en, zh, hi)."""
        _ = _gettext(lang)
        unit = find_ruleset(self.rules).unit_name(lang)
        lines = []
        if self.complete:
            lines.append(_("This hand is already complete: declare the win (self-drawn)."))
        if not self.options:
            return "\n".join(lines)
        best = self.options[0]
        ties = [o for o in self.options if o.key()[:4] == best.key()[:4]]
        reason = _why(best, self.options, lang)
        if len(ties) > 1:
            lines.append(
                _("Best: discard any of {tiles} — {reason}").format(
                    tiles=", ".join(tile_to_str(o.tile) for o in ties), reason=reason
                )
            )
        else:
            lines.append(
                _("Best: discard {tile} — {reason}").format(
                    tile=tile_to_str(best.tile), reason=reason
                )
            )
        lines += ["  " + o.describe(unit, lang) for o in self.options]
        return "\n".join(lines)


def _why(best: DiscardOption, opts: tuple[DiscardOption, ...], lang: str = "en") -> str:
    _ = _gettext(lang)
    others = [o for o in opts if o.tile != best.tile]
    if not others:
        return _("it is the only choice.")
    if all(o.shanten > best.shanten for o in others):
        return (
            _("it is the only discard that keeps the hand ready.")
            if best.shanten == 0
            else _("it keeps the hand closest to ready.")
        )
    same = [o for o in others if o.shanten == best.shanten]
    if all(o.unseen < best.unseen for o in same):
        return _("it leaves the most unseen useful tiles ({unseen}).").format(unseen=best.unseen)
    if best.shanten == 0 and best.average is not None:
        return _(
            "as many live tiles as the alternatives, and the most valuable waits "
            "(average {average}, best {best})."
        ).format(average=f"{best.average:.1f}", best=best.best)
    return _("no other discard does better.")


def advise(obj: Hand | Situation | Mapping[str, Any], *, scored: bool = True) -> Advice:
    """Rank every discard of a hand that holds the tile just drawn: by the
    resulting shanten, then the number of unseen useful tiles, then (when
    ready) the average and best value of the waits."""
    sit = situation(obj, drawn=True)
    own = sit.own_counts()
    vis = sit.visible_counts()
    full = shanten_counts(
        sit.concealed_counts(),
        sit.meld_counts(),
        sit.n_melds,
        sit.forms,
        sit.size,
        allow_four_pairs=sit.four_pairs,
    )
    options = []
    for d in sorted(set(sit.hand.concealed)):
        rest = list(sit.hand.concealed)
        rest.remove(d)
        h13 = replace(sit.hand, concealed=tuple(rest))
        s13 = Situation(h13, sit.visible + (d,))
        rep = _shanten_of(s13)
        # unseen copies: the discarded tile now lies on the table
        useful = tuple((t, max(0, 4 - own[t] - vis[t])) for t, _ in rep.useful)
        w = _waits_of(s13, scored) if rep.shanten == 0 and scored else None
        options.append(DiscardOption(d, rep.shanten, useful, w))
    options.sort(key=DiscardOption.key)
    return Advice(sit.rules, full.shanten < 0, tuple(options))


__all__ += ["FORMS", "FORM_NAMES"]
