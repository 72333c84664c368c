"""Mahjong tiles and hands drawn as SVG text, by hefen itself.

Like ``chess.svg`` renders boards, this module renders tiles without any
image files: every tile is a rounded rectangle with its face drawn from
simple shapes (dots are circles, bamboo sticks are rounded bars) and text
(the character numerals, the winds and dragons, the flower names).

>>> s = tile("5p", size=40)
>>> s.startswith("<svg") and 'data-tile="5p"' in s
True
>>> "中" in tile("C")
True

Tile codes are those of the interchange format: ``1m``..``9m``, ``1p``..``9p``,
``1s``..``9s``, ``E S W N``, ``C`` (red 中), ``F`` (green 發), ``P`` (white 白)
and ``1h``..``8h`` (bonus tiles).  ``hand()`` lays out a whole hand: the
concealed tiles, the winning tile set apart, the melds and the flowers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "BONUS_CODES",
    "SUIT_CODES",
    "TILE_CODES",
    "hand",
    "tile",
    "tile_back",
    "tile_group",
    "tile_name",
]

SUIT_CODES: tuple[str, ...] = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10))
HONOR_CODES: tuple[str, ...] = ("E", "S", "W", "N", "C", "F", "P")
BONUS_CODES: tuple[str, ...] = tuple(f"{r}h" for r in range(1, 9))
TILE_CODES: tuple[str, ...] = SUIT_CODES + HONOR_CODES + BONUS_CODES

# The tile is drawn in a 60 x 80 box (plus a 4 unit "thickness" below).
W, H, DEPTH = 60.0, 80.0, 4.0
SVG_NS = "http://www.w3.org/2000/svg"

INK = "#1d2a57"  # dark blue-black
RED = "#c62828"
GREEN = "#1b7a3a"
BLUE = "#1f4fa3"
FACE = "#fbf8ef"
EDGE = "#9a9483"
BACK = "#2e7d5b"
FONT = (
    "'Noto Serif CJK SC','Noto Serif CJK TC','Noto Sans CJK SC','Source Han Serif',"
    "'Songti SC','SimSun',serif"
)

_CN_NUM = "一二三四五六七八九"
_HONOR_CHAR = {
    "E": ("東", INK),
    "S": ("南", INK),
    "W": ("西", INK),
    "N": ("北", INK),
    "C": ("中", RED),
    "F": ("發", GREEN),
}
_BONUS = {
    "1h": ("春", "Spring", GREEN),
    "2h": ("夏", "Summer", RED),
    "3h": ("秋", "Autumn", "#b0600a"),
    "4h": ("冬", "Winter", BLUE),
    "5h": ("梅", "Plum", RED),
    "6h": ("蘭", "Orchid", "#7b3fa0"),
    "7h": ("菊", "Chrysanthemum", "#b0600a"),
    "8h": ("竹", "Bamboo", GREEN),
}
_NAMES = {
    "m": "{} Characters",
    "p": "{} Dots",
    "s": "{} Bamboo",
    "E": "East Wind",
    "S": "South Wind",
    "W": "West Wind",
    "N": "North Wind",
    "C": "Red Dragon",
    "F": "Green Dragon",
    "P": "White Dragon",
}


def _check(code: str) -> str:
    if code not in TILE_CODES:
        raise ValueError(f"unknown tile code {code!r}")
    return code


def tile_name(code: str) -> str:
    """The English name of a tile, used as its accessible title."""
    _check(code)
    if code in _BONUS:
        return f"{_BONUS[code][1]} (flower {code[0]})"
    if code[-1] in "mps" and len(code) == 2:
        return _NAMES[code[1]].format(code[0])
    return _NAMES[code]


def _f(x: float) -> str:
    """A compact number for attributes."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, s: str, size: float, fill: str, weight: str = "bold") -> str:
    return (
        f'<text x="{_f(x)}" y="{_f(y)}" font-size="{_f(size)}" fill="{fill}" '
        f'font-family="{escape(FONT)}" font-weight="{weight}" text-anchor="middle" '
        f'dominant-baseline="central">{escape(s)}</text>'
    )


