"""The pure, storage-free heart of a table: events, the fold, and command planning.

A table is the list of its events. :func:`fold` turns that list into a
:class:`TableState` (seats, settings, hands with running balances, the next
hand's position). Each ``plan_*`` function validates a request against the
current state and returns the ``(kind, payload)`` of the one event that
carries it out, or raises :class:`TableError` — it never changes anything, so
a refused request leaves no trace. :mod:`hefen.table.storage` appends the
planned event in its own transaction.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from hefen.ruleset import find_ruleset
from hefen.table.errors import TableError
from hefen.table.progression import Position, dealer_keeps, first_position, next_position
from hefen.table.settings import Settings, check_ruleset, make_settings
from hefen.table.settlement import (
    WINDS,
    Amount,
    check_value,
    settle,
    to_amount,
    to_fraction,
)

EVENT_KINDS: tuple[str, ...] = (
    "table_created",
    "player_joined",
    "seat_released",
    "player_renamed",
    "settings_changed",
    "hand_recorded",
    "hand_undone",
    "hand_corrected",
    "game_opened",
    "bots_seated",
    "game_line",
)

#: The event kind of one line of an online game's record (:mod:`hefen.game.record`).
GAME_LINE = "game_line"

#: The refusal for recording, undoing or correcting a hand of an online game by hand.
GAME_HANDS = "This table is an online game: its hands are recorded as they are played."

MAX_NAME = 40

ScoreFn = Callable[[dict[str, Any]], dict[str, Any]]


def hash_token(token: str) -> str:
    """The stored form of a secret token (only hashes are ever stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Event:
    """One immutable event row: ``seq`` counts from 1 within a table."""

    seq: int
    kind: str
    at: str
    actor: str
    payload: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The event for display or export (token hashes left out)."""
        payload = {k: v for k, v in self.payload.items() if not k.endswith("_hash")}
        return {
            "seq": self.seq,
            "kind": self.kind,
            "at": self.at,
            "actor": self.actor,
            "payload": payload,
        }


@dataclass(frozen=True)
class Seat:
    """A seat: ``index`` 0–3, the wind it started with, its player's name, and
    whether a player has joined it (holds the seat's token)."""

    index: int
    initial_wind: str
    name: str
    joined: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "initial_wind": self.initial_wind,
            "name": self.name,
            "joined": self.joined,
        }


@dataclass(frozen=True)
class SeatPayment:
    """Seat ``payer`` pays ``amount`` to seat ``payee``."""

    payer: int
    payee: int
    amount: Amount

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


@dataclass(frozen=True)
class HandRecord:
    """One hand of the table's history as it stands now (corrections applied).

    ``id`` is the ``seq`` of the event that first recorded the hand and never
    changes; ``number`` is its place in the history (1 = first hand).
    ``kind`` is ``"win"`` or ``"draw"``; for a win, ``source`` is ``"scored"``
    (the engine scored ``hand``, its result object is ``result``) or
    ``"entered"`` (``value`` was entered directly). ``value`` is in ``unit``
    (points, fan or tai). ``position`` is the table position the hand was
    played in. ``changes`` and ``balances`` are per seat (index 0–3): what the
    hand moved and the running balances after it. ``corrections`` lists the
    ``seq`` of every correction applied to the hand.
    """

    id: int
    number: int
    kind: str
    winner: int | None
    discarder: int | None
    self_draw: bool
    source: str | None
    value: int | None
    unit: str
    hand: dict[str, Any] | None
    result: dict[str, Any] | None
    position: Position
    options: dict[str, Any]
    dealer_keeps_on_draw: bool
    payments: tuple[SeatPayment, ...]
    changes: tuple[Amount, Amount, Amount, Amount]
    balances: tuple[Amount, Amount, Amount, Amount]
    recorded_at: str
    recorded_by: str
    corrections: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The hand as plain data (made once per record, which never changes;
        each call gets its own top-level dict)."""
        kept: dict[str, Any] | None = self.__dict__.get("_as_dict")
        if kept is None:
            kept = self._to_dict()
            object.__setattr__(self, "_as_dict", kept)
        return dict(kept)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text (encoded once per record)."""
        kept: str | None = self.__dict__.get("_as_json")
        if kept is None:
            kept = json.dumps(self.to_dict(), ensure_ascii=False)
            object.__setattr__(self, "_as_json", kept)
        return kept

    def _to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "number": self.number,
            "kind": self.kind,
            "winner": self.winner,
            "discarder": self.discarder,
            "self_draw": self.self_draw,
            "source": self.source,
            "value": self.value,
            "unit": self.unit,
            "hand": self.hand,
            "result": self.result,
            "position": self.position.to_dict(),
            "options": dict(self.options),
            "dealer_keeps_on_draw": self.dealer_keeps_on_draw,
            "payments": [p.to_dict() for p in self.payments],
            "changes": list(self.changes),
            "balances": list(self.balances),
            "recorded_at": self.recorded_at,
            "recorded_by": self.recorded_by,
            "corrections": list(self.corrections),
        }


