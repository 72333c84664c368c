"""Pinned play: the action sequences of a few bot-only hands per ruleset,
recorded before the speed work of issue #17 (the fast core).  A speed-up of
the engine or the bots must leave every action the same; one that changes
the play fails here (``bench/action_trace.py`` checks many more hands)."""

from __future__ import annotations

import pytest

from hefen.game import Game, GameSettings, make_bot
from hefen.tiles import tile_to_str


def _play(rules: str, bot: str, i: int) -> str:
    """Hand ``i`` as ``bench/game_simulate.py`` plays it (seed 0), its
    actions as ``<seat><kind>[:<tile>]`` joined by spaces."""
    game = Game(GameSettings(rules), f"bench/0/{i}", dealer=i % 4)
    bots = [make_bot(bot, i * 4 + s) for s in range(4)]
    while game.phase != "end":
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game, seat))
    return " ".join(
        f"{a.seat}{a.kind}" + ("" if a.tile is None else ":" + tile_to_str(a.tile))
        for a in game.actions
    )


PINNED: dict[tuple[str, str, int], str] = {
    ("mcr", "strong", 0): (
        "0discard:9p 1discard:N 2discard:N 3discard:9s 0discard:9s 1discard:W 2discard:9s "
        "3discard:9p 0pass 0discard:W 1discard:S 3kong:S 3discard:8s 0discard:F 1discard:E "
        "2discard:P 3discard:6s 0discard:C 1discard:8s 2discard:C 3discard:4s 0discard:N "
        "1discard:9s 2discard:N 3discard:4p 0chow:4p 0discard:E 1discard:1s 2pass 2discard:2s "
        "3discard:5m 0discard:6p 1discard:3p 2pass 2discard:4s 3discard:5s 0discard:4s 1pass "
        "1discard:E 2discard:5s 3discard:5p 0discard:5p 1discard:2p 2pass 3pung:2p "
        "3discard:1p 0discard:8p 1pung:8p 1discard:5m 2chow:3m 2discard:1s 3discard:9m 0pass "
        "2pass 0discard:8p 2win"
    ),
    ("mcr", "strong", 1): (
        "1discard:C 2discard:F 3discard:N 0discard:F 1discard:C 2discard:N 3discard:W "
        "0discard:W 1discard:P 2discard:W 3discard:9s 0discard:S 1discard:S 2discard:E "
        "3discard:6s 0discard:P 1discard:3s 2discard:7p 3chow:7p 3discard:8s 0discard:5s "
        "1discard:N 2discard:2p 3discard:2s 0discard:8m 1discard:9p 2discard:1p 3discard:7p "
        "0discard:8s 1discard:7p 2discard:E 3discard:3p 0discard:N 1discard:3s 2pass "
        "2discard:2p 3discard:3p 0discard:9p 1discard:P 2discard:9s 3discard:1m 0pung:1m "
        "0discard:7p 1discard:6s 2pass 2discard:5m 1pung:5m 3chow:4m 1discard:1s 2pass 0pass "
        "2discard:7s 3chow:5s 3discard:5s 0discard:5m 1discard:F 2discard:7m 3discard:7m "
        "0discard:8m 1discard:W 2discard:4s 3chow:2s 3discard:6m 0discard:9m 1pung:9m "
        "1discard:8m 3win"
    ),
    ("mcr", "strong", 2): (
        "2discard:F 3discard:P 0discard:7s 1discard:F 2discard:N 3discard:C 0discard:W "
        "1discard:C 2discard:E 3discard:S 2pass 0discard:E 1discard:N 2discard:7p 1pung:7p "
        "1discard:S 2pass 2discard:1m 3chow:1m 3discard:9s 0discard:5p 1chow:3p 1discard:5s "
        "2discard:3s 3discard:F 0discard:7p 1discard:5p 2discard:3p 3pass 3discard:P "
        "0discard:7s 1discard:2s 2discard:5p 3discard:2p 0discard:2s 1discard:1m 2discard:S "
        "3discard:W 0discard:4p 1discard:6s 2discard:S 3discard:2s 0discard:8m 1pass "
        "1discard:1p 0pass 2discard:1m 3chow:1m 3discard:8p 0discard:9p 1discard:F 2discard:W "
        "3discard:6p 0pass 0discard:6s 1discard:1s 3pass 2discard:E 3discard:6s 0discard:2p "
        "1discard:2m 2discard:E 3discard:N 0win"
    ),
    ("mcr", "strong", 3): (
        "3discard:P 0discard:P 1discard:P 2discard:P 3discard:N 0discard:C 1discard:F "
        "2discard:W 3pung:W 3discard:6p 0discard:N 1discard:C 2discard:3s 3discard:5m "
        "0chow:4m 0discard:4s 1pass 1discard:9s 2discard:7m 3discard:1m 0discard:N "
        "1discard:3p 2discard:7s 3discard:8s 0pass 0discard:4m 1pass 1discard:2m 2chow:2m "
        "2discard:9p 3discard:5s 0discard:2p 1pass 1discard:1p 2discard:2p 3chow:1p 1pass "
        "3discard:5s 0discard:9s 1discard:4s 2chow:2s 2discard:3s 3discard:5m 0discard:4p "
        "1discard:3m 0win"
    ),
    ("mcr", "expert", 0): (
        "0discard:9p 1discard:N 2discard:N 3discard:9s 0discard:9s 1discard:W 2discard:9s "
        "3discard:9p 0pass 0discard:W 1discard:S 3kong:S 3discard:8s 0discard:F 1discard:E "
        "2discard:P 3discard:6s 0discard:C 1discard:8s 2discard:C 3discard:4s 0discard:N "
        "1discard:9s 2discard:N 3discard:4p 0chow:4p 0discard:E 1discard:1s 2pass 2discard:9m "
        "3discard:5m 0discard:6p 1discard:3p 2pass 2discard:9m 3discard:5s 0discard:4s 1pass "
        "1discard:E 2discard:5s 3discard:5p 0discard:5p 1discard:2p 2pass 3pung:2p "
        "3discard:9m 0pass 0discard:8p 1pass 1discard:4m 2discard:7p 3discard:1p 0discard:8p "
        "1pass 1discard:2s 2pass 2discard:2s 3discard:2m 0discard:8m 1pass 1discard:E "
        "2discard:W 3discard:7s 0discard:1m 3pass 1discard:7s 2discard:3s 3discard:9p "
        "0discard:3p 1discard:3s 2pass 2discard:6s 3discard:F 0discard:5m 1pass 1discard:3s "
        "2pass 2discard:5p 3discard:4s 0discard:C 1discard:4p 2pass 2discard:4p 3discard:F "
        "0discard:3m 1win"
    ),
    ("mcr", "expert", 1): (
        "1discard:C 2discard:F 3discard:N 0discard:F 1discard:C 2discard:N 3discard:W "
        "0discard:W 1discard:P 2discard:W 3discard:9s 0discard:S 1discard:S 2discard:E "
        "3discard:6s 0discard:P 1discard:3s 2discard:7p 3chow:7p 3discard:8s 0discard:5s "
        "1discard:N 2discard:1m 3discard:2s 0discard:8m 1discard:9p 2discard:1p 3discard:7p "
        "0discard:8s 1discard:7p 2discard:E 3discard:3p 0discard:N 1discard:3s 2pass "
        "2discard:3m 3discard:3p 0discard:9p 1discard:P 2discard:3m 3discard:1m 0pass "
        "0discard:9s 1discard:1s 2chow:1s 0pass 2discard:5p 3discard:5s 0discard:7p "
        "1discard:F 2discard:7m 3discard:6m 0pass 0discard:8m 1discard:W 2discard:1s 3chow:1s "
        "0pung:1s 0discard:8s 1discard:8m 2discard:5p 3discard:6p 1pass 0discard:2s "
        "1discard:S 2discard:7m 3pass 3discard:1p 0pass 0discard:5m 1pass 1discard:4s "
        "2discard:6m 3discard:P 0discard:6s 1discard:4s 2discard:9p 3discard:F 0discard:5s "
        "2win"
    ),
    ("hk", "strong", 0): (
        "0discard:F 1discard:N 2discard:N 3discard:9s 0discard:C 1discard:W 2discard:C "
        "3discard:9p 0pass 0discard:W 1discard:S 3pass 2discard:P 3discard:8s 0discard:E "
        "1discard:E 2discard:4s 3discard:6s 0discard:9s 1discard:8s 2discard:N 3discard:9s "
        "0discard:N 1discard:1s 2pass 2discard:4m 3discard:4m 0discard:5s 1pass 1discard:2m "
        "2discard:4m 3discard:6m 0discard:5s 1pass 1discard:6p 2discard:5m 1pass 3discard:5s "
        "0discard:1s 1discard:4m 2discard:2p 3discard:8m 0discard:8m 1pass 1discard:6p "
        "2discard:4p 3discard:5m 1pass 0discard:2s 2pass 1discard:6s 2pass 2discard:2m "
        "3kong:1m 3discard:E 0discard:E 1discard:W 2discard:7s 3discard:6m 0discard:7s "
        "1discard:3s 2pass 2discard:9p 3discard:1p 0discard:3s 1pass 1discard:5p 0pass 2win"
    ),
    ("hk", "strong", 1): (
        "1discard:C 2discard:F 3discard:N 0discard:F 1discard:C 2discard:N 3discard:W "
        "0discard:W 1discard:P 2discard:W 3discard:9s 0discard:S 1discard:S 2discard:E "
        "3discard:8s 0discard:P 1discard:3s 2discard:7p 3pass 3discard:3s 0discard:N "
        "1discard:7p 2discard:2p 3pass 3discard:4p 2pass 0discard:5s 1discard:2p 2discard:7p "
        "3pass 3discard:8s 0discard:8m 1discard:E 2discard:6m 3discard:N 0discard:9s "
        "1discard:2p 2discard:3s 3discard:1m 0pass 0discard:P 1discard:9s 2pass 2discard:8s "
        "3discard:9p 0pass 0discard:8s 1discard:8m 2discard:2p 3discard:F 0discard:1s "
        "1discard:1s 2discard:8m 3pass 3discard:W 0discard:1s 1discard:7s 2pass 2discard:7s "
        "3pass 3discard:8p 0pass 0discard:7p 1discard:S 2discard:7m 3discard:6p 1pass "
        "0discard:6p 1pass 1discard:7m 2discard:6m 0win"
    ),
    ("hk", "strong", 2): (
        "2discard:F 3discard:P 0discard:7s 1discard:F 2discard:N 3discard:C 0discard:W "
        "1discard:C 2discard:E 3discard:S 2pass 0discard:E 1discard:N 2discard:9s 3discard:8p "
        "0discard:5p 1pass 1discard:S 2pass 2discard:F 3discard:7p 1pass 0discard:5p 1pass "
        "1discard:9s 2discard:P 3discard:5m 0pass 0discard:4p 1discard:2s 2discard:6s 3pass "
        "3discard:2s 0discard:9p 1pass 1discard:8p 2discard:W 3discard:9s 0discard:6s 1pass "
        "1discard:6m 2pass 2discard:7p 1pass 3discard:7s 0discard:8m 1pass 1discard:6m 2pass "
        "2discard:9p 3discard:F 0discard:W 1discard:6p 0pass 2discard:6s 3discard:4m "
        "0discard:E 1win"
    ),
    ("hk", "strong", 3): (
        "3discard:P 0discard:P 1discard:P 2discard:P 3discard:N 0discard:C 1discard:F "
        "2discard:W 3pass 3discard:1m 0discard:C 1discard:9s 2discard:7s 3discard:5m 0pass "
        "0discard:N 1discard:9p 2pass 2discard:N 3discard:2m 0discard:4s 1pass 1discard:8s "
        "2discard:5m 3discard:8p 0discard:1s 1discard:3p 2discard:1p 3discard:5s 1pass "
        "0discard:9s 1discard:6m 2pass 2discard:5m 3discard:1s 0discard:2p 1pass 1discard:1m "
        "2discard:3p 3pass 3discard:3m 0pass 0discard:C 1discard:4m 2pass 2discard:2s "
        "3discard:3p 0discard:E 1discard:1p 2discard:3p 3pass 3discard:1p 0discard:F "
        "1discard:1m 2discard:C 3discard:4s 0discard:4p 1discard:N 2discard:7s 3discard:2s "
        "0discard:E 1discard:W 3pass 2discard:F 3discard:1s 0discard:4p 1discard:8s "
        "2discard:2s 3discard:4p 0discard:5p 3pass 1pass 1discard:9s 2discard:1s 3discard:2m "
        "0pass 0discard:9s 1discard:8s 2discard:9p 3discard:6s 0pass 0discard:7p 1pass "
        "1discard:3m 0pass 2discard:9m 3pass 3discard:2m 0pass 0discard:8s 1discard:S 2pass "
        "2discard:1p 3discard:6s 0pass 0discard:4p 1discard:2s 2discard:7s 3discard:5p "
        "0discard:F 1discard:6s 2discard:E 3discard:S 2pass 0discard:7s 1discard:E "
        "2discard:7p"
    ),
    # the Hong Kong expert's, re-recorded for issue #18 (its thirteen orphans
    # plan and discards weighed by money change its play)
    ("hk", "expert", 0): (
        "0discard:5p 1discard:2m 2discard:P 3discard:6s 0discard:5p 1discard:8s 2discard:C "
        "3discard:8s 0discard:5s 1discard:3p 2pass 2discard:N 3discard:4m 0discard:8m "
        "1discard:4p 2pass 2discard:4s 3discard:9s 0discard:7p 1discard:8p 0pass 2pass "
        "2discard:N 3discard:9s 0discard:8p 1discard:5m 2discard:4m 3discard:9p 0discard:8p "
        "2win"
    ),
    ("hk", "expert", 1): (
        "1discard:C 2discard:F 3discard:N 0discard:8m 1discard:C 2discard:N 3discard:W "
        "0discard:5s 1discard:8m 2discard:W 3discard:9s 0discard:5m 1discard:P 2discard:E "
        "3discard:5s 0discard:4m 3pass 1discard:S 2discard:7p 3pass 3discard:7m 0discard:8s "
        "1discard:2p 2discard:2p 3pass 3discard:4p 2pass 0discard:1s 1pass 1discard:1s "
        "2discard:7p 3pass 3discard:6m 0discard:7p 1discard:7p 2discard:6m 3discard:N "
        "0discard:3s 1discard:2p 2discard:3s 3discard:1m 0pass 0discard:P 1discard:3s 2pass "
        "2discard:5s 3discard:3s 0discard:6p 1pass 1discard:E 2discard:2p 3discard:F "
        "0discard:7m 1discard:7m 2discard:8m 3discard:W 0discard:1s 1discard:9s 2pass "
        "2discard:4s 3discard:6p 1pass 0discard:2s 3pass 1discard:S 2discard:7m 3discard:9p "
        "0pass 0discard:5m 1pass 1discard:4s 2discard:6m 3discard:P 0discard:5p 2pass "
        "1discard:4s 2discard:9p 0pass 3discard:F 0discard:5s 1discard:9s 2pass 2discard:7s "
        "3pass 3discard:1p 1pass 0discard:6m 1discard:7s 2pass 2discard:E 3discard:8p "
        "0discard:2m 1pass 1discard:2s 3pass 2discard:8p 3discard:4s 0discard:S 1discard:C "
        "2discard:8s 3pass 3discard:S 0discard:C 1discard:8m 2discard:9m 1pass 3discard:8p "
        "0discard:E"
    ),
    ("tw", "strong", 0): (
        "0discard:F 1discard:P 2discard:C 3discard:S 2pung:S 2discard:N 3discard:8s "
        "0discard:C 1discard:W 2discard:9p 3discard:N 1pung:N 1discard:S 2discard:6p 3pass "
        "3discard:8p 0pung:8p 0discard:W 1discard:1s 2chow:1s 3pung:1s 3discard:5p 0pass "
        "0kong:8p 0discard:9p 1discard:7p 2discard:8m 3chow:7m 3discard:1m 0chow:1m 2pung:1m "
        "2discard:8s 3pass 3discard:9m 1pung:9m 1discard:8m 2discard:5s 3pass 3discard:7s "
        "0discard:8m 1discard:8s 2discard:4m 3discard:7m 0discard:1p 1discard:7m 2pass "
        "2discard:6m 3discard:6p 0pass 0discard:1p 1discard:6p 2discard:5p 3pass 3discard:5p "
        "0pass 0discard:2p 1discard:1m 2discard:E 0kong:E 0discard:7p 1discard:W 2discard:7s "
        "3pass 3discard:6m 0discard:7s 1pass 1discard:4m 2pass 2discard:9p 3discard:3p "
        "0discard:2p 1discard:2s 2pung:2s 2discard:3s 3pass 3discard:F 0discard:C 1discard:3s "
        "2discard:1s 3discard:4s 0pass 0discard:3p 1chow:2p 1discard:2s 2discard:1p 3pass "
        "3discard:4p 0pass 0discard:F 1discard:3m 2pass 2discard:7m 3win"
    ),
    ("tw", "strong", 1): (
        "1discard:C 2discard:F 3discard:F 0discard:C 1discard:S 2discard:N 3discard:N "
        "0discard:N 1discard:9m 2discard:E 3discard:S 0discard:W 2pung:W 2discard:1m 3pass "
        "3discard:1s 0pass 0discard:2p 1discard:3s 2discard:2s 3discard:E 0discard:5s "
        "1discard:N 2discard:3s 3discard:6s 0chow:4s 0discard:9p 3pung:9p 3discard:8s "
        "1pung:8s 0pass 1discard:6p 2chow:4p 2discard:6s 3discard:5s 0pass 0discard:1m "
        "1discard:P 0win"
    ),
    ("tw", "strong", 2): (
        "2discard:P 3discard:S 2pung:S 2discard:F 3discard:8p 0discard:S 1discard:N "
        "2discard:N 3discard:1p 0discard:C 1discard:P 2discard:C 3discard:4s 0discard:1p "
        "1discard:W 2discard:9s 3discard:4s 0discard:7p 2pung:7p 2discard:3p 3pass 3discard:W "
        "0discard:7p 1discard:1s 2pass 2discard:3m 3pass 3discard:2s 0discard:8s 1discard:8p "
        "2discard:3m 3pass 3discard:9p 0discard:F 1pung:F 1discard:4p 2discard:W 3discard:9p "
        "0discard:9s 1discard:3p 2discard:E 1pass 3discard:9s 0pass 0discard:9m 1discard:E "
        "2discard:E 3discard:N 0discard:9m 1discard:C 2discard:9p 3discard:3p 0chow:2p "
        "0discard:5p 3pung:5p 3discard:3m 0pass 0discard:8s 2win"
    ),
    ("tw", "strong", 3): (
        "3discard:P 1pung:P 1discard:W 3pung:W 3discard:N 0discard:P 1discard:9p 2discard:C "
        "3discard:1p 0chow:1p 0discard:C 1discard:4m 2discard:N 3discard:2m 0discard:N "
        "1discard:4m 2discard:5m 3pass 3discard:1p 0discard:F 1discard:3m 2chow:2m "
        "2discard:2p 3chow:2p 1pass 3discard:6p 0discard:9s 1discard:9s 2discard:3s 3chow:3s "
        "3discard:1m 0discard:6p 1discard:1m 2discard:6p 3win"
    ),
    ("tw", "expert", 0): (
        "0discard:F 1discard:P 2discard:C 3discard:S 2pung:S 2discard:N 3discard:8p 0pung:8p "
        "0discard:C 1discard:N 2discard:N 3discard:1m 0chow:1m 2pass 0discard:W 1discard:N "
        "2discard:9p 3discard:5s 0kong:8p 0discard:9p 1discard:W 2discard:8m 3chow:7m "
        "3discard:5p 0pass 0discard:5s 1chow:4s 1discard:S 2discard:9m 3discard:5s 0discard:1p "
        "1discard:E 0pung:E 0discard:4s 1discard:5s 2discard:1p 3pass 3discard:7m 0chow:7m "
        "0discard:4m 1discard:4m 2pass 2discard:4m 3discard:6m 0discard:6p 2pass 1discard:9m "
        "2discard:6p 3discard:2s 1pass 0discard:5p 1discard:2s 2discard:1m 3discard:E "
        "0discard:W 1discard:1p 2discard:1m 3discard:7s 0discard:5m 2pass 3win"
    ),
    ("tw", "expert", 1): (
        "1discard:C 2discard:F 3discard:F 0discard:C 1discard:S 2discard:N 3discard:N "
        "0discard:N 1discard:1p 2chow:1p 2discard:E 3discard:S 0discard:W 2pung:W 2discard:2s "
        "3discard:1s 0pass 0discard:7p 1chow:5p 1discard:8s 2discard:7m 3chow:6m 3discard:8p "
        "0discard:8s 1discard:3s 2discard:E 3discard:6m 0chow:4m 0discard:5s 1discard:N "
        "2discard:3s 0win"
    ),
}


@pytest.mark.parametrize("key", sorted(PINNED), ids=lambda k: "-".join(map(str, k)))
def test_bot_play_is_pinned(key: tuple[str, str, int]) -> None:
    rules, bot, i = key
    assert _play(rules, bot, i) == PINNED[key]
