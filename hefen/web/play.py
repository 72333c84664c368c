"""Online play: games whose hands are played on the server, each a table of
the table store (:mod:`hefen.table`).

Creating a game creates a table (:meth:`hefen.table.TableStore.create_game`):
its ``table_created`` and ``game_opened`` events hold the ruleset, options,
seat names and which seats are bots. Human seats are taken with the table's
own seat tokens (:meth:`~hefen.table.TableStore.join`; kept in the phone's
``localStorage``); bots (:func:`hefen.game.make_bot`) move on the server after
a short delay so that people can follow. The game record of
:mod:`hefen.game.record` (a ``match`` line, then each hand's header, actions
and end) is stored line by line as the table's ``game_line`` events, and
each finished hand, settled by the game's :class:`hefen.game.Match`, is also
the table's ``hand_recorded`` event, written in the same transaction as the
action that ended it: the game's ledger is the table's (``/t/{code}``, its
history, balances and exports). After a restart a game is rebuilt on first
use by replaying its stored record, the hand in progress included.

Every WebSocket client of ``/ws/play/{code}`` is a connection of the tables'
:class:`~hefen.web.tables.Hub` for that code; on every change it gets
``game.view(seat)`` for the seat its token holds, a client without a token
``game.public_view()``; never anything else about the hand. Actions
(``{"type": "act", "kind", "tile"}`` on the socket, or ``POST
/api/play/{code}/act``) are checked by the engine: an illegal one is answered
with an error and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import (
    APIRouter,
    Depends,
    FastAPI,
    Header,
    Request,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from hefen.web import rulesets
from hefen.web.models import ErrorOut

__all__ = [
    "GameTable",
    "PlayManager",
    "SeatFeed",
    "meld_claims",
    "play_pages",
    "router",
    "table_view",
]

BotName = Literal["simple", "strong"]
DEFAULT_DELAY = 0.8  # seconds before each bot move
#: ``GameTable.lines`` of a game whose memory is ahead of the store (a write
#: failed and the reload too): every write is refused until it is reloaded.
STALE = -1

bearer = HTTPBearer(auto_error=False, description="A seat token of the game table.")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "Not a legal move now"},
    403: {"model": ErrorOut, "description": "Missing token, or not a token of this table"},
    404: {"model": ErrorOut, "description": "No such game table"},
    409: {"model": ErrorOut, "description": "The seat is taken or is a bot's"},
    503: {"model": ErrorOut, "description": "The move could not be saved"},
    422: {"model": ErrorOut, "description": "Malformed request"},
}


# --------------------------------------------------------------------- models
def _default_bots() -> list[BotName | None]:
    return [None, "strong", "strong", "strong"]


class CreateGame(BaseModel):
    """A game table: ruleset and settings, names, which seats are bots."""

    model_config = ConfigDict(extra="forbid")

    ruleset: rulesets.RulesetKey
    options: dict[str, Any] = Field(default_factory=dict)
    names: list[str | None] = Field(default_factory=list, max_length=4)
    bots: list[BotName | None] = Field(
        default_factory=_default_bots,
        min_length=4,
        max_length=4,
        description="Per seat: a bot's name, or null for a human seat.",
    )
    hands: int = Field(4, ge=1, le=64, description="How many hands the match lasts.")
    seat: int | None = Field(None, ge=0, le=3, description="The creator sits here (a human seat).")
    dealer_keeps_on_draw: bool = True
    multiple_winners: bool = False
    seed: Any = Field(
        None,
        description="Refused: the walls come from a secret seed the server draws "
        "(its hash is published at the start, the seed itself at the end).",
        json_schema_extra={"deprecated": True},
    )


class JoinGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)
    name: str | None = Field(None, max_length=40)


class ActIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["discard", "win", "kong", "pung", "chow", "pass", "ready"]
    tile: str | None = None


class GameCreatedOut(BaseModel):
    code: str
    seat: int | None
    token: str | None
    url: str
    state: dict[str, Any]


class GameJoinedOut(BaseModel):
    code: str
    seat: int
    token: str
    state: dict[str, Any]


# ---------------------------------------------------------------------- model
@dataclass(eq=False)
class SeatFeed:
    """One WebSocket client of a game, as a connection of the tables' hub:
    every message the hub has for the table wakes it (from any thread or
    loop), and it then sends the state as its own seat sees it."""

    loop: asyncio.AbstractEventLoop
    event: asyncio.Event
    outside: bool = False  # a table message: seats or ledger may have changed (tables API)

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone
            self.loop.call_soon_threadsafe(self.event.set)

    async def send_json(self, message: dict[str, Any]) -> None:
        if message.get("type") == "table":
            self.outside = True
        self.wake()

    async def send_text(self, text: str) -> None:
        """The hub's message as JSON text: only its type matters here."""
        if text.startswith('{"type": "table"'):
            self.outside = True
        self.wake()


