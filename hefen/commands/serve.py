"""``hefen serve``: the web app for phones (calculator, tables, rules).

By default it binds 127.0.0.1 (this machine only). ``--host 0.0.0.0``
serves the local network: it prints the machine's LAN address(es) and a QR
code of the first, and the tables' join links and QR codes carry that
address, so other phones can join. ``--public-url`` (or
``HEFEN_PUBLIC_URL``) names the address phones use instead, e.g. behind a
proxy. The port is bound before anything claims to be serving: a busy port
is one sentence and exit 2.

The LAN addresses are found without network traffic: connecting a UDP
socket sends no packet, it only picks the interface that would be used;
the host name's addresses come from the resolver.

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("192.168.1.5")
(True, True, False)
>>> url_of("192.168.1.5", 8000), url_of("fd00::2", 80)
('http://192.168.1.5:8000/', 'http://[fd00::2]:80/')
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys
from typing import Any, TextIO

from ..addresses import is_loopback
from .args import ping_seconds, port

__all__ = ["register", "lan_addresses", "is_loopback", "url_of", "bind", "startup_lines"]

#: the addresses that mean "every interface"
ANY = ("0.0.0.0", "::", "")

#: private addresses a UDP socket is "connected" to (no packet is sent) to
#: learn which interface, and so which address, the machine uses on its network
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def _usable(addr: str) -> bool:
    try:
        ip = ipaddress.ip_address(addr.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its local networks (no loopback),
    the one its traffic would leave by first; found without sending anything."""
    found: list[str] = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))  # UDP: no packet is sent by connect
                addr = s.getsockname()[0]
        except OSError:
            continue
        if _usable(addr) and addr not in found:
            found.append(addr)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except (OSError, UnicodeError):
        infos = []
    for info in infos:
        addr = str(info[4][0])
        if _usable(addr) and addr not in found:
            found.append(addr)
    return found


def url_of(host: str, port: int) -> str:
    h = f"[{host}]" if ":" in host else host
    return f"http://{h}:{port}/"


#: seconds between WebSocket keepalive pings (uvicorn's default)
WS_PING = 20.0


