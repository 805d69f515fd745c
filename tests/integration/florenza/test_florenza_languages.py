"""Florenza's rule service in the caller's language, over real gRPC and a private Redis: GetContent
answers in the call's locale (the Chinese rulebook's terms, the project's Portuguese), and a refused
command carries its ``google.rpc.LocalizedMessage`` from Florenza's translations while the status keeps
its English and the match is unchanged."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
import redis

from services.florenza.texts import TEXTS
from services.games import load_game, manifest
from shared.serving.errors import error_info, localized_message
from shared.serving.tokens import TokenSigner
from tests.support.game_server import Callers, served_stub

SIGNER = TokenSigner(b"florenza-languages-secret-0123456789ab")
CALLERS = Callers(SIGNER, "florenza")
BOSCAIUOLO = 3


def language(md: list[tuple[str, str]], wanted: str | None) -> list[tuple[str, str]]:
    return md + ([("accept-language", wanted)] if wanted else [])


@pytest.fixture
def served(redis_client: redis.Redis) -> Any:
    game = load_game("florenza")
    hook = manifest("florenza").content
    assert hook is not None
    with served_stub(game, redis_client, SIGNER, content=hook.build, texts=TEXTS) as stub:
        yield game.modules.pb2, stub


@pytest.mark.parametrize(
    ("wanted", "workshop", "anonymous"),
    [
        ("zh-CN", "作坊 3，Boscaiuolo：建造需 ", "无名画家"),
        ("pt-BR,pt;q=0.9", "Oficina 3, Boscaiuolo: custa ", "Pintor anônimo"),
        (None, "Workshop 3, Boscaiuolo: costs ", "Anonymous painter"),
    ],
)
def test_get_content_is_in_the_callers_language(
    served: Any, wanted: str | None, workshop: str, anonymous: str
) -> None:
    pb2, stub = served
    md = [("accept-language", wanted)] if wanted else []
    content = stub.GetContent(pb2.GetContentRequest(), metadata=md, timeout=30).content
    assert next(w for w in content.workshops if w.id == BOSCAIUOLO).text.startswith(workshop)
    assert anonymous in [a.name for a in content.artists]


@pytest.mark.parametrize(
    ("wanted", "locale", "says"),
    [
        ("zh-CN", "zh-CN", "现在不能行动"),
        ("pt-BR", "pt-BR", "não pode agir agora"),
        ("fr", "en", "may not act now"),
    ],
)
def test_a_refused_command_is_worded_in_the_callers_language(
    served: Any, redis_client: redis.Redis, wanted: str, locale: str, says: str
) -> None:
    pb2, stub = served
    request = pb2.CreateMatchRequest(match_id="m1", seats=3, seed=7)
    version = stub.CreateMatch(request, metadata=CALLERS.service, timeout=10).version
    view = stub.GetView(pb2.GetViewRequest(match_id="m1"), metadata=CALLERS.seat("m1", 0), timeout=10)
    idle = next(s for s in range(3) if s not in view.seats_to_act)
    before = {key: redis_client.xlen(key) for key in redis_client.scan_iter(_type="stream")}
    command = pb2.Command(**{"pass": pb2.Pass()})  # a seat whose turn it is not passes
    submit = pb2.SubmitCommandRequest(
        match_id="m1", expected_version=version, command_id="c1", command=command
    )
    with pytest.raises(grpc.RpcError) as refused:
        stub.SubmitCommand(submit, metadata=language(CALLERS.seat("m1", idle), wanted), timeout=10)
    err: Any = refused.value
    info, said = error_info(err), localized_message(err)
    assert (
        err.code() is grpc.StatusCode.FAILED_PRECONDITION
        and info is not None
        and info.reason == "not_your_turn"
    )
    assert err.details().endswith("may not act now")  # the status keeps its English
    assert said is not None and said.locale == locale and said.message.endswith(says), said
    assert {key: redis_client.xlen(key) for key in redis_client.scan_iter(_type="stream")} == before
