"""The check the differential tests share: a compiled function answers an input
as its pure-Python reference does, its answer or its error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def same_as_reference(
    compiled: Callable[..., Any],
    reference: Callable[..., Any],
    *args: Any,
    key: Callable[[Any], Any] = lambda x: x,
    **kw: Any,
) -> None:
    """Assert that ``compiled(*args, **kw)`` answers as ``reference`` does:
    the same answer (compared through ``key``), or an error of the same type
    where the reference raises one."""
    try:
        want: Any = reference(*args, **kw)
    except Exception as e:  # the reference's own error  # noqa: BLE001
        with pytest.raises(type(e)):
            compiled(*args, **kw)
        return
    assert key(compiled(*args, **kw)) == key(want)
