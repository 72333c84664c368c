"""Recognise the mahjong tiles in a photo: find groups, split them into tiles, classify."""

from __future__ import annotations

import functools
import io
import math
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from hefen.photo import single
from hefen.photo.classes import BACK, BONUS, READ_CODES, copies_allowed
from hefen.photo.detect import Group, cell_quad, cell_quads, find_groups, rectify
from hefen.photo.errors import PhotoError
from hefen.photo.hand import HandReading, meld_kind, read_hand
from hefen.photo.memory import RememberingClassifier, TileMemory, require_model
from hefen.photo.model import CROP_H, CROP_W, TileClassifier, classifier, to_crop

MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 25_000_000
#: A tile's width over its height (face plus the side seen below it) lies in this range.
TILE_RATIO = (0.45, 0.92)
#: Groups whose tiles the classifier is this unsure of, on average, are not tiles (unless
#: it is sure that they are tiles of some kind: :data:`TILE_NESS`).
MIN_GROUP_CONFIDENCE = 0.35
#: A split whose tiles the classifier is this sure of (geometric mean) is not second-guessed.
SURE_SPLIT = 0.8
#: Bare table this wide inside a group (a share of the tile height) may part two groups.
MIN_GAP = 0.12
#: A group still unsure is read again without this share of its height at the bottom.
FACE_CUT = 0.3
#: When no equal split is sure, the cuts of the best one are moved by up to these fractions
#: of a tile's width to fit the tiles better (see ``_refine``).
REFINE_STEPS = (-0.12, -0.06, 0.0, 0.06, 0.12)
#: How many of the surest equal splits of an unsure group are refined, the next only while
#: the best is still unsure: the right count's equal split may score below a wrong one's
#: when it drifts along a row seen at an angle. With 2 rather than 1, 5 more of 400 pale
#: tuning photos had the right tile count and 1 fewer; stopping once sure keeps the time.
REFINE_COUNTS = 2
#: How far (log of the ratio) a group's tile width may be from the photo's usual one before
#: the group is read again with the count that width implies (:func:`_match_widths`).
WIDTH_OFF = 0.3
#: A group the classifier is less sure of than :data:`MIN_GROUP_CONFIDENCE` is still kept
#: when it is this sure of it and its cells are on average this surely tiles (not
#: *not a tile*): the flowers of a set it has never seen were dropped. On hand photos of
#: the never-seen KMahjongg sets, tile count right 72 -> 97 %; on photos of a bare table
#: with paper, labels and boxes on it, one photo more of 200 was read as having tiles.
UNSURE_FLOOR, TILE_NESS = 0.1, 0.9
#: How much taller and shorter (log of the ratio) a group may be than the photo's tiles
#: before it is taken for something else on the table (:func:`_same_height`); a lone
#: flower is often found a little short. Of the bench's 100 hand photos with paper,
#: labels, boxes or a phone beside the tiles, 64 rather than 45 had the right tile count;
#: of 1,650 without (bench, tuning and KMahjongg photos), one fewer.
HEIGHT_OFF, SHORTER_OFF = 0.2, 0.3
#: A claimed tile laid sideways in a meld is as wide as an upright tile's face is high:
#: this many times an upright tile's width (a face is 0.7-0.8 as wide as high). A group
#: that many upright tiles do not fill (more than :data:`SIDEWAYS_OFF` of a tile left
#: over) is read again as :data:`SIDEWAYS_UPRIGHT` upright tiles and one turned, at each
#: place in turn, its face turned upright both ways; kept when surer (:func:`_sideways`).
SIDEWAYS_WIDTH, SIDEWAYS_OFF, SIDEWAYS_UPRIGHT = (1.1, 1.7), 0.15, (2, 3)
#: The upright tiles' width is this percentile of every cell's: the equal cells of a meld
#: with a turned tile are wider than its upright tiles, and in a hand of melds they are
#: most of the photo's cells.
SIDEWAYS_USUAL = 25
#: How much surer (mean log of the cells' best probabilities) the reading with a turned
#: tile must be than the upright one.
SIDEWAYS_GAIN = 0.1
#: ... but a group with a turned tile is a claimed meld: a reading with the tile turned
#: that is a chow, pung or kong (:func:`~hefen.photo.hand.meld_kind`) is kept where the
#: upright one is none and is surer than this much less than it; and where both read the
#: same meld, the turned one is kept when it is as sure (the group is too wide for upright
#: tiles). On 100 tuning photos (seed 12,345,678) every meld was right on 66 % without it,
#: 79 % at 0.3, 81 % at 0.6 and 82 % at 1.0. Blank white dragons turned do not outweigh
#: an upright reading that is no meld: a box beside a hand, read so, was kept as their
#: kong (one of 200 cluttered photos, seed 95,700,001).
SIDEWAYS_MELD_LOSS = 0.6
#: A cell read as a blank white dragon whose face is coloured -- its middle more than this
#: far (Lab a/b) from the photo's usual tile face -- is a tile lying face down: in the
#: classifier's grey crops a plain back and a blank face look alike (the shipped model reads
#: 129 of 130 backs as a blank white dragon), and so the back is read by its colour. On
#: tuning photos (seed 12,345,001) the coloured backs read as blank lay 30-83 from the usual
#: face, true blank white dragons 0-23.5; a grey back (one set in five) is not told apart.
BACK_FACE_HUE = 27.0
#: In a group of four whose two ends read the same tile, the two middle cells are a
#: concealed kong's tiles lying face down when each one's face (the Lab median of its
#: palest 30 %: the ground of a face, not its ink) lies at least KONG_BACK_DIFF from the
#: ends' mean and KONG_BACK_EACH from each end: the same tiles' faces beside it, under the
#: same light. A grey back matches an ivory face in colour (:data:`BACK_FACE_HUE` misses
#: it) but not in lightness. On hand photos (seeds 12,345,001 and 93,000,777; 98,000,001
#: and 93,000,001, the bench's, looked at too) the 164 groups of four alike faces up lay
#: 0-18 from their ends' mean and 0-14 from the nearer end, never over both bars; the bars
#: take 159 of the 168 pairs of backs between alike ends. Each end counts, not only their
#: mean, since a light falling off along a kong face up (9p at L 254, 241, 197, 193) put
#: its middle cells 18 and 26 from the mean but 13 and 4 from the nearer end.
KONG_BACK_DIFF, KONG_BACK_EACH = 18.0, 10.0
WORK_TILE_H = 96  # the photo is reduced so that a tile is about this many pixels high
DECODE_SIDE = 1600  # large JPEGs are decoded at a reduced size at least this long

ImageInput = bytes | bytearray | str | os.PathLike[str] | np.ndarray


