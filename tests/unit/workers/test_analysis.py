"""The analysis of a finished match: its decisions read back from the log, their ratings, the record.

A real game's match is played to its end through the runner on the in-memory store (every seat at
random, the one playout driver); the record's tests use the session's real Redis."""

from __future__ import annotations

import json
from typing import Any

import pytest
import redis

from services.games import load_game
from services.workers.analysis import NoSearch, analysis_bot, rate, rate_all
from services.workers.bots.heuristics import bot_hooks
from shared.core.rng import Rng
from shared.matches.analysis import AnalysisStore, Rating, Stalled, Status, decisions, label_seat
from shared.matches.runner import MatchRunner
from shared.matches.simulate import play_match
from shared.runtime.edge import wait
from shared.store import MatchMeta, MemoryEventStore, shard_of

GAME = "lorenzo"


def played_match(game: str = GAME, seed: int = 7) -> tuple[MatchRunner[Any], list[tuple[int, Any, Any]]]:
    """A finished two-seat match and what each seat played: (seat, state decided on, command)."""
    loaded = load_game(game)
    runner = MatchRunner(loaded.rules, loaded.codec, MemoryEventStore())
    wait(runner.create("m1", 2, {}, seed))
    played: list[tuple[int, Any, Any]] = []

    def step(state: Any, actor: Any, command: Any, legal: Any, new: Any) -> None:
        if actor.is_seat:
            played.append((actor.seat, state, command))

    wait(play_match(runner, "m1", seed, on_step=step))
    assert MatchMeta.of(wait(runner.store.get_meta("m1"))).finished
    return runner, played


@pytest.fixture(scope="module")
def match() -> tuple[MatchRunner[Any], list[tuple[int, Any, Any]]]:
    return played_match()


@pytest.mark.parametrize("seat", [0, 1])
def test_the_decisions_read_back_are_the_commands_played(match: Any, seat: int) -> None:
    runner, played = match
    events = wait(runner.store.read("m1"))
    found = decisions(
        runner.rules, runner.decode, events, MatchMeta.of(wait(runner.store.get_meta("m1"))).seed, seat
    )
    mine = [(state, command) for s, state, command in played if s == seat]
    assert [d.command for d in found] == [command for _, command in mine]
    assert [d.state for d in found] == [state for state, _ in mine]
    assert all(d.choices >= 1 for d in found)
    assert [d.version for d in found] == sorted({d.version for d in found})


def test_an_undone_command_is_no_decision() -> None:
    loaded = load_game(GAME)
    runner = MatchRunner(loaded.rules, loaded.codec, MemoryEventStore())
    wait(runner.create("u1", 2, {}, 3))
    head = wait(runner.load("u1"))
    seat = next(a for a in loaded.rules.to_act(head.state) if a.is_seat)
    before = len(decisions(loaded.rules, runner.decode, wait(runner.store.read("u1")), 3, seat.seat))
    command = loaded.rules.legal_commands(head.state, seat)[0]
    wait(runner.submit("u1", seat, command, head.version, "c1"))
    after = decisions(loaded.rules, runner.decode, wait(runner.store.read("u1")), 3, seat.seat)
    assert len(after) == before + 1 and after[-1].command == command
    wait(runner.undo("u1", seat.seat, "undo1", wait(runner.load("u1")).version))
    undone = decisions(loaded.rules, runner.decode, wait(runner.store.read("u1")), 3, seat.seat)
    assert len(undone) == before


def test_ratings_put_the_best_found_at_least_as_high_as_the_command_played(match: Any) -> None:
    runner, _ = match
    meta = MatchMeta.of(wait(runner.store.get_meta("m1")))
    found = decisions(runner.rules, runner.decode, wait(runner.store.read("m1")), meta.seed, 0)
    bot = analysis_bot(GAME, 8, 60)
    searched = [d for d in found if d.choices > 1][:6]
    assert searched
    for decision in searched:
        rated = rate(bot, runner.rules, decision, 0, 2, Rng(11))
        assert 0.0 <= rated.played_value <= rated.best_value <= 1.0
        assert rated.best in runner.rules.legal_commands(decision.state, _seat(0))
        assert rated.same == (rated.best == decision.command)


