"""``hefen score --photo``: recognise the tiles in a photo, then score them."""

from pathlib import Path

import numpy as np
import pytest

from hefen.cli import main

TILES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "tiles"
needs_art = pytest.mark.skipif(not TILES_DIR.is_dir(), reason="shared/tiles is not beside the repo")

HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "C", "E"]


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    from hefen.photo import synth

    art = synth.load_art(tiles_dir=TILES_DIR)
    p = synth.hand_photo(np.random.default_rng(31_400_003), art, groups=[HAND], rows=[[0]])
    path = tmp_path_factory.mktemp("photo") / "hand.jpg"
    path.write_bytes(p.jpeg())
    return path


@needs_art
def test_score_a_photo(photo, capsys):
    assert main(["score", "--photo", str(photo), "--win", "E", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "Recognised: " + " ".join(HAND) in out
    assert "Mixed Straight" in out and "22 points" in out


@needs_art
def test_photo_winning_tile_must_be_in_the_photo(photo, capsys):
    assert main(["score", "--photo", str(photo), "--win", "9p"]) == 2
    assert "not among the recognised tiles" in capsys.readouterr().err


def test_not_a_photo(tmp_path, capsys):
    bad = tmp_path / "notes.txt"
    bad.write_text("not an image")
    assert main(["score", "--photo", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Could not read the photo:") and err.count("\n") == 1


@needs_art
def test_groups_apart_from_the_hand_are_exposed_melds(tmp_path, capsys):
    from hefen.photo import synth

    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "E", "E", "7s", "8s", "9s"]
    groups = [concealed, ["C", "C", "C"], ["2h"]]
    art = synth.load_art(tiles_dir=TILES_DIR)
    p = synth.hand_photo(np.random.default_rng(31_400_011), art, groups=groups, rows=[[0, 1, 2]])
    path = tmp_path / "melds.jpg"
    path.write_bytes(p.jpeg())
    assert main(["score", "--photo", str(path), "--win", "E"]) == 0
    out = capsys.readouterr().out
    assert "Recognised: " + " ".join(concealed + ["C", "C", "C", "2h"]) in out
    # the pung of red dragons lies apart from the hand: exposed, so no Concealed Hand
    assert "Dragon Pung" in out and "Concealed Hand" not in out
    assert "Flower Tiles" in out
