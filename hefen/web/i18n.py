"""Languages of the web app: English, Chinese and Hindi through gettext.

The messages live in ``locale/{zh,hi}/LC_MESSAGES/messages.po`` and are
compiled to ``messages.mo`` with Babel (``pybabel compile -d hefen/web/locale``;
``babel.cfg`` next to this file drives ``pybabel extract``). English is the
source language, so it needs no catalog.

The rulesets' option labels, help sentences and ``none_means`` words are
declared by the rulesets themselves (:mod:`hefen.options`), outside this
package, so ``pybabel extract`` does not find them: ``python -m
hefen.web.i18n`` adds the missing ones to ``messages.pot`` (then
``pybabel update`` and translate as usual); ``tests/test_web_i18n.py``
checks that every one is translated.

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
    "option_messages",
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


def option_messages() -> list[str]:
    """Every English msgid the rulesets declare for the settings forms: each
    option's label, help sentence and what its ``None`` means, in order."""
    from hefen.ruleset import rulesets

    out: list[str] = []
    for r in rulesets():
        for o in r.options.values():
            for msg in (o.label, o.meaning, o.none_means):
                if msg and msg not in out:
                    out.append(msg)
    return out


def add_option_messages(pot: Path = LOCALE_DIR / f"{DOMAIN}.pot") -> int:
    """Add the :func:`option_messages` missing from the template ``pot``;
    the number added."""
    from babel.messages.pofile import read_po, write_po

    with pot.open("rb") as f:
        catalog = read_po(f)
    missing = [m for m in option_messages() if m not in catalog]
    for msg in missing:
        catalog.add(msg, auto_comments=["a ruleset's option (hefen.options)"])
    if missing:
        with pot.open("wb") as f:
            write_po(f, catalog, omit_header=False)
    return len(missing)


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    print(f"{add_option_messages()} option messages added to {LOCALE_DIR / (DOMAIN + '.pot')}")
