"""The word look: a flower's or season's name printed on it, in English or in its
character, read by a general text reader (:mod:`hefen.photo.words`) in a photo of one
tile (:func:`hefen.photo.single.read_tile`)."""

from __future__ import annotations

import numpy as np
import pytest
from photo_support import needs_cjk_fonts, reading
from PIL import Image, ImageDraw, ImageFont

from hefen.photo.classes import BONUS, READ_CODES
from hefen.photo.model import TileClassifier
from hefen.photo.single import (
    BONUS_AT,
    INDEX_HIGH,
    _word_look,
    read_tile,
    six_or_nine,
    tile_under,
    wants_words,
)
from hefen.photo.words import (
    DIGIT_SURE,
    HONOURS,
    NUMERALS,
    WORD_SURE,
    Line,
    Printed,
    WordLook,
    bonus_named,
    digit_line,
    digit_of,
    suit_honour_of,
    tile_named,
    words_of,
)


def word_tile_photo(word: str) -> np.ndarray:
    """A photo of a flower tile of a set never drawn in training: a red flower, and
    ``word`` printed under it (Pillow's own font), on a green cloth."""
    im = Image.new("RGB", (360, 440), (46, 92, 64))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((70, 60, 290, 380), 14, fill=(238, 232, 214), outline=(150, 140, 120))
    for cx, cy in ((150, 150), (205, 135), (215, 195), (160, 210), (185, 175)):
        d.ellipse((cx - 26, cy - 26, cx + 26, cy + 26), fill=(190, 40, 40))
    d.line((180, 230, 170, 300), fill=(40, 120, 40), width=8)
    font = ImageFont.load_default(size=44)
    d.text((180 - d.textlength(word, font=font) / 2, 310), word, fill=(20, 20, 20), font=font)
    return np.asarray(im)


def printed_tile_photo(text: str) -> np.ndarray:
    """A photo of a tile with ``text`` printed on it in a CJK typeface (AR PL Kaiti), a
    character to a line, on a wooden table."""
    im = Image.new("RGB", (360, 440), (120, 84, 52))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((70, 50, 290, 390), 14, fill=(240, 236, 222), outline=(150, 140, 120))
    font = ImageFont.truetype(
        "/usr/share/fonts/truetype/arphic/ukai.ttc", 150 if len(text) == 1 else 120
    )
    for i, ch in enumerate(text):
        y = 140 if len(text) == 1 else 80 + 140 * i
        colour = (200, 30, 30) if ch in "中萬万" else (20, 20, 20)
        d.text((180 - d.textlength(ch, font=font) / 2, y), ch, fill=colour, font=font)
    return np.asarray(im)


class NamingLook:
    """A word look whose words name bonus tile ``k`` (None: none), or the tile ``code``,
    counting its reads."""

    def __init__(self, k: int | None, code: str | None = None) -> None:
        self.reads = 0
        self.code = code if k is None else BONUS[k]

    def tile(self, rgb: np.ndarray) -> str | None:
        self.reads += 1
        return self.code

    def read(self, rgb: np.ndarray) -> Printed:
        return Printed(self.tile(rgb))


class NumberLook:
    """A word look whose words name no tile and that reads ``number`` printed alone in
    ``box``, ``standing`` as it stands."""

    def __init__(self, number: int, standing: int | None = None, box: np.ndarray | None = None):
        self.printed = Printed(None, number, standing, box)

    def read(self, rgb: np.ndarray) -> Printed:
        return self.printed


# --------------------------------------------------------------------------- the words