@dataclass(frozen=True)
class GameInfo:
    """What makes a table an online game: who plays each seat (a bot's name,
    or ``None`` for a human), how many hands the match lasts, and how many
    lines its game record (the ``game_line`` events) has so far."""

    bots: tuple[str | None, str | None, str | None, str | None]
    hands: int
    lines: int = 0  # how many lines its game record has

    def to_dict(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "hands": self.hands, "lines": self.lines}


@dataclass(frozen=True)
class TableState:
    """A table as the fold of its events.

    ``next`` is the position of the next hand (its number, game, round wind,
    dealer seat, dealer streak and each seat's wind). ``balances`` are per
    seat. ``version`` is the ``seq`` of the last event: it changes exactly
    when the table changes.
    """

    code: str
    ruleset: str
    created_at: str
    settings: Settings
    seats: tuple[Seat, Seat, Seat, Seat]
    hands: tuple[HandRecord, ...]
    balances: tuple[Amount, Amount, Amount, Amount]
    next: Position
    version: int
    host_token_hash: str = field(repr=False, default="")
    seat_token_hashes: tuple[str | None, ...] = field(repr=False, default=())
    game: GameInfo | None = None

    def to_dict(self) -> dict[str, Any]:
        """The state as plain JSON-ready data (no secrets); an online game's
        table also has ``game`` (its bots and length)."""
        return self._to_dict([h.to_dict() for h in self.hands])

    def _to_dict(self, hands: list[dict[str, Any]]) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "ruleset": self.ruleset,
            "created_at": self.created_at,
            "settings": self.settings.to_dict(),
            "seats": [s.to_dict() for s in self.seats],
            "hands": hands,
            "balances": list(self.balances),
            "next": self.next.to_dict(),
            "version": self.version,
        }
        if self.game is not None:
            data["game"] = self.game.to_dict()
        return data

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text, made once per state: each hand's
        text is kept with its record, so a table of hundreds of hands costs
        a join, not an encoding, after each new hand."""
        kept: str | None = self.__dict__.get("_as_json")
        if kept is None:
            head = json.dumps(self._to_dict([]), ensure_ascii=False)
            hands = ", ".join(h.to_json() for h in self.hands)
            marker = '"hands": []'
            at = head.index(marker)
            kept = f'{head[:at]}"hands": [{hands}]{head[at + len(marker) :]}'
            object.__setattr__(self, "_as_json", kept)
        return kept

    def hand(self, hand_id: int) -> HandRecord:
        for record in self.hands:
            if record.id == hand_id:
                return record
        raise TableError(f"This table has no hand with id {hand_id}.")


@dataclass(frozen=True)
class Actor:
    """Who a token belongs to: the host, a seat, or both never (tokens are distinct)."""

    host: bool
    seat: int | None

    @property
    def label(self) -> str:
        return "host" if self.host else f"seat:{self.seat}"


# --------------------------------------------------------------------------- fold


@dataclass
class _Entry:
    id: int
    outcome: dict[str, Any]
    recorded_at: str
    recorded_by: str
    corrections: list[int]


def _settings_from(ruleset: str, data: Mapping[str, Any]) -> Settings:
    return Settings(
        ruleset=ruleset,
        options=dict(data["options"]),
        dealer_keeps_on_draw=bool(data["dealer_keeps_on_draw"]),
    )


def fold(events: Sequence[Event]) -> TableState:
    """The table state: the fold of its events, in ``seq`` order."""
    return Folder(events).state()


class Folder:
    """A table's fold kept up to date: :meth:`add` folds only the new events,
    and the history (hands, running balances) is rebuilt only from the first
    hand an event changes (a recorded hand at the end adds one record;
    an undo, a correction or a settings change rebuilds it). ``state()`` is
    always equal to :func:`fold` of every event added so far."""

    def __init__(self, events: Sequence[Event]) -> None:
        if not events or events[0].kind != "table_created":
            raise TableError("A table's first event must be its creation.")
        created = events[0]
        p = created.payload
        self.created = created
        self.ruleset: str = p["ruleset"]
        self.code: str = p["code"]
        self.settings = _settings_from(self.ruleset, p["settings"])
        self.names: list[str] = list(p["names"])
        self.hashes: list[str | None] = [None, None, None, None]
        self.host_hash: str = p["host_token_hash"]
        self.entries: dict[int, _Entry] = {}
        self.order: list[int] = []
        self.bots: list[str | None] | None = None
        self.game_hands = 0
        self.game_lines = 0
        self.version = created.seq
        # the history as folded so far: valid for order[:len(hands)]
        self.hands: list[HandRecord] = []
        self.runs: list[list[Fraction]] = []  # the exact running balances after each hand
        self.running = [Fraction(0)] * 4
        self.position = first_position(self.ruleset)
        self._state: TableState | None = None
        self.add(events[1:])

    def copy(self) -> Folder:
        """An independent folder at the same point (to fold events not yet stored)."""
        other = copy.copy(self)
        other.names, other.hashes, other.order = (
            list(self.names),
            list(self.hashes),
            list(self.order),
        )
        other.entries = {
            k: _Entry(e.id, e.outcome, e.recorded_at, e.recorded_by, list(e.corrections))
            for k, e in self.entries.items()
        }
        other.bots = None if self.bots is None else list(self.bots)
        other.hands, other.running = list(self.hands), list(self.running)
        other.runs = list(self.runs)
        return other

    def add(self, events: Sequence[Event]) -> None:
        """Fold ``events`` (those not newer than the last one folded are skipped)."""
        for ev in events:
            if ev.seq <= self.version:
                continue
            if ev.seq != self.version + 1:
                raise TableError(f"Table {self.code} is missing event {self.version + 1}.")
            self._add(ev)
            self.version = ev.seq
            self._state = None

    def _stale_from(self, index: int) -> None:
        """The history from hand ``index`` on must be rebuilt."""
        if index < len(self.hands):
            del self.hands[index:]
            del self.runs[index:]
            if self.hands:
                last = self.hands[-1]
                self.running = list(self.runs[-1])
                o = self.entries[last.id].outcome
                self.position = next_position(
                    last.position,
                    winner=o["winner"],
                    dealer_keeps_on_draw=bool(o["settings"]["dealer_keeps_on_draw"]),
                )
            else:
                self.running = [Fraction(0)] * 4
                self.position = first_position(self.ruleset)

    def _add(self, ev: Event) -> None:
        q = ev.payload
        if ev.kind == "player_joined":
            self.names[q["seat"]] = q["name"]
            self.hashes[q["seat"]] = q["token_hash"]
        elif ev.kind == "seat_released":
            self.hashes[q["seat"]] = None
        elif ev.kind == "player_renamed":
            self.names[q["seat"]] = q["name"]
        elif ev.kind == "settings_changed":
            self.settings = _settings_from(self.ruleset, q["settings"])
            self._stale_from(0)  # every hand shows the table's unit
        elif ev.kind == "hand_recorded":
            self.entries[ev.seq] = _Entry(ev.seq, q["outcome"], ev.at, ev.actor, [])
            self.order.append(ev.seq)
        elif ev.kind == "hand_undone":
            index = self.order.index(q["hand"])
            self.order.remove(q["hand"])
            self._stale_from(index)
        elif ev.kind == "hand_corrected":
            entry = self.entries[q["hand"]]
            entry.outcome = q["outcome"]
            entry.corrections.append(ev.seq)
            self._stale_from(self.order.index(q["hand"]))
        elif ev.kind == "game_opened":
            self.bots = list(q["bots"])
            self.game_hands = int(q["hands"])
        elif ev.kind == GAME_LINE:
            self.game_lines += 1
        elif ev.kind == "bots_seated" and self.bots is not None:
            for seat in range(4):
                if q["bots"][seat] is not None:
                    self.bots[seat] = q["bots"][seat]
                    self.names[seat] = q["names"][seat]
        else:
            raise TableError(f"Unknown event kind {ev.kind!r} in table {self.code}.")

    def _history(self) -> None:
        """Fold the hands not yet in the history."""
        unit = self.settings.unit
        for number in range(len(self.hands) + 1, len(self.order) + 1):
            hand_id = self.order[number - 1]
            entry = self.entries[hand_id]
            o = entry.outcome
            changes = [Fraction(0)] * 4
            payments: list[SeatPayment] = []
            for pay in o["payments"]:
                amount = to_fraction(pay["amount"])
                changes[pay["from"]] -= amount
                changes[pay["to"]] += amount
                payments.append(SeatPayment(pay["from"], pay["to"], pay["amount"]))
            self.running = [r + c for r, c in zip(self.running, changes, strict=True)]
            self.runs.append(self.running)
            self.hands.append(
                HandRecord(
                    id=hand_id,
                    number=number,
                    kind=o["kind"],
                    winner=o["winner"],
                    discarder=o["discarder"],
                    self_draw=o["kind"] == "win" and o["discarder"] is None,
                    source=o["source"],
                    value=o["value"],
                    unit=unit,
                    hand=o["hand"],
                    result=o["result"],
                    position=self.position,
                    options=dict(o["settings"]["options"]),
                    dealer_keeps_on_draw=bool(o["settings"]["dealer_keeps_on_draw"]),
                    payments=tuple(payments),
                    changes=_four(changes),
                    balances=_four(self.running),
                    recorded_at=entry.recorded_at,
                    recorded_by=entry.recorded_by,
                    corrections=tuple(entry.corrections),
                )
            )
            self.position = next_position(
                self.position,
                winner=o["winner"],
                dealer_keeps_on_draw=bool(o["settings"]["dealer_keeps_on_draw"]),
            )

    def state(self) -> TableState:
        """The table as of the last event folded."""
        if self._state is not None:
            return self._state
        self._history()
        names, hashes, bots = self.names, self.hashes, self.bots
        seats = tuple(Seat(i, WINDS[i], names[i], hashes[i] is not None) for i in range(4))
        self._state = TableState(
            code=self.code,
            ruleset=self.ruleset,
            created_at=self.created.at,
            settings=self.settings,
            seats=(seats[0], seats[1], seats[2], seats[3]),
            hands=tuple(self.hands),
            balances=_four(self.running),
            next=self.position,
            version=self.version,
            host_token_hash=self.host_hash,
            seat_token_hashes=tuple(hashes),
            game=None
            if bots is None
            else GameInfo((bots[0], bots[1], bots[2], bots[3]), self.game_hands, self.game_lines),
        )
        return self._state


def _four(values: Sequence[Fraction]) -> tuple[Amount, Amount, Amount, Amount]:
    return (
        to_amount(values[0]),
        to_amount(values[1]),
        to_amount(values[2]),
        to_amount(values[3]),
    )


# ------------------------------------------------------------------ validation


def check_name(name: Any) -> str:
    """A player's name, trimmed; raises :class:`TableError` if unusable."""
    if not isinstance(name, str):
        raise TableError("A player's name must be text.")
    clean = unicodedata.normalize("NFC", " ".join(name.split()))
    if not clean:
        raise TableError("A player's name cannot be empty.")
    if len(clean) > MAX_NAME:
        raise TableError(f"A player's name can have at most {MAX_NAME} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in clean):
        raise TableError("A player's name cannot contain control characters.")
    return clean


def check_seat(seat: Any, what: str = "seat") -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
        raise TableError(f"The {what} must be a seat number from 0 to 3, not {seat!r}.")
    return seat


def authorize(state: TableState, token: Any, *, host_only: bool = False) -> Actor:
    """The actor a token belongs to; :class:`TableError` if it is not valid here."""
    if not isinstance(token, str) or not token:
        raise TableError("This action needs your table token.")
    digest = hash_token(token)
    if hmac.compare_digest(digest, state.host_token_hash):
        return Actor(host=True, seat=None)
    if host_only:
        raise TableError("Only the table's host can do this.")
    for seat, seat_hash in enumerate(state.seat_token_hashes):
        if seat_hash is not None and hmac.compare_digest(digest, seat_hash):
            return Actor(host=False, seat=seat)
    raise TableError("This token does not belong to this table.")


# ------------------------------------------------------------------- planning


def plan_create(
    *,
    code: str,
    ruleset: str,
    options: Mapping[str, Any] | None,
    dealer_keeps_on_draw: bool,
    names: Sequence[str | None] | None,
    host_token_hash: str,
) -> dict[str, Any]:
    """Payload of ``table_created``."""
    check_ruleset(ruleset)
    settings = make_settings(ruleset, options, dealer_keeps_on_draw)
    given = list(names) if names is not None else []
    if len(given) > 4:
        raise TableError("A table has four seats; give at most four names.")
    given += [None] * (4 - len(given))
    clean = [
        check_name(n) if n is not None and str(n).strip() else f"Player {i + 1}"
        for i, n in enumerate(given)
    ]
    return {
        "code": code,
        "ruleset": ruleset,
        "settings": _settings_payload(settings),
        "names": clean,
        "host_token_hash": host_token_hash,
    }


def _settings_payload(settings: Settings) -> dict[str, Any]:
    return {
        "options": dict(settings.options),
        "dealer_keeps_on_draw": settings.dealer_keeps_on_draw,
    }


def plan_join(state: TableState, seat: Any, name: Any, token_hash: str) -> dict[str, Any]:
    seat = check_seat(seat)
    if state.game is not None and state.game.bots[seat] is not None:
        raise TableError(f"Seat {seat} is played by a bot.")
    if state.seats[seat].joined:
        raise TableError(f"Seat {seat} ({state.seats[seat].name}) is already taken.")
    clean = state.seats[seat].name if name is None else check_name(name)
    return {"seat": seat, "name": clean, "token_hash": token_hash}


def plan_release(state: TableState, actor: Actor, seat: Any) -> dict[str, Any]:
    seat = check_seat(seat)
    if not actor.host and actor.seat != seat:
        raise TableError("Only the seat's own player or the host can free this seat.")
    if not state.seats[seat].joined:
        raise TableError(f"Seat {seat} is not taken.")
    return {"seat": seat}


def plan_rename(state: TableState, actor: Actor, seat: Any, name: Any) -> dict[str, Any]:
    seat = check_seat(seat)
    if not actor.host and actor.seat != seat:
        raise TableError("Only the seat's own player or the host can rename this seat.")
    return {"seat": seat, "name": check_name(name)}


def plan_settings(
    state: TableState,
    options: Mapping[str, Any] | None,
    dealer_keeps_on_draw: bool | None,
) -> dict[str, Any] | None:
    """Payload of ``settings_changed``, or ``None`` when nothing would change."""
    if state.game is not None:
        raise TableError("An online game keeps the settings it was opened with.")
    if options is not None and not isinstance(options, Mapping):
        raise TableError("The table options must be an object of option names and values.")
    merged = dict(state.settings.options)
    merged.update(options or {})
    keep = (
        state.settings.dealer_keeps_on_draw
        if dealer_keeps_on_draw is None
        else dealer_keeps_on_draw
    )
    new = make_settings(state.ruleset, merged, keep)
    old_eff = state.settings.effective_options
    new_eff = new.effective_options
    changed = sorted(k for k in new_eff if new_eff[k] != old_eff.get(k))
    if not changed and new.dealer_keeps_on_draw == state.settings.dealer_keeps_on_draw:
        return None
    if new.dealer_keeps_on_draw != state.settings.dealer_keeps_on_draw:
        changed.append("dealer_keeps_on_draw")
    return {"settings": _settings_payload(new), "changed": changed}


def plan_outcome(
    state: TableState,
    position: Position,
    settings: Settings,
    *,
    draw: bool,
    winner: Any = None,
    discarder: Any = None,
    hand: Mapping[str, Any] | None = None,
    value: Any = None,
    score: ScoreFn | None = None,
) -> dict[str, Any]:
    """The stored outcome of one hand played at ``position`` under ``settings``."""
    base = {
        "position": position.to_dict(),
        "settings": _settings_payload(settings),
    }
    if draw:
        if winner is not None or discarder is not None or hand is not None or value is not None:
            raise TableError("A drawn hand has no winner, discarder, hand or value.")
        return {
            "kind": "draw",
            "winner": None,
            "discarder": None,
            "source": None,
            "value": None,
            "hand": None,
            "result": None,
            "payments": [],
            **base,
        }
    winner = check_seat(winner, "winner")
    if discarder is not None:
        discarder = check_seat(discarder, "discarder")
        if discarder == winner:
            raise TableError("The winner cannot also be the discarder.")
    if (hand is None) == (value is None):
        raise TableError("Give either the hand to score or its value, not both and not neither.")
    winds = position.seat_winds
    win_wind = winds[winner]
    dis_wind = None if discarder is None else winds[discarder]
    dealer_wind = winds[position.dealer]
    if value is not None:
        effective = settings.effective_options
        check_value(state.ruleset, value, effective)
        wind_payments = [
            p.to_dict()
            for p in settle(
                state.ruleset,
                value,
                winner=win_wind,
                discarder=dis_wind,
                dealer=dealer_wind,
                dealer_streak=position.dealer_streak,
                options=effective,
            )
        ]
        source = "entered"
        hand_obj: dict[str, Any] | None = None
        result: dict[str, Any] | None = None
        total = value
    else:
        hand_obj = build_hand_object(
            state.ruleset, hand, position, settings, winner=winner, discarder=discarder
        )
        result = run_scorer(score, hand_obj, state.ruleset)
        wind_payments = list(result.get("payments") or [])
        source = "scored"
        total = result.get("total")
    payments = _seat_payments(wind_payments, winds, winner)
    return {
        "kind": "win",
        "winner": winner,
        "discarder": discarder,
        "source": source,
        "value": total,
        "hand": hand_obj,
        "result": result,
        "payments": payments,
        **base,
    }


def _seat_payments(
    wind_payments: Sequence[Mapping[str, Any]], winds: Sequence[str], winner: int
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for pay in wind_payments:
        try:
            payer = winds.index(pay["from"])
            payee = winds.index(pay["to"])
            amount = pay["amount"]
            frac = to_fraction(amount)
        except (KeyError, ValueError, TypeError) as exc:
            raise TableError(
                f"The scorer returned a payment the table cannot read: {pay!r}."
            ) from exc
        if payee != winner or payer == winner or frac < 0:
            raise TableError(
                f"The scorer returned a payment that does not go to the winner: {pay!r}."
            )
        out.append({"from": payer, "to": payee, "amount": to_amount(frac)})
    return out


#: Context keys the table always fills in itself when the engine scores a hand.
TABLE_CONTEXT_KEYS = ("win", "seat_wind", "round_wind", "dealer", "dealer_streak", "discarder")


def build_hand_object(
    ruleset: str,
    hand: Any,
    position: Position,
    settings: Settings,
    *,
    winner: int,
    discarder: int | None,
) -> dict[str, Any]:
    """The interchange object to score: the player's hand with the table's context.

    The table sets ``rules``, ``options`` and the context keys it knows
    (:data:`TABLE_CONTEXT_KEYS`), replacing any values the hand carried;
    situational keys (last tile, kong replacement, …) are kept.
    """
    if not isinstance(hand, Mapping):
        raise TableError("The hand must be a hand object as described in hand-format.md.")
    try:
        obj: dict[str, Any] = copy.deepcopy(dict(hand))
        json.dumps(obj)
    except (TypeError, ValueError) as exc:
        raise TableError("The hand object must contain only JSON data.") from exc
    rules = obj.get("rules", ruleset)
    if rules != ruleset:
        raise TableError(f"This is a {ruleset} table; a {rules} hand cannot be recorded here.")
    context = obj.get("context") or {}
    if not isinstance(context, Mapping):
        raise TableError("The hand's context must be an object.")
    ctx = {k: v for k, v in context.items() if k not in TABLE_CONTEXT_KEYS}
    winds = position.seat_winds
    ctx["win"] = "self_draw" if discarder is None else "discard"
    ctx["seat_wind"] = winds[winner]
    ctx["round_wind"] = position.round_wind
    ctx["dealer"] = winds[position.dealer]
    if find_ruleset(ruleset).scores_dealer_streak:
        ctx["dealer_streak"] = position.dealer_streak
    if discarder is not None:
        ctx["discarder"] = winds[discarder]
    obj["rules"] = ruleset
    obj["context"] = ctx
    obj["options"] = dict(settings.options)
    return obj


def default_score(obj: dict[str, Any]) -> dict[str, Any]:
    """Score with ``hefen.score`` (the project's engine) and return the result object."""
    import hefen

    scorer = getattr(hefen, "score", None)
    if scorer is None:
        raise TableError(
            "Scoring from the tiles is not available in this installation; enter the value."
        )
    result = scorer(obj)
    data = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(data, dict):
        raise TableError("The scorer returned something that is not a result object.")
    return data


def run_scorer(score: ScoreFn | None, obj: dict[str, Any], ruleset: str) -> dict[str, Any]:
    fn = score or default_score
    try:
        result = fn(obj)
    except TableError:
        raise
    except Exception as exc:  # the engine's own error, reported as one sentence
        message = str(exc).strip() or type(exc).__name__
        raise TableError(f"The hand could not be scored: {message}") from exc
    if not result.get("valid", False):
        raise TableError(str(result.get("error") or "The hand is not a valid hand."))
    if not result.get("winning", False):
        unit = result.get("unit", "")
        raise TableError(
            f"The hand is complete but, at {result.get('total')} {unit}, not a winning hand "
            "at this table."
        )
    try:
        json.dumps(result)
    except (TypeError, ValueError) as exc:
        raise TableError("The scorer returned a result that cannot be stored.") from exc
    return result


def plan_record(
    state: TableState,
    *,
    draw: bool,
    winner: Any = None,
    discarder: Any = None,
    hand: Mapping[str, Any] | None = None,
    value: Any = None,
    score: ScoreFn | None = None,
) -> dict[str, Any]:
    """Payload of ``hand_recorded``: the next hand, played at ``state.next``."""
    if state.game is not None:
        raise TableError(GAME_HANDS)
    outcome = plan_outcome(
        state,
        state.next,
        state.settings,
        draw=draw,
        winner=winner,
        discarder=discarder,
        hand=hand,
        value=value,
        score=score,
    )
    return {"outcome": outcome}


def _target(state: TableState, hand_id: Any) -> HandRecord:
    if not state.hands:
        raise TableError("No hand has been recorded at this table yet.")
    if hand_id is None:
        return state.hands[-1]
    if isinstance(hand_id, bool) or not isinstance(hand_id, int):
        raise TableError(f"A hand id must be a whole number, not {hand_id!r}.")
    return state.hand(hand_id)


def plan_undo(state: TableState, hand_id: Any = None) -> dict[str, Any]:
    """Payload of ``hand_undone``; only the latest hand can be undone."""
    if state.game is not None:
        raise TableError(GAME_HANDS)
    record = _target(state, hand_id)
    if record is not state.hands[-1]:
        raise TableError(
            f"Only the latest hand (number {state.hands[-1].number}) can be undone; "
            f"correct hand {record.number} instead."
        )
    return {"hand": record.id, "number": record.number}


def plan_correct(
    state: TableState,
    hand_id: Any,
    *,
    draw: bool,
    winner: Any = None,
    discarder: Any = None,
    hand: Mapping[str, Any] | None = None,
    value: Any = None,
    score: ScoreFn | None = None,
) -> dict[str, Any]:
    """Payload of ``hand_corrected``: a new outcome for an existing hand.

    The hand is re-settled in its own position under the settings it was
    played with. A hand before the latest may be corrected only if the deal
    would have continued the same way (for HK and TW: the dealer still keeps
    or still passes the deal), because the later hands were played in that
    order; otherwise undo the later hands first.
    """
    if state.game is not None:
        raise TableError(GAME_HANDS)
    record = _target(state, hand_id)
    settings = Settings(state.ruleset, dict(record.options), record.dealer_keeps_on_draw)
    outcome = plan_outcome(
        state,
        record.position,
        settings,
        draw=draw,
        winner=winner,
        discarder=discarder,
        hand=hand,
        value=value,
        score=score,
    )
    if record is not state.hands[-1]:
        before = dealer_keeps(
            record.position,
            winner=record.winner,
            dealer_keeps_on_draw=settings.dealer_keeps_on_draw,
        )
        after = dealer_keeps(
            record.position,
            winner=outcome["winner"],
            dealer_keeps_on_draw=settings.dealer_keeps_on_draw,
        )
        if before != after:
            raise TableError(
                f"This correction would change who dealt the hands after hand {record.number}; "
                "undo those hands first."
            )
    return {"hand": record.id, "number": record.number, "outcome": outcome}


# ------------------------------------------------------------- online games

MAX_GAME_HANDS = 64


def check_bot(bot: Any) -> str | None:
    """A seat's player in an online game: a bot's name, or ``None`` (a human)."""
    if bot is None:
        return None
    if not isinstance(bot, str) or not bot.strip() or len(bot) > 32 or not bot.isprintable():
        raise TableError(f"A bot is named by a short word such as 'strong', not {bot!r}.")
    return bot


def plan_game_open(bots: Sequence[Any], hands: Any) -> dict[str, Any]:
    """Payload of ``game_opened``: the table becomes an online game."""
    if isinstance(bots, str | bytes) or len(bots) != 4:
        raise TableError("An online game names a bot or a human for each of its four seats.")
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_GAME_HANDS:
        raise TableError(f"An online game lasts from 1 to {MAX_GAME_HANDS} hands, not {hands!r}.")
    return {"bots": [check_bot(b) for b in bots], "hands": hands}


def plan_bots_seated(state: TableState, bot: Any) -> dict[str, Any] | None:
    """Payload of ``bots_seated``: ``bot`` takes every free human seat of an
    online game (named after itself); ``None`` when no seat is free."""
    game = state.game
    if game is None:
        raise TableError("Only an online game has seats for bots.")
    name = check_bot(bot)
    if name is None:
        raise TableError("Name the bot that takes the free seats.")
    seats = [s for s in range(4) if game.bots[s] is None and state.seat_token_hashes[s] is None]
    if not seats:
        return None
    return {
        "bots": [name if s in seats else None for s in range(4)],
        "names": [check_name(f"{name} bot {s + 1}") if s in seats else None for s in range(4)],
    }


def plan_game_hand(state: TableState, number: Any, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Payload of the ``hand_recorded`` event of hand ``number`` of an online
    game, as :meth:`hefen.game.Match.record` settled it (``{"outcome": ...}``)."""
    game = state.game
    if game is None:
        raise TableError("Only an online game records hands played on the server.")
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise TableError(f"A hand number is a whole number from 1, not {number!r}.")
    if number != len(state.hands) + 1:
        raise TableError(
            f"This game has {len(state.hands)} hands recorded; hand {number} cannot follow."
        )
    if number > game.hands:
        raise TableError(f"This game lasts {game.hands} hands; hand {number} is one too many.")
    outcome = payload.get("outcome") if isinstance(payload, Mapping) else None
    if not isinstance(outcome, Mapping) or outcome.get("kind") not in ("win", "draw"):
        raise TableError("A game's hand is recorded with the outcome its match settled.")
    for pay in outcome.get("payments") or []:
        ok = (
            isinstance(pay, Mapping)
            and pay.get("from") in range(4)
            and pay.get("to") in range(4)
            and pay.get("from") != pay.get("to")
        )
        if not ok:
            raise TableError(f"A game's payment must go from one seat to another: {pay!r}.")
        try:
            negative = to_fraction(pay["amount"]) < 0
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise TableError(f"A game's payment has no readable amount: {pay!r}.") from exc
        if negative:
            raise TableError(f"A game's payment cannot be negative: {pay!r}.")
    try:
        json.dumps(dict(payload))
    except (TypeError, ValueError) as exc:
        raise TableError("A game's hand must contain only JSON data.") from exc
    return {"outcome": dict(outcome)}
