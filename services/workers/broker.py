"""The Celery broker transport: kombu's Redis transport, with one fix for a lost connection.

When the broker connection is lost, Celery 5.7 lets go of the connection's transport and reconnects.
A channel of the old connection can still be used afterwards: to acknowledge a task that was running
(``acks_late``), or to put a delivered message back when the channel closes. kombu 5.7's Redis
channel then builds a client from the transport it no longer has and fails with ``AttributeError``,
which Celery does not take for a connection error: the worker stops ("Unrecoverable error"), and
may hang on its way out, joining a pool child that waits to hand over its result (found by the fault
suite, docs/workers.md). Here such a channel raises Redis's ``ConnectionError`` instead, which
kombu and Celery handle as what it is: the acknowledgement is logged as failed and the message comes
back after the visibility timeout (its task then finds its work done), and the worker reconnects.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError

TRANSPORT = "services.workers.broker:Transport"  # Celery's ``broker_transport`` for a redis:// broker


class Channel(redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection of this channel was closed")
        return super()._connparams(asynchronous)  # type: ignore[no-untyped-call]  # kombu is untyped


class Transport(redis.Transport):
    Channel = Channel
