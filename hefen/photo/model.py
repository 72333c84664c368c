"""The shipped tile classifier: an int8 ONNX CNN run with onnxruntime."""

from __future__ import annotations

import hashlib
import json
import threading
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from hefen.photo.classes import BACK, MODEL_CLASSES, READ_CLASSES
from hefen.photo.errors import PhotoError

MODEL_DIR = Path(__file__).resolve().parent / "model"
CROP_W, CROP_H = 48, 64


class TileClassifier:
    """Probabilities over :data:`~hefen.photo.classes.READ_CLASSES` for grey tile crops."""

    def __init__(self, model_dir: Path = MODEL_DIR) -> None:
        import onnxruntime as ort

        meta = json.loads((model_dir / "model.json").read_text())
        data = (model_dir / "tiles.onnx").read_bytes()
        if hashlib.sha256(data).hexdigest() != meta["sha256"]:
            raise PhotoError("The photo model file does not match its recorded checksum.")
        classes = tuple(meta["classes"])
        if classes not in (MODEL_CLASSES, READ_CLASSES):
            raise PhotoError("The photo model's classes are not the ones this version expects.")
        #: a model without the back class: its outputs get a column of 0 for the back
        self.without_back = BACK not in classes
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            data, sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.meta = meta
        self._lock = threading.Lock()

    @property
    def sha256(self) -> str:
        return str(self.meta["sha256"])

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
        """The probabilities and the features the last layer reads (N x F: what each crop
        looks like to the network), for ``crops`` N x 64 x 48 uint8 grey."""
        name = self.meta.get("features")
        if not name:
            raise PhotoError("This photo model gives no tile features; retrain it.")
        if len(crops) == 0:
            return np.zeros((0, len(READ_CLASSES)), np.float32), np.zeros((0, 1), np.float32)
        with self._lock:
            probs, features = self.session.run(["probs", name], {"crops": normalised(crops)})
        return self._classes(np.asarray(probs, np.float32)), np.asarray(features, np.float32)


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


def to_crop(grey: np.ndarray) -> np.ndarray:
    """Resize a grey picture of one tile to the classifier's input size."""
    h, w = grey.shape[:2]
    interp = cv2.INTER_AREA if h > CROP_H else cv2.INTER_LINEAR
    return cv2.resize(grey, (CROP_W, CROP_H), interpolation=interp)
