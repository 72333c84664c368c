"""The core's one error type: an input that is not a legal hand or setting."""

from __future__ import annotations

__all__ = ["HandError"]


class HandError(ValueError):
    """An input that is not a legal hand; the message is one clear sentence."""
