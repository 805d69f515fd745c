"""Which appends write no outbox notice: those no follower acts on (``shared.store.quiet``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.core.decider import Actor
from shared.matches.runner import MatchRunner
from shared.runtime.edge import wait
from shared.store import Followed, MatchMeta, MatchStatus, MemoryEventStore, Progress, quiet, shard_of
from tests.support.json_codec import JsonCodec
from tests.support.race.manifest import race_rules
from tests.support.race.rules import RaceState, Roll

ACTIVE, FINISHED = MatchStatus.ACTIVE, MatchStatus.FINISHED
PEOPLE = Followed()  # seats nobody signed in for, no bots, no clock


def on(*seats: int, system: bool = False, status: MatchStatus = ACTIVE) -> Progress:
    return Progress(tuple(seats), system, status)


@pytest.mark.parametrize(
    ("before", "after", "followed", "expected"),
    [
        (on(0), on(1), PEOPLE, True),  # a move between people nobody signed in for
        (on(0), on(system=True), PEOPLE, False),  # a system step due: the reactor plans it
        (on(system=True), on(0), PEOPLE, True),  # the system step done, a person to act
        (on(0), on(status=FINISHED), PEOPLE, False),  # the end: ratings, notices, the archive
        (on(0), on(1), Followed(clock=True), False),  # the clocks move with every append
        (on(0), on(1), Followed(bots=frozenset({1})), False),  # a bot to act
        (on(1), on(1), Followed(bots=frozenset({1})), False),  # still a bot: the chain goes on
        (on(1), on(0), Followed(bots=frozenset({1})), True),  # the bot done, a person's turn
        (on(0), on(1), Followed(players=frozenset({1})), False),  # a player's turn: the lobby says so
        (on(0), on(0), Followed(players=frozenset({0})), True),  # the same player goes on
        (on(0, 1), on(1), Followed(players=frozenset({0, 1})), False),  # one of two players done
        (on(0), on(1), Followed(players=frozenset({0})), False),  # a player's turn over
    ],
)
def test_an_append_is_quiet_when_no_follower_acts_on_it(
    before: Progress, after: Progress, followed: Followed, expected: bool
) -> None:
    assert quiet(before, after, followed) is expected


def test_what_is_followed_comes_from_the_meta_fixed_at_creation() -> None:
    meta = MatchMeta.from_fields(
        {"bots": json.dumps({"2": "random"}), "players": json.dumps(["p0", "", ""]), "turn_seconds": "30"}
    )
    assert Followed.of(meta) == Followed(frozenset({2}), frozenset({0}), clock=True)
    assert Followed.of(MatchMeta.from_fields({})) == Followed()


def _runner(store: MemoryEventStore) -> MatchRunner[RaceState]:
    rules: Any = race_rules()
    return MatchRunner(rules, JsonCodec([*rules.command_types, *rules.event_types]), store)


def _notified(store: MemoryEventStore, match_id: str) -> list[int]:
    return [n.last_version for n in wait(store.read_outbox(shard_of(match_id, store.shards)))]


@pytest.mark.parametrize("fresh", [False, True], ids=["cached", "loaded"])
@pytest.mark.parametrize(
    ("players", "notified"),
    [(["", ""], [3]), (["p0", "p1"], [3, 4])],
    ids=["nobody signed in", "two players"],
)
def test_the_runner_writes_a_notice_only_for_appends_a_follower_acts_on(
    players: list[str], notified: list[int], fresh: bool
) -> None:
    """After the setup (version 3), a roll passes the turn: quiet unless the next seat is a player's.
    The same whether the runner decides on its cached state or on one it loads (another instance)."""
    store = MemoryEventStore()
    runner = _runner(store)
    version = wait(runner.create("m1", 2, {}, seed=1, extra_meta={"players": json.dumps(players)})).version
    assert version == 3 and _notified(store, "m1") == [3]
    if fresh:
        runner = _runner(store)
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "roll"))
    assert _notified(store, "m1") == notified
