"""hefen.svg draws every tile and whole hands as well-formed SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from hefen import svg

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("code", svg.TILE_CODES)
def test_every_tile_is_well_formed_svg(code: str) -> None:
    root = ET.fromstring(svg.tile(code, size=48))
    assert root.tag == f"{NS}svg"
    assert root.get("data-tile") == code
    assert float(root.get("width", "0")) == 48
    # a rounded rect body plus a drawn face
    rects = root.findall(f".//{NS}rect")
    assert any(r.get("rx") for r in rects)
    assert len(list(root.iter())) > 4
    assert root.find(f".//{NS}title") is not None


def test_faces() -> None:
    assert "中" in svg.tile("C") and "發" in svg.tile("F")
    assert all(c in svg.tile(w) for w, c in zip("ESWN", "東南西北", strict=True))
    assert "萬" in svg.tile("7m") and "七" in svg.tile("7m")
    assert svg.tile("9p").count("<circle") == 18  # nine dots, ring and centre
    assert "春" in svg.tile("1h") and "竹" in svg.tile("8h")
    white = ET.fromstring(svg.tile("P"))
    assert not [t for t in white.iter(f"{NS}text")]  # a frame, no text


def test_unknown_tile() -> None:
    with pytest.raises(ValueError):
        svg.tile("0m")
    with pytest.raises(ValueError):
        svg.hand(["1m", "Q"])


def test_hand_layout() -> None:
    out = svg.hand(
        ["1m", "2m", "3m", "5p"],
        melds=[
            {"kind": "pung", "tiles": ["C", "C", "C"]},
            {"kind": "kong", "tiles": ["9s"] * 4, "concealed": True},
            ["4s", "5s", "6s"],
        ],
        win_tile="5p",
        flowers=["1h", "6h"],
        size=30,
    )
    root = ET.fromstring(out)
    tiles = [g for g in root.iter(f"{NS}g") if "tile" in (g.get("class") or "")]
    assert len(tiles) == 4 + 1 + 3 + 4 + 3 + 2
    assert [g.get("data-tile") for g in tiles if "win" in (g.get("class") or "")] == ["5p"]
    assert len([g for g in tiles if "back" in (g.get("class") or "")]) == 2
    assert len(root.findall(f".//{NS}g[@class='meld']")) == 3


def test_tile_back_and_empty_hand() -> None:
    ET.fromstring(svg.tile_back(30))
    ET.fromstring(svg.hand([]))
