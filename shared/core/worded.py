"""Errors whose English message is a template with values, so a refusal can be translated.

A refusal's translations are keyed on its reason code and its English template
(``reason.<code>: <template>``, :func:`shared.core.reasons.reason_key`), never on the message with
its values in: ``raise NotFound("no room {room_id}", room_id=room_id)``, not an f-string. The
message (``str(err)``) is the template formatted; ``template`` and ``values`` are kept for the
refusal's ``google.rpc.LocalizedMessage`` (``shared/serving/refusals.py``).
"""

from __future__ import annotations

from typing import Any


class Worded(Exception):
    """An error raised with an English template (``{name}`` fields) and the values that fill it."""

    def __init__(self, template: str = "", /, **values: Any) -> None:
        self.template = template
        self.values: dict[str, Any] = values
        super().__init__(template.format(**values) if values else template)