def _dot(x: float, y: float, r: float, color: str) -> str:
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="none" stroke="{color}" '
        f'stroke-width="{_f(r * 0.32)}"/>'
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.42)}" fill="{color}"/>'
    )


# (x, y, colour) positions of the dots on 2p..9p, in the 60 x 80 box.
_DOT_LAYOUT: dict[int, list[tuple[int, int, str]]] = {
    2: [(30, 24, GREEN), (30, 56, BLUE)],
    3: [(16, 18, BLUE), (30, 40, RED), (44, 62, GREEN)],
    4: [(18, 24, BLUE), (42, 24, GREEN), (18, 56, GREEN), (42, 56, BLUE)],
    5: [(17, 20, BLUE), (43, 20, GREEN), (30, 40, RED), (17, 60, GREEN), (43, 60, BLUE)],
    6: [(19, 16, GREEN), (41, 16, GREEN)] + [(x, y, RED) for y in (42, 64) for x in (19, 41)],
    7: [(14, 12, GREEN), (30, 21, GREEN), (46, 30, GREEN)]
    + [(x, y, RED) for y in (50, 67) for x in (19, 41)],
    8: [(x, y, BLUE) for y in (13, 31, 49, 67) for x in (19, 41)],
    9: [(x, y, c) for y, c in ((17, BLUE), (40, RED), (63, GREEN)) for x in (13, 30, 47)],
}


def _dots(n: int) -> str:
    if n == 1:
        return (
            '<circle cx="30" cy="40" r="21" fill="none" stroke="#1b7a3a" stroke-width="3"/>'
            '<circle cx="30" cy="40" r="14" fill="none" stroke="#c62828" stroke-width="4"/>'
            '<circle cx="30" cy="40" r="6" fill="#1f4fa3"/>'
        )
    r = {2: 11, 3: 9, 4: 9.5, 5: 8.5, 6: 8, 7: 7, 8: 7, 9: 7.5}[n]
    return "".join(_dot(x, y, r, c) for x, y, c in _DOT_LAYOUT[n])


def _stick(x: float, y: float, color: str, h: float = 20.0) -> str:
    """One bamboo stick centred at (x, y): a rounded bar with two joints."""
    w = 6.0
    return (
        f'<rect x="{_f(x - w / 2)}" y="{_f(y - h / 2)}" width="{_f(w)}" height="{_f(h)}" '
        f'rx="3" fill="{color}"/>'
        f'<line x1="{_f(x - w / 2)}" y1="{_f(y)}" x2="{_f(x + w / 2)}" y2="{_f(y)}" '
        f'stroke="{FACE}" stroke-width="1.2"/>'
    )


_STICK_LAYOUT: dict[int, list[tuple[int, int, str]]] = {
    2: [(30, 26, GREEN), (30, 54, BLUE)],
    3: [(30, 26, GREEN), (19, 54, BLUE), (41, 54, BLUE)],
    4: [(x, y, c) for y, c in ((26, GREEN), (54, BLUE)) for x in (19, 41)],
    5: [(16, 26, GREEN), (44, 26, BLUE), (30, 40, RED), (16, 54, BLUE), (44, 54, GREEN)],
    6: [(x, y, c) for y, c in ((26, GREEN), (54, BLUE)) for x in (15, 30, 45)],
    7: [(30, 15, RED)] + [(x, y, c) for y, c in ((40, GREEN), (64, BLUE)) for x in (15, 30, 45)],
    8: [(x, y, c) for y, c in ((26, GREEN), (54, BLUE)) for x in (12, 24, 36, 48)],
    9: [(x, y, c) for y in (16, 40, 64) for x, c in ((15, GREEN), (30, RED), (45, BLUE))],
}


