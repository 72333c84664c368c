"""``hefen score --lang zh|hi`` (issue #15): every label of the table comes
from the CLI's gettext catalog, and the columns line up by display width."""

from __future__ import annotations

import gettext
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from hefen.i18n import LOCALE_DIR, NOTES, translate_note

ROOT = Path(__file__).resolve().parent.parent
HANDS = [
    ("mcr", "123m456p789sEECC +E"),
    ("tw", "123m456p789s111222pE +E --seat S --dealer E --self-drawn --streak 2"),
    ("hk", "[EEE] [CCC] [FFF] 111p 2p +2p --option cap=8"),
    ("mcr", "123m456p789sEECC +E --seat N --round S"),
    ("mcr", "(1111m) (2222p) 345s678sE +E"),
    ("hk", "123m456p789sEECC +E"),
    ("tw", "123m456p789s111222pE +E"),
]


def _catalog(lang: str) -> dict[str, str]:
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "cli.po", "rb") as f:
        return {m.id: m.string for m in read_po(f) if m.id}


def _width(text: str) -> int:
    """Terminal cells, counted here independently of hefen.i18n."""
    cells = 0
    for ch in text:
        if unicodedata.category(ch).startswith("M") or unicodedata.category(ch) == "Cf":
            continue
        cells += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return cells


def _split(hand: str) -> list[str]:
    """The notation and the flags after it."""
    notation, _, flags = hand.partition(" --")  # the notation has no " --"
    return [notation] + (("--" + flags).split() if flags else [])


def _score(lang: str, rules: str, hand: str) -> list[str]:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "score", *_split(hand), "--rules", rules]
        + ["--lang", lang],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


@pytest.mark.parametrize("lang", ["zh", "hi"])
def test_every_message_is_translated_and_compiled(lang: str) -> None:
    catalog = _catalog(lang)
    with open(LOCALE_DIR / "cli.pot", "rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    assert set(catalog) == template and set(NOTES) <= template
    compiled = gettext.translation("cli", str(LOCALE_DIR), languages=[lang])
    for msgid, text in catalog.items():
        assert text and text != msgid, msgid
        assert compiled.gettext(msgid) == text  # the .mo says what the .po says
        assert sorted(re.findall(r"\{\w+\}", text)) == sorted(re.findall(r"\{\w+\}", msgid))


@pytest.mark.parametrize(("rules", "hand"), HANDS)
@pytest.mark.parametrize("lang", ["zh", "hi"])
def test_score_table_is_translated_and_aligned(lang: str, rules: str, hand: str) -> None:
    lines = _score(lang, rules, hand)
    text = "\n".join(lines)
    english = {w.lower() for m in _catalog(lang) for w in re.findall(r"[A-Za-z]{2,}", m)}
    english |= {"points", "fan", "tai", "total", "pattern", "note", "payments"}
    found = {w.lower() for w in re.findall(r"[A-Za-z]{2,}", text)} & english
    assert not found, (found, text)
    catalog = _catalog(lang)
    total = next(i for i, line in enumerate(lines) if line.strip().startswith(catalog["Total"]))
    rows = lines[1 : total + 1]  # the patterns and the total
    assert rows and lines[0].startswith("  " + catalog["Pattern"])
    ends = set()
    for line in rows:
        m = re.fullmatch(r"(.*\S\s+\d+)(?:\s.*)?", line)  # up to the value
        assert m, line
        ends.add(_width(m.group(1)))
    assert len(ends) == 1, (ends, text)  # every value ends in the same column
    head = lines[0].rstrip()
    assert _width(head) == ends.pop(), text  # the unit above them


def test_english_table_is_unchanged_in_meaning() -> None:
    lines = _score("en", "mcr", "123m456p789sEECC +E")
    assert lines[0].split() == ["Pattern", "points"]
    assert any(line.split()[:2] == ["Total", "20"] for line in lines)
    assert any("Payments: S->E 28" in line for line in lines)


@pytest.mark.parametrize(("rules", "hand"), HANDS[1:3])
def test_the_notes_of_these_hands_are_translated(rules: str, hand: str) -> None:
    english = [line for line in _score("en", rules, hand) if line.strip().startswith("Note:")]
    chinese = [line for line in _score("zh", rules, hand) if line.strip().startswith("注：")]
    assert len(english) == len(chinese) >= 1
    assert not any(re.search("[A-Za-z]{2,}", line) for line in chinese), chinese


def test_notes_are_translated_by_their_template() -> None:
    assert translate_note("180 fan is capped at 13.", "zh") == "180 番封顶为 13 番。"
    assert translate_note("180 fan is capped at 13.", "en") == "180 fan is capped at 13."
    hi = translate_note("Half of 9 is rounded up to 5.", "hi")
    assert "9" in hi and "5" in hi and "Half" not in hi


def test_a_bad_hand_says_so_in_the_language_asked() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "score", "123m456p789sEECCC +E", "--lang", "zh"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 2 and p.stdout == ""
    err = p.stderr.strip()
    assert err.startswith(_catalog("zh")["Not a valid hand:"]) and "\n" not in err


ANALYSES = [
    ("waits", "1112345678999p", "mcr"),  # nine waits, the last copy noted
    ("waits", "123m456p789s1111p", "mcr"),  # 1p held four times: not a real wait
    ("waits", "123m456p78s1199pE", "mcr"),  # not ready
    ("shanten", "123m456p78s1199pE", "mcr"),
    ("shanten", "123m456p789s11pEE", "hk"),
    ("advise", "123m456p78s1199pE +C", "mcr"),
    ("advise", "123m456p789s111p23sEE +E", "tw"),
]


def _analyse(lang: str, kind: str, hand: str, rules: str) -> str:
    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", kind, hand, "--rules", rules, "--lang", lang],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr
    return p.stdout


@pytest.mark.parametrize(("kind", "hand", "rules"), ANALYSES)
@pytest.mark.parametrize("lang", ["zh", "hi"])
def test_analysis_commands_answer_in_the_language_asked(
    lang: str, kind: str, hand: str, rules: str
) -> None:
    """``hefen waits|shanten|advise --lang zh|hi``: every sentence, label, form,
    note and pattern name in the language asked; only tile codes stay."""
    english = _analyse("en", kind, hand, rules)
    text = _analyse(lang, kind, hand, rules)
    assert len(text.splitlines()) == len(english.splitlines())
    words = set(re.findall(r"[A-Za-z]{2,}", text)) - {"hefen", "shanten"}
    assert not words, (words, text)

    # the numbers are the English answer's (the same analysis, other words;
    # pattern names, in brackets, may hold numbers of their own)
    def numbers(t: str) -> list[str]:
        return sorted(re.findall(r"\d+", re.sub(r"\[[^]]*\]", "", t)))

    assert numbers(text) == numbers(english)


def test_every_analysis_message_is_in_the_template() -> None:
    """The analysis' sentences are extracted into the CLI catalog (a message
    added to the code but not to ``cli.pot`` would stay English)."""
    from babel.messages.extract import extract_from_dir

    with open(LOCALE_DIR / "cli.pot", "rb") as f:
        template = {m.id for m in read_po(f) if m.id}
    found = set()
    for *_, message, _comments, _context in extract_from_dir(
        str(ROOT / "hefen" / "analysis"), keywords={"_": None, "N_": None}
    ):
        found.add(message if isinstance(message, str) else message[0])
    assert found and found <= template, sorted(found - template)
