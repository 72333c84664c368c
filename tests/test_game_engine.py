"""The game engine: invariants over seeded games, replay, refusals, derived contexts."""

from __future__ import annotations

import copy
import json

import pytest

from hefen.game import Action, Game, GameSettings, IllegalAction, Match, make_bot
from hefen.game.engine import full_set
from hefen.game.record import dumps, game_lines, match_lines, replay
from hefen.tiles import tiles_from_str


def T(s: str) -> list[int]:
    return tiles_from_str(s.split())


def arranged_wall(
    rules: str, hands: list[str], draws: str = "", back: str = "", flowers: bool = False
) -> list[int]:
    """A wall dealing ``hands`` (dealer first, in turn order), then ``draws``
    from the front, with ``back`` drawn first from the end."""
    front = [t for h in hands for t in T(h)] + T(draws)
    end = T(back)
    rest = full_set(flowers)
    for t in front + end:
        rest.remove(t)
    # flowers of the rest go in the middle, far from both ends
    rest.sort(key=lambda t: (t >= 34, t))
    return front + rest + list(reversed(end))


def play_through(game: Game, bots: list) -> None:  # type: ignore[type-arg]
    full = sorted(game.wall)
    while game.phase != "end":
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game, seat))
        assert sorted(game.tile_locations()) == full


def pass_all(game: Game) -> None:
    """Every seat asked to answer passes."""
    if game.phase in ("discard", "end"):
        return
    for s in game.to_act():
        game.apply(Action(s, "pass"))


# ------------------------------------------------------------------ invariants
@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_tiles_conserved_and_every_hand_ends_in_a_win_or_a_draw(rules: str) -> None:
    seen = set()
    for seed in range(12):
        game = Game(GameSettings(rules), seed, dealer=seed % 4)
        kinds = ("simple", "strong") if seed < 3 else ("simple",)
        bots = [make_bot(kinds[i % len(kinds)], seed) for i in range(4)]
        assert len(game.wall) == (144 if rules == "tw" else 144)
        play_through(game, bots)
        o = game.outcome
        assert o is not None and o.kind in ("win", "draw")
        seen.add(o.kind)
        balance = [0.0] * 4
        for f, t, a in o.payments:
            assert f != t and a > 0
            balance[f] -= a
            balance[t] += a
        assert abs(sum(balance)) < 1e-9
        if o.kind == "win":
            assert all(w.result.valid and w.result.winning for w in o.wins)
            assert all(t in o.winners for _, t, _ in o.payments)
        else:
            assert not o.payments
    assert "win" in seen


def test_without_flowers_the_wall_has_136_tiles() -> None:
    game = Game(GameSettings("mcr", flowers=False), 3)
    assert len(game.wall) == 136
    play_through(game, [make_bot("simple")] * 4)
    assert sorted(game.tile_locations()) == sorted(full_set(False))


def test_taiwan_deals_sixteen_tiles() -> None:
    game = Game("tw", 5)
    while game.phase == "declare":
        pass_all(game)
    sizes = sorted(len(p.concealed) + 3 * len(p.melds) for p in game.players)
    assert sizes == [16, 16, 16, 17] or game.phase == "end"


@pytest.mark.parametrize("rules", ["mcr", "hk", "tw"])
def test_replaying_a_record_reproduces_the_state(rules: str) -> None:
    for seed in range(3):
        game = Game(rules, seed)
        play_through(game, [make_bot("strong", seed), make_bot("simple")] * 2)
        text = dumps(game_lines(game))
        again = replay(text.splitlines()).games[0]
        assert again.snapshot() == game.snapshot()


def test_a_replayed_match_has_the_same_ledger() -> None:
    match = Match(GameSettings("hk"), seed=11, hands=4)
    bots = [make_bot("strong"), make_bot("simple"), make_bot("strong"), make_bot("simple")]
    state = match.play(lambda g, s: bots[s].choose(g, s))
    assert len(state.hands) == 4
    assert sum(state.balances) == 0
    text = dumps(match_lines(match))
    for line in text.splitlines():
        json.loads(line)
    rep = replay(text.splitlines())
    assert rep.match is not None
    assert rep.match.balances == state.balances
    assert [g.snapshot() for g in rep.games] == [hp.game.snapshot() for hp in match.played]


def test_a_tampered_record_is_refused() -> None:
    game = Game("mcr", 1)
    play_through(game, [make_bot("simple")] * 4)
    lines = dumps(game_lines(game)).splitlines()
    first_action = next(i for i, ln in enumerate(lines) if '"action"' in ln)
    obj = json.loads(lines[first_action])
    obj["seat"] = (obj["seat"] + 1) % 4
    lines[first_action] = json.dumps(obj)
    with pytest.raises(ValueError):
        replay(lines)


