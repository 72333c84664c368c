"""Tiles, notation, the hand model and its validation, decompositions and waits."""

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hefen import Hand, HandError, Tile, score
from hefen.decompose import completing_tiles, standard_decompositions
from hefen.notation import ParsedHand, format_hand, parse_hand, parse_tiles
from hefen.tiles import NUM_KINDS, counts_of, tile_from_str, tile_to_str


def counts(text):
    return tuple(counts_of(parse_tiles(text)))


# ---------------------------------------------------------------- tiles --
def test_tile_codes_round_trip():
    for t in range(42):
        assert tile_from_str(tile_to_str(t)) == t
    assert str(Tile.from_str("3s")) == "3s"


def test_riichi_honour_codes():
    assert [tile_to_str(tile_from_str(f"{i}z")) for i in range(1, 8)] == list("ESWNPFC")


def test_unicode_tiles():
    assert tile_to_str(tile_from_str("\U0001f000")) == "E"
    assert tile_to_str(tile_from_str("\U0001f004")) == "C"
    assert tile_to_str(tile_from_str("\U0001f007")) == "1m"
    assert tile_to_str(tile_from_str("\U0001f010")) == "1s"
    assert tile_to_str(tile_from_str("\U0001f019")) == "1p"
    assert tile_to_str(tile_from_str("\U0001f026")) == "1h"  # spring
    assert tile_to_str(tile_from_str("\U0001f022")) == "5h"  # plum
    for t in range(42):
        assert tile_from_str(Tile(t).unicode) == t


def test_unknown_tile_code():
    with pytest.raises(ValueError, match="'0m' is not a tile code"):
        tile_from_str("0m")


# ------------------------------------------------------------- notation --
def test_notation_example():
    p = parse_hand("EECC123m456p789s [EEE] (1111s) +E f:13h")
    assert format_hand(p) == "123m456p789sEECC [EEE] (1111s) +E f:13h"
    assert len(p.melds) == 2 and p.melds[1].concealed and p.melds[1].kind == "kong"
    assert tile_to_str(p.win_tile) == "E"


def test_notation_accepts_z_and_unicode():
    assert parse_hand("1z2z5z").concealed == parse_hand("ESP").concealed
    assert parse_hand("\U0001f000\U0001f000").concealed == parse_hand("EE").concealed


@pytest.mark.parametrize(
    "text,msg",
    [
        ("123x", "Unexpected character"),
        ("123", "have no suit letter"),
        ("[12m]", "three or four tiles"),
        ("[124m]", "not three consecutive"),
        ("(111m)", "concealed kong"),
        ("123m +1m +2m", "Only one winning tile"),
        ("123m f:1m", "not a bonus tile"),
        ("123m1h", "cannot be in the hand"),
        ("[123m", "no closing"),
    ],
)
def test_notation_errors(text, msg):
    with pytest.raises(HandError, match=msg):
        parse_hand(text)


tile_lists = st.lists(st.integers(0, NUM_KINDS - 1), max_size=14).map(lambda ts: tuple(sorted(ts)))


@settings(max_examples=300)
@given(
    concealed=tile_lists,
    win=st.none() | st.integers(0, NUM_KINDS - 1),
    flowers=st.lists(st.integers(34, 41), unique=True, max_size=8).map(lambda f: tuple(sorted(f))),
    kongs=st.lists(st.tuples(st.integers(0, 33), st.booleans()), max_size=2),
    chows=st.lists(st.integers(0, 26).filter(lambda t: t % 9 <= 6), max_size=2),
)
def test_parse_format_identity(concealed, win, flowers, kongs, chows):
    from hefen.hand import Meld

    melds = tuple(Meld.kong(t, c) for t, c in kongs) + tuple(Meld.chow(t) for t in chows)
    p = ParsedHand(concealed, melds, win, flowers)
    text = format_hand(p)
    assert parse_hand(text) == p
    assert format_hand(parse_hand(text)) == text


# ------------------------------------------------------------ hand model --
BASE = {"rules": "mcr", "hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E".split(), "win_tile": "E"}


def err(**changes):
    obj = {**BASE, **changes}
    r = score(obj)
    assert not r.valid
    assert r.to_dict() == {
        "rules": obj.get("rules", "mcr") if obj.get("rules") in ("mcr", "hk", "tw") else "mcr",
        "valid": False,
        "error": r.error,
    }
    assert r.error.endswith(".") and "\n" not in r.error
    return r.error


