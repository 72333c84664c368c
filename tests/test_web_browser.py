"""The web app in real Chromium (Debian's /usr/bin/chromium, driven by Playwright).

Run with ``pytest -m browser``. Set ``HEFEN_SCREENSHOTS=docs/screenshots`` to
save the phone-size screenshots used in ``docs/web.md``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webserver import ARGS, CHROMIUM, PHONE, needs_chromium, running

pytestmark = [pytest.mark.browser, needs_chromium]

HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E"]


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("HEFEN_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from hefen.web import create_app

    db = tmp_path_factory.mktemp("web") / "tables.sqlite3"
    with running(create_app(database_url=f"sqlite:///{db}")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(10_000)
    return context


def test_enter_a_hand_by_tapping_tiles(server: str, browser: Any) -> None:
    from hefen import score

    ctx = phone(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/calc?rules=mcr&lang=en")
    for code in HAND:
        page.click(f'#palette .pt[data-tile="{code}"]')
    page.click('#palette .pt[data-tile="1h"]')
    page.click('#win-kind [data-win="self_draw"]')
    page.click('#palette .pt[data-tile="E"]')  # the 14th tile: the winning tile
    expected = score(
        {
            "rules": "mcr",
            "hand": HAND,
            "win_tile": "E",
            "flowers": ["1h"],
            "context": {"win": "self_draw", "seat_wind": "E", "round_wind": "E"},
        }
    ).to_dict()
    total = page.locator("#total")
    total.filter(has_text=str(expected["total"])).wait_for()
    assert total.inner_text().startswith(f"{expected['total']} points")
    names = page.locator("#patterns .pname").all_inner_texts()
    assert names == [p["name"] for p in expected["patterns"]]
    assert page.locator("#payments li").count() == len(expected["payments"])
    # taking the winning tile out again clears the score
    page.click("#hand .win")
    page.locator("#result").wait_for(state="hidden")
    page.click('#palette .pt[data-tile="E"]')
    total.filter(has_text=str(expected["total"])).wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "calculator.png")
    page.locator("#result h2").first.scroll_into_view_if_needed()
    assert page.locator("#patterns .uses .set svg").count() > 0  # the sets drawn as tiles
    shot(page, "calculator-result.png")
    assert not errors
    ctx.close()


def test_four_phones_share_a_table(server: str, browser: Any) -> None:
    phones = [phone(browser) for _ in range(4)]
    pages = [c.new_page() for c in phones]
    host = pages[0]
    host.goto(f"{server}/tables/new?lang=en")
    host.select_option("#ruleset", "tw")
    for i, name in enumerate(["Ann", "Bo", "Cy", "Di"]):
        host.fill(f'input[name="name{i}"]', name)
    host.click('#new-table button[type="submit"]')
    host.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    code = host.url.rsplit("/", 1)[1]
    for i, page in enumerate(pages):
        if i:
            page.goto(f"{server}/t/{code}?lang=en")
        page.locator("#live", has_text="Live").wait_for()
        page.click(f'.seat[data-seat="{i}"] button.sit')
        page.locator(f'.seat.me[data-seat="{i}"]').wait_for()
    # Bo wins 3 tai off Ann's discard, entered on Bo's phone
    bo = pages[1]
    bo.click('#winner-pick button[data-seat="1"]')  # one tap each
    bo.click('#discarder-pick button[data-seat="0"]')
    bo.fill("#value", "3")
    bo.click("#btn-value")
    for page in pages:
        page.locator("#history li[data-hand]").first.wait_for()
        assert "Bo won from Ann" in page.locator("#history").inner_text()
        page.locator('.seat[data-seat="1"] .bal', has_text="+70").wait_for()
        assert page.locator('.seat[data-seat="0"] .bal').inner_text() == "−70"
    shot(pages[2], "table.png")
    # undo on Cy's phone reaches the others too
    pages[2].click("#btn-undo")
    pages[2].click("#confirm-yes")  # undo asks first
    for page in pages:
        page.locator("#history li[data-hand]").wait_for(state="detached")
        page.locator('.seat[data-seat="1"] .bal', has_text="0").wait_for()
    for c in phones:
        c.close()


def test_hindi_page_renders(server: str, browser: Any) -> None:
    ctx = phone(browser)
    page = ctx.new_page()
    page.goto(f"{server}/calc?lang=hi")
    text = page.locator("body").inner_text()
    assert re.search(r"[\u0900-\u097F]{3,}", text), text[:200]
    assert "कैलकुलेटर" in text
    assert page.locator("html").get_attribute("lang") == "hi"
    for code in HAND + ["E"]:
        page.click(f'#palette .pt[data-tile="{code}"]')
    page.locator("#result").wait_for()
    names = page.locator("#patterns .pname").all_inner_texts()
    assert names and all(re.search(r"[\u0900-\u097F]", n) for n in names)
    shot(page, "calculator-hi.png")
    ctx.close()


def test_rules_search_finds_a_pattern_by_its_definition(server: str, browser: Any) -> None:
    """The search box filters the patterns by the words of their definitions
    too (docs/screenshots/rules-zh.png)."""
    ctx = phone(browser)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/rules/mcr?lang=en")
    page.fill("#rules-search", "upside down")
    page.wait_for_function(
        "() => document.querySelectorAll('#rules-list > li:not([hidden])').length === 1"
    )
    assert page.locator("#rules-list > li:not([hidden])").get_attribute("id") == "reversible_tiles"
    page.goto(f"{server}/rules/mcr?lang=zh")
    # 颠倒 ("upside down") is in Reversible Tiles' definition, not in its name 推不倒
    page.fill("#rules-search", "颠倒")
    page.wait_for_function(
        "() => document.querySelectorAll('#rules-list > li:not([hidden])').length === 1"
    )
    shown = page.locator("#rules-list > li:not([hidden])")
    assert shown.get_attribute("id") == "reversible_tiles"
    assert "上下颠倒" in shown.locator(".pdef").inner_text()
    page.fill("#rules-search", "456")
    page.wait_for_function(
        "() => !document.getElementById('pure_straight').hidden"
        " && document.getElementById('big_four_winds').hidden"
    )
    ids = page.locator("#rules-list > li:not([hidden])").evaluate_all("els => els.map(e => e.id)")
    assert "pure_straight" in ids and "mixed_straight" in ids and len(ids) < 10, ids
    # nothing wider than the phone
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    page.locator("#rules-search").scroll_into_view_if_needed()
    shot(page, "rules-zh.png")
    assert not errors, errors
    ctx.close()
