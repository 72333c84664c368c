"""The single entry point: any interchange object or Hand in, a Result out.

``score`` never raises for what it is given, and never lets one input change
another's answer: results are cached by the *validated, canonical* hand (its
parsed tiles, context and resolved options, each value with its type), so
``13`` and ``13.0``, ``false`` and ``0``, ``[]`` and ``null`` are different
keys — and only hands that parsed are cached at all.

A hand that names no ruleset is scored by :data:`~hefen.ruleset.DEFAULT_RULESET`:

>>> score({"hand": ["1m"], "win_tile": "1m"}).error
'The hand has 2 tiles (a kong counting as three) where MCR needs 14 with the winning tile.'
>>> score({"hand": [[[]]]}).error
'Unknown tile code [[]] in the hand.'
>>> score({"hand": "1m"}).error
"'hand' must be a list of tile codes."
>>> score(["not", "a", "hand"]).error
'A hand must be a JSON object.'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from operator import attrgetter
from typing import Any

from .decompose import _CORE
from .errors import HandError
from .hand import Context, Hand
from .result import Result
from .ruleset import DEFAULT_RULESET, find_ruleset, ruleset_keys

__all__ = [
    "score",
    "score_many",
    "score_uncached",
    "score_dict",
    "clear_cache",
    "canonical_key",
    "cores",
]

_CACHE: dict[Any, Result] = {}
CACHE_SIZE = 1 << 16

#: the sentence for an input the validator let through but the scorer could not read
UNREADABLE = "The hand could not be read: it is not a hand object as hand-format.md describes."


#: the plain types whose values are their own keys (beside their type's name)
_SCALARS = {t: t.__name__ for t in (str, int, bool, float, type(None))}


def _typed(v: Any) -> Any:
    """A JSON value as a hashable key that keeps its type (``1`` is not ``True``)."""
    name = _SCALARS.get(type(v))
    if name is not None:
        return (name, v)
    if isinstance(v, Mapping):
        return ("{}", tuple(sorted((str(k), _typed(x)) for k, x in v.items())))
    if isinstance(v, (list, tuple)):
        return ("[]", tuple(_typed(x) for x in v))
    return (type(v).__name__, v)


def canonical_key(hand: Hand) -> Any:
    """The cache key of a validated hand: everything the scorer reads, typed."""
    return _key(hand, find_ruleset(hand.rules).resolve_options(hand.options))


_CONTEXT_FIELDS = tuple(Context.__dataclass_fields__)  # slots dataclass
_context_values = attrgetter(*_CONTEXT_FIELDS)


def _key(hand: Hand, options: Mapping[str, Any]) -> Any:
    """:func:`canonical_key` with the hand's options already resolved."""
    ctx = hand.context
    context = tuple(zip(_CONTEXT_FIELDS, map(_typed, _context_values(ctx)), strict=True))
    return (
        hand.rules,
        hand.concealed,
        tuple((m.kind, m.tiles, m.concealed) for m in hand.melds),
        hand.win_tile,
        hand.flowers,
        context,
        _typed(options),
    )


def _parse(obj: Hand | Mapping[str, Any]) -> Hand:
    if isinstance(obj, Hand):
        obj.check()
        return obj
    return Hand.from_dict(obj)


def _rules_of(obj: Any) -> str:
    rules = getattr(obj, "rules", None)
    if rules is None and isinstance(obj, Mapping):
        rules = obj.get("rules")
    return rules if isinstance(rules, str) and rules in ruleset_keys() else DEFAULT_RULESET


def _guarded(obj: Any, fn: Any, *, strict: bool) -> Result:
    try:
        result: Result = fn()
        return result
    except HandError as e:
        return Result.invalid(_rules_of(obj), str(e))
    except (RecursionError, MemoryError):
        return Result.invalid(_rules_of(obj), "The hand object is nested too deeply to read.")
    except Exception:
        if strict:
            raise
        return Result.invalid(_rules_of(obj), UNREADABLE)


def score(obj: Hand | Mapping[str, Any], *, strict: bool = False) -> Result:
    """Score a hand (see :func:`score_uncached`); results are cached by the
    canonical form of the validated hand, so the same hand is scored once.
    A well-formed MCR object (a plain dict) is scored by the compiled core's
    one call instead, which costs less than the cache key would: the same
    answer, not kept.

    ``strict`` lets an internal error through instead of answering
    :data:`UNREADABLE` (the fuzz tests use it to prove there is none)."""
    found = _ONE_CALL(obj)
    if found is None and _ONE_CALL is not _one_call:
        found = _one_call(obj)
    if found is not None:
        return found

    def run() -> Result:
        hand = _parse(obj)
        ruleset = find_ruleset(hand.rules)
        options = ruleset.resolve_options(hand.options)  # once: the key and the scorer
        key = _key(hand, options)
        hit = _CACHE.get(key)
        if hit is None:
            hit = ruleset.score(hand, options)
            if len(_CACHE) >= CACHE_SIZE:
                _CACHE.clear()
            _CACHE[key] = hit
        return hit

    return _guarded(obj, run, strict=strict)


