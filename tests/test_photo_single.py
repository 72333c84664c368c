"""Pictures of one tile (``hefen recognize --tile``, ``classify_tile``, ``teach_tile``).

The photographs are ``synth.tile_photo``'s: one tile standing, lying or seen at three
quarters, on a table or a shop's plain ground, at any size in the frame, now and then
turned or cut to the tile, with a real camera's light and noise. Seeds far from training's.
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from photo_support import TILES_DIR, needs_art, run_cli
from PIL import Image, ImageDraw

from hefen.photo import TILE_CODES, PhotoError, classify_tile, single, synth, teach_tile
from hefen.photo.classes import BONUS
from hefen.photo.single import _ground_quads, _parts, _upright, tile_quads

TEST_SEED = 31_337_501


@pytest.fixture(scope="module")
def art() -> synth.Art:
    return synth.load_art(tiles_dir=TILES_DIR)


def _png(image: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(image).save(buf, format="PNG")
    return buf.getvalue()


# --------------------------------------------------------------------------- finding it


def test_a_turned_rectangle_is_given_from_its_top_left_corner_round() -> None:
    box = cv2.boxPoints(((200.0, 150.0), (60.0, 90.0), 20.0))
    q = _upright(np.asarray(box, np.float32))
    assert q[0].sum() == pytest.approx(float(np.min(box.sum(1))))
    # round the screen clockwise: top left, top right, bottom right, bottom left
    (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[1]
    assert ax * by - ay * bx > 0


def test_the_tile_is_found_on_a_plain_white_ground_and_on_felt() -> None:
    """A tile-shaped ivory rectangle with a drawing: the first place looked at is it, on a
    white studio ground (where its body shows only by its rim and shadow) and on felt."""
    for ground in ((250, 250, 250), (40, 110, 60)):
        img = np.zeros((300, 400, 3), np.uint8)
        img[:] = ground
        cv2.rectangle(img, (152, 72), (252, 222), (140, 140, 140), -1)  # its shadow
        cv2.rectangle(img, (150, 70), (250, 220), (238, 232, 214), -1)
        cv2.rectangle(img, (150, 70), (250, 220), (200, 196, 180), 2)
        cv2.putText(img, "5", (178, 175), cv2.FONT_HERSHEY_SIMPLEX, 2.5, (180, 20, 20), 6)
        quads = tile_quads(img)
        assert len(quads) >= 2
        (x0, y0), (x1, y1) = quads[0].min(0), quads[0].max(0)
        assert abs(x0 - 150) < 12 and abs(x1 - 250) < 12, quads[0]
        assert abs(y0 - 70) < 12 and abs(y1 - 220) < 12, quads[0]
        assert quads[-1].max(0).tolist() == [400, 300]  # the whole picture, last


def test_a_tile_whose_rim_does_not_show_is_found_by_what_differs_from_the_border() -> None:
    """An ivory body on a noisy grey ground, no rim, no shadow, two circles far apart on
    it: GrabCut (the border taken as ground) finds the body, not the circles, and
    ``tile_quads`` offers it."""
    rng = np.random.default_rng(5)
    img = np.clip(rng.normal(150, 6, (300, 400, 3)), 0, 255).astype(np.uint8)
    img[60:240, 140:260] = (236, 228, 206)
    for y in (100, 200):
        cv2.circle(img, (200, y), 22, (30, 60, 160), -1)
    quads = _ground_quads(img)
    assert len(quads) == 1
    quad = quads[0]
    (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
    assert abs(x0 - 140) < 8 and abs(x1 - 260) < 8, quad
    assert abs(y0 - 60) < 8 and abs(y1 - 240) < 8, quad
    assert any(np.abs(q - _upright(quad)).max() < 1 for q in tile_quads(img))


def test_a_picture_of_nothing_but_ground_gives_no_ground_quads() -> None:
    img = np.full((200, 300, 3), 128, np.uint8)
    assert _ground_quads(img) == []


def test_a_rectangle_inside_a_larger_one_is_a_part_of_it_one_beside_it_is_not() -> None:
    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)

    tile, pip, thing = box(100, 100, 200, 240), box(120, 120, 150, 150), box(300, 50, 600, 350)
    whole = box(0, 0, 640, 480)
    parts = _parts([tile, pip, thing, whole])
    assert parts[0] == 0.0  # beside the thing, not inside it
    assert parts[1] == pytest.approx(np.log(100 * 140 / (30 * 30)), rel=0.02)  # in the tile
    assert parts[2] == 0.0 and parts[3] == 0.0  # the largest; the whole picture
    # a picture read surely as a tile holds all found in it: the tile is cut to its face
    held = _parts([tile, pip, thing, whole], whole_holds=True)
    assert held[0] == pytest.approx(np.log(640 * 480 / (100 * 140)), rel=0.02)
    assert held[1] == pytest.approx(np.log(640 * 480 / (30 * 30)), rel=0.02)  # the largest
    assert held[2] == pytest.approx(np.log(640 * 480 / (300 * 300)), rel=0.02)
    assert held[3] == 0.0


def test_two_round_things_apart_are_pips_the_whole_picture_holds() -> None:
    """A photo of one tile holds one tile, and no tile is round: where two round
    quadrilaterals lie apart, each is a part of the picture, even where the picture is not
    read surely as a tile (a 4 of circles found only as its pips was read as the 1). One
    round quadrilateral alone, or one found twice over itself, or a round one beside a
    tile-shaped one, is not."""

    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)

    whole = box(0, 0, 450, 600)
    pip, other = box(245, 380, 395, 530), box(45, 50, 190, 195)
    parts = _parts([pip, other, whole])
    assert parts[0] == pytest.approx(np.log(450 * 600 / (150 * 150)), rel=0.02)
    assert parts[1] == pytest.approx(np.log(450 * 600 / (145 * 145)), rel=0.02)
    assert parts[2] == 0.0
    assert _parts([pip, whole]) == [0.0, 0.0]
    assert _parts([pip, box(250, 385, 398, 530), whole])[0] == 0.0  # the same pip twice
    tile = box(20, 20, 230, 300)  # tile-shaped, apart from the pip
    assert _parts([pip, tile, whole]) == [0.0, 0.0, 0.0]


def circles_face(width: int = 300, height: int = 400) -> np.ndarray:
    """A photo cut to the face of a 4 of circles: four ringed pips on ivory."""
    im = Image.new("RGB", (width, height), (236, 226, 200))
    d = ImageDraw.Draw(im)
    r = 0.2 * width
    for i, (x, y) in enumerate(((0.28, 0.25), (0.72, 0.25), (0.28, 0.75), (0.72, 0.75))):
        cx, cy = x * width, y * height
        for k, rr in enumerate((r, r * 0.72, r * 0.45, r * 0.2)):
            ink = ((30, 120, 60), (30, 30, 30))[i % 2] if k % 2 == 0 else (236, 226, 200)
            d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=ink)
    return np.asarray(im)


def test_a_picture_read_surely_as_a_tile_holds_what_is_found_in_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``read_tile`` makes the whole picture a holder of what is found in it (``_parts``)
    where the picture is read surely as a tile (cut to the tile's face), and not where it
    shows a tile on a table."""
    holds: list[bool] = []

    def parts(quads: list[np.ndarray], whole_holds: bool = False) -> list[float]:
        holds.append(whole_holds)
        return real(quads, whole_holds)

    real = single._parts
    monkeypatch.setattr(single, "_parts", parts)
    assert TILE_CODES[single.read_tile(circles_face()).index] == "4p"
    table = np.full((300, 400, 3), 60, np.uint8)
    table[100:200, 170:240] = 235  # a small pale tile on a dark table
    single.read_tile(table)
    assert holds == [True, False]