class _Classifier(Protocol):
    def probabilities(self, crops: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class RecognizedTile:
    """One tile found in a photo."""

    tile: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...]
    box: tuple[int, int, int, int]  # x, y, width, height in the photo's pixels
    #: laid turned a quarter in its group: a claimed tile, so the group is an exposed meld
    sideways: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = {
            "tile": self.tile,
            "confidence": round(self.confidence, 4),
            "alternatives": [[code, round(p, 4)] for code, p in self.alternatives],
            "box": list(self.box),
        }
        if self.sideways:
            out["sideways"] = True
        return out


@dataclass(frozen=True)
class TileGroup:
    """Tiles that touch each other: the concealed hand, a meld, the flowers."""

    tiles: tuple[RecognizedTile, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"tiles": [t.to_dict() for t in self.tiles]}


@dataclass(frozen=True)
class Recognition:
    """Everything recognised in one photo, group by group in reading order."""

    groups: tuple[TileGroup, ...]
    #: each tile's grey crop as the classifier saw it, in reading order (for teaching)
    crops: tuple[np.ndarray, ...] = field(default=(), compare=False, repr=False)
    #: groups read but left out, as more tiles than a hand holds (:func:`_within_a_hand`):
    #: most are things beside the tiles; shown, so that a tile among them can be put back
    set_aside: tuple[TileGroup, ...] = ()

    @property
    def tiles(self) -> list[str]:
        return [t.tile for g in self.groups for t in g.tiles]

    def reading(
        self, win_tile: str | None = None, hidden_kongs: list[str] | None = None
    ) -> HandReading:
        """The groups read as a hand (see :func:`hefen.photo.hand.read_hand`;
        ``hidden_kongs`` names the tile of each concealed kong shown as four backs); raises
        :class:`PhotoError` when they cannot be."""
        return read_hand(
            [[t.tile for t in g.tiles] for g in self.groups],
            win_tile,
            hidden_kongs,
            sideways=[any(t.sideways for t in g.tiles) for g in self.groups],
        )

    def hand_fields(
        self, win_tile: str | None = None, hidden_kongs: list[str] | None = None
    ) -> dict[str, Any]:
        """The hand's ``hand``, ``melds``, ``win_tile`` and ``flowers``, read from the groups."""
        return self.reading(win_tile, hidden_kongs).fields()

    def to_dict(self) -> dict[str, Any]:
        """The groups, the tiles, and the ``reading`` as a hand (its fields and each tile's
        role), or ``{"error": sentence}`` there when the tiles make no hand to read."""
        try:
            reading: dict[str, Any] = self.reading().to_dict()
        except PhotoError as exc:
            reading = {"error": str(exc)}
        out = {
            "groups": [g.to_dict() for g in self.groups],
            "tiles": self.tiles,
            "reading": reading,
        }
        if self.set_aside:
            out["set_aside"] = [g.to_dict() for g in self.set_aside]
        return out


# --------------------------------------------------------------------------- reading


def _check_size(width: int, height: int) -> None:
    if width * height > MAX_PIXELS:
        raise PhotoError(
            f"The photo is too large ({width}x{height} pixels); the limit is 25 megapixels."
        )


@functools.cache
def _heif() -> None:
    """Let Pillow open HEIC and HEIF photos (an iPhone's camera saves them) through
    pillow-heif, once. Their rotation (the file's ``irot``, as an iPhone's photo held
    upright keeps it) is applied as they are opened; their EXIF orientation then says
    none, so it is not applied twice."""
    import pillow_heif

    pillow_heif.register_heif_opener()


def _decode(data: bytes, long_side: int | None = None) -> tuple[np.ndarray, float]:
    """The decoded RGB image and how many photo pixels one of its pixels spans. With
    ``long_side``, a large JPEG is decoded at a reduced size (at least that long), which is
    several times faster than decoding it whole. JPEG, PNG, WebP, AVIF, HEIC, GIF, BMP and
    TIFF are read (whatever Pillow and :func:`_heif` open)."""
    if len(data) > MAX_BYTES:
        raise PhotoError("The photo file is larger than 20 MB.")
    _heif()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                _check_size(*im.size)
                full_w = im.size[0]
                if long_side and im.format == "JPEG" and max(im.size) > 2 * long_side:
                    f = long_side / max(im.size)
                    im.draft("RGB", (math.ceil(im.size[0] * f), math.ceil(im.size[1] * f)))
                scale = full_w / im.size[0]
                upright = ImageOps.exif_transpose(im)
                return _on_ground(upright), scale
    except PhotoError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError("The file is not an image that can be read.") from None
    except Exception as exc:  # Pillow's decoders raise many kinds
        raise PhotoError("The image file is damaged or incomplete.") from exc


def _on_ground(im: Image.Image) -> np.ndarray:
    """The image as RGB uint8 (a 16-bit grey one scaled, not clipped to white), a
    transparent one laid on a black ground: a shop's picture of a
    tile cut out of its background leaves whatever colour the file keeps under the clear
    pixels (black, white, or noise; read as it lay, a never-seen set's tiles were read
    right 40 % of the time on noise). On 126 such pictures of each never-seen KMahjongg
    set, read by ``recognize --tile``, a black ground read 77-80 % and 71 % right, a white
    one 73 % and 68 % (black and white studio grounds are both among the training
    photos)."""
    if im.mode.startswith("I") or im.mode == "F":  # 16-bit or 32-bit grey
        grey = np.asarray(im, dtype=np.float64)
        if im.mode.startswith("I;16") or (im.mode == "I" and grey.max() > 255):
            grey = grey / 257.0  # Pillow's own conversion clips them to white
        elif im.mode == "F" and grey.max() <= 1.0:
            grey = grey * 255.0
        grey = np.clip(np.rint(grey), 0, 255).astype(np.uint8)
        return np.ascontiguousarray(np.repeat(grey[:, :, None], 3, axis=2))
    if im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info:
        rgba = im.convert("RGBA")
        ground = Image.new("RGBA", rgba.size, (0, 0, 0, 255))
        return np.asarray(Image.alpha_composite(ground, rgba).convert("RGB"))
    return np.asarray(im.convert("RGB"))


def load_image(image: ImageInput) -> np.ndarray:
    """Any accepted photo as an H x W x 3 RGB uint8 array, or :class:`PhotoError`."""
    return _read(image)[0]


