"""Type stub for the compiled core (hefen/_core.c); see hefen.decompose."""

from collections.abc import Callable, Container, Iterable, Sequence

from .mcr.detect import Tally
from .sets import HandSet

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
    /,
) -> None: ...
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
