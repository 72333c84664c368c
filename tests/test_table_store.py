"""Tables in a database: tokens, recording, undo/correction audit trail,
settings events, export — on SQLite (a temporary file) and on the real
PostgreSQL server (marked ``postgres``)."""

from __future__ import annotations

import csv
import io
import json
import os
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from hefen.table import (
    TableError,
    TableStore,
    create_db_engine,
    default_database_url,
    open_store,
)

PG_URL = os.environ.get("HEFEN_TEST_POSTGRES_URL", "postgresql+psycopg://root@127.0.0.1:5432/test")


def _pg_store() -> Iterator[TableStore]:
    admin = sa.create_engine(PG_URL, connect_args={"connect_timeout": 3})
    try:
        with admin.connect():
            pass
    except sa.exc.OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at {PG_URL} is unreachable: {exc.orig}")
    schema = f"hefen_test_{uuid.uuid4().hex[:12]}"
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    engine = create_db_engine(PG_URL, connect_args={"options": f"-csearch_path={schema}"})
    try:
        yield TableStore(engine)
    finally:
        engine.dispose()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    if request.param == "sqlite":
        s = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
        yield s
        s.close()
    else:
        yield from _pg_store()


def _table(store: TableStore, ruleset: str = "tw", **kw: object) -> tuple[str, str, list[str]]:
    t = store.create_table(ruleset, names=["Ann", "Bo", "Cy", "Di"], **kw)  # type: ignore[arg-type]
    tokens = [store.join(t.code, seat).token for seat in range(4)]
    return t.code, t.host_token, tokens


def test_create_join_and_tokens(store: TableStore) -> None:
    t = store.create_table("hk", options={"unit": 2}, names=["Ann", None])
    assert len(t.code) == 6 and t.state.settings.options["unit"] == 2
    assert [s.name for s in t.state.seats] == ["Ann", "Player 2", "Player 3", "Player 4"]
    j = store.join(t.code.lower()[:3] + "-" + t.code.lower()[3:], 1, "  Bo  ")
    assert j.seat == 1 and j.state.seats[1].name == "Bo" and j.state.seats[1].joined
    assert store.whoami(t.code, j.token).seat == 1
    assert store.whoami(t.code, t.host_token).host
    with pytest.raises(TableError, match="already taken"):
        store.join(t.code, 1, "Eve")
    with pytest.raises(TableError, match="does not belong"):
        store.record_win(t.code, "not-a-token", winner=0, value=3)
    with pytest.raises(TableError, match="Only the table's host"):
        store.change_settings(t.code, j.token, options={"unit": 5})
    other = store.join(t.code, 2, "Cy")
    with pytest.raises(TableError, match="own player or the host"):
        store.release_seat(t.code, other.token, 1)
    with pytest.raises(TableError, match="own player or the host can rename"):
        store.rename_seat(t.code, other.token, 1, "Boo")
    assert store.rename_seat(t.code, j.token, 1, "Bob").seats[1].name == "Bob"
    assert store.rename_seat(t.code, t.host_token, 2, "Cyd").seats[2].name == "Cyd"
    state = store.release_seat(t.code, j.token, 1)
    assert not state.seats[1].joined
    with pytest.raises(TableError, match="does not belong"):
        store.whoami(t.code, j.token)
    # tokens of one table do not work at another
    t2 = store.create_table("hk")
    with pytest.raises(TableError, match="does not belong"):
        store.record_draw(t2.code, other.token)
    with pytest.raises(TableError, match="no table with the code"):
        store.get("ABCDEF" if t.code != "ABCDEF" else "ABCDEG")
    with pytest.raises(TableError, match="not a join code"):
        store.get("O0O0")
    assert t.code in store.codes()


