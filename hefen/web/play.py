"""Online play: game tables whose hands are played on the server.

A *game table* holds a :class:`hefen.game.Match` (its ledger folds the
finished hands into running balances) and the hand being played, a
:class:`hefen.game.Game`. Seats are humans (each with a secret seat token,
kept in the phone's ``localStorage``) or bots (:func:`hefen.game.make_bot`),
whose moves the server applies after a short delay so that people can follow.

Every WebSocket client of ``/ws/play/{code}`` gets ``game.view(seat)`` for
the seat its token belongs to, a client without a token ``game.public_view()``;
never anything else about the hand. Actions (``{"type": "act", "kind",
"tile"}`` on the socket, or ``POST /api/play/{code}/act``) are checked by the
engine: an illegal one is answered with an error and changes nothing.

Each table is written to a folder as two files: ``CODE.jsonl``, the game
record of :mod:`hefen.game.record` (a ``match`` line, then each hand's header,
actions and end, appended as they happen), and ``CODE.json`` (names, bots,
seat-token hashes). After a restart a table is rebuilt by replaying its
record, the hand in progress included.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from hefen.web import rulesets
from hefen.web.models import ErrorOut

__all__ = ["GameTable", "PlayManager", "play_pages", "router"]

BotName = Literal["simple", "strong"]
DEFAULT_DELAY = 0.8  # seconds before each bot move
PLAY_DIR_ENV = "HEFEN_PLAY_DIR"

bearer = HTTPBearer(auto_error=False, description="A seat token of the game table.")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "Not a legal move now"},
    403: {"model": ErrorOut, "description": "Missing token, or not a token of this table"},
    404: {"model": ErrorOut, "description": "No such game table"},
    409: {"model": ErrorOut, "description": "The seat is taken or is a bot's"},
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
    seed: int | None = Field(None, description="Fixes every wall; random when left out.")


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
class Listener:
    """One WebSocket client: woken (from any thread) when its table changes."""

    loop: asyncio.AbstractEventLoop
    event: asyncio.Event

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone
            self.loop.call_soon_threadsafe(self.event.set)


@dataclass
class GameTable:
    code: str
    match: Any  # hefen.game.Match
    names: list[str]
    bots: list[str | None]
    tokens: list[str | None]  # sha256 of each human seat's token
    created: float = field(default_factory=time.time)
    started: bool = False
    game: Any = None  # hefen.game.Game: the hand in play, or the one just over
    version: int = 0
    driving: bool = False
    error: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: set[Any] = field(default_factory=set)
    players: dict[int, Any] = field(default_factory=dict)  # seat -> bot

    @property
    def status(self) -> str:
        """``waiting`` (for players), ``playing``, ``between`` (hands) or ``finished``."""
        if self.game is None:
            return "waiting"
        if self.game.phase != "end":
            return "playing"
        return "finished" if self.match.finished else "between"

    def seat_of(self, token: str | None) -> int | None:
        if not token:
            return None
        from hefen.table.core import hash_token

        digest = hash_token(token)
        for seat, h in enumerate(self.tokens):
            if h is not None and secrets.compare_digest(h, digest):
                return seat
        return None

    def summary(self) -> dict[str, Any]:
        """What everyone may know about the table (no concealed tile)."""
        state = self.match.state
        hands = [
            {
                "number": h["number"],
                "kind": h["kind"],
                "winner": h.get("winner"),
                "discarder": h.get("discarder"),
                "value": h.get("value"),
                "unit": h.get("unit"),
                "changes": h.get("changes"),
            }
            for h in state.to_dict()["hands"]
        ]
        return {
            "code": self.code,
            "ruleset": self.match.settings.rules,
            "options": dict(self.match.settings.options),
            "names": list(self.names),
            "bots": list(self.bots),
            "joined": [t is not None for t in self.tokens],
            "status": self.status,
            "hands": self.match.hands,
            "hand_number": len(self.match.played)
            + (1 if self.game is not None and self.game.phase != "end" else 0),
            "balances": list(state.balances),
            "history": hands,
            "version": self.version,
            "error": self.error,
        }

    def message(self, seat: int | None) -> dict[str, Any]:
        """The state as sent to ``seat`` (``None``: a spectator)."""
        with self.lock:
            game = self.game
            view = None
            if game is not None:
                view = game.public_view() if seat is None else game.view(seat)
            return {
                "type": "state",
                "seat": seat,
                "table": self.summary(),
                "game": view,
                "step": 0 if game is None else len(game.actions),
            }


def _human_seats(t: GameTable) -> list[int]:
    return [s for s in range(4) if t.bots[s] is None]


# -------------------------------------------------------------------- manager
class PlayManager:
    """The game tables of one server, in memory, written to ``folder``."""

    def __init__(self, folder: str | Path | None = None, delay: float = DEFAULT_DELAY) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.delay = delay
        self.tables: dict[str, GameTable] = {}
        self.lock = threading.Lock()

    # ---------------------------------------------------------------- files
    def _dir(self) -> Path:
        if self.folder is None:
            env = os.environ.get(PLAY_DIR_ENV, "").strip()
            if env:
                self.folder = Path(env)
            else:
                import platformdirs

                self.folder = Path(platformdirs.user_data_dir("hefen")) / "games"
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder

    def _append(self, t: GameTable, lines: list[dict[str, Any]]) -> None:
        with (self._dir() / f"{t.code}.jsonl").open("a", encoding="utf-8") as f:
            for line in lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
            f.flush()

    def _save_meta(self, t: GameTable) -> None:
        meta = {
            "code": t.code,
            "names": t.names,
            "bots": t.bots,
            "tokens": t.tokens,
            "created": t.created,
            "started": t.started,
        }
        path = self._dir() / f"{t.code}.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)

    def record_path(self, code: str) -> Path:
        return self._dir() / f"{code}.jsonl"

    def _load(self, code: str) -> GameTable | None:
        from hefen.game import replay
        from hefen.game.record import end_line

        folder = self._dir()
        meta_path, rec_path = folder / f"{code}.json", folder / f"{code}.jsonl"
        if not meta_path.exists() or not rec_path.exists():
            return None
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        with rec_path.open(encoding="utf-8") as f:
            rep = replay(f)
        assert rep.match is not None
        t = GameTable(
            code=code,
            match=rep.match,
            names=list(meta["names"]),
            bots=list(meta["bots"]),
            tokens=list(meta["tokens"]),
            created=float(meta.get("created", time.time())),
            started=bool(meta.get("started", False)),
        )
        if rep.games:
            t.game = rep.games[-1]
            if t.game.phase == "end" and len(rep.match.played) < len(rep.games):
                # the server stopped between the last action and its end line
                state = rep.match.record(t.game)
                self._append(t, [end_line(t.game, state.balances)])
        return t

    # ---------------------------------------------------------------- tables
    def get(self, code: str) -> GameTable:
        """The table ``code`` (loaded from its record after a restart)."""
        from hefen.table import TableError, normalize_code

        try:
            code = normalize_code(code)
        except TableError as exc:
            raise HTTPException(404, str(exc)) from exc
        with self.lock:
            t = self.tables.get(code)
            if t is None:
                try:
                    t = self._load(code)
                except (OSError, ValueError, KeyError) as exc:
                    raise HTTPException(
                        404, f"The game table {code} cannot be replayed: {exc}"
                    ) from exc
                if t is None:
                    raise HTTPException(404, f"No game table with the code {code}")
                self.tables[code] = t
        self._kick(t)
        return t

    def create(self, body: CreateGame) -> tuple[GameTable, str | None]:
        from hefen.game import GameSettings, Match
        from hefen.table.storage import new_code

        options = rulesets.table_options(body.ruleset, body.options)
        if body.seat is not None and body.bots[body.seat] is not None:
            raise HTTPException(400, f"Seat {body.seat} is a bot's seat")
        settings = GameSettings(
            body.ruleset, options=options, multiple_winners=body.multiple_winners
        )
        seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
        match = Match(
            settings, seed, hands=body.hands, dealer_keeps_on_draw=body.dealer_keeps_on_draw
        )
        names = [
            (body.names[i] if i < len(body.names) and body.names[i] else None) or ""
            for i in range(4)
        ]
        for i in range(4):
            names[i] = (names[i].strip()[:40]) or (
                f"{body.bots[i]} bot {i + 1}" if body.bots[i] else f"Player {i + 1}"
            )
        with self.lock:
            code = new_code()
            while code in self.tables or (self._dir() / f"{code}.json").exists():
                code = new_code()
            t = GameTable(code, match, names, list(body.bots), [None] * 4)
            self.tables[code] = t
        token = None
        with t.lock:
            self._append(t, [match.header()])
            if body.seat is not None:
                token = self._give_seat(t, body.seat)
            self._save_meta(t)
            self._maybe_start(t)
        self._changed(t)
        return t, token

    def _give_seat(self, t: GameTable, seat: int) -> str:
        from hefen.table.core import hash_token
        from hefen.table.storage import new_token

        token = new_token()
        t.tokens[seat] = hash_token(token)
        return token

    def join(self, t: GameTable, seat: int, name: str | None) -> str:
        with t.lock:
            if t.bots[seat] is not None:
                raise HTTPException(409, f"Seat {seat} is played by a bot")
            if t.tokens[seat] is not None:
                raise HTTPException(409, f"Seat {seat} ({t.names[seat]}) is already taken")
            token = self._give_seat(t, seat)
            if name and name.strip():
                t.names[seat] = name.strip()[:40]
            self._maybe_start(t)
            self._save_meta(t)
        self._changed(t)
        return token

    def fill_with_bots(self, t: GameTable, seat: int) -> None:
        """Start now: every free human seat is taken by a bot."""
        with t.lock:
            if t.game is not None:
                raise HTTPException(400, "The game has already started")
            for s in range(4):
                if t.bots[s] is None and t.tokens[s] is None:
                    t.bots[s] = "strong"
                    t.names[s] = f"strong bot {s + 1}"
            self._maybe_start(t)
            self._save_meta(t)
        self._changed(t)

    def _maybe_start(self, t: GameTable) -> None:
        if t.game is None and all(t.tokens[s] is not None for s in _human_seats(t)):
            t.started = True
            self._new_hand(t)

    def _new_hand(self, t: GameTable) -> None:
        from hefen.game.record import hand_header

        t.game = t.match.new_game()
        t.players = {}
        self._append(t, [hand_header(t.game, t.match.position.hand_number)])

    def next_hand(self, t: GameTable) -> None:
        with t.lock:
            if t.status != "between":
                raise HTTPException(400, "The next hand can start only after a hand is over")
            self._new_hand(t)
        self._changed(t)

    def act(self, t: GameTable, seat: int, kind: str, tile: str | None) -> None:
        """Apply a human seat's action; an illegal one is a 400 and changes nothing."""
        from hefen.game import Action, IllegalAction

        with t.lock:
            if t.bots[seat] is not None:
                raise HTTPException(403, f"Seat {seat} is played by a bot")
            if t.game is None:
                raise HTTPException(400, "The game has not started yet")
            try:
                action = Action.from_dict({"seat": seat, "kind": kind, "tile": tile})
                self._apply(t, action)
            except (IllegalAction, ValueError, KeyError) as exc:
                raise HTTPException(400, str(exc).rstrip(".")) from exc
        self._changed(t)

    def _apply(self, t: GameTable, action: Any) -> None:
        from hefen.game.record import end_line

        t.game.apply(action)
        lines = [{"type": "action", **action.to_dict()}]
        if t.game.phase == "end":
            state = t.match.record(t.game)
            lines.append(end_line(t.game, state.balances))
        self._append(t, lines)

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
            t.driving = True
        threading.Thread(target=self._drive, args=(t,), daemon=True).start()

    def _drive(self, t: GameTable) -> None:
        from hefen.game import make_bot

        try:
            while True:
                with t.lock:
                    if self._bot_move(t) is None:
                        t.driving = False
                        return
                time.sleep(self.delay)
                with t.lock:
                    move = self._bot_move(t)
                    if move == "next":
                        self._new_hand(t)
                    elif isinstance(move, int):
                        bot = t.players.get(move)
                        if bot is None:
                            bot = t.players[move] = make_bot(str(t.bots[move]), seed=move)
                        self._apply(t, bot.choose(t.game, move))
                self._changed(t, kick=False)
        except Exception as exc:  # noqa: BLE001 - keep the table readable, say what broke
            with t.lock:
                t.driving = False
                t.error = f"A bot failed: {exc}"
            self._changed(t, kick=False)

    def _changed(self, t: GameTable, kick: bool = True) -> None:
        with t.lock:
            t.version += 1
            listeners = list(t.listeners)
        for listener in listeners:
            listener.wake()
        if kick:
            self._kick(t)


