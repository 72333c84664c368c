"""The one exception the table library raises for anything a user can get wrong."""

from __future__ import annotations


class TableError(ValueError):
    """A request the table cannot carry out, explained in one clear sentence.

    Raised before anything is written: a failed call never leaves a half-written
    table behind.
    """