def _bamboo(n: int) -> str:
    if n == 1:  # the bird
        return (
            '<path d="M22 58 Q16 70 12 72 Q24 70 30 60 Z" fill="#1f4fa3"/>'
            '<path d="M24 60 Q20 40 30 30 Q40 22 44 34 Q46 50 32 60 Z" fill="#1b7a3a"/>'
            '<circle cx="42" cy="24" r="7" fill="#1b7a3a"/>'
            '<circle cx="44" cy="22" r="1.8" fill="#fbf8ef"/>'
            '<path d="M48 24 L56 26 L48 28 Z" fill="#c62828"/>'
            '<path d="M30 60 L28 70 M34 58 L36 70" stroke="#c62828" stroke-width="2"/>'
            '<path d="M28 40 Q34 36 38 44" fill="none" stroke="#c62828" stroke-width="2"/>'
        )
    h = 19.0 if n in (7, 9) else 24.0
    return "".join(_stick(x, y, c, h) for x, y, c in _STICK_LAYOUT[n])


def _characters(n: int) -> str:
    return _text(30, 22, _CN_NUM[n - 1], 26, INK) + _text(30, 56, "萬", 30, RED)


def _face(code: str) -> str:
    if code in _BONUS:
        char, _, color = _BONUS[code]
        num = code[0]
        return (
            _text(30, 42, char, 32, color)
            + _text(11, 12, num, 12, color, "normal")
            + f'<circle cx="49" cy="66" r="5" fill="{color}" opacity="0.75"/>'
        )
    if code == "P":
        return (
            f'<rect x="12" y="14" width="36" height="52" rx="3" fill="none" '
            f'stroke="{BLUE}" stroke-width="3.5"/>'
            f'<rect x="18" y="20" width="24" height="40" rx="2" fill="none" '
            f'stroke="{BLUE}" stroke-width="1.2"/>'
        )
    if code in _HONOR_CHAR:
        char, color = _HONOR_CHAR[code]
        return _text(30, 41, char, 36, color)
    n, suit = int(code[0]), code[1]
    if suit == "m":
        return _characters(n)
    if suit == "p":
        return _dots(n)
    return _bamboo(n)


def tile_group(code: str, *, highlight: bool = False, back: bool = False) -> str:
    """The SVG elements of one tile in its 60 x 84 box (no ``<svg>`` wrapper)."""
    _check(code)
    title = f"<title>{escape(tile_name(code))}</title>"
    body = (
        f'<rect x="0.8" y="{_f(DEPTH + 0.8)}" width="{_f(W - 1.6)}" height="{_f(H - 1.6)}" '
        f'rx="7" fill="{BACK}"/>'
    )
    if back:
        body += (
            f'<rect x="0.8" y="0.8" width="{_f(W - 1.6)}" height="{_f(H - 1.6)}" rx="7" '
            f'fill="{BACK}" stroke="#1e5a40" stroke-width="1.2"/>'
        )
        return f'<g class="tile back" data-tile="{code}">{title}{body}</g>'
    stroke = "#e0a100" if highlight else EDGE
    sw = "3" if highlight else "1.2"
    body += (
        f'<rect x="0.8" y="0.8" width="{_f(W - 1.6)}" height="{_f(H - 1.6)}" rx="7" '
        f'fill="{FACE}" stroke="{stroke}" stroke-width="{sw}"/>'
    )
    cls = "tile win" if highlight else "tile"
    return f'<g class="{cls}" data-tile="{code}">{title}{body}{_face(code)}</g>'


def _svg(width: float, height: float, vb_w: float, vb_h: float, inner: str, label: str) -> str:
    return (
        f'<svg xmlns="{SVG_NS}" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="0 0 {_f(vb_w)} {_f(vb_h)}" role="img" aria-label={quoteattr(label)}>'
        f"{inner}</svg>"
    )


