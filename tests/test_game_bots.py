"""Bots, and the analysis' shanten count the strong bot uses."""

from __future__ import annotations

import random

import pytest

from hefen.analysis import FORMS
from hefen.analysis.shanten import shanten_counts, shanten_number
from hefen.game import Action, Game, GameSettings, make_bot
from hefen.tiles import counts_of, tiles_from_str

_CAP = (4,) * 34


def sh(hand: str, sets: int = 4, special: bool = True) -> int:
    """The count the strong bot asks for: ``sets`` sets and a pair (13 tiles
    for four), with seven pairs and thirteen orphans when ``special``."""
    forms = ("standard", "seven_pairs", "thirteen_orphans") if special else ("standard",)
    c = tuple(counts_of(tiles_from_str(hand.split())))
    return shanten_number(c, _CAP, 4 - sets, forms, 13)


def test_shanten_of_known_hands() -> None:
    assert sh("1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E") == 0
    assert sh("1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E E") == -1
    assert sh("1m 9m 1p 9p 1s 9s E S W N C F P") == 0  # thirteen orphans
    assert sh("1m 9m 1p 9p 1s 9s E S W N C F P", special=False) > 3
    assert sh("1m 1m 2p 2p 3s 3s 4m 4m E E C C 9p") == 0  # seven pairs


def test_bots_count_agrees_with_the_analysis_report() -> None:
    # the cached count the bots use (shanten_number) and the full report
    # (shanten_counts) are one engine and give one answer
    rng = random.Random(5)
    wall = [t for t in range(34) for _ in range(4)]
    agree = 0
    for _ in range(300):
        rng.shuffle(wall)
        c = tuple(counts_of(wall[:14]))
        agree += shanten_number(c, _CAP, 0, FORMS) == shanten_counts(c, forms=FORMS).shanten
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


# ------------------------------------------------------------------ strong vs simple
def _arranged(hands: list[str], draws: str) -> list[int]:
    front = [t for h in hands for t in tiles_from_str(h.split())]
    front += tiles_from_str(draws.split())
    rest = [t for t in range(34) for _ in range(4)]
    for t in front:
        rest.remove(t)
    return front + rest


def test_strong_bot_refuses_an_hk_claim_that_cannot_reach_the_minimum() -> None:
    # seat 1 may chow 2p-3p-4p and be ready, but exposed with a pung of 5m,
    # no honours and two suits its best is 2 fan (no flowers, self-drawn) —
    # below the 3-fan minimum; concealed it keeps Concealed Hand
    hands = [
        "1m 9m 1p 9p 1s 9s E S W N C F P",
        "2p 3p 5m 5m 5m 3s 4s 5s 7s 8s 1m 1m 9p",
        "2m 3m 4m 6p 7p 8p 2s 2s 6s 6s 8m 8m 9s",
        "3m 4m 6m 7m 5p 6p 7p 1s 1s 2s 6s 7s 8s",
    ]
    settings = GameSettings("hk", flowers=False)
    game = Game(settings, "claim", wall=_arranged(hands, "4p"))
    game.apply(Action(0, "discard", tiles_from_str(["4p"])[0]))
    chow = Action(1, "chow", tiles_from_str(["2p"])[0])
    assert chow in game.legal_actions(1)
    assert make_bot("strong").choose(game, 1).kind == "pass"


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_strong_bot_wins_more_often_than_the_baseline(rules: str) -> None:
    """Duplicate seating on fixed walls: the strong bots in seats 0 and 2,
    then in 1 and 3; they must win clearly more hands than the baseline."""
    wins = {"strong": 0, "simple": 0}
    for seed in range(12):
        for strong_even in (True, False):
            game = Game(GameSettings(rules), f"bots-test/{seed}", dealer=seed % 4)
            names = ["strong", "simple"] if strong_even else ["simple", "strong"]
            bots = [make_bot(names[s % 2], seed * 4 + s) for s in range(4)]
            while game.phase != "end":
                seat = game.to_act()[0]
                game.apply(bots[seat].choose(game, seat))
            assert game.outcome is not None
            for w in game.outcome.wins:
                wins[names[w.seat % 2]] += 1
    assert wins["strong"] >= wins["simple"] + 4, wins