def test_each_bonus_tile_is_named_by_its_english_word_its_first_letters_or_its_character() -> None:
    english = ["Spring", "SUMMER", "autumn", "WINTER", "PLUM", "Orchid", "CHRYSANTHEMUM", "BAMBOO"]
    short = ["SPR", "SUM", "AUT", "WIN", "PLU", "ORC", "CHR", "BAM"]
    characters = "春夏秋冬梅蘭菊竹"
    for k in range(len(BONUS)):
        assert words_of(english[k]) == [k]
        assert words_of(short[k]) == [k]
        assert words_of(characters[k]) == [k]
        assert bonus_named([(f"{k % 4 + 1} {english[k]}", 0.95)]) == k
    assert words_of("兰") == [5] and words_of("FALL") == [2] and words_of("MUM") == [6]
    # two letters, a longer word, another word, a suit tile's writing: no bonus tile
    for text in ("SP", "SPRINGS", "WIND", "EAST", "五萬", "中", "8"):
        assert words_of(text) == [], text


def test_a_name_counts_only_when_read_surely_and_alone() -> None:
    assert bonus_named([("ORC", WORD_SURE)]) == 5
    assert bonus_named([("ORC", WORD_SURE - 0.01)]) is None
    assert bonus_named([("ORC", 0.99), ("PLUM", 0.9)]) is None  # two tiles: none
    assert bonus_named([("ORC", 0.99), ("Orchid", 0.9), ("蘭", 0.85)]) == 5  # one tile thrice


def test_a_wind_dragon_or_character_tile_is_named_by_its_characters() -> None:
    for character, code in HONOURS.items():
        assert suit_honour_of(character) == [code]
        assert tile_named([(f"{code} {character}", 0.95)]) == code  # with its corner letter
    for n, numeral in enumerate(NUMERALS, 1):
        assert suit_honour_of(f"{numeral}萬") == suit_honour_of(f"{numeral}万") == [f"{n}m"]
        assert suit_honour_of(numeral) == []  # a numeral alone: a stroke may be a stick
    # another character beside it (a maker's name, the reader's guess at a drawing), the
    # suit's character alone, a numeral after it, a corner index alone: none
    for text in ("中国", "東風", "王王王", "萬", "萬五", "5", "E", "N"):
        assert suit_honour_of(text) == [], text
    assert tile_named([("中", WORD_SURE - 0.01)]) is None  # not read surely
    assert tile_named([("中", 0.99), ("發", 0.9)]) is None  # two tiles: none
    assert tile_named([("中", 0.99), ("SPR", 0.9)]) is None
    assert tile_named([("五萬", 0.9), ("5", 0.99)]) == "5m"
    assert tile_named([("春", 0.9)]) == "1h" and tile_named([]) is None


# --------------------------------------------------------------------------- the rule