def test_tw_worked_example_at_the_table(store: TableStore) -> None:
    code, _host, tok = _table(store, "tw", options={"base": 30, "per_tai": 10})
    store.record_win(code, tok[1], winner=1, discarder=2, value=0)  # East loses the deal
    store.record_win(code, tok[1], winner=1, discarder=3, value=1)  # South repeats once
    store.record_win(code, tok[1], winner=1, discarder=0, value=1)  # and twice
    state = store.get(code)
    assert state.next.dealer == 1 and state.next.dealer_streak == 2
    assert state.next.round_wind == "E"
    rec = store.record_win(code, tok[1], winner=1, value=5)  # concealed self-draw: 5 + 5 tai
    assert {p.payer: p.amount for p in rec.payments} == {0: 130, 2: 130, 3: 130}
    assert rec.changes == (-130, 390, -130, -130)
    assert sum(store.get(code).balances) == 0


def test_history_running_balances_and_draw(store: TableStore) -> None:
    code, host, tok = _table(store, "mcr")
    r1 = store.record_win(code, tok[0], winner=0, discarder=1, value=10)
    r2 = store.record_draw(code, host)
    r3 = store.record_win(code, tok[2], winner=2, value=8)
    assert r1.balances == (34, -18, -8, -8)
    assert r2.kind == "draw" and r2.payments == () and r2.balances == r1.balances
    assert r3.self_draw and r3.changes == (-16, -16, 48, -16)
    state = store.get(code)
    assert [h.number for h in state.hands] == [1, 2, 3]
    assert state.balances == (18, -34, 40, -24)
    assert state.next.hand_number == 4 and "".join(state.next.seat_winds) == "SWNE"
    assert [h.position.seat_winds[h.winner] for h in state.hands if h.winner is not None] == [
        "E",
        "E",
    ]


def test_undo_and_correction_keep_an_audit_trail(store: TableStore) -> None:
    code, host, tok = _table(store, "hk")
    a = store.record_win(code, tok[0], winner=0, discarder=1, value=3)
    b = store.record_win(code, tok[0], winner=0, discarder=2, value=4)
    with pytest.raises(TableError, match="Only the latest hand"):
        store.undo(code, host, a.id)
    undone = store.undo(code, tok[3])
    assert undone.id == b.id
    state = store.get(code)
    assert [h.id for h in state.hands] == [a.id]
    assert state.next.dealer_streak == 1  # the undone repeat no longer counts
    # correction of the only hand: anything goes
    fixed = store.correct(code, host, a.id, winner=0, discarder=3, value=5)
    assert fixed.id == a.id and fixed.discarder == 3 and fixed.payments[0].amount == 32
    c = store.record_win(code, tok[0], winner=0, discarder=1, value=3)
    # an earlier hand may not change who dealt later: the dealer's win → another's win
    with pytest.raises(TableError, match="change who dealt"):
        store.correct(code, host, a.id, winner=1, discarder=3, value=5)
    # but a different discarder / value is fine
    fixed = store.correct(code, host, a.id, winner=0, value=6)
    assert fixed.self_draw and len(fixed.corrections) == 2
    events = store.events(code)
    kinds = [e.kind for e in events]
    assert kinds == ["table_created"] + ["player_joined"] * 4 + [
        "hand_recorded",
        "hand_recorded",
        "hand_undone",
        "hand_corrected",
        "hand_recorded",
        "hand_corrected",
    ]
    # nothing overwritten: the original outcome of hand a is still in its event
    assert events[5].payload["outcome"]["discarder"] == 1
    assert events[7].payload == {"hand": b.id, "number": 2}
    assert events[7].actor == "seat:3" and events[8].actor == "host"
    state = store.get(code)
    assert [h.id for h in state.hands] == [a.id, c.id]
    assert sum(state.balances) == 0


def test_failures_write_nothing(store: TableStore) -> None:
    code, host, tok = _table(store, "hk")
    before = store.get(code)
    bad_calls = [
        lambda: store.record_win(code, tok[0], winner=0, discarder=0, value=3),
        lambda: store.record_win(code, tok[0], winner=4, value=3),
        lambda: store.record_win(code, tok[0], winner=0, value=2),
        lambda: store.record_win(code, tok[0], winner=0),
        lambda: store.record_win(code, tok[0], winner=0, value=3, hand={"rules": "hk"}),
        lambda: store.record_win(code, tok[0], winner=0, hand={"rules": "mcr"}),
        lambda: store.record_win(code, tok[0], winner=0, hand=["1m"]),  # type: ignore[arg-type]
        lambda: store.change_settings(code, host, options={"cap": 99}),
        lambda: store.change_settings(code, host, options={"nonsense": 1}),
        lambda: store.undo(code, host),
        lambda: store.correct(code, host, 12345, value=3, winner=0),
        lambda: store.join(code, 0, "Again"),
        lambda: store.join(code, 7, "Nobody"),
    ]
    for call in bad_calls:
        with pytest.raises(TableError) as info:
            call()
        message = str(info.value)
        assert message.endswith(".") and "\n" not in message
    assert store.get(code) == before
    with pytest.raises(TableError):
        store.create_table("riichi")
    with pytest.raises(TableError):
        store.create_table("tw", options={"base": -1})


