"""Find the groups of tiles in a photo with OpenCV.

Tiles are told from the table by colour (against a model of the table fitted to the photo's
border) and by texture (the drawings on their faces). The rows are turned level, each blob
of touching tiles becomes one group, and each group's four edges are fitted as lines so that
a tilted camera's trapezoid can be straightened.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

WORK_SIDE = 640  # long side of the picture the groups are looked for in
#: A table this nearly grey (Lab chroma) and lighter than this (OpenCV's Lab L, 0..255) is
#: read as a pale one; grey felt, darker, keeps the ivory-face cue.
GREY_CHROMA, GREY_LIGHTNESS = 10.0, 112.0
TRIM_MARGIN = 0.08  # of the row's height: how far outside its fitted edges a blob is kept
#: The widest gap, as a share of the tiles' height, closed between two tiles of one group;
#: a wider one parts groups. At 0.14 two melds laid a third of a tile apart were often read
#: as one, the shadow between them narrowing the gap.
JOIN_ALONG = 0.06
#: On a pale table, Canny's thresholds (Sobel magnitude at full light) for a tile's rim.
#: At 24 and 10 (before) the noise of a bright highlight chained into lines that joined
#: every group into one blob; tile count right on pale tuning photos 87 -> 95 %.
EDGE_HIGH, EDGE_LOW = 60.0, 24.0
#: On felt or wood, a pixel this far from the table's colour in hue (Lab a/b, doubled, as
#: the pale table's cue) and no darker than it is tile when its piece touches tile faces:
#: the coloured back of a tile lying face down, which is neither ivory nor busy with drawing.
BACK_HUE = 36.0
#: A blob about one tile wide (under this many of its heights) that fills less than
#: :data:`LONE_FILL` of its quad is no tile: tiles are rectangles, a chip, a cup or a
#: hand is not (the lone tiles of hand photos fill 0.9 or more).
LONE_WIDTH = 1.3
LONE_FILL = 0.88
#: A blob of the first mask higher than this many of the tiles' heights is no row of
#: tiles (a box, a phone, a cup, or two rows run together): its pieces are joined on their
#: own, lest the join run it into a group of tiles beside it and the group be read as one
#: tall row. On the bench's 100 cluttered photos the tile count right 87 -> 90 %, on 200
#: fresh ones (seed 95,700,001) 82.5 -> 84 %. Blobs lower than a tile were tried as well
#: and not kept: on a pale table a face's drawing may be a blob of its own, and the join
#: is what puts it back into its row (a hand photo lost a tile).
THING_HIGH = 1.5
#: A joined piece higher than ``CORE_OVER`` of the tiles' height is cut to the band of
#: the first blobs within it ``CORE_HEIGHT`` of the tiles' height (its core of tiles),
#: ``CORE_MARGIN`` of the height around it.
CORE_OVER, CORE_HEIGHT, CORE_MARGIN = 1.3, (0.85, 1.3), 0.1
#: The least texture (Sobel magnitude, 7 x 7 mean) a tile's drawing has.
BUSY_FLOOR = 40.0
#: The tiles' height is weighed by how many tiles each blob would hold, over the blobs at
#: least ``ROW_FLOOR`` of the height that weighing by area finds (the height before,
#: thrown off by a large thing beside the tiles), or as long as a row of ``ROW_TILES``
#: tiles (length over height) and ``ROW_MIN_H`` pixels high (of the picture the groups
#: are looked for in): a thin blob, a line of writing or a crack, holds many "tiles" for
#: its area. On 80 tuning photos with things beside the tiles (not the bench's), the
#: height more than 30 % off 15 -> 9 (floors 0.25, 0.3, 0.4, 0.5 alone: 10, 9, 11, 12;
#: rows alone, at most 16 tiles: 11). The seams between tiles as the cue instead, on the
#: bench's first 80 cluttered photos: 10 off, against 6 this way and 15 before.
ROW_FLOOR, ROW_TILES, ROW_MIN_H = 0.35, (3.0, 16.0), 12.0
#: The tiles' height measured down the columns (:func:`_rows_measured`) is taken when it
#: is more than ``RUN_AGREE`` times off the blobs' rectangles' height; a blob's columns
#: that run through ``RUN_NEAR`` of it are the tiles that weigh its direction, measured
#: again when that moves the direction more than ``RUN_TURN`` degrees.
RUN_AGREE, RUN_NEAR, RUN_TURN = 1.25, (0.7, 1.4), 1.0
#: ... and only when at least ``RUN_SHARE`` of the tiles its runs hold are within
#: ``RUN_NEAR_SHARE`` of it (a row whose mask broke into pieces has runs of every length).
RUN_SHARE, RUN_NEAR_SHARE = 0.5, 0.15
#: Runs shorter than this share of the length that weighing by length finds are left out.
RUN_FLOOR = 0.25
#: A joined blob whose mean height over its columns is more than ``SPLIT_OVER`` tiles is
#: two rows, or a row and a thing beside it, and is cut at its thinnest line (after a
#: thing is cut off to the tiles' band, :func:`_to_core`). At 1.6 (before) a row touching
#: a card wider than it below stayed whole (the card's own columns pull the mean down)
#: and was read unsure and lost. With the cut made before the core, the 200 cluttered
#: tuning photos (seeds 95,500,001 and 95,600,001) had the count right 1.6: 185, 1.45:
#: 186, 1.35: 186; plain hand photos (the bench's 300) 98.0, 98.3, 98.7 %; the bench's 100
#: cluttered photos 94, 93, 92 %: 1.45 between. Made after the core, 1.45 reads 185.
SPLIT_OVER = 1.45
#: ... and so is one more than ``SPLIT_TALL`` tiles high however thin (a row with a
#: narrow thing hanging from it: its mean height stays near a tile's). Tuning photos as
#: before (185 of 200); the bench's plain hand photos 98.3 -> 98.7 %, its cluttered ones
#: 93 -> 94 %, fresh ones (seed 95,700,001) 89.0 -> 90.0 %.
SPLIT_TALL = 2.0


@dataclass
class Group:
    """A row of touching tiles: corners (tl, tr, br, bl) in the photo's pixels."""

    quad: np.ndarray  # 4 x 2 float32
    row: int = 0

    @property
    def height(self) -> float:
        q = self.quad
        return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)

    @property
    def width(self) -> float:
        q = self.quad
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)


