"""What the photo tests share: the shared art's folder, the mark that skips without it,
a way to run ``hefen recognize`` in-process, and a model folder with a second look of
one's own."""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from hefen.commands import recognize as recognize_command
from hefen.photo.model import BONUS_H, BONUS_W, MODEL_DIR

TILES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "tiles"

needs_art = pytest.mark.skipif(not TILES_DIR.is_dir(), reason="shared/tiles is not beside the repo")


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hefen")
    recognize_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.func(args))


def copy_model(folder: Path) -> Path:
    """``folder`` with a copy of the shipped tile model only (no second looks)."""
    for name in ("tiles.onnx", "model.json"):
        shutil.copy(MODEL_DIR / name, folder / name)
    return folder


def write_look(
    folder: Path, files: tuple[str, str], data: bytes, classes: list[str], sha: str | None = None
) -> None:
    """A second look's network ``data`` and its JSON (``files``) in ``folder``."""
    (folder / files[0]).write_bytes(data)
    meta = {"classes": classes, "sha256": sha or hashlib.sha256(data).hexdigest()}
    (folder / files[1]).write_text(json.dumps(meta))


def check_shipped_look(
    look: object, classes: int, size: tuple[int, int] = (BONUS_H, BONUS_W)
) -> None:
    """A shipped second look reads two plain crops (``size``: height, width) as
    ``classes`` probabilities each, and none as none."""
    assert look is not None
    crops = np.full((2, *size), 180, np.uint8)
    probs = look.probabilities(crops)  # type: ignore[attr-defined]
    assert probs.shape == (2, classes)
    assert np.allclose(probs.sum(1), 1.0, atol=0.02)  # int8: its softmax in 1/255 steps
    assert look.probabilities(crops[:0]).shape == (0, classes)  # type: ignore[attr-defined]
