"""The compiled core against the pure one, and against pymahjonggb (run by hand).

    python bench/fast_core.py [--hands 3000] [--seed 1] [--profile 0]

Times are CPU time (``time.process_time``), the best of ``--repeat`` runs,
so that a machine shared with other work still gives steady figures.
hefen is measured in fresh subprocesses, one with ``HEFEN_PURE=1`` (the
pure-Python primitives) and one without (the compiled ``hefen._core``), on the
same generated MCR hands (hefen.testing.generate, MIL variant as in
bench/mcr_throughput.py); the ratios printed come from this one run.  The
peer is measured the same way: a fresh process per run, its first pass over
the hands, each answer dropped at once (neither side keeps its results alive:
a loop that keeps 3,000 results makes the allocator take fresh memory on every
call, which measured 20–30% of hefen's time per hand).  A "speed against the
peer" is the peer's time over hefen's: above 1 hefen is faster.

* **primitives**: per-call time of ``is_standard_complete`` and
  ``standard_decompositions`` on the hands' 14 concealed tiles,
  ``completing_tiles`` (all forms) on their ready 13 and ``is_complete``;
  the pure functions first on an empty cache (*cold*, a fresh process), then
  again on the same shapes (*warm*: their functools caches answer);
* **scoring cold**: ``score_uncached`` once on each distinct hand, against
  ``MahjongGB.MahjongFanCalculator`` on the same hands; then the same for
  ``--hands`` generated Hong Kong and Taiwanese hands
  (hefen.testing.generate_hk_tw), pure and compiled, beside MCR's compiled
  figure of the same run;
* **waits**: for each ready hand, ``completing_tiles`` and a discard win
  scored for each wait, against the peer's per-form shanten functions (their
  useful tiles at shanten 0) and its calculator for each wait; and
  hefen's user-facing ``hefen.analysis.waits`` (which scores by discard and
  by self-draw) for reference.

* **batches**: ``hefen.score_many`` on ``--batch`` distinct hands with
  ``jobs=1`` and ``jobs=2`` (in this process: wall time, and the CPU time of
  this process and its finished workers together), and ``hefen score --json``
  with ``--jobs 1`` and ``--jobs 2`` on ``--batch`` lines (a fresh process
  each, start-up included: wall time and the children's CPU time);
  ``--batch 0`` leaves them out.

``--profile N`` adds a cProfile of ``score_uncached`` on N other hands with
the compiled core and prints where the time goes.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # measure this checkout, not an installed hefen
    sys.path.insert(0, str(ROOT))


def _counts(codes: list[str]) -> tuple[int, ...]:
    from hefen.tiles import NUM_KINDS, tile_from_str

    c = [0] * NUM_KINDS
    for code in codes:
        t = tile_from_str(code)
        if t < NUM_KINDS:
            c[t] += 1
    return tuple(c)


def _hands(n: int, seed: int) -> list[dict[str, Any]]:
    from hefen.testing.generate import random_mcr_hands

    return [{**h, "options": {"variant": "mil"}} for h in random_mcr_hands(n, seed)]


def _per_call(f: Callable[[], object], calls: int) -> float:
    """Microseconds per call of a loop ``f`` that makes ``calls`` calls (the
    process's CPU time: the figures hold on a machine shared with others;
    the garbage collector off, as in timeit)."""
    gc.collect()
    gc.disable()  # as timeit does: a full collection is not the call's cost
    try:
        t = time.process_time()
        f()
        return (time.process_time() - t) / calls * 1e6
    finally:
        gc.enable()


def _each(f: Callable[[Any], object], items: list[Any]) -> None:
    """Call ``f`` on each item and drop the answer at once, as the peer's loop
    does: keeping thousands of results alive (a list comprehension) costs the
    allocator fresh memory on every call and is not the call's cost."""
    for x in items:
        f(x)


def _wait_hand(h: dict[str, Any], w: int) -> dict[str, Any]:
    from hefen.tiles import tile_to_str

    ctx = {**h.get("context", {}), "win": "discard"}
    for k in ("last_of_kind", "kong_replacement", "robbing_kong", "last_tile_of_wall"):
        ctx.pop(k, None)
    return {**h, "win_tile": tile_to_str(w), "context": ctx}


