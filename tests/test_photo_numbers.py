"""The number look: the numbers 1-9 a flower, season or suit tile prints, found in a
photo of one tile (:class:`hefen.photo.model.NumberLook`,
:func:`hefen.photo.single.read_tile`), the number and the reading's family naming a flower
or season where the character look names none, and the number and the reading's suit a
suit tile; and the windows it is trained on (:func:`hefen.photo.glyphs.number_window`,
``scripts/train_photo.py --look numbers``)."""

from __future__ import annotations

import sys
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
    reading,
    window_chunks,
)

from hefen.photo import classify_tile, glyphs, single, synth
from hefen.photo.classes import BONUS, CHAR_CLASSES, NUMBER_CLASSES, READ_CODES
from hefen.photo.model import MODEL_DIR, NumberLook, TileClassifier, classifier
from hefen.photo.single import (
    BONUS_AT,
    CHAR_SURE,
    CORNER_SURE,
    CORNER_TOP,
    INDEX_UP_SURE,
    NUMBER_MARGIN,
    NUMBER_SURE,
    SEASON_SEEN_AT,
    SIDEWAYS,
    TURNED_LOW,
    UNFLOWERED_AT,
    UPRIGHT_STANDS,
    UPSIDE_DOWN,
    _char_look,
    _index_up,
    _turns,
    _weighed,
    char_scan,
    char_scan_at,
    corner_named,
    number_named,
    numbered,
)

ROOT = Path(__file__).resolve().parents[1]
TEST_SEED = 31_338_201
SHIPPED = (MODEL_DIR / "numbers.onnx").exists()


def _numbers(probs: list[float] | None = None, at: int = 0) -> FixedWindowLook:
    return FixedWindowLook(len(NUMBER_CLASSES), probs, at)


def _number(number: int, sure: float) -> list[float]:
    """A window's probabilities: ``number`` (1-9) at ``sure``, the rest *no number*."""
    out = [0.0] * len(NUMBER_CLASSES)
    out[number - 1], out[-1] = sure, 1.0 - sure
    return out


def _chars(probs: list[float] | None = None, at: int = 0) -> FixedWindowLook:
    return FixedWindowLook(len(CHAR_CLASSES), probs, at)


def _read(out: np.ndarray) -> str:
    return READ_CODES[int(out[: len(READ_CODES)].argmax())]


GREY = np.random.default_rng(TEST_SEED).integers(0, 256, (300, 200)).astype(np.uint8)
QUAD = np.array([[40, 40], [160, 40], [160, 240], [40, 240]], np.float32)


# --------------------------------------------------------------------------- the rule


def test_a_sure_number_renumbers_a_flower_or_season() -> None:
    """A 3 read surely, with no character look: the autumn where the reading gives it
    more than the chrysanthemum, else the chrysanthemum; the bonus tiles' share goes to
    it. (With a character look, how surely it saw the season's character weighs the two
    first: the next test.)"""
    three = _numbers(_number(3, 0.97), at=7)
    spring = reading({"1h": 0.4, "3h": 0.1, "7h": 0.05, "W": 0.45})
    assert _read(spring) == "W"  # read as another tile: the number does not make it one
    assert np.array_equal(_char_look(None, GREY, QUAD, spring, three), spring)  # type: ignore[arg-type]
    spring = reading({"1h": 0.4, "3h": 0.1, "7h": 0.05, "W": 0.3})
    after = _char_look(None, GREY, QUAD, spring, three)  # type: ignore[arg-type]
    assert _read(after) == "3h"
    assert after[BONUS_AT].sum() == pytest.approx(0.97 / (0.97 + 0.3), abs=1e-4)
    assert np.isclose(after.sum(), 1.0)
    plum = reading({"5h": 0.4, "7h": 0.2, "3h": 0.1, "W": 0.3})
    after = _char_look(None, GREY, QUAD, plum, three)  # type: ignore[arg-type]
    assert _read(after) == "7h"
    assert after[READ_CODES.index("5h")] == 0.0


def test_a_season_whose_character_is_not_seen_is_the_flower() -> None:
    """A 2 read surely on a tile the reading gives the summer more than the orchid, the
    character look naming no character (KMahjongg *default*'s orchid prints a 2 and no
    character, its summer a 2 and 夏): where the look saw 夏 nowhere, the orchid; where it
    saw it nearly surely (under the bar that names it), the summer (docs/photo.md, "A
    season's character not seen")."""
    two = _numbers(_number(2, 0.98), at=5)
    summer = reading({"2h": 0.3, "6h": 0.1, "8h": 0.2, "W": 0.25})
    assert _read(_char_look(None, GREY, QUAD, summer, two)) == "2h"  # type: ignore[arg-type]
    assert _read(_char_look(_chars(), GREY, QUAD, summer, two)) == "6h"  # type: ignore[arg-type]
    seen = [0.0] * len(CHAR_CLASSES)
    seen[BONUS.index("2h")], seen[-1] = 0.85, 0.15  # 夏, under the bar
    assert 0.85 < CHAR_SURE
    after = _char_look(_chars(seen, at=2), GREY, QUAD, summer, two)  # type: ignore[arg-type]
    assert _read(after) == "2h"
    # the orchid's 蘭 seen nearly as surely is no season's: the orchid
    seen = [0.0] * len(CHAR_CLASSES)
    seen[BONUS.index("6h")], seen[-1] = 0.85, 0.15
    after = _char_look(_chars(seen, at=2), GREY, QUAD, summer, two)  # type: ignore[arg-type]
    assert _read(after) == "6h"


