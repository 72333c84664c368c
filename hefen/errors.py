"""The core's one error type: an input that is not a legal hand or setting,
and :func:`safe_repr`, how an error sentence shows the value it refuses.

>>> safe_repr(10**5000)
'a number of 5001 digits'
>>> safe_repr("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
>>> safe_repr("\\ud800")
"'\\\\ud800'"
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["HandError", "safe_repr"]


class HandError(ValueError):
    """An input that is not a legal hand; the message is one clear sentence."""


def safe_repr(v: Any, limit: int = 40) -> str:
    """``repr(v)`` for an error sentence: never raises (a huge int's repr
    does), never runs past ``limit`` characters, and is plain ASCII-safe
    text (a lone surrogate shows as its escape)."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**limit:
        # str() of an int over 4,300 digits raises; its logarithm does not
        return f"a number of {math.floor(math.log10(abs(v))) + 1} digits"
    try:
        r = repr(v)
    except Exception:  # a value whose repr fails (or recurses too deep)
        return f"a {type(v).__name__}"
    r = r.encode("utf-8", "backslashreplace").decode("utf-8")
    return r if len(r) <= limit else r[: limit - 3] + "..."
