"""Names chosen by players are text, never script: XSS payloads in every name
field run nothing and break no page (Chromium), and every answer carries the
security headers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webserver import needs_chromium, phone_page, running

from hefen.web import create_app

PAYLOADS = [
    "<!--<script>",
    "</script><script>window.pwned=1</script>",
    '"><img src=x onerror="window.pwned=1">',
    "\u2028'};window.pwned=1;//",
]


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(database_url=f"sqlite:///{tmp_path / 'x.sqlite3'}")


def test_security_headers(app: Any) -> None:
    client = TestClient(app)
    for path in ("/", "/calc", "/api/tables/NOPE", "/static/common.js"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert "script-src 'self'" in h["content-security-policy"]
        assert h["x-frame-options"] == "DENY"
        assert h["referrer-policy"] == "same-origin"
        assert h["x-content-type-options"] == "nosniff"


@needs_chromium
@pytest.mark.browser
def test_payload_names_are_text(app: Any) -> None:
    client = TestClient(app)
    r = client.post("/api/tables", json={"ruleset": "mcr", "names": PAYLOADS})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    with running(app) as server, phone_page() as (page, errors):
        failed: list[str] = []
        page.on("requestfailed", lambda req: failed.append(req.url))
        page.goto(f"{server}/t/{code}?lang=en")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("typeof window.pwned") == "undefined"
        body = page.inner_text("body")
        for name in PAYLOADS[:3]:
            assert name in body, f"{name!r} is not shown as text"
        assert errors == [], errors
        assert not [u for u in failed if "/x" in u], failed
