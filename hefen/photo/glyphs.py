"""What the character look is trained on: small square windows, each either one of the
characters printed on the flowers and seasons -- 春夏秋冬 (the seasons, 1-4) and 梅蘭菊竹
(plum, orchid, chrysanthemum, bamboo, 1-4) -- or anything else a tile face holds.

A flower's or season's picture differs from maker to maker; its character does not, and
it names the tile outright (春 is the spring, 蘭 the orchid). So the look is taught the
eight characters in 39 Chinese and Japanese typefaces (:func:`cjk_font_paths`: Kai,
Ming, Hei, Sung, brush and pen hands), at any size in the window, in any ink, thickened or
thinned as engraving and printing vary, blurred and reduced as a small character in a
photo is, with pieces of other tiles' drawings about them; and *not a character* on
windows of every other kind of tile face (the numerals and 萬, the winds and dragons, the
pips and sticks, the bonus tiles' pictures), on the characters that look like them
(泰 for 春, 憂 for 夏, 海 for 梅, 闌 for 蘭, 竺 for 竹 ...), on a character only half in
the window, and on bare face. :func:`hefen.photo.single.read_tile` scans a tile read as a
flower or season with it (``CharLook``).

Drawn from a seed, with Pillow and OpenCV; the fonts are Debian's: the ``drawn`` style's
(:data:`hefen.photo.drawn.CJK_FONTS`), and with ``typefaces="more"`` those and
:data:`MORE_CJK_FONTS`, and with ``typefaces="most"`` also the Latin ones of
:data:`MORE_LATIN_FONTS` (:data:`TYPEFACES`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from hefen.photo.classes import BONUS
from hefen.photo.model import CHAR_WINDOW, ink_image
from hefen.photo.synth import Art

#: The window the look reads, in pixels (square; the runtime's ``model.CHAR_WINDOW``).
WINDOW = CHAR_WINDOW
#: Each bonus tile's character(s): the traditional form, and the simplified one where it
#: differs (兰 on mainland sets).
CHARACTERS: dict[str, str] = {
    "1h": "春",
    "2h": "夏",
    "3h": "秋",
    "4h": "冬",
    "5h": "梅",
    "6h": "蘭兰",
    "7h": "菊",
    "8h": "竹",
}
#: Other characters a tile face holds, and characters shaped like the eight.
OTHER_CHARACTERS = (
    "萬万一二三四五六七八九伍東南西北中發发白"
    "泰奏秦椿蠢憂复麥秒和科秩冷各务海悔梧樹闌欄蘆兰菜鞠匊竺什行竿笑符"
    "花福喜龍鳳財紅日月山水木火土天人大小心王玉田林松柏桃草葉蓮荷香季"
)
#: Latin numerals and letters of corner indices.
OTHER_LATIN = "123456789ESWNCFPRG"
#: The numbers the number look reads (:data:`~hefen.photo.classes.NUMBER_CLASSES`):
#: 1-4 as the flowers and seasons print them, 1-9 as a suit tile's corner index or a
#: character tile's numeral does -- the Arabic digit and the Chinese numeral (一, a lone
#: stroke as any stem or leaf is, is not read).
NUMBERS = ("1", "2二", "3三", "4四", "5五", "6六", "7七", "8八", "9九")
#: Characters a tile face holds that are not those numbers (一 among them, as it is not read).
OTHER_THAN_NUMBERS = OTHER_CHARACTERS.translate(
    {ord(c): None for c in "".join(NUMBERS) + "伍"}  # 伍: the 5 a few sets print
) + "".join(CHARACTERS.values())
#: Latin glyphs of corner indices and words that are not numbers.
OTHER_LATIN_THAN_NUMBERS = "ESWNCFPRGIlLTUMAOBDJ"
#: The share of the Arabic digits drawn in a Latin typeface (the rest in CJK ones).
LATIN_DIGITS = 0.6
#: The share of the numbers drawn in a ring.
RING_SHARE = 0.3
_CANVAS = 96  # windows are drawn at three times their size, then reduced


#: More Chinese and Japanese typefaces (path, face index) that a window look may be trained
#: on beside the ``drawn`` style's twelve: makers print a flower's character in every hand,
#: so the more hands the look has seen, the likelier a new one is among their kin. Taiwan's
#: cwTeX Kai, Ming, bold Hei, FangSong and Yen; LXGW WenKai; Noto Sans and Serif CJK (their
#: Traditional Chinese faces) in light to black weights; the GB Kai and Sung of Arphic
#: (simplified forms: 兰); brush faces (Aoyagi Soseki, Kouzan in three hands, from
#: standard to cursive); pen and pencil hands (kiloji, Klee One); BIZ UD Mincho and
#: Gothic, Dejima and Oradano Mincho, IPAmj Mincho and BabelStone Han. None is the ``fonts``
#: style's (I.Mahjong, after M+), so that style stays typefaces no window look saw.
MORE_CJK_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/cwtex/cwkai.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwming.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwheib.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwfs.ttf", 0),
    ("/usr/share/fonts/truetype/cwtex/cwyen.ttf", 0),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", 0),
    ("/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf", 0),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Light.ttc", 3),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 3),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc", 3),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Light.ttc", 3),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 3),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc", 3),
    ("/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf", 0),
    ("/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf", 0),
    ("/usr/share/fonts/truetype/aoyagi-soseki/aoyagi-soseki.ttf", 0),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", 0),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", 0),
    ("/usr/share/fonts/truetype/kouzan-mouhitsu/KouzanBrushFontSousyo.ttf", 0),
    ("/usr/share/fonts/truetype/kiloji/kiloji.ttf", 0),
    ("/usr/share/fonts/truetype/klee/KleeOne-SemiBold.ttf", 0),
    ("/usr/share/fonts/truetype/bizud-mincho/BIZUDMincho-Regular.ttf", 0),
    ("/usr/share/fonts/truetype/bizud-gothic/BIZUDGothic-Bold.ttf", 0),
    ("/usr/share/fonts/truetype/dejima-mincho/dejima-mincho-r227.ttf", 0),
    ("/usr/share/fonts/truetype/oradano-mincho/OradanoGSRR.ttf", 0),
    ("/usr/share/fonts/truetype/ipamj/ipamjm.ttf", 0),
    ("/usr/share/fonts/truetype/babelstone/BabelStoneHan.ttf", 0),
)
#: The Debian packages that hold :data:`MORE_CJK_FONTS` and :data:`MORE_LATIN_FONTS`.
MORE_FONT_PACKAGES = (
    "fonts-cwtex-kai fonts-cwtex-ming fonts-cwtex-heib fonts-cwtex-fs fonts-cwtex-yen "
    "fonts-lxgw-wenkai fonts-noto-cjk fonts-noto-cjk-extra fonts-arphic-gkai00mp "
    "fonts-arphic-gbsn00lp fonts-aoyagi-soseki fonts-kouzan-mouhitsu fonts-kiloji fonts-klee "
    "fonts-morisawa-bizud-mincho fonts-morisawa-bizud-gothic fonts-dejima-mincho "
    "fonts-oradano-mincho-gsrr fonts-ipamj-mincho fonts-babelstone-han fonts-liberation "
    "fonts-dejavu-extra"
)
#: More Latin typefaces an Arabic digit may be drawn in (with ``typefaces="most"``) beside
#: the ``drawn`` style's three DejaVu faces: a maker prints a suit tile's corner index or a
#: flower's number in a sans like Arial or Helvetica (a 1 with a flag and no foot), a serif
#: like Times, a monospace like Courier, condensed or bold, as the number look must read.
#: Liberation Sans, Serif and Mono (metric twins of Arial, Times and Courier), Noto Sans
#: and Serif, DejaVu Sans Condensed and Serif in bold.
MORE_LATIN_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationMono-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
    "/usr/share/fonts/truetype/noto/NotoSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
)
#: The typeface sets a window look is drawn in: the ``drawn`` style's, ``more``: those
#: and :data:`MORE_CJK_FONTS`, or ``most``: those and :data:`MORE_LATIN_FONTS` too.
TYPEFACES = ("drawn", "more", "most")


def _known(typefaces: str) -> str:
    """``typefaces``, one of :data:`TYPEFACES`; else a ValueError naming them."""
    if typefaces not in TYPEFACES:
        raise ValueError(f"no typeface set {typefaces!r}: one of {', '.join(TYPEFACES)}")
    return typefaces


def cjk_font_paths(typefaces: str = "drawn") -> tuple[tuple[str, int], ...]:
    """The CJK typefaces (path, face index) of the set ``typefaces`` (:data:`TYPEFACES`)."""
    from hefen.photo.drawn import CJK_FONTS

    return CJK_FONTS + (MORE_CJK_FONTS if _known(typefaces) != "drawn" else ())


def latin_font_paths(typefaces: str = "drawn") -> tuple[str, ...]:
    """The Latin typefaces of the set ``typefaces`` (:data:`TYPEFACES`): the ``drawn``
    style's (:data:`hefen.photo.drawn.LATIN_FONTS`), with ``most`` :data:`MORE_LATIN_FONTS`
    too."""
    from hefen.photo.drawn import LATIN_FONTS

    return LATIN_FONTS + (MORE_LATIN_FONTS if _known(typefaces) == "most" else ())


def missing_fonts(typefaces: str = "drawn") -> list[str]:
    """The font files of the set ``typefaces`` that this machine lacks: the ``drawn``
    style's (:func:`hefen.photo.drawn.missing_fonts`, its Latin ones among them), and
    with ``more`` those of :data:`MORE_CJK_FONTS`, with ``most`` those and
    :data:`MORE_LATIN_FONTS`."""
    from hefen.photo import drawn

    more = [p for p, _ in cjk_font_paths(typefaces)[len(drawn.CJK_FONTS) :]]
    more += list(latin_font_paths(typefaces)[len(drawn.LATIN_FONTS) :])
    return drawn.missing_fonts() + [p for p in more if not Path(p).exists()]


@functools.cache
def _cjk_fonts(typefaces: str = "drawn") -> tuple[ImageFont.FreeTypeFont, ...]:
    return tuple(ImageFont.truetype(p, 120, index=i) for p, i in cjk_font_paths(typefaces))


@functools.cache
def _latin_fonts(typefaces: str = "drawn") -> tuple[ImageFont.FreeTypeFont, ...]:
    return tuple(ImageFont.truetype(p, 120) for p in latin_font_paths(typefaces))


def _drawn(font: ImageFont.FreeTypeFont, char: str) -> Image.Image:
    mask = Image.new("L", (260, 260), 0)
    ImageDraw.Draw(mask).text((30, 30), char, font=font, fill=255)
    return mask


#: A code point no font here draws: what a font draws for a glyph it lacks (its .notdef).
_NO_SUCH_GLYPH = "\U0010fffd"


def _font(font_index: int, latin: bool, typefaces: str) -> ImageFont.FreeTypeFont:
    return (_latin_fonts(typefaces) if latin else _cjk_fonts(typefaces))[font_index]


@functools.cache
def _missing_glyph(font_index: int, latin: bool, typefaces: str) -> bytes:
    """What the font draws for a glyph it lacks (:func:`_drawn`'s pixels), drawn once."""
    return _drawn(_font(font_index, latin, typefaces), _NO_SUCH_GLYPH).tobytes()


@functools.cache
def _glyph_mask(
    font_index: int, latin: bool, char: str, typefaces: str = "drawn"
) -> np.ndarray | None:
    """The character's ink, cut to its bounding box (uint8, 255 ink), or None where the
    font has no such glyph (it would draw a blank, or its box for a missing glyph: 兰 in
    a Japanese typeface)."""
    mask = _drawn(_font(font_index, latin, typefaces), char)
    box = mask.getbbox()
    if box is None or mask.tobytes() == _missing_glyph(font_index, latin, typefaces):
        return None
    return np.asarray(mask.crop(box))


def _face_colour(rng: np.random.Generator) -> np.ndarray:
    """A tile face's colour: white to ivory, now and then a pale tint."""
    base = rng.uniform(205, 255)
    tint = rng.normal(0, 6, 3) + np.array([4, 2, -8]) * rng.uniform(0, 1.5)
    return np.clip(base + tint, 150, 255)


def _ink(rng: np.random.Generator) -> np.ndarray:
    """A printing ink: black, red, green, blue, or any dark or strong colour."""
    inks = ((25, 25, 25), (190, 30, 35), (25, 120, 50), (30, 50, 160), (120, 20, 60))
    if rng.random() < 0.7:
        ink = np.array(inks[rng.integers(len(inks))], np.float64)
    else:
        ink = rng.uniform(0, 200, 3)
        ink[rng.integers(3)] *= 0.3
    return np.clip(ink + rng.normal(0, 15, 3), 0, 255)


def _pieces(rng: np.random.Generator, canvas: np.ndarray, faces: list[np.ndarray]) -> None:
    """Pieces of other tiles' drawings (RGBA) about the window, as the rest of a face."""
    if not faces:
        return
    for _ in range(int(rng.integers(0, 3))):
        rgba = faces[rng.integers(len(faces))]
        h, w = rgba.shape[:2]
        scale = rng.uniform(1.0, 3.0) * _CANVAS / max(h, w)
        small = cv2.resize(rgba, (max(2, round(w * scale)), max(2, round(h * scale))))
        sh, sw = small.shape[:2]
        # any part of it, laid so that it reaches into the window from a side
        x = int(rng.integers(-sw + 8, _CANVAS - 8))
        y = int(rng.integers(-sh + 8, _CANVAS - 8))
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(_CANVAS, x + sw), min(_CANVAS, y + sh)
        if x1 <= x0 or y1 <= y0:
            continue
        part = small[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float64)
        a = part[..., 3:4] / 255.0
        canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + part[..., :3] * a


def _lay_glyph(
    rng: np.random.Generator,
    canvas: np.ndarray,
    mask: np.ndarray,
    size: float,
    offset: tuple[float, float],
) -> None:
    """``mask`` inked onto ``canvas``: its larger side ``size`` of the window, its centre
    ``offset`` (shares of the window) from the window's, turned a little, its strokes
    thickened or thinned."""
    h, w = mask.shape
    f = size * _CANVAS / max(h, w)
    glyph = Image.fromarray(mask).resize(
        (max(1, round(w * f)), max(1, round(h * f))), Image.Resampling.LANCZOS
    )
    weight = rng.random()
    if weight < 0.2:
        glyph = glyph.filter(ImageFilter.MaxFilter(3))
    elif weight < 0.35:
        glyph = glyph.filter(ImageFilter.MinFilter(3))
    glyph = glyph.rotate(rng.uniform(-7, 7), resample=Image.Resampling.BILINEAR, expand=True)
    g = np.asarray(glyph, np.float64) / 255.0
    gh, gw = g.shape
    cx = _CANVAS / 2 + offset[0] * _CANVAS
    cy = _CANVAS / 2 + offset[1] * _CANVAS
    x, y = round(cx - gw / 2), round(cy - gh / 2)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(_CANVAS, x + gw), min(_CANVAS, y + gh)
    if x1 <= x0 or y1 <= y0:
        return
    a = g[y0 - y : y1 - y, x0 - x : x1 - x, None] * rng.uniform(0.7, 1.0)
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + _ink(rng) * a


def _camera(rng: np.random.Generator, canvas: np.ndarray) -> np.ndarray:
    """The window as a photo shows it, ``WINDOW`` pixels square, as
    :func:`~hefen.photo.model.ink_image` reads it: light across it, a slant, blur, reduced
    to as few as 11 pixels and back, noise."""
    img: np.ndarray = canvas.astype(np.float32)
    ramp = np.linspace(-1, 1, _CANVAS, dtype=np.float32)
    light = 1 + rng.uniform(-0.15, 0.15) * ramp[None, :] + rng.uniform(-0.15, 0.15) * ramp[:, None]
    img = img * light[..., None] * rng.uniform(0.6, 1.1)
    shear = np.array([[1, rng.uniform(-0.1, 0.1), 0], [rng.uniform(-0.1, 0.1), 1, 0]], np.float32)
    shear[:, 2] = -shear[:, :2].sum(1) * _CANVAS / 2 + _CANVAS / 2
    img = cv2.warpAffine(img, shear, (_CANVAS, _CANVAS), borderMode=cv2.BORDER_REFLECT)
    sigma = rng.uniform(0, 2.2)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    grey = ink_image(np.clip(img, 0, 255).astype(np.uint8))
    side = int(rng.integers(11, 33))
    small = cv2.resize(grey, (side, side), interpolation=cv2.INTER_AREA)
    out = cv2.resize(small, (WINDOW, WINDOW), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    out += rng.normal(0, rng.uniform(0, 7), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def _ring(
    rng: np.random.Generator, canvas: np.ndarray, size: float, offset: tuple[float, float]
) -> None:
    """A ring about a glyph ``size`` of the window at ``offset`` (as :func:`_lay_glyph`
    lays it), in a printing ink: how many sets print a flower's number."""
    centre = (round((0.5 + offset[0]) * _CANVAS), round((0.5 + offset[1]) * _CANVAS))
    radius = round(size * _CANVAS * rng.uniform(0.6, 0.75))
    cv2.circle(canvas, centre, radius, _ink(rng).tolist(), int(rng.integers(2, 6)), cv2.LINE_AA)


def _random_glyph(
    rng: np.random.Generator, text: str, latin: bool | None = False, typefaces: str = "drawn"
) -> np.ndarray | None:
    """One of the glyphs of ``text``: in a Latin typeface (``latin``), a CJK one of the set
    ``typefaces``, or, with ``latin`` None, an Arabic digit in a Latin one on
    :data:`LATIN_DIGITS` of them and anything else in a CJK one: a typeface that has it
    (None where none has)."""
    char = text[rng.integers(len(text))]
    if latin is None:
        latin = char.isascii() and rng.random() < LATIN_DIGITS
    having = _having(char, latin, typefaces)
    if not having:
        return None
    return _glyph_mask(having[rng.integers(len(having))], latin, char, typefaces)


@functools.cache
def _having(char: str, latin: bool, typefaces: str) -> tuple[int, ...]:
    """The typefaces (indices) of the Latin or the CJK set ``typefaces`` that draw
    ``char``."""
    fonts = _latin_fonts(typefaces) if latin else _cjk_fonts(typefaces)
    return tuple(i for i in range(len(fonts)) if _glyph_mask(i, latin, char, typefaces) is not None)


def plain_art(art: Art) -> Art:
    """``art`` less the ``drawn`` style's flowers and seasons, which print the eight
    characters: the tiles whose photos give windows of *no character*."""
    return _faces_where(art, lambda code, style: not (code in BONUS and style.startswith("drawn")))


def plain_drawings(art: Art) -> list[np.ndarray]:
    """The RGBA drawings of ``art`` that :func:`char_window` lays about a window and cuts
    *not a character* windows from: :func:`plain_art`'s, less a font style's (coloured
    when drawn)."""
    return _drawings(plain_art(art))


def _faces_where(art: Art, keep: Callable[[str, str], bool]) -> Art:
    """``art``'s faces whose tile code and style ``keep`` takes, in their order."""
    out = Art()
    for code, faces in art.faces.items():
        for face, style in zip(faces, art.styles[code], strict=True):
            if keep(code, style):
                out.add(code, face, style)
    return out


def _drawings(art: Art) -> list[np.ndarray]:
    """The RGBA drawings of ``art``'s faces, less a font style's (coloured when drawn)."""
    return [
        face_rgba(face.rgb, face.alpha)
        for faces in art.faces.values()
        for face in faces
        if face.labels is None
    ]


#: Tiles whose faces print one of the numbers on every set: 二 to 九 on the characters.
_NUMBERED = tuple(f"{n}m" for n in range(2, 10))


def _numberless(code: str, style: str) -> bool:
    """Whether ``style``'s face of ``code`` surely prints none of :data:`NUMBERS`: no
    flower or season but the ``xhokir`` style's (pictures only), no 2-9 of characters,
    and none of the ``drawn`` style's suit tiles (some carry a corner index)."""
    if code in BONUS:
        return style.startswith("xhokir")
    if code in _NUMBERED:
        return False
    return not (style.startswith("drawn") and code[0].isdigit())


def numberless_art(art: Art) -> Art:
    """``art``'s faces that print no number (:func:`_numberless`): the tiles whose photos
    give the number look's windows of *no number*."""
    return _faces_where(art, _numberless)


def numberless_drawings(art: Art) -> list[np.ndarray]:
    """The RGBA drawings of ``art`` that :func:`number_window` lays about a window and
    cuts *no number* windows from: :func:`numberless_art`'s, less a font style's
    (coloured when drawn)."""
    return _drawings(numberless_art(art))


def char_window(
    rng: np.random.Generator,
    label: int,
    plain: list[np.ndarray],
    typefaces: str = "drawn",
) -> np.ndarray:
    """One training window (``WINDOW`` square, grey uint8) of class ``label`` (an index
    into :data:`~hefen.photo.classes.CHAR_CLASSES`). ``plain``: RGBA drawings with none
    of the eight characters (:func:`plain_drawings`), laid about a window and whose
    windows are *not a character*; ``typefaces``: the CJK typefaces it is set in
    (:data:`TYPEFACES`)."""
    shown = CHARACTERS[BONUS[label]] if label < len(BONUS) else None
    others = (OTHER_CHARACTERS, OTHER_LATIN)
    return _window(rng, plain, shown, "".join(CHARACTERS.values()), others, typefaces=typefaces)


def number_window(
    rng: np.random.Generator,
    label: int,
    plain: list[np.ndarray],
    typefaces: str = "drawn",
) -> np.ndarray:
    """One training window of the number look (``WINDOW`` square, grey uint8) of class
    ``label`` (an index into :data:`~hefen.photo.classes.NUMBER_CLASSES`): one of the
    numbers 1-9 a flower, a season or a suit tile prints (:data:`NUMBERS`: Arabic, or
    the Chinese numeral), now and then in a ring, or no number. ``plain``: RGBA drawings with no
    number (:func:`numberless_drawings`); ``typefaces``: the CJK typefaces it is set in
    (:data:`TYPEFACES`)."""
    shown = NUMBERS[label] if label < len(NUMBERS) else None
    others = (OTHER_THAN_NUMBERS, OTHER_LATIN_THAN_NUMBERS)
    named = "".join(NUMBERS)
    return _window(rng, plain, shown, named, others, (0.35, 0.85), RING_SHARE, typefaces)


def _window(
    rng: np.random.Generator,
    plain: list[np.ndarray],
    shown: str | None,
    named: str,
    others: tuple[str, str],
    sizes: tuple[float, float] = (0.5, 0.92),
    ring: float = 0.0,
    typefaces: str = "drawn",
) -> np.ndarray:
    """A training window: one of the glyphs ``shown`` (one class's forms), ``sizes`` of
    the window, in a ring on ``ring`` of them, with pieces of ``plain`` drawings about it;
    or, where ``shown`` is None, a window of none of the glyphs the look names
    (``named``): a part of a ``plain`` drawing, one of ``others`` (CJK, Latin) laid as a
    named one is, a named one mostly out of the window or far too small, or bare face.
    The CJK glyphs are set in the typefaces of the set ``typefaces``."""
    canvas = np.empty((_CANVAS, _CANVAS, 3), np.float64)
    canvas[:] = _face_colour(rng)
    if shown is not None:
        _pieces(rng, canvas, plain)
        mask = _random_glyph(rng, shown, None, typefaces)
        if mask is not None:
            offset = (rng.normal(0, 0.06), rng.normal(0, 0.06))
            size = rng.uniform(*sizes)
            if ring and rng.random() < ring:
                _ring(rng, canvas, size, offset)
            _lay_glyph(rng, canvas, mask, size, offset)
        return _camera(rng, canvas)
    kind = rng.random()
    if kind < 0.4 and plain:  # a window of a face without the named glyphs
        _face_part(rng, canvas, plain)
    elif kind < 0.8:  # another character or index, laid as the named ones are
        _pieces(rng, canvas, plain)
        latin = rng.random() < 0.2
        mask = _random_glyph(rng, others[1] if latin else others[0], latin, typefaces)
        if mask is not None:
            offset = (rng.normal(0, 0.06), rng.normal(0, 0.06))
            _lay_glyph(rng, canvas, mask, rng.uniform(0.4, 0.92), offset)
    elif kind < 0.93:  # a named one, mostly out of the window, or far too small
        _pieces(rng, canvas, plain)
        mask = _random_glyph(rng, named, None, typefaces)
        if mask is not None:
            if rng.random() < 0.6:
                side = rng.choice([-1, 1], 2) * rng.uniform(0.45, 0.7, 2)
                side[rng.integers(2)] *= rng.uniform(0, 0.5)
                _lay_glyph(rng, canvas, mask, rng.uniform(0.6, 1.0), (side[0], side[1]))
            else:
                offset = (rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3))
                _lay_glyph(rng, canvas, mask, rng.uniform(0.12, 0.25), offset)
    else:  # bare face, or pieces only
        _pieces(rng, canvas, plain)
    return _camera(rng, canvas)


def _face_part(rng: np.random.Generator, canvas: np.ndarray, plain: list[np.ndarray]) -> None:
    """A part of one of the ``plain`` drawings, enlarged to fill the window or more."""
    rgba = plain[rng.integers(len(plain))]
    h, w = rgba.shape[:2]
    side = rng.uniform(0.15, 0.7) * w
    scale = _CANVAS / side
    big = cv2.resize(rgba, (max(2, round(w * scale)), max(2, round(h * scale))))
    bh, bw = big.shape[:2]
    x = int(rng.integers(-_CANVAS // 4, max(1, bw - 3 * _CANVAS // 4)))
    y = int(rng.integers(-_CANVAS // 4, max(1, bh - 3 * _CANVAS // 4)))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(bw, x + _CANVAS), min(bh, y + _CANVAS)
    part = big[y0:y1, x0:x1].astype(np.float64)
    a = part[..., 3:4] / 255.0
    tx, ty = x0 - x, y0 - y
    region = canvas[ty : ty + part.shape[0], tx : tx + part.shape[1]]
    region[:] = region * (1 - a) + part[..., :3] * a


def face_rgba(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """An RGBA uint8 drawing from an art face's colours (0..255) and coverage (0..1)."""
    return np.dstack([np.clip(rgb, 0, 255), np.clip(alpha * 255, 0, 255)]).astype(np.uint8)
