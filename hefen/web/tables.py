"""Shared score tables on the web: the JSON API, the live WebSocket feed and
the table pages, on top of :mod:`hefen.table`.

Tokens travel in ``Authorization: Bearer <token>``. The table library lets
any token of a table record, undo and correct hands; the web adds the
seat rule: a win is recorded by the winner's or the discarder's seat (or
the host), a seat is freed by its own player (or the host). A token that
does not belong to the table, or acts for another seat, gets 403.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import URL
from starlette.exceptions import HTTPException

from hefen.addresses import is_loopback
from hefen.web import rulesets
from hefen.web.hub import Hub
from hefen.web.models import ErrorOut

__all__ = ["Hub", "router", "table_pages"]

bearer = HTTPBearer(auto_error=False, description="The host's or a seat's table token.")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "The table cannot do this"},
    403: {"model": ErrorOut, "description": "Missing token, or not this seat's token"},
    404: {"model": ErrorOut, "description": "No such table"},
    409: {"model": ErrorOut, "description": "The seat is taken"},
    422: {"model": ErrorOut, "description": "Malformed request"},
}


SEEN = (
    "The table version the client saw; a table that has changed since refuses "
    "the change in one sentence."
)
KEY = (
    "An idempotency key, one per action the player means (the page makes one per "
    "tap): a repeated key gets the first answer and writes nothing new."
)


# --------------------------------------------------------------------- models
class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: rulesets.RulesetKey
    names: list[str | None] = Field(default_factory=list, max_length=4)
    options: dict[str, Any] = Field(default_factory=dict)
    dealer_keeps_on_draw: bool = True


class JoinSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)
    name: str | None = None


class SeatOnly(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)
    version: int | None = Field(
        None, description=SEEN + " (not checked: a seat change never clashes)"
    )


class RecordWin(BaseModel):
    """A win: give ``hand`` (an interchange object, scored with the table's
    context and settings) or ``value`` (points, fan or tai entered directly)."""

    model_config = ConfigDict(extra="forbid")

    winner: int = Field(ge=0, le=3)
    discarder: int | None = Field(None, ge=0, le=3, description="None: self-draw")
    hand: dict[str, Any] | None = None
    value: int | None = Field(None, description="checked by the ruleset: its minimum and limit")
    version: int | None = Field(None, description=SEEN)


class Draw(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int | None = Field(None, description=SEEN)


class Rename(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=3)
    name: str
    version: int | None = Field(None, description=SEEN + " (not checked: a rename never clashes)")


class TransferOut(BaseModel):
    payer: int
    payee: int
    amount: int | float


class SettlementOut(BaseModel):
    """The final balances and the fewest transfers that settle them."""

    balances: list[int | float]
    transfers: list[TransferOut]


class Undo(BaseModel):
    model_config = ConfigDict(extra="forbid")

    hand_id: int | None = Field(None, description="The hand to undo (it must be the latest).")
    version: int | None = Field(None, description=SEEN)


class Correct(BaseModel):
    """A hand's new outcome: a win (as for recording one) or a draw."""

    model_config = ConfigDict(extra="forbid")

    draw: bool = False
    winner: int | None = Field(None, ge=0, le=3)
    discarder: int | None = Field(None, ge=0, le=3)
    hand: dict[str, Any] | None = None
    value: int | None = Field(None, description="checked by the ruleset: its minimum and limit")
    version: int | None = Field(None, description=SEEN)


class TableOut(BaseModel):
    """The table state (``hefen.table.TableState.to_dict()``)."""

    model_config = ConfigDict(extra="allow")

    code: str
    ruleset: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    balances: list[int | float]
    next: dict[str, Any]
    version: int


class CreatedOut(BaseModel):
    code: str
    host_token: str
    join_url: str
    table: TableOut


class JoinedOut(BaseModel):
    code: str
    seat: int
    token: str
    table: TableOut


class WhoAmI(BaseModel):
    host: bool
    seat: int | None


class HandOut(BaseModel):
    hand: dict[str, Any]
    table: TableOut


