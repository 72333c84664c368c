"""The end-of-session transfers (hefen.table.transfers): exact and fewest."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hefen.table import TableError
from hefen.table.transfers import transfers


def _settle(balances: list[Fraction], moves: list[tuple[int, int, int | float]]) -> list[Fraction]:
    left = list(balances)
    for payer, payee, amount in moves:
        assert Fraction(str(amount)) > 0
        assert payer != payee
        left[payer] += Fraction(str(amount))
        left[payee] -= Fraction(str(amount))
    return left


def _fewest(balances: list[Fraction]) -> int:
    """n - (most zero-sum groups), by brute force over partitions."""
    seats = [i for i, b in enumerate(balances) if b != 0]

    def most(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = 0
        for k in range(len(others) + 1):
            for extra in combinations(others, k):
                group = (first, *extra)
                if sum(balances[i] for i in group) == 0:
                    left = tuple(i for i in others if i not in extra)
                    best = max(best, 1 + most(left))
        return best

    return len(seats) - most(tuple(seats))


def test_examples() -> None:
    assert transfers([26, 4, -30, 0]) == [(2, 0, 26), (2, 1, 4)]
    assert transfers([10, -10, 5, -5]) == [(1, 0, 10), (3, 2, 5)]
    assert transfers([0, 0, 0, 0]) == []
    assert transfers([1.5, -0.5, -1, 0]) == [(2, 0, 1), (1, 0, 0.5)]


def test_unbalanced_is_one_sentence() -> None:
    with pytest.raises(TableError, match="do not add up to zero"):
        transfers([1, 0, 0, 0])


halves = st.integers(-2000, 2000).map(lambda n: Fraction(n, 2))


@given(st.lists(halves, min_size=1, max_size=6))
def test_transfers_settle_exactly_with_at_most_n_minus_one(values: list[Fraction]) -> None:
    balances = values + [-sum(values)]
    moves = transfers([float(b) if b.denominator != 1 else int(b) for b in balances])
    assert _settle(balances, moves) == [0] * len(balances)
    assert len(moves) <= len(balances) - 1
    assert len(moves) == _fewest(balances)
