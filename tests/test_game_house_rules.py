"""The engine's special cases and house rules, each on an arranged wall:
seven flowers at the deal with the eighth in the wall, the dead wall's edge,
the dealer among several winners, robbing a concealed kong for Thirteen
Orphans, a false win under each setting, kongs from a locked hand."""

from __future__ import annotations

import pytest

from hefen.game import Action, Game, GameSettings, IllegalAction, Match
from hefen.game.engine import full_set
from hefen.game.record import dumps, game_lines, replay
from hefen.hk import payment_amount
from hefen.ruleset import find_ruleset
from hefen.tiles import tiles_from_str


def T(s: str) -> list[int]:
    return tiles_from_str(s.split())


def arranged_wall(
    hands: list[str], draws: str = "", back: str = "", flowers: bool = False
) -> list[int]:
    """``hands`` dealt dealer first, then ``draws`` from the front; ``back``
    is drawn first from the end; the rest's flowers sit right before it."""
    front = [t for h in hands for t in T(h)] + T(draws)
    end = T(back)
    rest = full_set(flowers)
    for t in front + end:
        rest.remove(t)
    rest.sort(key=lambda t: (t >= 34, t))
    return front + rest + list(reversed(end))


def pass_all(game: Game) -> None:
    if game.phase in ("discard", "end"):
        return
    for s in game.to_act():
        game.apply(Action(s, "pass"))


TW_HANDS = [
    "1m 1m 9m 9m E E S S W W N N C C F F",
    "1h 2h 3h 4h 5h 6h 7h 1m 2m 3m 4m 5m 6m 7m 8m 9m",
    "1s 2s 3s 3s 4s 4s 6s 6s 7s 7s 8s 8s 9s 9s 2m 3m",
    "P P 4p 5p 6p 6p 7p 7p 8p 8p 9p 9p 5m 6m 7m 7m",
]


# ------------------------------------------------------------------ flowers
def test_seven_flowers_at_the_deal_with_the_eighth_in_the_wall() -> None:
    # seat 1 is dealt seven flowers; the eighth is the dealer's first draw
    wall = arranged_wall(TW_HANDS, draws="8h 2p", back="1p 4p 7p 5s 9s E S 1p", flowers=True)
    game = Game(GameSettings("tw"), "seven", wall=wall)  # no StopIteration
    assert len(game.players[1].flowers) == 7
    # the dealer draws the eighth flower: seat 1 may rob it (七搶一)
    assert game.phase == "rob_flower" and game.to_act() == [1]
    game.apply(Action(1, "win"))
    o = game.outcome
    assert o is not None and o.reason == "seven rob one" and o.discarder == 0
    assert sorted(game.tile_locations()) == sorted(full_set(True))


def test_seven_flowers_passed_and_the_play_goes_on() -> None:
    wall = arranged_wall(TW_HANDS, draws="8h 2p", back="1p 4p 7p 5s 9s E S 1p", flowers=True)
    game = Game(GameSettings("tw"), "seven", wall=wall)
    game.apply(Action(1, "pass"))
    assert game.phase == "discard" and game.turn == 0
    assert T("8h")[0] in game.players[0].flowers
    assert len(game.players[0].concealed) == 17


# ------------------------------------------------------------------ the dead wall
class Drawer:
    """Discards what it draws, passes every claim, never wins."""

    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if game.phase == "discard":
            return next(a for a in legal if a.kind == "discard" and a.tile == game.drawn)
        return next(a for a in legal if a.kind == "pass")


@pytest.mark.parametrize(("dead", "left"), [(None, 16), (0, 0), (20, 20)])
def test_the_dead_wall_is_never_drawn(dead: int | None, left: int) -> None:
    settings = GameSettings("tw", dead_wall=dead)
    assert settings.kept_back == left
    bot = Drawer()
    for seed in range(3):
        game = Game(settings, f"dead/{seed}")
        last_seen = False
        while game.phase != "end":
            if game.phase == "discard" and game.wall_remaining == 0:
                # the last tile drawn in play: 海底, with the dead wall left
                assert game.tail - game.head == left
                ctx = game.win_context(
                    game.turn, game.drawn or 0, self_drawn=True, discarder=None, robbing=False
                )
                assert ctx.last_tile_of_wall
                last_seen = True
            seat = game.to_act()[0]
            game.apply(bot.choose(game, seat))
        o = game.outcome
        assert o is not None
        if o.kind == "draw":
            assert last_seen and game.tail - game.head == left
        assert sorted(game.tile_locations()) == sorted(full_set(True))


def test_the_dead_wall_setting_is_checked_and_recorded() -> None:
    with pytest.raises(ValueError, match="dead wall"):
        GameSettings("tw", dead_wall=-1)
    s = GameSettings("tw", dead_wall=8)
    assert GameSettings.from_dict(s.to_dict()) == s
    assert GameSettings("mcr").kept_back == 0 and GameSettings("hk").kept_back == 0
    game = Game(s, "rec")
    bot = Drawer()
    while game.phase != "end":
        game.apply(bot.choose(game, game.to_act()[0]))
    again = replay(dumps(game_lines(game)).splitlines()).games[0]
    assert again.snapshot() == game.snapshot()