# ------------------------------------------------------------------- helpers
async def get_store(request: Request) -> Any:
    """The app's table store. An ``async`` dependency, so that the common
    case (the store is open) costs no worker-thread hop; opening it (the
    first request, migrations) runs in a worker."""
    store = getattr(request.app.state, "store", None)
    if store is None:
        store = await run_in_threadpool(store_of, request.app)
    return store


def store_of(app: FastAPI) -> Any:
    store = getattr(app.state, "store", None)
    if store is None:
        with app.state.store_lock:
            store = getattr(app.state, "store", None)
            if store is None:
                from hefen.table import open_store

                store = open_store(app.state.database_url)
                app.state.store = store
    return store


def table_error(exc: Exception, status: int = 400) -> HTTPException:
    return HTTPException(status, str(exc))


def load(store: Any, code: str) -> Any:
    from hefen.table import TableError

    try:
        return store.get(code)
    except TableError as exc:
        raise table_error(exc, 404) from exc


def token_of(creds: HTTPAuthorizationCredentials | None) -> str:
    if creds is None or not creds.credentials:
        raise HTTPException(403, "This action needs your table token")
    return creds.credentials


def actor_of(store: Any, state: Any, token: str) -> Any:
    from hefen.table import TableError
    from hefen.table.core import authorize

    try:
        return authorize(state, token)
    except TableError as exc:
        raise table_error(exc, 403) from exc


def state_dict(state: Any) -> dict[str, Any]:
    data: dict[str, Any] = state.to_dict()
    return data


async def changed(request: Request, state: Any) -> dict[str, Any]:
    data = state_dict(state)
    await request.app.state.hub.broadcast(state.code, {"type": "table", "table": data})
    return data


def join_url(request: Request, code: str) -> str:
    """The link (and QR code) other phones open to join table ``code``: under
    the configured public URL (``--public-url`` / ``HEFEN_PUBLIC_URL``), else
    at the address this phone used if it is not loopback, else at the LAN
    address ``hefen serve --host 0.0.0.0`` found, else as this request came."""
    state = request.app.state
    public = getattr(state, "public_url", "") or ""
    if public:
        return public.rstrip("/") + str(request.app.url_path_for("table_page", code=code))
    url = request.url_for("table_page", code=code)
    lan = getattr(state, "lan_url", "") or ""
    if is_loopback(url.hostname) and lan:
        base = URL(lan)
        return str(url.replace(scheme=base.scheme, netloc=base.netloc))
    return str(url)


Store = Annotated[Any, Depends(get_store)]
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", description=KEY)]


def write_key(key: str | None) -> str:
    """The request's idempotency key, checked (one is made for a request without)."""
    import secrets

    from hefen.table import TableError
    from hefen.table.storage import check_key

    try:
        return check_key(key) or "auto-" + secrets.token_urlsafe(18)
    except TableError as exc:
        raise table_error(exc) from exc


def hand_answer(record: Any, table: str, status: int) -> Response:
    """``{"hand": ..., "table": ...}`` from texts made once."""
    body = '{"hand": ' + record.to_json() + ', "table": ' + table + "}"
    return Response(body, status_code=status, media_type="application/json")


async def write_hand(
    request: Request,
    store: Any,
    code: str,
    creds: HTTPAuthorizationCredentials | None,
    idem: str | None,
    write: Callable[[str, str, str], Any],
    *,
    status: int,
    allowed: Callable[[Any], None] | None = None,
) -> Response:
    """One of the four writes that change the history (record a win or a
    draw, undo, correct): the idempotency key, the token's actor (and
    ``allowed``'s check of it), ``write(code, token, key)`` with a refusal as
    400, then the table as the write with that key left it (the same for a
    repeat), told to every phone, and the hand. The store's part runs in one
    worker thread, one hop."""
    from hefen.table import TableError

    key = write_key(idem)
    token = token_of(creds)

    def work() -> tuple[Any, Any]:
        # who the token is, from the kept table if this process has it (a
        # token never changes seat; the write checks it again on the table
        # as it is); a table not kept, or a token it does not know, is read
        state = store.kept(code)
        try:
            actor = actor_of(store, state, token) if state is not None else None
        except HTTPException:
            actor = None
        if actor is None:
            state = load(store, code)
            actor = actor_of(store, state, token)
        if allowed is not None:
            allowed(actor)
        try:
            record = write(state.code, token, key)
        except TableError as exc:
            raise table_error(exc) from exc
        return record, store.state_of_key(state.code, key)

    record, state = await run_in_threadpool(work)
    text: str = state.to_json()  # each hand encoded once, ever
    await request.app.state.hub.broadcast(
        state.code, None, '{"type": "table", "table": ' + text + "}"
    )
    return hand_answer(record, text, status)


