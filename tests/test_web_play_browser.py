"""Online play in real Chromium (Debian's /usr/bin/chromium, driven by Playwright).

Run with ``pytest -m browser``. The table screen's own test, and its
screenshots, are in ``test_web_play_table.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from webserver import ARGS, CHROMIUM, PHONE, needs_chromium, running, wait_for_a_bot_discard

pytestmark = [pytest.mark.browser, needs_chromium]
MINE = '#board .seatbox[data-pos="bottom"] .river .t'  # Ann's river


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from hefen.web import create_app

    app = create_app(database_url="sqlite://", play_delay=0.05)
    with running(app) as url:
        yield url


def test_play_a_discard_by_tapping_a_tile(server: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
        ctx.set_default_timeout(10_000)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/play/new?lang=en")
        page.select_option("#ruleset", "mcr")
        for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
            page.fill(f'input[name="name{i}"]', name)
        for i in (1, 2, 3):
            page.select_option(f'select[name="bot{i}"]', "simple")
        page.select_option("#my-seat", "0")
        page.click('#new-game button[type="submit"]')
        page.wait_for_url(re.compile(r"/play/[A-Z0-9]{6}$"))
        page.locator("#live", has_text="Live").wait_for()
        # the dealer's fourteen tiles, each a button with an SVG tile
        hand = page.locator("#my-hand .ht")
        hand.first.wait_for()
        assert hand.count() == 14
        assert page.locator("#my-hand .ht svg").count() == 14
        assert "Your turn" in page.locator("#prompt").inner_text()
        assert page.locator("#board .seatbox").count() == 4
        tile = page.locator("#my-hand .ht.can").nth(3)
        code = tile.get_attribute("data-tile")
        tile.click()
        # the tile lands in Ann's river and the turn moves on to the bots
        page.locator(f'{MINE}[data-tile="{code}"]').first.wait_for()
        wait_for_a_bot_discard(page)
        # keep playing by tapping: pass on calls, discard on turns
        for _ in range(6):
            page.locator("#prompt", has_text=re.compile("Your turn|Your call|over")).wait_for()
            status = page.locator("#prompt").inner_text()
            if "over" in status:
                break
            before = page.locator(MINE).count()
            if "Your call" in status:
                page.locator("#calls button", has_text=re.compile("Win|Pass")).first.click()
                page.locator("#calls button").first.wait_for(state="detached")
                continue
            assert hand.count() + 3 * page.locator("#my-melds .meld").count() == 14
            page.locator("#my-hand .ht.can").first.click()
            page.wait_for_function(  # a function, not a string eval'd (the pages' CSP forbids eval)
                f"() => document.querySelectorAll('{MINE}').length > {before}"
                " || !document.querySelector('#result').hidden"
            )
        assert not errors, errors
        ctx.close()
        browser.close()