# --------------------------------------------------------------------------- reading it


@needs_art
def test_photographs_of_one_tile_are_read(art: synth.Art) -> None:
    """84 photographs, two of each kind: read 90 % right or better (all 84 are; the whole
    picture squeezed to a crop, as before, got 30 of them wrong; docs/photo.md)."""
    rng = np.random.default_rng(TEST_SEED)
    wrong = []
    for i in range(84):
        code = TILE_CODES[i % len(TILE_CODES)]
        got, confidence, alternatives = classify_tile(synth.tile_photo(rng, art, code))
        assert 0.0 <= confidence <= 1.0 and len(alternatives) == 3
        assert got not in [c for c, _ in alternatives]
        if got != code:
            wrong.append(f"{code}->{got}")
    assert len(wrong) <= 8, wrong


#: The photos (``synth.tile_photo`` of the training styles, seed 31,338,000 + n, the n-th
#: kind of the 34 suit and honour tiles) of 400 that the tile finder before GrabCut and
#: the part cost misread: a pip, a character or a row of pips cut as if it were the tile
#: (a 3 of circles read as a 1), or the whole picture squeezed where the tile is small.
MISREAD_BEFORE = (1, 83, 92, 132, 186, 208, 209, 220, 221, 227, 234, 242, 322, 339, 340)
MISREAD_BEFORE += (357, 370, 380, 390)


