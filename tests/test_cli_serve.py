"""``hefen serve`` for phones on the network (issue #15): ``--host 0.0.0.0``
prints the LAN address and a QR code; join links carry an address other
phones reach; a busy port is one sentence and exit 2."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from hefen.commands.serve import is_loopback, lan_addresses, startup_lines
from hefen.ruleset import DEFAULT_RULESET
from hefen.web import create_app

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _table(client: TestClient, host: str | None = None) -> dict[str, str]:
    headers = {"Host": host} if host else {}
    r = client.post("/api/tables", json={"ruleset": DEFAULT_RULESET}, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()


def test_lan_addresses_are_not_loopback() -> None:
    found = lan_addresses()
    assert all(isinstance(a, str) and not is_loopback(a) for a in found)
    assert len(found) == len(set(found))


def test_join_link_uses_the_public_url(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'p.sqlite3'}", public_url="https://mj.example.org/")
    with TestClient(app) as client:
        t = _table(client)
        assert t["join_url"] == f"https://mj.example.org/t/{t['code']}"
        page = client.get(f"/t/{t['code']}")
        assert f"https://mj.example.org/t/{t['code']}" in page.text


def test_join_link_uses_the_public_url_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEFEN_PUBLIC_URL", "http://10.1.2.3:9000")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'e.sqlite3'}")) as client:
        t = _table(client)
        assert t["join_url"] == f"http://10.1.2.3:9000/t/{t['code']}"


def test_join_link_keeps_a_host_other_phones_reach(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'h.sqlite3'}", lan_url="http://192.168.7.7:8000")
    with TestClient(app) as client:
        t = _table(client, host="192.168.1.20:8000")  # the phone came by the LAN address
        assert t["join_url"] == f"http://192.168.1.20:8000/t/{t['code']}"
        t = _table(client, host="127.0.0.1:8000")  # the host's own browser: the LAN address
        assert t["join_url"] == f"http://192.168.7.7:8000/t/{t['code']}"
        qr = client.get(f"/api/tables/{t['code']}/qr.svg")
        assert qr.status_code == 200 and "<svg" in qr.text
        t = _table(client, host="localhost:8000")
        assert t["join_url"].startswith("http://192.168.7.7:8000/t/")


def test_without_settings_the_link_is_as_the_request_came(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'n.sqlite3'}")) as client:
        t = _table(client)
        assert t["join_url"] == f"http://testserver/t/{t['code']}"


def test_startup_lines_say_how_phones_join() -> None:
    local = startup_lines("127.0.0.1", 8000, None, [])
    assert "--host 0.0.0.0" in local[1]
    lan = startup_lines("0.0.0.0", 8123, None, ["192.168.1.5", "10.0.0.2"])
    assert "http://192.168.1.5:8123/" in lan[1] and "http://10.0.0.2:8123/" in lan[1]
    assert "No network address" in startup_lines("0.0.0.0", 8000, None, [])[1]
    assert "https://x.example" in startup_lines("0.0.0.0", 8000, "https://x.example", [])[1]


def test_a_busy_port_is_one_sentence_and_exit_2() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        p = subprocess.run(
            [sys.executable, "-m", "hefen.cli", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert p.returncode == 2
    assert "serving" not in p.stdout + p.stderr
    err = p.stderr.strip()
    assert "\n" not in err and f"Port {port}" in err and "already in use" in err, err


def test_serve_on_every_address_prints_the_lan_address_and_a_qr_code(tmp_path: Path) -> None:
    port = _free_port()
    cmd = [sys.executable, "-m", "hefen.cli", "serve", "--host", "0.0.0.0", "--port", str(port)]
    cmd += ["--database-url", f"sqlite:///{tmp_path / 'db.sqlite3'}"]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, "hefen serve stopped"
                assert time.monotonic() < deadline, "hefen serve did not answer"
                time.sleep(0.1)
        lan = lan_addresses()
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", json={"ruleset": DEFAULT_RULESET})
        join = r.json()["join_url"]
        if lan:
            assert join.startswith(f"http://{lan[0]}:{port}/t/"), join
        else:
            assert join.startswith(f"http://127.0.0.1:{port}/t/"), join
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0]
    assert f"serving on http://0.0.0.0:{port}/" in out
    if lan:
        assert f"http://{lan[0]}:{port}/" in out
        blocks = [line for line in out.splitlines() if re.search("[█▀▄]", line)]
        assert len(blocks) >= 10  # the QR code, drawn with block characters
        assert len({len(line) for line in blocks}) == 1  # a square
    else:
        assert "No network address" in out


def test_qr_code_without_block_characters() -> None:
    import io

    from hefen.commands.serve import print_qr

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    print_qr("http://192.168.1.5:8000/", out)
    out.flush()
    rows = raw.getvalue().decode("ascii").splitlines()
    assert len(rows) >= 21 and len({len(r) for r in rows}) == 1
    assert set("".join(rows)) == {"#", " "}


@pytest.mark.parametrize(
    "argv,env",
    [(["--ws-ping", "0"], {}), (["--ws-ping", "nan"], {}), ([], {"HEFEN_WS_PING": "soon"})],
    ids=["zero", "nan", "env"],
)
def test_a_bad_ping_interval_is_one_sentence_and_exit_2(
    argv: list[str], env: dict[str, str]
) -> None:
    import os

    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "serve", "--port", str(_free_port()), *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, **env},
    )
    err = p.stderr.strip()
    assert p.returncode == 2 and "serving" not in p.stdout, (p.stdout, err)
    assert "\n" not in err.splitlines()[-1] and "seconds between pings, from 1 to 3600" in err, err


def test_the_ping_interval_reaches_uvicorn(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``--ws-ping`` (or HEFEN_WS_PING) is what uvicorn pings the sockets at."""
    import uvicorn

    from hefen.commands import serve

    seen: list[float | None] = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets=None: seen.append(self.config.ws_ping_interval)
    )
    parser = __import__("argparse").ArgumentParser()
    serve.register(parser.add_subparsers())
    for argv, env, want in (
        (["serve", "--port", str(_free_port()), "--ws-ping", "45"], None, 45.0),
        (["serve", "--port", str(_free_port())], "30", 30.0),
        (["serve", "--port", str(_free_port())], None, serve.WS_PING),
    ):
        if env is None:
            monkeypatch.delenv("HEFEN_WS_PING", raising=False)
        else:
            monkeypatch.setenv("HEFEN_WS_PING", env)
        args = parser.parse_args([*argv, "--database-url", f"sqlite:///{tmp_path / 'db.sqlite3'}"])
        monkeypatch.setattr(serve, "print_qr", lambda *a, **k: None)
        assert serve.run(args) == 0
        assert seen[-1] == want


