"""The play screen as a table, in real Chromium (Debian's /usr/bin/chromium,
driven by Playwright): a whole hand played by tapping at 360×740 portrait,
the landscape layouts, and what a spectator's page holds.

Run with ``pytest -m browser``. ``HEFEN_SCREENSHOTS=docs/screenshots`` saves
``play.png`` (portrait), ``play-landscape.png`` and ``play-result.png``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webserver import ARGS, CHROMIUM, needs_chromium, running, wait_for_a_bot_discard

pytestmark = [pytest.mark.browser, needs_chromium]

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPES = [{"width": 740, "height": 360}, {"width": 844, "height": 390}]
SHOTS = os.environ.get("HEFEN_SCREENSHOTS")

NO_OVERFLOW = "() => document.documentElement.scrollWidth <= window.innerWidth"
# the hand's tiles and the action buttons: each box's height, for the 44 px rule
TARGETS = """() => Array.from(document.querySelectorAll('#my-hand .ht, #calls button, #btn-next, #btn-fold'))
  .filter((e) => e.offsetParent !== null).map((e) => e.getBoundingClientRect().height)"""
HAND_WIDTHS = """() => Array.from(document.querySelectorAll('#my-hand .ht'))
  .map((e) => e.getBoundingClientRect().width)"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    from hefen.web import create_app

    app = create_app(database_url="sqlite://", play_delay=0.02)
    with running(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on(
        "console",
        lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
    )
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url}"))
    page.on(
        "response",
        lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
    )
    return ctx, page, problems


def new_game(page: Any, server: str, ruleset: str = "mcr") -> str:
    page.goto(f"{server}/play/new?lang=en")
    page.select_option("#ruleset", ruleset)
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        page.fill(f'input[name="name{i}"]', name)
    page.select_option("#my-seat", "0")
    page.fill('input[name="hands"]', "8")
    page.click('#new-game button[type="submit"]')
    page.wait_for_url(re.compile(r"/play/[A-Z0-9]{6}$"))
    page.locator("#live", has_text="Live").wait_for()
    page.locator("#my-hand .ht").first.wait_for()
    return str(page.url.rsplit("/", 1)[1])


def check_layout(page: Any) -> None:
    assert page.evaluate(NO_OVERFLOW), page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]"
    )
    heights = page.evaluate(TARGETS)
    assert heights and min(heights) >= 44, heights


def check_table(page: Any) -> None:
    """Four seats around the square, each with its river, wind and hidden count."""
    assert page.locator("#board .seatbox").count() == 4
    assert page.locator("#board .seatbox .river").count() == 4
    for pos in ("top", "left", "right", "bottom"):
        box = page.locator(f'#board .seatbox[data-pos="{pos}"]')
        assert box.locator(".s-wind").inner_text() in ("East", "South", "West", "North")
    assert page.locator('#board .seatbox[data-pos="bottom"] .s-tag.you').count() == 1
    assert page.locator("#board [data-testid=count]").count() == 3
    assert "Wall" in page.locator("#wall").inner_text()
    assert page.locator("#round-wind").inner_text() == "East"


MINE = '#board .seatbox[data-pos="bottom"] .river .t'


def pass_the_call(page: Any) -> None:
    """Tap Pass and wait until the call is gone: no buttons left, my turn (which
    may itself show buttons: a self-drawn win, a kong, a ready hand), a later
    discard (which may bring the next call), or the result."""
    rivers = page.locator("#board .river .t").count()
    page.locator("#calls button.pass").click()
    page.wait_for_function(
        "(n) => document.querySelectorAll('#calls button').length === 0"
        " || document.querySelectorAll('#my-hand .ht.can').length > 0"
        " || document.querySelectorAll('#board .river .t').length > n"
        " || !document.querySelector('#result').hidden",
        arg=rivers,
    )