def test_settings_changes_are_events_and_apply_forward(store: TableStore) -> None:
    code, host, tok = _table(store, "tw")
    first = store.record_win(code, tok[1], winner=1, discarder=2, value=2)
    assert first.payments[0].amount == 50
    state = store.change_settings(code, host, options={"base": 100, "per_tai": 20})
    assert state.settings.options["base"] == 100
    same = store.change_settings(code, host, options={"base": 100})
    assert same.version == state.version  # nothing changed, nothing recorded
    second = store.record_win(code, tok[1], winner=2, discarder=3, value=2)
    assert second.payments[0].amount == 140
    state = store.get(code)
    assert state.hands[0].payments[0].amount == 50  # earlier hands keep their settings
    # a correction re-settles the hand under the settings it was played with
    fixed = store.correct(code, host, first.id, winner=1, discarder=3, value=3)
    assert fixed.payments[0].amount == 60
    state = store.change_settings(code, host, dealer_keeps_on_draw=False)
    assert not state.settings.dealer_keeps_on_draw
    before = state.next.dealer
    store.record_draw(code, host)
    assert store.get(code).next.dealer == (before + 1) % 4
    ev = [e for e in store.events(code) if e.kind == "settings_changed"]
    assert [e.payload["changed"] for e in ev] == [["base", "per_tai"], ["dealer_keeps_on_draw"]]


def test_export_csv_and_json(store: TableStore) -> None:
    code, host, tok = _table(store, "hk", options={"unit": 1, "min_fan": 0})
    store.record_win(code, tok[0], winner=0, discarder=1, value=3)
    store.record_win(code, tok[2], winner=2, value=0)
    store.record_draw(code, host)
    rows = list(csv.DictReader(io.StringIO(store.export_csv(code))))
    assert [r["hand"] for r in rows] == ["1", "2", "3"]
    assert rows[0]["winner"] == "Ann" and rows[0]["discarder"] == "Bo"
    assert rows[1]["result"] == "self-draw" and rows[2]["result"] == "draw"
    assert rows[1]["W Cy change"] == "3" and rows[1]["E Ann balance"] == "7"
    assert rows[2]["S Bo balance"] == "-9"
    text = store.export_json(code)
    data = json.loads(text)
    assert data["format"] == "hefen-table/1" and data["code"] == code
    assert [h["number"] for h in data["hands"]] == [1, 2, 3]
    assert data["balances"] == [7, -9, 3, -1]
    assert data["settings"]["effective_options"]["cap"] == 13
    assert len(data["events"]) == 8
    assert "token" not in text and host not in text and not any(t in text for t in tok)


def test_concurrent_writers_never_lose_or_duplicate(store: TableStore) -> None:
    code, _host, tok = _table(store, "mcr")
    errors: list[Exception] = []

    def worker(seat: int) -> None:
        try:
            for _ in range(5):
                store.record_win(code, tok[seat], winner=seat, value=8)
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    state = store.get(code)
    assert len(state.hands) == 20 and [h.number for h in state.hands] == list(range(1, 21))
    assert [e.seq for e in store.events(code)] == list(range(1, 26))
    assert store.version(code) == 25 == state.version
    assert sum(state.balances) == 0


