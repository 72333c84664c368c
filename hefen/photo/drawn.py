"""The ``drawn`` art style: tile faces composed from Chinese fonts and simple geometry.

The three artworks in ``shared/tiles`` are three ways of drawing each tile; a classifier that
has seen only those learns their particular strokes. This style draws many more: the
characters, winds and dragons are set in several Chinese typefaces (Kai, Ming, Hei), the
circles and bamboos are laid out in the usual arrangements with rings and sticks of random
design, and the flowers and seasons carry their numeral and their character -- so that what the model learns is what identifies a
tile on any set: the numeral and the character, the count and arrangement of the pips.
Western-style corner indices (``5``, ``E``, ``C``) are added to some faces.

The fonts are Debian packages, read in place (see ``NOTICE``)::

    apt-get install fonts-arphic-ukai fonts-arphic-uming fonts-wqy-microhei \
        fonts-arphic-bkai00mp fonts-arphic-bsmi00lp fonts-dejavu-core \
        fonts-cns11643-kai fonts-cns11643-sung fonts-aoyagi-kouzan-t \
        fonts-ipaexfont-mincho fonts-hanazono fonts-wqy-zenhei

The flowers (plum, orchid, chrysanthemum, bamboo) are drawn as their plant, as most sets
do; the seasons' pictures differ from set to set, so theirs is a plant of no kind. As many
more faces of each flower and season are *printed* (:data:`PRINTED`): what every maker
prints on them, whatever its picture -- the season's or plant's character (春夏秋冬,
梅蘭菊竹) large, in any of the typefaces, its number (1-4 or 一-四) in a corner, often in a
ring, in one colour family or two, sometimes with a small sprig -- so that a set's flowers
are read by their text, not by one artist's picture. The 1 of
bamboos (a bird) has no drawn face; every other tile has :data:`VARIANTS` faces,
made from a fixed seed so that the style is the same on every machine with the same fonts.

A style of its own, ``laid`` (:func:`laid_faces`), draws what this style does not: the
1 of bamboos as a bird of random build and pose, and the suit tiles that makers lay out
more than one way in their other arrangements (a 6 of bamboos in two columns of three, an
8 whose sticks all lean, pips crowded until they touch, waisted sticks). The sharp look is
trained with it (``docs/photo.md``); the tile model, trained before it, is not.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from hefen.photo.classes import HONORS, TILE_CODES

#: Chinese fonts: (path, face index in a collection).
CJK_FONTS: tuple[tuple[str, int], ...] = (
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf", 0),
    ("/usr/share/fonts/truetype/arphic-bsmi00lp/bsmi00lp.ttf", 0),
    # more hands, as makers vary: Taiwan's standard Kai and Sung (fonts-cns11643-kai,
    # -sung), a brush face (fonts-aoyagi-kouzan-t), two Mincho (fonts-ipaexfont-mincho,
    # fonts-hanazono) and a bold Hei (fonts-wqy-zenhei)
    ("/usr/share/fonts/truetype/cns11643/TW-Kai-98_1.ttf", 0),
    ("/usr/share/fonts/truetype/cns11643/TW-Sung-98_1.ttf", 0),
    ("/usr/share/fonts/truetype/aoyagi-kouzan-t/AoyagiKouzanT.ttf", 0),
    ("/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf", 0),
    ("/usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
)
#: Latin fonts for corner indices.
LATIN_FONTS: tuple[str, ...] = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
VARIANTS = 10
#: Printed faces (character and number, :func:`_printed_bonus`) of each bonus tile, beside
#: its :data:`VARIANTS` drawn ones.
PRINTED = 14
SEED = 20_261_201
W, H = 150, 200  # the face canvas; the artwork is scaled to the tile later

_NUMERALS = "一二三四五六七八九"
_NUMERALS_FORMAL = "一二三四伍六七八九"
_WINDS = {"E": "東", "S": "南", "W": "西", "N": "北"}
_SEASONS = "春夏秋冬"
_FLOWERS = "梅蘭菊竹"
_CHINESE_1_4 = "一二三四"

_BLACK, _RED, _GREEN, _BLUE = (25, 25, 25), (190, 30, 35), (25, 120, 50), (30, 50, 160)
_INKS = (_BLACK, _RED, _GREEN, _BLUE, (40, 40, 90), (120, 20, 60))

# Pip centres (x, y in 0..1 of the face) for the circles, the usual arrangements.
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.5, 0.27), (0.5, 0.73)),
    3: ((0.22, 0.18), (0.5, 0.5), (0.78, 0.82)),
    4: ((0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)),
    5: ((0.25, 0.22), (0.75, 0.22), (0.5, 0.5), (0.25, 0.78), (0.75, 0.78)),
    6: ((0.3, 0.17), (0.7, 0.17), (0.3, 0.55), (0.7, 0.55), (0.3, 0.83), (0.7, 0.83)),
    7: (
        (0.2, 0.13),
        (0.5, 0.23),
        (0.8, 0.33),
        (0.3, 0.6),
        (0.7, 0.6),
        (0.3, 0.86),
        (0.7, 0.86),
    ),
    8: tuple((x, y) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.3, 0.7)),
    9: tuple((x, y) for y in (0.18, 0.5, 0.82) for x in (0.2, 0.5, 0.8)),
}
# Bamboo sticks: centre x, centre y, tilt in degrees; the stick's length is a row's height.
_STICKS: dict[int, tuple[tuple[float, float, float], ...]] = {
    2: ((0.5, 0.27, 0), (0.5, 0.73, 0)),
    3: ((0.5, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)),
    4: ((0.3, 0.27, 0), (0.7, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)),
    5: ((0.22, 0.27, 0), (0.78, 0.27, 0), (0.5, 0.5, 0), (0.22, 0.73, 0), (0.78, 0.73, 0)),
    6: tuple((x, y, 0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)),
    7: ((0.5, 0.17, 0),) + tuple((x, y, 0) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)),
    8: tuple(
        (x, y, t)
        for y, sign in ((0.27, 1), (0.73, -1))
        for x, t in ((0.14, 0), (0.38, 28 * sign), (0.62, -28 * sign), (0.86, 0))
    ),
    9: tuple((x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)),
}


# Other arrangements makers use (:func:`laid_faces`): a set may lay out its 6 of bamboos
# in two columns of three rather than two rows of three, tilt all four sticks of each row
# of its 8 into a W or an M, set its 6 of circles as a pair above a block of four, or
# crowd its pips until they touch.
_PIPS_MORE: dict[int, tuple[tuple[tuple[float, float], ...], ...]] = {
    5: (((0.27, 0.2), (0.73, 0.2), (0.5, 0.5), (0.27, 0.8), (0.73, 0.8)),),
    6: (
        ((0.3, 0.15), (0.7, 0.15), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)),
        ((0.27, 0.2), (0.73, 0.2), (0.27, 0.5), (0.73, 0.5), (0.27, 0.8), (0.73, 0.8)),
    ),
    7: (
        ((0.8, 0.13), (0.5, 0.23), (0.2, 0.33), (0.3, 0.6), (0.7, 0.6), (0.3, 0.86), (0.7, 0.86)),
        (
            (0.25, 0.12),
            (0.5, 0.24),
            (0.75, 0.36),
            (0.27, 0.63),
            (0.73, 0.63),
            (0.27, 0.87),
            (0.73, 0.87),
        ),
    ),
    8: (
        tuple((x, y) for y in (0.14, 0.36, 0.64, 0.86) for x in (0.27, 0.73)),
        tuple((x, y) for y in (0.12, 0.37, 0.63, 0.88) for x in (0.32, 0.68)),
    ),
    9: (tuple((x, y) for y in (0.17, 0.5, 0.83) for x in (0.18, 0.5, 0.82)),),
}
_STICKS_MORE: dict[int, tuple[tuple[tuple[float, float, float], ...], ...]] = {
    5: (((0.25, 0.27, 0), (0.75, 0.27, 0), (0.5, 0.5, 0), (0.25, 0.73, 0), (0.75, 0.73, 0)),),
    6: (tuple((x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.3, 0.7)),),
    7: (((0.5, 0.17, 0),) + tuple((x, y, 0) for y in (0.5, 0.83) for x in (0.25, 0.5, 0.75)),),
    8: (
        tuple(
            (x, y, t * sign)
            for y, sign in ((0.27, 1), (0.73, -1))
            for x, t in ((0.16, -22), (0.39, 22), (0.61, -22), (0.84, 22))
        ),
        tuple(
            (x, y, t * sign)
            for y, sign in ((0.27, -1), (0.73, 1))
            for x, t in ((0.14, 0), (0.38, 28), (0.62, -28), (0.86, 0))
        ),
    ),
    9: (tuple((x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.22, 0.5, 0.78)),),
}


def missing_fonts() -> list[str]:
    """The fonts this style needs that are not installed."""
    return [p for p, _ in CJK_FONTS if not Path(p).exists()] + [
        p for p in LATIN_FONTS if not Path(p).exists()
    ]


class _Canvas:
    """An RGBA drawing of one face, ink on transparent."""

    def __init__(self) -> None:
        self.image = Image.new("RGBA", (W, H), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.image)

    def glyph(
        self,
        font: ImageFont.FreeTypeFont,
        text: str,
        box: tuple[float, float, float, float],
        ink: tuple[int, int, int],
    ) -> None:
        """``text`` scaled to fit ``box`` (x0, y0, x1, y1 in 0..1), centred in it."""
        px = int(font.size)
        mask = Image.new("L", (px * 2 * len(text), px * 2), 0)
        ImageDraw.Draw(mask).text((px // 4, px // 4), text, font=font, fill=255)
        bbox = mask.getbbox()
        if bbox is None:
            return
        mask = mask.crop(bbox)
        bw, bh = (box[2] - box[0]) * W, (box[3] - box[1]) * H
        f = min(bw / mask.width, bh / mask.height)
        size = (max(1, round(mask.width * f)), max(1, round(mask.height * f)))
        mask = mask.resize(size, Image.Resampling.LANCZOS)
        x = round(box[0] * W + (bw - size[0]) / 2)
        y = round(box[1] * H + (bh - size[1]) / 2)
        self.image.paste(Image.new("RGBA", size, (*ink, 255)), (x, y), mask)

    def rgba(self) -> np.ndarray:
        return np.asarray(self.image)


class _Fonts:
    def __init__(self) -> None:
        self.cjk = [ImageFont.truetype(p, 160, index=i) for p, i in CJK_FONTS]
        self.latin = [ImageFont.truetype(p, 120) for p in LATIN_FONTS]


@functools.cache
def _fonts() -> _Fonts:
    return _Fonts()


def _corner_index(rng: np.random.Generator, canvas: _Canvas, fonts: _Fonts, text: str) -> None:
    """A small western index in a top corner."""
    font = fonts.latin[rng.integers(len(fonts.latin))]
    s = rng.uniform(0.13, 0.2)
    left = rng.random() < 0.5
    x0 = 0.02 if left else 0.98 - s * H / W * 0.7
    box = (x0, 0.02, x0 + s * H / W * 0.7, 0.02 + s)
    canvas.glyph(font, text, box, _INKS[rng.integers(len(_INKS))])


def _character(rng: np.random.Generator, n: int, fonts: _Fonts) -> _Canvas:
    c = _Canvas()
    font = fonts.cjk[rng.integers(len(fonts.cjk))]
    numerals = _NUMERALS_FORMAL if rng.random() < 0.6 else _NUMERALS
    split = rng.uniform(0.4, 0.5)
    top_ink = _BLACK if rng.random() < 0.6 else _INKS[rng.integers(len(_INKS))]
    c.glyph(font, numerals[n - 1], (0.12, 0.03, 0.88, split - 0.02), top_ink)
    if rng.random() < 0.3:
        font = fonts.cjk[rng.integers(len(fonts.cjk))]
    wan = "萬" if rng.random() < 0.85 else "万"
    c.glyph(font, wan, (0.06, split + 0.02, 0.94, 0.97), _RED if rng.random() < 0.8 else _BLACK)
    return c


def _ring(
    rng: np.random.Generator, d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, big: bool
) -> None:
    """One pip: concentric rings, sometimes petals or a filled centre."""
    inks = [_INKS[i] for i in rng.permutation(len(_INKS))[:3]]
    rings = int(rng.integers(2, 6 if big else 4))
    width = max(2, round(r * rng.uniform(0.12, 0.25)))
    for k in range(rings):
        rr = r * (1 - k / rings)
        ink = inks[k % len(inks)]
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=(*ink, 255), width=width)
    if rng.random() < 0.5:
        rr = r / rings * rng.uniform(0.5, 1.0)
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=(*inks[0], 255))
    if big or rng.random() < 0.3:
        petals = int(rng.integers(6, 13))
        pr = r * rng.uniform(0.08, 0.15)
        for k in range(petals):
            a = 2 * math.pi * k / petals
            px, py = cx + 0.62 * r * math.cos(a), cy + 0.62 * r * math.sin(a)
            d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=(*inks[1], 255))


def _circles(
    rng: np.random.Generator,
    n: int,
    pts: tuple[tuple[float, float], ...] | None = None,
    crowd: float = 0.5,
) -> _Canvas:
    """The ``n`` of circles, its pips at ``pts`` (the usual arrangement, ``_PIPS``, where
    not given), each at most ``crowd`` of the tightest pair's distance across (0.5: they
    may touch)."""
    c = _Canvas()
    if n == 1:
        _ring(rng, c.draw, W / 2, H / 2, W * rng.uniform(0.4, 0.47), big=True)
        return c
    pts = pts or _PIPS[n]
    # the pip radius that fits the tightest pair of centres
    gap = min(
        math.hypot((a[0] - b[0]) * W, (a[1] - b[1]) * H)
        for i, a in enumerate(pts)
        for b in pts[i + 1 :]
    )
    r = min(gap * rng.uniform(0.42, crowd), W * 0.25)
    state = rng.bit_generator.state
    for x, y in pts:
        if rng.random() < 0.7:  # most sets draw every pip alike
            rng.bit_generator.state = state
        _ring(rng, c.draw, x * W, y * H, r, big=False)
    return c


def _stick(
    rng: np.random.Generator,
    canvas: _Canvas,
    cx: float,
    cy: float,
    length: float,
    width: float,
    tilt: float,
    ink: tuple[int, int, int],
    nodes: int,
    bone: bool = False,
) -> None:
    """One bamboo stick; a ``bone`` is waisted, its two ends wider than its middle."""
    layer = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    x0, x1 = cx - width / 2, cx + width / 2
    y0, y1 = cy - length / 2, cy + length / 2
    r = width / 2
    d.rounded_rectangle((x0, y0, x1, y1), radius=r, fill=(*ink, 255))
    if bone:
        cap, wide = length * 0.14, width * 0.3
        for top in (y0, y1 - cap):
            d.rounded_rectangle(
                (x0 - wide, top, x1 + wide, top + cap), radius=cap / 2, fill=(*ink, 255)
            )
    inner = max(1.0, width * 0.22)
    if rng.random() < 0.6:  # hollow stick
        d.rounded_rectangle(
            (x0 + inner, y0 + inner, x1 - inner, y1 - inner), radius=r / 2, fill=(0, 0, 0, 0)
        )
        d.line((cx, y0 + inner, cx, y1 - inner), fill=(*ink, 255), width=max(1, round(inner)))
    for k in range(nodes):
        y = y0 + length * (k + 1) / (nodes + 1)
        d.rectangle((x0 - width * 0.12, y - inner, x1 + width * 0.12, y + inner), fill=(*ink, 255))
    if tilt:
        layer = layer.rotate(tilt, resample=Image.Resampling.BICUBIC, center=(cx, cy))
    canvas.image.alpha_composite(layer)


def _bamboos(
    rng: np.random.Generator,
    n: int,
    sticks: tuple[tuple[float, float, float], ...] | None = None,
    bone: bool = False,
) -> _Canvas:
    """The ``n`` of bamboos, its sticks at ``sticks`` (the usual arrangement,
    ``_STICKS``, where not given), waisted where ``bone``."""
    c = _Canvas()
    sticks = sticks or _STICKS[n]
    rows = len({y for _, y, _ in sticks})
    length = H / rows * rng.uniform(0.72, 0.85)
    cols = max(sum(1 for _, y, _ in sticks if y == y0) for y0 in {y for _, y, _ in sticks})
    width = min(W / cols * rng.uniform(0.35, 0.55), length * 0.3)
    nodes = int(rng.integers(1, 4))
    main = _GREEN if rng.random() < 0.75 else _INKS[rng.integers(len(_INKS))]
    accent = _INKS[rng.integers(len(_INKS))]
    for i, (x, y, t) in enumerate(sticks):
        ink = accent if (rng.random() < 0.25 and i % 2 == 0) else main
        _stick(rng, c, x * W, y * H, length, width, t, ink, nodes, bone)
    return c


#: The bird's inks: bodies, wings and tails as makers colour them.
_BIRD_INKS = (_GREEN, _BLUE, _RED, _BLACK, (120, 70, 30), (90, 90, 95), (30, 110, 120))


def _bird(rng: np.random.Generator) -> _Canvas:
    """The 1 of bamboos as most sets draw it: a bird (a sparrow, a peacock, a pheasant) of
    random build, inks and pose -- its tail fanned, raised or trailing, sometimes spotted
    with eyes, sometimes on a branch or among leaves -- so that the bird is learnt and not
    one artist's bird."""
    c = _Canvas()
    d = c.draw
    inks = [_BIRD_INKS[i] for i in rng.permutation(len(_BIRD_INKS))[:4]]
    body, wing, tail, accent = inks
    left = rng.random() < 0.5  # the way it faces
    bx, by = W * rng.uniform(0.42, 0.58), H * rng.uniform(0.55, 0.72)
    rx, ry = W * rng.uniform(0.24, 0.34), H * rng.uniform(0.11, 0.16)
    face = -1 if left else 1
    # the tail, behind the body: a fan of feathers from its back
    feathers = int(rng.integers(3, 9))
    kind = rng.integers(3)  # 0 fanned up, 1 raised behind, 2 trailing
    spread = {0: (-70, 70), 1: (-50, 10), 2: (20, 70)}[int(kind)]
    length = H * rng.uniform(0.35, 0.6)
    root = (bx - face * rx * 0.7, by - ry * 0.3)
    for k in range(feathers):
        a = math.radians(spread[0] + (spread[1] - spread[0]) * k / max(1, feathers - 1))
        a = -face * a if kind else a
        tip = (
            root[0]
            - face * length * math.sin(abs(a)) * (0.3 if kind == 0 else 1.0)
            + (length * math.sin(a) if kind == 0 else 0.0),
            root[1] - length * math.cos(a),
        )
        half = W * rng.uniform(0.025, 0.05)
        d.polygon(
            [
                (root[0] - half, root[1]),
                (tip[0] - half * 0.6, tip[1]),
                (tip[0] + half * 0.6, tip[1]),
                (root[0] + half, root[1]),
            ],
            fill=(*tail, 255),
        )
        if rng.random() < 0.5:  # an eye spot
            er = half * 1.1
            d.ellipse((tip[0] - er, tip[1] - er, tip[0] + er, tip[1] + er), fill=(*accent, 255))
    d.ellipse((bx - rx, by - ry, bx + rx, by + ry), fill=(*body, 255))
    # a wing along the body, often striped
    wx = bx - face * rx * 0.15
    d.ellipse((wx - rx * 0.65, by - ry * 0.7, wx + rx * 0.65, by + ry * 0.4), fill=(*wing, 255))
    for k in range(int(rng.integers(0, 4))):
        y = by - ry * 0.4 + k * ry * 0.25
        d.line((wx - rx * 0.5, y, wx + rx * 0.5, y + ry * 0.1), fill=(*accent, 255), width=2)
    # head, eye, beak
    hr = W * rng.uniform(0.08, 0.12)
    hx, hy = bx + face * rx * 0.95, by - ry - hr * rng.uniform(0.3, 1.2)
    d.line((bx + face * rx * 0.6, by - ry * 0.3, hx, hy), fill=(*body, 255), width=round(hr))
    d.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=(*body, 255))
    d.ellipse(
        (hx + face * hr * 0.3 - 2, hy - hr * 0.3 - 2, hx + face * hr * 0.3 + 2, hy - hr * 0.3 + 2),
        fill=(255, 255, 255, 255),
    )
    beak = hr * rng.uniform(0.8, 1.6)
    d.polygon(
        [
            (hx + face * hr * 0.8, hy - hr * 0.3),
            (hx + face * (hr + beak), hy + hr * 0.1),
            (hx + face * hr * 0.8, hy + hr * 0.4),
        ],
        fill=(*accent, 255),
    )
    if rng.random() < 0.5:  # a crest
        for k in range(3):
            d.line(
                (hx, hy - hr, hx + face * (k - 1) * hr * 0.5, hy - hr * 2.2),
                fill=(*accent, 255),
                width=2,
            )
    # legs, and a branch or leaves below
    for k in (-1, 1):
        lx = bx + k * rx * 0.25
        d.line((lx, by + ry * 0.8, lx + face * 4, by + ry + H * 0.07), fill=(*accent, 255), width=3)
    if rng.random() < 0.6:
        y = by + ry + H * 0.07
        d.line((W * 0.1, y + H * 0.02, W * 0.9, y - H * 0.02), fill=(120, 70, 30, 255), width=4)
    for _ in range(int(rng.integers(0, 5))):
        _leaf(
            d,
            W * rng.uniform(0.15, 0.85),
            H * rng.uniform(0.8, 0.95),
            H * rng.uniform(0.12, 0.3),
            rng.uniform(-50, 50),
            _GREEN,
        )
    return c


