"""Bots that play a seat: each picks one of the seat's legal actions.

A bot only reads what its seat may see: its own tiles and the public table
(rivers, exposed melds, flowers, declared-ready flags, the wall count).

* :class:`SimpleBot` (``"simple"``) — the fast baseline: wins whenever it
  can, never claims a pung or chow, and discards the tile with the fewest
  neighbours in its hand (isolated honours first).
* :class:`StrongBot` (``"strong"``) — hand analysis: discards to the lowest
  shanten, then the most unseen useful tiles; when ready, prefers waits that
  are *winning* under the table's rules (MCR's 8 points, HK's minimum fan —
  checked with ``hefen.score``); claims a set only when it brings the hand
  closer; kongs when it costs nothing; declares ready in Taiwan on good
  waits; and against a threatening seat (declared ready, three or more
  exposed sets, or a short wall) it folds a far-off hand by discarding the
  safest tile (that seat's own discards, then tiles with most copies
  visible, suji-like neighbours of its discards, honours already out).
"""

from __future__ import annotations

import random
from typing import Protocol

from ..decompose import is_complete
from ..hand import Context, Hand
from ..tiles import NUM_KINDS
from .engine import Action, Game, forms_for
from .shanten import shanten_any

__all__ = ["Bot", "SimpleBot", "StrongBot", "BOTS", "make_bot"]


class Bot(Protocol):
    name: str

    def choose(self, game: Game, seat: int) -> Action: ...


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def _neighbour_score(c: list[int], t: int) -> int:
    """How useful ``t`` looks in a hand with counts ``c`` (``t`` included)."""
    s = 3 * (c[t] - 1)
    if t < 27:
        r = t % 9
        for d, w in ((1, 2), (2, 1)):
            if r - d >= 0:
                s += w * min(c[t - d], 1)
            if r + d <= 8:
                s += w * min(c[t + d], 1)
        s += 1 if 1 <= r <= 7 else 0
    return s


_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _near(c: list[int], special: bool) -> list[int]:
    """The tiles that can lower a hand's shanten: those held or within two
    of a held suit tile (and every terminal and honour for the special forms)."""
    near: set[int] = set(_ORPHANS) if special else set()
    for t in range(NUM_KINDS):
        if c[t]:
            near.add(t)
            if t < 27:
                r = t % 9
                near.update(t + d for d in (-2, -1, 1, 2) if 0 <= r + d <= 8)
    return sorted(near)


class SimpleBot:
    """The fast baseline."""

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        for a in legal:
            if a.kind == "win":
                return a
        if game.phase != "discard":
            return next(a for a in legal if a.kind == "pass")
        for a in legal:
            if a.kind == "kong" and game.players[seat].concealed.count(a.tile or 0) == 4:
                return a
        discards = [a for a in legal if a.kind == "discard"]
        c = _counts(game.players[seat].concealed)
        return min(discards, key=lambda a: (_neighbour_score(c, a.tile or 0), -(a.tile or 0)))


