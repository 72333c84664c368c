"""Dealer rotation, streak and round wind (hefen.table.progression)."""

from __future__ import annotations

from hefen.table import first_position, next_position
from hefen.table.progression import Position


def _run(ruleset: str, winners: list[int | None], keep_on_draw: bool = True) -> list[Position]:
    pos = first_position(ruleset)
    out = [pos]
    for w in winners:
        pos = next_position(pos, winner=w, dealer_keeps_on_draw=keep_on_draw)
        out.append(pos)
    return out


def test_mcr_schedule_16_hands() -> None:
    positions = _run("mcr", [0] * 16)
    winds = ["".join(p.seat_winds) for p in positions]
    # East round: the winds move one seat every hand (South becomes East).
    assert winds[:4] == ["ESWN", "NESW", "WNES", "SWNE"]
    # South round: East and South players swapped, West and North swapped.
    assert winds[4] == "SENW"
    # West round and North round start by the standard scheme.
    assert winds[8] == "NWES"
    assert winds[12] == "WNSE"
    assert [p.round_wind for p in positions[:16]] == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4
    assert all(p.dealer_streak == 0 for p in positions)
    assert [p.seat_winds[p.dealer] for p in positions] == ["E"] * 17
    # hand 17 starts a new game with the first seating again
    assert positions[16].game == 2 and winds[16] == "ESWN" and positions[16].round_wind == "E"
    # each seat has each wind exactly once per round and deals once per round
    for r in range(4):
        dealers = {positions[4 * r + h].dealer for h in range(4)}
        assert dealers == {0, 1, 2, 3}
    # every seat is East prevalent... each player sits each starting wind once
    starts = [positions[4 * r].seat_winds for r in range(4)]
    for seat in range(4):
        assert sorted(s[seat] for s in starts) == ["E", "N", "S", "W"]


def test_hk_dealer_keeps_on_win_and_draw_then_passes() -> None:
    positions = _run("tw", [0, None, 2, 1, 1])
    assert [p.dealer for p in positions] == [0, 0, 0, 1, 1, 1]
    assert [p.dealer_streak for p in positions] == [0, 1, 2, 0, 1, 2]
    assert positions[3].seat_winds == ("N", "E", "S", "W")
    assert all(p.round_wind == "E" for p in positions)


def test_draw_passes_when_setting_off() -> None:
    positions = _run("hk", [None], keep_on_draw=False)
    assert positions[1].dealer == 1 and positions[1].dealer_streak == 0


def test_round_wind_advances_after_each_seat_dealt() -> None:
    # each hand won by the next seat: the deal passes every hand
    winners = [1, 2, 3, 0, 1, 2, 3, 0] + [1, 2, 3, 0] * 2
    positions = _run("hk", winners)
    assert [p.round_wind for p in positions[:9]] == ["E"] * 4 + ["S"] * 4 + ["W"]
    assert positions[16].round_wind == "E" and positions[16].game == 2
    assert positions[4].dealer == 0 and positions[4].hand_in_round == 1
    # repeats don't advance the round
    positions = _run("tw", [0, 0, 0, 1])
    assert positions[3].round_wind == "E" and positions[3].dealer_streak == 3
    assert positions[4].dealer == 1 and positions[4].hand_in_round == 5
