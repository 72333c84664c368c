"""The end of a session: the fewest transfers that settle every balance.

Balances are what each seat is up (positive) or down (negative) and sum to
zero. :func:`transfers` answers a list of ``(payer, payee, amount)`` such that
paying them leaves every seat at exactly zero, with as few transfers as
possible: ``n - k`` where ``k`` is the most groups the seats split into whose
balances each sum to zero (found exactly over the subsets, so at most
``n - 1`` transfers). Amounts are exact (:class:`fractions.Fraction` inside).

>>> transfers([26, 4, -30, 0])
[(2, 0, 26), (2, 1, 4)]
>>> transfers([10, -10, 5, -5])
[(1, 0, 10), (3, 2, 5)]
>>> transfers([0, 0, 0, 0])
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hefen.table.errors import TableError
from hefen.table.settlement import Amount, to_amount, to_fraction

__all__ = ["Transfer", "transfers"]

Transfer = tuple[int, int, Amount]

#: above this many seats the groups are not searched exhaustively
EXACT_LIMIT = 12


def _greedy(group: list[tuple[int, Fraction]]) -> list[tuple[int, int, Fraction]]:
    """Settle one zero-sum group with at most ``len(group) - 1`` transfers:
    the largest debtor pays the largest creditor, again and again."""
    debtors = sorted(((i, -v) for i, v in group if v < 0), key=lambda x: (-x[1], x[0]))
    creditors = sorted(((i, v) for i, v in group if v > 0), key=lambda x: (-x[1], x[0]))
    out: list[tuple[int, int, Fraction]] = []
    d = c = 0
    debt = [v for _, v in debtors]
    credit = [v for _, v in creditors]
    while d < len(debtors) and c < len(creditors):
        amount = min(debt[d], credit[c])
        out.append((debtors[d][0], creditors[c][0], amount))
        debt[d] -= amount
        credit[c] -= amount
        if debt[d] == 0:
            d += 1
        if credit[c] == 0:
            c += 1
    return out


def _groups(values: list[tuple[int, Fraction]]) -> list[list[tuple[int, Fraction]]]:
    """The most zero-sum groups the non-zero balances split into."""
    n = len(values)
    if n > EXACT_LIMIT:
        return [values]
    full = (1 << n) - 1
    sums = [Fraction(0)] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low][1]
    best: dict[int, tuple[int, int]] = {0: (0, 0)}  # mask -> (groups, last group)
    for mask in range(1, full + 1):
        if sums[mask] != 0:
            continue
        low = mask & -mask  # the group holding the lowest seat of ``mask``
        top = (0, mask)
        sub = mask
        while sub:
            if sub & low and sums[sub] == 0 and (mask ^ sub) in best:
                count = best[mask ^ sub][0] + 1
                if count > top[0]:
                    top = (count, sub)
            sub = (sub - 1) & mask
        best[mask] = top
    out: list[list[tuple[int, Fraction]]] = []
    mask = full
    while mask:
        sub = best[mask][1]
        out.append([values[i] for i in range(n) if sub >> i & 1])
        mask ^= sub
    return sorted(out, key=lambda g: g[0][0])


def transfers(balances: Sequence[Amount]) -> list[Transfer]:
    """The fewest ``(payer, payee, amount)`` transfers that bring every
    balance to zero; raises :class:`TableError` if they do not sum to zero."""
    exact = [to_fraction(b) for b in balances]
    if sum(exact) != 0:
        raise TableError("The balances do not add up to zero, so they cannot be settled.")
    values = [(i, v) for i, v in enumerate(exact) if v != 0]
    if not values:
        return []
    out: list[Transfer] = []
    for group in _groups(values):
        out.extend((p, q, to_amount(a)) for p, q, a in _greedy(group))
    return out
