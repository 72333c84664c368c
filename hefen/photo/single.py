"""Reading a picture of one tile (``hefen recognize --tile``, :func:`classify_tile`).

A picture of one tile is not a hand: there is no row to level, and the tile may fill the
frame or a tenth of it, stand or lie, show its side and back, or be turned. So the tile is
looked for several ways, each giving a quadrilateral that may be it:

* the pixels that look like tile rather than ground (:func:`hefen.photo.detect.tile_mask`),
  the largest piece and the pieces beside it (a tile's drawing on a pale ground is found
  in pieces, its ivory body not at all);
* its outline: the edges of the picture closed into filled shapes, the largest that is
  nearly a rectangle (on a white ground the body shows only by its rim and shadow);
* what differs from the picture's border: GrabCut, its border taken as ground, the rest
  as maybe the tile, its two largest pieces (:func:`_ground_quads`; where the body's rim
  is broken and the drawing alone makes pieces, this still finds the body, and where a
  thing larger than the tile lies beside it, the tile is the second piece);
* the whole picture (a shop's picture or a scan cut to the tile).

Each quadrilateral is read upright and turned a quarter, a half and three quarters, and
each of those through :data:`CUTS` -- the whole body, the face without the side strip
below it, the face without a side strip beside it -- so that no one guess of where the
face ends decides. A reading's worth is the mean log probability of its best tile over its
cuts, less :data:`TURN_COST` per quarter turn from the picture's own upright (a tile
photographed sideways is read sideways only when that is clearly surer), and less
:data:`PART_COST` times the log of how much smaller its quadrilateral is than the largest
found that holds it (:func:`_parts`: a pip, a character or one row of a drawing, cut as
if it were the tile, is read as a sure 1 of circles or a flower more often than the whole
tile is read as itself; a thing beside the tile holds no part of it; the whole picture
holds what is found in it only where it is read surely as a tile, :data:`WHOLE_HOLDS`).
The surest reading names the tile; its alternatives are its cuts' mean probabilities.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from hefen.photo.classes import BONUS, NUMBER_CLASSES, READ_CODES, SUITED
from hefen.photo.detect import Group, _fill, reduced, tile_mask
from hefen.photo.errors import PhotoError
from hefen.photo.memory import TileMemory
from hefen.photo.model import (
    BONUS_H,
    BONUS_W,
    CHAR_WINDOW,
    CROP_H,
    CROP_W,
    BonusLook,
    CharLook,
    NumberLook,
    SharpLook,
    TileClassifier,
    classifier,
    ink_image,
    to_crop,
)
from hefen.photo.words import DIGIT_SURE, SIX_NINE, WORD_SURE, Printed, WordLook

#: A picture narrower or lower than this (pixels) shows no tile to read.
MIN_SIDE = 16
#: The long side, in pixels, of the copy of the picture a tile is looked for in.
FIND_SIDE = 480
#: The long side the picture is reduced to before the cuts are warped from it (an
#: area-averaged copy: warping a large photo straight to 64 pixels would alias).
READ_SIDE = 600
#: Where in the tile's quadrilateral the classifier looks: (top, bottom, left, right) as
#: fractions of its height and width. The whole body; without the side strip below the
#: face (two depths); a little inside; without a side strip on the left or on the right.
#: Mild: deeper cuts (to 0.72 of the body) cut the last row of pips off a tile seen from
#: straight above (a 6 of circles read as a 4): 92.9 % of the bench's single-tile photos
#: of the training styles with them, 94.8 % with these.
CUTS: tuple[tuple[float, float, float, float], ...] = (
    (0.0, 1.0, 0.0, 1.0),
    (0.0, 0.9, 0.0, 1.0),
    (0.0, 0.82, 0.0, 1.0),
    (0.02, 0.9, 0.05, 0.95),
    (0.02, 0.88, 0.1, 1.0),
    (0.02, 0.88, 0.0, 0.9),
)
#: What a quarter turn from the picture's upright costs a reading (mean log probability):
#: a turned reading must be this much surer. Measured on the bench's single-tile photos
#: (0.15, 0.3 and 0.4 within a point of each other on every set); measured again with
#: every reading weighed with the sharp look (:func:`_sharp_choice`; docs/photo.md).
TURN_COST = 0.3
#: the quarter turns each quadrilateral found is read in (:func:`_turns`)
TURNS = 4
#: What a reading costs for each unit of the log of how much wider than high it is
#: (:func:`_wide`): a tile's face is higher than wide, so a reading of a quadrilateral
#: turned on its side is unlikely (right readings of the tuning photos measured 0.50-0.95
#: as wide as high; 0, 1, 2 and 4 measured in docs/photo.md, "The reading chosen with the
#: sharp look").
WIDE_COST = 2.0
#: What a quadrilateral inside a larger one found (the whole picture aside) costs its
#: readings: this times the log of the ratio of their areas. On 420 photos of one tile of
#: each of the training styles and the two never-seen KMahjongg sets (seed 89,000,003),
#: 0.2 to 1.0 were within a point of each other on every set, all above 0 (training
#: styles 98.3 % at 0, 99.0 % at 0.5; docs/photo.md).
PART_COST = 0.5
#: A quadrilateral is a part of a larger one that holds this share of it.
PART_HELD = 0.8
#: The whole picture holds the quadrilaterals found in it (:func:`_parts`) where one of its
#: readings (each turn, weighed with the sharp look) is at least this sure of a tile: the
#: picture is then cut to the tile or its face, as shops show them, and a pip found in it
#: is read as a sure 1 of circles. On photos of one tile (the bench's seed and two fresh
#: ones, 3,780), the choice replayed on the readings before: 0.7 and 0.8 mended the same
#: 5 and broke none, 0.6 broke 2, 0.5 broke 7; read in full at 0.7, 6 circles tiles cut
#: to the face mended, none broken (docs/photo.md, "The word look names winds, dragons
#: and character tiles, ...; a photo cut to the tile holds its pips").
WHOLE_HOLDS = 0.7
#: The whole picture holds, too, a round quadrilateral found in it (its long side at most
#: ``PIP_ROUND`` times its short) that nothing found holds but round things, where another
#: round one of like size (the larger at most ``PIP_LIKE`` times the smaller) lies apart
#: from it (the two overlap by under ``APART`` of the smaller): a photo of one tile holds
#: one tile, and no tile is round, so two round things alike and apart are its pips, each
#: a part of the tile, not a 1 of circles (:func:`_parts`, :func:`_pips`). A 4 and a 2 of
#: circles whose tile was found only as its pips were read as the 1 (docs/photo.md, "A
#: tile on its side; two pips apart").
PIP_ROUND = 1.2
PIP_LIKE = 4.0
APART = 0.05
#: What a reading of the whole picture as the white dragon costs where a smaller
#: tile-shaped quadrilateral was found in it: this times the log of how much larger the
#: picture is than the largest such found (:func:`_blank_costs`). A blank face fills a
#: picture only where the picture is cut to the tile; turned on its side, a plain ground
#: about a small tile reads as a blank face surer than the tile's own drawing reads as
#: any tile. On photos of one tile (the bench's seed and two fresh ones, 3,780), 7 fixed
#: and none broken (docs/photo.md, "A plain ground is no white dragon").
BLANK_WHOLE_COST = 1.0
#: A quadrilateral is tile-shaped where its long side is at most this many times its
#: short one: a tile's body, face and side strip, is 1.25 to 1.9 (a white dragon on a
#: white ground is found only by its coloured back, a strip 2.3 times as long as high).
TILE_SHAPED = 2.0
#: What a reading of a strip (a quadrilateral found that is not tile-shaped) as the white
#: dragon costs: this times the log of how much longer than :data:`TILE_SHAPED` it is
#: (:func:`_strip_costs`). A blank face is as tile-shaped as any other; a strip read as one
#: is a tile's coloured back or side, a stick of bamboo, or the bare edge of a face cut
#: off beside its pips. On photos of one tile (the bench's seed and two fresh ones, 3,780),
#: read in full with the word look and :data:`WHOLE_HOLDS`: 3 mended (a 3 and a 4 of
#: bamboos and a 3 of circles), none broken. Replaying the choice alone on the readings
#: before, 2 fixed 2, and 4 and 8 fixed 3 (docs/photo.md, "The word look names winds,
#: dragons and character tiles, ...; a strip is no white dragon").
BLANK_STRIP_COST = 4.0
#: The white dragon's column: the blank face.
BLANK = READ_CODES.index("P")
#: The long side, in pixels, of the copy of the picture GrabCut is run on, and its
#: iterations (:func:`_ground_quads`): 120 and 2 found as many tiles as 160 and 2 or 200
#: and 3, in a fifth to a quarter of the time.
GROUND_SIDE = 120
GROUND_ITERATIONS = 2
#: The border ring (a share of the picture's shorter side) GrabCut takes for ground.
GROUND_RING = 0.04
#: How many of the largest pieces GrabCut keeps are offered, each a rectangle.
GROUND_PIECES = 2
#: The bonus tiles' share of a reading at which the bonus look
#: (:class:`~hefen.photo.model.BonusLook`) takes a second look at it.
BONUS_LOOK_AT = 0.25
#: How sure (its flowers' and seasons' share) the bonus look must be that a tile is one
#: to overrule a first reading of another tile. On photos of one tile of the never-seen
#: KMahjongg sets, of the readings it would overrule, those at 0.9 or above were half
#: flowers read right and half wrong either way; below it, two of six were suit and honour
#: tiles read right first (docs/photo.md).
BONUS_LOOK_SURE = 0.9
#: A first reading of the 1 of bamboos is never overruled by the bonus look. Most sets
#: draw it as a bird, a picture as a flower is, and the bonus look's *another tile* saw a
#: bird in a few crops in a thousand. On photos of one tile of the never-seen KMahjongg
#: sets (the bench's seed and two fresh ones, 2,520) this rule mends 11 birds the look
#: took for flowers and breaks one bamboo flower read first as the bird; no photo of the
#: training styles changes (docs/photo.md, "A bird is no flower").
BIRD = READ_CODES.index("1s")
#: How much the sharp look (:class:`~hefen.photo.model.SharpLook`) weighs against the tile
#: model's reading of a photo of one tile: the 42 tiles' probabilities become
#: ``model ** (1 - w) * look ** w``, scaled to the model's share of them. On 340 photos
#: of suit and honour tiles of each of the training styles and the two never-seen
#: KMahjongg sets, 0.5 to 1 were within a point of each other, all above 0 (the model
#: alone); 0.7 kept the model's vote. With every reading weighed and the later rules, 0.8
#: read 13 more of the never-seen sets' 2,520 photos on three seeds (3 to 6 on each; 9
#: more of their suit and honour tiles, 8 birds among those fixed) and broke none of the
#: training styles' 1,260: the look was trained on birds and other arrangements the tile
#: model never saw (docs/photo.md, "The sharp look weighs more").
SHARP_WEIGHT = 0.8
#: The character look (:class:`~hefen.photo.model.CharLook`) scans the tile cut to this
#: size (width, height) with square windows of these sides (shares of the tile's width),
#: each moved ``CHAR_STEP`` of its side at a time: a corner character is a sixth to a
#: fifth of a tile's width, a printed one most of it. A quarter of a side (about 1,600
#: windows of a tile photo) named half as many characters again as 0.4 (about 600), none
#: wrongly, on the tuning photos of the ``fonts`` style and KMahjongg *default*: the
#: character nearer a window's middle, as in training (docs/photo.md). A suit tile's
#: number is looked for in the same scan: the coarser 0.4 read as many suit tiles right on
#: 270 tuning photos of each set, but 0.25 fixed 20 and broke 2 of the 2,520 photos of the
#: two never-seen KMahjongg sets on three other seeds (a corner 6 that no window of 0.4
#: held alone, the 6 of bamboos then read as the 9), and broke one of the training
#: styles' 1,260 (docs/photo.md, "One scan for every tile").
CHAR_FACE = (120, 160)
CHAR_SIDES = (0.14, 0.19, 0.25, 0.34, 0.46, 0.62)
CHAR_STEP = 0.25
#: A window whose pixels spread (standard deviation) less than this is bare face.
CHAR_BARE = 6.0
#: How sure the character look must be of one of the eight characters, in its surest
#: window, for it to name the flower or season. Chosen on photos of bonus tiles of the
#: training styles and the ``fonts`` style (720 of each; seeds 89,000,071 to 89,000,077,
#: not the bench's), every photo scanned: for the look trained in 39 typefaces, 0.9
#: named 3 of them wrongly, 0.93 one (docs/photo.md). The look trained in 12 named none
#: wrongly at 0.9.
CHAR_SURE = 0.93
#: ... and how much less sure of any other character, in its own surest window: the
#: leaves of a bamboo drawn beside 竹 were once read as 蘭 at 0.95, 竹 itself at 0.87.
CHAR_MARGIN = 0.1
#: How sure the number look must be of one of the numbers (and how much less sure of
#: every other), in its surest window, for it to renumber a reading of a flower or
#: season (1-4), where the character look names none, or of a suit tile (1-9; measured
#: on suit tiles too, docs/photo.md "The number look reads a suit tile's number too").
#: Chosen for flowers on 120 photos of bonus tiles and
#: 120 of other tiles of each of the training styles, the ``fonts`` style and the two
#: KMahjongg sets (seed 89,000,071, not the bench's), every photo scanned: with the
#: scan's step at 0.4, 0.95 named no number wrongly (0.9: 2 of KMahjongg *default*'s
#: 120); at 0.25, 3 of *default*'s 120 (0.9: 4) and none elsewhere, and no reading of
#: those photos was made wrong (docs/photo.md).
NUMBER_SURE = 0.95
NUMBER_MARGIN = 0.1
#: A 6 or 9 the number look names on a tile read as circles or bamboos, in a window whose
#: middle lies below this share of the tile's height, is read turned (:func:`turned`):
#: makers print a corner index at the top, so a number that low is on a tile the reader
#: holds upside down -- pips and sticks look alike either way up -- and an Arabic 6 upside
#: down is a 9. On photos of one tile of the two never-seen KMahjongg sets (the bench's
#: and two fresh seeds, 2,040 suit and honour tiles) it fixed 14 and broke none
#: (docs/photo.md, "A 6 upside down is a 9").
TURNED_LOW = 0.6
#: Where the number look names no number in the whole of a tile read as a suit tile, the
#: windows whose middle lies in the top ``CORNER_TOP`` of the tile -- where makers print a
#: corner index, above most of the sticks that look like a 1 -- name one at
#: ``CORNER_SURE``, every other number there :data:`NUMBER_MARGIN` less sure
#: (:func:`corner_named`). Chosen on the bench's photos of one tile (0.3 and 0.9: of the two
#: never-seen KMahjongg sets' 680 suit and honour tiles, 3 fixed, none broken; 0.8 fixed 5,
#: and with a top of 0.4 broke one of the training styles); on two fresh seeds as chosen, 3
#: more fixed and none broken, where 0.8 and 0.85 broke some (docs/photo.md, "A corner
#: index at the top").
CORNER_TOP = 0.3
CORNER_SURE = 0.9
#: A reading at least this many quarter turns from the picture's upright is upside down: it
#: gives way to the same quadrilateral read upright where a corner index is printed at the
#: upright's top (:func:`_index_up`). Photos are taken upright far more often than not, and
#: a bird read upside down was taken for 發 (docs/photo.md, "A corner index says which way
#: is up").
UPSIDE_DOWN = 1.5
#: A reading this near one quarter turn from the picture's upright is of a tile on its
#: side, which a photo shows on either side as often: it gives way to the same
#: quadrilateral read on its other side (half a turn from it) where a corner index is
#: printed at the other's top and not at its own (:func:`_index_up`). *Default*'s bird
#: on its side was read so as 發 (docs/photo.md, "A tile on its side; two pips apart").
SIDEWAYS = 0.5
#: A reading less than :data:`SIDEWAYS` from the picture's upright is upright: where it
#: names a suit tile or a bonus tile (the tiles that print a number) less surely than this
#: (its tile model's and sharp look's reading, weighed as :func:`_sharp_choice` weighs
#: it), it gives way to the same quadrilateral read half a turn round where a corner index
#: is printed at that one's top and no number is sure at its own (told from the others
#: there or not, :func:`_number_at_top`); a surer upright reading stands, the number look
#: not asked (photos are taken upright far more often than not). The bar is the one below
#: which the word look reads a photo (:data:`WORD_LOOK_BELOW`). *Default*'s 3 of circles
#: photographed upside down, its index at the bottom, was read upright as the 1 of
#: characters (docs/photo.md, "A tile upside down in an upright photo").
UPRIGHT_STANDS = 0.8
#: How sure the number look must be of a corner index at the top of the upright, every other
#: number there :data:`NUMBER_MARGIN` less sure, for :func:`_index_up` to take the upright
#: reading: lower than :data:`CORNER_SURE`, as it only chooses between two readings of one
#: tile, and photos are taken upright far more often than upside down. Chosen on the bench's
#: photos of one tile (0.8: 2 more of *default*'s birds fixed; 0.7 no more), and read on two
#: fresh seeds as chosen: 1 more fixed and none broken (0.6 broke a season read upright as
#: the spring; docs/photo.md, "A corner index says which way is up").
INDEX_UP_SURE = 0.8
#: How much of a reading of a flower or season the suit tile of a 5 to 9 named on it must
#: have for the number to make it that tile (:func:`unflowered`): on the bench's and two
#: fresh seeds' photos, the 12 of KMahjongg *traditional*'s 8 of bamboos it fixed had their
#: 8 at 0.078 to 0.19 of the reading; the one flower it broke, a plum of the training
#: styles whose 梅 the character look did not name and whose branch it took for a 9 at
#: 0.95, had its 9 at 0.002 (docs/photo.md, "A 5 to 9 is no flower").
UNFLOWERED_AT = 0.02
#: Where a number 1-4 names a flower or season and the character look names no character,
#: the character look's surest window for that number's season (``c``) weighs the two
#: families (:func:`numbered`): the season by ``c + SEASON_SEEN_AT``, the flower by
#: ``1 - c + SEASON_SEEN_AT``. A set that prints characters prints the season's (春夏秋冬);
#: many print none on their flowers, so a season's character not seen there is a flower's
#: sign. Chosen on the bench's and seed 600's photos of one tile (0 to 0.1: 17 of
#: KMahjongg *default*'s flowers read as the season of their number fixed, none broken;
#: 0.2: 14; 0.5: 10): the largest, so the mildest, that fixes all 17, for sets the bench
#: does not draw. Seed 700, read after: 4 fixed, none broken (docs/photo.md, "A season's
#: character not seen").
SEASON_SEEN_AT = 0.1
#: The bonus tiles' share of a reading at which the character and number looks scan it.
CHAR_LOOK_AT = 0.25
#: The word look (:mod:`hefen.photo.words`) reads a photo whose reading may be a flower or
#: season (:data:`CHAR_LOOK_AT`) or whose surest tile is below this: a never-seen set's
#: flower is read unsurely (*traditional*'s 80 on the bench at 0.14 to 0.62), as what
#: not. In a probe reading every photo (the text reader at its own settings), it named no
#: tile wrongly on the 840 of the training styles and *default* (docs/photo.md, "The word
#: look"): the limit is there to save time.
WORD_LOOK_BELOW = 0.8
#: A 6 or 9 printed alone whose middle lies in this top share of the tile, as the picture
#: stands, is read as it stands, and in as much at the bottom turned
#: (:func:`six_or_nine`): makers print a corner index at the top.
INDEX_HIGH = 0.45
#: The bonus tiles' columns in the classifier's outputs.
BONUS_AT = slice(READ_CODES.index(BONUS[0]), READ_CODES.index(BONUS[-1]) + 1)
#: Pieces of tile smaller than this share of the largest are not joined to it.
PIECE_SHARE = 0.02
#: How far from the tile (a share of its larger side) a piece of its drawing may lie.
PIECE_REACH = 0.25
#: The outline's filled shape must fill this much of its bounding rectangle.
OUTLINE_FILL = 0.75


def _pieces_quad(small: np.ndarray) -> np.ndarray | None:
    """The rectangle about the largest piece of tile and the pieces beside it."""
    mask = tile_mask(small)
    sh, sw = mask.shape
    k = max(3, round(0.02 * max(sh, sw))) | 1
    filled = _fill(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)))
    n, labels, stats, centres = cv2.connectedComponentsWithStats(filled, connectivity=8)
    if n <= 1:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    big = int(areas.argmax()) + 1
    if areas.max() < 0.003 * sh * sw:
        return None
    keep = {big}
    x0, y0 = float(stats[big, 0]), float(stats[big, 1])
    x1, y1 = x0 + float(stats[big, 2]), y0 + float(stats[big, 3])
    grown = True
    while grown:  # join the pieces that lie beside what is kept, until none does
        grown = False
        reach = PIECE_REACH * max(x1 - x0, y1 - y0)
        for i in range(1, n):
            if i in keep or stats[i, cv2.CC_STAT_AREA] < PIECE_SHARE * stats[big, 4]:
                continue
            cx, cy = centres[i]
            if x0 - reach <= cx <= x1 + reach and y0 - reach <= cy <= y1 + reach:
                keep.add(i)
                grown = True
                x0, y0 = min(x0, float(stats[i, 0])), min(y0, float(stats[i, 1]))
                x1 = max(x1, float(stats[i, 0] + stats[i, 2]))
                y1 = max(y1, float(stats[i, 1] + stats[i, 3]))
    points = cv2.findNonZero(np.isin(labels, sorted(keep)).astype(np.uint8))
    return np.asarray(cv2.boxPoints(cv2.minAreaRect(points)), np.float32)


def _outline_quad(small: np.ndarray) -> np.ndarray | None:
    """The rectangle of the largest nearly rectangular shape the picture's edges close."""
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), (0, 0), 1.0)
    sh, sw = grey.shape
    typical = float(np.median(np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0))))
    high = max(30.0, 6.0 * typical)
    edges = cv2.Canny(grey, high / 2.5, high, L2gradient=True)
    k = max(3, round(0.015 * max(sh, sw))) | 1
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    shapes = _fill(cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)))
    shapes = cv2.morphologyEx(shapes, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(shapes, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    best: tuple[float, tuple] | None = None
    for contour in contours:
        area = float(cv2.contourArea(contour))
        if not 0.01 * sh * sw <= area <= 0.97 * sh * sw:
            continue
        rect = cv2.minAreaRect(contour)
        if area < OUTLINE_FILL * rect[1][0] * rect[1][1]:
            continue
        if best is None or area > best[0]:
            best = (area, rect)
    return None if best is None else np.asarray(cv2.boxPoints(best[1]), np.float32)


def _ground_quads(rgb: np.ndarray) -> list[np.ndarray]:
    """The rectangles about what differs from the picture's border, in ``rgb``'s pixels:
    GrabCut on a small copy, the border ring its ground, the rest maybe the tile; its
    :data:`GROUND_PIECES` largest pieces, holes filled, largest first; none where it keeps
    nothing tile-sized."""
    small, scale = reduced(rgb, GROUND_SIDE)
    h, w = small.shape[:2]
    ring = max(2, round(GROUND_RING * min(h, w)))
    if min(h, w) <= 4 * ring:
        return []
    mask = np.full((h, w), cv2.GC_PR_FGD, np.uint8)
    mask[:ring] = mask[-ring:] = cv2.GC_BGD
    mask[:, :ring] = mask[:, -ring:] = cv2.GC_BGD
    models = (np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64))
    bgr = np.ascontiguousarray(small[:, :, ::-1])
    cv2.setRNGSeed(0)  # GrabCut's colour models start from k-means: the same every time
    cv2.grabCut(bgr, mask, (0, 0, w, h), *models, GROUND_ITERATIONS, cv2.GC_INIT_WITH_MASK)
    kept = np.where((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD), 255, 0).astype(np.uint8)
    kept = _fill(cv2.morphologyEx(kept, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(kept, connectivity=8)
    order = 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:GROUND_PIECES]
    out = []
    for i in order:
        if stats[i, cv2.CC_STAT_AREA] < 0.02 * h * w:
            break
        points = cv2.findNonZero((labels == i).astype(np.uint8))
        out.append(np.asarray(cv2.boxPoints(cv2.minAreaRect(points)), np.float32) / scale)
    return out


def _upright(box: np.ndarray) -> np.ndarray:
    """A rectangle's corners as (top left, top right, bottom right, bottom left), the top
    left the corner nearest the picture's top left."""
    centre = box.mean(0)
    angles = np.arctan2(box[:, 1] - centre[1], box[:, 0] - centre[0])
    ring = box[np.argsort(angles)]  # clockwise on the screen (y down)
    start = int(np.argmin(ring[:, 0] + ring[:, 1]))
    return np.roll(ring, -start, axis=0).astype(np.float32)


def tile_quads(rgb: np.ndarray) -> list[np.ndarray]:
    """Where the one tile of a picture may be: quadrilaterals (top left, top right,
    bottom right, bottom left, in the picture's pixels), the whole picture last."""
    small, scale = reduced(rgb, FIND_SIDE)
    quads = [
        _upright(box) / scale
        for box in (_pieces_quad(small), _outline_quad(small))
        if box is not None
    ]
    quads += [_upright(q) for q in _ground_quads(rgb)]
    h, w = rgb.shape[:2]
    quads.append(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    return quads


def _wide(quad: np.ndarray) -> float:
    """How much wider than high ``quad`` (top left, top right, bottom right, bottom left)
    is, as read: the log of its mean width over its mean height, 0 where it is higher
    than wide.

    >>> round(_wide(np.array([[0, 0], [150, 0], [150, 100], [0, 100]], np.float32)), 3)
    0.405
    >>> _wide(np.array([[0, 0], [75, 0], [75, 100], [0, 100]], np.float32))
    0.0
    """
    as_read = Group(quad)  # a row of one tile: its mean width and height
    return max(0.0, float(np.log(max(as_read.width, 1e-6) / max(as_read.height, 1e-6))))


def _parts(quads: list[np.ndarray], whole_holds: bool = False) -> list[float]:
    """How much of a part each of ``quads`` is (the whole picture last, never one): the
    log of how much smaller it is than the largest of the others that holds
    :data:`PART_HELD` of it, 0 where none does. The whole picture holds the others only
    where ``whole_holds`` (it is read surely as a tile, :data:`WHOLE_HOLDS`): a tile on a
    ground is no part of the photo, but a pip of a photo cut to the tile's face is; and
    it holds a pip found beside another (:func:`_pips`) wherever the tile is."""
    areas, inside = _overlaps(quads)
    held = _held(areas, inside)
    pips = _pips(quads[:-1], areas[:-1], inside[:-1, :-1]) + [False]
    out = []
    for i, area in enumerate(areas):
        holders = len(quads) if whole_holds or pips[i] else len(quads) - 1
        holder = max([area] + [areas[j] for j in range(holders) if held[i, j]])
        out.append(float(np.log(holder / area)))
    return out


def _overlaps(quads: list[np.ndarray]) -> tuple[list[float], np.ndarray]:
    """Each of ``quads``' area (its convex hull's, at least 1), and how much of each
    overlaps each other one (N x N, the area they share)."""
    hulls = [cv2.convexHull(q.astype(np.float32)) for q in quads]
    areas = [max(float(cv2.contourArea(h)), 1.0) for h in hulls]
    inside = np.zeros((len(quads), len(quads)))
    for i, j in itertools.combinations(range(len(quads)), 2):
        inside[i, j] = inside[j, i] = cv2.intersectConvexConvex(hulls[i], hulls[j])[0]
    return areas, inside


def _held(areas: list[float], inside: np.ndarray) -> np.ndarray:
    """Which quadrilateral (of those whose ``areas`` and overlaps, ``inside``, are given)
    holds which: N x N, [i, j] where j is larger than i and holds :data:`PART_HELD` of
    it."""
    a = np.array(areas)
    return (a[None, :] > a[:, None]) & (inside >= PART_HELD * a[:, None])


def _pips(quads: list[np.ndarray], areas: list[float], inside: np.ndarray) -> list[bool]:
    """Which of ``quads`` (found in a photo of one tile, the whole picture left out; with
    their areas and overlaps, :func:`_overlaps`) are pips found with no tile about them:
    round (:data:`PIP_ROUND`), held (:func:`_held`) by none of the others that is not
    round, with another round one of like size (:data:`PIP_LIKE`) apart from it
    (:data:`APART`).

    >>> def square(x, y, side):
    ...     return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], float)
    >>> def pips(*quads):
    ...     return _pips(list(quads), *_overlaps(list(quads)))
    >>> tile = np.array([[200, 0], [320, 0], [320, 160], [200, 160]], float)
    >>> pips(square(10, 10, 40), square(70, 100, 40), tile)
    [True, True, False]
    >>> pips(square(10, 10, 40), square(30, 30, 40))  # overlapping: not apart
    [False, False]
    >>> pips(square(10, 10, 40), square(12, 12, 36), square(70, 100, 40))  # one found twice
    [True, True, True]
    >>> pips(square(10, 10, 40), square(70, 100, 100))  # a pip and a larger thing
    [False, False]
    >>> pips(square(210, 10, 40), square(260, 100, 40), tile)  # in a tile found
    [False, False, False]
    """
    round_ = [_within(q, PIP_ROUND) for q in quads]
    held = _held(areas, inside)
    out = []
    for i, area in enumerate(areas):
        others = [j for j in range(len(quads)) if j != i]
        in_tile = any(held[i, j] and not round_[j] for j in others)
        alike_apart = any(
            round_[j]
            and max(area, areas[j]) <= PIP_LIKE * min(area, areas[j])
            and inside[i, j] < APART * min(area, areas[j])
            for j in others
        )
        out.append(round_[i] and not in_tile and alike_apart)
    return out


def cut(
    grey: np.ndarray,
    quad: np.ndarray,
    window: tuple[float, ...],
    size: tuple[int, int] = (CROP_W, CROP_H),
) -> np.ndarray:
    """The part ``window`` (top, bottom, left, right) of ``quad``, as a crop of ``size``
    (width, height: the classifier's, or the bonus look's)."""
    top, bottom, left, right = window
    tl, tr, br, bl = quad.astype(np.float64)

    def at(u: float, v: float) -> np.ndarray:
        return (tl + (tr - tl) * u) * (1 - v) + (bl + (br - bl) * u) * v

    src = np.array([at(left, top), at(right, top), at(right, bottom), at(left, bottom)])
    w, h = 2 * size[0], 2 * size[1]  # twice the crop: to_crop then averages it down
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    out = cv2.warpPerspective(
        grey, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return to_crop(out, size)


def _turns(quad: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The quad's four readings (turned 0-3 quarters) with each one's quarter turns from
    the picture's upright (0 to 2)."""
    out = []
    for r in range(TURNS):
        q = np.roll(quad, -r, axis=0)
        down = q[3] - q[0]
        out.append((q, abs(float(np.degrees(np.arctan2(down[0], down[1])))) / 90.0))
    return out


def _look_cuts(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The second looks' crops: the quadrilateral through the same cuts, ``BONUS_W`` x
    ``BONUS_H``."""
    return np.stack([cut(grey, quad, window, (BONUS_W, BONUS_H)) for window in CUTS])


def _sharp_look(sharp: SharpLook, crops: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """``mean`` (the chosen reading's probabilities) weighed with the sharp look's reading
    of the same quadrilateral (``SHARP_WEIGHT``); the back and *not a tile* keep theirs."""
    return _weighed(mean, sharp.probabilities(crops).mean(0))


def _reading(probs: np.ndarray, reading: tuple[int, int], look: np.ndarray | None) -> np.ndarray:
    """A reading's probabilities: the mean of its cuts' (``reading``: its first crop in
    ``probs`` and how many), weighed with the sharp look's reading ``look`` where there is
    one (:func:`_weighed`), as :func:`_sharp_choice` weighs it."""
    start, count = reading
    mean = probs[start : start + count].mean(0)
    return mean if look is None else _weighed(mean, look)


def _weighed(mean: np.ndarray, look: np.ndarray) -> np.ndarray:
    """``mean`` with its tiles' probabilities weighed with ``look`` (the sharp look's mean
    reading of the 42 tiles), as :func:`_sharp_look` weighs them."""
    tiles = mean[: len(look)]
    share = float(tiles.sum())
    mixed = np.power(tiles + 1e-6, 1 - SHARP_WEIGHT) * np.power(look + 1e-6, SHARP_WEIGHT)
    out = mean.copy()
    out[: len(look)] = share * mixed / mixed.sum()
    return out


def _blank_costs(quads: list[np.ndarray]) -> np.ndarray:
    """What a reading of each of ``quads`` (the quadrilaterals found, the whole picture
    last) costs where its surest tile is the white dragon: 0 but for the whole picture,
    :data:`BLANK_WHOLE_COST` times the log of how much larger it is than the largest of
    the others that is tile-shaped (:data:`TILE_SHAPED`; 0 where none was found).

    >>> pic = np.array([[0, 0], [400, 0], [400, 300], [0, 300]], np.float32)
    >>> tile = np.array([[100, 50], [200, 50], [200, 200], [100, 200]], np.float32)
    >>> strip = np.array([[100, 200], [300, 200], [300, 250], [100, 250]], np.float32)
    >>> [round(float(c), 2) for c in _blank_costs([tile, strip, pic])]
    [0.0, 0.0, 2.08]
    >>> _blank_costs([strip, pic]).tolist(), _blank_costs([pic]).tolist()
    ([0.0, 0.0], [0.0])
    """
    out = np.zeros(len(quads))
    areas = [float(cv2.contourArea(cv2.convexHull(q.astype(np.float32)))) for q in quads]
    shaped = [area for area, q in zip(areas[:-1], quads[:-1], strict=True) if _tile_shaped(q)]
    if shaped:
        out[-1] = BLANK_WHOLE_COST * float(np.log(max(1.0, areas[-1] / max(max(shaped), 1.0))))
    return out


def _strip_costs(quads: list[np.ndarray]) -> np.ndarray:
    """What a reading of each of ``quads`` (the quadrilaterals found, the whole picture
    last) costs where its surest tile is the white dragon, beside :func:`_blank_costs`:
    :data:`BLANK_STRIP_COST` times the log of how much longer than :data:`TILE_SHAPED` its
    long side is than its short one; 0 for the tile-shaped and the whole picture.

    >>> tile = np.array([[100, 50], [200, 50], [200, 200], [100, 200]], np.float32)
    >>> strip = np.array([[100, 200], [300, 200], [300, 250], [100, 250]], np.float32)
    >>> pic = np.array([[0, 0], [900, 0], [900, 300], [0, 300]], np.float32)
    >>> [round(float(c), 2) for c in _strip_costs([tile, strip, pic])]
    [0.0, 2.77, 0.0]
    """
    out = np.zeros(len(quads))
    for i, q in enumerate(quads[:-1]):
        long, short = _long_short(q)
        out[i] = BLANK_STRIP_COST * max(0.0, float(np.log(long / max(short, 1e-6) / TILE_SHAPED)))
    return out


def _long_short(quad: np.ndarray) -> tuple[float, float]:
    """``quad``'s long and short side (its mean width and height, the longer first): what
    :data:`TILE_SHAPED` measures, for :func:`_tile_shaped` and :func:`_strip_costs`."""
    g = Group(quad)
    return max(g.width, g.height), min(g.width, g.height)


def _tile_shaped(quad: np.ndarray) -> bool:
    """Whether ``quad`` is tile-shaped: at most :data:`TILE_SHAPED` long for its width
    (:func:`_blank_costs`, :func:`tile_under`)."""
    return _within(quad, TILE_SHAPED)


def _within(quad: np.ndarray, ratio: float) -> bool:
    """Whether ``quad``'s long side is at most ``ratio`` times its short one."""
    long, short = _long_short(quad)
    return long <= ratio * short


def _worth(logs: np.ndarray, cost: float, blank: float) -> float:
    """A reading's worth: the log probability of its surest tile (``logs``, a reading's
    log probabilities), less its ``cost``, and less ``blank`` where that tile is the white
    dragon. Both choices (:func:`_model_choice`, :func:`_sharp_choice`) weigh by it."""
    k = int(logs[: len(READ_CODES)].argmax())
    return float(logs[k]) - cost - (blank if k == BLANK else 0.0)


def _model_choice(
    logs: np.ndarray,
    readings: list[tuple[int, int]],
    costs: np.ndarray,
    blank: np.ndarray | None = None,
) -> int:
    """Which reading the tile model alone takes, where there is no sharp look (an index
    into ``readings``): the surest mean log probability of a tile over its cuts (``logs``),
    less its cost (``costs``, and ``blank`` where that tile is the white dragon); the first
    of equals. The whole picture is always read, so there is always one."""
    blank = np.zeros(len(readings)) if blank is None else blank
    worths = [
        _worth(logs[start : start + count].mean(0), float(cost), float(dear))
        for (start, count), cost, dear in zip(readings, costs, blank, strict=True)
    ]
    return int(np.argmax(worths))


def _sharp_looks(sharp: SharpLook, grey: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """The sharp look's mean reading of each of ``quads`` (one per reading) over its cuts."""
    crops = np.concatenate([_look_cuts(grey, q) for q in quads])
    return sharp.probabilities(crops).reshape(len(quads), len(CUTS), -1).mean(1)


def _sharp_choice(
    sharp: SharpLook,
    grey: np.ndarray,
    quads: list[np.ndarray],
    readings: list[tuple[int, int]],
    probs: np.ndarray,
    costs: np.ndarray,
    blank: np.ndarray | None = None,
    looks: np.ndarray | None = None,
) -> int:
    """Which reading to take (an index into ``readings``: each quadrilateral found, in
    each of its turns): each one's reading by the tile model (``probs`` of its cuts)
    weighed with the sharp look's (:func:`_weighed`), the surest less its cost
    (``costs``, and ``blank`` where its tile is the white dragon: :func:`_worth`). The
    tile model alone chose before, and the sharp look read only its choice: on a set it
    had never seen, an unsure upright reading lost to a wrong one, sure, upside down or on
    its side (docs/photo.md, "The reading chosen with the sharp look"). ``looks``: the
    sharp look's readings (:func:`_sharp_looks`), where they were taken already."""
    if looks is None:
        looks = _sharp_looks(sharp, grey, quads)
    blank = np.zeros(len(readings)) if blank is None else blank
    best, worth = 0, -np.inf
    for r, (reading, look, cost) in enumerate(zip(readings, looks, costs, strict=True)):
        mixed = _reading(probs, reading, look)
        w = _worth(np.log(mixed[: len(READ_CODES)] + 1e-6), float(cost), float(blank[r]))
        if w > worth:
            best, worth = r, w
    return best


def _bonus_look(
    bonus: BonusLook,
    grey: np.ndarray,
    quad: np.ndarray,
    mean: np.ndarray,
    crops: np.ndarray | None = None,
) -> np.ndarray:
    """``mean`` (the chosen reading's probabilities) after the bonus look at the same
    quadrilateral through the same cuts (``crops``, when they are cut already): where it
    finds a flower or season, the bonus tiles' share is divided as it reads them. A first
    reading of another tile gives way only where the look is :data:`BONUS_LOOK_SURE`, and
    a first reading of the bird (:data:`BIRD`) never."""
    if crops is None:
        crops = _look_cuts(grey, quad)
    look = bonus.probabilities(crops).mean(0)
    flowers = look[: len(BONUS)]
    if flowers.sum() <= look[len(BONUS)]:
        return mean  # another tile, to the sharper look too: the first reading stands
    first = int(mean[: len(READ_CODES)].argmax())
    if not bonus_tile(first):
        if first == BIRD or flowers.sum() < BONUS_LOOK_SURE:
            return mean  # the bird stands; another tile unless the look is sure
    out = mean.copy()
    share = max(float(mean[BONUS_AT].sum()), float(flowers.sum()))
    out[BONUS_AT] = share * flowers / flowers.sum()
    return out / out.sum()


def char_windows(face: np.ndarray) -> np.ndarray:
    """The character look's windows of ``face`` (a tile cut to :data:`CHAR_FACE`, grey):
    N x ``CHAR_WINDOW`` x ``CHAR_WINDOW``, every :data:`CHAR_SIDES` square, :data:`CHAR_STEP`
    of its side apart, less those of bare face (spread under
    :data:`CHAR_BARE`; at least one window is kept)."""
    return char_windows_at(face)[0]


def char_windows_at(face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`char_windows` of ``face``, and how low on it each window's middle lies (N: a
    share of the face's height, 0 at the top).

    >>> face = np.random.default_rng(0).integers(0, 256, (160, 120), dtype=np.uint8)
    >>> windows, lows = char_windows_at(face)
    >>> windows.shape[1:], len(windows) == len(lows), bool(0 < lows.min() < 0.1 < 0.9 < lows.max())
    ((32, 32), True, True)
    """
    h, w = face.shape
    out, lows = [], []
    for share in CHAR_SIDES:
        side = max(4, round(share * w))
        step = max(1, round(side * CHAR_STEP))
        for y in range(0, h - side + 1, step):
            for x in range(0, w - side + 1, step):
                window = face[y : y + side, x : x + side]
                out.append(
                    cv2.resize(window, (CHAR_WINDOW, CHAR_WINDOW), interpolation=cv2.INTER_AREA)
                )
                lows.append((y + side / 2) / h)
    windows, low = np.stack(out), np.array(lows)
    spread = windows.reshape(len(windows), -1).std(1)
    inked = spread >= CHAR_BARE
    return (windows[inked], low[inked]) if inked.any() else (windows[:1], low[:1])


def char_scan(
    ink: np.ndarray,
    quad: np.ndarray,
    window: tuple[float, ...] = (0.0, 1.0, 0.0, 1.0),
) -> np.ndarray:
    """The character look's windows of the tile ``quad`` in ``ink`` (the picture as
    :func:`~hefen.photo.model.ink_image` reads it): its part ``window`` (top, bottom, left,
    right, as :func:`cut` takes it) cut to :data:`CHAR_FACE`, then :func:`char_windows`."""
    return char_scan_at(ink, quad, window)[0]


def char_scan_at(
    ink: np.ndarray,
    quad: np.ndarray,
    window: tuple[float, ...] = (0.0, 1.0, 0.0, 1.0),
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`char_scan`'s windows, and how low on the cut each one's middle lies
    (:func:`char_windows_at`)."""
    return char_windows_at(cut(ink, quad, window, CHAR_FACE))


def char_named(surest: np.ndarray) -> int | None:
    """The bonus tile (an index into ``BONUS``) whose character the character look names,
    given each character's surest window (``surest``, 8): the surest, where it reaches
    :data:`CHAR_SURE` and every other is :data:`CHAR_MARGIN` less sure; else None."""
    return _named(surest, CHAR_SURE, CHAR_MARGIN)


def number_named(surest: np.ndarray) -> int | None:
    """The number (0-8 for 1-9) the number look names, given each number's surest window
    (``surest``): the surest, where it reaches :data:`NUMBER_SURE` and every other is
    :data:`NUMBER_MARGIN` less sure; else None."""
    return _named(surest, NUMBER_SURE, NUMBER_MARGIN)


def corner_named(each: np.ndarray, lows: np.ndarray, sure: float = CORNER_SURE) -> int | None:
    """The number (0-8 for 1-9) the number look names at the top of a tile, where makers
    print a corner index, given each window's probabilities of the numbers (``each``,
    N x 9) and how low on the tile each window's middle lies (``lows``, N): the surest in
    the windows above :data:`CORNER_TOP`, where it reaches ``sure`` and every
    other number there is :data:`NUMBER_MARGIN` less sure; else None (also where no window
    lies so high). A stick low on the tile, read as a 1, does not count against it.

    >>> each = np.zeros((2, 9)); each[0, 5], each[1, 0] = 0.92, 0.99  # a 6; a stick's 1
    >>> number_named(each.max(0)), corner_named(each, np.array([0.15, 0.6]))
    (None, 5)
    """
    top = lows < CORNER_TOP
    if not top.any():
        return None
    return _named(each[top].max(0), sure, NUMBER_MARGIN)


def _index_up(
    numbers: NumberLook,
    ink: np.ndarray,
    quads: list[np.ndarray],
    turned_by: np.ndarray,
    r: int,
    chosen: np.ndarray | None = None,
) -> int:
    """The reading to take (an index into ``quads``, each quadrilateral in its
    :data:`TURNS` turns) where reading ``r`` was chosen: where ``r`` is upside down from the
    picture's upright (:data:`UPSIDE_DOWN`, ``turned_by`` each reading's quarter turns) and
    the number look ``numbers`` names a corner index at the top of the same quadrilateral
    read upright (:func:`corner_named` at :data:`INDEX_UP_SURE`, in ``ink`` as the
    character look reads it), the upright reading: makers print the index at the top, so
    a tile that shows one there as the picture stands is upright. Where ``r`` is on its
    side (:data:`SIDEWAYS`), the same quadrilateral read on its other side where the
    number look names a corner index at that reading's top and not at ``r``'s; where
    ``r`` is upright and its reading ``chosen`` (where given) names a tile the number look
    reads (a suit tile or a bonus tile, as in :func:`_char_look`) less surely than
    :data:`UPRIGHT_STANDS`, the same quadrilateral read half a turn round where the number
    look names a corner index at that one's top and is sure of no number at ``r``'s
    (:func:`_number_at_top`: an upright reading, the likelier, stands on less). Else
    ``r``."""
    first = r - r % TURNS
    if turned_by[r] < UPSIDE_DOWN:
        sideways = abs(float(turned_by[r]) - 1.0) <= SIDEWAYS
        if not sideways and not _unsure_of_a_number(chosen):
            return r  # upright: it stands
        other = first + (r % TURNS + 2) % TURNS  # on its other side, or upside down
        # upright, the likelier way, it stands where any number is sure at its top
        own = _index_at_top if sideways else _number_at_top
        if _index_at_top(numbers, ink, quads[other]) and not own(numbers, ink, quads[r]):
            return other
        return r
    up = first + int(np.argmin(turned_by[first : first + TURNS]))
    return up if _index_at_top(numbers, ink, quads[up]) else r


def _unsure_of_a_number(chosen: np.ndarray | None) -> bool:
    """Whether a reading (``chosen``; None: not given) names a tile that prints a number
    (a suit tile, or a flower or season) less surely than :data:`UPRIGHT_STANDS`."""
    if chosen is None:
        return False
    k = int(chosen[: len(READ_CODES)].argmax())
    numbered = suit_tile(k) or bonus_tile(k)
    return numbered and float(chosen[k]) < UPRIGHT_STANDS


def _numbers_read(
    numbers: NumberLook, ink: np.ndarray, quad: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The number look ``numbers``' probabilities of the numbers 1-9 in each window of
    ``quad`` (in ``ink``, :func:`char_scan_at`), and how far down the tile each window's
    middle lies."""
    windows, lows = char_scan_at(ink, quad)
    return numbers.probabilities(windows)[:, : len(NUMBER_CLASSES) - 1], lows


def _index_at_top(numbers: NumberLook, ink: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the number look ``numbers`` names a corner index at the top of ``quad``
    (:func:`corner_named` at :data:`INDEX_UP_SURE`, in ``ink``)."""
    return corner_named(*_numbers_read(numbers, ink, quad), INDEX_UP_SURE) is not None


def _number_at_top(numbers: NumberLook, ink: np.ndarray, quad: np.ndarray) -> bool:
    """Whether the number look ``numbers`` is at least :data:`INDEX_UP_SURE` sure of some
    number at the top of ``quad`` (in ``ink``), told from the others or not: *traditional*'s
    9 of bamboos, its corner 9 read at 0.86 and the sticks beside it as a 1 at 0.80, names
    no index there, and was turned to read a stick's end as a 1 at the top."""
    each, lows = _numbers_read(numbers, ink, quad)
    top = lows < CORNER_TOP
    return bool(top.any()) and float(each[top].max()) >= INDEX_UP_SURE


def _named(surest: np.ndarray, sure: float, margin: float) -> int | None:
    k = int(surest.argmax())
    if surest[k] < sure or np.partition(surest, -2)[-2] > surest[k] - margin:
        return None
    return k


def numbered(bonus: np.ndarray, number: int, season_seen: float | None = None) -> int:
    """The bonus tile (an index into ``BONUS``) a reading whose bonus tiles' probabilities
    are ``bonus`` (8) gives when its number is ``number`` (0-3): the season or the flower
    of that number, whichever the reading gives more. (Taking the family the reading
    gives more in all, its four tiles' sum, was measured worse: a reading right at first
    was turned to the other family.) Where the character look read the tile
    (``season_seen``: its surest window for that season's character), each family is
    weighed by it first (:data:`SEASON_SEEN_AT`): a season's character not seen is a
    flower's sign.

    >>> bonus = np.array([0, 0.5, 0, 0, 0, 0.25, 0, 0])
    >>> [BONUS[numbered(bonus, 1, seen)] for seen in (None, 0.9, 0.4, 0.05)]
    ['2h', '2h', '2h', '6h']
    """
    season, flower = bonus[number], bonus[4 + number]
    if season_seen is not None:
        season, flower = (
            season * (season_seen + SEASON_SEEN_AT),
            flower * (1 - season_seen + SEASON_SEEN_AT),
        )
    return number if season >= flower else 4 + number


def bird_printed_one(mean: np.ndarray) -> bool:
    """Whether a tile read as a flower or season (``mean``) on which a 1 is printed is
    the bird, the 1 of bamboos: where the reading gives the bird more than the flower
    and the season of 1. Makers print a 1 on the bird as on every suit tile, and draw it
    as a picture, as they draw the flowers; a 1 alone cannot tell the three apart. On
    150 photos of the bird, the plum and the spring of each never-seen KMahjongg set
    (seed 424,242) it mended 5 of *traditional*'s birds and broke none; on the bench's
    seed and two fresh ones (3,780 photos of one tile), 1 bird mended and none broken
    (docs/photo.md, "A 1 on a picture: the bird").

    >>> from hefen.photo.classes import READ_CODES
    >>> orchid = np.zeros(len(READ_CODES) + 1)  # read as the orchid, the bird next
    >>> orchid[[READ_CODES.index(c) for c in ("6h", "1s", "1h", "5h")]] = 0.3, 0.15, 0.1, 0.12
    >>> bird_printed_one(orchid)
    True
    >>> orchid[READ_CODES.index("1h")] = 0.2  # the spring more than the bird
    >>> bird_printed_one(orchid)
    False
    """
    return float(mean[BIRD]) > float(mean[BONUS_AT][[0, len(BONUS) // 2]].max())


def turned(number: int, code: str, low: float) -> int:
    """The number (0-8 for 1-9) the number look named as ``number`` on a tile read as
    ``code``, in a window whose middle lies ``low`` down the tile: a 6 is a 9 and a 9 a 6
    where the tile is circles or bamboos and the window below :data:`TURNED_LOW`; else
    ``number``. (A character tile's numeral is not turned: its 萬 tells the reader which way
    is up, and 六 and 九 are no pair.)

    >>> turned(5, "9p", 0.8), turned(8, "6s", 0.8), turned(5, "9p", 0.2), turned(5, "9m", 0.8)
    (8, 5, 5, 5)
    >>> turned(2, "9p", 0.8)
    2
    """
    if number in (5, 8) and code[1] in "ps" and low > TURNED_LOW:
        return 13 - number
    return number


def bonus_tile(index: int) -> bool:
    """Whether ``index`` (into :data:`~hefen.photo.classes.READ_CODES`) is a flower or
    season."""
    return BONUS_AT.start <= index < BONUS_AT.stop


def suit_tile(index: int) -> bool:
    """Whether ``index`` (into :data:`~hefen.photo.classes.READ_CODES`) is a suit tile,
    1-9 of characters, circles or bamboos: the tiles a number names within their suit."""
    return READ_CODES[index] in SUITED


def renumbered(mean: np.ndarray, number: int) -> np.ndarray:
    """``mean`` (a reading of a suit tile) with its tile and the tile of its suit that
    prints ``number`` (0-8 for 1-9) swapped: the tile named takes the reading's
    probability, and what was read becomes its alternative."""
    read_as = int(mean[: len(READ_CODES)].argmax())
    return _swapped(mean, READ_CODES.index(f"{number + 1}{READ_CODES[read_as][1]}"))


def _swapped(mean: np.ndarray, to: int) -> np.ndarray:
    """``mean`` with the tile it reads and tile ``to`` (an index into
    :data:`~hefen.photo.classes.READ_CODES`) swapped."""
    read_as = int(mean[: len(READ_CODES)].argmax())
    out = mean.copy()
    out[to], out[read_as] = mean[read_as], mean[to]
    return out


def _numbered_tile(mean: np.ndarray, number: int) -> int:
    """The suit tile of ``number`` (0-8 for 1-9) that ``mean`` gives most (an index into
    :data:`~hefen.photo.classes.READ_CODES`; characters, then circles, on a tie)."""
    return max((READ_CODES.index(f"{number + 1}{suit}") for suit in "mps"), key=lambda i: mean[i])


def unflowered(mean: np.ndarray, number: int) -> np.ndarray:
    """``mean`` (a reading of a flower or season) on which a 5 to 9 (``number``, 4-8) is
    surely printed: no flower or season prints one, so it is the tile of that number in
    the suit the reading gives most, swapped with the tile read (as :func:`renumbered`
    swaps). :func:`_char_look` asks it where the reading gives that tile at least
    :data:`UNFLOWERED_AT` (docs/photo.md, "A 5 to 9 is no flower")."""
    return _swapped(mean, _numbered_tile(mean, number))


def _char_look(
    chars: CharLook | None,
    ink: np.ndarray,
    quad: np.ndarray,
    mean: np.ndarray,
    numbers: NumberLook | None = None,
) -> np.ndarray:
    """``mean`` (the chosen reading's probabilities) after the character look ``chars``
    and the number look ``numbers`` (where given) scan the same
    quadrilateral of ``ink`` (the picture as :func:`~hefen.photo.model.ink_image` reads
    it): where one of the eight characters is surely printed on it (:func:`char_named`),
    it names the flower or season; else, where the reading is a flower or season and one
    of the numbers 1-4 is surely printed (:func:`number_named`; where none is, at its
    top, :func:`corner_named`), the number and the reading (:func:`numbered`, weighed by
    how surely the character look saw that number's season) name it, the bonus tiles'
    share given to the tile named, a 1 the bird where the reading gives it more than the
    plum and the spring (:func:`bird_printed_one`);
    where the reading is a flower or season, a 5 to 9 is surely printed and the reading
    gives its suit tile some chance (:data:`UNFLOWERED_AT`), that suit tile
    (:func:`unflowered`);
    where the reading is a suit tile and one of the numbers 1-9 is surely printed (a
    corner index, a character tile's numeral), the tile of its suit that prints it
    (:func:`renumbered`), a 6 or 9 low on the tile read turned (:func:`turned`); where
    none is, a number surely printed at its top (:func:`corner_named`)."""
    read_as = int(mean[: len(READ_CODES)].argmax())
    bonus = bonus_tile(read_as)
    if not (bonus or suit_tile(read_as)):
        numbers = None  # an honour prints no number: the number look leaves it
    if chars is None and numbers is None:
        return mean
    windows, lows = char_scan_at(ink, quad)
    named = None
    seen = None  # the character look's surest window for each character
    if chars is not None:
        seen = chars.probabilities(windows)[:, : len(BONUS)].max(0)
        k = char_named(seen)
        if k is not None:
            named = (k, float(seen[k]))
    if named is None and numbers is not None:
        each = numbers.probabilities(windows)[:, : len(NUMBER_CLASSES) - 1]
        surest = each.max(0)
        n = number_named(surest)
        if not bonus:  # a suit tile: its number, else its corner index, names it
            if n is not None:
                low = float(lows[each[:, n].argmax()])
                return renumbered(mean, turned(n, READ_CODES[read_as], low))
            n = corner_named(each, lows)  # at the top: never turned
            return mean if n is None else renumbered(mean, n)
        if n is None:  # a 1-4 at the top, where makers print a flower's number
            top = corner_named(each, lows)
            n = top if top is not None and top < len(BONUS) // 2 else None
        if n == 0 and bird_printed_one(mean):
            return _swapped(mean, BIRD)
        if n is not None and n < len(BONUS) // 2:
            season_seen = None if seen is None else float(seen[n])
            named = (numbered(mean[BONUS_AT], n, season_seen), float(surest[n]))
        elif n is not None and mean[_numbered_tile(mean, n)] >= UNFLOWERED_AT:
            return unflowered(mean, n)  # a 5 to 9, which no flower or season prints
    if named is None:
        return mean
    return _bonus_named(mean, *named)


def _bonus_named(mean: np.ndarray, k: int, sure: float) -> np.ndarray:
    """``mean`` (a reading's probabilities) with bonus tile ``k`` (an index into
    ``BONUS``) named by a look ``sure`` of it: that tile takes the bonus tiles' share, at
    least ``sure``, the other bonus tiles none, and the reading is made whole again."""
    out = mean.copy()
    share = max(float(mean[BONUS_AT].sum()), sure)
    out[BONUS_AT] = 0.0
    out[BONUS_AT.start + k] = share
    return out / out.sum()


def wants_words(mean: np.ndarray) -> bool:
    """Whether the word look reads a photo whose reading is ``mean``: where it may be a
    flower or season (its bonus tiles' share at least :data:`CHAR_LOOK_AT`), or its
    surest tile is below :data:`WORD_LOOK_BELOW`.

    >>> from hefen.photo.classes import READ_CODES
    >>> def read(**p):
    ...     out = np.zeros(len(READ_CODES) + 1)
    ...     for code, v in p.items():
    ...         out[READ_CODES.index(code.lstrip("_"))] = v
    ...     return out
    >>> wants_words(read(_1s=0.95, _2h=0.05)), wants_words(read(_1s=0.7, _2h=0.05, _E=0.25))
    (False, True)
    >>> wants_words(read(_1s=0.74, _2h=0.26))
    True
    """
    may_be_bonus = float(mean[BONUS_AT].sum()) >= CHAR_LOOK_AT
    return may_be_bonus or float(mean[: len(READ_CODES)].max()) < WORD_LOOK_BELOW


def _word_look(
    words: WordLook, rgb: np.ndarray, mean: np.ndarray, found: list[np.ndarray] | None = None
) -> np.ndarray:
    """``mean`` (the chosen reading's probabilities) after the word look reads ``rgb``
    (the photo): where its words name a tile (:func:`~hefen.photo.words.tile_named`), a
    flower or season takes the bonus tiles' share, at least
    :data:`~hefen.photo.words.WORD_SURE` of the reading before it is made whole again
    (:func:`_bonus_named`, as a character the character look names takes it); a suit or
    honour tile takes at least that (:func:`_named_tile`). Where they name none and a
    number is printed alone (a corner index), :func:`_printed_number` reads it on the
    quadrilaterals ``found`` in the photo (:func:`tile_quads`)."""
    printed = words.read(rgb)
    if printed.tile is None:
        return _printed_number(mean, printed, found)
    if printed.tile in BONUS:
        return _bonus_named(mean, BONUS.index(printed.tile), WORD_SURE)
    return _named_tile(mean, READ_CODES.index(printed.tile), WORD_SURE)


def _printed_number(
    mean: np.ndarray, printed: Printed, found: list[np.ndarray] | None
) -> np.ndarray:
    """``mean`` (a reading) where the word look read the number ``printed`` alone on the
    tile, ``found`` the quadrilaterals found in the photo (:func:`tile_quads`): as
    the number look's number (:func:`_char_look`), a suit tile becomes the tile of its
    suit that prints it (:func:`renumbered`); a flower or season, the one of that number
    (1-4, :func:`numbered`; a 1 the bird where :func:`bird_printed_one`), or, for a 5
    to 9, the suit tile (:func:`unflowered`); the bird (:data:`BIRD`), whose number is 1,
    and which makers draw as a picture as they draw flowers, printing a 2 to 4, the
    flower or season of that number; a wind or dragon, which prints no number, the suit
    tile of that number the reading gives most (:func:`_numbered_tile`). A 6 or 9 is
    read as it stands where it lies in the top of the tile it lies on
    (:func:`tile_under`) as the picture stands, turned where in the bottom
    (:func:`six_or_nine`); where neither, a tile read as neither 6 nor 9 becomes the one
    of the two the reading gives more, and a tile read as a 6 or 9 is left be. A character tile's 6 or 9 is left be: its 六 or 九 tells them apart. A
    number read as another as it stands (a serif 1 turned half round reads as a 7) is
    left be."""
    number = printed.number
    if number is None:
        return mean
    if number not in SIX_NINE and printed.standing not in (None, number):
        return mean  # read two ways: the reader turned a line it should not have
    read_as = int(mean[: len(READ_CODES)].argmax())
    code = READ_CODES[read_as]
    if number in SIX_NINE:
        if code[1:] == "m":
            return mean
        under = None
        if found and printed.box is not None:
            under = tile_under(printed.box.mean(0), found)
        number = six_or_nine(printed, under)
        if number is None:
            if code[0] in "69":
                return mean
            fellows = (
                READ_CODES.index(f"{six_nine}{code[1]}")
                if suit_tile(read_as)
                else _numbered_tile(mean, six_nine - 1)
                for six_nine in SIX_NINE
            )
            return _swapped(mean, max(fellows, key=lambda i: float(mean[i])))
    n = number - 1
    bird = read_as == BIRD and 0 < n < len(BONUS) // 2  # the bird prints a 1
    if suit_tile(read_as) and not bird:
        return renumbered(mean, n)
    if bird or bonus_tile(read_as):
        if n == 0 and bird_printed_one(mean):
            return _swapped(mean, BIRD)
        if n < len(BONUS) // 2:
            return _bonus_named(mean, numbered(mean[BONUS_AT], n), DIGIT_SURE)
        return unflowered(mean, n) if mean[_numbered_tile(mean, n)] >= UNFLOWERED_AT else mean
    return _swapped(mean, _numbered_tile(mean, n))


def tile_under(point: np.ndarray, found: list[np.ndarray]) -> np.ndarray:
    """The tile a point (x, y) of the photo lies on, of the quadrilaterals ``found`` in it
    (:func:`tile_quads`, the whole picture last): the largest that holds it and is
    tile-shaped (at most :data:`TILE_SHAPED` long for its width); the whole picture where
    none is. A quadrilateral found may be one pip or stick, or a part of the tile.

    >>> whole = np.array([[0, 0], [600, 0], [600, 450], [0, 450]], float)
    >>> tile = np.array([[160, 45], [420, 45], [420, 405], [160, 405]], float)
    >>> pip = np.array([[300, 200], [400, 200], [400, 300], [300, 300]], float)
    >>> strip = np.array([[160, 45], [190, 45], [190, 405], [160, 405]], float)
    >>> [int(tile_under(np.array(p, float), [pip, tile, strip, whole])[1, 0]) for p in ((350, 250), (170, 50), (50, 50))]
    [420, 420, 600]
    """
    x, y = float(point[0]), float(point[1])
    holders = [
        q
        for q in found[:-1]
        if cv2.pointPolygonTest(q.astype(np.float32), (x, y), False) >= 0 and _tile_shaped(q)
    ]
    if not holders:
        return found[-1]
    return max(holders, key=lambda q: float(cv2.contourArea(q.astype(np.float32))))


def six_or_nine(printed: Printed, quad: np.ndarray | None) -> int | None:
    """A 6 or 9 printed alone on a tile (``printed``, read as it stands in the picture)
    as the tile prints it: as it stands where its middle lies in the top
    :data:`INDEX_HIGH` of the tile's height as the picture stands (``quad``'s corners),
    turned (a 6 is a 9 upside down) where as far up from its bottom; else None (read not
    so surely, in between, off the tile, or the tile on its side, where up is across the
    picture). Makers print a corner index at the top.

    >>> from hefen.photo.words import Printed
    >>> tile = np.array([[0, 0], [60, 0], [60, 80], [0, 80]], float)
    >>> def at(y, standing=6):
    ...     box = np.array([[40, y - 5], [50, y - 5], [50, y + 5], [40, y + 5]], float)
    ...     return six_or_nine(Printed(None, 9, standing, box), tile)
    >>> at(10), at(70), at(40), at(10, None), at(95)
    (6, 9, None, None, None)
    """
    if quad is None or printed.box is None or printed.standing not in SIX_NINE:
        return None
    (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
    if x1 - x0 > y1 - y0:
        return None
    cx, cy = printed.box.mean(0)
    down = (cy - y0) / (y1 - y0)
    if not (x0 <= cx <= x1 and 0.0 <= down <= 1.0):
        return None
    if down <= INDEX_HIGH:
        return printed.standing
    if down >= 1 - INDEX_HIGH:
        return 15 - printed.standing
    return None


def _named_tile(mean: np.ndarray, k: int, sure: float) -> np.ndarray:
    """``mean`` with tile ``k`` (an index into ``READ_CODES``) named by a look ``sure`` of
    it: that tile at least ``sure`` of the reading, the rest shared as before. A tile
    named by its printed characters is shown as that sure (a flower named so takes the
    bonus tiles' share instead, :func:`_bonus_named`).

    >>> from hefen.photo.classes import READ_CODES
    >>> before = np.zeros(len(READ_CODES) + 1)
    >>> before[READ_CODES.index("P")], before[READ_CODES.index("C")], before[-1] = 0.44, 0.01, 0.55
    >>> after = _named_tile(before, READ_CODES.index("C"), 0.8)
    >>> [round(float(after[READ_CODES.index(c)]), 3) for c in ("C", "P")], round(float(after.sum()), 6)
    ([0.8, 0.089], 1.0)
    """
    total = float(mean.sum())
    if mean[k] >= sure * total:
        return mean
    out = mean * ((1.0 - sure) * total / max(total - float(mean[k]), 1e-9))
    out[k] = sure * total
    return out


@dataclass
class TileReading:
    """The surest reading of a picture of one tile: its tile (an index into
    :data:`~hefen.photo.classes.READ_CODES`), its probabilities (the mean over its cuts)
    and, when asked for, its look (the mean of its cuts' features, 1 x F: what
    :func:`hefen.photo.pipeline.teach_tile` keeps)."""

    index: int
    probs: np.ndarray
    look: np.ndarray | None = None
    #: every reading's look (R x F: the tile found another way, or turned), and its
    #: quarter turns from the picture's upright (R), when looks were taken
    looks: np.ndarray | None = None
    turns: np.ndarray | None = None
    #: how much of a part each reading's quadrilateral is (:func:`_parts`: the log of how
    #: much smaller it is than the largest found that holds it, 0 where none does), when
    #: looks were taken
    parts: np.ndarray | None = None


def read_tile(
    image: np.ndarray,
    memory: TileMemory | None = None,
    model: TileClassifier | None = None,
    look: bool = False,
) -> TileReading:
    """The surest reading of the one tile in ``image`` (RGB uint8), with the tiles
    ``memory`` was taught read as taught; with ``look``, also its look."""
    if min(image.shape[:2]) < MIN_SIDE:
        raise PhotoError("The picture is too small to show a tile.")
    clf = model or classifier()
    rgb, _ = reduced(image, READ_SIDE)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    readings: list[tuple[int, int]] = []  # (first crop, crops) of each reading
    turns: list[float] = []  # each reading's quarter turns from the picture's upright
    crops: list[np.ndarray] = []
    quads: list[np.ndarray] = []  # each reading's quadrilateral, turned
    found = tile_quads(rgb)
    for quad in found:
        for turned, quarters in _turns(quad):
            readings.append((len(crops), len(CUTS)))
            quads.append(turned)
            turns.append(quarters)
            crops += [cut(grey, turned, window) for window in CUTS]
    batch = np.stack(crops)
    features = None
    if look or (memory is not None and len(memory)):
        probs, features = clf.run(batch)
    else:
        probs = clf.probabilities(batch)
    logs = np.log(probs[:, : len(READ_CODES)] + 1e-6)
    looks = None if clf.sharp is None else _sharp_looks(clf.sharp, grey, quads)
    # how sure the whole picture (found last) is read as a tile, in its surest turn
    last = range(len(readings) - TURNS, len(readings))
    whole = [_reading(probs, readings[i], None if looks is None else looks[i]) for i in last]
    whole_sure = max(float(w[: len(READ_CODES)].max()) for w in whole)
    turned_by = np.array(turns)
    part_of = np.repeat(_parts(found, whole_sure >= WHOLE_HOLDS), TURNS)
    wide = np.array([_wide(q) for q in quads])
    costs = TURN_COST * turned_by + PART_COST * part_of + WIDE_COST * wide
    # each quadrilateral's, in each turn
    blank = np.repeat(_blank_costs(found) + _strip_costs(found), TURNS)
    if clf.sharp is not None:
        r = _sharp_choice(clf.sharp, grey, quads, readings, probs, costs, blank, looks)
    else:
        r = _model_choice(logs, readings, costs, blank)
    ink = ink_image(rgb)
    if clf.numbers is not None:  # a corner index at the top says which way is up
        chosen = _reading(probs, readings[r], None if looks is None else looks[r])
        r = _index_up(clf.numbers, ink, quads, turned_by, r, chosen)
    start, count = readings[r]
    mean = probs[start : start + count].mean(0)
    k = int(logs[start : start + count].mean(0).argmax())
    look_crops = None
    if clf.sharp is not None:
        look_crops = _look_cuts(grey, quads[r])
        mean = _sharp_look(clf.sharp, look_crops, mean)
        k = int(mean[: len(READ_CODES)].argmax())
    if clf.bonus is not None and mean[BONUS_AT].sum() >= BONUS_LOOK_AT:
        mean = _bonus_look(clf.bonus, grey, quads[r], mean, look_crops)
        k = int(mean[: len(READ_CODES)].argmax())
    flowers = mean[BONUS_AT].sum() >= CHAR_LOOK_AT  # may be a flower or season
    chars = clf.chars if flowers else None
    numbers = clf.numbers if flowers or suit_tile(k) else None
    if chars is not None or numbers is not None:
        mean = _char_look(chars, ink, quads[r], mean, numbers)
        k = int(mean[: len(READ_CODES)].argmax())
    if wants_words(mean):
        words = clf.words
        if words is not None:
            mean = _word_look(words, rgb, mean, found)
            k = int(mean[: len(READ_CODES)].argmax())
    # each reading's look (its cuts' mean features), and the chosen reading's
    every = (
        None if features is None else np.stack([features[a : a + n].mean(0) for a, n in readings])
    )
    seen = None if every is None else every[r : r + 1]
    if memory is not None and seen is not None and every is not None and len(memory):
        if clf.match is not None:
            # The match look's features tell drawings apart, so every reading is compared
            # (the model may have turned a never-seen set's tile wrongly), a turn costing;
            # a taught white dragon only with the turns of the quadrilateral chosen.
            chosen = np.arange(len(every)) // TURNS == r // TURNS
            mean = memory.match(mean, every, turned_by, part_of, chosen)
        else:
            # The model's own features: the memory reads the chosen reading only, as one:
            # its cuts' mean look (what teach_tile keeps) against each taught tile's.
            # Where the tile is stays the model's call: with every cut given to the
            # memory, a taught tile found in a bad cut (turned, half off the tile) made
            # that cut the surest, and teaching 3 photos of each bonus tile of a
            # never-seen set took 15 points off its suit and honour tiles.
            mean = memory.adjust(mean[None], seen)[0]
        k = int(mean[: len(READ_CODES)].argmax())
    if not look:
        return TileReading(k, mean)
    return TileReading(k, mean, seen, every, turned_by, part_of)
