"""The bonus look: a second, sharper look at a tile read as a flower or season
(:class:`hefen.photo.model.BonusLook`, :func:`hefen.photo.single.read_tile`), and the
photos and crops it is trained on (``synth.tile_photo_at``, ``scripts/train_photo.py
--look bonus``)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from photo_support import (
    TILES_DIR,
    check_shipped_look,
    copy_model,
    needs_art,
    reading,
    write_look,
)

from hefen.photo import PhotoError, classify_tile, synth
from hefen.photo.classes import BONUS, BONUS_LOOK_CLASSES, READ_CODES, TILE_CODES
from hefen.photo.model import (
    BONUS_H,
    BONUS_W,
    MODEL_DIR,
    BonusLook,
    SharpLook,
    TileClassifier,
    classifier,
)
from hefen.photo.single import BONUS_AT, CUTS, _bonus_look, cut

ROOT = Path(__file__).resolve().parents[1]
TEST_SEED = 31_337_601
SHIPPED = (MODEL_DIR / "bonus.onnx").exists()


class _FixedLook:
    """A bonus look that reads every crop as ``probs`` (nine numbers)."""

    def __init__(self, probs: list[float]) -> None:
        self.probs = np.asarray(probs, np.float32)
        self.shapes: list[tuple[int, ...]] = []

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        self.shapes.append(crops.shape)
        return np.tile(self.probs, (len(crops), 1))


# --------------------------------------------------------------------------- the rule


def test_a_flower_is_read_again_and_its_share_divided_as_the_bonus_look_reads_it() -> None:
    grey = np.full((300, 200), 200, np.uint8)
    quad = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)
    look = _FixedLook([0.05, 0.05, 0.7, 0.05, 0.05, 0.02, 0.02, 0.02, 0.04])
    before = reading({"6h": 0.6, "2h": 0.1, "W": 0.3})
    after = _bonus_look(look, grey, quad, before)  # type: ignore[arg-type]
    assert look.shapes == [(len(CUTS), BONUS_H, BONUS_W)]  # the same cuts, sharper
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "3h"
    assert after.sum() == pytest.approx(1.0)
    # the bonus tiles' share is the larger of the two readings' (0.96 against 0.7), the
    # rest as it was, all scaled back to a sum of 1
    assert after[BONUS_AT].sum() == pytest.approx(0.96 / 1.26, abs=0.01)
    assert after[READ_CODES.index("W")] == pytest.approx(0.3 / 1.26, abs=0.01)


def test_another_tile_to_the_bonus_look_leaves_the_first_reading() -> None:
    grey = np.full((300, 200), 200, np.uint8)
    quad = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)
    look = _FixedLook([0.05] * 8 + [0.6])
    before = reading({"6h": 0.4, "W": 0.6})
    after = _bonus_look(look, grey, quad, before)  # type: ignore[arg-type]
    assert np.array_equal(after, before)


def test_a_tile_read_first_as_another_is_a_flower_only_if_the_bonus_look_is_sure() -> None:
    grey = np.full((300, 200), 200, np.uint8)
    quad = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)
    before = reading({"8s": 0.45, "5h": 0.3, "2h": 0.25})
    unsure = _FixedLook([0.05, 0.05, 0.05, 0.05, 0.5, 0.05, 0.05, 0.05, 0.15])  # 0.85
    assert np.array_equal(_bonus_look(unsure, grey, quad, before), before)  # type: ignore[arg-type]
    sure = _FixedLook([0.02, 0.02, 0.02, 0.02, 0.8, 0.02, 0.02, 0.02, 0.06])  # 0.94
    after = _bonus_look(sure, grey, quad, before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "5h"


def test_a_tile_read_first_as_the_bird_is_never_made_a_flower_by_the_bonus_look() -> None:
    """The 1 of bamboos is a picture as a flower is, and the bonus look saw few birds: a
    first reading of it stands however sure the look is of a flower; the same look still
    turns a first reading of another tile (the 8 of bamboos) into the flower."""
    grey = np.full((300, 200), 200, np.uint8)
    quad = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)
    sure = _FixedLook([0.01, 0.01, 0.01, 0.01, 0.01, 0.9, 0.01, 0.01, 0.03])  # 0.97
    bird = reading({"1s": 0.45, "6h": 0.3, "1h": 0.25})
    assert np.array_equal(_bonus_look(sure, grey, quad, bird), bird)  # type: ignore[arg-type]
    sticks = reading({"8s": 0.45, "6h": 0.3, "1h": 0.25})
    after = _bonus_look(sure, grey, quad, sticks)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "6h"


def test_a_cut_of_the_bonus_look_is_its_size_and_the_classifiers_is_unchanged() -> None:
    grey = np.tile(np.arange(200, dtype=np.uint8), (300, 1))
    quad = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)
    assert cut(grey, quad, CUTS[0]).shape == (64, 48)
    sharp = cut(grey, quad, CUTS[0], (BONUS_W, BONUS_H))
    assert sharp.shape == (BONUS_H, BONUS_W)
    assert 35 <= sharp[:, 0].mean() <= 45 and 155 <= sharp[:, -1].mean() <= 165


# --------------------------------------------------------------------------- loading


#: Each second look, its attribute on the classifier, its name in errors, and classes
#: that are not its own.
SECOND_LOOKS = [
    (BonusLook, "bonus", "bonus look", list(TILE_CODES), list(BONUS_LOOK_CLASSES)),
    (SharpLook, "sharp", "sharp look", list(BONUS_LOOK_CLASSES), list(TILE_CODES)),
]


@pytest.mark.parametrize(("look", "attr", "name", "foreign", "own"), SECOND_LOOKS)
def test_a_model_without_a_second_look_reads_alone(
    tmp_path: Path, look: type, attr: str, name: str, foreign: list[str], own: list[str]
) -> None:
    assert getattr(TileClassifier(copy_model(tmp_path)), attr) is None


@pytest.mark.parametrize(("look", "attr", "name", "foreign", "own"), SECOND_LOOKS)
def test_a_damaged_or_foreign_second_look_is_one_sentence(
    tmp_path: Path, look: type, attr: str, name: str, foreign: list[str], own: list[str]
) -> None:
    folder = copy_model(tmp_path)
    write_look(folder, look.FILES, b"not a model", own, sha="0" * 64)  # type: ignore[attr-defined]
    with pytest.raises(PhotoError, match=r"^The photo model file does not match its recorded"):
        TileClassifier(folder)
    data = (MODEL_DIR / "tiles.onnx").read_bytes()  # a real network, but not this look
    write_look(folder, look.FILES, data, foreign)  # type: ignore[attr-defined]
    with pytest.raises(PhotoError, match=rf"^The {name}'s classes are not the ones"):
        look(folder)


@pytest.mark.skipif(not SHIPPED, reason="no bonus look is shipped")
def test_the_shipped_model_has_its_bonus_look() -> None:
    check_shipped_look(classifier().bonus, len(BONUS_LOOK_CLASSES))


# --------------------------------------------------------------------------- reading


@needs_art
@pytest.mark.skipif(not SHIPPED, reason="no bonus look is shipped")
def test_photos_of_flowers_and_seasons_are_read_with_the_bonus_look() -> None:
    """24 photographs of the eight bonus tiles of the training styles: at least 21 read
    right with the bonus look, and at least as many as without it."""
    art = synth.load_art(tiles_dir=TILES_DIR)
    rng = np.random.default_rng(TEST_SEED)
    photos = [(BONUS[i % 8], synth.tile_photo(rng, art, BONUS[i % 8])) for i in range(24)]
    model = TileClassifier()
    right_with = sum(classify_tile(im, model=model)[0] == c for c, im in photos)
    look, model.bonus = model.bonus, None
    right_without = sum(classify_tile(im, model=model)[0] == c for c, im in photos)
    model.bonus = look
    assert right_with >= 21 and right_with >= right_without, (right_with, right_without)


# --------------------------------------------------------------------------- training


@needs_art
def test_the_tile_photo_and_its_corners_are_those_of_tile_photo() -> None:
    """``tile_photo_at`` draws exactly ``tile_photo``'s photo (the bench's and the tests'
    photos are unchanged), and its corners are the tile's: cut there, the classifier reads
    it."""
    art = synth.load_art(("samoheen",), TILES_DIR)
    codes = ["2m", "7p", "5s", "E", "C", "1h", "6h", "8h"]
    right = 0
    for k, code in enumerate(codes):
        photo = synth.tile_photo(np.random.default_rng(TEST_SEED + k), art, code)
        same, corners = synth.tile_photo_at(np.random.default_rng(TEST_SEED + k), art, code)
        assert np.array_equal(photo, same) and corners.shape == (4, 2)
        grey = photo.mean(2).astype(np.uint8)
        crops = np.stack([cut(grey, corners, window) for window in CUTS])
        probs = classifier().probabilities(crops).mean(0)
        right += READ_CODES[int(probs[: len(READ_CODES)].argmax())] == code
    assert right >= len(codes) - 1


@needs_art
def test_the_bonus_looks_training_crops_are_seeded_sharp_and_labelled() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_photo

    train_photo._init_worker(("samoheen", "fonts"), str(TILES_DIR), None)
    xs, ys = train_photo._make_look_chunk((7, 40, 0.0))
    again, labels = train_photo._make_look_chunk((7, 40, 0.0))
    assert xs.shape == (40, BONUS_H, BONUS_W) and xs.dtype == np.uint8
    assert np.array_equal(xs, again) and np.array_equal(ys, labels)
    assert set(ys.tolist()) <= set(range(len(BONUS_LOOK_CLASSES)))
    assert len(set(ys.tolist())) >= 4  # ten photos, four crops each
    assert all(xs[i].std() > 10 for i in range(40))  # a tile's drawing, not a blank


def test_the_varied_bonus_faces_are_seeded_and_inked() -> None:
    """``drawn.varied_faces``: the same faces on every run, each of the face's size and
    inked, another code's faces others."""
    pytest.importorskip("PIL")
    from hefen.photo import drawn

    if drawn.missing_fonts():
        pytest.skip("the drawn style's fonts are not installed")
    first = drawn.varied_faces("6h", 12)
    assert all(
        np.array_equal(a, b) for a, b in zip(first, drawn.varied_faces("6h", 12), strict=True)
    )
    assert all(face.shape == (drawn.H, drawn.W, 4) for face in first)
    assert all((face[:, :, 3] > 127).mean() > 0.01 for face in first)
    assert not np.array_equal(first[0], drawn.varied_faces("2h", 1)[0])


