"""The example hands in docs/rules-hk.md and docs/rules-tw.md score the
pattern their row names."""

from __future__ import annotations

from typing import Any

import pytest

from hefen.scoring import score
from hefen.web.examples import doc_rows

EXAMPLES = [(rules, pid, obj) for rules in ("hk", "tw") for pid, obj in doc_rows(rules)]


def test_docs_have_examples() -> None:
    assert len(EXAMPLES) > 40


@pytest.mark.parametrize(
    ("rules", "pid", "obj"), EXAMPLES, ids=[f"{e[0]}-{e[1]}" for e in EXAMPLES]
)
def test_doc_example_scores_its_pattern(rules: str, pid: str, obj: dict[str, Any]) -> None:
    r = score(obj)
    assert r.valid, r.error
    assert pid in {p.id for p in r.patterns}
