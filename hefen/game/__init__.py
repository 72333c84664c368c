"""The game engine: a pure, replayable library for playing MCR, Hong Kong and
Taiwanese hands and matches, with bots (see ``docs/game.md``).

>>> from hefen.game import Game, make_bot
>>> g = Game("hk", seed=1)
>>> bots = [make_bot("strong"), make_bot("simple")] * 2
>>> while g.phase != "end":
...     seat = g.to_act()[0]
...     g.apply(bots[seat].choose(g, seat))
>>> g.outcome.kind in ("win", "draw")
True
"""

from __future__ import annotations

from .bots import BOTS, SimpleBot, StrongBot, make_bot
from .engine import Action, Game, GameSettings, IllegalAction, Outcome, Win
from .match import HandPlayed, Match, play_out
from .record import RecordError, game_lines, match_lines, replay

__all__ = [
    "BOTS",
    "Action",
    "Game",
    "GameSettings",
    "HandPlayed",
    "IllegalAction",
    "Match",
    "Outcome",
    "RecordError",
    "SimpleBot",
    "StrongBot",
    "Win",
    "game_lines",
    "make_bot",
    "match_lines",
    "play_out",
    "replay",
]