def _read(image: ImageInput, long_side: int | None = None) -> tuple[np.ndarray, float]:
    if isinstance(image, bytes | bytearray):
        return _decode(bytes(image), long_side)
    if isinstance(image, str | os.PathLike):
        path = Path(image)
        if not path.is_file():
            raise PhotoError(f"There is no file at {path}.")
        try:
            if path.stat().st_size > MAX_BYTES:
                raise PhotoError("The photo file is larger than 20 MB.")
            data = path.read_bytes()
        except OSError:
            raise PhotoError(f"The file {path} could not be read.") from None
        return _decode(data, long_side)
    if isinstance(image, np.ndarray):
        arr = image
        if arr.ndim == 2:
            arr = np.repeat(arr[:, :, None], 3, axis=2)
        if arr.ndim != 3 or arr.shape[2] not in (3, 4) or min(arr.shape[:2]) < 1:
            raise PhotoError("The array is not an H x W, H x W x 3 or H x W x 4 image.")
        _check_size(arr.shape[1], arr.shape[0])
        if arr.dtype != np.uint8:
            if not np.issubdtype(arr.dtype, np.number):
                raise PhotoError("The array does not hold pixel values.")
            f = arr.astype(np.float64)
            if not np.isfinite(f).all():
                raise PhotoError("The array holds values that are not numbers.")
            if f.max() <= 1.0:
                f = f * 255.0
            arr = np.clip(f, 0, 255).astype(np.uint8)
        return np.ascontiguousarray(arr[:, :, :3]), 1.0
    raise PhotoError("The photo must be image bytes, a file path or a numpy array.")


# --------------------------------------------------------------------------- recognising


def _ranked(p: np.ndarray) -> list[int]:
    return [int(k) for k in np.argsort(-p[: len(READ_CODES)], kind="stable")]


def _alternatives(p: np.ndarray, chosen: int, k: int = 3) -> tuple[tuple[str, float], ...]:
    out = [(READ_CODES[i], float(p[i])) for i in _ranked(p) if i != chosen]
    return tuple(out[:k])


def _box(quad: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int)
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(shape[1], int(x1)), min(shape[0], int(y1))
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def _counts_to_try(strip_w: int) -> range:
    r = strip_w / CROP_H
    lo = max(1, math.floor(r / TILE_RATIO[1]))
    hi = max(lo, min(30, math.ceil(r / TILE_RATIO[0])))
    return range(lo, hi + 1)


def _edges(n: int) -> list[float]:
    """An equal split into ``n`` tiles, as fractions of the strip's width.

    (Moving each edge to the darkest nearby seam was tried and measured worse.)"""
    return [i / n for i in range(n + 1)]


def _cells(strip: np.ndarray, edges: list[float]) -> list[np.ndarray]:
    w = strip.shape[1]
    px = [round(e * w) for e in edges]
    return [to_crop(strip[:, px[i] : max(px[i + 1], px[i] + 1)]) for i in range(len(px) - 1)]


def choose_tiles(probs: list[np.ndarray]) -> list[int]:
    """For each tile's probabilities, the class to report: the most likely one that the
    set still has a copy of (four of each tile, one of each bonus tile), most confident first."""
    left = {code: copies_allowed(code) for code in READ_CODES}
    chosen = [0] * len(probs)
    order = sorted(range(len(probs)), key=lambda i: -float(probs[i][: len(READ_CODES)].max()))
    for i in order:
        ranked = _ranked(probs[i])
        pick = next((k for k in ranked if left[READ_CODES[k]] > 0), ranked[0])
        left[READ_CODES[pick]] -= 1
        chosen[i] = pick
    return chosen


def _across(strip: np.ndarray) -> np.ndarray:
    """Each column's mean change across a straightened strip (Sobel, absolute): high at
    the seams between tiles and at a drawing's upright strokes."""
    return np.abs(cv2.Sobel(strip.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)).mean(0)


def tile_pitch(strip: np.ndarray) -> float | None:
    """The spacing of the tiles along a straightened strip, from the repeating seams between
    them (autocorrelation of the vertical edges), or None when nothing repeats."""
    grad = _across(strip)
    lo, hi = round(TILE_RATIO[0] * CROP_H), round(TILE_RATIO[1] * CROP_H)
    if len(grad) < 2 * hi:
        return None
    smooth = cv2.blur(grad.reshape(1, -1), (31, 1)).ravel()
    g = grad - smooth
    g = g - g.mean()
    denom = float((g * g).sum())
    if denom <= 0:
        return None
    corr = np.array([float((g[:-lag] * g[lag:]).sum()) / denom for lag in range(lo, hi + 1)])
    k = int(np.argmax(corr))
    return float(lo + k) if corr[k] > 0.1 else None


Split = tuple[float, list[float], np.ndarray, list[np.ndarray]]  # score, edges, probs, crops
Tiles = tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]  # probs, quads, crops


def _score_counts(clf: _Classifier, strip: np.ndarray, counts: list[int]) -> list[Split]:
    """(score, edges, probabilities, crops) of the equal split of the strip into each of
    ``counts`` tiles, the surest first."""
    crops: list[np.ndarray] = []
    splits = []
    for n in counts:
        edges = _edges(n)
        splits.append(edges)
        crops += _cells(strip, edges)
    probs = clf.probabilities(np.stack(crops))
    out: list[Split] = []
    start = 0
    for n, edges in zip(counts, splits, strict=True):
        p = probs[start : start + n]
        out.append((_log_sureness(p), edges, p, crops[start : start + n]))
        start += n
    return sorted(out, key=lambda split: -split[0])


