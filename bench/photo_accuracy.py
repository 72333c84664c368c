"""Accuracy and speed of the photo recogniser, on synthetic data it was not trained on.

Run by hand (not part of the tests):

    python bench/photo_accuracy.py                  # shipped model: crops, hands, speed
    python bench/photo_accuracy.py --loso           # also leave-one-art-style-out (trains 3x)

Figures printed here are the ones recorded in docs/photo.md.
"""

from __future__ import annotations

import argparse
import difflib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hefen.photo import PhotoError, recognize, synth  # noqa: E402
from hefen.photo.classes import MODEL_CLASSES, TILE_CODES  # noqa: E402
from hefen.photo.model import MODEL_DIR, TileClassifier, classifier  # noqa: E402

CROP_SEED = 90_000_001  # none of these seeds is used by scripts/train_photo.py
HAND_SEED = 91_000_001
SPEED_SEED = 92_000_001


def crops(art: synth.Art, count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    tables = synth.TableBank(rng, count=12, size=384)
    codes = [TILE_CODES[i % len(TILE_CODES)] for i in range(count)]
    x = np.stack([synth.tile_crop(rng, art, c, tables) for c in codes])
    return x, np.array([TILE_CODES.index(c) for c in codes])


def crop_accuracy(model_dir: Path, x: np.ndarray, y: np.ndarray) -> float:
    probs = TileClassifier(model_dir).probabilities(x)
    return float((probs[:, : len(TILE_CODES)].argmax(1) == y).mean())


def hand_figures(art: synth.Art, count: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    tiles_right = tiles_total = count_right = groups_right = exact = failed = 0
    counted_right = counted_total = 0
    for _ in range(count):
        photo = synth.hand_photo(rng, art)
        try:
            result = recognize(photo.jpeg())
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


def speed(art: synth.Art, count: int) -> tuple[float, float]:
    """Median and 90th-percentile ms per 17-tile photo (14 concealed + 3 flowers), JPEG bytes
    in, result out, one thread."""
    rng = np.random.default_rng(SPEED_SEED)
    photos = []
    for _ in range(count):
        concealed = sorted(
            rng.choice([c for c in TILE_CODES if not c.endswith("h")], 14, replace=True).tolist(),
            key=TILE_CODES.index,
        )
        flowers = sorted(
            rng.choice([c for c in TILE_CODES if c.endswith("h")], 3, replace=False).tolist(),
            key=TILE_CODES.index,
        )
        photos.append(synth.hand_photo(rng, art, [concealed, flowers], [[0, 1]]).jpeg())
    classifier()  # load the model first
    times = []
    for data in photos:
        t = time.perf_counter()
        try:
            recognize(data)
        except PhotoError:  # timed all the same
            pass
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))]


def loso(args: argparse.Namespace) -> None:
    print("\nleave-one-art-style-out (smaller training runs):")
    root = Path(args.loso_dir or tempfile.mkdtemp(prefix="photo-loso-"))
    for held_out in synth.STYLES:
        train_styles = [s for s in synth.STYLES if s != held_out]
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
                "1",
                "--out",
                str(out),
            ]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen = synth.load_art(tuple(train_styles))
        unseen = synth.load_art((held_out,))
        xs, ys = crops(seen, args.crops // 2, CROP_SEED + 7)
        xu, yu = crops(unseen, args.crops, CROP_SEED + 8)
        print(
            f"  train {'+'.join(train_styles):16s} test {held_out:9s}: "
            f"unseen style {crop_accuracy(out, xu, yu):.1%}, "
            f"seen styles {crop_accuracy(out, xs, ys):.1%} "
            f"({time.time() - t:.0f}s)",
            flush=True,
        )


def main() -> None:
    p = argparse.ArgumentParser(description="Photo recogniser accuracy and speed")
    p.add_argument("--crops", type=int, default=4200, help="held-out crops (per figure)")
    p.add_argument("--hands", type=int, default=100, help="synthetic hand photos")
    p.add_argument("--speed", type=int, default=30, help="17-tile photos to time")
    p.add_argument("--only-hands", action="store_true", help="just the hand photos")
    p.add_argument("--only-speed", action="store_true", help="just time 17-tile photos")
    p.add_argument("--loso", action="store_true", help="also train 3 leave-one-style-out models")
    p.add_argument("--loso-crops", type=int, default=16_000)
    p.add_argument("--loso-epochs", type=int, default=5)
    p.add_argument("--loso-dir", default=None, help="keep (and reuse) the three models here")
    args = p.parse_args()
    assert MODEL_CLASSES[: len(TILE_CODES)] == TILE_CODES

    art = synth.load_art()
    if args.only_hands:
        print(hand_figures(art, args.hands, HAND_SEED))
        return
    if args.only_speed:
        med, p90 = speed(art, args.speed)
        print(f"speed, 17-tile photo: {med:.0f} ms median, {p90:.0f} ms 90th percentile")
        return
    x, y = crops(art, args.crops, CROP_SEED)
    print(f"held-out synthetic crops ({len(x)}): {crop_accuracy(MODEL_DIR, x, y):.2%} per tile")
    for style in synth.STYLES:
        xs, ys = crops(synth.load_art((style,)), args.crops // 3, CROP_SEED + 1)
        print(f"  {style:9s}: {crop_accuracy(MODEL_DIR, xs, ys):.2%}")
    figures = hand_figures(art, args.hands, HAND_SEED)
    print(
        f"synthetic hand photos ({figures['photos']}): per tile {figures['per_tile']:.2%}, "
        f"tile count right {figures['tile_count_right']:.0%}, "
        f"groups right {figures['groups_right']:.0%}, "
        f"whole hand exact {figures['whole_hand_exact']:.0%}, "
        f"no tiles found {figures['no_tiles_found']:.0%}; per tile where the count is right "
        f"{figures['per_tile_when_count_right']:.2%}"
    )
    if args.speed:
        med, p90 = speed(art, args.speed)
        print(f"speed, 17-tile photo: {med:.0f} ms median, {p90:.0f} ms 90th percentile")
    if args.loso:
        loso(args)


if __name__ == "__main__":
    main()