def score_uncached(obj: Hand | Mapping[str, Any], *, strict: bool = False) -> Result:
    """Score a hand given as an interchange dict (hand-format.md) or a
    :class:`~hefen.hand.Hand`.  Never raises for bad input: the result is then
    ``valid=False`` with one sentence in ``error``."""
    found = _ONE_CALL(obj)
    if found is None and _ONE_CALL is not _one_call:
        found = _one_call(obj)
    if found is not None:
        return found
    return _guarded(obj, lambda: (h := _parse(obj)).ruleset.score(h), strict=strict)


#: hefen.mcr.SCORE_DICT once loaded (the compiled whole path of an MCR object)
_MCR_FAST: list[Any] = []
#: the other rulesets' compiled whole paths (their module's ``SCORE_DICT``,
#: ``None`` where it has none), by their key, once loaded
_FAST: dict[str, Any] = {}


def _one_call(obj: Any) -> Result | None:
    """The compiled core's one-call answer for a well-formed object (a plain
    dict) of a ruleset that has one (MCR, Hong Kong, Taiwanese); None for anything
    else: the Python path answers, the same."""
    if type(obj) is not dict:
        return None
    rules = obj.get("rules", DEFAULT_RULESET)
    if type(rules) is not str:
        return None
    if rules == DEFAULT_RULESET:
        fast = _MCR_FAST[0] if _MCR_FAST else _load_mcr_fast()
    else:
        fast = _FAST[rules] if rules in _FAST else _load_fast(rules)
    if fast is None:
        return None
    found: Result | None = fast(obj)
    return found


#: the compiled core's one-call answer of every registered ruleset at once
#: (``hefen._core.score_dict``: the same answers as :func:`_one_call` once
#: each ruleset's path is loaded, without its lookups); :func:`_one_call`
#: itself where the core is not built.  On a miss, :func:`_one_call` runs
#: too: it loads a ruleset's path the first time its hands are scored.
_ONE_CALL: Any = getattr(_CORE, "score_dict", None) or _one_call


def _load_mcr_fast() -> Any:
    from .mcr import SCORE_DICT

    _MCR_FAST.append(SCORE_DICT)
    return SCORE_DICT


def _load_fast(key: str) -> Any:
    """The ruleset ``key``'s one-call path (None for a key not registered)."""
    if key not in ruleset_keys():
        return None
    ruleset = find_ruleset(key)
    fast = getattr(sys.modules[type(ruleset).__module__], "SCORE_DICT", None)
    _FAST[key] = fast
    return fast


def score_dict(obj: Any) -> dict[str, Any]:
    return score(obj).to_dict()


def clear_cache() -> None:
    _CACHE.clear()


# -- batches ---------------------------------------------------------------


def cores() -> int:
    """The processor cores this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def _score_chunk(objs: list[Any]) -> list[Result]:
    return [score(o) for o in objs]


def pool(jobs: int) -> Any:
    """A pool of ``jobs`` worker processes for batches (forked where the
    platform forks, so that a worker starts with hefen already imported)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    fork = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if fork else None)
    for stream in (sys.stdout, sys.stderr):  # a forked worker must not write them again
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass
    if sys.platform == "win32":
        jobs = min(jobs, 61)  # the most a ProcessPoolExecutor waits on there
    return ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)


def chunk_size(n: int, jobs: int) -> int:
    """How many inputs a worker is handed at a time: about four chunks a
    worker, at most 512 inputs each."""
    return max(1, min(512, -(-n // (jobs * 4))))


def score_many(objs: Iterable[Any], *, jobs: int = 1) -> list[Result]:
    """Score a batch: ``[score(o) for o in objs]``, the answers in order.

    ``jobs`` > 1 scores the inputs in that many worker processes, in chunks
    (``0``: one per core). Like :func:`score` it never raises for what it is
    given: an input that cannot be sent to a worker (it does not pickle), or
    a chunk whose worker fails, is scored in this process instead.

    >>> [r.total for r in score_many([{"hand": ["1m"]}, "no"])]
    [0, 0]
    """
    items = list(objs)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 0:
        raise ValueError(f"jobs must be a whole number of 0 or more, not {jobs!r}.")
    if jobs == 0:
        jobs = cores()
    jobs = min(jobs, len(items))
    if jobs <= 1:
        return _score_chunk(items)
    size = chunk_size(len(items), jobs)
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    out: list[Result] = []
    with pool(jobs) as ex:
        futures = [ex.submit(_score_chunk, c) for c in chunks]
        for chunk, fut in zip(chunks, futures, strict=True):
            try:
                out.extend(fut.result())
            except Exception:  # not picklable, or the worker failed: here, then
                out.extend(_score_chunk(chunk))
    return out
