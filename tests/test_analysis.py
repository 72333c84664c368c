"""Hand analysis: waits, shanten, advice and the edge cases players argue about."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from hefen import HandError
from hefen.analysis import advise, shanten, shanten_counts, situation, waits
from hefen.cli import main
from hefen.decompose import FORMS_ALL, FORMS_STANDARD, completing_tiles
from hefen.notation import parse_hand
from hefen.testing.generate import random_mcr_hands
from hefen.tiles import tile_from_str, tile_to_str


def obj(text: str, rules: str = "mcr", visible: str = "", **ctx: Any) -> dict[str, Any]:
    p = parse_hand(text)
    d: dict[str, Any] = {
        "rules": rules,
        "hand": [tile_to_str(t) for t in p.concealed],
        "melds": [m.to_dict() for m in p.melds],
        "flowers": [tile_to_str(t) for t in p.flowers],
        "context": dict(ctx),
    }
    if p.win_tile is not None:
        d["win_tile"] = tile_to_str(p.win_tile)
    if visible:
        d["visible"] = [tile_to_str(t) for t in parse_hand(visible).concealed]
    return d


def counts_of_codes(text: str) -> list[int]:
    c = [0] * 34
    for code in text.split():
        c[tile_from_str(code)] += 1
    return c


def codes(ws: Any) -> list[str]:
    return [tile_to_str(w.tile) for w in ws]


# ---------------------------------------------------------------- waits --
def test_simple_wait_scores_both_ways_and_counts_unseen() -> None:
    rep = waits(obj("123m456p789s11pEE", visible="1pEE"))
    assert rep.shanten == 0
    assert codes(rep.waits) == ["1p", "E"]
    one_p, east = rep.waits
    assert one_p.unseen == 1 and east.unseen == 0
    assert east.real and "visible" in (east.note or "")
    d = one_p.discard
    s = one_p.self_draw
    assert d is not None and s is not None and d.valid and s.valid
    assert s.pattern("self_drawn") is not None or s.pattern("fully_concealed_hand") is not None
    assert d.pattern("mixed_straight") is not None


def test_wait_on_a_tile_all_four_in_own_hand_is_not_real() -> None:
    rep = waits(obj("1111m234567p789s"))
    assert codes(rep.waits) == ["1m"]
    (w,) = rep.waits
    assert not w.real and w.unseen == 0 and "own hand" in (w.note or "")
    assert w.to_dict()["unseen"] == 0 and w.to_dict()["real"] is False
    # counted with real tiles the hand is not ready
    assert rep.shanten == 1
    assert shanten(obj("1111m234567p789s")).shanten == 1
    assert shanten(obj("1111m234567p789s"), fifth=True).shanten == 0
    assert "Not really ready" in rep.describe()


def test_wait_whose_copies_are_in_own_melds_is_not_real() -> None:
    # the pung of 5m is exposed: the single 5m waits for a fifth copy
    rep = waits(obj("5m123p456p789s [555m]"))
    assert codes(rep.waits) == ["5m"]
    assert not rep.waits[0].real and rep.shanten == 1
    # a fifth copy in the input itself is refused
    with pytest.raises(HandError, match="5 copies of 5m"):
        waits(obj("5m123p456p789s (5555m)"))


def test_mixed_real_and_fake_waits() -> None:
    # 1111m 23m: waits 1m (fifth copy, not real) and 4m
    rep = waits(obj("1111234m345p123s"))
    by = {tile_to_str(w.tile): w for w in rep.waits}
    assert not by["1m"].real and by["4m"].real and by["4m"].unseen == 3
    assert rep.shanten == 0
    assert shanten(obj("1111234m345p123s")).useful == ((tile_from_str("4m"), 3),)


def test_thirteen_orphans_thirteen_sided_wait() -> None:
    rep = waits(obj("19m19p19sESWNCFP"))
    assert len(rep.waits) == 13
    for w in rep.waits:
        assert w.real and w.unseen == 3
        assert w.discard is not None and w.discard.pattern("thirteen_orphans") is not None
    assert shanten(obj("19m19p19sESWNCFP", rules="hk")).shanten == 0
    with pytest.raises(HandError, match="TW needs 16"):
        shanten(obj("19m19p19sESWNCFP", rules="tw"))


def test_nine_gates_nine_sided_wait() -> None:
    rep = waits(obj("1112345678999m"))
    assert codes(rep.waits) == [f"{r}m" for r in range(1, 10)]
    unseen = {tile_to_str(w.tile): w.unseen for w in rep.waits}
    assert unseen["1m"] == 1 and unseen["9m"] == 1 and unseen["5m"] == 3
    for w in rep.waits:
        assert w.discard is not None and w.discard.pattern("nine_gates") is not None


def test_seven_pairs_with_four_of_a_kind() -> None:
    # MCR: four of a kind stands for two pairs (Tile Hog scores it)
    rep = waits(obj("1111m22p33p55s77sC"))
    assert codes(rep.waits) == ["C"]
    r = rep.waits[0].discard
    assert r is not None and r.pattern("seven_pairs") is not None and r.pattern("tile_hog")
    assert shanten(obj("1111m22p33p55s77sC")).forms == ("seven_pairs",)
    # HK: a table setting, off by default — then the four are a pung and a
    # single, and the hand is two tiles from ready
    assert shanten(obj("1111m22p33p55s77sC", rules="hk")).shanten == 2
    assert waits(obj("1111m22p33p55s77sC", rules="hk")).waits == ()
    on = obj("1111m22p33p55s77sC", rules="hk")
    on["options"] = {"seven_pairs_four_kind": True}
    rep = waits(on)
    assert codes(rep.waits) == ["C"] and rep.shanten == 0
    r = rep.waits[0].discard
    assert r is not None and r.valid and r.pattern("seven_pairs") is not None
    # an ordinary seven pairs wait is the same in MCR and HK
    assert codes(waits(obj("11m22p33p55s77sCCF", rules="hk")).waits) == ["F"]


def test_last_copy_wins_get_last_tile_when_three_are_visible() -> None:
    rep = waits(obj("123m456p789s11pEE", visible="EE"))
    east = next(w for w in rep.waits if tile_to_str(w.tile) == "E")
    assert east.unseen == 0 and east.note is not None
    rep = waits(obj("456p789s11pEE [SSS]", visible="EE"))
    assert codes(rep.waits) == ["1p", "E"] and rep.waits[1].unseen == 0
    rep = waits(obj("123m456p789s11p5s5s", visible="5s5s"))
    # 5s: two in hand, two visible: dead; 1p: none seen
    assert [w.unseen for w in rep.waits] == [2, 0]
    rep = waits(obj("123m456p789s1p [111p]"))
    # exposed pung of 1p and a single 1p: its pair would be a fifth copy
    assert [(tile_to_str(w.tile), w.real) for w in rep.waits] == [("1p", False)]


def test_last_of_kind_derived_from_exposed_and_visible() -> None:
    rep = waits(obj("123m456p78s99s [SSS]", visible="6s6s6s"))
    six = next(w for w in rep.waits if tile_to_str(w.tile) == "6s")
    assert six.unseen == 1 and six.note == "the last copy"
    assert six.discard is not None and six.discard.pattern("last_tile") is not None
    nine = next(w for w in rep.waits if tile_to_str(w.tile) == "9s")
    assert nine.discard is not None and nine.discard.pattern("last_tile") is None


def test_not_ready_hand_has_no_waits() -> None:
    rep = waits(obj("13m456p789s11pESW"))
    assert rep.waits == () and rep.shanten == 2
    assert rep.to_dict() == {"waits": [], "shanten": 2}


def test_tw_sixteen_tiles() -> None:
    rep = waits(obj("123m456m789m123p45pEE", rules="tw"))
    assert codes(rep.waits) == ["3p", "6p"]
    s = shanten(obj("1122334455667788m", rules="tw"))
    assert "seven_pairs" not in s.by_form and s.forms == ("standard",)
    s = shanten(obj("123m456m789m123p45pEE", rules="tw"))
    assert s.shanten == 0
    with pytest.raises(HandError):
        shanten(obj("123m456p789s11pEE", rules="tw"))


def test_knitted_forms_only_in_mcr() -> None:
    h = "147m258p369sESWNC"[:-1]  # 9 knitted + 4 winds = 13
    s = shanten(obj(h))
    assert s.shanten == 0 and "honors_knitted" in s.forms
    assert {tile_to_str(t) for t, _ in s.useful} == {"C", "F", "P"}
    assert shanten(obj(h, rules="hk")).shanten > 0
    # knitted straight beside one meld
    rep = waits(obj("147m258p369sE [CCC]"))
    assert codes(rep.waits) == ["E"]
    assert rep.waits[0].discard is not None
    assert rep.waits[0].discard.pattern("knitted_straight") is not None


def test_waits_agree_with_core_completing_tiles() -> None:
    rng = random.Random(5)
    for h in random_mcr_hands(150, seed=11):
        o = {k: v for k, v in h.items() if k != "win_tile"}
        o["hand"] = sorted(h["hand"])
        # swap the winning tile out and a random tile in, now and then
        rep = waits(o, scored=False)
        s = situation(o)
        core = completing_tiles(s.concealed_counts(), s.n_melds, FORMS_ALL, fifth=True)
        assert tuple(w.tile for w in rep.waits) == core
        assert rng is not None


def test_shanten_matches_brute_force_on_small_cases() -> None:
    # shanten 0 exactly when a real completing tile exists; 1 when some draw
    # and discard reach that
    rng = random.Random(3)
    wall = [t for t in range(9) for _ in range(4)] + [27, 27, 27, 28, 28, 28]
    for _ in range(60):
        tiles = rng.sample(wall, 13)
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        info = shanten_counts(tuple(c), forms=("standard",))
        real = [t for t in completing_tiles(tuple(c), 0, FORMS_STANDARD) if c[t] < 4]
        assert (info.shanten <= 0) == bool(real) or info.shanten == -1
        if info.shanten == 1:
            ok = False
            for t in range(34):
                if c[t] >= 4:
                    continue
                c[t] += 1
                for d in range(34):
                    if c[d] and d != t:
                        c[d] -= 1
                        if any(c[x] < 4 for x in completing_tiles(tuple(c), 0, FORMS_STANDARD)):
                            ok = True
                        c[d] += 1
                c[t] -= 1
            assert ok


# --------------------------------------------------------------- advise --
def test_advise_ranks_by_shanten_then_live_tiles_then_value() -> None:
    adv = advise(obj("123m456p789s11pEE +C"))
    first = adv.options[0]
    assert tile_to_str(first.tile) == "C" and first.shanten == 0
    assert all(o.shanten >= 1 for o in adv.options[1:])
    keys = [o.key() for o in adv.options]
    assert keys == sorted(keys)
    text = adv.describe()
    assert text.startswith("Best: discard C")
    assert "waiting on 1p (2 left), E (2 left)" in text


def test_advise_prefers_more_live_tiles_then_value() -> None:
    # 2345m: discarding 2m or 5m both leave a wait; live tiles decide
    adv = advise(obj("2345m456p789s11pEE", visible="3m3m3m"))
    ready = [o for o in adv.options if o.shanten == 0]
    assert ready and ready[0].unseen >= ready[-1].unseen
    # equal live tiles: the more valuable waits first
    adv = advise(obj("123m456p789s11pEEE"))
    assert adv.complete
    for o in adv.options:
        assert o.shanten >= 0


def test_advise_accepts_the_drawn_tile_inside_the_hand_and_checks_size() -> None:
    a = advise(obj("123m456p789s11pEEC"))
    assert tile_to_str(a.options[0].tile) == "C"
    with pytest.raises(HandError, match="needs 14 with the tile just drawn"):
        advise(obj("123m456p789s11pEC"))
    with pytest.raises(HandError):
        advise(obj("1111m1m23m456p789sE"))


# ---------------------------------------------------------------- input --
@pytest.mark.parametrize(
    "bad, words",
    [
        ({"rules": "mcr", "hand": ["1m"] * 4 + ["2m"] * 9}, "copies of 2m"),
        (dict(obj("123m456p789s11pEE"), visible=["E", "E", "E"]), "between the hand and 'visible'"),
        (dict(obj("123m456p789s11pEE"), visible=["1h"]), "bonus tile"),
        (dict(obj("123m456p789s11pEE"), visible=["xx"]), "'visible'"),
        (dict(obj("123m456p789s11pEE"), visible="E"), "must be a list"),
        (dict(obj("123m456p789s11pEE"), win_tile="E"), "no 'win_tile'"),
        ({"rules": "mcr", "hand": ["1m"]}, "needs 13"),
        ({"rules": "xx", "hand": []}, "rules"),
    ],
)
def test_bad_input_is_one_sentence(bad: dict[str, Any], words: str) -> None:
    with pytest.raises(HandError, match=words):
        waits(bad)


# ------------------------------------------------------------------ CLI --
def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    import contextlib
    import sys

    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    finally:
        sys.stdin = old
    return rc, out.getvalue(), err.getvalue()


def test_cli_readable() -> None:
    rc, out, _ = run_cli(["waits", "1112345678999m"])
    assert rc == 0 and "Ready: 9 winning tile kinds" in out and "Nine Gates" in out
    rc, out, _ = run_cli(["shanten", "147m258p369sESWN"])
    assert rc == 0 and "honours and knitted tiles" in out
    rc, out, _ = run_cli(["advise", "123m456p789s11pEE +C", "--visible", "1p"])
    assert rc == 0 and out.startswith("Best: discard C")
    rc, out, _ = run_cli(["waits", "1111m234567p789s"])
    assert "not a real wait" in out
    rc, _, err = run_cli(["waits", "123m456p789s11pE +E"])
    assert rc == 2 and "no winning tile" in err
    rc, out, _ = run_cli(["waits", "123m456m789m123p45pEE", "--rules", "tw"])
    assert rc == 0 and "3p" in out


def test_cli_json_batches() -> None:
    lines = [
        json.dumps({"rules": "mcr", "hand": list("EEE") + ["1m", "2m", "3m"] * 2 + list("SSSW")}),
        "",
        "{not json",
        json.dumps({"rules": "mcr", "hand": ["1m"]}),
        json.dumps(obj("19m19p19sESWNCFP", visible="EE")),
    ]
    rc, out, _ = run_cli(["waits", "--json"], "\n".join(lines) + "\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(rows) == 4
    assert [w["tile"] for w in rows[0]["waits"]] == ["W"]
    assert rows[0]["waits"][0]["unseen"] == 3
    assert rows[0]["waits"][0]["discard"]["valid"] is True
    assert rows[0]["waits"][0]["self_draw"]["valid"] is True
    assert rows[1]["valid"] is False and "JSON" in rows[1]["error"]
    assert rows[2] == {"valid": False, "error": rows[2]["error"]} and "13" in rows[2]["error"]
    assert len(rows[3]["waits"]) == 13
    assert {w["tile"]: w["unseen"] for w in rows[3]["waits"]}["E"] == 1
    rc, out, _ = run_cli(["shanten", "--json"], "\n".join(lines) + "\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rows[0]["shanten"] == 0 and rows[0]["useful"] == ["W"]
    assert rows[1]["valid"] is False and rows[2]["valid"] is False
    assert rows[3]["shanten"] == 0 and len(rows[3]["useful"]) == 13


# ------------------------------------------------------------ the bots' count --
def _random_counts(rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """Concealed counts, per-kind caps, melds and hand size of a random hand
    (13 or 16 tiles, up to three melds, drawn from a flush-heavy pool sometimes)."""
    size = rng.choice((13, 13, 16))
    n_melds = rng.choice((0, 0, 0, 1, 2, 3))
    in_melds = [0] * 34
    for _ in range(n_melds):
        in_melds[rng.randrange(34)] = 3
    wall = [t for t in range(34) for _ in range(4)]
    rng.shuffle(wall)
    pool = rng.choice([wall, [t for t in wall if t < 9 or t > 26], [t for t in wall if t < 18]])
    c = [0] * 34
    for t in pool:
        if sum(c) >= size - 3 * n_melds + rng.choice((0, 1)):
            break
        if c[t] + in_melds[t] < 4:
            c[t] += 1
    return tuple(c), tuple(4 - m for m in in_melds), n_melds, size


def test_useful_kinds_are_the_draws_that_lower_the_count() -> None:
    # useful_kinds reads the tables' masks where no slot is free; it must
    # name exactly the kinds whose draw lowers shanten_number
    from hefen.analysis.shanten import FORMS, shanten_number, useful_kinds

    rng = random.Random(11)
    seen_useful = 0
    for _ in range(400):
        c, cap, n_melds, size = _random_counts(rng)
        forms = FORMS if size == 13 else ("standard",)
        base = shanten_number(c, cap, n_melds, forms, size)
        brute = []
        for t in range(34):
            if c[t] >= cap[t]:
                continue
            more = c[:t] + (c[t] + 1,) + c[t + 1 :]
            if shanten_number(more, cap, n_melds, forms, size) < base:
                brute.append(t)
        assert list(useful_kinds(c, cap, n_melds, forms, size)) == brute, (c, cap, n_melds)
        seen_useful += bool(brute)
    assert seen_useful > 300


def test_the_bots_count_is_the_reports_count() -> None:
    from hefen.analysis.shanten import FORMS, shanten_number, useful_kinds

    rng = random.Random(12)
    for _ in range(300):
        c, cap, n_melds, size = _random_counts(rng)
        forms = FORMS if size == 13 else ("standard",)
        meld_counts = tuple(4 - k for k in cap)
        info = shanten_counts(c, meld_counts, n_melds, forms, size)
        assert shanten_number(c, cap, n_melds, forms, size) == info.shanten
        assert useful_kinds(c, cap, n_melds, forms, size) == info.useful


def test_four_alike_in_seven_pairs_is_the_rulesets_word() -> None:
    from hefen.analysis import allow_four_in_seven_pairs

    assert allow_four_in_seven_pairs("mcr", {}) is True
    assert allow_four_in_seven_pairs("hk", {}) is False
    assert allow_four_in_seven_pairs("hk", {"seven_pairs_four_kind": True}) is True
    assert allow_four_in_seven_pairs("tw", {}) is False
    # 1111m as two pairs: ready on 7p in MCR, not at a default HK table
    hand = "1m 1m 1m 1m 2p 2p 3s 3s E E C C 7p"
    assert shanten(obj(hand)).shanten == 0
    assert shanten(obj(hand, "hk")).shanten > 0
    assert shanten(obj(hand, "hk") | {"options": {"seven_pairs_four_kind": True}}).shanten == 0


def test_plan_shanten_counts_only_the_draws_a_plan_needs() -> None:
    from hefen.analysis.shanten import plan_shanten, shanten_number

    cap = (4,) * 34
    # on a whole hand it is the shanten
    rng = random.Random(13)
    for _ in range(200):
        c, cap2, n_melds, size = _random_counts(rng)
        if sum(c) == size - 3 * n_melds:
            forms = ("standard",)
            assert plan_shanten(c, cap2, n_melds, forms, size) == shanten_number(
                c, cap2, n_melds, forms, size
            )
    # the bamboo of a hand kept for a flush, 123s 456s 99s: two sets and a
    # pair leave two set slots empty; the bare count needs six more tiles
    # (shanten 5), the plan credits each empty slot one tile (shanten 3,
    # the block count 8 - 2 * 2 - 1)
    flush = tuple(counts_of_codes("1s 2s 3s 4s 5s 6s 9s 9s"))
    assert shanten_number(flush, cap, 0, ("standard",), 13) == 5
    assert plan_shanten(flush, cap, 0, ("standard",), 13) == 3
