"""No page in Chinese or Hindi shows an English message of the catalogue:
each page is rendered in zh and hi and its visible text (outside scripts and
styles) is checked for every msgid the catalogue translates."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from hefen.ruleset import ruleset_keys
from hefen.web import create_app
from hefen.web.i18n import LOCALE_DIR


class Visible(HTMLParser):
    """The text a reader sees: text nodes outside <script>, <style> and <svg>
    and outside elements marked ``lang="en"`` (English on purpose: the
    English name under a pattern's translated name)."""

    def __init__(self) -> None:
        super().__init__()
        self.skip = 0
        self.parts: list[str] = []

        self.stack: list[bool] = []

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "source", "wbr"})

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in self.VOID:
            return
        hide = tag in ("script", "style", "svg", "title") or ("lang", "en") in attrs
        self.stack.append(hide)
        self.skip += hide

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.stack:
            return
        self.skip -= self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.parts.append(data.strip())


def visible(html: str) -> str:
    p = Visible()
    p.feed(html)
    return "\n".join(p.parts)


def english(lang: str) -> list[str]:
    """The msgids of ``lang``'s catalogue worth looking for: translated to
    something else, and at least one word of four letters (no bare "OK")."""
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        cat = read_po(f)
    out = []
    for m in cat:
        if not m.id or not isinstance(m.id, str) or m.string == m.id:
            continue
        text = re.sub(r"%\(\w+\)s|\{\w+\}", "\0", m.id)
        for piece in text.split("\0"):
            piece = piece.strip(" .,:;·()?!")
            if re.search(r"[A-Za-z]{4,}", piece) and (" " in piece or len(piece) >= 5):
                out.append(piece)
    return sorted(set(out), key=len, reverse=True)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("untranslated") / "t.sqlite3"
    return TestClient(create_app(database_url=f"sqlite:///{db}", rate_limit=False))


def pages(client: TestClient) -> list[str]:
    code = client.post(
        "/api/tables", json={"ruleset": ruleset_keys()[0], "names": ["Ann", "Bo", "Cy", "Di"]}
    ).json()["code"]
    out = ["/", "/tables/new", "/play/new", f"/t/{code}", "/t/ZZZZZZ", "/no-such-page"]
    out += ["/?bad_code=hello!"]
    for r in ruleset_keys():
        out += [f"/calc?rules={r}", f"/rules/{r}"]
    out += [f"/calc?table={code}"]
    game = client.post(  # the game table: a spectator's page and a seat's are the same HTML
        "/api/play", json={"ruleset": ruleset_keys()[0], "hands": 1, "seat": 0}
    ).json()["code"]
    out += [f"/play/{game}"]
    return out


@pytest.mark.parametrize("lang", ["zh", "hi"])
def test_no_english_message_on_a_translated_page(client: TestClient, lang: str) -> None:
    words = english(lang)
    assert len(words) > 50
    found: list[tuple[str, str]] = []
    for path in pages(client):
        sep = "&" if "?" in path else "?"
        r = client.get(f"{path}{sep}lang={lang}", headers={"accept": "text/html"})
        assert r.status_code in (200, 404), (path, r.status_code)
        text = visible(r.text)
        for w in words:
            if re.search(r"(?<![A-Za-z])" + re.escape(w) + r"(?![A-Za-z])", text):
                found.append((path, w))
    assert not found, sorted(set(found))
