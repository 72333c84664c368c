"""Accuracy and speed of the photo recogniser, on synthetic data it was not trained on.

Run by hand (not part of the tests):

    python bench/photo_accuracy.py                  # shipped model: crops, hands, speed
    python bench/photo_accuracy.py --loso           # also leave-one-art-style-out (trains 3x)
    python bench/photo_accuracy.py --only-loso --loso-dir DIR   # just that, models kept in DIR
    python bench/photo_accuracy.py --only-sideways --sideways 60   # a claimed tile turned
    python bench/photo_accuracy.py --only-sideways --sideways 60 --no-sideways  # ... unread
    python bench/photo_accuracy.py --only-tile-photos  # photos of one tile (recognize --tile)
    python bench/photo_accuracy.py --only-bonus-look --bonus-loso-dir DIR
                                      # flowers and seasons with and without the bonus look,
                                      # also leave-one-style-out (trains 6 models into DIR)

Figures printed here are the ones recorded in docs/photo.md.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import io
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from hefen import score  # noqa: E402
from hefen.photo import (  # noqa: E402
    PhotoError,
    TileMemory,
    classify_tile,
    recognize,
    single,
    synth,
    teach,
    teach_tile,
)
from hefen.photo import model as photo_model  # noqa: E402
from hefen.photo.classes import (  # noqa: E402
    BACK,
    BONUS,
    MODEL_CLASSES,
    NUMBER_CLASSES,
    SUITED,
    TILE_CODES,
    copies_allowed,
)
from hefen.photo.hand import hand_fields  # noqa: E402
from hefen.photo.model import (  # noqa: E402
    MODEL_DIR,
    BonusLook,
    CharLook,
    NumberLook,
    SharpLook,
    TileClassifier,
)
from hefen.testing.generate import random_mcr_hand  # noqa: E402
from hefen.tiles import tile_from_str  # noqa: E402

CROP_SEED = 90_000_001  # none of these seeds is used by scripts/train_photo.py
HAND_SEED = 91_000_001
SPEED_SEED = 92_000_001
SCORE_SEED = 93_000_001
TEACH_SEED = 94_000_001
CLUTTER_SEED = 95_000_001
#: cluttered photos no rule was tuned on (the tuning seeds are 95,500,001 and 95,600,001)
FRESH_CLUTTER_SEED = 95_700_001
KONG_SEED = 98_000_001
SIDEWAYS_SEED = 99_000_001
TILE_PHOTO_SEED = 89_000_001

#: The model the figures are of (``--model-dir``; default: the shipped one).
TESTED: list[Path] = [MODEL_DIR]


def tested() -> TileClassifier:
    """The classifier under test, loaded once."""
    return _loaded(TESTED[0])


@functools.cache
def _loaded(model_dir: Path) -> TileClassifier:
    return TileClassifier(model_dir)


def crops(
    art: synth.Art, count: int, seed: int, real: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` crops, each of the 42 kinds alike; with ``real`` False drawn as
    before #19's synthesis (``synth.tile_crop``), the crops the earlier figures are of."""
    rng = np.random.default_rng(seed)
    tables = synth.TableBank(rng, count=12, size=384)
    codes = [TILE_CODES[i % len(TILE_CODES)] for i in range(count)]
    x = np.stack([synth.tile_crop(rng, art, c, tables, real=real) for c in codes])
    return x, np.array([TILE_CODES.index(c) for c in codes])


def crop_accuracy(model_dir: Path, x: np.ndarray, y: np.ndarray) -> float:
    return accuracies(model_dir, x, y)[0]


def accuracies(model_dir: Path, x: np.ndarray, y: np.ndarray) -> tuple[float, ...]:
    """Per tile: over all crops (each of the 42 kinds alike), over the suit and honour
    tiles, over the bonus tiles, and over the 144 tiles of a set (a suit or honour tile
    counts four times, as a set holds four of it, a flower or season once)."""
    probs = TileClassifier(model_dir).probabilities(x)
    return _accuracies(probs[:, : len(TILE_CODES)].argmax(1) == y, y)


def _accuracies(right: np.ndarray, y: np.ndarray) -> tuple[float, ...]:
    bonus = np.array([TILE_CODES[k].endswith("h") for k in y])
    copies = np.array([copies_allowed(TILE_CODES[k]) for k in y], np.float64)
    in_a_set = float((right * copies).sum() / copies.sum())
    return float(right.mean()), float(right[~bonus].mean()), float(right[bonus].mean()), in_a_set


def split(acc: tuple[float, ...]) -> str:
    return (
        f"{acc[0]:.1%} (suit and honour tiles {acc[1]:.1%}, bonus tiles {acc[2]:.1%}; "
        f"per tile of a 144-tile set {acc[3]:.1%})"
    )


def hand_figures(
    art: synth.Art,
    count: int,
    seed: int,
    memory: TileMemory | None = None,
    model: TileClassifier | None = None,
) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    tiles_right = tiles_total = count_right = groups_right = exact = failed = 0
    counted_right = counted_total = 0
    for _ in range(count):
        photo = synth.hand_photo(rng, art)
        try:
            result = recognize(photo.jpeg(), memory, model or tested())
            got, got_groups = result.tiles, [len(g.tiles) for g in result.groups]
        except Exception:  # a PhotoError counts as nothing found
            got, got_groups = [], []
            failed += 1
        truth = photo.tiles
        match = difflib.SequenceMatcher(a=truth, b=got, autojunk=False)
        tiles_right += sum(b.size for b in match.get_matching_blocks())
        tiles_total += len(truth)
        count_right += len(got) == len(truth)
        if len(got) == len(truth):
            counted_total += len(truth)
            counted_right += sum(a == b for a, b in zip(truth, got, strict=True))
        groups_right += got_groups == [len(g) for g in photo.groups]
        exact += got == truth
    return {
        "photos": count,
        "per_tile": tiles_right / tiles_total,
        "tile_count_right": count_right / count,
        "groups_right": groups_right / count,
        "whole_hand_exact": exact / count,
        "no_tiles_found": failed / count,
        "per_tile_when_count_right": counted_right / max(counted_total, 1),
    }