def manager_of(app: FastAPI) -> PlayManager:
    manager: PlayManager = app.state.play
    return manager


# ------------------------------------------------------------------------ API
router = APIRouter(prefix="/api/play", tags=["play"], responses=ERRORS)
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def _seat(t: GameTable, creds: HTTPAuthorizationCredentials | None) -> int:
    if creds is None or not creds.credentials:
        raise HTTPException(403, "This action needs your seat token")
    seat = t.seat_of(creds.credentials)
    if seat is None:
        raise HTTPException(403, "This token is not a seat token of this game table")
    return seat


@router.post("", status_code=201, response_model=GameCreatedOut)
def create_game(body: CreateGame, request: Request) -> Any:
    """Open a game table; with ``seat`` the creator sits there and gets its token."""
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
    t = manager_of(request.app).get(code)
    seat = _seat(t, creds) if creds is not None else None
    return t.message(seat)


@router.post("/{code}/join", response_model=GameJoinedOut)
def join_game(code: str, body: JoinGame, request: Request) -> Any:
    """Take a free human seat; the answer holds the seat's secret token."""
    manager = manager_of(request.app)
    t = manager.get(code)
    token = manager.join(t, body.seat, body.name)
    return {"code": t.code, "seat": body.seat, "token": token, "state": t.message(body.seat)}


