"""``hefen serve``: the web app for phones (calculator, tables, rules)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the web app (calculator, shared tables, rules)",
        description=(
            "Serve the hefen web app with uvicorn. Tables are stored in the table "
            "library's default database (SQLite unless HEFEN_DATABASE_URL names another)."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
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
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from hefen.web import create_app

    app = create_app(database_url=args.database_url, redis_url=args.redis_url)
    print(f"hefen: serving on http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info", ws="websockets")
    return 0