def test_match_rotates_the_dealer_and_settles_into_the_table_ledger() -> None:
    match = Match(GameSettings("mcr"), seed=2, hands=8)
    bots = [make_bot("simple")] * 4
    state = match.play(lambda g, s: bots[s].choose(g, s))
    dealers = [h.position.dealer for h in state.hands]
    assert dealers[:4] == [0, 1, 2, 3]  # MCR: the winds rotate every hand
    assert [h.position.round_wind for h in state.hands][4] == "S"
    for record, hp in zip(state.hands, match.played, strict=True):
        o = hp.game.outcome
        assert o is not None
        assert record.kind == o.kind
        assert [(p.payer, p.payee, p.amount) for p in record.payments] == list(o.payments)


# ------------------------------------------------------------------ refusals
def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = Game(GameSettings("mcr", flowers=False), 4)
    before = copy.deepcopy(game.snapshot())
    held = set(game.players[0].concealed)
    missing = next(t for t in range(34) if t not in held)
    bad = [
        Action(1, "discard", game.players[1].concealed[0]),  # not its turn
        Action(0, "discard", missing),  # not held
        Action(0, "chow", 0),
        Action(0, "pung", missing),
        Action(2, "pass"),
    ]
    for a in bad:
        with pytest.raises(IllegalAction) as err:
            game.apply(a)
        assert str(err.value).endswith(".")
        assert game.snapshot() == before


def test_a_chow_is_only_from_the_left() -> None:
    hands = [
        "1m 1m 9m 9m E E S S W W N N C",
        "2p 3p 7s 7s 8s 8s 9s 9s C C F F P",  # next: may chow 4p
        "2p 3p 1s 1s 2s 2s 3s 3s F P P N E",  # across: may not
        "1p 9p 5s 5s 6s 6s 4m 4m 5m 5m 6m 6m 7m",
    ]
    wall = arranged_wall("mcr", hands, draws="4p")
    game = Game(GameSettings("mcr", flowers=False), "chow", wall=wall)
    game.apply(Action(0, "discard", T("4p")[0]))
    assert Action(1, "chow", T("2p")[0]) in game.legal_actions(1)
    assert all(a.kind != "chow" for a in game.legal_actions(2))
    before = game.snapshot()
    with pytest.raises(IllegalAction, match="left"):
        game.apply(Action(2, "chow", T("2p")[0]))
    assert game.snapshot() == before


def test_a_win_below_the_mcr_minimum_is_not_a_legal_move() -> None:
    # complete on 9p but worth less than 8 points on a discard
    hands = [
        "1m 2m 3m 4p 5p 6p 7s 8s 9s 2m 3m 7p 8p",
        "1m 1m 9m 9m E E S S W W N N C",
        "2s 2s 3s 3s F F P P 5m 5m 6m 6m 7m",
        "1p 1p 4s 4s 6s 6s 8m 8m 9s 9s C C F",
    ]
    wall = arranged_wall("mcr", hands, draws="E 9p")
    game = Game(GameSettings("mcr", flowers=False), "min", wall=wall)
    game.apply(Action(0, "discard", T("E")[0]))
    pass_all(game)
    # seat 1 draws 9p and discards it; seat 0 could complete 123m 456p 789s 23m? no: 7p8p+9p
    game.apply(Action(1, "discard", T("9p")[0]))
    assert all(a.kind != "win" for a in game.legal_actions(0))
    with pytest.raises(IllegalAction):
        game.apply(Action(0, "win"))


# ------------------------------------------------------------------ derived contexts
def test_kong_replacement_win_context() -> None:
    hands = [
        "E E E E 1m 2m 3m 4m 5m 6m 7m 8m C",
        "1p 1p 9p 9p 2s 2s 3s 3s 4s 4s 5s 5s 6s",
        "1s 1s 2p 2p 3p 3p 4p 4p 5p 5p 6p 6p 7p",
        "S S W W N N F F P P 8p 8p 9s",
    ]
    wall = arranged_wall("mcr", hands, draws="C", back="9m")
    game = Game(GameSettings("mcr", flowers=False), "kong", wall=wall)
    assert Action(0, "kong", T("E")[0]) in game.legal_actions(0)
    game.apply(Action(0, "kong", T("E")[0]))
    assert game.drawn == T("9m")[0] and game.draw_source == "replacement"
    assert Action(0, "win") in game.legal_actions(0)
    game.apply(Action(0, "win"))
    o = game.outcome
    assert o is not None and o.winners == (0,)
    ctx = o.wins[0].hand.context
    assert ctx.self_drawn and ctx.kong_replacement and not ctx.double_kong_replacement
    assert o.wins[0].result.count("out_with_replacement_tile") == 1