class StrongBot:
    """Shanten, useful tiles, hand value and defence. ``exact``: count
    shanten with ``hefen.analysis`` (slower; the default is the engine's own
    count, see :mod:`hefen.game.shanten`)."""

    name = "strong"

    def __init__(self, seed: int = 0, exact: bool = False) -> None:
        self.rng = random.Random(seed)
        self.exact = exact

    # -- what the seat can see
    def _unseen(self, game: Game, seat: int) -> list[int]:
        unseen = [4] * NUM_KINDS
        for t in game.players[seat].concealed:
            unseen[t] -= 1
        for s, p in enumerate(game.players):
            for t, claimed in p.discards:
                if not claimed:
                    unseen[t] -= 1
            for m in p.melds:
                if not m.concealed or s == seat:
                    for t in m.tiles:
                        unseen[t] -= 1
                # a concealed kong of another seat shows nothing
        return [max(0, n) for n in unseen]

    def _special(self, game: Game, seat: int) -> bool:
        return game.rules != "tw" and not game.players[seat].melds

    def _shanten(self, game: Game, seat: int, tiles: list[int], melds: int | None = None) -> int:
        n_melds = len(game.players[seat].melds) if melds is None else melds
        need = game.settings.sets - n_melds
        return shanten_any(_counts(tiles), need, game.rules != "tw" and n_melds == 0, self.exact)

    def _ukeire(self, game: Game, seat: int, tiles: list[int], unseen: list[int]) -> int:
        n_melds = len(game.players[seat].melds)
        need = game.settings.sets - n_melds
        special = game.rules != "tw" and n_melds == 0
        c = _counts(tiles)
        base = shanten_any(c, need, special, self.exact)
        total = 0
        for t in _near(c, special):
            if unseen[t] == 0 or c[t] >= 4:
                continue
            c[t] += 1
            if shanten_any(c, need, special, self.exact) < base:
                total += unseen[t]
            c[t] -= 1
        return total

    def _winning_waits(self, game: Game, seat: int, tiles: list[int], unseen: list[int]) -> int:
        """Unseen copies of the tiles that complete ``tiles`` into a *winning*
        hand (scored on a discard, the harder case for a minimum)."""
        p = game.players[seat]
        c = _counts(tiles)
        forms = forms_for(game.rules)
        total = 0
        for t in range(NUM_KINDS):
            if unseen[t] == 0 or c[t] >= 4:
                continue
            c[t] += 1
            done = is_complete(tuple(c), len(p.melds), forms)
            c[t] -= 1
            if not done:
                continue
            other = game.next_seat(seat)
            hand = Hand(
                rules=game.rules,
                concealed=tuple(sorted(tiles)),
                melds=tuple(p.melds),
                win_tile=t,
                flowers=tuple(sorted(p.flowers)),
                context=Context(
                    win="discard",
                    seat_wind=game.seat_winds[seat],
                    round_wind=game.round_wind,
                    discarder=game.seat_winds[other],
                    dealer=game.seat_winds[game.dealer],
                    declared_ready=p.declared_ready,
                ),
                options=dict(game.settings.options),
            )
            if game._score(hand).winning:
                total += unseen[t]
        return total

    def _threats(self, game: Game, seat: int) -> list[int]:
        out = []
        for s in game.after(seat):
            p = game.players[s]
            exposed = sum(1 for m in p.melds if not m.concealed)
            if p.declared_ready or exposed >= 3 or (exposed >= 2 and game.wall_remaining < 30):
                out.append(s)
        return out

    def _danger(self, game: Game, threats: list[int], t: int, unseen: list[int]) -> float:
        danger = 0.0
        for s in threats:
            river = {x for x, _ in game.players[s].discards}
            if t in river:
                continue  # genbutsu: rarely kept as a wait
            d = 1.0 + unseen[t] / 4
            if t < 27:
                r = t % 9
                suji = [t - 3] if r >= 3 else []
                suji += [t + 3] if r <= 5 else []
                if suji and all(x in river for x in suji):
                    d *= 0.4
                if r in (0, 8):
                    d *= 0.7
            else:
                d *= 0.3 + 0.2 * unseen[t]
            danger += d
        return danger

    # -- decisions
    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        for a in legal:
            if a.kind == "win":
                return a
        if len(legal) == 1:
            return legal[0]
        if game.phase == "declare":
            return (
                legal[0] if self._good_wait(game, seat, game.players[seat].concealed) else legal[1]
            )
        if game.phase != "discard":
            return self._respond(game, seat, legal)
        return self._turn(game, seat, legal)

    def _good_wait(self, game: Game, seat: int, tiles: list[int]) -> bool:
        return self._winning_waits(game, seat, tiles, self._unseen(game, seat)) >= 4

    def _best_discard(
        self, game: Game, seat: int, tiles: list[int], candidates: list[int], melds: int
    ) -> tuple[int, tuple[float, float, float]]:
        unseen = self._unseen(game, seat)
        threats = self._threats(game, seat)
        scored: list[tuple[int, int]] = []
        for t in candidates:
            rest = list(tiles)
            rest.remove(t)
            scored.append((self._shanten(game, seat, rest, melds), t))
        best_sh = min(sh for sh, _ in scored)
        out: list[tuple[tuple[float, float, float], int]] = []
        for sh, t in scored:
            if sh > best_sh + (1 if threats else 0):
                continue
            rest = list(tiles)
            rest.remove(t)
            danger = self._danger(game, threats, t, unseen)
            key: tuple[float, float, float]
            if threats and best_sh >= 2:
                key = (danger, float(sh), 0.0)  # fold: safety first
            else:
                value = 0.0
                if sh == 0 and melds == len(game.players[seat].melds):
                    value = -float(self._winning_waits(game, seat, rest, unseen))
                uke = -self._ukeire(game, seat, rest, unseen) if sh == best_sh else 0
                key = (float(sh), value, uke + danger * 2)
            out.append((key, t))
        best_key, tile = min(out, key=lambda x: (x[0], -x[1]))
        return tile, best_key

    def _turn(self, game: Game, seat: int, legal: list[Action]) -> Action:
        p = game.players[seat]
        tiles = list(p.concealed)
        discards = [a.tile for a in legal if a.kind == "discard" and a.tile is not None]
        base = self._shanten(game, seat, tiles)
        for a in legal:
            if a.kind == "kong" and a.tile is not None:
                if tiles.count(a.tile) < 4:
                    return a  # an added kong: a free extra tile
                rest = [x for x in tiles if x != a.tile]
                if self._shanten(game, seat, rest, len(p.melds) + 1) <= base:
                    return a
        tile, key = self._best_discard(game, seat, tiles, discards, len(p.melds))
        ready = [a for a in legal if a.kind == "ready" and a.tile == tile]
        if ready:
            rest = list(tiles)
            rest.remove(tile)
            if self._good_wait(game, seat, rest):
                return ready[0]
        return Action(seat, "discard", tile)

    def _respond(self, game: Game, seat: int, legal: list[Action]) -> Action:
        p = game.players[seat]
        passing = next(a for a in legal if a.kind == "pass")
        if game.phase != "respond" or game.last_discard is None:
            return passing
        tile = game.last_discard[1]
        base = self._shanten(game, seat, p.concealed)
        if self._threats(game, seat) and base >= 2:
            return passing
        best: tuple[int, Action] | None = None
        for a in legal:
            if a.kind in ("pung", "kong", "chow") and a.tile is not None:
                rest = list(p.concealed)
                if a.kind == "chow":
                    used = [x for x in (a.tile, a.tile + 1, a.tile + 2) if x != tile]
                else:
                    used = [tile] * (3 if a.kind == "kong" else 2)
                for x in used:
                    rest.remove(x)
                melds = len(p.melds) + 1
                if a.kind == "kong":
                    sh = self._shanten(game, seat, rest, melds)
                    if sh <= base and (best is None or sh < best[0]):
                        best = (sh, a)
                    continue
                sh = min(
                    self._shanten(
                        game, seat, [y for y in rest if y != x] + [x] * (rest.count(x) - 1), melds
                    )
                    for x in set(rest)
                )
                if sh < base and (best is None or sh < best[0]):
                    best = (sh, a)
        return best[1] if best is not None else passing


BOTS: tuple[str, ...] = ("simple", "strong", "strong-exact")


def make_bot(name: str, seed: int = 0) -> SimpleBot | StrongBot:
    """``simple``, ``strong``, or ``strong-exact`` (the strong bot counting
    shanten with ``hefen.analysis``)."""
    if name == "simple":
        return SimpleBot(seed)
    if name == "strong":
        return StrongBot(seed)
    if name == "strong-exact":
        return StrongBot(seed, exact=True)
    raise ValueError(f"Unknown bot {name!r} (use {', '.join(BOTS)}).")
