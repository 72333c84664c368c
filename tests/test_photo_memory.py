"""A player's own tile set, taught once from a photo (``hefen.photo.memory``)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hefen.cli import main as run_cli
from hefen.photo import PhotoError, TileMemory, recognize, synth, teach
from hefen.photo import model as photo_model
from hefen.photo.classes import BONUS, MODEL_CLASSES, READ_CLASSES
from hefen.photo.memory import MATCH, MATCHED, READ_MATCHED, SAME, UNSURE_MATCH
from hefen.photo.model import (
    MODEL_DIR,
    SESSION_CONFIG,
    classifier,
    normalised,
    session_options,
    wide_int8_sums,
)
from hefen.photo.single import cut

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


def _alike(s: float) -> list[float]:
    """A unit vector a little more alike than ``s`` to [1, 0, 0]."""
    a = float(np.cos(np.arccos(s) * 0.95))
    return [a, float(np.sqrt(1 - a * a)), 0.0]


def test_with_the_match_look_a_cut_goes_to_the_most_alike_taught_tile_whatever_its_reading() -> (
    None
):
    """The match look's features tell drawings apart: a cut at least MATCHED alike to a
    taught tile is that tile even when the model, sure of it, reads another tile; less
    alike, the model's reading stands. Several readings (turned) are compared, a turn
    costing TURN_COST a quarter."""
    memory = TileMemory(model="m")
    memory.add(["3h", "5h"], np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]), was=["1s", "1s"])
    k3, k5, two, one_s = (MODEL_CLASSES.index(c) for c in ("3h", "5h", "2h", "1s"))
    probs = np.full(len(MODEL_CLASSES), 0.001, np.float32)
    probs[two] = 1 - probs.sum() + 0.001  # surely a 2h, to the model
    out = memory.match(probs, np.array([_alike(MATCHED)]))
    assert out.argmax() == k3 and out[k3] >= probs.max() and np.isclose(out.sum(), 1.0)
    less = np.array([_alike(READ_MATCHED)])
    assert np.array_equal(memory.match(probs, less), probs)  # under MATCHED
    # ... but read by the model as the taught tile was, READ_MATCHED is enough
    as_taught = np.roll(probs, one_s - two)
    assert memory.match(as_taught, less).argmax() == k3
    assert np.array_equal(memory.match(as_taught, np.array([[0.5, 0.87, 0.0]])), as_taught)
    # the picture's upright reading is unlike both; turned half round it is the 5h
    looks = np.array([[0.0, 1.0, 0.0], [0.0, 0.1, 1.0]])
    assert memory.match(probs, looks, np.array([0.0, 2.0])).argmax() == k5
    # ... unless the turn's cost takes it under the bar
    near = np.array([[0.0, 1.0, 0.0], [0.0, np.sqrt(1 - MATCHED**2), MATCHED + 0.01]])
    assert memory.match(probs, near, np.array([0.0, 0.0])).argmax() == k5
    assert np.array_equal(memory.match(probs, near, np.array([0.0, 1.0])), probs)
    # the hand photo's cuts, one reading each, by the same rule
    both = np.stack([probs, probs])
    got = memory.adjust(both, np.array([_alike(MATCHED), [0.0, 1.0, 0.0]]), matched=True)
    assert got[0].argmax() == k3 and np.array_equal(got[1], probs)


def test_a_part_of_a_photo_of_one_tile_matches_a_taught_tile_less_surely() -> None:
    """A reading of a part of the picture (a blank stretch of face, cut as if it were the
    tile) must be more alike to a taught tile by PART_COST per unit of the log of how much
    smaller it is: else every badly cut face went to a taught white dragon."""
    memory = TileMemory(model="m")
    memory.add(["P"], np.array([[1.0, 0.0, 0.0]]), was=["P"])
    k = MODEL_CLASSES.index("P")
    probs = np.full(len(MODEL_CLASSES), 0.001, np.float32)
    probs[MODEL_CLASSES.index("3m")] = 1 - probs.sum() + 0.001
    looks = np.array([[0.0, 1.0, 0.0], _alike(MATCHED + 0.05)])  # the whole tile; a part
    assert memory.match(probs, looks, np.zeros(2)).argmax() == k  # parts not weighed
    assert np.array_equal(memory.match(probs, looks, np.zeros(2), np.array([0.0, 1.0])), probs)
    # as large as the largest found, the same reading is matched
    assert memory.match(probs, looks, np.zeros(2), np.zeros(2)).argmax() == k
    # a second photo is kept the way the first was taught, parts weighed the same way
    chosen = looks[:1]
    like = np.array([[0.8, 0.6, 0.0], _alike(0.9)])
    assert np.array_equal(memory.taught_like("P", chosen, like), like[1:])
    assert np.array_equal(memory.taught_like("P", chosen, like, np.array([0.0, 2.0])), like[:1])


def test_a_taught_white_dragon_takes_only_a_reading_of_the_tile_the_model_chose() -> None:
    """A blank sliver of face beside a cropped tile, found as a quadrilateral of its own,
    is more like a taught white dragon than the tile is like its taught photo: the white
    dragon is compared only with the readings of the quadrilateral the model chose."""
    memory = TileMemory(model="m")
    memory.add(["P", "3m"], np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), was=["P", "3m"])
    probs = np.full(len(MODEL_CLASSES), 0.001, np.float32)
    probs[MODEL_CLASSES.index("3m")] = 1 - probs.sum() + 0.001
    # the tile, upright (0.83 like its taught photo); the sliver, on its side (0.9 blank)
    looks = np.array([[0.0, 0.83, np.sqrt(1 - 0.83**2)], [0.9, 0.0, np.sqrt(1 - 0.81)]])
    turns = np.array([0.0, 1.0])
    p, m3 = MODEL_CLASSES.index("P"), MODEL_CLASSES.index("3m")
    assert memory.match(probs, looks, turns).argmax() == p  # every reading compared
    chosen = np.array([True, False])
    assert memory.match(probs, looks, turns, None, chosen).argmax() == m3
    # the white dragon of the quadrilateral chosen is matched as before
    assert memory.match(probs, looks, turns, None, ~chosen).argmax() == p
    # other taught tiles are compared with every reading
    other = TileMemory(model="m")
    other.add(["5h"], np.array([[1.0, 0.0, 0.0]]), was=["5h"])
    assert other.match(probs, looks, turns, None, chosen).argmax() == MODEL_CLASSES.index("5h")


def test_read_tile_tells_the_memory_which_readings_are_of_the_tile_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hefen.photo import single

    seen: list[tuple[np.ndarray, np.ndarray]] = []
    kept = TileMemory.match

    def watched(self, probs, looks, costs=None, parts=None, chosen=None):  # type: ignore[no-untyped-def]
        seen.append((looks, chosen))
        return kept(self, probs, looks, costs, parts, chosen)

    monkeypatch.setattr(TileMemory, "match", watched)
    clf = classifier()
    if clf.match is None:
        pytest.skip("no match look shipped")
    memory = TileMemory(model=clf.memory_key)
    memory.add(["P"], np.eye(1, clf.match.meta["dimensions"]), was=["P"])
    image = np.full((160, 200, 3), 60, np.uint8)
    image[20:140, 50:140] = 235  # a pale tile on a dark table
    single.read_tile(image, memory, clf)
    ((looks, chosen),) = seen
    assert chosen is not None and chosen.shape == (len(looks),) and chosen.dtype == bool
    # the four turns of one quadrilateral, of the several found (the whole picture too)
    assert chosen.sum() == single.TURNS and len(looks) > single.TURNS
    first = int(np.argmax(chosen))
    assert first % single.TURNS == 0 and chosen[first : first + single.TURNS].all()


def test_a_second_photo_of_a_tile_is_taught_the_way_up_the_first_was() -> None:
    memory = TileMemory(model="m")
    looks = np.array([[1.0, 0.0], [0.0, 1.0]])  # upright, turned
    chosen = looks[:1]  # the model's reading
    assert np.array_equal(memory.taught_like("3h", chosen, looks), chosen)  # none yet
    memory.add(["3h"], np.array([[0.1, 1.0]]), was=["3h"])
    assert np.array_equal(memory.taught_like("3h", chosen, looks), looks[1:])  # as the first
    assert np.array_equal(memory.taught_like("5h", chosen, looks), chosen)  # another tile


def test_a_memory_is_bound_to_the_match_look_that_made_its_features() -> None:
    clf = classifier()
    if clf.match is None:
        assert clf.memory_key == clf.sha256
    else:
        both = f"{clf.sha256}+{clf.match.sha256}".encode()
        assert clf.memory_key == hashlib.sha256(both).hexdigest()
        features = clf.run(np.full((2, 64, 48), 128, np.uint8))[1]
        assert features.shape == (2, clf.match.meta["dimensions"])
        assert np.allclose(np.linalg.norm(features, axis=1), 1.0, atol=1e-2)


def test_int8_networks_are_read_with_wide_sums_on_any_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without VNNI the int8 kernels' 16-bit sums saturate (every flower read as 2h on an
    AVX2 machine): every session there widens them. A CPU with VNNI sums in 32 bits, and
    its sessions go without the setting, which only slows them."""
    for session in (network.session for network in _networks()):
        options = session.get_session_options()
        for key, value in SESSION_CONFIG.items():
            assert _config_entry(options, key) == (None if wide_int8_sums() else value)
    monkeypatch.setattr(photo_model, "wide_int8_sums", lambda: False)
    options = session_options(threads=1)
    for key, value in SESSION_CONFIG.items():
        assert _config_entry(options, key) == value