def test_a_named_tile_takes_the_bonus_tiles_share() -> None:
    before = reading({"4m": 0.5, "2h": 0.2, "6h": 0.05, "9p": 0.25})
    after = _word_look(NamingLook(5), np.zeros((8, 8, 3), np.uint8), before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "6h"
    assert after[BONUS_AT].sum() == pytest.approx(WORD_SURE / (WORD_SURE + 0.75))
    assert after[READ_CODES.index("2h")] == 0.0 and np.isclose(after.sum(), 1.0)
    # the words name nothing: the reading stands
    same = _word_look(NamingLook(None), np.zeros((8, 8, 3), np.uint8), before)  # type: ignore[arg-type]
    assert np.array_equal(same, before)


def test_a_named_suit_or_honour_tile_takes_at_least_the_words_share() -> None:
    # a red dragon on a glaring ground, read as the white dragon: its 中 names it
    before = reading({"P": 0.44, "C": 0.01, "5h": 0.05})
    after = _word_look(NamingLook(None, "C"), np.zeros((8, 8, 3), np.uint8), before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "C"
    # shown as sure as its words were read surely; the rest shared as before
    assert after[READ_CODES.index("C")] == pytest.approx(WORD_SURE * before.sum())
    ratio = after[READ_CODES.index("P")] / after[READ_CODES.index("5h")]
    assert ratio == pytest.approx(0.44 / 0.05) and np.isclose(after.sum(), before.sum())
    # the tile the reading already has surely keeps it
    sure = reading({"W": 0.9, "1p": 0.1})
    kept = _word_look(NamingLook(None, "W"), np.zeros((8, 8, 3), np.uint8), sure)  # type: ignore[arg-type]
    assert np.array_equal(kept, sure)


def test_only_an_unsure_reading_or_one_that_may_be_a_flower_is_read_for_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not wants_words(reading({"1s": 0.9, "2h": 0.1}))
    assert wants_words(reading({"1s": 0.79, "W": 0.21}))
    assert wants_words(reading({"1s": 0.7, "2h": 0.3}))
    # in read_tile: the words are read where wants_words says, and only there
    photo = word_tile_photo("SPR")
    for wanted in (False, True):
        model = TileClassifier()
        look = NamingLook(0)  # its words name the spring
        model.words = look  # type: ignore[assignment]
        monkeypatch.setattr("hefen.photo.single.wants_words", lambda mean, w=wanted: w)
        spring = READ_CODES[read_tile(photo, model=model).index] == "1h"
        assert spring == wanted and look.reads == int(wanted)


# --------------------------------------------------------------------------- the reader


def test_the_text_reader_reads_the_word_printed_on_a_tile() -> None:
    look = WordLook()
    texts = look.texts(word_tile_photo("ORC"))
    assert [t for t, _ in texts] == ["ORC"] and texts[0][1] >= WORD_SURE
    assert look.tile(word_tile_photo("Spring")) == "1h"
    assert look.tile(np.full((200, 150, 3), 230, np.uint8)) is None  # a bare face
    # a tile photographed on its side prints its words up the picture
    assert look.tile(np.ascontiguousarray(np.rot90(word_tile_photo("Spring")))) == "1h"


def test_words_not_found_as_the_photo_is_are_looked_for_turned_a_quarter() -> None:
    look, asked = WordLook(), []

    def across_only(bgr: np.ndarray) -> tuple[list, float]:
        """A reader that finds only the words that run across the picture: here, those
        of a tile photographed on its side, read once the picture is turned."""
        asked.append(bgr.shape[:2])
        return ([[[], "SPR", 0.99]] if bgr.shape[1] > bgr.shape[0] else []), 0.1

    look.engine = across_only
    photo = word_tile_photo("SPR")  # 360 wide, 440 high
    assert look.texts(photo) == []
    asked.clear()
    assert look.tile(photo) == "1h" and asked == [(440, 360), (360, 440)]
    asked.clear()  # a photo whose words name a tile as it is is read once
    assert look.tile(np.ascontiguousarray(np.rot90(photo))) == "1h" and asked == [(360, 440)]


@needs_cjk_fonts
@pytest.mark.parametrize(("text", "code"), [("中", "C"), ("西", "W"), ("北", "N"), ("五萬", "5m")])
def test_the_text_reader_names_a_wind_dragon_or_character_tile_by_its_characters(
    text: str, code: str
) -> None:
    assert WordLook().tile(printed_tile_photo(text)) == code


@pytest.mark.parametrize(("word", "code"), [("ORC", "6h"), ("PLUM", "5h"), ("BAMBOO", "8h")])
def test_a_never_seen_flower_is_read_by_the_word_printed_on_it(word: str, code: str) -> None:
    photo = word_tile_photo(word)
    model = TileClassifier()
    read = read_tile(photo, model=model)
    assert READ_CODES[read.index] == code
    model.words = None  # without the word look, the picture alone is not read as the flower
    assert READ_CODES[read_tile(photo, model=model).index] != code


def test_the_word_look_is_loaded_when_first_asked_for_and_can_be_set_aside() -> None:
    model = TileClassifier()
    assert "words" not in vars(model)  # not loaded yet
    assert isinstance(model.words, WordLook)
    model.words = None
    assert model.words is None


def test_a_text_reader_that_fails_leaves_the_reading_as_it_was(
    caplog: pytest.LogCaptureFixture,
) -> None:
    look = WordLook()

    def broken(picture: np.ndarray) -> None:
        raise ValueError("the reader broke")

    look.engine = broken
    assert look.texts(word_tile_photo("ORC")) == [] and look.tile(word_tile_photo("ORC")) is None
    assert "The text reader failed on a 440x360x3 picture" in caplog.text


# --------------------------------------------------------------------------- a printed number


def corner_tile_photo(text: str, upside_down: bool = False) -> np.ndarray:
    """A photo of a circles tile of a set never drawn in training, its number ``text``
    printed alone at its top left (Pillow's own font), on a green cloth; turned half round
    with ``upside_down``."""
    im = Image.new("RGB", (360, 440), (46, 92, 64))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((70, 50, 290, 390), 14, fill=(238, 232, 214), outline=(150, 140, 120))
    for cx, cy in ((150, 200), (215, 200), (150, 300), (215, 300)):
        d.ellipse((cx - 28, cy - 28, cx + 28, cy + 28), outline=(30, 110, 60), width=9)
    d.text((90, 62), text, fill=(20, 20, 20), font=ImageFont.load_default(size=56))
    return np.asarray(im.rotate(180) if upside_down else im)


TILE_QUAD = np.array([[70, 50], [290, 50], [290, 390], [70, 390]], float)
PICTURE = np.array([[0, 0], [360, 0], [360, 440], [0, 440]], float)


def test_a_number_counts_when_read_surely_alone_and_the_same_wherever_read() -> None:
    box = np.zeros((4, 2))
    assert [digit_of(t) for t in ("1", "9", " 4 ", "0", "10", "6p", "S")] == [
        1,
        9,
        4,
        None,
        None,
        None,
        None,
    ]
    assert digit_line([Line("3", DIGIT_SURE, box)]) is not None
    assert digit_line([Line("3", DIGIT_SURE - 0.01, box)]) is None
    assert digit_line([Line("3", 0.99, box), Line("5", 0.95, box)]) is None  # two numbers
    # an unsure other digit does not count against it
    assert digit_line([Line("3", 0.99, box), Line("8", 0.6, box)]) == Line("3", 0.99, box)


def test_a_printed_number_renumbers_a_suit_tile_in_its_suit() -> None:
    before = reading({"5p": 0.5, "3p": 0.1, "3s": 0.2, "W": 0.2})
    after = _word_look(NumberLook(3), np.zeros((8, 8, 3), np.uint8), before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "3p"
    assert after[READ_CODES.index("5p")] == pytest.approx(0.1)  # swapped: the old its fellow
    # a wind or dragon prints no number: the suit tile of that number read most
    dragon = reading({"C": 0.6, "2s": 0.1, "2p": 0.05, "5h": 0.25})
    after = _word_look(NumberLook(2), np.zeros((8, 8, 3), np.uint8), dragon)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "2s"
    # a flower or season: the one of that number the reading gives more
    flower = reading({"3h": 0.5, "5h": 0.2, "1h": 0.1, "9p": 0.2})
    after = _word_look(NumberLook(1), np.zeros((8, 8, 3), np.uint8), flower)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "5h"
    assert after[BONUS_AT].sum() == pytest.approx(DIGIT_SURE / (DIGIT_SURE + 0.2))
    # the bird prints a 1: read as the bird, a 2 to 4 is a flower or season of that number
    bird = reading({"1s": 0.5, "7h": 0.2, "3h": 0.1, "3s": 0.2})
    after = _word_look(NumberLook(3), np.zeros((8, 8, 3), np.uint8), bird)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "7h"
    after = _word_look(NumberLook(1), np.zeros((8, 8, 3), np.uint8), bird)  # type: ignore[arg-type]
    assert np.array_equal(after, bird)
    after = _word_look(NumberLook(7), np.zeros((8, 8, 3), np.uint8), bird)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "7s"
    # a 1 on a tile read as a flower: the bird, where the reading gives it more than
    # the plum and the spring
    pictured = reading({"6h": 0.4, "1s": 0.2, "1h": 0.1, "5h": 0.15, "W": 0.15})
    after = _word_look(NumberLook(1), np.zeros((8, 8, 3), np.uint8), pictured)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "1s"
    pictured = reading({"6h": 0.4, "1s": 0.2, "1h": 0.25, "5h": 0.1, "W": 0.05})
    after = _word_look(NumberLook(1), np.zeros((8, 8, 3), np.uint8), pictured)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "1h"
    # read two ways (a serif 1 the reader turned half round reads as a 7): left be
    after = _word_look(NumberLook(7, 1), np.zeros((8, 8, 3), np.uint8), bird)  # type: ignore[arg-type]
    assert np.array_equal(after, bird)
    after = _word_look(NumberLook(3, 3), np.zeros((8, 8, 3), np.uint8), before)  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "3p"


def test_a_printed_six_or_nine_is_read_as_it_stands_at_the_top_and_turned_at_the_bottom() -> None:
    blank = np.zeros((8, 8, 3), np.uint8)

    def box(y: float) -> np.ndarray:
        return np.array([[80, y - 20], [120, y - 20], [120, y + 20], [80, y + 20]], float)

    def read(before: np.ndarray, look: NumberLook) -> str:
        after = _word_look(look, blank, before, [TILE_QUAD, PICTURE])  # type: ignore[arg-type]
        return READ_CODES[int(after[: len(READ_CODES)].argmax())]

    two = reading({"2p": 0.5, "6p": 0.1, "9p": 0.2, "W": 0.2})
    assert read(two, NumberLook(9, 6, box(80))) == "6p"  # at the top, as it stands
    assert read(two, NumberLook(6, 6, box(370))) == "9p"  # at the bottom, turned
    # in between (or not read as it stands): the one of the two the reading gives more
    assert read(two, NumberLook(6, 6, box(220))) == "9p"
    assert read(two, NumberLook(6, None, box(80))) == "9p"
    # a tile read as 9 that prints a 6 at the top is the 6; in between it is left be
    nine = reading({"9s": 0.6, "6s": 0.3, "N": 0.1})
    assert read(nine, NumberLook(6, 6, box(80))) == "6s"
    assert read(nine, NumberLook(6, 6, box(220))) == "9s"
    # a character tile's 六 and 九 are no pair: its Arabic 6 or 9 is left be
    assert read(reading({"9m": 0.6, "6m": 0.3, "N": 0.1}), NumberLook(6, 6, box(80))) == "9m"
    # the tile on its side: up is across the picture
    wide = TILE_QUAD[:, ::-1]
    assert six_or_nine(Printed(None, 6, 6, box(80)), wide) is None
    # read on the tile it lies on, not on the whole picture (wider than high here)
    photo = np.array([[0, 0], [600, 0], [600, 450], [0, 450]], float)
    assert tile_under(box(80).mean(0), [TILE_QUAD, photo]) is TILE_QUAD
    assert read(two, NumberLook(6, 6, box(80))) == "6p"
    after = _word_look(NumberLook(6, 6, box(80)), blank, two, [photo])  # type: ignore[arg-type]
    assert READ_CODES[int(after[: len(READ_CODES)].argmax())] == "9p"  # no tile: between
    assert 0 < INDEX_HIGH < 0.5


def test_the_text_reader_reads_a_corner_index_and_a_six_as_it_stands() -> None:
    look = WordLook()
    three = look.read(corner_tile_photo("3"))
    assert three.number == three.standing == 3 and three.tile is None
    for upside_down in (False, True):
        printed = look.read(corner_tile_photo("6", upside_down))
        quad = TILE_QUAD if not upside_down else np.array([[360, 440]]) - TILE_QUAD
        assert printed.number in (6, 9) and printed.standing == (9 if upside_down else 6)
        assert six_or_nine(printed, quad) == 6, upside_down
    assert look.read(word_tile_photo("ORC")).number is None
