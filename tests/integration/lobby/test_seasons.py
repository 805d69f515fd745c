"""Seasons against real Redis and the real lobby over gRPC: matches ending on either side of a
season's start are rated in their own seasons, the older season's board is kept, a rebuild of the
ratings from the outbox after the rollover puts every match back in its season, ListSeasons, and
the refusals (nothing changed)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb
from tabula.lobby.v1 import lobby_pb2_grpc, seasons_pb2
from typer.testing import CliRunner

from services.cli import app
from services.lobby.adapters import keys
from services.lobby.domain.ratings import SkillRating, rate
from services.lobby.server import Lobby
from shared.runtime.edge import wait
from shared.serving.errors import bad_request
from shared.store.redis_store import RedisEventStore
from tests.integration.lobby.conftest import Guest, LobbyFactory, fails, sign_in, state_size
from tests.integration.lobby.test_ratings import _replay_outbox, eventually, play_to_the_end

FIRST = "2020-01-01"
ROOT = Path(__file__).resolve().parents[3]


def board(stub: Any, guest: Guest, season: str = "") -> Any:
    request = pb.GetLeaderboardRequest(game="race", season=season)
    return stub.GetLeaderboard(request, metadata=guest.md, timeout=5)


def entries(stub: Any, guest: Guest, season: str = "") -> dict[str, tuple[int, float]]:
    """Each player's (matches, mu) on a board, by name."""
    return {e.display_name: (e.matches, e.mu) for e in board(stub, guest, season).entries}


def stub_of(lobby: Lobby) -> Any:
    return lobby_pb2_grpc.LobbyServiceStub(grpc.insecure_channel(f"127.0.0.1:{lobby.port}"))


def ended_ms(client: redis.Redis, match_id: str) -> int:
    """When the match's last event was stored (its end)."""
    return wait(RedisEventStore(client).read(match_id))[-1].server_time_ms


def seasons_kept(client: redis.Redis, start: str) -> list[Any]:
    """Both seasons' ratings and boards as stored."""
    found: list[Any] = []
    for season in (FIRST, start):
        found.append(client.hgetall(keys.season_ratings("race", season)))
        found.append(client.zrange(keys.season_leaderboard("race", season), 0, -1, withscores=True))
    return found


def test_matches_on_either_side_of_a_season_start_land_in_their_seasons(
    make_lobby: LobbyFactory, race_stub: Any, redis_client: redis.Redis
) -> None:
    first = make_lobby(env={"TABULA_SEASONS": FIRST})
    stub = stub_of(first)
    ada, bob, cy = sign_in(stub, "Ada"), sign_in(stub, "Bob"), sign_in(stub, "Cy")
    old_match, _ = play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: len(board(stub, ada).entries) == 2)
    # the operator schedules the next season to start right after that match ended, and restarts
    start_s = math.ceil((ended_ms(redis_client, old_match) + 1) / 1000)
    start = datetime.fromtimestamp(start_s, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    while time.time() < start_s:
        time.sleep(0.05)
    first.stop(0)
    make_lobby.started.remove(first)
    second = make_lobby(env={"TABULA_SEASONS": f"{FIRST},{start}"})
    stub = stub_of(second)
    new_match, placings = play_to_the_end(stub, race_stub, ada, cy)
    assert ended_ms(redis_client, new_match) >= start_s * 1000
    eventually(lambda: len(board(stub, ada).entries) == 2)

    def check() -> None:
        now = board(stub, cy)
        assert now.season == seasons_pb2.Season(id=start, starts_at_ms=start_s * 1000, current=True)
        fresh = rate([SkillRating(), SkillRating()], placings)  # a new season starts everyone afresh
        assert entries(stub, cy) == {"Ada": (1, fresh[0].mu), "Cy": (1, fresh[1].mu)}
        old = board(stub, cy, FIRST)
        assert old.season == seasons_pb2.Season(
            id=FIRST, starts_at_ms=1577836800000, ends_at_ms=start_s * 1000
        )
        assert {name: n for name, (n, _) in entries(stub, cy, FIRST).items()} == {"Ada": 1, "Bob": 1}
        all_time = entries(stub, cy, "all")
        assert {name: n for name, (n, _) in all_time.items()} == {"Ada": 2, "Bob": 1, "Cy": 1}
        assert board(stub, cy, "all").season == seasons_pb2.Season(id="all")
        history = stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=ada.md, timeout=5).entries
        assert [(h.match_id, h.season) for h in history] == [(new_match, start), (old_match, FIRST)]
        assert history[0].rating_after == next(e.rating for e in now.entries if e.display_name == "Ada")
        listed = stub.ListSeasons(seasons_pb2.ListSeasonsRequest(), metadata=ada.md, timeout=5)
        assert [(s.id, s.current) for s in listed.seasons] == [(start, True), (FIRST, False)]
        assert listed.current == start

    check()
    before = seasons_kept(redis_client, start)
    # a rebuild after the rollover: every rating, board and history gone, the outbox read again
    _replay_outbox([second], redis_client)
    for pattern in ("*rating*", "*leaderboard*", "history:*", "rated", "seasons"):
        for key in redis_client.scan_iter(f"{keys.P}:{pattern}"):
            redis_client.delete(key)
    assert second.projector.poll() >= 2
    assert seasons_kept(redis_client, start) == before
    check()


