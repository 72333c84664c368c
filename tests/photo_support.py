"""What the photo tests share: the shared art's folder, the mark that skips without it,
a way to run ``hefen recognize`` in-process, and a model folder with a second look of
one's own."""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from hefen.commands import recognize as recognize_command
from hefen.photo import PhotoError, glyphs
from hefen.photo.classes import READ_CODES, TILE_CODES
from hefen.photo.model import BONUS_H, BONUS_W, MODEL_DIR, TileClassifier

ROOT = Path(__file__).resolve().parents[1]
TILES_DIR = ROOT.parent / "shared" / "tiles"

needs_art = pytest.mark.skipif(not TILES_DIR.is_dir(), reason="shared/tiles is not beside the repo")


def _cjk_fonts_installed() -> bool:
    from hefen.photo import drawn

    return not drawn.missing_fonts()


#: The mark that skips without the Debian fonts the character and number looks' windows
#: are drawn in.
needs_cjk_fonts = pytest.mark.skipif(
    not _cjk_fonts_installed(), reason="the CJK fonts are not installed"
)

#: The mark that skips without the more typefaces the character look is trained on
#: (``glyphs.MORE_CJK_FONTS``).
needs_more_fonts = pytest.mark.skipif(
    bool(glyphs.missing_fonts("more")),
    reason="the character look's more typefaces are not installed",
)


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


def check_bad_look(folder: Path, look: Any, classes: tuple[str, ...], name: str) -> None:
    """A second look (class ``look``, outputs ``classes``, called ``name`` in its errors)
    beside the tile model in ``folder``, damaged, or another network than that look: each
    one sentence."""
    write_look(folder, look.FILES, b"not a model", list(classes), sha="0" * 64)
    with pytest.raises(PhotoError, match=r"^The photo model file does not match its recorded"):
        TileClassifier(folder)
    data = (MODEL_DIR / "tiles.onnx").read_bytes()  # a real network, but not this look
    write_look(folder, look.FILES, data, list(TILE_CODES))
    with pytest.raises(PhotoError, match=rf"^The {name}'s classes are not the ones"):
        look(folder)


class FixedWindowLook:
    """A character or number look with ``classes`` outputs that reads window ``at`` as
    ``probs`` (where given) and every other window as its last class (none); it keeps the
    shape of each batch of windows it is asked to read."""

    def __init__(self, classes: int, probs: list[float] | None = None, at: int = 0) -> None:
        self.classes = classes
        self.probs = None if probs is None else np.asarray(probs, np.float32)
        self.at = at
        self.shapes: list[tuple[int, ...]] = []

    def probabilities(self, windows: np.ndarray) -> np.ndarray:
        self.shapes.append(windows.shape)
        out = np.zeros((len(windows), self.classes), np.float32)
        out[:, -1] = 1.0
        if self.probs is not None:
            out[self.at] = self.probs
        return out


def reading(probs: dict[str, float]) -> np.ndarray:
    """A reading's probabilities (over the read codes and *not a tile*): ``probs`` by tile
    code, 0 elsewhere."""
    out = np.zeros(len(READ_CODES) + 1, np.float32)
    for code, p in probs.items():
        out[READ_CODES.index(code)] = p
    return out


def window_chunks(
    look: str, job: tuple[int, int, float], photo_windows: float = 0.0, typefaces: str = "drawn"
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``scripts/train_photo.py``'s training windows of the window look ``look`` (chars,
    numbers) for ``job``, set in the typefaces ``typefaces``, made twice from the samoheen
    and xhokir styles, the workers' setting put back to the character look's after."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_photo

    styles = ("samoheen", "xhokir")
    train_photo._init_worker(styles, str(TILES_DIR), None, look, 0, photo_windows, typefaces)
    try:
        return train_photo._make_char_chunk(job), train_photo._make_char_chunk(job)
    finally:
        train_photo._init_worker(styles, str(TILES_DIR), None, "chars")


def heic(image: Image.Image, exif: bytes | None = None) -> bytes:
    """``image`` saved as HEIC, as an iPhone saves it, without opening HEIC to Pillow (so
    that a test reading it sees the runtime's opener, not its own); ``exif``'s orientation
    is saved as the rotation a HEIC file keeps (``irot``)."""
    import pillow_heif

    buf = io.BytesIO()
    pillow_heif.from_pillow(image).save(buf, quality=95, exif=exif)
    return buf.getvalue()