def _seat(seat: int) -> Any:
    from shared.core.decider import Actor

    return Actor.of_seat(seat)


def test_rate_all_skips_what_is_rated_and_stops_when_told(match: Any) -> None:
    runner, played = match
    bot = analysis_bot(GAME, 2, 60)
    seen: list[Rating] = []
    total: list[int] = []
    assert rate_all(runner, "m1", 1, bot, 0, set(), lambda r: seen.append(r) is None, total.append)
    assert total == [sum(1 for s, _, _ in played if s == 1)] and len(seen) == total[0]
    for r in seen:
        if r.forced:
            assert (r.choices, r.played, r.played_value, r.best_value, r.same) == (1, r.best, 0.0, 0.0, True)
        else:
            assert r.choices > 1 and r.played and r.best and r.played_value <= r.best_value
    assert any(not r.forced for r in seen)
    again: list[Rating] = []
    done = {r.version for r in seen[:-3]}
    assert rate_all(runner, "m1", 1, bot, 0, done, lambda r: again.append(r) is None)
    assert [r.version for r in again] == [r.version for r in seen[-3:]]
    stopped: list[Rating] = []
    assert not rate_all(runner, "m1", 1, bot, 0, set(), lambda r: stopped.append(r) is not None)
    assert len(stopped) == 1


def test_each_rating_is_worded_in_every_locale_and_an_old_one_reads_in_english(match: Any) -> None:
    runner, _ = match
    seen: list[Rating] = []
    assert not rate_all(
        runner,
        "m1",
        0,
        analysis_bot(GAME, 2, 30),
        0,
        set(),
        lambda r: seen.append(r) is None and len(seen) < 4,
    )
    assert len(seen) == 4
    for r in seen:
        assert set(r.words) == {"zh-CN", "pt-BR"}
        assert r.in_locale("en") == (r.played, r.best)
        for locale in ("zh-CN", "pt-BR"):
            played, best = r.in_locale(locale)
            assert played and best and (played == best) == (r.played == r.best)
        assert Rating.from_json(r.to_json()) == r
    assert any(r.in_locale("zh-CN")[0] != r.played for r in seen)  # Chinese words, not the English
    old = json.loads(seen[0].to_json())
    del old["words"]
    assert Rating.from_json(json.dumps(old)).in_locale("zh-CN") == (seen[0].played, seen[0].best)


def test_a_game_without_an_evaluation_has_no_search_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABULA_EXTRA_GAMES", "tests.support.nim.manifest:MANIFEST")
    bot_hooks.cache_clear()
    with pytest.raises(NoSearch):
        analysis_bot("nim", 10, 1)
    bot_hooks.cache_clear()


@pytest.mark.parametrize(
    ("label", "seat"),
    [
        ("seat:2", 2),
        ("bot:1:mcts", 1),
        ("timeout:0:greedy", 0),
        ("system", None),
        ("seat:x", None),
        ("", None),
    ],
)
def test_the_seat_of_an_actor_label(label: str, seat: int | None) -> None:
    assert label_seat(label) == seat


