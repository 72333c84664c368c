"""English, Chinese and Hindi: catalogs complete and compiled, pages switch language."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

import hefen.web
from hefen.web import create_app, i18n

WEB = Path(hefen.web.__file__).parent


def source_messages() -> set[str]:
    keywords = {**DEFAULT_KEYWORDS, "N_": None}
    found = extract_from_dir(
        str(WEB),
        method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2")],
        keywords=keywords,
    )
    return {msg for _file, _line, msg, _comments, _ctx in found if isinstance(msg, str) and msg}


@pytest.mark.parametrize("lang", ["zh", "hi"])
def test_catalog_translates_every_message(lang: str) -> None:
    po_path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with po_path.open("rb") as f:
        catalog = read_po(f)
    translated = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    missing = sorted(source_messages() - set(translated))
    assert not missing, f"untranslated in {lang}: {missing}"
    # the compiled .mo matches the .po (run `pybabel compile -d hefen/web/locale`)
    with (po_path.with_suffix(".mo")).open("rb") as f:
        compiled = read_mo(io.BytesIO(f.read()))
    assert {m.id: m.string for m in compiled if m.id} == translated
    # placeholders survive translation
    for msgid, text in translated.items():
        for ph in ("%(code)s", "%(n)s", "{n}", "{winner}", "{wind}"):
            assert (ph in msgid) == (ph in text), (lang, msgid)


def test_language_choice() -> None:
    assert i18n.pick_language("hi", "zh", "en") == "hi"
    assert i18n.pick_language(None, "zh", "hi") == "zh"
    assert i18n.pick_language(None, None, "zh-CN,zh;q=0.9,en;q=0.5") == "zh"
    assert i18n.pick_language(None, None, "hi-IN") == "hi"
    assert i18n.pick_language("xx", None, "fr") == "en"


def test_pages_switch_language_with_query_and_cookie() -> None:
    client = TestClient(create_app(database_url="sqlite://"))
    en = client.get("/calc").text
    assert "Calculator" in en and 'lang="en"' in en
    r = client.get("/calc?lang=zh")
    assert "计算器" in r.text and "自摸" in r.text and 'lang="zh"' in r.text
    assert r.cookies.get(i18n.COOKIE) == "zh"
    assert "计算器" in client.get("/").text  # the cookie keeps the choice
    hi = client.get("/calc?lang=hi").text
    assert "कैलकुलेटर" in hi and "खुद निकाली" in hi
    assert "नई मेज़" in client.get("/tables/new").text


@pytest.mark.parametrize("lang", ["zh", "hi"])
def test_every_option_label_and_help_is_translated(lang: str) -> None:
    """The rulesets' option labels, help sentences and none_means words are
    in the catalog (they are declared outside hefen.web) and in the template."""
    po_path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with po_path.open("rb") as f:
        catalog = read_po(f)
    translated = {m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy}
    messages = i18n.option_messages()
    assert len(messages) > 40
    missing = [m for m in messages if m not in translated]
    assert not missing, f"untranslated in {lang}: {missing}"
    # a translation is not the English text left in place
    assert all(translated[m] != m for m in messages)
    with (i18n.LOCALE_DIR / "messages.pot").open("rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert set(messages) <= template


def test_settings_form_is_translated() -> None:
    """The settings form and a table's page show the option labels in the
    page's language."""
    client = TestClient(create_app(database_url="sqlite://"))
    zh = client.get("/tables/new?lang=zh").text
    assert "九莲宝灯" in zh and "Nine Gates" not in zh
    assert "每台金额" in zh and "组合龙旁的单钓" in zh  # a label and a help sentence
    hi = client.get("/tables/new?lang=hi").text
    assert "असंभव प्रतीक्षाएँ" in hi and "Impossible waits" not in hi
