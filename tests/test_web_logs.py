"""Tokens never travel in URLs and never reach the server's log: a real
``hefen serve`` (uvicorn, access log on) is driven through seats, sockets
and a careless client, and its whole output is searched for the tokens."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_access_log_never_shows_a_token(tmp_path: Path) -> None:
    port = _free_port()
    log = tmp_path / "serve.log"
    env = {
        **os.environ,
        "HEFEN_DATABASE_URL": f"sqlite:///{tmp_path / 'logs.sqlite3'}",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("HEFEN_REDIS_URL", None)
    cmd = [sys.executable, "-m", "hefen.cli", "serve", "--port", str(port)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    tokens: list[str] = []
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        with httpx.Client(base_url=base, timeout=10) as http:
            made = http.post(
                "/api/play",
                json={"ruleset": "mcr", "bots": [None, None, "simple", "simple"], "seat": 0},
            ).json()
            code, token = made["code"], made["token"]
            joined = http.post(f"/api/play/{code}/join", json={"seat": 1}).json()
            table = http.post("/api/tables", json={"ruleset": "hk"}).json()
            tokens += [token, joined["token"], table["host_token"]]
            bearer = {"Authorization": f"Bearer {token}"}
            assert http.get(f"/api/play/{code}", headers=bearer).json()["seat"] == 0
            r = http.get(f"/api/tables/{table['code']}/whoami", headers=bearer)
            assert r.status_code == 403
            # a careless client puts tokens in URLs: refused, and not logged
            assert http.get(f"/api/play/{code}?token={token}").json()["seat"] is None
            http.get(f"/play/{code}?token={joined['token']}&lang=en")
            http.get(f"/t/{table['code']}?host_token={table['host_token']}")
        ws_base = f"ws://127.0.0.1:{port}/ws/play/{code}"
        with connect(ws_base, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "auth", "token": token}))
            first = json.loads(ws.recv(timeout=10))
            assert first["type"] == "state" and first["seat"] == 0
        with pytest.raises(ConnectionClosed) as closed:
            with connect(f"{ws_base}?token={joined['token']}", open_timeout=10) as ws:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
        assert "never put in the URL" in closed.value.rcvd.reason
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    text = log.read_text()
    # the access log is on and has these requests ...
    assert f'"GET /api/play/{code} HTTP/1.1" 200' in text, text
    assert f"/api/play/{code}?token=[redacted]" in text, text
    assert "WebSocket /ws/play/" in text, text
    # ... but never a token
    for secret in tokens:
        assert secret not in text, text
