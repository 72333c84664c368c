"""What every page and answer carries to keep players safe.

* :func:`script_json` embeds data in a page: ``<``, ``>``, ``&`` and the
  line separators are written as JSON escapes, so no player-chosen text
  (``</script>``, ``<!--<script>``) can end or change the script element.
* :class:`SecurityHeaders` adds a Content-Security-Policy (scripts only from
  the app itself, no framing), ``X-Frame-Options``, ``Referrer-Policy`` and
  ``X-Content-Type-Options`` to every HTTP answer.

>>> script_json({"name": "</script><!--<script>"})
'{"name": "\\\\u003c/script\\\\u003e\\\\u003c!--\\\\u003cscript\\\\u003e"}'
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "SecurityHeaders", "script_json"]

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
