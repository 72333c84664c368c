"""A player's own tile set, remembered: tiles taught once from a photo are read as taught.

Sets differ most in their flowers and seasons: one draws a basket for each season, another
numbers its plum 2; no model trained on other sets can know. So a player photographs the
tiles the recogniser gets wrong -- typically the eight bonus tiles laid out in a row, in
order -- and names them once (``hefen recognize PHOTO --teach "1h 2h ... 8h" --memory
my-set.json``), or corrects them in the web calculator. Each taught tile is kept as what it
looks like (:meth:`hefen.photo.model.TileClassifier.run`: the match look's features where
``match.onnx`` is shipped, trained to tell one drawing from another, else those the tile
model's last layer reads) and as the model read it. When a later photo is read with that
memory, a cut is given to the taught tile it is most like when they are at least
:data:`MATCHED` alike, or :data:`READ_MATCHED` where the model reads it as it read that
tile (:meth:`TileMemory.match`; a photo of one tile is compared in every reading). With
the tile model's own features: when it looks alike (cosine similarity at least
:data:`MATCH`) and the model reads it the same way, when the model is unsure of it
(:data:`UNSURE`) and it looks more alike (:data:`UNSURE_MATCH`), or when it looks all
but the same (:data:`SAME`). Everything else -- the tile counts, the four-copies rule,
the alternatives -- works on those probabilities as before.

The file is JSON: the format's name and version, the model's sha256 (with the match look,
the sha256 of both networks' sha256s: ``TileClassifier.memory_key``; features of another
model mean nothing, so a memory made with another model is refused), and one entry per
taught tile: its code, the model's reading (``was``) and its features as base64 float16.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hefen.photo.classes import NOT_A_TILE, READ_CLASSES, READ_CODES
from hefen.photo.errors import PhotoError
from hefen.photo.model import TileClassifier, classifier

FORMAT = "hefen-tile-memory"
VERSION = 1
#: A cut the model reads as it read a taught tile, and at least this similar to it (cosine
#: of features), is read as that tile; one at least SAME similar is, whatever its reading.
MATCH, SAME = 0.65, 0.85
#: A cut the model is less sure of than UNSURE and at least UNSURE_MATCH similar is read as
#: the taught tile whatever its reading: on a set the model never saw, its readings of one
#: picture change from photo to photo.
UNSURE, UNSURE_MATCH = 0.9, 0.72
#: Where the match look is shipped (:class:`~hefen.photo.model.MatchLook`), whose features
#: are trained to tell one drawing from another, a cut at least MATCHED similar to a taught
#: tile is that tile whatever the model reads; a picture of one tile is compared in each
#: of its readings (found another way, turned), a turn costing TURN_COST per quarter.
MATCHED, TURN_COST = 0.7, 0.03
#: ... and a cut the model reads as it read a taught tile needs only READ_MATCHED: two cuts
#: of one drawing in one hand photo were 0.58 alike (the cut's edges land differently).
READ_MATCHED = 0.55
#: ... and a reading of a photo of one tile costs this times the log of how much smaller
#: its quadrilateral is than the largest found that holds it (``TileReading.parts``): a
#: blank part of a face, cut as if it were the tile, is much like a taught white dragon.
PART_COST = 0.1
#: ... and a taught tile with nothing drawn on it (the white dragon) is compared only with
#: the readings of the quadrilateral the model chose, in each of its turns: a blank sliver
#: of face found beside a tile cropped by the photo's edge is held by no other
#: quadrilateral, so PART_COST does not weigh it, and it is more like a taught white
#: dragon than the tile is like its own taught photos (docs/photo.md, "Teaching up to 16
#: photos of each kind"). Every other taught tile is compared with every reading.
BLANK_CODES = frozenset({"P"})
#: In a hand photo the match look compares only the cuts the model reads as *not a tile*
#: less likely than this: the refining step tries many bad cuts.
TAKEN_FOR_A_TILE = 0.5


def require_model(made_with: str, sha256: str) -> None:
    """Refuse a memory made with another model than ``sha256``: its features mean nothing."""
    if made_with != sha256:
        raise PhotoError(
            "The tile memory was made with another photo model; teach the tiles again."
        )


def _check_codes(codes: list[str]) -> None:
    """The photo's tile codes exactly (no other spelling): one sentence for any other."""
    for code in codes:
        if code not in READ_CODES:
            raise PhotoError(f"'{code}' is not a tile code (1m..9s, E S W N C F P, 1h..8h, back).")


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32)
    return v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-6)


def encode(features: np.ndarray) -> str:
    """One tile's features as the file keeps them: base64 of little-endian float16."""
    return base64.b64encode(_unit(features).astype("<f2").tobytes()).decode()


def decode(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text, validate=True), "<f2").astype(np.float32)


