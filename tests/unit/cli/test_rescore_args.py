"""``tabula rescore``'s arguments: an unknown game or a date that is not YYYY-MM-DD exits 2 with one
clear line, before any store is reached."""

from __future__ import annotations

import socket

import pytest
from typer.testing import CliRunner

from services.cli import app
from services.cli.rescore import since_ms

cli = CliRunner()


@pytest.fixture
def nowhere() -> str:
    """A Redis URL nobody listens on: a command that reached the store would fail there, exit 1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--since", "2026-13-01"], "'2026-13-01' is not a date YYYY-MM-DD"),
        (["--since", "yesterday"], "'yesterday' is not a date YYYY-MM-DD"),
    ],
)
def test_bad_input_exits_2_with_the_reason(args: list[str], said: str, nowhere: str) -> None:
    done = cli.invoke(app, ["rescore", "--redis-url", nowhere, *args])
    assert done.exit_code == 2, done.output
    assert said in " ".join(done.output.split()), done.output


def test_an_unreachable_store_is_not_bad_input(nowhere: str) -> None:
    done = cli.invoke(app, ["rescore", "--redis-url", nowhere, "--game", "lorenzo", "--since", "2026-01-02"])
    assert done.exit_code == 1 and "cannot reach Redis" in done.output, done.output


def test_since_is_midnight_utc_of_the_day() -> None:
    assert since_ms("1970-01-02") == 86_400_000
    assert since_ms("") == 0