def photographed_hand(rng: random.Random) -> tuple[dict, list[list[str]], list[list[int]]]:
    """A random legal MCR hand as a photo shows it -- the concealed row (winning tile
    included), each meld apart, the flowers apart -- with the interchange object that says
    the same. A kong shows four faces, so the object has every kong exposed."""
    while (obj := random_mcr_hand(rng)) is None:
        pass
    for m in obj["melds"]:
        m["concealed"] = False
    groups = [sorted(obj["hand"] + [obj["win_tile"]], key=tile_from_str)]
    groups += [list(m["tiles"]) for m in obj["melds"]]
    if obj["flowers"]:
        groups.append(list(obj["flowers"]))
    rows = synth.random_rows(rng, len(groups))
    # the photo's reading of its own true groups is the object itself
    assert hand_fields(groups, obj["win_tile"]) == {
        k: obj[k] for k in ("hand", "melds", "win_tile", "flowers")
    }
    return obj, groups, rows


def score_figures(art: synth.Art, count: int, seed: int) -> dict[str, float]:
    """Photos of legal MCR hands: how often the recognised hand, read into concealed tiles,
    exposed melds and flowers (hefen.photo.hand) with the true winning tile and context,
    scores the same as the true hand."""
    hands = random.Random(seed)
    rng = np.random.default_rng(seed)
    same = exact = 0
    for _ in range(count):
        obj, groups, rows = photographed_hand(hands)
        truth = score(obj)
        photo = synth.hand_photo(rng, art, groups, rows)
        try:
            rec = recognize(photo.jpeg(), None, tested())
            exact += rec.tiles == photo.tiles
            got = score({**obj, **rec.hand_fields(obj["win_tile"])})
        except PhotoError:  # nothing found, or the winning tile was not read
            continue
        same += got.valid == truth.valid and got.total == truth.total
    return {"photos": count, "same_score": same / count, "whole_hand_exact": exact / count}


def cluttered_figures(art: synth.Art, count: int, seed: int) -> dict[str, float]:
    """Hand photos with things beside the tiles (:func:`hefen.photo.synth.cluttered_photo`:
    the photo's own bare table mirrored out above and below the hand, and on it a few
    things that are not tiles)."""
    rng = np.random.default_rng(seed)
    right = extra = extra_tiles = 0
    for _ in range(count):
        photo = synth.cluttered_photo(rng, art)
        try:
            got = len(recognize(photo.image, None, tested()).tiles)
        except PhotoError:
            got = 0
        right += got == len(photo.tiles)
        extra += got > len(photo.tiles)
        extra_tiles += max(0, got - len(photo.tiles))
    return {
        "photos": count,
        "tile_count_right": right / count,
        "photos_with_extra_tiles": extra / count,
        "extra_tiles_per_photo": extra_tiles / count,
    }


def kong_figures(art: synth.Art, count: int, seed: int) -> dict[str, float]:
    """Hand photos with a concealed kong shown face down in the middle (a tile, two backs,
    the tile) beside an 11-tile concealed row and maybe a meld and flowers: how often the
    tile count is right, and how often the reading has that concealed kong."""
    rng = np.random.default_rng(seed)
    right = kong = 0
    for _ in range(count):
        groups, _rows = synth.random_hand(rng)
        concealed = groups[0]
        t = concealed[int(rng.integers(len(concealed)))]
        rest = [c for c in concealed if c != t][:11]
        groups = [rest, [t, BACK, BACK, t]] + groups[1:2]
        if not any(g[0].endswith("h") for g in groups) and rng.random() < 0.5:
            groups.append(["5h", "1h"])
        photo = synth.hand_photo(rng, art, groups, synth.random_rows(rng, len(groups)))
        try:
            rec = recognize(photo.jpeg(), None, tested())
            got = rec.tiles
            melds = rec.reading().melds
        except PhotoError:
            got, melds = [], []
        right += len(got) == len(photo.tiles)
        kong += {"kind": "kong", "tiles": [t] * 4, "concealed": True} in melds
    return {"photos": count, "tile_count_right": right / count, "kong_read": kong / count}


def sideways_figures(art: synth.Art, count: int, seed: int) -> dict[str, float]:
    """Hand photos (as :func:`hand_figures`'s, each with at least one exposed meld) with one
    tile of every meld laid sideways, at a random place in it, as a claimed tile: per tile,
    the tile count, every turned tile flagged (and no other), and the exposed melds read
    as they are."""
    rng = np.random.default_rng(seed)
    tiles_right = tiles_total = count_right = flagged = melds_right = 0
    for _ in range(count):
        groups, rows, turned, truth_melds = synth.claimed_hand(rng)
        photo = synth.hand_photo(rng, art, groups, rows, sideways=turned)
        starts = np.cumsum([0] + [len(g) for g in groups])
        truth_flags = sorted(int(starts[g]) + i for g, i in turned)
        try:
            rec = recognize(photo.jpeg(), None, tested())
            got = rec.tiles
            flags = [i for i, t in enumerate(t for g in rec.groups for t in g.tiles) if t.sideways]
            try:
                got_melds = rec.reading().melds
            except PhotoError:
                got_melds = []
        except PhotoError:
            got, flags, got_melds = [], [], []
        match = difflib.SequenceMatcher(a=photo.tiles, b=got, autojunk=False)
        tiles_right += sum(b.size for b in match.get_matching_blocks())
        tiles_total += len(photo.tiles)
        count_right += len(got) == len(photo.tiles)
        flagged += flags == truth_flags
        melds_right += got_melds == truth_melds
    return {
        "photos": count,
        "per_tile": tiles_right / tiles_total,
        "tile_count_right": count_right / count,
        "sideways_flagged_right": flagged / count,
        "melds_right": melds_right / count,
    }


