"""The character look: the flowers' and seasons' characters (春夏秋冬梅蘭菊竹) found in a
photo of one tile (:class:`hefen.photo.model.CharLook`,
:func:`hefen.photo.single.read_tile`), and the windows it is trained on
(:mod:`hefen.photo.glyphs`, ``scripts/train_photo.py --look chars``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from photo_support import (
    TILES_DIR,
    FixedWindowLook,
    check_bad_look,
    check_shipped_look,
    copy_model,
    needs_art,
    needs_cjk_fonts,
    needs_more_fonts,
    reading,
    window_chunks,
)

from hefen.photo import classify_tile, glyphs, synth
from hefen.photo.classes import BONUS, CHAR_CLASSES, READ_CODES
from hefen.photo.model import MODEL_DIR, CharLook, TileClassifier, classifier
from hefen.photo.single import BONUS_AT, CHAR_FACE, CHAR_SURE, _char_look, char_windows

ROOT = Path(__file__).resolve().parents[1]
TEST_SEED = 31_338_101
SHIPPED = (MODEL_DIR / "chars.onnx").exists()


def _look(probs: list[float], at: int = 0) -> FixedWindowLook:
    """A character look that reads window ``at`` as ``probs`` and every other as no
    character."""
    return FixedWindowLook(len(CHAR_CLASSES), probs, at)


GREY = np.random.default_rng(TEST_SEED).integers(0, 256, (300, 200)).astype(np.uint8)
QUAD = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)


# --------------------------------------------------------------------------- the rule


def test_a_sure_character_names_the_flower_with_the_bonus_tiles_share() -> None:
    look = _look([0, 0, 0, 0, 0, 0.97, 0, 0, 0.03], at=5)  # 蘭: the orchid
    before = reading({"2h": 0.5, "6h": 0.1, "W": 0.4})
    after = _char_look(look, GREY, QUAD, before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "6h"
    assert after[BONUS_AT].sum() == pytest.approx(0.97 / (0.97 + 0.4), abs=1e-4)
    assert after[READ_CODES.index("2h")] == 0.0
    assert np.isclose(after.sum(), 1.0)
    # every window is WINDOW square, and there are windows of every size
    (shape,) = look.shapes
    assert shape[1:] == (glyphs.WINDOW, glyphs.WINDOW) and shape[0] > 100


def test_an_unsure_character_leaves_the_reading() -> None:
    look = _look([0.85, 0, 0, 0, 0, 0, 0, 0, 0.15])
    before = reading({"5h": 0.7, "1s": 0.3})
    assert CHAR_SURE > 0.85
    assert np.array_equal(_char_look(look, GREY, QUAD, before), before)  # type: ignore[arg-type]


def test_the_windows_cover_the_face_at_every_size_less_bare_face() -> None:
    rng = np.random.default_rng(TEST_SEED)
    face = rng.integers(0, 256, (CHAR_FACE[1], CHAR_FACE[0])).astype(np.uint8)
    windows = char_windows(face)
    assert windows.shape[1:] == (glyphs.WINDOW, glyphs.WINDOW) and windows.dtype == np.uint8
    assert len(windows) > 300
    face[: CHAR_FACE[1] // 2] = 230  # the top half bare: its windows are left out
    fewer = char_windows(face)
    assert len(windows) * 0.3 < len(fewer) < len(windows) * 0.7
    assert char_windows(np.full_like(face, 230)).shape == (1, glyphs.WINDOW, glyphs.WINDOW)


def test_read_tile_scans_a_tile_read_as_a_flower_and_not_a_suit_tile(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The scan is asked only where the bonus tiles have a share of the reading: a photo
    read as a plain suit tile is never scanned."""
    from hefen.photo import single

    model = TileClassifier()
    spring = _look([0.99, 0, 0, 0, 0, 0, 0, 0, 0.01])
    monkeypatch.setattr(model, "chars", spring)
    face = np.full((160, 120, 3), 235, np.uint8)
    monkeypatch.setattr(single, "CHAR_LOOK_AT", 2.0)  # never
    classify_tile(face, model=model)
    assert spring.shapes == []
    monkeypatch.setattr(single, "CHAR_LOOK_AT", 0.0)  # always
    code, _, _ = classify_tile(face, model=model)
    assert len(spring.shapes) == 1 and code == "1h"


