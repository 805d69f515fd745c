"""The notice projector reads who plays a match from its meta once per match, not once per notice
(the players are written once, by CreateMatch); a meta not written yet is read again; the memory
is bounded."""

from __future__ import annotations

import json
from typing import Any

from services.lobby.service_layer import notices
from services.lobby.service_layer.notices import NoticeProjector


class CountingStore:
    shards = 2

    def __init__(self, metas: dict[str, dict[str, str]]) -> None:
        self.metas, self.reads = metas, 0

    def outbox_key(self, shard: int) -> str:
        return f"{{s{shard:02d}}}:outbox"

    def outbox_groups(self) -> None:  # the projector's follower is never run here
        return None

    async def get_meta(self, match_id: str) -> dict[str, str]:
        self.reads += 1
        return self.metas.get(match_id, {})


def projector(store: Any) -> NoticeProjector:
    return NoticeProjector(store, repo=None, push=None, consumer="test")  # type: ignore[arg-type]


def meta(*players: str) -> dict[str, str]:
    return {"players": json.dumps(list(players))}


def test_players_are_read_once_per_match() -> None:
    store = CountingStore({"m1": meta("ada", "", "bob"), "m2": meta("cy", "")})
    p = projector(store)
    for _ in range(5):
        assert p.players("m1") == ("ada", "", "bob")
        assert p.players("m2") == ("cy", "")
    assert store.reads == 2


def test_a_match_without_meta_is_read_again() -> None:
    store = CountingStore({})
    p = projector(store)
    assert p.players("later") == ()
    store.metas["later"] = meta("ada")
    assert p.players("later") == ("ada",)
    assert store.reads == 2


def test_the_cache_is_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(notices, "PLAYERS_CACHED", 3)
    store = CountingStore({f"m{i}": meta(f"p{i}") for i in range(5)})
    p = projector(store)
    for i in range(5):
        p.players(f"m{i}")
    assert len(p._players) == 3
    p.players("m0")  # forgotten, so read again
    assert store.reads == 6


def test_the_acting_values_kept_are_the_most_recently_written(monkeypatch: Any) -> None:
    monkeypatch.setattr(notices, "PLAYERS_CACHED", 2)
    p = projector(CountingStore({}))
    for match_id, acting in [("a", "1:0"), ("b", "1:0"), ("a", "2:1"), ("c", "1:0")]:
        p._remember(match_id, acting)
    assert dict(p._written) == {"a": "2:1", "c": "1:0"}