# ------------------------------------------------------------------ several winners
HK_TWO = [
    "1p 1p 1p 2p 3p 4p 6p 7p 8p 9p 9p 9p 5p",  # dealer: full flush, waits 5p
    "5p E E S S W W N N C C F F",
    "1s 1s 1s 2s 3s 4s 6s 7s 8s 9s 9s 9s 5p",  # waits 5p
    "1m 1m 2m 2m 3m 3m 4m 4m 6m 6m 7m 7m 8m",
]


@pytest.mark.parametrize(("keeps", "next_dealer"), [(True, 0), (False, 1)])
def test_the_dealer_among_several_winners_keeps_the_deal(keeps: bool, next_dealer: int) -> None:
    settings = GameSettings(
        "hk",
        options={"min_fan": 0},
        flowers=False,
        multiple_winners=True,
        dealer_among_winners_keeps=keeps,
    )
    match = Match(settings, seed="two", hands=2)
    wall = arranged_wall(HK_TWO, draws="P 9m")
    game = Game(settings, "two", wall=wall)
    game.apply(Action(0, "discard", T("P")[0]))
    pass_all(game)
    assert game.turn == 1
    game.apply(Action(1, "discard", T("5p")[0]))
    assert sorted(game.to_act()) == [0, 2]
    game.apply(Action(0, "win"))
    game.apply(Action(2, "win"))
    o = game.outcome
    assert o is not None and o.winners == (2, 0)
    match.record(game)
    assert match.position is not None and match.position.dealer == next_dealer


# ------------------------------------------------------------------ robbing a concealed kong
ORPHANS_HANDS = [
    "1m 1m 1m 1m 2p 3p 4p 5p 6p 7p 2s 3s 4s",
    "9m 1p 9p 1s 9s E S W N C F P P",  # Thirteen Orphans waiting on 1m
    "2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 7m 7m 8m",
    "3p 3p 4p 4p 5p 5p 6p 6p 7p 7p 5s 5s 6s",
]


@pytest.mark.parametrize("rob", [True, False])
def test_thirteen_orphans_robs_a_concealed_kong_only_under_the_house_rule(rob: bool) -> None:
    settings = GameSettings("hk", flowers=False, rob_concealed_kong=rob)
    game = Game(settings, "orphans", wall=arranged_wall(ORPHANS_HANDS, draws="8s"))
    game.apply(Action(0, "kong", T("1m")[0]))
    if rob:
        assert game.phase == "rob" and game.to_act() == [1]
        game.apply(Action(1, "win"))
        o = game.outcome
        assert o is not None and o.winners == (1,) and o.discarder == 0
        assert o.wins[0].hand.context.robbing_kong
        assert o.wins[0].result.winning
        assert game.players[0].concealed.count(T("1m")[0]) == 3
    else:
        assert game.phase == "discard" and game.turn == 0
        assert game.players[0].melds[-1].is_kong and game.players[0].melds[-1].concealed
    assert sorted(game.tile_locations()) == sorted(full_set(False))


def test_a_passed_concealed_kong_rob_completes_the_kong() -> None:
    settings = GameSettings("hk", flowers=False, rob_concealed_kong=True)
    game = Game(settings, "orphans", wall=arranged_wall(ORPHANS_HANDS, draws="8s"))
    game.apply(Action(0, "kong", T("1m")[0]))
    game.apply(Action(1, "pass"))
    assert game.phase == "discard" and game.turn == 0
    assert game.players[0].melds[-1].concealed and T("1m")[0] not in game.players[0].concealed
    assert sorted(game.tile_locations()) == sorted(full_set(False))


# ------------------------------------------------------------------ a false win
JUNK = [
    "1m 4m 7m 2p 5p 8p 3s 6s 9s E S W N",
    "2m 2m 3m 3m 4m 4m 5m 5m 6m 6m 7m 7m 8m",
    "3p 3p 4p 4p 5p 5p 6p 6p 7p 7p 1s 1s 2s",
    "C C F F P P 1p 1p 9p 9p 8s 8s 7s",
]


def test_a_false_win_is_refused_by_default() -> None:
    game = Game(GameSettings("mcr", flowers=False), "false", wall=arranged_wall(JUNK, draws="9m"))
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="cannot win"):
        game.apply(Action(0, "win"))
    assert game.snapshot() == before


