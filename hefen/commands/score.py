"""``hefen score``: score a hand from the compact notation, or a JSON batch."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from ..errors import safe_repr
from ..hand import HandError
from ..notation import parse_hand
from ..result import Result
from ..ruleset import DEFAULT_RULESET, find_ruleset, ruleset_keys
from ..scoring import cores, pool, score
from ..tiles import tile_to_str
from .args import jobs, streak, wind

LANGS = ("en", "zh", "hi")  # as hefen.i18n.LANGS (imported only when a table is printed)

__all__ = ["register", "hand_object_from_args", "add_context_flags", "render_result"]

MAX_LINE = 1 << 20  # a JSON line over 1 MiB is refused, not parsed


def add_context_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rules",
        choices=ruleset_keys(),
        default=DEFAULT_RULESET,
        help=f"ruleset (default {DEFAULT_RULESET})",
    )
    p.add_argument(
        "--self-drawn", action="store_true", help="won by self-draw (default: on a discard)"
    )
    p.add_argument(
        "--seat", type=wind, default="E", help="seat wind of the winner: E S W N (default E)"
    )
    p.add_argument("--round", type=wind, default="E", help="round (prevalent) wind (default E)")
    p.add_argument("--discarder", type=wind, help="seat wind of the player who discarded: E S W N")
    p.add_argument("--dealer", type=wind, help="seat wind of the dealer: E S W N (default E)")
    p.add_argument("--streak", type=streak, help="dealer streak, a whole number from 0 to 99 (TW)")
    p.add_argument(
        "--last-tile", action="store_true", help="last tile of the wall (drawn or discarded)"
    )
    p.add_argument("--kong-replacement", action="store_true", help="won on a kong replacement tile")
    p.add_argument(
        "--double-kong-replacement",
        action="store_true",
        help="kong on a replacement, won on the next",
    )
    p.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    p.add_argument(
        "--last-of-kind",
        action="store_true",
        help="the other three copies of the winning tile are visible",
    )
    p.add_argument("--heavenly", action="store_true")
    p.add_argument("--earthly", action="store_true")
    p.add_argument("--human", action="store_true")
    p.add_argument("--declared-ready", choices=("tian_ting", "di_ting"))
    p.add_argument(
        "-o",
        "--option",
        "--options",
        dest="option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="table setting, e.g. -o variant=mil -o cap=10 (repeatable; the names and "
        "values each ruleset takes are in docs/rules.md)",
    )


class FlagError(HandError):
    """A flag's value that does not fit: the sentence names the flag and is
    printed as it is, not as "Not a valid hand"."""


class SettingError(FlagError):
    """A table setting (``-o NAME=VALUE``) the ruleset does not take: its
    sentence starts "Table setting …"."""


def error_line(e: HandError | str, lang: str = "en") -> str:
    """What the command line prints for ``e``: a bad flag or setting as it is,
    a bad hand prefixed "Not a valid hand:" (in ``lang``; the sentence after it
    is the scorer's, in English)."""
    if isinstance(e, FlagError):
        return str(e)
    if lang == "en":
        return f"Not a valid hand: {e}"
    from .. import i18n

    return _label(i18n.translations(lang).gettext("Not a valid hand:")) + str(e)


def _option_value(rules: str, name: str, text: str) -> Any:
    """The value of ``-o NAME=VALUE``, read as the ruleset's option declares
    (``true``, ``5``, ``mil``, ``null``); a :class:`HandError` sentence for an
    unknown name or a value the option does not take."""
    return find_ruleset(rules).parse_option(name, text)


def parse_settings(rules: str, items: list[str], json_ok: bool = False) -> dict[str, Any]:
    """The options that ``-o NAME=VALUE`` items give (with ``json_ok``, an item
    may also be a JSON object of names and values), each checked by the
    ruleset's declaration; a :class:`SettingError` sentence for the first
    that does not fit.

    >>> parse_settings(DEFAULT_RULESET, ["variant=mil", "knitted_wait=null"])
    {'variant': 'mil', 'knitted_wait': None}
    >>> parse_settings(DEFAULT_RULESET, ['{"variant": "mil"}'], json_ok=True)
    {'variant': 'mil'}
    >>> parse_settings(DEFAULT_RULESET, ["cap=10"])
    Traceback (most recent call last):
    ...
    hefen.commands.score.SettingError: Table setting 'cap=10': Unknown ... option 'cap' (known: ...).
    """
    ruleset = find_ruleset(rules)
    example = next(iter(ruleset.options), "name")
    options: dict[str, Any] = {}
    for item in items:
        text = item.strip()
        if json_ok and text.startswith("{"):
            try:
                obj = json.loads(text)
            except (ValueError, RecursionError):
                obj = None
            if not isinstance(obj, dict):
                raise SettingError(
                    f"Table setting {safe_repr(item)} is not a JSON object of names and "
                    f"values (or write NAME=VALUE, e.g. -o {example}=...)."
                )
            pairs = list(obj.items())
        elif "=" in text:
            name, value = text.split("=", 1)
            pairs = [(name.strip(), value.strip())]
        else:
            raise SettingError(
                f"Table setting {safe_repr(item)} is not written NAME=VALUE (e.g. -o {example}=...)."
            )
        for name, value in pairs:
            try:
                options[name] = _option_value(rules, name, value)
            except HandError as e:
                raise SettingError(f"Table setting {safe_repr(item)}: {e}") from e
    try:
        ruleset.resolve_options(options)
    except HandError as e:
        raise SettingError(f"Table settings: {e}") from e
    return options


def context_and_options(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any]]:
    """The context and options objects the command-line flags describe."""
    ctx: dict[str, Any] = {
        "win": "self_draw" if args.self_drawn else "discard",
        "seat_wind": args.seat,
        "round_wind": args.round,
    }
    for flag, key in (
        ("last_tile", "last_tile_of_wall"),
        ("kong_replacement", "kong_replacement"),
        ("double_kong_replacement", "double_kong_replacement"),
        ("robbing_kong", "robbing_kong"),
        ("last_of_kind", "last_of_kind"),
        ("heavenly", "heavenly"),
        ("earthly", "earthly"),
        ("human", "human"),
    ):
        if getattr(args, flag):
            ctx[key] = True
    if args.discarder:
        ctx["discarder"] = args.discarder
    if args.dealer:
        ctx["dealer"] = args.dealer
    if args.streak is not None:
        ctx["dealer_streak"] = args.streak
    if args.declared_ready:
        ctx["declared_ready"] = args.declared_ready
    return ctx, parse_settings(args.rules, args.option)


