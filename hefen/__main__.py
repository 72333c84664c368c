"""``python -m hefen``: the same as the ``hefen`` command."""

import sys

from .cli import main

sys.exit(main())