@pytest.mark.parametrize("rules", ["mcr", "hk"])
def test_a_false_win_pays_the_penalty(rules: str) -> None:
    settings = GameSettings(rules, flowers=False, false_win="penalty")
    expected = (
        10
        if rules == "mcr"
        else (payment_amount(13, find_ruleset("hk").default_options()) + 1) // 2
    )
    assert find_ruleset(rules).false_win_penalty({}) == expected
    match = Match(settings, seed="false", hands=1)
    game = Game(settings, "false", wall=arranged_wall(JUNK, draws="9m"))
    game.apply(Action(0, "win"))
    o = game.outcome
    assert o is not None and o.kind == "false_win" and o.discarder == 0 and not o.wins
    assert sorted(o.payments) == [(0, s, expected) for s in (1, 2, 3)]
    state = match.record(game)
    assert list(state.balances) == [-3 * expected, expected, expected, expected]
    # a seat with nothing to do cannot declare, even a false win
    game2 = Game(settings, "false", wall=arranged_wall(JUNK, draws="9m"))
    with pytest.raises(IllegalAction):
        game2.apply(Action(2, "win"))


def test_taiwan_states_no_false_win_penalty() -> None:
    with pytest.raises(ValueError, match="no penalty"):
        GameSettings("tw", false_win="penalty")
    with pytest.raises(ValueError, match="false_win"):
        GameSettings("mcr", false_win="fine")


# ------------------------------------------------------------------ kongs from a locked hand
LOCKED = [
    "1m 1m 9m 9m E E S S W W N N C C F F",
    "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 1s 2p 3p 5s 5s",  # ready: 1p/4p
    "2s 2s 3s 3s 4s 4s 6s 6s 7s 7s 8s 8s 9s 9s 2m 3m",
    "P P 4p 5p 6p 6p 7p 7p 8p 8p 9p 9p 5m 6m 7m 7m",
]


@pytest.mark.parametrize("allowed", [True, False])
def test_a_locked_hand_may_kong_when_its_wait_does_not_change(allowed: bool) -> None:
    settings = GameSettings("tw", locked_kongs=allowed)
    wall = arranged_wall(LOCKED, draws="F 1s C", flowers=True)
    game = Game(settings, "lock", wall=wall)
    game.apply(Action(1, "ready"))
    pass_all(game)
    game.apply(Action(0, "discard", T("F")[0]))
    pass_all(game)
    assert game.turn == 1 and game.drawn == T("1s")[0]
    kong = Action(1, "kong", T("1s")[0])
    assert (kong in game.legal_actions(1)) is allowed
    if allowed:
        game.apply(kong)
        assert game.players[1].melds[-1].is_kong and game.turn == 1
        assert game.players[1].declared_ready == "tian_ting"
        assert sorted(game.tile_locations()) == sorted(full_set(True))


def test_a_locked_kong_that_changes_the_wait_is_refused() -> None:
    # 1s 1s 1s 2s waits 2s and 3s... a kong of 1s leaves 2s alone (wait 2s only)
    hands = [
        "1m 1m 9m 9m E E S S W W N N C C F F",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 1s 2s 4p 5p 6p",
        "3s 3s 4s 4s 5s 6s 6s 6s 7s 7s 8s 8s 9s 9s 2m 3m",
        "P P 4p 5p 6p 6p 7p 7p 8p 8p 9p 9p 5m 6m 7m 7m",
    ]
    settings = GameSettings("tw", locked_kongs=True)
    game = Game(settings, "lock2", wall=arranged_wall(hands, draws="F 1s C", flowers=True))
    game.apply(Action(1, "ready"))
    pass_all(game)
    game.apply(Action(0, "discard", T("F")[0]))
    pass_all(game)
    assert game.turn == 1 and game.drawn == T("1s")[0]
    assert Action(1, "kong", T("1s")[0]) not in game.legal_actions(1)


def test_locked_kongs_need_a_declared_ready_hand() -> None:
    with pytest.raises(ValueError, match="declared-ready"):
        GameSettings("hk", locked_kongs=True)


# ------------------------------------------------------------------ four kongs
def test_taiwan_four_kongs_end_the_hand_and_the_dead_wall_holds() -> None:
    hands = [
        "1m 1m 1m 1m 2m 2m 2m 2m 3m 3m 3m 3m 4m 4m 4m 4m",
        "1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4s 5s 6s 7s",
        "E E E S S S W W W N N N C C C 8s",
        "1p 2p 3p 4p 5p 6p 7p 8p 9p 1s 2s 3s 4s 5s 6s 7s",
    ]
    wall = arranged_wall(hands, draws="5m", back="6m 7m 8m 5m", flowers=True)
    game = Game(GameSettings("tw"), "kongs", wall=wall)
    pass_all(game)  # nobody is ready after the deal here, but pass any declaration
    assert game.turn == 0 and game.phase == "discard"
    left = game.tail - game.head
    for t in ("1m", "2m", "3m", "4m"):
        game.apply(Action(0, "kong", T(t)[0]))
    o = game.outcome
    assert o is not None and o.reason == "four kongs" and o.winners == (0,)
    assert o.dealer_passes
    assert game.tail - game.head == left - 4 >= game.settings.kept_back
    assert sorted(game.tile_locations()) == sorted(full_set(True))
