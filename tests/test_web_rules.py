"""The rules reference pages and their example hands."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hefen import score
from hefen.web import create_app, examples


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("rules") / "t.sqlite3"
    return TestClient(create_app(database_url=f"sqlite:///{Path(db)}"))


def test_every_mcr_example_scores_its_pattern() -> None:
    found = examples.examples("mcr")
    assert len(found) >= 80
    for pid, hand in found.items():
        ids = [p["id"] for p in score(hand).to_dict()["patterns"]]
        assert pid in ids, (pid, hand)


def test_mcr_rules_page(client: TestClient) -> None:
    from hefen.mcr.table import PATTERNS

    page = client.get("/rules/mcr?lang=en").text
    assert page.count("data-pattern=") == len(PATTERNS)
    assert "Big Four Winds" in page and page.count("<svg") > 80
    zh = client.get("/rules/mcr?lang=zh").text
    assert "大四喜" in zh and "十三幺" in zh
    hi = client.get("/rules/mcr?lang=hi").text
    assert "बड़ी चार हवाएँ" in hi


def test_table_settings_are_marked(client: TestClient) -> None:
    r = client.post("/api/tables", json={"ruleset": "mcr", "options": {"variant": "mil"}})
    code = r.json()["code"]
    page = client.get(f"/rules/mcr?table={code}&lang=en").text
    assert code in page and 'class="changed"' in page
    assert "pval changed" in page  # some values differ under the MIL variant
    plain = client.get("/rules/mcr?lang=en").text
    assert "pval changed" not in plain


def test_other_rulesets_render(client: TestClient) -> None:
    import importlib

    for r in ("hk", "tw"):
        page = client.get(f"/rules/{r}?lang=zh")
        assert page.status_code == 200
        table = getattr(importlib.import_module(f"hefen.{r}"), "PATTERNS", None)
        if table:
            assert page.text.count("data-pattern=") == len(table)
            assert list(table.values())[0].name_zh in page.text
    assert client.get("/rules/riichi", follow_redirects=False).status_code in (302, 307)
