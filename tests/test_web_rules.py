"""The rules reference pages and their example hands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hefen import score
from hefen.web import create_app, examples


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("rules") / "t.sqlite3"
    return TestClient(create_app(database_url=f"sqlite:///{Path(db)}"))


def _table(rules: str) -> list[str]:
    if rules == "mcr":
        from hefen.mcr.table import ORDER

        return list(ORDER)
    return list(examples._module(rules).PATTERNS)


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_every_pattern_has_an_example_that_scores_it(rules: str) -> None:
    found = examples.examples(rules)
    assert sorted(found) == sorted(_table(rules))
    for pid, hand in found.items():
        result = score(hand).to_dict()
        assert result.get("valid"), (pid, result)
        assert pid in [p["id"] for p in result["patterns"]], (pid, hand)


def test_mcr_chicken_hand() -> None:
    result = score(examples.examples("mcr")["chicken_hand"]).to_dict()
    assert [(p["id"], p["value"]) for p in result["patterns"]] == [("chicken_hand", 8)]


@pytest.mark.parametrize("rules", ["hk", "tw"])
def test_hk_tw_examples_match_the_docs(rules: str) -> None:
    """examples_{hk,tw}.json are what ``python -m hefen.web.examples hk tw``
    builds from docs/rules-{hk,tw}.md now."""
    built = examples.build_docs(rules)
    assert examples.path_for(rules).read_text(encoding="utf-8") == examples.dumps(built)
    # every docs example is used as written; the derived ones fill the rest
    docs = examples.doc_examples(rules)
    assert len(docs) > 20
    for pid, hand in docs.items():
        assert built[pid] == hand
    assert set(built) - set(docs) <= set(examples.DERIVED[rules])


def test_context_in_words() -> None:
    from hefen.web.rules_page import context_words

    tw = examples.examples("tw")
    assert ("Self-drawn", None) in context_words(tw["concealed_self_drawn"])
    assert ("Won on a discard", None) in context_words(tw["concealed_hand"])
    assert ("Robbing a kong", None) in context_words(tw["robbing_kong"])
    assert ("Human hand (人胡) 8 tai", "yes") in context_words(tw["human_hand"])
    hk = examples.examples("hk")
    assert ("Round wind", "South") in context_words(hk["round_wind"])
    assert ("Seat wind", "South") in context_words(hk["own_flower"])


def test_mcr_rules_page(client: TestClient) -> None:
    from hefen.mcr.table import PATTERNS

    page = client.get("/rules/mcr?lang=en").text
    assert page.count("data-pattern=") == len(PATTERNS)
    # the examples are drawn lazily: one image per pattern, each an SVG
    srcs = re.findall(r'<img loading="lazy" decoding="async" src="([^"]+\.svg)"', page)
    assert "Big Four Winds" in page and len(srcs) >= len(PATTERNS)
    assert all("<svg" in client.get(src).text for src in srcs)
    assert len(page.encode()) < 250_000  # was 1 MB with every example inline
    assert page.count('class="example"') == len(PATTERNS)
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


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_every_row_shows_its_example(client: TestClient, rules: str) -> None:
    import re

    page = client.get(f"/rules/{rules}?lang=en").text
    rows = re.findall(r'<li id="([a-z0-9_]+)" data-pattern=.*?</li>', page, re.S)
    assert sorted(rows) == sorted(_table(rules))
    for block in re.findall(r'<li id="[a-z0-9_]+" data-pattern=.*?</li>', page, re.S):
        (src,) = re.findall(r'src="(/rules/[^"]+\.svg)"', block)
        assert 'class="example"' in block and "<svg" in client.get(src).text, block[:200]
        assert "Self-drawn" in block or "Won on a discard" in block
    if rules == "tw":
        assert "Robbing a kong" in page and "Dealer repeats: 2" in page
    zh = client.get(f"/rules/{rules}?lang=zh").text
    assert "自摸和" in zh and "点和" in zh


def test_account_once_is_shown_as_not_counted_again(client: TestClient) -> None:
    """MCR's per-set absorption (Big Three Winds' pungs do not also score Pung
    of Terminals or Honors) is said as what it is, not as "counts with it"."""
    page = client.get("/rules/mcr?lang=en").text
    row = page.split('id="big_three_winds"', 1)[1].split("</li>", 1)[0]
    counts_with = [p for p in row.split('<div class="prel">') if p.startswith("Counts with it")]
    assert not any("pung_of_terminals_or_honors" in p for p in counts_with), row
    again = [p for p in row.split('<div class="prel">') if p.startswith("Not counted again")]
    assert again and "#pung_of_terminals_or_honors" in again[0], row
