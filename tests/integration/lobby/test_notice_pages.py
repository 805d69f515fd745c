"""The notice projector writes a page of outbox notices together (``flush``: one round trip on one
Redis server, a call per write on the test cluster): each turn told once and in order, nothing told
twice after a redelivery or a restart, a write forestalled by another writer decided again from what
Redis holds, and a script Redis has forgotten loaded again."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis

from services.lobby.adapters import keys
from services.lobby.adapters.notices_repo import NoticeRepository
from services.lobby.domain.notices import Notice
from services.lobby.service_layer.notices import NoticeProjector
from shared.runtime.edge import wait
from shared.store import MatchStatus, OutboxNotice, Progress
from shared.store.redis_store import RedisEventStore
from tests.support.redis_cluster import RedisCluster
from tests.support.stores import cluster_client


class RecordingPush:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Notice]] = []

    def send(self, player_id: str, notice_id: str, notice: Notice) -> None:
        self.sent.append((player_id, notice))


@pytest.fixture(params=["redis", "cluster"])
def client(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "redis":
        yield request.getfixturevalue("redis_client")
        return
    cluster: RedisCluster = request.getfixturevalue("redis_cluster")
    found = cluster_client(cluster)
    yield found
    found.close()


class Counting:
    """The projector's writes: pages (``publish_many``), and appends decided again alone (``_publish``)."""

    def __init__(self, projector: NoticeProjector) -> None:
        self.singles = self.pages = 0
        many, again = projector.repo.publish_many, projector._publish

        def page(writes: Any) -> Any:
            self.pages += 1
            return many(writes)

        def alone(append: Any) -> None:
            self.singles += 1
            again(append)

        projector.repo.publish_many = page  # type: ignore[method-assign]
        projector._publish = alone  # type: ignore[method-assign]


def notice(match_id: str, version: int, to_act: tuple[int, ...], finished: bool = False) -> OutboxNotice:
    status = MatchStatus.FINISHED if finished else MatchStatus.ACTIVE
    return OutboxNotice(
        f"{version}-0", match_id, version, version, ("X",), "race", Progress(to_act, False, status)
    )


def told(push: RecordingPush) -> list[tuple[str, str, str, int]]:
    return [(player, n.match_id, n.kind.value, n.version) for player, n in push.sent]


def projector(client: Any, consumer: str = "c1") -> tuple[NoticeProjector, RecordingPush, Counting]:
    push = RecordingPush()
    found = NoticeProjector(RedisEventStore(client), NoticeRepository(client), push, consumer)
    return found, push, Counting(found)


def meta(client: Any, match_id: str, players: str) -> None:
    wait(RedisEventStore(client).set_meta(match_id, {"players": players, "seats": "3"}))


def test_a_page_of_two_matches_is_one_round_trip_and_tells_each_turn_once_in_order(client: Any) -> None:
    meta(client, "ma", '["ada", "", "bob"]')
    meta(client, "mb", '["cy", "dee", ""]')
    p, push, counting = projector(client)
    for n in [notice("ma", 1, (0,)), notice("mb", 1, (1,)), notice("ma", 2, (1,)), notice("ma", 3, (2,))]:
        p.queue(n)
    p.flush()
    assert counting.pages == 1 and counting.singles == 0
    assert told(push) == [
        ("ada", "ma", "match_started", 1),
        ("bob", "ma", "match_started", 1),
        ("ada", "ma", "your_turn", 1),
        ("cy", "mb", "match_started", 1),
        ("dee", "mb", "match_started", 1),
        ("dee", "mb", "your_turn", 1),
        ("bob", "ma", "your_turn", 3),
    ]
    for n in [notice("ma", 2, (1,)), notice("ma", 3, (2,))]:  # the page again (a redelivery): nothing
        p.queue(n)
    p.flush()
    assert len(push.sent) == 7 and counting.pages == 1  # decided from memory: no write, no read


def test_a_redelivered_notice_and_a_restarted_projector_tell_nothing_twice(client: Any) -> None:
    meta(client, "mc", '["ada", "", ""]')
    p, push, counting = projector(client)
    for version, seat in [(1, 0), (2, 1), (3, 2), (4, 1), (5, 2), (6, 0)]:
        p.queue(notice("mc", version, (seat,)))
    p.flush()
    p.handle(notice("mc", 4, (1,)))  # an old one redelivered: told nothing, written nothing
    p.handle(notice("mc", 7, (), finished=True))
    assert counting.pages == 2 and counting.singles == 0
    assert told(push) == [
        ("ada", "mc", "match_started", 1),
        ("ada", "mc", "your_turn", 1),
        ("ada", "mc", "your_turn", 6),
        ("ada", "mc", "match_ended", 7),
    ]
    # a projector that starts afresh (a restart) reads the value kept and tells nothing again
    fresh, again, _ = projector(client, "c2")
    fresh.handle(notice("mc", 7, (), finished=True))
    assert again.sent == []


def test_a_write_forestalled_by_another_writer_is_decided_again_from_redis(client: Any) -> None:
    meta(client, "md", '["ada", "bob"]')
    p, push, counting = projector(client)
    p.handle(notice("md", 1, (0,)))
    other, other_push, _ = projector(client, "c2")
    other.handle(notice("md", 2, (1,)))  # a second lobby told bob his turn at 2
    for n in [notice("md", 3, (0,)), notice("md", 4, (1,))]:
        p.queue(n)
    p.flush()  # its memory (1:0) is stale: 3 is refused and decided again alone; so then is 4
    assert counting.pages == 2 and counting.singles == 2
    assert told(other_push) == [("bob", "md", "your_turn", 2)]
    assert told(push)[3:] == [("ada", "md", "your_turn", 3), ("bob", "md", "your_turn", 4)]
    assert client.get(keys.acting("md")) == b"4:1"


def test_a_forgotten_script_is_loaded_again(redis_client: redis.Redis) -> None:
    meta(redis_client, "me", '["ada", "bob"]')
    p, push, counting = projector(redis_client)
    redis_client.script_flush()
    p.queue(notice("me", 1, (0,)))
    p.queue(notice("me", 2, (1,)))
    p.flush()
    assert counting.pages == 1 and counting.singles == 0
    assert [kind for _, _, kind, _ in told(push)] == [
        "match_started",
        "match_started",
        "your_turn",
        "your_turn",
    ]
