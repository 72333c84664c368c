"""Reading a recognised photo's groups as a hand: concealed row, exposed melds, flowers."""

from __future__ import annotations

import pytest

from hefen.photo import PhotoError
from hefen.photo.hand import hand_fields, meld_kind, read_hand


@pytest.mark.parametrize(
    ("tiles", "kind"),
    [
        (["3p", "1p", "2p"], "chow"),
        (["7s", "8s", "9s"], "chow"),
        (["C", "C", "C"], "pung"),
        (["5m"] * 4, "kong"),
        (["8s", "9s", "1s"], None),  # no wrapping round
        (["1m", "2p", "3s"], None),
        (["E", "S", "W"], None),  # honours make no chow
        (["1h", "1h", "1h"], None),
        (["2m", "2m"], None),
    ],
)
def test_meld_kind(tiles: list[str], kind: str | None) -> None:
    assert meld_kind(tiles) == kind


def test_longest_group_is_concealed_and_melds_apart_are_exposed() -> None:
    groups = [["C", "C", "C"], ["1m", "2m", "3m", "4p", "5p", "6p", "E", "E"], ["9s", "8s", "7s"]]
    fields = hand_fields(groups)
    assert fields["win_tile"] == "E"  # the concealed row's last tile
    assert fields["hand"] == ["1m", "2m", "3m", "4p", "5p", "6p", "E"]
    assert fields["melds"] == [
        {"kind": "pung", "tiles": ["C", "C", "C"], "concealed": False},
        {"kind": "chow", "tiles": ["7s", "8s", "9s"], "concealed": False},
    ]
    assert fields["flowers"] == []


def test_flowers_anywhere_are_set_aside_once() -> None:
    groups = [["1m", "1m", "1m", "5h", "2p", "3p", "4p"], ["6h", "5h"]]
    fields = hand_fields(groups, win_tile="2p")
    assert fields["flowers"] == ["5h", "6h"]
    assert fields["hand"] == ["1m", "1m", "1m", "3p", "4p"]


def test_a_group_that_is_no_meld_joins_the_concealed_hand() -> None:
    fields = hand_fields([["1m", "2m", "3m", "4m", "5m"], ["N", "W"]], win_tile="N")
    assert fields["melds"] == []
    assert fields["hand"] == ["1m", "2m", "3m", "4m", "5m", "W"]


def test_winning_tile_must_be_a_concealed_tile() -> None:
    with pytest.raises(PhotoError, match="9p is not among the recognised tiles"):
        hand_fields([["1m", "2m", "3m"], ["C", "C", "C"]], win_tile="9p")
    with pytest.raises(PhotoError, match="C is not among"):  # inside an exposed pung
        hand_fields([["1m", "2m", "3m", "5p"], ["C", "C", "C"]], win_tile="C")


def test_only_bonus_tiles_is_an_error() -> None:
    with pytest.raises(PhotoError, match="No suit or honour tiles"):
        hand_fields([["1h", "2h"]])


def test_with_four_melds_the_pair_is_the_concealed_hand() -> None:
    groups = [["W", "W"], ["1p", "1p", "1p"], ["2s", "3s", "4s"], ["9m"] * 4, ["F", "F", "F"]]
    fields = hand_fields(groups)
    assert fields["hand"] == ["W"] and fields["win_tile"] == "W"
    assert [m["kind"] for m in fields["melds"]] == ["pung", "chow", "kong", "pung"]


def test_the_reading_names_each_tiles_role() -> None:
    groups = [["2s", "3s", "4s"], ["1m", "1m", "5h", "2p", "3p", "4p", "2p"], ["5h", "6h"]]
    reading = read_hand(groups)
    assert reading.roles == [
        ["meld"] * 3,
        ["hand", "hand", "flower", "hand", "hand", "hand", "win"],
        ["repeat", "flower"],  # a set holds one 5h: the second is not counted twice
    ]
    assert reading.fields() == hand_fields(groups)
    assert reading.to_dict() == {**reading.fields(), "roles": reading.roles}


def test_a_named_winning_tile_takes_the_concealed_rows_last_copy() -> None:
    groups = [["1m", "1m", "2p", "3p", "4p", "5s", "5s", "5s"], ["7m", "8m"], ["C", "C", "C"]]
    reading = read_hand(groups, win_tile="1m")
    assert reading.roles[0][:2] == ["hand", "win"]
    assert reading.roles[1] == ["hand", "hand"]  # a group that is no meld joins the hand
    assert reading.hand == ["1m", "7m", "8m", "2p", "3p", "4p", "5s", "5s", "5s"]
    # the winning tile may come from a group that joined the hand
    assert read_hand(groups, win_tile="8m").roles[1] == ["hand", "win"]


def test_two_backs_between_two_alike_faces_are_a_concealed_kong() -> None:
    groups = [
        ["1m", "2m", "3m", "4p", "5p", "6p", "E", "E"],
        ["C", "back", "back", "C"],
        ["7s", "8s", "9s"],
    ]
    reading = read_hand(groups)
    assert reading.melds == [
        {"kind": "kong", "tiles": ["C"] * 4, "concealed": True},
        {"kind": "chow", "tiles": ["7s", "8s", "9s"], "concealed": False},
    ]
    assert reading.hand == ["1m", "2m", "3m", "4p", "5p", "6p", "E"]
    assert reading.win_tile == "E"
    assert reading.roles[1] == ["meld"] * 4
    # the faces may be the middle two, or one face and three backs
    for shown in (["back", "5s", "5s", "back"], ["back", "back", "5s", "back"]):
        fields = hand_fields([["1m", "2m", "3m", "E", "E"], shown])
        assert fields["melds"] == [{"kind": "kong", "tiles": ["5s"] * 4, "concealed": True}]


def test_four_backs_are_a_concealed_kong_of_the_tile_named() -> None:
    groups = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E"], ["back"] * 4]
    with pytest.raises(PhotoError, match="Four face-down tiles are a concealed kong"):
        read_hand(groups)
    fields = hand_fields(groups, hidden_kongs=["N"])
    assert fields["melds"] == [{"kind": "kong", "tiles": ["N"] * 4, "concealed": True}]
    assert len(fields["hand"]) == 10
    with pytest.raises(PhotoError, match="'9z' is not a tile code"):
        hand_fields(groups, hidden_kongs=["9z"])


def test_backs_that_make_no_kong_are_no_tiles_of_the_hand() -> None:
    # two backs between two different faces, and a back in the concealed row
    groups = [["1m", "2m", "back", "3m", "E", "E"], ["C", "back", "back", "F"]]
    reading = read_hand(groups)
    assert reading.melds == []
    assert reading.roles[0][2] == "back"
    assert reading.roles[1] == ["hand", "back", "back", "hand"]
    assert "back" not in reading.hand
    assert sorted(reading.hand) == sorted(["1m", "2m", "3m", "E", "C", "F"])