# --------------------------------------------------------------------------- the network


def test_a_model_without_the_character_look_reads_without_it(tmp_path: Path) -> None:
    assert TileClassifier(copy_model(tmp_path)).chars is None


def test_a_damaged_or_foreign_character_look_is_one_sentence(tmp_path: Path) -> None:
    check_bad_look(copy_model(tmp_path), CharLook, CHAR_CLASSES, "character look")


@pytest.mark.skipif(not SHIPPED, reason="no character look is shipped")
def test_the_shipped_model_has_its_character_look() -> None:
    check_shipped_look(classifier().chars, len(CHAR_CLASSES), (glyphs.WINDOW,) * 2)


@needs_cjk_fonts
@pytest.mark.skipif(not SHIPPED, reason="no character look is shipped")
def test_the_shipped_look_reads_each_character_and_not_the_others() -> None:
    """Windows drawn as in training from another seed: each of the eight characters read
    as itself in most, and windows of no character seldom read as one surely."""
    look = classifier().chars
    assert look is not None
    rng = np.random.default_rng(TEST_SEED)
    plain: list[np.ndarray] = []  # bare face about the windows
    right = 0
    for label in range(len(BONUS)):
        windows = np.stack([glyphs.char_window(rng, label, plain) for _ in range(10)])
        right += int((look.probabilities(windows).argmax(1) == label).sum())
    assert right >= 60, right  # of 80: some windows are drawn as blurred as a photo's worst
    windows = np.stack([glyphs.char_window(rng, len(BONUS), plain) for _ in range(80)])
    sure = look.probabilities(windows)[:, : len(BONUS)].max(1) >= CHAR_SURE
    assert sure.sum() <= 4, sure.sum()


