"""hefen: mahjong scoring for MCR, Hong Kong New Style and Taiwanese 16-tile.

>>> from hefen import score
>>> r = score({"rules": "mcr", "hand": ["1m","2m","3m","4p","5p","6p","7s","8s","9s","C","C","E","E"],
...            "win_tile": "E", "context": {"win": "self_draw"}})
>>> r.total, r.winning
(22, True)
>>> [p.name for p in r.patterns]
['Mixed Straight', 'All Types', 'Fully Concealed Hand', 'Prevalent Wind', 'Seat Wind']
"""

from .hand import Context, Hand, HandError, Meld
from .result import PatternHit, Payment, Result
from .scoring import score, score_many, score_uncached
from .tiles import Tile

__all__ = [
    "score",
    "score_many",
    "score_uncached",
    "Hand",
    "Meld",
    "Context",
    "HandError",
    "Result",
    "PatternHit",
    "Payment",
    "Tile",
]
__version__ = "0.1.0"