def looks(
    crops: tuple[np.ndarray, ...] | list[np.ndarray], model: TileClassifier | None = None
) -> list[str]:
    """What each crop looks like to the model, encoded: a client keeps these beside the
    tiles it shows, and teaches a tile by sending back its look with the right code."""
    if not len(crops):
        return []
    return [encode(f) for f in (model or classifier()).run(np.stack(crops))[1]]


@dataclass
class TileMemory:
    """Taught tiles: ``codes[i]``, which the model whose sha256 is ``model`` read as
    ``was[i]``, looks like ``features[i]`` (unit vectors) to it."""

    model: str
    codes: list[str] = field(default_factory=list)
    was: list[str] = field(default_factory=list)
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))

    def __len__(self) -> int:
        return len(self.codes)

    def add(self, codes: list[str], features: np.ndarray, was: list[str]) -> None:
        """Remember ``codes[i]`` as looking like ``features[i]`` and read as ``was[i]``."""
        _check_codes([*codes, *was])
        if not len(codes) == len(features) == len(was):
            raise PhotoError("Each taught tile needs its code.")
        new = _unit(features)
        self.features = new if not len(self) else np.concatenate([self.features, new])
        self.codes = self.codes + list(codes)
        self.was = self.was + list(was)

    def forget(self, codes: list[str]) -> int:
        """Forget every tile taught as one of ``codes``; how many were forgotten."""
        _check_codes(codes)
        keep = [i for i, c in enumerate(self.codes) if c not in codes]
        gone = len(self) - len(keep)
        self.codes = [self.codes[i] for i in keep]
        self.was = [self.was[i] for i in keep]
        self.features = self.features[keep] if len(keep) else np.zeros((0, 0), np.float32)
        return gone

    def taught_like(
        self, code: str, chosen: np.ndarray, looks: np.ndarray, parts: np.ndarray | None = None
    ) -> np.ndarray:
        """What to keep of a picture taught as ``code``: of ``looks`` (R x F, its
        readings: found another way, turned; ``parts`` as in :meth:`match`), the one most
        like the tiles already taught as ``code`` (1 x F), or ``chosen`` (the model's
        reading's look) when none is -- so a second photo of a tile is kept the way up its
        first was, whichever way the model turned it."""
        mine = [i for i, c in enumerate(self.codes) if c == code]
        if not mine:
            return chosen
        sims = _unit(looks) @ self.features[mine].T
        if parts is not None:
            sims = sims - PART_COST * np.asarray(parts, np.float32)[:, None]
        best = int(sims.max(1).argmax())
        return looks[best : best + 1]

    def match(
        self,
        probs: np.ndarray,
        looks: np.ndarray,
        costs: np.ndarray | None = None,
        parts: np.ndarray | None = None,
        chosen: np.ndarray | None = None,
    ) -> np.ndarray:
        """``probs`` (one cut's, the classes') with the cut given to the taught tile it is
        most like, when its features were the match look's: ``looks`` (R x F) are the
        cut's readings and ``costs`` their turns in quarters (None: one reading). The tile
        most like any reading, less :data:`TURN_COST` per quarter, gets the cut when that
        similarity ``s`` reaches :data:`MATCHED` -- or :data:`READ_MATCHED` where the model
        reads the cut as it read that tile -- as surely as ``s`` or as the model was sure
        of its own reading, whichever is more. ``chosen`` (R booleans): which readings are
        of the quadrilateral the model chose, the only ones a taught white dragon
        (:data:`BLANK_CODES`) is compared with; None: every one."""
        if not len(self):
            return probs
        if looks.shape[1] != self.features.shape[1]:
            raise PhotoError("The tile memory's entries do not fit this photo model.")
        sims = _unit(looks) @ self.features.T
        if costs is not None:
            sims = sims - TURN_COST * np.asarray(costs, np.float32)[:, None]
        if parts is not None:
            sims = sims - PART_COST * np.asarray(parts, np.float32)[:, None]
        if chosen is not None:
            blank = np.array([code in BLANK_CODES for code in self.codes])
            elsewhere = ~np.asarray(chosen, bool)[:, None] & blank[None, :]
            sims = np.where(elsewhere, -1.0, sims)
        read = int(probs[: len(READ_CODES)].argmax())
        same = np.array([READ_CODES.index(w) == read for w in self.was])
        sims = np.where((sims >= MATCHED) | (same[None, :] & (sims >= READ_MATCHED)), sims, -1.0)
        r, j = np.unravel_index(int(sims.argmax()), sims.shape)
        if sims[r, j] < READ_MATCHED:
            return probs
        return _given(probs, READ_CLASSES.index(self.codes[j]), float(sims[r, j]))

    def adjust(self, probs: np.ndarray, features: np.ndarray, matched: bool = False) -> np.ndarray:
        """``probs`` (N x classes) with each cut that is a taught tile given to it. A cut is
        a taught tile when they look alike (similarity ``s >= MATCH``) and the model reads
        the cut as it read that tile; when the model is unsure of the cut (under
        :data:`UNSURE`) and they look more alike (``s >= UNSURE_MATCH``); or when they look
        all but the same (``s >= SAME``). Tiles that only look alike, a 1 and a 2 of
        characters, are told apart by the reading. The taught tile gets the cut as surely
        as ``s`` or as the model was sure of its own reading, whichever is more -- so a
        taught tile never makes a cut look less like a tile, and the tile counts are chosen
        as before; the other classes share the rest as they did. With ``matched`` (the
        features are the match look's) each cut is read by :meth:`match` instead."""
        if not len(self) or not len(probs):
            return probs
        if features.shape[1] != self.features.shape[1]:
            raise PhotoError("The tile memory's entries do not fit this photo model.")
        if matched:  # the match look's features: by likeness alone (:meth:`match`)
            return np.stack([self.match(p, f[None]) for p, f in zip(probs, features, strict=True)])
        sims = _unit(features) @ self.features.T
        read = probs[:, : len(READ_CODES)].argmax(1)
        unsure = probs[:, : len(READ_CODES)].max(1) < UNSURE
        was = np.array([READ_CODES.index(w) for w in self.was])
        same_reading = read[:, None] == was[None, :]
        fits = (same_reading & (sims >= MATCH)) | (unsure[:, None] & (sims >= UNSURE_MATCH))
        fits |= sims >= SAME
        sims = np.where(fits, sims, -1.0)
        best = sims.argmax(1)
        out = probs.copy()
        for row in np.nonzero(sims[np.arange(len(sims)), best] >= MATCH)[0]:
            k = READ_CLASSES.index(self.codes[best[row]])
            out[row] = _given(probs[row], k, float(sims[row, best[row]]))
        return out

    # ------------------------------------------------------------------ the file

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "model": self.model,
            "tiles": [
                {"tile": c, "was": w, "features": encode(f)}
                for c, w, f in zip(self.codes, self.was, self.features, strict=True)
            ],
        }

    @classmethod
    def from_dict(cls, data: Any, model: TileClassifier | None = None) -> TileMemory:
        """A memory read back; ``model`` (default: the shipped one) must be the one it was
        made with."""
        sha = (model or classifier()).memory_key
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PhotoError("The file is not a hefen tile memory.")
        if data.get("version") != VERSION:
            raise PhotoError(f"The tile memory is version {data.get('version')}, not {VERSION}.")
        require_model(str(data.get("model")), sha)
        memory = cls(model=sha)
        tiles = data.get("tiles")
        if not isinstance(tiles, list):
            raise PhotoError("The tile memory has no list of tiles.")
        codes, was, rows = [], [], []
        try:
            for entry in tiles:
                codes.append(str(entry["tile"]))
                was.append(str(entry["was"]))
                rows.append(decode(entry["features"]))
            features = np.stack(rows) if rows else np.zeros((0, 0))
        except (KeyError, TypeError, ValueError, binascii.Error) as exc:
            raise PhotoError("The tile memory's entries are damaged.") from exc
        if rows:
            memory.add(codes, features, was)
        return memory

    @classmethod
    def from_json(cls, text: str, name: str = "") -> TileMemory:
        """A memory from its JSON text (``name``, a file's, is said in the error)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            where = f" {name}" if name else ""
            raise PhotoError(f"The tile memory{where} is not valid JSON.") from exc
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> TileMemory:
        """Read a memory file; :class:`PhotoError` with one sentence if it cannot be."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise PhotoError(f"The tile memory {path} cannot be read: {exc.strerror}.") from exc
        return cls.from_json(text, str(path))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict()) + "\n", encoding="utf-8")


