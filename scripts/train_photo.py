"""Train the photo recogniser's tile classifier and ship it as ONNX.

Synthetic crops are drawn from the tile artwork in ``../shared/tiles`` (see
:mod:`hefen.photo.synth`), a small CNN is trained on them with PyTorch on the CPU, exported
to ONNX, int8-quantised with onnxruntime when that keeps its accuracy, and written with its
class order and sha256 to ``hefen/photo/model/``. Everything is seeded: the same command
gives the same model on the same machine (PyTorch's CPU kernels may differ in the last bits
across machines).

Needs the training extras, ``pip install torch==2.13.0 onnx``, and for the two font styles
(``symbols``, ``drawn``) Debian's fonts::

    apt-get install fonts-noto-core fonts-symbola fonts-arphic-ukai fonts-arphic-uming \
        fonts-wqy-microhei fonts-arphic-bkai00mp fonts-arphic-bsmi00lp fonts-dejavu-core \
        fonts-cns11643-kai fonts-cns11643-sung fonts-aoyagi-kouzan-t \
        fonts-ipaexfont-mincho fonts-hanazono fonts-wqy-zenhei

    python scripts/train_photo.py                 # the shipped model, ~4 minutes on 2 cores
    python scripts/train_photo.py --styles samoheen,fonts,symbols,drawn --out /tmp/m
                                                  # leave xhokir out
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hefen.photo import glyphs, synth  # noqa: E402
from hefen.photo.classes import (  # noqa: E402
    BONUS,
    NOT_A_TILE,
    READ_CLASSES,
    READ_CODES,
    TILE_CODES,
)
from hefen.photo.detect import reduced  # noqa: E402
from hefen.photo.model import (  # noqa: E402  (the runtime's)
    BONUS_H,
    BONUS_W,
    BonusLook,
    CharLook,
    MatchLook,
    NumberLook,
    SharpLook,
    TileClassifier,
    ink_image,
    normalised,
    session_options,
)
from hefen.photo.single import CHAR_STEP, CUTS, READ_SIDE, char_scan, cut  # noqa: E402

#: The bonus look's training crops: the share of other tiles (its last class), and crops
#: cut from each photo of one tile.
OTHER_SHARE = 1 / 9
PER_PHOTO = 4

CHUNK = 500
_ART: synth.Art | None = None
_LOOK = "tiles"
#: The match look's drawings (each one an identity to tell from every other) beside the
#: styles': more drawn faces of each tile, from a seed of their own, and the bonus tiles'
#: faces whose pictures do not tell them; and its features' size.
MATCH_DRAWN, MATCH_DRAWN_SEED, MATCH_DIMENSIONS = 40, 20_261_205, 128
_IDS: list[tuple[str, int]] = []
#: of each drawing's crops, how many are cut from a photo of the tile alone (``--photo-cuts``)
PHOTO_CUTS = 0

#: What each ``--look`` writes: the network's file, its JSON, its classes and its input
#: (height, width).
LOOKS: dict[str, tuple[str, str, tuple[str, ...], tuple[int, int]]] = {
    "tiles": (*TileClassifier.FILES, READ_CLASSES, (synth.CROP_H, synth.CROP_W)),
    "bonus": (*BonusLook.FILES, BonusLook.CLASSES, (BONUS_H, BONUS_W)),
    "sharp": (*SharpLook.FILES, SharpLook.CLASSES, (BONUS_H, BONUS_W)),
    "match": (*MatchLook.FILES, (), (synth.CROP_H, synth.CROP_W)),
    "chars": (*CharLook.FILES, CharLook.CLASSES, (glyphs.WINDOW, glyphs.WINDOW)),
    "numbers": (*NumberLook.FILES, NumberLook.CLASSES, (glyphs.WINDOW, glyphs.WINDOW)),
}
#: The looks that read square windows of a tile (``single.char_scan``): each one's
#: window maker, its drawings of none of what it names, and its art of those.
WINDOW_LOOKS = {
    "chars": (glyphs.char_window, glyphs.plain_drawings, glyphs.plain_art),
    "numbers": (glyphs.number_window, glyphs.numberless_drawings, glyphs.numberless_art),
}
#: The character look's windows with none of the eight characters, and of those the share
#: cut as the reader cuts them (``single.char_windows``) from a photo of one tile that
#: prints none, ``PER_TILE_PHOTO`` windows of each photo.
NO_CHARACTER_SHARE = 0.45
PHOTO_WINDOWS = 0.0  # --photo-windows, set in each worker (_init_worker)
TYPEFACES = "drawn"  # --typefaces, set in each worker (_init_worker)
PER_TILE_PHOTO = 6
_PLAIN: list[np.ndarray] = []
_PLAIN_ART: synth.Art | None = None


def _init_worker(
    styles: tuple[str, ...],
    tiles_dir: str | None,
    weights: dict[str, float] | None,
    look: str = "tiles",
    photo_cuts: int = 0,
    photo_windows: float = 0.0,
    typefaces: str = "drawn",
) -> None:
    global _ART, _LOOK, PHOTO_CUTS, PHOTO_WINDOWS, TYPEFACES, _PLAIN_ART
    cv2.setNumThreads(1)
    _LOOK = look
    PHOTO_CUTS = photo_cuts
    PHOTO_WINDOWS = photo_windows
    TYPEFACES = typefaces
    _ART = synth.load_art(styles, Path(tiles_dir) if tiles_dir else None, weights)
    if look == "bonus" and "drawn" in styles:  # faces whose pictures do not tell them
        _ART.extend(synth.varied_bonus_art(), "drawn")
    if look == "match":
        _ART = match_art(_ART, styles)
        _IDS[:] = identities(_ART)
    if look in WINDOW_LOOKS:
        _, drawings, plain_art = WINDOW_LOOKS[look]
        _PLAIN[:] = drawings(_ART)
        _PLAIN_ART = plain_art(_ART)


def match_art(art: synth.Art, styles: tuple[str, ...]) -> synth.Art:
    """``art`` with the match look's further drawings (where the drawn style is trained):
    ``MATCH_DRAWN`` more drawn faces of each tile and the bonus tiles' varied faces."""
    if "drawn" not in styles:
        return art
    from hefen.photo import drawn

    more = synth.Art()
    for code in drawn.drawable_codes():
        for rgba in drawn.draw_faces(code, MATCH_DRAWN, MATCH_DRAWN_SEED):
            more.add(code, synth.face_from_rgba(rgba), "more")
    art.extend(more, "drawn")
    art.extend(synth.varied_bonus_art(), "drawn")
    return art


