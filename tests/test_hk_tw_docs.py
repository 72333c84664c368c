"""The example hands in docs/rules-hk.md and docs/rules-tw.md score the
pattern their row names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hefen import hk, tw
from hefen.scoring import score
from hefen.testing.generate_hk_tw import hand_dict

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: rows whose example needs a context flag the table cell only describes
CONTEXT: dict[str, dict[str, Any]] = {
    "heavenly_hand": {"seat_wind": "E", "win": "self_draw", "heavenly": True},
    "earthly_hand": {"seat_wind": "S", "discarder": "E", "earthly": True},
    "robbing_kong": {"robbing_kong": True},
    "kong_replacement": {"seat_wind": "S", "win": "self_draw", "kong_replacement": True},
    "seat_wind": {"seat_wind": "S"},
}


def _examples() -> list[tuple[str, str, str, dict[str, Any]]]:
    out = []
    for rules, module, name in (("hk", hk, "rules-hk.md"), ("tw", tw, "rules-tw.md")):
        by_name = {s.name_en: s.id for s in module.PATTERNS.values()}
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if not line.startswith("| "):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            pid = by_name.get(cells[0])
            if pid is None:
                continue
            for ex in re.findall(r"`([^`]+)`", line):
                if "…" in ex or not re.match(r"^[0-9ESWNCFP(\[]", ex):
                    continue
                ctx: dict[str, Any] = {"seat_wind": "S", "discarder": "W"} if rules == "tw" else {}
                if "self-drawn" in line and pid != "concealed_hand":
                    ctx = {"seat_wind": "S", "win": "self_draw"}
                if pid in CONTEXT:
                    ctx = dict(CONTEXT[pid])
                out.append((rules, pid, ex, ctx))
    return out


EXAMPLES = _examples()


def test_docs_have_examples() -> None:
    assert len(EXAMPLES) > 40


@pytest.mark.parametrize(
    ("rules", "pid", "text", "ctx"), EXAMPLES, ids=[f"{e[0]}-{e[1]}" for e in EXAMPLES]
)
def test_doc_example_scores_its_pattern(
    rules: str, pid: str, text: str, ctx: dict[str, Any]
) -> None:
    options = {"min_fan": 0} if rules == "hk" else {}
    r = score(hand_dict(text, rules, options, **ctx))
    assert r.valid, r.error
    assert pid in {p.id for p in r.patterns}
