"""The one error the photo recogniser raises."""

from __future__ import annotations


class PhotoError(ValueError):
    """A photo that cannot be read as mahjong tiles; the message is one English sentence."""
