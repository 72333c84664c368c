"""``hefen arena``: hefen judges an external Botzone-protocol MCR program.

The external program plays one seat against three hefen bots in
**duplicate** format: every wall is first played by four hefen bots (the
baseline), then four times more with the external program in each seat in
turn. Its margin on a wall is the mean, over the four seats, of what it won
in that seat minus what the hefen bot won there in the baseline; the
interval is mean ± 1.96·sd/√n over walls (:func:`hefen.game.match.interval`).
Positions (round wind, dealer, seat winds) follow :class:`hefen.game.Match`;
the hands are played and settled by the engine (MCR payments: 8 from each
opponent, the hand's value from the discarder).

The program talks Botzone's protocol (:mod:`hefen.botzone`): in the simple
form it is started once a hand and kept running when it prints
``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` after its answer (else it is started
again each turn with the whole history); with ``json_protocol`` it is
started each turn with ``{"requests": [...], "responses": [...]}`` and
answers ``{"response": "..."}``. An illegal answer, a crash or a timeout
ends the hand as Botzone's judge ends it: the offender pays each other seat
10 points (the competition's 错和 penalty, the judge's -30/+10), and a
sentence goes to stderr.
"""

from __future__ import annotations

import json
import queue
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from .botzone import KEEP_RUNNING, RULES, to_botzone
from .game.bots import make_bot
from .game.engine import Action, Game, GameSettings, IllegalAction
from .game.match import Match, interval, seat_changes
from .tiles import WINDS

__all__ = ["Arena", "ArenaReport", "External", "Offence", "play_hand"]

#: the competition's penalty (错和): the offender pays each other seat this much
PENALTY = 10


class Offence(Exception):
    """The external program broke the protocol; the message is one sentence."""

    def __init__(self, message: str, kind: str = "illegal") -> None:
        super().__init__(message)
        self.kind = kind  # illegal | crash | timeout


