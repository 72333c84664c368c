"""Example hands for the rules pages, found by the engine itself.

``python -m hefen.web.examples`` scores many random legal MCR hands
(:mod:`hefen.testing.generate`) and keeps, for every pattern, the hand in
which it scores alongside the fewest other patterns; the result is written to
``examples_mcr.json`` next to this file. The rules page draws these hands with
:mod:`hefen.svg`; ``tests/test_web_rules.py`` re-scores every example to check
that it still shows its pattern. Rulesets without such a file get no examples.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent


def path_for(rules: str) -> Path:
    return HERE / f"examples_{rules}.json"


@cache
def examples(rules: str) -> dict[str, dict[str, Any]]:
    """Pattern id → interchange object that scores it (empty if none stored)."""
    p = path_for(rules)
    if not p.exists():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(p.read_text(encoding="utf-8"))
    return data


def find_mcr(count: int = 20000, seed: int = 7) -> dict[str, dict[str, Any]]:
    from hefen import score
    from hefen.testing.generate import random_mcr_hands

    best: dict[str, tuple[int, dict[str, Any]]] = {}
    for variant in ("green_book", "mil"):
        for hand in random_mcr_hands(count // 2, seed=seed):
            if variant != "green_book":
                hand = {**hand, "options": {**hand.get("options", {}), "variant": variant}}
            result = score(hand).to_dict()
            if not result.get("valid"):
                continue
            size = len(result["patterns"])
            for p in result["patterns"]:
                if p["id"] not in best or size < best[p["id"]][0]:
                    best[p["id"]] = (size, hand)
    return {pid: hand for pid, (_, hand) in sorted(best.items())}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    count = int(args[0]) if args else 20000
    found = find_mcr(count)
    path_for("mcr").write_text(
        json.dumps(found, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"{len(found)} MCR patterns have an example hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