def _honour(rng: np.random.Generator, code: str, fonts: _Fonts) -> _Canvas:
    c = _Canvas()
    font = fonts.cjk[rng.integers(len(fonts.cjk))]
    if code in _WINDS:
        ink = _BLACK if rng.random() < 0.6 else _INKS[rng.integers(len(_INKS))]
        c.glyph(font, _WINDS[code], (0.06, 0.1, 0.94, 0.9), ink)
    elif code == "C":
        c.glyph(font, "中", (0.08, 0.06, 0.92, 0.94), _RED)
    elif code == "F":
        c.glyph(font, "發", (0.05, 0.1, 0.95, 0.9), _GREEN if rng.random() < 0.85 else _BLACK)
    else:  # white dragon: blank, a frame, or a frame within a frame
        kind = rng.choice(["blank", "frame", "double"], p=[0.25, 0.35, 0.4])
        ink = _BLUE if rng.random() < 0.6 else _INKS[rng.integers(len(_INKS))]
        if kind != "blank":
            m = rng.uniform(0.08, 0.16)
            width = max(3, round(W * rng.uniform(0.03, 0.07)))
            c.draw.rounded_rectangle(
                (W * m, H * m * 0.8, W * (1 - m), H * (1 - m * 0.8)),
                radius=W * 0.06,
                outline=(*ink, 255),
                width=width,
            )
            if kind == "double":
                m2 = m + rng.uniform(0.07, 0.12)
                c.draw.rectangle(
                    (W * m2, H * m2 * 0.85, W * (1 - m2), H * (1 - m2 * 0.85)),
                    outline=(*ink, 255),
                    width=max(2, width // 2),
                )
    return c


def _plant(
    rng: np.random.Generator, canvas: _Canvas, box: tuple[float, float, float, float]
) -> None:
    """A stem with leaves and blossoms: a picture that carries no tile identity."""
    d = canvas.draw
    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    stem = _GREEN if rng.random() < 0.7 else _BLACK
    for _ in range(int(rng.integers(1, 4))):
        pts = [(rng.uniform(x0, x1), y1)]
        for k in range(1, 5):
            pts.append(
                (
                    float(np.clip(pts[-1][0] + rng.normal(0, (x1 - x0) * 0.15), x0, x1)),
                    y1 - (y1 - y0) * k / 4 * rng.uniform(0.8, 1.0),
                )
            )
        d.line(pts, fill=(*stem, 255), width=max(2, round(W * 0.03)), joint="curve")
        for px, py in pts[1:]:
            if rng.random() < 0.5:
                rx, ry = W * rng.uniform(0.04, 0.1), H * rng.uniform(0.02, 0.05)
                d.ellipse((px - rx, py - ry, px + rx, py + ry), fill=(*_GREEN, 255))
        bloom = _INKS[rng.integers(len(_INKS))]
        bx, by = pts[-1]
        for k in range(5):
            a = 2 * math.pi * k / 5
            r = W * rng.uniform(0.05, 0.09)
            qx, qy = bx + r * math.cos(a), by + r * math.sin(a)
            d.ellipse((qx - r * 0.8, qy - r * 0.8, qx + r * 0.8, qy + r * 0.8), fill=(*bloom, 255))


def _leaf(
    d: ImageDraw.ImageDraw, x: float, y: float, length: float, angle: float, ink: tuple[int, ...]
) -> None:
    """A narrow leaf from (x, y), ``angle`` degrees from upright."""
    a = math.radians(angle)
    tip = (x + length * math.sin(a), y - length * math.cos(a))
    mid = ((x + tip[0]) / 2, (y + tip[1]) / 2)
    side = (math.cos(a) * length * 0.12, math.sin(a) * length * 0.12)
    d.polygon(
        [(x, y), (mid[0] + side[0], mid[1] + side[1]), tip, (mid[0] - side[0], mid[1] - side[1])],
        fill=(*ink, 255),
    )


def _blossom(
    d: ImageDraw.ImageDraw, x: float, y: float, r: float, petals: int, ink: tuple[int, ...]
) -> None:
    for k in range(petals):
        a = 2 * math.pi * k / petals
        px, py = x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a)
        d.ellipse((px - r * 0.5, py - r * 0.5, px + r * 0.5, py + r * 0.5), fill=(*ink, 255))
    d.ellipse((x - r * 0.2, y - r * 0.2, x + r * 0.2, y + r * 0.2), fill=(230, 190, 40, 255))


