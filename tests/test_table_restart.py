"""A process recording hands is killed with SIGKILL; a new process opening the
same database finds every hand it had reported as recorded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from hefen.table import open_store

REPO = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(
    """
    import sys
    from hefen.table import open_store

    store = open_store(sys.argv[1])
    t = store.create_table("hk", names=["Ann", "Bo", "Cy", "Di"], options={"min_fan": 0})
    print("TABLE", t.code, t.host_token, flush=True)
    n = 0
    while True:
        seat = n % 4
        if n % 5 == 4:
            rec = store.record_draw(t.code, t.host_token)
        else:
            rec = store.record_win(
                t.code, t.host_token, winner=seat, discarder=(seat + 1) % 4, value=n % 8
            )
        print("HAND", rec.id, rec.number, *rec.balances, flush=True)
        n += 1
    """
)


def test_sigkill_loses_no_recorded_hand(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("HEFEN_DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, url],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[list[str]] = []
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.split())
            if sum(1 for p in lines if p[0] == "HAND") >= 25:
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
    assert lines and lines[0][0] == "TABLE", proc.stderr.read() if proc.stderr else ""
    code = lines[0][1]
    reported = [p for p in lines if p[0] == "HAND"]
    assert len(reported) >= 25

    # a brand-new process reads the database
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from hefen.table import open_store; s = open_store(sys.argv[1]); "
            "st = s.get(sys.argv[2]); print(len(st.hands), *st.balances)",
            url,
            code,
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
    count = int(check.stdout.split()[0])
    assert count >= len(reported)  # the hand being recorded at the kill may also be there

    store = open_store(url)
    try:
        state = store.get(code)
        for p in reported:
            hand_id, number = int(p[1]), int(p[2])
            record = state.hand(hand_id)
            assert record.number == number
            assert [str(b) for b in record.balances] == p[3:]
        assert [e.seq for e in store.events(code)] == list(range(1, len(store.events(code)) + 1))
        assert sum(state.balances) == 0
        # and the table goes on where it stopped
        assert state.next.hand_number == count + 1
        store.record_draw(code, lines[0][2])
        assert len(store.get(code).hands) == count + 1
    finally:
        store.close()