def _table_model(lab: np.ndarray, band: int) -> np.ndarray:
    """The table's colour everywhere: a quadratic surface fitted to the photo's border."""
    h, w = lab.shape[:2]
    sel = np.zeros((h, w), bool)
    sel[:band] = sel[-band:] = True
    sel[:, :band] = sel[:, -band:] = True
    ys, xs = np.nonzero(sel)
    step = max(1, len(ys) // 4000)
    ys, xs = ys[::step], xs[::step]
    u, v = xs / w - 0.5, ys / h - 0.5
    basis = np.stack([np.ones_like(u), u, v, u * u, v * v, u * v], 1)
    vals = lab[ys, xs].astype(np.float64)
    keep = np.ones(len(ys), bool)
    coef = np.zeros((6, 3))
    for _ in range(3):
        a = basis[keep]
        # normal equations: a 6 x 6 solve (lstsq's threaded BLAS is slow on a busy machine)
        coef = np.linalg.solve(a.T @ a + 1e-9 * np.eye(6), a.T @ vals[keep])
        resid = np.linalg.norm(vals - basis @ coef, axis=1)
        limit = 2.5 * (np.median(resid[keep]) + 1.0)
        keep = resid < limit
        if keep.sum() < 50:
            break
    # evaluate on a coarse grid and enlarge: the surface is smooth
    gu, gv = np.meshgrid(np.linspace(-0.5, 0.5, 33), np.linspace(-0.5, 0.5, 33))
    coarse = np.stack([np.ones_like(gu), gu, gv, gu * gu, gv * gv, gu * gv], -1) @ coef
    return cv2.resize(coarse.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


#: Each side of the photo's border is cut into this many pieces, and a piece with
#: something on it (far busier or farther from the table's colour than the border's
#: usual piece) is left out of the border's statistics (:func:`_clear_pieces`).
BORDER_PIECES = 8
#: How much busier (its 99th percentile of texture) than the median piece a piece may be.
BORDER_BUSIER = 3.0
#: How much farther from the table's colour (its median distance) than the median piece.
BORDER_FARTHER = 3.0


def _border_pieces(img: np.ndarray, band: int) -> list[np.ndarray]:
    """The photo's border (``band`` pixels wide) as :data:`BORDER_PIECES` pieces a side."""
    h, w = img.shape[:2]
    n = BORDER_PIECES
    pieces = []
    for side in (img[:band], img[-band:]):
        pieces += [side[:, i * w // n : (i + 1) * w // n] for i in range(n)]
    for side in (img[:, :band], img[:, -band:]):
        pieces += [side[i * h // n : (i + 1) * h // n] for i in range(n)]
    return pieces


def _clear_pieces(texture: np.ndarray, diff: np.ndarray, band: int) -> list[bool]:
    """Which border pieces show the table alone. A box, a phone or a card cut by the
    photo's edge lies in the border: its outline would raise the border's texture
    percentile, which sets how busy a tile's drawing must be, until no drawing counted
    (on a cluttered photo the tiles were then lost and the thing read as a tile). A piece
    is left out when its texture's 99th percentile is over :data:`BORDER_BUSIER` times the
    median piece's, or its median distance from the table's colour over
    :data:`BORDER_FARTHER` times the median piece's (and 8 more); at least half the
    pieces are always kept (the table itself may be busy)."""
    busy = np.array([float(np.percentile(p, 99)) for p in _border_pieces(texture, band)])
    far = np.array([float(np.median(p)) for p in _border_pieces(diff, band)])
    keep = (busy <= BORDER_BUSIER * max(1.0, float(np.median(busy)))) & (
        far <= BORDER_FARTHER * float(np.median(far)) + 8.0
    )
    if keep.sum() < len(keep) / 2:
        return [True] * len(keep)
    return [bool(k) for k in keep]


def _border_stats(img: np.ndarray, band: int, clear: list[bool] | None = None) -> np.ndarray:
    """The values of ``img`` on the photo's border (only its ``clear`` pieces; all of
    them by default)."""
    pieces = _border_pieces(img, band)
    keep = clear if clear is not None else [True] * len(pieces)
    return np.concatenate([p.ravel() for p, k in zip(pieces, keep, strict=True) if k])


def tile_mask(rgb_small: np.ndarray) -> np.ndarray:
    """Pixels that look like tiles rather than table (uint8 0/255)."""
    h, w = rgb_small.shape[:2]
    band = max(3, round(0.03 * min(h, w)))
    lab = cv2.cvtColor(rgb_small, cv2.COLOR_RGB2Lab).astype(np.float32)
    table = _table_model(lab, band)
    d = (lab - table) * np.array([1.0, 2.0, 2.0], np.float32)
    diff = cv2.GaussianBlur(np.sqrt((d * d).sum(-1)), (0, 0), 1.2)
    grey: np.ndarray = cv2.cvtColor(rgb_small, cv2.COLOR_RGB2GRAY).astype(np.float32)
    grey = cv2.GaussianBlur(grey, (0, 0), 0.8)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1)
    mag = np.sqrt(gx * gx + gy * gy)
    texture = cv2.blur(mag, (7, 7))
    border = _border_stats(diff, band)
    med = float(np.median(border))
    mad = float(np.median(np.abs(border - med))) * 1.4826

    # On a pale table the colour cue is weak and the outlines are needed; elsewhere they
    # would only add the table's own texture. A grey table counts as pale however dim the
    # photo (a white cloth in poor light): its tiles are no lighter than it by much either.
    table_colour = np.median(lab[:band].reshape(-1, 3), axis=0)
    pale = float(np.linalg.norm((table_colour - [240.0, 128.0, 134.0]) * [1.0, 2.0, 2.0])) < 70
    table_chroma = float(np.hypot(table_colour[1] - 128.0, table_colour[2] - 128.0))
    pale = pale or (table_chroma < GREY_CHROMA and float(table_colour[0]) > GREY_LIGHTNESS)
    clear = _clear_pieces(texture, diff, band) if pale else None
    # the drawings on the faces: far busier than the table's own texture
    busy = texture > max(
        BUSY_FLOOR, float(np.percentile(_border_stats(texture, band, clear), 99.5)) * 1.5
    )
    if pale:
        # outlines: faint edges that join up (a tile's rim)
        # A tile's rim is a strong edge somewhere along it; a bright cloth's noise and
        # the banding of its highlights are faint ones that Canny would chain into lines
        # joining the groups. Both thresholds have floors, in proportion to the light.
        light_scale = float(np.clip(table_colour[0] / 240.0, 0.5, 1.0))
        hi = max(
            EDGE_HIGH * light_scale,
            float(np.percentile(_border_stats(mag, band, clear), 99.5)) * 1.5,
        )
        lo = max(EDGE_LOW * light_scale, hi / 2.5)
        outline = cv2.Canny(np.clip(grey, 0, 255).astype(np.uint8), lo, hi, L2gradient=True)
        edges = cv2.dilate(outline, np.ones((3, 3), np.uint8)) > 0
        # lighting gradients on a pale table look like tiles to the colour cue: use hue only
        hue = np.linalg.norm(d[:, :, 1:], axis=-1) > 36.0
        mask = hue | busy | edges
    else:
        # Tile faces are ivory: pale and nearly grey, unlike felt or wood.
        chroma = np.hypot(lab[:, :, 1] - 128.0, lab[:, :, 2] - 128.0)
        light = lab[:, :, 0] > max(90.0, float(table_colour[0]) + 20.0)
        ivory = (chroma < 24.0) & light & (diff > max(20.0, med + 4 * mad))
        ivory = cv2.morphologyEx(ivory.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # a tile lying face down shows its coloured back: far from the table in hue, and
        # not a shadow (no darker than the table)
        hue = (np.linalg.norm(d[:, :, 1:], axis=-1) > BACK_HUE) & (
            lab[:, :, 0] > float(table_colour[0]) - 10.0
        )
        hue = cv2.morphologyEx(hue.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        faces = (ivory > 0) | busy
        mask = faces | _touching(hue, faces)
    mask = mask.astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _touching(part: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """The connected pieces of ``part`` (uint8) that touch ``faces`` (bool): a tile's
    coloured back lies in a row beside other tiles' faces, a coloured box on the table
    seldom does (with every coloured piece, the cluttered tuning photos' tile count right
    fell from 52 to 35 %)."""
    n, labels = cv2.connectedComponents(part, connectivity=8)
    if n <= 1:
        return np.zeros(part.shape, bool)
    near = cv2.dilate(faces.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    keep = np.zeros(n, bool)
    keep[np.unique(labels[near & (labels > 0)])] = True
    keep[0] = False
    return keep[labels]


def _fill(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out


def _blobs(mask: np.ndarray, min_area: float) -> list[tuple[np.ndarray, tuple]]:
    """(contour, minAreaRect) of each filled blob at least ``min_area`` big."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [(c, cv2.minAreaRect(c)) for c in contours if cv2.contourArea(c) >= min_area]


def _edge_angle(p: np.ndarray, q: np.ndarray) -> float:
    """Direction from p to q in degrees, folded into [-90, 90)."""
    a = math.degrees(math.atan2(float(q[1] - p[1]), float(q[0] - p[0])))
    return (a + 90.0) % 180.0 - 90.0


def _weighted_median(values: np.ndarray | list[float], weights: np.ndarray | list[float]) -> float:
    """The value at which the weights, the values in order, reach half their sum."""
    order = np.argsort(values)
    cum = np.cumsum(np.asarray(weights, np.float64)[order])
    return float(np.asarray(values)[order][np.searchsorted(cum, cum[-1] / 2)])


def _row_angle_and_height(blobs: list[tuple[np.ndarray, tuple]]) -> tuple[float, float] | None:
    """The rows' direction (degrees) and the tiles' height, from the blobs' rectangles.

    The photo is taken to be roughly upright (rows within 45 degrees of level), so of each
    rectangle's two edge directions the flatter one runs along the row -- whether the blob
    is one upright tile or a long group -- and the steeper edge is the tiles' height.

    The direction is the blobs' median weighted by their area. The height is weighted by
    how many tiles of that height each blob would hold (its area over its height squared):
    a row of tiles is long for its height, while a box, a sheet or a phone beside the tiles
    is large but seldom long, and by area it could outweigh the tiles. Thin blobs (a line
    of writing, a crack) hold many "tiles" for their area: only those at least
    :data:`ROW_FLOOR` of the height by area, or as long as a row of :data:`ROW_TILES`
    tiles and :data:`ROW_MIN_H` high, count.
    """
    angles, heights, areas = [], [], []
    for contour, rect in blobs:
        if min(rect[1]) <= 0:
            continue
        angle, height = _rect_angle_and_height(rect)
        angles.append(angle)
        heights.append(height)
        areas.append(float(cv2.contourArea(contour)))
    if not angles:
        return None

    by_area = _weighted_median(heights, areas)
    tiles = []
    for a, h in zip(areas, heights, strict=True):
        count = a / h**2
        row = ROW_TILES[0] <= count <= ROW_TILES[1] and h >= ROW_MIN_H
        tiles.append(count if row or h >= ROW_FLOOR * by_area else 0.0)
    # the direction too by the tiles each blob holds: a phone or a box lying square to the
    # photo outweighed a slanted row of tiles by area alone
    return _weighted_median(angles, tiles if sum(tiles) > 0 else areas), _weighted_median(
        heights, tiles
    )


def _turn(shape: tuple[int, ...], angle: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map that turns a picture of ``shape`` by ``angle`` degrees about its
    centre, and the size (width, height) that holds all of it turned."""
    sh, sw = shape[:2]
    centre = (sw / 2, sh / 2)
    rot = cv2.getRotationMatrix2D(centre, angle, 1.0)
    cos, sin = abs(rot[0, 0]), abs(rot[0, 1])
    lw, lh = int(sh * sin + sw * cos) + 2, int(sh * cos + sw * sin) + 2
    rot[0, 2] += lw / 2 - centre[0]
    rot[1, 2] += lh / 2 - centre[1]
    return rot, (lw, lh)


def _column_runs(labels: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """In the picture of blob ``labels`` (uint16, 0 the table) turned by ``angle`` so
    that the rows lie level, each column's runs down through a blob: their lengths, and
    the blob each runs through."""
    rot, size = _turn(labels.shape, angle)
    cols = cv2.warpAffine(labels, rot, size, flags=cv2.INTER_NEAREST).T
    padded = np.pad(cols, ((0, 0), (1, 1)))
    col, pos = np.nonzero(padded[:, 1:] != padded[:, :-1])  # where a run starts or ends
    same = col[:-1] == col[1:]
    start, end, col = pos[:-1][same], pos[1:][same], col[:-1][same]
    blob = cols[col, start]
    inside = blob > 0
    return (end - start)[inside].astype(np.float64), blob[inside].astype(np.int64)


def _row_runs(lengths: np.ndarray) -> np.ndarray:
    """The columns' runs at least :data:`ROW_MIN_H` long and :data:`RUN_FLOOR` of the
    length that weighing by length finds: not a smear's or a line of writing's, while a
    box beside the row up to four tiles high leaves the row's."""
    if not len(lengths):
        return lengths
    floor = max(ROW_MIN_H, RUN_FLOOR * _weighted_median(lengths, lengths))
    return lengths[lengths >= floor]


def _run_height(keep: np.ndarray) -> float | None:
    """The tiles' height from the columns' runs through the blobs that
    :func:`_row_runs` keeps: their median weighed by how many tiles of its height each
    column is (1 / its length)."""
    return _weighted_median(keep, 1.0 / keep) if len(keep) else None


def _near_share(keep: np.ndarray, height: float) -> float:
    """The share of the tiles the kept runs hold (as :func:`_run_height` weighs them)
    that are within :data:`RUN_NEAR_SHARE` of ``height``: most, where a row's columns
    run through whole tiles; few, where its mask broke into pieces."""
    weight = 1.0 / keep
    near = np.abs(keep / height - 1.0) <= RUN_NEAR_SHARE
    return float(weight[near].sum() / weight.sum())


def _rows_measured(
    first: np.ndarray, blobs: list[tuple[np.ndarray, tuple]]
) -> tuple[float, float] | None:
    """The rows' direction and the tiles' height, measured down the columns of the
    picture turned level.

    :func:`_row_angle_and_height` gives the first direction and height. A blob's
    rectangle cannot tell a row of tiles from a row run into a box or a sheet beside it
    (the two are one rectangle, taller than either), and there the height came out two
    to four times too high. Turned level, each column of a row of tiles runs through one
    tile's height, a column of a box beside it through the box's: the height is also
    taken column by column (:func:`_run_height`). The first stands where the two are
    within :data:`RUN_AGREE` of each other, or where less than :data:`RUN_SHARE` of the
    runs agree with the runs' height (:func:`_near_share`: on a pale table a row's mask
    may break into pieces, whose columns run through parts of tiles). Otherwise the runs'
    height is taken, and the direction is the blobs' again, each weighed by the columns of it that run through
    :data:`RUN_NEAR` of that height (two smears on the table no longer outweigh a row),
    the height measured again if the direction moved more than :data:`RUN_TURN` degrees.
    """
    found = _row_angle_and_height(blobs)
    if found is None:
        return None
    angle = found[0]
    labels = np.zeros(first.shape[:2], np.uint16)
    for k, (contour, _rect) in enumerate(blobs[:65535]):
        cv2.drawContours(labels, [contour], -1, k + 1, -1)
    lengths, owner = _column_runs(labels, angle)
    keep = _row_runs(lengths)
    height = _run_height(keep)
    if height is None or max(height, found[1]) <= RUN_AGREE * min(height, found[1]):
        return found
    if _near_share(keep, height) < RUN_SHARE:
        return found
    near = (lengths >= RUN_NEAR[0] * height) & (lengths <= RUN_NEAR[1] * height)
    tiles = np.bincount(owner[near], minlength=len(blobs) + 1)[1 : len(blobs) + 1] / height
    if tiles.sum() > 0:
        angles = np.array([_rect_angle_and_height(rect)[0] for _c, rect in blobs])
        turned = _weighted_median(angles, tiles.astype(np.float64))
        if abs(turned - angle) > RUN_TURN:
            angle = turned
            height = _run_height(_row_runs(_column_runs(labels, angle)[0])) or height
    return angle, height


def _rect_angle_and_height(rect: tuple) -> tuple[float, float]:
    """A blob's rectangle's direction along the row (degrees) and its height: of its two
    edges the flatter runs along the row, the steeper is the height."""
    pts = cv2.boxPoints(rect)
    a1, a2 = _edge_angle(pts[0], pts[1]), _edge_angle(pts[1], pts[2])
    e1, e2 = float(np.linalg.norm(pts[1] - pts[0])), float(np.linalg.norm(pts[2] - pts[1]))
    return (a1, e2) if abs(a1) <= abs(a2) else (a2, e1)


def _things(blobs: list[tuple[np.ndarray, tuple]], tile_h: float) -> list[np.ndarray]:
    """The contours of the blobs higher than a row of tiles (:data:`THING_HIGH`)."""
    return [c for c, rect in blobs if _rect_angle_and_height(rect)[1] > THING_HIGH * tile_h]


def _to_core(
    piece: tuple[int, int, np.ndarray],
    labels: np.ndarray,
    stats: np.ndarray,
    tile_like: np.ndarray,
    tile_h: float,
) -> tuple[int, int, np.ndarray]:
    """A joined piece higher than :data:`CORE_OVER` tiles, cut to the band of the first
    blobs of a tile's height within it (:data:`CORE_HEIGHT`): a thing lower or higher than
    a tile that the join ran into a row of tiles is cut off above or below it."""
    x, y, blob = piece
    bh, bw = blob.shape
    if bh <= CORE_OVER * tile_h:
        return piece
    inside = labels[y : y + bh, x : x + bw][blob > 0]
    core = [int(k) for k in np.unique(inside) if tile_like[k]]
    if not core:
        return piece
    top = min(int(stats[k, cv2.CC_STAT_TOP]) for k in core) - y
    bottom = max(int(stats[k, cv2.CC_STAT_TOP] + stats[k, cv2.CC_STAT_HEIGHT]) for k in core) - y
    margin = round(CORE_MARGIN * tile_h)
    cut = blob.copy()
    cut[: max(0, top - margin)] = 0
    cut[bottom + margin :] = 0
    return _to_box(x, y, cut) or piece


def _line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Least-squares y = a * x + b."""
    xm, ym = float(x.mean()), float(y.mean())
    var = float(((x - xm) ** 2).sum())
    a = float(((x - xm) * (y - ym)).sum()) / var if var > 0 else 0.0
    return a, ym - a * xm


def _fit_edge(coords: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """Robust straight line values = a * coords + b."""
    if len(coords) < 2:
        return 0.0, float(np.median(values)) if len(values) else 0.0
    a, b = _line(coords, values)
    return _refit(coords, values, a, b, rounds=2, floor=1.5, spread=2.0)


def _refit(
    coords: np.ndarray,
    values: np.ndarray,
    a: float,
    b: float,
    rounds: int,
    floor: float,
    spread: float,
) -> tuple[float, float]:
    """The line a * coords + b fitted again, ``rounds`` times, to the values within
    ``spread`` times the median distance of it (or ``floor`` pixels)."""
    for _ in range(rounds):
        resid = np.abs(values - (a * coords + b))
        keep = resid <= max(floor, spread * float(np.median(resid)))
        if keep.sum() < 2:
            break
        a, b = _line(coords[keep], values[keep])
    return a, b


def _quad(blob: np.ndarray) -> np.ndarray | None:
    """Corners of a level blob (uint8 mask cut to its bounding box) from its four edges."""
    h, w = blob.shape
    on = blob > 0
    cols = np.nonzero(on.any(0))[0]
    rows = np.nonzero(on.any(1))[0]
    if len(cols) < 3 or len(rows) < 3:
        return None
    c_lo, c_hi = cols[0] + 0.12 * (cols[-1] - cols[0]), cols[-1] - 0.12 * (cols[-1] - cols[0])
    cs = np.array([c for c in cols if c_lo <= c <= c_hi] or list(cols))
    top = np.argmax(on[:, cs], axis=0).astype(np.float64)
    bottom = (h - 1 - np.argmax(on[::-1, cs], axis=0)).astype(np.float64) + 1
    r_lo, r_hi = rows[0] + 0.2 * (rows[-1] - rows[0]), rows[-1] - 0.2 * (rows[-1] - rows[0])
    rs = np.array([r for r in rows if r_lo <= r <= r_hi] or list(rows))
    left = np.argmax(on[rs, :], axis=1).astype(np.float64)
    right = (w - 1 - np.argmax(on[rs, ::-1], axis=1)).astype(np.float64) + 1
    ta, tb = _fit_edge(cs.astype(np.float64), top)
    ba, bb = _fit_edge(cs.astype(np.float64), bottom)
    la, lb = _fit_edge(rs.astype(np.float64), left)
    ra, rb = _fit_edge(rs.astype(np.float64), right)
    # The ends are short and ragged (rounded corners, shadows): give them one common slant.
    # What straightens the spacing along the row is the top and bottom edges' convergence.
    slant = (la + ra) / 2
    rsf = rs.astype(np.float64)
    lb = float(np.median(left - slant * rsf))
    rb = float(np.median(right - slant * rsf))
    la = ra = slant

    def meet(ya: float, yb: float, xa: float, xb: float) -> tuple[float, float]:
        # y = ya * x + yb and x = xa * y + xb
        y = (ya * xb + yb) / (1 - ya * xa) if abs(1 - ya * xa) > 1e-6 else yb
        return xa * y + xb, y

    pts = [meet(ta, tb, la, lb), meet(ta, tb, ra, rb), meet(ba, bb, ra, rb), meet(ba, bb, la, lb)]
    quad = np.array(pts, np.float32)
    if not np.isfinite(quad).all():
        return None
    return quad


def _level_fit(coords: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """A nearly level line through most of ``values``: started from their median (the
    picture is turned level), so that up to half of them may be far off it."""
    return _refit(coords, values, 0.0, float(np.median(values)), rounds=4, floor=2.0, spread=2.5)


def _trim_to_row(blob: np.ndarray) -> np.ndarray:
    """``blob`` without what sticks out above or below its row: table (bright wood grain, a
    reflection) that joined the tiles along part of the row. The row's top and bottom
    edges are fitted through most columns; pixels well outside them are dropped."""
    h, w = blob.shape
    on = blob > 0
    cols = np.nonzero(on.any(0))[0]
    if len(cols) < 8:
        return blob
    x = cols.astype(np.float64)
    top = np.argmax(on[:, cols], axis=0).astype(np.float64)
    bottom = (h - 1 - np.argmax(on[::-1, cols], axis=0)).astype(np.float64)
    ta, tb = _level_fit(x, top)
    ba, bb = _level_fit(x, bottom)
    xs = np.arange(w, dtype=np.float64)
    height = float(np.median((ba * x + bb) - (ta * x + tb)))
    if height <= 0:
        return blob
    margin = TRIM_MARGIN * height
    ys = np.arange(h, dtype=np.float64)[:, None]
    inside = (ys >= ta * xs + tb - margin) & (ys <= ba * xs + bb + margin)
    if inside[on].mean() > 0.97:  # nothing of note sticks out
        return blob
    return (on & inside).astype(np.uint8)


def _mean_height(blob: np.ndarray) -> float:
    """A blob's average height over the columns it covers."""
    cols = int(blob.any(0).sum())
    return float(blob.sum()) / max(cols, 1)


def _split_rows(
    x: int, y: int, blob: np.ndarray, tile_h: float
) -> list[tuple[int, int, np.ndarray]]:
    """Cut a blob that is two rows run together, or a row and a thing beside it
    (:data:`SPLIT_OVER`, :data:`SPLIT_TALL`), at its thinnest line."""
    bh = blob.shape[0]
    if _mean_height(blob) <= SPLIT_OVER * tile_h and bh <= SPLIT_TALL * tile_h:
        return [(x, y, blob)]
    profile = blob.sum(1).astype(np.float64)
    lo, hi = int(0.6 * tile_h), int(bh - 0.6 * tile_h)
    if hi <= lo:
        return [(x, y, blob)]
    cut = lo + int(np.argmin(profile[lo:hi]))
    out = []
    for top, part in ((0, blob[:cut]), (cut, blob[cut:])):
        boxed = _to_box(x, y + top, part)
        if boxed is not None:
            out += _split_rows(*boxed, tile_h)
    return out


def _to_box(x: int, y: int, blob: np.ndarray) -> tuple[int, int, np.ndarray] | None:
    """``blob`` (placed at ``x``, ``y``) cut to the box of its pixels; None if it has none."""
    rows = np.nonzero(blob.any(1))[0]
    cols = np.nonzero(blob.any(0))[0]
    if len(rows) == 0:
        return None
    cut = blob[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    return x + int(cols[0]), y + int(rows[0]), cut


def reduced(rgb: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """The picture reduced (area-averaged) so that its long side is at most ``side``
    pixels, and the scale it was reduced by (1.0: not reduced)."""
    h, w = rgb.shape[:2]
    scale = min(1.0, side / max(h, w))
    if scale == 1.0:
        return rgb, 1.0
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_AREA), scale


def find_groups(rgb: np.ndarray) -> tuple[list[Group], float]:
    """The groups of tiles in an RGB photo, in reading order, and the tiles' height (pixels)."""
    small, scale = reduced(rgb, WORK_SIDE)
    sh, sw = small.shape[:2]
    mask = tile_mask(small)
    first = _fill(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))
    blobs = _blobs(first, min_area=0.0015 * sh * sw)
    found = _rows_measured(first, blobs)
    if found is None:
        return [], 0.0
    angle, tile_h = found
    # Blobs higher than the tiles are joined on their own (THING_HIGH).
    apart = np.zeros_like(mask)
    things = _things(blobs, tile_h)
    if things:
        cv2.drawContours(apart, things, -1, 255, -1)
        apart &= mask
        mask = mask & ~apart

    # Turn the picture so that the rows are level, and join each group's tiles.
    rot, (lw, lh) = _turn(small.shape, angle)
    kw = max(3, round(JOIN_ALONG * tile_h)) | 1
    kh = max(3, round(0.22 * tile_h)) | 1
    back = cv2.invertAffineTransform(rot)

    groups: list[Group] = []
    pieces: list[tuple[int, int, np.ndarray]] = []
    for part in (mask, apart) if things else (mask,):
        level = cv2.warpAffine(part, rot, (lw, lh), flags=cv2.INTER_NEAREST)
        level = cv2.morphologyEx(level, cv2.MORPH_CLOSE, np.ones((kh, kw), np.uint8))
        level = cv2.morphologyEx(level, cv2.MORPH_OPEN, np.ones((3, max(3, kw)), np.uint8))
        level = _fill(level)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(level, connectivity=8)
        for i in range(1, n):
            x, y, bw, bh, _ = (int(v) for v in stats[i])
            pieces.append((x, y, (labels[y : y + bh, x : x + bw] == i).astype(np.uint8)))
    # a thing run into a row is cut off first, then what is still two rows high is cut
    if any(p[2].shape[0] > CORE_OVER * tile_h for p in pieces):
        # each first blob in the level picture, and whether it is of a tile's height
        first_level = cv2.warpAffine(first, rot, (lw, lh), flags=cv2.INTER_NEAREST)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(first_level, connectivity=8)
        heights = stats[:, cv2.CC_STAT_HEIGHT]
        tile_like = (heights >= CORE_HEIGHT[0] * tile_h) & (heights <= CORE_HEIGHT[1] * tile_h)
        tile_like[0] = False
        pieces = [_to_core(p, labels, stats, tile_like, tile_h) for p in pieces]
    pieces = [part for p in pieces for part in _split_rows(*p, tile_h)]
    for piece in pieces:
        boxed = _to_box(piece[0], piece[1], _trim_to_row(piece[2]))
        if boxed is None:
            continue
        x, y, blob = boxed
        bh, bw = blob.shape
        mean_h = _mean_height(blob)  # not the box: a row may slant in the level picture
        if mean_h < 0.55 * tile_h or mean_h > 1.7 * tile_h or bw < 0.4 * tile_h:
            continue
        if blob.sum() < 0.3 * tile_h * tile_h:
            continue
        hull = cv2.convexHull(cv2.findNonZero(blob))
        solid = np.zeros_like(blob)
        cv2.fillConvexPoly(solid, hull, 1)
        quad = _quad(solid)
        box = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
        if quad is None or np.abs(quad - box).max() > 0.3 * tile_h:
            quad = box
        fill = float(blob.sum()) / max(1.0, float(cv2.contourArea(quad)))
        if bw < LONE_WIDTH * mean_h and fill < LONE_FILL:
            continue  # one "tile" that is no rectangle: a chip, a cup, a hand
        quad += np.array([x, y], np.float32)
        pts = cv2.transform(quad.reshape(-1, 1, 2), back).reshape(-1, 2) / scale
        groups.append(Group(quad=pts.astype(np.float32)))
    if not groups:
        return [], 0.0

    # Reading order: rows top to bottom (in the level picture), then left to right.
    def level_centre(g: Group) -> np.ndarray:
        c = g.quad.mean(0) * scale
        return rot[:, :2] @ c + rot[:, 2]

    centres = [level_centre(g) for g in groups]
    order = sorted(range(len(groups)), key=lambda k: centres[k][1])
    row = 0
    row_y = centres[order[0]][1]
    for k in order:
        if centres[k][1] - row_y > 0.6 * tile_h:
            row += 1
            row_y = centres[k][1]
        groups[k].row = row
    ordered = sorted(range(len(groups)), key=lambda k: (groups[k].row, centres[k][0]))
    return [groups[k] for k in ordered], tile_h / scale


def _affine(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The 3 x 3 affine map that best takes the four ``src`` corners to ``dst``."""
    a = np.hstack([src.astype(np.float64), np.ones((4, 1))])
    coef, *_ = np.linalg.lstsq(a, dst.astype(np.float64), rcond=None)
    return np.vstack([coef.T, [0.0, 0.0, 1.0]])


def strip_map(quad: np.ndarray, height: float) -> tuple[np.ndarray, int]:
    """The map from the photo to a level strip ``height`` high, and the strip's width.

    Affine, not projective: a row's true foreshortening is small, while the projective
    correction implied by the fitted edges' slight convergence is mostly noise, and that
    noise makes an equal split drift by a third of a tile along a long row (measured).
    """
    g = Group(quad)
    width = max(1, round(height * g.width / max(g.height, 1.0)))
    dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    return _affine(quad, dst), width


def rectify(grey: np.ndarray, quad: np.ndarray, height: int) -> np.ndarray:
    """The group straightened into a level strip ``height`` pixels high."""
    m, width = strip_map(quad, height)
    return cv2.warpAffine(
        grey, m[:2], (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def cell_quads(quad: np.ndarray, edges: list[float]) -> list[np.ndarray]:
    """Split a group's quad into tiles at ``edges`` (fractions of the straightened strip)."""
    return [cell_quad(quad, a, b) for a, b in zip(edges[:-1], edges[1:], strict=True)]


def cell_quad(
    quad: np.ndarray, a: float, b: float, top: float = 0.0, bottom: float = 1.0
) -> np.ndarray:
    """The part of a group's quad between ``a`` and ``b`` along the straightened strip and
    ``top`` and ``bottom`` down it (fractions of its width and height)."""
    m, width = strip_map(quad, 1000.0)
    x0, x1, y0, y1 = width * a, width * b, 1000.0 * top, 1000.0 * bottom
    pts = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
    return cv2.perspectiveTransform(pts, np.linalg.inv(m))[0].astype(np.float32)
