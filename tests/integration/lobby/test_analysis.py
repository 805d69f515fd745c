"""Analysis of a finished match end to end: the lobby's AnalyzeMatch / GetAnalysis / CancelAnalysis over
real gRPC, a real Celery worker on the ``analysis`` queue, the record in the test's Redis.

A Lorenzo match is played to its end at random through the runner (no game service needed: the
lobby reads the match's meta, the worker its log); the search runs a handful of iterations per
decision (what is checked is that every decision is rated once, not how well)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import analysis_pb2 as apb

from services.games import load_game
from services.lobby.adapters.match_index import PrivateMatches
from shared.matches.analysis import AnalysisStore, decisions
from shared.matches.archive import LocalArchive, archive_name, export_lines, pack
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.config import Settings
from shared.runtime.edge import wait
from shared.store import EventStore, MatchMeta
from shared.store.clients import store_from_settings
from tests.integration.lobby.conftest import ROOT, LobbyFactory, fails, sign_in
from tests.integration.workers.conftest import Processes
from tests.support.timing import wait_until

GAME = "lorenzo"
LEASE = "2"


@pytest.fixture
def store(redis_url: str, redis_client: redis.Redis) -> EventStore:
    return store_from_settings(Settings.from_env({"REDIS_URL": redis_url}), redis_client)


def finished(store: EventStore, match_id: str, seed: int = 5, play: bool = True) -> MatchRunner[Any]:
    loaded = load_game(GAME)
    runner = MatchRunner(loaded.rules, loaded.codec, store)
    wait(runner.create(match_id, 2, {}, seed))
    if play:
        wait(play_match(runner, match_id, seed))
    return runner


def seat_versions(runner: MatchRunner[Any], match_id: str, seat: int) -> list[int]:
    meta = MatchMeta.of(wait(runner.store.get_meta(match_id)))
    found = decisions(runner.rules, runner.decode, wait(runner.store.read(match_id)), meta.seed, seat)
    return [d.version for d in found]


@pytest.fixture
def workers(redis_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Processes]:
    env = {k: v for k, v in os.environ.items() if k != "TABULA_EXTRA_GAMES"}
    env |= {
        "REDIS_URL": redis_url,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
        "TABULA_WORKER_POOL": "solo",
        "TABULA_WORKER_QUEUES": "analysis",
        "TABULA_METRICS_PORT": "-1",
        "TABULA_ANALYSIS_LEASE": LEASE,
        "TABULA_ARCHIVE_DIR": str(tmp_path / "archive"),
        "TABULA_LOG_LEVEL": "INFO",
    }
    running = Processes(env, tmp_path)
    yield running
    running.stop_all()
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        print(running.logs())


def full_logs(workers: Processes) -> str:
    return "".join(p.read_text(errors="replace") for p in workers.folder.glob("*.log"))


def lobby_stub(make_lobby: LobbyFactory, tmp_path: Path, iterations: int) -> Any:
    from tabula.lobby.v1 import lobby_pb2_grpc

    env = {
        "TABULA_ANALYSIS_ITERATIONS": str(iterations),
        "TABULA_ANALYSIS_LEASE": LEASE,
        "TABULA_ARCHIVE_DIR": str(tmp_path / "archive"),
    }
    lobby = make_lobby(limits=False, env=env)
    return lobby_pb2_grpc.LobbyServiceStub(grpc.insecure_channel(f"127.0.0.1:{lobby.port}"))


def get(stub: Any, md: Any, match_id: str, seat: int) -> Any:
    request = apb.GetAnalysisRequest(match_id=match_id, seat=seat)
    return stub.GetAnalysis(request, metadata=md, timeout=10).analysis


def done(stub: Any, md: Any, match_id: str, seat: int, timeout: float = 240) -> Any:
    return wait_until(
        lambda: (found := get(stub, md, match_id, seat)).status == apb.ANALYSIS_STATUS_DONE and found,
        timeout,
        "the analysis done",
        interval=0.3,
    )


def analyze(stub: Any, md: Any, match_id: str, seat: int) -> Any:
    request = apb.AnalyzeMatchRequest(match_id=match_id, seat=seat)
    return stub.AnalyzeMatch(request, metadata=md, timeout=10).analysis


def test_every_decision_of_the_seat_is_rated_once_in_slices(
    make_lobby: LobbyFactory, workers: Processes, store: EventStore, tmp_path: Path, redis_client: redis.Redis
) -> None:
    runner = finished(store, "an-1")
    stub = lobby_stub(make_lobby, tmp_path, iterations=4)
    guest = sign_in(stub, "Ada")
    workers.start("worker", TABULA_ANALYSIS_SLICE="0")  # one move a task: the job goes on in new tasks
    asked = analyze(stub, guest.md, "an-1", 1)
    assert asked.status == apb.ANALYSIS_STATUS_QUEUED and asked.iterations == 4
    found = done(stub, guest.md, "an-1", 1)
    versions = seat_versions(runner, "an-1", 1)
    assert [m.version for m in found.moves] == versions and found.decisions == len(versions)
    assert all(m.played and m.best for m in found.moves)
    assert all(0 <= m.played_value <= m.best_value <= 1 for m in found.moves)
    assert all(m.same == (m.played == m.best) for m in found.moves if m.same)
    assert any(not m.forced for m in found.moves)
    assert AnalysisStore(redis_client, 16).read("an-1", 1).duplicates == 0
    assert '"result": "continued"' in full_logs(workers)  # it took more than one slice
    again = analyze(stub, guest.md, "an-1", 1)  # asked again once done: the same analysis, no new job
    assert again == found
    chinese = get(stub, [*guest.md, ("accept-language", "zh-CN")], "an-1", 1)  # the moves in its words
    record = AnalysisStore(redis_client, 16).read("an-1", 1)
    assert [(m.played, m.best) for m in chinese.moves] == [r.in_locale("zh-CN") for r in record.ratings]
    assert any(c.played != e.played for c, e in zip(chinese.moves, found.moves, strict=True))

    # `tabula analyze` reads the same analysis: a row per decision, the summary under the table
    from typer.testing import CliRunner

    from services.cli.main import app

    lobby = f"127.0.0.1:{make_lobby.started[-1].port}"
    args = ["analyze", "an-1", "--seat", "1", "--token", guest.token, "--lobby", lobby, "--wait"]
    shown = CliRunner().invoke(app, args, env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    assert "best was" in shown.output
    assert f"done: {len(versions)} of {len(versions)} decisions rated" in shown.output
    searched = [m for m in found.moves if not m.forced]
    assert f"played in {sum(m.same for m in searched)} of {len(searched)} searched decisions" in shown.output
    for move in found.moves:
        assert re.search(rf"^\s*{move.version}\s", shown.output, re.M), move.version
    portuguese = CliRunner().invoke(app, [*args, "--lang", "pt-BR"], env={"COLUMNS": "300"})
    assert portuguese.exit_code == 0, portuguese.output
    assert "a melhor era" in portuguese.output and "best was" not in portuguese.output
    assert f"concluída: {len(versions)} de {len(versions)} decisões avaliadas" in portuguese.output


def test_a_killed_worker_s_job_goes_on_from_the_last_stored_move(
    make_lobby: LobbyFactory, workers: Processes, store: EventStore, tmp_path: Path, redis_client: redis.Redis
) -> None:
    runner = finished(store, "an-2", seed=9)
    stub = lobby_stub(make_lobby, tmp_path, iterations=120)
    guest = sign_in(stub, "Ada")
    first = workers.start("worker")
    analyze(stub, guest.md, "an-2", 0)
    wait_until(lambda: len(get(stub, guest.md, "an-2", 0).moves) >= 3, 120, "three moves rated", interval=0.1)
    workers.kill(first)  # SIGKILL mid-job: its message is gone with it
    rated = len(get(stub, guest.md, "an-2", 0).moves)
    assert rated < len(seat_versions(runner, "an-2", 0)), "the worker was killed before the end"
    workers.start("worker")
    found = done(stub, guest.md, "an-2", 0)  # a read past the lease sends the job again
    versions = seat_versions(runner, "an-2", 0)
    assert [m.version for m in found.moves] == versions
    assert AnalysisStore(redis_client, 16).read("an-2", 0).duplicates == 0


def test_the_reactor_sends_a_dead_worker_s_job_again_when_nobody_asks(
    make_lobby: LobbyFactory, workers: Processes, store: EventStore, tmp_path: Path, redis_client: redis.Redis
) -> None:
    runner = finished(store, "an-8", seed=6)
    stub = lobby_stub(make_lobby, tmp_path, iterations=120)
    guest = sign_in(stub, "Ada")
    first = workers.start("worker")
    analyze(stub, guest.md, "an-8", 1)
    records = AnalysisStore(redis_client, 16)
    wait_until(lambda: len(records.read("an-8", 1).ratings) >= 2, 120, "two moves rated", interval=0.1)
    workers.kill(first)
    assert len(records.read("an-8", 1).ratings) < len(seat_versions(runner, "an-8", 1))
    workers.start("worker")
    workers.start("reactor", TABULA_SWEEP_INTERVAL="0.5", TABULA_REACTOR_BLOCK_MS="100")
    wait_until(lambda: records.read("an-8", 1).status.value == "done", 240, "the analysis done", interval=0.3)
    found = records.read("an-8", 1)
    assert [r.version for r in found.ratings] == seat_versions(runner, "an-8", 1) and found.duplicates == 0
    assert "stalled analysis sent again" in full_logs(workers)


def test_a_cancelled_analysis_stops_between_moves_and_goes_on_when_asked_again(
    make_lobby: LobbyFactory, workers: Processes, store: EventStore, tmp_path: Path, redis_client: redis.Redis
) -> None:
    runner = finished(store, "an-3", seed=4)
    stub = lobby_stub(make_lobby, tmp_path, iterations=120)
    guest = sign_in(stub, "Ada")
    workers.start("worker")
    analyze(stub, guest.md, "an-3", 1)
    wait_until(lambda: len(get(stub, guest.md, "an-3", 1).moves) >= 2, 120, "two moves rated", interval=0.1)
    reply = stub.CancelAnalysis(
        apb.CancelAnalysisRequest(match_id="an-3", seat=1), metadata=guest.md, timeout=10
    )
    assert reply.cancelled and reply.analysis.status == apb.ANALYSIS_STATUS_CANCELLED
    wait_until(lambda: '"result": "stopped"' in full_logs(workers), 60, "the worker stopped the job")
    stopped = get(stub, guest.md, "an-3", 1)
    assert stopped.status == apb.ANALYSIS_STATUS_CANCELLED
    assert len(stopped.moves) < len(seat_versions(runner, "an-3", 1))
    again = stub.CancelAnalysis(
        apb.CancelAnalysisRequest(match_id="an-3", seat=1), metadata=guest.md, timeout=10
    )
    assert not again.cancelled
    analyze(stub, guest.md, "an-3", 1)
    found = done(stub, guest.md, "an-3", 1)
    assert [m.version for m in found.moves] == seat_versions(runner, "an-3", 1)
    assert [m for m in found.moves][: len(stopped.moves)] == list(stopped.moves)  # kept, not rated again
    assert AnalysisStore(redis_client, 16).read("an-3", 1).duplicates == 0


def test_an_archived_match_is_analysed_from_its_log(
    make_lobby: LobbyFactory, workers: Processes, store: EventStore, tmp_path: Path
) -> None:
    runner = finished(store, "an-4", seed=2)
    versions = seat_versions(runner, "an-4", 0)
    LocalArchive(tmp_path / "archive").put(
        archive_name("an-4"), pack(wait(export_lines(store, "an-4", runner.codec)))
    )
    head = MatchMeta.of(wait(store.get_meta("an-4"))).head
    assert wait(store.delete_match("an-4", head)) and not wait(store.get_meta("an-4"))  # type: ignore[attr-defined]
    stub = lobby_stub(make_lobby, tmp_path, iterations=3)
    guest = sign_in(stub, "Ada")
    workers.start("worker")
    analyze(stub, guest.md, "an-4", 0)
    assert [m.version for m in done(stub, guest.md, "an-4", 0).moves] == versions


def test_refusals(
    make_lobby: LobbyFactory, store: EventStore, tmp_path: Path, redis_client: redis.Redis
) -> None:
    finished(store, "an-5", play=False)
    finished(store, "an-6")
    stub = lobby_stub(make_lobby, tmp_path, iterations=3)
    ada, bob = sign_in(stub, "Ada"), sign_in(stub, "Bob")
    fails(lambda: analyze(stub, ada.md, "an-5", 0), grpc.StatusCode.FAILED_PRECONDITION, "match_not_finished")
    fails(lambda: analyze(stub, ada.md, "an-6", 2), grpc.StatusCode.INVALID_ARGUMENT, "unknown_seat")
    fails(lambda: get(stub, ada.md, "an-6", -1), grpc.StatusCode.INVALID_ARGUMENT, "unknown_seat")
    fails(lambda: analyze(stub, ada.md, "nothing", 0), grpc.StatusCode.NOT_FOUND)
    PrivateMatches(redis_client).restrict("an-6", {ada.player_id})
    fails(lambda: analyze(stub, bob.md, "an-6", 0), grpc.StatusCode.PERMISSION_DENIED)
    fails(lambda: get(stub, bob.md, "an-6", 0), grpc.StatusCode.PERMISSION_DENIED)
    assert analyze(stub, ada.md, "an-6", 0).status == apb.ANALYSIS_STATUS_QUEUED
    # nothing was recorded for the refused requests
    assert not AnalysisStore(redis_client, 16).read("an-5", 0).exists
    assert get(stub, ada.md, "an-6", 1).status == apb.ANALYSIS_STATUS_UNSPECIFIED


def test_a_game_without_a_search_bot_is_refused(
    make_lobby: LobbyFactory,
    store: EventStore,
    tmp_path: Path,
    redis_client: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nim's manifest brings no bot hooks: no evaluation, no search bot."""
    monkeypatch.setenv(
        "TABULA_EXTRA_GAMES", "tests.support.race.manifest:MANIFEST,tests.support.nim.manifest:MANIFEST"
    )
    meta = {"game": "nim", "seats": "2", "seed": "1", "version": "9", "status": "finished"}
    wait(store.set_meta("an-7", meta))
    stub = lobby_stub(make_lobby, tmp_path, iterations=3)
    ada = sign_in(stub, "Ada")
    assert MatchMeta.from_fields(meta).finished
    fails(lambda: analyze(stub, ada.md, "an-7", 0), grpc.StatusCode.FAILED_PRECONDITION, "no_search_bot")
    assert not AnalysisStore(redis_client, 16).read("an-7", 0).exists
