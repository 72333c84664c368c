"""Typed request and response models of the JSON API (they make the OpenAPI
document). The score models mirror the interchange format of
``hand-format.md``; unknown keys are refused, as the format requires."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from hefen.ruleset import DEFAULT_RULESET, ruleset_keys

Wind = Literal["E", "S", "W", "N"]
#: The ``rules`` of a hand object: a key of the ruleset registry (a string
#: to the type checker, the registry's keys to pydantic and the OpenAPI document).
if TYPE_CHECKING:
    Rules = str
else:
    Rules = Literal[ruleset_keys()]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Meld(Strict):
    kind: Literal["chow", "pung", "kong"]
    tiles: list[str] = Field(examples=[["C", "C", "C"]])
    concealed: bool = Field(False, description="Only a kong may be concealed.")


class Context(Strict):
    win: Literal["discard", "self_draw"] = "discard"
    seat_wind: Wind = "E"
    round_wind: Wind = "E"
    last_tile_of_wall: bool = False
    kong_replacement: bool = False
    double_kong_replacement: bool = False
    robbing_kong: bool = False
    last_of_kind: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    declared_ready: Literal["tian_ting", "di_ting"] | None = None
    discarder: Wind | None = None
    dealer: Wind = "E"
    dealer_streak: int = Field(default=0, ge=0)


class ScoreRequest(Strict):
    """One hand in the interchange format."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra=cast(
            Any,
            {
                "examples": [
                    {
                        "rules": DEFAULT_RULESET,
                        "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "C", "C"]
                        + ["E", "E"],
                        "melds": [],
                        "win_tile": "E",
                        "flowers": ["1h"],
                        "context": {"win": "discard", "seat_wind": "E", "round_wind": "E"},
                        "options": {},
                    }
                ]
            },
        ),
    )

    rules: Rules
    hand: list[str] = Field(description="Concealed tiles, without the winning tile and melds.")
    melds: list[Meld] = []
    win_tile: str
    flowers: list[str] = []
    context: Context = Field(default_factory=Context)
    options: dict[str, Any] = {}


class PatternOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    value: int | float
    count: int = 1
    uses: list[str] | None = Field(None, description="The sets or tiles the pattern used.")
    names: dict[str, str] | None = Field(None, description="The name in other languages.")


class PaymentOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    from_: Wind = Field(alias="from")
    to: Wind
    amount: int | float


class ScoreResult(BaseModel):
    """The result object; an illegal hand has ``valid: false`` and an ``error``."""

    model_config = ConfigDict(extra="allow")

    rules: str
    valid: bool
    winning: bool | None = None
    total: int | float | None = None
    unit: str | None = None
    limit: bool | None = None
    patterns: list[PatternOut] | None = None
    payments: list[PaymentOut] | None = None
    error: str | None = None
    notes: list[str] | None = None


class ErrorOut(BaseModel):
    error: str = Field(description="What is wrong, in one sentence.")


class WaitOut(BaseModel):
    """One tile that completes the hand: its unseen copies and what it scores."""

    model_config = ConfigDict(extra="allow")

    tile: str
    unseen: int
    discard: dict[str, Any] | None = None
    self_draw: dict[str, Any] | None = None


class WaitsOut(BaseModel):
    """``hefen.analysis.waits(...).to_dict()``: every wait of a ready hand."""

    model_config = ConfigDict(extra="allow")

    waits: list[WaitOut]
