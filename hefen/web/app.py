"""The hefen web app: calculator, tables and rules pages plus the JSON API.

``create_app()`` builds a FastAPI application; ``hefen serve`` runs it with
uvicorn. Pages are Jinja2 templates rendered on the server in the chosen
language (see :mod:`hefen.web.i18n`); the little interactivity they need is
vanilla JavaScript under ``static/``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hefen import svg
from hefen.errors import HandError
from hefen.scoring import score
from hefen.web import i18n, photo, play, rules_page, rulesets, tables
from hefen.web.hub import make_hub
from hefen.web.models import ErrorOut, ScoreRequest, ScoreResult, WaitsOut
from hefen.web.security import RateLimit, SecurityHeaders, redact_logs, script_json

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 64 * 1024  # bytes; larger request bodies are refused with 413
HERE = Path(__file__).parent


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 before the app reads them;
    ``routes`` maps a path to its own limit (the photo upload's 20 MB)."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY, routes: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.routes = dict(routes or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.routes.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await self._refuse(send, limit)
                return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                await self._refuse(send, limit)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send, limit: int) -> None:
        size = f"{limit // 2**20} MB" if limit >= 2**20 else f"{limit // 1024} KiB"
        body = json.dumps({"error": f"The request body is larger than {size}."}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _loc(loc: tuple[Any, ...]) -> str:
    parts = [p for p in loc if p != "body"]
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def validation_sentence(exc: RequestValidationError) -> str:
    """The first problem of a request, as one sentence."""
    errors = exc.errors()
    if not errors:
        return "The request is not valid."
    err = errors[0]
    kind = err.get("type", "")
    where = _loc(tuple(err.get("loc", ())))
    if kind == "json_invalid":
        return "The request body is not valid JSON."
    if kind == "missing" and not where:
        return "The request needs a JSON body."
    if kind == "extra_forbidden":
        return f"Unknown key {where!r}."
    if kind == "missing":
        return f"The key {where!r} is missing."
    msg = str(err.get("msg", "is not valid")).rstrip(".")
    if kind == "model_attributes_type" and not where:
        return "The request body must be a JSON object."
    return f"{where}: {msg}." if where else f"{msg}."


def ruleset_globals(lang: str, translate: Callable[[str], str]) -> dict[str, Any]:
    """What every template of language ``lang`` may ask about the rulesets
    (all of it from the registry, words through ``translate``)."""
    found = {key: rulesets.ruleset(key) for key in rulesets.RULESETS}
    return {
        "RULESETS": rulesets.RULESETS,
        "DEFAULT_RULESET": rulesets.DEFAULT_RULESET,
        "RULESET_NAMES": {k: r.name(lang) for k, r in found.items()},
        "SHORT_NAMES": {k: r.short_name(lang) for k, r in found.items()},
        "UNIT_NAMES": {k: r.unit_name(lang) for k, r in found.items()},
        "UNIT_WORDS": {r.unit: r.unit_name(lang) for r in found.values()},
        "READY_LABELS": rulesets.READY_LABELS,
        "WINDS": rulesets.WINDS,
        "WIND_NAMES": rulesets.WIND_NAMES,
        "SWITCH_LABELS": rulesets.SWITCH_LABELS,
        "option_fields": lambda key: rulesets.option_fields(key, translate),
        "settings_rows": lambda key, options: rulesets.settings_rows(key, options, translate),
        "describe": lambda key: rulesets.describe(key, lang, translate),
        "describe_all": lambda: {k: rulesets.describe(k, lang, translate) for k in found},
    }


class Pages:
    """Jinja2 environments, one per language, and the page renderer."""

    def __init__(self) -> None:
        self.envs: dict[str, Environment] = {}
        for lang in i18n.LANGS:
            env = Environment(
                loader=PackageLoader("hefen.web", "templates"),
                autoescape=select_autoescape(["html"]),
                extensions=["jinja2.ext.i18n"],
                trim_blocks=True,
                lstrip_blocks=True,
            )
            tr = i18n.translations(lang)
            env.install_gettext_translations(tr, newstyle=True)  # type: ignore[attr-defined]
            env.globals.update(ruleset_globals(lang, tr.gettext))
            env.globals.update(
                tile=lambda code, size=40, **kw: Markup(svg.tile(code, size, **kw)),
                tile_back=lambda size=40: Markup(svg.tile_back(size)),
                hand_svg=lambda *a, **kw: Markup(svg.hand(*a, **kw)),
                LANGS=i18n.LANGS,
                LANG_NAMES=i18n.LANG_NAMES,
                tojson=lambda v: Markup(script_json(v)),
            )
            self.envs[lang] = env

    def language(self, request: Request) -> str:
        return i18n.pick_language(
            request.query_params.get("lang"),
            request.cookies.get(i18n.COOKIE),
            request.headers.get("accept-language"),
        )

    def render(self, request: Request, name: str, **ctx: Any) -> HTMLResponse:
        query = request.query_params.get("lang")
        lang = self.language(request)
        env = self.envs[lang]
        links = {code: str(request.url.include_query_params(lang=code)) for code in i18n.LANGS}
        html = env.get_template(name).render(
            request=request, lang=lang, lang_links=links, path=request.url.path, **ctx
        )
        response = HTMLResponse(html)
        if query in i18n.LANGS:
            response.set_cookie(i18n.COOKIE, query, max_age=365 * 86400, samesite="lax")
        return response


#: the collector's thresholds while serving (set at start-up; the defaults are 700, 10, 10)
GC_THRESHOLDS = (50_000, 50, 100)


def create_app(
    database_url: str | None = None,
    *,
    store: Any = None,
    play_delay: float | None = None,
    redis_url: str | None = None,
    rate_limit: bool = True,
    public_url: str | None = None,
    lan_url: str | None = None,
) -> FastAPI:
    """The web application. ``database_url`` goes to the table library
    (None: its default, SQLite unless ``HEFEN_DATABASE_URL`` says otherwise);
    ``store`` is an already open :class:`hefen.table.TableStore` to use instead.
    The database is opened on first use. Online games are tables of the same
    store; bots wait ``play_delay`` seconds before each move.
    Live updates go through Redis when ``redis_url`` (or ``HEFEN_REDIS_URL``)
    is given, so that several processes serve the same tables; else they stay
    in this process (:mod:`hefen.web.hub`). ``rate_limit`` bounds unknown
    table codes and new tables per address (:class:`hefen.web.security.RateLimit`).
    Join links and QR codes carry ``public_url`` (or ``HEFEN_PUBLIC_URL``), else
    the address the phone used unless it is loopback, else ``lan_url`` (the
    LAN address ``hefen serve --host 0.0.0.0`` found); see :func:`tables.join_url`."""
    hub = make_hub(redis_url)
    if play_delay is None:  # HEFEN_PLAY_DELAY: seconds before each bot move
        play_delay = float(os.environ.get("HEFEN_PLAY_DELAY", play.DEFAULT_DELAY))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        redact_logs()  # uvicorn has set up its loggers by now
        gc.collect()
        gc.freeze()  # the start-up objects live forever: keep them out of every GC pass
        # A server holds many long-lived objects (sockets, kept tables): with
        # the default thresholds a full pass over them came every few seconds
        # under load and took up to half a second (bench/server_load.py).
        # Young passes every 50,000 allocations (a few ms), full ones rare.
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="hefen",
        summary="Mahjong scoring and shared score tables (MCR, Hong Kong, Taiwanese).",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.database_url = database_url
    app.state.public_url = (public_url or os.environ.get("HEFEN_PUBLIC_URL") or "").rstrip("/")
    app.state.lan_url = (lan_url or "").rstrip("/")
    app.state.store = store
    app.state.store_lock = threading.Lock()
    app.state.hub = hub
    lease = None
    redis = redis_url if redis_url is not None else os.environ.get("HEFEN_REDIS_URL")
    if redis:
        lease = play.Lease(redis)  # one process drives each game; another takes over
    app.state.play = play.PlayManager(lambda: tables.store_of(app), hub, play_delay, lease)
    app.state.play.watch()
    app.add_middleware(BodyLimit, limit=MAX_BODY, routes={photo.PATH: photo.MAX_BODY})
    if rate_limit:
        app.add_middleware(RateLimit)
    app.add_middleware(SecurityHeaders)
    pages = Pages()
    app.state.pages = pages
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": validation_sentence(exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else "The request failed."
        if not detail.endswith("."):
            detail += "."
        if exc.status_code == 404 and wants_html(request):
            page = pages.render(request, "404.html")
            page.status_code = 404
            return page
        return JSONResponse({"error": detail}, status_code=exc.status_code, headers=exc.headers)

    # ---------------------------------------------------------------- API
    @app.post(
        "/api/score",
        response_model=ScoreResult,
        response_model_exclude_unset=True,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/ScoreRequest"}}
                },
            }
        },
        responses={
            413: {"model": ErrorOut, "description": "Body over 64 KiB"},
            422: {"model": ErrorOut, "description": "Not a hand object"},
            503: {"model": ErrorOut, "description": "No scoring engine"},
        },
        tags=["score"],
    )
    async def api_score(request: Request) -> Any:
        """Score one hand: the interchange object in, the result object out
        (exactly what ``hefen score --json`` prints). An illegal hand gives
        ``{"valid": false, "error": ...}`` with status 200; a body that is not
        a hand object at all (see ``ScoreRequest``) is 422 with the same
        sentence ``hefen.score`` gives."""
        raw = await request.body()
        if not raw.strip():
            return JSONResponse({"error": "The request needs a JSON body."}, status_code=422)
        try:
            obj = json.loads(raw)
        except (ValueError, RecursionError):
            return JSONResponse({"error": "The request body is not valid JSON."}, status_code=422)
        result = await run_in_threadpool(score_object, obj)
        if result.get("valid") is False and not is_hand_shape(obj):
            return JSONResponse({"error": result["error"]}, status_code=422)
        return result

    @app.post(
        "/api/waits",
        response_model=WaitsOut,
        responses={422: {"model": ErrorOut, "description": "Not a ready-hand object"}},
        tags=["score"],
    )
    async def api_waits(request: Request) -> Any:
        """What a 13- or 16-tile hand waits for: each winning tile, how many
        copies are unseen and what it is worth by discard and by self-draw
        (``hefen.analysis.waits``). A hand that is not a hand object, or not
        the ruleset's size, is 422 with one sentence."""
        raw = await request.body()
        try:
            obj = json.loads(raw) if raw.strip() else None
        except (ValueError, RecursionError):
            return JSONResponse({"error": "The request body is not valid JSON."}, status_code=422)
        if not isinstance(obj, dict):
            return JSONResponse({"error": "The request body must be a JSON object."}, 422)
        obj.pop("win_tile", None)
        try:
            report = await run_in_threadpool(waits_of, obj)
        except HandError as exc:
            return JSONResponse({"error": str(exc)}, status_code=422)
        return report

    @app.get("/api/rulesets", tags=["score"])
    def api_rulesets(request: Request) -> list[dict[str, Any]]:
        """Every ruleset's descriptor (names, unit, hand size, context
        switches and fields, options with their labels), in the language
        of the request (``?lang=``)."""
        lang = pages.language(request)
        tr = i18n.translations(lang).gettext
        return [rulesets.describe(key, lang, tr) for key in rulesets.RULESETS]

    # -------------------------------------------------------------- pages
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request) -> HTMLResponse:
        return pages.render(request, "home.html")

    @app.get("/calc", response_class=HTMLResponse, include_in_schema=False)
    async def calculator(
        request: Request, rules: str = rulesets.DEFAULT_RULESET, table: str = ""
    ) -> Response:
        if table:
            store = await run_in_threadpool(tables.store_of, request.app)
            try:
                state = await run_in_threadpool(tables.load, store, table)
            except StarletteHTTPException:
                return RedirectResponse("/calc")
            data = tables.state_dict(state)
            return pages.render(request, "calc.html", **calc_context(state.ruleset, data))
        if rulesets.page_key(rules) != rules:
            return RedirectResponse("/calc")
        return pages.render(request, "calc.html", **calc_context(rules))

    @app.get("/rules/{ruleset}", response_class=HTMLResponse, include_in_schema=False)
    async def rules(request: Request, ruleset: str, table: str = "") -> Response:
        if rulesets.page_key(ruleset) != ruleset:
            return RedirectResponse(f"/rules/{rulesets.DEFAULT_RULESET}")
        data = None
        settings: dict[str, Any] = {}
        if table:
            store = await run_in_threadpool(tables.store_of, request.app)
            try:
                state = await run_in_threadpool(tables.load, store, table)
            except StarletteHTTPException:
                state = None
            if state is not None and state.ruleset == ruleset:
                data = tables.state_dict(state)
                settings = dict(data["settings"]["options"])
        lang = pages.language(request)
        return pages.render(
            request,
            "rules.html",
            rules=ruleset,
            table=data,
            settings=settings,
            rows=rules_page.pattern_rows(ruleset, lang, settings),
        )

    @app.get("/rules/{ruleset}/examples/{pattern}.svg", include_in_schema=False)
    def rules_example(ruleset: str, pattern: str) -> Response:
        """A pattern's example hand as one SVG (the rules page loads it lazily)."""
        if rulesets.page_key(ruleset) != ruleset:
            raise StarletteHTTPException(404, f"No ruleset {ruleset[:20]!r}")
        example = rules_page.examples.examples(ruleset).get(pattern)
        if example is None:
            raise StarletteHTTPException(404, f"No example for {pattern[:40]!r}")
        picture = svg.hand(
            example["hand"],
            example.get("melds", []),
            example.get("win_tile"),
            example.get("flowers", []),
            size=21,
        )
        return Response(
            picture, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    app.include_router(photo.router)
    app.include_router(tables.router)
    tables.table_pages(app)
    app.include_router(play.router)
    play.play_pages(app)

    plain_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        """The OpenAPI document, with the hand object's schema (``/api/score``
        reads its body itself, to answer exactly as ``hefen.score`` does)."""
        if app.openapi_schema is None:
            doc = plain_openapi()
            schemas = doc.setdefault("components", {}).setdefault("schemas", {})
            extra = ScoreRequest.model_json_schema(ref_template="#/components/schemas/{model}")
            schemas.update(extra.pop("$defs", {}))
            schemas["ScoreRequest"] = extra
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(svg.tile("C", 32), media_type="image/svg+xml")

    @app.get("/healthz", include_in_schema=False)
    def health() -> dict[str, str]:
        return {"status": "ok"}

    return app


def waits_of(obj: dict[str, Any]) -> dict[str, Any]:
    """``hefen.analysis.waits(obj).to_dict()``; a bad hand raises ``HandError``."""
    from hefen.analysis import waits

    try:
        report: dict[str, Any] = waits(obj).to_dict()
    except HandError:
        raise
    except (TypeError, ValueError, KeyError, RecursionError) as exc:
        raise HandError("The hand object is not valid.") from exc
    return report


def wants_html(request: Request) -> bool:
    """Whether a request comes from a browser asking for a page (not the API)."""
    path = request.url.path
    if path.startswith(("/api/", "/static/", "/ws/")):
        return False
    return "text/html" in request.headers.get("accept", "")


def score_object(obj: dict[str, Any]) -> dict[str, Any]:
    """``hefen.score(obj).to_dict()``: an illegal hand is a result with
    ``valid: false`` and its sentence (the engine never raises for input)."""
    result: dict[str, Any] = score(obj).to_dict()
    return result


def is_hand_shape(obj: Any) -> bool:
    """Whether ``obj`` has the shape of a hand object (the ``ScoreRequest``
    schema); a legal shape that is no legal hand is a result, not an error."""
    try:
        ScoreRequest.model_validate(obj)
    except (ValidationError, RecursionError):
        return False
    return True


def calc_context(rules: str, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the calculator template needs for ``rules``."""
    return {
        "rules": rules,
        "suits": [svg.SUIT_CODES[i : i + 9] for i in (0, 9, 18)],
        "honors": ["E", "S", "W", "N", "C", "F", "P"],
        "bonus": svg.BONUS_CODES,
        "table": table,
    }
