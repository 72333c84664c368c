"""Botzone (botzone.org.cn) MCR protocol: a hefen bot as a Botzone bot.

Botzone's Chinese Standard Mahjong judge sends each player one *request*
per turn and reads one *response* back. Seats are players 0–3, player 0 is
East and deals, turn order is 0 → 1 → 2 → 3, and the wind of player ``i``
is wind ``i``. The requests:

``0 ID QUAN``
    your seat and the round wind (0–3: E S W N); answer ``PASS``.
``1 N0 N1 N2 N3 T1..T13 F..``
    each player's count of flowers, your 13 tiles, then every player's
    flowers in seat order; answer ``PASS``.
``2 T``
    you drew ``T``: answer ``PLAY T``, ``GANG T`` (concealed kong),
    ``BUGANG T`` (add to a pung) or ``HU``.
``3 P DRAW`` / ``3 P BUHUA F``
    player ``P`` drew a tile / set aside a flower; answer ``PASS``.
``3 P PLAY T``, ``3 P PENG T``, ``3 P CHI M T``
    player ``P`` discarded ``T`` (after a pung, or a chow whose middle tile
    is ``M``): answer ``PASS``, ``HU``, ``PENG X`` (pung and discard ``X``),
    ``GANG`` (kong of the discard), or — the next player only — ``CHI M X``.
``3 P GANG`` / ``3 P BUGANG T``
    player ``P`` made a kong (concealed after its draw, or of the last
    discard) / added ``T`` to its pung: answer ``PASS``, or ``HU`` to rob
    the added kong.

Tiles are ``W1``–``W9`` (characters), ``B1``–``B9`` (dots), ``T1``–``T9``
(bamboo), ``F1``–``F4`` (E S W N), ``J1``–``J3`` (red, green, white) and
``H1``–``H8`` (flowers).

:class:`Driver` keeps a hefen :class:`~hefen.game.engine.Game` holding only
what the seat may know: its own tiles, every player's rivers, exposed
melds and flowers, and the wall's count. The other hands are empty lists
and the wall holds no tile (the count is ``tail - head``); another seat's
concealed kong is recorded as a concealed meld whose tile nobody reads
(the bots skip other seats' concealed melds, as does
:meth:`Game.visible_count`). The bot is asked through the engine's own
``legal_actions``, so it only declares ``HU`` when ``hefen.score`` says the
hand is worth 8 points without its flowers.

>>> from hefen.tiles import tile_from_str
>>> to_botzone(tile_from_str("1m")), to_botzone(tile_from_str("C")), from_botzone("J3")
('W1', 'J1', 33)
>>> parse_request("3 2 CHI B3 W1")
Request(kind='event', player=2, verb='CHI', tiles=(11, 0), numbers=())
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TextIO

from .errors import safe_repr
from .game.bots import make_bot
from .game.engine import Action, Game, GameSettings, Player
from .hand import Meld
from .tiles import WINDS

__all__ = [
    "BotzoneError",
    "Driver",
    "KEEP_RUNNING",
    "RULES",
    "Request",
    "from_botzone",
    "parse_request",
    "run",
    "to_botzone",
]

#: the ruleset of Botzone's Chinese Standard Mahjong: the protocol is MCR's
RULES = "mcr"

#: what a long-running Botzone bot prints after each response
KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"

#: the tiles in play before the deal: 136 suit and honour tiles and 8 flowers
SET_SIZE = 144

_NAMES: tuple[str, ...] = (
    tuple(f"W{r}" for r in range(1, 10))
    + tuple(f"B{r}" for r in range(1, 10))
    + tuple(f"T{r}" for r in range(1, 10))
    + ("F1", "F2", "F3", "F4", "J1", "J2", "J3")
    + tuple(f"H{r}" for r in range(1, 9))
)
_CODES: dict[str, int] = {name: i for i, name in enumerate(_NAMES)}

VERBS: tuple[str, ...] = ("DRAW", "BUHUA", "PLAY", "PENG", "CHI", "GANG", "BUGANG")
#: how many tiles each event of another player names
_VERB_TILES: dict[str, int] = {
    "DRAW": 0, "BUHUA": 1, "PLAY": 1, "PENG": 1, "CHI": 2, "GANG": 0, "BUGANG": 1,
}  # fmt: skip


class BotzoneError(ValueError):
    """A request or response that is not Botzone's; the message is one
    sentence. ``answer`` is what to answer instead (``PASS`` unless said)."""

    def __init__(self, message: str, answer: str = "PASS") -> None:
        super().__init__(message)
        self.answer = answer


def to_botzone(tile: int) -> str:
    """Botzone's name of a hefen tile (0–41)."""
    if not 0 <= tile < len(_NAMES):
        raise BotzoneError(f"{safe_repr(tile)} is not a tile.")
    return _NAMES[tile]


