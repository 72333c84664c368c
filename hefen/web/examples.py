"""Example hands for the rules pages.

MCR: ``python -m hefen.web.examples mcr`` scores many random legal MCR hands
(:mod:`hefen.testing.generate`) and keeps, for every pattern, the hand in
which it scores alongside the fewest other patterns, plus the hands of
:data:`MCR_EXTRA` for patterns random hands never show alone (Chicken Hand);
the result is written to ``examples_mcr.json`` next to this file.

Hong Kong and Taiwan: the example column of ``docs/rules-hk.md`` and
``docs/rules-tw.md`` is the one source. ``python -m hefen.web.examples hk tw``
reads those tables (:func:`doc_examples`, the same reading as
``tests/test_hk_tw_docs.py``) and adds, for the rows whose example is only
described in words ("the same, self-drawn", "… f:6h as South"), the docs hand
of another row with the context or flowers :data:`DERIVED` names; the result
is ``examples_hk.json`` and ``examples_tw.json``. ``tests/test_web_rules.py``
checks that these files equal a fresh build from the docs and re-scores every
example to check that it still shows its pattern.

The rules page draws these hands with :mod:`hefen.svg`, with the context in
words (:func:`context_words`). Rulesets without a file get no examples.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

from hefen.ruleset import find_ruleset, ruleset_keys, rulesets

HERE = Path(__file__).parent
DOCS = HERE.parent.parent / "docs"

#: the context of a docs page's example hand where the row says none
#: (keyed by the page, :attr:`hefen.ruleset.Ruleset.rules_doc`)
DOC_DEFAULT_CONTEXT: dict[str, dict[str, Any]] = {
    "rules-tw.md": {"seat_wind": "S", "discarder": "W"},
}

#: docs rows whose example needs a context flag the table cell only describes
#: (as in tests/test_hk_tw_docs.py)
DOC_CONTEXT: dict[str, dict[str, Any]] = {
    "heavenly_hand": {"seat_wind": "E", "win": "self_draw", "heavenly": True},
    "earthly_hand": {"seat_wind": "S", "discarder": "E", "earthly": True},
    "robbing_kong": {"robbing_kong": True},
    "kong_replacement": {"seat_wind": "S", "win": "self_draw", "kong_replacement": True},
    "seat_wind": {"seat_wind": "S"},
}

#: pattern → (base, changes) for the docs rows that describe their example in
#: words. The base is the pattern id of the row whose docs hand is shown or,
#: where the docs give no hand to borrow, a hand in the compact notation.
#: ``context`` and ``options`` are merged into the base example's, ``flowers``
#: replaces its flowers; a self-drawn win drops the discarder. Keyed by the
#: docs page (:attr:`hefen.ruleset.Ruleset.rules_doc`).
DOC_DERIVED: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "rules-hk.md": {
        # "the same in the South round"
        "round_wind": ("seat_wind", {"context": {"round_wind": "S"}}),
        # "… f:6h or … f:2h as South"
        "own_flower": ("all_chows", {"flowers": ["6h"], "context": {"seat_wind": "S"}}),
        "own_season": ("all_chows", {"flowers": ["2h"], "context": {"seat_wind": "S"}}),
        # "… f:5678h, … f:1234h"
        "four_flowers": ("all_chows", {"flowers": ["5h", "6h", "7h", "8h"]}),
        "four_seasons": ("all_chows", {"flowers": ["1h", "2h", "3h", "4h"]}),
        # "any hand without bonus tiles"
        "no_flowers": ("all_chows", {}),
        "self_drawn": ("all_chows", {"context": {"win": "self_draw"}}),
        "concealed_hand": ("all_chows", {}),
        "last_tile": ("all_chows", {"context": {"last_tile_of_wall": True}}),
        # a "When" row: two kongs, won on the second replacement tile
        "double_kong_replacement": (
            "123m789s5p [CCCC] [1111p] +5p",
            {"context": {"seat_wind": "S", "win": "self_draw", "double_kong_replacement": True}},
        ),
    },
    "rules-tw.md": {
        # the "When" rows: a plain concealed hand with the context they describe
        "heavenly_hand": (
            "concealed_hand",
            {"context": {"seat_wind": "E", "win": "self_draw", "heavenly": True}},
        ),
        "earthly_hand": (
            "concealed_hand",
            {"context": {"seat_wind": "S", "discarder": "E", "earthly": True}},
        ),
        "human_hand": (
            "concealed_hand",
            {
                "context": {"seat_wind": "S", "discarder": "E", "human": True},
                "options": {"human_hand": True},
            },
        ),
        "tian_ting": ("concealed_hand", {"context": {"declared_ready": "tian_ting"}}),
        "di_ting": ("concealed_hand", {"context": {"declared_ready": "di_ting"}}),
        # "the same on a discard"
        "seven_rob_one": ("eight_flowers", {"context": {"win": "discard"}}),
        # "the same, self-drawn"
        "concealed_self_drawn": ("concealed_hand", {"context": {"win": "self_draw"}}),
        # "… f:1234h", "… f:2h as South"
        "flower_kong": ("concealed_hand", {"flowers": ["1h", "2h", "3h", "4h"]}),
        "own_flower": ("concealed_hand", {"flowers": ["2h"]}),
        "last_tile_of_wall": (
            "concealed_hand",
            {"context": {"win": "self_draw", "last_tile_of_wall": True}},
        ),
        "last_discard": ("concealed_hand", {"context": {"last_tile_of_wall": True}}),
        "robbing_kong": ("concealed_hand", {"context": {"robbing_kong": True}}),
        "dealer": ("concealed_hand", {"context": {"dealer": "S"}}),
        "dealer_streak": ("concealed_hand", {"context": {"dealer": "S", "dealer_streak": 2}}),
    },
}

#: :data:`DOC_DERIVED` by ruleset key.
DERIVED: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    r.key: DOC_DERIVED[r.rules_doc] for r in rulesets() if r.rules_doc in DOC_DERIVED
}

#: MCR patterns random hands never show: (compact notation, context)
MCR_EXTRA: dict[str, tuple[str, dict[str, Any]]] = {
    "chicken_hand": (
        "[234m] [567p] 888mEE34s +5s",
        {"round_wind": "S", "seat_wind": "W", "win": "discard"},
    ),
}


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


def _module(rules: str) -> Any:
    import importlib

    return importlib.import_module(type(find_ruleset(rules)).__module__)


def doc_examples(rules: str, docs: Path = DOCS) -> dict[str, dict[str, Any]]:
    """Pattern id → interchange object, from the example column of the
    ruleset's docs page (the first example of each row). Rows are found by
    their English or Chinese pattern name."""
    out: dict[str, dict[str, Any]] = {}
    for pid, obj in doc_rows(rules, docs):
        out.setdefault(pid, obj)
    return out


def doc_rows(rules: str, docs: Path = DOCS) -> list[tuple[str, dict[str, Any]]]:
    """Every example hand in the docs page of ``rules``, as (pattern id,
    interchange object), in page order; a row may give several examples."""
    from hefen.testing.generate_hk_tw import hand_dict

    specs = _module(rules).PATTERNS.values()
    by_name = {s.name_en: s.id for s in specs} | {s.name_zh: s.id for s in specs}
    r = find_ruleset(rules)
    options: dict[str, Any] = dict(r.example_options)
    out: list[tuple[str, dict[str, Any]]] = []
    text = (docs / r.rules_doc).read_text(encoding="utf-8")
    for line in text.splitlines():
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        pid = by_name.get(cells[0]) or (by_name.get(cells[1]) if len(cells) > 1 else None)
        if pid is None:
            continue
        for ex in re.findall(r"`([^`]+)`", line):
            if "…" in ex or not re.match(r"^[0-9ESWNCFP(\[]", ex):
                continue
            ctx: dict[str, Any] = dict(DOC_DEFAULT_CONTEXT.get(r.rules_doc, {}))
            if "self-drawn" in line and pid != "concealed_hand":
                ctx = {"seat_wind": "S", "win": "self_draw"}
            if pid in DOC_CONTEXT:
                ctx = dict(DOC_CONTEXT[pid])
            out.append((pid, hand_dict(ex, rules, options, **ctx)))
    return out


def build_docs(rules: str, docs: Path = DOCS) -> dict[str, dict[str, Any]]:
    """The docs examples of ``rules`` plus the :data:`DERIVED` ones."""
    from hefen.testing.generate_hk_tw import hand_dict

    r = find_ruleset(rules)
    found = doc_examples(rules, docs)
    for pid, (base, change) in DOC_DERIVED.get(r.rules_doc, {}).items():
        if pid in found:
            continue
        if base in found:
            hand = copy.deepcopy(found[base])
        else:
            hand = hand_dict(base, rules, dict(r.example_options))
        ctx = {**hand["context"], **change.get("context", {})}
        if ctx.get("win") == "self_draw":
            ctx.pop("discarder", None)
        hand["context"] = ctx
        hand["options"] = {**hand["options"], **change.get("options", {})}
        if "flowers" in change:
            hand["flowers"] = list(change["flowers"])
        found[pid] = hand
    order = list(_module(rules).PATTERNS)
    return {pid: found[pid] for pid in order if pid in found}


def mcr_extra() -> dict[str, dict[str, Any]]:
    from hefen.mcr import RULESET
    from hefen.testing.generate_hk_tw import hand_dict

    return {pid: hand_dict(text, RULESET.key, **ctx) for pid, (text, ctx) in MCR_EXTRA.items()}


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


def dumps(found: dict[str, dict[str, Any]]) -> str:
    return json.dumps(found, ensure_ascii=False, indent=0, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m hefen.web.examples [mcr [COUNT]] [hk] [tw]`` (all three
    when none is named)."""
    args = sys.argv[1:] if argv is None else argv
    keys = [a for a in args if not a.isdigit()] or list(ruleset_keys())
    counts = [int(a) for a in args if a.isdigit()]
    for rules in keys:
        if not find_ruleset(rules).rules_doc:  # examples by random search
            found = find_mcr(counts[0] if counts else 20000)
            found.update(mcr_extra())
            found = dict(sorted(found.items()))
        else:
            found = build_docs(rules)
        path_for(rules).write_text(dumps(found), encoding="utf-8")
        print(f"{len(found)} {rules} patterns have an example hand")
    return 0


if __name__ == "__main__":
    sys.exit(main())
