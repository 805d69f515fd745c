"""The generic rule service's GetContent and seats, over real gRPC and a private Redis.

GetContent answers a game's typed components (Lorenzo's, Trajan's and Florenza's, through their
manifests' content hooks) with no token; a game without a hook answers an empty message. The names and bot
levels CreateMatch brings label the seats in GetView, Replay, and every watched or exported event's actor."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
import redis

from services.florenza.content import load_content as load_florenza_content
from services.florenza.rules.content_types import Area
from services.games import load_game, manifest
from services.lorenzo.content import load_content
from services.trajan.content import load_content as load_trajan_content
from shared.matches.runner import MatchRunner
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import RunningServer, start_server
from shared.serving.tokens import TokenSigner
from shared.store import MatchMeta
from shared.store.redis_store import RedisEventStore
from tests.integration.test_game_service import race_modules  # noqa: F401 (fixture)
from tests.support.game_server import served_stub

SIGNER = TokenSigner(b"content-seats-secret-0123456789abcdef")
SERVICE = [("authorization", "Bearer " + SIGNER.service("race"))]


def seat(match_id: str, n: int) -> list[tuple[str, str]]:
    return [("authorization", "Bearer " + SIGNER.seat("race", match_id, n, f"p{n}"))]


def content_of(name: str, client: redis.Redis) -> tuple[Any, Any]:
    """(the game's generated module, what GetContent answers without a token) from its rule service with
    its manifest's content hook, as ``tabula serve`` builds it; asked twice, the same (built once)."""
    game = load_game(name)
    hook = manifest(name).content
    assert hook is not None
    request = game.modules.pb2.GetContentRequest()
    with served_stub(game, client, SIGNER, content=hook.build) as stub:
        reply = stub.GetContent(request, timeout=10)
        assert stub.GetContent(request, timeout=10) == reply
    return game.modules.pb2, reply.content


@pytest.fixture
def race(race_modules: Any, redis_client: redis.Redis) -> Iterator[Any]:  # noqa: F811
    from shared.core.codec import MessageCodec
    from tests.support.race.manifest import race_rules

    rules = race_rules()
    codec = MessageCodec(race_modules.pb2, [*rules.event_types, *rules.command_types, rules.view_type])
    runner = MatchRunner(rules, codec, RedisEventStore(redis_client))
    running: RunningServer = start_server(
        [GameServicer(runner, race_modules, SIGNER, keepalive_s=0.2).registration()]
    )
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        yield race_modules.pb2_grpc.RaceServiceStub(channel)
    running.stop(0)


def test_lorenzo_content_comes_typed_with_texts_and_without_a_token(redis_client: redis.Redis) -> None:
    (pb2, content), source = content_of("lorenzo", redis_client), load_content()
    assert [c.id for c in content.cards] == [c.id for c in source.cards]
    assert [x.name for x in content.leaders] == [x.name for x in source.leaders]
    assert len(content.excommunications) == len(source.excommunications) == 21
    assert [s.id for s in content.spaces] == [s.id for s in source.board.spaces]
    assert [p.privilege for p in content.privileges] == [1, 2, 3, 4, 5]
    pope = next(c for c in content.cards if c.name == "Support to the Pope")
    assert [(c.pay.coins, c.pay.military, c.require_military) for c in pope.costs] == [(4, 0, 0), (0, 5, 10)]
    assert pope.card_type == pb2.CARD_TYPE_VENTURE and pope.end_victory == 10
    assert pope.text.startswith("Support to the Pope: venture card, period 3. Cost: 4 coins")
    assert "or 5 military (you must own 10 military)" in pope.text
    assert content.board.faith_victory[15] == 30 and content.board.text


def test_trajan_content_comes_typed_with_texts_and_without_a_token(redis_client: redis.Redis) -> None:
    (pb2, content), source = content_of("trajan", redis_client), load_trajan_content()
    assert [t.id for t in content.trajan_tiles] == [t.id for t in source.trajan_tiles]
    assert [p.name for p in content.provinces] == [p.name for p in source.provinces]
    assert len(content.sites) == len(source.board.sites) and len(content.bowls) == 6
    britannia = next(p for p in content.provinces if p.name == "Britannia")
    assert britannia.text.startswith(f"Britannia: {britannia.vp} VP for a legionnaire")
    bonus = content.bonus_tiles[0]
    assert bonus.kind == pb2.BONUS_KIND_DEMAND and bonus.HasField("demand") and bonus.text


def test_florenza_content_comes_typed_with_texts_and_without_a_token(redis_client: redis.Redis) -> None:
    (pb2, content), source = content_of("florenza", redis_client), load_florenza_content()
    assert [w.id for w in content.workshops] == [w.id for w in source.workshops]
    assert [a.name for a in content.artists] == [a.name for a in source.artists]
    assert [p.id for p in content.preachers] == [p.id for p in source.preachers]
    assert [w.id for w in content.works] == [w.id for w in source.works]
    assert len(content.life) == 7 and len(content.income_die) == 6 and len(content.trades) == 3
    duomo = [w for w in content.works if w.area == pb2.AREA_DUOMO]
    assert duomo and all(w.text and w.failure_penalty == source.board.failure(Area.DUOMO) for w in duomo)
    assert "income_die" in content.board.project_defined and content.income_die[0].text


def test_a_game_without_a_content_hook_answers_an_empty_message(race: Any, race_modules: Any) -> None:  # noqa: F811
    reply = race.GetContent(race_modules.pb2.GetContentRequest(), timeout=5)
    assert reply.ListFields() == [] and not hasattr(reply, "content")


def test_seats_are_labelled_with_the_names_and_bots_of_create_match(race: Any, race_modules: Any) -> None:  # noqa: F811
    pb2 = race_modules.pb2
    create = pb2.CreateMatchRequest(
        match_id="named",
        seats=3,
        seed=4,
        players=["p0", "", "p2"],
        display_names=["Ada", "", ""],
        bots={1: "greedy"},
    )
    race.CreateMatch(create, metadata=SERVICE, timeout=5)
    labels = [("Ada", "", "Ada"), ("", "greedy", "greedy bot"), ("", "", "seat 2")]
    view = race.GetView(pb2.GetViewRequest(match_id="named"), metadata=seat("named", 0), timeout=5)
    assert [(s.seat, s.display_name, s.bot_level, s.label) for s in view.seats] == [
        (n, *label) for n, label in enumerate(labels)
    ]
    replay = race.Replay(pb2.ReplayRequest(match_id="named", version=1), metadata=seat("named", 0), timeout=5)
    assert [s.label for s in replay.seats] == ["Ada", "greedy bot", "seat 2"]
    roll = pb2.SubmitCommandRequest(
        match_id="named", expected_version=view.version, command_id="c1", command=pb2.Command(roll=pb2.Roll())
    )
    race.SubmitCommand(roll, metadata=seat("named", 0), timeout=5)
    watched = race.WatchMatch(
        pb2.WatchMatchRequest(match_id="named", from_version=1), metadata=seat("named", 1), timeout=5
    )
    events = []
    for item in watched:
        if item.WhichOneof("item") != "event":
            break
        events.append(item.event)
    assert [e.HasField("actor_seat") for e in events[:-1]] == [False] * (len(events) - 1)  # setup: the system
    assert events[-1].envelope.actor == "seat:0" and events[-1].actor_seat.label == "Ada"


def test_display_names_are_checked_like_players(race: Any, race_modules: Any) -> None:  # noqa: F811
    pb2 = race_modules.pb2
    for names in (["a", "b", "c"], ["x" * 65]):
        request = pb2.CreateMatchRequest(match_id="bad", seats=2, display_names=names)
        with pytest.raises(grpc.RpcError) as err:
            race.CreateMatch(request, metadata=SERVICE, timeout=5)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "display_names" in (
            err.value.details() or ""
        )


def test_get_view_shows_the_turn_clock_of_each_human_seat_to_act(
    race: Any,
    race_modules: Any,  # noqa: F811
    redis_client: redis.Redis,
) -> None:
    """A match with a turn clock: GetView gives each human seat to act its seconds and what is left,
    shorter once the seat is marked away; a match without one, and a bot's seat, have none."""
    pb2 = race_modules.pb2
    race.CreateMatch(
        pb2.CreateMatchRequest(match_id="clocked", seats=2, seed=4, turn_seconds=30),
        metadata=SERVICE,
        timeout=5,
    )
    race.CreateMatch(pb2.CreateMatchRequest(match_id="free", seats=2, seed=4), metadata=SERVICE, timeout=5)
    race.CreateMatch(
        pb2.CreateMatchRequest(
            match_id="bots", seats=2, seed=4, turn_seconds=30, bots={0: "greedy", 1: "greedy"}
        ),
        metadata=SERVICE,
        timeout=5,
    )
    view = race.GetView(pb2.GetViewRequest(match_id="clocked"), metadata=seat("clocked", 0), timeout=5)
    assert view.seats_to_act and [c.seat for c in view.clocks] == list(view.seats_to_act)
    assert all(c.seconds == 30 and 0 < c.remaining_ms <= 30_000 and not c.away for c in view.clocks)
    asyncio.run(
        RedisEventStore(redis_client).set_meta("clocked", MatchMeta.away_marks(view.seats_to_act, True))
    )
    away = race.GetView(pb2.GetViewRequest(match_id="clocked"), metadata=seat("clocked", 0), timeout=5)
    assert all(c.seconds == 5 and 0 < c.remaining_ms <= 5_000 and c.away for c in away.clocks)
    for match in ("free", "bots"):
        assert not race.GetView(pb2.GetViewRequest(match_id=match), metadata=seat(match, 0), timeout=5).clocks
