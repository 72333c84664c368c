"""Synthetic photos of mahjong tiles, for training and testing the recogniser.

Tile faces come from the freely licensed artwork in ``shared/tiles`` (read in place, never
copied into the package): three art styles, ``samoheen`` (PNG, CC0), ``xhokir`` (PNG,
CC BY 4.0) and ``fonts`` (the four I.Mahjong tile fonts, M+ licence); and from Debian's
fonts, two more: ``symbols`` (the mahjong tiles of Noto Sans Symbols 2, SIL OFL, and Symbola,
free for any use) and ``drawn`` (faces composed from Chinese typefaces and geometry, see
:mod:`hefen.photo.drawn`). Everything else -- tile bodies, tables, perspective, light, blur,
noise, JPEG loss -- is drawn procedurally here.

Two products:

* :func:`tile_crop` -- one classifier training example: a crop of a tile (or, for the
  "not a tile" class, a badly placed crop) taken the way the recogniser cuts a photo.
* :func:`hand_photo` -- a whole photo of a hand laid out in groups, with the true tiles and
  their positions.

Images are RGB ``uint8`` arrays. Only numpy, OpenCV and Pillow are used.
"""

from __future__ import annotations

import functools
import io
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from hefen.photo.classes import BACK, BONUS, HONORS, SUITED, TILE_CODES, copies_allowed

#: The artworks of ``shared/tiles``.
STYLES: tuple[str, ...] = ("samoheen", "xhokir", "fonts")
#: Two more styles, from Debian's fonts (read in place; see NOTICE): ``symbols``, the Unicode
#: mahjong tiles of Noto Sans Symbols 2 and Symbola, and ``drawn``, faces composed from
#: Chinese typefaces and geometry (:mod:`hefen.photo.drawn`).
FONT_STYLES: tuple[str, ...] = ("symbols", "drawn")
#: What the shipped model is trained on.
TRAINING_STYLES: tuple[str, ...] = STYLES + FONT_STYLES
#: One more drawn style, ``laid`` (:func:`hefen.photo.drawn.laid_faces`): a bird for the
#: 1 of bamboos and the other arrangements of the suit tiles makers lay out more than one
#: way. The sharp look is trained with it; the tile model, trained before it, is not.
LAID_STYLE = "laid"
CROP_W, CROP_H = 48, 64
ART_H = 200  # height the artwork is kept at after loading

