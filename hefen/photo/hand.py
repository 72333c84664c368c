"""From the tiles found in a photo to the tile fields of a hand to score.

A photo of a won hand shows the concealed tiles in one row, each exposed meld apart from
it, and the bonus tiles set aside. :func:`hand_fields` reads the groups that way:

* every bonus tile (flower or season), wherever it lies, is a flower, once;
* the longest group of other tiles that is not a chow, pung or kong is the concealed hand
  (it holds 14, 11, 8, 5 or 2 tiles, never a meld's 3 or 4);
* any other group that is a chow, a pung or a kong is an exposed meld;
* the tiles of any other group join the concealed hand;
* the winning tile is the one given, which must be among the concealed tiles, or else the
  concealed row's last tile (where a player usually puts it).

* a group of four tiles lying face down (:data:`~hefen.photo.classes.BACK`), or of four
  with one to three face down and the others alike (two backs between two alike faces, as a
  concealed kong is usually shown), is a concealed kong: of the faces shown, or, when all
  four are backs, of the tile the caller names (``hidden_kongs``, one per such group, in
  reading order);
* a face-down tile anywhere else is no tile of the hand (role ``back``).

A kong showing four faces is read as an exposed kong. The result is the interchange format's ``hand``, ``melds``,
``win_tile`` and ``flowers`` (``shared/spec/hand-format.md``), and what each recognised tile
became (:class:`HandReading`). ``POST /api/recognize`` and ``hefen recognize --json`` return
this reading, so that the web calculator fills the hand from it and keeps no rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hefen.hand import HandError, Meld
from hefen.photo.classes import BACK
from hefen.photo.errors import PhotoError
from hefen.tiles import tile_from_str


def meld_kind(tiles: list[str]) -> str | None:
    """``"chow"``, ``"pung"`` or ``"kong"`` when ``tiles`` form one (by the core's own
    :meth:`hefen.hand.Meld.check`), else None."""
    for kind in ("chow", "pung", "kong"):
        try:
            Meld.from_dict({"kind": kind, "tiles": tiles})
        except HandError:
            continue
        return kind
    return None


#: What each recognised tile became in the reading: a concealed tile, the winning tile, a
#: tile of a meld (exposed, or a concealed kong, its backs included), a flower, a bonus
#: tile seen a second time (a set holds one), or a face-down tile that is no part of a
#: concealed kong.
ROLES: tuple[str, ...] = ("hand", "win", "meld", "flower", "repeat", "back")


def concealed_kong(tiles: list[str]) -> str | None:
    """The tile of the concealed kong that ``tiles`` (one group's suit, honour and back
    tiles) show, ``BACK`` when all four lie face down, or None when they are none: four
    tiles, at least one face down, the faces shown alike."""
    if len(tiles) != 4 or BACK not in tiles:
        return None
    faces = {t for t in tiles if t != BACK}
    if len(faces) > 1:
        return None
    return faces.pop() if faces else BACK


@dataclass(frozen=True)
class HandReading:
    """A photo's groups read as a hand: the interchange format's tile fields, and the role of
    each recognised tile (``roles[g][i]`` for tile ``i`` of group ``g``, one of
    :data:`ROLES`), so that a client can tie every tile it shows to its recognition."""

    hand: list[str]
    melds: list[dict[str, Any]]
    win_tile: str
    flowers: list[str]
    roles: list[list[str]]

    def fields(self) -> dict[str, Any]:
        """``hand``, ``melds``, ``win_tile`` and ``flowers``."""
        return {
            "hand": list(self.hand),
            "melds": [dict(m, tiles=list(m["tiles"])) for m in self.melds],
            "win_tile": self.win_tile,
            "flowers": list(self.flowers),
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.fields(), "roles": [list(r) for r in self.roles]}


def read_hand(
    groups: list[list[str]],
    win_tile: str | None = None,
    hidden_kongs: list[str] | None = None,
    sideways: list[bool] | None = None,
) -> HandReading:
    """Read the tile codes of each group, in reading order, as a hand (see the module's
    rules); ``hidden_kongs`` names the tile of each concealed kong shown as four backs;
    ``sideways`` says of each group whether a tile of it lies turned (a claimed tile): such
    a group is an exposed meld when its tiles make one, never the concealed hand.
    Raises :class:`PhotoError` when there is no winning tile to take, or a kong of four
    backs that is not named."""
    roles = [["hand"] * len(g) for g in groups]
    flowers: list[str] = []
    plain: list[list[int]] = []  # per group: the indices of its suit and honour tiles
    for g, tiles in enumerate(groups):
        for i, t in enumerate(tiles):
            if t.endswith("h"):
                roles[g][i] = "repeat" if t in flowers else "flower"
                if t not in flowers:
                    flowers.append(t)
        plain.append([i for i, t in enumerate(tiles) if not t.endswith("h")])
    melds: list[tuple[int, dict[str, Any]]] = []  # (group, meld), put in reading order
    named = list(hidden_kongs or [])
    for g, tiles in enumerate(groups):
        kong = concealed_kong([tiles[i] for i in plain[g]])
        if kong is None:
            for i in plain[g]:
                if tiles[i] == BACK:
                    roles[g][i] = "back"
            plain[g] = [i for i in plain[g] if tiles[i] != BACK]
            continue
        if kong == BACK:
            if not named:
                raise PhotoError(
                    "Four face-down tiles are a concealed kong: name the tile of each one."
                )
            kong = named.pop(0)
            try:
                tile_from_str(kong)
            except ValueError as exc:
                raise PhotoError(f"'{kong}' is not a tile code for a concealed kong.") from exc
        melds.append((g, {"kind": "kong", "tiles": [kong] * 4, "concealed": True}))
        for i in plain[g]:
            roles[g][i] = "meld"
        plain[g] = []
    kept = [g for g in range(len(groups)) if plain[g]]
    if not kept:
        raise PhotoError("No suit or honour tiles were found in the photo.")
    kinds = {g: meld_kind([groups[g][i] for i in plain[g]]) for g in kept}
    claimed = [bool(sideways and g < len(sideways) and sideways[g]) for g in range(len(groups))]
    main = max(kept, key=lambda g: (not claimed[g], kinds[g] is None, len(plain[g]), -g))
    concealed: list[tuple[int, int]] = []  # (group, index) of every concealed tile
    for g in kept:
        kind = kinds[g]
        if (g == main and not claimed[g]) or kind is None:
            concealed += [(g, i) for i in plain[g]]
            continue
        tiles = sorted((groups[g][i] for i in plain[g]), key=tile_from_str)
        melds.append((g, {"kind": kind, "tiles": tiles, "concealed": False}))
        for i in plain[g]:
            roles[g][i] = "meld"
    if win_tile is None:
        win_tile = groups[main][plain[main][-1]]
    # the winning tile is the last concealed tile of that code, the main row's first
    at = [gi for gi in concealed if groups[gi[0]][gi[1]] == win_tile]
    if not at:
        raise PhotoError(
            f"The winning tile {win_tile} is not among the recognised tiles of the concealed hand."
        )
    wg, wi = max(at, key=lambda gi: (gi[0] == main, gi))
    roles[wg][wi] = "win"
    hand = sorted((groups[g][i] for g, i in concealed if (g, i) != (wg, wi)), key=tile_from_str)
    return HandReading(
        hand=hand,
        melds=[m for _, m in sorted(melds, key=lambda gm: gm[0])],
        win_tile=win_tile,
        flowers=sorted(flowers, key=tile_from_str),
        roles=roles,
    )


def hand_fields(
    groups: list[list[str]], win_tile: str | None = None, hidden_kongs: list[str] | None = None
) -> dict[str, Any]:
    """``hand``, ``melds``, ``win_tile`` and ``flowers`` from the tile codes of each group, in
    reading order (:func:`read_hand`'s fields)."""
    return read_hand(groups, win_tile, hidden_kongs).fields()
