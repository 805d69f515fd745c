"""Redis memory stays flat: 50 finished four-player matches leave a bounded outbox and no match keys.

Only structural facts are asserted (figures vary with the allocator; ``tabula bench --only memory``
reports them): after trimming no notice is left, after archiving no key of any match is left and
the only keys are the per-shard outbox streams (empty, with their groups)."""

from __future__ import annotations

import redis

from bench.memory import GROUPS, measure
from services.games import default_game, load_game
from shared.matches.runner import MatchRunner
from shared.store.redis_store import RedisEventStore

MATCHES = 50


def test_fifty_finished_matches_leave_an_empty_outbox_and_no_match_keys(redis_client: redis.Redis) -> None:
    game = load_game(default_game())
    store = RedisEventStore(redis_client, shards=4)
    runner = MatchRunner(game.rules, game.codec, store)
    report = measure(store, runner, game.manifest.max_seats, {}, MATCHES)
    assert report.matches == MATCHES and report.events > MATCHES * 100
    assert report.outbox_entries == 0
    assert list(redis_client.scan_iter(match="*:match:*")) == []
    left = {key.decode() for key in redis_client.scan_iter()}
    assert left == {store.outbox_key(shard) for shard in range(store.shards)}
    for key in left:
        assert {g["name"].decode() for g in redis_client.xinfo_groups(key)} == set(GROUPS)
    assert report.archived < report.trimmed < report.kept
