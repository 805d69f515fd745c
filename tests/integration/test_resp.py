"""The pipelined connection of the hot path's scripts (``shared.store.resp``), against a real Redis."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest
import redis
import redis.asyncio
import redis.exceptions

from shared.runtime.redis_server import free_port, start_redis
from shared.store import resp
from shared.store.resp import PipelinedConnection, script_on


def connection_to(redis_url: str, **kwargs: Any) -> PipelinedConnection:
    url = urlparse(redis_url)
    return PipelinedConnection(url.hostname or "127.0.0.1", url.port or 6379, **kwargs)


def test_replies_come_back_to_their_callers_in_order_and_errors_raise_as_in_redis_py(
    redis_client: redis.Redis, redis_url: str
) -> None:
    connection = connection_to(redis_url)
    redis_client.set("text", "x")

    async def calls() -> list[Any]:
        asked = [connection.call("INCR", "n") for _ in range(50)]
        asked.insert(10, connection.call("INCR", "text"))  # WRONGTYPE-like error in the middle
        asked.insert(20, connection.call("EVALSHA", "0" * 40, 0))  # a script the server does not know
        return await asyncio.gather(*asked, return_exceptions=True)

    answers = asyncio.run(calls())
    unknown, wrong = answers.pop(20), answers.pop(10)
    assert answers == list(range(1, 51))  # each INCR got its own reply, in the order asked
    assert type(wrong) is redis.exceptions.ResponseError and "not an integer" in str(wrong)
    assert isinstance(unknown, redis.exceptions.NoScriptError)
    assert redis_client.get("n") == b"50"


def test_a_caller_that_gives_up_takes_no_one_elses_reply(redis_client: redis.Redis, redis_url: str) -> None:
    connection = connection_to(redis_url)

    async def calls() -> tuple[Any, Any]:
        await connection.call("PING")  # connected: the calls below are asked at once
        gone = asyncio.ensure_future(connection.call("INCR", "a"))
        kept = asyncio.ensure_future(connection.call("INCR", "b"))
        await asyncio.sleep(0)
        gone.cancel()  # a deadline: its command was asked, its reply is skipped
        later = await connection.call("INCR", "a")
        return await kept, later

    assert asyncio.run(calls()) == (1, 2)  # "a" was incremented by the cancelled call all the same


def test_scripts_are_loaded_again_when_the_server_forgot_them(
    redis_client: redis.Redis, redis_url: str
) -> None:
    script = connection_to(redis_url).script("return redis.call('INCRBY', KEYS[1], ARGV[1])")

    async def run() -> list[Any]:
        first = await script(keys=["k"], args=[2])
        redis_client.script_flush()  # a restarted or flushed server
        return [first, await script(keys=["k"], args=[3])]

    assert asyncio.run(run()) == [2, 5]


def test_a_lost_connection_fails_what_waits_on_it_and_the_next_call_connects_again(
    redis_client: redis.Redis, redis_url: str
) -> None:
    connection = connection_to(redis_url)

    async def calls() -> tuple[list[Any], Any]:
        await connection.call("CLIENT", "SETNAME", "piped")
        waiting = [connection.call("BLPOP", "nothing", 5), connection.call("PING")]
        pending = asyncio.gather(*waiting, return_exceptions=True)
        await asyncio.sleep(0.1)  # both sent; BLPOP holds the connection's replies
        redis_client.client_kill_filter(_type="normal", skipme=True)
        return await pending, await connection.call("PING")

    failed, again = asyncio.run(calls())
    assert all(isinstance(f, redis.exceptions.ConnectionError) for f in failed)
    assert again == b"PONG"


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP port that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    try:
        yield listener.getsockname()[1]
    finally:
        listener.close()


def test_a_reply_owed_past_the_timeout_fails_the_calls_as_a_timeout(silent_server: int) -> None:
    connection = PipelinedConnection("127.0.0.1", silent_server, timeout=0.3)

    async def calls() -> list[Any]:
        first = asyncio.ensure_future(connection.call("PING"))
        await asyncio.sleep(0.1)
        second = asyncio.ensure_future(connection.call("PING"))
        return await asyncio.wait_for(asyncio.gather(first, second, return_exceptions=True), 5)

    answers = asyncio.run(calls())
    assert all(isinstance(a, redis.exceptions.TimeoutError) for a in answers)


def test_no_server_fails_every_caller_as_a_connection_error() -> None:
    connection = PipelinedConnection("127.0.0.1", free_port(), timeout=2)

    async def calls() -> list[Any]:
        return await asyncio.gather(*(connection.call("PING") for _ in range(3)), return_exceptions=True)

    assert all(isinstance(a, redis.exceptions.ConnectionError) for a in asyncio.run(calls()))


def test_password_and_database_are_those_of_the_client(tmp_path: Any) -> None:
    server = start_redis(folder=tmp_path)
    try:
        server.client().config_set("requirepass", "s3cret")
        client = redis.asyncio.Redis(port=server.port, db=3, password="s3cret")
        script = script_on(client, "return redis.call('SET', KEYS[1], ARGV[1])")
        wrong = PipelinedConnection("127.0.0.1", server.port, password="wrong")

        async def run() -> tuple[Any, Any]:
            done = await script(keys=["k"], args=["v"])
            refused = await asyncio.gather(wrong.call("PING"), return_exceptions=True)
            return done, refused[0]

        done, refused = asyncio.run(run())
        assert done == b"OK" and isinstance(refused, redis.exceptions.AuthenticationError)
        sync = redis.Redis(port=server.port, db=3, password="s3cret")
        assert sync.get("k") == b"v"
        sync.close()
    finally:
        server.stop()


def test_one_connection_serves_calls_from_one_event_loop_then_another(redis_url: str) -> None:
    connection = connection_to(redis_url)
    assert asyncio.run(connection.call("PING")) == b"PONG"
    assert asyncio.run(connection.call("ECHO", "again")) == b"again"


def test_only_a_plain_tcp_client_gets_the_pipelined_connection(redis_url: str, tmp_path: Any) -> None:
    tcp = redis.asyncio.Redis.from_url(redis_url)
    unix = redis.asyncio.Redis(unix_socket_path=str(tmp_path / "redis.sock"))
    assert script_on(tcp, "return 1").__qualname__.startswith("PipelinedConnection.script")
    assert isinstance(script_on(unix, "return 1"), redis.commands.core.AsyncScript)
    assert resp._CONNECTIONS.get(tcp) is not None and resp._CONNECTIONS.get(unix) is None
    assert script_on(tcp, "return 2") is not script_on(tcp, "return 2")  # a script each, one connection
    assert len([c for c in resp._CONNECTIONS if c is tcp]) == 1


def test_two_event_loops_calling_at_once_each_keep_their_own_connection(
    redis_client: redis.Redis, redis_url: str
) -> None:
    """A store shared by a server's loop and the sync edge's: calls from both, in turn and at the same
    time, each on its loop's connection (made once), none made again for the other loop's calls."""
    connection, made = connection_to(redis_url), []
    connect = PipelinedConnection._connect

    async def counted(self: PipelinedConnection) -> Any:
        made.append(asyncio.get_running_loop())
        return await connect(self)

    loops = [asyncio.new_event_loop() for _ in range(2)]
    threads = [threading.Thread(target=loop.run_forever, daemon=True) for loop in loops]
    for thread in threads:
        thread.start()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(PipelinedConnection, "_connect", counted)
            for _ in range(10):
                asked = [
                    asyncio.run_coroutine_threadsafe(connection.call("INCR", "n"), loop) for loop in loops
                ]
                [future.result(5) for future in asked]
        assert sorted(map(id, made)) == sorted(map(id, loops))  # one connection per loop, not one per switch
        assert int(redis_client.get("n") or 0) == 20
    finally:
        for loop in loops:
            loop.call_soon_threadsafe(loop.stop)