@dataclass
class GameTable:
    """An online game: a table of the store (``state``, its
    :class:`hefen.table.TableState`) with its match replayed in memory."""

    code: str
    match: Any  # hefen.game.Match
    state: Any  # hefen.table.TableState: names, seats joined, bots, ledger
    lines: int  # how many lines of its game record are stored
    seen: int  # the store's version of the table as last read or written
    game: Any = None  # hefen.game.Game: the hand in play, or the one just over
    driving: bool = False
    error: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)
    players: dict[int, Any] = field(default_factory=dict)  # seat -> bot
    header: dict[str, Any] = field(default_factory=dict)  # the record's match line (secret)

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.state.seats]

    @property
    def bots(self) -> list[str | None]:
        return list(self.state.game.bots)

    @property
    def joined(self) -> list[bool]:
        return [bool(seat.joined) for seat in self.state.seats]

    @property
    def status(self) -> str:
        """``waiting`` (for players), ``playing``, ``between`` (hands) or ``finished``."""
        if self.game is None:
            return "waiting"
        if self.game.phase != "end":
            return "playing"
        return "finished" if self.match.finished else "between"

    def summary(self) -> dict[str, Any]:
        """What everyone may know about the table (no concealed tile)."""
        state = self.state
        hands = [
            {
                "number": h.number,
                "kind": h.kind,
                "winner": h.winner,
                "discarder": h.discarder,
                "value": h.value,
                "unit": h.unit,
                "changes": list(h.changes),
            }
            for h in state.hands
        ]
        return {
            "code": self.code,
            "ruleset": self.match.settings.rules,
            "options": dict(self.match.settings.options),
            "names": self.names,
            "bots": self.bots,
            "joined": self.joined,
            "status": self.status,
            "hands": self.match.hands,
            "hand_number": len(self.match.played)
            + (1 if self.game is not None and self.game.phase != "end" else 0),
            "balances": list(state.balances),
            "history": hands,
            "version": self.seen,
            "error": self.error,
            **self.fairness(),
        }

    def fairness(self) -> dict[str, Any]:
        """The commitment to the secret seed (``seed_sha256``, from the start)
        and, once the match is over, the seed and salt that check it."""
        out: dict[str, Any] = {"seed_sha256": self.header.get("seed_sha256")}
        if self.match.finished:
            out["seed"] = self.header.get("seed")
            out["seed_salt"] = self.header.get("seed_salt")
        return out

    def message(self, seat: int | None) -> dict[str, Any]:
        """The state as sent to ``seat`` (``None``: a spectator)."""
        with self.lock:
            game = self.game
            view = None
            if game is not None:
                view = table_view(game, seat)
            return {
                "type": "state",
                "seat": seat,
                "table": self.summary(),
                "game": view,
                "step": 0 if game is None else len(game.actions),
            }


def table_view(game: Any, seat: int | None) -> dict[str, Any]:
    """The hand as ``seat`` sees it (``None``: a spectator): the engine's
    ``view(seat)`` or ``public_view()``, each seat with its melds' ``claims``
    (:func:`meld_claims`, public: the table shows each claimed tile turned)."""
    view: dict[str, Any] = game.public_view() if seat is None else game.view(seat)
    for s, claims in enumerate(meld_claims(game)):
        view["seats"][s]["claims"] = claims
    return view


def meld_claims(game: Any) -> list[list[dict[str, Any] | None]]:
    """Per seat, per meld (in the order of its ``melds``): the discard it
    claimed, ``{"from": seat, "tile": code}``, or ``None`` for a kong made
    from the hand. Public: everyone saw the claim. The engine keeps who
    each meld came from (``meld_from``); the tile taken (which of a chow's
    three) is read from the game's log: after each discard, the claims the
    seats answered with, of which a pung or kong beats a chow."""
    from hefen.tiles import tile_to_str

    taken: list[list[int]] = [[], [], [], []]
    last: tuple[int, int] | None = None
    answers: dict[int, Any] = {}

    def close() -> None:
        nonlocal last
        if last is not None:
            discarder, tile = last
            order = game.after(discarder)
            calls = [answers[s] for s in order if s in answers]
            claim = next((a for a in calls if a.kind in ("pung", "kong")), None) or next(
                (a for a in calls if a.kind == "chow"), None
            )
            if claim is not None:
                taken[claim.seat].append(tile)
        last = None
        answers.clear()

    for entry in game.log:
        a = entry[1] if entry[0] == "act" else None
        if a is None:
            close()
        elif a.kind in ("discard", "ready"):
            close()
            last = (a.seat, a.tile)
        elif last is not None and a.seat != last[0] and a.seat not in answers:
            answers[a.seat] = a
        else:
            close()
    close()  # a claim just taken (its claimer has not moved yet)
    out: list[list[dict[str, Any] | None]] = []
    for s, p in enumerate(game.players):
        tiles = iter(taken[s])
        row: list[dict[str, Any] | None] = []
        for frm in p.meld_from:
            tile = next(tiles, None) if frm is not None else None
            row.append(
                None
                if frm is None
                else {"from": frm, "tile": None if tile is None else tile_to_str(tile)}
            )
        out.append(row)
    return out