def _plum(rng: np.random.Generator, c: _Canvas, box: tuple[float, float, float, float]) -> None:
    """A dark, crooked branch with round five-petal blossoms."""
    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    pts = [(rng.uniform(x0, x1), y1)]
    for k in range(1, 6):
        pts.append(
            (float(np.clip(pts[-1][0] + rng.normal(0, W * 0.12), x0, x1)), y1 - (y1 - y0) * k / 5)
        )
    branch = (70, 45, 30) if rng.random() < 0.6 else _BLACK
    c.draw.line(pts, fill=(*branch, 255), width=max(3, round(W * 0.045)), joint="curve")
    ink = _RED if rng.random() < 0.6 else _INKS[rng.integers(len(_INKS))]
    for px, py in rng.permutation(np.array(pts[1:]))[: int(rng.integers(3, 6))]:
        _blossom(c.draw, px + rng.normal(0, 6), py, W * rng.uniform(0.09, 0.14), 5, ink)


def _orchid(rng: np.random.Generator, c: _Canvas, box: tuple[float, float, float, float]) -> None:
    """Long thin leaves sweeping up from one root, and a few small flowers."""
    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    root = ((x0 + x1) / 2 + rng.normal(0, W * 0.05), y1)
    green = _GREEN if rng.random() < 0.75 else _BLACK
    for _ in range(int(rng.integers(4, 8))):
        bend = rng.uniform(-1, 1)
        pts = []
        length = (y1 - y0) * rng.uniform(0.6, 1.0)
        for k in range(7):
            t = k / 6
            pts.append((root[0] + bend * W * 0.35 * t * t, root[1] - length * t))
        c.draw.line(pts, fill=(*green, 255), width=max(2, round(W * 0.025)), joint="curve")
    ink = _INKS[rng.integers(len(_INKS))]
    for _ in range(int(rng.integers(1, 4))):
        fx, fy = rng.uniform(x0 + W * 0.1, x1 - W * 0.1), rng.uniform(y0, (y0 + y1) / 2)
        _blossom(c.draw, fx, fy, W * rng.uniform(0.07, 0.1), 3, ink)


