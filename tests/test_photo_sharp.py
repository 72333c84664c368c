"""The sharp look: a second, sharper look at the tile of a photo of one tile, whatever it
is (:class:`hefen.photo.model.SharpLook`), weighed with the tile model's reading in
:func:`hefen.photo.single.read_tile`."""

from __future__ import annotations

import numpy as np
import pytest
from photo_support import TILES_DIR, check_shipped_look, needs_art

from hefen.photo import classify_tile, drawn, single, synth
from hefen.photo.classes import READ_CODES, TILE_CODES
from hefen.photo.model import BONUS_H, BONUS_W, MODEL_DIR, TileClassifier, classifier
from hefen.photo.single import CUTS, SHARP_WEIGHT, _sharp_look

TEST_SEED = 31_337_701
SHIPPED = (MODEL_DIR / "sharp.onnx").exists()


class _FixedLook:
    """A look that reads every crop as ``probs``."""

    def __init__(self, probs: np.ndarray) -> None:
        self.probs = np.asarray(probs, np.float32)
        self.shapes: list[tuple[int, ...]] = []

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        self.shapes.append(crops.shape)
        return np.tile(self.probs, (len(crops), 1))


def _tiles(probs: dict[str, float], size: int) -> np.ndarray:
    out = np.zeros(size, np.float32)
    for code, p in probs.items():
        out[READ_CODES.index(code)] = p
    return out


def test_the_sharp_look_is_weighed_with_the_first_reading() -> None:
    """The 42 tiles' probabilities become model ** (1 - w) * look ** w, scaled to the
    model's share of them; the back and *not a tile* keep theirs."""
    before = _tiles({"3p": 0.5, "5p": 0.3, "back": 0.1}, len(READ_CODES) + 1)
    before[-1] = 0.1  # not a tile
    look = _FixedLook(_tiles({"3p": 0.9, "5p": 0.1}, len(TILE_CODES)))
    crops = np.zeros((len(CUTS), BONUS_H, BONUS_W), np.uint8)
    after = _sharp_look(look, crops, before)  # type: ignore[arg-type]
    assert look.shapes == [(len(CUTS), BONUS_H, BONUS_W)]
    assert after.sum() == pytest.approx(1.0, abs=1e-5)
    assert after[READ_CODES.index("back")] == pytest.approx(0.1)
    assert after[-1] == pytest.approx(0.1)
    w = SHARP_WEIGHT
    three, five = 0.5 ** (1 - w) * 0.9**w, 0.3 ** (1 - w) * 0.1**w
    assert after[READ_CODES.index("3p")] / after[READ_CODES.index("5p")] == pytest.approx(
        three / five, rel=1e-3
    )
    assert after[: len(TILE_CODES)].sum() == pytest.approx(0.8, abs=1e-5)


