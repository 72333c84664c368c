"""The art styles the photo model is trained on: loading, choosing, and the drawn faces.

The two font styles need Debian's fonts (``scripts/test`` installs them); the styles of
``../shared/tiles`` need that folder.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hefen.photo import drawn, synth
from hefen.photo.classes import TILE_CODES

TILES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "tiles"
needs_fonts = pytest.mark.skipif(
    bool(drawn.missing_fonts()) or not all(f.exists() for f in synth.SYMBOL_FONTS),
    reason="the font styles' Debian fonts are not installed",
)


def test_an_unknown_style_is_one_sentence() -> None:
    with pytest.raises(ValueError, match="there is no art style 'nope'; the styles are samoheen"):
        synth.check_styles(["samoheen", "nope"])


def test_missing_artwork_names_the_folder(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="samoheen art style needs .*samoheen_hk"):
        synth.load_art(("samoheen",), tiles_dir=tmp_path)


def test_pick_gives_each_style_an_equal_chance() -> None:
    face = synth.Face(rgb=np.zeros((4, 3, 3), np.float32), alpha=np.zeros((4, 3), np.float32))
    few, many = synth.Art(), synth.Art()
    few.add("1m", face)
    for _ in range(9):
        many.add("1m", synth.Face(rgb=face.rgb.copy(), alpha=face.alpha.copy()))
    art = synth.Art()
    art.extend(few, "few")
    art.extend(many, "many")
    rng = np.random.default_rng(0)
    picks = [art.pick(rng, "1m") is face for _ in range(2000)]
    assert 0.45 < np.mean(picks) < 0.55  # not 1 in 10


@needs_fonts
def test_drawn_faces_cover_every_tile_but_the_bird_and_are_reproducible() -> None:
    assert set(drawn.drawable_codes()) == set(TILE_CODES) - {"1s"}
    for code in drawn.drawable_codes():
        faces = drawn.draw_faces(code, variants=3)
        assert len(faces) == 3
        for rgba in faces:
            assert rgba.shape == (drawn.H, drawn.W, 4) and rgba.dtype == np.uint8
            ink = (rgba[:, :, 3] > 127).mean()
            # the white dragon may be blank; every other face has ink, none is a blot
            assert ink < 0.6 and (ink > 0.01 or code == "P"), (code, ink)
        assert all(
            np.array_equal(a, b) for a, b in zip(faces, drawn.draw_faces(code, 3), strict=True)
        )


@needs_fonts
def test_drawn_pips_and_sticks_follow_the_count() -> None:
    # the circles' ink falls into as many blobs as the tile has pips
    import cv2

    for n in range(2, 10):
        face = drawn.draw_faces(f"{n}p", variants=1)[0]
        blobs = cv2.connectedComponents((face[:, :, 3] > 127).astype(np.uint8))[0] - 1
        assert blobs >= n, (n, blobs)


@needs_fonts
def test_font_styles_load_as_training_styles() -> None:
    art = synth.load_art(synth.FONT_STYLES)
    assert set(art.faces) == set(TILE_CODES)  # symbols draws the bird
    assert set(art.styles["1s"]) == {"symbols"}
    assert set(art.styles["5p"]) == {"symbols", "drawn"}
    assert art.styles["5p"].count("drawn") == drawn.VARIANTS