def test_dict_round_trip():
    h = Hand.from_dict(
        {**BASE, "melds": [{"kind": "pung", "tiles": ["S", "S", "S"]}], "hand": BASE["hand"][3:]}
    )
    assert Hand.from_dict(h.to_dict()) == h


@pytest.mark.parametrize(
    "changes,msg",
    [
        ({"hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s E E E E".split()}, "There are 5 copies of E"),
        ({"hand": BASE["hand"][:-1]}, "has 13 tiles"),
        ({"hand": BASE["hand"][:-1] + ["1h"]}, "bonus tile 1h cannot be in the hand"),
        ({"hand": BASE["hand"][:-1] + ["0z"]}, "Unknown tile code '0z'"),
        ({"colour": "red"}, "Unknown key 'colour'"),
        ({"melds": [{"kind": "chow", "tiles": ["1m", "3m", "5m"]}]}, "not three consecutive"),
        (
            {"melds": [{"kind": "pung", "tiles": ["1m", "1m", "1m"], "concealed": True}]},
            "Only a kong can be concealed",
        ),
        ({"melds": [{"kind": "pong", "tiles": ["1m", "1m", "1m"]}]}, "chow, pung or kong"),
        ({"flowers": ["1m"]}, "not a bonus tile"),
        ({"flowers": ["1h", "1h"]}, "appears more than once"),
        ({"context": {"win": "self_draw", "robbing_kong": True}}, "Robbing a kong"),
        ({"context": {"kong_replacement": True, "win": "self_draw"}}, "needs a kong"),
        ({"context": {"kong_replacement": True}}, "is a self-draw"),
        ({"context": {"win": "draw"}}, "context.win"),
        ({"context": {"seat_wind": "X"}}, "must be a wind"),
        ({"context": {"windy": True}}, "Unknown context key"),
        ({"context": {"win": "self_draw", "discarder": "S"}}, "no discarder"),
        ({"context": {"discarder": "E"}}, "own seat"),
        ({"context": {"robbing_kong": True}, "win_tile": "E"}, "robbed kong tile E"),
        ({"options": {"variant": "wmo"}}, "option variant must be"),
        ({"options": {"speed": 1}}, "Unknown mcr option"),
        ({"rules": "riichi"}, "rules must be one of"),
        ({"win_tile": None}, "needs a 'win_tile'"),
        ({"win_tile": "2h"}, "is a bonus tile"),
    ],
)
def test_illegal_input_gives_one_sentence(changes, msg):
    assert msg in err(**changes)


def test_not_complete():
    assert "not complete" in err(win_tile="S", hand=BASE["hand"][:-2] + ["E", "S"])


def test_not_a_dict():
    for bad in (None, [], "hand", 3):
        r = score(bad)
        assert not r.valid and r.error


# --------------------------------------------------------- decomposition --
def test_decompositions_of_pure_shifted_hand():
    decs = standard_decompositions(counts("11122233344455m"))
    assert len(decs) == 5
    assert all(len(sets) == 4 for _, sets in decs)


def test_thirteen_orphans_thirteen_sided_wait():
    assert len(completing_tiles(counts("19m19p19sESWNCFP"))) == 13


def test_nine_gates_nine_sided_wait():
    assert [tile_to_str(t) for t in completing_tiles(counts("1112345678999p"))] == [
        f"{i}p" for i in range(1, 10)
    ]


def test_seven_pairs_wait():
    assert [tile_to_str(t) for t in completing_tiles(counts("1133557799m113p"))] == ["3p"]


def test_a_kind_held_four_times_is_not_a_wait():
    # 1111m beside three melds: only a fifth 1m would complete it
    c = counts("1111m")
    assert completing_tiles(c, 3, frozenset({"standard"})) == ()
    assert completing_tiles(c, 3, frozenset({"standard"}), fifth=True) == (tile_from_str("1m"),)


