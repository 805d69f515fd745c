"""Where the running stack is: what ``tabula run`` recorded, so the tools find it without flags.

``tabula run`` writes ``stack.json`` beside its data folder (``.tabula/stack.json`` by default,
git-ignored) once every service is up, and removes it when it stops: its pid, the Redis URL (the
embedded Redis listens on a free port, never 6379), the shard count, each service's address and the
archive folder of finished matches.
The tools (``export``, ``import``, ``replay``, ``watch``, ``health``, ``play``) take an address from,
in order: an explicit flag, the environment (``REDIS_URL``; ``TABULA_<SERVICE>_ADDR`` or
``TABULA_<SERVICE>_PORT``), this file. With none of them they stop with :data:`NO_STACK` rather
than guess a default port where some other Redis may be listening.

The file is looked up in ``$TABULA_STATE_DIR`` when that is set, else in the nearest ``.tabula/``
folder from the current directory upward (like git finds ``.git``). A file whose ``tabula run`` is
no longer alive (killed without cleaning up) does not count.

Only the standard library here: ``tabula --help`` imports this module.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shared.store.redis_store import RedisEventStore

STACK_FILE = "stack.json"
STATE_DIR = "TABULA_STATE_DIR"
NO_STACK = "no running stack found; start it with make run or set REDIS_URL"


class NoStack(RuntimeError):
    """Nothing says where the stack is: no flag, no environment variable, no live stack file."""

    def __init__(self, what: str = "") -> None:
        super().__init__(NO_STACK + (f" (or {what})" if what else ""))


@dataclass(frozen=True)
class Stack:
    """What ``tabula run`` started, as recorded in ``stack.json``."""

    pid: int
    redis_url: str
    redis_cluster: bool = False
    shards: int = 16
    services: Mapping[str, str] = field(default_factory=dict)  # name -> host:port
    http: tuple[str, ...] = ()  # the services whose port speaks HTTP (health: GET /healthz)
    archive_dir: str = ""  # the archive folder of finished matches (TABULA_ARCHIVE_DIR), if any
    path: Path | None = None

    def to_json(self) -> str:
        return json.dumps(
            {
                "pid": self.pid,
                "redis_url": self.redis_url,
                "redis_cluster": self.redis_cluster,
                "shards": self.shards,
                "services": dict(self.services),
                "http": list(self.http),
                "archive_dir": self.archive_dir,
            },
            indent=2,
        )

    @staticmethod
    def from_json(text: str, path: Path | None = None) -> Stack:
        data = json.loads(text)
        return Stack(
            pid=int(data["pid"]),
            redis_url=str(data["redis_url"]),
            redis_cluster=bool(data.get("redis_cluster", False)),
            shards=int(data.get("shards", 16)),
            services={str(k): str(v) for k, v in data.get("services", {}).items()},
            http=tuple(str(x) for x in data.get("http", ())),
            archive_dir=str(data.get("archive_dir", "")),
            path=path,
        )


def stack_path_for(data: Path) -> Path:
    """Where ``tabula run --data DATA`` records its stack: beside DATA (``.tabula/stack.json``)."""
    return data.resolve().parent / STACK_FILE


def write_stack(path: Path, stack: Stack) -> None:
    """Write atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(stack.to_json() + "\n")
    tmp.replace(path)


def remove_stack(path: Path, pid: int) -> None:
    """Remove the file if it is still ours (another ``tabula run`` may have replaced it)."""
    try:
        if Stack.from_json(path.read_text()).pid == pid:
            path.unlink()
    except (OSError, ValueError, KeyError):
        pass


def is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, someone else's
    return True


def state_dir(env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Path | None:
    """``$TABULA_STATE_DIR``, else the nearest existing ``.tabula/`` from ``cwd`` upward, else None."""
    e = env if env is not None else os.environ
    if e.get(STATE_DIR):
        return Path(e[STATE_DIR])
    here = (cwd or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / ".tabula").is_dir():
            return folder / ".tabula"
    return None


def find_stack(env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Stack | None:
    """The live stack recorded in the state folder, or None."""
    folder = state_dir(env, cwd)
    if folder is None:
        return None
    path = folder / STACK_FILE
    try:
        stack = Stack.from_json(path.read_text(), path)
    except (OSError, ValueError, KeyError):
        return None
    return stack if is_alive(stack.pid) else None


@dataclass(frozen=True)
class RedisTarget:
    url: str
    cluster: bool
    shards: int


def redis_target(
    flag: str = "", env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> RedisTarget:
    """The Redis of the tools: ``--redis-url``, else ``REDIS_URL``, else the running stack's; else NoStack."""
    e = env if env is not None else os.environ
    cluster = e.get("TABULA_REDIS_CLUSTER", "0") == "1"
    shards = int(e.get("TABULA_SHARDS", "16"))
    if flag or e.get("REDIS_URL"):
        return RedisTarget(flag or e["REDIS_URL"], cluster, shards)
    stack = find_stack(e, cwd)
    if stack is None:
        raise NoStack()
    return RedisTarget(stack.redis_url, stack.redis_cluster, stack.shards)


def service_address(
    name: str, flag: str = "", env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> str:
    """``host:port`` of a service: the flag, else ``TABULA_<NAME>_ADDR`` / ``_PORT``, else the running
    stack's; else NoStack naming the variable to set."""
    e = env if env is not None else os.environ
    key = f"TABULA_{name.upper()}"
    if flag:
        return flag
    if e.get(f"{key}_ADDR"):
        return e[f"{key}_ADDR"]
    if e.get(f"{key}_PORT"):
        return f"127.0.0.1:{e[f'{key}_PORT']}"
    stack = find_stack(e, cwd)
    if stack is None:
        raise NoStack(f"set {key}_ADDR")
    if name not in stack.services:
        raise NoStack(f"the running stack has no {name!r}; set {key}_ADDR")
    return stack.services[name]


REDIS_URL_HELP = "the Redis to use (default: REDIS_URL, else the stack `tabula run` recorded)"


@contextmanager
def event_store(redis_url: str) -> Iterator[RedisEventStore]:
    """The event store of the running stack; a missing stack or an unreachable Redis is one clear line."""
    import redis
    import typer

    from shared.matches.runner import MatchNotFound
    from shared.runtime.config import Settings
    from shared.store.clients import store_from_settings

    try:
        target = redis_target(redis_url)
    except NoStack as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from err
    cluster, shards = str(int(target.cluster)), str(target.shards)
    settings = Settings.from_env(
        {"REDIS_URL": target.url, "TABULA_REDIS_CLUSTER": cluster, "TABULA_SHARDS": shards}
    )
    try:
        yield store_from_settings(settings)
    except redis.ConnectionError as err:
        typer.echo(f"cannot reach Redis at {target.url}: {err}", err=True)
        raise typer.Exit(1) from err
    except MatchNotFound as err:
        typer.echo(f"{err} in the store at {target.url}", err=True)
        raise typer.Exit(1) from err
