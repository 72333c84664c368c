"""Server load on loopback: what ``hefen`` web processes do per hand.

Starts ``--processes`` server processes (uvicorn, rate limits off, on
127.0.0.1 only) on a SQLite file (default) or ``--database-url``; more than
one share ``--database-url`` and carry live updates through
``--redis-url``. Then measures:

* **hands/s**: hands recorded one after another through
  ``POST /api/tables/{code}/hands``, ``--per-table`` to a table (32: an
  evening's length; the answer holds the table's every hand, so a very long
  table costs more), each through the next process; and the *server* CPU per
  hand (the processes' user+system time, read from ``/proc``, with the local
  Redis server's when there is one);
* **broadcast**: N tables × 4 sockets on ``/ws/tables/{code}`` (socket k of
  a table on process k mod the processes); one hand recorded on each table
  in turn (``--rate R``: open-loop at R hands/s, several in flight); the time
  from sending the POST to each of the table's four sockets receiving the
  new table (p50/p99);
* **capacity** (``--capacity SECONDS``): hands recorded as fast as the
  servers answer, 8 writers a process, through a bare keep-alive HTTP/1.1
  client (the load generator's CPU kept small): hands/s, the servers' CPU
  per hand, the whole machine's (the database's included) and the cores busy;
* **connects** (``--connects N``): N WebSockets opened all at once, each
  until it has its table: how many opened, how many failed, how long;
* **score**: ``POST /api/score`` sent open-loop at 100 and 200 requests/s
  for a few seconds; latency p50/p99.

The servers print how many full GC passes they made while serving (start-up's
one, before ``gc.freeze()``, left out) and the longest.
``BENCH_WS_PING=SECONDS`` sets the server's WebSocket ping interval
(uvicorn's default, 20 s, otherwise). Everything is bounded (counts and a
deadline per phase) and stays on loopback. Run: ``PYTHONPATH=. python bench/server_load.py [--tables 200] [--rate 100]``
(the issue's figure: ``--tables 2000 --rate 100 --score-rates 100 200 400``;
two processes: ``--processes 2 --database-url postgresql+psycopg://root@127.0.0.1:5432/test
--redis-url redis://127.0.0.1:6379/0``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
HAND = {
    "rules": "mcr",
    "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C", "E", "E"],
    "melds": [],
    "win_tile": "E",
    "flowers": ["1h"],
    "context": {"win": "self_draw", "seat_wind": "E", "round_wind": "E"},
    "options": {},
}
SERVER = """
import os, sys, time, gc, uvicorn
from hefen.web import create_app
pauses = []
def _cb(phase, info, t=[0.0]):
    if phase == "start": t[0] = time.perf_counter()
    elif info["generation"] == 2 and gc.get_freeze_count():  # start-up's own collect left out
        pauses.append((time.perf_counter() - t[0]) * 1e3)
gc.callbacks.append(_cb)
import atexit, signal
def _report(*_):
    longest = f", longest {max(pauses):.0f} ms" if pauses else ""
    print(f"server: {len(pauses)} full GC passes while serving{longest}", flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, _report)