def _without_sideways() -> None:
    """The recogniser as before sideways tiles were read (the figures' "before")."""
    from hefen.photo import pipeline

    def upright(_clf: object, _grey: object, read: list) -> tuple[list, list]:
        return read, [[False] * len(tiles[0]) for tiles, _ in read]

    pipeline._sideways = upright  # type: ignore[assignment]


def seventeen_tiles(rng: np.random.Generator) -> list[list[str]]:
    """14 concealed tiles and 3 flowers."""
    concealed = sorted(
        rng.choice([c for c in TILE_CODES if not c.endswith("h")], 14, replace=True).tolist(),
        key=TILE_CODES.index,
    )
    flowers = sorted(
        rng.choice([c for c in TILE_CODES if c.endswith("h")], 3, replace=False).tolist(),
        key=TILE_CODES.index,
    )
    return [concealed, flowers]


def speed(art: synth.Art, count: int, model: TileClassifier | None = None) -> tuple[float, float]:
    """Median and 90th-percentile ms per 17-tile photo (14 concealed + 3 flowers), JPEG bytes
    in, result out, read by ``model`` (default: the one under test)."""
    rng = np.random.default_rng(SPEED_SEED)
    photos = [
        synth.hand_photo(rng, art, seventeen_tiles(rng), [[0, 1]]).jpeg() for _ in range(count)
    ]
    return _timed(photos, model)


