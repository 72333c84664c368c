"""Type stub for the compiled core (hefen/_core.c); see hefen.decompose."""

from collections.abc import Callable, Container, Iterable, Sequence
from typing import Any, TypeVar

from .hand import Context, Hand, Meld
from .mcr.detect import Tally
from .result import PatternHit, Payment, Result
from .sets import HandSet

_T = TypeVar("_T")

MAX_COUNT: int
#: digest of the hefen/_core.c this was built from (see setup.py)
SOURCE_HASH: str

def is_standard_complete(counts: tuple[int, ...], /) -> bool: ...
def standard_decompositions(
    counts: tuple[int, ...], /
) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]: ...
def is_complete(counts: tuple[int, ...], n_melds: int, forms: Container[str], /) -> bool: ...
def completing_tiles(
    counts: Iterable[int],
    n_melds: int = 0,
    forms: Container[str] = ...,
    fifth: bool = False,
) -> tuple[int, ...]: ...
def _set_pure(
    is_standard_complete: Callable[..., bool],
    standard_decompositions: Callable[..., tuple[tuple[int, tuple[tuple[int, int], ...]], ...]],
    is_complete: Callable[..., bool],
    completing_tiles: Callable[..., tuple[int, ...]],
    ready_discards: Callable[..., tuple[int, ...]] = ...,
    completes_with: Callable[..., bool] = ...,
    /,
) -> None: ...
def completes_with(
    tiles: Sequence[int], n_melds: int, forms: Container[str], tile: int, /
) -> bool: ...
def ready_discards(
    counts: tuple[int, ...], n_melds: int, forms: Container[str], /
) -> tuple[int, ...]: ...
def combination_candidates(groups: list[HandSet], /) -> list[tuple[str, tuple[int, ...]]]: ...
def select_combinations(
    cands: list[tuple[str, tuple[int, ...]]], value: dict[str, int], /
) -> list[tuple[str, tuple[int, ...]]]: ...
def _set_pure_detect(
    combination_candidates: Callable[..., list[tuple[str, tuple[int, ...]]]],
    select_combinations: Callable[..., list[tuple[str, tuple[int, ...]]]],
    handset: type[HandSet],
    /,
) -> None: ...
def suit_patterns(tiles: Sequence[int], t: Tally, /) -> None: ...
def tile_patterns(tiles: Sequence[int], t: Tally, /) -> None: ...
def rank_patterns(tiles: Sequence[int], t: Tally, /) -> None: ...
def tile_hog(tiles: Sequence[int], kongs: int, t: Tally, /) -> None: ...
def _set_pure_tiles(
    suit_patterns: Callable[..., None],
    tile_patterns: Callable[..., None],
    rank_patterns: Callable[..., None],
    tile_hog: Callable[..., None],
    codes: tuple[str, ...],
    /,
) -> None: ...
def suit_table(c: tuple[int, ...], cap: tuple[int, ...], base: int = 0, /) -> tuple[int, ...]: ...
def honor_table(c: tuple[int, ...], cap: tuple[int, ...], base: int = 27, /) -> tuple[int, ...]: ...
def combine(x: tuple[int, ...], y: tuple[int, ...], /) -> tuple[int, ...]: ...
def combine_masks(x: tuple[int, ...], y: tuple[int, ...], /) -> tuple[int, ...]: ...
def best(x: tuple[int, ...], y: tuple[int, ...], sets: int, /) -> int: ...
def best_mask(x: tuple[int, ...], y: tuple[int, ...], sets: int, best: int, /) -> int: ...
def _set_pure_shanten(
    suit_table: Callable[..., tuple[int, ...]],
    honor_table: Callable[..., tuple[int, ...]],
    combine: Callable[..., tuple[int, ...]],
    combine_masks: Callable[..., tuple[int, ...]],
    best: Callable[..., int],
    best_mask: Callable[..., int],
    /,
) -> None: ...
def shanten_number(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    /,
) -> int: ...
def useful_kinds(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    /,
) -> tuple[int, ...]: ...
def plan_shanten(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    /,
) -> int: ...
def plan_shantens(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    /,
) -> tuple[int, ...]: ...
def discard_shantens(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    /,
) -> tuple[int | None, ...]: ...
def _set_pure_hands(
    shanten_number: Callable[..., int],
    useful_kinds: Callable[..., tuple[int, ...]],
    plan_shanten: Callable[..., int],
    plan_shantens: Callable[..., tuple[int, ...]],
    discard_shantens: Callable[..., tuple[int | None, ...]],
    /,
) -> None: ...
def hk_value(
    counts: tuple[int, ...],
    cap: tuple[int, ...],
    n_melds: int,
    forms: tuple[str, ...],
    size: int,
    allow_four_pairs: bool,
    ctx: tuple[Any, ...],
    /,
) -> float: ...
def _set_pure_hk_value(hk_value: Callable[..., float], /) -> None: ...
def new(cls: type[_T], /, *fields: Any) -> _T: ...
def _set_new_types(spec: tuple[tuple[type, tuple[str, ...]], ...], /) -> None: ...
def mcr_score(hand: Hand, opts: dict[str, Any], /) -> Result | bool | None: ...
def _set_mcr(
    ids: tuple[str, ...],
    values_gb: tuple[int | None, ...],
    values_mil: tuple[int | None, ...],
    exclusions: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...],
    keeps: tuple[int, ...],
    labels: tuple[str, ...],
    codes: tuple[str, ...],
    knitted: tuple[tuple[int, ...], ...],
    knitted_codes: tuple[str, ...],
    meld_type: type[Meld],
    names_en: tuple[str, ...],
    names: tuple[dict[str, str], ...],
    hit_type: type[PatternHit],
    /,
) -> None: ...
def _set_mcr_result(
    result_type: type[Result],
    payment_type: type[Payment],
    codes: tuple[str, ...],
    flower_id: str,
    flower_name: str,
    flower_names: dict[str, str],
    seats: tuple[str, ...],
    next_seat_notes: tuple[str, ...],
    min_points: int,
    base: int,
    rules: str,
    unit: str,
    /,
) -> None: ...
def fast_hand(cls: type[Hand], obj: Any, need_win_tile: bool, /) -> Hand | None: ...
def _set_fast_hand(
    parse: dict[str, int],
    melds: dict[tuple[str, tuple[int, ...], bool], Meld],
    top_keys: frozenset[str],
    meld_keys: frozenset[str],
    default_rules: str,
    bonus_first: int,
    fast_context: Callable[[Any], Context | None],
    hand_type: type[Hand],
    py_fast_hand: Callable[..., Hand | None],
    /,
) -> None: ...
def fast_context(obj: Any, /) -> Context | None: ...
def _set_fast_context(
    default: Context,
    bools: frozenset[str],
    winds: frozenset[str],
    wind_codes: dict[str, int],
    win_kinds: frozenset[str],
    ready: frozenset[str],
    cache: dict[Any, Context],
    context_type: type[Context],
    /,
) -> None: ...
def rules_pass(hand: Hand, concealed_size: int, flower_wins: bool, default: Context, /) -> bool: ...
def score_dict(obj: Any, /) -> Result | None: ...
def mcr_score_dict(obj: Any, /) -> Result | None: ...
def _set_mcr_score_dict(
    rules: str,
    resolved: dict[Any, dict[str, Any]],
    default_context: Context,
    concealed_size: int,
    flower_wins: bool,
    /,
) -> None: ...
def hk_score(hand: Hand, opts: dict[str, Any], /) -> Result | bool | None: ...
def _set_hk(
    ids: tuple[str, ...],
    values: tuple[int | None, ...],
    excludes: tuple[tuple[int, ...], ...],
    bonus: tuple[bool, ...],
    names_en: tuple[str, ...],
    names: tuple[dict[str, str], ...],
    labels: tuple[str, ...],
    codes: tuple[str, ...],
    full_sets: tuple[str, ...],
    seats: tuple[str, ...],
    next_seat_notes: tuple[str, ...],
    meld_type: type[Meld],
    hit_type: type[PatternHit],
    payment_type: type[Payment],
    result_type: type[Result],
    rules: str,
    unit: str,
    /,
) -> None: ...
def hk_score_dict(obj: Any, /) -> Result | None: ...
def _set_hk_score_dict(
    rules: str, resolved: dict[tuple[tuple[str, type, Any], ...], dict[str, Any]], /
) -> None: ...
def tw_score(hand: Hand, opts: dict[str, Any], /) -> Result | bool | None: ...
def _set_tw(
    ids: tuple[str, ...],
    values: tuple[int | None, ...],
    excludes: tuple[tuple[int, ...], ...],
    names_en: tuple[str, ...],
    names: tuple[dict[str, str], ...],
    labels: tuple[str, ...],
    codes: tuple[str, ...],
    full_sets: tuple[str, ...],
    eight: str,
    seats: tuple[str, ...],
    next_seat_notes: tuple[str, ...],
    note_flower_win: str,
    note_four_kong_win: str,
    note_four_kongs: str,
    meld_type: type[Meld],
    hit_type: type[PatternHit],
    payment_type: type[Payment],
    result_type: type[Result],
    rules: str,
    unit: str,
    /,
) -> None: ...
def tw_score_dict(obj: Any, /) -> Result | None: ...
def _set_tw_score_dict(
    rules: str, resolved: dict[tuple[tuple[str, type, Any], ...], dict[str, Any]], /
) -> None: ...
