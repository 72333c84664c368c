"""Mahjong tables: scoring and settling every hand of an evening for four seats.

Public API (stable; see ``docs/table.md`` for the rules behind it)::

    from hefen.table import open_store, TableError

    store = open_store()                      # HEFEN_DATABASE_URL or the user's SQLite file
    t = store.create_table("tw", options={"base": 30, "per_tai": 10},
                           names=["Ann", "Bo", "Cy", "Di"])
    t.code, t.host_token                      # join code to share; host's secret token
    s = store.join(t.code, seat=1, name="Bo") # s.token: that seat's secret token
    rec = store.record_win(t.code, s.token, winner=1, discarder=0, value=3)
    rec = store.record_win(t.code, s.token, winner=2, hand={...})  # scored by hefen.score
    store.record_draw(t.code, t.host_token)
    store.undo(t.code, t.host_token)                               # the latest hand
    store.correct(t.code, t.host_token, rec.id, winner=2, discarder=3, value=5)
    store.change_settings(t.code, t.host_token, options={"per_tai": 20})
    state = store.get(t.code)                 # TableState: seats, hands, balances, next
    store.version(t.code)                     # cheap int to poll; changes iff the table did
    store.events(t.code)                      # the audit trail (list[Event])
    store.export_csv(t.code); store.export_json(t.code)

Seats are numbered 0–3 in turn order; seat ``i`` starts with wind
``"ESWN"[i]``. ``state.next`` is the next hand's :class:`Position`:
``hand_number``, ``game``, ``round_wind``, ``dealer`` (a seat),
``dealer_streak`` and ``seat_winds`` (the wind of each seat).

Tokens: the creator gets the host token; each joined seat gets its own.
Any token of the table may record, undo and correct hands (the event names
who did it); only the host changes settings; a seat is freed by its own
player or the host (``release_seat``), and renamed likewise
(``rename_seat``). Reading (``get``, ``events``, exports) needs only the
join code.

Every failure is a :class:`TableError` with one clear sentence, raised
before anything is written. Options are checked by the scorer's own
``hefen.<ruleset>.resolve_options``: ``settings.options`` is what the table
chose, ``settings.effective_options`` all values with defaults. Amounts are
``int`` (``float`` only if a scorer ever returned a fractional amount).

The pure layer (no database) is importable too: :func:`fold` turns a list
of :class:`Event` into a :class:`TableState`; :func:`settle` settles a
directly entered value by the ruleset's payment rules; :func:`first_position`
and :func:`next_position` are the dealer / seat-wind progression.
"""

from __future__ import annotations

from hefen.table.core import (
    EVENT_KINDS,
    TABLE_CONTEXT_KEYS,
    Actor,
    Event,
    HandRecord,
    Seat,
    SeatPayment,
    TableState,
    build_hand_object,
    fold,
)
from hefen.table.errors import TableError
from hefen.table.export import to_csv, to_json
from hefen.table.progression import Position, dealer_keeps, first_position, next_position
from hefen.table.settings import (
    Settings,
    default_options,
    make_settings,
    resolve_options,
)
from hefen.table.settlement import WINDS, Amount, Payment, settle
from hefen.table.storage import (
    CODE_ALPHABET,
    DATABASE_URL_ENV,
    CreatedTable,
    JoinedSeat,
    TableStore,
    create_db_engine,
    default_database_url,
    migrate,
    normalize_code,
    open_store,
)

__all__ = [
    "CODE_ALPHABET",
    "DATABASE_URL_ENV",
    "EVENT_KINDS",
    "TABLE_CONTEXT_KEYS",
    "WINDS",
    "Actor",
    "Amount",
    "CreatedTable",
    "Event",
    "HandRecord",
    "JoinedSeat",
    "Payment",
    "Position",
    "Seat",
    "SeatPayment",
    "Settings",
    "TableError",
    "TableState",
    "TableStore",
    "build_hand_object",
    "create_db_engine",
    "dealer_keeps",
    "default_database_url",
    "default_options",
    "first_position",
    "fold",
    "make_settings",
    "migrate",
    "next_position",
    "normalize_code",
    "resolve_options",
    "open_store",
    "settle",
    "to_csv",
    "to_json",
]
