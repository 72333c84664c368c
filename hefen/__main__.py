"""``python -m hefen``: the same as the ``hefen`` command."""

import sys

from .cli import main

if __name__ == "__main__":  # pragma: no cover - run by ``python -m hefen``
    sys.exit(main())