@needs_art
def test_photos_whose_tile_was_found_in_part_are_read(art: synth.Art) -> None:
    """Of the 19 photos the earlier finder misread (0 of 19 right), at least 10 are read
    right now (12 when this was written; 390 of the 400 against 381 before)."""
    from hefen.photo.classes import HONORS, SUITED

    kinds = SUITED + HONORS
    right = []
    for n in MISREAD_BEFORE:
        seed = 31_338_000 + n
        code = kinds[seed % len(kinds)]
        if classify_tile(synth.tile_photo(np.random.default_rng(seed), art, code))[0] == code:
            right.append(n)
    assert len(right) >= 10, right


def _with_a_thing_beside(rng: np.random.Generator, art: synth.Art, code: str) -> np.ndarray:
    """A photo of one tile with its ground mirrored out to the right, blurred, and a thing
    (``synth.draw_thing``: a box, a phone, a card, a hand, paper, a cup) drawn there, as
    large as the tile or half as large again."""
    image, corners = synth.tile_photo_at(rng, art, code)
    h, w = image.shape[:2]
    side = cv2.blur(np.ascontiguousarray(image[:, ::-1]).astype(np.float32), (51, 51))
    canvas = np.concatenate([image.astype(np.float32), side], axis=1)
    size = float(np.ptp(corners[:, 1])) * rng.uniform(0.8, 1.5)
    x0, y0 = w + rng.uniform(0, max(1.0, w - size)), rng.uniform(0, max(1.0, h - size))
    synth.draw_thing(rng, canvas, (x0, y0, min(2 * w - 1, x0 + 1.2 * size), min(h - 1, y0 + size)))
    return np.clip(canvas, 0, 255).astype(np.uint8)


@needs_art
def test_a_tile_with_a_thing_beside_it_is_read(art: synth.Art) -> None:
    """Where something larger than the tile lies beside it, the tile is still found (each
    of GrabCut's two largest pieces is offered) and is not costed as a part of the thing
    (only a rectangle inside a larger one is a part): 12 of 20 right or better (14 when
    this was written; the finder before read 8 of them, and 36 % of 175 other such photos
    against 77 % now)."""
    rng = np.random.default_rng(TEST_SEED + 7)
    right = 0
    for i in range(20):
        code = TILE_CODES[(7 * i) % 34]
        right += classify_tile(_with_a_thing_beside(rng, art, code))[0] == code
    assert right >= 12, right