def speed_figures(art: synth.Art, count: int) -> None:
    """The times of 17-tile photos, and of 12 MP ones, as the runtime reads them
    (``model.PHOTO_THREADS`` threads a session); and of the same 17-tile photos with one
    thread, and, on a CPU with VNNI, also with the int8 sums widened as on a CPU without it
    (``model.SESSION_CONFIG``), for the ratios."""
    med, p90 = speed(art, count)
    print(
        f"speed, 17-tile photo ({photo_model.PHOTO_THREADS} threads): {med:.0f} ms median, "
        f"{p90:.0f} ms 90th percentile"
    )
    variants = [("one thread", False)]
    if photo_model.wide_int8_sums():
        variants.append(("one thread, the int8 sums widened as on a CPU without VNNI", True))
    for name, wide in variants:
        with _sessions(threads=1, wide=wide):
            other = TileClassifier(TESTED[0])
        omed, op90 = speed(art, count, other)
        print(f"  {name}: {omed:.0f} ms median, {op90:.0f} ms 90th percentile ({op90 / p90:.2f}x)")
    med, p90 = speed_12mp(art, max(3, count // 3))
    print(f"speed, 12 MP photo of 17 tiles: {med:.0f} ms median, {p90:.0f} ms 90th percentile")


@contextlib.contextmanager
def _sessions(threads: int, wide: bool) -> Iterator[None]:
    """Sessions made inside read with ``threads`` threads, and, where ``wide``, carry
    ``SESSION_CONFIG`` whatever the CPU."""
    was = photo_model.PHOTO_THREADS, photo_model.wide_int8_sums
    photo_model.PHOTO_THREADS = threads
    if wide:
        photo_model.wide_int8_sums = lambda *_: False  # type: ignore[assignment]
    try:
        yield
    finally:
        photo_model.PHOTO_THREADS, photo_model.wide_int8_sums = was


def speed_12mp(art: synth.Art, count: int) -> tuple[float, float]:
    """The same for 4000 x 3000 JPEGs, as a phone's camera takes them: a 17-tile photo 4000
    pixels wide, its table above and below the tiles mirrored out to 3000 pixels high."""
    import cv2
    from PIL import Image

    rng = np.random.default_rng(SPEED_SEED + 1)
    photos = []
    while len(photos) < count:
        photo = synth.hand_photo(rng, art, seventeen_tiles(rng), [[0, 1]], (4000, 4000))
        img, h, w = photo.image, *photo.image.shape[:2]
        ys = np.concatenate([q[:, 1] for g in photo.quads for q in g]) * 4000 / w
        img = cv2.resize(img, (4000, round(h * 4000 / w)), interpolation=cv2.INTER_LINEAR)
        h = img.shape[0]
        lo, hi = max(1, int(ys.min()) - 2), min(h - 1, int(ys.max()) + 2)
        if h > 3000:
            continue
        extra = 3000 - h
        # only table rows are mirrored, never a tile
        above = cv2.copyMakeBorder(img[:lo], extra // 2, 0, 0, 0, cv2.BORDER_REFLECT)
        below = cv2.copyMakeBorder(img[hi:], 0, extra - extra // 2, 0, 0, cv2.BORDER_REFLECT)
        img = np.concatenate([above, img[lo:hi], below])
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format="JPEG", quality=90)
        photos.append(buf.getvalue())
    return _timed(photos)


def _timed(photos: list[bytes], model: TileClassifier | None = None) -> tuple[float, float]:
    clf = model or tested()  # load the model first
    with contextlib.suppress(PhotoError):
        recognize(photos[0], None, clf)  # and warm it up
    times = []
    for data in photos:
        t = time.perf_counter()
        try:
            recognize(data, None, clf)
        except PhotoError:  # timed all the same
            pass
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def tile_photos(
    art: synth.Art, count: int, seed: int, kinds: tuple[str, ...] = TILE_CODES
) -> list[tuple[str, np.ndarray]]:
    """``count`` photographs of one tile (``synth.tile_photo``), each of ``kinds`` alike."""
    rng = np.random.default_rng(seed)
    codes = [kinds[i % len(kinds)] for i in range(count)]
    return [(c, synth.tile_photo(rng, art, c)) for c in codes]


def tile_photo_accuracy(
    photos: list[tuple[str, np.ndarray]],
    memory: TileMemory | None = None,
    model: TileClassifier | None = None,
) -> tuple[float, ...]:
    """``classify_tile`` on photos of one tile, as ``accuracies`` counts crops; and the
    time per photo (ms, last)."""
    t = time.perf_counter()
    clf = model or tested()
    right = np.array([classify_tile(im, memory, clf)[0] == c for c, im in photos])
    ms = (time.perf_counter() - t) * 1000 / max(1, len(photos))
    return (*_accuracies(right, np.array([TILE_CODES.index(c) for c, _ in photos])), ms)


def tile_photo_figures(art: synth.Art, count: int, teach_photos: int = 3) -> None:
    """Photographs of one tile, read as ``hefen recognize --tile`` reads them: of the
    training styles, and of the two never-seen KMahjongg sets, before and after their
    tiles are taught one photo at a time (``teach_tile``), up to ``teach_photos`` of each
    kind."""
    import unseen_sets

    acc = tile_photo_accuracy(tile_photos(art, count, TILE_PHOTO_SEED))
    print(f"single-tile photos ({count}), training styles: {split(acc)}; {acc[4]:.0f} ms/photo")
    why = unseen_sets.missing()
    if why:
        print(f"single-tile photos of never-seen sets: skipped, {why}")
        return
    for name in unseen_sets.SETS:
        unseen_art = unseen_sets.load_set(name)
        photos = tile_photos(unseen_art, count, TILE_PHOTO_SEED + 1)
        print(f"  never-seen KMahjongg {name:11s}: {split(tile_photo_accuracy(photos))}")
        for kinds, label in ((BONUS, "its 8 bonus tiles"), (TILE_CODES, "all 42 kinds")):
            memory = None
            for n in range(1, teach_photos + 1):  # the n-th photo of each kind taught
                taught = tile_photos(unseen_art, len(TILE_CODES), TILE_PHOTO_SEED + 10 + n)
                for code, im in taught:
                    if code in kinds:
                        memory = teach_tile(im, code, memory, tested())
                a = tile_photo_accuracy(photos, memory)
                print(f"    {label} taught from {n} photo(s) each: {split(a)}", flush=True)


@contextlib.contextmanager
def _looks(model: TileClassifier, **looks: object) -> Iterator[TileClassifier]:
    """``model`` with its second looks (``bonus``, ``sharp``) set as given, put back after."""
    kept = {name: getattr(model, name) for name in looks}
    for name, look in looks.items():
        setattr(model, name, look)
    try:
        yield model
    finally:
        for name, look in kept.items():
            setattr(model, name, look)


def _read_ways(
    model: TileClassifier, art: synth.Art, bonus: int, count: int, ways: list[dict[str, object]]
) -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
    """``bonus`` photos of bonus tiles and ``count`` of any tile of ``art`` (seeds
    TILE_PHOTO_SEED + 30 and + 31), read by ``model`` with its second looks set as each of
    ``ways`` says (``_looks``): each way's two ``tile_photo_accuracy`` figures."""
    flowers = tile_photos(art, bonus, TILE_PHOTO_SEED + 30, BONUS)
    mixed = tile_photos(art, count, TILE_PHOTO_SEED + 31)
    read = []
    for way in ways:
        with _looks(model, **way):
            read.append(
                (tile_photo_accuracy(flowers, model=model), tile_photo_accuracy(mixed, model=model))
            )
    return read


def _before_after(bonus: int, count: int, read: list[tuple[tuple[float, ...], ...]]) -> str:
    """The first two ways of ``_read_ways``, as before -> after."""
    (b0, m0), (b1, m1) = read[:2]
    return (
        f"{bonus} photos of bonus tiles {b0[0]:.1%} -> {b1[0]:.1%}; {count} photos of any "
        f"tile {split(m0)} -> {split(m1)} ({m0[4]:.0f} -> {m1[4]:.0f} ms/photo)"
    )


def _look_figures(
    model: TileClassifier,
    look: BonusLook,
    art: synth.Art,
    bonus: int,
    count: int,
    chars: CharLook | None = None,
    numbers: NumberLook | None = None,
) -> str:
    """``bonus`` photos of bonus tiles and ``count`` of any tile of ``art``, read by
    ``model`` without and with ``look`` (and with ``chars`` too, then ``numbers`` as well,
    where given; else as ``model`` reads), the word look set aside; then with the word look
    too, where it is installed."""
    words = model.words
    ways: list[dict[str, object]] = [{"bonus": None, "words": None}, {"bonus": look, "words": None}]
    more: list[str] = []
    if chars is not None:
        ways += [{"bonus": look, "chars": chars, "words": None}]
        more += ["the character look"]
        if numbers is not None:
            ways += [{"bonus": look, "chars": chars, "numbers": numbers, "words": None}]
            more += ["the number look"]
    if words is not None:
        ways += [{**ways[-1], "words": words}]
        more += ["the word look"]
    read = _read_ways(model, art, bonus, count, ways)
    out = _before_after(bonus, count, read)
    for (b, m), what in zip(read[2:], more, strict=True):
        out += (
            f"; with {what} too: bonus tiles {b[0]:.1%}, any tile {split(m)} ({m[4]:.0f} ms/photo)"
        )
    return out


class _Recording:
    """A bonus look that keeps what it read of each photo (its cuts' mean)."""

    def __init__(self, look: BonusLook) -> None:
        self.look = look
        self.seen: list[np.ndarray] = []

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        probs = self.look.probabilities(crops)
        self.seen.append(probs.mean(0))
        return probs


def _look_sets(*more: tuple[str, synth.Art]) -> list[tuple[str, synth.Art]]:
    """What the second looks' figures are read on: the training styles, ``more``, and the
    never-seen KMahjongg sets where they are installed."""
    import unseen_sets

    sets = [("training styles", synth.load_art()), *more]
    if unseen_sets.missing() is None:
        sets += [(f"KMahjongg {name}", unseen_sets.load_set(name)) for name in unseen_sets.SETS]
    return sets


def _recorded(
    model: TileClassifier, which: str, recording: Any, at: str, photos: list[tuple[str, np.ndarray]]
) -> Iterator[tuple[str, np.ndarray | None]]:
    """Each photo's code and what ``recording`` (the second look ``which`` of ``model``,
    recording) saw of it last, the look made to read every photo (``single``'s bar
    ``at`` set to 0 meanwhile), or None where it was not asked (the number look is asked
    only of a photo read as a flower or season)."""
    kept = getattr(single, at)
    setattr(single, at, 0.0)
    try:
        with _looks(model, **{which: recording}):
            for code, image in photos:
                recording.seen.clear()
                classify_tile(image, None, model)
                yield code, recording.seen[-1] if recording.seen else None
    finally:
        setattr(single, at, kept)


def look_alone(model: TileClassifier, look: BonusLook, art: synth.Art, count: int) -> str:
    """The bonus look alone on ``count`` photos of bonus tiles (seed TILE_PHOTO_SEED + 40):
    cut where ``model`` finds and turns the tile, its best of the eight bonus tiles right,
    and of those the family (season or flower) and the number right."""
    photos = tile_photos(art, count, TILE_PHOTO_SEED + 40, BONUS)
    right = family = number = 0
    for code, seen in _recorded(model, "bonus", _Recording(look), "BONUS_LOOK_AT", photos):
        assert seen is not None  # the bar at 0: every photo is read
        k, t = int(seen[: len(BONUS)].argmax()), BONUS.index(code)
        right += k == t
        family += k // 4 == t // 4
        number += k % 4 == t % 4
    n = len(photos)
    return (
        f"the look alone on {n} photos of bonus tiles {right / n:.1%} (family "
        f"{family / n:.1%}, number {number / n:.1%})"
    )


def bonus_look_figures(args: argparse.Namespace) -> None:
    """Flowers and seasons in photos of one tile, read with and without the bonus look
    (``hefen.photo.model.BonusLook``; ``--bonus-dir``, default: the one shipped beside the
    model): on the training styles, on the never-seen KMahjongg sets and, with
    ``--bonus-loso-dir``, leave-one-style-out -- a tile model and a bonus look trained
    without one art style, read on photos of that style."""

    look = BonusLook(Path(args.bonus_dir)) if args.bonus_dir else tested().bonus
    n = args.bonus_photos
    if look is None:
        print("bonus look: none shipped and no --bonus-dir given")
    elif not args.only_bonus_loso:
        for label, art in _look_sets():
            print(f"{label}: {_look_figures(tested(), look, art, n, args.tile_photos)}", flush=True)
            print(f"  {look_alone(tested(), look, art, 2 * n)}", flush=True)
    if not args.bonus_loso_dir:
        return
    root = Path(args.bonus_loso_dir)
    extra = list(synth.FONT_STYLES)
    for held_out in args.bonus_loso_styles.split(","):
        train_styles = ",".join([s for s in synth.STYLES if s != held_out] + extra)
        t = time.time()
        for kind, options in (("tiles", args.loso_train_args), ("bonus", args.bonus_train_args)):
            out = root / kind / held_out
            if not (out / f"{kind}.onnx").exists():
                cmd = [
                    sys.executable,
                    str(ROOT / "scripts" / "train_photo.py"),
                    "--styles",
                    train_styles,
                    "--out",
                    str(out),
                    "--look",
                    kind,
                    *shlex.split(options),
                ]
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        art = synth.load_art((held_out,))
        model = TileClassifier(root / "tiles" / held_out)
        held = BonusLook(root / "bonus" / held_out)
        # the character and number looks as shipped: they are trained without the fonts
        # style, and on characters and numbers alone, which no art style draws
        # (glyphs.plain_drawings, glyphs.numberless_drawings)
        fonts = held_out == "fonts"
        chars, numbers = (tested().chars, tested().numbers) if fonts else (None, None)
        figures = _look_figures(model, held, art, n, args.tile_photos, chars, numbers)
        print(f"  held out {held_out:9s}: {figures} ({time.time() - t:.0f}s)", flush=True)


class _WindowRecording:
    """A character or number look that keeps, of each scan, the surest window of each of
    the first ``named`` of its classes (what it names)."""

    def __init__(self, look: CharLook | NumberLook, named: int) -> None:
        self.look = look
        self.named = named
        self.seen: list[np.ndarray] = []

    def probabilities(self, windows: np.ndarray) -> np.ndarray:
        probs = self.look.probabilities(windows)
        self.seen.append(probs[:, : self.named].max(0))
        return probs


def _named_alone(
    model: TileClassifier,
    which: str,
    look: CharLook | NumberLook,
    art: synth.Art,
    count: int,
) -> tuple[int, int, int]:
    """The character look (``which`` "chars") or the number look ("numbers", the
    character look set aside) alone on ``count`` photos of bonus tiles (seed
    TILE_PHOTO_SEED + 40), scanning the tile where ``model`` finds and turns it: how many
    photos it names a character or number of (``single.char_named``,
    ``single.number_named``) rightly and wrongly, of how many. The number look is asked
    only of photos read as a flower or season."""
    photos = tile_photos(art, count, TILE_PHOTO_SEED + 40, BONUS)
    chars = which == "chars"
    numbers = len(NUMBER_CLASSES) - 1
    named, name = (len(BONUS), single.char_named) if chars else (numbers, single.number_named)
    right = wrong = 0
    recording = _WindowRecording(look, named)
    with _looks(model, **({} if chars else {"chars": None})):
        for code, surest in _recorded(model, which, recording, "CHAR_LOOK_AT", photos):
            k = None if surest is None else name(surest)
            if k is not None and not chars and k >= len(BONUS) // 2:
                k = None  # a 5-9 names no flower or season: the reading stands
            if k is not None:
                truth = BONUS.index(code) if chars else BONUS.index(code) % 4
                right += k == truth
                wrong += k != truth
    return right, wrong, len(photos)


def suit_number_figures(model: TileClassifier, look: NumberLook, art: synth.Art, count: int) -> str:
    """``count`` photos of suit tiles of ``art`` (seed TILE_PHOTO_SEED + 42), read without
    and with the number look (the other looks as shipped); and the look alone, scanning
    the tile where ``model`` finds and turns it: how many photos it names a number of
    (``single.number_named``) rightly and wrongly (asked only of a photo read as a suit
    tile)."""
    photos = tile_photos(art, count, TILE_PHOTO_SEED + 42, SUITED)
    with _looks(model, numbers=None):
        before = float(np.mean([classify_tile(im, None, model)[0] == c for c, im in photos]))
    recording = _WindowRecording(look, len(NUMBER_CLASSES) - 1)
    right = wrong = after = 0
    with _looks(model, numbers=recording):
        for code, image in photos:
            recording.seen.clear()
            after += classify_tile(image, None, model)[0] == code
            k = single.number_named(recording.seen[-1]) if recording.seen else None
            if k is not None:
                right += k + 1 == int(code[0])
                wrong += k + 1 != int(code[0])
    n = len(photos)
    alone = _alone("a number", right, wrong, n, "suit tiles")
    return f"{n} photos of suit tiles {before:.1%} -> {after / n:.1%}; {alone}"


def _alone(what: str, right: int, wrong: int, n: int, of: str = "bonus tiles") -> str:
    return (
        f"the look alone on {n} photos of {of}: {what} named rightly "
        f"{right / n:.1%}, wrongly {wrong / n:.1%}, none {(n - right - wrong) / n:.1%}"
    )


def char_look_figures(args: argparse.Namespace) -> None:
    """Photos of one tile read without and with the character look
    (``hefen.photo.model.CharLook``; ``--chars-dir``, default: the one shipped beside the
    model), the other looks as shipped: photos of bonus tiles and of any tile of the
    training styles, of the ``fonts`` style alone (whose characters are drawn in typefaces
    the character look never saw: it is trained without that style) and of the
    never-seen KMahjongg sets; and the look alone on each."""
    _window_look_figures(args, "chars")


def number_look_figures(args: argparse.Namespace) -> None:
    """Photos of one tile read without and with the number look
    (``hefen.photo.model.NumberLook``; ``--numbers-dir``, default: the one shipped beside
    the model), the other looks as shipped (the character look first), on the same sets
    as ``char_look_figures``; and the look alone on each (the character look set aside):
    how often it names the number of a flower or season, rightly and wrongly; and the
    same of photos of suit tiles (``suit_number_figures``)."""
    _window_look_figures(args, "numbers")


def _window_look_figures(args: argparse.Namespace, which: str) -> None:
    """``char_look_figures`` (``which`` "chars") or ``number_look_figures`` ("numbers")."""
    model = tested()
    chars = which == "chars"
    kind, given = (CharLook, args.chars_dir) if chars else (NumberLook, args.numbers_dir)
    look = kind(Path(given)) if given else getattr(model, which)
    if look is None:
        print(f"{kind.NAME}: none shipped and no --{which}-dir given")
        return
    n = args.bonus_photos
    ways: list[dict[str, object]] = [{which: None}, {which: look}]
    for label, art in _look_sets(("fonts style", synth.load_art(("fonts",)))):
        read = _read_ways(model, art, n, args.tile_photos, ways)
        print(f"{label}: {_before_after(n, args.tile_photos, read)}", flush=True)
        alone = _named_alone(model, which, look, art, 2 * n)
        print(f"  {_alone('a character' if chars else 'a number', *alone)}", flush=True)
        if isinstance(look, NumberLook):  # it also renumbers suit tiles
            print(f"  {suit_number_figures(model, look, art, args.suit_photos)}", flush=True)


def sharp_look_figures(args: argparse.Namespace) -> None:
    """Photos of one tile, any tile, read without and with the sharp look
    (``hefen.photo.model.SharpLook``; ``--sharp-dir``, default: the one shipped beside the
    model), the bonus look as shipped in both: on the training styles and on the
    never-seen KMahjongg sets (seed TILE_PHOTO_SEED + 32)."""

    model = tested()
    look = SharpLook(Path(args.sharp_dir)) if args.sharp_dir else model.sharp
    if look is None:
        print("sharp look: none shipped and no --sharp-dir given")
        return
    for label, art in _look_sets():
        photos = tile_photos(art, args.tile_photos, TILE_PHOTO_SEED + 32)
        read = []
        for second in (None, look):
            with _looks(model, sharp=second):
                read.append(tile_photo_accuracy(photos, model=model))
        before, after = read
        print(
            f"{label}: {len(photos)} photos of any tile {split(before)} -> {split(after)} "
            f"({before[4]:.0f} -> {after[4]:.0f} ms/photo)",
            flush=True,
        )


def unseen(count: int, hands: int = 0, model_dir: Path | None = None) -> None:
    """Tile sets the model has never seen: KMahjongg's (see bench/unseen_sets.py)."""
    import unseen_sets

    model_dir = model_dir or TESTED[0]
    why = unseen_sets.missing()
    if why:
        print(f"never-seen tile sets: skipped, {why}")
        return
    sets = {name: unseen_sets.load_set(name) for name in unseen_sets.SETS}
    for name, art in sets.items():
        x, y = crops(art, count // len(sets), CROP_SEED + 9)
        print(f"never-seen tile set KMahjongg {name:11s}: {split(accuracies(model_dir, x, y))}")
        taught(model_dir, art, x, y, 0)
    if hands:
        both = synth.Art()  # the two sets, each a style of its own
        for name, art in sets.items():
            both.extend(art, name)
        f = hand_figures(both, hands, HAND_SEED + 1)
        print(
            f"  hand photos of those sets ({f['photos']}): per tile {f['per_tile']:.1%}, "
            f"tile count right {f['tile_count_right']:.0%}, whole hand exact "
            f"{f['whole_hand_exact']:.0%}"
        )


def loso(args: argparse.Namespace) -> None:
    extra = [] if args.loso_shared_only else list(synth.FONT_STYLES)
    print(
        f"\nleave-one-art-style-out ({args.loso_crops} crops, {args.loso_epochs} epochs, "
        f"trained on the other styles{' and ' + ' and '.join(extra) if extra else ''}):"
    )
    root = Path(args.loso_dir or tempfile.mkdtemp(prefix="photo-loso-"))
    for held_out in synth.STYLES:
        train_styles = [s for s in synth.STYLES if s != held_out] + extra
        out = root / held_out
        t = time.time()
        if not (out / "tiles.onnx").exists():
            cmd = [
                sys.executable,
                str(ROOT / "scripts" / "train_photo.py"),
                "--styles",
                ",".join(train_styles),
                "--crops",
                str(args.loso_crops),
                "--epochs",
                str(args.loso_epochs),
                "--threads",
                "2",
                "--out",
                str(out),
                *shlex.split(args.loso_train_args),
            ]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen = synth.load_art(tuple(s for s in train_styles if s not in extra))
        unseen = synth.load_art((held_out,))
        xs, ys = crops(seen, args.crops // 2, CROP_SEED + 7)
        xu, yu = crops(unseen, args.crops, CROP_SEED + 8)
        print(
            f"  train {'+'.join(train_styles)}, test {held_out}: "
            f"unseen style {split(accuracies(out, xu, yu))}, "
            f"seen styles {crop_accuracy(out, xs, ys):.1%} "
            f"({time.time() - t:.0f}s)",
            flush=True,
        )
        xp, yp = crops(unseen, args.crops, CROP_SEED + 8, real=False)
        print(f"    its crops drawn as before #19: {split(accuracies(out, xp, yp))}", flush=True)
        taught(out, unseen, xu, yu, args.loso_hands)


def taught(model_dir: Path, art: synth.Art, x: np.ndarray, y: np.ndarray, hands: int) -> None:
    """The unseen style again after one photo of its eight bonus tiles, laid out in order,
    is taught (hefen.photo.memory): crops, and hand photos with and without the memory."""
    model = TileClassifier(model_dir)
    memory = None
    for attempt in range(1, 6):  # as a player takes the photo again when it is not read
        rng = np.random.default_rng(TEACH_SEED + attempt)
        photo = synth.hand_photo(rng, art, [list(BONUS)], [[0]])
        try:
            memory = teach(photo.jpeg(), list(BONUS), model=model)
            break
        except PhotoError as exc:
            print(f"    teaching photo {attempt}: {exc}")
    if memory is None:
        return
    probs, features = model.run(x)
    right = memory.adjust(probs, features, model.match is not None)[:, : len(TILE_CODES)]
    right = right.argmax(1) == y
    print(f"    with its 8 bonus tiles taught from one photo: {split(_accuracies(right, y))}")
    if hands:
        before = hand_figures(art, hands, HAND_SEED + 2, model=model)
        after = hand_figures(art, hands, HAND_SEED + 2, memory, model)
        print(
            f"    hand photos of it ({hands}): per tile {before['per_tile']:.1%} -> "
            f"{after['per_tile']:.1%} taught, whole hand exact "
            f"{before['whole_hand_exact']:.0%} -> {after['whole_hand_exact']:.0%}",
            flush=True,
        )


def main() -> None:
    p = argparse.ArgumentParser(description="Photo recogniser accuracy and speed")
    p.add_argument("--crops", type=int, default=4200, help="held-out crops (per figure)")
    p.add_argument("--hands", type=int, default=300, help="synthetic hand photos")
    p.add_argument("--speed", type=int, default=30, help="17-tile photos to time")
    p.add_argument("--scored", type=int, default=200, help="photos of legal hands to score")
    p.add_argument("--cluttered", type=int, default=100, help="hand photos with things beside")
    p.add_argument(
        "--fresh-cluttered", type=int, default=200, help="more of them, of a seed never tuned on"
    )
    p.add_argument("--unseen", type=int, default=4200, help="crops of the never-seen sets")
    p.add_argument("--only-hands", action="store_true", help="just the hand photos")
    p.add_argument("--only-speed", action="store_true", help="just time 17-tile photos")
    p.add_argument("--only-loso", action="store_true", help="just leave-one-style-out")
    p.add_argument("--only-unseen", action="store_true", help="just the never-seen sets")
    p.add_argument("--loso", action="store_true", help="also train 3 leave-one-style-out models")
    p.add_argument("--loso-crops", type=int, default=40_000, help="as the shipped model")
    p.add_argument("--loso-epochs", type=int, default=6)
    p.add_argument("--loso-hands", type=int, default=100, help="hand photos per unseen style")
    p.add_argument(
        "--loso-shared-only",
        action="store_true",
        help="train on the shared/tiles styles alone, without the font styles",
    )
    p.add_argument("--loso-dir", default=None, help="keep (and reuse) the three models here")
    p.add_argument(
        "--loso-train-args",
        default="",
        help="more options for scripts/train_photo.py (a variant: '--style-weight drawn/printed=2')",
    )
    p.add_argument("--kongs", type=int, default=100, help="hand photos with a face-down kong")
    p.add_argument("--model-dir", default=None, help="the model to measure (default: shipped)")
    p.add_argument("--only-new", action="store_true", help="just the face-down kong figures")
    p.add_argument("--sideways", type=int, default=100, help="hand photos with a tile turned")
    p.add_argument("--only-sideways", action="store_true", help="just the sideways tile figures")
    p.add_argument("--tile-photos", type=int, default=420, help="photos of one tile each")
    p.add_argument("--only-tile-photos", action="store_true", help="just the single-tile photos")
    p.add_argument(
        "--teach-photos", type=int, default=3, help="photos of each kind taught, one at a time"
    )
    p.add_argument(
        "--no-sideways", action="store_true", help="without reading sideways tiles (before)"
    )
    p.add_argument(
        "--only-bonus-look", action="store_true", help="flowers with and without the bonus look"
    )
    p.add_argument("--bonus-dir", default=None, help="the bonus look to measure")
    p.add_argument(
        "--only-bonus-loso", action="store_true", help="of those, just leave-one-style-out"
    )
    p.add_argument("--bonus-photos", type=int, default=160, help="photos of bonus tiles")
    p.add_argument("--bonus-loso-dir", default=None, help="leave-one-style-out models here")
    p.add_argument(
        "--bonus-loso-styles",
        default=",".join(synth.STYLES),
        help="the styles held out in turn (default: every art style)",
    )
    p.add_argument(
        "--bonus-train-args",
        default="--crops 12000 --val-crops 1500 --epochs 12 --style-weight drawn/varied=3",
        help="train_photo.py options of the bonus looks trained leave-one-style-out",
    )
    p.add_argument(
        "--only-sharp-look",
        action="store_true",
        help="single-tile photos with and without the sharp look",
    )
    p.add_argument("--sharp-dir", default=None, help="the sharp look to measure")
    p.add_argument(
        "--only-char-look",
        action="store_true",
        help="single-tile photos with and without the character look",
    )
    p.add_argument("--chars-dir", default=None, help="the character look to measure")
    p.add_argument(
        "--only-number-look",
        action="store_true",
        help="single-tile photos with and without the number look",
    )
    p.add_argument("--numbers-dir", default=None, help="the number look to measure")
    p.add_argument(
        "--suit-photos", type=int, default=270, help="with --only-number-look: of suit tiles"
    )
    args = p.parse_args()
    if args.no_sideways:
        _without_sideways()
    if args.model_dir:
        TESTED[0] = Path(args.model_dir)
    assert MODEL_CLASSES[: len(TILE_CODES)] == TILE_CODES

    art = synth.load_art()
    if args.only_loso:
        loso(args)
        return
    if args.only_unseen:
        unseen(args.unseen, args.hands // 2)
        return
    if args.only_new:
        print(kong_figures(art, args.kongs, KONG_SEED))
        return
    if args.only_sideways:
        print(sideways_figures(art, args.sideways, SIDEWAYS_SEED))
        return
    if args.only_tile_photos:
        tile_photo_figures(art, args.tile_photos, args.teach_photos)
        return
    if args.only_bonus_look:
        bonus_look_figures(args)
        return
    if args.only_sharp_look:
        sharp_look_figures(args)
        return
    if args.only_char_look:
        char_look_figures(args)
        return
    if args.only_number_look:
        number_look_figures(args)
        return
    if args.only_hands:
        print(hand_figures(art, args.hands, HAND_SEED))
        print(cluttered_figures(art, args.cluttered, CLUTTER_SEED))
        print(cluttered_figures(art, args.fresh_cluttered, FRESH_CLUTTER_SEED))
        return
    if args.only_speed:
        speed_figures(art, args.speed)
        return
    x, y = crops(art, args.crops, CROP_SEED)
    print(f"held-out synthetic crops ({len(x)}): {split(accuracies(TESTED[0], x, y))}")
    for style in synth.STYLES:
        xs, ys = crops(synth.load_art((style,)), args.crops // 3, CROP_SEED + 1)
        print(f"  {style:9s}: {split(accuracies(TESTED[0], xs, ys))}")
    figures = hand_figures(art, args.hands, HAND_SEED)
    print(
        f"synthetic hand photos ({figures['photos']}): per tile {figures['per_tile']:.2%}, "
        f"tile count right {figures['tile_count_right']:.1%}, "
        f"groups right {figures['groups_right']:.0%}, "
        f"whole hand exact {figures['whole_hand_exact']:.0%}, "
        f"no tiles found {figures['no_tiles_found']:.0%}; per tile where the count is right "
        f"{figures['per_tile_when_count_right']:.2%}"
    )
    for count, seed, which in (
        (args.cluttered, CLUTTER_SEED, ""),
        (args.fresh_cluttered, FRESH_CLUTTER_SEED, ", a seed no rule was tuned on"),
    ):
        if not count:
            continue
        cf = cluttered_figures(art, count, seed)
        print(
            f"hand photos with things beside the tiles ({cf['photos']}{which}): tile count "
            f"right {cf['tile_count_right']:.1%}, photos with tiles too many "
            f"{cf['photos_with_extra_tiles']:.0%} ({cf['extra_tiles_per_photo']:.2f} per photo)"
        )
    if args.scored:
        sf = score_figures(art, args.scored, SCORE_SEED)
        print(
            f"photos of legal MCR hands ({sf['photos']}): same score as the true hand "
            f"{sf['same_score']:.0%}, whole hand exact {sf['whole_hand_exact']:.0%}"
        )
    if args.kongs:
        kf = kong_figures(art, args.kongs, KONG_SEED)
        print(
            f"hand photos with a face-down concealed kong ({kf['photos']}): tile count right "
            f"{kf['tile_count_right']:.0%}, the concealed kong read {kf['kong_read']:.0%}"
        )
    if args.sideways:
        wf = sideways_figures(art, args.sideways, SIDEWAYS_SEED)
        print(
            f"hand photos with a tile of each meld laid sideways ({wf['photos']}): per tile "
            f"{wf['per_tile']:.1%}, tile count right {wf['tile_count_right']:.0%}, turned "
            f"tiles flagged right {wf['sideways_flagged_right']:.0%}, melds read right "
            f"{wf['melds_right']:.0%}"
        )
    if args.unseen:
        unseen(args.unseen, args.hands // 2)
    if args.tile_photos:
        tile_photo_figures(art, args.tile_photos, args.teach_photos)
    if args.speed:
        speed_figures(art, args.speed)
    if args.loso:
        loso(args)


if __name__ == "__main__":
    main()