@needs_art
@pytest.mark.skipif(not SHIPPED, reason="no character look is shipped")
def test_photos_of_a_typeface_the_look_never_saw_are_read_with_it() -> None:
    """Photos of the ``fonts`` style's flowers and seasons (their characters in typefaces
    the character look was not trained on): at least as many read right with the look as
    without it, and its suit and honour tiles read the same."""
    art = synth.load_art(("fonts",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 1)
    photos = [(BONUS[i % 8], synth.tile_photo(rng, art, BONUS[i % 8])) for i in range(16)]
    others = [(c, synth.tile_photo(rng, art, c)) for c in ("1m", "4m", "9p", "3s", "N", "F")]
    model = TileClassifier()
    read_with = [classify_tile(im, model=model)[0] for _, im in photos + others]
    look, model.chars = model.chars, None
    read_without = [classify_tile(im, model=model)[0] for _, im in photos + others]
    model.chars = look
    truth = [c for c, _ in photos + others]
    right_with = sum(a == b for a, b in zip(read_with[:16], truth, strict=False))
    right_without = sum(a == b for a, b in zip(read_without[:16], truth, strict=False))
    assert right_with >= right_without and right_with >= 13, (right_with, right_without)
    assert read_with[16:] == read_without[16:]


class _Surest:
    """A character look that keeps, of each scan, the surest window of each character."""

    def __init__(self, look: CharLook) -> None:
        self.look = look
        self.seen: list[np.ndarray] = []

    def probabilities(self, windows: np.ndarray) -> np.ndarray:
        probs = self.look.probabilities(windows)
        self.seen.append(probs[:, : len(BONUS)].max(0))
        return probs


@needs_art
@pytest.mark.skipif(not SHIPPED, reason="no character look is shipped")
def test_the_look_alone_names_characters_of_typefaces_it_never_saw(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The ``fonts`` style's flowers and seasons (typefaces the look never saw; half of
    them print no character), every photo scanned: the look names the character of
    many, and seldom a wrong one. The look trained on the drawn style's typefaces alone
    named 10 of these 32 (at its bar, 0.9), none wrongly; trained on the more typefaces,
    13 (at 0.93), and one wrongly: an autumn whose picture prints no character, read as
    菊 at 0.94 (one wrongly of 1,440 tuning photos)."""
    from hefen.photo import single

    art = synth.load_art(("fonts",), TILES_DIR)
    rng = np.random.default_rng(TEST_SEED + 2)
    photos = [(BONUS[i % 8], synth.tile_photo(rng, art, BONUS[i % 8])) for i in range(32)]
    model = TileClassifier()
    assert model.chars is not None
    surest = _Surest(model.chars)
    monkeypatch.setattr(model, "chars", surest)
    monkeypatch.setattr(single, "CHAR_LOOK_AT", 0.0)  # every photo scanned
    right = wrong = 0
    for code, image in photos:
        surest.seen.clear()
        classify_tile(image, model=model)
        named = single.char_named(surest.seen[-1])
        right += named == BONUS.index(code)
        wrong += named is not None and named != BONUS.index(code)
    assert wrong <= 1 and right >= 12, (right, wrong)


# --------------------------------------------------------------------------- training


@needs_art
@needs_cjk_fonts
def test_the_character_looks_training_windows_are_seeded_and_labelled() -> None:
    (xs, ys), (again, labels) = window_chunks("chars", (7, 60, 0.0))
    assert xs.shape == (60, glyphs.WINDOW, glyphs.WINDOW) and xs.dtype == np.uint8
    assert np.array_equal(xs, again) and np.array_equal(ys, labels)
    assert set(ys.tolist()) <= set(range(len(CHAR_CLASSES)))
    assert len(set(ys.tolist())) >= 6
    share = float((ys == len(BONUS)).mean())
    assert 0.2 < share < 0.7  # about NO_CHARACTER_SHARE of no character
    assert all(xs[i].std() > 3 for i in range(60) if ys[i] < len(BONUS))  # inked


@needs_art
@needs_more_fonts
def test_windows_in_the_more_typefaces_are_seeded_and_labelled() -> None:
    """``--typefaces more``: the windows are seeded, labelled as the drawn typefaces' are,
    and differ from those (other typefaces are drawn)."""
    (xs, ys), (again, labels) = window_chunks("chars", (7, 60, 0.0), typefaces="more")
    assert np.array_equal(xs, again) and np.array_equal(ys, labels)
    assert set(ys.tolist()) <= set(range(len(CHAR_CLASSES))) and len(set(ys.tolist())) >= 6
    assert all(xs[i].std() > 3 for i in range(60) if ys[i] < len(BONUS))  # inked
    (drawn_xs, _), _ = window_chunks("chars", (7, 60, 0.0))
    assert not np.array_equal(xs, drawn_xs)


@needs_cjk_fonts
def test_a_typeface_that_lacks_a_character_never_draws_its_box() -> None:
    """A typeface without a glyph draws its box for a missing glyph (IPAex Mincho has no
    兰, the simplified orchid): such a typeface is never taken for that character, so no
    window of the orchid is a box."""
    fonts = glyphs.cjk_font_paths("drawn")
    ipaex = next(i for i, (path, _) in enumerate(fonts) if path.endswith("ipaexm.ttf"))
    assert glyphs._glyph_mask(ipaex, False, "兰") is None
    assert glyphs._glyph_mask(ipaex, False, "蘭") is not None
    assert ipaex not in glyphs._having("兰", False, "drawn")
    assert ipaex in glyphs._having("蘭", False, "drawn")
    for text in glyphs.CHARACTERS.values():  # every character in several typefaces
        assert len(glyphs._having(text[0], False, "drawn")) >= 10
    rng = np.random.default_rng(TEST_SEED)
    box = glyphs._drawn(glyphs._cjk_fonts("drawn")[ipaex], glyphs._NO_SUCH_GLYPH)
    box_ink = np.asarray(box.crop(box.getbbox()))
    for _ in range(60):
        mask = glyphs._random_glyph(rng, "兰")
        assert mask is not None and mask.shape != box_ink.shape


def test_the_more_typefaces_are_the_drawn_ones_and_more(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``more`` is the drawn style's typefaces and :data:`~hefen.photo.glyphs.MORE_CJK_FONTS`,
    none of them the ``fonts`` style's (I.Mahjong), whose typefaces no window look sees;
    a set not known, or fonts not installed, is one sentence."""
    from hefen.photo.drawn import CJK_FONTS

    more = glyphs.cjk_font_paths("more")
    assert more[: len(CJK_FONTS)] == CJK_FONTS and len(more) == len(CJK_FONTS) + 27
    assert len(set(more)) == len(more)
    assert not any("mahjong" in path.lower() or "mplus" in path.lower() for path, _ in more)
    with pytest.raises(ValueError, match="no typeface set 'wide'"):
        glyphs.cjk_font_paths("wide")
    monkeypatch.setattr(glyphs, "MORE_CJK_FONTS", (("/nowhere/kai.ttf", 0),))
    assert glyphs.missing_fonts("more")[0] == "/nowhere/kai.ttf"
    assert "/nowhere/kai.ttf" not in glyphs.missing_fonts("drawn")


def test_training_in_typefaces_not_installed_is_one_sentence(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    import train_photo

    monkeypatch.setattr(glyphs, "MORE_CJK_FONTS", (("/nowhere/kai.ttf", 0),))
    argv = ["train_photo.py", "--look", "chars", "--typefaces", "more", "--out", "/nowhere"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit) as stop:
        train_photo.main()
    message = str(stop.value)
    assert message.startswith("train_photo.py: ") and "/nowhere/kai.ttf" in message
    assert "apt-get install fonts-cwtex-kai" in message and "\n" not in message


@needs_art
def test_no_drawing_of_a_bonus_tile_that_prints_its_character_is_plain() -> None:
    """The windows of *no character* are never cut from the drawn style's flowers and
    seasons, which print the eight characters."""
    art = synth.load_art(("samoheen",), TILES_DIR)
    counted = sum(len(v) for v in art.faces.values())
    art.add("3h", art.faces["3h"][0], "drawn/printed")
    plain = glyphs.plain_drawings(art)
    assert len(plain) == counted
    assert all(p.ndim == 3 and p.shape[2] == 4 and p.dtype == np.uint8 for p in plain)
    photographed = glyphs.plain_art(art)  # the tiles whose photos give plain windows
    assert len(photographed.faces["3h"]) == len(art.faces["3h"]) - 1
    assert "drawn/printed" not in photographed.styles["3h"]


@needs_art
def test_windows_of_tile_photos_are_cut_as_the_reader_cuts_them() -> None:
    """``--photo-windows``: windows of no character cut from photos of tiles that print
    none, seeded, every one of them labelled no character."""
    (xs, ys), (again, _) = window_chunks("chars", (11, 30, 0.0), photo_windows=1.0)
    assert np.array_equal(xs, again)
    none = ys == len(BONUS)
    assert none.sum() >= 6  # one photo's windows at least
    assert xs.shape == (30, glyphs.WINDOW, glyphs.WINDOW)


def test_two_characters_nearly_as_sure_leave_the_reading() -> None:
    """A character read surely in one window and another nearly as surely in another (a
    bamboo's leaves read as 蘭 beside its 竹) name neither."""

    class _TwoLook(FixedWindowLook):
        def probabilities(self, windows: np.ndarray) -> np.ndarray:
            out = super().probabilities(windows)
            out[1] = [0, 0, 0, 0, 0, 0, 0, 0.9, 0.1]  # 竹 in another window
            return out

    look = _TwoLook(len(CHAR_CLASSES), [0, 0, 0, 0, 0, 0.96, 0, 0, 0.04])
    before = reading({"8h": 0.9, "1s": 0.1})
    assert np.array_equal(_char_look(look, GREY, QUAD, before), before)  # type: ignore[arg-type]


def test_a_character_is_named_when_sure_and_alone() -> None:
    from hefen.photo.single import CHAR_MARGIN, char_named

    surest = np.full(len(BONUS), 0.2, np.float32)
    surest[2] = CHAR_SURE
    assert char_named(surest) == 2  # 秋: the autumn
    surest[6] = CHAR_SURE - CHAR_MARGIN / 2
    assert char_named(surest) is None  # 菊 nearly as sure
    surest[6] = 0.2
    surest[2] = CHAR_SURE - 0.01
    assert char_named(surest) is None


def test_the_test_command_installs_the_more_typefaces() -> None:
    """``scripts/test`` installs the packages :data:`~hefen.photo.glyphs.MORE_FONT_PACKAGES`
    names, so that the tests of the more typefaces run on a fresh machine."""
    import re

    script = (ROOT / "scripts" / "test").read_text()
    listed = re.search(r'more_fonts="([^"]+)"', script)
    assert listed is not None and listed.group(1).split() == glyphs.MORE_FONT_PACKAGES.split()