def test_a_number_at_the_top_names_a_flower_where_the_whole_tile_names_none() -> None:
    """KMahjongg *default*'s plum prints its 1 at the top, and its branch lower down looks
    like a 3 nearly as surely: the whole tile names no number, the windows at the top
    name the 1 (:func:`corner_named`), and the plum is read, the character look having
    seen no 春 (docs/photo.md, "A season's character not seen"). A 5 to 9 at the top
    leaves a flower's reading as read
    (``test_a_corner_index_at_the_top_names_a_suit_tile_among_sticks``)."""
    windows, lows = char_scan_at(GREY, QUAD)
    top, low = int(np.argmax(lows < CORNER_TOP)), int(np.argmax(lows > TURNED_LOW))

    class _Branch(FixedWindowLook):
        """A 1 at ``sure`` at the top, and a 3 at 0.94 low on the tile."""

        def __init__(self, sure: float) -> None:
            super().__init__(len(NUMBER_CLASSES), _number(1, sure), top)

        def probabilities(self, windows: np.ndarray) -> np.ndarray:
            out = super().probabilities(windows)
            out[low] = _number(3, 0.94)
            return out

    assert 0.94 < NUMBER_SURE
    spring = reading({"1h": 0.3, "5h": 0.2, "3h": 0.25, "W": 0.25})
    one = _Branch(0.95)
    each = one.probabilities(windows)[:, : len(NUMBER_CLASSES) - 1]
    assert number_named(each.max(0)) is None and corner_named(each, lows) == 0
    assert _read(_char_look(_chars(), GREY, QUAD, spring, one)) == "5h"  # type: ignore[arg-type]
    assert _read(_char_look(None, GREY, QUAD, spring, one)) == "1h"  # the reading alone: 1h
    # a 1 at the top less sure than CORNER_SURE, the 3 not sure enough either: as read
    assert _read(_char_look(_chars(), GREY, QUAD, spring, _Branch(0.85))) == "1h"  # type: ignore[arg-type]


def test_the_families_are_weighed_by_the_season_seen() -> None:
    bonus = np.array([0, 0.5, 0, 0, 0, 0.25, 0, 0])
    assert BONUS[numbered(bonus, 1)] == "2h"  # the reading alone
    assert BONUS[numbered(bonus, 1, 1 - SEASON_SEEN_AT)] == "2h"
    assert BONUS[numbered(bonus, 1, 0.0)] == "6h"  # 夏 seen nowhere
    # seen nowhere, the summer stays where the reading gives it this many times the orchid
    even = (1 + SEASON_SEEN_AT) / SEASON_SEEN_AT
    assert BONUS[numbered(np.array([0, even, 0, 0, 0, 1, 0, 0]), 1, 0.0)] == "2h"
    assert BONUS[numbered(np.array([0, even * 0.99, 0, 0, 0, 1, 0, 0]), 1, 0.0)] == "6h"


def test_a_named_character_comes_before_the_number() -> None:
    """The character names the tile outright: the number look is not asked."""
    spring = _chars([0.97, 0, 0, 0, 0, 0, 0, 0, 0.03])
    four = _numbers(_number(4, 0.99))
    plum = reading({"5h": 0.5, "8h": 0.1, "W": 0.4})
    after = _char_look(spring, GREY, QUAD, plum, four)  # type: ignore[arg-type]
    assert _read(after) == "1h" and four.shapes == []
    # no character named: the number is read
    after = _char_look(_chars(), GREY, QUAD, plum, four)  # type: ignore[arg-type]
    assert _read(after) == "8h" and len(four.shapes) == 1


def test_an_unsure_number_or_two_numbers_leave_the_reading() -> None:
    before = reading({"6h": 0.7, "1s": 0.3})
    unsure = _numbers(_number(1, 0.85))
    assert NUMBER_SURE > 0.85
    assert np.array_equal(_char_look(_chars(), GREY, QUAD, before, unsure), before)  # type: ignore[arg-type]

    class _Two(FixedWindowLook):
        def probabilities(self, windows: np.ndarray) -> np.ndarray:
            out = super().probabilities(windows)
            out[1] = _number(1, 0.93)  # a 1 in another window, nearly as sure
            return out

    two = _Two(len(NUMBER_CLASSES), _number(3, 0.97))
    assert np.array_equal(_char_look(_chars(), GREY, QUAD, before, two), before)  # type: ignore[arg-type]
    # and without a number look the reading stands
    assert np.array_equal(_char_look(_chars(), GREY, QUAD, before), before)  # type: ignore[arg-type]