def _chrysanthemum(
    rng: np.random.Generator, c: _Canvas, box: tuple[float, float, float, float]
) -> None:
    """One or two round flowers of many thin petals on leafy stems."""
    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    ink = _INKS[rng.integers(len(_INKS))] if rng.random() < 0.5 else (200, 150, 30)
    for _ in range(int(rng.integers(1, 3))):
        fx, fy = rng.uniform(x0 + W * 0.2, x1 - W * 0.2), rng.uniform(y0 + H * 0.08, y0 + H * 0.3)
        c.draw.line([(fx, fy), (fx + rng.normal(0, 8), y1)], fill=(*_GREEN, 255), width=4)
        for _ in range(2):
            _leaf(c.draw, fx, rng.uniform(fy + H * 0.1, y1), W * 0.2, rng.uniform(-70, 70), _GREEN)
        r = W * rng.uniform(0.15, 0.22)
        for k in range(int(rng.integers(16, 30))):
            a = 2 * math.pi * k / 20 + rng.normal(0, 0.05)
            c.draw.line(
                [(fx, fy), (fx + r * math.cos(a), fy + r * math.sin(a))],
                fill=(*ink, 255),
                width=max(2, round(W * 0.02)),
            )


def _bamboo_plant(
    rng: np.random.Generator, c: _Canvas, box: tuple[float, float, float, float]
) -> None:
    """Jointed stalks with narrow leaves."""
    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    green = _GREEN if rng.random() < 0.75 else _BLACK
    for _ in range(int(rng.integers(1, 4))):
        sx = rng.uniform(x0 + W * 0.1, x1 - W * 0.1)
        top = rng.uniform(y0, y0 + (y1 - y0) * 0.3)
        _stick(rng, c, sx, (top + y1) / 2, y1 - top, W * 0.07, rng.normal(0, 5), green, 4)
        for _ in range(int(rng.integers(2, 5))):
            ly = rng.uniform(top, y1 - H * 0.1)
            _leaf(c.draw, sx, ly, W * rng.uniform(0.15, 0.25), rng.uniform(-80, 80), green)


