"""The word look: what is written on a tile, read by a general text reader.

Makers print a flower's or season's name on it: its character (春夏秋冬, 梅蘭菊竹) on
most sets, an English word (*Spring*, *Plum*, or its first letters: *SPR*, *PLUM*,
*ORC*) on sets made for Western players. The tile model and the character look learnt
the shapes of the characters from this machine's fonts, and an English word from none.
The word look reads the photo with `RapidOCR <https://github.com/RapidAI/RapidOCR>`_
(Baidu's PP-OCR text detector and recogniser for Chinese and English, run by
onnxruntime, its models inside the package), then names the bonus tile the words name
(:func:`bonus_named`). Most sets also print a wind's or dragon's character (東南西北, 中,
發) and a character tile's numeral over 萬; these name their tile too (:func:`tile_named`).
:func:`hefen.photo.single.read_tile` asks it where its reading is unsure or may be a flower
or season (docs/photo.md, "The word look").
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import numpy as np

from hefen.photo.classes import BONUS

log = logging.getLogger(__name__)

T = TypeVar("T")

#: the name of each bonus tile (as :data:`hefen.photo.classes.BONUS` orders them) in
#: English, as makers print it, whole or cut to its first :data:`WORD_START` letters or
#: more
WORDS = ("SPRING", "SUMMER", "AUTUMN", "WINTER", "PLUM", "ORCHID", "CHRYSANTHEMUM", "BAMBOO")
#: other English names printed for a bonus tile, whole words only
OTHER_WORDS = {"FALL": 2, "MUM": 6, "MUMS": 6}
#: the fewest letters of a word cut short that name its tile (*SPR*, *ORC*)
WORD_START = 3
#: the character printed for each bonus tile (both forms of the orchid's)
CHARACTERS = {"春": 0, "夏": 1, "秋": 2, "冬": 3, "梅": 4, "蘭": 5, "兰": 5, "菊": 6, "竹": 7}
#: the character printed on each wind and dragon (but the white, which prints none or a
#: frame), in its traditional and simplified forms
HONOURS = {"東": "E", "东": "E", "南": "S", "西": "W", "北": "N", "中": "C", "發": "F", "发": "F"}
#: the numerals printed over 萬 on the character tiles, 1 to 9
NUMERALS = "一二三四五六七八九"
#: the character of the character tiles' suit, in both forms
MYRIAD = "萬万"
#: every character printed on a tile: a line that holds another (a maker's name, a
#: label beside the tile, the reader's guess at a drawing) names no suit or honour tile
TILE_CHARACTERS = set(CHARACTERS) | set(HONOURS) | set(NUMERALS) | set(MYRIAD)
#: how sure the text reader must be of a text for its words to name a tile
WORD_SURE = 0.8
#: how sure the text reader must be of a digit read alone for it to be the number printed
#: on the tile (a corner index): on the bench's photos of one tile of the two never-seen
#: KMahjongg sets, every digit read alone at 0.9 or more across the photo was the tile's
#: number, but for 6s and 9s taken for one another (read again as they stand,
#: :meth:`WordLook.standing`); under 0.9, 3s and a 7 were read on 2s and 5s of circles,
#: and a 1 on a 2 of bamboos (docs/photo.md, "The word look reads a printed number")
DIGIT_SURE = 0.9
#: the two digits that are one another upside down
SIX_NINE = (6, 9)
#: the long side the photo is read at (pixels, a larger photo reduced). The reader's own
#: setting enlarges a photo to 736 on its short side: on *traditional*'s 80 bench photos
#: of flowers and seasons it named 75 right, in 539 ms (median); at 640, 76, in 217 ms
READ_SIDE = 640


def words_of(text: str) -> list[int]:
    """The bonus tiles (indices into :data:`~hefen.photo.classes.BONUS`) that ``text``
    (one line the reader read) names, by word or character, in the order written.

    >>> from hefen.photo.classes import BONUS
    >>> [BONUS[k] for k in words_of("SPR")], [BONUS[k] for k in words_of("Orchid 6")]
    (['1h'], ['6h'])
    >>> [BONUS[k] for k in words_of("1春")], words_of("SP"), words_of("SPRINGS"), words_of("WIND")
    (['1h'], [], [], [])
    >>> [BONUS[k] for k in words_of("mum")], [BONUS[k] for k in words_of("CHRYS")]
    (['7h'], ['7h'])
    """
    named: list[int] = []
    for token in re.findall(r"[A-Za-z]+|[^\sA-Za-z]", text):
        if token in CHARACTERS:
            named.append(CHARACTERS[token])
            continue
        word = token.upper()
        if word in OTHER_WORDS:
            named.append(OTHER_WORDS[word])
        elif len(word) >= WORD_START:
            named += [k for k, whole in enumerate(WORDS) if whole.startswith(word)]
    return named


def digit_of(text: str) -> int | None:
    """The number 1-9 that ``text`` (one line the reader read) is, where it is one digit
    alone, as makers print a corner index; else None.

    >>> digit_of("7"), digit_of(" 3 "), digit_of("0"), digit_of("12"), digit_of("E")
    (7, 3, None, None, None)
    """
    return int(text.strip()) if re.fullmatch(r"[1-9]", text.strip()) else None


class Line(NamedTuple):
    """One line of text the reader read: what, how surely, and its four corners (x, y)
    in the picture."""

    text: str
    sure: float
    box: np.ndarray


def digit_line(lines: list[Line]) -> Line | None:
    """The surest of the lines that are one digit (:func:`digit_of`) read at least
    :data:`DIGIT_SURE`, where all of them are the same digit; else None (none, or two
    numbers: a sticker, a price, pips read as digits).

    >>> box = np.zeros((4, 2))
    >>> digit_line([Line("5", 0.95, box), Line("5", 0.99, box), Line("SPR", 0.9, box)]).sure
    0.99
    >>> digit_line([Line("5", 0.95, box), Line("8", 0.93, box)]), digit_line([Line("5", 0.8, box)])
    (None, None)
    """
    sure = [line for line in lines if line.sure >= DIGIT_SURE and digit_of(line.text)]
    if len({digit_of(line.text) for line in sure}) != 1:
        return None
    return max(sure, key=lambda line: line.sure)


@dataclass(frozen=True)
class Printed:
    """What the word look reads on a photo of one tile: the tile its words name
    (:func:`tile_named`), and the number printed alone on it (:func:`digit_line`): the
    digit as the reader read it (which may have turned the line half round) and as it
    stands in the picture (:meth:`WordLook.standing`; None where not read so surely),
    with its corners in the picture."""

    tile: str | None = None
    number: int | None = None
    standing: int | None = None
    box: np.ndarray | None = None


def bonus_named(texts: list[tuple[str, float]]) -> int | None:
    """The bonus tile (an index into :data:`~hefen.photo.classes.BONUS`) that the texts
    read in a photo (each with the reader's sureness) name: the one tile named by the
    texts read at least :data:`WORD_SURE`; None where none is, or two tiles are.

    >>> bonus_named([("SUM", 0.99)]), bonus_named([("1", 0.9), ("春", 0.86)])
    (1, 0)
    >>> bonus_named([("PLUM", 0.6)]), bonus_named([("春", 0.9), ("PLUM", 0.9)])
    (None, None)
    >>> bonus_named([("WIN", 0.99), ("WINTER", 0.9)]), bonus_named([])
    (3, None)
    """
    return _one_named(texts, words_of)


def suit_honour_of(text: str) -> list[str]:
    """The suit and honour tiles (codes) that ``text`` (one line the reader read) names: a
    wind or dragon by its character, a character tile by its numeral written before 萬.
    A line with any other Chinese character names none: it is not a tile's writing.

    >>> suit_honour_of("中"), suit_honour_of("W 西"), suit_honour_of("五萬"), suit_honour_of("八万")
    (['C'], ['W'], ['5m'], ['8m'])
    >>> suit_honour_of("中国"), suit_honour_of("萬"), suit_honour_of("一"), suit_honour_of("SPR")
    ([], [], [], [])
    """
    chinese = re.findall(r"[\u3400-\u9fff\uf900-\ufaff]", text)
    if any(c not in TILE_CHARACTERS for c in chinese):
        return []
    named = [HONOURS[c] for c in chinese if c in HONOURS]
    pairs = itertools.pairwise(text)
    named += [f"{NUMERALS.index(a) + 1}m" for a, b in pairs if a in NUMERALS and b in MYRIAD]
    return named


def tile_named(texts: list[tuple[str, float]]) -> str | None:
    """The tile (its code) that the texts read in a photo (each with the reader's
    sureness) name: by :func:`words_of` a flower or season, by :func:`suit_honour_of` a
    wind, dragon or character tile; the one tile named by the texts read at least
    :data:`WORD_SURE`, None where none is, or two tiles are.

    >>> tile_named([("ORC", 0.99)]), tile_named([("N", 0.99), ("北", 0.95)])
    ('6h', 'N')
    >>> tile_named([("中", 0.7)]), tile_named([("中", 0.9), ("發", 0.9)]), tile_named([("9", 0.99)])
    (None, None, None)
    """
    return _one_named(texts, lambda text: [BONUS[k] for k in words_of(text)] + suit_honour_of(text))


def _one_named(texts: list[tuple[str, float]], names: Callable[[str], list[T]]) -> T | None:
    """The one thing that ``names`` finds in the texts read at least :data:`WORD_SURE`;
    None where it finds none, or two."""
    named = {n for text, sure in texts if sure >= WORD_SURE for n in names(text)}
    return named.pop() if len(named) == 1 else None


class WordLook:
    """The text reader (RapidOCR, its detector, turn classifier and recogniser) and the
    texts it reads in a picture. Loading it takes about a second; reading a photo of one
    tile about 0.2 s on one core."""

    def __init__(self) -> None:
        from rapidocr_onnxruntime import RapidOCR

        # RapidOCR logs each picture with no text at WARNING: not this package's news
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        self.engine: Any = RapidOCR(det_limit_side_len=READ_SIDE, det_limit_type="max")
        self._lock = threading.Lock()

    def lines(self, rgb: np.ndarray, **settings: bool) -> list[Line]:
        """Each line of text read in ``rgb`` (RGB uint8), with how sure the reader is and
        where it lies; ``settings`` are the reader's own (``use_det``, ``use_cls``)."""
        bgr = np.ascontiguousarray(rgb[:, :, ::-1])
        try:
            with self._lock:
                found, _ = self.engine(bgr, **settings)
        except Exception:  # noqa: BLE001 - a second look that fails leaves the reading be
            log.warning("The text reader failed on a %s picture", "x".join(map(str, rgb.shape)))
            return []
        if settings.get("use_det") is False:  # the picture is the line: no corners
            h, w = rgb.shape[:2]
            corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
            return [Line(str(line[0]), float(line[1]), corners) for line in found or []]
        return [
            Line(str(line[1]), float(line[2]), np.asarray(line[0], float).reshape(-1, 2))
            for line in found or []
        ]

    def texts(self, rgb: np.ndarray) -> list[tuple[str, float]]:
        """Each line of text read in ``rgb`` (RGB uint8), with how sure the reader is."""
        return [(line.text, line.sure) for line in self.lines(rgb)]

    def read(self, rgb: np.ndarray) -> Printed:
        """What is printed on the tile in ``rgb``: the tile its words name
        (:func:`tile_named`), read as it is, then, where that names none, turned a quarter
        (the reader finds lines that run across the picture, and turns a line half round
        where it reads better so; a tile photographed on its side prints its words up the
        picture: a turned *traditional* winter's *WIN* was read only so); and the number
        printed alone on it (:func:`digit_line`), read again as it stands
        (:meth:`standing`)."""
        lines = self.lines(rgb)
        texts = [(line.text, line.sure) for line in lines]
        named = tile_named(texts)
        if named is None:  # two tiles named stay two: the texts are only added to
            named = tile_named(texts + self.texts(np.rot90(rgb)))
        digit = digit_line(lines)
        if digit is None:
            return Printed(named)
        return Printed(named, digit_of(digit.text), self.standing(rgb, digit.box), digit.box)

    def standing(self, rgb: np.ndarray, box: np.ndarray) -> int | None:
        """The digit in ``box`` (its corners in ``rgb``) as it stands in the picture: read
        alone, never turned (the reader turns a lone 6 or 9 half round as often as not),
        where read at least :data:`DIGIT_SURE`; else None."""
        (x0, y0), (x1, y1) = np.floor(box.min(0)).astype(int), np.ceil(box.max(0)).astype(int)
        crop = rgb[max(y0, 0) : max(y1, 0), max(x0, 0) : max(x1, 0)]
        if min(crop.shape[:2]) < 2:
            return None
        line = digit_line(self.lines(crop, use_det=False, use_cls=False))
        return None if line is None else digit_of(line.text)

    def tile(self, rgb: np.ndarray) -> str | None:
        """The tile the words printed in ``rgb`` name (:func:`tile_named`), if any, as
        :meth:`read` reads them."""
        return self.read(rgb).tile


def word_look() -> WordLook | None:
    """The word look, or None where the text reader is not installed."""
    try:
        return WordLook()
    except ImportError:
        return None


__all__ = [
    "Line",
    "Printed",
    "WordLook",
    "bonus_named",
    "digit_line",
    "digit_of",
    "suit_honour_of",
    "tile_named",
    "word_look",
    "words_of",
]
