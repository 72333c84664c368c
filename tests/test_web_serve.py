"""`hefen serve` starts the app with uvicorn."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def test_hefen_serve(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "hefen.cli", "serve", "--port", str(port)]
    cmd += ["--database-url", f"sqlite:///{tmp_path / 'db.sqlite3'}"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "hefen serve did not answer"
                time.sleep(0.1)
        assert r.json() == {"status": "ok"}
        page = httpx.get(f"http://127.0.0.1:{port}/calc", timeout=5)
        assert page.status_code == 200 and "palette" in page.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)
