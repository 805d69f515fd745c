"""Refusals in the caller's language through the gateway: its ``Accept-Language`` goes to the rule
service as the metadata ``accept-language``, and the refusal's ``google.rpc.LocalizedMessage``
comes back among the Connect error's details, beside the same ErrorInfo (a real Lorenzo service on
a private Redis, spoken to in Connect JSON as the web app does)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from google.rpc import error_details_pb2

from services.gateway.app import GatewayConfig
from services.gateway.rpc import RpcLimits
from tests.integration.gateway.support import GatewayThread, lorenzo_gateway, seat_token, service_token
from tests.integration.gateway.test_gateway import LORENZO, create, error_info, send


@pytest.fixture
def gw(redis_client: redis.Redis) -> Iterator[GatewayThread]:
    with lorenzo_gateway(redis_client, GatewayConfig(limits=RpcLimits(deadline_s=5))) as running:
        yield running


def call(gw: GatewayThread, method: str, body: Any, token: str, language: str | None) -> tuple[int, Any]:
    headers = {"Connect-Protocol-Version": "1", "Authorization": f"Bearer {token}"}
    if language is not None:
        headers["Accept-Language"] = language
    status, _, raw = send(gw, f"{LORENZO}/{method}", json.dumps(body).encode(), "application/json", headers)
    return status, json.loads(raw)


def localized(body: dict[str, Any]) -> error_details_pb2.LocalizedMessage:
    (detail,) = [d for d in body["details"] if d["type"] == "google.rpc.LocalizedMessage"]
    value = detail["value"]
    said = error_details_pb2.LocalizedMessage.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))
    assert detail["debug"] == {"locale": said.locale, "message": said.message}  # the readable copy
    return said


@pytest.mark.parametrize(
    ("language", "locale", "message"),
    [
        (
            "pt-BR,pt;q=0.9,en;q=0.8",
            "pt-BR",
            "partida m1: versão esperada {stale}, mas ela já está em {actual}",
        ),
        ("zh-CN,zh;q=0.9", "zh-CN", "对局 m1：预期版本为 {stale}，但已进行到 {actual}"),
        ("de-DE", "en", "match m1: expected version {stale}, stream is at {actual}"),
        (None, "en", "match m1: expected version {stale}, stream is at {actual}"),
    ],
)
def test_a_refusal_comes_back_in_the_accept_language_and_changes_nothing(
    gw: GatewayThread, language: str | None, locale: str, message: str
) -> None:
    version = create(gw)
    _, head = call(gw, "GetView", {"matchId": "m1"}, service_token(), None)
    token = seat_token("m1", head["seatsToAct"][0])
    _, view = call(gw, "GetView", {"matchId": "m1"}, token, None)
    stale = {"matchId": "m1", "expectedVersion": version + 5, "commandId": "x"}
    stale["command"] = view["legalCommands"][0]
    status, body = call(gw, "SubmitCommand", stale, token, language)
    assert status == 409 and body["code"] == "aborted"
    assert error_info(body).reason == "stale_version"
    said = localized(body)
    assert (said.locale, said.message) == (locale, message.format(stale=version + 5, actual=version))
    assert body["message"] == f"match m1: expected version {version + 5}, stream is at {version}"
    _, after = call(gw, "GetView", {"matchId": "m1"}, service_token(), None)
    assert after["version"] == head["version"] == view["version"]  # nothing changed


def test_a_token_refusal_is_translated_before_any_match_is_read(gw: GatewayThread) -> None:
    status, body = call(gw, "GetView", {"matchId": "m1"}, "not-a-token", "zh-CN")
    assert status == 401 and error_info(body).reason == "bad_token"
    said = localized(body)
    assert said.locale == "zh-CN" and "令牌" in said.message