def test_a_sure_sharp_look_turns_an_unsure_first_reading() -> None:
    before = _tiles({"5p": 0.45, "3p": 0.4}, len(READ_CODES) + 1)
    before[-1] = 0.15
    look = _FixedLook(_tiles({"3p": 0.95, "5p": 0.03, "1p": 0.02}, len(TILE_CODES)))
    crops = np.zeros((len(CUTS), BONUS_H, BONUS_W), np.uint8)
    after = _sharp_look(look, crops, before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "3p"


def test_read_tile_takes_the_sharp_look_at_the_chosen_tile(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A picture of one tile is read by the tile model, then once by the sharp look, on the
    same six cuts, sharper; what the look says moves the reading."""
    model = TileClassifier()
    sure = _tiles({"7s": 0.98}, len(TILE_CODES)) + 0.02 / len(TILE_CODES)
    look = _FixedLook(sure)
    monkeypatch.setattr(model, "sharp", look)
    monkeypatch.setattr(model, "bonus", None)
    image = np.full((120, 90, 3), 60, np.uint8)
    image[10:110, 15:75] = 235  # a blank pale tile on a dark table
    reading = single.read_tile(image, model=model)
    # every reading (each quadrilateral found, in its four turns), to choose one
    # (_sharp_choice); then the one chosen
    assert len(look.shapes) == 2 and look.shapes[1] == (len(CUTS), BONUS_H, BONUS_W)
    assert look.shapes[0][0] % (single.TURNS * len(CUTS)) == 0 and look.shapes[0][1:] == (
        BONUS_H,
        BONUS_W,
    )
    without = single.read_tile(image, model=_without_looks())
    assert reading.probs[READ_CODES.index("7s")] > without.probs[READ_CODES.index("7s")]


class _UprightLook:
    """A sharp look that reads ``upright`` where a crop's top is darker than its bottom
    (the tile the right way up) and ``turned`` where it is not, each surely."""

    def __init__(self, upright: str, turned: str) -> None:
        self.upright = _tiles({upright: 0.97}, len(TILE_CODES)) + 0.03 / len(TILE_CODES)
        self.turned = _tiles({turned: 0.97}, len(TILE_CODES)) + 0.03 / len(TILE_CODES)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        half = crops.shape[1] // 2
        dark_top = crops[:, :half].mean((1, 2)) < crops[:, half:].mean((1, 2))
        return np.where(dark_top[:, None], self.upright, self.turned).astype(np.float32)


def _marked_tile() -> tuple[np.ndarray, list[np.ndarray]]:
    """A pale tile on a dark table with a dark band across its top, and its quadrilateral's
    four turns (as read_tile reads them)."""
    grey = np.full((140, 110), 40, np.uint8)
    grey[10:130, 15:95] = 230
    grey[20:50, 25:85] = 60
    quad = np.array([[15, 10], [95, 10], [95, 130], [15, 130]], np.float32)
    return grey, [q for q, _ in single._turns(quad)]


def test_the_reading_is_chosen_with_the_sharp_look() -> None:
    """The tile model, on a set it has never seen, may read a turned tile (upside down,
    on its side) surely and wrongly, and the upright one unsurely: the reading (each
    quadrilateral found, in each turn) is chosen by the two readings weighed together, so
    a sure sharp look keeps the tile upright."""
    grey, quads = _marked_tile()
    readings = [(t * len(CUTS), len(CUTS)) for t in range(single.TURNS)]
    first = np.full((single.TURNS * len(CUTS), len(READ_CODES) + 1), 0.02, np.float32)
    first[: len(CUTS), READ_CODES.index("6s")] = 0.2  # upright: unsure
    first[2 * len(CUTS) : 3 * len(CUTS), READ_CODES.index("9s")] = 0.9  # upside down: sure
    first /= first.sum(1, keepdims=True)
    costs = single.TURN_COST * np.array([0.0, 1.0, 2.0, 1.0])
    # the tile model alone chose the upside-down reading (its mean log, less its cost)
    logs = np.log(first[:, : len(READ_CODES)] + 1e-6)
    alone = [logs[a : a + n].mean(0).max() - c for (a, n), c in zip(readings, costs, strict=True)]
    assert int(np.argmax(alone)) == 2
    look = _UprightLook("6s", "9p")
    assert single._sharp_choice(look, grey, quads, readings, first, costs) == 0  # type: ignore[arg-type]
    # every quadrilateral's readings are weighed, each less its cost: the same tile found
    # twice, the first time as a part of a larger one (costing more), is read the second
    shifted = [(a + single.TURNS * len(CUTS), n) for a, n in readings]
    both = np.concatenate([first, first])
    dear = np.concatenate([costs + 1.0, costs])
    chosen = single._sharp_choice(look, grey, quads * 2, readings + shifted, both, dear)  # type: ignore[arg-type]
    assert chosen == single.TURNS


def test_a_reading_turned_on_its_side_costs_more() -> None:
    """A tile's face is higher than wide: of a portrait quadrilateral's four turns, the two
    read on their side (wider than high) cost :data:`~hefen.photo.single.WIDE_COST` times
    the log of how much wider they are, and the upright and upside-down ones nothing."""
    _, quads = _marked_tile()
    wide = [single._wide(q) for q in quads]
    assert wide[0] == wide[2] == 0.0
    assert wide[1] == wide[3] == pytest.approx(np.log(120 / 80))
    assert single.WIDE_COST > 0


def _without_looks() -> TileClassifier:
    model = TileClassifier()
    model.sharp = None
    model.bonus = None
    return model


# (loading a sharp look: tests/test_photo_bonus.py, with the bonus look's)


@pytest.mark.skipif(not SHIPPED, reason="no sharp look is shipped")
def test_the_shipped_model_has_its_sharp_look() -> None:
    check_shipped_look(classifier().sharp, len(TILE_CODES))


@needs_art
@pytest.mark.skipif(not SHIPPED, reason="no sharp look is shipped")
def test_photos_of_one_tile_are_read_with_the_sharp_look() -> None:
    """42 photographs of one tile of the training styles, one of each kind: at least 39
    read right with the sharp look, and at least as many as without it."""
    art = synth.load_art(tiles_dir=TILES_DIR)
    rng = np.random.default_rng(TEST_SEED)
    photos = [(code, synth.tile_photo(rng, art, code)) for code in TILE_CODES]
    model = TileClassifier()
    right_with = sum(classify_tile(im, model=model)[0] == c for c, im in photos)
    model.sharp = None
    right_without = sum(classify_tile(im, model=model)[0] == c for c, im in photos)
    assert right_with >= 39 and right_with >= right_without, (right_with, right_without)


@pytest.mark.skipif(not SHIPPED, reason="no sharp look is shipped")
@pytest.mark.skipif(bool(drawn.missing_fonts()), reason="the drawn styles' fonts are missing")
def test_the_sharp_look_knows_birds_it_was_not_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sharp look is trained with the ``laid`` style's birds for the 1 of bamboos
    (docs/photo.md): birds of that style drawn from another seed, in 30 photos of one
    tile, are read as the 1 of bamboos by the look alone in 17, and in 13 in the end (the
    look trained without them: 2 and 2). With the later rules and the look weighing 0.8
    (``SHARP_WEIGHT``), 25 are read so in the end; at 0.7, 24 (docs/photo.md, "The sharp
    look weighs more")."""
    art = synth.Art()
    for rgba in drawn.laid_faces("1s", count=10, seed=TEST_SEED):
        art.add("1s", synth.face_from_rgba(rgba))
    rng = np.random.default_rng(TEST_SEED)
    alone: list[str] = []
    shared = single._sharp_look

    def watched(sharp, crops, mean):  # type: ignore[no-untyped-def]
        alone.append(TILE_CODES[int(sharp.probabilities(crops).mean(0).argmax())])
        return shared(sharp, crops, mean)

    monkeypatch.setattr(single, "_sharp_look", watched)
    model = TileClassifier()
    read = [
        READ_CODES[single.read_tile(synth.tile_photo(rng, art, "1s"), None, model).index]
        for _ in range(30)
    ]
    assert len(alone) == 30
    assert alone.count("1s") >= 10, alone
    assert read.count("1s") >= 25, read


def test_a_blank_reading_of_the_whole_picture_costs_where_a_tile_was_found() -> None:
    """A plain ground about a small tile, turned on its side, reads as a blank face (the
    white dragon) surer than the tile's drawing reads as any tile: where a smaller
    quadrilateral was found, such a reading of the whole picture costs
    ``BLANK_WHOLE_COST`` times the log of how much larger the picture is. Another tile
    read in the whole picture, or the white dragon read in the tile found, costs nothing
    more."""
    picture = np.array([[0, 0], [600, 0], [600, 338], [0, 338]], np.float32)
    tile = np.array([[330, 25], [462, 25], [462, 188], [330, 188]], np.float32)
    blank = np.repeat(single._blank_costs([tile, picture]), single.TURNS)
    assert blank[: single.TURNS].tolist() == [0.0] * single.TURNS
    assert blank[single.TURNS :] == pytest.approx(
        single.BLANK_WHOLE_COST * np.log(600 * 338 / (132 * 163))
    )
    readings = [(r * len(CUTS), len(CUTS)) for r in range(2 * single.TURNS)]
    costs = np.zeros(2 * single.TURNS)

    def logs(whole: str, seen: str) -> np.ndarray:
        probs = np.full((2 * single.TURNS * len(CUTS), len(READ_CODES)), 0.01, np.float32)
        probs[: len(CUTS), READ_CODES.index(seen)] = 0.32  # the tile found, upright
        probs[
            single.TURNS * len(CUTS) : (single.TURNS + 1) * len(CUTS), READ_CODES.index(whole)
        ] = 0.47
        return np.log(probs + 1e-6)

    assert single._model_choice(logs("P", "7h"), readings, costs) == single.TURNS
    assert single._model_choice(logs("P", "7h"), readings, costs, blank) == 0
    assert single._model_choice(logs("5h", "7h"), readings, costs, blank) == single.TURNS
    assert single._model_choice(logs("5h", "P"), readings, costs, blank) == single.TURNS
    # the sharp look's choice costs it alike (the same worth of a reading)
    p = np.log(_tiles({"P": 0.47, "7h": 0.3}, len(READ_CODES)) + 1e-6)
    assert single._worth(p, 0.1, 2.0) == pytest.approx(np.log(0.47 + 1e-6) - 2.1)
    p = np.log(_tiles({"P": 0.3, "7h": 0.47}, len(READ_CODES)) + 1e-6)
    assert single._worth(p, 0.1, 2.0) == pytest.approx(np.log(0.47 + 1e-6) - 0.1)
    # a picture in which nothing smaller was found (cut to the tile) costs nothing
    assert single._blank_costs([picture]).tolist() == [0.0]


def test_a_blank_reading_of_a_strip_costs() -> None:
    """A blank face is tile-shaped: a strip found (a tile's coloured back, a stick, the
    bare edge of a face) and read as the white dragon costs ``BLANK_STRIP_COST`` times
    the log of how much longer than ``TILE_SHAPED`` it is; a tile-shaped quadrilateral
    and the whole picture nothing."""
    picture = np.array([[0, 0], [600, 0], [600, 338], [0, 338]], np.float32)
    tile = np.array([[330, 25], [462, 25], [462, 188], [330, 188]], np.float32)
    back = np.array([[330, 188], [462, 188], [462, 218], [330, 218]], np.float32)  # 4.4:1
    strip = single._strip_costs([tile, back, picture])
    assert strip[0] == 0.0 and strip[2] == 0.0
    assert strip[1] == pytest.approx(single.BLANK_STRIP_COST * np.log(132 / 30 / 2.0))
    readings = [(r * len(CUTS), len(CUTS)) for r in range(2 * single.TURNS)]
    probs = np.full((2 * single.TURNS * len(CUTS), len(READ_CODES)), 0.01, np.float32)
    probs[: len(CUTS), READ_CODES.index("3m")] = 0.3  # the tile, upright, unsurely
    probs[single.TURNS * len(CUTS) : (single.TURNS + 1) * len(CUTS), READ_CODES.index("P")] = 0.8
    logs, costs = np.log(probs + 1e-6), np.zeros(2 * single.TURNS)
    blank = np.repeat(strip[:2], single.TURNS)  # the tile and the back, in their turns
    assert single._model_choice(logs, readings, costs) == single.TURNS  # the back, blank
    assert single._model_choice(logs, readings, costs, blank) == 0  # the tile


def test_read_tile_gives_the_whole_pictures_blank_reading_its_cost(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``read_tile`` hands the choice the blank costs of every reading: nothing for the
    quadrilaterals found, the whole picture's (read last, in its four turns) where the
    tile found is smaller than the picture."""
    seen = []

    def choose(sharp, grey, quads, readings, probs, costs, blank=None, looks=None):  # type: ignore[no-untyped-def]
        seen.append((quads, blank))
        return 0

    monkeypatch.setattr(single, "_sharp_choice", choose)
    image = np.full((300, 400, 3), 60, np.uint8)
    image[100:200, 170:240] = 235  # a small pale tile on a dark table
    single.read_tile(image)
    ((quads, blank),) = seen
    assert len(blank) == len(quads) and len(quads) > single.TURNS
    assert not blank[: -single.TURNS].any()
    assert (blank[-single.TURNS :] > 1.0).all()  # the picture is 17 times the tile