def hand_object_from_args(
    notation: str, args: argparse.Namespace, need_win: bool = True
) -> dict[str, Any]:
    """Build the interchange object from the compact notation and flags."""
    parsed = parse_hand(notation)
    if need_win and parsed.win_tile is None:
        raise HandError("Mark the winning tile with '+', e.g. '123m456p789sEECC +E'.")
    ctx, options = context_and_options(args)
    obj: dict[str, Any] = {
        "rules": args.rules,
        "hand": [tile_to_str(t) for t in parsed.concealed],
        "melds": [m.to_dict() for m in parsed.melds],
        "flowers": [tile_to_str(t) for t in parsed.flowers],
        "context": ctx,
        "options": options,
    }
    if parsed.win_tile is not None:
        obj["win_tile"] = tile_to_str(parsed.win_tile)
    return obj


def _label(text: str) -> str:
    """A label and the space after it (a full-width colon has its own)."""
    return text if text.endswith("：") else text + " "


def render_result(r: Result, lang: str = "en") -> str:
    """The readable table of ``r`` in ``lang`` (en, zh, hi): every label from the
    CLI's catalog (:mod:`hefen.i18n`), the columns lined up by display width."""
    from .. import i18n

    _ = i18n.translations(lang).gettext
    if not r.valid:
        return _("Not a valid hand:") + f" {r.error}"
    try:
        unit = find_ruleset(r.rules).unit_name(lang)
    except HandError:
        unit = r.unit
    names = [(p.names.get(lang, p.name) if p.names else p.name) for p in r.patterns]
    label, total = _("Pattern"), _("Total")
    width = max([i18n.display_width(n) for n in [*names, label, total]] + [10])
    values = [str(p.value) for p in r.patterns] + [str(r.total)]
    vwidth = max([len(v) for v in values] + [3, i18n.display_width(unit)])
    lines = [f"  {i18n.ljust(label, width)}  {i18n.rjust(unit, vwidth)}"]
    for p, name in zip(r.patterns, names, strict=True):
        times = f" x{p.count}" if p.count > 1 else ""
        uses = f"  ({', '.join(p.uses)})" if p.uses else ""
        lines.append(f"  {i18n.ljust(name, width)}  {p.value:>{vwidth}}{times}{uses}")
    limit = " " + _("(limit)") if r.limit else ""
    lines.append(f"  {i18n.ljust(total, width)}  {r.total:>{vwidth}} {unit}{limit}")
    if not r.winning:
        lines.append("  " + _("Not a winning hand under these settings."))
    for n in r.notes:
        lines.append("  " + _label(_("Note:")) + i18n.translate_note(n, lang))
    if r.payments:
        paid = ", ".join(f"{p.frm}->{p.to} {p.amount}" for p in r.payments)
        lines.append("  " + _label(_("Payments:")) + paid)
    return "\n".join(lines)


