"""Hand analysis: what a hand waits for, what each wait is worth, how far it
is from ready and what to discard — for MCR, HK and TW.

>>> from hefen.analysis import shanten, waits
>>> shanten({"rules": "mcr", "hand": ["1m","1m","1m","2m","3m","4m","5m","6m","7m","8m","9m","9m","9m"]}).shanten
0
>>> [w.to_dict()["tile"] for w in waits({"rules": "mcr", "hand": ["1m","1m","1m","2m","3m","4m",
...     "5m","6m","7m","8m","9m","9m","9m"]}, scored=False).waits]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']

See docs/analysis.md.
"""

from .core import (
    FORM_NAMES,
    FORMS,
    Advice,
    DiscardOption,
    ShantenReport,
    Situation,
    Wait,
    WaitsReport,
    advise,
    allow_four_in_seven_pairs,
    shanten,
    situation,
    waits,
)
from .shanten import RULES_FORMS, ShantenInfo, shanten_counts

__all__ = [
    "FORMS",
    "FORM_NAMES",
    "RULES_FORMS",
    "Advice",
    "DiscardOption",
    "ShantenInfo",
    "ShantenReport",
    "Situation",
    "Wait",
    "WaitsReport",
    "advise",
    "allow_four_in_seven_pairs",
    "shanten",
    "shanten_counts",
    "situation",
    "waits",
]
