"""Hypothesis draws shared by the differential tests of the compiled scorers
(tests/test_fast_core.py for MCR, tests/test_fast_hktw.py for Hong Kong and
Taiwan): a hand of sets and a pair laid out as concealed tiles and melds, and
the seat's context."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from hefen.tiles import WINDS, tile_to_str


def sets_hand(
    data: st.DataObject, sets: list[tuple[str, int]], pair: int
) -> tuple[list[int], list[dict[str, Any]], int]:
    """The concealed tiles (the winning tile taken out, and sometimes one
    tile replaced by any tile, so that the hand may not be complete), the
    melds (pungs and chows shown, kongs shown or concealed) and the winning
    tile of a hand of ``sets`` (``("chow" | "pung", first tile)``) and
    ``pair``."""
    tiles: list[int] = [pair, pair]
    melds: list[dict[str, Any]] = []
    for kind, t in sets:
        ts = [t, t + 1, t + 2] if kind == "chow" else [t] * 3
        how = data.draw(st.sampled_from(["hand", "hand", "meld", "kong", "concealed_kong"]))
        if how == "hand" or (kind == "chow" and how != "meld"):
            tiles += ts
        elif how == "meld":
            melds.append({"kind": kind, "tiles": [tile_to_str(x) for x in ts]})
        else:
            melds.append(
                {"kind": "kong", "tiles": [tile_to_str(t)] * 4, "concealed": how != "kong"}
            )
    win = data.draw(st.sampled_from(tiles))
    tiles.remove(win)
    if data.draw(st.booleans()):  # sometimes a tile that may not complete it
        tiles[data.draw(st.integers(0, len(tiles) - 1))] = data.draw(st.integers(0, 33))
    return tiles, melds, win


def seat_context(data: st.DataObject, flags: tuple[str, ...], one_in: int) -> dict[str, Any]:
    """A win on a discard or self-drawn, the seat and round winds, and each of
    ``flags`` set about one time in ``one_in``."""
    winds = st.sampled_from([tile_to_str(w) for w in WINDS])
    ctx: dict[str, Any] = {
        "win": data.draw(st.sampled_from(["discard", "self_draw"])),
        "seat_wind": data.draw(winds),
        "round_wind": data.draw(winds),
    }
    for key in flags:
        if data.draw(st.integers(0, one_in - 1)) == 0:
            ctx[key] = True
    return ctx


def dealer_and_discarder(data: st.DataObject, ctx: dict[str, Any]) -> None:
    """Sometimes a dealer (with a streak) and, for a win on a discard, the
    discarder's wind, set in ``ctx``."""
    winds = st.sampled_from([tile_to_str(w) for w in WINDS])
    if data.draw(st.booleans()):
        ctx["dealer"] = data.draw(winds)
        ctx["dealer_streak"] = data.draw(st.integers(0, 5))
    if ctx["win"] == "discard" and data.draw(st.booleans()):
        ctx["discarder"] = data.draw(winds)
