"""The lobby's refusals in the caller's language (metadata ``accept-language``): its own refusals
from the lobby's texts, the platform's from the platform's, English otherwise; the same ErrorInfo
reason and English status message whatever the language, and nothing changed (a real lobby over
gRPC on a private Redis)."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import grpc
import pytest
import redis
from tabula.lobby.v1 import lobby_pb2 as pb

from services.games import manifest
from shared.serving.errors import localized_message
from tests.integration.lobby.conftest import fails, sign_in, state_size


def speaking(md: list[tuple[str, str]], language: str | None) -> list[tuple[str, str]]:
    return md + ([("accept-language", language)] if language else [])


@pytest.mark.parametrize(
    ("language", "locale", "message"),
    [
        ("pt-BR", "pt-BR", "não há sala 'r-nowhere'"),
        ("zh-CN", "zh-CN", "没有房间 'r-nowhere'"),
        ("es-ES", "en", "no room 'r-nowhere'"),
        (None, "en", "no room 'r-nowhere'"),
    ],
)
def test_a_lobby_refusal_is_in_the_callers_language(
    stub: Any, redis_client: redis.Redis, language: str | None, locale: str, message: str
) -> None:
    ada = sign_in(stub, "Ada")
    before = state_size(redis_client)
    join = pb.JoinRoomRequest(room_id="r-nowhere")
    call = partial(stub.JoinRoom, join, metadata=speaking(ada.md, language), timeout=5)
    err = fails(call, grpc.StatusCode.NOT_FOUND, "not_found")
    said = localized_message(err)
    assert said is not None and (said.locale, said.message) == (locale, message)
    assert err.details() == "no room 'r-nowhere'"
    assert state_size(redis_client) == before


def test_the_lobbys_own_codes_and_values_are_translated(stub: Any, redis_client: redis.Redis) -> None:
    ada = sign_in(stub, "Ada")
    request = pb.CreateRoomRequest(game="race", seats=9, turn_seconds=60)
    call = partial(stub.CreateRoom, request, metadata=speaking(ada.md, "pt-BR,pt;q=0.9"), timeout=5)
    said = localized_message(fails(call, grpc.StatusCode.INVALID_ARGUMENT, "invalid_argument"))
    assert said is not None and said.locale == "pt-BR"
    assert said.message.startswith("race é para ") and said.message.endswith(" jogadores, não 9")
    room = stub.CreateRoom(
        pb.CreateRoomRequest(game="race", seats=2, turn_seconds=60), metadata=ada.md, timeout=5
    )
    ready = pb.SetReadyRequest(room_id=room.room.room_id, ready=True)
    bob = sign_in(stub, "Bob")
    call = partial(stub.SetReady, ready, metadata=speaking(bob.md, "zh-CN"), timeout=5)
    said = localized_message(fails(call, grpc.StatusCode.FAILED_PRECONDITION, "not_in_room"))
    assert said is not None and (said.locale, said.message) == ("zh-CN", f"你不在房间 {room.room.room_id} 中")
    token = speaking([("authorization", "Bearer nonsense")], "pt-BR")
    said = localized_message(
        fails(
            partial(stub.ListRooms, pb.ListRoomsRequest(), metadata=token, timeout=5),
            grpc.StatusCode.UNAUTHENTICATED,
            "bad_token",
        )
    )
    assert said is not None and (said.locale, said.message) == ("pt-BR", "o token está malformado")


def test_a_tournament_refusal_is_in_the_callers_language(stub: Any, redis_client: redis.Redis) -> None:
    """A refusal raised with values (the rounds a Swiss tournament takes) in Chinese, a plain one
    (registered twice) in Portuguese; its reason and English status message as ever."""
    from tabula.lobby.v1 import tournaments_pb2 as tpb

    ada = sign_in(stub, "Ada")
    before = state_size(redis_client)
    start = int(time.time() * 1000) + 60_000
    shape = {"name": "Cup", "game": "race", "format": tpb.TOURNAMENT_FORMAT_SWISS, "seats_per_table": 2}
    bad = tpb.CreateTournamentRequest(**shape, round_count=21, turn_seconds=60, start_at_ms=start)
    call = partial(stub.CreateTournament, bad, metadata=speaking(ada.md, "zh-CN"), timeout=5)
    err = fails(call, grpc.StatusCode.INVALID_ARGUMENT, "tournament_rounds")
    said = localized_message(err)
    assert said is not None and (said.locale, said.message) == (
        "zh-CN",
        "瑞士制锦标赛为 1 至 20 轮，不能是 21 轮",
    )
    assert err.details() == "a Swiss tournament has 1 to 20 rounds, not 21"
    assert state_size(redis_client) == before

    good = tpb.CreateTournamentRequest(**shape, round_count=2, turn_seconds=60, start_at_ms=start)
    made = stub.CreateTournament(good, metadata=ada.md, timeout=5).tournament
    join = tpb.RegisterForTournamentRequest(tournament_id=made.tournament_id)
    stub.RegisterForTournament(join, metadata=ada.md, timeout=5)
    call = partial(stub.RegisterForTournament, join, metadata=speaking(ada.md, "pt-BR"), timeout=5)
    err = fails(call, grpc.StatusCode.FAILED_PRECONDITION, "already_registered")
    said = localized_message(err)
    assert said is not None and (said.locale, said.message) == ("pt-BR", "o jogador já está inscrito")
    assert err.details() == "the player is registered already"


def _listed(stub: Any, language: str | None) -> dict[str, Any]:
    reply = stub.ListGames(pb.ListGamesRequest(), metadata=speaking([], language), timeout=30)
    return {g.name: g for g in reply.games}


def test_list_games_words_titles_and_options_in_the_callers_language(stub: Any) -> None:
    """The titles of the Chinese rulebooks, the descriptions and options' descriptions and labels from
    the games' and the platform's translations; the rest of the answer as in English."""
    english, chinese = _listed(stub, None), _listed(stub, "zh-CN,zh;q=0.9")
    lorenzo = chinese["lorenzo"]
    assert lorenzo.title == "伟大的罗伦佐" and english["lorenzo"].title == "Lorenzo il Magnifico"
    assert (chinese["trajan"].title, chinese["florenza"].title) == ("图拉真", "佛罗伦萨")
    assert lorenzo.description.startswith("三个时期") and "梵蒂冈发言" in lorenzo.description
    options = {o.name: o.description for o in lorenzo.options}
    assert "领袖卡" in options["advanced"] and options["undo"].startswith("玩家可以撤回")
    hidden = {o.name: o.description for o in chinese["florenza"].options}["hidden_certificates"]
    assert "声望点数纸牌" in hidden
    labels = {name: {o.name: o.label for o in game.options} for name, game in chinese.items()}
    assert labels["lorenzo"] == {"advanced": "进阶规则", "undo": "允许撤回"}
    assert labels["florenza"] == {"hidden_certificates": "隐藏声望点数纸牌", "undo": "允许撤回"}
    assert labels["race"] == {"goal": "Goal", "undo": "允许撤回"}  # the test game's Chinese leaves its own
    portuguese = _listed(stub, "pt-BR")
    assert {o.name: o.label for o in portuguese["lorenzo"].options} == {
        "advanced": "Regras Avançadas",
        "undo": "Desfazer jogadas",
    }
    assert {o.name: o.label for o in portuguese["race"].options}["goal"] == "Chegada"
    for name, game in chinese.items():
        plain = english[name]
        assert [(o.name, o.type, o.default_value) for o in game.options] == [
            (o.name, o.type, o.default_value) for o in plain.options
        ]
        assert (game.min_seats, game.max_seats) == (plain.min_seats, plain.max_seats)
    # a game whose texts do not translate its title (the test game) keeps its English, the platform's
    # option is still worded in Chinese
    race = chinese["race"]
    assert race.title == english["race"].title == "Dice race"
    assert {o.name: o.description for o in race.options}["undo"] == options["undo"]


def test_list_games_in_english_is_the_manifests_english(stub: Any) -> None:
    for language in (None, "en-GB", "fr-FR"):
        lorenzo = _listed(stub, language)["lorenzo"]
        m = manifest("lorenzo")
        assert (lorenzo.title, lorenzo.description) == (m.title, m.description)
        assert [o.description for o in lorenzo.options] == [o.description for o in m.match_options]
        # labels: the one the manifest declares, else the name's words
        assert [(o.name, o.label) for o in lorenzo.options] == [
            ("advanced", "Advanced rules"),
            ("undo", "Undo"),
        ]
        florenza = _listed(stub, language)["florenza"]
        assert [o.label for o in florenza.options] == ["Hidden certificates", "Undo"]