@router.post("/{code}/act")
def act(code: str, body: ActIn, request: Request, creds: Creds) -> dict[str, Any]:
    """Play a move for the token's seat (checked against the engine's legal moves)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(t, creds)
    manager.act(t, seat, body.kind, body.tile)
    return t.message(seat)


@router.post("/{code}/start")
def start_game(code: str, request: Request, creds: Creds) -> dict[str, Any]:
    """Start now: bots take the free seats (any seated player)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(t, creds)
    manager.fill_with_bots(t, seat)
    return t.message(seat)


@router.post("/{code}/next")
def next_hand(code: str, request: Request, creds: Creds) -> dict[str, Any]:
    """Deal the next hand once the last one is over (any seated player)."""
    manager = manager_of(request.app)
    t = manager.get(code)
    seat = _seat(t, creds)
    manager.next_hand(t)
    return t.message(seat)


# ------------------------------------------------------------------ websocket
async def play_feed(websocket: WebSocket, code: str) -> None:
    """The hand as this client's seat sees it, now and after every change.

    ``?token=`` names the seat (none: a spectator). Messages from the client:
    ``{"type": "act", "kind", "tile"}``, ``{"type": "next"}``,
    ``{"type": "start"}`` and ``"ping"``; a refused one is answered with
    ``{"type": "error", "error": ...}``.
    """
    manager = manager_of(websocket.app)
    try:
        t = manager.get(code)
    except HTTPException:
        await websocket.close(code=4404)
        return
    token = websocket.query_params.get("token")
    seat = t.seat_of(token)
    if token and seat is None:
        await websocket.close(code=4403)
        return
    await websocket.accept()
    listener = Listener(asyncio.get_running_loop(), asyncio.Event())
    listener.event.set()
    with t.lock:
        t.listeners.add(listener)

    async def pump() -> None:
        while True:
            await listener.event.wait()
            listener.event.clear()
            await websocket.send_json(t.message(seat))

    sender = asyncio.create_task(pump())
    try:
        while True:
            text = await websocket.receive_text()
            if text == "ping":
                await websocket.send_json({"type": "pong"})
                continue
            try:
                msg = json.loads(text)
                if not isinstance(msg, dict):
                    raise HTTPException(422, "A message must be a JSON object")
                if seat is None:
                    raise HTTPException(403, "Spectators cannot play; take a seat first")
                kind = msg.get("type")
                if kind == "act":
                    body = ActIn.model_validate({k: v for k, v in msg.items() if k != "type"})
                    await asyncio.to_thread(manager.act, t, seat, body.kind, body.tile)
                elif kind == "next":
                    await asyncio.to_thread(manager.next_hand, t)
                elif kind == "start":
                    await asyncio.to_thread(manager.fill_with_bots, t, seat)
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
        with t.lock:
            t.listeners.discard(listener)
        with contextlib.suppress(Exception):
            await websocket.close()


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
