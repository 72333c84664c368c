"""``hefen replay FILE`` and ``hefen simulate``: game records and bot-only play."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any, TextIO

from ..game.bots import BOTS, make_bot
from ..game.engine import Game, GameSettings
from ..game.match import HandPlayed, Match
from ..game.record import RecordError, dumps, match_lines, replay
from ..ruleset import DEFAULT_RULESET, find_ruleset, ruleset_keys
from ..table.errors import TableError
from .args import positive, whole
from .score import parse_settings


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "replay",
        help="replay a game record (JSON lines) and show it",
        description="Replay a game record: each hand's events in words and its result.",
    )
    p.add_argument("file", help="the record (JSON lines); - for standard input")
    p.add_argument("--quiet", action="store_true", help="only the results, not every event")
    p.set_defaults(func=run_replay)

    s = subparsers.add_parser(
        "simulate",
        help="play bot-only games and summarise them",
        description="Bots play whole games (matches of --hands hands); a summary follows.",
    )
    s.add_argument(
        "--rules",
        choices=ruleset_keys(),
        default=DEFAULT_RULESET,
        help=f"ruleset (default {DEFAULT_RULESET})",
    )
    s.add_argument(
        "--games", type=positive, default=10, help="number of games, 1 or more (default 10)"
    )
    s.add_argument(
        "--hands", type=positive, default=4, help="hands per game, 1 or more (default 4)"
    )
    s.add_argument("--seed", type=whole, default=0, help="seed of the deals, 0 or more (default 0)")
    s.add_argument(
        "--bots",
        default="strong,simple,strong,simple",
        help=f"one bot per seat, comma-separated ({', '.join(BOTS)}); one name for all seats",
    )
    s.add_argument(
        "-o",
        "--option",
        "--options",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="table setting, e.g. -o min_fan=3 (repeatable; a JSON object of names and "
        "values is read too)",
    )
    s.add_argument(
        "--multiple-winners", action="store_true", help="several seats may win on one discard"
    )
    s.add_argument(
        "--dead-wall",
        type=whole,
        default=None,
        metavar="N",
        help="tiles kept back at the end of the wall (default: the ruleset's, TW 16)",
    )
    s.add_argument(
        "--winners-pass-deal",
        action="store_true",
        help="with several winners, the dealer among them does not keep the deal",
    )
    s.add_argument(
        "--rob-concealed-kong",
        action="store_true",
        help="Thirteen Orphans may rob a concealed kong",
    )
    s.add_argument(
        "--false-win",
        choices=("refuse", "penalty"),
        default="refuse",
        help="a false win is refused (default) or ends the hand with a penalty",
    )
    s.add_argument(
        "--locked-kongs",
        action="store_true",
        help="TW: a declared-ready hand may kong when its wait does not change",
    )
    s.add_argument("--json", action="store_true", help="one JSON line per hand on stdout")
    s.add_argument("--record", metavar="FILE", help="write the game record of the first game")
    s.set_defaults(func=run_simulate)


def _print_game(game: Game, header: dict[str, Any], out: TextIO, quiet: bool) -> None:
    winds = " ".join(f"{s}:{game.wind(s)}" for s in range(4))
    print(
        f"Hand {header.get('number', 1)} — round {header['round_wind']}, dealer seat "
        f"{game.dealer}, streak {game.dealer_streak}, seats {winds}, seed {game.seed}",
        file=out,
    )
    if not quiet:
        for entry in game.log:
            print("  " + game.describe(entry), file=out)
    o = game.outcome
    if o is None:
        print("  (the record stops before the hand ends)", file=out)
        return
    if o.kind == "draw":
        print(f"  Draw: {o.reason}.", file=out)
    for w in o.wins:
        how = "self-drawn" if o.discarder is None else f"from seat {o.discarder}"
        pats = ", ".join(
            f"{p.name} {p.value}" + (f"×{p.count}" if p.count > 1 else "")
            for p in w.result.patterns
        )
        extra = f" ({o.reason})" if o.reason else ""
        print(
            f"  Win: seat {w.seat} ({game.wind(w.seat)}), {how}{extra}: "
            f"{w.result.total} {w.result.unit} — {pats}",
            file=out,
        )
    for f, t, a in o.payments:
        print(f"    seat {f} pays seat {t}: {a}", file=out)


def run_replay(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            lines = sys.stdin.readlines()
        else:
            with open(args.file, encoding="utf-8") as fh:
                lines = fh.readlines()
        rep = replay(lines)
    except OSError as e:
        print(f"hefen replay: cannot read {args.file} ({e.strerror}).", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"hefen replay: {args.file} is not a text record (UTF-8).", file=sys.stderr)
        return 1
    except RecordError as e:
        print(f"hefen replay: {e}", file=sys.stderr)
        return 1
    for game, header in zip(rep.games, rep.headers, strict=True):
        _print_game(game, header, sys.stdout, args.quiet)
    if rep.match is not None:
        bal = ", ".join(f"seat {i}: {b}" for i, b in enumerate(rep.match.balances))
        print(f"Final balances — {bal}")
    return 0


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games ({rate:.1f}/s)"
    )
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run_simulate(args: argparse.Namespace) -> int:
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if len(names) == 1:
        names *= 4
    if len(names) != 4 or any(n not in BOTS for n in names):
        print(f"hefen simulate: --bots needs one or four of {', '.join(BOTS)}.", file=sys.stderr)
        return 2
    try:
        options = parse_settings(args.rules, args.options, json_ok=True)
        settings = GameSettings(
            args.rules,
            options=options,
            multiple_winners=args.multiple_winners,
            dead_wall=args.dead_wall,
            dealer_among_winners_keeps=not args.winners_pass_deal,
            rob_concealed_kong=args.rob_concealed_kong,
            false_win=args.false_win,
            locked_kongs=args.locked_kongs,
        )
    except (ValueError, TypeError, TableError) as e:
        print(f"hefen simulate: {e}", file=sys.stderr)
        return 2
    if args.record:
        try:
            with open(args.record, "w", encoding="utf-8"):
                pass  # writable: the record is written after the first game
        except OSError as e:
            print(
                f"hefen simulate: --record cannot write {args.record} ({e.strerror}).",
                file=sys.stderr,
            )
            return 2
    wins = draws = hands = 0
    values: list[int] = []
    patterns: Counter[str] = Counter()
    by_bot: dict[str, list[float]] = {n: [] for n in set(names)}
    started = time.perf_counter()
    out = sys.stdout
    summary = sys.stderr if args.json else sys.stdout
    for g in range(args.games):
        seed = args.seed * 100003 + g
        bots = [make_bot(names[i], seed * 4 + i) for i in range(4)]
        match = Match(settings, seed, hands=args.hands)

        def on_hand(hp: HandPlayed, g: int = g) -> None:
            nonlocal wins, draws, hands
            hands += 1
            o = hp.game.outcome
            assert o is not None
            change = [0.0] * 4
            for f, t, a in o.payments:
                change[f] -= a
                change[t] += a
            for i in range(4):
                by_bot[names[i]].append(change[i])
            if o.kind == "draw":
                draws += 1
            else:
                wins += 1
                for w in o.wins:
                    values.append(w.result.total)
                    patterns.update(p.id for p in w.result.patterns for _ in range(p.count))
            if args.json:
                line = {
                    "rules": args.rules,
                    "game": g,
                    "hand": hp.number,
                    "result": o.kind,
                    "winner": o.wins[0].seat if o.wins else None,
                    "payments": [{"from": f, "to": t, "amount": a} for f, t, a in o.payments],
                    "score": o.wins[0].result.to_dict() if o.wins else None,
                }
                print(json.dumps(line, ensure_ascii=False), file=out)

        def choose(game: Game, seat: int, bots: list[Any] = bots) -> Any:
            return bots[seat].choose(game, seat)

        match.play(choose, on_hand)
        if args.record and g == 0:
            with open(args.record, "w", encoding="utf-8") as fh:
                fh.write(dumps(match_lines(match)))
        _progress(g + 1, args.games, started)
    elapsed = time.perf_counter() - started
    unit = find_ruleset(args.rules).unit
    print(
        f"{args.rules}: {args.games} games, {hands} hands in {elapsed:.1f} s "
        f"({args.games / elapsed:.2f} games/s)",
        file=summary,
    )
    print(f"  wins {wins}, draws {draws}", file=summary)
    if values:
        print(f"  average hand value {sum(values) / len(values):.2f} {unit}", file=summary)
    for name, changes in sorted(by_bot.items()):
        mean = sum(changes) / max(len(changes), 1)
        print(f"  bot {name}: mean {mean:+.2f} per seat-hand over {len(changes)}", file=summary)
    if patterns:
        print("  patterns (per win):", file=summary)
        for pid, n in patterns.most_common(15):
            print(f"    {pid:<28} {n / max(wins, 1):6.1%}", file=summary)
    return 0