def worker(n: int, seed: int) -> dict[str, Any]:
    """One side's figures (pure or compiled, by HEFEN_PURE)."""
    from hefen import decompose as d
    from hefen.analysis import waits as analysis_waits
    from hefen.scoring import score_uncached

    out: dict[str, Any] = {"compiled": d.COMPILED}

    # scoring cold: distinct hands, first time in this process (after a few
    # others, so that lazy imports are not counted)
    for h in _hands(5, seed + 100):
        score_uncached(h)
    hands = _hands(n, seed)
    out["score"] = _per_call(lambda: _each(score_uncached, hands), len(hands))
    # Hong Kong and Taiwanese scoring cold: the same, on their generated hands
    from hefen.testing.generate_hk_tw import random_hands

    for rules in ("hk", "tw"):
        for h in random_hands(rules, 5, seed + 100):
            score_uncached(h)
        others = random_hands(rules, n, seed)
        out[f"score_{rules}"] = _per_call(lambda hs=others: _each(score_uncached, hs), len(others))

    # waits of ready hands (other hands)
    ready = _hands(n // 2, seed + 1)
    jobs = [(_counts(h["hand"]), len(h["melds"])) for h in ready]
    n_waits = 0

    def waits_and_scores() -> None:
        nonlocal n_waits
        n_waits = 0
        for h, (c, k) in zip(ready, jobs, strict=True):
            for w in d.completing_tiles(c, k, d.FORMS_ALL):
                score_uncached(_wait_hand(h, w))
                n_waits += 1

    out["waits"] = _per_call(waits_and_scores, len(ready))
    out["n_waits"] = n_waits
    ready2 = [
        {k: v for k, v in h.items() if k != "win_tile"} for h in _hands(max(n // 20, 1), seed + 2)
    ]
    out["analysis_waits"] = _per_call(lambda: _each(analysis_waits, ready2), len(ready2))

    # primitives (other hands' shapes)
    prim = _hands(n, seed + 3)
    c14 = [_counts(h["hand"] + [h["win_tile"]]) for h in prim]
    c13 = [(_counts(h["hand"]), len(h["melds"])) for h in prim]
    isc, sd, ic, ct = (
        d.is_standard_complete,
        d.standard_decompositions,
        d.is_complete,
        d.completing_tiles,
    )
    fa = d.FORMS_ALL
    loops: dict[str, tuple[Callable[[], object], int]] = {
        "is_standard_complete": (lambda: _each(isc, c14), len(c14)),
        "standard_decompositions": (lambda: _each(sd, c14), len(c14)),
        "is_complete": (lambda: _each(lambda c: ic(c, 0, fa), c14), len(c14)),
        "completing_tiles": (lambda: _each(lambda ck: ct(ck[0], ck[1], fa), c13), len(c13)),
    }
    out["prim_cold"] = {k: _per_call(f, m) for k, (f, m) in loops.items()}
    out["prim_warm"] = {k: _per_call(f, m) for k, (f, m) in loops.items()}
    return out


def peer(n: int, seed: int) -> dict[str, Any] | None:
    try:
        import MahjongGB  # type: ignore[import-not-found]
    except ImportError:
        return None
    from hefen.testing.generate import peer_args

    out: dict[str, Any] = {}
    calls = [peer_args(h) for h in _hands(n, seed)]
    f = MahjongGB.MahjongFanCalculator

    def score_all() -> None:
        for c in calls:
            try:
                f(**c)
            except Exception:  # a hand the peer refuses (counted all the same)
                pass

    out["score"] = _per_call(score_all, len(calls))

    ready = [peer_args(h) for h in _hands(n // 2, seed + 1)]
    for r in ready:
        r["isSelfDrawn"] = r["is4thTile"] = r["isAboutKong"] = r["isWallLast"] = False
    regular = MahjongGB.RegularShanten
    specials = (
        MahjongGB.SevenPairsShanten,
        MahjongGB.ThirteenOrphansShanten,
        MahjongGB.HonorsAndKnittedTilesShanten,
    )
    knitted = MahjongGB.KnittedStraightShanten
    n_waits = 0

    def waits_and_scores() -> None:
        nonlocal n_waits
        n_waits = 0
        for r in ready:
            hand = r["hand"]
            found: set[str] = set()
            s, useful = regular(hand)
            if s == 0:
                found.update(useful)
            if not r["pack"]:
                for g in specials:
                    s, useful = g(hand)
                    if s == 0:
                        found.update(useful)
            if len(r["pack"]) <= 1:
                s, useful = knitted(hand)
                if s == 0:
                    found.update(useful)
            for w in found:
                n_waits += 1
                try:
                    f(**{**r, "winTile": w})
                except Exception:  # below the minimum or not a win for the peer
                    pass

    out["waits"] = _per_call(waits_and_scores, len(ready))
    out["n_waits"] = n_waits
    return out


def _cpu_all() -> float:
    """CPU time of this process and of its children that have ended."""
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def batches(n: int, seed: int, repeat: int) -> None:
    """score_many and ``hefen score --json --jobs N`` on ``n`` distinct hands
    (each run on hands no cache has seen: the seed moves on every run)."""
    import hefen

    print(f"\nbatches of {n} MCR hands, best of {repeat}: wall ms (CPU ms of every process)")
    for jobs in (1, 2):
        best: tuple[float, float] | None = None
        for r in range(repeat):
            hands = _hands(n, seed + 1000 + 10 * r + jobs)
            hefen.scoring.clear_cache()
            c, t = _cpu_all(), time.perf_counter()
            hefen.score_many(hands, jobs=jobs)
            run = (time.perf_counter() - t, _cpu_all() - c)
            best = run if best is None or run[0] < best[0] else best
        assert best is not None
        print(
            f"  score_many(jobs={jobs})            {best[0] * 1e3:8.0f} ms ({best[1] * 1e3:6.0f})"
            f"   {best[0] / n * 1e6:6.1f} µs/hand"
        )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("HEFEN_PURE", None)
    for jobs in (1, 2):
        best = None
        for r in range(repeat):
            lines = "".join(json.dumps(h) + "\n" for h in _hands(n, seed + 2000 + 10 * r + jobs))
            c, t = _cpu_all(), time.perf_counter()
            res = subprocess.run(
                [sys.executable, "-m", "hefen.cli", "score", "--json", "--jobs", str(jobs)],
                input=lines,
                capture_output=True,
                text=True,
                env=env,
                check=True,
            )
            run = (time.perf_counter() - t, _cpu_all() - c)
            assert res.stdout.count("\n") == n
            best = run if best is None or run[0] < best[0] else best
        assert best is not None
        print(
            f"  hefen score --json --jobs {jobs}     {best[0] * 1e3:8.0f} ms ({best[1] * 1e3:6.0f})"
            f"   {best[0] / n * 1e6:6.1f} µs/line, start-up included"
        )


def profile(n: int, seed: int, top: int = 25) -> None:
    import cProfile
    import pstats
    from collections import defaultdict

    from hefen import decompose as d
    from hefen.scoring import score_uncached

    hands = _hands(n, seed + 7)
    pr = cProfile.Profile()
    pr.enable()
    for h in hands:
        score_uncached(h)
    pr.disable()
    st = pstats.Stats(pr)
    print(f"\nprofile: score_uncached on {n} MCR hands, compiled core: {d.COMPILED}")
    st.sort_stats("tottime").print_stats(top)
    st.sort_stats("cumulative").print_stats(r"hefen", 22)
    # own time by module
    by_file: dict[str, float] = defaultdict(float)
    total = 0.0
    for (file, _line, _name), (_cc, _nc, tt, _ct, _callers) in st.stats.items():  # type: ignore[attr-defined]
        key = file.replace(str(ROOT) + "/", "") if "hefen" in file else "(builtins/stdlib)"
        by_file[key] += tt
        total += tt
    print("own time by module:")
    for key, tt in sorted(by_file.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {tt / total:6.1%}  {key}")


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's least time over the runs (the least disturbed)."""
    out: dict[str, Any] = {}
    for k, v in runs[0].items():
        if isinstance(v, dict):
            out[k] = _best([r[k] for r in runs])
        elif isinstance(v, float):
            out[k] = min(r[k] for r in runs)
        else:
            out[k] = v
    return out


def _run_side(pure: bool, n: int, seed: int, role: str = "--worker") -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if pure:
        env["HEFEN_PURE"] = "1"
    else:
        env.pop("HEFEN_PURE", None)
    res = subprocess.run(
        [sys.executable, __file__, role, "--hands", str(n), "--seed", str(seed)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, Any] = json.loads(res.stdout)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="fresh processes per side (best kept)")
    ap.add_argument("--profile", type=int, default=0, help="profile scoring on N hands")
    ap.add_argument("--batch", type=int, default=6000, help="lines of the batch figures (0: none)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--peer-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        json.dump(worker(args.hands, args.seed), sys.stdout)
        return
    if args.peer_worker:
        json.dump(peer(args.hands, args.seed), sys.stdout)
        return

    n, seed = args.hands, args.seed
    print(f"{n} MCR hands (seed {seed}), python {platform.python_version()}, {platform.machine()}")
    print(f"CPU time per call, best of {args.repeat} fresh processes per side")
    pure = _best([_run_side(True, n, seed) for _ in range(args.repeat)])
    comp = _best([_run_side(False, n, seed) for _ in range(args.repeat)])
    if not comp["compiled"]:
        print("hefen._core is not built: python setup.py build_ext --inplace")
        return
    # the peer as hefen: each run a fresh process, its first pass over the hands
    gbs = [_run_side(False, n, seed, "--peer-worker") or None for _ in range(args.repeat)]
    gb = _best([g for g in gbs if g is not None]) if gbs[0] is not None else None

    print(
        "\nprimitives, µs per call        pure:  cold    warm   compiled: first   again"
        "   pure cold/compiled   pure warm/compiled"
    )
    for k in pure["prim_cold"]:
        pc, pw = pure["prim_cold"][k], pure["prim_warm"][k]
        cc, cw = comp["prim_cold"][k], comp["prim_warm"][k]
        print(
            f"  {k:26s} {pc:8.2f} {pw:7.2f} {cc:15.3f} {cw:7.3f} {pc / cc:12.1f}x {pw / cw:19.1f}x"
        )
    print(
        "  compiled calls/s: "
        + ", ".join(f"{k} {1e6 / v:,.0f}" for k, v in comp["prim_warm"].items())
    )

    print("\nMCR scoring cold (score_uncached, each hand once), µs per hand (hands/s)")
    rows = [("hefen pure", pure["score"]), ("hefen compiled", comp["score"])]
    if gb:
        rows.append(("pymahjonggb (C++)", gb["score"]))
    for name, us in rows:
        print(f"  {name:22s} {us:9.1f}  ({1e6 / us:>9,.0f})")
    print(f"  pure/compiled {pure['score'] / comp['score']:.2f}x", end="")
    if gb:
        print(
            f"   speed against the peer (peer time / hefen time): compiled "
            f"{gb['score'] / comp['score']:.2f}x, pure {gb['score'] / pure['score']:.3f}x"
        )
    else:
        print()

    print(
        f"\nHK and TW scoring cold (score_uncached, {n} generated hands of each, each once), "
        "µs per hand (hands/s)"
    )
    print(f"  {'':10s} {'pure':>16s} {'compiled':>18s}   pure/compiled   compiled/MCR compiled")
    for rules in ("hk", "tw"):
        p_us, c_us = pure[f"score_{rules}"], comp[f"score_{rules}"]
        print(
            f"  {rules.upper():10s} {p_us:7.1f} ({1e6 / p_us:>7,.0f}) {c_us:7.1f} ({1e6 / c_us:>8,.0f})"
            f"   {p_us / c_us:12.1f}x   {c_us / comp['score']:20.2f}x"
        )
    print(
        f"  {'MCR':10s} {pure['score']:7.1f} ({1e6 / pure['score']:>7,.0f}) "
        f"{comp['score']:7.1f} ({1e6 / comp['score']:>8,.0f})"
    )

    print(
        f"\nwaits of a ready hand (completing_tiles + a discard win scored per wait; "
        f"{comp['n_waits']} waits over {n // 2} hands), µs per hand"
    )
    rows = [("hefen pure", pure["waits"]), ("hefen compiled", comp["waits"])]
    if gb:
        rows.append((f"pymahjonggb ({gb['n_waits']} waits)", gb["waits"]))
    for name, us in rows:
        print(f"  {name:26s} {us:9.1f}")
    print(f"  pure/compiled {pure['waits'] / comp['waits']:.2f}x", end="")
    if gb:
        print(f"   speed against the peer: compiled {gb['waits'] / comp['waits']:.1f}x")
    else:
        print()
    print(
        f"  hefen.analysis.waits (discard and self-draw scores): pure {pure['analysis_waits']:.0f}"
        f" µs, compiled {comp['analysis_waits']:.0f} µs"
        f" ({pure['analysis_waits'] / comp['analysis_waits']:.2f}x)"
    )
    if args.batch:
        batches(args.batch, seed, args.repeat)
    if args.profile:
        profile(args.profile, seed)


if __name__ == "__main__":
    main()