def test_robbing_a_kong_context() -> None:
    hands = [
        "5p E E S S W W N N C C F F",
        "5p 5p 1m 1m 9m 9m 2s 2s 8s 8s P P 3m",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 4p 6p",
        "1p 1p 2p 2p 3p 3p 3s 3s 4s 4s 6s 6s 7s",
    ]
    # dealer draws P, discards 5p; seat 1 pungs and discards 3m; then draws:
    # seat 2 N?  (junk), seat 3 junk, seat 0 junk, seat 1 the fourth 5p
    wall = arranged_wall("mcr", hands, draws="9s 7p 7p 9s 5p")
    game = Game(GameSettings("mcr", flowers=False), "rob", wall=wall)
    game.apply(Action(0, "discard", T("5p")[0]))
    assert Action(2, "win") in game.legal_actions(2)
    game.apply(Action(1, "pung", T("5p")[0]))
    game.apply(Action(2, "pass"))
    game.apply(Action(1, "discard", T("3m")[0]))
    pass_all(game)
    for seat in (2, 3, 0):
        assert game.turn == seat
        game.apply(Action(seat, "discard", game.drawn))
        pass_all(game)
    assert game.turn == 1 and game.drawn == T("5p")[0]
    game.apply(Action(1, "kong", T("5p")[0]))
    assert game.phase == "rob" and game.to_act() == [2]
    game.apply(Action(2, "win"))
    o = game.outcome
    assert o is not None and o.winners == (2,) and o.discarder == 1
    ctx = o.wins[0].hand.context
    assert ctx.robbing_kong and not ctx.self_drawn and ctx.discarder == T("S")[0]
    assert o.wins[0].result.count("robbing_the_kong") == 1
    assert sorted(game.tile_locations()) == sorted(full_set(False))


def test_last_tile_of_the_wall_context() -> None:
    hands = [
        "1m 1m 9m 9m E E S S W W N N C",
        "1p 1p 9p 9p 2s 2s 3s 3s 4s 4s 5s 5s 6s",
        "1s 1s 2p 2p 3p 3p 4p 4p 5p 5p 6p 6p 7p",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 7s 8s C C",
    ]
    wall = arranged_wall("mcr", hands)
    wall.remove(T("9s")[0])
    wall.append(T("9s")[0])  # the very last tile of the wall
    game = Game(GameSettings("mcr", flowers=False), "last", wall=wall)
    while not (game.phase == "discard" and game.wall_remaining == 0):
        if game.phase == "discard":
            game.apply(Action(game.turn, "discard", game.drawn))
        else:
            pass_all(game)
    assert game.turn == 3 and game.drawn == T("9s")[0]
    game.apply(Action(3, "win"))
    o = game.outcome
    assert o is not None
    assert o.wins[0].hand.context.last_tile_of_wall
    assert o.wins[0].result.count("last_tile_draw") == 1


def test_heavenly_hand_in_hong_kong() -> None:
    hands = [
        "1m 2m 3m 4m 5m 6m 7m 8m 9m C C C E",
        "1p 1p 9p 9p 2s 2s 3s 3s 4s 4s 5s 5s 6s",
        "1s 1s 2p 2p 3p 3p 4p 4p 5p 5p 6p 6p 7p",
        "S S W W N N F F P P 8p 8p 9s",
    ]
    wall = arranged_wall("hk", hands, draws="E")
    game = Game(GameSettings("hk", flowers=False), "heaven", wall=wall)
    assert Action(0, "win") in game.legal_actions(0)
    game.apply(Action(0, "win"))
    o = game.outcome
    assert o is not None
    assert o.wins[0].hand.context.heavenly
    assert o.wins[0].result.limit


def test_head_bump_and_multiple_winners() -> None:
    hands = [
        "5p E E S S W W N N C C F F",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 4p 6p",
        "3s 3s 1m 1m 9s 9s 2s 2s 6s 6s 5s 5s P",
        "1p 1p 1p 2p 3p 4p 6p 7p 8p 9p 9p 9p 5p",
    ]
    for multiple, winners in ((False, (1,)), (True, (1, 3))):
        wall = arranged_wall("mcr", hands, draws="P")
        game = Game(GameSettings("mcr", flowers=False, multiple_winners=multiple), "two", wall=wall)
        game.apply(Action(0, "discard", T("5p")[0]))
        assert sorted(game.to_act()) == [1, 3]
        game.apply(Action(3, "win"))
        game.apply(Action(1, "win"))
        o = game.outcome
        assert o is not None and o.winners == winners
        assert {t for _, t, _ in o.payments} == set(winners)


