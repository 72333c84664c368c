"""Photo scoring: the shipped tile model, the recogniser and ``hefen recognize``.

Uses the shipped model (never retrains) and synthetic photos drawn from the tile artwork in
``../shared/tiles`` with seeds that training never uses.
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from photo_support import TILES_DIR, heic, needs_art, reading, run_cli
from PIL import Image

from hefen.photo import TILE_CODES, PhotoError, classify_tile, recognize, synth
from hefen.photo.classes import BONUS, MODEL_CLASSES, copies_allowed
from hefen.photo.model import MODEL_DIR, TileClassifier
from hefen.photo.pipeline import RecognizedTile, TileGroup, choose_tiles

# Seeds far from the training script's (which derives its own from --seed 5 and 6).
TEST_SEED = 31_337_001


@pytest.fixture(scope="module")
def art() -> synth.Art:
    return synth.load_art(tiles_dir=TILES_DIR)


@pytest.fixture(scope="module")
def hands(art: synth.Art) -> list[synth.HandPhoto]:
    rng = np.random.default_rng(TEST_SEED)
    return [synth.hand_photo(rng, art) for _ in range(16)]


# --------------------------------------------------------------------------- the model


def test_shipped_model_matches_its_record() -> None:
    meta = json.loads((MODEL_DIR / "model.json").read_text())
    data = (MODEL_DIR / "tiles.onnx").read_bytes()
    assert hashlib.sha256(data).hexdigest() == meta["sha256"]
    assert tuple(meta["classes"]) == MODEL_CLASSES
    assert MODEL_CLASSES[:42] == TILE_CODES and len(set(TILE_CODES)) == 42
    assert len(data) < 5 * 1024 * 1024


@needs_art
@pytest.mark.parametrize("style", synth.STYLES)
def test_classify_tile_names_rendered_tiles_of_every_class(art: synth.Art, style: str) -> None:
    style_art = synth.load_art((style,), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 1)
    wrong = []
    for code in TILE_CODES:
        img = synth.clean_tile(rng, style_art, code)
        got, confidence, alternatives = classify_tile(img)
        assert 0.0 <= confidence <= 1.0 and len(alternatives) == 3
        assert got not in [c for c, _ in alternatives]
        if got != code:
            wrong.append(f"{code}->{got}")
    assert len(wrong) <= 1, wrong


@needs_art
def test_crops_drawn_as_before_19_are_reproducible_and_read_as_recorded() -> None:
    """``tile_crop(real=False)`` draws the crops the figures recorded before #19's synthesis
    were measured on (bench/photo_accuracy.py compares a candidate on them): the same seed
    gives the same crop, the real-camera effects are left out, and the shipped model reads
    them as it did then (99.6-99.9 % of each style's held-out crops)."""
    art = synth.load_art(("samoheen",), TILES_DIR)
    codes = [TILE_CODES[i % len(TILE_CODES)] for i in range(84)]

    def draw(real: bool) -> np.ndarray:
        rng = np.random.default_rng(TEST_SEED + 7)
        tables = synth.TableBank(rng, count=4, size=256)
        return np.stack([synth.tile_crop(rng, art, c, tables, real=real) for c in codes])

    plain = draw(False)
    assert np.array_equal(plain, draw(False))
    assert not np.array_equal(plain, draw(True))
    probs = TileClassifier(MODEL_DIR).probabilities(plain)[:, : len(TILE_CODES)]
    right = probs.argmax(1) == np.array([TILE_CODES.index(c) for c in codes])
    assert right.sum() >= len(codes) - 2, [c for c, ok in zip(codes, right, strict=True) if not ok]


# --------------------------------------------------------------------------- whole photos


@needs_art
def test_recognize_finds_the_tiles_of_synthetic_hands(hands: list[synth.HandPhoto]) -> None:
    right_count = exact = 0
    for photo in hands:
        result = recognize(photo.jpeg())
        right_count += len(result.tiles) == len(photo.tiles)
        exact += result.tiles == photo.tiles
    # bench/photo_accuracy.py measures about 90 % with the right count and 85 % exact
    assert right_count >= len(hands) - 3
    assert exact >= len(hands) - 5


@needs_art
def test_recognition_reports_groups_boxes_and_alternatives(hands: list[synth.HandPhoto]) -> None:
    photo = hands[0]
    result = recognize(photo.image)
    d = result.to_dict()
    assert d["tiles"] == [t["tile"] for g in d["groups"] for t in g["tiles"]]
    assert [len(g["tiles"]) for g in d["groups"]] == [len(g) for g in photo.groups]
    h, w = photo.image.shape[:2]
    for g in d["groups"]:
        for t in g["tiles"]:
            assert t["tile"] in TILE_CODES
            assert 0.0 < t["confidence"] <= 1.0
            assert len(t["alternatives"]) == 3
            x, y, bw, bh = t["box"]
            assert 0 <= x < w and 0 <= y < h and bw > 0 and bh > 0
    # the reading gives every recognised tile a role, and takes each tile once
    roles = d["reading"]["roles"]
    assert [len(r) for r in roles] == [len(g["tiles"]) for g in d["groups"]]
    reading = d["reading"]
    placed = len(reading["hand"]) + 1 + sum(len(m["tiles"]) for m in reading["melds"])
    placed += len(reading["flowers"])
    assert placed == sum(r != "repeat" for g in roles for r in g) == len(d["tiles"])
    json.dumps(d)


@needs_art
def test_recognize_never_reports_more_copies_than_a_set_has(hands: list[synth.HandPhoto]) -> None:
    for photo in hands[:4]:
        tiles = recognize(photo.image).tiles
        for code in set(tiles):
            assert tiles.count(code) <= copies_allowed(code)


def test_four_copies_limit_moves_the_least_sure_tile_to_its_next_choice() -> None:
    def probs(first: str, p1: float, second: str) -> np.ndarray:
        p = np.full(len(MODEL_CLASSES), 0.001, np.float32)
        p[MODEL_CLASSES.index(first)] = p1
        p[MODEL_CLASSES.index(second)] = 0.9 - p1
        return p

    five = [probs("5p", 0.8 - 0.01 * i, "6p") for i in range(5)]
    picks = [TILE_CODES[k] for k in choose_tiles(five)]
    assert picks == ["5p", "5p", "5p", "5p", "6p"]
    two_flowers = [probs("5h", 0.7, "6h"), probs("5h", 0.8, "7h")]
    picks = [TILE_CODES[k] for k in choose_tiles(two_flowers)]
    assert picks == ["6h", "5h"]


# --------------------------------------------------------------------------- bad photos


def _png(size: tuple[int, int], colour: tuple[int, int, int] = (40, 120, 60)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, colour).save(buf, format="PNG")
    return buf.getvalue()


@pytest.mark.parametrize(
    ("photo", "words"),
    [
        (b"not an image at all", "not an image"),
        (b"", "not an image"),
        (_png((640, 480)), "No mahjong tiles"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * 64, "not an image"),
        (np.zeros((3, 4, 5), np.uint8), "array"),
        (12345, "must be image bytes"),
        ("/no/such/photo.jpg", "no file"),
    ],
)
def test_bad_photos_raise_photo_error_with_one_sentence(photo: object, words: str) -> None:
    with pytest.raises(PhotoError) as info:
        recognize(photo)  # type: ignore[arg-type]
    message = str(info.value)
    assert words.lower() in message.lower()
    assert message.endswith(".") and "\n" not in message


def test_too_large_photos_are_refused_before_decoding() -> None:
    huge = np.broadcast_to(np.zeros((1, 1, 3), np.uint8), (6000, 5000, 3))
    with pytest.raises(PhotoError, match="25 megapixels"):
        recognize(huge)
    buf = io.BytesIO()
    Image.new("1", (6000, 5000)).save(buf, format="PNG")  # small file, 30 MP
    with pytest.raises(PhotoError, match="25 megapixels"):
        recognize(buf.getvalue())
    with pytest.raises(PhotoError, match="20 MB"):
        recognize(b"\xff\xd8" + b"\0" * (20 * 1024 * 1024))


# --------------------------------------------------------------------------- the CLI


@needs_art
def test_cli_prints_groups_and_json(
    hands: list[synth.HandPhoto], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.jpg"
    path.write_bytes(hands[1].jpeg())
    assert run_cli(["recognize", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("group 1 (") and "tiles: " in out
    reading = recognize(path).reading()
    assert f"hand: {' '.join(reading.hand)}  win {reading.win_tile}" in out
    assert run_cli(["recognize", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"groups", "tiles", "reading"}
    assert data["reading"] == reading.to_dict()


@needs_art
def test_cli_classifies_single_tile_pictures(
    art: synth.Art, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(TEST_SEED + 2)
    paths = []
    for code in ("3s", "C"):
        p = tmp_path / f"{code}.png"
        Image.fromarray(synth.clean_tile(rng, art, code)).save(p)
        paths.append(str(p))
    assert run_cli(["recognize", "--tile", *paths]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in lines] == [[paths[0], "3s"], [paths[1], "C"]]
    assert all(0.0 <= float(line.split()[2]) <= 1.0 for line in lines)


@needs_art
def test_a_heic_photo_is_read_as_its_jpeg_is(
    hands: list[synth.HandPhoto], art: synth.Art, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An iPhone saves its photos as HEIC: a hand photo and a photo of one tile in HEIC
    are read as the same photos in JPEG and PNG are, by the API and by the CLI."""
    photo = hands[0]
    data = heic(Image.open(io.BytesIO(photo.jpeg())))
    assert data[4:12] == b"ftypheic"
    assert recognize(data).tiles == recognize(photo.jpeg()).tiles == photo.tiles
    tile = synth.clean_tile(np.random.default_rng(TEST_SEED + 3), art, "7p")
    path = tmp_path / "tile.heic"
    path.write_bytes(heic(Image.fromarray(tile)))
    assert classify_tile(path.read_bytes())[0] == classify_tile(tile)[0] == "7p"
    assert run_cli(["recognize", "--tile", str(path)]) == 0
    assert capsys.readouterr().out.split()[:2] == [str(path), "7p"]


def test_a_heic_photo_held_upright_is_turned_once() -> None:
    """An iPhone held upright keeps its picture on its side with a rotation to apply: the
    photo is read turned upright, once (its EXIF orientation is not applied again), and a
    HEIC file cut short is one sentence."""
    from hefen.photo.pipeline import load_image

    side = np.zeros((60, 100, 3), np.uint8)
    side[:, :50] = 255  # the left half white, as the sensor saw it
    exif = Image.Exif()
    exif[0x0112] = 6  # to be turned a quarter clockwise
    upright = load_image(heic(Image.fromarray(side), exif.tobytes()))
    assert upright.shape[:2] == (100, 60)
    assert upright[10, 30].min() > 200 and upright[90, 30].max() < 50  # white on top
    whole = heic(Image.fromarray(side))
    with pytest.raises(PhotoError) as info:
        recognize(whole[: len(whole) // 2])
    assert str(info.value) == "The file is not an image that can be read."


def test_cli_bad_input_is_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("three bamboo, red dragon")
    assert run_cli(["recognize", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("hefen recognize: ") and "\n" not in err and err.endswith(".")
    assert run_cli(["recognize", "--tile", str(tmp_path / "missing.png")]) == 2
    assert "no file" in capsys.readouterr().err
    assert run_cli(["recognize"]) == 2


@needs_art
def test_refining_an_equal_split_follows_tiles_that_grow_along_the_row(art: synth.Art) -> None:
    """A row seen at an angle: each tile a little wider than the last, so an equal split
    drifts; the refined cuts lie nearer the tiles' real edges and read them more surely."""
    import cv2

    from hefen.photo.model import classifier
    from hefen.photo.pipeline import _edges, _refine, _score_counts

    rng = np.random.default_rng(TEST_SEED + 40)
    look = synth.TileLook.random(rng)
    codes = ["1m", "5p", "9s", "E", "C", "3m", "7p", "2s", "N", "F"]
    widths = np.linspace(34, 52, len(codes)).round().astype(int)
    tiles = []
    for code, w in zip(codes, widths, strict=True):
        img, _ = synth.draw_tile(rng, art.faces[code][0], look, int(w), 64)
        tiles.append(cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_RGB2GRAY))
    strip = cv2.resize(np.concatenate(tiles, 1), (int(widths.sum()), 64))
    truth = np.concatenate([[0], np.cumsum(widths)]) / widths.sum()
    (equal,) = _score_counts(classifier(), strip, [len(codes)])
    refined = _refine(classifier(), strip, _edges(len(codes)))
    assert refined[0] > equal[0]
    assert np.abs(np.array(refined[1]) - truth).mean() < np.abs(np.array(equal[1]) - truth).mean()

    def right(split: tuple) -> int:
        return sum(
            TILE_CODES[int(p[:42].argmax())] == c for p, c in zip(split[2], codes, strict=True)
        )

    assert right(refined) >= right(equal)


def test_table_joined_to_part_of_a_row_is_trimmed_off_the_row() -> None:
    from hefen.photo.detect import TRIM_MARGIN, _trim_to_row

    row = np.zeros((160, 400), np.uint8)
    row[100:150, :] = 1  # the tiles: a level row 50 high
    row[101, 30] = 0  # a notch in the edge is kept as it is
    stuck = row.copy()
    stuck[0:100, 150:270] = 1  # bright wood grain above a third of the row
    trimmed = _trim_to_row(stuck)
    # the grain is gone (but for the few rows of margin kept above the edge); the row is whole
    assert trimmed[: 100 - round(TRIM_MARGIN * 50) - 1].sum() == 0
    assert np.array_equal(trimmed[100:], stuck[100:])
    assert np.array_equal(_trim_to_row(row), row)  # a clean row is left alone


@needs_art
def test_a_row_with_wood_grain_joined_to_it_is_still_read() -> None:
    # on this photo bright grain above the row joined the tiles' mask, and the row was
    # found twice as high as it is: 8 tiles were read as far fewer
    art = synth.load_art(("samoheen",))
    photo = synth.hand_photo(np.random.default_rng(94_000_002), art, [list(BONUS)], [[0]])
    assert recognize(photo.jpeg()).tiles == list(BONUS)


def test_bare_table_inside_a_strip_is_a_gap_and_a_blank_tile_is_not() -> None:
    from hefen.photo.pipeline import _gaps

    rng = np.random.default_rng(5)
    strip = np.full((64, 400), 200.0)
    strip[:, :150] = rng.uniform(0, 255, (64, 150))  # drawings: tiles
    strip[:, 190:] = rng.uniform(0, 255, (64, 210))
    strip = strip.astype(np.uint8)
    [(a, b)] = _gaps(strip)  # the bare table between them, less the blur at its edges
    assert 150 <= a <= 155 and 185 <= b <= 190
    blank = strip.copy()
    blank[48:, 150:190] = 120  # the rim between a blank face and its side runs across it
    assert _gaps(blank) == []


@needs_art
def test_two_groups_run_together_on_a_pale_table_are_read_apart() -> None:
    # on this photo the shadow between the pung and the kong joined them into one blob,
    # read as 7 tiles with the gap between them taken for a tile
    photo = synth.hand_photo(np.random.default_rng(1414), synth.load_art(), table="light")
    groups = [len(g.tiles) for g in recognize(photo.jpeg()).groups]
    assert groups == [len(g) for g in photo.groups] == [8, 3, 4, 2]


@needs_art
def test_a_row_whose_sides_and_shadow_were_taken_for_tile_is_read_by_its_faces() -> None:
    # on this pale table the strip of the row reached well below the faces, and no split
    # of it was sure: read by the faces alone, every tile is right
    photo = synth.hand_photo(np.random.default_rng(1115), synth.load_art(), table="light")
    assert recognize(photo.jpeg()).tiles == photo.tiles


#: Pale-table tuning photos (seeds [96_000_001, n, 2]) that were read wrongly, and why.
PALE_TABLE_CASES = {
    # the noise of the highlight above this row chained into faint edges that joined all
    # six groups into one blob twice a tile's height: no tiles were found
    "a bright highlight on the cloth": (108, [2, 3, 3, 3, 3, 4]),
    # the 8 tiles' equal split drifted along this row seen at an angle and scored below
    # the 7 tiles' one, and only that was refined: 7 tiles were read
    "the right count's equal split drifts": (87, [8, 3, 3]),
    # the third pung of 3 alike tiles was read as 2 tiles half as wide again as the others
    "a pung split into two wide tiles": (129, [2, 3, 3, 3, 3, 3]),
}


@needs_art
@pytest.mark.parametrize("case", PALE_TABLE_CASES)
def test_pale_table_photos_once_misread_are_read_right(case: str) -> None:
    n, groups = PALE_TABLE_CASES[case]
    art = synth.load_art()
    photo = synth.hand_photo(np.random.default_rng([96_000_001, n, 2]), art, table="light")
    found = recognize(photo.jpeg())
    assert [len(g.tiles) for g in found.groups] == groups
    assert found.tiles == photo.tiles


def _unknown_bonus_art(rng: np.random.Generator) -> synth.Art:
    """The shipped styles' suit and honour tiles, with flowers and seasons of a kind no set
    draws: blots of colour."""
    import cv2

    art = synth.Art()
    for code, faces in synth.load_art().faces.items():
        if not code.endswith("h"):
            for face in faces:
                art.add(code, face, "known")
            continue
        rgba = np.zeros((300, 220, 4), np.uint8)
        for _ in range(int(rng.integers(6, 14))):
            colour = (*(int(c) for c in rng.integers(0, 200, 3)), 255)
            centre = (int(rng.integers(20, 200)), int(rng.integers(20, 280)))
            axes = (int(rng.integers(8, 40)), int(rng.integers(8, 40)))
            cv2.ellipse(rgba, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
        art.add(code, synth.face_from_rgba(rgba), "unknown")
    return art


@needs_art
@pytest.mark.parametrize("seed", [0, 2, 4])
def test_tiles_surely_tiles_but_of_no_known_kind_are_kept_as_unsure(seed: int) -> None:
    # flowers drawn as the model never saw any: it cannot say which they are, but it can
    # say that they are tiles; the group was dropped, so the player had to add it by hand
    rng = np.random.default_rng([777, seed])
    art = _unknown_bonus_art(rng)
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "C", "C"]
    photo = synth.hand_photo(rng, art, [concealed, ["2h", "5h", "7h"]], [[0, 1]], table="felt")
    found = recognize(photo.jpeg())
    assert [len(g.tiles) for g in found.groups] == [14, 3]
    assert [t.tile for t in found.groups[0].tiles] == concealed
    assert all(t.confidence < 0.9 for t in found.groups[1].tiles)  # shown as unsure


@needs_art
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_box_on_the_table_taller_than_the_tiles_is_not_read_as_a_tile(seed: int) -> None:
    # a pale box with a rim looks like a blank white dragon; it was read as one more tile
    import cv2

    photo = synth.hand_photo(np.random.default_rng([5150, seed]), synth.load_art(), table="felt")
    img, w = photo.image, photo.image.shape[1]
    tile_h = int(np.median([np.linalg.norm(q[3] - q[0]) for g in photo.quads for q in g]))
    table = np.median(np.concatenate([img[:4].reshape(-1, 3), img[-4:].reshape(-1, 3)]), axis=0)
    pad = 3 * tile_h  # table above the hand, and the box on it
    img = cv2.copyMakeBorder(img, pad, 0, 0, 0, cv2.BORDER_CONSTANT, value=[int(c) for c in table])
    x, y, bw, bh = w // 3, pad // 4, tile_h, int(1.35 * tile_h)
    cv2.rectangle(img, (x, y), (x + bw, y + bh), (236, 232, 220), -1)
    cv2.rectangle(img, (x + 12, y + 12), (x + bw - 12, y + bh - 12), (60, 90, 160), 4)
    assert recognize(img).tiles == photo.tiles


@needs_art
def test_face_down_tiles_are_found_with_their_group_on_felt_and_wood(art: synth.Art) -> None:
    from hefen.photo.detect import find_groups

    rng = np.random.default_rng(TEST_SEED + 19)
    whole = 0
    for table in ("felt", "wood") * 4:
        photo = synth.hand_photo(
            rng,
            art,
            [["1m", "2m", "3m", "4p", "5p"], ["C", "back", "back", "C"]],
            [[0, 1]],
            table=table,
        )
        groups, tile_h = find_groups(photo.image)
        # the kong is one group four tiles wide, not two lone faces
        kong = [g for g in groups if g.quad[:, 0].min() > photo.quads[0][-1][:, 0].max()]
        whole += len(kong) == 1 and 3.2 < kong[0].width / photo_tile_width(photo) < 4.8
    assert whole >= 7


def photo_tile_width(photo: synth.HandPhoto) -> float:
    q = photo.quads[0][0]
    return float(np.linalg.norm(q[1] - q[0]))


def test_a_model_without_the_back_class_gives_the_back_no_chance() -> None:
    from hefen.photo.classes import READ_CLASSES
    from hefen.photo.model import classifier

    crops = np.full((2, 64, 48), 200, np.uint8)
    probs = classifier().probabilities(crops)
    assert probs.shape == (2, len(READ_CLASSES))
    assert np.allclose(probs.sum(1), 1.0, atol=0.03)  # int8 softmax: 1 within a few steps
    if classifier().without_back:
        assert (probs[:, READ_CLASSES.index("back")] == 0).all()
    else:
        assert (probs[:, READ_CLASSES.index("back")] > 0).all()


@needs_art
def test_a_face_down_kong_in_a_hand_photo_reads_as_a_concealed_kong(art: synth.Art) -> None:
    rng = np.random.default_rng(TEST_SEED + 23)
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    kong = {"kind": "kong", "tiles": ["C"] * 4, "concealed": True}
    read = 0
    for table in ("felt", "wood") * 3:
        photo = synth.hand_photo(
            rng, art, [concealed, ["C", "back", "back", "C"]], [[0, 1]], table=table
        )
        rec = recognize(photo.jpeg())
        reading = rec.reading()
        read += rec.tiles == photo.tiles and reading.melds == [kong]
        if rec.tiles == photo.tiles:
            assert reading.roles[1] == ["meld"] * 4
            # a back is as sure as the blank face it was read as (not the model's 0)
            assert all(t.confidence > 0.1 for t in rec.groups[1].tiles[1:3])
        else:  # the shipped model reads a back as a blank face; only its colour tells
            assert rec.tiles[:11] == concealed and set(rec.tiles[12:14]) <= {"P", "back"}
    # 6 of these 6; 3 before the two backs between alike faces were told by their
    # lightness too (_kong_backs): a grey back (one set in five) and a dark green one are
    # as pale as an ivory face in colour, and a dark yellow one lies just within
    # BACK_FACE_HUE
    assert read >= 5


@needs_art
def test_four_face_down_tiles_in_a_meld_read_as_backs_and_a_named_concealed_kong(
    art: synth.Art,
) -> None:
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    rng = np.random.default_rng([31_337_024, 0])
    read = 0
    for _ in range(6):
        photo = synth.hand_photo(rng, art, [concealed, ["back"] * 4], [[0, 1]], table="felt")
        rec = recognize(photo.jpeg())
        if rec.tiles != photo.tiles:
            continue
        read += 1
        with pytest.raises(PhotoError, match="name the tile"):
            rec.reading()
        reading = rec.reading(hidden_kongs=["N"])
        assert reading.melds == [{"kind": "kong", "tiles": ["N"] * 4, "concealed": True}]
        assert reading.roles[1] == ["meld"] * 4 and reading.win_tile == "E"
    assert read >= 3  # 4 of these 6; a yellow or green back reads as a blank face in grey


def _cells(faces: list[tuple[int, int, int]]) -> tuple[np.ndarray, list[np.ndarray]]:
    """A picture of tiles side by side, each face one colour with a dark stroke across
    it, and each cell's quadrilateral."""
    rgb = np.full((120, 60 * len(faces) + 20, 3), 40, np.uint8)
    quads = []
    for i, face in enumerate(faces):
        x = 10 + 60 * i
        rgb[10:110, x + 2 : x + 58] = face
        rgb[55:62, x + 10 : x + 50] = (20, 20, 20)
        quads.append(np.array([[x, 10], [x + 60, 10], [x + 60, 110], [x, 110]], np.float32))
    return rgb, quads


def _read_as(*codes: str) -> list[np.ndarray]:
    """Each cell read as its code, a little of it as a back."""
    return [reading({"back": 0.01, code: 0.9}) for code in codes]


def _unchanged(out: list[np.ndarray], flat: list[np.ndarray]) -> bool:
    return len(out) == len(flat) and all(
        np.array_equal(a, b) for a, b in zip(out, flat, strict=True)
    )


def test_two_grey_cells_between_alike_faces_are_a_kongs_backs() -> None:
    from hefen.photo.classes import READ_CLASSES
    from hefen.photo.pipeline import _kong_backs

    ivory, grey = (240, 236, 222), (190, 190, 190)
    back = READ_CLASSES.index("back")
    rgb, quads = _cells([ivory, grey, grey, ivory])
    flat = _read_as("1m", "P", "P", "1m")
    out = _kong_backs(rgb, flat, [(flat, quads)])
    assert [int(p.argmax()) for p in out[1:3]] == [back, back]
    assert out[1][back] == pytest.approx(flat[1].max() + flat[1][back])  # as surely
    assert [p.tolist() for p in out[::3]] == [p.tolist() for p in flat[::3]]
    # a grey cell read as another tile is a back too; a blank-faced kong's look is one
    flat = _read_as("P", "P", "3p", "P")
    out = _kong_backs(rgb, flat, [(flat, quads)])
    assert [int(p.argmax()) for p in out] == [
        READ_CLASSES.index("P"),
        back,
        back,
        READ_CLASSES.index("P"),
    ]
    # faces up: two blank white dragons between alike faces, four alike faces
    rgb, quads = _cells([ivory] * 4)
    for codes in (("1m", "P", "P", "1m"), ("N",) * 4):
        flat = _read_as(*codes)
        assert _unchanged(_kong_backs(rgb, flat, [(flat, quads)]), flat)
    # a kong face up under a light falling off along it: its middle cells are as light
    # as the nearer end, though both unlike the ends' mean (L 254, 241, 197, 193 in a
    # photo of the bench's)
    rgb, quads = _cells([(255, 255, 255), (245, 245, 245), (195, 195, 195), (185, 185, 185)])
    flat = _read_as("9p", "9p", "9p", "9p")
    assert _unchanged(_kong_backs(rgb, flat, [(flat, quads)]), flat)
    # ends that differ, a group of three, one grey cell: no kong's look
    rgb, quads = _cells([ivory, grey, grey, ivory])
    flat = _read_as("1m", "P", "P", "2m")
    assert _unchanged(_kong_backs(rgb, flat, [(flat, quads)]), flat)
    rgb3, quads3 = _cells([ivory, grey, ivory])
    flat = _read_as("1m", "P", "1m")
    assert _unchanged(_kong_backs(rgb3, flat, [(flat, quads3)]), flat)
    rgb, quads = _cells([ivory, grey, ivory, ivory])
    flat = _read_as("1m", "P", "P", "1m")
    assert _unchanged(_kong_backs(rgb, flat, [(flat, quads)]), flat)


@needs_art
def test_a_pung_of_white_dragons_is_not_taken_for_backs(art: synth.Art) -> None:
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"]
    for table in range(3):
        rng = np.random.default_rng([31_337_024, table])
        for _ in range(2):
            kind = ("felt", "wood", "light")[table]
            photo = synth.hand_photo(rng, art, [concealed, ["P", "P", "P"]], [[0, 1]], table=kind)
            assert recognize(photo.jpeg()).tiles == photo.tiles


@needs_art
def test_things_square_to_the_photo_do_not_set_the_rows_direction(art: synth.Art) -> None:
    """The rows' direction is weighed by the tiles each blob holds, as the height is: by
    area alone, sheets, boxes and phones lying square to the photo beside a slanted hand
    turned the picture their way and rows of tiles were lost. On 12 cluttered photos
    (synth.cluttered_photo) the tile count is right in 8 (5 weighing by area)."""
    right = _cluttered_right(art, TEST_SEED + 100, 12)
    assert right >= 7, right


def _cluttered_right(art: synth.Art, seed: int, count: int) -> int:
    """Of ``count`` cluttered photos (synth.cluttered_photo), those read with the right
    tile count."""
    rng = np.random.default_rng(seed)
    right = 0
    for _ in range(count):
        photo = synth.cluttered_photo(rng, art)
        try:
            got = recognize(photo.image).tiles
        except PhotoError:
            got = []
        right += len(got) == len(photo.tiles)
    return right


def _read_group(*read: tuple[str, float]) -> TileGroup:
    """A group as recognised: each tile's code and confidence."""
    return TileGroup(tuple(RecognizedTile(c, p, (), (0, 0, 1, 1)) for c, p in read))


def test_a_group_of_backs_alone_is_a_concealed_kong_or_no_tiles() -> None:
    """Face-down tiles are shown only as a concealed kong: a group wholly of backs
    that is not four of them is something blank and coloured, not tiles."""
    from hefen.photo.classes import BACK
    from hefen.photo.pipeline import _stray_backs

    def group(*codes: str) -> TileGroup:
        return _read_group(*((c, 0.9) for c in codes))

    assert _stray_backs(group(BACK))
    assert _stray_backs(group(BACK, BACK))
    assert _stray_backs(group(BACK, BACK, BACK))
    assert not _stray_backs(group(BACK, BACK, BACK, BACK))
    assert not _stray_backs(group("5p", BACK, BACK, "5p"))
    assert not _stray_backs(group("P"))


def test_a_group_mostly_of_backs_is_a_concealed_kong_or_no_tiles() -> None:
    """A blank coloured thing reads as backs with a face read on its rim beside them (a
    "back back P"): a group at least half backs that is not four tiles with alike faces
    is no tiles; backs among more faces are left to the hand's reading."""
    from hefen.photo.classes import BACK
    from hefen.photo.pipeline import _stray_backs

    def group(*codes: str) -> TileGroup:
        return _read_group(*((c, 0.9) for c in codes))

    assert _stray_backs(group(BACK, BACK, "P"))
    assert _stray_backs(group("P", BACK))
    assert _stray_backs(group("5p", BACK, BACK, "6p"))
    assert _stray_backs(group("5p", BACK, BACK, BACK, BACK))
    assert not _stray_backs(group("5p", BACK, BACK, BACK))
    assert not _stray_backs(group("C", BACK, BACK, "C"))
    assert not _stray_backs(group("1m", "2m", BACK, BACK, "3m"))
    assert not _stray_backs(group("1m", "2m", "3m"))


def test_a_lone_tile_far_wider_than_the_photos_tiles_is_no_tile() -> None:
    """A chip, a cup or a card read as one tile is wider than the photo's tiles (its box
    over 1.55 times their median width); a lone tile of their width, a group of several,
    or a photo of too few tiles to tell the usual width is left alone."""
    from hefen.photo.pipeline import LONE_AMONG, _wide_lone

    def lone(width: int) -> TileGroup:
        return TileGroup((RecognizedTile("1p", 0.8, (), (0, 0, width, 80)),))

    assert _wide_lone(lone(100), 60.0, 15)
    assert not _wide_lone(lone(85), 60.0, 15)  # 1.42: a lone flower found a little wide
    assert not _wide_lone(lone(100), 60.0, LONE_AMONG)  # too few others to tell
    two = TileGroup(lone(100).tiles * 2)
    assert not _wide_lone(two, 60.0, 15)


@needs_art
def test_cluttered_photos_lose_the_blank_things_read_as_backs(art: synth.Art) -> None:
    """On 20 cluttered photos (seed TEST_SEED + 200) the tile count is right in 14, 12
    while a lone coloured blank thing (a box, a phone's screen) was kept as backs."""
    right = _cluttered_right(art, TEST_SEED + 200, 20)
    assert right >= 13, right


def test_a_thing_cut_by_the_photos_edge_is_left_out_of_the_border() -> None:
    """The border's pieces with something on them (far busier, or far from the table's
    colour) are left out of its statistics; a plain table keeps every piece, and a
    table busy all round keeps them all too."""
    from hefen.photo import detect

    rng = np.random.default_rng(5)
    h, w, band = 480, 640, 14
    texture = rng.uniform(2.0, 6.0, (h, w)).astype(np.float32)
    diff = rng.uniform(0.0, 4.0, (h, w)).astype(np.float32)
    assert all(detect._clear_pieces(texture, diff, band))
    texture[:band, 5 * w // 8 + 3 : 6 * w // 8 - 3] = 250.0  # a card's outline in the top band
    diff[-band:, 2 * w // 8 + 3 : 3 * w // 8 - 3] = 90.0  # a box at the bottom
    clear = detect._clear_pieces(texture, diff, band)
    assert clear.count(False) == 2
    assert not clear[5] and not clear[8 + 2]
    values = detect._border_stats(texture, band, clear)
    assert float(np.percentile(values, 99.5)) < 10.0
    assert float(np.percentile(detect._border_stats(texture, band), 99.5)) > 200.0
    plain = np.full((h, w), 2.0, np.float32)
    assert all(detect._clear_pieces(np.full((h, w), 250.0, np.float32), plain, band))


def test_a_lone_blob_that_is_no_rectangle_is_no_tile() -> None:
    """A lone "tile" that fills little of its quad (a chip, a cup) is not a group; a
    rectangle of a tile's shape beside it is."""
    import cv2

    from hefen.photo import detect

    img = np.full((480, 640, 3), (40, 110, 60), np.uint8)  # green felt
    cv2.rectangle(img, (100, 200), (150, 268), (235, 230, 215), -1)  # an ivory tile's face
    cv2.circle(img, (400, 234), 34, (235, 230, 215), -1)  # an ivory chip
    groups, _height = detect.find_groups(img)
    centres = [g.quad.mean(0) for g in groups]
    assert any(abs(c[0] - 125) < 20 for c in centres)
    assert not any(abs(c[0] - 400) < 40 for c in centres)


def test_a_thing_higher_than_the_tiles_is_not_joined_to_the_row_beside_it() -> None:
    """A pale box just above a row of tiles, closer than the join's reach, was run into
    the row, and the row was read as one tall group; taken apart as no tile's height, it
    is judged on its own and the row keeps the tiles' height."""
    import cv2

    from hefen.photo import detect

    img = np.full((480, 640, 3), (40, 110, 60), np.uint8)  # green felt
    for k in range(5):  # a row of five ivory faces
        cv2.rectangle(img, (100 + 52 * k, 250), (149 + 52 * k, 318), (235, 230, 215), -1)
    for k in range(3):  # and a meld below it
        cv2.rectangle(img, (120 + 52 * k, 380), (169 + 52 * k, 448), (235, 230, 215), -1)
    cv2.rectangle(img, (200, 84), (330, 235), (235, 230, 215), -1)  # the box, 15 px above
    groups, height = detect.find_groups(img)
    assert 60 < height < 90
    row = [g for g in groups if abs(float(g.quad[:, 1].mean()) - 284) < 12]
    assert len(row) == 1 and 60 < row[0].height < 90 and row[0].width > 250


def test_a_low_thing_run_into_a_meld_is_cut_off_at_the_tiles_band() -> None:
    """A pale chip lying just under a meld is run into it by the join; the piece, higher
    than a tile, is cut to the band of the blobs of a tile's height within it."""
    import cv2

    from hefen.photo import detect

    img = np.full((560, 640, 3), (40, 110, 60), np.uint8)  # green felt
    for k in range(5):  # a row of five ivory faces
        cv2.rectangle(img, (100 + 52 * k, 100), (149 + 52 * k, 168), (235, 230, 215), -1)
    for k in range(3):  # a meld, and under it a chip
        cv2.rectangle(img, (120 + 52 * k, 300), (169 + 52 * k, 368), (235, 230, 215), -1)
    cv2.ellipse(img, (190, 402), (70, 20), 0, 0, 360, (235, 230, 215), -1)
    groups, height = detect.find_groups(img)
    meld = [g for g in groups if 250 < float(g.quad[:, 1].mean()) < 450]
    assert len(meld) == 1, [g.quad for g in groups]
    assert meld[0].height < 1.2 * height and abs(float(meld[0].quad[:, 1].mean()) - 334) < 10


def test_groups_beyond_what_a_hand_holds_are_set_aside() -> None:
    """A hand holds 14 tiles besides its bonus tiles, one more for each kong: groups read
    beyond that are set aside, the least sure first, and never one larger than the tiles
    too many; a group that may be bonus tiles is not counted."""
    from hefen.photo.pipeline import HAND_TILES, _within_a_hand

    def group(codes: str, p: float = 0.95) -> TileGroup:
        return _read_group(*((c, p) for c in codes.split()))

    row = group("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S S")
    assert HAND_TILES == 14
    assert _within_a_hand([row, group("P P", 0.9)], [True, True]) == [True, False]
    assert _within_a_hand([row, group("1h 5h")], [True, True]) == [True, True]
    # the least sure of two groups no larger than the excess
    thirteen = group("1m 2m 3m 4p 5p 6p 7s 8s 9s E E E S")
    groups = [thirteen, group("9p 9p", 0.5), group("9s 9s", 0.4)]
    assert _within_a_hand(groups, [True] * 3) == [True, True, False]
    assert _within_a_hand([row] + groups[1:], [True] * 3) == [True, False, False]
    # only a group read unsurely for the photo, or mostly blank faces: a kong split in two
    # leaves a surely read tile over the count
    assert _within_a_hand([row, group("4s 4s", 0.95)], [True, True], usual=0.97) == [True, True]
    assert _within_a_hand([row, group("9p 8p", 0.8)], [True, True], usual=0.97) == [True, False]
    assert _within_a_hand([row, group("9p 8p", 0.8)], [True, True], usual=0.85) == [True, True]
    assert _within_a_hand([row, group("P", 0.99)], [True, True], usual=0.97) == [True, False]
    # a lone tile read unsurely may be a flower of a set the model does not know: kept,
    # unless it is blank
    assert _within_a_hand([row, group("9p", 0.3)], [True, True]) == [True, True]
    assert _within_a_hand([row, group("P", 0.3)], [True, True]) == [True, False]
    # ... and so is one in a row of the hand's groups; alone in a row of its own it is not
    lone = [row, group("9p", 0.3)]
    assert _within_a_hand(lone, [True, True], rows=[0, 0]) == [True, True]
    assert _within_a_hand(lone, [True, True], rows=[0, 1]) == [True, False]
    assert _within_a_hand(lone, [True, True], usual=0.3, rows=[0, 1]) == [True, True]
    # a group larger than the tiles too many is kept, to be corrected
    assert _within_a_hand([thirteen, group("S P", 0.3)], [True, True]) == [True, True]
    # one more tile for each group of four (a kong); a group left out stays out
    kong = group("C C C C")
    short = group("1m 2m 3m 4p 5p 6p 7s 8s 9s S S")
    assert _within_a_hand([short, kong], [True, True]) == [True, True]
    assert _within_a_hand([short, kong, group("P")], [True, True, True]) == [True, True, False]
    assert _within_a_hand([row, group("P")], [True, False]) == [True, False]

    # a tile with a flower or season among its likely alternatives: the group is not counted
    def two(alternative: float) -> TileGroup:
        tiles = (RecognizedTile("7s", 0.4, (("4h", alternative),), (0, 0, 1, 1)),) * 2
        return TileGroup(tiles)

    assert _within_a_hand([row, two(0.2)], [True, True]) == [True, True]
    assert _within_a_hand([row, two(0.01)], [True, True]) == [True, False]
    # ... but not a row with a tile or two that may be
    alike = TileGroup((RecognizedTile("E", 0.8, (("3h", 0.2),), (0, 0, 1, 1)),) + row.tiles[1:])
    assert _within_a_hand([alike, group("P", 0.9)], [True, True]) == [True, False]


@needs_art
def test_a_photo_of_more_tiles_than_a_hand_is_read_whole_only_to_teach(
    art: synth.Art, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hand's limit is for photos of a hand: 18 tiles in three groups are taught whole,
    while as a hand a group is set aside (and shown as such)."""
    from hefen.photo.pipeline import teach

    row = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "S", "N"]
    groups = [row, ["C", "C", "C"], ["P"]]
    rng = np.random.default_rng(31_337_190)
    photo = synth.hand_photo(rng, art, groups, [[0, 1, 2]])
    memory = teach(photo.jpeg(), [t for g in groups for t in g])
    assert len(memory) == 18
    rec = recognize(photo.jpeg())
    assert len(rec.tiles) < 18 and rec.set_aside
    assert len(rec.tiles) + sum(len(g.tiles) for g in rec.set_aside) == 18
    assert "set_aside" in rec.to_dict()
    path = tmp_path / "eighteen.jpg"
    path.write_bytes(photo.jpeg())
    assert run_cli(["recognize", str(path)]) == 0
    out = capsys.readouterr().out
    assert "set aside, more tiles than a hand holds (1 tile): P " in out
    assert "group 3 (" not in out  # the white dragon is no group of the hand


@needs_art
def test_cluttered_photos_with_things_cut_by_the_edge_of_a_pale_table(art: synth.Art) -> None:
    """On 20 cluttered photos (seed TEST_SEED + 300) the tile count is right in 14, 12
    while a thing cut by the photo's edge of a pale table raised the texture a tile's
    drawing must reach until the tiles were lost."""
    right = _cluttered_right(art, TEST_SEED + 300, 20)
    assert right >= 14, right


def test_a_group_mostly_of_blank_faces_read_unsurely_is_no_tiles() -> None:
    """A pale box, card or cup reads as blank white dragons, but less surely than the
    blank tiles: a group at least half of them is kept only when it is read surely."""
    from hefen.photo.pipeline import BLANK_SURE, _unsure_blanks

    group = _read_group

    assert _unsure_blanks(group(("P", 0.8)))
    assert _unsure_blanks(group(("9p", 0.9), ("P", 0.8)))
    assert _unsure_blanks(group(("P", 0.95), ("P", 0.8), ("back", 0.7)))
    assert not _unsure_blanks(group(("P", 0.95)))
    assert not _unsure_blanks(group(("P", 0.92), ("P", 0.95), ("P", 0.97)))
    # a pung of them with a turned one; a concealed kong shown with grey backs
    assert not _unsure_blanks(group(("P", 0.84), ("P", 0.58), ("P", 0.94)))
    assert not _unsure_blanks(group(("6m", 0.97), ("P", 0.22), ("P", 0.24), ("6m", 0.91)))
    assert not _unsure_blanks(group(("P", 0.84), ("back", 0.41), ("back", 0.16), ("P", 0.87)))
    assert _unsure_blanks(group(("9p", 0.9), ("P", 0.5), ("P", 0.6), ("back", 0.7)))
    # not mostly blank: the other rules judge it (a lone flower of an unknown set is unsure)
    assert not _unsure_blanks(group(("9p", 0.5), ("8p", 0.5), ("P", 0.5)))
    assert not _unsure_blanks(group(("5h", 0.4)))
    assert BLANK_SURE == 0.9
    # relative to the photo's usual tile: a never-seen set's tiles all read less surely
    assert _unsure_blanks(group(("P", 0.7)), usual=0.97)
    assert not _unsure_blanks(group(("P", 0.7)), usual=0.75)


@needs_art
def test_cluttered_photos_lose_the_pale_things_read_as_blank_tiles(art: synth.Art) -> None:
    """On 20 cluttered photos (seed TEST_SEED + 400) the tile count is right in 19, 17
    while pale things read unsurely as blank white dragons were kept."""
    right = _cluttered_right(art, TEST_SEED + 400, 20)
    assert right >= 19, right


def test_four_backs_without_seams_between_them_are_a_card_not_a_kong() -> None:
    """A card, a box or a phone's screen read as four backs in a row is no concealed
    kong: four tiles face down show the seams between them."""
    import cv2

    from hefen.photo.classes import BACK
    from hefen.photo.pipeline import _seamless_backs

    grey = np.full((200, 400), 70, np.uint8)
    cells = [
        np.array(
            [[50 + 60 * k, 50], [110 + 60 * k, 50], [110 + 60 * k, 130], [50 + 60 * k, 130]],
            np.float32,
        )
        for k in range(4)
    ]
    backs = _read_group(*((BACK, 0.9) for _ in range(4)))
    card = grey.copy()
    cv2.rectangle(card, (50, 50), (290, 130), 160, -1)  # one plain coloured card
    assert _seamless_backs(backs, card, cells)
    tiles = card.copy()
    for k in (1, 2, 3):  # the same, with the dark seams of four tiles side by side
        cv2.line(tiles, (50 + 60 * k, 50), (50 + 60 * k, 130), 90, 2)
    assert not _seamless_backs(backs, tiles, cells)
    # only a group of four backs is judged so
    faces = _read_group(("5p", 0.9), (BACK, 0.9), (BACK, 0.9), ("5p", 0.9))
    assert not _seamless_backs(faces, card, cells)
    assert not _seamless_backs(_read_group(*((BACK, 0.9) for _ in range(3))), card, cells[:3])


@needs_art
def test_four_tiles_face_down_still_read_as_a_concealed_kong(art: synth.Art) -> None:
    """Four backs with their seams (a hand photo with all of a concealed kong face
    down) are kept: the card rule does not take them."""
    from hefen.photo.classes import BACK

    rng = np.random.default_rng(31_337_555)
    kongs = 0
    for _ in range(15):
        groups, _rows = synth.random_hand(rng)
        photo = synth.hand_photo(rng, art, [groups[0][:11], [BACK] * 4], synth.random_rows(rng, 2))
        read = [[t.tile for t in g.tiles] for g in recognize(photo.image).groups]
        kongs += [BACK] * 4 in read
    # 6 of these 15, as before the rule (the model reads the others' backs as white dragons)
    assert kongs >= 6, kongs