def test_the_factored_look_reads_nine_classes_as_kind_family_and_number() -> None:
    """``train_photo.py --look bonus --factored``: each bonus tile's log-probability is its
    kind's (a bonus tile), its family's (season 1h-4h, flower 5h-8h) and its number's; the
    nine make a distribution, and the export's features and logits are the network's."""
    torch = pytest.importorskip("torch")
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_photo

    torch.manual_seed(3)
    net = train_photo.build_factored_look().eval()
    crops = torch.randn(4, 1, BONUS_H, BONUS_W)
    with torch.no_grad():
        out = net(crops)
        features, logits = train_photo.split(net, crops)
        z = net.heads(features)
    assert out.shape == (4, len(BONUS_LOOK_CLASSES))
    assert torch.allclose(out.exp().sum(1), torch.ones(4), atol=1e-5)
    assert torch.allclose(logits, out)
    kind, family, number = (torch.log_softmax(z[:, a:b], 1) for a, b in ((0, 2), (2, 4), (4, 8)))
    for i, code in enumerate(BONUS):
        n = int(code[0]) - 1
        want = kind[:, 0] + family[:, n // 4] + number[:, n % 4]
        assert torch.allclose(out[:, i], want, atol=1e-5), code
    assert torch.allclose(out[:, -1], kind[:, 1], atol=1e-5)
    # the plain look's split is its Sequential's: the features before the dropout and head
    plain = train_photo.build_model((8, 8, 8, 8), (BONUS_W, BONUS_H), 9).eval()
    with torch.no_grad():
        f, lg = train_photo.split(plain, crops)
        assert torch.allclose(lg, plain(crops))
    assert f.shape == (4, 8 * (BONUS_H // 16) * (BONUS_W // 16))


@needs_art
def test_the_match_looks_training_crops_are_seeded_and_labelled_by_drawing() -> None:
    """``train_photo --look match``: each drawing's crops (from hand photos, and the last
    ``--photo-cuts`` of them from a photo of the tile alone) carry the drawing's index."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_photo

    train_photo._init_worker(("samoheen",), str(TILES_DIR), None, "match", 1)
    assert len(train_photo._IDS) == 42  # samoheen draws each tile once: 42 drawings
    del train_photo._IDS[5:]  # five of them are enough here
    xs, ys = train_photo._make_match_chunk((7, 2, 3.0))
    again, labels = train_photo._make_match_chunk((7, 2, 3.0))
    assert xs.shape == (9, 64, 48) and xs.dtype == np.uint8  # drawings 2, 3, 4: 3 each
    assert np.array_equal(xs, again) and np.array_equal(ys, labels)
    assert ys.tolist() == [2, 2, 2, 3, 3, 3, 4, 4, 4]
    assert all(xs[i].std() > 10 for i in range(9))  # a tile's drawing, not a blank