@dataclass
class External:
    """One run of the external program for one hand (one seat)."""

    argv: list[str]
    json_protocol: bool = False
    timeout: float = 5.0
    #: extra seconds the first answer of each start may take (the program's start-up)
    startup: float = 5.0
    requests: list[str] = field(default_factory=list)
    responses: list[str] = field(default_factory=list)
    _proc: subprocess.Popen[str] | None = None
    _lines: queue.Queue[str | None] | None = None
    _pump: threading.Thread | None = None
    _keep: bool = False
    #: the request whose turn is not read to its end yet
    _open_turn: str | None = None

    def _start(self) -> None:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise Offence(f"the program could not be started ({e.strerror}).", "crash") from None
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(out: IO[str]) -> None:
            try:
                for line in out:
                    lines.put(line.rstrip("\r\n"))
            except (OSError, ValueError):  # pragma: no cover - closed under it
                pass
            lines.put(None)

        assert proc.stdout is not None
        self._pump = threading.Thread(target=pump, args=(proc.stdout,), daemon=True)
        self._pump.start()
        self._proc, self._lines = proc, lines

    def _write(self, text: str, close: bool = False) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(text)
            self._proc.stdin.flush()
            if close:
                self._proc.stdin.close()
        except (BrokenPipeError, OSError):
            raise Offence("the program stopped reading its input.", "crash") from None

    def _line(self, deadline: float, request: str) -> str | None:
        assert self._lines is not None
        try:
            return self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise Offence(
                f"the program gave no answer to {request!r} within {self.timeout:g} s.", "timeout"
            ) from None

    def ask(self, request: str) -> str:
        """Send ``request`` and return the program's answer (raises :class:`Offence`).

        The answer is its first line; the rest of the turn (the keep-running
        mark, or the program's end) is read before the next request, so an
        illegal answer is judged at once."""
        self._end_turn()
        self.requests.append(request)
        fresh = not self._keep
        if fresh:
            self.close()
            self._start()
            n = len(self.requests)
            if self.json_protocol:
                obj = {"requests": self.requests, "responses": self.responses}
                self._write(json.dumps(obj) + "\n", close=True)
            else:
                turns = [
                    x
                    for pair in zip(self.requests, [*self.responses, ""], strict=True)
                    for x in pair
                ]
                self._write(f"{n}\n" + "\n".join(turns[: 2 * n - 1]) + "\n")
        else:  # kept running: the request alone (JSON: as a JSON string)
            self._write((json.dumps(request) if self.json_protocol else request) + "\n")
        deadline = time.monotonic() + self.timeout + (self.startup if fresh else 0.0)
        first = self._line(deadline, request)
        if first is None:
            raise Offence(f"the program ended without answering {request!r}.", "crash")
        answer = first
        if self.json_protocol:
            try:
                obj = json.loads(first)
                answer = str(obj["response"])
            except (ValueError, KeyError, TypeError):
                raise Offence(
                    f"the program's answer {first[:60]!r} is not a JSON object with a response.",
                    "illegal",
                ) from None
        self._open_turn = request
        self.responses.append(answer.strip())
        return answer.strip()

    def _end_turn(self) -> None:
        """Read the rest of the last turn: the keep-running mark or the end."""
        request, self._open_turn = self._open_turn, None
        if request is None:
            return
        deadline = time.monotonic() + self.timeout
        while True:
            more = self._line(deadline, request)
            if more is None:
                self._keep = False
                return
            if more.strip() == KEEP_RUNNING:
                self._keep = True
                return

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            if self._pump is not None:
                self._pump.join(timeout=1.0)  # the pipe's end stops it
            for stream in (self._proc.stdin, self._proc.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:  # pragma: no cover
                    pass
        self._proc, self._keep, self._open_turn = None, False, None


@dataclass
class Seat:
    """The result of one hand for one seat."""

    change: float
    won: bool
    dealt_in: bool
    offence: str | None = None
    message: str = ""


def _bz_id(game: Game, seat: int) -> int:
    """Botzone's player number of a seat: its wind (East, the dealer, is 0)."""
    return WINDS.index(game.seat_winds[seat])


def _result(game: Game, seat: int) -> Seat:
    out = game.outcome
    assert out is not None
    change = seat_changes(out.payments)[seat]
    dealt = bool(out.wins) and out.discarder == seat and out.kind == "win"
    return Seat(change, seat in out.winners, dealt)


class _Narrator:
    """Turns the engine's log into the Botzone requests of one seat and
    the seat's answers into engine actions."""

    def __init__(self, game: Game, seat: int, ext: External) -> None:
        self.game, self.seat, self.ext = game, seat, ext
        self.sent = 0
        self.pungs: list[set[int]] = [set() for _ in range(4)]
        self.after_discard = False
        self.planned: list[Action] = []

    def start(self) -> None:
        g, x = self.game, self.seat
        self._pass(f"0 {_bz_id(g, x)} {WINDS.index(g.round_wind)}")
        seats = sorted(range(4), key=lambda s: _bz_id(g, s))
        logged = [e[2] for e in g.log if e[0] == "flower"]
        dealt = [[f for f in g.players[s].flowers if f not in logged] for s in seats]
        hand = list(g.players[x].concealed)
        for e in g.log:
            if e[0] == "draw" and e[1] == x:
                hand.remove(e[2])
        words = ["1", *(str(len(f)) for f in dealt), *(to_botzone(t) for t in sorted(hand))]
        words += [to_botzone(f) for fl in dealt for f in fl]
        self._pass(" ".join(words))

    def _pass(self, request: str) -> None:
        answer = self.ext.ask(request)
        if answer != "PASS":
            raise Offence(
                f"the program answered {answer!r} to {request!r}, where only PASS is legal."
            )

    def flush(self) -> None:
        """Send every finished event of the log (a claim waits for its discard)."""
        log = self.game.log
        while self.sent < len(log):
            request, used, decision = self._request(self.sent)
            if used == 0:
                return
            self.sent += used
            if request is None:
                continue
            if decision:
                self.planned = self._decide(request, self.ext.ask(request))
            else:
                self._pass(request)

    def _request(self, i: int) -> tuple[str | None, int, bool]:
        g, x = self.game, self.seat
        entry = g.log[i]
        if entry[0] == "flower":
            return f"3 {_bz_id(g, entry[1])} BUHUA {to_botzone(entry[2])}", 1, False
        if entry[0] == "draw":
            s = entry[1]
            self.after_discard = False
            if s == x:
                return f"2 {to_botzone(entry[2])}", 1, True
            return f"3 {_bz_id(g, s)} DRAW", 1, False
        a: Action = entry[1]
        who = _bz_id(g, a.seat)
        mine = a.seat == x
        if a.kind in ("pass", "win", "ready"):
            return None, 1, False
        if a.kind == "discard":
            self.after_discard = True
            return f"3 {who} PLAY {to_botzone(a.tile or 0)}", 1, not mine
        if self.after_discard and a.kind in ("pung", "chow", "kong"):
            return self._claim(i)
        # a kong on the seat's own turn: added to a pung, or concealed
        t = a.tile or 0
        if t in self.pungs[a.seat]:
            return f"3 {who} BUGANG {to_botzone(t)}", 1, not mine
        return f"3 {who} GANG", 1, False

    def _claim(self, i: int) -> tuple[str | None, int, bool]:
        """The request of the claim that won the last discard: the answers
        to the discard run from ``i`` until the winner's discard (a pung or
        a chow) or its replacement draw (a kong)."""
        g, log = self.game, self.game.log
        answers = ("pass", "pung", "chow", "kong", "win")
        j = i
        while j < len(log) and log[j][0] == "act" and log[j][1].kind in answers:
            j += 1
        if j == len(log):
            # still answering, or a win ended the hand: nothing to tell yet
            return None, (j - i if g.phase == "end" else 0), False
        nxt = log[j]
        seat = nxt[1].seat if nxt[0] == "act" else nxt[1]
        claim = next((e[1] for e in log[i:j] if e[1].seat == seat and e[1].kind != "pass"), None)
        if claim is None:  # pragma: no cover - the engine gives the turn to a claimant
            return None, j - i, False
        who, mine = _bz_id(g, seat), seat == self.seat
        if claim.kind == "kong":
            self.after_discard = False
            return f"3 {who} GANG", j - i, False
        out = to_botzone(nxt[1].tile or 0)
        if claim.kind == "pung":
            self.pungs[seat].add(claim.tile or 0)
            return f"3 {who} PENG {out}", j + 1 - i, not mine
        return f"3 {who} CHI {to_botzone((claim.tile or 0) + 1)} {out}", j + 1 - i, not mine

    def _decide(self, request: str, answer: str) -> list[Action]:
        """The actions an answer to a decision request stands for."""
        g, x = self.game, self.seat
        legal = g.legal_actions(x)
        words = answer.split()
        verb = words[0] if words else ""

        def bad(why: str = "") -> Offence:
            tail = f": {why}" if why else ""
            return Offence(f"the program answered {answer!r} to {request!r}{tail}.")

        def tile(word: str) -> int:
            from .botzone import BotzoneError, from_botzone

            try:
                return from_botzone(word)
            except BotzoneError as e:
                raise bad(str(e).rstrip(".")) from None

        def need(action: Action) -> Action:
            if action not in legal:
                if action.kind == "win":
                    raise bad("a false win")
                raise bad("not a legal move")
            return action

        if request.startswith("2 "):
            if verb == "HU" and len(words) == 1:
                return [need(Action(x, "win"))]
            if verb in ("PLAY", "GANG", "BUGANG") and len(words) == 2:
                t = tile(words[1])
                if verb == "PLAY":
                    return [need(Action(x, "discard", t))]
                four = g.players[x].concealed.count(t) == 4
                if four != (verb == "GANG"):
                    raise bad("GANG is a concealed kong of four held, BUGANG adds to a pung")
                return [need(Action(x, "kong", t))]
            raise bad("after a draw the answer is PLAY, GANG, BUGANG or HU")
        robbing = " BUGANG " in request
        if verb == "PASS" and len(words) == 1:
            return [Action(x, "pass")] if legal else []
        if verb == "HU" and len(words) == 1:
            return [need(Action(x, "win"))]
        if robbing:
            raise bad("an added kong is answered with PASS or HU")
        assert g.last_discard is not None
        last = g.last_discard[1]
        if verb in ("PENG", "CHI", "GANG") and g.wall_remaining == 0:
            # Botzone's judge lets the last discard be claimed, hefen's rules do not
            return [Action(x, "pass")] if legal else []
        if verb == "GANG" and len(words) == 1:
            return [need(Action(x, "kong", last))]
        if verb == "PENG" and len(words) == 2:
            return [need(Action(x, "pung", last)), Action(x, "discard", tile(words[1]))]
        if verb == "CHI" and len(words) == 3:
            middle = tile(words[1])
            return [need(Action(x, "chow", middle - 1)), Action(x, "discard", tile(words[2]))]
        raise bad("a discard is answered with PASS, HU, PENG, GANG or CHI")

    def act(self) -> Action:
        """The external seat's next action (planned by its last answer)."""
        if not self.planned:
            raise Offence("the program has no move where the rules need one.")
        return self.planned.pop(0)


def play_hand(
    game: Game,
    bots: list[Any],
    external: int | None = None,
    ext: External | None = None,
) -> list[Seat]:
    """Play ``game`` out; seat ``external`` (if any) is the program ``ext``.
    Returns each seat's result; an offence ends the hand with its penalty."""
    narrator = _Narrator(game, external, ext) if external is not None and ext else None
    try:
        if narrator is not None:
            narrator.start()
            narrator.flush()
        while game.phase != "end":
            seat = game.to_act()[0]
            if narrator is not None and seat == external:
                action = narrator.act()
                try:
                    game.apply(action)
                except IllegalAction as e:
                    raise Offence(f"the program's move is illegal: {e}") from None
                narrator.flush()
            else:
                game.apply(bots[seat].choose(game, seat))
                if narrator is not None:
                    narrator.flush()
    except Offence as offence:
        assert external is not None
        out = [Seat(float(PENALTY), False, False) for _ in range(4)]
        out[external] = Seat(-3.0 * PENALTY, False, False, offence.kind, str(offence))
        return out
    finally:
        if ext is not None:
            ext.close()
    return [_result(game, s) for s in range(4)]


@dataclass
class ArenaReport:
    """What the arena measured: one margin per wall and the counts behind the rates."""

    command: str
    against: str
    walls: int = 0
    margins: list[float] = field(default_factory=list)
    ext_wins: int = 0
    base_wins: int = 0
    ext_deal_ins: int = 0
    base_deal_ins: int = 0
    offences: dict[str, int] = field(
        default_factory=lambda: {"illegal": 0, "crash": 0, "timeout": 0}
    )
    seconds: float = 0.0

    @property
    def hands(self) -> int:
        return 4 * self.walls

    def lines(self) -> list[str]:
        mean, half = interval(self.margins) if self.margins else (0.0, 0.0)
        h = max(1, self.hands)
        off = ", ".join(f"{k} {v}" for k, v in self.offences.items())
        return [
            f"arena: {self.command!r} against {self.against}, {self.walls} walls × 4 seats "
            f"({self.hands} hands, duplicate) in {self.seconds:.1f} s",
            f"  margin {mean:+.2f} points per hand against the {self.against} bot it replaced, "
            f"95% interval [{mean - half:+.2f}, {mean + half:+.2f}] (n = {self.walls} walls)",
            f"  win rate {self.ext_wins / h:.3f} (the {self.against} bot in the same seats "
            f"{self.base_wins / h:.3f}); deal-in rate {self.ext_deal_ins / h:.3f} "
            f"({self.base_deal_ins / h:.3f})",
            f"  penalties {sum(self.offences.values())} ({off})",
        ]

    def to_dict(self) -> dict[str, Any]:
        mean, half = interval(self.margins) if self.margins else (0.0, 0.0)
        return {
            "command": self.command,
            "against": self.against,
            "walls": self.walls,
            "hands": self.hands,
            "margin": mean,
            "interval": [mean - half, mean + half],
            "win_rate": self.ext_wins / max(1, self.hands),
            "base_win_rate": self.base_wins / max(1, self.hands),
            "deal_in_rate": self.ext_deal_ins / max(1, self.hands),
            "base_deal_in_rate": self.base_deal_ins / max(1, self.hands),
            "offences": dict(self.offences),
            "seconds": self.seconds,
        }


@dataclass
class Arena:
    """Duplicate play of ``command`` against the ``against`` bot."""

    command: str
    against: str = "strong"
    games: int = 2
    hands: int = 4
    seed: int = 0
    json_protocol: bool = False
    timeout: float = 5.0
    say: Callable[[str], None] = print
    #: extra seconds for the first answer after each start of the program
    startup: float = 5.0

    def run(self) -> ArenaReport:
        try:
            argv = shlex.split(self.command)
        except ValueError as e:
            raise ValueError(f"--cmd is not a command line ({str(e).lower()}).") from None
        if not argv:
            raise ValueError("--cmd needs a command line to start.")
        if shutil.which(argv[0]) is None:
            raise ValueError(f"--cmd starts {argv[0]!r}, which is not a program found here.")
        report = ArenaReport(self.command, self.against)
        started = time.perf_counter()
        settings = GameSettings(RULES)
        for g in range(self.games):
            match = Match(settings, f"arena/{self.seed}/{g}", hands=self.hands)
            while not match.finished:
                self._wall(match, report, argv)
        report.seconds = time.perf_counter() - started
        return report

    def _bots(self, number: int) -> list[Any]:
        return [make_bot(self.against, number * 4 + s) for s in range(4)]

    def _wall(self, match: Match, report: ArenaReport, argv: list[str]) -> None:
        base_game = match.new_game()
        number = report.walls
        base = play_hand(base_game, self._bots(number))
        margin = 0.0
        for seat in range(4):
            ext = External(argv, self.json_protocol, self.timeout, self.startup)
            res = play_hand(match.new_game(), self._bots(number), seat, ext)
            mine = res[seat]
            if mine.offence:
                report.offences[mine.offence] += 1
                self.say(
                    f"hefen arena: wall {number + 1}, seat {seat}: "
                    f"{mine.message[0].upper()}{mine.message[1:]} The program pays the penalty."
                )
            margin += (mine.change - base[seat].change) / 4
            report.ext_wins += mine.won
            report.ext_deal_ins += mine.dealt_in
            report.base_wins += base[seat].won
            report.base_deal_ins += base[seat].dealt_in
        report.margins.append(margin)
        report.walls += 1
        match.record(base_game)
