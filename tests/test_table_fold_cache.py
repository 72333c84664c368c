"""A store keeps each table's fold and folds only new events: whatever the
writes (hands, draws, undo, corrections, settings, seats), by this store or
another one on the same database, its state equals the fold of every event."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hefen.table import TableError, open_store
from hefen.table.core import Folder, fold


def test_the_kept_fold_equals_the_full_fold(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fold.sqlite3'}"
    one, two = open_store(url), open_store(url)  # two processes, in effect
    rng = random.Random(16)
    made = one.create_table("hk")
    code, host = made.code, made.host_token
    checked = 0
    for step in range(300):
        store = one if rng.random() < 0.6 else two
        op = rng.choice(["win", "win", "win", "draw", "undo", "correct", "settings", "seat"])
        try:
            if op == "win":
                store.record_win(code, host, winner=rng.randrange(4), value=rng.randrange(3, 9))
            elif op == "draw":
                store.record_draw(code, host)
            elif op == "undo":
                store.undo(code, host)
            elif op == "correct":
                hands = store.get(code).hands
                if hands:
                    target = rng.choice(hands).id
                    store.correct(code, host, target, winner=rng.randrange(4), value=5)
            elif op == "settings":
                store.change_settings(code, host, dealer_keeps_on_draw=rng.random() < 0.5)
            else:
                seat = rng.randrange(4)
                if store.get(code).seats[seat].joined:
                    store.release_seat(code, host, seat)
                else:
                    store.join(code, seat, f"P{step}")
        except TableError:
            pass  # nothing to undo, and the like: nothing written
        truth = fold(one.events(code))
        assert one.get(code) == truth and two.get(code) == truth, (step, op)
        # its JSON text, made from each hand's kept text, is the state's JSON
        assert json.loads(one.get(code).to_json()) == json.loads(json.dumps(truth.to_dict()))
        checked += 1
    assert checked == 300 and len(fold(one.events(code)).hands) > 20
    # folding event by event is the same as folding them all at once
    events = one.events(code)
    folder = Folder(events[:1])
    for i in range(1, len(events)):
        folder.add(events[i : i + 1])
        if i % 25 == 0:
            assert folder.state() == fold(events[: i + 1])
    assert folder.state() == fold(events)
    one.close()
    two.close()