def test_a_sure_number_renumbers_a_suit_tile_within_its_suit() -> None:
    """A 3 read surely on a tile read as the 5 of circles: the 3 of circles, with the
    reading's probability; the 5 becomes its alternative. The suit is the reading's."""
    three = _numbers(_number(3, 0.97), at=3)
    five = reading({"5p": 0.6, "3p": 0.15, "3s": 0.1, "E": 0.15})
    after = _char_look(None, GREY, QUAD, five, three)  # type: ignore[arg-type]
    assert _read(after) == "3p" and len(three.shapes) == 1
    assert after[READ_CODES.index("3p")] == pytest.approx(0.6)
    assert after[READ_CODES.index("5p")] == pytest.approx(0.15)
    assert after[READ_CODES.index("3s")] == pytest.approx(0.1) and np.isclose(after.sum(), 1.0)
    # the number the reading already has, an unsure one, or none: the reading stands
    for look in (_numbers(_number(5, 0.99)), _numbers(_number(3, 0.85)), _numbers()):
        assert np.array_equal(_char_look(None, GREY, QUAD, five, look), five)  # type: ignore[arg-type]
    # a 九 on a tile read as the 2 of characters: the 9 of characters
    two = reading({"2m": 0.7, "3m": 0.3})
    assert _read(_char_look(None, GREY, QUAD, two, _numbers(_number(9, 0.99)))) == "9m"  # type: ignore[arg-type]


def test_a_six_or_nine_low_on_circles_or_bamboos_is_read_turned() -> None:
    """Corner indices are printed at the top: a 6 named in a window low on a tile of
    circles or bamboos is on a tile held upside down, so it is a 9 (and a 9 a 6); high on
    the tile, or on a character tile (its 萬 says which way is up), it is read as named."""
    windows, lows = char_scan_at(GREY, QUAD)
    assert np.array_equal(windows, char_scan(GREY, QUAD))  # the windows the looks are given
    low, high = int(np.argmax(lows > TURNED_LOW)), int(np.argmax(lows < 0.4))
    assert lows[low] > TURNED_LOW and lows[high] < 0.4

    def read(code: str, number: int, at: int) -> str:
        look = _numbers(_number(number, 0.99), at=at)
        return _read(_char_look(None, GREY, QUAD, reading({code: 0.7, "E": 0.3}), look))  # type: ignore[arg-type]

    assert read("9p", 6, low) == "9p" and read("9p", 6, high) == "6p"
    assert read("3s", 9, low) == "6s" and read("3s", 9, high) == "9s"
    assert read("9m", 6, low) == "6m"  # a character tile is not turned
    assert read("5p", 3, low) == "3p"  # nor any number but 6 and 9


def test_a_corner_index_at_the_top_names_a_suit_tile_among_sticks() -> None:
    """Where the whole tile names no number -- a stick low on the tile looks like a 1,
    nearly as sure as the corner 6 -- the windows at the top, where makers print a corner
    index, name the 6 (:func:`corner_named`); the tile's suit is the reading's, and a
    number at the top is never read turned."""
    windows, lows = char_scan_at(GREY, QUAD)
    top, low = int(np.argmax(lows < CORNER_TOP)), int(np.argmax(lows > TURNED_LOW))
    assert lows[top] < CORNER_TOP < TURNED_LOW < lows[low]

    class _Sticks(FixedWindowLook):
        """A ``number`` at ``sure`` at the top, and a 1 at 0.99 low on the tile."""

        def __init__(self, number: int, sure: float) -> None:
            super().__init__(len(NUMBER_CLASSES), _number(number, sure), top)

        def probabilities(self, windows: np.ndarray) -> np.ndarray:
            out = super().probabilities(windows)
            out[low] = _number(1, 0.99)
            return out

    nine = reading({"9s": 0.6, "6s": 0.3, "E": 0.1})
    six = _Sticks(6, 0.92)
    each = six.probabilities(windows)[:, : len(NUMBER_CLASSES) - 1]
    assert number_named(each.max(0)) is None  # the whole tile: the 1 is within the margin
    assert corner_named(each, lows) == 5  # the top alone: the 6
    after = _char_look(None, GREY, QUAD, nine, six)  # type: ignore[arg-type]
    assert _read(after) == "6s"
    assert after[READ_CODES.index("9s")] == pytest.approx(0.3)
    # a corner 9 among the sticks, on a tile read as the 3 of bamboos: the 9 (no turn at the top)
    three = reading({"3s": 0.7, "E": 0.3})
    assert _read(_char_look(None, GREY, QUAD, three, _Sticks(9, 0.92))) == "9s"  # type: ignore[arg-type]
    # a corner number less sure than CORNER_SURE, or one on a flower's reading: as read
    assert CORNER_SURE > 0.85
    unsure = _numbers(_number(6, 0.85), at=top)
    assert np.array_equal(_char_look(None, GREY, QUAD, nine, unsure), nine)  # type: ignore[arg-type]
    plum = reading({"5h": 0.6, "6s": 0.1, "W": 0.3})
    assert _read(_char_look(_chars(), GREY, QUAD, plum, six)) == "5h"  # type: ignore[arg-type]
    # another number nearly as sure also at the top: none; lower on the tile: the 6
    both = np.zeros((2, len(NUMBER_CLASSES) - 1))
    both[0, 5], both[1, 0] = 0.95, 0.9
    assert corner_named(both, np.array([0.1, 0.2])) is None
    assert corner_named(both, np.array([0.1, 0.5])) == 5
    # no window at the top: none
    assert corner_named(each, np.full_like(lows, 0.5)) is None