def identities(art: synth.Art) -> list[tuple[str, int]]:
    """Every drawing of ``art`` as (tile, its index among the tile's drawings): the
    match look's classes, each a face to tell from every other face, of its own tile or
    of another tile of the same set."""
    return [(code, i) for code in TILE_CODES for i in range(len(art.faces.get(code, [])))]


def _count_identities() -> int:
    return len(_IDS)


def _make_match_chunk(job: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """The match look's crops of a run of drawings, from their own seed: ``per`` crops
    of each drawing (job: seed, first drawing, per), cut from hand photos as the tile
    classifier's crops are (``synth.tile_crop``), each in its own light, camera, tile body
    and neighbours, and ``PHOTO_CUTS`` of them from one photo of the tile alone, cut as
    the single-tile reader cuts it (:func:`photo_cuts`); the label is the drawing's index
    in :func:`identities`."""
    seed, first, per_f = job
    per = int(per_f)  # crops of each drawing: PHOTO_CUTS of them cut from a photo of one tile
    assert _ART is not None
    rng = np.random.default_rng(seed)
    tables = synth.TableBank(rng, count=6, size=320)
    ids = _IDS[first : first + CHUNK // per]
    xs = np.empty((len(ids) * per, synth.CROP_H, synth.CROP_W), np.uint8)
    ys = np.empty(len(ids) * per, np.int64)
    from_photo = min(PHOTO_CUTS, per)
    for j, (code, index) in enumerate(ids):
        faces, styles = _ART.faces[code], _ART.styles[code]
        _ART.faces[code], _ART.styles[code] = [faces[index]], [styles[index]]
        try:
            at = j * per
            for k in range(per - from_photo):
                xs[at + k] = synth.tile_crop(rng, _ART, code, tables)
            if from_photo:
                size = (synth.CROP_W, synth.CROP_H)
                xs[at + per - from_photo : at + per] = photo_cuts(rng, _ART, code, from_photo, size)
            ys[at : at + per] = first + j
        finally:
            _ART.faces[code], _ART.styles[code] = faces, styles
    return xs, ys


def _make_chunk(job: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """``CHUNK`` crops from their own seed, so the data set does not depend on scheduling:
    each of the 42 tiles and the tile back (face down) alike likely, and ``junk_fraction``
    of *not a tile* (bad cuts, table, things on the table)."""
    seed, count, junk_fraction = job
    assert _ART is not None
    rng = np.random.default_rng(seed)
    tables = synth.TableBank(rng, count=6, size=320)
    xs = np.empty((count, synth.CROP_H, synth.CROP_W), np.uint8)
    ys = np.empty(count, np.int64)
    for i in range(count):
        if rng.random() < junk_fraction:
            xs[i] = synth.tile_crop(rng, _ART, None, tables)
            ys[i] = READ_CLASSES.index(NOT_A_TILE)
        else:
            k = int(rng.integers(len(READ_CODES)))
            xs[i] = synth.tile_crop(rng, _ART, READ_CODES[k], tables)
            ys[i] = k
    return xs, ys


def _make_char_chunk(job: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """``CHUNK`` windows for the character look or the number look, from their own seed
    (:func:`hefen.photo.glyphs.char_window`, :func:`~hefen.photo.glyphs.number_window`):
    ``NO_CHARACTER_SHARE`` with none of what the look names, the rest each of its classes
    alike likely."""
    seed, count, _ = job
    assert _PLAIN_ART is not None
    window = WINDOW_LOOKS[_LOOK][0]
    named = len(LOOKS[_LOOK][2]) - 1
    rng = np.random.default_rng(seed)
    xs = np.empty((count, glyphs.WINDOW, glyphs.WINDOW), np.uint8)
    ys = np.empty(count, np.int64)
    i = 0
    while i < count:
        none = rng.random() < NO_CHARACTER_SHARE
        if none and rng.random() < PHOTO_WINDOWS:
            n = min(PER_TILE_PHOTO, count - i)
            xs[i : i + n] = photo_windows(rng, _PLAIN_ART, n)
            ys[i : i + n] = named
            i += n
            continue
        label = named if none else int(rng.integers(named))
        xs[i] = window(rng, label, _PLAIN, TYPEFACES)
        ys[i] = label
        i += 1
    return xs, ys


def photo_windows(rng: np.random.Generator, art: synth.Art, n: int) -> np.ndarray:
    """``n`` of the character look's windows of one photo of one tile of ``art``
    (``synth.tile_photo_at``), cut as the reader cuts them (the picture reduced, read as
    ``model.ink_image``, the tile at its corners a few hundredths off scanned by
    ``single.char_scan``)."""
    codes = [c for c in TILE_CODES if c in art.faces]
    code = codes[rng.integers(len(codes))]
    photo, corners = synth.tile_photo_at(rng, art, code)
    rgb, scale = reduced(photo, READ_SIDE)
    d = rng.normal(0, 0.03, 4)
    windows = char_scan(ink_image(rgb), corners * scale, (d[0], 1 + d[1], d[2], 1 + d[3]))
    return windows[rng.choice(len(windows), n)]


def _make_look_chunk(job: tuple[int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """``CHUNK`` crops for a second look, from their own seed: photos of one tile
    (``synth.tile_photo_at``) -- for the bonus look each of the eight bonus tiles alike
    likely and ``OTHER_SHARE`` another tile, for the sharp look each of the 42 tiles alike
    likely -- each photo cut ``PER_PHOTO`` times as the single-tile
    reader cuts it (``hefen.photo.single``: the picture reduced, one of its ``CUTS``) at the
    tile's true corners, with the jitter of a found outline (each side a few hundredths
    off, now and then inside the face or well outside the tile)."""
    seed, count, _ = job
    assert _ART is not None
    rng = np.random.default_rng(seed)
    others = [c for c in TILE_CODES if c not in BONUS]
    xs = np.empty((count, BONUS_H, BONUS_W), np.uint8)
    ys = np.empty(count, np.int64)
    i = 0
    while i < count:
        if _LOOK == "sharp":
            label = int(rng.integers(len(TILE_CODES)))
            code = TILE_CODES[label]
        elif rng.random() < OTHER_SHARE:
            code, label = str(rng.choice(others)), len(BONUS)
        else:
            label = int(rng.integers(len(BONUS)))
            code = BONUS[label]
        n = min(PER_PHOTO, count - i)
        xs[i : i + n] = photo_cuts(rng, _ART, code, n, (BONUS_W, BONUS_H))
        ys[i : i + n] = label
        i += n
    return xs, ys


def photo_cuts(
    rng: np.random.Generator, art: synth.Art, code: str, n: int, size: tuple[int, int]
) -> np.ndarray:
    """``n`` crops (``size``: width, height) of one photo of one tile
    (``synth.tile_photo_at``), cut as the single-tile reader cuts it
    (``hefen.photo.single``: the picture reduced, one of its ``CUTS``) at the tile's true
    corners, with the jitter of a found outline (each side a few hundredths off, now and
    then inside the face or well outside the tile)."""
    photo, corners = synth.tile_photo_at(rng, art, code)
    rgb, scale = reduced(photo, READ_SIDE)
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    quad = corners * scale
    out = np.empty((n, size[1], size[0]), np.uint8)
    for i in range(n):
        top, bottom, left, right = CUTS[rng.integers(len(CUTS))]
        d = rng.normal(0, 0.035, 4)
        if rng.random() < 0.2:  # found inside the tile (its drawing's pieces)
            d += rng.uniform(0.02, 0.1) * np.array([1, -1, 1, -1])
        elif rng.random() < 0.15:  # found well outside it
            d -= rng.uniform(0.04, 0.2) * np.array([1, -1, 1, -1])
        window = (top + d[0], bottom + d[1], left + d[2], right + d[3])
        out[i] = cut(grey, quad, window, size)
    return out


def make_data(
    seed: int,
    count: int,
    styles: tuple[str, ...],
    workers: int,
    junk_fraction: float,
    tiles_dir: str | None = None,
    weights: dict[str, float] | None = None,
    look: str = "tiles",
    photo_cuts: int = 0,
    photo_windows: float = 0.0,
    typefaces: str = "drawn",
) -> tuple[np.ndarray, np.ndarray]:
    jobs = []
    ctx = get_context("fork")
    maker = (
        _make_char_chunk
        if look in WINDOW_LOOKS
        else {"tiles": _make_chunk, "match": _make_match_chunk}.get(look, _make_look_chunk)
    )
    with ctx.Pool(
        workers,
        initializer=_init_worker,
        initargs=(styles, tiles_dir, weights, look, photo_cuts, photo_windows, typefaces),
    ) as pool:
        if look == "match":  # count: crops of each drawing; the drawings are the workers'
            run = CHUNK // count
            for i, start in enumerate(range(0, pool.apply(_count_identities), run)):
                jobs.append((seed * 100_003 + i, start, float(count)))
        else:
            for i, start in enumerate(range(0, count, CHUNK)):
                jobs.append((seed * 100_003 + i, min(CHUNK, count - start), junk_fraction))
        parts = pool.map(maker, jobs, chunksize=1)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def build_model(  # type: ignore[no-untyped-def]
    c: tuple[int, ...] = (16, 24, 48, 96),
    size: tuple[int, int] = (synth.CROP_W, synth.CROP_H),
    classes: int = len(READ_CLASSES),
):
    import torch.nn as nn

    def block(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    layers: list[nn.Module] = []
    prev = 1
    for ch in c:
        layers += block(prev, ch) + [nn.MaxPool2d(2)]
        prev = ch
    h, w = size[1] // 16, size[0] // 16
    layers += [nn.Flatten(), nn.Dropout(0.2), nn.Linear(c[-1] * h * w, classes)]
    return nn.Sequential(*layers)


def build_factored_look(  # type: ignore[no-untyped-def]
    c: tuple[int, ...] = (16, 24, 48, 96), size: tuple[int, int] = (BONUS_W, BONUS_H)
):
    """The bonus look read as what every maker prints, in three small heads on one body:
    a bonus tile or another tile; its family (a season or a flower); its number (1-4).
    Its output is still the nine classes' log-probabilities (``BONUS_LOOK_CLASSES``:
    ``nh`` is season ``n`` for n = 1..4, flower ``n - 4`` for n = 5..8), each bonus tile's
    the sum of the three heads' parts, so that the runtime reads it as it reads the plain
    look; but the number is learnt from all eight tiles' numbers and the family from all
    four of each family, not each tile from its own few drawings."""
    import torch
    import torch.nn as nn

    plain = build_model(c, size, 2 + 2 + 4)

    class FactoredLook(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = plain[:-2]
            self.drop = plain[-2]
            self.heads = plain[-1]
            family = [i // 4 for i in range(len(BONUS))]
            number = [i % 4 for i in range(len(BONUS))]
            self.register_buffer("family", torch.tensor(family), persistent=False)
            self.register_buffer("number", torch.tensor(number), persistent=False)

        def logits(self, features: torch.Tensor) -> torch.Tensor:
            z = self.heads(self.drop(features))
            kind = torch.log_softmax(z[:, :2], dim=1)  # 0: a bonus tile, 1: another tile
            fam = torch.log_softmax(z[:, 2:4], dim=1)
            num = torch.log_softmax(z[:, 4:8], dim=1)
            bonus = kind[:, :1] + fam[:, self.family] + num[:, self.number]
            return torch.cat([bonus, kind[:, 1:]], dim=1)

        def forward(self, crops: torch.Tensor) -> torch.Tensor:
            return self.logits(self.body(crops))

    return FactoredLook()


def split(net, crops):  # type: ignore[no-untyped-def]
    """The features the last layer reads, and the logits."""
    import torch.nn as nn

    if isinstance(net, nn.Sequential):
        features = net[:-2](crops)  # before the dropout and the linear layer
        return features, net[-1](features)
    features = net.body(crops)
    return features, net.logits(features)


def prepared(args, make):  # type: ignore[no-untyped-def]
    """Seeded torch, the styles checked, and the crops: from ``args.cache`` when it holds
    them, else ``make(styles)`` (train x, y, validation x, y), kept there when named.
    Returns the styles, the start time and the four arrays."""
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads or args.workers)
    styles = tuple(args.styles.split(","))
    synth.check_styles(styles, Path(args.tiles_dir) if args.tiles_dir else None)
    t0 = time.time()
    cache = Path(args.cache) if args.cache else None
    if cache and cache.exists():
        with np.load(cache) as data:
            x, y, xv, yv = data["x"], data["y"], data["xv"], data["yv"]
    else:
        x, y, xv, yv = make(styles)
        if cache:
            np.savez(cache, x=x, y=y, xv=xv, yv=yv)
    return styles, t0, x, y, xv, yv


def train(args: argparse.Namespace) -> None:
    import torch
    import torch.nn.functional as F

    weights = style_weights(args.style_weight)

    def data(styles: tuple[str, ...], seed: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        return make_data(
            seed,
            count,
            styles,
            args.workers,
            args.junk,
            args.tiles_dir,
            weights,
            args.look,
            photo_windows=args.photo_windows,
            typefaces=args.typefaces,
        )

    styles, t0, x, y, xv, yv = prepared(
        args,
        lambda styles: (
            *data(styles, args.seed, args.crops),
            *data(styles, args.seed + 1, args.val_crops),
        ),
    )
    print(f"data: {len(x)} train, {len(xv)} val crops in {time.time() - t0:.0f}s", flush=True)
    xt, yt = torch.from_numpy(normalised(x)), torch.from_numpy(y)
    xvt = torch.from_numpy(normalised(xv))
    channels = tuple(int(v) for v in args.channels.split(","))
    if args.look == "bonus" and args.factored:
        model = build_factored_look(channels)
    else:
        _, _, classes, (h, w) = LOOKS[args.look]
        model = build_model(channels, (w, h), len(classes))
    fit(
        args,
        model,
        list(model.parameters()),
        lambda xb, yb: F.cross_entropy(model(xb), yb, label_smoothing=0.05),
        xt,
        yt,
        lambda: f"val {accuracy(model, xvt, yv):.4f}",
    )
    export(model, args, xvt, yv, xv, styles, time.time() - t0)


def fit(args, net, params, loss_of, xt, yt, report) -> None:  # type: ignore[no-untyped-def]
    """The epochs: AdamW with a one-cycle rate over ``params``, ``net`` in training mode,
    each batch of ``xt`` shifted a few pixels (a cut never lands exactly) and, in
    ``args.cutout`` of its crops, partly blanked; ``loss_of(xb, yb)`` is a batch's loss;
    ``report()`` ends each epoch's line."""
    import torch

    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * ((len(xt) + args.batch - 1) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=steps)
    gen = torch.Generator().manual_seed(args.seed)
    t1 = time.time()
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(xt), args.batch):
            idx = perm[i : i + args.batch]
            xb = xt[idx]
            dx, dy = (int(v) for v in torch.randint(-2, 3, (2,), generator=gen))
            xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
            if args.cutout:
                xb = cutout(xb, args.cutout, gen)
            loss = loss_of(xb, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(
            f"epoch {epoch + 1}: loss {total / len(xt):.3f}, {report()}, {time.time() - t1:.0f}s",
            flush=True,
        )


def nearest_right(features: np.ndarray, labels: np.ndarray) -> float:
    """How often a crop's nearest other crop (cosine of ``features``, unit rows) shows the
    same drawing: what teaching one photo of each tile of a set asks of the match look."""
    sims = features @ features.T
    np.fill_diagonal(sims, -2.0)
    return float((labels[sims.argmax(1)] == labels).mean())


def train_match(args: argparse.Namespace) -> None:
    """The match look (``match.onnx``): features of a 64 x 48 crop in which two photos of
    one drawing are alike and two drawings -- of two tiles, or two sets' drawings of one
    tile -- are not, learnt as a CosFace classifier over every drawing
    (:func:`identities`); the runtime keeps only the unit features, which
    :mod:`hefen.photo.memory` compares."""
    import torch
    import torch.nn.functional as F

    def data(styles: tuple[str, ...], seed: int, per: int, cuts: int) -> tuple[np.ndarray, ...]:
        return make_data(seed, per, styles, args.workers, 0.0, args.tiles_dir, None, "match", cuts)

    styles, t0, x, y, xv, yv = prepared(
        args,
        lambda styles: (
            *data(styles, args.seed, args.per_drawing, args.photo_cuts),
            *data(styles, args.seed + 1, 2, min(args.photo_cuts, 1)),
        ),
    )
    n_ids = int(y.max()) + 1
    print(
        f"data: {len(x)} train, {len(xv)} val crops of {n_ids} drawings in {time.time() - t0:.0f}s",
        flush=True,
    )
    xt, yt = torch.from_numpy(normalised(x)), torch.from_numpy(y)
    xvt = torch.from_numpy(normalised(xv))
    channels = tuple(int(v) for v in args.channels.split(","))
    net = build_model(channels, (synth.CROP_W, synth.CROP_H), MATCH_DIMENSIONS)
    proxies = torch.nn.Parameter(torch.randn(n_ids, MATCH_DIMENSIONS) * 0.01)
    scale, margin = 30.0, 0.3
    embed = Embedding(net)

    def cos_face(xb, yb):  # type: ignore[no-untyped-def]
        cos = embed(xb) @ F.normalize(proxies, dim=1).T
        return F.cross_entropy(scale * (cos - margin * F.one_hot(yb, n_ids)), yb)

    fit(
        args,
        net,
        [*net.parameters(), proxies],
        cos_face,
        xt,
        yt,
        lambda: f"val nearest {nearest_right(predict_torch(embed, xvt), yv):.4f}",
    )
    export_match(embed, args, xvt, yv, styles, n_ids, time.time() - t0)


class Embedding:  # a torch module made at call time (torch is a training extra)
    def __new__(cls, net):  # type: ignore[no-untyped-def]
        import torch
        import torch.nn.functional as F

        class _Embedding(torch.nn.Module):
            """The unit features of a crop (the runtime's ``features`` output)."""

            def __init__(self) -> None:
                super().__init__()
                self.net = net

            def forward(self, crops: torch.Tensor) -> torch.Tensor:
                return F.normalize(self.net(crops), dim=1)

        return _Embedding()


def export_match(embed, args, xvt, yv, styles, n_ids, seconds) -> None:  # type: ignore[no-untyped-def]
    import torch

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    xv = xvt.numpy()
    data, acc_fp32, acc_int8, quantised = onnx_network(
        embed,
        xvt,
        ["features"],
        lambda path: nearest_right(onnx_output(path, xv), yv),
        args.seed,
    )
    print(
        f"onnx fp32 val nearest {acc_fp32:.4f}, int8 {acc_int8:.4f}; shipping {'int8' if quantised else 'fp32'}",
        flush=True,
    )
    name, meta_name, _, size = LOOKS["match"]
    (out / name).write_bytes(data)
    meta = {
        "input": input_meta(size),
        "features": "features",
        "dimensions": MATCH_DIMENSIONS,
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "int8": quantised,
        "validation_nearest_right": {"fp32": round(acc_fp32, 4), "int8": round(acc_int8, 4)},
        "training": {
            "script": "scripts/train_photo.py",
            "look": "match",
            "seed": args.seed,
            "styles": list(styles),
            "drawings": n_ids,
            "per_drawing": args.per_drawing,
            "photo_cuts": args.photo_cuts,
            "epochs": args.epochs,
            "cutout": args.cutout,
            "channels": [int(v) for v in args.channels.split(",")],
            "seconds": round(seconds),
            "torch": torch.__version__,
        },
    }
    (out / meta_name).write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {out / name} ({len(data)} bytes)", flush=True)


def style_weights(given: list[str]) -> dict[str, float] | None:
    """``--style-weight NAME=W`` options as :attr:`hefen.photo.synth.Art.weights` (None
    when there are none: every style alike)."""
    if not given:
        return None
    out = {}
    for item in given:
        name, _, value = item.partition("=")
        try:
            out[name] = float(value)
        except ValueError:
            raise ValueError(f"--style-weight {item!r} is not NAME=WEIGHT") from None
    return out


def cutout(xb, share: float, gen):  # type: ignore[no-untyped-def]
    """Blank one random rectangle (a quarter to a half of each side) in ``share`` of the crops,
    so that no single part of a drawing (a numeral, a character) is the only cue learnt."""
    import torch

    n, _, h, w = xb.shape
    pick = torch.rand(n, generator=gen) < share
    eh = (torch.rand(n, generator=gen) * 0.25 + 0.25) * h
    ew = (torch.rand(n, generator=gen) * 0.25 + 0.25) * w
    cy = torch.rand(n, generator=gen) * h
    cx = torch.rand(n, generator=gen) * w
    yy = torch.arange(h).view(1, h, 1)
    xx = torch.arange(w).view(1, 1, w)
    box = (
        ((yy - cy.view(n, 1, 1)).abs() < eh.view(n, 1, 1) / 2)
        & ((xx - cx.view(n, 1, 1)).abs() < ew.view(n, 1, 1) / 2)
        & pick.view(n, 1, 1)
    )
    return xb.masked_fill(box[:, None], 0.0)


def predict_torch(model, xv):  # type: ignore[no-untyped-def]
    import torch

    model.eval()
    with torch.no_grad():
        return torch.cat([model(xv[i : i + 512]) for i in range(0, len(xv), 512)]).numpy()


def accuracy(model, xv, yv: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    return float((predict_torch(model, xv).argmax(1) == yv).mean())


class _Reader:
    """Calibration crops for onnxruntime's static quantisation."""

    def __init__(self, x: np.ndarray) -> None:
        self.batches = iter([{"crops": x[i : i + 64]} for i in range(0, len(x), 64)])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self.batches, None)


def input_meta(size: tuple[int, int]) -> dict[str, object]:
    """What a network's JSON says of its input (``size``: height, width)."""
    return {
        "name": "crops",
        "shape": [None, 1, *size],
        "grey": True,
        "normalise": "per crop: (x - mean) / (std + 8), x in 0..255",
    }


def quantised_copy(pre: Path, xv: np.ndarray, seed: int) -> Path:
    """``pre`` (a network ready for quantisation) int8-quantised beside it, calibrated on
    1,024 of the validation crops ``xv`` (normalised) chosen by ``seed``."""
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

    int8 = pre.with_name("int8.onnx")
    rng = np.random.default_rng(seed)
    quantize_static(
        str(pre),
        str(int8),
        _Reader(xv[rng.permutation(len(xv))[:1024]]),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        calibrate_method=CalibrationMethod.MinMax,
    )
    return int8


def onnx_output(path: Path, x: np.ndarray) -> np.ndarray:
    """The network ``path``'s first output for the normalised crops ``x``, read with the
    runtime's settings (``session_options``), so that an int8 network is judged as it
    will be read."""
    import onnxruntime as ort

    sess = ort.InferenceSession(str(path), session_options(), providers=["CPUExecutionProvider"])
    return np.concatenate(
        [sess.run(None, {"crops": x[i : i + 512]})[0] for i in range(0, len(x), 512)]
    )


def onnx_accuracy(path: Path, x: np.ndarray, y: np.ndarray) -> float:
    return float((onnx_output(path, x).argmax(1) == y).mean())


def onnx_network(  # type: ignore[no-untyped-def]
    module, xvt, outputs: list[str], score, seed: int
) -> tuple[bytes, float, float, bool]:
    """``module`` exported to ONNX (``outputs`` named, the batch dynamic), int8-quantised
    (:func:`quantised_copy`), each scored by ``score(path)`` on the validation crops; the
    int8 network is kept unless it scores more than 0.003 lower. Returns the kept
    network's bytes, both scores and whether it is the int8 one."""
    import torch
    from onnxruntime.quantization.shape_inference import quant_pre_process

    module.eval()
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        torch.onnx.export(
            module,
            (xvt[:1],),
            str(fp32),
            dynamo=False,
            input_names=["crops"],
            output_names=outputs,
            dynamic_axes={name: {0: "n"} for name in ["crops", *outputs]},
            opset_version=17,
        )
        acc_fp32 = score(fp32)
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(fp32), str(pre))
        int8 = quantised_copy(pre, xvt.numpy(), seed)
        acc_int8 = score(int8)
        quantised = acc_int8 >= acc_fp32 - 0.003
        return (int8 if quantised else fp32).read_bytes(), acc_fp32, acc_int8, quantised


def export(model, args, xvt, yv, xv_raw, styles, seconds) -> None:  # type: ignore[no-untyped-def]
    import torch

    class WithSoftmax(torch.nn.Module):
        """Probabilities, and the features the last layer reads (what a crop looks like to
        the network: hefen.photo.memory compares tiles of a player's own set by them)."""

        def __init__(self, net: torch.nn.Module) -> None:
            super().__init__()
            self.net = net

        def forward(self, crops: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            features, logits = split(self.net, crops)
            return torch.softmax(logits, dim=1), features

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    xv = xvt.numpy()
    data, acc_fp32, acc_int8, quantised = onnx_network(
        WithSoftmax(model),
        xvt,
        ["probs", "features"],
        lambda path: onnx_accuracy(path, xv, yv),
        args.seed,
    )
    print(
        f"onnx fp32 val {acc_fp32:.4f}, int8 val {acc_int8:.4f}; shipping "
        f"{'int8' if quantised else 'fp32'}",
        flush=True,
    )
    bonus = args.look == "bonus"
    name, meta_name, classes, size = LOOKS[args.look]
    (out / name).write_bytes(data)
    meta = {
        "classes": list(classes),
        "input": input_meta(size),
        "output": "probs",
        "features": "features",
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "int8": quantised,
        "validation_accuracy": {"fp32": round(acc_fp32, 4), "int8": round(acc_int8, 4)},
        "training": {
            "script": "scripts/train_photo.py",
            "look": args.look,
            "seed": args.seed,
            "styles": list(styles),
            "crops": args.crops,
            "epochs": args.epochs,
            "cutout": args.cutout,
            "channels": [int(v) for v in args.channels.split(",")],
            "factored": bool(bonus and args.factored),
            "style_weights": style_weights(args.style_weight),
            "seconds": round(seconds),
            "torch": torch.__version__,
        },
    }
    if args.look == "tiles":
        meta["not_a_tile"] = NOT_A_TILE
    if args.look in WINDOW_LOOKS:  # it reads the picture's darkest channel, not its grey
        meta["input"] = {**input_meta(size), "grey": False, "ink": "model.ink_image"}
        meta["training"]["photo_windows"] = args.photo_windows
        meta["training"]["typefaces"] = args.typefaces
        # the step of the reader's scan its photo windows were cut with (single.CHAR_STEP)
        meta["training"]["scan_step"] = CHAR_STEP
    (out / meta_name).write_text(json.dumps(meta, indent=2) + "\n")
    print(f"wrote {out / name} ({len(data)} bytes)", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--crops", type=int, default=40_000)
    p.add_argument("--val-crops", type=int, default=3_000)
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument(
        "--per-drawing", type=int, default=10, help="with --look match: crops of each drawing"
    )
    p.add_argument(
        "--photo-cuts",
        type=int,
        default=0,
        help="with --look match: how many of each drawing's crops are cut from a photo of "
        "the tile alone (as hefen recognize --tile cuts it), not from a hand photo",
    )
    p.add_argument(
        "--photo-windows",
        type=float,
        default=0.0,
        help="with --look chars or numbers: the share of its windows of no character (no "
        "number) cut from photos of tiles that print none, as the reader cuts them",
    )
    p.add_argument(
        "--typefaces",
        choices=glyphs.TYPEFACES,
        default="drawn",
        help="with --look chars or numbers: the typefaces its windows are set in: the "
        "drawn style's, more: those and glyphs.MORE_CJK_FONTS, or most: those and "
        "glyphs.MORE_LATIN_FONTS (more Latin typefaces for the Arabic digits)",
    )
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--channels", default="16,24,48,96", help="of the four conv stages")
    p.add_argument("--cutout", type=float, default=0.5, help="share of crops with a part blanked")
    p.add_argument("--junk", type=float, default=0.12, help="share of not-a-tile crops")
    p.add_argument("--styles", default=",".join(synth.TRAINING_STYLES))
    p.add_argument(
        "--style-weight",
        action="append",
        default=[],
        metavar="NAME=W",
        help="how likely a style's drawing is taken (1 where not named; a style's part by "
        "its full name, drawn/printed: the printed flower faces); none: every style alike",
    )
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--threads", type=int, default=0, help="torch threads (default: --workers)")
    p.add_argument("--cache", default=None, help="keep the generated crops in this .npz")
    p.add_argument("--tiles-dir", default=None, help="default: ../shared/tiles")
    p.add_argument("--out", default=str(ROOT / "hefen" / "photo" / "model"))
    p.add_argument(
        "--look",
        choices=tuple(LOOKS),
        default="tiles",
        help="the tile classifier (tiles.onnx), the second look at flowers and seasons "
        "(bonus.onnx: 72 x 96 crops of photos of one tile), or the sharp look at any tile "
        "of a photo of one tile (sharp.onnx: the same crops, the 42 tiles), the match look "
        "(match.onnx), the character look (chars.onnx: 32 x 32 windows, the flowers' and "
        "seasons' characters) or the number look (numbers.onnx: the same windows, the "
        "numbers 1-9 a flower, season or suit tile prints)",
    )
    p.add_argument(
        "--factored",
        action="store_true",
        help="with --look bonus: read it in three heads (bonus or not, family, number)",
    )
    args = p.parse_args()
    if args.factored and args.look != "bonus":
        p.error("--factored reads a bonus look: give --look bonus")
    missing = glyphs.missing_fonts(args.typefaces) if args.look in WINDOW_LOOKS else []
    if missing:
        hint = (
            f" (apt-get install {glyphs.MORE_FONT_PACKAGES})" if args.typefaces != "drawn" else ""
        )
        sys.exit(f"train_photo.py: {len(missing)} fonts are missing, {missing[0]} first{hint}")
    try:
        (train_match if args.look == "match" else train)(args)
    except (FileNotFoundError, ValueError) as e:  # artwork or fonts missing, or no such style
        sys.exit(f"train_photo.py: {e}")


if __name__ == "__main__":
    main()
