"""What every page and answer carries to keep players safe.

* :func:`script_json` embeds data in a page: ``<``, ``>``, ``&`` and the
  line separators are written as JSON escapes, so no player-chosen text
  (``</script>``, ``<!--<script>``) can end or change the script element.
* :class:`SecurityHeaders` adds a Content-Security-Policy (scripts only from
  the app itself, no framing), ``X-Frame-Options``, ``Referrer-Policy`` and
  ``X-Content-Type-Options`` to every HTTP answer.
* :class:`RateLimit` stops guessing table codes and mass-creating tables.
* :class:`RedactTokens` keeps tokens out of the server's logs: a token put
  in a URL by a careless client (``?token=...``) is written as
  ``?token=[redacted]`` in the access log. The app itself never asks for a
  token in a URL (HTTP: ``Authorization: Bearer``; sockets: a first
  ``{"type": "auth"}`` message).

>>> script_json({"name": "</script><!--<script>"})
'{"name": "\\\\u003c/script\\\\u003e\\\\u003c!--\\\\u003cscript\\\\u003e"}'
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "RateLimit", "RedactTokens", "SecurityHeaders", "redact_logs", "script_json"]

#: query parameters whose values are secrets, whatever the route
_SECRET_PARAMS = re.compile(
    r"(?i)([?&](?:token|host_token|access_token|seat_token|auth)=)[^&\s\"']*"
)


class RedactTokens(logging.Filter):
    """A log filter that writes every secret query value as ``[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = _SECRET_PARAMS.sub(r"\1[redacted]", text)
        if clean != text:
            record.msg, record.args = clean, ()
        return True


def redact_logs(names: tuple[str, ...] = ("uvicorn.access", "uvicorn.error")) -> None:
    """Put :class:`RedactTokens` on uvicorn's access and error loggers (and
    their handlers), once."""
    for name in names:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())


_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(value, ensure_ascii=False)
    for raw, escaped in _ESCAPES.items():
        text = text.replace(raw, escaped)
    return text


CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
]


class SecurityHeaders:
    """Adds the security headers to every HTTP response (a pure ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in _HEADERS if n not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


class _Bucket:
    __slots__ = ("tokens", "at")

    def __init__(self, tokens: float, at: float) -> None:
        self.tokens, self.at = tokens, at


class RateLimit:
    """Limits per client address (a pure ASGI middleware, per process).

    * **Missed code lookups**: a request for a table or game code that does
      not exist (a 404 on ``/api/tables/CODE``, ``/t/CODE``, ``/api/play/CODE``
      or ``/play/CODE``) spends one token of ``miss_rate`` per second (burst
      ``miss_burst``); with none left, every code lookup is 429 until the
      bucket refills. Players who type their code right never meet it; guessing
      the 31^6 codes becomes hopeless.
    * **Creating** tables and games (``POST /api/tables``, ``POST /api/play``)
      spends a token of ``create_rate`` per second (burst ``create_burst``).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        miss_rate: float = 0.5,
        miss_burst: int = 20,
        create_rate: float = 0.2,
        create_burst: int = 10,
        clock: Any = None,
    ) -> None:
        import time

        self.app = app
        self.miss_rate, self.miss_burst = miss_rate, miss_burst
        self.create_rate, self.create_burst = create_rate, create_burst
        self.clock = clock or time.monotonic
        self.misses: dict[str, _Bucket] = {}
        self.creates: dict[str, _Bucket] = {}

    @staticmethod
    def _is_lookup(method: str, path: str) -> bool:
        parts = [p for p in path.split("/") if p]
        if method not in ("GET", "HEAD", "POST") or len(parts) < 2:
            return False
        if parts[0] in ("t", "play") and len(parts) == 2 and parts[1] != "new":
            return True
        return parts[0] == "api" and parts[1] in ("tables", "play") and len(parts) >= 3

    @staticmethod
    def _is_create(method: str, path: str) -> bool:
        return method == "POST" and path.rstrip("/") in ("/api/tables", "/api/play")

    def _level(self, table: dict[str, _Bucket], key: str, rate: float, burst: int) -> _Bucket:
        now = self.clock()
        b = table.get(key)
        if b is None:
            if len(table) > 100_000:  # forget the oldest addresses
                table.clear()
            b = table[key] = _Bucket(float(burst), now)
        b.tokens = min(float(burst), b.tokens + (now - b.at) * rate)
        b.at = now
        return b

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method, path = scope.get("method", "GET"), scope.get("path", "")
        client = scope.get("client") or ("?", 0)
        who = str(client[0])
        if self._is_create(method, path):
            b = self._level(self.creates, who, self.create_rate, self.create_burst)
            if b.tokens < 1:
                await _too_many(send, "Too many new tables from this address; wait a minute.")
                return
            b.tokens -= 1
        elif self._is_lookup(method, path):
            b = self._level(self.misses, who, self.miss_rate, self.miss_burst)
            if b.tokens < 1:
                await _too_many(
                    send, "Too many unknown table codes from this address; wait a minute."
                )
                return

            async def counting(message: Message) -> None:
                if message["type"] == "http.response.start" and message.get("status") == 404:
                    b.tokens -= 1
                await send(message)

            await self.app(scope, receive, counting)
            return
        await self.app(scope, receive, send)


async def _too_many(send: Send, sentence: str) -> None:
    body = json.dumps({"error": sentence}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"60"),
                *_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
