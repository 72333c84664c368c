"""A whole table evening on four phones, in real Chromium, for every ruleset;
then every page at 360, 390 and 414 px in en, zh and hi: nothing wider than
the screen, tap targets of 44 px, no console error, no failed request.

One browser is shared by the whole module. ``HEFEN_SCREENSHOTS=docs/screenshots``
also saves a phone-sized picture of every screen (the first ruleset's evening).
Run with ``pytest -m browser``.
"""

from __future__ import annotations

import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webserver import ARGS, CHROMIUM, needs_chromium, running

from hefen.ruleset import find_ruleset, ruleset_keys

pytestmark = [pytest.mark.browser, needs_chromium]

WIDTHS = (360, 390, 414)
LANGS = ("en", "zh", "hi")
TILES: dict[int, list[str]] = {
    13: ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"],
    16: ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["6m"] * 3 + ["5m"],
}
NAMES = ["Ann", "Bo", "Chen", "Di"]


def shot(page: Any, name: str, full: bool = False) -> None:
    folder = os.environ.get("HEFEN_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=full)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from hefen.web import create_app

    db = tmp_path_factory.mktemp("evening") / "tables.sqlite3"
    with running(create_app(database_url=f"sqlite:///{db}", rate_limit=False)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


class Phone:
    """A browser context sized as a phone, watching for console errors and
    failed requests (``allowed``: request paths expected to be refused)."""

    def __init__(self, browser: Any, width: int = 390, lang: str = "en") -> None:
        self.ctx = browser.new_context(
            viewport={"width": width, "height": 844},
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
            accept_downloads=True,
        )
        self.ctx.set_default_timeout(10_000)
        self.page = self.ctx.new_page()
        self.problems: list[str] = []
        self.allowed: set[str] = set()
        self.refused: list[str] = []  # the responses refused as ``allowed`` expected
        self.page.on("pageerror", lambda e: self.problems.append(f"error: {e}"))
        self.page.on("console", self._console)
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _console(self, msg: Any) -> None:
        if msg.type == "error" and not self._expected(msg.location.get("url", "")):
            if "Failed to load resource" not in msg.text or not self.allowed:
                self.problems.append(f"console: {msg.text}")

    def _expected(self, url: str) -> bool:
        return any(a in url for a in self.allowed)

    def _failed(self, req: Any) -> None:
        if "/ws/" not in req.url:  # a socket closed by the test's end
            self.problems.append(f"failed: {req.url} {req.failure}")

    def _response(self, res: Any) -> None:
        if res.status >= 400:
            if self._expected(res.url):
                self.refused.append(f"{res.status} {res.url.split('?')[0]}")
            else:
                self.problems.append(f"{res.status}: {res.url}")

    def close(self) -> None:
        self.ctx.close()


def sit(page: Any, seat: int) -> None:
    page.locator("#live", has_text=re.compile(".")).wait_for()
    page.click(f'.seat[data-seat="{seat}"] button.sit')
    page.locator(f'.seat.me[data-seat="{seat}"]').wait_for()


def hands(server: str, code: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = get(f"{server}/api/tables/{code}")["hands"]
    return data


@pytest.mark.parametrize("rules", ruleset_keys())
def test_a_whole_evening(server: str, browser: Any, rules: str) -> None:
    rs = find_ruleset(rules)
    options = rs.resolve_options({})
    low = rs.min_value(options)
    first = rules == ruleset_keys()[0]
    phones = [Phone(browser) for _ in range(4)]
    host, p1, p2, p3 = (ph.page for ph in phones)
    # the host opens the table on the form
    host.goto(f"{server}/tables/new?lang=en")
    host.select_option("#ruleset", rules)
    for i, name in enumerate(NAMES):
        host.fill(f'input[name="name{i}"]', name)
    if first:
        shot(host, "table-new.png")
    host.click('#new-table button[type="submit"]')
    host.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    code = host.url.rsplit("/", 1)[1]
    sit(host, 0)
    # one phone joins by the code typed on the home page, one by the QR link
    p1.goto(f"{server}/?lang=en")
    p1.fill('form.join input[name="code"]', code.lower())
    p1.click('form.join button[type="submit"]')
    p1.wait_for_url(f"**/t/{code}")
    sit(p1, 1)
    link = host.locator("a.qr").get_attribute("href")
    assert link and link.endswith(f"/t/{code}")
    p2.goto(link)
    sit(p2, 2)
    p3.goto(f"{server}/t/{code}")
    sit(p3, 3)

    # by value on Bo's phone: one tap for the winner, one for the discarder
    p1.click('#winner-pick button[data-seat="1"]')
    p1.click('#discarder-pick button[data-seat="0"]')
    p1.click("#btn-value")  # no value: one sentence, nothing sent
    p1.locator("#error", has_text="Enter the hand's value first.").wait_for()
    phones[1].allowed.add(f"/api/tables/{code}/hands")  # the ruleset refuses the next two
    p1.fill("#value", "-5")
    p1.click("#btn-value")
    p1.locator("#error", has_text="negative").wait_for()
    assert "greater than" not in p1.locator("#error").inner_text()
    too_much = rs.max_value(options) + 1
    p1.fill("#value", str(too_much))
    p1.click("#btn-value")
    p1.locator("#error", has_text=str(too_much)).wait_for()
    assert hands(server, code) == []
    p1.fill("#value", str(low + 1))
    p1.click("#btn-value")
    for page in (host, p1, p2, p3):
        page.locator("#history li[data-hand]").first.wait_for()
    (by_value,) = hands(server, code)
    assert (by_value["winner"], by_value["discarder"], by_value["value"]) == (1, 0, low + 1)
    if first:
        shot(p1, "table-record.png")

    # by tiles on Ann's phone: the table's calculator, the discarder asked
    host.click("#btn-calc")
    host.wait_for_url(f"**/calc?table={code}")
    tiles = TILES[rs.concealed_size]
    for t in tiles:
        host.click(f'#palette .pt[data-tile="{t}"]')
    # the full hand before its winning tile: what it waits for, as /api/waits says
    host.locator("#waits li[data-tile]").first.wait_for()
    waits = post(f"{server}/api/waits", {"rules": rules, "hand": tiles})["waits"]
    shown = host.locator("#waits li[data-tile]").evaluate_all("es => es.map(e => e.dataset.tile)")
    assert shown == [w["tile"] for w in waits] and "5m" in shown
    if first:
        shot(host, "calculator-waits.png")
    host.click('#palette .pt[data-tile="5m"]')
    host.locator("#result").wait_for()
    assert host.locator("#waits").is_hidden()
    assert host.locator("#btn-record").is_disabled()
    host.select_option("#t_discarder", "2")
    host.wait_for_function("() => !document.getElementById('btn-record').disabled")
    # total, patterns and payments on the first screen after the last tile
    bottom = host.evaluate("() => document.getElementById('payments').getBoundingClientRect().top")
    assert bottom < 844, bottom
    if first:
        shot(host, "calculator-table.png")
    host.click("#btn-record")
    host.wait_for_url(f"**/t/{code}")
    scored = hands(server, code)[-1]
    assert scored["source"] == "scored" and scored["discarder"] == 2

    # a draw, confirmed; then an undo, confirmed, and the undo of the undo
    p2.click("#btn-draw")
    p2.locator("#confirm").wait_for()
    p2.click("#confirm-no")
    assert len(hands(server, code)) == 2
    p2.click("#btn-draw")
    if first:
        shot(p2, "table-confirm.png")
    p2.click("#confirm-yes")
    p2.locator("#history li[data-hand]").nth(2).wait_for()
    assert hands(server, code)[-1]["kind"] == "draw"
    p3.locator("#history li[data-hand]").nth(2).wait_for()
    p3.click("#btn-undo")
    p3.click("#confirm-yes")
    p3.locator("#restore").wait_for()
    p3.locator("#history li[data-hand]").nth(2).wait_for(state="detached")
    assert len(hands(server, code)) == 2
    if first:
        shot(p3, "table-undone.png")
    p3.click("#btn-restore")
    p3.locator("#history li[data-hand]").nth(2).wait_for()
    assert [h["kind"] for h in hands(server, code)] == ["win", "win", "draw"]

    # the history opens to the tiles, patterns and payments; a correction
    entry = p2.locator(f'#history li[data-hand="{scored["id"]}"]')
    entry.locator("summary").click()
    entry.locator("img.hand-tiles").wait_for()
    p2.wait_for_function(
        "() => [...document.querySelectorAll('img.hand-tiles')].every(i => i.naturalWidth > 0)"
    )
    assert entry.locator(".hand-patterns li").count() == len(scored["result"]["patterns"])
    pays = entry.locator(".hand-payments li").all_inner_texts()
    assert len(pays) == len(scored["payments"]) and all(" pays " in t for t in pays)
    if first:
        shot(p2, "table-hand.png")
    old = p1.locator(f'#history li[data-hand="{by_value["id"]}"]')
    old.locator("summary").click()
    old.locator(".btn-correct").click()
    old.locator(".c-value").fill(str(low + 2))
    old.locator(".c-save").click()
    p1.wait_for_function("() => window.hefenTable.get().hands[0].corrections.length === 1")
    fixed = hands(server, code)[0]
    assert fixed["value"] == low + 2 and fixed["id"] == by_value["id"]
    p1.locator(f'#history li[data-hand="{by_value["id"]}"] .audit', has_text="corrected").wait_for()

    # Di's phone loses its seat: the host frees it, a fresh phone takes it back
    phones[3].close()
    fresh = Phone(browser)
    phones[3] = fresh
    fresh.page.goto(f"{server}/t/{code}")
    fresh.page.locator("#me", has_text="ask the host").wait_for()
    host.click('.seat[data-seat="3"] button.free')
    sit(fresh.page, 3)

    # the settlement: the fewest transfers, on every phone the same
    final = get(f"{server}/api/tables/{code}")["balances"]
    expected = get(f"{server}/api/tables/{code}/settlement")["transfers"]
    assert len(expected) <= 3
    for ph in phones:
        page = ph.page
        page.wait_for_function(
            f"() => window.hefenTable.get().version >= {get(f'{server}/api/tables/{code}')['version']}"
        )
        page.click("#btn-settle")
        page.locator("#settlement").wait_for()
        lines = page.locator("#transfers li").all_inner_texts()
        if expected:
            assert lines == [
                f"{NAMES[t['payer']]} pays {NAMES[t['payee']]} {t['amount']}" for t in expected
            ]
        balances = [
            page.locator(f'.seat[data-seat="{i}"] .bal').inner_text().replace("−", "-")
            for i in range(4)
        ]
        assert [float(b) for b in balances] == [float(b) for b in final]
    if first:
        host.locator("#end").scroll_into_view_if_needed()
        shot(host, "settlement.png")
    # export from the page
    with host.expect_download() as dl:
        host.click("#export-csv")
    assert Path(dl.value.path()).read_text().startswith("hand,")
    with host.expect_download() as dl:
        host.click("#export-json")
    assert json.loads(Path(dl.value.path()).read_text())["code"] == code
    # the only refused requests: the negative value and the one over the limit
    assert phones[1].refused == [f"400 {server}/api/tables/{code}/hands"] * 2
    problems = [f"phone {i}: {p}" for i, ph in enumerate(phones) for p in ph.problems]
    for ph in phones:
        ph.close()
    assert not problems, problems


def page_paths(server: str) -> list[str]:
    code = urllib.request.urlopen(
        urllib.request.Request(
            f"{server}/api/tables",
            json.dumps({"ruleset": ruleset_keys()[0], "names": NAMES}).encode(),
            {"Content-Type": "application/json"},
        ),
        timeout=10,
    )
    created = json.loads(code.read())
    out = ["/", "/tables/new", "/play/new", f"/t/{created['code']}", "/no-such-page"]
    for r in ruleset_keys():
        out += [f"/calc?rules={r}", f"/rules/{r}"]
    return out


#: what must be at least 44 px tall to be tapped
TAPPABLE = (
    "button:not(.pt):not(.ht), a.button, .top nav a, .langs a, input:not([type=file]), select"
)

CHECK = """() => {
  const w = window.innerWidth, out = [];
  if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || getComputedStyle(e).visibility === 'hidden') continue;
    if (r.right > w + 0.5 || r.left < -0.5) {
      let clipped = false;
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
      }
      if (!clipped) out.push('wide ' + e.tagName + '.' + e.className + ' ' + Math.round(r.right));
    }
  }
  for (const e of document.querySelectorAll(SEL)) {
    const r = e.getBoundingClientRect();
    if (r.width && r.height < 43.5 && e.type !== 'checkbox' && e.type !== 'radio')
      out.push('small ' + e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(r.height));
  }
  return out.slice(0, 8);
}""".replace("SEL", json.dumps(TAPPABLE))


def test_every_page_fits_every_phone(server: str, browser: Any) -> None:
    paths = page_paths(server)
    found: list[str] = []
    for lang in LANGS:
        phones = {w: Phone(browser, w, lang) for w in WIDTHS}
        for ph in phones.values():
            ph.allowed.add("/no-such-page")
        for path in paths:
            for w, ph in phones.items():
                sep = "&" if "?" in path else "?"
                ph.page.goto(f"{server}{path}{sep}lang={lang}")
                if path.startswith("/calc"):
                    ph.page.click("#settings summary")  # the settings open
                for p in ph.page.evaluate(CHECK):
                    found.append(f"{lang} {w} {path}: {p}")
        for ph in phones.values():
            found += [f"{lang}: {p}" for p in ph.problems]
            ph.close()
    assert not found, "\n".join(found[:40])


def test_a_browser_gets_a_friendly_404(server: str, browser: Any) -> None:
    ph = Phone(browser)
    ph.allowed.add("/no-such-page")
    r = ph.page.goto(f"{server}/no-such-page?lang=zh")
    assert r is not None and r.status == 404
    assert ph.page.locator("#not-found h1").inner_text() == "这个页面不存在"
    shot(ph.page, "not-found.png")
    assert get(f"{server}/healthz") == {"status": "ok"}
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(f"{server}/api/no-such-thing", timeout=10)
    assert err.value.code == 404 and json.loads(err.value.read()) == {"error": "Not Found."}
    assert not ph.problems, ph.problems
    ph.close()