def _trim(strip: np.ndarray) -> tuple[int, int]:
    """Columns at the strip's ends that are bare table (no drawing, no seam): cut them off,
    up to half a tile at each end."""
    grad = _across(strip)
    grad = cv2.blur(grad.reshape(1, -1), (5, 1)).ravel()
    w = len(grad)
    limit = 0.25 * float(np.median(grad))
    reach = min(w // 3, round(0.5 * CROP_H))
    lo = 0
    while lo < reach and grad[lo] < limit:
        lo += 1
    hi = w
    while w - hi < reach and grad[hi - 1] < limit:
        hi -= 1
    return lo, hi


def _part(group: Group, lo: float, hi: float, width: int) -> Group:
    """The part of ``group`` between columns ``lo`` and ``hi`` of its ``width``-wide strip."""
    q = group.quad.astype(np.float64)
    top, bottom = q[1] - q[0], q[2] - q[3]
    corners = [
        q[0] + top * lo / width,
        q[0] + top * hi / width,
        q[3] + bottom * hi / width,
        q[3] + bottom * lo / width,
    ]
    return Group(np.array(corners, np.float32), group.row)


def _gaps(strip: np.ndarray) -> list[tuple[int, int]]:
    """Stretches of bare table inside a strip, at least :data:`MIN_GAP` of its height wide:
    where two groups run together on a pale table. Bare is no drawing and no seam (little
    change across the strip) and no rim either (little change down it): a blank white
    dragon has no drawing, but the edge between its face and its side runs across it."""
    f = strip.astype(np.float32)
    grad = _across(strip)
    grad = cv2.blur(grad.reshape(1, -1), (5, 1)).ravel()
    down = np.abs(cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3))
    rims = float(down.mean(1).max())
    bare = np.concatenate([[0], (grad < 0.25 * float(np.median(grad))).astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(bare))
    w = len(grad)
    return [
        (int(a), int(b))
        for a, b in zip(edges[::2], edges[1::2], strict=True)
        if b - a >= MIN_GAP * CROP_H
        and a > 0
        and b < w
        and float(down[:, a:b].mean(1).max()) < 0.4 * rims
    ]


def _group_parts(
    clf: _Classifier, grey: np.ndarray, group: Group, least: float = MIN_GROUP_CONFIDENCE
) -> list[Tiles]:
    """The tiles of a group, as :func:`_group_tiles`. A group the classifier is unsure of
    that has bare table inside it is two or more groups run together, and is read as its
    parts when they are read more surely; failing that, one whose bottom :data:`FACE_CUT`
    (the tiles' sides, shadow) read as its faces alone is read so when that is surer."""
    whole = _group_tiles(clf, grey, group, 0.0)
    score = _sureness(whole[0])
    if score >= SURE_SPLIT:
        return [whole]
    strip = rectify(grey, group.quad, CROP_H)
    gaps = _gaps(strip)
    if gaps:
        cuts = [0, *(x for gap in gaps for x in gap), strip.shape[1]]
        parts = [
            _group_tiles(clf, grey, _part(group, a, b, strip.shape[1]), 0.0)
            for a, b in zip(cuts[::2], cuts[1::2], strict=True)
            if b - a >= TILE_RATIO[0] * CROP_H
        ]
        probs = [p for part in parts for p in part[0]]
        if probs and _sureness(probs) > score:
            return [part for part in parts if _kept(part[0], least)]
    # the tiles' sides and the shadow below them taken for tile (on a pale table, mostly):
    # the faces alone may read more surely
    q = group.quad.astype(np.float64)
    keep = 1.0 - FACE_CUT
    faces = [q[0], q[1], q[1] + (q[2] - q[1]) * keep, q[0] + (q[3] - q[0]) * keep]
    alone = _group_tiles(clf, grey, Group(np.array(faces, np.float32), group.row), 0.0)
    if _sureness(alone[0]) > score and _kept(alone[0], least):
        return [alone]
    return [whole] if _kept(whole[0], least) else []


def _match_widths(
    clf: _Classifier, grey: np.ndarray, read: list[tuple[Tiles, int]], least: float
) -> list[tuple[Tiles, int]]:
    """Groups read again whose tiles are far wider or narrower than the photo's others: the
    tiles of one photo are about one size, and a pung of three alike tiles splits into two
    wide cells that each look like a tile. Such a group is split into the count that the
    photo's tile width implies, refined, and read so when that is surer."""
    widths = [Group(q).width for (_, quads, _), _ in read for q in quads]
    if len(read) < 2 or not widths:
        return read
    usual = float(np.median(widths))
    out = []
    for tiles, row in read:
        probs, quads, _ = tiles
        group = Group(np.array([quads[0][0], quads[-1][1], quads[-1][2], quads[0][3]]), row)
        n = len(quads)
        implied = max(1, round(group.width / usual))
        mean = group.width / n
        if implied != n and abs(math.log(mean / usual)) > WIDTH_OFF:
            try:
                other = _group_tiles(clf, grey, group, least, implied)
            except PhotoError:  # that count does not fit the strip
                other = ([], [], [])
            if other[0] and _sureness(other[0]) > _sureness(probs):
                tiles = other
        out.append((tiles, row))
    return out


def _sideways(
    clf: _Classifier, grey: np.ndarray, read: list[tuple[Tiles, int]]
) -> tuple[list[tuple[Tiles, int]], list[list[bool]]]:
    """Groups read again with one tile laid sideways (a claimed tile in a meld), and which
    tiles are. A turned tile is wider than an upright one (:data:`SIDEWAYS_WIDTH`) and
    lower: its face, as high as an upright tile's is wide, lies on the row's bottom line
    above its side. A group that upright tiles of the photo's usual width do not fill is
    read as :data:`SIDEWAYS_UPRIGHT` of them and one turned tile, at every place, the
    turned face cut out and turned upright both ways; the surest reading is kept when it
    is surer than the group's upright one by :data:`SIDEWAYS_GAIN` (a turned 5p reads
    nearly as surely as an upright one)."""
    flags = [[False] * len(tiles[0]) for tiles, _ in read]
    widths = [Group(q).width for (_, quads, _), _ in read for q in quads]
    if len(read) < 2 or not widths:
        return read, flags
    usual = float(np.percentile(widths, SIDEWAYS_USUAL))
    out = []
    for g, (tiles, row) in enumerate(read):
        probs, quads, _ = tiles
        group = Group(np.array([quads[0][0], quads[-1][1], quads[-1][2], quads[0][3]]), row)
        r = group.width / max(usual, 1.0)
        k = round(r - sum(SIDEWAYS_WIDTH) / 2)
        if (
            abs(r - round(r)) < SIDEWAYS_OFF
            or k not in SIDEWAYS_UPRIGHT
            or not SIDEWAYS_WIDTH[0] <= r - k <= SIDEWAYS_WIDTH[1]
        ):
            out.append((tiles, row))
            continue
        found = _read_sideways(clf, grey, group, k, r - k)
        if found is not None:
            upright = _log_sureness(np.stack(probs))
            read_upright = _codes(probs)
            turned, melded = found
            if turned[0] > upright + SIDEWAYS_GAIN:
                tiles, at = turned[1], turned[2]
                flags[g] = [i == at for i in range(k + 1)]
            elif melded is not None and (
                (
                    meld_kind(read_upright) is None
                    and set(_codes(melded[1][0])) != {"P"}  # what a pale blank thing reads as
                    and melded[0] > upright - SIDEWAYS_MELD_LOSS
                )
                or (_codes(melded[1][0]) == read_upright and melded[0] >= upright)
            ):
                tiles, at = melded[1], melded[2]
                flags[g] = [i == at for i in range(k + 1)]
        out.append((tiles, row))
    return out, flags


def _codes(probs: list[np.ndarray]) -> list[str]:
    """The tiles ``probs`` (one per cell) read as, each its likeliest."""
    return [READ_CODES[int(p[: len(READ_CODES)].argmax())] for p in probs]


def _read_sideways(
    clf: _Classifier, grey: np.ndarray, group: Group, upright: int, wide: float
) -> tuple[tuple[float, Tiles, int], tuple[float, Tiles, int] | None] | None:
    """The surest reading of ``group`` as ``upright`` tiles and one turned tile ``wide``
    times as wide, at any place: (score, tiles, the turned tile's place); and the surest
    such reading that is a meld (a chow, pung or kong), or None."""
    strip = rectify(grey, group.quad, CROP_H)
    w = strip.shape[1]
    unit = w / (upright + wide)
    turned_w = wide * unit
    # the turned face: as high as an upright face is wide, its bottom where an upright
    # face's bottom would be if the face were as high as the turned tile is wide
    top = max(0, min(CROP_H - 2, round(turned_w - unit)))
    bottom = max(top + 2, min(CROP_H, round(turned_w)))
    layouts: list[list[tuple[float, float]]] = []
    crops: list[np.ndarray] = []
    for at in range(upright + 1):
        cells, x = [], 0.0
        for i in range(upright + 1):
            step = turned_w if i == at else unit
            cells.append((x, x + step))
            x += step
        layouts.append(cells)
        for i, (a, b) in enumerate(cells):
            lo, hi = round(a), max(round(a) + 1, min(w, round(b)))
            if i == at:
                face = strip[top:bottom, lo:hi]
                crops += [to_crop(np.rot90(face, 1)), to_crop(np.rot90(face, 3))]
            else:
                crops.append(to_crop(strip[:, lo:hi]))
    if not crops:
        return None
    probs = clf.probabilities(np.stack(crops))
    logp = np.log(probs[:, : len(READ_CODES)].max(1) + 1e-6)
    best: tuple[float, Tiles, int] | None = None
    melded: tuple[float, Tiles, int] | None = None
    per = upright + 2  # crops per layout
    for at, cells in enumerate(layouts):
        rows = list(range(at * per, at * per + at))
        turn = at * per + at + (0 if logp[at * per + at] >= logp[at * per + at + 1] else 1)
        rows += [turn] + list(range(at * per + at + 2, (at + 1) * per))
        score = float(logp[rows].mean())
        surest = best is None or score > best[0]
        surest_meld = (melded is None or score > melded[0]) and (
            meld_kind(_codes([probs[r] for r in rows])) is not None
        )
        if surest or surest_meld:
            quads = [
                cell_quad(group.quad, a / w, b / w, top / CROP_H if i == at else 0.0)
                for i, (a, b) in enumerate(cells)
            ]
            layout = (score, ([probs[r] for r in rows], quads, [crops[r] for r in rows]), at)
            best = layout if surest else best
            melded = layout if surest_meld else melded
    return None if best is None else (best, melded)


def _kept(probs: list[np.ndarray], least: float) -> bool:
    """Whether a group read as ``probs`` is kept: the classifier is sure enough of its
    tiles, or sure that they are tiles, though not which (a set's flowers it has never
    seen): those are shown with their low confidence, for the player to correct."""
    if not probs:
        return False
    sure = _sureness(probs)
    if sure >= least:
        return True
    tile_ness = 1.0 - np.stack(probs)[:, len(READ_CODES)]
    return sure >= UNSURE_FLOOR and float(tile_ness.mean()) >= TILE_NESS


def _same_height(read: list[tuple[Tiles, int]], heights: list[float]) -> list[tuple[Tiles, int]]:
    """Without the groups found far taller or shorter (``heights``) than the photo's tiles
    (the median over every tile read): the tiles of one photo are one size, and what is
    not is something else on the table -- a box, a label, a phone."""
    if len(read) < 2:
        return read
    usual = float(
        np.median([h for h, (tiles, _) in zip(heights, read, strict=True) for _ in tiles[0]])
    )
    return [
        r
        for h, r in zip(heights, read, strict=True)
        if -SHORTER_OFF <= math.log(max(h, 1.0) / max(usual, 1.0)) <= HEIGHT_OFF
    ]


def _log_sureness(probs: np.ndarray) -> float:
    """How sure the classifier is of a split (N x classes): the mean log of each cell's
    best tile probability (*not a tile* aside)."""
    return float(np.mean(np.log(probs[:, : len(READ_CODES)].max(1) + 1e-6)))


def _sureness(probs: list[np.ndarray]) -> float:
    """:func:`_log_sureness` as a geometric mean, 0 for no tiles."""
    return math.exp(_log_sureness(np.stack(probs))) if probs else 0.0


def _group_tiles(
    clf: _Classifier,
    grey: np.ndarray,
    group: Group,
    least: float = MIN_GROUP_CONFIDENCE,
    count: int | None = None,
) -> Tiles:
    """The most plausible split of one group into tiles: (probabilities, cell quads, crops).

    The tile count is the one whose split the classifier is most sure of: first the
    counts near the seams' spacing, then, if none of those convinces, every plausible count;
    an equal split that still does not convince has its cuts refined (``_refine``).
    """
    strip = rectify(grey, group.quad, CROP_H)
    lo, hi = _trim(strip)
    if (lo, hi) != (0, strip.shape[1]):
        group = _part(group, lo, hi, strip.shape[1])
        strip = strip[:, lo:hi]
    if count:
        aspect = strip.shape[1] / count / CROP_H  # a tile is 0.55-0.8 as wide as high
        if not 0.45 <= aspect <= 1.1:
            raise PhotoError(
                f"The row of tiles found is too {'short' if aspect < 0.45 else 'long'} for "
                f"{count} tiles; photograph them in one row with nothing beside them."
            )
    counts = [count] if count else list(_counts_to_try(strip.shape[1]))
    pitch = None if count else tile_pitch(strip)
    tried: list[Split] = []
    if pitch is not None:
        guess = strip.shape[1] / pitch
        near = [n for n in counts if abs(n - guess) <= 1.01]
        if near:
            tried = _score_counts(clf, strip, near)
    if not tried or math.exp(tried[0][0]) < SURE_SPLIT:
        done = {len(split[1]) - 1 for split in tried}
        rest = [n for n in counts if n not in done]
        if rest:
            tried = sorted(tried + _score_counts(clf, strip, rest), key=lambda split: -split[0])
    if not tried:
        return [], [], []
    best = tried[0]
    if math.exp(best[0]) < SURE_SPLIT:
        # an equal split drifts along a row seen at an angle, and the right count's may
        # then score below a wrong one's: the surest few are refined while none is sure
        for split in tried[:REFINE_COUNTS]:
            best = max(best, _refine(clf, strip, split[1]), key=lambda b: b[0])
            if math.exp(best[0]) >= SURE_SPLIT:
                break
    score, edges, probs, crops = best
    if not _kept(list(probs), least):
        return [], [], []
    return list(probs), cell_quads(group.quad, edges), list(crops)


def _refine(clf: _Classifier, strip: np.ndarray, edges: list[float]) -> Split:
    """The equal split ``edges`` with each inner cut moved by up to :data:`REFINE_STEPS` of a
    tile's width, so that the cells' product of best probabilities is largest (found by
    dynamic programming over the cuts, left to right). A long row seen at an angle does
    not shrink evenly, and an equal split drifts along it."""
    n = len(edges) - 1
    cell = 1.0 / n
    cand = [[edges[0]]] + [[e + d * cell for d in REFINE_STEPS] for e in edges[1:-1]]
    cand.append([edges[-1]])
    crops: list[np.ndarray] = []
    for i in range(n):
        for a in cand[i]:
            for b in cand[i + 1]:
                crops += _cells(strip, [a, b])
    probs = clf.probabilities(np.stack(crops))
    logp = np.log(probs[:, : len(READ_CODES)].max(1) + 1e-6)
    total = np.zeros(1)  # best sum of cells so far, for each candidate of the current cut
    start = 0
    back: list[np.ndarray] = []
    for i in range(n):
        na, nb = len(cand[i]), len(cand[i + 1])
        v = total[:, None] + logp[start : start + na * nb].reshape(na, nb)
        back.append(v.argmax(0))
        total = v.max(0)
        start += na * nb
    choice = [0]
    for i in range(n - 1, -1, -1):
        choice.append(int(back[i][choice[-1]]))
    choice.reverse()
    out_edges = [cand[i][choice[i]] for i in range(n + 1)]
    offsets = np.cumsum([0] + [len(cand[i]) * len(cand[i + 1]) for i in range(n)])
    rows = [offsets[i] + choice[i] * len(cand[i + 1]) + choice[i + 1] for i in range(n)]
    return float(total[0]) / n, out_edges, probs[rows], [crops[r] for r in rows]


def recognize(
    image: ImageInput, memory: TileMemory | None = None, model: TileClassifier | None = None
) -> Recognition:
    """Find and identify every tile in a photo of a mahjong hand.

    ``image`` is the encoded file (bytes), its path, or an RGB (or grey, or RGBA) array;
    with ``memory``, tiles that look like a taught tile are read as it
    (:mod:`hefen.photo.memory`); ``model`` is another classifier than the shipped one (the
    bench's leave-one-style-out models). Raises :class:`PhotoError` when the photo cannot
    be read or shows no tiles.
    """
    base = model or classifier()
    clf: _Classifier = base if memory is None else RememberingClassifier(base, memory)
    return _read_and_recognize(image, clf)


def _read_and_recognize(
    image: ImageInput,
    clf: _Classifier,
    least: float = MIN_GROUP_CONFIDENCE,
    count: int | None = None,
    hand: bool = True,
) -> Recognition:
    rgb, scale = _read(image, DECODE_SIDE)
    try:
        return _recognize(clf, rgb, scale, least, count, hand)
    except PhotoError:
        raise
    except Exception as exc:  # the contract: a bad photo never raises anything else
        raise PhotoError("The photo could not be analysed.") from exc


def _recognize(
    clf: _Classifier,
    rgb: np.ndarray,
    scale: float = 1.0,
    least: float = MIN_GROUP_CONFIDENCE,
    count: int | None = None,
    hand: bool = True,
) -> Recognition:
    """With ``count``, a photo of one group is split into that many tiles; ``hand``: the
    photo shows one player's hand, no more tiles than a hand holds
    (:func:`_within_a_hand`)."""
    if min(rgb.shape[:2]) < 16:
        raise PhotoError("The photo is too small to show mahjong tiles.")
    groups, tile_h = find_groups(rgb)
    if not groups:
        raise PhotoError("No mahjong tiles were found in the photo.")
    factor = min(1.0, WORK_TILE_H / max(tile_h, 1.0))
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    if factor < 1.0:
        h, w = grey.shape
        grey = cv2.resize(
            grey,
            (max(1, round(w * factor)), max(1, round(h * factor))),
            interpolation=cv2.INTER_AREA,
        )
    found: list[tuple[list[np.ndarray], list[np.ndarray]]] = []
    cuts: list[list[np.ndarray]] = []  # each group's crops
    read: list[tuple[Tiles, int]] = []
    heights: list[float] = []  # of the group each was read from, as found
    one = count if len(groups) == 1 else None
    for g in groups:
        small = Group(g.quad * factor, g.row)
        if one:
            parts = [_group_tiles(clf, grey, small, least, one)]
        else:
            parts = _group_parts(clf, grey, small, least)
        kept = [(part, small.row) for part in parts if part[0]]
        read += kept
        heights += [small.height] * len(kept)
    read = _match_widths(clf, grey, read, least)
    read = _same_height(read, heights)
    read, turned = _sideways(clf, grey, read)
    rows = []
    for (probs, quads, cut), row in read:
        found.append((probs, [q / factor for q in quads]))
        cuts.append(cut)
        rows.append(row)
    if not found:
        raise PhotoError("No mahjong tiles were found in the photo.")
    photo_shape = (round(rgb.shape[0] * scale), round(rgb.shape[1] * scale))
    flat = _coloured_backs(rgb, [p for probs, _ in found for p in probs], found)
    flat = _kong_backs(rgb, flat, found)
    picks = iter(choose_tiles(flat))
    adjusted = iter(flat)  # a back's confidence is its own, not the blank face's
    out = []
    for (_probs, quads), flags in zip(found, turned, strict=True):
        tiles = []
        for q, flag in zip(quads, flags, strict=True):
            k, p = next(picks), next(adjusted)
            tiles.append(
                RecognizedTile(
                    tile=READ_CODES[k],
                    confidence=float(p[k]),
                    alternatives=_alternatives(p, k),
                    box=_box(q * scale, photo_shape),
                    sideways=flag,
                )
            )
        out.append(TileGroup(tuple(tiles)))
    # face-down tiles are shown only as a concealed kong (four backs, or two between two
    # alike faces, in one group): a group mostly of backs of another look is no tiles at
    # all but something blank and coloured beside them (a box, a phone's screen)
    usual = float(np.median([t.confidence for g in out for t in g.tiles]))
    width = float(np.median([t.box[2] for g in out for t in g.tiles]))
    tiles_read = sum(len(g.tiles) for g in out)
    keep = [
        not _stray_backs(g)
        and not _seamless_backs(g, grey, [q * factor for q in quads])
        and not _unsure_blanks(g, usual)
        and not _wide_lone(g, width, tiles_read)
        for g, (_probs, quads) in zip(out, found, strict=True)
    ]
    if not any(keep):
        raise PhotoError("No mahjong tiles were found in the photo.")
    within = _within_a_hand(out, keep, usual, rows) if hand else keep
    aside = tuple(g for g, k, w in zip(out, keep, within, strict=True) if k and not w)
    crops = [c for cut, k in zip(cuts, within, strict=True) if k for c in cut]
    out = [g for g, k in zip(out, within, strict=True) if k]
    return Recognition(tuple(out), tuple(crops), aside)


#: A group at least half of blank white dragons is kept only when it is read at least
#: this share as surely (geometric mean) as the photo's usual tile (the median
#: confidence): a pale box, card, cup or sheet reads as a blank face, but less surely
#: than a blank tile (on 200 cluttered tuning photos such groups read 0.2-0.89 and the
#: blank tiles' groups 0.91-0.96). Relative, since every tile of a set the model has
#: never seen reads less surely, and those read as blank faces are tiles to correct.
BLANK_SURE = 0.9


def _unsure_blanks(group: TileGroup, usual: float = 1.0) -> bool:
    """A group mostly of blank white dragons (at least half) read less surely than
    :data:`BLANK_SURE` times ``usual`` (the photo's median tile confidence) -- but not a
    pung or kong of them (a turned tile among them reads less surely), nor a concealed
    kong's look (two alike faces about two blank or face-down tiles: a grey back reads
    as a blank face)."""
    tiles = group.tiles
    codes = [t.tile for t in tiles]
    if 2 * codes.count("P") < len(codes):
        return False
    if len(codes) in (3, 4) and set(codes) == {"P"}:
        return False
    if len(codes) == 4 and codes[0] == codes[3] and {codes[1], codes[2]} <= {"P", BACK}:
        return False
    return _sureness_of(group) < BLANK_SURE * usual


#: A lone tile more than this many times as wide as the photo's usual tile (the median
#: width of every tile's box) is something else: on 200 cluttered tuning photos the
#: things read as one tile were 0.8-3.2 times as wide, half of them over 1.6, and the real
#: lone tiles of those and of 200 plain and never-seen-set hand photos at most 1.46.
LONE_WIDER = 1.55
#: ... when the photo has at least this many tiles besides it to tell the usual width.
LONE_AMONG = 6


def _wide_lone(group: TileGroup, usual_width: float, tiles_read: int) -> bool:
    """A group of one tile far wider (:data:`LONE_WIDER`) than the photo's usual tile, in
    a photo of :data:`LONE_AMONG` other tiles or more: a chip, a cup or a card read as
    one tile."""
    if len(group.tiles) != 1 or tiles_read - 1 < LONE_AMONG:
        return False
    return group.tiles[0].box[2] > LONE_WIDER * usual_width


#: A hand holds 14 tiles besides its flowers and seasons, one more for each kong.
HAND_TILES = 14


def _within_a_hand(
    groups: list[TileGroup],
    keep: list[bool],
    usual: float = 1.0,
    rows: list[int] | None = None,
) -> list[bool]:
    """``keep`` with groups set aside while the kept ones hold more tiles than a hand can:
    :data:`HAND_TILES` besides the bonus tiles, one more for each group of four (a kong,
    or a concealed kong shown face down; every group of four counts, so that a kong read
    as four unlike tiles leaves room for its tile). A group that may be bonus tiles
    (:func:`_maybe_bonus`) is not counted. The group set aside is the least sure
    (geometric mean confidence) of those no larger than the tiles too many, so that no
    more is left out than is surely too many, and read unsurely (under
    :data:`BLANK_SURE` times ``usual``, the photo's median tile confidence) or mostly as
    blank faces: a pale card read as "P P", a stray "9p" on a sheet. A row read as too many
    tiles, or a group read surely (a kong split in two), keeps them all to correct."""
    keep = list(keep)

    def size(g: TileGroup) -> int:
        if _maybe_bonus(g):
            return 0
        return sum(t.tile not in BONUS for t in g.tiles)

    def doubtful(i: int) -> bool:
        g = groups[i]
        if 2 * sum(t.tile == "P" for t in g.tiles) >= len(g.tiles):
            return True
        if _sureness_of(g) >= BLANK_SURE * usual:
            return False
        # a lone tile read unsurely may be a flower of a set the model does not know,
        # unless it is alone in its row, away from the hand's groups
        return len(g.tiles) > 1 or alone(i)

    def alone(i: int) -> bool:
        if rows is None:
            return False
        return not any(keep[j] and rows[j] == rows[i] for j in range(len(groups)) if j != i)

    while True:
        kept = [g for g, k in zip(groups, keep, strict=True) if k]
        limit = HAND_TILES + sum(size(g) == 4 for g in kept)
        over = sum(size(g) for g in kept) - limit
        if over <= 0:
            return keep
        small = [i for i, g in enumerate(groups) if keep[i] and 0 < size(g) <= over and doubtful(i)]
        if not small:
            return keep
        keep[min(small, key=lambda i: _sureness_of(groups[i]))] = False


#: A tile with a flower or season among its alternatives at least this likely may be one.
BONUS_ALTERNATIVE = 0.05


def _maybe_bonus(group: TileGroup) -> bool:
    """A group of up to four tiles any of which is read as a flower or season, or has one
    among its likely alternatives (:data:`BONUS_ALTERNATIVE`), or a larger group at least
    half of such tiles: the bonus tiles of a set the model has never seen are read as
    anything, and lie apart in a group of their own."""
    maybe = sum(
        t.tile in BONUS or any(c in BONUS and p >= BONUS_ALTERNATIVE for c, p in t.alternatives)
        for t in group.tiles
    )
    return maybe > 0 and (len(group.tiles) <= 4 or 2 * maybe >= len(group.tiles))


def _sureness_of(group: TileGroup) -> float:
    """A recognised group's geometric mean confidence."""
    tiles = group.tiles
    return math.exp(sum(math.log(max(t.confidence, 1e-9)) for t in tiles) / len(tiles))


def _stray_backs(group: TileGroup) -> bool:
    """A group at least half of backs that is not a concealed kong's look (four tiles,
    the faces among them alike): tiles lie face down only as a concealed kong, and a
    blank coloured thing (a box, a phone's screen) reads as backs, often with a blank
    white dragon or another face read on its rim beside them."""
    codes = [t.tile for t in group.tiles]
    backs = codes.count(BACK)
    if not backs or 2 * backs < len(codes):
        return False
    return len(codes) != 4 or len({c for c in codes if c != BACK}) > 1


#: Four backs read in a row are four tiles only when the seams between them show: the
#: strongest mean edge across the strip (grey levels, Sobel) within ``SEAM_REACH`` of a
#: tile's width about each of the three cuts, their median, at least ``SEAM_LEAST``. On
#: 200 cluttered photos (seed 95,700,001) the three cards and boxes read as four backs
#: had 0.3-6.5, four tiles face down in 15 hand photos 30-400 (both measured at the
#: photos' full size; read at the pipeline's, none of the three is kept and the kongs are).
SEAM_LEAST, SEAM_REACH = 12.0, 0.25


def _seamless_backs(group: TileGroup, grey: np.ndarray, quads: list[np.ndarray]) -> bool:
    """A group of four backs with no seams between them (:data:`SEAM_LEAST`): a card,
    a box or a phone read as a concealed kong. ``quads`` are its tiles' in ``grey``."""
    if len(group.tiles) != 4 or any(t.tile != BACK for t in group.tiles):
        return False
    quad = np.array([quads[0][0], quads[-1][1], quads[-1][2], quads[0][3]], np.float32)
    across = _across(rectify(grey, quad, CROP_H))
    w = len(across)
    reach = max(1, round(SEAM_REACH * w / 4))
    seams = [
        float(across[max(0, round(k * w / 4) - reach) : round(k * w / 4) + reach + 1].max())
        for k in (1, 2, 3)
    ]
    return float(np.median(seams)) < SEAM_LEAST


def _cell_lab(rgb: np.ndarray, quad: np.ndarray, inset: float) -> np.ndarray:
    """The Lab pixels (N x 3, float32) of a cell's box less ``inset`` of it at each side."""
    c0, c1 = quad.min(0), quad.max(0)
    lo = np.clip(c0 + (c1 - c0) * inset, 0, [rgb.shape[1] - 1, rgb.shape[0] - 1]).astype(int)
    hi = np.clip(c1 - (c1 - c0) * inset, 0, [rgb.shape[1], rgb.shape[0]]).astype(int)
    patch = rgb[lo[1] : max(hi[1], lo[1] + 1), lo[0] : max(hi[0], lo[0] + 1)]
    lab = cv2.cvtColor(np.ascontiguousarray(patch[:, :, :3]), cv2.COLOR_RGB2LAB)
    return lab.reshape(-1, 3).astype(np.float32)


def _face_hue(rgb: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The median Lab a/b of the middle of a cell (a quarter of its area)."""
    return np.median(_cell_lab(rgb, quad, 1 / 4)[:, 1:], axis=0)


def _coloured_backs(
    rgb: np.ndarray, flat: list[np.ndarray], found: list[tuple[list[np.ndarray], list[np.ndarray]]]
) -> list[np.ndarray]:
    """``flat`` (every cell's probabilities, in reading order) with the blank white dragon's
    probability given to the back for the cells read so whose face is coloured
    (:data:`BACK_FACE_HUE` from the photo's usual tile face)."""
    blank, back = READ_CODES.index("P"), READ_CODES.index(BACK)
    if rgb.ndim != 3 or not any(int(p[: len(READ_CODES)].argmax()) == blank for p in flat):
        return flat
    hues = np.array([_face_hue(rgb, q) for _, quads in found for q in quads])
    usual = np.median(hues, axis=0)
    out = []
    for p, hue in zip(flat, hues, strict=True):
        if int(p[: len(READ_CODES)].argmax()) == blank and (
            np.linalg.norm(hue - usual) > BACK_FACE_HUE
        ):
            p = p.copy()
            p[back] += p[blank]
            p[blank] = 0.0
        out.append(p)
    return out


def _face_ground(rgb: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The Lab median of the palest 30 % of a cell (less an eighth of it at each side):
    the colour and lightness of its face's ground, whatever is printed on it."""
    lab = _cell_lab(rgb, quad, 1 / 8)
    return np.median(lab[lab[:, 0] >= np.percentile(lab[:, 0], 70)], axis=0)


def _kong_backs(
    rgb: np.ndarray, flat: list[np.ndarray], found: list[tuple[list[np.ndarray], list[np.ndarray]]]
) -> list[np.ndarray]:
    """``flat`` (every cell's probabilities, in reading order) with the two middle cells
    of a concealed kong's look read as backs: a group of four whose ends read the same
    tile (not a back) and whose middle cells' faces are both unlike the ends'
    (:data:`KONG_BACK_DIFF`, :data:`KONG_BACK_EACH`), each cell's reading given to the
    back as surely."""
    if rgb.ndim != 3:
        return flat
    back = READ_CODES.index(BACK)
    out = list(flat)
    start = 0
    for probs, quads in found:
        cells = range(start, start + len(probs))
        start += len(probs)
        if len(probs) != 4:
            continue
        ends = {int(out[i][: len(READ_CODES)].argmax()) for i in (cells[0], cells[3])}
        if len(ends) != 1 or back in ends:
            continue
        grounds = [_face_ground(rgb, q) for q in quads]
        face = (grounds[0] + grounds[3]) / 2
        if min(np.linalg.norm(grounds[j] - face) for j in (1, 2)) < KONG_BACK_DIFF:
            continue
        if min(np.linalg.norm(grounds[j] - grounds[e]) for j in (1, 2) for e in (0, 3)) < (
            KONG_BACK_EACH
        ):
            continue
        for i in (cells[1], cells[2]):
            p = out[i].copy()
            k = int(p[: len(READ_CODES)].argmax())
            if k != back:
                p[back] += p[k]
                p[k] = 0.0
            out[i] = p
    return out


def teach(
    image: ImageInput,
    codes: list[str],
    memory: TileMemory | None = None,
    model: TileClassifier | None = None,
) -> TileMemory:
    """Remember the tiles of a photo as ``codes``, one per tile found, in reading order
    (added to ``memory``, or to a new one). The photo is read without any memory, so a
    tile taught wrongly can be taught again; a photo of one row is cut into
    ``len(codes)`` tiles; :class:`PhotoError` when the tiles found and the codes differ in
    number."""
    base = model or classifier()
    memory = memory or TileMemory(model=base.memory_key)
    require_model(memory.model, base.memory_key)
    # the tiles to teach are the ones the model does not know: a group it is unsure of
    # still counts, and one row is split into as many tiles as there are codes
    found = _read_and_recognize(image, base, least=0.0, count=len(codes), hand=False)
    if len(found.crops) != len(codes):
        raise PhotoError(
            f"The photo shows {len(found.crops)} tiles but {len(codes)} tile codes were given."
        )
    memory.add(codes, base.run(np.stack(found.crops))[1], found.tiles)
    return memory


def classify_tile(
    image: ImageInput, memory: TileMemory | None = None, model: TileClassifier | None = None
) -> tuple[str, float, tuple[tuple[str, float], ...]]:
    """Identify a picture of one tile: (tile code, confidence, top-3 alternatives).

    The picture may be a tight crop of the tile or its face, or show it on a table or a
    shop's plain ground, at any size, standing, lying or turned (:mod:`hefen.photo.single`
    says how it is found and read). With ``memory``, the tiles taught in it are read as
    taught.
    """
    read = _read_tile(image, memory, model)
    k = read.index
    return READ_CODES[k], float(read.probs[k]), _alternatives(read.probs, k)


def teach_tile(
    image: ImageInput,
    code: str,
    memory: TileMemory | None = None,
    model: TileClassifier | None = None,
) -> TileMemory:
    """Remember the one tile of a picture as ``code`` (added to ``memory``, or to a new
    one): what its surest reading's cuts look like to the model, and how it read them.
    A player's own flowers, photographed one by one, are then read as taught."""
    base = model or classifier()
    memory = memory or TileMemory(model=base.memory_key)
    require_model(memory.model, base.memory_key)
    read = _read_tile(image, None, base, look=True)
    assert read.look is not None and read.looks is not None
    seen = (
        read.look
        if base.match is None
        else memory.taught_like(code, read.look, read.looks, read.parts)
    )
    memory.add([code], seen, [READ_CODES[read.index]])
    return memory


def _read_tile(
    image: ImageInput,
    memory: TileMemory | None = None,
    model: TileClassifier | None = None,
    look: bool = False,
) -> single.TileReading:
    rgb = load_image(image)
    try:
        return single.read_tile(rgb, memory, model, look)
    except PhotoError:
        raise
    except Exception as exc:  # the contract: a bad picture never raises anything else
        raise PhotoError("The picture could not be analysed.") from exc


__all__ = [
    "CROP_W",
    "ImageInput",
    "Recognition",
    "RecognizedTile",
    "TileGroup",
    "classify_tile",
    "load_image",
    "recognize",
    "teach",
    "teach_tile",
]