# ------------------------------------------------------------------------ API
router = APIRouter(prefix="/api/tables", tags=["tables"], responses=ERRORS)


@router.post("", status_code=201, response_model=CreatedOut)
async def create_table(body: CreateTable, request: Request, store: Store) -> Any:
    """Open a table; the answer holds the join code and the host's secret token."""
    from hefen.table import TableError

    try:
        options = rulesets.table_options(body.ruleset, body.options)
        created = await run_in_threadpool(
            store.create_table,
            body.ruleset,
            options=options,
            names=body.names or None,
            dealer_keeps_on_draw=body.dealer_keeps_on_draw,
        )
    except (TableError, ValueError) as exc:
        raise table_error(exc) from exc
    return {
        "code": created.code,
        "host_token": created.host_token,
        "join_url": join_url(request, created.code),
        "table": state_dict(created.state),
    }


@router.get("/{code}", response_model=TableOut)
async def get_table(code: str, store: Store) -> Any:
    """The table: seats, settings, history, balances and the next hand's position."""
    state = await run_in_threadpool(load, store, code)
    return Response(state.to_json(), media_type="application/json")


@router.get("/{code}/whoami", response_model=WhoAmI)
async def whoami(
    code: str,
    store: Store,
    creds: Creds,
) -> Any:
    """Whom the token belongs to: the host, or a seat."""
    state = await run_in_threadpool(load, store, code)
    actor = actor_of(store, state, token_of(creds))
    return {"host": actor.host, "seat": actor.seat}


@router.post("/{code}/join", response_model=JoinedOut)
async def join_seat(
    code: str, body: JoinSeat, request: Request, store: Store, idem: IdemKey = None
) -> Any:
    """Take a free seat; the answer holds that seat's secret token (a repeated
    idempotency key gets the same seat and token)."""
    from hefen.table import TableError

    key = write_key(idem)
    state = await run_in_threadpool(load, store, code)
    try:
        joined = await run_in_threadpool(
            lambda: store.join(state.code, body.seat, body.name or None, key=key)
        )
    except TableError as exc:
        raise table_error(exc, 409 if "taken" in str(exc) else 400) from exc
    table = await changed(request, joined.state)
    return {"code": joined.code, "seat": joined.seat, "token": joined.token, "table": table}


@router.post("/{code}/release", response_model=TableOut)
async def release_seat(
    code: str,
    body: SeatOnly,
    request: Request,
    store: Store,
    creds: Creds,
    idem: IdemKey = None,
) -> Any:
    """Free a seat: by its own player or the host."""
    from hefen.table import TableError

    token = token_of(creds)
    state = await run_in_threadpool(load, store, code)
    actor = actor_of(store, state, token)
    if not actor.host and actor.seat != body.seat:
        raise HTTPException(403, "Only the seat's own player or the host can free this seat")
    key = write_key(idem)
    try:
        new = await run_in_threadpool(
            lambda: store.release_seat(state.code, token, body.seat, key=key)
        )
    except TableError as exc:
        raise table_error(exc) from exc
    return await changed(request, new)


@router.post("/{code}/hands", status_code=201, response_model=HandOut)
async def record_win(
    code: str,
    body: RecordWin,
    request: Request,
    store: Store,
    creds: Creds,
    idem: IdemKey = None,
) -> Any:
    """Record the next hand as a win, by the winner's or discarder's seat or the host.
    With ``version`` (the table version the phone saw) a table that changed
    since refuses: the winner and the discarder recording the same win at
    once record it once."""

    def allowed(actor: Any) -> None:
        if not actor.host and actor.seat not in (body.winner, body.discarder):
            raise HTTPException(
                403, "Only the winner, the discarder or the host can record this win"
            )

    def write(table: str, token: str, key: str) -> Any:
        return store.record_win(
            table,
            token,
            winner=body.winner,
            discarder=body.discarder,
            hand=body.hand,
            value=body.value,
            key=key,
            expect=body.version,
        )

    return await write_hand(request, store, code, creds, idem, write, status=201, allowed=allowed)


