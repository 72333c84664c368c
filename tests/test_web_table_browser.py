"""Recording a hand by its tiles at a shared table, in real Chromium (Debian's
/usr/bin/chromium, driven by Playwright), for every ruleset of the registry.

Run with ``pytest -m browser``.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from webserver import ARGS, CHROMIUM, PHONE, needs_chromium, running

from hefen.ruleset import find_ruleset, ruleset_keys

pytestmark = [pytest.mark.browser, needs_chromium]

#: all pungs of one suit: a winning hand in every ruleset (13 or 16 tiles held)
TILES: dict[int, list[str]] = {
    13: ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"],
    16: ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["6m"] * 3 + ["5m"],
}


#: a table option other than its default, per ruleset (the first option's)
def non_default(rules: str) -> dict[str, Any]:
    r = find_ruleset(rules)
    name, o = next(iter(r.options.items()))
    if o.kind == "bool":
        return {name: not o.default}
    if o.kind == "int":
        return {name: o.default + 1}
    return {name: next(c for c in o.choices if c != o.default)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from hefen.web import create_app

    db = tmp_path_factory.mktemp("tables") / "tables.sqlite3"
    with running(create_app(database_url=f"sqlite:///{db}")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def phone(browser: Any) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    ctx.set_default_timeout(10_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


@pytest.mark.parametrize("rules", ruleset_keys())
def test_record_a_hand_by_its_tiles(server: str, browser: Any, rules: str) -> None:
    options = non_default(rules)
    created = post(
        f"{server}/api/tables",
        {"ruleset": rules, "names": ["Ann", "Bo", "Cy", "Di"], "options": options},
    )
    code = created["code"]
    ann_ctx, ann, ann_errors = phone(browser)
    bo_ctx, bo, bo_errors = phone(browser)
    for seat, page in ((0, ann), (1, bo)):
        page.goto(f"{server}/t/{code}?lang=en")
        page.locator("#live", has_text="Live").wait_for()
        page.click(f'.seat[data-seat="{seat}"] button.sit')
        page.locator(f'.seat.me[data-seat="{seat}"]').wait_for()
    # every seat's page shows the table's settings, labelled
    for o in find_ruleset(rules).options.values():
        assert bo.locator(f'#table-settings li[data-option="{o.name}"]').count() == 1
    changed = next(iter(options))
    assert "changed" in (
        bo.locator(f'#table-settings li[data-option="{changed}"]').get_attribute("class") or ""
    )

    # Ann scores her hand in the table's calculator, tapping its tiles
    ann.click("#btn-calc")
    ann.wait_for_url(f"**/calc?table={code}")
    tiles = TILES[find_ruleset(rules).concealed_size]
    for t in tiles:
        ann.click(f'#palette .pt[data-tile="{t}"]')
    ann.click('#palette .pt[data-tile="5m"]')  # the winning tile
    ann.locator("#result").wait_for()
    record = ann.locator("#btn-record")
    # the discarder is asked, never assumed: no recording until it is chosen
    assert ann.locator("#t_winner").input_value() == "0"
    assert ann.locator("#t_discarder").input_value() == ""
    assert record.is_disabled()
    ann.select_option("#t_discarder", "0")  # the winner herself: refused
    ann.locator("#total").filter(has_text=find_ruleset(rules).unit_name("en")).wait_for()
    assert record.is_disabled()
    ann.select_option("#t_discarder", "1")  # Bo discarded
    ann.wait_for_function("() => !document.getElementById('btn-record').disabled")
    record.click()
    ann.wait_for_url(f"**/t/{code}")

    # the stored hand carries only the table's options; Bo sees its patterns
    table = get(f"{server}/api/tables/{code}")
    (hand,) = table["hands"]
    assert hand["source"] == "scored" and hand["winner"] == 0 and hand["discarder"] == 1
    assert hand["hand"]["options"] == options
    assert hand["hand"]["hand"] == sorted(tiles) and hand["hand"]["win_tile"] == "5m"
    names = [p["name"] for p in hand["result"]["patterns"]]
    assert names
    entry = bo.locator(f'#history li[data-hand="{hand["id"]}"]')
    entry.wait_for()
    text = entry.inner_text()
    assert "Ann won from Bo" in text
    for name in names:
        assert name in text, (name, text)
    assert not ann_errors and not bo_errors
    ann_ctx.close()
    bo_ctx.close()


def test_self_draw_is_an_explicit_choice(server: str, browser: Any) -> None:
    rules = ruleset_keys()[0]
    created = post(f"{server}/api/tables", {"ruleset": rules, "names": ["Ann", "Bo"]})
    code = created["code"]
    ctx, page, errors = phone(browser)
    page.goto(f"{server}/t/{code}?lang=en")
    page.click('.seat[data-seat="0"] button.sit')
    page.locator('.seat.me[data-seat="0"]').wait_for()
    # the direct entry refuses a win whose discarder is not chosen
    page.fill("#value", "8")
    page.click("#btn-value")
    page.locator("#error", has_text="Choose who discarded").wait_for()
    assert get(f"{server}/api/tables/{code}")["hands"] == []
    page.click('#discarder-pick button[data-seat="self"]')  # one tap
    page.click("#btn-value")
    page.locator("#history li[data-hand]").wait_for()
    (hand,) = get(f"{server}/api/tables/{code}")["hands"]
    assert hand["winner"] == 0 and hand["discarder"] is None
    assert not errors
    ctx.close()


def test_calculator_fields_follow_the_descriptor(server: str, browser: Any) -> None:
    """The calculator shows each ruleset's own switches, fields and settings,
    read from the descriptor the page embeds (switching ruleset on the page)."""
    from hefen.web.rulesets import SWITCH_LABELS

    ctx, page, errors = phone(browser)
    page.goto(f"{server}/calc?lang=en")
    page.click("#settings summary")  # open the table settings
    for rules in ruleset_keys():
        r = find_ruleset(rules)
        page.click(f'#rules-picker button[data-rules="{rules}"]')
        for name in SWITCH_LABELS:
            chip = page.locator(f'[data-switch-chip="{name}"]')
            assert chip.is_visible() == (name in r.context_switches), (rules, name)
        for field in ("dealer", "dealer_streak", "declared_ready"):
            shown = page.locator(f'[data-field="{field}"]').is_visible()
            assert shown == (field in r.context_fields), (rules, field)
        ready = page.locator("#declared_ready option[data-ready]").evaluate_all(
            "os => os.map(o => o.value)"
        )
        assert ready == list(r.declared_ready)
        block = page.locator(f'#settings [data-ruleset="{rules}"]')
        assert block.is_visible()
        names = block.locator("[data-option]").evaluate_all("es => es.map(e => e.dataset.option)")
        assert names == list(r.options)
        for other in ruleset_keys():
            if other != rules:
                assert not page.locator(f'#settings [data-ruleset="{other}"]').is_visible()
    # the settings go to the scorer as typed values
    tiles = TILES[find_ruleset(ruleset_keys()[-1]).concealed_size]
    for t in tiles + ["5m"]:
        page.click(f'#palette .pt[data-tile="{t}"]')
    page.locator("#result").wait_for()
    sent = page.evaluate("window.hefenCalc.handObject()")
    last = find_ruleset(ruleset_keys()[-1])
    assert sent["rules"] == last.key
    assert sent["options"] == {n: o.default for n, o in last.options.items()}
    assert not errors
    ctx.close()