def _given(probs: np.ndarray, k: int, similarity: float) -> np.ndarray:
    """One cut's ``probs`` with class ``k`` given as surely as ``similarity`` or as the
    model was sure of its own reading, whichever is more; the others share the rest as
    they did."""
    sure = max(similarity, float(probs[: len(READ_CODES)].max()))
    out = probs.copy()
    rest = out.sum() - out[k]
    out *= (1 - sure) / rest if rest > 0 else 0.0
    out[k] = sure
    return out


class RememberingClassifier:
    """A classifier whose probabilities follow a :class:`TileMemory`."""

    def __init__(self, base: TileClassifier, memory: TileMemory) -> None:
        require_model(memory.model, base.memory_key)
        self.base = base
        self.memory = memory

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        if self.base.match is None:
            probs, features = self.base.run(crops)
            return self.memory.adjust(probs, features)
        # The match look is a network of its own: it looks only at the cuts the model
        # takes for a tile (a hand photo's refining tries many bad cuts, and a taught
        # tile must not make a bad cut look like a tile).
        probs = self.base.probabilities(crops)
        tiles = np.nonzero(probs[:, READ_CLASSES.index(NOT_A_TILE)] < TAKEN_FOR_A_TILE)[0]
        if len(tiles):
            features = self.base.match.features(crops[tiles])
            probs = probs.copy()
            probs[tiles] = self.memory.adjust(probs[tiles], features, matched=True)
        return probs