def _human_seats(t: GameTable) -> list[int]:
    return [s for s in range(4) if t.bots[s] is None]


def _table_error(exc: Exception, status: int) -> HTTPException:
    return HTTPException(status, str(exc).rstrip("."))


@contextlib.contextmanager
def _database() -> Iterator[None]:
    """A database that fails (down, disk full) is a 503 with one sentence."""
    try:
        yield
    except (SQLAlchemyError, OSError) as exc:
        raise HTTPException(503, "The game's database cannot be reached; please try again") from exc


# -------------------------------------------------------------------- manager
class PlayManager:
    """The online games of one server: tables of the table store (``store()``
    opens it on first use), each replayed into memory on first use, with
    every change published on the tables' ``hub``."""

    def __init__(
        self,
        store: Callable[[], Any],
        hub: Any = None,
        delay: float = DEFAULT_DELAY,
        lease: Any = None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.delay = delay
        self.tables: dict[str, GameTable] = {}
        self.lock = threading.Lock()
        #: with several processes: who drives each game's bots (a Lease)
        self.lease = lease
        self._watching = False

    def watch(self, every: float = 1.0) -> None:
        """With a lease: a thread that, every ``every`` seconds, offers to
        drive each game whose driver has stopped (its lease expired), those
        this process knows and those it has never loaded
        (:meth:`Lease.orphans`): the game is reloaded from the store and goes
        on."""
        if self.lease is None or self._watching:
            return
        self._watching = True

        unloadable: set[str] = set()

        def loop() -> None:
            while True:
                time.sleep(every)
                with self.lock:
                    tables = list(self.tables.values())
                for t in tables:
                    with contextlib.suppress(Exception):
                        if not t.driving and self._bot_move(t) is not None:
                            self._kick(t)
                # games this process never loaded whose driver died: load
                # one and drive it (the lease decides between processes)
                with contextlib.suppress(Exception):
                    for code in self.lease.orphans():
                        with self.lock:
                            known = code in self.tables or code in unloadable
                        if not known:
                            try:
                                self.get(code)
                            except Exception:  # noqa: BLE001 - not a game it can replay
                                unloadable.add(code)

        threading.Thread(target=loop, daemon=True, name="hefen-play-watch").start()

    # -------------------------------------------------------------- storage
    def _replay(self, code: str) -> GameTable:
        """The game ``code`` rebuilt from the store: its table state and its
        record replayed, the hand in progress included."""
        from hefen.game import replay
        from hefen.table import TableError

        store = self.store()
        try:
            with _database():
                state = store.get(code)
                lines = store.game_record(code) if state.game is not None else []
            if state.game is None:
                raise HTTPException(
                    404, f"The table {code} is a score table, not an online game; open /t/{code}"
                )
        except TableError as exc:
            raise _table_error(exc, 404) from exc
        try:
            rep = replay(json.dumps(line) for line in lines)
            if rep.match is None:
                raise ValueError("its record has no match line")
            if len(rep.match.played) != len(state.hands):
                raise ValueError(
                    f"its record has {len(rep.match.played)} finished hands, "
                    f"its ledger {len(state.hands)}"
                )
        except (ValueError, KeyError, TypeError) as exc:
            raise HTTPException(
                404, f"The game table {code} cannot be replayed: {str(exc).rstrip('.')}"
            ) from exc
        t = GameTable(
            code, rep.match, state, lines=len(lines), seen=state.version, header=dict(lines[0])
        )
        if rep.games:
            t.game = rep.games[-1]
        return t

    def _reload(self, t: GameTable) -> None:
        """Replace ``t``'s memory by what the store holds (after a failed write,
        or when another server played on)."""
        again = self._replay(t.code)
        t.match, t.state, t.lines, t.seen = again.match, again.state, again.lines, again.seen
        t.header = again.header
        t.game, t.players = again.game, {}

    def _write(
        self,
        t: GameTable,
        lines: list[dict[str, Any]],
        hand: tuple[int, dict[str, Any]] | None = None,
        key: str | None = None,
    ) -> None:
        """Append record lines (and a finished hand) to the store; on failure
        the table goes back to what is stored and the move is refused."""
        from hefen.table import TableError

        store = self.store()
        try:
            version = store.append_game(t.code, lines, after=t.lines, hand=hand, key=key)
        except (TableError, OSError, SQLAlchemyError) as exc:
            t.lines = STALE  # memory is ahead of the store: no write until reloaded
            with contextlib.suppress(HTTPException, TableError, OSError, SQLAlchemyError):
                self._reload(t)
            if isinstance(exc, TableError):
                raise _table_error(exc, 409) from exc
            raise HTTPException(503, "The move could not be saved; please try again") from exc
        expected = t.seen + len(lines) + (1 if hand is not None else 0)
        t.lines += len(lines)
        if hand is not None or version != expected:
            with _database():
                t.state = store.get(t.code)
            t.seen = t.state.version
        else:
            t.seen = version

    def refresh(self, t: GameTable) -> None:
        """Catch up with changes made to the table outside this manager (a seat
        taken, freed or renamed through the tables API)."""
        changed = False
        with t.lock, _database():
            store = self.store()
            if t.lines == STALE:
                self._reload(t)
                changed = True
            elif store.version(t.code) != t.seen:
                state = store.get(t.code)
                if state.game is None or state.game.lines != t.lines:
                    self._reload(t)
                else:
                    t.state, t.seen = state, state.version
                changed = True
                self._maybe_start(t)
        if changed:
            self._changed(t)

    # ---------------------------------------------------------------- tables
    def get(self, code: str) -> GameTable:
        """The game ``code`` (rebuilt from the store after a restart)."""
        from hefen.table import TableError, normalize_code

        try:
            code = normalize_code(code)
        except TableError as exc:
            raise _table_error(exc, 404) from exc
        fresh = False
        with self.lock:
            t = self.tables.get(code)
            if t is None:
                t = self._replay(code)
                self.tables[code] = t
                fresh = True
        if not fresh:
            self.refresh(t)
        self._kick(t)
        return t

    def record(self, code: str) -> str:
        """The game record of ``code`` as JSON lines (``hefen replay`` reads it)."""
        from hefen.table import TableError

        t = self.get(code)
        try:
            with _database():
                text: str = self.store().export_record(t.code)
        except TableError as exc:
            raise _table_error(exc, 404) from exc
        return text

    def create(self, body: CreateGame) -> tuple[GameTable, str | None]:
        from hefen.game import GameSettings, Match
        from hefen.game.record import secret_seed
        from hefen.table import TableError

        options = rulesets.table_options(body.ruleset, body.options)
        if body.seat is not None and body.bots[body.seat] is not None:
            raise HTTPException(400, f"Seat {body.seat} is a bot's seat")
        settings = GameSettings(
            body.ruleset, options=options, multiple_winners=body.multiple_winners
        )
        if body.seed is not None:
            raise HTTPException(
                400,
                "A game cannot be given a seed: the server draws a secret one and "
                "publishes its hash (seed_sha256) now, the seed when the match ends",
            )
        seed, salt, commitment = secret_seed()
        match = Match(
            settings, seed, hands=body.hands, dealer_keeps_on_draw=body.dealer_keeps_on_draw
        )
        header = {**match.header(), "seed_salt": salt, "seed_sha256": commitment}
        names = [
            (body.names[i] if i < len(body.names) and body.names[i] else None) or ""
            for i in range(4)
        ]
        for i in range(4):
            names[i] = (names[i].strip()[:40]) or (
                f"{body.bots[i]} bot {i + 1}" if body.bots[i] else f"Player {i + 1}"
            )
        token = None
        try:
            with _database():
                store = self.store()
                created = store.create_game(
                    body.ruleset,
                    bots=list(body.bots),
                    hands=body.hands,
                    record=[header],
                    options=options,
                    dealer_keeps_on_draw=body.dealer_keeps_on_draw,
                    names=names,
                )
                state = created.state
                if body.seat is not None:
                    joined = store.join(created.code, body.seat)
                    token, state = joined.token, joined.state
        except TableError as exc:
            raise _table_error(exc, 400) from exc
        t = GameTable(created.code, match, state, lines=1, seen=state.version, header=header)
        with self.lock:
            self.tables[t.code] = t
        with t.lock:
            self._maybe_start(t)
        self._changed(t, table=True)
        return t, token

    def seat_of(self, t: GameTable, token: str | None) -> int | None:
        """The seat ``token`` (a seat token of the table store) plays; ``None``
        without a token; 403 for a token that is not this table's."""
        from hefen.table import TableError
        from hefen.table.core import authorize

        if not token:
            return None
        try:
            actor = authorize(t.state, token)
        except TableError as exc:
            raise _table_error(exc, 403) from exc
        return actor.seat

    def join(self, t: GameTable, seat: int, name: str | None, key: str | None = None) -> str:
        """Take a human seat; a repeated idempotency ``key`` gets the first token."""
        from hefen.table import TableError

        with t.lock:
            if t.bots[seat] is not None:
                raise HTTPException(409, f"Seat {seat} is played by a bot")
            if t.joined[seat] and key is None:
                raise HTTPException(409, f"Seat {seat} ({t.names[seat]}) is already taken")
            clean = name.strip()[:40] if name and name.strip() else None
            try:
                with _database():
                    joined = self.store().join(t.code, seat, clean, key=key)
            except TableError as exc:
                raise _table_error(exc, 409 if "taken" in str(exc) else 400) from exc
            t.state, t.seen = joined.state, joined.state.version
            self._maybe_start(t)
        self._changed(t, table=True)
        return str(joined.token)

    def fill_with_bots(self, t: GameTable, token: str) -> None:
        """Start now: every free human seat is taken by a bot (any seat token)."""
        from hefen.table import TableError

        with t.lock:
            if t.game is not None:
                raise HTTPException(400, "The game has already started")
            try:
                with _database():
                    state = self.store().seat_bots(t.code, token, "strong")
            except TableError as exc:
                raise _table_error(exc, 400) from exc
            t.state, t.seen = state, state.version
            self._maybe_start(t)
        self._changed(t, table=True)

    def _maybe_start(self, t: GameTable) -> None:
        if t.game is None and all(t.joined[s] for s in _human_seats(t)):
            self._new_hand(t)

    def _new_hand(self, t: GameTable) -> None:
        from hefen.game.record import hand_header

        game = t.match.new_game()
        self._write(t, [hand_header(game, t.match.position.hand_number)])
        t.game = game
        t.players = {}

    def next_hand(self, t: GameTable) -> None:
        with t.lock:
            if t.status != "between":
                raise HTTPException(400, "The next hand can start only after a hand is over")
            self._new_hand(t)
        self._changed(t)

    def act(
        self, t: GameTable, seat: int, kind: str, tile: str | None, key: str | None = None
    ) -> dict[str, Any]:
        """Apply a human seat's action; an illegal one is a 400 and changes
        nothing; one whose idempotency ``key`` is stored already was played:
        nothing is done again. Returns the seat's state as the action left it,
        taken before the bots are woken (they answer on the hub, after it); for
        a repeated key, the state as it is now."""
        from hefen.game import Action, IllegalAction
        from hefen.table import TableError
        from hefen.table.storage import check_key

        with t.lock:
            if key is not None:
                try:
                    key = check_key(key)
                    with _database():
                        done = self.store().key_seq(t.code, key)
                except TableError as exc:
                    raise _table_error(exc, 400) from exc
                if done is not None:
                    if done > t.seen:  # played through another server: catch up
                        self._reload(t)
                    return t.message(seat)
            if t.bots[seat] is not None:
                raise HTTPException(403, f"Seat {seat} is played by a bot")
            if t.game is None:
                raise HTTPException(400, "The game has not started yet")
            try:
                action = Action.from_dict({"seat": seat, "kind": kind, "tile": tile})
                ended = self._apply(t, action, key)
            except (IllegalAction, ValueError, KeyError) as exc:
                raise HTTPException(400, str(exc).rstrip(".")) from exc
            reply = t.message(seat)
        self._changed(t, table=ended)
        return reply

    def _apply(self, t: GameTable, action: Any, key: str | None = None) -> bool:
        """Play ``action`` and store it (with the hand, if it ends the hand);
        True when the hand ended."""
        from hefen.game.record import end_line

        t.game.apply(action)
        lines = [{"type": "action", **action.to_dict()}]
        if t.game.phase != "end":
            self._write(t, lines, key=key)
            return False
        state = t.match.record(t.game)
        lines.append(end_line(t.game, state.balances))
        self._write(t, lines, (len(t.match.played), t.match.events[-1].payload), key)
        return True

    # ---------------------------------------------------------------- bots
    def _bot_move(self, t: GameTable) -> str | int | None:
        """What the bots do next: a seat to move, ``"next"`` (an all-bot
        table deals the next hand), or None (waiting for a human)."""
        if t.game is None:
            return None
        if t.game.phase == "end":
            if t.status == "between" and not _human_seats(t):
                return "next"
            return None
        for seat in t.game.to_act():
            if t.bots[seat] is not None:
                return int(seat)
        return None

    def _kick(self, t: GameTable) -> None:
        with t.lock:
            if t.driving or self._bot_move(t) is None:
                return
            if self.lease is not None:
                if not self.lease.acquire(t.code):
                    return  # another process drives this game
                with contextlib.suppress(HTTPException, OSError, SQLAlchemyError):
                    if self.store().version(t.code) != t.seen:
                        self._reload(t)  # the last holder played on
                if self._bot_move(t) is None:
                    self.lease.idle(t.code)
                    self.lease.release(t.code)
                    return
            t.driving = True
        threading.Thread(target=self._drive, args=(t,), daemon=True).start()

    def _stop_driving(self, t: GameTable) -> None:
        t.driving = False
        if self.lease is not None:
            with contextlib.suppress(Exception):
                self.lease.release(t.code)

    def _drive(self, t: GameTable) -> None:
        from hefen.game import make_bot

        try:
            while True:
                with t.lock:
                    if self._bot_move(t) is None:
                        if self.lease is not None:
                            with contextlib.suppress(Exception):
                                self.lease.idle(t.code)
                        self._stop_driving(t)
                        return
                time.sleep(self.delay)
                ended = False
                with t.lock:
                    if self.lease is not None and not self.lease.renew(t.code):
                        t.driving = False  # lost the lease: another process drives
                        return
                    move = self._bot_move(t)
                    if move == "next":
                        self._new_hand(t)
                    elif isinstance(move, int):
                        bot = t.players.get(move)
                        if bot is None:
                            bot = t.players[move] = make_bot(str(t.bots[move]), seed=move)
                        ended = self._apply(t, bot.choose(t.game, move))
                    t.error = ""
                self._changed(t, kick=False, table=ended)
        except Exception as exc:  # noqa: BLE001 - keep the table readable, say what broke
            detail = exc.detail if isinstance(exc, HTTPException) else exc
            with t.lock:
                self._stop_driving(t)
                t.error = f"A bot failed: {detail}"
            self._changed(t, kick=False)

    def _changed(self, t: GameTable, kick: bool = True, table: bool = False) -> None:
        """Tell the table's connections on the hub: a ``table`` message (the
        table state, as the tables' feed sends it) when the table's seats or
        ledger changed, else a ``game`` message (the step reached)."""
        if self.hub is not None:
            with t.lock:
                if table:
                    message = {"type": "table", "table": t.state.to_dict()}
                else:
                    step = 0 if t.game is None else len(t.game.actions)
                    message = {"type": "game", "code": t.code, "step": step}
            self.hub.publish(t.code, message)
        if kick:
            self._kick(t)


class Lease:
    """Who drives a game's bots when several processes serve it: a Redis key
    ``hefen:drive:<CODE>`` set with ``SET NX PX`` by one process, renewed
    before each bot move; a holder that dies stops renewing, the key
    expires after ``ttl_ms`` and another process takes the game over. Each
    move is appended only if the record has the length its driver knows,
    so even two drivers at once could not lose or double a move."""

    RENEW = (
        'if redis.call("get", KEYS[1]) == ARGV[1] then '
        'return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end'
    )
    RELEASE = (
        'if redis.call("get", KEYS[1]) == ARGV[1] then '
        'return redis.call("del", KEYS[1]) else return 0 end'
    )

    #: the games that have bots to move (a Redis set): a game there whose
    #: lease has expired lost its driver, and any process takes it over
    GAMES = "hefen:drive:games"

    def __init__(self, url: str, ttl_ms: int = 3000) -> None:
        import redis

        self.client = redis.Redis.from_url(url)
        self.owner = secrets_token()
        self.ttl_ms = ttl_ms

    def _key(self, code: str) -> str:
        return f"hefen:drive:{code}"

    def acquire(self, code: str) -> bool:
        key = self._key(code)
        if self.client.set(key, self.owner, nx=True, px=self.ttl_ms):
            self.client.sadd(self.GAMES, code)
            return True
        return self.renew(code)  # already ours

    def idle(self, code: str) -> None:
        """The game has no bot to move (it waits for a person, or is over):
        no process need drive it until a move wakes it."""
        self.client.srem(self.GAMES, code)

    def orphans(self) -> list[str]:
        """The games with bots to move whose driver has stopped renewing."""
        codes = sorted(
            c.decode() if isinstance(c, bytes) else str(c) for c in self.client.smembers(self.GAMES)
        )
        if not codes:
            return []
        pipe = self.client.pipeline(transaction=False)
        for code in codes:
            pipe.exists(self._key(code))
        return [code for code, held in zip(codes, pipe.execute(), strict=True) if not held]

    def renew(self, code: str) -> bool:
        return bool(self.client.eval(self.RENEW, 1, self._key(code), self.owner, self.ttl_ms))

    def release(self, code: str) -> None:
        self.client.eval(self.RELEASE, 1, self._key(code), self.owner)


def secrets_token() -> str:
    import secrets

    return secrets.token_hex(8)


def manager_of(app: FastAPI) -> PlayManager:
    manager: PlayManager = app.state.play
    return manager


# ------------------------------------------------------------------------ API
router = APIRouter(prefix="/api/play", tags=["play"], responses=ERRORS)
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
IdemKey = Annotated[
    str | None,
    Header(alias="Idempotency-Key", description="One per move: a repeat is not played again."),
]


def _token(creds: HTTPAuthorizationCredentials | None) -> str:
    if creds is None or not creds.credentials:
        raise HTTPException(403, "This action needs your seat token")
    return creds.credentials


def _seat(manager: PlayManager, t: GameTable, creds: HTTPAuthorizationCredentials | None) -> int:
    seat = manager.seat_of(t, _token(creds))
    if seat is None:
        raise HTTPException(403, "This action needs a seat token, not the host's")
    return seat


@router.post("", status_code=201, response_model=GameCreatedOut)
def create_game(body: CreateGame, request: Request) -> Any:
    """Open a game table (a table of the table store); with ``seat`` the
    creator sits there and gets that seat's token."""
    try:
        t, token = manager_of(request.app).create(body)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from exc
    return {
        "code": t.code,
        "seat": body.seat,
        "token": token,
        "url": str(request.url_for("play_page", code=t.code)),
        "state": t.message(body.seat),
    }


@router.get("/{code}")
def get_game(code: str, request: Request, creds: Creds) -> dict[str, Any]:
    """The table and hand as the token's seat sees them (no token: a spectator's view)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(manager, t, creds) if creds is not None else None
    return t.message(seat)


@router.get(
    "/{code}/record",
    response_class=Response,
    responses={200: {"content": {"application/x-ndjson": {}}, "description": "The game record"}},
)
def game_record(code: str, request: Request) -> Response:
    """The game record as JSON lines (``docs/game.md``; ``hefen replay`` reads it):
    the match line, then each hand's header, actions and end."""
    text = manager_of(request.app).record(code)
    return Response(text, media_type="application/x-ndjson")


@router.post("/{code}/join", response_model=GameJoinedOut)
def join_game(code: str, body: JoinGame, request: Request, idem: IdemKey = None) -> Any:
    """Take a free human seat; the answer holds the seat's secret token (a
    repeated idempotency key gets the same one)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    token = manager.join(t, body.seat, body.name, idem)
    return {"code": t.code, "seat": body.seat, "token": token, "state": t.message(body.seat)}


@router.post("/{code}/act")
def act(
    code: str, body: ActIn, request: Request, creds: Creds, idem: IdemKey = None
) -> dict[str, Any]:
    """Play a move for the token's seat (checked against the engine's legal
    moves); a repeated idempotency key is not played again."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(manager, t, creds)
    return manager.act(t, seat, body.kind, body.tile, idem)


