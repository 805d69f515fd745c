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
    _kept: tuple[Any, Any] | None = None  # (pool, client): the synchronous client of the current pool

    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection of this channel was closed")
        return super()._connparams(asynchronous)  # type: ignore[no-untyped-call]  # kombu is untyped

    def _create_client(self, asynchronous: bool = False) -> Any:
        """kombu builds a new client for every command of a channel (each task sent, each
        acknowledgement), and redis-py 8 fills a table of some 170 reply callbacks for every client
        built: a fifth of the CPU of sending a task. A client over the channel's pool holds no
        connection of its own, so one is kept per pool; a channel whose pools were let go (a lost
        connection) builds its next pool, or fails, exactly as before."""
        if asynchronous:
            return super()._create_client(True)  # type: ignore[no-untyped-call]
        pool = self.pool
        if self._kept is None or self._kept[0] is not pool:
            self._kept = (pool, super()._create_client(False))  # type: ignore[no-untyped-call]
        return self._kept[1]


class Transport(redis.Transport):
    Channel = Channel