def _networks() -> list[Any]:
    """The shipped classifier and each of its looks that is shipped: every network a
    session is made for."""
    clf = classifier()
    looks = (clf.bonus, clf.sharp, clf.match, clf.chars, clf.numbers)
    return [clf, *(look for look in looks if look is not None)]


def _config_entry(options: object, key: str) -> str | None:
    """An onnxruntime session option's value, None where it is not set."""
    try:
        return str(options.get_session_config_entry(key))  # type: ignore[attr-defined]
    except RuntimeError:  # onnxruntime: "does not have configuration with key"
        return None


def test_every_network_reads_with_two_threads_that_do_not_spin() -> None:
    """A photo's crops are read in a few large batches: two threads where there are two
    cores (docs/photo.md, "The int8 sums left alone"), the idle one asleep."""
    assert photo_model.PHOTO_THREADS == min(2, photo_model._cores())
    assert 1 <= photo_model._cores() <= (os.cpu_count() or 1)
    looks = _networks()
    for look in looks:
        options = look.session.get_session_options()
        assert options.intra_op_num_threads == photo_model.PHOTO_THREADS
        spin = _config_entry(options, "session.intra_op.allow_spinning")
        assert spin == ("0" if photo_model.PHOTO_THREADS > 1 else None)
    assert _config_entry(session_options(threads=1), "session.intra_op.allow_spinning") is None


