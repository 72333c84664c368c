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

A kong in a photo shows four faces, so it is read as an exposed kong; a concealed kong
is for the player to mark. The result is the interchange format's ``hand``, ``melds``,
``win_tile`` and ``flowers`` (``shared/spec/hand-format.md``).
"""

from __future__ import annotations

from typing import Any

from hefen.hand import HandError, Meld
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


def hand_fields(groups: list[list[str]], win_tile: str | None = None) -> dict[str, Any]:
    """``hand``, ``melds``, ``win_tile`` and ``flowers`` from the tile codes of each group, in
    reading order. Raises :class:`PhotoError` when there is no winning tile to take."""
    flowers = sorted({t for g in groups for t in g if t.endswith("h")}, key=tile_from_str)
    plain = [[t for t in g if not t.endswith("h")] for g in groups]
    plain = [g for g in plain if g]
    if not plain:
        raise PhotoError("No suit or honour tiles were found in the photo.")
    kinds = [meld_kind(g) for g in plain]
    main = max(range(len(plain)), key=lambda i: (kinds[i] is None, len(plain[i]), -i))
    concealed = list(plain[main])
    melds: list[dict[str, Any]] = []
    for i, g in enumerate(plain):
        if i == main:
            continue
        kind = kinds[i]
        if kind is None:
            concealed += g
        else:
            melds.append({"kind": kind, "tiles": sorted(g, key=tile_from_str), "concealed": False})
    if win_tile is None:
        win_tile = plain[main][-1]
    if win_tile not in concealed:
        raise PhotoError(
            f"The winning tile {win_tile} is not among the recognised tiles of the concealed hand."
        )
    concealed.remove(win_tile)
    return {
        "hand": sorted(concealed, key=tile_from_str),
        "melds": melds,
        "win_tile": win_tile,
        "flowers": flowers,
    }
