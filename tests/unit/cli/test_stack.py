"""Where the tools look for the stack: flag, then environment, then the live stack file; never a guess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from services.cli.stack import (
    NO_STACK,
    NoStack,
    Stack,
    find_stack,
    redis_target,
    remove_stack,
    service_address,
    stack_path_for,
    write_stack,
)


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _stack(pid: int) -> Stack:
    return Stack(
        pid=pid,
        redis_url="redis://127.0.0.1:41234/0",
        shards=8,
        services={"lobby": "127.0.0.1:41001", "gateway": "127.0.0.1:41002"},
        http=("gateway",),
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project folder whose `tabula run --data .tabula/redis` is this test process."""
    write_stack(stack_path_for(tmp_path / ".tabula" / "redis"), _stack(os.getpid()))
    return tmp_path


def test_the_stack_file_is_written_beside_the_data_folder(tmp_path: Path) -> None:
    assert stack_path_for(tmp_path / ".tabula" / "redis") == tmp_path / ".tabula" / "stack.json"


def test_tools_find_the_live_stack_from_a_subfolder(project: Path) -> None:
    sub = project / "a" / "b"
    sub.mkdir(parents=True)
    found = find_stack(env={}, cwd=sub)
    assert found is not None and found.redis_url == "redis://127.0.0.1:41234/0" and found.shards == 8
    assert redis_target(env={}, cwd=sub).url == "redis://127.0.0.1:41234/0"
    assert redis_target(env={}, cwd=sub).shards == 8
    assert service_address("lobby", env={}, cwd=sub) == "127.0.0.1:41001"


def test_flag_then_environment_win_over_the_stack_file(project: Path) -> None:
    env = {"REDIS_URL": "redis://10.0.0.1:7000/0", "TABULA_LOBBY_PORT": "5999"}
    assert redis_target("redis://flag:1/0", env=env, cwd=project).url == "redis://flag:1/0"
    assert redis_target(env=env, cwd=project).url == "redis://10.0.0.1:7000/0"
    assert service_address("lobby", "h:1", env=env, cwd=project) == "h:1"
    assert service_address("lobby", env=env, cwd=project) == "127.0.0.1:5999"
    assert service_address("lobby", env={"TABULA_LOBBY_ADDR": "lb:80"}, cwd=project) == "lb:80"


def test_no_stack_is_an_error_never_port_6379(tmp_path: Path) -> None:
    with pytest.raises(NoStack) as err:
        redis_target(env={}, cwd=tmp_path)
    assert str(err.value) == NO_STACK == "no running stack found; start it with make run or set REDIS_URL"
    with pytest.raises(NoStack, match="TABULA_LOBBY_ADDR"):
        service_address("lobby", env={}, cwd=tmp_path)


def test_a_stack_file_left_by_a_dead_run_does_not_count(tmp_path: Path) -> None:
    write_stack(tmp_path / ".tabula" / "stack.json", _stack(_dead_pid()))
    assert find_stack(env={}, cwd=tmp_path) is None
    with pytest.raises(NoStack):
        redis_target(env={}, cwd=tmp_path)


def test_state_dir_from_the_environment(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    env = {"TABULA_STATE_DIR": str(project / ".tabula")}
    assert service_address("gateway", env=env, cwd=elsewhere) == "127.0.0.1:41002"
    with pytest.raises(NoStack, match="no 'florenza'"):
        service_address("florenza", env=env, cwd=elsewhere)


def test_remove_only_our_own_file(project: Path) -> None:
    path = project / ".tabula" / "stack.json"
    remove_stack(path, os.getpid() + 1)
    assert path.exists()
    remove_stack(path, os.getpid())
    assert not path.exists()
