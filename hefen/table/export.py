"""Export a table's history as CSV (for spreadsheets) or JSON (complete)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from hefen.table.core import Event, TableState

EXPORT_FORMAT = "hefen-table/1"


def to_json(state: TableState, events: Sequence[Event] | None = None) -> str:
    """Settings, seats, every hand with its payments and running balances, and
    (when given) the full event log, as indented JSON. No secrets."""
    data: dict[str, Any] = {"format": EXPORT_FORMAT, **state.to_dict()}
    if events is not None:
        data["events"] = [e.to_dict() for e in events]
    return json.dumps(data, ensure_ascii=False, indent=2)


def _seat_label(state: TableState, seat: int) -> str:
    s = state.seats[seat]
    return f"{s.initial_wind} {s.name}"


def to_csv(state: TableState) -> str:
    """One row per hand: what happened, then each seat's change and running balance."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    labels = [_seat_label(state, i) for i in range(4)]
    writer.writerow(
        [
            "hand",
            "id",
            "game",
            "round_wind",
            "dealer",
            "dealer_streak",
            "result",
            "winner",
            "discarder",
            "value",
            "unit",
            "source",
            "corrected",
            *[f"{label} change" for label in labels],
            *[f"{label} balance" for label in labels],
        ]
    )

    def name(seat: int | None) -> str:
        return "" if seat is None else state.seats[seat].name

    for h in state.hands:
        if h.kind == "draw":
            result, discarder = "draw", ""
        else:
            result = "self-draw" if h.self_draw else "discard"
            discarder = name(h.discarder)
        writer.writerow(
            [
                h.number,
                h.id,
                h.position.game,
                h.position.round_wind,
                name(h.position.dealer),
                h.position.dealer_streak,
                result,
                name(h.winner),
                discarder,
                "" if h.value is None else h.value,
                h.unit if h.kind == "win" else "",
                h.source or "",
                "yes" if h.corrections else "",
                *h.changes,
                *h.balances,
            ]
        )
    return out.getvalue()
