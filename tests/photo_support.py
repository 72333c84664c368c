"""What the photo tests share: the shared art's folder, the mark that skips without it
and a way to run ``hefen recognize`` in-process."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from hefen.commands import recognize as recognize_command

TILES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "tiles"

needs_art = pytest.mark.skipif(not TILES_DIR.is_dir(), reason="shared/tiles is not beside the repo")


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hefen")
    recognize_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.func(args))
