"""Tile sets the photo model never saw, for measuring only: KMahjongg's tile sets.

Debian's ``kdegames-mahjongg-data-kf5`` ships the tile artwork of KDE's KMahjongg (GPL-2+,
each set's authors in its ``.copyright`` file). It is read in place from
``/usr/share/kmahjongglib/tilesets`` and rendered with ``rsvg-convert`` (``librsvg2-bin``);
nothing of it is copied into the repository or used for training. Two of its sets are drawn
like real Chinese tiles and are used here: ``default`` (Raquel Ravanini) and ``traditional``
(James L. Hammons). Every set lays its 42 faces out in the same grid, one face
``TileFaceWidth`` x ``TileFaceHeight`` (from the set's ``.desktop`` file) per cell, below one
row of tile bodies ``TileHeight`` high.

    apt-get install kdegames-mahjongg-data-kf5 librsvg2-bin
"""

from __future__ import annotations

import configparser
import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hefen.photo import synth  # noqa: E402

TILESETS_DIR = Path("/usr/share/kmahjongglib/tilesets")
SETS = ("default", "traditional")
#: The face grid, row by row (KMahjongg's WIND_1..4 are north, south, east, west).
GRID = (
    [f"{n}m" for n in range(1, 10)],
    [f"{n}s" for n in range(1, 10)],
    [f"{n}p" for n in range(1, 10)],
    ["1h", "2h", "3h", "4h", "N", "S", "E", "W"],
    ["P", "F", "C", "5h", "6h", "7h", "8h"],
)
SCALE = 4  # render at four times the SVG's size


def missing() -> str | None:
    """Why the unseen sets cannot be read here, or None."""
    if not all((TILESETS_DIR / f"{s}.svgz").exists() for s in SETS):
        return (
            "KMahjongg's tile sets are not installed (apt-get install kdegames-mahjongg-data-kf5)"
        )
    if shutil.which("rsvg-convert") is None:
        return "rsvg-convert is not installed (apt-get install librsvg2-bin)"
    return None


def load_set(name: str) -> synth.Art:
    """The 42 faces of KMahjongg tile set ``name``."""
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.read(TILESETS_DIR / f"{name}.desktop")
    info = desktop["KMahjonggTileset"]
    face_w, face_h = int(info["TileFaceWidth"]), int(info["TileFaceHeight"])
    top = int(info["TileHeight"])
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / f"{name}.svg"
        svg.write_bytes(gzip.decompress((TILESETS_DIR / f"{name}.svgz").read_bytes()))
        png = Path(tmp) / f"{name}.png"
        subprocess.run(["rsvg-convert", "-z", str(SCALE), "-o", str(png), str(svg)], check=True)
        with Image.open(png) as im:
            sheet = np.asarray(im.convert("RGBA"))
    art = synth.Art()
    inset = 0.04  # inside the cell's border line
    for r, row in enumerate(GRID):
        for c, code in enumerate(row):
            x0, y0 = c * face_w * SCALE, (top + r * face_h) * SCALE
            dx, dy = round(inset * face_w * SCALE), round(inset * face_h * SCALE)
            cell = sheet[y0 + dy : y0 + face_h * SCALE - dy, x0 + dx : x0 + face_w * SCALE - dx]
            rgba = cell.copy()
            # The sets paint a near-white face behind the drawing: keep only the drawing.
            pale = rgba[:, :, :3].min(axis=2) > 225
            rgba[pale, 3] = 0
            art.add(code, synth.face_from_rgba(rgba))
    return art
