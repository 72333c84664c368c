"""The web layer asks the ruleset registry: table options, the settings form,
the descriptor served to the scripts, and the one hand format of /api/score."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import hefen.web
from hefen import score
from hefen.errors import HandError
from hefen.options import Option
from hefen.ruleset import find_ruleset, ruleset_keys, rulesets
from hefen.web import create_app

WEB = Path(hefen.web.__file__).parent

#: a winning hand of many points/fan/tai per ruleset (all pungs of one suit)
BIG_HAND: dict[int, dict[str, Any]] = {
    13: {
        "hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"],
        "win_tile": "5m",
    },
    16: {
        "hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["6m"] * 3 + ["5m"],
        "win_tile": "5m",
    },
}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(database_url=f"sqlite:///{tmp_path / 't.sqlite3'}"))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def other_value(o: Option) -> Any:
    """A legal value of ``o`` other than its default."""
    if o.kind == "bool":
        return not o.default
    if o.kind == "int":
        return o.default + 1 if o.default < o.high else o.default - 1
    return next(c for c in o.choices if c != o.default)


EVERY_OPTION = [(r.key, name) for r in rulesets() for name in r.options]


@pytest.mark.parametrize(("rules", "name"), EVERY_OPTION)
def test_every_option_is_kept_and_scores_the_next_hand(
    client: TestClient, rules: str, name: str
) -> None:
    r = find_ruleset(rules)
    value = other_value(r.options[name])
    created = client.post("/api/tables", json={"ruleset": rules, "options": {name: value}})
    assert created.status_code == 201, created.text
    code, host = created.json()["code"], created.json()["host_token"]
    table = client.get(f"/api/tables/{code}").json()
    assert table["settings"]["options"] == {name: value}
    assert table["settings"]["effective_options"][name] == value
    # a hand recorded by its tiles is scored with the table's option
    hand = {"rules": rules, **BIG_HAND[r.concealed_size]}
    rec = client.post(
        f"/api/tables/{code}/hands",
        json={"winner": 0, "discarder": 2, "hand": hand},
        headers=auth(host),
    )
    assert rec.status_code == 201, rec.text
    stored = rec.json()["hand"]
    assert stored["hand"]["options"] == {name: value}
    assert stored["result"] == score(stored["hand"]).to_dict()
    assert stored["result"]["valid"] is True
    # the table page shows the option, labelled, with the table's value
    page = client.get(f"/t/{code}?lang=en").text
    row = re.search(rf'<li data-option="{name}" class="changed"[^>]*>(.*?)</li>', page, re.S)
    assert row is not None, name
    assert html.escape(r.options[name].label) in row.group(1)


def test_options_change_the_result(client: TestClient) -> None:
    """A few options whose effect shows in the stored result."""

    def record(rules: str, options: dict[str, Any]) -> dict[str, Any]:
        t = client.post("/api/tables", json={"ruleset": rules, "options": options}).json()
        hand = {"rules": rules, **BIG_HAND[find_ruleset(rules).concealed_size]}
        r = client.post(
            f"/api/tables/{t['code']}/hands",
            json={"winner": 1, "discarder": 0, "hand": hand},
            headers=auth(t["host_token"]),
        )
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
        return body

    tw = record("tw", {})["table"]["balances"]
    tw_more = record("tw", {"per_tai": 11})["table"]["balances"]
    assert tw_more[1] > tw[1] > 0
    hk = record("hk", {})["hand"]["result"]["total"]
    hk_capped = record("hk", {"cap": 8})["hand"]["result"]["total"]
    assert hk_capped == 8 < hk


@pytest.mark.parametrize(
    ("rules", "options"),
    [
        ("mcr", {"colour": "red"}),
        ("hk", {"cap": 11}),
        ("hk", {"half_spicy": 3}),
        ("hk", {"min_fan": "many"}),
        ("hk", {"min_fan": 2.5}),
        ("tw", {"base": -1}),
        ("tw", {"human_hand": "perhaps"}),
        ("mcr", {"variant": "riichi"}),
        ("hk", {"min_fan": 13, "cap": 8}),
    ],
)
def test_bad_option_is_4xx_with_the_rulesets_sentence(
    client: TestClient, rules: str, options: dict[str, Any]
) -> None:
    r = client.post("/api/tables", json={"ruleset": rules, "options": options})
    assert 400 <= r.status_code < 500, r.text
    err = r.json()["error"]
    with pytest.raises(HandError) as expected:
        find_ruleset(rules).parse_options(options)
    assert err == str(expected.value)
    assert err.endswith(".") and "\n" not in err and err.count(". ") == 0


def test_options_must_be_an_object(client: TestClient) -> None:
    r = client.post("/api/tables", json={"ruleset": "hk", "options": [1, 2]})
    assert 400 <= r.status_code < 500
    assert r.json()["error"].endswith(".")


def test_openapi_rules_enum_is_the_registry(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    assert schemas["ScoreRequest"]["properties"]["rules"]["enum"] == list(ruleset_keys())
    assert schemas["CreateTable"]["properties"]["ruleset"]["enum"] == list(ruleset_keys())
    # the hand object's schema is complete: its parts resolve
    text = json.dumps(schemas["ScoreRequest"])
    for ref in re.findall(r'"#/components/schemas/(\w+)"', text):
        assert ref in schemas, ref


HAND: dict[str, Any] = {
    "rules": "hk",
    "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E"],
    "win_tile": "E",
    "context": {"win": "self_draw"},
}


@pytest.mark.parametrize(
    "obj",
    [
        [1, 2],
        "a hand",
        {**HAND, "colour": "red"},
        {**HAND, "rules": "riichi"},
        {**HAND, "rules": 7},
        {k: v for k, v in HAND.items() if k != "win_tile"},
        {**HAND, "hand": "1m2m3m"},
        {**HAND, "hand": ["1m", "Q"]},
        {**HAND, "context": {"win": "tsumo"}},
        {**HAND, "context": {"dealer_streak": -1}},
        {**HAND, "melds": [{"kind": "pair", "tiles": []}]},
        {**HAND, "melds": [{"kind": "pung", "tiles": ["C", "C", "F"]}]},
        {**HAND, "options": {"cap": 11}},
        {**HAND, "options": {"nonsense": True}},
        {**HAND, "hand": HAND["hand"][:-1]},
        {**HAND, "hand": ["1m"] * 5 + HAND["hand"][5:]},
    ],
)
def test_score_errors_are_hefen_scores(client: TestClient, obj: Any) -> None:
    """/api/score answers a bad input with the same sentence as hefen.score."""
    r = client.post("/api/score", json=obj)
    expected = score(obj).to_dict()
    assert expected["valid"] is False
    assert 200 <= r.status_code < 500
    assert r.json()["error"] == expected["error"]
    if r.status_code == 200:
        assert r.json() == expected


def test_score_accepts_what_hefen_accepts(client: TestClient) -> None:
    for rules in ruleset_keys():
        obj = {"rules": rules, **BIG_HAND[find_ruleset(rules).concealed_size]}
        r = client.post("/api/score", json=obj)
        assert r.status_code == 200
        assert r.json() == score(obj).to_dict() and r.json()["valid"] is True


def test_rulesets_api_and_page_descriptor(client: TestClient) -> None:
    served = client.get("/api/rulesets?lang=zh").json()
    assert [d["key"] for d in served] == list(ruleset_keys())
    for d in served:
        r = find_ruleset(d["key"])
        assert d["concealed_size"] == r.concealed_size
        assert d["unit_name"] == r.unit_name("zh")
        assert [o["name"] for o in d["options"]] == list(r.options)
        assert d["context_switches"] == list(r.context_switches)
    page = client.get("/calc?rules=hk&lang=en").text
    data = re.search(r'<script id="calc-data" type="application/json">(.*?)</script>', page, re.S)
    assert data is not None
    rules = json.loads(data.group(1))["rulesets"]
    assert list(rules) == list(ruleset_keys())
    assert rules["hk"]["context_fields"] == list(find_ruleset("hk").context_fields)


def test_settings_form_has_every_option(client: TestClient) -> None:
    page = client.get("/tables/new?lang=en").text
    for r in rulesets():
        block = re.search(
            rf'<div class="fields" data-ruleset="{r.key}">(.*?)(?:data-ruleset=|</form>)',
            page,
            re.S,
        )
        assert block is not None
        fields = re.findall(r'data-option="(\w+)"', block.group(1))
        assert fields == list(r.options)
        for o in r.options.values():
            assert html.escape(o.label) in block.group(1)
            if o.kind == "choice" and o.default is None:
                assert o.none_means and html.escape(o.none_means) in block.group(1)


def test_json_in_pages_is_escaped(client: TestClient) -> None:
    name = "</script><b>&amp;"
    t = client.post("/api/tables", json={"ruleset": "tw", "names": [name]}).json()
    page = client.get(f"/t/{t['code']}").text
    data = re.search(r'<script id="table-data" type="application/json">(.*?)</script>', page, re.S)
    assert data is not None
    assert "<" not in data.group(1) and ">" not in data.group(1) and "&" not in data.group(1)
    assert json.loads(data.group(1))["table"]["seats"][0]["name"] == name


def test_no_ruleset_is_named_in_the_web_layer() -> None:
    """hefen/web's Python, scripts and templates ask the registry; only the
    example-hand data files are named after their ruleset."""
    pattern = re.compile(r"[\"'](mcr|hk|tw)[\"']")
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in (".py", ".js", ".html") or not path.is_file():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(WEB)}:{n}: {line.strip()}")
    assert not found, found
