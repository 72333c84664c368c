"""A player's own tile set, taught once from a photo (``hefen.photo.memory``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hefen.cli import main as run_cli
from hefen.photo import PhotoError, TileMemory, recognize, synth, teach
from hefen.photo.classes import BONUS, MODEL_CLASSES
from hefen.photo.memory import MATCH, SAME, UNSURE_MATCH
from hefen.photo.model import classifier

TILES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "tiles"
needs_art = pytest.mark.skipif(not TILES_DIR.is_dir(), reason="shared/tiles is not beside the repo")

# A set that numbers its flowers and seasons the other way round: what the recogniser
# reads as 1h is this set's 8h, and so on. Only teaching can know.
REVERSED = list(reversed(BONUS))


def bonus_photo(seed: int) -> bytes:
    art = synth.load_art(("samoheen",), TILES_DIR)  # one set: the same drawings each time
    return synth.hand_photo(np.random.default_rng(seed), art, [list(BONUS)], [[0]]).jpeg()


@pytest.fixture(scope="module")
def taught() -> TileMemory:
    return teach(bonus_photo(8_100_001), REVERSED)


# --------------------------------------------------------------------------- the memory


def test_a_cut_read_and_looking_like_a_taught_tile_is_given_to_it() -> None:
    memory = TileMemory(model="m")
    memory.add(["3h"], np.array([[1.0, 0.0, 0.0]]), was=["1s"])
    k, one_s, two_s = (MODEL_CLASSES.index(c) for c in ("3h", "1s", "2s"))
    probs = np.full((5, len(MODEL_CLASSES)), 0.001, np.float32)
    probs[:3, one_s] = probs[3:, two_s] = 1 - 0.001 * (len(MODEL_CLASSES) - 1)  # sure
    probs[4] = 1 / len(MODEL_CLASSES)  # unsure of a 2s...
    probs[4, two_s] += 0.1
    probs[4] /= probs[4].sum()

    def alike(s: float) -> list[float]:  # a little more alike than s
        a = float(np.cos(np.arccos(s) * 0.95))
        return [a, float(np.sqrt(1 - a * a)), 0.0]

    features = np.array(
        [
            alike(MATCH),  # read as 1s and alike: the taught tile
            [0.0, 1.0, 0.0],  # read as 1s but unlike it
            [0.2, 1.0, 0.0],  # unlike it
            [0.99, 0.05, 0.0],  # surely a 2s, but all but the same picture
            alike(UNSURE_MATCH),  # an unsure 2s that looks more like it
        ]
    )
    out = memory.adjust(probs, features)
    assert out[0].argmax() == k and out[0, k] >= probs[0].max()  # no less sure than before
    assert np.allclose(out.sum(1), 1.0)
    assert np.array_equal(out[1:3], probs[1:3])
    assert out[3].argmax() == k and SAME <= out[3, k]
    assert out[4].argmax() == k
    # read as another tile and only alike: a 2 of characters is no taught 1
    assert np.array_equal(memory.adjust(probs[3:5], features[[0, 0]]), probs[3:5])


def test_the_memory_file_round_trips_and_bad_ones_are_one_sentence(tmp_path: Path) -> None:
    sha = classifier().sha256
    memory = TileMemory(model=sha)
    memory.add(["5h", "C"], np.random.default_rng(0).normal(size=(2, 16)), was=["1s", "C"])
    path = tmp_path / "set.json"
    memory.save(path)
    back = TileMemory.load(path)
    assert back.codes == ["5h", "C"] and back.was == ["1s", "C"]
    assert np.allclose(back.features, memory.features, atol=1e-3)  # kept as float16

    data = json.loads(path.read_text())
    cases = {
        "not a hefen tile memory": {"format": "other"},
        "made with another photo model": {**data, "model": "0" * 64},
        "version 9": {**data, "version": 9},
        "damaged": {**data, "tiles": [{"tile": "5h"}]},
    }
    for words, bad in cases.items():
        path.write_text(json.dumps(bad))
        with pytest.raises(PhotoError, match=words):
            TileMemory.load(path)
    path.write_text("{")
    with pytest.raises(PhotoError, match="not valid JSON"):
        TileMemory.load(path)
    with pytest.raises(PhotoError, match="cannot be read"):
        TileMemory.load(tmp_path / "missing.json")
    with pytest.raises(PhotoError, match="'9z' is not a tile code"):
        memory.add(["9z"], np.zeros((1, 16)), was=["1m"])


# --------------------------------------------------------------------------- teaching


@needs_art
def test_taught_tiles_are_read_as_taught_in_another_photo(taught: TileMemory) -> None:
    assert taught.codes == REVERSED and taught.model == classifier().sha256
    photo = bonus_photo(8_100_002)  # another photo: other light, angle and tile bodies
    plain = recognize(photo).tiles
    assert sum(a == b for a, b in zip(plain, BONUS, strict=False)) >= 6  # as drawn
    remembered = recognize(photo, taught).tiles
    assert sum(a == b for a, b in zip(remembered, REVERSED, strict=False)) >= 6  # as taught


@needs_art
def test_teaching_needs_one_code_per_tile_found() -> None:
    # one row is cut into as many tiles as there are codes, if a tile's width allows
    with pytest.raises(PhotoError, match="too long for 3 tiles; photograph them in one row"):
        teach(bonus_photo(8_100_001), ["1h", "2h", "3h"])
    art = synth.load_art(("samoheen",), TILES_DIR)
    rng = np.random.default_rng(8_100_005)
    two = synth.hand_photo(rng, art, [list(BONUS[:4]), list(BONUS[4:])], [[0, 1]]).jpeg()
    with pytest.raises(PhotoError, match="shows 8 tiles but 3 tile codes were given"):
        teach(two, ["1h", "2h", "3h"])


@needs_art
def test_cli_teaches_and_reads_with_a_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teach_jpg, read_jpg = tmp_path / "teach.jpg", tmp_path / "read.jpg"
    teach_jpg.write_bytes(bonus_photo(8_100_001))
    read_jpg.write_bytes(bonus_photo(8_100_002))
    memory = tmp_path / "my-set.json"
    codes = " ".join(REVERSED)
    assert run_cli(["recognize", str(teach_jpg), "--teach", codes, "--memory", str(memory)]) == 0
    assert "now remembers 8" in capsys.readouterr().out
    assert run_cli(["recognize", "--json", str(read_jpg), "--memory", str(memory)]) == 0
    tiles = json.loads(capsys.readouterr().out)["tiles"]
    assert sum(a == b for a, b in zip(tiles, REVERSED, strict=False)) >= 6

    assert run_cli(["recognize", str(teach_jpg), "--teach", "1h 2h"]) == 2
    assert "--teach needs --memory" in capsys.readouterr().err
    assert run_cli(["recognize", str(read_jpg), "--memory", str(tmp_path / "none.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err

    # what the file remembers, and forgetting some of it
    assert run_cli(["recognize", "--memory", str(memory)]) == 0
    assert "remembers 8 tiles: 1h  2h  3h" in capsys.readouterr().out
    assert run_cli(["recognize", "--memory", str(memory), "--forget", "8h 7h"]) == 0
    out = capsys.readouterr().out
    assert "forgot 2 tiles taught as 8h 7h" in out and "remembers 6 tiles" in out
    assert TileMemory.load(memory).codes == REVERSED[2:]
    assert run_cli(["recognize", "--memory", str(memory), "--forget", "9z"]) == 2
    assert "'9z' is not a tile code" in capsys.readouterr().err
    assert len(TileMemory.load(memory)) == 6  # a bad code loses nothing
    assert run_cli(["recognize", "--forget", "1h"]) == 2
    assert "--forget needs --memory" in capsys.readouterr().err


def test_forgetting_every_tile_leaves_an_empty_memory_that_reads_nothing_as_taught() -> None:
    memory = TileMemory(model="m")
    memory.add(["3h", "5h"], np.array([[1.0, 0.0], [0.0, 1.0]]), was=["1s", "1p"])
    assert memory.forget(["5h"]) == 1 and memory.codes == ["3h"] and memory.was == ["1s"]
    assert memory.forget(["3h", "4h"]) == 1 and len(memory) == 0
    probs = np.full((1, len(MODEL_CLASSES)), 1 / len(MODEL_CLASSES))
    assert np.array_equal(memory.adjust(probs, np.array([[1.0, 0.0]])), probs)
    assert memory.to_dict()["tiles"] == []