def from_botzone(name: str) -> int:
    """The hefen tile of a Botzone name such as ``W1``, ``F3``, ``J2`` or ``H8``."""
    tile = _CODES.get(name.strip().upper())
    if tile is None:
        raise BotzoneError(
            f"{safe_repr(name)} is not a Botzone tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8)."
        )
    return tile


@dataclass(frozen=True)
class Request:
    """One parsed request: ``kind`` is ``seat`` (numbers: id, round wind),
    ``deal`` (numbers: the four flower counts; tiles: the hand, then the
    flowers), ``draw`` (tiles: the drawn tile) or ``event`` (``player``,
    ``verb`` and the tiles it names)."""

    kind: str
    player: int | None = None
    verb: str | None = None
    tiles: tuple[int, ...] = ()
    numbers: tuple[int, ...] = ()


def _number(word: str, low: int, high: int, what: str) -> int:
    if not word.isdigit() or not low <= int(word) <= high:
        raise BotzoneError(
            f"{what} must be a whole number from {low} to {high}, not {safe_repr(word)}."
        )
    return int(word)


def parse_request(line: str) -> Request:
    """Read one Botzone request line (raises :class:`BotzoneError`)."""
    words = line.split()
    if not words:
        raise BotzoneError("The request is empty.")
    head = words[0]
    if head == "0":
        if len(words) != 3:
            raise BotzoneError("Request 0 needs a seat and a round wind: 0 ID QUAN.")
        return Request("seat", numbers=(_number(words[1], 0, 3, "The seat"),
                                        _number(words[2], 0, 3, "The round wind")))  # fmt: skip
    if head == "1":
        counts = tuple(_number(w, 0, 8, "A flower count") for w in words[1:5])
        if len(counts) < 4 or len(words) != 5 + 13 + sum(counts):
            raise BotzoneError(
                "Request 1 needs four flower counts, 13 tiles and the flowers they count."
            )
        hand = tuple(from_botzone(w) for w in words[5:18])
        flowers = tuple(from_botzone(w) for w in words[18:])
        if any(t >= 34 for t in hand) or any(t < 34 for t in flowers):
            raise BotzoneError("Request 1 deals 13 tiles without flowers, then only flowers.")
        return Request("deal", tiles=hand + flowers, numbers=counts)
    if head == "2":
        if len(words) != 2:
            raise BotzoneError("Request 2 names the one tile drawn: 2 TILE.")
        return Request("draw", tiles=(from_botzone(words[1]),))
    if head == "3":
        if len(words) < 3:
            raise BotzoneError("Request 3 needs a player and what it did: 3 ID VERB [TILES].")
        player = _number(words[1], 0, 3, "The player")
        verb = words[2].upper()
        if verb not in _VERB_TILES:
            raise BotzoneError(
                f"{safe_repr(words[2])} is not a Botzone event ({', '.join(VERBS)})."
            )
        if len(words) != 3 + _VERB_TILES[verb]:
            raise BotzoneError(f"3 ID {verb} names {_VERB_TILES[verb]} tile(s).")
        return Request("event", player, verb, tuple(from_botzone(w) for w in words[3:]))
    raise BotzoneError(f"A request starts with 0, 1, 2 or 3, not {safe_repr(head)}.")


