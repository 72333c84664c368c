"""A compact human notation for hands, for the command line.

::

    123m456p789sEECC [EEE] (1111s) +E f:13h

* concealed tiles MPSZ-style: digits then their suit letter ``m`` (characters),
  ``p`` (dots), ``s`` (bamboo) or ``z`` (honours 1-7 = E S W N P F C); honours
  may also be written as the capital letters ``E S W N`` (winds) and ``C F P``
  (red, green, white dragon) — capitals are honours, lower case are suits;
* ``[...]`` an exposed meld (chow, pung or kong, told apart by its tiles),
  ``(...)`` a concealed kong;
* ``+X`` the winning tile (left out for an incomplete hand);
* ``f:...`` the bonus tiles, e.g. ``f:13h`` for spring and autumn.

``format_hand(parse_hand(s))`` gives the canonical spelling of ``s`` and
``parse_hand(format_hand(x)) == x`` for every parsed ``x``.

>>> p = parse_hand("EECC123m456p789s [EEE] +E")
>>> format_hand(p)
'123m456p789sEECC [EEE] +E'
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import safe_repr
from .hand import HandError, Meld
from .tiles import is_bonus, tile_from_str, tile_to_str


def _shown(text: str) -> str:
    """Some of the notation, quoted for an error sentence (short, printable)."""
    return safe_repr(text, limit=80)


__all__ = ["ParsedHand", "parse_hand", "format_hand", "format_tiles", "parse_tiles", "format_meld"]

_HONOR_LETTERS = "ESWNCFP"


@dataclass(frozen=True, slots=True)
class ParsedHand:
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    win_tile: int | None = None
    flowers: tuple[int, ...] = ()


def parse_tiles(text: str) -> list[int]:
    """Parse a run of tiles such as ``123m55pEEC`` (no melds, no markers)."""
    out: list[int] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "mpszh":
            if not digits:
                hint = f" (did you mean '{ch.upper()}'?)" if ch.upper() in _HONOR_LETTERS else ""
                raise HandError(
                    f"The suit letter '{ch}' in {_shown(text)} has no numbers before it{hint}."
                )
            for d in digits:
                try:
                    out.append(tile_from_str(d + ch))
                except ValueError as e:
                    raise HandError(f"'{d}{ch}' in {_shown(text)} is not a tile.") from e
            digits = ""
        elif ch in _HONOR_LETTERS:
            if digits:
                raise HandError(
                    f"The numbers {_shown(digits)} in {_shown(text)} have no suit letter."
                )
            out.append(tile_from_str(ch))
        elif 0x1F000 <= ord(ch) <= 0x1F029:
            out.append(tile_from_str(ch))
        elif ch.upper() in _HONOR_LETTERS:  # an honour written in lower case
            raise HandError(
                f"Unexpected character {_shown(ch)} in {_shown(text)} (did you mean "
                f"'{ch.upper()}'? honours are capitals: E S W N C F P)."
            )
        else:
            raise HandError(f"Unexpected character {_shown(ch)} in {_shown(text)}.")
    if digits:
        raise HandError(f"The numbers {_shown(digits)} in {_shown(text)} have no suit letter.")
    return out


def format_tiles(tiles: list[int] | tuple[int, ...]) -> str:
    """Canonical spelling: suits in the order m p s h with sorted numbers,
    honour letters last (winds then dragons)."""
    ts = sorted(tiles)
    parts: list[str] = []
    for suit in "mpsh":
        ranks = [
            tile_to_str(t)[0] for t in ts if tile_to_str(t)[-1] == suit and len(tile_to_str(t)) == 2
        ]
        if ranks:
            parts.append("".join(ranks) + suit)
    # bonus tiles are "1h".. handled above; honours are single letters
    parts.append("".join(tile_to_str(t) for t in ts if len(tile_to_str(t)) == 1))
    return "".join(parts)


def format_meld(m: Meld) -> str:
    body = format_tiles(m.tiles)
    return f"({body})" if m.concealed else f"[{body}]"


def _meld_from_tiles(tiles: list[int], concealed: bool, raw: str) -> Meld:
    tiles = sorted(tiles)
    if len(tiles) == 4:
        kind = "kong"
    elif len(tiles) == 3 and len(set(tiles)) == 1:
        kind = "pung"
    elif len(tiles) == 3:
        kind = "chow"
    else:
        raise HandError(f"The meld {_shown(raw)} must have three or four tiles.")
    if concealed and kind != "kong":
        raise HandError(f"'({raw})' marks a concealed kong, but it is not four identical tiles.")
    m = Meld(kind, tuple(tiles), concealed)  # type: ignore[arg-type]
    m.check()
    return m


def parse_hand(text: str) -> ParsedHand:
    """Parse the compact notation; raise :class:`HandError` with one sentence."""
    concealed: list[int] = []
    melds: list[Meld] = []
    win: int | None = None
    flowers: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in "[(":
            close = "]" if ch == "[" else ")"
            j = text.find(close, i)
            if j < 0:
                raise HandError(
                    f"The meld starting at {_shown(text[i:])} has no closing '{close}'."
                )
            raw = text[i + 1 : j]
            melds.append(_meld_from_tiles(parse_tiles(raw), ch == "(", raw))
            i = j + 1
        elif ch == "+":
            if win is not None:
                raise HandError("Only one winning tile may be marked with '+'.")
            j = i + 1
            while j < n and not text[j].isspace() and text[j] not in "[(+":
                if text.startswith("f:", j):
                    break
                j += 1
            tiles = parse_tiles(text[i + 1 : j])
            if len(tiles) != 1:
                raise HandError(
                    f"'+' must be followed by exactly one tile, not {_shown(text[i + 1 : j])}."
                )
            win = tiles[0]
            i = j
        elif text.startswith("f:", i):
            j = i + 2
            while j < n and not text[j].isspace():
                j += 1
            for t in parse_tiles(text[i + 2 : j]):
                if not is_bonus(t):
                    raise HandError(f"{tile_to_str(t)} after 'f:' is not a bonus tile (1h-8h).")
                flowers.append(t)
            i = j
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "[(+":
                if text.startswith("f:", j):
                    break
                j += 1
            for t in parse_tiles(text[i:j]):
                if is_bonus(t):
                    raise HandError(
                        f"The bonus tile {tile_to_str(t)} cannot be in the hand; write it after 'f:'."
                    )
                concealed.append(t)
            i = j
    return ParsedHand(tuple(sorted(concealed)), tuple(melds), win, tuple(sorted(flowers)))


def format_hand(h: ParsedHand) -> str:
    parts = [format_tiles(h.concealed)] if h.concealed else []
    parts += [format_meld(m) for m in h.melds]
    if h.win_tile is not None:
        parts.append("+" + tile_to_str(h.win_tile))
    if h.flowers:
        parts.append("f:" + format_tiles(h.flowers))
    return " ".join(parts)