def test_taiwan_declared_ready_locks_the_hand() -> None:
    hands = [
        "1m 1m 9m 9m E E S S W W N N C C F F",
        "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 1s 2p 3p 5s 5s",  # ready: 1p/4p
        "2s 2s 3s 3s 4s 4s 6s 6s 7s 7s 8s 8s 9s 9s 2m 3m",
        "P P 4p 5p 6p 6p 7p 7p 8p 8p 9p 9p 5m 6m 7m 7m",
    ]
    wall = arranged_wall("tw", hands, draws="F 9s C", flowers=True)
    game = Game(GameSettings("tw"), "ting", wall=wall)
    assert game.phase == "declare" and 1 in game.to_act()
    game.apply(Action(1, "ready"))
    pass_all(game)
    assert game.players[1].declared_ready == "tian_ting"
    game.apply(Action(0, "discard", T("F")[0]))
    pass_all(game)
    assert game.turn == 1
    assert game.legal_actions(1) == [Action(1, "discard", game.drawn)]
    with pytest.raises(IllegalAction, match="declared-ready"):
        game.apply(Action(1, "discard", T("1m")[0]))


def test_taiwan_eight_flowers_win_at_once() -> None:
    hands = [
        "1m 1m 9m 9m E E S S W W N N C C F F",
        "1h 2h 3h 4h 5h 6h 7h 8h 1m 2m 3m 4m 5m 6m 7m 8m",
        "2s 2s 3s 3s 4s 4s 6s 6s 7s 7s 8s 8s 9s 9s 2m 3m",
        "P P 4p 5p 6p 6p 7p 7p 8p 8p 9p 9p 5m 6m 7m 7m",
    ]
    wall = arranged_wall("tw", hands, back="1p 2p 3p 4p 5p 6p 7p 8p", flowers=True)
    game = Game(GameSettings("tw"), "eight", wall=wall)
    o = game.outcome
    assert o is not None and o.reason == "eight flowers" and o.winners == (1,)
    assert o.wins[0].result.winning


def test_taiwan_seven_rob_one() -> None:
    hands = [
        "1m 1m 9m 9m E E S S W W N N C C F F",
        "1h 2h 3h 4h 5h 6h 7h 1m 2m 3m 4m 5m 6m 7m 8m 9m",
        "8h 2s 3s 3s 4s 4s 6s 6s 7s 7s 8s 8s 9s 9s 2m 3m",
        "P P 4p 5p 6p 6p 7p 7p 8p 8p 9p 9p 5m 6m 7m 7m",
    ]
    wall = arranged_wall("tw", hands, back="1p 2p 3p 4p 5p 6p 7p 8p", flowers=True)
    game = Game(GameSettings("tw"), "rob7", wall=wall)
    assert game.phase == "rob_flower" and game.to_act() == [1]
    game.apply(Action(1, "win"))
    o = game.outcome
    assert o is not None and o.reason == "seven rob one" and o.discarder == 2
    assert [f for f, _, _ in o.payments] == [2]


# ------------------------------------------------------------------ views
def test_a_seat_view_never_shows_another_seats_concealed_tiles() -> None:
    game = Game("mcr", 9)
    bots = [make_bot("simple")] * 4
    for _ in range(30):
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(game, seat))
    for me in range(4):
        view = game.view(me)
        for s, info in enumerate(view["seats"]):
            assert ("concealed" in info) == (s == me)
        # swapping another seat's hidden tiles with wall tiles changes nothing it sees
        other = game.after(me)[0]
        twin = copy.deepcopy(game)
        hidden = twin.players[other].concealed
        wall_tiles = twin.wall[twin.head : twin.head + len(hidden)]
        twin.wall[twin.head : twin.head + len(hidden)] = hidden
        twin.players[other].concealed = wall_tiles
        v2 = twin.view(me)
        v1 = game.view(me)
        v1.pop("legal_actions")
        v2.pop("legal_actions")
        assert v1 == v2
    spectator = json.dumps(game.public_view())
    assert '"concealed":' not in spectator.replace('"concealed": true', "")


def test_the_engine_reads_the_rules_of_play_from_the_ruleset() -> None:
    from hefen.decompose import FORMS_ALL, FORMS_STANDARD
    from hefen.game.engine import forms_for
    from hefen.ruleset import find_ruleset, rulesets

    for r in rulesets():
        settings = GameSettings(r.key)
        assert settings.sets == r.sets and settings.hand_size == r.concealed_size
        assert forms_for(r.key) == r.decompose_forms <= FORMS_ALL
        if r.flowers_always:
            with pytest.raises(ValueError, match="always plays with the eight flowers"):
                GameSettings(r.key, flowers=False)
    assert find_ruleset("mcr").decompose_forms == FORMS_ALL
    assert find_ruleset("tw").decompose_forms == FORMS_STANDARD
    with pytest.raises(ValueError, match="rules must be one of mcr, hk, tw"):
        GameSettings("riichi")
