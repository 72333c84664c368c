"""Languages of the web app: English, Chinese and Hindi through gettext.

The messages live in ``locale/{zh,hi}/LC_MESSAGES/messages.po`` and are
compiled to ``messages.mo`` with Babel (``pybabel compile -d hefen/web/locale``;
``babel.cfg`` next to this file drives ``pybabel extract``). English is the
source language, so it needs no catalog.

The language of a request is, in order: ``?lang=``, the ``hefen_lang``
cookie, the browser's ``Accept-Language``, English.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

from babel.core import negotiate_locale
from babel.support import Translations

__all__ = [
    "COOKIE",
    "DEFAULT",
    "LANGS",
    "LANG_NAMES",
    "LOCALE_DIR",
    "pick_language",
    "translations",
]

LANGS: tuple[str, ...] = ("en", "zh", "hi")
LANG_NAMES: dict[str, str] = {"en": "English", "zh": "中文", "hi": "हिन्दी"}
DEFAULT = "en"
COOKIE = "hefen_lang"
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the identity)."""
    if lang == DEFAULT or lang not in LANGS:
        return gettext.NullTranslations()
    return Translations.load(str(LOCALE_DIR), [lang], domain=DOMAIN)


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """The language to answer in, from the query, the cookie and the header."""
    for value in (query, cookie):
        if value and value in LANGS:
            return value
    if accept:
        wanted = []
        for part in accept.split(","):
            tag = part.split(";")[0].strip().replace("-", "_")
            if tag:
                wanted.append(tag)
        found = negotiate_locale(wanted, list(LANGS), sep="_")
        if found:
            return found
        for tag in wanted:  # zh_CN, hi_IN …
            base = tag.split("_")[0].lower()
            if base in LANGS:
                return base
    return DEFAULT