def test_a_bad_sqlite_sync_is_one_sentence_and_exit_2() -> None:
    import os

    p = subprocess.run(
        [sys.executable, "-m", "hefen.cli", "serve", "--port", str(_free_port())],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "HEFEN_SQLITE_SYNC": "off"},
    )
    err = p.stderr.strip()
    assert p.returncode == 2 and "serving" not in p.stdout, (p.stdout, err)
    assert err == "hefen serve: HEFEN_SQLITE_SYNC takes normal or full, not 'off'.", err


def test_serve_runs_the_sansio_websockets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The sans-I/O WebSocket protocol: its keepalive pings are timers, not a
    task per socket (at 8,000 sockets the legacy one's pings held broadcast
    p99 at 35 ms against 11 ms, bench/server_load.py)."""
    import uvicorn

    from hefen.commands import serve

    seen: list[str] = []
    monkeypatch.setattr(
        uvicorn.Server, "run", lambda self, sockets=None: seen.append(self.config.ws)
    )
    monkeypatch.setattr(serve, "print_qr", lambda *a, **k: None)
    parser = __import__("argparse").ArgumentParser()
    serve.register(parser.add_subparsers())
    args = parser.parse_args(
        ["serve", "--port", str(_free_port()), "--database-url", f"sqlite:///{tmp_path / 'd.db'}"]
    )
    assert serve.run(args) == 0
    assert seen == ["websockets-sansio"]
