"""How often the Hong Kong strong bot breaks a ready hand whose wait already
meets the table's minimum, before and after the fix, on the same decisions.

    python bench/ready_breaks.py --seeds 20 [--first 0]

Hands are played by ``strong`` in seats 0 and 2 and ``simple`` in 1 and 3
(the new play decides the game). At every discard of a strong seat where a
discard keeps the hand ready on a wait that wins (two or more unseen winning
tiles), both the old play (``keep_ready`` off) and the new are asked; a
discard that leaves the hand not ready is a break.
"""

from __future__ import annotations

import argparse

from hefen.game import Game, GameSettings, make_bot
from hefen.game.bots import StrongBot


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--rules", default="hk")
    args = ap.parse_args()
    old = StrongBot(0)
    old.keep_ready = False
    decisions = breaks_old = breaks_new = 0
    for seed in range(args.first, args.first + args.seeds):
        game = Game(GameSettings(args.rules), f"margin/{seed}", dealer=seed % 4)
        bots = [make_bot("strong" if s % 2 == 0 else "simple", seed * 4 + s) for s in range(4)]
        while game.phase != "end":
            seat = game.to_act()[0]
            bot = bots[seat]
            if (
                game.phase == "discard"
                and isinstance(bot, StrongBot)
                and not any(a.kind == "win" for a in game.legal_actions(seat))
            ):
                tiles = list(game.players[seat].concealed)
                scored = []
                for t in set(tiles):
                    rest = list(tiles)
                    rest.remove(t)
                    scored.append((bot._shanten(game, seat, rest), t))
                keeps = bot._ready_keeps(game, seat, tiles, scored)
                if keeps:
                    decisions += 1
                    a_old = old.choose(game, seat)
                    a_new = bot.choose(game, seat)
                    breaks_old += a_old.kind == "discard" and a_old.tile not in keeps
                    breaks_new += a_new.kind == "discard" and a_new.tile not in keeps
                    game.apply(a_new)
                    continue
            game.apply(bot.choose(game, seat))
    print(
        f"{args.rules} seeds {args.first}..{args.first + args.seeds - 1}: {decisions} ready decisions "
        f"with a winning wait; broken by the old play {breaks_old}, by the new {breaks_new}"
    )


if __name__ == "__main__":
    main()
