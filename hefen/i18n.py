"""Languages of the command line: English, Chinese and Hindi through gettext.

The CLI's messages live in ``hefen/locale/{zh,hi}/LC_MESSAGES/cli.po`` and
are compiled to ``cli.mo`` with Babel (``pybabel compile -D cli -d
hefen/locale``; ``pybabel extract -k N_ -o hefen/locale/cli.pot
hefen/i18n.py hefen/commands hefen/analysis`` finds them); both are committed, and
``tests/test_cli_i18n.py`` checks that the ``.mo`` files say what the ``.po``
files say and that every message is translated. English is the source
language, so it needs no catalog. (The web app's catalog is
:mod:`hefen.web.i18n`'s; the rulesets' pattern and unit names are their own.)

The scorer's notes are English sentences with numbers and winds in them;
those of :data:`NOTES` are translated by matching their template.

Columns are lined up by display width: a wide (CJK) character takes two
terminal cells, a combining mark (Devanagari vowel signs, virama) none.

>>> display_width("Total"), display_width("合计"), display_width("कुल"), display_width("की")
(5, 4, 2, 1)
>>> ljust("合计", 6) + "|", rjust("8", 3)
('合计  |', '  8')
>>> translate_note("No discarder given; S (the next seat) is taken as the discarder.", "zh")
'没有给出放铳者；S（下家）被当作放铳者。'
>>> translate_note("Something new.", "zh")
'Something new.'
"""

from __future__ import annotations

import gettext
import re
import unicodedata
from functools import cache
from pathlib import Path

__all__ = [
    "LANGS",
    "LOCALE_DIR",
    "NOTES",
    "N_",
    "display_width",
    "full_stop",
    "separator",
    "aside",
    "ljust",
    "rjust",
    "translate_note",
    "translations",
]

LANGS: tuple[str, ...] = ("en", "zh", "hi")
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "cli"


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it."""
    return message


#: the scorer's notes that are translated, as templates (``{name}`` stands
#: for a number or a wind)
NOTES: tuple[str, ...] = (
    N_("No discarder given; {seat} (the next seat) is taken as the discarder."),
    N_("{raw} fan is capped at {cap}."),
    N_("{fan} fan is below the table minimum of {low}."),
    N_("{fan} fan without flowers is below the table minimum of {low}."),
    N_("{points} points without flowers is below the {low}-point minimum."),
    N_("A flower win scores its 8 tai; the 16 held tiles are not read."),
    N_("The fourth kong ends the hand as a win; the other tiles are not read."),
    N_("Four kongs end the dealer's streak."),
    N_("Half of {amount} is rounded up to {half}."),
    N_("The dealer ({dealer}) pays for {extra} more tai: 1 for the dealer."),
    N_(
        "The dealer ({dealer}) pays for {extra} more tai: 1 for the dealer and {repeat} "
        "for each of {streak} repeats."
    ),
    # the analysis' notes on a wait (hefen.analysis)
    N_("the last copy"),
    N_("every other copy is visible on the table; none is left to win on"),
    N_("all four {tile} are already in your own hand or melds; no copy is left to win on"),
)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled CLI catalog of ``lang`` (English, or a language without
    one: the identity)."""
    if lang not in LANGS or lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, str(LOCALE_DIR), languages=[lang], fallback=True)


@cache
def _note_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for template in NOTES:
        parts = re.split(r"\{(\w+)\}", template)
        regex = "".join(
            re.escape(p) if i % 2 == 0 else f"(?P<{p}>[^ ;,()]+?)" for i, p in enumerate(parts)
        )
        out.append((re.compile(regex), template))
    return tuple(out)


def translate_note(note: str, lang: str) -> str:
    """``note`` in ``lang`` where its template is in :data:`NOTES`, else as it is."""
    if lang == "en":
        return note
    for pattern, template in _note_patterns():
        m = pattern.fullmatch(note)
        if m:
            return translations(lang).gettext(template).format(**m.groupdict())
    return note


def full_stop(lang: str) -> str:
    """The sentence's end in ``lang``: 。 in Chinese, । in Hindi, . in English.

    >>> full_stop("zh"), full_stop("hi"), full_stop("en")
    ('。', '।', '.')
    """
    return {"zh": "。", "hi": "।"}.get(lang, ".")


def separator(lang: str) -> str:
    """Between the clauses of one line: full-width ； in Chinese, ; otherwise.

    >>> separator("zh"), separator("hi")
    ('；', '; ')
    """
    return "；" if lang == "zh" else "; "


def aside(text: str, lang: str) -> str:
    """``text`` in brackets after what it qualifies (full-width in Chinese).

    >>> aside("the last copy", "en"), aside("最后一张", "zh")
    (' (the last copy)', '（最后一张）')
    """
    return f"（{text}）" if lang == "zh" else f" ({text})"


def _cells(ch: str) -> int:
    if unicodedata.category(ch) in ("Mn", "Mc", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def display_width(text: str) -> int:
    """The terminal cells ``text`` takes (wide characters 2, combining marks 0)."""
    return sum(_cells(ch) for ch in text)


def ljust(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` cells."""
    return text + " " * max(width - display_width(text), 0)


def rjust(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` cells."""
    return " " * max(width - display_width(text), 0) + text
