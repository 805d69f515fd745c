"""Scripts on the hot path over one pipelined connection per Redis server and event loop.

A rule service's ``SubmitCommand`` runs Lua scripts on the serving loop: the rate limits' bucket and
the append. Through ``redis.asyncio`` each costs, besides the round trip, about as much Python as the
rest of the handler (a connection taken from the pool and given back, the command packed in Python,
the reply read through its parser's coroutines). Here every script call of one
event loop goes over one TCP connection instead (:class:`PipelinedConnection`):

* the command is packed by hiredis (C) and queued; the commands asked in one turn of the loop are
  written together, in one ``send``;
* Redis answers a connection's commands in the order they came, so the replies, parsed by hiredis,
  are handed to the callers first in, first out; a caller that gave up (a deadline) is skipped;
* an error reply raises the exception redis-py raises for it (``NoScriptError``, ``ReadOnlyError``,
  ``BusyLoadingError``, ``ResponseError``...), so the services' error table maps it as before;
* a connection that cannot be made, is lost or owes a reply longer than ``timeout`` fails every call
  waiting on it with ``redis.exceptions.ConnectionError`` / ``TimeoutError`` (the services answer
  UNAVAILABLE); the next call connects again. Nothing is retried here: a lost append may or may not
  have run, and the command id makes the client's retry safe.

:func:`script_on` gives this for a ``redis.asyncio.Redis`` on TCP; any other client (a cluster, TLS,
a Unix socket) runs its scripts as redis-py does (``register_script``).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import hiredis
import redis.asyncio
import redis.exceptions
from redis._parsers.base import BaseParser

_Loop = asyncio.AbstractEventLoop
Script = Callable[..., Awaitable[Any]]  # called as script(keys=[...], args=[...])
TIMEOUT_S = 30.0  # as the services' redis.asyncio clients' socket_timeout (shared.runtime.config)
# an error reply's text -> the exception redis-py raises for it (redis-py's own table, pinned version)
_error_of: Callable[[str], Exception] = BaseParser.parse_error


class _Protocol(asyncio.Protocol):
    """One connection's replies, handed out in order to the futures waiting for them."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.reader = hiredis.Reader()
        self.waiting: deque[tuple[asyncio.Future[Any], float]] = deque()
        self.queued: list[bytes] = []  # packed commands not yet written (written once per loop turn)
        self.transport: asyncio.Transport | None = None
        self.lost: redis.exceptions.RedisError | None = None
        self.watchdog: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def ask(self, args: Sequence[Any]) -> asyncio.Future[Any]:
        if self.lost is not None:
            raise _again(self.lost)
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if not self.queued:
            loop.call_soon(self._write)
        self.queued.append(hiredis.pack_command(tuple(args)))
        self.waiting.append((future, time.monotonic()))
        if self.watchdog is None:
            self.watchdog = loop.call_later(self.timeout, self._check)
        return future

    def _write(self) -> None:
        if self.queued and self.lost is None and self.transport is not None:
            self.transport.write(b"".join(self.queued))
        self.queued.clear()

    def data_received(self, data: bytes) -> None:
        try:
            self.reader.feed(data)
            while (reply := self.reader.gets()) is not False:
                future, _ = self.waiting.popleft()
                if future.done():
                    continue  # its caller gave up
                if isinstance(reply, hiredis.ReplyError):
                    future.set_exception(_error_of(str(reply)))
                else:
                    future.set_result(reply)
        except (hiredis.ProtocolError, IndexError) as err:  # not Redis, or a reply nobody asked for
            self._fail(redis.exceptions.ConnectionError(f"bad reply from Redis: {err!r}"))

    def _check(self) -> None:
        """Every ``timeout`` while replies are owed: a reply owed that long ends the connection."""
        self.watchdog = None
        if not self.waiting or self.lost is not None:
            return
        owed_s = time.monotonic() - self.waiting[0][1]
        if owed_s >= self.timeout:
            self._fail(redis.exceptions.TimeoutError(f"no reply from Redis in {self.timeout:g} s"))
        else:
            self.watchdog = asyncio.get_running_loop().call_later(self.timeout - owed_s, self._check)

    def _fail(self, error: redis.exceptions.RedisError) -> None:
        self.connection_lost(error)
        if self.transport is not None:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.lost is None:
            if isinstance(exc, redis.exceptions.RedisError):  # from _fail
                self.lost = exc
            else:
                why = "closed by Redis" if exc is None else f"lost: {exc!r}"
                self.lost = redis.exceptions.ConnectionError(f"Connection to Redis {why}")
        for future, _ in self.waiting:
            if not future.done():
                future.set_exception(_again(self.lost))
        self.waiting.clear()
        self.queued.clear()
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None