class BindError(Exception):
    """The address or port cannot be served; the message is one sentence."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (uvicorn serves it), or a
    :class:`BindError` sentence when the port is taken or the address is not this machine's."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise BindError(
                f"Port {port} on {host or 'every address'} is already in use; stop the other "
                "server or choose another with --port."
            ) from e
        if e.errno in (errno.EACCES, errno.EPERM):
            raise BindError(
                f"Port {port} needs more privileges than this user has; choose one above 1023 "
                "with --port."
            ) from e
        if e.errno in (errno.EADDRNOTAVAIL,) or isinstance(e, socket.gaierror):
            raise BindError(
                f"--host {host} is not an address of this machine; use 127.0.0.1 (this "
                "machine only) or 0.0.0.0 (every network)."
            ) from e
        raise BindError(f"Cannot serve on {host}:{port}: {e.strerror or e}.") from e
    return sock


def startup_lines(host: str, port: int, public_url: str | None, lan: list[str]) -> list[str]:
    """What ``hefen serve`` prints once its port is bound.

    >>> startup_lines("127.0.0.1", 8000, None, ["192.168.1.5"])[1]
    'Only this machine can open it; for phones on your network: hefen serve --host 0.0.0.0'
    >>> startup_lines("0.0.0.0", 8000, None, ["192.168.1.5"])[1]
    'Phones on this network open http://192.168.1.5:8000/ (or scan the code below).'
    """
    lines = [f"hefen: serving on {url_of(host or '0.0.0.0', port)}"]
    if public_url:
        lines.append(f"Phones open {public_url} (or scan the code below).")
    elif host in ANY:
        if lan:
            urls = ", ".join(url_of(a, port) for a in lan)
            lines.append(f"Phones on this network open {urls} (or scan the code below).")
        else:
            lines.append(
                "No network address of this machine was found; phones join once it has one."
            )
    elif is_loopback(host):
        lines.append(
            "Only this machine can open it; for phones on your network: hefen serve --host 0.0.0.0"
        )
    return lines


def print_qr(url: str, out: TextIO) -> None:
    """``url`` as a QR code drawn with characters, for a phone's camera."""
    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    try:
        "█▀▄".encode(getattr(out, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):  # a terminal without block characters
        for row in qr.get_matrix():
            out.write("".join("  " if dark else "##" for dark in row) + "\n")
        return
    qr.print_ascii(out=out, invert=True)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web app (calculator, shared tables, rules)",
        description=(
            "Serve the hefen web app with uvicorn. Tables are stored in the table "
            "library's default database (SQLite unless HEFEN_DATABASE_URL names another). "
            "For phones on your network, run with --host 0.0.0.0: the LAN address and a "
            "QR code are printed, and join links carry that address."
        ),
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to bind: 127.0.0.1 for this machine only (default), "
        "0.0.0.0 for phones on your network",
    )
    parser.add_argument("--port", type=port, default=8000, help="port, 1 to 65535 (default 8000)")
    parser.add_argument(
        "--public-url",
        default=None,
        help="the address phones open, used in join links and QR codes, e.g. "
        "https://mahjong.example.org (default: HEFEN_PUBLIC_URL, else the address "
        "the phone used, else the LAN address)",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="SQLAlchemy URL of the table database (default: HEFEN_DATABASE_URL or SQLite)",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="Redis URL for live updates across several serve processes "
        "(default: HEFEN_REDIS_URL, else updates stay in this process)",
    )
    parser.add_argument(
        "--ws-ping",
        type=ping_seconds,
        default=None,
        metavar="SECONDS",
        help="seconds between the pings that keep each phone's live connection open "
        f"and find the ones gone (default: HEFEN_WS_PING, else {WS_PING:g}); a longer "
        "interval costs less on a server with thousands of phones",
    )
    parser.set_defaults(func=run)


def _env_ping(text: str) -> float:
    try:
        return ping_seconds(text)
    except argparse.ArgumentTypeError as e:
        raise BindError(f"HEFEN_WS_PING {e}.") from e


def _env_sqlite_sync() -> None:
    from hefen.table.storage import sqlite_sync

    try:
        sqlite_sync()
    except ValueError as e:
        raise BindError(str(e)) from e


def _public_url(text: str | None) -> str | None:
    if not text:
        return None
    t = text.strip().rstrip("/")
    if not t.startswith(("http://", "https://")) or len(t.split("://", 1)[1]) == 0:
        raise BindError(
            f"--public-url takes an address that starts http:// or https://, not {t!r}."
        )
    return t


def run(args: argparse.Namespace) -> int:
    try:
        public_url = _public_url(args.public_url or os.environ.get("HEFEN_PUBLIC_URL"))
        if args.ws_ping is None and os.environ.get("HEFEN_WS_PING"):
            args.ws_ping = _env_ping(os.environ["HEFEN_WS_PING"])
        _env_sqlite_sync()
        sock = bind(args.host, args.port)
    except BindError as e:
        print(f"hefen serve: {e}", file=sys.stderr)
        return 2
    import uvicorn

    from hefen.web import create_app

    lan = lan_addresses() if args.host in ANY else []
    lan_url = url_of(lan[0], args.port).rstrip("/") if lan else None
    app = create_app(
        database_url=args.database_url,
        redis_url=args.redis_url,
        public_url=public_url,
        lan_url=lan_url,
    )
    for line in startup_lines(args.host, args.port, public_url, lan):
        print(line)
    code_url = public_url or lan_url
    if code_url:
        print_qr(code_url + "/", sys.stdout)
    sys.stdout.flush()
    config = uvicorn.Config(
        app, log_level="info", ws="websockets-sansio", ws_ping_interval=args.ws_ping or WS_PING
    )
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
    return 0