def test_a_corner_index_at_the_top_says_which_way_is_up() -> None:
    """A reading upside down from the picture's upright gives way to the same
    quadrilateral read upright where the number look names a corner index at the
    upright's top: a bird read upside down was taken for 發. A reading on its side, an
    unsure index, or none, leave the reading chosen; the look is asked only of a reading
    upside down."""
    turns = _turns(QUAD) + _turns(QUAD + 5)  # two quadrilaterals, four turns of each
    quads = [q for q, _ in turns]
    turned_by = np.array([t for _, t in turns])
    assert turned_by[2] >= UPSIDE_DOWN > turned_by[1] and turned_by[0] == 0
    _, lows = char_scan_at(GREY, quads[0])
    top = int(np.argmax(lows < CORNER_TOP))
    index = _numbers(_number(1, 0.97), at=top)
    assert _index_up(index, GREY, quads, turned_by, 2) == 0  # type: ignore[arg-type]
    assert _index_up(index, GREY, quads, turned_by, 6) == 4  # type: ignore[arg-type]
    asked = len(index.shapes)
    for r in (0, 4):  # upright: as chosen, the look not asked
        assert _index_up(index, GREY, quads, turned_by, r) == r  # type: ignore[arg-type]
    assert len(index.shapes) == asked
    # less sure than the corner rule asks, but enough to choose which way is up
    assert INDEX_UP_SURE + 0.05 < CORNER_SURE
    fair = _numbers(_number(1, INDEX_UP_SURE + 0.05), at=top)
    assert _index_up(fair, GREY, quads, turned_by, 2) == 0  # type: ignore[arg-type]
    unsure = _numbers(_number(1, INDEX_UP_SURE - 0.05), at=top)
    assert _index_up(unsure, GREY, quads, turned_by, 2) == 2  # type: ignore[arg-type]
    assert _index_up(_numbers(), GREY, quads, turned_by, 2) == 2  # type: ignore[arg-type]
    low = int(np.argmax(lows > TURNED_LOW))  # a number low on the upright: not an index
    assert _index_up(_numbers(_number(1, 0.97), at=low), GREY, quads, turned_by, 2) == 2  # type: ignore[arg-type]


def test_a_tile_on_its_side_is_read_on_the_side_whose_top_shows_an_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reading on its side gives way to the same quadrilateral read on its other side
    (half a turn from it) where a corner index is named at the other's top and not at its
    own: a photo shows a tile on either side as often. An index at both tops, or at
    neither, leaves the reading chosen; so does an index at the top of a reading upright
    or a quarter from the other side of another quadrilateral."""
    turns = _turns(QUAD) + _turns(QUAD + 5)
    quads = [q for q, _ in turns]
    turned_by = np.array([t for _, t in turns])
    assert abs(turned_by[1] - 1) < SIDEWAYS and abs(turned_by[3] - 1) < SIDEWAYS
    shown: list[int] = []  # the readings whose top shows an index

    def at_top(_numbers: object, _ink: object, quad: np.ndarray) -> bool:
        return any(quad is quads[k] for k in shown)

    monkeypatch.setattr(single, "_index_at_top", at_top)
    look = _numbers()
    shown[:] = [3]
    assert _index_up(look, GREY, quads, turned_by, 1) == 3  # type: ignore[arg-type]
    assert _index_up(look, GREY, quads, turned_by, 3) == 3  # type: ignore[arg-type]
    shown[:] = [1, 3]
    assert _index_up(look, GREY, quads, turned_by, 1) == 1  # type: ignore[arg-type]
    shown[:] = []
    assert _index_up(look, GREY, quads, turned_by, 1) == 1  # type: ignore[arg-type]
    shown[:] = [0, 2, 7]  # upright, upside down, the other quadrilateral's
    assert _index_up(look, GREY, quads, turned_by, 1) == 1  # type: ignore[arg-type]
    assert _index_up(look, GREY, quads, turned_by, 5) == 7  # type: ignore[arg-type]


def test_an_unsure_upright_reading_gives_way_to_its_half_turn_where_its_top_shows_an_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An upright reading less sure than UPRIGHT_STANDS gives way to the same
    quadrilateral read half a turn round where a corner index is named at that one's top
    and not at its own: *default*'s 3 of circles photographed upside down, its index at
    the bottom, was read upright as the 1 of characters at 0.56. A sure upright reading
    stands, the look not asked, as does one of an honour, which prints no number. An
    index at both tops, at neither, at the upright's own, or at the top of another
    quadrilateral leaves the unsure one too; so does a number sure at its own top, told
    from another or not (_number_at_top)."""
    turns = _turns(QUAD) + _turns(QUAD + 5)
    quads = [q for q, _ in turns]
    turned_by = np.array([t for _, t in turns])
    assert turned_by[0] == turned_by[4] == 0 and turned_by[2] >= UPSIDE_DOWN
    shown: list[int] = []  # the readings whose top shows an index
    asked: list[np.ndarray] = []

    def at_top(_numbers: object, _ink: object, quad: np.ndarray) -> bool:
        asked.append(quad)
        return any(quad is quads[k] for k in shown)

    monkeypatch.setattr(single, "_index_at_top", at_top)
    monkeypatch.setattr(single, "_number_at_top", at_top)
    look = _numbers()
    unsure = reading({"1m": UPRIGHT_STANDS - 0.24, "3p": 0.24})
    sure = reading({"1m": UPRIGHT_STANDS, "3p": 0.2})
    honour = reading({"E": UPRIGHT_STANDS - 0.24, "3p": 0.24})
    shown[:] = [2]
    assert _index_up(look, GREY, quads, turned_by, 0, unsure) == 2  # type: ignore[arg-type]
    asked.clear()
    for stands in (sure, honour, None):  # sure; an honour, which prints no number; none
        assert _index_up(look, GREY, quads, turned_by, 0, stands) == 0  # type: ignore[arg-type]
    assert asked == []
    for upright_too in ([0, 2], [], [0], [1, 3, 6]):
        shown[:] = upright_too
        assert _index_up(look, GREY, quads, turned_by, 0, unsure) == 0  # type: ignore[arg-type]
    shown[:] = [6]
    assert _index_up(look, GREY, quads, turned_by, 4, unsure) == 6  # type: ignore[arg-type]
    # a number sure at the upright's top, not told from another, is enough for it to stand
    shown[:] = [2]
    monkeypatch.setattr(single, "_number_at_top", lambda _n, _i, quad: quad is quads[0])
    assert _index_up(look, GREY, quads, turned_by, 0, unsure) == 0  # type: ignore[arg-type]


