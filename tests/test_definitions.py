"""Each pattern's definition (``definitions.tsv`` beside every pattern table):
complete in every language, in the right script, shown on the rules pages
and searched, and never read when a hand is scored."""

from __future__ import annotations

import csv
import html
import importlib
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hefen.ruleset import find_ruleset, ruleset_keys
from hefen.web import create_app

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "zh", "hi")
LATIN = re.compile(r"[A-Za-z]")
DEVANAGARI = re.compile(r"[\u0900-\u097F]")
#: characters that differ between the scripts, each written the other way
SIMPLIFIED = "杠风门对发张与万条连顺将开补齐种无时则龙这两单钓听边个"
TRADITIONAL = "槓風門對發張與萬條連順將開補齊種無時則龍這兩單釣聽邊"
#: the Chinese script of each ruleset's ``name_zh`` column
SCRIPT = {"mcr": "simplified", "hk": "traditional", "tw": "traditional"}


def _ids(rules: str) -> list[str]:
    module = importlib.import_module(type(find_ruleset(rules)).__module__)
    return list(module.PATTERNS)


def _rows(rules: str) -> list[list[str]]:
    package = type(find_ruleset(rules)).__module__
    text = resources.files(package).joinpath("definitions.tsv").read_text(encoding="utf-8")
    return list(csv.reader(text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("defs") / "t.sqlite3"
    return TestClient(create_app(database_url=f"sqlite:///{db}"))


@pytest.mark.parametrize("rules", ruleset_keys())
def test_every_pattern_has_a_definition_in_every_language(rules: str) -> None:
    rows = _rows(rules)
    assert rows[0] == ["id", *LANGS]
    assert all(len(row) == 4 for row in rows), [r[0] for r in rows if len(r) != 4]
    ids = [row[0] for row in rows[1:]]
    assert len(ids) == len(set(ids)), "an id twice"
    assert set(ids) == set(_ids(rules)), (set(_ids(rules)) - set(ids), set(ids) - set(_ids(rules)))
    r = find_ruleset(rules)
    for lang in LANGS:
        found = r.definitions(lang)
        assert sorted(found) == sorted(_ids(rules)), lang
        assert all(text.strip() == text and len(text) >= 4 for text in found.values()), lang


@pytest.mark.parametrize("rules", ruleset_keys())
def test_definitions_are_in_the_page_language_and_script(rules: str) -> None:
    r = find_ruleset(rules)
    other = TRADITIONAL if SCRIPT[rules] == "simplified" else SIMPLIFIED
    for pid, text in r.definitions("zh").items():
        assert not LATIN.search(text), (pid, text)
        assert re.search(r"[\u4e00-\u9fff]", text), (pid, text)
        assert not set(text) & set(other), (pid, SCRIPT[rules], set(text) & set(other))
    for pid, text in r.definitions("hi").items():
        assert not LATIN.search(text), (pid, text)
        assert len(DEVANAGARI.findall(text)) > len(text) // 3, (pid, text)
    for pid, text in r.definitions("en").items():
        assert not DEVANAGARI.search(text) and text.endswith("."), (pid, text)


def test_an_unknown_language_has_no_definitions() -> None:
    assert find_ruleset("mcr").definitions("fr") == {}


#: a sample of each ruleset: a shape (MCR), a limit hand (HK), a tai pattern (TW)
SAMPLES = {"mcr": "pure_straight", "hk": "four_kongs", "tw": "concealed_self_drawn"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rules", ruleset_keys())
def test_the_rules_page_shows_each_definition(client: TestClient, rules: str, lang: str) -> None:
    page = client.get(f"/rules/{rules}?lang={lang}").text
    defs = find_ruleset(rules).definitions(lang)
    assert page.count('<p class="pdef">') == len(_ids(rules))
    pid = SAMPLES[rules]
    (block,) = re.findall(rf'<li id="{pid}" data-pattern=.*?</li>', page, re.S)
    assert f'<p class="pdef">{defs[pid]}</p>' in html.unescape(block)
    (search,) = re.findall(r'data-search="([^"]*)"', block)
    assert defs[pid].lower() in html.unescape(search)


def test_mcr_pure_straight_reads_as_written(client: TestClient) -> None:
    page = client.get("/rules/mcr?lang=en").text
    assert '<p class="pdef">A chow 123, 456 and 789 of one suit.</p>' in page
    zh = client.get("/rules/mcr?lang=zh").text
    assert '<p class="pdef">同一花色的123、456、789三副顺子。</p>' in zh
    hi = client.get("/rules/mcr?lang=hi").text
    assert "एक ही सूट में 123, 456 और 789 के क्रम।" in hi


def test_scoring_reads_no_definitions() -> None:
    code = (
        "import hefen\n"
        "hefen.score({'hand': ['1m'] * 3, 'win_tile': '1m'})\n"
        "for k in ('mcr', 'hk', 'tw'):\n"
        "    hefen.score({'rules': k, 'hand': '123m456p789s111p2p'.split(), 'win_tile': '2p'})\n"
        "from hefen.ruleset import _definitions\n"
        "print(_definitions.cache_info().currsize)\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "0"
