"""The hefen web app for phones: ``create_app()`` (run it with ``hefen serve``)."""

from __future__ import annotations

from hefen.web.app import create_app

__all__ = ["create_app"]