def test_a_number_at_the_top_need_not_be_told_from_another() -> None:
    """_number_at_top: some number at the top at least INDEX_UP_SURE, however sure the
    others there (traditional's 9 of bamboos: its 9 at 0.86, a stick as a 1 at 0.80);
    none at the top, or none so sure, is no number."""
    _, lows = char_scan_at(GREY, QUAD)
    top, low = int(np.argmax(lows < CORNER_TOP)), int(np.argmax(lows > TURNED_LOW))
    nine_or_one = _number(9, INDEX_UP_SURE + 0.02)
    nine_or_one[0] = INDEX_UP_SURE  # a 1 nearly as sure: no index is named
    untold = _numbers(nine_or_one, at=top)
    assert not single._index_at_top(untold, GREY, QUAD)  # type: ignore[arg-type]
    assert single._number_at_top(untold, GREY, QUAD)  # type: ignore[arg-type]
    unsure = _numbers(_number(9, INDEX_UP_SURE - 0.02), at=top)
    assert not single._number_at_top(unsure, GREY, QUAD)  # type: ignore[arg-type]
    assert not single._number_at_top(_numbers(nine_or_one, at=low), GREY, QUAD)  # type: ignore[arg-type]


def _noisy_tile_photo() -> np.ndarray:
    """A photo of a light tile-shaped patch of noise on a dark ground."""
    photo = np.full((300, 240, 3), 40, np.uint8)
    photo[40:260, 50:190] = np.random.default_rng(TEST_SEED).integers(
        150, 256, (220, 140, 3), dtype=np.uint8
    )
    return photo


