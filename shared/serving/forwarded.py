"""The client address the gateway forwards to the lobby and rule services, signed so that only the
gateway can choose it.

The per-address limits (``shared/serving/ratelimit.py``) count the gRPC peer, except that the gateway, whose
every call comes from its own address, forwards its HTTP client's address in the metadata
:data:`HEADER`: ``<address> <expiry> <key id> <mac>``, the mac an HMAC-SHA256 with the token secret
(``TABULA_SECRET``, the key of ``shared/serving/tokens.py``) over the address and the expiry (Unix seconds,
:data:`TTL_S` after the call). A service believes the address only when the mac is right for a key of
its ring (the current secret or a previous one, so a rotation loses nothing) and the expiry has not
passed; anything else (no header, a forged, stale or malformed one) counts the peer. A client that
calls a service directly therefore cannot choose its address, wherever it calls from.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time
from collections.abc import Sequence
from typing import Any

from shared.serving.tokens import Key, Keyring

HEADER = "x-tabula-forwarded-for"  # set by the gateway (services/gateway/rpc.py)
TTL_S = 60  # a signed address is good this long: the clocks of gateway and services may differ a little


def sign(key: Key, address: str, now: float | None = None) -> str:
    """The :data:`HEADER` value forwarding ``address``, signed with ``key``."""
    expires = int(time.time() if now is None else now) + TTL_S
    return f"{address} {expires} {key.kid} {_mac(key, address, expires)}"


def verified(keys: Keyring, metadata: Sequence[tuple[str, Any]], now: float | None = None) -> str | None:
    """The address the gateway forwarded in ``metadata`` (its last :data:`HEADER`), or None when
    there is none or it is not signed by a key of ``keys``, has expired, or is malformed."""
    values = [v for k, v in metadata if k == HEADER and isinstance(v, str)]
    parts = values[-1].split(" ") if values else []
    if len(parts) != 4 or not parts[1].isdigit():
        return None
    address, expires, kid, mac = parts[0], int(parts[1]), parts[2], parts[3]
    key = keys.find(kid)
    if key is None or expires < (time.time() if now is None else now):
        return None
    if not hmac.compare_digest(mac, _mac(key, address, expires)):
        return None
    return address if _is_address(address) else None


def _mac(key: Key, address: str, expires: int) -> str:
    signed = f"tabula-forwarded-for {address} {expires}".encode()
    return hmac.new(key.secret, signed, hashlib.sha256).hexdigest()


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True
