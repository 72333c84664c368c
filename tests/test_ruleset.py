"""The ruleset core (hefen.ruleset): the registry is the one list of rulesets,
each ruleset states its rules once, and a fourth ruleset is one module plus
one registry line."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import hefen
from hefen.errors import HandError
from hefen.hand import Hand
from hefen.options import boolean, whole_number
from hefen.result import Result
from hefen.ruleset import (
    REGISTRY,
    Ruleset,
    _load,
    find_ruleset,
    ruleset_keys,
    rulesets,
)
from hefen.table import TableError, first_position, make_settings, next_position, settle


def test_registry_is_the_list() -> None:
    assert ruleset_keys() == tuple(REGISTRY)
    assert [r.key for r in rulesets()] == list(REGISTRY)
    for r in rulesets():
        assert find_ruleset(r.key) is r
        assert set(r.names) == {"en", "zh", "hi"}
        assert set(r.unit_names) == {"en", "zh", "hi"}


def test_unknown_ruleset_is_one_sentence_everywhere() -> None:
    with pytest.raises(HandError, match="rules must be one of mcr, hk, tw, not 'xx'"):
        find_ruleset("xx")
    assert hefen.score({"rules": "xx", "hand": []}).error == (
        "rules must be one of mcr, hk, tw, not 'xx'."
    )
    assert hefen.score({"rules": ["mcr"], "hand": []}).error == (
        "rules must be one of mcr, hk, tw, not ['mcr']."
    )
    with pytest.raises(TableError, match="Unknown ruleset"):
        make_settings("xx")


@pytest.mark.parametrize("key", list(REGISTRY))
def test_every_option_parses_its_default_text(key: str) -> None:
    r = find_ruleset(key)
    for name, opt in r.options.items():
        d = opt.describe()
        assert d["name"] == name and d["kind"] in ("bool", "int", "choice")
        text = "" if opt.default is None else str(opt.default).lower()
        if opt.kind == "choice" and opt.default is not None:
            text = str(opt.default)
        assert r.parse_option(name, text) == opt.default
    assert r.describe()["defaults"] == r.default_options()


def test_option_errors_name_the_option() -> None:
    hk = find_ruleset("hk")
    with pytest.raises(HandError, match="The option cap must be 13 or 10 or 8, not '11'"):
        hk.parse_option("cap", "11")
    with pytest.raises(HandError, match="Unknown hk option 'capp'"):
        hk.parse_option("capp", "11")
    with pytest.raises(HandError, match="must be true or false, not 0"):
        hk.resolve_options({"half_spicy": 0})
    with pytest.raises(HandError, match="must be a whole number from 1 to 1000000, not 13.0"):
        hk.resolve_options({"unit": 13.0})


def test_value_limits() -> None:
    mcr, hk, tw = (find_ruleset(k) for k in ("mcr", "hk", "tw"))
    with pytest.raises(HandError, match="at least 8 points"):
        mcr.check_value(7, {})
    with pytest.raises(HandError, match="below this table's minimum of 5 fan"):
        hk.check_value(4, hk.resolve_options({"min_fan": 5}))
    with pytest.raises(HandError, match="above the limit of 13 fan"):
        hk.check_value(99, hk.default_options())
    with pytest.raises(HandError, match="negative tai"):
        tw.check_value(-5, tw.default_options())
    with pytest.raises(HandError, match="whole number"):
        tw.check_value(True, tw.default_options())
    assert hk.check_value(13, hk.resolve_options({"cap": 10})) == 13


def test_scored_hand_pays_as_its_value() -> None:
    """The scorer pays through the ruleset's settle: the same numbers."""
    r = hefen.score(
        {
            "rules": "hk",
            "hand": "1m 2m 3m 4m 5m 6m 7m 7m 7m E E C C".split(),
            "win_tile": "C",
            "context": {"win": "discard", "seat_wind": "S", "discarder": "W"},
        }
    )
    assert r.winning
    by_value = settle("hk", r.total, winner="S", discarder="W")
    assert [p.to_dict() for p in by_value] == [p.to_dict() for p in r.payments]


# ---------------------------------------------------------------- a toy fourth ruleset
class _Toy(Ruleset):
    """A made-up ruleset: any complete 13+1 hand is worth 1 'han' per flower + 1."""

    key = "toy"
    names = {"en": "Toy", "zh": "玩具", "hi": "खिलौना"}
    unit = "han"
    unit_names = {"en": "han", "zh": "翻", "hi": "हान"}
    options = {
        o.name: o
        for o in (
            whole_number("stake", 2, 1, 100, "money per han", label="Stake"),
            boolean("generous", False, "the discarder pays double", label="Generous"),
        )
    }

    def score(self, hand: Hand, options: Any = None) -> Result:
        from hefen.decompose import FORMS_STANDARD, completing_tiles
        from hefen.tiles import counts_of

        opts = self.resolve_options(hand.options) if options is None else options
        waits = completing_tiles(tuple(counts_of(hand.concealed)), len(hand.melds), FORMS_STANDARD)
        if hand.win_tile not in waits:
            return Result.invalid(self.key, "The toy hand is not complete.")
        value = 1 + len(hand.flowers)
        settled = self.settle_hand(hand, value, opts)
        return Result(
            rules=self.key,
            valid=True,
            winning=True,
            total=value,
            unit=self.unit,
            payments=settled.payments,
            notes=settled.notes,
        )

    def payment(
        self,
        value: int,
        *,
        payer: str,
        winner: str,
        discarder: str | None,
        dealer: str,
        dealer_streak: int,
        options: Mapping[str, Any],
    ) -> int:
        pay = int(options["stake"]) * value
        return pay * 2 if options["generous"] and discarder is not None else pay


@pytest.fixture
def toy() -> Iterator[Ruleset]:
    module = types.ModuleType("hefen_toy_ruleset")
    module.RULESET = _Toy()  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    REGISTRY["toy"] = "hefen_toy_ruleset:RULESET"  # the one registry line
    _load.cache_clear()
    try:
        yield find_ruleset("toy")
    finally:
        del REGISTRY["toy"]
        del sys.modules[module.__name__]
        _load.cache_clear()


def test_a_fourth_ruleset_is_one_module_and_one_line(toy: Ruleset) -> None:
    assert "toy" in ruleset_keys()
    hand = {
        "rules": "toy",
        "hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s C C E E".split(),
        "win_tile": "E",
        "flowers": ["1h"],
        "options": {"generous": True},
        "context": {"seat_wind": "S", "discarder": "N"},
    }
    r = hefen.score(hand)
    assert (r.valid, r.total, r.unit) == (True, 2, "han")
    assert [p.to_dict() for p in r.payments] == [{"from": "N", "to": "S", "amount": 8}]
    assert "Unknown toy option 'stakes'" in str(
        hefen.score({**hand, "options": {"stakes": 1}}).error
    )
    # the table knows it through the registry: settings, settlement, the deal
    settings = make_settings("toy", {"stake": 5})
    assert settings.effective_options == {"stake": 5, "generous": False}
    assert [p.amount for p in settle("toy", 3, winner="E", discarder=None, options={})] == [6] * 3
    pos = first_position("toy")
    after = next_position(pos, winner=1, dealer_keeps_on_draw=True)
    assert after.dealer == 1 and after.dealer_streak == 0
    assert toy.describe("zh")["name"] == "玩具"