_FLOWER_MOTIFS = (_plum, _orchid, _chrysanthemum, _bamboo_plant)


def _bonus(rng: np.random.Generator, code: str, fonts: _Fonts) -> _Canvas:
    c = _Canvas()
    n = int(code[0])
    k = (n - 1) % 4
    season = n <= 4
    box = (0.1, 0.3, 0.9, 0.97)
    if season:
        _plant(rng, c, box)
    else:
        _FLOWER_MOTIFS[k](rng, c, box)
    left = rng.random() < 0.5
    num_box = (0.04, 0.03, 0.34, 0.27) if left else (0.66, 0.03, 0.96, 0.27)
    char_box = (0.62, 0.03, 0.96, 0.3) if left else (0.04, 0.03, 0.38, 0.3)
    numeral = str(k + 1) if rng.random() < 0.55 else _CHINESE_1_4[k]
    font = fonts.latin[0] if numeral.isdigit() else fonts.cjk[rng.integers(len(fonts.cjk))]
    c.glyph(font, numeral, num_box, _INKS[rng.integers(len(_INKS))])
    if rng.random() < 0.75:
        char = (_SEASONS if season else _FLOWERS)[k]
        font = fonts.cjk[rng.integers(len(fonts.cjk))]
        c.glyph(font, char, char_box, _INKS[rng.integers(len(_INKS))])
    return c