@router.post("/{code}/draw", status_code=201, response_model=HandOut)
async def record_draw(
    code: str,
    request: Request,
    store: Store,
    creds: Creds,
    idem: IdemKey = None,
    body: Draw | None = None,
) -> Any:
    """Record the next hand as drawn (any seat of the table)."""

    def write(table: str, token: str, key: str) -> Any:
        return store.record_draw(table, token, key=key, expect=body.version if body else None)

    return await write_hand(request, store, code, creds, idem, write, status=201)


@router.post("/{code}/undo", response_model=HandOut)
async def undo(
    code: str,
    request: Request,
    store: Store,
    creds: Creds,
    idem: IdemKey = None,
    body: Undo | None = None,
) -> Any:
    """Undo the latest hand (it stays in the audit trail). ``hand_id`` names
    the hand and ``version`` the table the phone saw: two phones pressing
    Undo at once undo one hand, the other is refused in one sentence."""

    def write(table: str, token: str, key: str) -> Any:
        return store.undo(
            table,
            token,
            body.hand_id if body else None,
            key=key,
            expect=body.version if body else None,
        )

    return await write_hand(request, store, code, creds, idem, write, status=200)


@router.post("/{code}/hands/{hand_id}/correct", response_model=HandOut)
async def correct(
    code: str,
    hand_id: int,
    body: Correct,
    request: Request,
    store: Store,
    creds: Creds,
    idem: IdemKey = None,
) -> Any:
    """Replace a recorded hand's outcome (any token of the table; the old one
    stays in the audit trail). ``version``: the table the phone saw."""
    if not body.draw and body.winner is None:
        raise HTTPException(400, "A corrected win needs its winner")

    def write(table: str, token: str, key: str) -> Any:
        return store.correct(
            table,
            token,
            hand_id,
            draw=body.draw,
            winner=body.winner,
            discarder=body.discarder,
            hand=body.hand,
            value=body.value,
            key=key,
            expect=body.version,
        )

    return await write_hand(request, store, code, creds, idem, write, status=200)


@router.post("/{code}/rename", response_model=TableOut)
async def rename_seat(
    code: str,
    body: Rename,
    request: Request,
    store: Store,
    creds: Creds,
) -> Any:
    """Rename a seat's player: by that player or the host."""
    from hefen.table import TableError

    token = token_of(creds)
    state = await run_in_threadpool(load, store, code)
    actor = actor_of(store, state, token)
    if not actor.host and actor.seat != body.seat:
        raise HTTPException(403, "Only the seat's own player or the host can rename this seat")
    try:
        new = await run_in_threadpool(store.rename_seat, state.code, token, body.seat, body.name)
    except TableError as exc:
        raise table_error(exc) from exc
    return await changed(request, new)


@router.get("/{code}/settlement", response_model=SettlementOut)
async def settlement(code: str, store: Store) -> Any:
    """The balances now and the fewest transfers that settle them."""
    from hefen.table.transfers import transfers

    state = await run_in_threadpool(load, store, code)
    moves = transfers(state.balances)
    return {
        "balances": list(state.balances),
        "transfers": [{"payer": p, "payee": q, "amount": a} for p, q, a in moves],
    }