def tile(code: str, size: float = 40, *, highlight: bool = False) -> str:
    """One tile as a standalone ``<svg>``; ``size`` is its width in pixels."""
    _check(code)
    scale = size / W
    inner = tile_group(code, highlight=highlight)
    return _svg(size, (H + DEPTH) * scale, W, H + DEPTH, inner, tile_name(code)).replace(
        "<svg ", f'<svg data-tile="{code}" ', 1
    )


def tile_back(size: float = 40) -> str:
    """The back of a tile (for concealed kongs and hidden hands)."""
    scale = size / W
    inner = (
        f'<g class="tile back"><rect x="0.8" y="{_f(DEPTH + 0.8)}" width="{_f(W - 1.6)}" '
        f'height="{_f(H - 1.6)}" rx="7" fill="#1e5a40"/>'
        f'<rect x="0.8" y="0.8" width="{_f(W - 1.6)}" height="{_f(H - 1.6)}" rx="7" '
        f'fill="{BACK}" stroke="#1e5a40" stroke-width="1.2"/></g>'
    )
    return _svg(size, (H + DEPTH) * scale, W, H + DEPTH, inner, "tile back")


def _meld_parts(meld: Any) -> tuple[str, list[str], bool]:
    """(kind, tiles, concealed) of a meld given as a mapping, an object or a tile list."""
    if isinstance(meld, Mapping):
        tiles = [str(t) for t in meld.get("tiles", [])]
        return str(meld.get("kind", "")), tiles, bool(meld.get("concealed", False))
    if hasattr(meld, "tiles"):
        kind = getattr(meld, "kind", "")
        tiles = [str(t) for t in meld.tiles]
        return str(getattr(kind, "value", kind)), tiles, bool(getattr(meld, "concealed", False))
    tiles = [str(t) for t in meld]
    return "", tiles, False


def hand(
    tiles: Iterable[str],
    melds: Sequence[Any] = (),
    win_tile: str | None = None,
    flowers: Iterable[str] = (),
    *,
    size: float = 32,
) -> str:
    """A whole hand as one ``<svg>``: concealed tiles, the winning tile set apart
    (outlined in gold), the melds in groups (a concealed kong shows its outer
    two tiles face down) and the flowers, smaller, at the end.

    ``melds`` are interchange-format mappings (``{"kind", "tiles",
    "concealed"}``), objects with those attributes, or plain tile lists.
    ``size`` is the width of one tile in pixels.
    """
    gap = 14.0  # between groups, in tile units
    step = W + 1.5
    parts: list[str] = []
    x = 0.0

    def put(code: str, *, highlight: bool = False, back: bool = False, scale: float = 1.0) -> None:
        nonlocal x
        y = (1 - scale) * (H + DEPTH)
        tr = f"translate({_f(x)},{_f(y)})" + (f" scale({_f(scale)})" if scale != 1 else "")
        parts.append(f'<g transform="{tr}">{tile_group(code, highlight=highlight, back=back)}</g>')
        x += step * scale

    concealed = [_check(str(t)) for t in tiles]
    for code in concealed:
        put(code)
    if win_tile is not None:
        if concealed:
            x += gap / 2
        put(_check(str(win_tile)), highlight=True)
    for meld in melds:
        kind, mtiles, hidden = _meld_parts(meld)
        if x:
            x += gap
        parts.append(f'<g class="meld" data-kind="{escape(kind)}">')
        for i, code in enumerate(mtiles):
            put(_check(code), back=hidden and kind == "kong" and i in (0, len(mtiles) - 1))
        parts.append("</g>")
    fl = [_check(str(t)) for t in flowers]
    if fl:
        if x:
            x += gap
        for code in fl:
            put(code, scale=0.75)
    width_units = max(x - 1.5, W)
    scale = size / W
    return _svg(
        width_units * scale,
        (H + DEPTH) * scale,
        width_units,
        H + DEPTH,
        "".join(parts),
        "mahjong hand",
    )