@router.post("/{code}/start")
def start_game(code: str, request: Request, creds: Creds) -> dict[str, Any]:
    """Start now: bots take the free seats (any seated player)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(manager, t, creds)
    manager.fill_with_bots(t, _token(creds))
    return t.message(seat)


@router.post("/{code}/next")
def next_hand(code: str, request: Request, creds: Creds) -> dict[str, Any]:
    """Deal the next hand once the last one is over (any seated player)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(manager, t, creds)
    manager.next_hand(t)
    return t.message(seat)


# ------------------------------------------------------------------ websocket
async def play_feed(websocket: WebSocket, code: str) -> None:
    """The hand as this client's seat sees it, now and after every change.

    A socket starts as a spectator's (the public view). Its first message
    ``{"type": "auth", "token": ...}`` (a seat token of the table) makes it
    that seat's: it then gets the seat's view. A token is never taken from
    the URL (``?token=`` is refused: URLs end up in logs and histories). The
    client is a connection of the tables' hub for this table's code, woken
    by every change. Other messages: ``{"type": "act", "kind", "tile"}``,
    ``{"type": "next"}``, ``{"type": "start"}`` and ``"ping"``; a refused one
    is answered with ``{"type": "error", "error": ...}``.
    """
    manager = manager_of(websocket.app)
    try:
        t = await asyncio.to_thread(manager.get, code)
    except HTTPException:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    if "token" in websocket.query_params:
        await websocket.close(code=4400, reason=URL_TOKEN)
        return
    seat: int | None = None
    token: str | None = None
    # the first message says who this is: a seat (auth) or a spectator (any
    # other message, or none within AUTH_WAIT seconds)
    pending: str | None = None
    try:
        first = await asyncio.wait_for(websocket.receive_text(), AUTH_WAIT)
    except TimeoutError:
        first = None
    except (WebSocketDisconnect, KeyError, RuntimeError):
        return
    given = _auth_token(first)
    if given is not None:
        try:
            if not given:
                raise HTTPException(403, "An auth message needs the seat's token")
            seat, token = manager.seat_of(t, given), given
        except HTTPException as exc:
            await websocket.close(code=4403, reason=f"{exc.detail}.")
            return
    elif first is not None:
        pending = first  # a spectator's first message, answered as usual
    feed = SeatFeed(asyncio.get_running_loop(), asyncio.Event())
    feed.event.set()
    hub = manager.hub
    if hub is not None:
        hub.add(t.code, feed)
        await hub.follow(t.code)  # with Redis: this process hears the game's changes

    async def pump() -> None:
        while True:
            await feed.event.wait()
            feed.event.clear()
            if feed.outside:
                feed.outside = False
                with contextlib.suppress(HTTPException):
                    await asyncio.to_thread(manager.refresh, t)
            await websocket.send_json(t.message(seat))

    sender = asyncio.create_task(pump())
    try:
        while True:
            text = pending if pending is not None else await websocket.receive_text()
            pending = None
            if text == "ping":
                await websocket.send_json({"type": "pong"})
                continue
            try:
                msg = json.loads(text)
                if not isinstance(msg, dict):
                    raise HTTPException(422, "A message must be a JSON object")
                kind = msg.get("type")
                if kind == "watch":
                    continue
                if kind == "auth":
                    raise HTTPException(422, "A socket is authenticated by its first message only")
                if seat is None:
                    raise HTTPException(403, "Spectators cannot play; take a seat first")
                # the token must still hold the seat (it may have been freed)
                if manager.seat_of(t, token) != seat:
                    raise HTTPException(403, "This token no longer holds its seat")
                if kind == "act":
                    key = msg.get("key")
                    body = ActIn.model_validate(
                        {k: v for k, v in msg.items() if k not in ("type", "key")}
                    )
                    await asyncio.to_thread(
                        manager.act, t, seat, body.kind, body.tile, key if key else None
                    )
                elif kind == "next":
                    await asyncio.to_thread(manager.next_hand, t)
                elif kind == "start":
                    await asyncio.to_thread(manager.fill_with_bots, t, str(token))
                else:
                    raise HTTPException(422, f"Unknown message type {kind!r}")
            except HTTPException as exc:
                await websocket.send_json({"type": "error", "error": f"{exc.detail}."})
            except ValueError as exc:  # bad JSON, or an ActIn that does not validate
                await websocket.send_json({"type": "error", "error": _first_line(exc)})
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        if hub is not None:
            hub.remove(t.code, feed)
        with contextlib.suppress(Exception):
            await websocket.close()