@router.get(
    "/{code}/export.{fmt}",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}, "application/json": {}}}},
)
async def export(code: str, fmt: str, store: Store) -> Response:
    """The table as CSV (one row per hand) or JSON (everything, with the event log)."""
    state = await run_in_threadpool(load, store, code)
    if fmt not in ("csv", "json"):
        raise HTTPException(404, f"Export as csv or json, not {fmt[:20]!r}")
    if fmt == "csv":
        text = await run_in_threadpool(store.export_csv, state.code)
        media = "text/csv; charset=utf-8"
    else:
        text = await run_in_threadpool(store.export_json, state.code)
        media = "application/json"
    name = f"hefen-{state.code}.{fmt}"
    return Response(
        text, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


@router.get(
    "/{code}/hands/{hand_id}/tiles.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "The hand's tiles"}},
)
async def hand_tiles(code: str, hand_id: int, store: Store) -> Response:
    """A hand scored from its tiles, drawn as one SVG (hefen.svg.hand)."""
    from hefen import svg
    from hefen.table import TableError

    state = await run_in_threadpool(load, store, code)
    try:
        record = state.hand(hand_id)
    except TableError as exc:
        raise table_error(exc, 404) from exc
    if not record.hand:
        raise HTTPException(404, f"Hand {record.number} was entered by its value, not its tiles")
    h = record.hand
    try:
        picture = svg.hand(
            h.get("hand", []),
            h.get("melds", []),
            h.get("win_tile"),
            h.get("flowers", []),
            size=22,
        )
    except (ValueError, TypeError, KeyError) as exc:
        raise HTTPException(404, f"Hand {record.number} cannot be drawn") from exc
    return Response(picture, media_type="image/svg+xml")


@router.get(
    "/{code}/qr.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}, "description": "QR code of the join link"}},
)
async def qr_code(code: str, request: Request, store: Store) -> Response:
    """The join link as a QR code (SVG)."""
    state = await run_in_threadpool(load, store, code)
    return Response(qr_svg(join_url(request, state.code)), media_type="image/svg+xml")


def qr_svg(text: str) -> str:
    """``text`` as a QR code in SVG, drawn by the ``qrcode`` package."""
    import qrcode
    import qrcode.image.svg

    img = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage, box_size=10, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return buf.getvalue().decode()


# ------------------------------------------------------------------ websocket
async def table_feed(websocket: WebSocket, code: str) -> None:
    """Live updates of one table: the state now, then again after every change."""
    app = websocket.app
    store = await run_in_threadpool(store_of, app)
    try:
        state = await run_in_threadpool(load, store, code)
    except HTTPException:
        await websocket.close(code=4404)
        return
    await websocket.accept()
    hub: Hub = app.state.hub
    await hub.start()  # a process that only serves sockets listens too
    hub.add(state.code, websocket)
    try:
        await hub.follow(state.code)  # with Redis: this process hears the table
        # read again now that the socket hears every change: a change made
        # since the first read (which only checked the code) is in this
        # state or comes as a message (the page keeps the newer version)
        state = await run_in_threadpool(load, store, state.code)
        await websocket.send_json({"type": "table", "table": state_dict(state)})
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if message.get("text") == "ping":
                await websocket.send_json({"type": "pong"})
            elif message.get("text") is None:
                await websocket.send_json(
                    {"type": "error", "error": "This socket takes text messages only."}
                )
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(state.code, websocket)
        with contextlib.suppress(Exception):
            await websocket.close()


# ---------------------------------------------------------------------- pages
def table_pages(app: FastAPI) -> None:
    """Register the table pages and the WebSocket route on ``app``."""
    pages = app.state.pages
    app.add_api_websocket_route("/ws/tables/{code}", table_feed)

    @app.get("/tables/new", response_class=HTMLResponse, include_in_schema=False)
    def new_table(request: Request, ruleset: str = rulesets.DEFAULT_RULESET) -> HTMLResponse:
        return pages.render(request, "table_new.html", ruleset=rulesets.page_key(ruleset))

    @app.get("/t", include_in_schema=False)
    def find_table(code: str = "") -> Response:
        from hefen.table import TableError, normalize_code

        try:
            return RedirectResponse(f"/t/{normalize_code(code)}", status_code=303)
        except TableError:
            query = urlencode({"bad_code": str(code)[:32]})
            return RedirectResponse(f"/?{query}", status_code=303)

    @app.get("/t/{code}", response_class=HTMLResponse, include_in_schema=False, name="table_page")
    async def table_page(code: str, request: Request) -> Response:
        store = await run_in_threadpool(store_of, request.app)
        try:
            state = await run_in_threadpool(load, store, code)
        except HTTPException:
            return pages.render(request, "table_missing.html", code=code)
        if state.code != code:
            return RedirectResponse(f"/t/{state.code}", status_code=303)
        return pages.render(
            request,
            "table.html",
            table=state_dict(state),
            qr=qr_svg(join_url(request, state.code)),
            join=join_url(request, state.code),
        )
