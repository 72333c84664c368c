"""Game records: JSON lines, one event per line, that replay to the same state.

A record is a header and then every action, in order::

    {"type": "match", "version": 1, "seed": 7, "hands": 4, "dealer_keeps_on_draw": true,
     "settings": {"rules": "mcr", "options": {}, "flowers": true, "multiple_winners": false}}
    {"type": "hand", "number": 1, "seed": "7/1", "dealer": 0, "seat_winds": ["E","S","W","N"],
     "round_wind": "E", "dealer_streak": 0, "settings": {...}}
    {"type": "action", "seat": 0, "kind": "discard", "tile": "9p"}
    {"type": "action", "seat": 2, "kind": "pung", "tile": "9p"}
    ...
    {"type": "end", "result": "win", "winners": [2], "discarder": 1, "payments": [...],
     "scores": [<result object>], "hands": [<hand object>], "balances": [..]}

The ``match`` line is optional (a record of a single hand starts with its
``hand`` line). Draws, flowers and replacement tiles are not written: the
seed fixes the wall, so they follow from the actions. The ``end`` line is
what the engine concluded; :func:`replay` plays the actions again and
refuses a record whose end differs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..tiles import tile_from_str, tile_to_str
from .engine import Action, Game, GameSettings
from .match import Match

__all__ = ["RecordError", "hand_header", "game_lines", "match_lines", "replay", "Replayed"]


class RecordError(ValueError):
    """A record that does not replay; the message names the line."""


def hand_header(game: Game, number: int = 1) -> dict[str, Any]:
    d: dict[str, Any] = {
        "type": "hand",
        "number": number,
        "seed": game.seed,
        "dealer": game.dealer,
        "seat_winds": [tile_to_str(w) for w in game.seat_winds],
        "round_wind": tile_to_str(game.round_wind),
        "dealer_streak": game.dealer_streak,
        "settings": game.settings.to_dict(),
    }
    if game.arranged:
        d["wall"] = [tile_to_str(t) for t in game.wall]
    return d


def game_from_header(obj: dict[str, Any]) -> Game:
    winds = [tile_from_str(w) for w in obj["seat_winds"]]
    return Game(
        GameSettings.from_dict(obj["settings"]),
        obj["seed"],
        dealer=int(obj["dealer"]),
        seat_winds=(winds[0], winds[1], winds[2], winds[3]),
        round_wind=tile_from_str(obj["round_wind"]),
        dealer_streak=int(obj.get("dealer_streak", 0)),
        wall=[tile_from_str(t) for t in obj["wall"]] if "wall" in obj else None,
    )


def end_line(game: Game, balances: Iterable[Any] | None = None) -> dict[str, Any]:
    assert game.outcome is not None
    d: dict[str, Any] = {"type": "end", **game.outcome.to_dict(game.seat_winds)}
    if balances is not None:
        d["balances"] = list(balances)
    return d


def game_lines(
    game: Game, number: int = 1, balances: Iterable[Any] | None = None
) -> list[dict[str, Any]]:
    """The record lines of one hand (its header, actions and, if over, its end)."""
    lines = [hand_header(game, number)]
    lines += [{"type": "action", **a.to_dict()} for a in game.actions]
    if game.outcome is not None:
        lines.append(end_line(game, balances))
    return lines


def match_lines(match: Match) -> list[dict[str, Any]]:
    lines = [match.header()]
    state = match.state
    for i, hp in enumerate(match.played):
        lines += game_lines(hp.game, hp.number, state.hands[i].balances)
    return lines


def dumps(lines: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


@dataclass
class Replayed:
    """The games of a record, replayed; ``match`` when it had a match line."""

    games: list[Game] = field(default_factory=list)
    match: Match | None = None
    headers: list[dict[str, Any]] = field(default_factory=list)


def _parse(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise RecordError(f"Line {n} is not JSON ({e.msg}).") from e
        if not isinstance(obj, dict) or "type" not in obj:
            raise RecordError(f"Line {n} is not a record event (it has no 'type').")
        yield n, obj


def replay(lines: Iterable[str]) -> Replayed:
    """Play a record again; raises :class:`RecordError` where it does not
    replay (an illegal action, an end that differs, a missing header)."""
    out = Replayed()
    game: Game | None = None
    for n, obj in _parse(lines):
        kind = obj["type"]
        if kind == "match":
            out.match = Match(
                GameSettings.from_dict(obj["settings"]),
                obj["seed"],
                hands=int(obj["hands"]),
                dealer_keeps_on_draw=bool(obj.get("dealer_keeps_on_draw", True)),
            )
        elif kind == "hand":
            if out.match is not None:
                game = out.match.new_game()
                if hand_header(game, obj["number"]) != obj:
                    raise RecordError(f"Line {n}: the hand does not follow from the match.")
            else:
                game = game_from_header(obj)
            out.games.append(game)
            out.headers.append(obj)
        elif kind == "action":
            if game is None:
                raise RecordError(f"Line {n}: an action before any hand header.")
            try:
                game.apply(Action.from_dict(obj))
            except ValueError as e:
                raise RecordError(f"Line {n}: {e}") from e
        elif kind == "end":
            if game is None or game.outcome is None:
                raise RecordError(f"Line {n}: the hand is not over at its end line.")
            mine = end_line(game)
            theirs = {k: v for k, v in obj.items() if k != "balances"}
            if mine != json.loads(json.dumps(theirs)) and json.loads(json.dumps(mine)) != theirs:
                raise RecordError(f"Line {n}: the replayed hand ended differently from the record.")
            if out.match is not None:
                out.match.record(game)
        else:
            raise RecordError(f"Line {n}: unknown event type {kind!r}.")
    return out
