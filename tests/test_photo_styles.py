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


def test_pick_weighs_styles_and_their_parts_when_told() -> None:
    face = synth.Face(rgb=np.zeros((4, 3, 3), np.float32), alpha=np.zeros((4, 3), np.float32))
    one = synth.Art()
    one.add("1m", face)
    for _ in range(3):  # a part of the style: its printed faces
        one.add("1m", synth.Face(rgb=face.rgb.copy(), alpha=face.alpha.copy()), "printed")
    other = synth.Art()
    other.add("1m", synth.Face(rgb=face.rgb.copy(), alpha=face.alpha.copy()))
    art = synth.Art()
    art.extend(one, "drawn")
    art.extend(other, "other")
    assert art.styles["1m"] == ["drawn"] + ["drawn/printed"] * 3 + ["other"]
    rng = np.random.default_rng(0)
    # unweighted, the parts are one style: half the picks, a quarter of them the face
    assert 0.09 < np.mean([art.pick(rng, "1m") is face for _ in range(2000)]) < 0.16
    art.weights = {"drawn/printed": 2.0, "other": 0.0}
    picks = [art.pick(rng, "1m") for _ in range(2000)]
    assert 0.29 < np.mean([p is face for p in picks]) < 0.38  # 1 in 3
    assert not any(p is other.faces["1m"][0] for p in picks)


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


def test_every_other_arrangement_has_the_tiles_number_of_pips_or_sticks() -> None:
    for n, ways in drawn._PIPS_MORE.items():
        for way in ways:
            assert len(way) == n and all(0 < x < 1 and 0 < y < 1 for x, y in way), (n, way)
    for n, ways in drawn._STICKS_MORE.items():
        for stick_way in ways:
            assert len(stick_way) == n, (n, stick_way)
            assert all(0 < x < 1 and 0 < y < 1 and abs(t) < 45 for x, y, t in stick_way)
    assert set(drawn.LAID) == {"1s"} | {f"{n}p" for n in drawn._PIPS_MORE} | {
        f"{n}s" for n in drawn._STICKS_MORE
    }


@needs_fonts
def test_laid_faces_draw_birds_and_other_arrangements_reproducibly() -> None:
    import cv2

    for code in drawn.LAID:
        faces = drawn.laid_faces(code, count=4)
        assert len(faces) == 4
        for rgba in faces:
            assert rgba.shape == (drawn.H, drawn.W, 4) and rgba.dtype == np.uint8
            ink = (rgba[:, :, 3] > 127).mean()
            assert 0.03 < ink < 0.7, (code, ink)
        again = drawn.laid_faces(code, count=4)
        assert all(np.array_equal(a, b) for a, b in zip(faces, again, strict=True))
        # the faces differ from one another: not one drawing four times
        assert not np.array_equal(faces[0], faces[1])
    # a bird is one figure, not a scatter of pips: its largest piece holds most of its ink
    for rgba in drawn.laid_faces("1s", count=6):
        mask = (rgba[:, :, 3] > 127).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        assert stats[1:, cv2.CC_STAT_AREA].max() > 0.6 * mask.sum()
    # a 6 of bamboos in two columns of three: its sticks stand in three rows
    rgba = drawn.laid_faces("6s", count=1)[0]
    rows = (rgba[:, :, 3] > 127).any(axis=1).astype(int)
    assert np.count_nonzero(np.diff(rows) == 1) + rows[0] == 3


@needs_fonts
def test_the_laid_style_loads_beside_the_training_styles() -> None:
    assert synth.LAID_STYLE not in synth.TRAINING_STYLES  # the tile model was not trained on it
    art = synth.load_art(synth.FONT_STYLES + (synth.LAID_STYLE,))
    assert art.styles["1s"].count(synth.LAID_STYLE) == drawn.LAID_VARIANTS
    assert art.styles["6s"].count(synth.LAID_STYLE) == drawn.LAID_VARIANTS
    assert synth.LAID_STYLE not in art.styles["1m"]


@needs_fonts
def test_font_styles_load_as_training_styles() -> None:
    art = synth.load_art(synth.FONT_STYLES)
    assert set(art.faces) == set(TILE_CODES)  # symbols draws the bird
    assert set(art.styles["1s"]) == {"symbols"}
    assert set(art.styles["5p"]) == {"symbols", "drawn"}
    assert art.styles["5p"].count("drawn") == drawn.VARIANTS


@needs_fonts
def test_printed_bonus_faces_carry_ink_and_are_reproducible() -> None:
    for code in ("1h", "4h", "5h", "8h"):
        faces = drawn.printed_faces(code, count=3)
        assert len(faces) == 3
        for rgba in faces:
            assert rgba.shape == (drawn.H, drawn.W, 4) and rgba.dtype == np.uint8
            ink = (rgba[:, :, 3] > 127).mean()
            assert 0.01 < ink < 0.6, (code, ink)
        again = drawn.printed_faces(code, count=3)
        assert all(np.array_equal(a, b) for a, b in zip(faces, again, strict=True))
    # drawn's bonus tiles: the pictures and as many more printed faces
    art = synth.load_art(synth.FONT_STYLES)
    assert art.styles["5h"].count("drawn") == drawn.VARIANTS
    assert art.styles["5h"].count("drawn/printed") == drawn.PRINTED


def test_things_on_the_table_are_drawn_inside_their_box() -> None:
    rng = np.random.default_rng(3)
    for kind in synth.THINGS:
        canvas = np.full((120, 160, 3), 90.0, np.float32)
        assert synth.draw_thing(rng, canvas, (30, 20, 130, 100), kind) == kind
        changed = np.abs(canvas - 90.0).max(axis=2) > 1
        assert changed[20:101, 30:131].mean() > 0.1, kind
        outside = changed.copy()
        outside[20:101, 30:131] = False
        assert not outside.any(), kind


@needs_fonts
def test_a_tile_back_is_drawn_as_the_sets_back_colour() -> None:
    rng = np.random.default_rng(4)
    look = synth.TileLook.random(rng)
    look.back = np.array([30.0, 120.0, 70.0], np.float32)
    look.glare = 0.0
    img, mask = synth.draw_tile(rng, None, look, 60, 80)
    face = img[10:70, 10:50].reshape(-1, 3).mean(0)
    assert face[1] > face[0] + 40 and face[1] > face[2] + 20  # green, not ivory
    assert mask.shape == img.shape[:2]
    art = synth.load_art(synth.FONT_STYLES)
    crop = synth.tile_crop(rng, art, "back")
    assert crop.shape == (synth.CROP_H, synth.CROP_W) and crop.dtype == np.uint8
    assert synth.tile_crop(rng, art, None).shape == crop.shape  # not a tile, things included