def test_a_lobby_without_matches_lists_its_current_season(stub: Any) -> None:
    ada = sign_in(stub, "Ada")
    listed = stub.ListSeasons(seasons_pb2.ListSeasonsRequest(), metadata=ada.md, timeout=5)
    (current,) = listed.seasons
    now = datetime.now(UTC)
    assert current.id == listed.current == f"{now.year}-q{(now.month - 1) // 3 + 1}" and current.current
    assert current.starts_at_ms <= time.time() * 1000 < current.ends_at_ms
    answered = board(stub, ada)
    assert answered.season == current and list(answered.entries) == []


def test_a_list_of_seasons_not_begun_answers_the_all_time_board(make_lobby: LobbyFactory) -> None:
    stub = stub_of(make_lobby(env={"TABULA_SEASONS": "2999-01-01"}))
    ada = sign_in(stub, "Ada")
    assert board(stub, ada).season == seasons_pb2.Season(id="all")
    listed = stub.ListSeasons(seasons_pb2.ListSeasonsRequest(), metadata=ada.md, timeout=5)
    assert list(listed.seasons) == [] and listed.current == ""
    fails(lambda: board(stub, ada, "2999-01-01"), grpc.StatusCode.NOT_FOUND, "season_unknown")


@pytest.mark.parametrize(
    ("season", "code", "reason"),
    [
        ("2027 q1", grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument"),
        ("x" * 33, grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument"),
        ("2999-q1", grpc.StatusCode.NOT_FOUND, "season_unknown"),  # not begun
        ("2020-01", grpc.StatusCode.NOT_FOUND, "season_unknown"),  # a month: the schedule is quarterly
        ("2020-q5", grpc.StatusCode.NOT_FOUND, "season_unknown"),
    ],
)
def test_a_bad_season_is_refused_and_changes_nothing(
    stub: Any, redis_client: redis.Redis, season: str, code: grpc.StatusCode, reason: str
) -> None:
    ada = sign_in(stub, "Ada")
    before = state_size(redis_client)
    err = fails(lambda: board(stub, ada, season), code, reason)
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        detail = bad_request(err)
        assert detail is not None and [v.field for v in detail.field_violations] == ["season"]
    assert state_size(redis_client) == before


@pytest.mark.parametrize("schedule", ["weekly", "2027-03-01,2027-01-01", "2027-02-30"])
def test_a_bad_schedule_is_refused_at_start_up(make_lobby: LobbyFactory, schedule: str) -> None:
    with pytest.raises(ValueError, match="TABULA_SEASONS"):
        make_lobby(env={"TABULA_SEASONS": schedule})


def test_the_terminal_client_shows_a_season_board_and_the_seasons(
    make_lobby: LobbyFactory, race_stub: Any
) -> None:
    """``tabula leaderboard race --season`` and ``tabula seasons`` against the lobby."""
    lobby = make_lobby(env={"TABULA_SEASONS": FIRST})
    stub = stub_of(lobby)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    play_to_the_end(stub, race_stub, ada, bob)
    eventually(lambda: len(board(stub, ada).entries) == 2)
    cli, where = CliRunner(), ["--token", ada.token, "--lobby", f"127.0.0.1:{lobby.port}"]

    def run(*args: str) -> list[str]:
        done = cli.invoke(app, [*args, *where])
        assert done.exit_code == 0, done.output
        return str(done.output).splitlines()

    shown = run("leaderboard", "race", "--season", FIRST)
    assert shown[0] == f"race, season {FIRST}  2020-01-01 00:00 .. no end yet  (current)"
    assert [line.split()[0] for line in shown[1:]] == ["1", "2"]
    assert {line.split()[-1] for line in shown[1:]} == {"Ada", "Bob"}
    assert run("leaderboard", "race", "--season", "all")[0] == "race, season all  all-time"
    assert run("seasons") == [f"{FIRST}  2020-01-01 00:00 .. no end yet  (current)"]
    refused = cli.invoke(app, ["leaderboard", "race", "--season", "2020-06-01", *where])
    assert refused.exit_code == 1 and "season_unknown" in refused.output
    # in Portuguese (--lang), the lobby's refusal too; in Chinese from the environment
    assert run("leaderboard", "race", "--season", "all", "--lang", "pt-BR")[0] == (
        "race, temporada all  de todos os tempos"
    )
    assert run("seasons", "--lang", "pt-BR") == [f"{FIRST}  2020-01-01 00:00 .. sem fim ainda  (atual)"]
    refused = cli.invoke(app, ["leaderboard", "race", "--season", "2020-06-01", "--lang", "pt-BR", *where])
    assert refused.exit_code == 1 and "season_unknown" in refused.output
    assert "nenhuma temporada '2020-06-01' começou" in refused.output
    chinese = cli.invoke(app, ["seasons", *where], env={"LC_ALL": "zh_CN.UTF-8"})
    assert chinese.output.splitlines() == [f"{FIRST}  2020-01-01 00:00 .. 尚未结束  （本赛季）"]
    assert run("seasons", "--lang", "en") == [f"{FIRST}  2020-01-01 00:00 .. no end yet  (current)"]


def test_the_lobby_process_refuses_to_start_with_a_bad_schedule(tmp_path: Path) -> None:
    """``tabula serve lobby`` exits before serving, saying what is wrong with TABULA_SEASONS."""
    env = os.environ | {
        "REDIS_URL": "redis://127.0.0.1:1/0",  # never reached
        "PYTHONPATH": f"{ROOT}:{ROOT / 'gen'}",
        "TABULA_SECRET": "seasons-test-secret-0123456789abcdef",
        "TABULA_LOBBY_PORT": "0",
        "TABULA_SEASONS": "2027-01-01,weekly",
    }
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "serve", "lobby"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = " ".join(done.stderr.split())  # a traceback printer may wrap the message
    assert done.returncode == 1 and "TABULA_SEASONS: 'weekly' is neither a period" in said, done.stderr


def test_ratings_stored_before_seasons_read_as_all_time(stub: Any, redis_client: redis.Redis) -> None:
    """What a lobby without seasons stored (the same all-time keys, history entries without a season)
    stays readable as it was: the all-time board, and history entries rated in no season."""
    ada = sign_in(stub, "Ada")
    redis_client.hset(keys.ratings("race"), ada.player_id, "27.5:7.0:3")
    redis_client.zadd(keys.leaderboard("race"), {ada.player_id: 27.5 - 21.0})
    old = '{"match": "m-old", "game": "race", "seat": 0, "placing": 1, "placings": [1, 2], '
    old += '"finished": 1700000000000, "rating": 6.5}'
    redis_client.zadd(keys.history(ada.player_id), {old: 1700000000000})
    (entry,) = board(stub, ada, "all").entries
    assert (entry.display_name, entry.mu, entry.sigma, entry.matches) == ("Ada", 27.5, 7.0, 3)
    assert list(board(stub, ada).entries) == []  # the current season has no match of hers
    (item,) = stub.GetMatchHistory(pb.GetMatchHistoryRequest(), metadata=ada.md, timeout=5).entries
    assert (item.match_id, item.season, item.rating_after) == ("m-old", "", 6.5)