#: seconds a new socket waits for its first message (auth, or watch)
AUTH_WAIT = 2.0


def _auth_token(text: str | None) -> str | None:
    """The token of an ``{"type": "auth", "token": ...}`` message, else None."""
    if text is None or not text.startswith("{"):
        return None
    try:
        msg = json.loads(text)
    except ValueError:
        return None
    if isinstance(msg, dict) and msg.get("type") == "auth":
        given = msg.get("token")
        return given if isinstance(given, str) else ""
    return None


URL_TOKEN = (
    'A seat token is never put in the URL; send {"type": "auth", "token": ...} '
    "as the socket's first message."
)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else "The message is not valid").rstrip(".") + "."


# ---------------------------------------------------------------------- pages
def play_pages(app: FastAPI) -> None:
    """Register the game-table pages and the WebSocket route on ``app``."""
    pages = app.state.pages
    app.add_api_websocket_route("/ws/play/{code}", play_feed)

    @app.get("/play/new", response_class=HTMLResponse, include_in_schema=False)
    def new_game_page(request: Request, ruleset: str = rulesets.DEFAULT_RULESET) -> HTMLResponse:
        return pages.render(request, "play_new.html", ruleset=rulesets.page_key(ruleset))

    @app.get("/play/{code}", response_class=HTMLResponse, include_in_schema=False, name="play_page")
    def play_page(code: str, request: Request) -> Response:
        try:
            t = manager_of(request.app).get(code)
        except HTTPException:
            return pages.render(request, "play_missing.html", code=code)
        if t.code != code:
            return RedirectResponse(f"/play/{t.code}", status_code=303)
        from hefen import svg

        return pages.render(request, "play.html", state=t.message(None), codes=svg.TILE_CODES)