@dataclass
class Driver:
    """A hefen bot in one Botzone seat: feed it the requests in order.

    :meth:`respond` answers a request with the bot's move (as Botzone
    writes it); :meth:`observe` replays a request of the history together
    with the response given then (no bot is asked). A request that does
    not fit the game so far raises :class:`BotzoneError`.
    """

    bot: str = "strong"
    seed: int = 0
    me: int = 0
    game: Game | None = None
    #: the response given to the last request (a concealed kong's tile is only in it)
    last_response: str = "PASS"
    #: the previous event: (player, verb) — tells a claimed kong from a concealed one
    previous: tuple[int, str] | None = None
    turns: int = 0
    #: the round wind (0-3) of request 0
    quan: int | None = None
    _bot: Any = field(default=None, repr=False)
    #: the added kong being answered: (seat, tile, index of its meld)
    _robbed: tuple[int, int, int] = (0, 0, 0)

    def __post_init__(self) -> None:
        self._bot = make_bot(self.bot, self.seed)

    def reset(self) -> None:
        """Forget the hand (a whole history is about to be replayed)."""
        self.__init__(self.bot, self.seed)  # type: ignore[misc]

    # -- the history
    def observe(self, line: str, response: str) -> None:
        """Take in a past request and the response that was given to it."""
        self._update(parse_request(line))
        self.last_response = response.strip()

    def respond(self, line: str) -> str:
        """Take in a request and answer it with the bot's move."""
        req = parse_request(line)
        self._update(req)
        try:
            answer = self._answer(req)
        except Exception as e:  # the bot failed: a legal answer all the same
            answer = f"PLAY {to_botzone(req.tiles[0])}" if req.kind == "draw" else "PASS"
            self.last_response = answer
            raise BotzoneError(
                f"The bot could not answer {line.strip()!r} ({type(e).__name__}); "
                f"it answers {answer}.",
                answer,
            ) from None
        self.last_response = answer
        return answer

    # -- the state
    def _need_game(self) -> Game:
        if self.game is None:
            raise BotzoneError("A request came before the deal (requests 0 and 1).")
        return self.game

    def _update(self, req: Request) -> None:
        self.turns += 1
        if self.game is not None and self.game.kong_in_progress is not None:
            self._settle_kong(self.game)
        if req.kind == "seat":
            self.me, self.quan = req.numbers
            self.game = None
            return
        if req.kind == "deal":
            self._deal(req)
            return
        game = self._need_game()
        if req.kind == "draw":
            self._draw(game, self.me, req.tiles[0])
            return
        assert req.player is not None and req.verb is not None
        getattr(self, "_on_" + req.verb.lower())(game, req.player, req.tiles)
        self.previous = (req.player, req.verb)

    def _deal(self, req: Request) -> None:
        quan = self.quan
        if quan is None:
            raise BotzoneError("The deal (request 1) came before the seat (request 0).")
        game = Game(GameSettings(RULES, dead_wall=0), 0, dealer=0, round_wind=WINDS[quan])
        game.players = [Player() for _ in range(4)]
        hand, flowers = list(req.tiles[:13]), list(req.tiles[13:])
        game.players[self.me].concealed = hand
        for seat, n in enumerate(req.numbers):
            game.players[seat].flowers, flowers = flowers[:n], flowers[n:]
        # the wall's tiles are unknown: only its count is kept (tail - head)
        game.wall, game.head = [], 0
        game.tail = SET_SIZE - 4 * 13 - sum(req.numbers)
        game.log, game.actions = [], []
        game.turn, game.phase, game.drawn, game.draw_source = 0, "deal", None, None
        self.game, self.previous = game, None

    def _take_from_wall(self, game: Game) -> None:
        if game.wall_remaining <= 0:
            raise BotzoneError("A tile was drawn from an empty wall.")
        game.tail -= 1

    def _draw(self, game: Game, seat: int, tile: int | None) -> None:
        self._take_from_wall(game)
        p = game.players[seat]
        p.draws += 1
        # Botzone's judge scores a kong replacement only after an added kong
        after_bugang = self.previous == (seat, "BUGANG")
        game.turn, game.phase = seat, "discard"
        game.pending, game.responses = {}, {}
        game.draw_source = "replacement" if after_bugang else "wall"
        game.drawn = tile
        game.kong_in_progress = None
        if tile is not None:
            p.concealed.append(tile)
        self.previous = (seat, "DRAW")

    def _on_draw(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        if seat == self.me:
            raise BotzoneError("Your own draw comes as request 2, not 3 ID DRAW.")
        self._draw(game, seat, None)

    def _on_buhua(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        if tiles[0] < 34:
            raise BotzoneError(f"BUHUA sets aside a flower, not {to_botzone(tiles[0])}.")
        self._take_from_wall(game)
        game.players[seat].flowers.append(tiles[0])

    def _remove(self, game: Game, seat: int, tiles: Iterable[int]) -> None:
        """Take ``tiles`` out of ``seat``'s hand (the own seat's only: the
        others' hands are not known)."""
        if seat != self.me:
            return
        hand = game.players[seat].concealed
        for t in tiles:
            if t not in hand:
                raise BotzoneError(f"Your hand holds no {to_botzone(t)} to take out.")
            hand.remove(t)

    def _discard(self, game: Game, seat: int, tile: int) -> None:
        self._remove(game, seat, [tile])
        p = game.players[seat]
        p.discards.append((tile, False))
        game.discard_count += 1
        game.last_discard = (seat, tile)
        game.last_discard_is_last = game.wall_remaining == 0
        game.turn, game.drawn, game.draw_source = seat, None, None
        game.phase, game.pending, game.responses = "between", {}, {}

    def _claimed(self, game: Game) -> tuple[int, int]:
        if game.last_discard is None or self.previous is None or self.previous[1] not in (
            "PLAY", "PENG", "CHI",
        ):  # fmt: skip
            raise BotzoneError("A claim came without a discard before it.")
        discarder, tile = game.last_discard
        river = game.players[discarder].discards
        river[-1] = (tile, True)
        game.any_call = True
        return discarder, tile

    def _on_play(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        self._discard(game, seat, tiles[0])

    def _on_peng(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        discarder, tile = self._claimed(game)
        self._remove(game, seat, [tile, tile])
        game.players[seat].melds.append(Meld.pung(tile))
        game.players[seat].meld_from.append(discarder)
        self._discard(game, seat, tiles[0])

    def _on_chi(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        middle, out = tiles
        discarder, tile = self._claimed(game)
        first = middle - 1
        if middle >= 27 or middle % 9 in (0, 8) or not first <= tile <= first + 2:
            raise BotzoneError(f"CHI {to_botzone(middle)} is no chow of {to_botzone(tile)}.")
        self._remove(game, seat, [x for x in (first, first + 1, first + 2) if x != tile])
        game.players[seat].melds.append(Meld.chow(first))
        game.players[seat].meld_from.append(discarder)
        self._discard(game, seat, out)

    def _on_gang(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        p = game.players[seat]
        if self.previous is not None and self.previous[1] in ("PLAY", "PENG", "CHI"):
            discarder, tile = self._claimed(game)  # a kong of the discard
            self._remove(game, seat, [tile] * 3)
            p.melds.append(Meld.kong(tile))
            p.meld_from.append(discarder)
            return
        game.any_call = True
        tile = 0  # another seat's concealed kong: a tile that nobody reads
        if seat == self.me:
            words = self.last_response.split()
            if len(words) != 2 or words[0] != "GANG":
                raise BotzoneError("Your concealed kong's tile is not in your last response.")
            tile = from_botzone(words[1])
            self._remove(game, seat, [tile] * 4)
        p.melds.append(Meld.kong(tile, concealed=True))
        p.meld_from.append(None)

    def _on_bugang(self, game: Game, seat: int, tiles: tuple[int, ...]) -> None:
        tile = tiles[0]
        p = game.players[seat]
        i = next((i for i, m in enumerate(p.melds) if m.kind == "pung" and m.first == tile), None)
        if i is None:
            raise BotzoneError(f"Player {seat} has no pung of {to_botzone(tile)} to add to.")
        self._remove(game, seat, [tile])
        game.any_call = True
        game.turn, game.drawn, game.phase = seat, None, "between"
        game.kong_in_progress = (seat, tile)
        self._robbed = (seat, tile, i)

    # -- the answers
    def _answer(self, req: Request) -> str:
        game = self.game
        if game is None or req.kind in ("seat", "deal"):
            return "PASS"
        if req.kind == "draw":
            return self._turn(game)
        assert req.player is not None
        if req.verb in ("PLAY", "PENG", "CHI") and req.player != self.me:
            return self._claim(game, req.player)
        if req.verb == "BUGANG":
            return self._rob(game, req.player)
        return "PASS"

    def _turn(self, game: Game) -> str:
        action = self._bot.choose(game, self.me)
        p = game.players[self.me]
        t = action.tile
        if action.kind == "win":
            return "HU"
        if action.kind == "kong" and t is not None:
            return (
                f"GANG {to_botzone(t)}" if p.concealed.count(t) == 4 else f"BUGANG {to_botzone(t)}"
            )
        if action.kind == "discard" and t is not None:
            return f"PLAY {to_botzone(t)}"
        raise BotzoneError(
            f"The bot chose {action}, which Botzone has no word for."
        )  # pragma: no cover

    def _claim(self, game: Game, discarder: int) -> str:
        assert game.last_discard is not None
        tile = game.last_discard[1]
        options = game._claims(discarder, tile).get(self.me)
        if not options:
            return "PASS"
        game.phase, game.pending, game.responses = "respond", {self.me: options}, {}
        try:
            action = self._bot.choose(game, self.me)
            if action.kind == "win":
                return "HU"
            if action.kind == "kong":
                return "GANG"
            if action.kind in ("pung", "chow") and action.tile is not None:
                out = self._after_claim(game, action)
                if action.kind == "pung":
                    return f"PENG {to_botzone(out)}"
                return f"CHI {to_botzone(action.tile + 1)} {to_botzone(out)}"
            return "PASS"
        finally:
            game.phase, game.pending, game.responses = "between", {}, {}

    def _after_claim(self, game: Game, claim: Action) -> int:
        """The discard the bot makes after ``claim`` (asked on a copy of the
        game in which the engine has made the claim)."""
        trial = copy.deepcopy(game)
        trial.apply(claim)
        discard = self._bot.choose(trial, self.me)
        if discard.kind != "discard" or discard.tile is None:  # pragma: no cover - engine's rules
            raise BotzoneError(f"The bot chose {discard} after its claim.")
        return discard.tile

    def _rob(self, game: Game, seat: int) -> str:
        _, tile, _ = self._robbed
        answer = "PASS"
        if seat != self.me and game.can_win(
            self.me, tile, self_drawn=False, discarder=seat, robbing=True
        ):
            game.phase = "rob"
            game.pending = {self.me: [Action(self.me, "win"), Action(self.me, "pass")]}
            game.responses = {}
            if self._bot.choose(game, self.me).kind == "win":
                answer = "HU"
            game.phase, game.pending, game.responses = "between", {}, {}
        return answer

    def _settle_kong(self, game: Game) -> None:
        """The added kong stands: the next request came (a robbed one ends the hand)."""
        kong_seat, tile, i = self._robbed
        game.players[kong_seat].melds[i] = Meld.kong(tile)
        game.kong_in_progress = None


# ---------------------------------------------------------------------- the two forms
def replay(driver: Driver, requests: Sequence[str], responses: Sequence[str]) -> str:
    """Answer the last of ``requests`` after replaying the turns before it."""
    if not requests:
        raise BotzoneError("The input holds no request.")
    if len(responses) < len(requests) - 1:
        raise BotzoneError("The input holds fewer responses than past requests.")
    for req, resp in zip(requests[:-1], responses, strict=False):
        driver.observe(req, resp)
    return driver.respond(requests[-1])


def _json_turn(obj: Any) -> tuple[list[str], list[str]]:
    if isinstance(obj, str):
        return [obj], []
    if not isinstance(obj, dict) or not isinstance(obj.get("requests"), list):
        raise BotzoneError('A JSON input is an object with "requests" and "responses".')
    requests = [str(r) for r in obj["requests"]]
    responses = [str(r) for r in obj.get("responses") or []]
    return requests, responses


def _safe(say: Any, turn: Any) -> str:
    """Run one turn; a bad input is one sentence on stderr and a PASS."""
    try:
        return str(turn())
    except BotzoneError as e:
        say(str(e))
        return e.answer
    except Exception as e:  # pragma: no cover - a last guard: never a traceback
        say(f"The request could not be followed ({type(e).__name__}: {e}).")
    return "PASS"


def run(
    bot: str,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    json_form: bool | None = None,
    keep_running: bool = False,
    seed: int = 0,
) -> int:
    """Play as a Botzone bot over ``stdin``/``stdout``.

    The form is detected from the first character unless ``json_form`` is
    given: ``{`` is JSON (one line ``{"requests": [...], "responses": [...]}``,
    answered with ``{"response": "..."}``), anything else the simple form (a
    turn count, then that many requests with the responses between them).
    With ``keep_running`` the bot prints :data:`KEEP_RUNNING` after each
    answer and reads the next turn's request alone, one line (JSON: the
    request as a JSON string, or a whole object again).
    """
    driver = Driver(bot, seed)

    def say(msg: str) -> None:
        stderr.write(f"hefen botzone: {msg}\n")
        stderr.flush()

    def answer(text: str, as_json: bool) -> None:
        stdout.write((json.dumps({"response": text}) if as_json else text) + "\n")
        if keep_running:
            stdout.write(KEEP_RUNNING + "\n")
        stdout.flush()

    first = _read_nonblank(stdin)
    if first is None:
        say("The input is empty: no request to answer.")
        return 1
    as_json = first.lstrip().startswith("{") if json_form is None else json_form
    if as_json:
        answer(_safe(say, lambda: _json_first(driver, first)), True)
    else:
        answer(_safe(say, lambda: _simple_first(driver, first, stdin)), False)
    while keep_running:
        line = _read_nonblank(stdin)
        if line is None:
            return 0
        if as_json:
            answer(_safe(say, partial(_json_next, driver, line)), True)
        else:
            answer(_safe(say, partial(_simple_next, driver, line, stdin)), False)
    return 0


def _read_nonblank(stdin: TextIO) -> str | None:
    while True:
        line = stdin.readline()
        if not line:
            return None
        if line.strip():
            return line.rstrip("\r\n")


def _json_first(driver: Driver, line: str) -> str:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        raise BotzoneError("The input is not JSON.") from None
    return replay(driver, *_json_turn(obj))


def _json_next(driver: Driver, line: str) -> str:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        raise BotzoneError("The input is not JSON.") from None
    requests, responses = _json_turn(obj)
    if len(requests) > 1:  # the whole history again: start over
        driver.reset()
        return replay(driver, requests, responses)
    return driver.respond(requests[0])


def _simple_first(driver: Driver, first: str, stdin: TextIO) -> str:
    words = first.split()
    if len(words) != 1 or not words[0].isdigit() or int(words[0]) < 1:
        raise BotzoneError(
            f"The simple form starts with the number of turns, not {safe_repr(first[:40])}."
        )
    n = int(words[0])
    lines = [stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
    if any(line == "" for line in lines[-1:]):
        raise BotzoneError(f"The input ends before the {2 * n - 1} lines of {n} turns.")
    return replay(driver, lines[0::2], lines[1::2])


def _simple_next(driver: Driver, line: str, stdin: TextIO) -> str:
    words = line.split()
    if len(words) == 1 and words[0].isdigit():  # a whole history again
        driver.reset()
        return _simple_first(driver, line, stdin)
    return driver.respond(line)
