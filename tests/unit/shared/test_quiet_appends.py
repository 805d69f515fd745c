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
        (on(1), on(0, 1), Followed(players=frozenset({0, 1})), False),  # another player may act too
        (on(0, 1), on(1), Followed(players=frozenset({0, 1})), True),  # one of two players done
        (on(0), on(1), Followed(players=frozenset({0})), True),  # a player's turn over: the next notice says
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


def test_a_player_watching_live_sees_their_turn_so_handing_it_to_them_is_quiet() -> None:
    players = Followed(players=frozenset({0, 1}))
    watching = players.seen_until(1, 5_000)
    assert quiet(on(0), on(1), watching.at(4_999)) is True
    assert quiet(on(0), on(1), watching.at(5_000)) is False  # the mark ran out
    assert quiet(on(0), on(1), watching.seen_until(1, 0).at(0)) is False  # cleared
    assert quiet(on(0), on(status=FINISHED), watching.at(0)) is False  # the end is told all the same
    assert quiet(on(1), on(0), watching.at(0)) is False  # p0 does not watch


def test_seen_marks_round_trip_through_the_meta_and_reach_what_is_followed() -> None:
    fields = {
        "players": json.dumps(["p0", "p1"]),
        **MatchMeta.seen_mark(1, 7_000),
        **MatchMeta.seen_mark(0, 0),
    }
    meta = MatchMeta.from_fields(fields)
    assert meta.seen == {1: 7_000, 0: 0} and not meta.other
    assert MatchMeta.from_fields(meta.fields()) == meta
    assert Followed.of(meta).seen == ((1, 7_000),)


def test_the_runner_counts_a_watching_player_and_the_notice_names_the_seats_before() -> None:
    store = MemoryEventStore()
    runner = _runner(store)
    version = wait(
        runner.create("m1", 2, {}, seed=1, extra_meta={"players": json.dumps(["p0", "p1"])})
    ).version
    wait(runner.mark_seen("m1", 1, 2**62))
    wait(runner.submit("m1", Actor.of_seat(0), Roll(), version, "a"))  # p1 watches: quiet
    assert _notified(store, "m1") == [3]
    assert MatchMeta.from_fields(wait(store.get_meta("m1"))).seen == {1: 2**62}
    wait(runner.mark_seen("m1", 1, 0))
    wait(runner.submit("m1", Actor.of_seat(1), Roll(), version + 1, "b"))  # a system step due
    (first, notice) = wait(store.read_outbox(shard_of("m1", store.shards)))
    assert (first.was, notice.was) == ((), (1,))