def test_default_database_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HEFEN_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert default_database_url() == "postgresql+psycopg://u@h/db"
    monkeypatch.delenv("HEFEN_DATABASE_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'xdg' / 'hefen' / 'hefen.sqlite3'}"
    s = open_store()
    try:
        code = s.create_table("mcr").code
        assert s.get(code).ruleset == "mcr"
    finally:
        s.close()
    assert (tmp_path / "xdg" / "hefen" / "hefen.sqlite3").exists()


def test_in_memory_store_is_shared_across_threads() -> None:
    s = open_store("sqlite://")
    code = s.create_table("mcr").code
    seen: list[str] = []
    t = threading.Thread(target=lambda: seen.append(s.get(code).ruleset))
    t.start()
    t.join()
    assert seen == ["mcr"]
    s.close()


def test_reopen_is_idempotent(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    a = open_store(url)
    code = a.create_table("tw").code
    a.close()
    b = open_store(url)  # migrations already at head: nothing to do
    assert b.get(code).ruleset == "tw"
    with b.engine.connect() as conn:
        version = conn.execute(sa.text("SELECT version_num FROM hefen_table_alembic_version"))
        assert version.scalar_one() == "0002"  # 0002: the idempotency keys
    b.close()


def test_an_online_game_is_a_table_with_its_record(store: TableStore) -> None:
    from hefen.game import GameSettings, Match, make_bot, play_out, replay
    from hefen.game.record import end_line, hand_header

    match = Match(GameSettings("mcr"), 9, hands=1)
    created = store.create_game(
        "mcr",
        bots=[None, "simple", "simple", "simple"],
        hands=1,
        record=[match.header()],
        names=["Ann", "b2", "b3", "b4"],
    )
    code = created.code
    assert created.state.game is not None and created.state.game.lines == 1
    assert created.state.to_dict()["game"] == {
        "bots": [None, "simple", "simple", "simple"],
        "hands": 1,
        "lines": 1,
    }
    with pytest.raises(TableError, match="played by a bot"):
        store.join(code, 2)
    ann = store.join(code, 0, "Ann")
    game = match.new_game()
    bots = {s: make_bot("simple", seed=s) for s in range(4)}
    play_out(game, lambda g, s: bots[s].choose(g, s))
    settled = match.record(game)
    lines = [hand_header(game, 1), *({"type": "action", **a.to_dict()} for a in game.actions)]
    lines.append(end_line(game, settled.balances))
    payload = match.events[-1].payload
    before = store.version(code)
    # a writer that knows of another record length writes nothing
    with pytest.raises(TableError, match="played on elsewhere"):
        store.append_game(code, lines, after=0, hand=(1, payload))
    # nor does a hand that does not follow
    with pytest.raises(TableError, match="cannot follow"):
        store.append_game(code, lines, after=1, hand=(2, payload))
    assert store.version(code) == before
    version = store.append_game(code, lines, after=1, hand=(1, payload))
    state = store.get(code)
    assert version == state.version == before + len(lines) + 1
    assert state.game is not None and state.game.lines == 1 + len(lines)
    assert len(state.hands) == 1 and state.balances == settled.balances
    assert state.hands[0].recorded_by == "engine"
    assert sum(state.balances) == 0
    # the stored record replays to the same ledger
    again = replay(store.export_record(code).splitlines())
    assert again.match is not None and again.match.balances == state.balances
    # the game's hands are the engine's: no recording, undo, correction or new settings by hand
    for attempt in (
        lambda: store.record_draw(code, ann.token),
        lambda: store.record_win(code, ann.token, winner=0, value=8),
        lambda: store.undo(code, ann.token),
        lambda: store.correct(code, ann.token, state.hands[0].id, draw=True),
    ):
        with pytest.raises(TableError, match="online game"):
            attempt()
    with pytest.raises(TableError, match="keeps the settings"):
        store.change_settings(code, created.host_token, options={"min_points": 1})
    with pytest.raises(TableError, match="not an online game"):
        store.game_record(store.create_table("mcr").code)
    assert store.version(code) == version


def test_bots_take_the_free_seats_of_a_game(store: TableStore) -> None:
    from hefen.game import GameSettings, Match

    record = [Match(GameSettings("hk"), 1).header()]
    created = store.create_game("hk", bots=[None, None, "simple", None], hands=4, record=record)
    code = created.code
    bo = store.join(code, 1, "Bo")
    with pytest.raises(TableError, match="does not belong"):
        store.seat_bots(code, "nope", "strong")
    state = store.seat_bots(code, bo.token, "strong")
    assert state.game is not None
    assert list(state.game.bots) == ["strong", None, "simple", "strong"]
    assert [s.name for s in state.seats] == ["strong bot 1", "Bo", "Player 3", "strong bot 4"]
    assert store.events(code)[-1].actor == "seat:1"
    assert store.seat_bots(code, bo.token, "strong").version == state.version  # none free now
    with pytest.raises(TableError, match="four seats"):
        store.create_game("hk", bots=[None], hands=4, record=record)
    with pytest.raises(TableError, match="1 to 64 hands"):
        store.create_game("hk", bots=[None] * 4, hands=0, record=record)
    with pytest.raises(TableError, match="match line"):
        store.create_game("hk", bots=[None] * 4, hands=4, record=[])


def test_state_of_key_is_the_table_as_that_change_left_it(store: TableStore) -> None:
    """What the web answers a write (and a repeat of it): the table as the
    keyed change left it, from the kept fold when it is the latest change."""
    made = store.create_table("hk")
    first = store.record_win(made.code, made.host_token, winner=0, value=3, key="k-first")
    second = store.record_win(made.code, made.host_token, winner=1, value=4, key="k-second")
    latest = store.state_of_key(made.code, "k-second")
    assert latest == store.get(made.code) and latest.hands[-1] == second
    earlier = store.state_of_key(made.code, "k-first")
    assert earlier.version == first.id and [h.id for h in earlier.hands] == [first.id]
    assert store.state_of_key(made.code, "no-such-key") == store.get(made.code)


def test_a_keyed_write_is_one_read_and_two_inserts(tmp_path: Path) -> None:
    """The hot path of a recorded hand (SQLite): BEGIN, the events newer than
    the kept fold, the idempotency key claimed by one insert, the event; the
    table's id is read once per process and the answer's table is the one
    the write made (no read after)."""
    store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    try:
        made = store.create_table("hk")
        store.record_win(made.code, made.host_token, winner=0, value=3, key="k-0")
        seen: list[str] = []
        sa.event.listen(
            store.engine, "before_cursor_execute", lambda *a: seen.append(a[2].split()[0])
        )
        store.record_win(made.code, made.host_token, winner=1, value=3, key="k-1")
        after = store.state_of_key(made.code, "k-1")
        assert seen == ["BEGIN", "SELECT", "INSERT", "INSERT"], seen
        assert after.version == store.get(made.code).version and after.hands[-1].winner == 1
        # the key claimed by the write makes a repeat answer the first change
        again = store.record_win(made.code, made.host_token, winner=2, value=5, key="k-1")
        assert again.winner == 1 and len(store.get(made.code).hands) == 2
    finally:
        store.close()


def test_kept_is_the_fold_this_process_holds(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    other = open_store(f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    try:
        made = store.create_table("hk")
        assert other.kept(made.code) is None  # never read there
        assert store.kept("not a code") is None
        store.record_win(made.code, made.host_token, winner=0, value=3)
        kept = store.kept(made.code)
        assert kept is not None and kept.version == store.get(made.code).version
        other.record_win(made.code, made.host_token, winner=1, value=3)  # another process
        stale = store.kept(made.code)
        assert stale is not None and stale.version == kept.version  # no read: as it was
        assert store.get(made.code).version == kept.version + 1
    finally:
        store.close()
        other.close()


@pytest.mark.parametrize("env,want", [(None, 1), ("normal", 1), ("FULL", 2)])
def test_sqlite_files_sync_as_hefen_sqlite_sync_says(
    env: str | None, want: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WAL with ``synchronous=NORMAL`` by default (a commit survives the
    process being killed), ``FULL`` when HEFEN_SQLITE_SYNC says so."""
    from hefen.table.storage import create_db_engine

    if env is None:
        monkeypatch.delenv("HEFEN_SQLITE_SYNC", raising=False)
    else:
        monkeypatch.setenv("HEFEN_SQLITE_SYNC", env)
    engine = create_db_engine(f"sqlite:///{tmp_path / 'sync.sqlite3'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == want
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    engine.dispose()
