"""The shipped tile classifier: an int8 ONNX CNN run with onnxruntime."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from hefen.photo.classes import (
    BACK,
    BONUS_LOOK_CLASSES,
    CHAR_CLASSES,
    MODEL_CLASSES,
    NUMBER_CLASSES,
    READ_CLASSES,
    TILE_CODES,
)
from hefen.photo.errors import PhotoError

if TYPE_CHECKING:
    from hefen.photo.words import WordLook

MODEL_DIR = Path(__file__).resolve().parent / "model"
CROP_W, CROP_H = 48, 64
#: The bonus look's input (:class:`BonusLook`): a sharper crop, for the small numerals and
#: characters of flowers and seasons.
BONUS_W, BONUS_H = 72, 96
#: The character look's input (:class:`CharLook`): a square window, this many pixels.
CHAR_WINDOW = 32


#: onnxruntime settings of every session on a CPU without VNNI. On an x86 CPU with AVX2 only
#: the int8 kernels multiply 8-bit activations by 8-bit weights in 16-bit sums that
#: saturate; the bonus look then read every flower and season of a training style as the
#: summer (2h). ``x64quantprecision`` widens them (onnxruntime PR 12088). A CPU with VNNI
#: sums in 32 bits anyway, and there the setting takes the slower AVX2 kernels instead:
#: the networks read exactly alike, 1.3 to 2.3 times slower (:func:`wide_int8_sums`).
SESSION_CONFIG = {"session.x64quantprecision": "1"}


def _cores() -> int:
    """The cores this process may run on (its affinity, where the system keeps one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


#: The threads each onnxruntime session reads a batch of crops with: two where the process
#: may run on two cores or more (:func:`_cores`). A photo is read by one request, its
#: crops in a few large batches (the slowest tenth of 17-tile photos spends most of its
#: time in a batch of 300-odd crops), and each session reads one batch at a time (its
#: ``_lock``): a second thread shortens a photo, and where several photos are read at once
#: the threads share the cores. An idle thread sleeps rather than spins
#: (``allow_spinning``), which would slow the rest.
PHOTO_THREADS = min(2, _cores())


def _session(model_dir: Path, onnx: str, about: str) -> tuple[Any, dict[str, Any]]:
    """An onnxruntime session of the network ``onnx`` in ``model_dir``
    (:data:`PHOTO_THREADS` threads), and what ``about`` (its JSON) says of it, after
    checking the file against its sha256."""
    import onnxruntime as ort

    meta = json.loads((model_dir / about).read_text())
    data = (model_dir / onnx).read_bytes()
    if hashlib.sha256(data).hexdigest() != meta["sha256"]:
        raise PhotoError("The photo model file does not match its recorded checksum.")
    options = session_options(threads=PHOTO_THREADS)
    session = ort.InferenceSession(data, sess_options=options, providers=["CPUExecutionProvider"])
    return session, meta


def session_options(threads: int = 0) -> Any:
    """onnxruntime's options for reading a network as the runtime reads it:
    :data:`SESSION_CONFIG` where the CPU needs it (:func:`wide_int8_sums`), and
    ``threads`` threads (0: onnxruntime's choice). The training script judges an int8
    network with them."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = threads
    if threads > 1:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    if not wide_int8_sums():
        for key, value in SESSION_CONFIG.items():
            options.add_session_config_entry(key, value)
    return options


#: The CPU flags (``/proc/cpuinfo``) of VNNI, whose int8 dot products sum in 32 bits.
VNNI_FLAGS = frozenset({"avx512_vnni", "avx_vnni"})


@cache
def wide_int8_sums(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether this CPU's int8 kernels sum in 32 bits without :data:`SESSION_CONFIG`: it
    has VNNI (:data:`VNNI_FLAGS` among the flags in ``cpuinfo``). False where the flags
    cannot be read (not Linux, not x86), so that the setting is kept."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            return bool(VNNI_FLAGS & set(value.split()))
    return False


class TileClassifier:
    """Probabilities over :data:`~hefen.photo.classes.READ_CLASSES` for grey tile crops."""

    #: the network's file and its JSON, in the model folder
    FILES = ("tiles.onnx", "model.json")

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        self.session, self.meta = _session(model_dir, *self.FILES)
        classes = tuple(self.meta["classes"])
        if classes not in (MODEL_CLASSES, READ_CLASSES):
            raise PhotoError("The photo model's classes are not the ones this version expects.")
        #: a model without the back class: its outputs get a column of 0 for the back
        self.without_back = BACK not in classes
        self._lock = threading.Lock()
        #: the second look at flowers and seasons shipped beside the model, if any
        #: (``bonus.onnx``); None reads them with this model alone
        self.bonus: BonusLook | None = (
            BonusLook(model_dir) if (model_dir / BonusLook.FILES[0]).exists() else None
        )
        #: the sharp look at any tile of a photo of one tile shipped beside the model, if
        #: any (``sharp.onnx``); None reads them with this model alone
        self.sharp: SharpLook | None = (
            SharpLook(model_dir) if (model_dir / SharpLook.FILES[0]).exists() else None
        )
        #: the character look shipped beside the model, if any (``chars.onnx``): the
        #: flowers' and seasons' characters read in a photo of one tile; None: not read
        self.chars: CharLook | None = (
            CharLook(model_dir) if (model_dir / CharLook.FILES[0]).exists() else None
        )
        #: the number look shipped beside the model, if any (``numbers.onnx``): the
        #: flowers' and seasons' printed numbers read in a photo of one tile; None: not read
        self.numbers: NumberLook | None = (
            NumberLook(model_dir) if (model_dir / NumberLook.FILES[0]).exists() else None
        )
        #: the match look shipped beside the model, if any (``match.onnx``): what a taught
        #: tile is remembered and compared by; None: by this model's own features
        self.match: MatchLook | None = (
            MatchLook(model_dir) if (model_dir / MatchLook.FILES[0]).exists() else None
        )

    @cached_property
    def words(self) -> WordLook | None:
        """The word look (:mod:`hefen.photo.words`: what is written on a tile, read by a
        general text reader), loaded when first asked for; None where the text reader is
        not installed, or where it was set to None (not read)."""
        from hefen.photo.words import word_look

        return word_look()

    @property
    def sha256(self) -> str:
        return str(self.meta["sha256"])

    @property
    def memory_key(self) -> str:
        """What a tile memory made with this classifier is bound to: its sha256, or where
        a match look is shipped (the features a memory keeps are the look's) the sha256 of
        both sha256s, ``tiles+match``."""
        if self.match is None:
            return self.sha256
        return hashlib.sha256(f"{self.sha256}+{self.match.sha256}".encode()).hexdigest()

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """``crops``: N x 64 x 48 uint8 grey; returns N x 44 probabilities, in the order
        of :data:`~hefen.photo.classes.READ_CLASSES`."""
        if len(crops) == 0:
            return np.zeros((0, len(READ_CLASSES)), np.float32)
        with self._lock:
            out = self.session.run(["probs"], {"crops": normalised(crops)})[0]
        return self._classes(np.asarray(out, np.float32))

    def _classes(self, probs: np.ndarray) -> np.ndarray:
        if not self.without_back:
            return probs
        return np.insert(probs, READ_CLASSES.index(BACK), 0.0, axis=1)

    def run(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The probabilities and what each crop looks like (N x F features): the match
        look's where it is shipped, else those this network's last layer reads; for
        ``crops`` N x 64 x 48 uint8 grey."""
        if self.match is not None:
            return self.probabilities(crops), self.match.features(crops)
        name = self.meta.get("features")
        if not name:
            raise PhotoError("This photo model gives no tile features; retrain it.")
        if len(crops) == 0:
            return np.zeros((0, len(READ_CLASSES)), np.float32), np.zeros((0, 1), np.float32)
        with self._lock:
            probs, features = self.session.run(["probs", name], {"crops": normalised(crops)})
        return self._classes(np.asarray(probs, np.float32)), np.asarray(features, np.float32)


class _Look:
    """A second, sharper look at the tile of a photo of one tile: its own small network on
    grey crops of ``BONUS_H`` x ``BONUS_W`` (what a 64-pixel crop blurs away: small
    numerals, characters, the rings of a circle), with probabilities over ``CLASSES``."""

    #: the network's file and its JSON, in the model folder
    FILES: tuple[str, str]
    CLASSES: tuple[str, ...]
    NAME: str

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        self.session, self.meta = _session(model_dir, *self.FILES)
        if tuple(self.meta["classes"]) != self.CLASSES:
            raise PhotoError(f"The {self.NAME}'s classes are not the ones this version expects.")
        self._lock = threading.Lock()

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """``crops``: N x ``BONUS_H`` x ``BONUS_W`` uint8 grey; returns N x len(CLASSES)."""
        if len(crops) == 0:
            return np.zeros((0, len(self.CLASSES)), np.float32)
        with self._lock:
            out = self.session.run(["probs"], {"crops": normalised(crops)})[0]
        return np.asarray(out, np.float32)


class BonusLook(_Look):
    """A second, sharper look at a tile read as a flower or season: probabilities over
    :data:`~hefen.photo.classes.BONUS_LOOK_CLASSES` (the eight bonus tiles, then any other
    tile). Trained on bonus tiles only (``scripts/train_photo.py --look bonus``), it reads
    the corner numeral and the season's or plant's character."""

    FILES = ("bonus.onnx", "bonus.json")
    CLASSES = BONUS_LOOK_CLASSES
    NAME = "bonus look"


class SharpLook(_Look):
    """A sharper look at the tile of a photo of one tile, whatever it is: probabilities
    over the 42 :data:`~hefen.photo.classes.TILE_CODES` (``scripts/train_photo.py --look
    sharp``), weighed with the tile model's reading (:func:`hefen.photo.single.read_tile`)."""

    FILES = ("sharp.onnx", "sharp.json")
    CLASSES = TILE_CODES
    NAME = "sharp look"


class CharLook(_Look):
    """The character look: whether a small square window of a tile's face
    (:data:`CHAR_WINDOW` pixels, as :func:`ink_image` reads it) holds one of the eight
    characters printed on the flowers and seasons (春夏秋冬梅蘭菊竹,
    :data:`~hefen.photo.glyphs.CHARACTERS`), and which; probabilities over
    :data:`~hefen.photo.classes.CHAR_CLASSES` (``scripts/train_photo.py --look chars``).
    :func:`hefen.photo.single.read_tile` scans a tile read as a flower or season with it."""

    FILES = ("chars.onnx", "chars.json")
    CLASSES = CHAR_CLASSES
    NAME = "character look"


class NumberLook(_Look):
    """The number look: whether a small square window of a tile's face (as
    :class:`CharLook` reads it) holds one of the numbers 1-9 -- a flower's or season's
    1-4, a suit tile's corner index, a character tile's numeral (Arabic, or 二 to 九;
    :data:`~hefen.photo.glyphs.NUMBERS`) -- and which; probabilities over
    :data:`~hefen.photo.classes.NUMBER_CLASSES` (``scripts/train_photo.py --look
    numbers``). :func:`hefen.photo.single.read_tile` scans a tile read as a flower or
    season with it where the character look names none, and a tile read as a suit tile."""

    FILES = ("numbers.onnx", "numbers.json")
    CLASSES = NUMBER_CLASSES
    NAME = "number look"


class MatchLook:
    """What a tile crop (64 x 48 grey, the tile classifier's input) looks like, for telling
    one set's drawings apart: unit features (``scripts/train_photo.py --look match``) in
    which two photos of one drawing are alike and two drawings are not -- of two tiles of
    one set, or two sets' drawings of one tile. :mod:`hefen.photo.memory` compares taught
    tiles by them where the look is shipped (``match.onnx``)."""

    FILES = ("match.onnx", "match.json")

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        self.session, self.meta = _session(model_dir, *self.FILES)
        self._lock = threading.Lock()

    @property
    def sha256(self) -> str:
        return str(self.meta["sha256"])

    def features(self, crops: np.ndarray) -> np.ndarray:
        """``crops``: N x 64 x 48 uint8 grey; returns N x F unit features."""
        if len(crops) == 0:
            return np.zeros((0, int(self.meta["dimensions"])), np.float32)
        with self._lock:
            out = self.session.run(["features"], {"crops": normalised(crops)})[0]
        return np.asarray(out, np.float32)


def ink_image(rgb: np.ndarray) -> np.ndarray:
    """What the character look reads of a colour picture: each pixel's darkest channel,
    so that a character in red, green, blue or orange ink is as dark on the ivory face as
    a black one (in plain grey an orange 冬 on ivory is barely darker than the face)."""
    return np.asarray(rgb.min(axis=2), np.uint8)


def normalised(crops: np.ndarray) -> np.ndarray:
    """N x 1 x H x W float32, each crop to mean 0 and sd about 1 (as in training)."""
    f = crops.astype(np.float32)
    mean = f.mean(axis=(1, 2), keepdims=True)
    sd = f.std(axis=(1, 2), keepdims=True) + 8.0
    return ((f - mean) / sd)[:, None]


@cache
def classifier() -> TileClassifier:
    """The shipped classifier, loaded once."""
    return TileClassifier()


def to_crop(grey: np.ndarray, size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """Resize a grey picture of one tile to the classifier's input size (``size``: width,
    height; the bonus look's is ``(BONUS_W, BONUS_H)``)."""
    h, w = grey.shape[:2]
    interp = cv2.INTER_AREA if h > size[1] else cv2.INTER_LINEAR
    return cv2.resize(grey, size, interpolation=interp)