@pytest.mark.parametrize(
    ("flags", "wide"),
    [
        ("fpu sse2 avx2 fma avx512f avx512_vnni avx512bw", True),
        ("fpu sse2 avx2 fma avx_vnni", True),
        ("fpu sse2 avx2 fma", False),  # the AMD EPYC whose sums saturated
        (None, False),  # an ARM board's cpuinfo: "Features", no "flags"
    ],
)
def test_vnni_is_read_from_the_cpu_flags(tmp_path: Path, flags: str | None, wide: bool) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    lines = ["processor\t: 0", "model name\t: some CPU"]
    lines.append(f"flags\t\t: {flags}" if flags is not None else "Features\t: fp asimd")
    cpuinfo.write_text("\n".join(lines) + "\n")
    assert photo_model.wide_int8_sums(cpuinfo) is wide
    assert photo_model.wide_int8_sums(tmp_path / "absent") is False


@needs_art
@pytest.mark.skipif(not wide_int8_sums(), reason="the CPU has no VNNI")
def test_on_a_vnni_cpu_every_network_reads_as_with_wide_sums() -> None:
    """What leaving the setting off on a VNNI CPU rests on: every network's outputs are
    the same with it, to the last bit, on crops of a photo of tiles (flowers among them,
    which an AVX2 CPU's saturated sums read as 2h) and on random ones."""
    import onnxruntime as ort

    rng = np.random.default_rng(3)
    art = synth.load_art(("samoheen",), TILES_DIR)
    photo = synth.hand_photo(rng, art, [["1h", "2h", "5h", "1s", "C", "9p"]], [])
    grey = np.asarray(photo.image.mean(axis=2), np.uint8)
    faces = [q for group in photo.quads for q in group]
    looks = _networks()
    wide = session_options(threads=1)
    for key, value in SESSION_CONFIG.items():
        wide.add_session_config_entry(key, value)
    for look in looks:
        h, w = look.session.get_inputs()[0].shape[2:]
        crops = [cut(grey, q, (0.0, 1.0, 0.0, 1.0), (w, h)) for q in faces]
        crops += list(rng.integers(0, 256, (8, h, w), dtype=np.uint8))
        x = {look.session.get_inputs()[0].name: normalised(np.stack(crops))}
        data = (MODEL_DIR / type(look).FILES[0]).read_bytes()
        again = ort.InferenceSession(data, sess_options=wide, providers=["CPUExecutionProvider"])
        assert _config_entry(again.get_session_options(), "session.x64quantprecision") == "1"
        for a, b in zip(look.session.run(None, x), again.run(None, x), strict=True):
            assert np.array_equal(a, b)


def test_the_memory_file_round_trips_and_bad_ones_are_one_sentence(tmp_path: Path) -> None:
    sha = classifier().memory_key
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
    assert taught.codes == REVERSED and taught.model == classifier().memory_key
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


def test_in_a_hand_photo_only_cuts_taken_for_a_tile_are_compared() -> None:
    """``RememberingClassifier`` with the match look: a cut the model reads as *not a
    tile* is neither looked at nor made a taught tile, however alike; a cut taken for a
    tile is given to the taught tile it matches."""
    from hefen.photo.memory import RememberingClassifier

    junk, three, two = (READ_CLASSES.index(c) for c in ("-", "3h", "2h"))

    class Look:
        seen = 0

        def features(self, crops: np.ndarray) -> np.ndarray:
            Look.seen += len(crops)
            return np.tile([1.0, 0.0, 0.0], (len(crops), 1))  # each just like the taught tile

    class Base:
        memory_key = "m"
        match = Look()

        def probabilities(self, crops: np.ndarray) -> np.ndarray:
            out = np.full((len(crops), len(READ_CLASSES)), 0.001, np.float32)
            out[0, junk] = out[1, two] = 1 - 0.001 * (len(READ_CLASSES) - 1)
            return out

    memory = TileMemory(model="m")
    memory.add(["3h"], np.array([[1.0, 0.0, 0.0]]), was=["1s"])
    read = RememberingClassifier(Base(), memory).probabilities(np.zeros((2, 64, 48), np.uint8))  # type: ignore[arg-type]
    assert read[0].argmax() == junk and Look.seen == 1  # the bad cut stays a bad cut
    assert read[1].argmax() == three