def play_hand(page: Any, shoot: bool = False) -> None:
    """Play my seat by tapping until the hand's result shows: the first claim
    offered is taken, later ones passed; each turn discards the drawn tile."""
    claimed = False
    shot = not shoot
    for _ in range(200):
        page.wait_for_function(
            "() => !document.querySelector('#result').hidden"
            " || document.querySelectorAll('#my-hand .ht.can, #calls button').length > 0"
        )
        if page.locator("#result").is_visible():
            break
        check_layout(page)
        marked = page.locator("#board .river .t.last")
        if page.locator("#calls button").count() and not page.locator("#my-hand .ht.can").count():
            # a claim: each button shows the tiles it would take
            last = marked.get_attribute("data-tile") if marked.count() else None
            assert page.locator("#prompt").inner_text().startswith("Your call")
            for b in page.locator("#calls button").all():
                kind = b.get_attribute("data-kind")
                shown = b.locator(".t").count()
                assert shown == {"chow": 3, "pung": 3, "kong": 4, "pass": 0}.get(kind, shown), kind
                if kind in ("chow", "pung", "kong"):  # the discard taken is outlined
                    assert b.locator(f'.t.from[data-tile="{last}"]').count() == 1
                if kind in ("pung", "kong", "win") and last:  # a robbed kong has no discard
                    assert b.locator(f'.t[data-tile="{last}"]').count() == shown
            take = page.locator("#calls button", has_text=re.compile("^(Win|Pung|Chow|Kong)"))
            if take.count() and not claimed:
                claimed = True
                before = page.locator("#my-melds .meld").count()
                take.first.click()
                page.wait_for_function(  # taken, or beaten by another seat's claim
                    f"() => document.querySelectorAll('#my-melds .meld').length > {before}"
                    " || !document.querySelector('#result').hidden"
                    " || document.querySelectorAll('#calls button').length === 0"
                )
                if page.locator("#my-melds .meld .t.took").count():
                    assert page.locator("#my-melds .meld .t.took").first.is_visible()
                continue
            pass_the_call(page)
            continue
        if page.locator("#prompt", has_text="Your turn").count() == 0:
            continue
        if marked.count():
            assert marked.count() == 1
        if SHOTS and not shot and page.locator("#board .river .t").count() >= 16:
            shot = True
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(Path(SHOTS) / "play.png"))
        if page.locator("#calls button.primary", has_text="Win").count():
            page.locator("#calls button.primary").click()
            continue
        n = page.locator("#board .seatbox[data-pos=bottom] .river .t").count()
        page.locator("#my-hand .ht.can").last.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('{MINE}').length > {n}"
            " || !document.querySelector('#result').hidden"
            " || document.querySelectorAll('#calls button').length > 0"
        )


def test_a_whole_hand_from_the_table_at_360_portrait(server: str, browser: Any) -> None:
    ctx, page, problems = open_page(browser, PORTRAIT)
    new_game(page, server)
    hand = page.locator("#my-hand .ht")
    assert hand.count() == 14 and page.locator("#my-hand .ht svg").count() == 14
    assert page.locator("#my-hand .ht.drawn").count() == 1  # the dealer's fourteenth, set apart
    assert "Your turn" in page.locator("#prompt").inner_text()
    assert page.locator("#mine.turn").count() == 1
    assert page.locator('#board .seatbox.turn[data-pos="bottom"]').count() == 1
    check_table(page)
    check_layout(page)
    assert min(page.evaluate(HAND_WIDTHS)) >= 36, page.evaluate(HAND_WIDTHS)
    tile = page.locator("#my-hand .ht.can").nth(3)
    code = tile.get_attribute("data-tile")
    tile.click()
    page.locator(f'{MINE}[data-tile="{code}"]').first.wait_for()
    wait_for_a_bot_discard(page)
    page.wait_for_function(
        "() => document.querySelectorAll('#board .river .t.last').length === 1"
        " || !document.querySelector('#result').hidden"
    )
    play_hand(page, shoot=bool(SHOTS))
    result = page.locator("#result")
    result.wait_for()
    title = page.locator("#result-title").inner_text()
    assert title == "Draw" or " won " in title, title
    if title != "Draw":
        assert page.locator("#result .patterns li").count() >= 1
        assert page.locator("#result .total").count() >= 1
    assert page.locator("#result [data-testid=payments] li").count() >= 1
    page.locator("#btn-next").wait_for()
    assert page.locator("#board .river .t.last").count() == 0  # the hand is over
    check_layout(page)
    # the sheet folds down to its title to show the table under it, and opens again
    page.click("#btn-fold")
    page.locator("#result-body").wait_for(state="hidden")
    assert page.locator("#btn-next").is_visible()
    page.click("#btn-fold")
    page.locator("#result-body").wait_for()
    page.locator("#btn-next").click()
    page.locator("#result").wait_for(state="hidden")
    page.locator("#my-hand .ht").first.wait_for()
    if SHOTS:  # the result screenshot shows a win: play on until one comes (or the match ends)
        for _ in range(6):
            play_hand(page)
            if (
                page.locator("#result .patterns li").count()
                or page.locator("#btn-next").is_hidden()
            ):
                break
            page.locator("#btn-next").click()
            page.locator("#result").wait_for(state="hidden")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / "play-result.png"))
    assert not problems, problems
    ctx.close()