@needs_art
def test_a_tile_turned_a_quarter_is_read_as_upright(art: synth.Art) -> None:
    """A picture of a tile lying sideways reads as the tile: turned either way."""
    style = synth.load_art(("samoheen",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 1)
    codes = ["1m", "5m", "9m", "2p", "7p", "3s", "8s", "E", "N", "C", "F", "2h"]
    same = 0
    for k, code in enumerate(codes):
        img = synth.clean_tile(rng, style, code)
        turned = np.ascontiguousarray(np.rot90(img, 1 if k % 2 else 3))
        same += classify_tile(turned)[0] == code
    assert same >= len(codes) - 1


@needs_art
def test_a_picture_cut_to_the_face_is_read(art: synth.Art) -> None:
    """A shop's picture: the face alone, no ground around it."""
    style = synth.load_art(("fonts",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 2)
    codes = ["3m", "6p", "4s", "W", "P", "7h"]
    right = 0
    for code in codes:
        scene = synth.layout_scene(rng, style, [[code]], face_h=160, margin=0.0, table="felt")
        x0, y0 = scene.tiles[0].quad.min(0).astype(int)
        face = np.clip(scene.canvas, 0, 255).astype(np.uint8)[y0 : y0 + 160]
        right += classify_tile(_png(face))[0] == code
    assert right >= len(codes) - 1


@needs_art
def test_a_tile_taught_from_its_picture_is_read_as_taught(art: synth.Art) -> None:
    """``teach_tile``: a flower taught (here as another flower, so that the memory is what
    decides) from one photograph reads as taught in another photograph of it."""
    style = synth.load_art(("samoheen",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 3)
    first, second = (synth.clean_tile(rng, style, "3h") for _ in range(2))
    assert classify_tile(second)[0] == "3h"
    memory = teach_tile(first, "6h")
    assert memory.codes == ["6h"] and memory.was == ["3h"]
    assert classify_tile(second, memory)[0] == "6h"
    other = synth.clean_tile(rng, style, "5m")
    assert classify_tile(other, memory)[0] == "5m"  # another tile is not taken


# --------------------------------------------------------------------------- the command


@needs_art
def test_recognize_tile_teaches_and_reads_with_a_memory(
    art: synth.Art, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    style = synth.load_art(("samoheen",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 4)
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    a.write_bytes(_png(synth.clean_tile(rng, style, "1h")))
    b.write_bytes(_png(synth.clean_tile(rng, style, "1h")))
    memory = tmp_path / "set.json"
    assert run_cli(["recognize", "--tile", str(a), "--teach", "8h", "--memory", str(memory)]) == 0
    assert "taught 1 tile (8h)" in capsys.readouterr().out
    assert run_cli(["recognize", "--tile", str(b), "--memory", str(memory)]) == 0
    assert capsys.readouterr().out.split()[1] == "8h"
    assert run_cli(["recognize", "--tile", str(b)]) == 0
    assert capsys.readouterr().out.split()[1] == "1h"


def test_recognize_tile_teach_refuses_bad_input_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    img = np.full((160, 120, 3), 235, np.uint8)
    cv2.putText(img, "7", (30, 110), cv2.FONT_HERSHEY_SIMPLEX, 3, (20, 20, 160), 6)
    a = tmp_path / "a.png"
    a.write_bytes(_png(img))
    memory = tmp_path / "set.json"
    cases = [
        (["--teach", "1h 2h", "--memory", str(memory)], "one tile code per picture"),
        (["--teach", "1h"], "needs --memory"),
        (["--teach", "9x", "--memory", str(memory)], "'9x' is not a tile code"),
        (["--forget", "1h", "--memory", str(memory)], "not both"),
    ]
    for extra, sentence in cases:
        assert run_cli(["recognize", "--tile", str(a), *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert sentence in err and err.count("\n") == 0 and "Traceback" not in err
    assert not memory.exists()  # nothing half-written
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert run_cli(["recognize", "--tile", str(a), "--memory", str(bad)]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_teach_tile_refuses_a_code_that_is_no_tile() -> None:
    img = np.full((160, 120, 3), 235, np.uint8)
    with pytest.raises(PhotoError, match="not a tile code"):
        teach_tile(img, "10m")


def test_a_picture_too_small_or_thin_for_a_tile_is_one_sentence() -> None:
    for shape in ((1, 1, 3), (4, 2000, 3), (15, 300, 3)):
        with pytest.raises(PhotoError, match="too small to show a tile"):
            classify_tile(np.zeros(shape, np.uint8))
        with pytest.raises(PhotoError, match="too small to show a tile"):
            teach_tile(np.zeros(shape, np.uint8), "1h")
    # a blank picture of a fair size is read (unsurely), never an error
    code, confidence, _ = classify_tile(np.full((300, 300, 3), 255, np.uint8))
    assert code in TILE_CODES + ("back",) and confidence < 0.5


@needs_art
def test_a_cut_out_tile_is_read_on_a_black_ground_whatever_lies_under_its_clear_pixels(
    art: synth.Art,
) -> None:
    """A shop's transparent picture of a tile keeps any colour under its clear pixels
    (here noise): laid on a black ground, all 12 are read right (8 were, read as they lay)."""
    from hefen.photo.synth import TileLook, draw_tile

    rng = np.random.default_rng(31_337_777)
    codes = ["1m", "5p", "9s", "E", "C", "F", "3h", "7h", "2s", "N", "6m", "8p"]
    for code in codes:
        look = TileLook.random(rng, real=True)
        fh = int(rng.integers(120, 220))
        tile, mask = draw_tile(rng, art.pick(rng, code), look, round(fh * look.aspect), fh)
        pad = int(fh * 0.3)
        h, w = tile.shape[0] + 2 * pad, tile.shape[1] + 2 * pad
        alpha = np.zeros((h, w), np.float32)
        alpha[pad:-pad, pad:-pad] = mask
        rgb = rng.uniform(0, 255, (h, w, 3))
        inner = rgb[pad:-pad, pad:-pad]
        rgb[pad:-pad, pad:-pad] = np.where(mask[..., None] > 0.5, tile, inner)
        rgba = np.dstack([np.clip(rgb, 0, 255), alpha * 255]).astype(np.uint8)
        buf = io.BytesIO()
        Image.fromarray(rgba, "RGBA").save(buf, "PNG")
        assert classify_tile(buf.getvalue())[0] == code, code


@needs_art
def test_a_16_bit_grey_photo_is_scaled_not_clipped_to_white(art: synth.Art) -> None:
    """Pillow's own conversion of a 16-bit grey PNG to RGB clips every pixel to white, and
    the tile was lost; it is read as its 8-bit grey picture is."""
    from hefen.photo.pipeline import load_image

    photo = synth.tile_photo(np.random.default_rng(5), art, "5p")
    grey = photo.mean(2)
    buf = io.BytesIO()
    Image.fromarray((grey * 257).astype(np.uint16)).save(buf, "PNG")
    assert Image.open(io.BytesIO(buf.getvalue())).mode.startswith("I")
    decoded = load_image(buf.getvalue())
    assert decoded.dtype == np.uint8 and decoded.shape == (*grey.shape, 3)
    assert np.abs(decoded[:, :, 0].astype(float) - np.rint(grey)).max() <= 1
    assert classify_tile(buf.getvalue())[0] == "5p"


@needs_art
def test_a_sets_bonus_tiles_taught_one_photo_each_are_read_as_taught(art: synth.Art) -> None:
    """Eight flowers and seasons taught from one photo each, each as another bonus tile
    (so that the memory, not the model, decides), read as taught in other photos of them
    (those whose two photos look alike enough), and the set's other tiles read as before (docs/photo.md, "Teaching with the match
    look")."""
    style = synth.load_art(("samoheen",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 7)
    taught_as = dict(zip(BONUS, reversed(BONUS), strict=True))
    memory = None
    for code, other in taught_as.items():
        memory = teach_tile(synth.tile_photo(rng, style, code), other, memory)
    assert memory is not None and len(memory) == len(BONUS)
    as_taught = sum(
        classify_tile(synth.tile_photo(rng, style, code), memory)[0] == other
        for code, other in taught_as.items()
    )
    assert as_taught >= 6  # 6 here; two photos of its autumn and winter are only 0.55 alike
    others = ["2m", "7m", "3p", "9p", "4s", "E", "C", "F"]
    plain = [classify_tile(synth.tile_photo(rng, style, c), memory)[0] for c in others]
    assert sum(a == b for a, b in zip(plain, others, strict=True)) >= len(others) - 1


def test_recognize_tile_says_which_tiles_an_unsure_reading_may_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A picture read unsurely (here a bare green cloth) is printed as the hand photo's
    unsure tiles are: its surest tile, then the tiles it may be instead."""
    cloth = tmp_path / "cloth.png"
    Image.fromarray(np.full((300, 400, 3), (40, 110, 60), np.uint8)).save(cloth)
    assert run_cli(["recognize", "--tile", str(cloth)]) == 0
    line = capsys.readouterr().out.strip()
    path, code, confidence, rest = line.split(" ", 3)
    assert path == str(cloth) and code in TILE_CODES and float(confidence) < 0.6
    assert rest.startswith("(unsure; or ") and rest.endswith(")") and rest.count(",") == 2
