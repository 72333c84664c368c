"""Persistent tables: an event log in SQLite (default) or PostgreSQL.

:func:`open_store` opens the database named by ``HEFEN_DATABASE_URL`` (or
the argument), creating ``platformdirs.user_data_dir("hefen")/hefen.sqlite3``
when none is named, and brings the schema up to date with the Alembic
migrations shipped in ``hefen/table/migrations``. Every change to a table
appends exactly one event row and commits it in its own transaction before
the method returns, so a process killed at any moment loses no recorded hand
and never leaves half an action behind.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from hefen.table import core
from hefen.table.core import GAME_LINE, Actor, Event, HandRecord, ScoreFn, TableState
from hefen.table.errors import TableError

DATABASE_URL_ENV = "HEFEN_DATABASE_URL"
#: How hard a SQLite file's commits reach the disk (``PRAGMA synchronous``).
SQLITE_SYNC_ENV = "HEFEN_SQLITE_SYNC"
#: ``normal`` (the default): in WAL mode a commit survives the process being
#: killed and never corrupts the file; only an operating-system crash or a
#: power cut may lose the last commits. ``full``: every commit is flushed to
#: the disk before it is answered, at about 0.5 ms more a hand.
SQLITE_SYNC_MODES = ("normal", "full")
VERSION_TABLE = "hefen_table_alembic_version"
#: Join codes use only characters that cannot be confused (no 0/O, 1/I/L).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_RETRIES = 8
#: tables whose fold a store keeps in memory (least recently used dropped first)
CACHE_TABLES = 2048
#: recent keyed changes whose resulting table is kept for the answer (see
#: :meth:`TableStore.state_of_key`); older ones are read back from the events
CACHE_KEYS = 1024

metadata = sa.MetaData()

tables_table = sa.Table(
    "hefen_tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(16), nullable=False),
    sa.Column("ruleset", sa.String(8), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("code", name="uq_hefen_tables_code"),
)

events_table = sa.Table(
    "hefen_table_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "table_id",
        sa.Integer,
        sa.ForeignKey("hefen_tables.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("actor", sa.String(32), nullable=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.UniqueConstraint("table_id", "seq", name="uq_hefen_table_events_table_seq"),
)


keys_table = sa.Table(
    "hefen_idempotency_keys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "table_id",
        sa.Integer,
        sa.ForeignKey("hefen_tables.id", ondelete="CASCADE"),
        nullable=False,
    ),
    sa.Column("key", sa.String(80), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("secret", sa.String(80), nullable=True),
    sa.Column("at", sa.String(40), nullable=False),
    sa.UniqueConstraint("table_id", "key", name="uq_hefen_idempotency_table_key"),
)

#: the most characters an idempotency key may have
KEY_LENGTH = 80


def check_key(key: Any) -> str | None:
    """An idempotency key as stored (None: none given); :class:`TableError` if malformed."""
    if key is None:
        return None
    if (
        not isinstance(key, str)
        or not 1 <= len(key) <= KEY_LENGTH
        or not all(33 <= ord(ch) < 127 for ch in key)
    ):
        raise TableError(
            f"An idempotency key is 1 to {KEY_LENGTH} visible ASCII characters, without spaces."
        )
    return key


def stale(state: TableState, expect: Any) -> None:
    """Refuse a change made on an old view of the table (``expect``: the
    version the client saw; None: no check)."""
    if expect is None:
        return
    if isinstance(expect, bool) or not isinstance(expect, int):
        raise TableError("The table version you saw must be a whole number.")
    if expect != state.version:
        raise TableError(
            f"The table has changed since you looked: it is at version {state.version}, "
            f"you saw version {expect}; reload it and try again."
        )


@dataclass(frozen=True)
class Written:
    """One change: the table before and after its event (``event`` None:
    nothing to do), and whether it was a repeat of an earlier request with
    the same idempotency key (then nothing new was written)."""

    before: TableState
    state: TableState
    event: Event | None
    repeated: bool = False
    secret: str | None = None


def default_database_url() -> str:
    """``HEFEN_DATABASE_URL`` if set, else the SQLite file in the user's data directory."""
    url = os.environ.get(DATABASE_URL_ENV, "").strip()
    if url:
        return url
    import platformdirs

    folder = Path(platformdirs.user_data_dir("hefen"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'hefen.sqlite3'}"


def sqlite_sync(text: str | None = None) -> str:
    """The SQLite sync mode ``text`` names, else ``HEFEN_SQLITE_SYNC``'s, else
    ``normal``; anything else is one sentence.

    >>> sqlite_sync("FULL")
    'full'
    >>> sqlite_sync("off")
    Traceback (most recent call last):
    ...
    ValueError: HEFEN_SQLITE_SYNC takes normal or full, not 'off'.
    """
    raw = os.environ.get(SQLITE_SYNC_ENV, "") if text is None else text
    mode = raw.strip().lower() or "normal"
    if mode not in SQLITE_SYNC_MODES:
        raise ValueError(f"{SQLITE_SYNC_ENV} takes normal or full, not {raw.strip()!r}.")
    return mode


def create_db_engine(url: str, *, sync: str | None = None, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite files get WAL, a busy timeout and the sync
    mode of :func:`sqlite_sync` (``sync``, else ``HEFEN_SQLITE_SYNC``, else
    ``normal``)."""
    memory = url.startswith("sqlite") and (
        url in ("sqlite://", "sqlite+pysqlite://") or ":memory:" in url
    )
    if memory and "poolclass" not in kwargs:
        # one shared in-memory database for every thread (tests, throw-away tables)
        kwargs["poolclass"] = sa.pool.StaticPool
        kwargs.setdefault("connect_args", {}).setdefault("check_same_thread", False)
    engine = sa.create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        synchronous = sqlite_sync(sync).upper()

        @sa.event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA busy_timeout = 10000")
            cur.execute("PRAGMA foreign_keys = ON")
            if not memory:
                cur.execute("PRAGMA journal_mode = WAL")
                cur.execute(f"PRAGMA synchronous = {synchronous}")
            cur.close()
            # SQLAlchemy's pysqlite recipe: let SQLAlchemy, not the driver,
            # begin transactions, so that a write can BEGIN IMMEDIATE.
            dbapi_conn.isolation_level = None

        @sa.event.listens_for(engine, "begin")
        def _sqlite_begin(conn: Connection) -> None:
            mode = conn.get_execution_options().get(_SQLITE_BEGIN, "")
            conn.exec_driver_sql(f"BEGIN {mode}".strip())

    return engine


_SQLITE_BEGIN = "hefen_sqlite_begin"


def _writer(engine: Engine) -> Engine:
    """The engine for read-then-write transactions: on SQLite they take the
    write lock at BEGIN (IMMEDIATE), so concurrent writers queue instead of
    colliding; PostgreSQL locks the table row instead (``FOR UPDATE``)."""
    if engine.dialect.name == "sqlite":
        return engine.execution_options(**{_SQLITE_BEGIN: "IMMEDIATE"})
    return engine


def migrate(engine: Engine) -> None:
    """Bring the database up to the newest schema (``alembic upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Two processes opening a fresh database at once must not both migrate.
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(7253601)"))
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def normalize_code(code: Any) -> str:
    """A join code as stored: upper case, spaces and dashes removed."""
    if not isinstance(code, str):
        raise TableError("A join code must be text.")
    clean = "".join(ch for ch in code.upper() if ch not in " -")
    if len(clean) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in clean):
        raise TableError(f"{code!r} is not a join code; a join code has six letters and digits.")
    return clean


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class CreatedTable:
    """A new table: its join ``code`` and the host's secret ``host_token``."""

    code: str
    host_token: str
    state: TableState


@dataclass(frozen=True)
class JoinedSeat:
    """A seat taken: the seat's secret ``token`` (show it only to its player)."""

    code: str
    seat: int
    token: str
    state: TableState


Plan = Callable[[TableState], tuple[str, dict[str, Any], str] | None]


class _Unchanged(Exception):
    """A planned change that turned out to be nothing: its transaction is
    rolled back (with the idempotency key it claimed)."""

    def __init__(self, state: TableState) -> None:
        super().__init__("unchanged")
        self.state = state


class _Cached:
    """One table's events as read so far and their fold."""

    def __init__(self, table_id: int, events: list[Event]) -> None:
        self.table_id = table_id
        self.events = events
        self.folder = core.Folder(events)


# The statements of the hot path, built once: SQLAlchemy keeps a built
# statement's cache key, so executing one costs no construction and no
# compile (a statement built per call spends most of a write's CPU on that).
_TABLE_ID = sa.select(tables_table.c.id).where(tables_table.c.code == sa.bindparam("code"))
_TABLE_ID_LOCKED = _TABLE_ID.with_for_update()
_EVENTS_AFTER = (
    sa.select(
        events_table.c.seq,
        events_table.c.kind,
        events_table.c.at,
        events_table.c.actor,
        events_table.c.payload,
    )
    .where(
        events_table.c.table_id == sa.bindparam("table_id"),
        events_table.c.seq > sa.bindparam("after"),
    )
    .order_by(events_table.c.seq)
)
_INSERT_EVENT = events_table.insert()
_INSERT_KEY = keys_table.insert()
# the key claimed in one statement: no row inserted means the key was used
# (RETURNING: a driver's rowcount is not reliable for an insert that returns rows)
_CLAIM_KEY = {
    name: insert(keys_table)
    .on_conflict_do_nothing(index_elements=["table_id", "key"])
    .returning(keys_table.c.id)
    for name, insert in (("sqlite", sqlite_insert), ("postgresql", postgresql_insert))
}
_KEY_USED = sa.select(keys_table.c.seq, keys_table.c.secret).where(
    keys_table.c.table_id == sa.bindparam("table_id"), keys_table.c.key == sa.bindparam("key")
)


class TableStore:
    """Tables kept in a database. Thread-safe; share one per process.

    Every method that changes a table validates the request against the
    current state, then appends one event in its own committed transaction;
    a :class:`TableError` means nothing was written.
    """

    def __init__(self, engine: Engine, *, score: ScoreFn | None = None, upgrade: bool = True):
        self.engine = engine
        self._write_engine = _writer(engine)
        self._score = score
        # each table's state folded once and kept: a read fetches and folds
        # only the events newer than the kept version (the events stay the truth)
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._ids: dict[str, int] = {}  # code -> row id, read once
        # the table as each recent keyed change of this process left it
        # ((code, key) -> state): what state_of_key answers without a read
        self._by_key: OrderedDict[tuple[str, str], TableState] = OrderedDict()
        if upgrade:
            migrate(engine)

    # ----------------------------------------------------------------- plumbing

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def _table_id(self, conn: Connection, code: str, *, lock: bool = False) -> int:
        """The table's row id. A table's id never changes (hefen deletes no
        table), so it is read once per process; PostgreSQL's writers still
        read it ``FOR UPDATE``, since that read is their lock on the table."""
        locked = lock and conn.dialect.name == "postgresql"
        if not locked:
            known = self._ids.get(code)
            if known is not None:
                return known
        query = _TABLE_ID_LOCKED if locked else _TABLE_ID
        table_id = conn.execute(query, {"code": code}).scalar_one_or_none()
        if table_id is None:
            raise TableError(f"There is no table with the code {code}.")
        self._ids[code] = int(table_id)
        return int(table_id)

    def _rows(self, conn: Connection, table_id: int, after: int) -> list[Event]:
        rows = conn.execute(_EVENTS_AFTER, {"table_id": table_id, "after": after}).all()
        return [Event(r.seq, r.kind, r.at, r.actor, dict(r.payload)) for r in rows]

    def _current(
        self, conn: Connection, code: str, *, lock: bool = False, copy: bool = False
    ) -> tuple[int, TableState, core.Folder | None]:
        """The table's id and current state: only the events newer than the
        kept fold are read and folded. ``copy``: also an independent copy of
        the fold (to fold events about to be written)."""
        table_id = self._table_id(conn, code, lock=lock)
        with self._cache_lock:
            kept = self._cache.get(code)
            if kept is not None and kept.table_id != table_id:
                kept = None
            last = kept.folder.version if kept is not None else 0
        new = self._rows(conn, table_id, last)
        with self._cache_lock:
            if kept is None or (new and new[0].seq > kept.folder.version + 1):
                if kept is not None:  # a gap: read it all again
                    new = self._rows(conn, table_id, 0)
                kept = _Cached(table_id, new)
            else:
                fresh = [e for e in new if e.seq > kept.folder.version]
                kept.folder.add(fresh)
                kept.events.extend(fresh)
            self._cache[code] = kept
            self._cache.move_to_end(code)
            while len(self._cache) > CACHE_TABLES:
                self._cache.popitem(last=False)
            return table_id, kept.folder.state(), kept.folder.copy() if copy else None

    def _remember(self, code: str, table_id: int, events: Sequence[Event]) -> TableState:
        """Fold events just committed into the kept state; the state after them."""
        last = events[-1].seq
        with self._cache_lock:
            kept = self._cache.get(code)
            if kept is not None and kept.table_id == table_id:
                if kept.folder.version == events[0].seq - 1:
                    kept.folder.add(events)
                    kept.events.extend(events)
                if kept.folder.version == last:
                    return kept.folder.state()
        return self.state_at(code, last)

    def _load(self, conn: Connection, code: str, *, lock: bool = False) -> tuple[int, list[Event]]:
        table_id = self._table_id(conn, code, lock=lock)
        rows = conn.execute(
            sa.select(
                events_table.c.seq,
                events_table.c.kind,
                events_table.c.at,
                events_table.c.actor,
                events_table.c.payload,
            )
            .where(events_table.c.table_id == table_id)
            .order_by(events_table.c.seq)
        ).all()
        return table_id, [Event(r.seq, r.kind, r.at, r.actor, dict(r.payload)) for r in rows]

    def _append(
        self,
        code: Any,
        plan: Plan,
        key: str | None = None,
        secret: str | None = None,
        *,
        kind: str | None = None,
    ) -> Written:
        """Run ``plan`` on the current state and append its event atomically.

        ``plan`` returns ``(kind, payload, actor)`` or ``None`` for "nothing to
        do". A concurrent writer that appended first makes the insert fail on
        the ``(table_id, seq)`` key; the request is then re-planned on the new
        state. With an idempotency ``key``, the key is stored with the event
        in the same transaction; a key already stored for the table is a
        repeat: nothing is planned or written, the earlier change is returned
        (``secret``: what the first request was given, e.g. a seat token).
        ``kind``: the kind of event the change writes; a key that made a
        change of another kind is refused (a key names one action).
        """
        code = normalize_code(code)
        key = check_key(key)
        for _attempt in range(_RETRIES):
            try:
                with self._write_engine.begin() as conn:
                    table_id, state, _ = self._current(conn, code, lock=True)
                    seq = state.version + 1
                    if key is not None and not self._claim(conn, table_id, key, seq, secret):
                        done = self._repeat(conn, code, table_id, key)
                        assert done is not None  # the key's row is there
                        if kind is not None and done.event is not None:
                            if done.event.kind != kind:
                                raise TableError(
                                    "This Idempotency-Key was already used for another "
                                    "change on this table; send a new key for a new action."
                                )
                        return done
                    planned = plan(state)
                    if planned is None:  # nothing to do: the claimed key goes too
                        raise _Unchanged(state)
                    kind, payload, actor = planned
                    event = Event(seq, kind, _now(), actor, payload)
                    conn.execute(
                        _INSERT_EVENT,
                        {
                            "table_id": table_id,
                            "seq": event.seq,
                            "kind": event.kind,
                            "actor": event.actor,
                            "at": event.at,
                            "payload": event.payload,
                        },
                    )
                after = self._remember(code, table_id, [event])
                if key is not None:
                    self._keep_key(code, key, after)
                return Written(state, after, event, secret=secret)
            except _Unchanged as unchanged:
                return Written(unchanged.state, unchanged.state, None)
            except IntegrityError:
                continue
            except OperationalError as exc:
                if "locked" in str(exc).lower():
                    continue
                raise
        raise TableError("The table is busy with other changes; please try again.")

    def _keep_key(self, code: str, key: str, state: TableState) -> None:
        with self._cache_lock:
            self._by_key[(code, key)] = state
            while len(self._by_key) > CACHE_KEYS:
                self._by_key.popitem(last=False)

    def _claim(
        self, conn: Connection, table_id: int, key: str, seq: int, secret: str | None
    ) -> bool:
        """Store idempotency ``key`` for the change about to be ``seq``, in
        the write's transaction; False: the table already has that key."""
        claim = _CLAIM_KEY.get(conn.dialect.name)
        row = {"table_id": table_id, "key": key, "seq": seq, "secret": secret, "at": _now()}
        if claim is None:  # another database: look, then insert
            if conn.execute(_KEY_USED, {"table_id": table_id, "key": key}).first() is not None:
                return False
            conn.execute(_INSERT_KEY, row)
            return True
        return conn.execute(claim, row).first() is not None

    def _repeat(self, conn: Connection, code: str, table_id: int, key: str) -> Written | None:
        """The change an idempotency key already made on this table, if any."""
        row = conn.execute(_KEY_USED, {"table_id": table_id, "key": key}).one_or_none()
        if row is None:
            return None
        seq = int(row.seq)
        _, events = self._load(conn, code)
        upto = [e for e in events if e.seq <= seq]
        return Written(
            core.fold(upto[:-1]), core.fold(upto), upto[-1], repeated=True, secret=row.secret
        )

    def key_seq(self, code: Any, key: str) -> int | None:
        """The version (event ``seq``) an idempotency key's change reached, if stored."""
        code = normalize_code(code)
        with self.engine.connect() as conn:
            table_id = self._table_id(conn, code)
            seq = conn.execute(
                sa.select(keys_table.c.seq).where(
                    keys_table.c.table_id == table_id, keys_table.c.key == key
                )
            ).scalar_one_or_none()
        return None if seq is None else int(seq)

    def state_of_key(self, code: Any, key: str) -> TableState:
        """The table as the change made with idempotency ``key`` left it (the
        same for a repeat), in one read: the kept fold when that change is
        the latest; the current table when no change has this key."""
        code = normalize_code(code)
        with self._cache_lock:
            kept = self._by_key.get((code, key))
        if kept is not None:  # a change made here: the table as it left it
            return kept
        with self.engine.connect() as conn:
            table_id, state, _ = self._current(conn, code)
            row = conn.execute(_KEY_USED, {"table_id": table_id, "key": key}).one_or_none()
            if row is None or state.version == int(row.seq):
                return state
            _, events = self._load(conn, code)
        return core.fold([e for e in events if e.seq <= int(row.seq)])

    def state_at(self, code: Any, version: int) -> TableState:
        """The table as it was at ``version`` (its events up to that ``seq``)."""
        code = normalize_code(code)
        with self.engine.connect() as conn:
            _, state, _ = self._current(conn, code)
            if state.version == version:
                return state
            _, events = self._load(conn, code)
        return core.fold([e for e in events if e.seq <= version])

    # ------------------------------------------------------------------ reading

    def kept(self, code: Any) -> TableState | None:
        """The table as this process last read or wrote it, with no database
        read (None if it holds none, or ``code`` is no join code): for checks
        that a later change does not undo, such as which seat a token is (a
        token never changes seat)."""
        try:
            code = normalize_code(code)
        except TableError:
            return None
        with self._cache_lock:
            kept = self._cache.get(code)
            return None if kept is None else kept.folder.state()

    def get(self, code: Any) -> TableState:
        """The table's current state (anyone with the code may read it)."""
        code = normalize_code(code)
        with self.engine.connect() as conn:
            _, state, _ = self._current(conn, code)
        return state

    def version(self, code: Any) -> int:
        """The ``seq`` of the table's last event: cheap to poll, changes iff the table did."""
        code = normalize_code(code)
        with self.engine.connect() as conn:
            table_id = conn.execute(
                sa.select(tables_table.c.id).where(tables_table.c.code == code)
            ).scalar_one_or_none()
            if table_id is None:
                raise TableError(f"There is no table with the code {code}.")
            seq = conn.execute(
                sa.select(sa.func.max(events_table.c.seq)).where(
                    events_table.c.table_id == table_id
                )
            ).scalar_one()
        return int(seq)

    def events(self, code: Any) -> list[Event]:
        """The table's full event log, oldest first (the audit trail)."""
        code = normalize_code(code)
        with self.engine.connect() as conn:
            _, events = self._load(conn, code)
        return events

    def whoami(self, code: Any, token: Any) -> Actor:
        """Whom ``token`` belongs to at this table; :class:`TableError` if no one."""
        return core.authorize(self.get(code), token)

    def codes(self) -> list[str]:
        """The join codes of all tables, oldest first."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(sa.select(tables_table.c.code).order_by(tables_table.c.id)).scalars()
            )

    # ----------------------------------------------------------------- changing

    def create_table(
        self,
        ruleset: str,
        *,
        options: Mapping[str, Any] | None = None,
        dealer_keeps_on_draw: bool = True,
        names: Sequence[str | None] | None = None,
    ) -> CreatedTable:
        """Open a table; returns its join code and the host token.

        ``options`` are the ruleset's options (stakes included), missing ones
        take their defaults; ``names`` optionally pre-fills the four seats'
        player names (seat 0 starts East, 1 South, 2 West, 3 North).
        """
        return self._create(ruleset, options, dealer_keeps_on_draw, names)

    def _create(
        self,
        ruleset: str,
        options: Mapping[str, Any] | None,
        dealer_keeps_on_draw: bool,
        names: Sequence[str | None] | None,
        game: Mapping[str, Any] | None = None,
        record: Sequence[Mapping[str, Any]] = (),
    ) -> CreatedTable:
        """A new table (with ``game``: the ``game_opened`` payload, an online
        game whose record starts with ``record``), in one transaction."""
        host_token = new_token()
        lines = _record_lines(record)
        for _attempt in range(_RETRIES):
            code = new_code()
            payload = core.plan_create(
                code=code,
                ruleset=ruleset,
                options=options,
                dealer_keeps_on_draw=dealer_keeps_on_draw,
                names=names,
                host_token_hash=core.hash_token(host_token),
            )
            at = _now()
            events = [Event(1, "table_created", at, "host", payload)]
            if game is not None:
                events.append(Event(2, "game_opened", at, "host", dict(game)))
                events += [
                    Event(3 + i, GAME_LINE, at, "engine", {"line": line})
                    for i, line in enumerate(lines)
                ]
            try:
                with self.engine.begin() as conn:
                    table_id = conn.execute(
                        tables_table.insert()
                        .values(code=code, ruleset=ruleset, created_at=at)
                        .returning(tables_table.c.id)
                    ).scalar_one()
                    for event in events:
                        conn.execute(
                            events_table.insert().values(
                                table_id=table_id,
                                seq=event.seq,
                                kind=event.kind,
                                actor=event.actor,
                                at=event.at,
                                payload=event.payload,
                            )
                        )
            except IntegrityError:
                continue  # the random code was taken: draw another
            return CreatedTable(code=code, host_token=host_token, state=core.fold(events))
        raise TableError("Could not find a free join code; please try again.")

    def join(
        self, code: Any, seat: int, name: str | None = None, *, key: str | None = None
    ) -> JoinedSeat:
        """Take a free seat (0–3) under ``name``; returns the seat's secret token.

        ``name`` None keeps the name the host gave the seat. A repeated
        idempotency ``key`` returns the seat and token the first request got
        (the token is kept with the key for that).
        """
        token = new_token()

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            payload = core.plan_join(state, seat, name, core.hash_token(token))
            return "player_joined", payload, f"seat:{payload['seat']}"

        done = self._append(
            code, plan, key, secret=token if key is not None else None, kind="player_joined"
        )
        assert done.event is not None
        return JoinedSeat(
            code=done.state.code,
            seat=int(done.event.payload["seat"]),
            token=str(done.secret or token),
            state=done.state,
        )

    def release_seat(
        self, code: Any, token: str, seat: int, *, key: str | None = None
    ) -> TableState:
        """Free a seat (its token stops working); by the seat's player or the host."""

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            actor = core.authorize(state, token)
            return "seat_released", core.plan_release(state, actor, seat), actor.label

        return self._append(code, plan, key, kind="seat_released").state

    def rename_seat(self, code: Any, token: str, seat: int, name: str) -> TableState:
        """Change a seat's player name; by the seat's player or the host."""

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            actor = core.authorize(state, token)
            return "player_renamed", core.plan_rename(state, actor, seat, name), actor.label

        return self._append(code, plan).state

    def change_settings(
        self,
        code: Any,
        token: str,
        *,
        options: Mapping[str, Any] | None = None,
        dealer_keeps_on_draw: bool | None = None,
    ) -> TableState:
        """Change the table's settings for the hands to come (host only).

        ``options`` is a partial update of the current options. Recorded hands
        keep the settings they were played with. Nothing is recorded when
        nothing changes.
        """

        def plan(state: TableState) -> tuple[str, dict[str, Any], str] | None:
            actor = core.authorize(state, token, host_only=True)
            payload = core.plan_settings(state, options, dealer_keeps_on_draw)
            return None if payload is None else ("settings_changed", payload, actor.label)

        return self._append(code, plan).state

    def record_win(
        self,
        code: Any,
        token: str,
        *,
        winner: int,
        discarder: int | None = None,
        hand: Mapping[str, Any] | None = None,
        value: int | None = None,
        key: str | None = None,
        expect: int | None = None,
    ) -> HandRecord:
        """Record the next hand as a win by seat ``winner``.

        ``discarder`` is the seat that dealt in, or ``None`` for a self-draw.
        Give either ``hand`` (an interchange object, scored by the engine with
        the table's context and options) or ``value`` (points, fan or tai,
        settled by :mod:`hefen.table.settlement`). Any token of the table may
        record. ``key`` (an idempotency key): a repeat returns the hand the
        first request recorded and records nothing; ``expect`` (the table
        version the caller saw): a table that has changed since refuses.
        """

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            actor = core.authorize(state, token)
            stale(state, expect)
            payload = core.plan_record(
                state,
                draw=False,
                winner=winner,
                discarder=discarder,
                hand=hand,
                value=value,
                score=self._score,
            )
            return "hand_recorded", payload, actor.label

        done = self._append(code, plan, key, kind="hand_recorded")
        assert done.event is not None
        return done.state.hand(done.event.seq)

    def record_draw(
        self, code: Any, token: str, *, key: str | None = None, expect: int | None = None
    ) -> HandRecord:
        """Record the next hand as drawn (no winner, no payments); ``key`` and
        ``expect`` as for :meth:`record_win`."""

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            actor = core.authorize(state, token)
            stale(state, expect)
            return "hand_recorded", core.plan_record(state, draw=True), actor.label

        done = self._append(code, plan, key, kind="hand_recorded")
        assert done.event is not None
        return done.state.hand(done.event.seq)

    def undo(
        self,
        code: Any,
        token: str,
        hand_id: int | None = None,
        *,
        key: str | None = None,
        expect: int | None = None,
    ) -> HandRecord:
        """Undo the latest hand (``hand_id``, if given, must be that hand);
        ``key`` and ``expect`` as for :meth:`record_win`.

        Returns the hand as it was; it stays in the event log.
        """

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            actor = core.authorize(state, token)
            stale(state, expect)
            payload = core.plan_undo(state, hand_id)
            return "hand_undone", payload, actor.label

        done = self._append(code, plan, key, kind="hand_undone")
        assert done.event is not None
        return done.before.hand(done.event.payload["hand"])

    def correct(
        self,
        code: Any,
        token: str,
        hand_id: int,
        *,
        draw: bool = False,
        winner: int | None = None,
        discarder: int | None = None,
        hand: Mapping[str, Any] | None = None,
        value: int | None = None,
        key: str | None = None,
        expect: int | None = None,
    ) -> HandRecord:
        """Replace the outcome of hand ``hand_id`` (its :attr:`HandRecord.id`).

        Same arguments as :meth:`record_win`, or ``draw=True``. Returns the
        hand as it now stands; the old outcome stays in the event log.
        """

        def plan(state: TableState) -> tuple[str, dict[str, Any], str]:
            actor = core.authorize(state, token)
            stale(state, expect)
            payload = core.plan_correct(
                state,
                hand_id,
                draw=draw,
                winner=winner,
                discarder=discarder,
                hand=hand,
                value=value,
                score=self._score,
            )
            return "hand_corrected", payload, actor.label

        done = self._append(code, plan, key, kind="hand_corrected")
        assert done.event is not None
        return done.state.hand(done.event.payload["hand"])

    # ------------------------------------------------------------- online games

    def create_game(
        self,
        ruleset: str,
        *,
        bots: Sequence[str | None],
        hands: int,
        record: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        dealer_keeps_on_draw: bool = True,
        names: Sequence[str | None] | None = None,
    ) -> CreatedTable:
        """Open a table that is an online game (see :mod:`hefen.web.play`).

        ``bots`` names the bot playing each seat (``None``: a human, who takes
        the seat with :meth:`join`); ``hands`` is the match's length; ``record``
        the first lines of its game record (the ``match`` line). The table's
        hands are then recorded only through :meth:`append_game`.
        """
        game = core.plan_game_open(bots, hands)
        if not record:
            raise TableError("An online game's record starts with its match line.")
        return self._create(ruleset, options, dealer_keeps_on_draw, names, game, record)

    def game_record(self, code: Any) -> list[dict[str, Any]]:
        """The game record of an online game (its ``game_line`` events), oldest first."""
        code = normalize_code(code)
        with self.engine.connect() as conn:
            table_id = self._table_id(conn, code)
            rows = conn.execute(
                sa.select(events_table.c.payload)
                .where(events_table.c.table_id == table_id, events_table.c.kind == GAME_LINE)
                .order_by(events_table.c.seq)
            ).scalars()
            lines = [dict(r["line"]) for r in rows]
        if not lines:
            raise TableError(f"The table {code} is not an online game.")
        return lines

    def export_record(self, code: Any) -> str:
        """The game record as JSON lines (``hefen replay`` reads it) once the
        match is over; while it is played, the seeds (and the salt) that fix
        the walls are left out, only their commitment ``seed_sha256`` shown."""
        lines = self.game_record(code)
        if not game_finished(self.get(code)):
            from hefen.game.record import redact_seeds

            lines = redact_seeds(lines)
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)

    def append_game(
        self,
        code: Any,
        lines: Sequence[Mapping[str, Any]],
        *,
        after: int,
        hand: tuple[int, Mapping[str, Any]] | None = None,
        key: str | None = None,
    ) -> int:
        """Append ``lines`` to an online game's record (as ``game_line``
        events), in one transaction; returns the table's new version.

        ``after`` is how many record lines the caller knows of: if the record
        has another length (another server played on), nothing is written and
        :class:`TableError` says so. ``hand`` is ``(number, payload)`` of a
        hand that these lines finish, as the game's match settled it
        (``{"outcome": ...}``); it becomes the table's ``hand_recorded`` event
        in the same transaction, after the lines. ``key``, an idempotency key,
        is stored with them (a key already stored: :class:`TableError`, and
        nothing is written).
        """
        code = normalize_code(code)
        key = check_key(key)
        clean = _record_lines(lines)
        conflict = f"The game {code} was played on elsewhere; reload it and try again."
        for _attempt in range(_RETRIES):
            try:
                with self._write_engine.begin() as conn:
                    table_id = self._table_id(conn, code, lock=True)
                    mine = events_table.c.table_id == table_id
                    count, last = conn.execute(
                        sa.select(
                            sa.func.count().filter(events_table.c.kind == GAME_LINE),
                            sa.func.max(events_table.c.seq),
                        ).where(mine)
                    ).one()
                    if not count:
                        raise TableError(f"The table {code} is not an online game.")
                    if count != after:
                        raise TableError(conflict)
                    seq = int(last)
                    at = _now()
                    new = [
                        Event(seq + i, GAME_LINE, at, "engine", {"line": line})
                        for i, line in enumerate(clean, start=1)
                    ]
                    if hand is not None:
                        _, _, folder = self._current(conn, code, copy=True)
                        assert folder is not None
                        folder.add(new)
                        payload = core.plan_game_hand(folder.state(), hand[0], hand[1])
                        new.append(
                            Event(seq + len(new) + 1, "hand_recorded", at, "engine", payload)
                        )
                    if new:
                        conn.execute(
                            events_table.insert(),
                            [
                                {
                                    "table_id": table_id,
                                    "seq": e.seq,
                                    "kind": e.kind,
                                    "actor": e.actor,
                                    "at": e.at,
                                    "payload": e.payload,
                                }
                                for e in new
                            ],
                        )
                    if key is not None:
                        conn.execute(
                            keys_table.insert().values(
                                table_id=table_id, key=key, seq=seq + len(new), at=_now()
                            )
                        )
                if new:
                    self._remember(code, table_id, new)
                return seq + len(new)
            except IntegrityError as exc:
                raise TableError(conflict) from exc
            except OperationalError as exc:
                if "locked" in str(exc).lower():
                    continue
                raise
        raise TableError("The table is busy with other changes; please try again.")

    def seat_bots(self, code: Any, token: str, bot: str) -> TableState:
        """``bot`` takes every free human seat of an online game (any token of
        the table); nothing is recorded when no seat is free."""

        def plan(state: TableState) -> tuple[str, dict[str, Any], str] | None:
            actor = core.authorize(state, token)
            payload = core.plan_bots_seated(state, bot)
            return None if payload is None else ("bots_seated", payload, actor.label)

        return self._append(code, plan).state

    # ------------------------------------------------------------------ export

    def export_json(self, code: Any) -> str:
        """The table (settings, seats, history, balances, events) as JSON text."""
        from hefen.table.export import to_json

        code = normalize_code(code)
        with self.engine.connect() as conn:
            _, events = self._load(conn, code)
        state = core.fold(events)
        if state.game is not None and not game_finished(state):
            from hefen.game.record import redact_seeds

            events = [
                Event(e.seq, e.kind, e.at, e.actor, {"line": redact_seeds([e.payload["line"]])[0]})
                if e.kind == GAME_LINE
                else e
                for e in events
            ]
        return to_json(state, events)

    def export_csv(self, code: Any) -> str:
        """The history, one row per hand with changes and running balances, as CSV."""
        from hefen.table.export import to_csv

        return to_csv(self.get(code))


def game_finished(state: TableState) -> bool:
    """Whether an online game's match has played all its hands (its seeds
    may then be shown)."""
    return state.game is not None and len(state.hands) >= state.game.hands


def _record_lines(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Game record lines as stored: JSON objects, each with its ``type``."""
    out: list[dict[str, Any]] = []
    for line in lines:
        if not isinstance(line, Mapping) or not isinstance(line.get("type"), str):
            raise TableError("A game record line is a JSON object with a 'type'.")
        try:
            out.append(json.loads(json.dumps(dict(line))))
        except (TypeError, ValueError) as exc:
            raise TableError("A game record line must contain only JSON data.") from exc
    return out


def open_store(
    url: str | None = None, *, score: ScoreFn | None = None, **engine_kwargs: Any
) -> TableStore:
    """Open (and migrate) the table database at ``url``.

    ``url`` defaults to :func:`default_database_url` (``HEFEN_DATABASE_URL``
    or the user's SQLite file). ``score`` replaces the engine's scorer
    (``hefen.score``), e.g. for a remote scoring service.
    """
    engine = create_db_engine(url or default_database_url(), **engine_kwargs)
    return TableStore(engine, score=score)
