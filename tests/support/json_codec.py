"""A JSON codec for tests that run a game's rules without its generated protobuf code.

Real games use ``shared.core.codec.MessageCodec`` (protobuf payloads, from ``make proto``); this one
stores ``to_plain`` JSON under the class name, so unit tests need no compiled ``.proto``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from shared.core.codec import from_plain, to_plain


class JsonCodec:
    """Test-only codec; real games use shared.core.codec.MessageCodec (protobuf payloads)."""

    def __init__(self, classes: Sequence[type]) -> None:
        self._by_name = {c.__name__: c for c in classes}

    def encode(self, obj: Any) -> tuple[str, bytes]:
        return type(obj).__name__, json.dumps(to_plain(obj)).encode()

    def decode(self, type_name: str, payload: bytes, schema_version: int | None = None) -> Any:
        return from_plain(self._by_name[type_name], json.loads(payload))