def test_read_tile_takes_the_upright_reading_where_an_index_is_at_the_top(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In :func:`read_tile`: where the reading chosen is upside down and a corner index is
    at the top of the tile as the picture stands, the tile is read as it is read upright;
    without an index, upside down as chosen."""

    photo = _noisy_tile_photo()
    model = TileClassifier()
    model.chars = None

    def choose(turn: int):  # type: ignore[no-untyped-def]
        def pick(sharp, grey, quads, readings, probs, costs, blank=None, looks=None):  # type: ignore[no-untyped-def]
            ups = [r for r in range(len(quads)) if _turns(quads[r])[0][1] < 0.5]
            return ups[0] + turn  # the first quadrilateral, upright or turned ``turn``

        return pick

    def read(look: FixedWindowLook, turn: int) -> np.ndarray:
        model.numbers = look  # type: ignore[assignment]
        monkeypatch.setattr(single, "_sharp_choice", choose(turn))
        monkeypatch.setattr(single, "_char_look", lambda c, i, q, mean, n=None: mean)
        return single.read_tile(photo, model=model).probs

    _, lows = char_scan_at(GREY, QUAD)  # as many windows, in the same order, as any face
    index = _numbers(_number(1, 0.97), at=int(np.argmax(lows < CORNER_TOP)))
    upright, none = read(_numbers(), 0), _numbers()
    assert np.array_equal(read(index, 2), upright)  # an index at the top: read upright
    upside_down = read(none, 2)
    assert not np.array_equal(upside_down, upright) and len(none.shapes) == 1


@pytest.mark.skipif(not SHIPPED, reason="no number look is shipped")
def test_read_tile_tells_index_up_the_reading_as_the_choice_weighed_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In :func:`read_tile`: :func:`_index_up` is given the chosen reading as the choice
    weighed it (its cuts' mean weighed with the sharp look's reading), by which an unsure
    upright reading gives way to its half turn (UPRIGHT_STANDS)."""
    photo = _noisy_tile_photo()
    chose: list[tuple[int, list[tuple[int, int]], np.ndarray, np.ndarray]] = []
    given: list[np.ndarray | None] = []
    real_choice, real_up = single._sharp_choice, single._index_up

    def choice(sharp, grey, quads, readings, probs, costs, blank=None, looks=None):  # type: ignore[no-untyped-def]
        r = real_choice(sharp, grey, quads, readings, probs, costs, blank, looks)
        chose.append((r, readings, probs, looks))
        return r

    def up(numbers, ink, quads, turned_by, r, chosen=None):  # type: ignore[no-untyped-def]
        given.append(chosen)
        return real_up(numbers, ink, quads, turned_by, r, chosen)

    monkeypatch.setattr(single, "_sharp_choice", choice)
    monkeypatch.setattr(single, "_index_up", up)
    single.read_tile(photo)
    (r, readings, probs, looks), (chosen,) = chose[0], given
    start, count = readings[r]
    assert chosen is not None and looks is not None
    assert np.allclose(chosen, _weighed(probs[start : start + count].mean(0), looks[r]))


def test_a_suit_tile_is_scanned_as_finely_as_a_flower(monkeypatch: pytest.MonkeyPatch) -> None:
    """A suit tile's number is looked for in the same windows as a flower's (CHAR_STEP of
    their side apart): the coarser scan once used for suit tiles passed by corner 6s that
    this one names (docs/photo.md, "One scan for every tile")."""
    look = _numbers()
    _char_look(None, GREY, QUAD, reading({"5p": 1.0}), look)  # type: ignore[arg-type]
    _char_look(None, GREY, QUAD, reading({"5h": 1.0}), look)  # type: ignore[arg-type]
    (suit, *_), (flower, *_) = look.shapes
    assert suit == flower == len(char_scan(GREY, QUAD))
    monkeypatch.setattr("hefen.photo.single.CHAR_STEP", 0.4)  # the coarser scan, as it was
    assert len(char_scan(GREY, QUAD)) < 0.6 * suit


def test_a_number_never_renumbers_an_honour() -> None:
    seven = _numbers(_number(7, 0.99))
    east = reading({"E": 0.8, "7p": 0.2})
    assert np.array_equal(_char_look(None, GREY, QUAD, east, seven), east)  # type: ignore[arg-type]
    assert seven.shapes == []  # not even asked


def test_a_five_to_nine_on_a_flower_makes_it_a_suit_tile() -> None:
    """A flower or season numbers 1-4 only: a sure 7 on a tile read as the plum is the 7
    of the suit the reading gives most, swapped with the plum (docs/photo.md, "A 5 to 9
    is no flower"); a character named still names the flower first, and an unsure 7, or a
    7 of no suit the reading gives a chance (UNFLOWERED_AT), leaves the plum."""
    seven = _numbers(_number(7, 0.99))
    plum = reading({"5h": 0.6, "7s": 0.2, "7p": 0.1, "W": 0.1})
    after = _char_look(_chars(), GREY, QUAD, plum, seven)  # type: ignore[arg-type]
    assert _read(after) == "7s" and np.isclose(after.sum(), 1.0)
    assert after[READ_CODES.index("7s")] == pytest.approx(0.6)
    assert after[READ_CODES.index("5h")] == pytest.approx(0.2)
    assert after[READ_CODES.index("7p")] == pytest.approx(0.1)
    # a 7 the reading gives no chance: a flower's drawing taken for a number, not a 7
    sure = reading({"5h": 0.98, "7p": 0.5 * UNFLOWERED_AT, "W": 0.02 - 0.5 * UNFLOWERED_AT})
    assert np.array_equal(_char_look(_chars(), GREY, QUAD, sure, seven), sure)  # type: ignore[arg-type]
    some = reading({"5h": 0.98 - 1.5 * UNFLOWERED_AT, "7p": 1.5 * UNFLOWERED_AT, "W": 0.02})
    assert _read(_char_look(_chars(), GREY, QUAD, some, seven)) == "7p"  # type: ignore[arg-type]
    plum_char = _chars([0, 0, 0, 0, 0.97, 0, 0, 0, 0.03])
    assert _read(_char_look(plum_char, GREY, QUAD, plum, seven)) == "5h"  # type: ignore[arg-type]
    unsure = _numbers(_number(7, 0.85))
    assert np.array_equal(_char_look(_chars(), GREY, QUAD, plum, unsure), plum)  # type: ignore[arg-type]


@needs_art
def test_read_tile_asks_the_number_look_of_a_suit_tile() -> None:
    """A photo of the 3 of circles, read so by the model: a number look sure of a 5
    makes it the 5 of circles, one sure of a 3 leaves it, and without one it is read as
    it was."""
    art = synth.load_art(("samoheen",), TILES_DIR)
    photo = synth.tile_photo(np.random.default_rng(TEST_SEED), art, "3p")
    model = TileClassifier()
    model.chars = None
    model.numbers = None
    assert classify_tile(photo, model=model)[0] == "3p"
    for number, read in ((5, "5p"), (3, "3p")):
        look = _numbers(_number(number, 0.99))
        model.numbers = look  # type: ignore[assignment]
        assert classify_tile(photo, model=model)[0] == read and len(look.shapes) == 1


def test_a_number_is_named_when_sure_and_alone() -> None:
    assert number_named(np.array([0.1, 0.2, NUMBER_SURE, 0.0, 0, 0, 0, 0, 0])) == 2
    assert (
        number_named(np.array([0.1, 0.99 - NUMBER_MARGIN + 0.01, 0.99, 0.0, 0, 0, 0, 0, 0])) is None
    )
    assert number_named(np.array([0.5, 0.2, 0.89, 0.0, 0, 0, 0, 0, 0])) is None
    assert number_named(np.array([0, 0, 0, 0, 0, 0, 0.01, 0, 0.98])) == 8  # a 9


def test_the_number_takes_the_tile_of_that_number_the_reading_gives_more() -> None:
    bonus = np.array([0.1, 0.1, 0.3, 0.0, 0.05, 0.2, 0, 0.01])
    assert BONUS[numbered(bonus, 0)] == "1h"  # 0.1 against the plum's 0.05
    assert BONUS[numbered(bonus, 1)] == "6h"  # the orchid's 0.2, though the seasons' sum is more
    assert BONUS[numbered(bonus, 3)] == "8h"
    assert BONUS[numbered(np.zeros(8), 2)] == "3h"  # nothing to tell: the season


def test_read_tile_asks_the_number_look_only_where_it_may_name_a_flower(monkeypatch) -> None:  # type: ignore[no-untyped-def]

    class _Spring:  # a bonus look sure of the spring in every cut
        def probabilities(self, crops: np.ndarray) -> np.ndarray:
            out = np.zeros((len(crops), len(BONUS) + 1), np.float32)
            out[:, 0] = 1.0
            return out

    model = TileClassifier()
    two = _numbers(_number(2, 0.99))
    monkeypatch.setattr(model, "chars", None)
    monkeypatch.setattr(model, "numbers", two)
    face = np.full((160, 120, 3), 235, np.uint8)
    monkeypatch.setattr(single, "CHAR_LOOK_AT", 0.0)  # always, where read as a bonus tile
    code, _, _ = classify_tile(face, model=model)
    assert two.shapes == [] and code not in BONUS  # a bare face: read as no flower
    monkeypatch.setattr(model, "bonus", _Spring())
    monkeypatch.setattr(single, "BONUS_LOOK_AT", 0.0)  # the bonus look reads it: the spring
    monkeypatch.setattr(single, "CHAR_LOOK_AT", 2.0)  # never
    assert classify_tile(face, model=model)[0] == "1h" and two.shapes == []
    monkeypatch.setattr(single, "CHAR_LOOK_AT", 0.0)
    code, _, _ = classify_tile(face, model=model)
    assert len(two.shapes) == 1 and code == "2h"  # the spring, renumbered


# --------------------------------------------------------------------------- the network


def test_a_model_without_the_number_look_reads_without_it(tmp_path: Path) -> None:
    assert TileClassifier(copy_model(tmp_path)).numbers is None


def test_a_damaged_or_foreign_number_look_is_one_sentence(tmp_path: Path) -> None:
    check_bad_look(copy_model(tmp_path), NumberLook, NUMBER_CLASSES, "number look")


@pytest.mark.skipif(not SHIPPED, reason="no number look is shipped")
def test_the_shipped_model_has_its_number_look() -> None:
    check_shipped_look(classifier().numbers, len(NUMBER_CLASSES), (glyphs.WINDOW,) * 2)


@needs_cjk_fonts
@pytest.mark.skipif(not SHIPPED, reason="no number look is shipped")
def test_the_shipped_look_reads_each_number_and_not_the_others() -> None:
    """Windows drawn as in training from another seed: each number read as itself in
    most, and windows of no number seldom read as one surely."""
    look = classifier().numbers
    assert look is not None
    rng = np.random.default_rng(TEST_SEED)
    plain: list[np.ndarray] = []  # bare face about the windows
    right = 0
    none = len(NUMBER_CLASSES) - 1
    for label in range(none):
        windows = np.stack([glyphs.number_window(rng, label, plain) for _ in range(20)])
        right += int((look.probabilities(windows).argmax(1) == label).sum())
    assert right >= 135, right  # of 180: some windows are drawn as blurred as a photo's worst
    windows = np.stack([glyphs.number_window(rng, none, plain) for _ in range(80)])
    sure = look.probabilities(windows)[:, :none].max(1) >= NUMBER_SURE
    assert sure.sum() <= 4, sure.sum()


# --------------------------------------------------------------------------- training


@needs_art
@needs_cjk_fonts
def test_the_number_looks_training_windows_are_seeded_and_labelled() -> None:
    (xs, ys), (again, labels) = window_chunks("numbers", (7, 200, 0.0), photo_windows=0.5)
    assert xs.shape == (200, glyphs.WINDOW, glyphs.WINDOW) and xs.dtype == np.uint8
    assert np.array_equal(xs, again) and np.array_equal(ys, labels)
    assert set(ys.tolist()) == set(range(len(NUMBER_CLASSES)))
    none = len(NUMBER_CLASSES) - 1
    share = float((ys == none).mean())
    assert 0.2 < share < 0.75  # about NO_CHARACTER_SHARE of no number
    assert all(xs[i].std() > 3 for i in range(200) if ys[i] < none)  # inked


@needs_art
def test_no_face_that_may_print_a_number_is_numberless() -> None:
    """The windows of *no number* are never cut from a flower or season that prints its
    number (every style's but xhokir's pictures), from the 2-9 of characters (二 to 九), or
    from the drawn style's suit tiles (some with a corner index)."""
    art = synth.load_art(("samoheen", "xhokir"), TILES_DIR)
    art.add("7p", art.faces["7p"][0], "drawn")
    art.add("E", art.faces["E"][0], "drawn")
    plain = glyphs.numberless_art(art)
    for code in BONUS:
        assert plain.styles[code] == ["xhokir"]
    assert not {f"{n}m" for n in range(2, 10)} & set(plain.faces)
    assert "1m" in plain.faces  # 一, a lone stroke, is not read
    assert "drawn" not in plain.styles["7p"] and "drawn" in plain.styles["E"]
    assert len(glyphs.numberless_drawings(art)) == sum(len(f) for f in plain.faces.values())
    # and the training's photo windows come only from those tiles
    sys.path.insert(0, str(ROOT / "scripts"))
    import train_photo

    windows = train_photo.photo_windows(np.random.default_rng(TEST_SEED), plain, 5)
    assert windows.shape == (5, glyphs.WINDOW, glyphs.WINDOW)


def test_the_numbers_are_arabic_and_chinese_but_not_the_lone_stroke() -> None:
    assert glyphs.NUMBERS[:4] == ("1", "2二", "3三", "4四")  # the flowers' and seasons'
    assert glyphs.NUMBERS[4:] == ("5五", "6六", "7七", "8八", "9九")  # and a suit tile's
    assert NUMBER_CLASSES[:-1] == tuple(str(n) for n in range(1, 10))
    assert not set("二三四五六七八九伍") & set(glyphs.OTHER_THAN_NUMBERS)
    assert set("春夏秋冬梅菊竹一萬") <= set(glyphs.OTHER_THAN_NUMBERS)
    assert not set("123456789") & set(glyphs.OTHER_LATIN_THAN_NUMBERS)


def test_the_most_typefaces_are_the_more_ones_and_more_latin_ones(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``most`` is ``more``'s CJK typefaces and the drawn style's Latin ones with
    :data:`~hefen.photo.glyphs.MORE_LATIN_FONTS` (a 1 with a flag and no foot, as Arial
    draws it; Times; Courier): ``drawn`` and ``more`` keep the drawn style's three, so the
    looks trained on them are made again as they were; a Latin font not installed is named
    for ``most`` alone."""
    from hefen.photo.drawn import LATIN_FONTS

    assert glyphs.cjk_font_paths("most") == glyphs.cjk_font_paths("more")
    assert glyphs.latin_font_paths("drawn") == glyphs.latin_font_paths("more") == LATIN_FONTS
    most = glyphs.latin_font_paths("most")
    assert most[: len(LATIN_FONTS)] == LATIN_FONTS and len(set(most)) == len(most)
    assert len(most) == len(LATIN_FONTS) + len(glyphs.MORE_LATIN_FONTS) >= len(LATIN_FONTS) + 8
    assert any("LiberationSans" in path for path in most)
    with pytest.raises(ValueError, match="no typeface set 'wide'"):
        glyphs.latin_font_paths("wide")
    monkeypatch.setattr(glyphs, "MORE_LATIN_FONTS", ("/nowhere/sans.ttf",))
    assert glyphs.missing_fonts("most")[-1] == "/nowhere/sans.ttf"
    assert "/nowhere/sans.ttf" not in glyphs.missing_fonts("more")


@needs_cjk_fonts
@pytest.mark.skipif(bool(glyphs.missing_fonts("most")), reason="the most typefaces are missing")
def test_an_arabic_digit_is_drawn_in_the_more_latin_typefaces_with_most() -> None:
    """With ``most`` an Arabic digit is drawn in every Latin typeface of the set (each
    draws a 1 that is not the others' pixels), and the windows of ``most`` differ from
    those of ``more`` from the same seed."""
    having = glyphs._having("1", True, "most")
    assert having == tuple(range(len(glyphs.latin_font_paths("most"))))
    ones = {glyphs._glyph_mask(i, True, "1", "most").tobytes() for i in having}  # type: ignore[union-attr]
    assert len(ones) == len(having)
    seen = [glyphs.number_window(np.random.default_rng(s), 0, [], "most") for s in range(12)]
    drawn = [glyphs.number_window(np.random.default_rng(s), 0, [], "more") for s in range(12)]
    assert all(w.shape == (glyphs.WINDOW, glyphs.WINDOW) for w in seen)
    assert any(not np.array_equal(a, b) for a, b in zip(seen, drawn, strict=True))


def test_a_one_on_a_tile_read_as_a_flower_is_the_bird_where_read_more_than_both_ones() -> None:
    """The bird prints a 1 as the spring and the plum do: where the reading gives the 1 of
    bamboos more than both, a 1 read surely makes it the bird, swapped with the tile read;
    where it gives either more, the 1 names the flower or season, as before."""
    one = _numbers(_number(1, 0.97), at=7)
    bird = reading({"6h": 0.4, "1s": 0.2, "1h": 0.1, "5h": 0.15, "W": 0.15})
    after = _char_look(None, GREY, QUAD, bird, one)  # type: ignore[arg-type]
    assert _read(after) == "1s"
    assert after[READ_CODES.index("6h")] == pytest.approx(0.2)  # swapped: the old its fellow
    assert np.isclose(after.sum(), 1.0)
    plum = reading({"6h": 0.4, "1s": 0.2, "1h": 0.1, "5h": 0.25, "W": 0.05})
    assert _read(_char_look(None, GREY, QUAD, plum, one)) == "5h"  # type: ignore[arg-type]
    # a 2 to 4 is never the bird
    two = _numbers(_number(2, 0.97), at=7)
    assert _read(_char_look(None, GREY, QUAD, bird, two)) == "6h"  # type: ignore[arg-type]