def test_the_record_sends_once_holds_one_owner_and_stores_each_rating_once(redis_client: redis.Redis) -> None:
    now = [1_000_000]
    records = AnalysisStore(redis_client, 16, lease_s=10, now_ms=lambda: now[0])
    assert not records.read("m1", 0).exists
    assert records.request("m1", 0, "p1", 0, 50, "lorenzo")
    assert not records.request("m1", 0, "p2", 0, 50, "lorenzo")  # under way: no second task
    assert records.claim("m1", 0, "w1") and not records.claim("m1", 0, "w2")
    rating = Rating(4, "a", "b", 0.2, 0.6, False, choices=3)
    assert records.renew("m1", 0, "w1", rating) and records.renew("m1", 0, "w1", rating)
    found = records.read("m1", 0)
    assert (found.status, found.by, found.iterations, found.ratings, found.duplicates) == (
        Status.RUNNING,
        "p1",
        50,
        (rating,),
        1,
    )
    assert not records.stalled("m1", 0)
    now[0] += 10_001  # w1 went silent past its lease: sent again, taken over, w1 stops
    assert records.stalled("m1", 0) and records.claim("m1", 0, "w2")
    assert not records.renew("m1", 0, "w1", Rating(9, "c", "c", 0.5, 0.5, True))
    assert records.read("m1", 0).ratings == (rating,)
    assert records.cancel("m1", 0) and not records.renew("m1", 0, "w2")
    assert records.read("m1", 0).status is Status.CANCELLED and not records.cancel("m1", 0)
    assert records.request("m1", 0, "p1", 0, 50, "lorenzo") and records.claim("m1", 0, "w3")
    assert records.finish("m1", 0, "w3") and records.read("m1", 0).status is Status.DONE
    assert not records.request("m1", 0, "p1", 0, 50, "lorenzo")
    assert records.read("m1", 0).ratings == (rating,)  # kept through the cancel and the new run


def test_a_failed_analysis_records_why_and_may_be_asked_again(redis_client: redis.Redis) -> None:
    records = AnalysisStore(redis_client, 16)
    assert records.request("m2", 1, "p1", 0, 50, "lorenzo") and records.claim("m2", 1, "w1")
    assert records.fail("m2", 1, "w1", "no legal command gives the events")
    found = records.read("m2", 1)
    assert found.status is Status.FAILED and "no legal command" in found.error
    assert records.request("m2", 1, "p1", 0, 50, "lorenzo") and records.read("m2", 1).error == ""


def test_the_jobs_whose_lease_ran_out_are_found_per_shard_once(redis_client: redis.Redis) -> None:
    now = [5_000_000]
    records = AnalysisStore(redis_client, 16, lease_s=10, now_ms=lambda: now[0])
    for match_id in ("a1", "a2", "a3"):
        assert records.request(match_id, 1, "p1", 0, 50, "lorenzo") and records.claim(match_id, 1, "w1")
    assert records.finish("a2", 1, "w1") and records.cancel("a3", 1)
    shards = {shard_of(m, 16) for m in ("a1", "a2", "a3")}
    assert not [s for shard in shards for s in records.resume(shard)]  # every lease still runs
    now[0] += 10_001
    found = [s for shard in shards for s in records.resume(shard)]
    assert found == [Stalled("a1", "lorenzo", 1)]  # done and cancelled jobs left the index
    assert not [s for shard in shards for s in records.resume(shard)]  # renewed: sent once
    assert records.read("a1", 1).status is Status.QUEUED and records.claim("a1", 1, "w2")


def test_a_sweep_sends_at_most_its_limit_and_drops_entries_whose_record_is_gone(
    redis_client: redis.Redis,
) -> None:
    now = [9_000_000]
    records = AnalysisStore(redis_client, 16, lease_s=10, now_ms=lambda: now[0])
    shard = shard_of("b0", 16)
    same = ["b0", *[m for m in (f"b{i}" for i in range(1, 200)) if shard_of(m, 16) == shard][:2]]
    for match_id in same:
        assert records.request(match_id, 0, "p1", 0, 50, "lorenzo")
    redis_client.delete(records.key(same[2], 0))  # its record expired or was removed: the entry stays
    now[0] += 10_001
    first = records.resume(shard, limit=1)
    assert [s.match_id for s in first] == [same[0]]  # one only (equal leases: by name)
    assert [s.match_id for s in records.resume(shard, limit=5)] == [same[1]]  # the gone one dropped
    assert redis_client.zscore(records.index(shard), f"{same[2]}|0") is None
    assert records.head(same[0], 0).status is Status.QUEUED and records.head(same[0], 0).ratings == ()