def _batch_inputs() -> list[Any]:
    from hefen.testing.generate import random_mcr_hands

    good = {
        "hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E".split(),
        "win_tile": "E",
        "context": {"win": "self_draw"},
    }
    objs: list[Any] = list(random_mcr_hands(300, 9))
    objs += [
        {**good, "rules": "hk"},
        {**good, "rules": "tw"},
        {"hand": ["1m"], "win_tile": "1m"},
        {"hand": [[[]]]},
        ["not", "a", "hand"],
        None,
        42,
        {"rules": {"$ne": 1}},
        {**good, "options": {"variant": "nope"}},
        {**good, "hand": [lambda: 1]},  # does not pickle: scored in this process
        Hand.from_dict(good),
    ]
    return objs + objs[:50]


@pytest.mark.parametrize("jobs", [1, 2, 0])
def test_score_many_equals_score(jobs: int) -> None:
    from hefen import score_many

    objs = _batch_inputs()
    got = score_many(objs, jobs=jobs)
    want = [score(o) for o in objs]
    assert got == want
    assert [r.to_dict() for r in got] == [r.to_dict() for r in want]
    assert sum(1 for r in got if not r.valid) >= 8
    assert score_many(iter(objs[:5]), jobs=jobs) == want[:5]
    assert score_many([], jobs=jobs) == []


@pytest.mark.parametrize("jobs", [-1, 1.5, "2", True])
def test_score_many_refuses_a_bad_jobs(jobs: Any) -> None:
    from hefen import score_many

    with pytest.raises(ValueError, match="jobs must be a whole number"):
        score_many([{}], jobs=jobs)


def _reference_parse(obj: Any, need: bool) -> tuple[str, Any]:
    try:
        hand = Hand._parse_dict(obj, need_win_tile=need)
        hand.check()
        return ("ok", (hand, hand.melds, hand.context, type(hand.options)))
    except HandError as e:
        return ("error", str(e))


def _fast_parse(obj: Any, need: bool) -> tuple[str, Any]:
    try:
        hand = Hand.from_dict(obj, need_win_tile=need)
        return ("ok", (hand, hand.melds, hand.context, type(hand.options)))
    except HandError as e:
        return ("error", str(e))


_ODD_VALUES: list[Any] = [
    None, True, False, 0, 1, 1.0, -1, 99, 100, "1m", " 1m", "9h", "1h", "E", "1z", "🀀",
    "X", "mcr", "hk", "tw", "discard", "self_draw", "tian_ting", [], {}, ["1m"], [[]],
]  # fmt: skip
_ODD_KEYS = [
    "win_tile", "melds", "flowers", "context", "options", "rules", "hand", "kind", "tiles",
    "concealed", "seat_wind", "round_wind", "dealer", "discarder", "dealer_streak", "win",
    "heavenly", "robbing_kong", "last_of_kind", "kong_replacement", "declared_ready", "bogus",
]  # fmt: skip


def _mutated(obj: Any, rng: Any) -> Any:
    import copy

    obj = copy.deepcopy(obj)
    for _ in range(rng.randint(1, 3)):
        places = [obj]
        todo = [obj]
        while todo:
            x = todo.pop()
            for v in x.values() if isinstance(x, dict) else x:
                if isinstance(v, dict | list):
                    places.append(v)
                    todo.append(v)
        place = rng.choice(places)
        value = copy.deepcopy(rng.choice(_ODD_VALUES))
        if isinstance(place, dict):
            key = rng.choice(list(place) + _ODD_KEYS)
            if rng.random() < 0.2:
                place.pop(key, None)
            else:
                place[key] = value
        elif place and rng.random() < 0.3:
            place.pop(rng.randrange(len(place)))
        elif place and rng.random() < 0.6:
            place[rng.randrange(len(place))] = value
        else:
            place.append(value)
    return obj


def test_the_fast_path_of_from_dict_answers_as_the_reference_parser() -> None:
    """Hand.from_dict's one-pass reading against the reference parser: the
    same Hand (melds, context, options type) or the same sentence, on good
    hands of every ruleset and on hands with one to three faults."""
    import random

    from hefen.testing.generate import random_mcr_hands
    from hefen.testing.generate_hk_tw import random_hands

    rng = random.Random(17)
    objs: list[Any] = list(random_mcr_hands(300, 17))
    objs += random_hands("hk", 150, 17) + random_hands("tw", 150, 17)
    errors = 0
    for obj in objs:
        for candidate in [obj] + [_mutated(obj, rng) for _ in range(4)]:
            for need in (True, False):
                want = _reference_parse(candidate, need)
                assert _fast_parse(candidate, need) == want, candidate
                errors += want[0] == "error"
    assert errors > 1000