#: what a ``--json`` batch answers for a line it cannot read
TOO_LONG = "The input line is longer than 1 MiB."
NOT_UTF8 = "The line is not UTF-8 text."
TOO_DEEP = "The line nests lists or objects too deeply to read."


def _error(sentence: str) -> dict[str, Any]:
    return {"valid": False, "error": sentence}


def _read_lines(stream: Any) -> Iterator[str | dict[str, Any]]:
    """The lines of ``stream`` (text or bytes), each at most :data:`MAX_LINE`
    long; a longer line is read past without keeping it and comes as its
    error object, as does a line that is not UTF-8."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            end = line[-1:] in ("\n", b"\n")
            while not end:  # skip the rest of the line, a chunk at a time
                rest = stream.readline(MAX_LINE)
                end = not rest or rest[-1:] in ("\n", b"\n")
            yield _error(TOO_LONG)
            continue
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError:
                yield _error(NOT_UTF8)
                continue
        yield line


def _parse_line(line: str) -> Any:
    """The JSON value of one line, or (as a :class:`HandError`) why there is none."""
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise HandError(f"The line is not valid JSON ({e.msg} at column {e.colno}).") from e
    except RecursionError as e:
        raise HandError(TOO_DEEP) from e
    except ValueError as e:  # e.g. a number of more than 4,300 digits
        raise HandError("The line is JSON that cannot be read: a number in it is too long.") from e


def _dump(res: Any) -> str:
    """One output line: UTF-8 JSON; an answer that cannot be written so (a
    lone surrogate, nan) is escaped or replaced by its error object."""
    try:
        text = json.dumps(res, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        try:
            return json.dumps(res, ensure_ascii=True, allow_nan=False)
        except (ValueError, TypeError, RecursionError):
            pass
    except (ValueError, TypeError, RecursionError):
        pass
    return json.dumps(_error("The answer to this line could not be written as JSON."))


def _answer(fn: Any, line: str | dict[str, Any]) -> str | None:
    """The answer line (without its newline) to one input line; ``None`` for
    a blank line, which gets no answer."""
    if isinstance(line, dict):
        res: Any = line
    elif not line.strip():
        return None
    else:
        try:
            res = fn(_parse_line(line))
        except HandError as e:
            res = _error(str(e))
        except (RecursionError, MemoryError):
            res = _error(TOO_DEEP)
        except Exception as e:  # a bug must not end the batch
            res = _error(
                f"An internal error ({type(e).__name__}) stopped this line; please report it."
            )
    return _dump(res)


def _answer_chunk(fn: Any, lines: list[str | dict[str, Any]]) -> list[str | None]:
    return [_answer(fn, line) for line in lines]


#: input lines handed to a ``--jobs`` worker at a time
CHUNK_LINES = 256


def run_json_batch(fn: Any, stream: Any = None, out: Any = None, *, jobs: int = 1) -> int:
    """One JSON value per line in, one answer line out, in order.

    Every line that is not blank gets exactly one answer: a line that is not
    JSON, nests too deeply, is over 1 MiB or not UTF-8, or is not a hand
    gives ``{"valid": false, "error": "<one sentence>"}`` and the batch goes
    on. A blank (or whitespace-only) line is skipped and gets no answer.

    ``jobs`` > 1 (``0``: one per core) answers the lines in that many worker
    processes, :data:`CHUNK_LINES` lines at a time, and writes the answers in
    the order of the lines, a chunk at a time (``fn`` must then be a
    module-level function, so that it pickles)."""
    if stream is None:
        stream = getattr(sys.stdin, "buffer", sys.stdin)
    out = out or sys.stdout
    if jobs == 0:
        jobs = cores()
    lines = _read_lines(stream)
    if jobs > 1:
        return _run_parallel(fn, lines, out, jobs)
    for line in lines:
        answer = _answer(fn, line)
        if answer is not None:
            out.write(answer + "\n")
            out.flush()
    return 0


def _run_parallel(fn: Any, lines: Iterator[str | dict[str, Any]], out: Any, jobs: int) -> int:
    """:func:`run_json_batch` over worker processes: a chunk of lines to each
    worker in turn, at most two chunks a worker in flight, the answers
    written in order (a chunk whose worker fails is answered here)."""
    from collections import deque
    from itertools import islice

    out.flush()
    ex = pool(jobs)
    pending: deque[tuple[list[str | dict[str, Any]], Any]] = deque()

    def drain(keep: int) -> None:
        while len(pending) > keep:
            chunk, fut = pending.popleft()
            try:
                answers = fut.result()
            except Exception:  # the worker failed (killed, out of memory): here, then
                answers = _answer_chunk(fn, chunk)
            for answer in answers:
                if answer is not None:
                    out.write(answer + "\n")
            out.flush()

    try:
        while chunk := list(islice(lines, CHUNK_LINES)):
            pending.append((chunk, ex.submit(_answer_chunk, fn, chunk)))
            drain(2 * jobs)
        drain(0)
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
    return 0


def _score_line(obj: Any) -> dict[str, Any]:
    """The answer of ``hefen score --json`` to one JSON value."""
    return score(obj).to_dict()


def _run(args: argparse.Namespace) -> int:
    if args.json:
        return run_json_batch(_score_line, jobs=args.jobs)
    if args.jobs != 1:
        print("hefen score: --jobs needs --json (it scores the lines of a batch).", file=sys.stderr)
        return 2
    if args.photo:
        return _run_photo(args)
    if not args.hand:
        print(
            "hefen score: give a hand, e.g. hefen score '123m456p789sEECC +E', or --json.",
            file=sys.stderr,
        )
        return 2
    try:
        obj = hand_object_from_args(args.hand, args)
    except HandError as e:
        print(error_line(e, args.lang), file=sys.stderr)
        return 2
    r = score(obj)
    if not r.valid:
        print(error_line(r.error or "", args.lang), file=sys.stderr)
        return 2
    print(render_result(r, args.lang))
    return 0


def _run_photo(args: argparse.Namespace) -> int:
    from .. import photo

    try:
        memory = photo.TileMemory.load(args.memory) if args.memory else None
        rec = photo.recognize(args.photo, memory)
    except photo.PhotoError as e:
        print(f"Could not read the photo: {e}", file=sys.stderr)
        return 2
    from .. import i18n

    print(i18n.translations(args.lang).gettext("Recognised:") + " " + " ".join(rec.tiles))
    try:
        fields = rec.hand_fields(args.win)
    except photo.PhotoError as e:
        print(f"Could not score the photo: {e}", file=sys.stderr)
        return 2
    try:
        ctx, options = context_and_options(args)
    except HandError as e:
        print(error_line(e, args.lang), file=sys.stderr)
        return 2
    obj = {
        "rules": args.rules,
        **fields,
        "context": ctx,
        "options": options,
    }
    r = score(obj)
    print(render_result(r, args.lang))
    return 0 if r.valid else 1


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help="score a hand",
        description=(
            "Score a hand written in the compact notation, e.g.\n"
            "  hefen score '123m456p789sEECC [EEE] +E' --self-drawn\n"
            "or read interchange objects, one per line, with --json."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hand", nargs="?", help="the hand in compact notation (see docs/notation.md)")
    p.add_argument("--json", action="store_true", help="read JSON objects from stdin, one per line")
    p.add_argument(
        "--jobs",
        type=jobs,
        default=1,
        metavar="N",
        help="with --json: score the lines in N worker processes, the answers in order "
        "(0: one per core; default 1)",
    )
    p.add_argument("--photo", help="recognise the tiles in a photo, then score them")
    p.add_argument(
        "--memory",
        metavar="FILE",
        help="with --photo: read tiles taught in FILE as taught (see hefen recognize --teach)",
    )
    p.add_argument(
        "--win",
        help="with --photo: the winning tile (default: the last tile of the concealed row); "
        "groups apart from that row that are chows, pungs or kongs are read as exposed melds",
    )
    p.add_argument(
        "--lang",
        choices=LANGS,
        default="en",
        help="language of the table: en (English, default), zh (中文), hi (हिन्दी)",
    )
    add_context_flags(p)
    p.set_defaults(func=_run)
