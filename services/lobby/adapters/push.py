"""Where a push-notification provider plugs in (Firebase Cloud Messaging, APNs, Web Push ...).

Every notice the lobby writes to a player's stream (``WatchMyNotices``) is also handed, once, to a
:class:`PushSender`. The default, :class:`LogPush`, only logs it: Tabula ships no provider and holds
no device tokens. To plug one in, write a class with ``send`` (it must not block for long: it runs
on the projector's thread; queue the work if the provider is slow) and name a zero-argument factory
in ``TABULA_PUSH=module:attr``; the lobby builds it once at start-up (:func:`load_push`).

Delivery is at most once per notice: ``send`` is called after the notice is stored, and a failure
is logged and counted, never retried (the notice itself stays in the player's stream, so a client
that reconnects still sees it). ``notice_id`` is unique per player: providers that deduplicate
(collapse keys) can use it.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Mapping
from typing import Protocol

from services.lobby.domain.notices import Notice
from shared.runtime.observability import log_fields

log = logging.getLogger("tabula.lobby.push")
PUSH = "TABULA_PUSH"


class PushSender(Protocol):
    def send(self, player_id: str, notice_id: str, notice: Notice) -> None:
        """Hand one notice to the provider for the player's devices."""
        ...


class LogPush:
    """The default: no provider, a log line per notice (DEBUG, so production logs stay quiet)."""

    def send(self, player_id: str, notice_id: str, notice: Notice) -> None:
        fields = log_fields(player_id=player_id, notice_id=notice_id, kind=notice.kind.value)
        log.debug("notice", extra=fields)


def load_push(env: Mapping[str, str]) -> PushSender:
    """The provider named by ``TABULA_PUSH=module:attr`` (a zero-argument factory), else :class:`LogPush`."""
    spec = env.get(PUSH, "").strip()
    if not spec:
        return LogPush()
    module, colon, attr = spec.partition(":")
    if not colon:
        raise ValueError(f"{PUSH}: {spec!r} is not module:attr")
    factory: Callable[[], PushSender] = getattr(importlib.import_module(module), attr)
    return factory()
