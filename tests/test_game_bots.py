"""Bots and the engine's shanten count."""

from __future__ import annotations

import random

import pytest

from hefen.game import Game, GameSettings, make_bot
from hefen.game.shanten import shanten_any
from hefen.tiles import counts_of, tiles_from_str


def sh(hand: str, sets: int = 4, special: bool = True) -> int:
    return shanten_any(counts_of(tiles_from_str(hand.split())), sets, special)


def test_shanten_of_known_hands() -> None:
    assert sh("1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E") == 0
    assert sh("1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E E") == -1
    assert sh("1m 9m 1p 9p 1s 9s E S W N C F P") == 0  # thirteen orphans
    assert sh("1m 9m 1p 9p 1s 9s E S W N C F P", special=False) > 3
    assert sh("1m 1m 2p 2p 3s 3s 4m 4m E E C C 9p") == 0  # seven pairs


def test_own_shanten_agrees_with_hefen_analysis() -> None:
    pytest.importorskip("hefen.analysis")
    rng = random.Random(5)
    wall = [t for t in range(34) for _ in range(4)]
    agree = 0
    for _ in range(300):
        rng.shuffle(wall)
        c = counts_of(wall[:14])
        agree += shanten_any(c, 4, True) == shanten_any(c, 4, True, exact=True)
    assert agree >= 297


def test_bots_only_choose_legal_actions() -> None:
    for rules in ("mcr", "hk", "tw"):
        game = Game(GameSettings(rules), f"legal/{rules}")
        bots = [
            make_bot("strong-exact"),
            make_bot("simple"),
            make_bot("strong"),
            make_bot("simple"),
        ]
        while game.phase != "end":
            seat = game.to_act()[0]
            action = bots[seat].choose(game, seat)
            assert action in game.legal_actions(seat)
            game.apply(action)


def test_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown bot"):
        make_bot("random")