def test_a_taiwan_hand_of_seventeen_fits_in_two_rows_at_360(server: str, browser: Any) -> None:
    ctx, page, problems = open_page(browser, PORTRAIT)
    new_game(page, server, "tw")
    assert page.locator("#my-hand .ht").count() == 17
    check_table(page)
    check_layout(page)
    assert min(page.evaluate(HAND_WIDTHS)) >= 34, page.evaluate(HAND_WIDTHS)
    rows = page.evaluate(
        "() => new Set(Array.from(document.querySelectorAll('#my-hand .ht'))"
        ".map((e) => Math.round(e.getBoundingClientRect().top))).size"
    )
    assert rows == 2
    assert not problems, problems
    ctx.close()


@pytest.mark.parametrize(
    ("viewport", "ruleset"),
    list(zip(LANDSCAPES, ["tw", "hk"], strict=True)),
    ids=lambda v: f"{v['width']}x{v['height']}" if isinstance(v, dict) else v,
)
def test_the_table_in_landscape_does_not_overflow(
    server: str, browser: Any, viewport: dict[str, int], ruleset: str
) -> None:
    ctx, page, problems = open_page(browser, viewport)
    new_game(page, server, ruleset)
    check_table(page)
    check_layout(page)
    # a few discards, then the screen is looked at again
    for _ in range(8 if SHOTS else 4):
        page.wait_for_function(
            "() => !document.querySelector('#result').hidden"
            " || document.querySelectorAll('#my-hand .ht.can, #calls button').length > 0"
        )
        if page.locator("#result").is_visible():
            break
        if page.locator("#calls button.pass").count():
            pass_the_call(page)
            continue
        n = page.locator("#board .river .t").count()
        page.locator("#my-hand .ht.can").first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#board .river .t').length > {n}")
    page.wait_for_function(
        "() => !document.querySelector('#result').hidden"
        " || document.querySelectorAll('#my-hand .ht.can, #calls button').length > 0"
    )
    check_table(page)
    check_layout(page)
    # the table and the hand are side by side
    board = page.locator("#board").bounding_box()
    mine = page.locator("#mine").bounding_box()
    assert board and mine and mine["x"] >= board["x"] + board["width"] - 1
    if SHOTS and viewport["width"] == 844:
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / "play-landscape.png"))
    assert not problems, problems
    ctx.close()


def test_a_spectator_sees_the_table_without_hidden_tiles(server: str, browser: Any) -> None:
    ctx, page, problems = open_page(browser, PORTRAIT)
    code = new_game(page, server)
    page.locator("#my-hand .ht.can").first.click()
    page.locator("#board .river .t").first.wait_for()
    watcher = browser.new_context(viewport=PORTRAIT, is_mobile=True)
    w = watcher.new_page()
    w.goto(f"{server}/play/{code}?lang=en")
    w.locator("#live", has_text="Live").wait_for()
    w.locator("#board .river .t").first.wait_for()
    assert w.locator("#board .seatbox").count() == 4
    assert w.locator("#board [data-testid=count]").count() == 4
    assert w.locator("#mine").is_hidden()
    assert w.locator("#my-hand .ht").count() == 0
    # the page holds no concealed tile: only rivers, melds, flowers and the art template
    shown = w.evaluate(
        """() => Array.from(document.querySelectorAll('#play [data-tile]'))
        .filter((e) => !e.closest('.river, .meld, .flowers, .calls, #result') && e.dataset.tile !== 'back'
          && !e.closest('svg')).map((e) => e.dataset.tile)"""
    )
    assert shown == [], shown
    assert w.evaluate(NO_OVERFLOW)
    assert not problems, problems
    watcher.close()
    ctx.close()