#: Colour families of printed bonus tiles: (character, number) inks.
_FAMILIES = (
    (_RED, _RED),
    (_BLUE, _BLUE),
    (_GREEN, _GREEN),
    (_BLACK, _RED),
    (_RED, _BLUE),
    (_BLUE, _RED),
    (_GREEN, _RED),
    ((120, 20, 60), (120, 20, 60)),
    (_BLACK, _BLACK),
)


def _printed_bonus(rng: np.random.Generator, code: str, fonts: _Fonts) -> _Canvas:
    """A flower or season as text: its character large, its number in a corner."""
    c = _Canvas()
    n = int(code[0])
    k = (n - 1) % 4
    char = (_SEASONS if n <= 4 else _FLOWERS)[k]
    char_ink, num_ink = _FAMILIES[rng.integers(len(_FAMILIES))]
    font = fonts.cjk[rng.integers(len(fonts.cjk))]
    layout = int(rng.integers(4))
    if layout == 0:  # character in the middle, number in a top corner
        char_box = (0.12, 0.28, 0.88, 0.9)
        left = rng.random() < 0.5
        num_box = (0.05, 0.03, 0.33, 0.25) if left else (0.67, 0.03, 0.95, 0.25)
    elif layout == 1:  # number above, character below (as the characters suit)
        char_box = (0.08, 0.45, 0.92, 0.96)
        num_box = (0.22, 0.04, 0.78, 0.4)
    elif layout == 2:  # character above, a sprig below, number in a bottom corner
        char_box = (0.15, 0.04, 0.85, 0.5)
        left = rng.random() < 0.5
        num_box = (0.05, 0.72, 0.33, 0.96) if left else (0.67, 0.72, 0.95, 0.96)
        _plant(rng, c, (0.35, 0.52, 0.65, 0.95) if left else (0.05, 0.52, 0.6, 0.95))
    else:  # character filling the face, number small beside it
        char_box = (0.04, 0.1, 0.8, 0.9)
        num_box = (0.78, 0.04, 0.98, 0.22)
    c.glyph(font, char, char_box, char_ink)
    numeral = str(k + 1) if rng.random() < 0.6 else _CHINESE_1_4[k]
    if numeral.isdigit():
        nfont = fonts.latin[rng.integers(len(fonts.latin))]
    else:
        nfont = fonts.cjk[rng.integers(len(fonts.cjk))]
    if rng.random() < 0.3:  # the number in a ring
        x0, y0, x1, y1 = num_box
        c.draw.ellipse(
            (x0 * W, y0 * H, x1 * W, y1 * H), outline=(*num_ink, 255), width=max(2, W // 50)
        )
        pad = 0.22 * (x1 - x0)
        num_box = (x0 + pad, y0 + pad * W / H, x1 - pad, y1 - pad * W / H)
    c.glyph(nfont, numeral, num_box, num_ink)
    return c


def _bonus_faces(
    maker: Callable[[np.random.Generator, str, _Fonts], _Canvas],
    code: str,
    count: int,
    seed: int,
    first: int,
) -> list[np.ndarray]:
    """``count`` RGBA faces of ``code`` drawn by ``maker``, the v-th from its own seed
    (``first`` + v), half of them lightly warped."""
    fonts = _fonts()
    out = []
    for v in range(count):
        rng = np.random.default_rng([seed, TILE_CODES.index(code), first + v])
        rgba = maker(rng, code, fonts).rgba().copy()
        if rng.random() < 0.5:
            rgba = _warp(rng, rgba)
        out.append(rgba)
    return out


def _pot(rng: np.random.Generator, c: _Canvas, box: tuple[float, float, float, float]) -> None:
    """A flowerpot or basket at the bottom of ``box``, as many sets draw their plants."""
    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    ink = (*_INKS[rng.integers(len(_INKS))], 255)
    top = y1 - (y1 - y0) * rng.uniform(0.12, 0.22)
    inset = (x1 - x0) * rng.uniform(0.05, 0.18)
    width = max(2, round(W * 0.02))
    shape = [(x0, top), (x1, top), (x1 - inset, y1), (x0 + inset, y1)]
    if rng.random() < 0.5:
        c.draw.polygon(shape, outline=ink, width=width)
    else:
        c.draw.polygon(shape, fill=ink)


def _varied_bonus(rng: np.random.Generator, code: str, fonts: _Fonts) -> _Canvas:
    """A flower or season whose picture says nothing of which: any plant (another flower's,
    a plain stem, in a pot or not) or none, with the number that every maker prints (1-4
    or 一-四, in any corner, any size, often ringed) and, on most faces, the character
    (春夏秋冬, 梅蘭菊竹). A face without its character shows its own kind of picture: its
    flower's plant, or for a season a plain stem (then only the number and the picture's
    kind tell it)."""
    c = _Canvas()
    n = int(code[0])
    k = (n - 1) % 4
    season = n <= 4
    with_char = rng.random() < 0.8
    box = (rng.uniform(0.05, 0.25), rng.uniform(0.2, 0.4), rng.uniform(0.75, 0.95), 0.97)
    picture = rng.random()
    if picture < 0.12 and with_char:
        pass  # no picture
    elif (season and not with_char) or (with_char and picture < 0.45):
        _plant(rng, c, box)
    else:  # a flower's motif: its own without its character, else its own or any
        own = not with_char or (not season and rng.random() < 0.5)
        _FLOWER_MOTIFS[k if own else int(rng.integers(4))](rng, c, box)
    if rng.random() < 0.3:
        _pot(rng, c, (box[0], box[3] - 0.2, box[2], box[3]))
    corners = [(0.03, 0.03), (0.97, 0.03), (0.03, 0.97), (0.97, 0.97)]
    rng.shuffle(corners)
    s = rng.uniform(0.16, 0.3)
    numeral = str(k + 1) if rng.random() < 0.6 else _CHINESE_1_4[k]
    font = (
        fonts.latin[rng.integers(len(fonts.latin))]
        if numeral.isdigit()
        else (fonts.cjk[rng.integers(len(fonts.cjk))])
    )
    ink = _INKS[rng.integers(len(_INKS))]

    def at(corner: tuple[float, float], size: float) -> tuple[float, float, float, float]:
        w, h = size * H / W * 0.9, size
        x0 = corner[0] if corner[0] < 0.5 else corner[0] - w
        y0 = corner[1] if corner[1] < 0.5 else corner[1] - h
        return (x0, y0, x0 + w, y0 + h)

    num_box = at(corners[0], s * 0.85)
    if rng.random() < 0.25:  # the number in a ring
        c.draw.ellipse(
            tuple(v * (W if i % 2 == 0 else H) for i, v in enumerate(num_box)),
            outline=(*ink, 255),
            width=max(2, W // 50),
        )
        x0, y0, x1, y1 = num_box
        pad = 0.22 * (x1 - x0)
        num_box = (x0 + pad, y0 + pad * W / H, x1 - pad, y1 - pad * W / H)
    c.glyph(font, numeral, num_box, ink)
    if with_char:
        char = (_SEASONS if season else _FLOWERS)[k]
        font = fonts.cjk[rng.integers(len(fonts.cjk))]
        ink = _INKS[rng.integers(len(_INKS))] if rng.random() < 0.6 else ink
        c.glyph(font, char, at(corners[1], rng.uniform(0.16, 0.32)), ink)
    return c


def varied_faces(code: str, count: int, seed: int = SEED) -> list[np.ndarray]:
    """``count`` RGBA faces (``uint8``, ``H`` x ``W`` x 4) of a bonus tile ``code`` whose
    pictures do not tell it (:func:`_varied_bonus`): trained on, a network must read the
    number and the character, as on a set it has never seen (the bonus look's training,
    ``scripts/train_photo.py --look bonus``)."""
    return _bonus_faces(_varied_bonus, code, count, seed, 2000)


def printed_faces(code: str, count: int = PRINTED, seed: int = SEED) -> list[np.ndarray]:
    """``count`` printed RGBA faces (``uint8``, ``H`` x ``W`` x 4) of a bonus tile ``code``:
    its character and number (:func:`_printed_bonus`)."""
    return _bonus_faces(_printed_bonus, code, count, seed, 1000)


def draw_faces(code: str, variants: int = VARIANTS, seed: int = SEED) -> list[np.ndarray]:
    """``variants`` RGBA drawings (``uint8``, ``H`` x ``W`` x 4) of ``code``'s face."""
    fonts = _fonts()
    out = []
    for v in range(variants):
        rng = np.random.default_rng([seed, TILE_CODES.index(code), v])
        if code.endswith("m"):
            canvas = _character(rng, int(code[0]), fonts)
        elif code.endswith("p"):
            canvas = _circles(rng, int(code[0]))
        elif code.endswith("s"):
            canvas = _bamboos(rng, int(code[0]))
        elif code.endswith("h"):
            canvas = _bonus(rng, code, fonts)
        else:
            canvas = _honour(rng, code, fonts)
        # an honour's index is its letter (E, C...), a suit tile's its number
        index = None if code.endswith("h") else code if code in HONORS else code[0]
        out.append(_finished(rng, canvas, fonts, index))
    return out


def _finished(
    rng: np.random.Generator, canvas: _Canvas, fonts: _Fonts, index: str | None
) -> np.ndarray:
    """``canvas`` as an RGBA face, with its western ``index`` in a corner three times in
    ten (none where None) and, half the time, a touch of hand-drawn unevenness: a smooth,
    small warp of the whole drawing."""
    if index is not None and rng.random() < 0.3:
        _corner_index(rng, canvas, fonts, index)
    rgba = canvas.rgba().copy()
    if rng.random() < 0.5:
        rgba = _warp(rng, rgba)
    return rgba


#: The tiles :func:`laid_faces` draws: the 1 of bamboos (a bird) and the suit tiles that
#: makers lay out more than one way.
LAID = ("1s",) + tuple(f"{n}p" for n in _PIPS_MORE) + tuple(f"{n}s" for n in _STICKS_MORE)
#: How many faces of each tile :func:`laid_faces` draws by default (the ``laid`` style).
LAID_VARIANTS = 12


def laid_faces(code: str, count: int = LAID_VARIANTS, seed: int = SEED) -> list[np.ndarray]:
    """``count`` RGBA faces of ``code`` (one of :data:`LAID`) as other makers draw it: a
    bird for the 1 of bamboos (:func:`_bird`); the other tiles in their other arrangements
    (``_PIPS_MORE``, ``_STICKS_MORE``), pips crowded until they touch, sticks waisted."""
    fonts = _fonts()
    out = []
    n = int(code[0])
    for v in range(count):
        rng = np.random.default_rng([seed, TILE_CODES.index(code), v, 3000])
        if code == "1s":
            canvas = _bird(rng)
        elif code.endswith("p"):
            pips = _PIPS_MORE[n] + (_PIPS[n],)
            canvas = _circles(rng, n, pips[v % len(pips)], crowd=0.55)
        else:
            sticks = _STICKS_MORE[n] + (_STICKS[n],)
            canvas = _bamboos(rng, n, sticks[v % len(sticks)], bone=rng.random() < 0.5)
        out.append(_finished(rng, canvas, fonts, code[0]))
    return out


def _warp(rng: np.random.Generator, rgba: np.ndarray) -> np.ndarray:
    h, w = rgba.shape[:2]
    grid = rng.normal(0, 1, (2, 4, 4)).astype(np.float32)
    dx = cv2.resize(grid[0], (w, h), interpolation=cv2.INTER_CUBIC) * w * 0.015
    dy = cv2.resize(grid[1], (w, h), interpolation=cv2.INTER_CUBIC) * h * 0.015
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return cv2.remap(rgba, xx + dx, yy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)


def drawable_codes() -> tuple[str, ...]:
    """The tiles this style draws: all but the 1 of bamboos."""
    return tuple(c for c in TILE_CODES if c != "1s")
