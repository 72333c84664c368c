"""Shared by the browser tests: the app served by uvicorn on a free
localhost port, and Debian's Chromium for Playwright."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed"
)


@contextmanager
def running(app: Any) -> Iterator[str]:
    """Serve ``app`` in a thread; yield its base URL; stop it afterwards."""
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


@contextmanager
def phone_page() -> Iterator[tuple[Any, list[str]]]:
    """A page in Chromium sized as a phone (10 s timeouts), and the list its script
    errors are collected in; the browser is closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
            ctx.set_default_timeout(10_000)
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            yield page, errors
        finally:
            browser.close()


def wait_for_a_bot_discard(page: Any) -> None:
    """Wait, on the play screen, until a bot has discarded or the hand is over. The
    deal is the server's random one: the seat on the right plays next, unless another
    bot claims the discard first, or wins on it."""
    page.wait_for_function(
        "() => document.querySelectorAll("
        "'#board .seatbox:not([data-pos=\"bottom\"]) .river .t').length > 0"
        " || !document.querySelector('#result').hidden"
    )
