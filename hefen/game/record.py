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

import hashlib
import json
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..tiles import tile_from_str, tile_to_str
from .engine import Action, Game, GameSettings
from .match import Match

__all__ = [
    "RecordError",
    "hand_header",
    "game_lines",
    "match_lines",
    "replay",
    "Replayed",
    "secret_seed",
    "seed_commitment",
    "redact_seeds",
]


def secret_seed() -> tuple[str, str, str]:
    """A match seed nobody can guess, a salt, and the commitment to both
    that may be published before the first deal: ``(seed, salt, sha256)``."""
    seed, salt = secrets.token_hex(16), secrets.token_hex(16)
    return seed, salt, seed_commitment(seed, salt)


def seed_commitment(seed: int | str, salt: str) -> str:
    """The published hash of a secret seed: hex SHA-256 of ``f"{seed}:{salt}"``
    (UTF-8). Anyone given the seed and salt at the end recomputes it."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


#: what a record hides while its match is being played
SECRET_KEYS = ("seed", "seed_salt", "wall")


def redact_seeds(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The record without what would let anyone rebuild the walls (the
    seeds, the salt, an arranged wall): what is shown until the match ends.
    The ``match`` line keeps ``seed_sha256``, the commitment."""
    return [
        {k: v for k, v in line.items() if k not in SECRET_KEYS}
        if line.get("type") in ("match", "hand")
        else dict(line)
        for line in lines
    ]


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
        except RecursionError as e:
            raise RecordError(f"Line {n} is nested too deeply to be a record event.") from e
        if not isinstance(obj, dict) or "type" not in obj:
            raise RecordError(f"Line {n} is not a record event (it has no 'type').")
        yield n, obj


_NEEDS: dict[str, tuple[str, ...]] = {
    "match": ("seed", "hands", "settings"),
    "hand": ("number", "seed", "dealer", "seat_winds", "round_wind", "settings"),
}


def _check_fields(n: int, obj: dict[str, Any]) -> None:
    kind = obj["type"]
    for key in _NEEDS.get(kind, ()):
        if key not in obj:
            raise RecordError(f"Line {n}: the {kind} line has no {key!r}.")
    settings = obj.get("settings")
    if kind in _NEEDS and not isinstance(settings, dict):
        raise RecordError(f"Line {n}: the {kind} line's settings must be an object.")
    if kind == "match":
        hands = obj["hands"]
        if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= 10_000:
            raise RecordError(f"Line {n}: 'hands' must be a whole number from 1 to 10000.")
    if kind == "hand":
        dealer = obj["dealer"]
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer <= 3:
            raise RecordError(f"Line {n}: 'dealer' must be a seat from 0 to 3, not {dealer!r}.")
        winds = obj["seat_winds"]
        if not isinstance(winds, list) or sorted(map(str, winds)) != ["E", "N", "S", "W"]:
            raise RecordError(f"Line {n}: 'seat_winds' must be the four winds E, S, W, N.")
        streak = obj.get("dealer_streak", 0)
        if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
            raise RecordError(f"Line {n}: 'dealer_streak' must be a whole number of 0 or more.")


def _settings(n: int, obj: dict[str, Any]) -> GameSettings:
    try:
        return GameSettings.from_dict(obj["settings"])
    except (ValueError, TypeError, AttributeError) as e:
        raise RecordError(f"Line {n}: {e}") from e


def _balances_of(game: Game) -> list[Any]:
    """Each seat's gain from one hand's payments (by seat)."""
    assert game.outcome is not None
    out: list[Any] = [0, 0, 0, 0]
    for frm, to, amount in game.outcome.payments:
        out[frm] -= amount
        out[to] += amount
    return out


def replay(lines: Iterable[str]) -> Replayed:
    """Play a record again; raises :class:`RecordError` where it does not
    replay (a damaged or missing header, an illegal action, an end or a
    balance that differs from what the replay gives, an empty record)."""
    out = Replayed()
    game: Game | None = None
    ended = True
    for n, obj in _parse(lines):
        kind = obj["type"]
        _check_fields(n, obj)
        if kind == "match":
            if out.match is not None or out.games:
                raise RecordError(f"Line {n}: a match line must be the record's first line.")
            settings = _settings(n, obj)
            try:
                out.match = Match(
                    settings,
                    obj["seed"],
                    hands=int(obj["hands"]),
                    dealer_keeps_on_draw=bool(obj.get("dealer_keeps_on_draw", True)),
                )
            except ValueError as e:
                raise RecordError(f"Line {n}: {e}") from e
        elif kind == "hand":
            if not ended:
                raise RecordError(f"Line {n}: a new hand starts before the last one's end line.")
            if out.match is not None:
                if out.match.finished:
                    raise RecordError(f"Line {n}: the match has already played all its hands.")
                game = out.match.new_game()
                if hand_header(game, obj["number"]) != obj:
                    raise RecordError(f"Line {n}: the hand does not follow from the match.")
            else:
                try:
                    game = game_from_header(obj)
                except (ValueError, TypeError, KeyError) as e:
                    raise RecordError(f"Line {n}: the hand line is damaged: {e}") from e
            out.games.append(game)
            out.headers.append(obj)
            ended = False
        elif kind == "action":
            if game is None:
                raise RecordError(f"Line {n}: an action before any hand header.")
            try:
                game.apply(Action.from_dict(obj))
            except (ValueError, TypeError, KeyError) as e:
                raise RecordError(f"Line {n}: {e}") from e
        elif kind == "end":
            if game is None or game.outcome is None:
                raise RecordError(f"Line {n}: the hand is not over at its end line.")
            mine = end_line(game)
            theirs = {k: v for k, v in obj.items() if k != "balances"}
            if mine != json.loads(json.dumps(theirs)) and json.loads(json.dumps(mine)) != theirs:
                raise RecordError(f"Line {n}: the replayed hand ended differently from the record.")
            if out.match is not None:
                state = out.match.record(game)
                expected: list[Any] = list(state.hands[-1].balances)
            elif "balances" in obj:
                expected = _balances_of(game)
            if "balances" in obj and obj["balances"] != expected:
                raise RecordError(
                    f"Line {n}: the balances {obj['balances']} differ from the replayed {expected}."
                )
            ended = True
        else:
            raise RecordError(f"Line {n}: unknown event type {kind!r}.")
    if not out.games:
        raise RecordError("The record has no hand in it.")
    return out