def _again(error: redis.exceptions.RedisError) -> redis.exceptions.RedisError:
    """A fresh exception like ``error``, for each caller it fails (no traceback shared between them)."""
    return type(error)(*error.args)


class PipelinedConnection:
    """Commands from every coroutine of an event loop over one connection (module docstring): one
    connection per event loop that calls, made on its first call and again on the first call after
    it was lost."""

    def __init__(
        self,
        host: str,
        port: int,
        db: int = 0,
        username: str | None = None,
        password: str | None = None,
        timeout: float = TIMEOUT_S,
    ) -> None:
        self.host, self.port, self.db = host, port, db
        self.username, self.password, self.timeout = username, password, timeout
        self._protocols: weakref.WeakKeyDictionary[_Loop, _Protocol] = weakref.WeakKeyDictionary()
        self._connecting: weakref.WeakKeyDictionary[_Loop, asyncio.Future[_Protocol]] = (
            weakref.WeakKeyDictionary()
        )

    async def call(self, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        protocol = self._protocols.get(loop)
        if protocol is None or protocol.lost is not None:
            protocol = await self._connected(loop)
        return await protocol.ask(args)

    async def _connected(self, loop: asyncio.AbstractEventLoop) -> _Protocol:
        connecting = self._connecting.get(loop)
        if connecting is None or connecting.done():
            self._protocols.pop(loop, None)
            connecting = self._connecting[loop] = loop.create_task(self._connect())
        return await asyncio.shield(connecting)

    async def _connect(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        try:
            _, protocol = await asyncio.wait_for(
                loop.create_connection(lambda: _Protocol(self.timeout), self.host, self.port), self.timeout
            )
        except (TimeoutError, OSError) as err:
            raise redis.exceptions.ConnectionError(
                f"Error connecting to {self.host}:{self.port}: {err!r}"
            ) from err
        try:
            if self.password:
                await protocol.ask(
                    ("AUTH", self.username, self.password) if self.username else ("AUTH", self.password)
                )
            if self.db:
                await protocol.ask(("SELECT", self.db))
        except BaseException:
            protocol._fail(redis.exceptions.ConnectionError("AUTH or SELECT failed"))
            raise
        self._protocols[loop] = protocol
        return protocol

    def script(self, text: str) -> Script:
        """``text`` run by ``EVALSHA``; a server that does not know it (``NOSCRIPT``: restarted, or
        flushed) is sent it with ``SCRIPT LOAD``, then it runs again."""
        sha = hashlib.sha1(text.encode()).hexdigest()

        async def run(keys: Sequence[Any] = (), args: Sequence[Any] = ()) -> Any:
            try:
                return await self.call("EVALSHA", sha, len(keys), *keys, *args)
            except redis.exceptions.NoScriptError:
                await self.call("SCRIPT", "LOAD", text)
                return await self.call("EVALSHA", sha, len(keys), *keys, *args)

        return run


_CONNECTIONS: weakref.WeakKeyDictionary[Any, PipelinedConnection] = weakref.WeakKeyDictionary()


def script_on(client: Any, text: str) -> Script:
    """The script ``text`` for ``client`` (a ``redis.asyncio`` client, bytes out): over the client's
    server's :class:`PipelinedConnection` (one per client) when it is a plain TCP ``Redis``, else as
    ``client.register_script`` runs it."""
    pool = getattr(client, "connection_pool", None)
    if (
        type(client) is not redis.asyncio.Redis
        or pool is None
        or pool.connection_class is not redis.asyncio.Connection
    ):
        script: Script = client.register_script(text)
        return script
    connection = _CONNECTIONS.get(client)
    if connection is None:
        kw = pool.connection_kwargs
        connection = _CONNECTIONS[client] = PipelinedConnection(
            kw.get("host", "localhost"),
            int(kw.get("port", 6379)),
            int(kw.get("db", 0) or 0),
            kw.get("username"),
            kw.get("password"),
            float(kw.get("socket_timeout") or TIMEOUT_S),
        )
    return connection.script(text)
