"""Network addresses as the serve command and the join links see them.

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("192.168.1.5")
(True, True, False)
"""

from __future__ import annotations

import ipaddress

__all__ = ["is_loopback"]


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a name or an address) is this machine only."""
    if not host:
        return True
    h = host.strip("[]").lower()
    if h == "localhost" or h.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False
