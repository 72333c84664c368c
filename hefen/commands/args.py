"""Argument types and the one-sentence errors of the ``hefen`` command line.

Every bad argument is answered with one sentence that names the flag and
what it accepts (no usage dump, no traceback); a mistyped flag or command
suggests the nearest real one.

>>> positive("3"), whole("0"), wind("s")
(3, 0, 'S')
>>> positive("-1")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: takes a whole number of 1 or more, not '-1'
>>> wind("x")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: takes a wind, E, S, W or N (either case), not 'x'
>>> nearest("--gmaes", ["--games", "--hands", "--seed"])
'--games'
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Iterable
from typing import Any, NoReturn

from ..errors import safe_repr

__all__ = [
    "Parser",
    "positive",
    "whole",
    "streak",
    "jobs",
    "wind",
    "port",
    "nearest",
    "sentence",
]

_WINDS = ("E", "S", "W", "N")


def positive(text: str) -> int:
    """A count such as ``--games``: a whole number of 1 or more."""
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(
            f"takes a whole number of 1 or more, not {safe_repr(text)}"
        )
    return v


def whole(text: str) -> int:
    """A whole number of 0 or more (``--seed``, ``--streak``)."""
    try:
        v = int(text)
    except ValueError:
        v = -1
    if v < 0:
        raise argparse.ArgumentTypeError(
            f"takes a whole number of 0 or more, not {safe_repr(text)}"
        )
    return v


def streak(text: str) -> int:
    """A dealer streak, 0 to 99 (as the interchange object's ``dealer_streak``)."""
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 0 <= v <= 99:
        raise argparse.ArgumentTypeError(
            f"takes a whole number from 0 to 99, not {safe_repr(text)}"
        )
    return v


#: the most worker processes ``--jobs`` starts
MAX_JOBS = 256


def jobs(text: str) -> int:
    """A number of worker processes (``--jobs``): 0 (one per core) to :data:`MAX_JOBS`."""
    try:
        v = int(text)
    except ValueError:
        v = -1
    if not 0 <= v <= MAX_JOBS:
        raise argparse.ArgumentTypeError(
            f"takes a whole number of worker processes from 0 (one per core) to {MAX_JOBS}, "
            f"not {safe_repr(text)}"
        )
    return v


def port(text: str) -> int:
    """A TCP port, 1 to 65535."""
    try:
        v = int(text)
    except ValueError:
        v = 0
    if not 1 <= v <= 65535:
        raise argparse.ArgumentTypeError(
            f"takes a port number from 1 to 65535, not {safe_repr(text)}"
        )
    return v


def ping_seconds(text: str) -> float:
    """Seconds between WebSocket keepalive pings, 1 to 3600."""
    try:
        v = float(text)
    except ValueError:
        v = 0.0
    if not 1 <= v <= 3600:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"takes the seconds between pings, from 1 to 3600, not {safe_repr(text)}"
        )
    return v


def wind(text: str) -> str:
    """A seat or round wind, ``E S W N`` in either case."""
    t = text.strip().upper()
    if t not in _WINDS:
        raise argparse.ArgumentTypeError(
            f"takes a wind, E, S, W or N (either case), not {safe_repr(text)}"
        )
    return t


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to ``word`` (a typo's likely meaning), if any is close."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return found[0] if found else None


def _flag_of(names: str) -> str:
    """``-o/--option`` → ``--option`` (the long name argparse lists last)."""
    return names.split("/")[-1]


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    return [s for s in parser._option_string_actions if s.startswith("--")]


def _help_of(parser: argparse.ArgumentParser, flag: str) -> str:
    action = parser._option_string_actions.get(flag)
    if action is None or not action.help:
        return ""
    return str(action.help) % {"default": action.default, "prog": parser.prog}


def _unknown(parser: argparse.ArgumentParser, extras: list[str]) -> str:
    word = extras[0]
    if word.startswith("-"):
        name = word.split("=", 1)[0]
        near = nearest(name, _flags(parser))
        hint = f"; did you mean {near}?" if near else f" (see {parser.prog} --help)."
        return f"there is no flag {name}" + hint
    if any(a.dest == "hand" for a in parser._actions if not a.option_strings):
        return (
            f"{safe_repr(word)} is one argument too many: quote a hand written with "
            f"spaces, e.g. {parser.prog} '123m 456p 789s EE CC +E'."
        )
    return f"{safe_repr(word)} is one argument too many (see {parser.prog} --help)."


def sentence(parser: argparse.ArgumentParser, message: str) -> str:
    """argparse's error ``message`` as one sentence naming the flag and what it takes."""
    m = re.fullmatch(r"unrecognized arguments: (.*)", message)
    if m:
        return _unknown(parser, m.group(1).split())
    m = re.fullmatch(r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)", message)
    if m:
        flag, value, choices = m.groups()
        names = [c.strip().strip("'") for c in choices.split(",")]
        near = nearest(value.strip("'"), names)
        mean = f"did you mean {near!r}? " if near else ""
        if flag == "COMMAND":
            return f"there is no command {value} ({mean}choose from {choices})."
        return f"{_flag_of(flag)} cannot be {value} ({mean}choose from {choices})."
    m = re.fullmatch(r"argument (\S+): invalid (\w+) value: (.*)", message)
    if m:
        flag, kind, value = m.groups()
        what = {"int": "a whole number", "float": "a number"}.get(kind, f"a {kind}")
        return f"{_flag_of(flag)} takes {what}, not {value}."
    m = re.fullmatch(r"argument (\S+): expected (.*) arguments?", message)
    if m:
        flag = _flag_of(m.group(1))
        about = _help_of(parser, flag)
        return f"{flag} needs a value" + (f": {about}." if about else ".")
    m = re.fullmatch(r"argument (\S+): (.*)", message)
    if m:
        return f"{_flag_of(m.group(1))} {m.group(2)}."
    m = re.fullmatch(r"the following arguments are required: (.*)", message)
    if m:
        names = [n.strip() for n in m.group(1).split(",")]
        helps = {a.dest: a.help for a in parser._actions if not a.option_strings and a.help}
        about = "; ".join(f"{n}: {helps[n]}" if n in helps else n for n in names)
        return f"give {about}."
    m = re.fullmatch(r"ambiguous option: (\S+) could match (.*)", message)
    if m:
        return f"the flag {m.group(1)} is ambiguous: it could be {m.group(2)}."
    return message.rstrip(".") + "."


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one sentence and exit 2 (the
    sub-commands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {sentence(self, message)}\n")

    def unknown(self, extras: list[str]) -> NoReturn:
        """Refuse arguments no flag of this parser takes, suggesting the nearest flag."""
        self.exit(2, f"{self.prog}: {_unknown(self, extras)}\n")


def parser_of(parser: argparse.ArgumentParser, command: str | None) -> Any:
    """The sub-command parser registered as ``command`` (else ``parser``)."""
    for action in parser._subparsers._group_actions if parser._subparsers else ():
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict) and command in choices:
            return choices[command]
    return parser