uvicorn.run(create_app(database_url=sys.argv[1], rate_limit=False), host="127.0.0.1",
            port=int(sys.argv[2]), log_level="warning", ws=os.environ.get("BENCH_WS", "websockets-sansio"),
            ws_ping_interval=float(os.environ.get("BENCH_WS_PING", "20")))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def machine_cpu_seconds() -> float:
    """Busy CPU time of the whole machine so far (every core; ``/proc/stat``)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def new_table(client: httpx.AsyncClient) -> tuple[str, str]:
    made = (await client.post("/api/tables", json={"ruleset": "hk"})).json()
    return made["code"], made["host_token"]


async def record(client: httpx.AsyncClient, code: str, token: str, winner: int) -> httpx.Response:
    return await client.post(
        f"/api/tables/{code}/hands",
        json={"winner": winner, "value": 3},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())},
    )


async def bench_hands(
    bases: list[str], pids: list[int], hands: int, per_table: int = 32
) -> dict[str, float]:
    """``hands`` recorded one after another, ``per_table`` to a table (an
    evening is some 16 to 32 hands; a table's answer holds its every hand),
    each through the next server in turn; the CPU is that of every process
    in ``pids`` (the servers, and Redis when there is one)."""
    clients = [httpx.AsyncClient(base_url=b, timeout=30) for b in bases]
    try:
        tables = [await new_table(clients[0]) for _ in range(hands // per_table + 2)]
        code, token = tables[0]
        for i in range(20):  # warm up
            (await record(clients[i % len(clients)], code, token, i % 4)).raise_for_status()
        cpu0, t0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
        for i in range(hands):
            code, token = tables[1 + i // per_table]
            (await record(clients[i % len(clients)], code, token, i % 4)).raise_for_status()
        wall, cpu = time.perf_counter() - t0, sum(cpu_seconds(p) for p in pids) - cpu0
    finally:
        for c in clients:
            await c.aclose()
    return {
        "hands": hands,
        "hands_per_s": hands / wall,
        "server_cpu_ms_per_hand": cpu / hands * 1e3,
    }


async def bench_capacity(
    bases: list[str], pids: list[int], seconds: float, writers: int = 8
) -> dict[str, float]:
    """Throughput at saturation: ``writers`` connections to each server, each
    recording hands on its own tables one after another as fast as the
    server answers, for ``seconds``. The load generator is a bare keep-alive
    HTTP/1.1 client (a prepared request, the answer's length read): some
    40 µs a hand of its own CPU against httpx's 0.5 ms, so that on a small
    machine the servers, not it, are what is measured."""
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as client:
        tables = [await new_table(client) for _ in range(writers * len(bases))]
    done = [0]
    counting, finished = asyncio.Event(), asyncio.Event()

    async def writer(base: str, code: str, token: str) -> None:
        host, port = base.split("://", 1)[1].split(":")
        reader, out = await asyncio.open_connection(host, int(port))
        body = b'{"winner": 0, "value": 3}'

        def head_of(code: str, token: str) -> bytes:
            return (
                f"POST /api/tables/{code}/hands HTTP/1.1\r\nHost: {host}\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nIdempotency-Key: "
            ).encode()

        head = head_of(code, token)
        n = 0
        spare = httpx.AsyncClient(base_url=base, timeout=30)
        try:
            while not finished.is_set():
                if n and n % 32 == 0:  # an evening's length, then a new table
                    head = head_of(*await new_table(spare))
                out.write(head + uuid.uuid4().hex.encode() + b"\r\n\r\n" + body)
                status = await reader.readline()
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                if not status.startswith((b"HTTP/1.1 200", b"HTTP/1.1 201")):
                    raise SystemExit(f"capacity: the server answered {status!r}")
                n += 1
                if counting.is_set():
                    done[0] += 1
        finally:
            out.close()
            await spare.aclose()

    tasks = [
        asyncio.create_task(writer(bases[i % len(bases)], code, token))
        for i, (code, token) in enumerate(tables)
    ]
    await asyncio.sleep(1.0)  # warm up
    counting.set()
    cpu0, mine0, t0 = sum(cpu_seconds(p) for p in pids), time.process_time(), time.perf_counter()
    all0 = machine_cpu_seconds()
    await asyncio.sleep(seconds)
    # a machine too busy to answer in the time asked is measured on until as
    # many hands as writers are counted (a minute more at most), so that the
    # figure is never 0 hands/s for want of waiting
    until = time.monotonic() + 60.0
    while done[0] < len(tables) and time.monotonic() < until:
        await asyncio.sleep(0.05)
    count, wall = done[0], time.perf_counter() - t0
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    machine = machine_cpu_seconds() - all0
    busy = (time.process_time() - mine0) / wall
    finished.set()
    await asyncio.gather(*tasks)
    return {
        "processes": len(bases),
        "writers": len(tables),
        "hands_per_s": count / wall,
        "server_cpu_ms_per_hand": cpu / max(count, 1) * 1e3,
        # everything on the machine: the servers, Redis, the database, the load generator
        "machine_cpu_ms_per_hand": machine / max(count, 1) * 1e3,
        "machine_cores_busy": machine / wall,
        "load_generator_core_share": busy,
    }


async def bench_broadcast(
    bases: list[str], pids: list[int], tables: int, deadline: float, rate: float = 0.0
) -> dict[str, float]:
    """``tables`` tables with four sockets each (socket k on server k mod
    the servers); one hand recorded on each table in turn, through the next
    server, one after another (``rate`` 0) or open-loop at ``rate`` hands/s;
    the time from sending the POST to each socket's new table."""
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
    clients = [httpx.AsyncClient(base_url=b, timeout=60, limits=limits) for b in bases]
    try:
        return await _broadcast(clients, bases, pids, tables, deadline, rate)
    finally:
        for c in clients:
            await c.aclose()


async def _broadcast(
    clients: list[httpx.AsyncClient],
    bases: list[str],
    pids: list[int],
    tables: int,
    deadline: float,
    rate: float,
) -> dict[str, float]:
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    made = [await new_table(clients[0]) for _ in range(tables)]
    sockets: list[list[Any]] = []
    connect0 = time.perf_counter()
    for code, _ in made:
        four = [
            await websockets.connect(
                f"{ws_bases[k % len(ws_bases)]}/ws/tables/{code}",
                open_timeout=60,
                ping_interval=None,
            )
            for k in range(4)
        ]
        for ws in four:
            await asyncio.wait_for(ws.recv(), 60)  # the table as it is
        sockets.append(four)
    connect_s = time.perf_counter() - connect0
    # the load generator's own full GC passes over 8,000 sockets took up to
    # half a second, counted as broadcast latency: keep them out of the figure
    gc.collect()
    gc.freeze()
    latencies: list[float] = []
    lost = 0
    stop = time.monotonic() + deadline

    async def one(i: int, code: str, token: str, four: list[Any]) -> None:
        nonlocal lost
        sent = time.perf_counter()
        waits = [asyncio.create_task(_until_hand(ws)) for ws in four]
        try:
            (await record(clients[i % len(clients)], code, token, 0)).raise_for_status()
        except httpx.HTTPError:
            failed.append(code)  # the POST itself did not get through
        for got in await asyncio.gather(*waits, return_exceptions=True):
            if isinstance(got, float):
                latencies.append((got - sent) * 1e3)
            else:
                lost += 1

    failed: list[str] = []
    cpu0 = sum(cpu_seconds(p) for p in pids)
    mine0 = time.process_time()  # the load generator's own CPU
    started = time.perf_counter()
    tasks = []
    for i, ((code, token), four) in enumerate(zip(made, sockets, strict=True)):
        if time.monotonic() > stop:
            break
        if rate > 0:
            delay = started + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(i, code, token, four)))
        else:
            await one(i, code, token, four)
    await asyncio.gather(*tasks)
    achieved = len(latencies) / 4 / max(time.perf_counter() - started, 1e-9)
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    busy = (time.process_time() - mine0) / max(time.perf_counter() - started, 1e-9)
    recorded = max(1, len(latencies) // 4)
    for four in sockets:
        for ws in four:
            await ws.close()
    return {
        "tables": tables,
        "sockets": tables * 4,
        "connect_s": connect_s,
        "rate": rate,
        "hands_per_s": achieved,
        "deliveries": len(latencies),
        "lost": lost,
        "posts_failed": len(failed),
        "p50_ms": pct(latencies, 50) if latencies else float("nan"),
        "p99_ms": pct(latencies, 99) if latencies else float("nan"),
        "server_cpu_ms_per_hand": cpu / recorded * 1e3,  # its four sends included
        # the share of a core the load generator itself used (near 1: it, not
        # the server, may be what the latencies measure)
        "load_generator_core_share": busy,
    }


async def bench_connects(bases: list[str], sockets: int) -> dict[str, float]:
    """``sockets`` WebSockets opened all at once (four to a table, spread
    over the processes), each until it has the table: how many opened."""
    async with httpx.AsyncClient(base_url=bases[0], timeout=60) as client:
        codes = [(await new_table(client))[0] for _ in range((sockets + 3) // 4)]

    async def one(i: int) -> Any:
        ws_base = bases[i % len(bases)].replace("http://", "ws://")
        ws = await websockets.connect(
            f"{ws_base}/ws/tables/{codes[i // 4]}", open_timeout=60, ping_interval=None
        )
        await asyncio.wait_for(ws.recv(), 60)
        return ws

    started = time.perf_counter()
    opened = await asyncio.gather(*(one(i) for i in range(sockets)), return_exceptions=True)
    seconds = time.perf_counter() - started
    failed = [ws for ws in opened if isinstance(ws, BaseException)]
    for ws in opened:
        if not isinstance(ws, BaseException):
            await ws.close()
    return {
        "sockets": sockets,
        "opened": sockets - len(failed),
        "failed": len(failed),
        "s": seconds,
    }


async def _until_hand(ws: Any) -> float:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg.get("type") == "table" and msg["table"]["hands"]:
            return time.perf_counter()


async def bench_score(bases: list[str], rate: int, seconds: float) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    # the load generator's own GC passes (over what the earlier phases left:
    # thousands of closed sockets) were counted as the server's latency:
    # collected before, and none during the few seconds measured
    gc.collect()
    gc.disable()
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    clients = [httpx.AsyncClient(base_url=b, timeout=30, limits=limits) for b in bases]
    try:

        async def one(i: int) -> None:
            nonlocal errors
            t0 = time.perf_counter()
            r = await clients[i % len(clients)].post("/api/score", json=HAND)
            if r.status_code != 200:
                errors += 1
            latencies.append((time.perf_counter() - t0) * 1e3)

        tasks = []
        start = time.perf_counter()
        for i in range(int(rate * seconds)):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(i)))
        await asyncio.gather(*tasks)
    finally:
        gc.enable()
        for c in clients:
            await c.aclose()
    return {
        "rate": rate,
        "requests": len(latencies),
        "errors": errors,
        "p50_ms": pct(latencies, 50),
        "p99_ms": pct(latencies, 99),
    }


async def main_async(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if args.hands:
        out["hands"] = await bench_hands(bases, pids, args.hands, args.per_table)
        print("hands:", json.dumps(out["hands"]), flush=True)
    if args.capacity:
        out["capacity"] = await bench_capacity(bases, pids, args.capacity)
        print("capacity:", json.dumps(out["capacity"]), flush=True)
    for n in args.tables:
        out[f"broadcast_{n}"] = await bench_broadcast(bases, pids, n, args.deadline, args.rate)
        print(f"broadcast {n} tables:", json.dumps(out[f"broadcast_{n}"]), flush=True)
    if args.connects:
        out["connects"] = await bench_connects(bases, args.connects)
        print("connects at once:", json.dumps(out["connects"]), flush=True)
    for rate in args.score_rates:
        out[f"score_{rate}"] = await bench_score(bases, rate, args.seconds)
        print(f"score {rate}/s:", json.dumps(out[f"score_{rate}"]), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--tables", type=int, nargs="*", default=[200])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--deadline", type=float, default=60.0, help="seconds per broadcast run")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="broadcast: hands/s open-loop (0: one at a time)"
    )
    parser.add_argument(
        "--score-rates", type=int, nargs="*", default=[100, 200], help="POST /api/score rates"
    )
    parser.add_argument(
        "--connects", type=int, default=0, help="WebSockets opened all at once (e.g. 4000)"
    )
    parser.add_argument(
        "--capacity",
        type=float,
        default=0.0,
        help="seconds of hands recorded as fast as the servers answer (throughput)",
    )
    parser.add_argument(
        "--per-table", type=int, default=32, help="hands: hands recorded on each table"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes (more than one: Redis)"
    )
    parser.add_argument(
        "--redis-url",
        default="",
        help="live updates through Redis (needed for --processes 2 and up), e.g. "
        "redis://127.0.0.1:6379/0",
    )
    args = parser.parse_args(argv)
    if args.processes > 1 and not args.redis_url:
        parser.error("--processes above 1 needs --redis-url (the processes share live updates)")
    if args.processes > 1 and not args.database_url:
        parser.error("--processes above 1 needs --database-url (one database for all)")
    folder = tempfile.mkdtemp(prefix="hefen-bench-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HEFEN_REDIS_URL", None)
    if args.redis_url:
        env["HEFEN_REDIS_URL"] = args.redis_url
    ports = [free_port() for _ in range(args.processes)]
    procs = [
        subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)], env=env) for port in ports
    ]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    pids = [p.pid for p in procs] + redis_pids(args.redis_url)
    try:
        for base, proc in zip(bases, procs, strict=True):
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(base + "/", timeout=1)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or proc.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
        asyncio.run(main_async(args, bases, pids))
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)
    return 0


def redis_pids(url: str) -> list[int]:
    """The local Redis server's process, so that its CPU is counted with the
    servers' (a Redis elsewhere is not counted)."""
    if not url or not any(h in url for h in ("127.0.0.1", "localhost")):
        return []
    found = subprocess.run(["pgrep", "-x", "redis-server"], capture_output=True, text=True)
    return [int(p) for p in found.stdout.split()]


if __name__ == "__main__":
    raise SystemExit(main())