_WORDS = {"characters": "m", "circles": "p", "bamboos": "s"}
_SAMOHEEN_NAMED = {
    "white-dragon": "P",
    "green-dragon": "F",
    "red-dragon": "C",
    "east-wind": "E",
    "south-wind": "S",
    "west-wind": "W",
    "north-wind": "N",
    "spring": "1h",
    "summer": "2h",
    "autumn": "3h",
    "winter": "4h",
    "plum": "5h",
    "orchid": "6h",
    "chrysanthemum": "7h",
    "bamboo": "8h",
}
_XHOKIR_NAMED = {
    "Ton": "E",
    "Nan": "S",
    "Shaa": "W",
    "Pei": "N",
    "Chun": "C",
    "Hatsu": "F",
    "Haku": "P",
    "Season1": "1h",
    "Season2": "2h",
    "Season3": "3h",
    "Season4": "4h",
    "Flower1": "5h",
    "Flower2": "6h",
    "Flower3": "7h",
    "Flower4": "8h",
}
_XHOKIR_SUITS = {"Man": "m", "Pin": "p", "Sou": "s"}
_FONT_FILES = ("I.MahjongHK.otf", "I.MahjongTW.otf", "I.MahjongCAN.otf", "I.MahjongJP.otf")
# Unicode Mahjong Tiles block, U+1F000 onwards.
_UNICODE_ORDER = (
    ["E", "S", "W", "N", "C", "F", "P"]
    + [f"{n}m" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + ["5h", "6h", "8h", "7h", "1h", "2h", "3h", "4h"]
)
_INKS = np.array(
    [[20, 20, 20], [30, 40, 150], [20, 110, 40], [190, 30, 30], [40, 40, 90], [150, 20, 60]],
    np.float32,
)


def default_tiles_dir() -> Path:
    """``shared/tiles`` beside the repository checkout."""
    return Path(__file__).resolve().parents[3] / "shared" / "tiles"


@dataclass
class Face:
    """One tile's artwork: colours and coverage, or (for fonts) ink components to colour."""

    rgb: np.ndarray  # float32 H x W x 3, 0..255
    alpha: np.ndarray  # float32 H x W, 0..1
    labels: np.ndarray | None = None  # int32 H x W: ink component of each pixel (fonts)
    n_labels: int = 0


@dataclass
class Art:
    """The faces of one or more art styles: ``faces[code]`` lists every drawing of it, and
    ``styles[code]`` the style of each."""

    faces: dict[str, list[Face]] = field(default_factory=dict)
    styles: dict[str, list[str]] = field(default_factory=dict)
    #: how likely :meth:`pick` takes each style (by its full name, such as
    #: ``drawn/printed``; 1 where not named). None: every style alike, and a style's parts
    #: (``drawn`` and ``drawn/printed``) count as that one style.
    weights: dict[str, float] | None = None

    def add(self, code: str, face: Face, style: str = "") -> None:
        self.faces.setdefault(code, []).append(face)
        self.styles.setdefault(code, []).append(style)

    def extend(self, other: Art, style: str) -> None:
        """Add every face of ``other`` as drawings of ``style`` (a face ``other`` names a
        part of its style, such as ``printed``, as ``style/part``)."""
        for code, faces in other.faces.items():
            for face, part in zip(faces, other.styles[code], strict=True):
                self.add(code, face, f"{style}/{part}" if part else style)

    def pick(self, rng: np.random.Generator, code: str) -> Face | None:
        """A drawing of ``code``: a style first (each style that draws it alike likely), then
        one of that style's drawings, so that a style with many drawings does not crowd out
        the others. None for :data:`~hefen.photo.classes.BACK`: a tile face down shows no
        drawing (:func:`draw_tile` draws its back)."""
        if code == BACK:
            return None
        if self.weights is None:
            styles = [s.split("/")[0] for s in self.styles[code]]
            names = sorted(set(styles))
            style = names[rng.integers(len(names))]
        else:
            styles = self.styles[code]
            names = sorted(set(styles))
            w = np.array([self.weights.get(n, 1.0) for n in names], np.float64)
            style = names[rng.choice(len(names), p=w / w.sum())]
        mine = [f for f, s in zip(self.faces[code], styles, strict=True) if s == style]
        return mine[rng.integers(len(mine))]


def face_from_rgba(rgba: np.ndarray) -> Face:
    """A :class:`Face` from an RGBA drawing of one tile's artwork (``uint8``, H x W x 4)."""
    h, w = rgba.shape[:2]
    new_w = max(1, round(w * ART_H / h))
    small = cv2.resize(rgba, (new_w, ART_H), interpolation=cv2.INTER_AREA).astype(np.float32)
    return Face(rgb=small[:, :, :3].copy(), alpha=small[:, :, 3] / 255.0)


def _load_png(path: Path) -> Face:
    with Image.open(path) as im:
        return face_from_rgba(np.asarray(im.convert("RGBA")))


def _load_samoheen(folder: Path, art: Art) -> None:
    for path in sorted((folder / "png").glob("*.png")):
        name = path.stem.split("-", 1)[1]
        if name in _SAMOHEEN_NAMED:
            code = _SAMOHEEN_NAMED[name]
        else:
            word, number = name.rsplit("-", 1)
            code = number + _WORDS[word]
        art.add(code, _load_png(path))


def _load_xhokir(folder: Path, art: Art) -> None:
    for path in sorted((folder / "png").glob("*.png")):
        stem = path.stem
        if stem in _XHOKIR_NAMED:
            code = _XHOKIR_NAMED[stem]
        elif stem[:3] in _XHOKIR_SUITS:
            code = stem[3] + _XHOKIR_SUITS[stem[:3]]  # Man5-Dora is another 5m
        else:
            continue  # Back, Front, Blank
        art.add(code, _load_png(path))


def _font_face(font: ImageFont.FreeTypeFont, char: str) -> Face:
    mask_im = Image.new("L", (420, 560), 0)
    ImageDraw.Draw(mask_im).text((20, 20), char, font=font, fill=255)
    mask = np.asarray(mask_im)
    ys, xs = np.nonzero(mask > 127)
    mask = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    # The glyph draws the tile's outline; keep only what is inside it.
    h, w = mask.shape
    row = mask[h // 2] > 127
    stroke = int(np.argmin(row))  # first pixel past the outline
    cut = stroke + max(3, stroke // 2)
    inner = mask[cut : h - cut, cut : w - cut]
    n, labels = cv2.connectedComponents((inner > 100).astype(np.uint8), connectivity=8)
    # Let anti-aliased edge pixels take the colour of the nearest component.
    labels = labels.astype(np.int32)
    if n > 1:
        dist_labels = cv2.distanceTransformWithLabels(
            (labels == 0).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL
        )[1]
        # map pixel-seed labels back to component labels
        seed_comp = np.zeros(dist_labels.max() + 1, np.int32)
        seeds = labels == 0
        seed_comp[dist_labels[~seeds]] = labels[~seeds]
        labels = seed_comp[dist_labels]
    rgba = np.zeros((*inner.shape, 4), np.uint8)
    rgba[:, :, 3] = inner
    face = face_from_rgba(rgba)
    face.labels = cv2.resize(
        labels, (face.alpha.shape[1], face.alpha.shape[0]), interpolation=cv2.INTER_NEAREST
    )
    face.n_labels = max(n, 1)
    return face


def _load_fonts(folder: Path, art: Art) -> None:
    for filename in _FONT_FILES:
        font = ImageFont.truetype(str(folder / filename), 400)
        for i, code in enumerate(_UNICODE_ORDER):
            art.add(code, _font_face(font, chr(0x1F000 + i)))


#: Two general symbol fonts with the Unicode mahjong tiles, from Debian packages
#: (``fonts-noto-core``: SIL OFL 1.1; ``fonts-symbola``: free for any use).
SYMBOL_FONTS = (
    Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
    Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
)


#: The Debian packages of the font styles.
FONTS_INSTALL = (
    "apt-get install fonts-noto-core fonts-symbola fonts-arphic-ukai fonts-arphic-uming "
    "fonts-wqy-microhei fonts-arphic-bkai00mp fonts-arphic-bsmi00lp fonts-dejavu-core "
    "fonts-cns11643-kai fonts-cns11643-sung fonts-aoyagi-kouzan-t fonts-ipaexfont-mincho "
    "fonts-hanazono fonts-wqy-zenhei"
)


def _load_symbol_fonts(folder: Path, art: Art) -> None:
    del folder  # system fonts, not shared/tiles
    for path in SYMBOL_FONTS:
        font = ImageFont.truetype(str(path), 400)
        for i, code in enumerate(_UNICODE_ORDER):
            art.add(code, _font_face(font, chr(0x1F000 + i)))


def _load_drawn(folder: Path, art: Art) -> None:
    del folder  # drawn from system fonts, not shared/tiles
    from hefen.photo import drawn

    for code in drawn.drawable_codes():
        for rgba in drawn.draw_faces(code):
            art.add(code, face_from_rgba(rgba))
        if code.endswith("h"):
            for rgba in drawn.printed_faces(code):
                art.add(code, face_from_rgba(rgba), "printed")


def _load_laid(folder: Path, art: Art) -> None:
    del folder  # drawn from system fonts, not shared/tiles
    from hefen.photo import drawn

    for code in drawn.LAID:
        for rgba in drawn.laid_faces(code):
            art.add(code, face_from_rgba(rgba))


_LOADERS = {
    "samoheen": ("samoheen_hk", _load_samoheen),
    "xhokir": ("xhokir_fluffystuff", _load_xhokir),
    "fonts": ("imahjong_fonts", _load_fonts),
    "symbols": ("", _load_symbol_fonts),
    "drawn": ("", _load_drawn),
    LAID_STYLE: ("", _load_laid),
}


def varied_bonus_art(count: int = 60) -> Art:
    """``count`` faces of each bonus tile whose pictures do not tell it
    (:func:`hefen.photo.drawn.varied_faces`), as the part ``varied`` of a style: what the
    bonus look is trained on beside the styles, so that it reads the number and the
    character that every maker prints."""
    from hefen.photo import drawn

    art = Art()
    for code in BONUS:
        for rgba in drawn.varied_faces(code, count):
            art.add(code, face_from_rgba(rgba), "varied")
    return art


def check_styles(styles: tuple[str, ...] | list[str], tiles_dir: Path | None = None) -> None:
    """Raise ValueError for a style that does not exist, and FileNotFoundError naming what
    to install for one whose artwork or fonts are missing -- without loading anything."""
    from hefen.photo import drawn

    root = tiles_dir or default_tiles_dir()
    for style in styles:  # a name that is no style is said first, whatever is installed
        if style not in _LOADERS:
            names = ", ".join(_LOADERS)
            raise ValueError(f"there is no art style {style!r}; the styles are {names}")
    for style in styles:
        if style == "symbols":
            missing = [str(f) for f in SYMBOL_FONTS if not f.exists()]
        elif style in ("drawn", LAID_STYLE):
            missing = drawn.missing_fonts()
        else:
            folder = root / _LOADERS[style][0]
            missing = [] if folder.is_dir() else [str(folder)]
        if missing:
            hint = f" ({FONTS_INSTALL})" if style in (*FONT_STYLES, LAID_STYLE) else ""
            raise FileNotFoundError(f"the {style} art style needs {', '.join(missing)}{hint}")


def load_art(
    styles: tuple[str, ...] | list[str] = STYLES,
    tiles_dir: Path | None = None,
    weights: dict[str, float] | None = None,
) -> Art:
    """Load the artwork of ``styles`` from ``tiles_dir`` (default: ``shared/tiles``);
    ``weights``: :attr:`Art.weights`."""
    root = tiles_dir or default_tiles_dir()
    check_styles(styles, root)
    art = Art(weights=weights)
    for style in styles:
        folder, loader = _LOADERS[style]
        one = Art()
        loader(root / folder, one)
        art.extend(one, style)
    missing = [c for c in TILE_CODES if c not in art.faces]
    if missing:
        raise FileNotFoundError(f"tile artwork under {root} lacks {', '.join(missing)}")
    return art


# --------------------------------------------------------------------------- drawing


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in about -1..1."""
    small = rng.standard_normal((cells + 2, cells + 2)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / 1.5


def background(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A table surface: ``felt``, ``wood`` or ``light`` (random when ``kind`` is None)."""
    kind = kind or str(rng.choice(["felt", "wood", "light"], p=[0.4, 0.35, 0.25]))
    img: np.ndarray
    if kind == "felt":
        base = np.array(
            [(30, 110, 60), (25, 70, 130), (120, 30, 35), (70, 70, 75), (20, 80, 90)][
                rng.integers(5)
            ],
            np.float32,
        ) * rng.uniform(0.6, 1.3)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img *= 1 + 0.12 * _smooth_noise(rng, h, w, 4)[:, :, None]
        fibre = rng.normal(0, rng.uniform(3, 10), (h, w)).astype(np.float32)
        img += cv2.GaussianBlur(fibre, (0, 0), 0.7)[:, :, None]
    elif kind == "wood":
        base = np.array(
            [(150, 100, 60), (110, 70, 40), (190, 150, 100), (80, 50, 35)][rng.integers(4)],
            np.float32,
        ) * rng.uniform(0.8, 1.15)
        yy = np.arange(h, dtype=np.float32)[:, None] + np.zeros((1, w), np.float32)
        warp = _smooth_noise(rng, h, w, 3) * rng.uniform(5, 40)
        period = rng.uniform(5, 30)
        grain = np.sin(2 * math.pi * (yy + warp) / period)
        grain += 0.5 * np.sin(2 * math.pi * (yy + 1.7 * warp) / (period * 0.37))
        img = base[None, None, :] * (1 + rng.uniform(0.05, 0.15) * grain[:, :, None])
        img += rng.normal(0, 3, (h, w, 1)).astype(np.float32)
        if rng.random() < 0.5:
            img = np.ascontiguousarray(np.transpose(img, (1, 0, 2)))
            img = cv2.resize(img, (w, h))
    else:
        level = rng.uniform(175, 245)
        tint = rng.uniform(-12, 12, 3).astype(np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = level + tint
        img *= 1 + 0.05 * _smooth_noise(rng, h, w, 3)[:, :, None]
        img += rng.normal(0, 2, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255)


class TableBank:
    """Pre-drawn tables to cut backgrounds from, much faster than drawing each one."""

    def __init__(self, rng: np.random.Generator, count: int = 48, size: int = 512) -> None:
        self.size = size
        self.images = [background(rng, size, size) for _ in range(count)]

    def cut(self, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
        img = self.images[rng.integers(len(self.images))]
        if h > self.size or w > self.size:
            f = max(h, w) / self.size
            img = cv2.resize(img, (math.ceil(self.size * f) + 1, math.ceil(self.size * f) + 1))
        y = int(rng.integers(0, img.shape[0] - h + 1))
        x = int(rng.integers(0, img.shape[1] - w + 1))
        return img[y : y + h, x : x + w].copy()


@dataclass
class TileLook:
    """How the tiles of one set are made: body colour, back colour, thickness, shape."""

    body: np.ndarray
    back: np.ndarray
    thickness: float  # side strip seen below the face, as a fraction of the face height
    back_part: float  # fraction of that strip in the back colour
    aspect: float  # face width / height
    ink_scale: float  # symbol size relative to the face
    engraved: bool = False  # faces cut into the body (a shadow along each stroke)
    glare: float = 0.0  # how strong a light's reflection on a face may be (0: matt)
    worn: bool = False  # ink worn or thinly printed: the body shows through

    @staticmethod
    def random(rng: np.random.Generator, real: bool = False) -> TileLook:
        """A random set; with ``real``, also engraved or worn faces and glare (training
        crops: the hand photos of the tests and the bench are drawn as before)."""
        body = np.array([246, 243, 232], np.float32) + rng.uniform(-14, 8, 3).astype(np.float32)
        backs = [(30, 120, 70), (30, 80, 160), (220, 170, 40), (230, 120, 40), (200, 200, 200)]
        back = np.array(backs[rng.integers(len(backs))], np.float32) * rng.uniform(0.7, 1.1)
        look = TileLook(
            body=body,
            back=back,
            thickness=float(rng.choice([0.0, rng.uniform(0.05, 0.35)], p=[0.2, 0.8])),
            back_part=float(rng.uniform(0.3, 0.7)),
            aspect=float(rng.uniform(0.70, 0.80)),
            ink_scale=float(rng.uniform(0.82, 0.98)),
        )
        if real:
            look.engraved = bool(rng.random() < 0.4)
            look.glare = float(rng.choice([0.0, rng.uniform(0.2, 0.8)], p=[0.5, 0.5]))
            look.worn = bool(rng.random() < 0.35)
        return look


def draw_face(rng: np.random.Generator, face: Face, look: TileLook, w: int, h: int) -> np.ndarray:
    """The face of a tile, ``h`` x ``w`` RGB float32, artwork on the body colour."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = look.body
    sw = max(2, round(w * look.ink_scale * rng.uniform(0.95, 1.05)))
    sh = max(2, round(h * look.ink_scale * rng.uniform(0.95, 1.05)))
    if face.labels is not None:
        if rng.random() < 0.4:
            colours = np.repeat(_INKS[rng.integers(len(_INKS))][None], face.n_labels + 1, 0)
        else:
            colours = _INKS[rng.integers(len(_INKS), size=face.n_labels + 1)]
        rgb = colours[face.labels]
    else:
        rgb = face.rgb
        if rng.random() < 0.15:
            rgb = rgb[:, :, rng.permutation(3)]
    rgb = cv2.resize(rgb, (sw, sh), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(face.alpha, (sw, sh), interpolation=cv2.INTER_AREA)[:, :, None]
    x0 = (w - sw) // 2 + int(rng.integers(-1, 2) * w * 0.02)
    y0 = (h - sh) // 2 + int(rng.integers(-1, 2) * h * 0.02)
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(w, x0 + sw), min(h, y0 + sh)
    sub_rgb = rgb[ya - y0 : yb - y0, xa - x0 : xb - x0]
    sub_a = alpha[ya - y0 : yb - y0, xa - x0 : xb - x0]
    if look.worn:  # ink worn or thinly printed: the body shows through
        sub_a = sub_a * rng.uniform(0.6, 0.9)
    img[ya:yb, xa:xb] = img[ya:yb, xa:xb] * (1 - sub_a) + sub_rgb * sub_a
    if look.engraved and yb > ya and xb > xa:
        # an engraved face: the groove's wall catches shadow on one side of each stroke
        a = np.zeros((h, w), np.float32)
        a[ya:yb, xa:xb] = sub_a[:, :, 0]
        dy, dx = (int(v) for v in rng.integers(-1, 2, 2) * max(1, round(h / 60)))
        wall = np.clip(np.roll(a, (dy or 1, dx), (0, 1)) - a, 0, 1)
        img *= (1 - 0.45 * wall)[:, :, None]
    # Slight shading towards the rim, as a real tile face curves away.
    img *= _rim_shade(w, h)
    return img


def draw_back(rng: np.random.Generator, look: TileLook, w: int, h: int) -> np.ndarray:
    """A tile lying face down, seen from above: its back, ``h`` x ``w`` RGB float32, in the
    set's back colour with the slight mottle and sheen of plastic, sometimes a pattern."""
    img = np.empty((h, w, 3), np.float32)
    img[:] = look.back
    img *= (1 + 0.06 * _smooth_noise(rng, h, w, 2))[:, :, None]
    if rng.random() < 0.25:  # a moulded or printed pattern
        ink = look.back * rng.uniform(0.7, 1.25)
        m = round(rng.uniform(0.12, 0.25) * w)
        if rng.random() < 0.5:
            cv2.rectangle(img, (m, m), (w - 1 - m, h - 1 - m), ink.tolist(), max(1, w // 20))
        else:
            cv2.circle(img, (w // 2, h // 2), max(2, w // 2 - m), ink.tolist(), max(1, w // 20))
    img *= _rim_shade(w, h)
    return img


@functools.lru_cache(maxsize=512)
def _rim_shade(w: int, h: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum.reduce([xx, w - 1 - xx, yy, h - 1 - yy]) / max(2.0, 0.08 * w)
    return (0.85 + 0.15 * np.clip(edge, 0, 1))[:, :, None]


@functools.lru_cache(maxsize=512)
def _rounded_mask(w: int, h: int, radius: float) -> np.ndarray:
    scale = 4
    big = np.zeros((h * scale, w * scale), np.uint8)
    r = max(1, int(radius * scale))
    cv2.rectangle(big, (r, 0), (w * scale - 1 - r, h * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w * scale - 1, h * scale - 1 - r), 255, -1)
    for cx, cy in [(r, r), (w * scale - 1 - r, r), (r, h * scale - 1 - r)]:
        cv2.circle(big, (cx, cy), r, 255, -1)
    cv2.circle(big, (w * scale - 1 - r, h * scale - 1 - r), r, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _glare(rng: np.random.Generator, img: np.ndarray, strength: float) -> None:
    """A light's soft reflection on a face: a bright blurred patch, towards white."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    rx, ry = rng.uniform(0.15, 0.6) * w, rng.uniform(0.08, 0.4) * h
    blob = np.exp(-(((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2))
    a = (strength * rng.uniform(0.3, 1.0) * blob)[:, :, None]
    img[:] = img * (1 - a) + 255.0 * a


def draw_tile(
    rng: np.random.Generator,
    face: Face | None,
    look: TileLook,
    w: int,
    h: int,
    turn: int = 0,
    side: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A whole tile seen from the front: face plus the side strip below it; with ``face``
    None, a tile lying face down (its back on top, the ivory face layer below it). With
    ``turn`` 1 or 3, the face is drawn ``h`` wide and ``w`` high and turned a quarter
    (anticlockwise, clockwise) into the ``w`` x ``h`` top: a claimed tile laid sideways;
    ``side`` is the side strip's rows (default: the face height times the thickness).

    Returns (RGB float32, coverage 0..1), both ``h + side`` rows high.
    """
    t = round(h * look.thickness) if side is None else side
    total = h + t
    img = np.empty((total, w, 3), np.float32)
    if face is None:
        img[:h] = draw_back(rng, look, w, h)
    elif turn % 4:
        img[:h] = np.rot90(draw_face(rng, face, look, h, w), turn % 4)
    else:
        img[:h] = draw_face(rng, face, look, w, h)
    if look.glare and rng.random() < 0.6:
        _glare(rng, img[:h], look.glare)
    if t:
        body_rows = max(0, round(t * (1 - look.back_part)))
        if face is None:  # face down: the back's colour first, then the ivory
            back_rows = t - body_rows
            img[h : h + back_rows] = look.back * 0.85
            img[h + back_rows :] = look.body * 0.8
        else:
            img[h : h + body_rows] = look.body * 0.8
            img[h + body_rows :] = look.back * 0.85
    mask = _rounded_mask(w, total, radius=0.09 * w)
    face_mask = _rounded_mask(w, h, radius=0.09 * w)
    # dark seam between face and side
    if t:
        seam = np.zeros((total, w), np.float32)
        seam[:h] = 1 - face_mask
        seam[h:] = 0
        img *= (1 - 0.3 * seam)[:, :, None]
    return img, mask


@dataclass
class Placed:
    """A tile drawn into a photo: its code and its body's corners (tl, tr, br, bl), x/y."""

    code: str
    quad: np.ndarray


@dataclass
class Scene:
    """A flat layout of tiles on a table, before the camera sees it."""

    canvas: np.ndarray  # RGB float32
    tiles: list[Placed]
    groups: list[list[int]]  # indices into tiles
    tile_h: float  # body height (face + side) on the canvas


def layout_scene(
    rng: np.random.Generator,
    art: Art,
    groups: list[list[str]],
    rows: list[list[int]] | None = None,
    face_h: int = 80,
    margin: float = 1.2,
    gap_range: tuple[float, float] = (0.35, 1.2),
    look: TileLook | None = None,
    table: str | None = None,
    tables: TableBank | None = None,
    sideways: set[tuple[int, int]] | None = None,
) -> Scene:
    """Lay ``groups`` of tiles out in ``rows`` (lists of group indices) on a table. The
    tiles ``sideways`` names (group index, index in the group) are laid turned a quarter,
    as a claimed tile in a meld: as wide as an upright tile's face is high, and as high as
    it is wide (plus its side), on the row's bottom line."""
    look = look or TileLook.random(rng)
    rows = rows or [list(range(len(groups)))]
    turned = sideways or set()
    fw = round(face_h * look.aspect)
    side = round(face_h * look.thickness)
    th = face_h + side
    shadow_dx, shadow_dy = rng.uniform(-0.08, 0.08) * th, rng.uniform(0.0, 0.1) * th
    positions: list[tuple[int, int, str, int, int]] = []  # x, y, code, group, turn
    y = margin * th
    row_widths = []
    row_bottom = y
    for row in rows:
        x = margin * th
        for k, gi in enumerate(row):
            if k:
                x += rng.uniform(*gap_range) * fw
            for j, code in enumerate(groups[gi]):
                if j:
                    x += rng.uniform(0.0, 0.04) * fw
                if (gi, j) in turned:
                    turn = 1 if rng.random() < 0.5 else 3
                    positions.append((round(x), round(y) + th - (fw + side), code, gi, turn))
                    x += face_h
                else:
                    positions.append((round(x), round(y), code, gi, 0))
                    x += fw
        row_widths.append(x)
        row_bottom = y + th
        y += th + rng.uniform(0.4, 1.0) * th
    width = round(max(row_widths) + margin * th)
    height = round(row_bottom + margin * th)
    if tables is not None and table is None:
        canvas = tables.cut(rng, height, width)
    else:
        canvas = background(rng, height, width, table)
    shadow: np.ndarray = np.zeros((height, width), np.float32)
    for x, y0, _, _, turn in positions:
        tw, tt = (face_h, fw + side) if turn else (fw, th)
        sx, sy = round(x + shadow_dx), round(y0 + shadow_dy)
        shadow[max(0, sy) : sy + tt, max(0, sx) : sx + tw] = 1
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.06 * th))
    canvas *= (1 - rng.uniform(0.2, 0.5) * shadow)[:, :, None]
    placed: list[Placed] = []
    group_members: list[list[int]] = [[] for _ in groups]
    for x, y0, code, gi, turn in positions:
        if turn:
            tw, tt = face_h, fw + side
            img, mask = draw_tile(rng, art.pick(rng, code), look, face_h, fw, turn, side)
        else:
            tw, tt = fw, th
            img, mask = draw_tile(rng, art.pick(rng, code), look, fw, face_h)
        region = canvas[y0 : y0 + tt, x : x + tw]
        m = mask[:, :, None]
        region[:] = region * (1 - m) + img * m
        quad = np.array([[x, y0], [x + tw, y0], [x + tw, y0 + tt], [x, y0 + tt]], np.float32)
        group_members[gi].append(len(placed))
        placed.append(Placed(code, quad))
    return Scene(canvas=canvas, tiles=placed, groups=group_members, tile_h=th)


def _camera(
    rng: np.random.Generator,
    w: int,
    h: int,
    scale: float,
    max_rotation: float,
    max_tilt: float,
) -> np.ndarray:
    """A homography: rotate about the centre, scale, and tilt by moving the corners."""
    angle = math.radians(rng.uniform(-max_rotation, max_rotation))
    c, s = math.cos(angle) * scale, math.sin(angle) * scale
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    # keystone: the far (top) edge shorter than the near one, plus a random wobble
    keystone = rng.uniform(0, max_tilt) * w
    dst = src.copy()
    dst[0, 0] += keystone
    dst[1, 0] -= keystone
    dst += rng.uniform(-max_tilt * 0.4, max_tilt * 0.4, (4, 2)).astype(np.float32) * [w, h]
    tilt = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
    return rot @ tilt


def _apply(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), hom).reshape(-1, 2)


def degrade(
    rng: np.random.Generator, img: np.ndarray, strength: float = 1.0, real: bool = False
) -> np.ndarray:
    """Light, blur, noise and JPEG loss; float RGB in, uint8 RGB out. With ``real``
    (training crops) also white balance off, a short motion streak and a phone sensor's
    noise; without it the hand photos of the tests and the bench are drawn as before."""
    h, w = img.shape[:2]
    gain = rng.uniform(0.55, 1.25)
    grad = 1 + strength * 0.25 * _smooth_noise(rng, h, w, 2)
    tint = 1 + rng.uniform(-0.08, 0.08, 3).astype(np.float32) * strength
    if real and rng.random() < 0.4:  # white balance off: warm indoor light or a cool cast
        warm = rng.uniform(-0.18, 0.18) * strength
        tint = tint * np.array([1 + warm, 1.0, 1 - warm], np.float32)
    img = img * (gain * grad)[:, :, None] * tint
    sigma = rng.uniform(0, 1.0) * strength
    if real and rng.random() < 0.15 * strength:  # a hand that moved: a short streak
        length = int(rng.integers(3, 8))
        line = np.zeros((length, length), np.float32)
        line[length // 2] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        streak = np.asarray(cv2.warpAffine(line, rot, (length, length)), np.float32)
        img = cv2.filter2D(img, -1, streak / max(float(streak.sum()), 1e-6))
    elif sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if not real:
        img += rng.standard_normal(img.shape, dtype=np.float32) * (rng.uniform(0, 7) * strength)
    elif rng.random() < 0.5:
        # a sensor's noise: stronger in the light (shot noise), partly in colour, and
        # smoothed a little by the phone's own denoising
        noise = rng.uniform(0, 7) * strength
        shot = np.sqrt(np.clip(img, 0, 255) / 255.0) * noise * 1.4
        grain = rng.standard_normal((h, w, 1), dtype=np.float32) + 0.5 * rng.standard_normal(
            img.shape, dtype=np.float32
        )
        img += cv2.GaussianBlur(grain, (0, 0), 0.6).reshape(img.shape[:2] + (-1,)) * shot
    else:
        img += rng.standard_normal(img.shape, dtype=np.float32) * (rng.uniform(0, 7) * strength)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.8:
        quality = int(rng.integers(35, 95))
        ok, buf = cv2.imencode(".jpg", out[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
            if decoded is not None:
                out = decoded[:, :, ::-1]
    return np.ascontiguousarray(out)


# --------------------------------------------------------------------------- products


@dataclass
class HandPhoto:
    """A synthetic photo and what is in it."""

    image: np.ndarray  # RGB uint8
    groups: list[list[str]]
    quads: list[list[np.ndarray]]  # per group, per tile: 4 x 2 corners in the image

    @property
    def tiles(self) -> list[str]:
        return [t for g in self.groups for t in g]

    def jpeg(self, quality: int = 90) -> bytes:
        buf = io.BytesIO()
        Image.fromarray(self.image).save(buf, format="JPEG", quality=quality)
        return buf.getvalue()


def random_hand(rng: np.random.Generator) -> tuple[list[list[str]], list[list[int]]]:
    """A plausible hand: concealed tiles, 0-4 exposed melds, 0-4 flowers; and its rows."""
    counts = {c: copies_allowed(c) for c in TILE_CODES}

    def take(code: str) -> bool:
        if counts[code] <= 0:
            return False
        counts[code] -= 1
        return True

    melds: list[list[str]] = []
    n_melds = int(rng.choice([0, 1, 2, 3, 4], p=[0.35, 0.25, 0.2, 0.12, 0.08]))
    for _ in range(n_melds):
        for _attempt in range(20):
            if rng.random() < 0.45:
                suit = "mps"[rng.integers(3)]
                start = int(rng.integers(1, 8))
                meld = [f"{start + i}{suit}" for i in range(3)]
            else:
                code = str(rng.choice(SUITED + HONORS))
                meld = [code] * (4 if rng.random() < 0.15 else 3)
            if all(counts[c] >= meld.count(c) for c in set(meld)):
                for c in meld:
                    take(c)
                melds.append(meld)
                break
    concealed_n = 14 - 3 * len(melds)
    concealed: list[str] = []
    pool = list(SUITED + HONORS)
    while len(concealed) < concealed_n:
        code = pool[rng.integers(len(pool))]
        if take(code):
            concealed.append(code)
    order = {c: i for i, c in enumerate(TILE_CODES)}
    concealed.sort(key=order.__getitem__)
    n_flowers = int(rng.choice([0, 1, 2, 3, 4], p=[0.4, 0.25, 0.15, 0.1, 0.1]))
    flowers = sorted(
        rng.choice(BONUS, size=n_flowers, replace=False).tolist(), key=lambda c: order[c]
    )
    groups = [concealed] + melds + ([flowers] if flowers else [])
    return groups, random_rows(rng, len(groups))


def claimed_hand(
    rng: np.random.Generator,
) -> tuple[list[list[str]], list[list[int]], set[tuple[int, int]], list[dict[str, object]]]:
    """A hand (:func:`random_hand`) with at least one exposed meld, one tile of every meld
    laid sideways at a random place (:func:`hand_photo`'s ``sideways``: group, place); and
    those melds as a reading of the photo gives them (kind, tiles in order, exposed)."""
    from hefen.photo.hand import meld_kind  # the core says what each meld is
    from hefen.tiles import tile_from_str

    while True:
        groups, rows = random_hand(rng)
        melds = [g for g in range(1, len(groups)) if not groups[g][0].endswith("h")]
        if melds:
            break
    turned = {(g, int(rng.integers(len(groups[g])))) for g in melds}
    exposed: list[dict[str, object]] = [
        {
            "kind": meld_kind(groups[g]),
            "tiles": sorted(groups[g], key=tile_from_str),
            "concealed": False,
        }
        for g in melds
    ]
    return groups, rows, turned, exposed


def random_rows(rng: np.random.Generator | random.Random, groups: int) -> list[list[int]]:
    """How a player lays out ``groups`` groups, the concealed row first: all in one row, or
    (a third of the time, when there are others) the others in a second row."""
    if groups > 1 and rng.random() < 0.35:
        return [[0], list(range(1, groups))]
    return [list(range(groups))]


def hand_photo(
    rng: np.random.Generator,
    art: Art,
    groups: list[list[str]] | None = None,
    rows: list[list[int]] | None = None,
    long_side: tuple[int, int] = (900, 1600),
    max_rotation: float = 12.0,
    max_tilt: float = 0.06,
    table: str | None = None,
    sideways: set[tuple[int, int]] | None = None,
) -> HandPhoto:
    """A photo of a hand (random unless ``groups`` given), with every tile's corners; the
    tiles ``sideways`` names (group index, index in the group) lie turned a quarter."""
    if groups is None:
        groups, rows = random_hand(rng)
    scene = layout_scene(
        rng,
        art,
        groups,
        rows,
        face_h=int(rng.integers(70, 110)),
        margin=2.5,
        gap_range=(0.5, 1.4),
        table=table,
        sideways=sideways,
    )
    h, w = scene.canvas.shape[:2]
    target = rng.uniform(*long_side)
    all_pts = np.concatenate([t.quad for t in scene.tiles])
    x0, y0 = all_pts.min(0)
    x1, y1 = all_pts.max(0)
    # Scale so the tiles and a margin fill the photo's long side.
    margin = rng.uniform(0.3, 1.0) * scene.tile_h
    span = max(x1 - x0, y1 - y0) + 2 * margin
    hom = _camera(rng, w, h, target / span, max_rotation, max_tilt)
    pts = _apply(hom, all_pts)
    lo = pts.min(0) - margin * target / span
    hi = pts.max(0) + margin * target / span
    shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1]], np.float64)
    hom = shift @ hom
    size = (int(hi[0] - lo[0]), int(hi[1] - lo[1]))
    img = cv2.warpPerspective(
        scene.canvas, hom, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT
    )
    img = degrade(rng, img, strength=0.7)
    quads = [[_apply(hom, scene.tiles[i].quad).astype(np.float32) for i in g] for g in scene.groups]
    return HandPhoto(image=img, groups=[list(g) for g in groups], quads=quads)


def _table_strip(rows: np.ndarray, height: int) -> np.ndarray:
    """``rows`` of bare table mirrored back and forth until ``height`` rows."""
    out = rows
    while len(out) < height:
        out = np.concatenate([out, out[::-1]])
    return out[:height]


def _square_things(rng: np.random.Generator, img: np.ndarray, top: int, bottom: int) -> None:
    """One to three things drawn square to the photo on the table between rows ``top``
    and ``bottom``: a sheet with lines of writing, a printed label, a box, a cup seen
    from above, a phone."""
    w = img.shape[1]
    for _ in range(int(rng.integers(1, 4))):
        bw, bh = int(rng.integers(60, 360)), int(rng.integers(50, 260))
        if bottom - top - bh < 10 or w - bw < 10:
            continue
        x, y = int(rng.integers(0, w - bw)), int(rng.integers(top, bottom - bh))
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        kind = int(rng.integers(5))
        if kind == 0:
            cv2.rectangle(img, (x, y), (x + bw, y + bh), (235, 235, 230), -1)
            for line in range(y + 10, y + bh - 5, 14):
                end = x + bw - 8 - int(rng.integers(0, 40))
                cv2.line(img, (x + 8, line), (end, line), (40, 40, 40), 2)
        elif kind == 1:
            cv2.rectangle(img, (x, y), (x + bw, y + bh), (245, 245, 240), -1)
            for k in range(int(rng.integers(2, 8))):
                text = "".join(rng.choice(list("ABCDEFGH1234567"), 4))
                cv2.putText(img, text, (x + 5, y + 25 + 25 * k), 0, 0.8, (20, 20, 120), 2)
        elif kind == 2:
            cv2.rectangle(img, (x, y), (x + bw, y + bh), colour, -1)
        elif kind == 3:
            centre, axes = (x + bw // 2, y + bh // 2), (bw // 2, bh // 2)
            cv2.ellipse(img, centre, axes, 0, 0, 360, colour, -1)
        else:
            cv2.rectangle(img, (x, y), (x + bw, y + bh), (20, 20, 25), -1)
            screen = tuple(int(c) for c in rng.integers(80, 256, 3))
            cv2.rectangle(img, (x + 8, y + 8), (x + bw - 8, y + bh - 8), screen, -1)


def cluttered_photo(rng: np.random.Generator, art: Art) -> HandPhoto:
    """A hand photo (:func:`hand_photo`) with things beside the tiles: the photo's own
    bare table mirrored out above and below the hand to twice its height, and on it,
    above and below, one to three things that are not tiles (``bench/photo_accuracy.py``'s
    cluttered hand photos)."""
    photo = hand_photo(rng, art)
    img = photo.image
    ys = np.concatenate([q[:, 1] for g in photo.quads for q in g])
    lo, hi = max(2, int(ys.min()) - 2), min(img.shape[0] - 2, int(ys.max()) + 2)
    pad = img.shape[0] // 2
    above = _table_strip(img[:lo][::-1], pad + lo)[::-1]
    below = _table_strip(img[hi:], pad + img.shape[0] - hi)
    img = np.ascontiguousarray(np.concatenate([above, img[lo:hi], below]))
    _square_things(rng, img, 0, pad + lo - 10)
    _square_things(rng, img, pad + hi + 10, img.shape[0])
    shift = np.array([0.0, float(pad)], np.float32)
    quads = [[q + shift for q in g] for g in photo.quads]
    return HandPhoto(image=img, groups=photo.groups, quads=quads)


#: The things drawn on a table beside the tiles, as *not a tile* training cuts.
THINGS: tuple[str, ...] = ("box", "phone", "card", "chip", "hand", "paper", "cup")
_SKIN = ((224, 172, 140), (198, 134, 98), (141, 85, 54), (241, 194, 160), (170, 110, 80))


def draw_thing(
    rng: np.random.Generator,
    canvas: np.ndarray,
    box: tuple[float, float, float, float],
    kind: str | None = None,
) -> str:
    """Draw something that is not a tile -- a box, a phone, a playing card, a chip, a hand,
    a sheet of paper or a cup (:data:`THINGS`) -- into ``box`` (x0, y0, x1, y1) of
    ``canvas`` (RGB float32, drawn in place, nothing outside the box); returns its kind."""
    kind = kind or str(THINGS[rng.integers(len(THINGS))])
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = max(4, x1 - x0), max(4, y1 - y0)
    x1, y1 = x0 + w, y0 + h
    before = canvas.copy()
    colour = rng.uniform(20, 250, 3).tolist()
    line = max(1, round(min(w, h) / 30))

    def text(x: int, y: int, size: float, ink: list[float], chars: str, count: int) -> None:
        word = "".join(str(c) for c in rng.choice(list(chars), count))
        mask = np.zeros(canvas.shape[:2], np.uint8)  # putText draws on 8 bits only
        font = int(rng.integers(0, 8))
        cv2.putText(mask, word, (x, y), font, max(0.2, size), 255, max(1, line), cv2.LINE_AA)
        a = (mask.astype(np.float32) / 255.0)[:, :, None]
        canvas[:] = canvas * (1 - a) + np.array(ink, np.float32) * a

    if kind == "box":
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, -1)
        lit = [min(255.0, c * 1.25 + 20) for c in colour]
        cv2.rectangle(canvas, (x0, y0), (x1, y0 + h // 6), lit, -1)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), [c * 0.6 for c in colour], line)
        if rng.random() < 0.6:
            ink = rng.uniform(0, 255, 3).tolist()
            text(x0 + w // 8, y0 + h // 2, min(w, h) / 60, ink, "ABCDEFGHKMRST", 5)
    elif kind == "phone":
        r = max(2, round(0.1 * min(w, h)))
        cv2.rectangle(canvas, (x0 + r, y0), (x1 - r, y1), (18, 18, 22), -1)
        cv2.rectangle(canvas, (x0, y0 + r), (x1, y1 - r), (18, 18, 22), -1)
        m = max(2, round(0.06 * min(w, h)))
        cv2.rectangle(canvas, (x0 + m, y0 + m), (x1 - m, y1 - m), colour, -1)
        if rng.random() < 0.7:  # icons on the screen
            n = int(rng.integers(3, 6))
            step = (w - 2 * m) / n
            for i in range(n):
                for j in range(int((h - 2 * m) / step)):
                    c0 = rng.uniform(0, 255, 3).tolist()
                    px, py = (
                        x0 + m + round(i * step + step * 0.2),
                        y0 + m + round(j * step + step * 0.2),
                    )
                    cv2.rectangle(
                        canvas, (px, py), (px + round(step * 0.6), py + round(step * 0.6)), c0, -1
                    )
    elif kind == "card":
        cv2.rectangle(canvas, (x0, y0), (x1, y1), (240, 240, 236), -1)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), (150, 150, 150), 1)
        ink = [200.0, 20.0, 30.0] if rng.random() < 0.5 else [20.0, 20.0, 20.0]
        text(x0 + w // 12, y0 + h // 6, min(w, h) / 90, ink, "A2345678910JQK", 1)
        cx, cy, rr = (x0 + x1) // 2, (y0 + y1) // 2, max(2, min(w, h) // 5)
        if rng.random() < 0.5:
            cv2.circle(canvas, (cx, cy), rr, ink, -1)
        else:
            pts = np.array([[cx, cy - rr], [cx + rr, cy], [cx, cy + rr], [cx - rr, cy]], np.int32)
            cv2.fillPoly(canvas, [pts], ink)
    elif kind == "chip":
        cx, cy, rr = (x0 + x1) // 2, (y0 + y1) // 2, max(3, min(w, h) // 2)
        cv2.circle(canvas, (cx, cy), rr, colour, -1)
        for k in range(8):
            a = 2 * math.pi * k / 8
            p0 = (round(cx + 0.75 * rr * math.cos(a)), round(cy + 0.75 * rr * math.sin(a)))
            p1 = (round(cx + rr * math.cos(a)), round(cy + rr * math.sin(a)))
            cv2.line(canvas, p0, p1, (245, 245, 245), max(2, rr // 5))
        cv2.circle(canvas, (cx, cy), max(2, rr // 2), [c * 0.8 for c in colour], line)
    elif kind == "hand":
        f = rng.uniform(0.8, 1.1)
        skin = [float(v) * f for v in _SKIN[rng.integers(len(_SKIN))]]
        palm = (x0 + w // 2, y0 + round(h * 0.7))
        cv2.ellipse(canvas, palm, (w // 3, h // 4), 0, 0, 360, skin, -1)
        for k in range(4):
            fx = x0 + round(w * (0.25 + 0.17 * k))
            top = y0 + round(h * rng.uniform(0.0, 0.25))
            cv2.line(canvas, (fx, palm[1]), (fx, top), skin, max(2, w // 9))
        cv2.line(canvas, palm, (x0 + round(w * 0.05), y0 + round(h * 0.5)), skin, max(2, w // 8))
    elif kind == "paper":
        cv2.rectangle(canvas, (x0, y0), (x1, y1), (238, 238, 232), -1)
        ink = [40.0, 40.0, 40.0] if rng.random() < 0.6 else [30.0, 40.0, 150.0]
        step = max(4, round(h / rng.uniform(3, 9)))
        for ly in range(y0 + step, y1 - step // 2, step):
            if rng.random() < 0.5:
                cv2.line(
                    canvas,
                    (x0 + w // 10, ly),
                    (x1 - int(rng.integers(w // 10, w // 3 + 1)), ly),
                    ink,
                    line,
                )
            else:
                text(x0 + w // 10, ly, step / 40, ink, "abcdefghijklmnop0123456789", 6)
    else:  # a cup seen from above
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        cv2.ellipse(canvas, (cx, cy), (w // 2, h // 2), 0, 0, 360, colour, -1)
        inside = [60.0, 35.0, 20.0] if rng.random() < 0.6 else [c * 0.5 for c in colour]
        cv2.ellipse(canvas, (cx, cy), (round(w * 0.4), round(h * 0.4)), 0, 0, 360, inside, -1)
    ya, yb, xa, xb = max(0, y0), max(0, y1 + 1), max(0, x0), max(0, x1 + 1)
    before[ya:yb, xa:xb] = canvas[ya:yb, xa:xb]
    canvas[:] = before
    return kind


def tile_crop(
    rng: np.random.Generator,
    art: Art,
    code: str | None = None,
    tables: TableBank | None = None,
    real: bool = True,
) -> np.ndarray:
    """A ``CROP_H`` x ``CROP_W`` grey crop as the recogniser cuts it from a photo.

    With ``code`` a tile code (or :data:`~hefen.photo.classes.BACK`), the crop shows that
    tile (with the jitter of a real cut); with ``code`` None it is a bad cut -- across two
    tiles, half a tile, two tiles, table, or a thing on the table (:func:`draw_thing`) --
    the classifier's "not a tile" class. A tile's neighbours are now and then face down.

    With ``real`` False the crop is drawn as before #19's synthesis (the same
    random draws for the same seed): no face-down neighbours, no glare, engraved or worn
    faces, no real-camera effects, no things on the table -- the crops on which the
    figures recorded before it were measured, so that a model can be compared with them.
    """
    target = code or str(rng.choice(TILE_CODES))
    neighbours = TILE_CODES + (BACK,) * 4 if real else TILE_CODES
    left, right = (str(c) for c in rng.choice(neighbours, 2))
    groups: list[list[str]] = [[left]]
    if rng.random() < 0.2:
        groups.append([target])
    else:
        groups[0].append(target)
    if rng.random() < 0.2:
        groups.append([right])
    else:
        groups[-1].append(right)
    scene = layout_scene(
        rng,
        art,
        groups,
        face_h=64,
        margin=0.8,
        gap_range=(0.3, 1.0),
        tables=tables,
        look=TileLook.random(rng, real=real),
    )
    body = scene.tiles[1].quad.astype(np.float64).copy()
    bw = body[1, 0] - body[0, 0]
    bh = body[3, 1] - body[0, 1]
    # the cut the recogniser would make, with its jitter
    cut = body.copy()
    cut[[0, 3], 0] += rng.normal(0, 0.05) * bw
    cut[[1, 2], 0] += rng.normal(0, 0.05) * bw
    cut[[0, 1], 1] += rng.normal(0, 0.04) * bh
    cut[[2, 3], 1] += rng.normal(0, 0.04) * bh
    if rng.random() < 0.4:  # the coloured back was not taken for tile: cut at the face
        face_bottom = body[0, 1] + 64
        cut[[2, 3], 1] -= rng.uniform(0, 1) * (body[2, 1] - face_bottom)
    if rng.random() < 0.3:  # shadow or table below the tiles taken for tile
        cut[[2, 3], 1] += rng.uniform(0, 0.35) * bh
    if rng.random() < 0.15:
        cut[[0, 1], 1] -= rng.uniform(0, 0.15) * bh
    if code is None:
        kind = rng.integers(5 if real else 4)
        if kind == 4:  # a thing on the table where the cut is, over the tiles or beside them
            if rng.random() < 0.5:  # beside or below the tiles
                cut[:, 1] += rng.choice([-1, 1]) * rng.uniform(1.1, 1.6) * bh
            c0, c1 = cut.min(0), cut.max(0)
            size = c1 - c0
            grow = rng.uniform(0.6, 2.5, 2) * size
            centre = (c0 + c1) / 2 + rng.uniform(-0.3, 0.3, 2) * size
            draw_thing(rng, scene.canvas, (*(centre - grow / 2), *(centre + grow / 2)))
        elif kind == 0:  # across two tiles
            cut[:, 0] += rng.choice([-1, 1]) * rng.uniform(0.3, 0.7) * bw
        elif kind == 1:  # half a tile
            if rng.integers(2):
                cut[[1, 2], 0] -= rng.uniform(0.35, 0.6) * bw
            else:
                cut[[0, 3], 0] += rng.uniform(0.35, 0.6) * bw
        elif kind == 2:  # two tiles as one
            cut[[1, 2], 0] += rng.uniform(0.8, 1.2) * bw
        elif kind == 3:  # table beside or below the tiles
            cut[:, 1] += rng.choice([-1, 1]) * rng.uniform(1.1, 1.6) * bh
    h, w = scene.canvas.shape[:2]
    tile_px = rng.uniform(30, 100)  # tile body height in the photo
    hom = _camera(rng, w, h, tile_px / scene.tile_h, 20.0, 0.05)
    around = _apply(hom, np.concatenate([body, cut]).astype(np.float32))
    lo = around.min(0) - 0.3 * tile_px
    hi = around.max(0) + 0.3 * tile_px
    shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1]], np.float64)
    hom = shift @ hom
    size = (int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1)
    flags = cv2.INTER_AREA if tile_px < scene.tile_h else cv2.INTER_LINEAR
    img = cv2.warpPerspective(scene.canvas, hom, size, flags=flags, borderMode=cv2.BORDER_REFLECT)
    img = degrade(rng, img, real=real)
    cut_img = _apply(hom, cut.astype(np.float32)).astype(np.float32)
    dst = np.array([[0, 0], [CROP_W, 0], [CROP_W, CROP_H], [0, CROP_H]], np.float32)
    m = cv2.getPerspectiveTransform(cut_img, dst)
    crop = cv2.warpPerspective(
        img, m, (CROP_W, CROP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY)


def tile_photo(rng: np.random.Generator, art: Art, code: str) -> np.ndarray:
    """A photograph of one tile, as people take them and shops show them (RGB ``uint8``):
    :func:`tile_photo_at` without the tile's corners."""
    return tile_photo_at(rng, art, code)[0]


def tile_photo_at(rng: np.random.Generator, art: Art, code: str) -> tuple[np.ndarray, np.ndarray]:
    """A photograph of one tile, as people take them and shops show them (RGB ``uint8``),
    and where the tile's body is in it: its corners (the tile's own top left, top right,
    bottom right, bottom left; float32 4 x 2, in the photo's pixels, possibly outside it
    where the photo is cropped to the face).

    The tile is seen from the front, standing (its side strip below the face), from
    straight above, or at three quarters (a side strip beside the face as well); it lies
    on a table or a plain studio ground (white, grey or black), fills a third to nine
    tenths of the picture's height in a square, landscape or portrait frame, turned a
    little, a quarter or (rarely) upside down, with a soft shadow (or, one in five, cropped
    to the tile or to its face, as a shop shows it), and the light, colour
    cast, blur, sensor noise and JPEG loss of :func:`degrade`'s real-camera effects. This is
    what ``hefen recognize --tile`` is given; the bench reads such photos of styles the
    model has never seen (``bench/photo_accuracy.py --tile-photos``).
    """
    look = TileLook.random(rng, real=True)
    face_h = int(rng.integers(120, 220))
    fw = round(face_h * look.aspect)
    view = str(rng.choice(["front", "flat", "three-quarter"], p=[0.4, 0.3, 0.3]))
    side = 0 if view == "flat" else round(face_h * rng.uniform(0.06, 0.3))
    if view == "flat" and rng.random() < 0.5:
        side = round(face_h * rng.uniform(0.02, 0.06))
    tile, mask = draw_tile(rng, art.pick(rng, code), look, fw, face_h, side=side)
    if view == "three-quarter":  # the tile's side beside the face: ivory, then its back
        sw = round(fw * rng.uniform(0.08, 0.25))
        h = tile.shape[0]
        strip = np.empty((h, sw, 3), np.float32)
        cut = round(sw * (1 - look.back_part))
        strip[:, :cut] = look.body * 0.72
        strip[:, cut:] = look.back * 0.78
        right = rng.random() < 0.5
        if not right:
            strip = strip[:, ::-1]
        smask = _rounded_mask(sw + 4, h, radius=0.09 * fw)[:, 2 : sw + 2]
        tile = np.concatenate([tile, strip] if right else [strip, tile], axis=1)
        mask = np.concatenate([mask, smask] if right else [smask, mask], axis=1)
    th, tw = tile.shape[:2]
    # the frame: the tile fills `fill` of its height, somewhere in it; the ground is drawn
    # larger and the frame cut from it after the camera's turn, so no edge shows
    frame_aspect = float(rng.choice([1.0, 4 / 3, 3 / 4, 16 / 9]))
    fill = rng.uniform(0.33, 0.9)
    fh = round(th / fill)
    fwid = max(round(fh * frame_aspect), round(tw * 1.15))
    ch, cw = 2 * fh + th, 2 * fwid + tw
    if rng.random() < 0.45:  # a studio ground: white, grey or black, lit unevenly
        level = float(
            rng.choice([rng.uniform(225, 255), rng.uniform(120, 200), rng.uniform(10, 50)])
        )
        canvas = np.empty((ch, cw, 3), np.float32)
        canvas[:] = level + rng.uniform(-6, 6, 3).astype(np.float32)
        canvas *= 1 + 0.08 * _smooth_noise(rng, ch, cw, 2)[:, :, None]
    else:
        canvas = background(rng, ch, cw)
    x, y = (cw - tw) // 2, (ch - th) // 2
    shadow = np.zeros((ch, cw), np.float32)
    dx, dy = (round(v * th) for v in rng.uniform(-0.06, 0.08, 2))
    shadow[y + dy : y + dy + th, x + dx : x + dx + tw] = 1
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.05 * th))
    canvas *= (1 - rng.uniform(0.15, 0.5) * shadow)[:, :, None]
    region = canvas[y : y + th, x : x + tw]
    m = mask[:, :, None]
    region[:] = region * (1 - m) + tile * m
    quad = np.array([[x, y], [x + tw, y], [x + tw, y + th], [x, y + th]], np.float32)
    turn = int(rng.choice([0, 1, 2, 3], p=[0.86, 0.06, 0.02, 0.06]))
    for _ in range(turn):  # a quarter anticlockwise each time
        canvas = np.ascontiguousarray(np.rot90(canvas))
        quad = np.stack([quad[:, 1], cw - quad[:, 0]], axis=1)
        ch, cw = cw, ch
        fh, fwid = fwid, fh
    hom = _camera(rng, cw, ch, 1.0, 8.0, 0.05)
    img = cv2.warpPerspective(
        canvas, hom, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    pts = _apply(hom, quad)
    lo, hi = pts.min(0), pts.max(0)
    if rng.random() < 0.2:  # cropped to the tile: a shop's picture, a scan of the face
        size = hi - lo
        a = lo + rng.uniform(-0.08, 0.04, 2) * size
        b = hi + rng.uniform(-0.04, 0.08, 2) * size
        if rng.random() < 0.5:  # the face alone, without the side strip below it
            b[1] = lo[1] + (b[1] - lo[1]) * face_h / th
        x0, y0 = (max(0, int(v)) for v in a)
        img = img[y0 : max(y0 + 8, int(b[1])), x0 : max(x0 + 8, int(b[0]))]
    else:  # the frame holds the whole tile, at a random place
        # (where the camera's tilt made the tile larger than the frame, the frame starts
        # at most at the tile's edge, and grows to hold it below)
        last_x, last_y = max(0.0, min(lo[0], cw - fwid)), max(0.0, min(lo[1], ch - fh))
        x0 = rng.uniform(min(max(0.0, hi[0] - fwid), last_x), last_x + 1e-3)
        y0 = rng.uniform(min(max(0.0, hi[1] - fh), last_y), last_y + 1e-3)
        x0, y0 = int(min(x0, lo[0])), int(min(y0, lo[1]))
        img = img[y0 : y0 + max(fh, int(hi[1] - y0) + 1), x0 : x0 + max(fwid, int(hi[0] - x0) + 1)]
    long_side = rng.uniform(300, 1200)
    f = long_side / max(img.shape[:2])
    size = (max(8, round(img.shape[1] * f)), max(8, round(img.shape[0] * f)))
    img = cv2.resize(img, size, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    corners = ((pts - np.array([x0, y0], np.float32)) * f).astype(np.float32)
    return degrade(rng, img, real=True), corners


def clean_tile(
    rng: np.random.Generator, art: Art, code: str, size: tuple[int, int] = (120, 160)
) -> np.ndarray:
    """A straight, well-lit picture of one tile on a table (for single-tile classification)."""
    scene = layout_scene(rng, art, [[code]], face_h=size[1], margin=0.15, table="felt")
    img = np.clip(scene.canvas, 0, 255).astype(np.uint8)
    return img
