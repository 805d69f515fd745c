"""Refusals in the caller's language, from a real rule service over real gRPC and a private Redis
(the race test game): a refused command called with ``accept-language: zh-CN`` or ``pt-BR`` carries
the translated ``google.rpc.LocalizedMessage``, the same ErrorInfo reason and English status
message, and changes nothing in the match; without the header, or in a language not served, the
message is English. GetContent is built once per locale, in the call's locale."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
import yaml

from shared.core.codec import MessageCodec
from shared.core.i18n import Texts
from shared.core.reasons import reason_key, rule_reason_texts
from shared.matches.runner import MatchRunner
from shared.serving.errors import error_info, localized_message
from shared.serving.game_service import GameServicer
from shared.serving.grpc_server import start_server
from shared.serving.protogen import GameModules
from shared.serving.tokens import TokenSigner
from shared.store.redis_store import RedisEventStore
from tests.support.race.manifest import race_rules
from tests.support.race.protos import race_game_modules

SIGNER = TokenSigner(b"languages-test-secret-0123456789abcdef")
SERVICE = [("authorization", "Bearer " + SIGNER.service("race"))]
NOT_YOUR_TURN = reason_key("not_your_turn", "{actor} cannot {command} now")
TRANSLATIONS = {
    "zh-CN": {NOT_YOUR_TURN: "{actor} 现在不能执行 {command}"},
    "pt-BR": {NOT_YOUR_TURN: "{actor} não pode fazer {command} agora"},
}


def seat(match_id: str, n: int, language: str | None = None) -> list[tuple[str, str]]:
    md = [("authorization", "Bearer " + SIGNER.seat("race", match_id, n, f"p{n}"))]
    return md + ([("accept-language", language)] if language else [])


def race_texts(folder: Path) -> Texts:
    """The race's refusals as a game declares them (``rule_reason_texts`` of its rules), with
    translations in ``folder/locales``."""
    english = rule_reason_texts("tests/support/race/rules.py")
    assert english[NOT_YOUR_TURN] == "{actor} cannot {command} now"
    (folder / "locales").mkdir()
    for locale, texts in TRANSLATIONS.items():
        (folder / "locales" / f"{locale}.yaml").write_text(yaml.safe_dump(texts, allow_unicode=True), "utf-8")
    return Texts("race", folder, english)


@pytest.fixture(scope="module")
def race_modules(tmp_path_factory: pytest.TempPathFactory) -> GameModules:
    return race_game_modules(tmp_path_factory.mktemp("race"))


@pytest.fixture
def stub(race_modules: GameModules, redis_client: redis.Redis, tmp_path: Path) -> Iterator[Any]:
    rules = race_rules()
    codec = MessageCodec(race_modules.pb2, [*rules.event_types, *rules.command_types])
    runner = MatchRunner(rules, codec, RedisEventStore(redis_client))
    servicer = GameServicer(runner, race_modules, SIGNER, texts=race_texts(tmp_path))
    running = start_server([servicer.registration()])
    with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        yield race_modules.pb2_grpc.RaceServiceStub(channel)
    running.stop(0)


def streams(client: redis.Redis) -> dict[bytes, int]:
    """Every stream in Redis and its length: a refused command appends to none."""
    return {key: client.xlen(key) for key in client.scan_iter(_type="stream")}


def refused(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    return err.value


def roll(pb2: Any, version: int) -> Any:
    command = pb2.Command(roll=pb2.Roll())
    return pb2.SubmitCommandRequest(match_id="m1", expected_version=version, command_id="c1", command=command)


@pytest.mark.parametrize(
    ("language", "locale", "message"),
    [
        ("zh-CN", "zh-CN", "seat:1 现在不能执行 Roll"),
        ("pt-BR,pt;q=0.9", "pt-BR", "seat:1 não pode fazer Roll agora"),
        ("zh-Hans-CN;q=0.8, de;q=0.9", "zh-CN", "seat:1 现在不能执行 Roll"),
        (None, "en", "seat:1 cannot Roll now"),
        ("fr-FR", "en", "seat:1 cannot Roll now"),
    ],
)
def test_a_rule_refusal_is_in_the_callers_language_and_changes_nothing(
    stub: Any,
    race_modules: GameModules,
    redis_client: redis.Redis,
    language: str | None,
    locale: str,
    message: str,
) -> None:
    pb2 = race_modules.pb2
    request = pb2.CreateMatchRequest(match_id="m1", seats=2, options={"goal": "20"}, seed=42)
    version = stub.CreateMatch(request, metadata=SERVICE, timeout=5).version
    before = streams(redis_client)
    err = refused(lambda: stub.SubmitCommand(roll(pb2, version), metadata=seat("m1", 1, language), timeout=5))
    assert err.code() is grpc.StatusCode.FAILED_PRECONDITION
    info, said = error_info(err), localized_message(err)
    assert info is not None and info.reason == "not_your_turn"
    assert err.details() == "seat:1 cannot Roll now"  # the status keeps its English
    assert said is not None and (said.locale, said.message) == (locale, message)
    view = stub.GetView(pb2.GetViewRequest(match_id="m1"), metadata=seat("m1", 0), timeout=5)
    assert view.version == version and list(view.seats_to_act) == [0]  # nothing changed
    assert streams(redis_client) == before


def test_a_platform_refusal_is_translated_by_the_platforms_texts(
    stub: Any, race_modules: GameModules
) -> None:
    pb2 = race_modules.pb2
    request = pb2.CreateMatchRequest(match_id="m1", seats=2, options={"goal": "20"}, seed=42)
    version = stub.CreateMatch(request, metadata=SERVICE, timeout=5).version
    stale = roll(pb2, version - 1)
    for language, locale, message in [
        ("pt-BR", "pt-BR", f"partida m1: versão esperada {version - 1}, mas ela já está em {version}"),
        ("zh-CN", "zh-CN", f"对局 m1：预期版本为 {version - 1}，但已进行到 {version}"),
        (None, "en", f"match m1: expected version {version - 1}, stream is at {version}"),
    ]:
        err = refused(partial(stub.SubmitCommand, stale, metadata=seat("m1", 0, language), timeout=5))
        info, said = error_info(err), localized_message(err)
        assert err.code() is grpc.StatusCode.ABORTED and info is not None and info.reason == "stale_version"
        assert said is not None and (said.locale, said.message) == (locale, message)
    missing = pb2.GetViewRequest(match_id="nope")
    err = refused(lambda: stub.GetView(missing, metadata=seat("nope", 0, "pt-BR"), timeout=5))
    said = localized_message(err)
    assert said is not None and (said.locale, said.message) == ("pt-BR", "não há partida 'nope'")


def test_get_content_is_built_once_per_locale_in_the_callers_locale(
    race_modules: GameModules,
    redis_client: redis.Redis,
) -> None:
    from services.games import load_game, manifest

    lorenzo = load_game("lorenzo")
    hook = manifest("lorenzo").content
    assert hook is not None
    asked: list[str] = []

    def build(locale: str) -> Any:
        asked.append(locale)
        return hook.build(locale)

    runner = MatchRunner(lorenzo.rules, lorenzo.codec, RedisEventStore(redis_client))
    running = start_server([GameServicer(runner, lorenzo.modules, SIGNER, content=build).registration()])
    request = lorenzo.modules.pb2.GetContentRequest()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = lorenzo.modules.pb2_grpc.LorenzoServiceStub(channel)
            for language in ("pt-BR", None, "pt-BR,en;q=0.5", "zh-CN", "en-GB", "zh"):
                md = [("accept-language", language)] if language else []
                assert stub.GetContent(request, metadata=md, timeout=30).content.cards
    finally:
        running.stop(0)
    assert asked == ["pt-BR", "en", "zh-CN"]
